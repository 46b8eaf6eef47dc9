/*
 * names.c - display names (names.h): mangled names demangled, C++
 * signatures without return type and argument list, a column's labels
 * never two alike.
 */
#include "render/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/demangle.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

enum {
	FORM_SHORT, /* no return type, no argument list */
	FORM_ARGS,  /* no return type */
	FORM_WHOLE, /* demangled, as it is */
	FORM_RAW,   /* the trace's text */
	FORM_LAST = FORM_RAW
};

static int ident(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A character of an operator's symbol ("operator<<", "operator()", "operator[]"). */
static int opsym(unsigned char c)
{
	return c && strchr("()[]<>=!+-*/%^&|~,", c) != NULL;
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t k = strlen(suffix);
	return len >= k && !memcmp(s + len - k, suffix, k);
}

/* Length of "operator" plus its symbol when s[i] starts one as a whole word, else 0. */
static size_t operator_at(const char *s, size_t i, size_t end)
{
	size_t j = i + 8;
	if (end - i < 8 || memcmp(s + i, "operator", 8) ||
	    (i > 0 && ident((unsigned char)s[i - 1])))
		return 0;
	if (j < end && ident((unsigned char)s[j]))
		return 0;
	if (end - j >= 2 && (!memcmp(s + j, "()", 2) || !memcmp(s + j, "[]", 2)))
		return 8 +
		       2; /* the call and index operators: "operator()(int)" has its list after */
	while (j < end && j < i + 11 && opsym((unsigned char)s[j]) && !strchr("()[]", s[j]))
		j++;
	return j - i;
}

/*
 * When s (len bytes) is a C++ function signature: *name is where the
 * qualified name starts (after the return type) and *args where its
 * argument list's "(" is; returns 1. Otherwise 0 (the name stays whole).
 */
static int signature(const char *s, size_t len, size_t *name, size_t *args)
{
	size_t e = len, p, i, sp = (size_t)-1;
	int depth = 0, changed = 1;
	while (changed) { /* " const", " volatile", "&", "&&" after the list */
		changed = 0;
		while (e > 0 && s[e - 1] == ' ')
			e--;
		if (ends_with(s, e, " const") || ends_with(s, e, " volatile")) {
			e -= s[e - 1] == 't' ? 6 : 9;
			changed = 1;
		} else if (e > 1 && s[e - 1] == '&' &&
			   (s[e - 2] == ')' || s[e - 2] == ' ' || s[e - 2] == '&')) {
			e--;
			changed = 1;
		}
	}
	if (e < 3 || s[e - 1] != ')')
		return 0;
	for (p = e; p-- > 0;) { /* the "(" that opens the trailing list */
		if (s[p] == ')')
			depth++;
		else if (s[p] == '(' && --depth == 0)
			break;
	}
	if (depth != 0 || p == 0 || p >= e)
		return 0;
	for (i = p + 1; i < e && s[i] == ' '; i++)
		;
	if (s[i] >= '0' && s[i] <= '9') /* "file.py(12)": a line number, not arguments */
		return 0;
	if (!ident((unsigned char)s[p - 1]) && s[p - 1] != '>') {
		/* "operator()(...)", "operator<<(...)": the head ends with an operator's symbol */
		size_t k = p;
		while (k > 0 && opsym((unsigned char)s[k - 1]))
			k--;
		if (k < 8 || operator_at(s, k - 8, p) != p - (k - 8))
			return 0;
	}
	if (p >= 8 && operator_at(s, p - 8, p) == 8)
		return 0; /* "operator()" alone: the "()" is the name */
	/* the last space outside <>, (), [], {} ends the return type */
	depth = 0;
	for (i = 0; i < p; i++) {
		size_t op = operator_at(s, i, p);
		char c = s[i];
		if (op) {
			i += op - 1;
			continue;
		}
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' && !(i > 0 && s[i - 1] == '-')) || c == ')' || c == ']' ||
			 c == '}') {
			if (--depth < 0)
				return 0;
		} else if (c == ' ' && depth == 0 && !(i >= 8 && operator_at(s, i - 8, p) == 8)) {
			sp = i; /* (the space of "operator int", "operator new" is the name's) */
		}
	}
	if (depth != 0)
		return 0;
	if (sp != (size_t)-1 && (sp == 0 || s[sp - 1] == ':' || s[sp - 1] == ','))
		return 0; /* "evaluate_function: X(...)" is not a return type */
	*name = sp == (size_t)-1 ? 0 : sp + 1;
	*args = p;
	while (*args > *name && s[*args - 1] == ' ')
		(*args)--;
	return *args > *name;
}

