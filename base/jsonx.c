/* jsonx.c - jansson helpers; see jsonx.h. */
#include "base/jsonx.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

json_t *pr_jnum(double v)
{
	if (!isfinite(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *pr_jint(int64_t v)
{
	return json_integer((json_int_t)v);
}

json_t *pr_jobj(const char *key, ...)
{
	json_t *o = json_object();
	va_list ap;
	va_start(ap, key);
	while (key) {
		json_t *v = va_arg(ap, json_t *);
		if (v)
			json_object_set_new(o, key, v);
		key = va_arg(ap, const char *);
	}
	va_end(ap);
	return o;
}

size_t pr_json_elem_end(const char *s, size_t i, size_t n)
{
	int depth = 0;
	for (; i < n; i++) {
		char c = s[i];
		if (c == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\' && i + 1 < n)
					i++;
			if (i >= n)
				return n;
		} else if (c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			if (!depth)
				return i;
			depth--;
		} else if (c == ',' && !depth) {
			return i;
		}
	}
	return n;
}

int pr_json_head_names_schema(const char *path, size_t head, const char *schema)
{
	char buf[4096], want[256];
	size_t n;
	FILE *f;
	if (snprintf(want, sizeof(want), "\"%s\"", schema) >= (int)sizeof(want))
		return 0;
	f = fopen(path, "rb");
	if (!f)
		return 0;
	n = fread(buf, 1, head < sizeof(buf) ? head : sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, "\"schema\"") && strstr(buf, want);
}
