/* jdoc.c - jansson documents from a pr_source, NaN/Infinity tolerated. */
#include "ingest/jdoc.h"

#include <math.h>
#include <string.h>

#include "store/strbuf.h"

int pr_jdoc_read_text(struct pr_source *src, struct pr_strbuf *out, long *nonfinite,
		      struct pr_error *err)
{
	static const char *const words[] = { "-Infinity", "Infinity", "NaN" };
	struct pr_strbuf raw = PR_STRBUF_INIT;
	char buf[65536];
	int in_str = 0, esc = 0;
	long n;
	size_t i, run = 0;
	while ((n = pr_source_read(src, buf, sizeof(buf), err)) > 0) {
		pr_strbuf_add(&raw, buf, (size_t)n);
		if (raw.len > PR_JDOC_MAX) {
			pr_strbuf_release(&raw);
			return pr_error_set(err, PR_E_LIMIT, "document larger than %zu MiB",
					    PR_JDOC_MAX >> 20);
		}
	}
	if (n < 0) {
		pr_strbuf_release(&raw);
		return -1;
	}
	for (i = 0; i < raw.len; i++) {
		char c = raw.buf[i];
		size_t k;
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
			continue;
		}
		if (c != 'N' && c != 'I' && c != '-')
			continue;
		for (k = 0; k < PR_ARRAY_SIZE(words); k++) {
			size_t l = strlen(words[k]);
			if (raw.len - i >= l && !memcmp(raw.buf + i, words[k], l)) {
				pr_strbuf_add(out, raw.buf + run, i - run);
				pr_strbuf_add(out, "null", 4);
				i += l - 1;
				run = i + 1;
				(*nonfinite)++;
				break;
			}
		}
	}
	pr_strbuf_add(out, raw.buf + run, raw.len - run);
	pr_strbuf_release(&raw);
	return 0;
}

json_t *pr_jdoc_load(struct pr_source *src, long *nonfinite, struct pr_error *err)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_error_t jerr;
	json_t *doc;
	long nf = 0;
	if (pr_jdoc_read_text(src, &sb, &nf, err)) {
		pr_strbuf_release(&sb);
		return NULL;
	}
	doc = json_loadb(sb.buf, sb.len, JSON_ALLOW_NUL, &jerr);
	pr_strbuf_release(&sb);
	if (!doc) {
		/* jansson says column 0 at the start of a line (e.g. an empty file). */
		pr_error_at(err, PR_E_PARSE, -1, jerr.line > 0 ? jerr.line : 1,
			    jerr.column > 0 ? jerr.column : 1, "%s", jerr.text);
		return NULL;
	}
	if (nonfinite)
		*nonfinite = nf;
	return doc;
}

int pr_jdoc_head_has(const unsigned char *head, size_t n, const char *const *keys)
{
	size_t i = 0, k;
	if (n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= n || head[i] != '{')
		return 0;
	for (k = 0; keys[k]; k++) {
		size_t kl = strlen(keys[k]), j;
		int found = 0;
		for (j = i; j + kl + 2 <= n && !found; j++)
			found = head[j] == '"' && !memcmp(head + j + 1, keys[k], kl) &&
				head[j + 1 + kl] == '"';
		if (!found)
			return 0;
	}
	return 1;
}

int pr_jget_num(const json_t *obj, const char *key, double *out)
{
	json_t *v = json_object_get(obj, key);
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return isfinite(*out) ? 0 : -1;
}

int pr_jget_int(const json_t *obj, const char *key, int64_t *out)
{
	json_t *v = json_object_get(obj, key);
	double d;
	if (json_is_integer(v)) {
		*out = (int64_t)json_integer_value(v);
		return 0;
	}
	if (!json_is_real(v))
		return -1;
	d = json_real_value(v);
	if (!isfinite(d) || d != floor(d) || fabs(d) > 9e15)
		return -1;
	*out = (int64_t)d;
	return 0;
}

const char *pr_jget_str(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}