/*
 * Length of a label prefix such as "span:" or "busbw: " (a word, one colon,
 * not "::", and the spaces after it) that a compare metric or an aggregate
 * statistic puts before a name; 0 when none.
 */
static size_t label_prefix(const char *s)
{
	size_t i;
	for (i = 0; i < 32 && ident((unsigned char)s[i]); i++)
		;
	if (i == 0 || s[i] != ':' || s[i + 1] == ':')
		return 0;
	for (i++; s[i] == ' '; i++)
		;
	return i;
}

/* The form of full at a level (FORM_*), malloc'd. */
static char *form(const char *full, int level)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	size_t pre = label_prefix(full), name, args;
	const char *rest = full + pre, *s;
	char *dm;
	if (level >= FORM_RAW)
		return pr_xstrdup(full);
	dm = pr_demangle(rest);
	s = dm ? dm : rest;
	pr_strbuf_add(&sb, full, pre);
	if (level < FORM_WHOLE && signature(s, strlen(s), &name, &args))
		pr_strbuf_add(&sb, s + name, (level == FORM_SHORT ? args : strlen(s)) - name);
	else
		pr_strbuf_addstr(&sb, s);
	free(dm);
	return pr_strbuf_detach(&sb, NULL);
}

const char *pr_name_display(const char *full, char *buf, size_t n)
{
	char *f;
	if (!n)
		return buf;
	f = form(full ? full : "", FORM_SHORT);
	pr_elide_mid(f, n - 1, buf, n);
	free(f);
	return buf;
}

void pr_name_column(pr_label_t *out, const char *const *names, size_t n, size_t w)
{
	char **f = pr_xcalloc(n ? n : 1, sizeof(*f));
	const char **cf = pr_xcalloc(n ? n : 1, sizeof(*cf));
	int *level = pr_xcalloc(n ? n : 1, sizeof(*level));
	char *hit = pr_xcalloc(n ? n : 1, 1);
	size_t i, j;
	int again = 1;
	for (i = 0; i < n; i++)
		f[i] = form(names[i] ? names[i] : "", FORM_SHORT);
	/* different names alike: those show more until they differ (the raw texts do) */
	while (again) {
		again = 0;
		memset(hit, 0, n ? n : 1);
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if (!strcmp(f[i], f[j]) &&
				    strcmp(names[i] ? names[i] : "", names[j] ? names[j] : ""))
					hit[i] = hit[j] = 1;
		for (i = 0; i < n; i++)
			if (hit[i] && level[i] < FORM_LAST) {
				free(f[i]);
				f[i] = form(names[i] ? names[i] : "", ++level[i]);
				again = 1;
			}
	}
	for (i = 0; i < n; i++)
		cf[i] = f[i];
	pr_elide_column(out, cf, n, w, 1);
	for (i = 0; i < n; i++)
		free(f[i]);
	free(f);
	free(cf);
	free(level);
	free(hit);
}

int pr_step_split(const char *name, char *kind, size_t n, long long *num)
{
	const char *hash = name ? strrchr(name, '#') : NULL;
	size_t len, digits = hash ? strspn(hash + 1, "0123456789") : 0;
	if (!name)
		name = "";
	if (!hash || !digits || hash[1 + digits] || digits > 15) {
		snprintf(kind, n, "%s", name);
		return 0;
	}
	len = (size_t)(hash - name);
	snprintf(kind, n, "%.*s", (int)(len < 200 ? len : 200), name);
	*num = strtoll(hash + 1, NULL, 10);
	return 1;
}

const char *pr_stream_label(const char *device, const char *stream, char *buf, size_t n)
{
	if (!stream)
		stream = "";
	if (!strncmp(stream, "stream ", 7))
		stream += 7;
	if (device && *device)
		snprintf(buf, n, "GPU %s stream %s", device, stream);
	else
		snprintf(buf, n, "stream %s", stream);
	return buf;
}
