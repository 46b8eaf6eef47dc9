/* error.c - struct pr_error helpers. */
#include "base/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void pr_error_init(struct pr_error *err)
{
	struct pr_error blank = PR_ERROR_INIT;
	*err = blank;
}

int pr_error_vset(struct pr_error *err, enum pr_errcode code, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	err->code = code;
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	return -1;
}

int pr_error_set(struct pr_error *err, enum pr_errcode code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pr_error_vset(err, code, fmt, ap);
	va_end(ap);
	return -1;
}

int pr_error_at(struct pr_error *err, enum pr_errcode code, int64_t offset, long line, long column,
		const char *fmt, ...)
{
	va_list ap;
	if (!err)
		return -1;
	va_start(ap, fmt);
	pr_error_vset(err, code, fmt, ap);
	va_end(ap);
	err->offset = offset;
	err->line = line;
	err->column = column;
	return -1;
}

void pr_error_set_source(struct pr_error *err, const char *source)
{
	if (err && source)
		snprintf(err->source, sizeof(err->source), "%s", pr_path_shown(source));
}

/*
 * The bidirectional formatting controls (U+200E/F marks, U+202A..202E
 * embeddings and overrides, U+2066..2069 isolates), given the two bytes after
 * UTF-8's E2: they reorder what a terminal shows (a name that reads backwards),
 * so they are escaped like control characters.
 */
static int is_bidi(unsigned char b1, unsigned char b2)
{
	return (b1 == 0x80 && (b2 == 0x8e || b2 == 0x8f || (b2 >= 0xaa && b2 <= 0xae))) ||
	       (b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9);
}

size_t pr_visible_unit(const char *s, size_t n, int keep_lines, char esc[8])
{
	unsigned char c = (unsigned char)s[0];
	esc[0] = '\0';
	if (keep_lines && (c == '\n' || c == '\t'))
		return 1;
	if (!keep_lines && (c == '\n' || c == '\r' || c == '\t')) {
		snprintf(esc, 8, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
	} else if (c < 0x20 || c == 0x7f) {
		snprintf(esc, 8, "\\x%02x", c);
	} else if (c == 0xc2 && n > 1 && (unsigned char)s[1] >= 0x80 &&
		   (unsigned char)s[1] <= 0x9f) {
		snprintf(esc, 8, "\\u%04x", (unsigned char)s[1]);
		return 2;
	} else if (c == 0xe2 && n > 2 && is_bidi((unsigned char)s[1], (unsigned char)s[2])) {
		unsigned cp = 0x2000u | ((unsigned)((unsigned char)s[1] & 0x3f) << 6) |
			      ((unsigned char)s[2] & 0x3f);
		snprintf(esc, 8, "\\u%04x", cp);
		return 3;
	}
	return 1;
}

void pr_error_escape(const char *s, char *buf, size_t n)
{
	size_t o = 0, len = strlen(s), i = 0;
	if (!n)
		return;
	while (i < len) {
		char esc[8];
		size_t u = pr_visible_unit(s + i, len - i, 0, esc);
		const char *out = *esc ? esc : s + i;
		size_t k = *esc ? strlen(esc) : u;
		if (o + k >= n)
			break;
		memcpy(buf + o, out, k);
		o += k;
		i += u;
	}
	buf[o] = '\0';
}

void pr_error_format(const struct pr_error *err, char *buf, size_t n)
{
	char src[4 * sizeof(err->source)], text[4 * sizeof(err->text)];
	pr_error_escape(err->source, src, sizeof(src));
	pr_error_escape(err->text, text, sizeof(text));
	if (!err->source[0])
		snprintf(buf, n, "%s", text);
	else if (err->line > 0 && err->column > 0)
		snprintf(buf, n, "'%s':%ld:%ld: %s", src, err->line, err->column, text);
	else if (err->line > 0)
		snprintf(buf, n, "'%s':%ld: %s", src, err->line, text);
	else
		snprintf(buf, n, "'%s': %s", src, text);
}

/* ---- names shown for paths ---- */

struct shown {
	char *path, *shown;
};
static struct shown *shown_v;
static size_t shown_n;

void pr_path_set_shown(const char *path, const char *shown)
{
	shown_v = pr_xreallocarray(shown_v, shown_n + 1, sizeof(*shown_v));
	shown_v[shown_n].path = pr_xstrdup(path);
	shown_v[shown_n++].shown = pr_xstrdup(shown);
}

const char *pr_path_shown(const char *path)
{
	size_t i;
	for (i = 0; path && i < shown_n; i++)
		if (!strcmp(shown_v[i].path, path))
			return shown_v[i].shown;
	return path;
}

void pr_path_shown_release(void)
{
	size_t i;
	for (i = 0; i < shown_n; i++) {
		free(shown_v[i].path);
		free(shown_v[i].shown);
	}
	free(shown_v);
	shown_v = NULL;
	shown_n = 0;
}

int pr_error_exit_code(enum pr_errcode code)
{
	switch (code) {
	case PR_OK:
		return 0;
	case PR_E_REGRESSION:
		return 1;
	default:
		return 2;
	}
}

void pr_bug(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "profreport: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}
