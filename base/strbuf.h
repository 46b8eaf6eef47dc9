/*
 * strbuf.h - growable byte string, always NUL-terminated.
 *
 * USAGE: struct pr_strbuf sb = PR_STRBUF_INIT; pr_strbuf_add(&sb, p, n); ...
 * pr_strbuf_release(&sb);  A released buffer is an empty, reusable buffer.
 * OWNERSHIP: pr_strbuf_detach() hands the storage to the caller (free()).
 */
#ifndef PR_STRBUF_H
#define PR_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "base/pr_common.h"

struct pr_strbuf {
	char *buf;
	size_t len, alloc;
};

extern char pr_strbuf_slopbuf[];
#define PR_STRBUF_INIT                                                                             \
	{                                                                                          \
		pr_strbuf_slopbuf, 0, 0                                                            \
	}

void pr_strbuf_init(struct pr_strbuf *sb);
void pr_strbuf_release(struct pr_strbuf *sb);
char *pr_strbuf_detach(struct pr_strbuf *sb, size_t *len);
void pr_strbuf_grow(struct pr_strbuf *sb, size_t extra);
void pr_strbuf_reset(struct pr_strbuf *sb);
void pr_strbuf_add(struct pr_strbuf *sb, const void *p, size_t n);
void pr_strbuf_addstr(struct pr_strbuf *sb, const char *s);
void pr_strbuf_addch(struct pr_strbuf *sb, char c);
/* Appends part (when non-empty), preceded by sep when sb is not empty: "a / b / c". */
void pr_strbuf_addpart(struct pr_strbuf *sb, const char *sep, const char *part);
void pr_strbuf_addf(struct pr_strbuf *sb, const char *fmt, ...) PR_PRINTF_LIKE(2, 3);
void pr_strbuf_vaddf(struct pr_strbuf *sb, const char *fmt, va_list ap) PR_PRINTF_LIKE(2, 0);

/* Inline fast path of pr_strbuf_add for hot loops. */
static inline void pr_strbuf_add_fast(struct pr_strbuf *sb, const void *p, size_t n)
{
	if (sb->len + n >= sb->alloc)
		pr_strbuf_grow(sb, n);
	__builtin_memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static inline void pr_strbuf_addch_fast(struct pr_strbuf *sb, char c)
{
	if (sb->len + 1 >= sb->alloc)
		pr_strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

#endif
