/* strbuf.c - growable NUL-terminated byte strings. */
#include "base/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

char pr_strbuf_slopbuf[1];

void pr_strbuf_init(struct pr_strbuf *sb)
{
	sb->buf = pr_strbuf_slopbuf;
	sb->len = sb->alloc = 0;
}

void pr_strbuf_release(struct pr_strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	pr_strbuf_init(sb);
}

char *pr_strbuf_detach(struct pr_strbuf *sb, size_t *len)
{
	char *p;
	if (!sb->alloc)
		pr_strbuf_grow(sb, 0);
	p = sb->buf;
	if (len)
		*len = sb->len;
	pr_strbuf_init(sb);
	return p;
}

void pr_strbuf_grow(struct pr_strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	int fresh = !sb->alloc;
	if (need < sb->len)
		abort();
	if (need <= sb->alloc)
		return;
	if (need < 64)
		need = 64;
	if (need < sb->alloc + sb->alloc / 2)
		need = sb->alloc + sb->alloc / 2;
	sb->buf = pr_xrealloc(fresh ? NULL : sb->buf, need);
	sb->alloc = need;
	if (fresh)
		sb->buf[0] = '\0';
}

void pr_strbuf_reset(struct pr_strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void pr_strbuf_add(struct pr_strbuf *sb, const void *p, size_t n)
{
	pr_strbuf_grow(sb, n);
	if (n)
		memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void pr_strbuf_addstr(struct pr_strbuf *sb, const char *s)
{
	pr_strbuf_add(sb, s, strlen(s));
}

void pr_strbuf_addpart(struct pr_strbuf *sb, const char *sep, const char *part)
{
	if (!part || !*part)
		return;
	if (sb->len)
		pr_strbuf_addstr(sb, sep);
	pr_strbuf_addstr(sb, part);
}

void pr_strbuf_addch(struct pr_strbuf *sb, char c)
{
	pr_strbuf_addch_fast(sb, c);
}

void pr_strbuf_vaddf(struct pr_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	pr_strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void pr_strbuf_addf(struct pr_strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pr_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}
