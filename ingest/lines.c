/* lines.c - the line reader of lines.h. */
#include "ingest/lines.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void pr_lines_init(struct pr_lines *r, struct pr_source *src, size_t max, const char *what)
{
	memset(r, 0, sizeof(*r));
	r->src = src;
	r->max = max;
	r->cap = max < 65536 ? max : 65536;
	r->buf = pr_xmalloc(r->cap);
	r->what = what;
}

void pr_lines_release(struct pr_lines *r)
{
	free(r->buf);
	r->buf = NULL;
}

int pr_lines_next(struct pr_lines *r, char **out, struct pr_error *err)
{
	size_t scan = r->pos;
	for (;;) {
		char *nl = memchr(r->buf + scan, '\n', r->len - scan);
		long n;
		if (nl || (r->eof && r->pos < r->len)) {
			char *s = r->buf + r->pos;
			size_t len = nl ? (size_t)(nl - s) : r->len - r->pos;
			r->off = pr_source_consumed(r->src) - (int64_t)(r->len - r->pos);
			r->pos += len + (nl ? 1 : 0);
			s[len] = '\0';
			if (len && s[len - 1] == '\r')
				s[--len] = '\0';
			if (++r->line == 1 && !strncmp(s, "\xEF\xBB\xBF", 3)) {
				s += 3;
				len -= 3;
			}
			*out = s;
			r->n = len;
			return 1;
		}
		if (r->eof)
			return 0;
		if (r->pos > 0) {
			memmove(r->buf, r->buf + r->pos, r->len - r->pos);
			r->len -= r->pos;
			r->pos = 0;
		}
		scan = r->len;
		if (r->len + 1 >= r->cap) {
			if (r->cap >= r->max)
				return pr_error_at(err, PR_E_LIMIT, -1, r->line + 1, 1,
						   "%s line longer than %zu KiB: not %s output",
						   r->what, r->max >> 10, r->what);
			r->cap = r->cap * 2 > r->max ? r->max : r->cap * 2;
			r->buf = pr_xrealloc(r->buf, r->cap);
		}
		/* one byte kept free for the NUL of a last line without LF */
		n = pr_source_read(r->src, r->buf + r->len, r->cap - r->len - 1, err);
		if (n < 0)
			return -1;
		if (n == 0)
			r->eof = 1;
		r->len += (size_t)n;
	}
}
