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
	FORM_TERSE, /* a kernel's name: FORM_SHORT without namespaces nor inner argument lists */
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

/* Length of the bracketed group opening at s[i] ('(' or '{' or '<'), to its match; 0 if open. */
static size_t group_len(const char *s, size_t i, size_t n)
{
	char open = s[i], close = open == '(' ? ')' : open == '{' ? '}' : '>';
	size_t j;
	int depth = 0;
	for (j = i; j < n; j++) {
		if (s[j] == open)
			depth++;
		else if (s[j] == close && !(close == '>' && j > 0 && s[j - 1] == '-') &&
			 --depth == 0)
			return j + 1 - i;
	}
	return 0;
}

/* The qualifiers that say nothing of a kernel, dropped even from the outermost name. */
static int noise_qualifier(const char *s, size_t n)
{
	static const char *const noise[] = { "at", "native", "detail", "c10", "std", "internal" };
	size_t k;
	for (k = 0; k < sizeof(noise) / sizeof(noise[0]); k++)
		if (strlen(noise[k]) == n && !memcmp(s, noise[k], n))
			return 1;
	return 0;
}

/*
 * After a function's argument list at s[i]: the " const" and the lambdas and call operators
 * scoped in it ("(...)::{lambda(int)#1}::operator()() const"); returns where the name goes on.
 */
static size_t skip_function_tail(const char *s, size_t i, size_t n)
{
	for (;;) {
		size_t g;
		if (n - i >= 6 && !memcmp(s + i, " const", 6) && (i + 6 == n || !ident(s[i + 6])))
			i += 6;
		else if (n - i >= 3 && !memcmp(s + i, "::{", 3) && (g = group_len(s, i + 2, n)))
			i += 2 + g;
		else if (n - i >= 12 && !memcmp(s + i, "::operator()", 12))
			i += 12 + (i + 12 < n && s[i + 12] == '(' ? group_len(s, i + 12, n) : 0);
		else
			return i;
	}
}

/*
 * The terse form of a kernel's C++ name s (n bytes, already without return type and outer
 * argument list) into sb: the namespaces go ("at::native::", "c10::", "(anonymous namespace)::";
 * the outermost name keeps those that are not noise: "cudnn::cnn::", "gemvx::"), and so do
 * the argument lists of the functions named inside it with their lambdas; "> >" closes as ">>".
 * "at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<
 * at::native::BinaryFunctor<c10::BFloat16, ..., at::native::binary_internal::MulFunctor<float> >
 * >(at::TensorIteratorBase&, ...)::{lambda(int)#1}>" is "elementwise_kernel<128, 4,
 * gpu_kernel_impl_nocast<BinaryFunctor<BFloat16, ..., MulFunctor<float>>>>".
 */
static void terse(struct pr_strbuf *sb, const char *name, size_t len)
{
	struct pr_strbuf t = PR_STRBUF_INIT;
	const char *s;
	size_t i, n, tail;
	int depth = 0;
	i = 0; /* a return type the signature rule left (a lambda's name ends in "}", not ")") */
	if (len > 15 && !memcmp(name, "__global__ void ", 16))
		i = 16;
	else if (len > 5 && !memcmp(name, "void ", 5))
		i = 5;
	for (; i < len;) { /* "(anonymous namespace)::" first: it breaks a chain of names */
		if (len - i >= 23 && !memcmp(name + i, "(anonymous namespace)::", 23))
			i += 23;
		else
			pr_strbuf_addch(&t, name[i++]);
	}
	s = t.buf;
	n = t.len;
	for (i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		if (ident(c) && (i == 0 || !ident((unsigned char)s[i - 1]))) {
			/* a chain "q1::q2::name": its name, after the outermost name's qualifiers
			 * that are not noise */
			size_t j = i;
			for (;;) {
				size_t q = j;
				while (j < n && ident((unsigned char)s[j]))
					j++;
				if (j + 2 < n && s[j] == ':' && s[j + 1] == ':' &&
				    ident((unsigned char)s[j + 2])) {
					if (depth == 0 && !noise_qualifier(s + q, j - q))
						pr_strbuf_add(sb, s + q, j + 2 - q);
					j += 2;
					continue;
				}
				pr_strbuf_add(sb, s + q, j - q);
				break;
			}
			i = j;
		} else if (c == '(' && i > 0 &&
			   (ident((unsigned char)s[i - 1]) || s[i - 1] == '>') &&
			   group_len(s, i, n)) {
			i = skip_function_tail(s, i + group_len(s, i, n), n);
		} else if (c == ':' && (tail = skip_function_tail(s, i, n)) > i) {
			i = tail; /* a call operator or lambda not after a list */
		} else {
			if (c == '<')
				depth++;
			else if (c == '>' && !(i > 0 && s[i - 1] == '-') && depth > 0)
				depth--;
			/* "> >" closes as ">>" */
			if (!(c == ' ' && i + 1 < n && s[i + 1] == '>' && sb->len &&
			      sb->buf[sb->len - 1] == '>'))
				pr_strbuf_addch(sb, (char)c);
			i++;
		}
	}
	pr_strbuf_release(&t);
}

/*
 * Whether s (n bytes) reads as a C++ kernel's name, whose namespaces and inner argument lists
 * the terse form drops: qualified ("::") and templated or scoped in a function ("<", "::{"),
 * not a Python frame ("<built-in method ...>", "file.py(12): f"), an op ("aten::mm") nor a label.
 */
static int kernel_like(const char *s, size_t n)
{
	const char *q = memchr(s, ':', n);
	if (!n || s[0] == '<' || !q || (size_t)(q - s) + 1 >= n || q[1] != ':')
		return 0;
	if (memchr(s, '<', n))
		return 1;
	for (; (size_t)(q - s) + 2 < n; q++)
		if (q[0] == ':' && q[1] == ':' && q[2] == '{')
			return 1;
	return 0;
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
	if (level < FORM_WHOLE && signature(s, strlen(s), &name, &args)) {
		size_t end = level <= FORM_SHORT ? args : strlen(s);
		if (level == FORM_TERSE && kernel_like(s + name, end - name))
			terse(&sb, s + name, end - name);
		else
			pr_strbuf_add(&sb, s + name, end - name);
	} else if (level == FORM_TERSE && kernel_like(s, strlen(s))) {
		terse(&sb, s, strlen(s));
	} else {
		pr_strbuf_addstr(&sb, s);
	}
	free(dm);
	return pr_strbuf_detach(&sb, NULL);
}

const char *pr_name_display(const char *full, char *buf, size_t n)
{
	char *f;
	if (!n)
		return buf;
	f = form(full ? full : "", FORM_TERSE);
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
		f[i] = form(names[i] ? names[i] : "", FORM_TERSE);
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
