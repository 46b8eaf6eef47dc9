/* csv.c - streaming RFC 4180 record reader (contract in csv.h). */
#include "ingest/csv.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define CSV_CHUNK 65536

enum csv_state {
	S_START, /* at the start of a field (blanks skipped with PR_CSV_TRIM) */
	S_UNQ,	 /* inside an unquoted field */
	S_Q,	 /* inside a quoted field */
	S_QQ,	 /* a quote inside a quoted field: doubled, or the closing one */
	S_AFTER, /* blanks after a closing quote */
};

struct pr_csv {
	struct pr_source *src;	  /* NULL when reading memory */
	unsigned char *chunk;	  /* read buffer (source mode) */
	const unsigned char *buf; /* current window: chunk or the caller's memory */
	size_t len, pos;	  /* window length, next byte */
	int eof, started, failed; /* no more input; BOM handled; sticky error */
	int skip_lf;		  /* the last record ended at a CR: drop one LF */
	int prev_cr;		  /* the previous byte was a CR (line counting) */
	size_t max_record, max_fields;
	int trim;
	int64_t offset; /* stream offset of buf[pos] */
	long line, col; /* position of buf[pos] */

	char *rec;			    /* field bytes, each field NUL-terminated */
	size_t rec_len, rec_cap, rec_bytes; /* rec_bytes: field text only */
	struct pr_csv_field *fields;
	size_t *foff; /* field offsets in rec while building */
	size_t nf, fcap;
	long rec_line;
	int64_t rec_offset, nrec;
	struct pr_error saved; /* the error to repeat after a failure */
};

static struct pr_csv *csv_new(const struct pr_csv_opts *opts)
{
	struct pr_csv *c = pr_xcalloc(1, sizeof(*c));
	c->max_record = opts && opts->max_record ? opts->max_record : PR_CSV_MAX_RECORD;
	c->max_fields = opts && opts->max_fields ? opts->max_fields : PR_CSV_MAX_FIELDS;
	c->trim = opts && (opts->flags & PR_CSV_TRIM);
	c->line = c->col = 1;
	pr_error_init(&c->saved);
	return c;
}

struct pr_csv *pr_csv_new_source(struct pr_source *src, const struct pr_csv_opts *opts)
{
	struct pr_csv *c = csv_new(opts);
	c->src = src;
	c->chunk = pr_xmalloc(CSV_CHUNK);
	c->buf = c->chunk;
	return c;
}

struct pr_csv *pr_csv_new_mem(const void *p, size_t n, const struct pr_csv_opts *opts)
{
	struct pr_csv *c = csv_new(opts);
	c->buf = p;
	c->len = n;
	c->eof = 1; /* nothing beyond the window */
	return c;
}

void pr_csv_free(struct pr_csv *c)
{
	if (!c)
		return;
	free(c->chunk);
	free(c->rec);
	free(c->fields);
	free(c->foff);
	free(c);
}

/* Makes buf[pos] available: 1, 0 at end of input, -1 on a read error. */
static int refill(struct pr_csv *c, struct pr_error *err)
{
	long r;
	if (c->pos < c->len)
		return 1;
	if (c->eof)
		return 0;
	r = pr_source_read(c->src, c->chunk, CSV_CHUNK, err);
	if (r < 0)
		return -1;
	if (r == 0) {
		c->eof = 1;
		return 0;
	}
	c->len = (size_t)r;
	c->pos = 0;
	return 1;
}

/* Skips a UTF-8 BOM at the very start of the stream. */
static int skip_bom(struct pr_csv *c, struct pr_error *err)
{
	while (c->src && c->len < 3 && !c->eof) {
		long r = pr_source_read(c->src, c->chunk + c->len, CSV_CHUNK - c->len, err);
		if (r < 0)
			return -1;
		if (r == 0)
			c->eof = 1;
		c->len += (size_t)r;
	}
	if (c->len >= 3 && c->buf[0] == 0xEF && c->buf[1] == 0xBB && c->buf[2] == 0xBF) {
		c->pos = 3;
		c->offset = 3;
	}
	c->started = 1;
	return 0;
}

static int fail(struct pr_csv *c, struct pr_error *err)
{
	c->failed = 1;
	c->saved = *err;
	return -1;
}

static void rec_reserve(struct pr_csv *c, size_t extra)
{
	size_t need = c->rec_len + extra;
	if (need <= c->rec_cap)
		return;
	if (need < 256)
		need = 256;
	if (need < c->rec_cap * 2)
		need = c->rec_cap * 2;
	c->rec = pr_xrealloc(c->rec, need);
	c->rec_cap = need;
}

/* Appends k field bytes; line/col locate p[0] for the limit error. */
static int add_bytes(struct pr_csv *c, const unsigned char *p, size_t k, long line, long col,
		     struct pr_error *err)
{
	if (k > c->max_record - c->rec_bytes) {
		long over = col + (long)(c->max_record - c->rec_bytes);
		pr_error_at(err, PR_E_LIMIT, -1, line, over, "record longer than %zu bytes",
			    c->max_record);
		return fail(c, err);
	}
	rec_reserve(c, k);
	memcpy(c->rec + c->rec_len, p, k);
	c->rec_len += k;
	c->rec_bytes += k;
	return 0;
}

static int is_blank(unsigned char b)
{
	return b == ' ' || b == '\t';
}

/* Ends the field that started at rec offset fstart. */
static int end_field(struct pr_csv *c, size_t fstart, long fline, long fcol, int quoted,
		     struct pr_error *err)
{
	struct pr_csv_field *f;
	if (c->nf == c->max_fields) {
		pr_error_at(err, PR_E_LIMIT, -1, fline, fcol, "more than %zu fields in a record",
			    c->max_fields);
		return fail(c, err);
	}
	if (c->trim && !quoted) {
		while (c->rec_len > fstart && is_blank((unsigned char)c->rec[c->rec_len - 1])) {
			c->rec_len--;
			c->rec_bytes--;
		}
	}
	rec_reserve(c, 1);
	c->rec[c->rec_len++] = '\0';
	if (c->nf == c->fcap) {
		c->fcap = c->fcap ? c->fcap * 2 : 16;
		c->fields = pr_xreallocarray(c->fields, c->fcap, sizeof(*c->fields));
		c->foff = pr_xreallocarray(c->foff, c->fcap, sizeof(*c->foff));
	}
	f = &c->fields[c->nf];
	c->foff[c->nf] = fstart;
	f->n = c->rec_len - 1 - fstart;
	f->col = fcol;
	f->quoted = quoted;
	c->nf++;
	return 0;
}

int pr_csv_next(struct pr_csv *c, struct pr_error *err)
{
	enum csv_state st = S_START;
	int started = 0, any = 0, quoted = 0, fpos_set = 0;
	size_t fstart = 0, i;
	long fline = 0, fcol = 0, qline = 0, qcol = 0;
	unsigned char b;

	if (c->failed) {
		*err = c->saved;
		return -1;
	}
	if (!c->started && skip_bom(c, err))
		return fail(c, err);
	c->rec_len = c->rec_bytes = 0;
	c->nf = 0;

	for (;;) {
		long bl, bc;
		int r;
		if (c->pos == c->len) {
			r = refill(c, err);
			if (r < 0)
				return fail(c, err);
			if (r == 0)
				break;
		}
		/* Fast path: a run of ordinary bytes inside a field. */
		if (st == S_UNQ || st == S_Q) {
			const unsigned char *p = c->buf + c->pos, *q = p, *e = c->buf + c->len;
			unsigned char stop = st == S_UNQ ? ',' : '"';
			size_t k;
			while (q < e && *q != stop && *q != '\n' && *q != '\r')
				q++;
			k = (size_t)(q - p);
			if (k) {
				if (add_bytes(c, p, k, c->line, c->col, err))
					return -1;
				c->pos += k;
				c->offset += (int64_t)k;
				c->col += (long)k;
				c->prev_cr = 0;
				continue;
			}
		}
		b = c->buf[c->pos++];
		c->offset++;
		bl = c->line;
		bc = c->col;
		if (b == '\n') {
			if (!c->prev_cr)
				c->line++;
			c->col = 1;
		} else if (b == '\r') {
			c->line++;
			c->col = 1;
		} else {
			c->col++;
		}
		c->prev_cr = b == '\r';
		if (c->skip_lf) {
			c->skip_lf = 0;
			if (b == '\n')
				continue;
		}
		switch (st) {
		case S_START:
			if (!started) {
				started = 1;
				c->rec_line = bl;
				c->rec_offset = c->offset - 1;
			}
			if (!fpos_set) {
				fpos_set = 1;
				fline = bl;
				fcol = bc;
				fstart = c->rec_len;
				quoted = 0;
			}
			if (c->trim && is_blank(b))
				break;
			if (b == '"') {
				st = S_Q;
				quoted = any = 1;
				fline = qline = bl;
				fcol = qcol = bc;
			} else if (b == ',') {
				any = 1;
				if (end_field(c, fstart, fline, fcol, 0, err))
					return -1;
				fpos_set = 0;
			} else if (b == '\n' || b == '\r') {
				if (c->nf == 0 && !any) { /* blank line */
					started = fpos_set = 0;
					c->skip_lf = b == '\r';
					break;
				}
				if (end_field(c, fstart, fline, fcol, 0, err))
					return -1;
				c->skip_lf = b == '\r';
				goto done;
			} else {
				st = S_UNQ;
				any = 1;
				fline = bl;
				fcol = bc;
				if (add_bytes(c, &b, 1, bl, bc, err))
					return -1;
			}
			break;
		case S_UNQ:
		case S_QQ:
		case S_AFTER:
			if (st == S_QQ && b == '"') {
				if (add_bytes(c, &b, 1, bl, bc, err))
					return -1;
				st = S_Q;
			} else if (b == ',') {
				if (end_field(c, fstart, fline, fcol, quoted, err))
					return -1;
				st = S_START;
				fpos_set = 0;
			} else if (b == '\n' || b == '\r') {
				if (end_field(c, fstart, fline, fcol, quoted, err))
					return -1;
				c->skip_lf = b == '\r';
				goto done;
			} else if (st == S_UNQ) {
				if (add_bytes(c, &b, 1, bl, bc, err))
					return -1;
			} else if (is_blank(b)) {
				st = S_AFTER;
			} else {
				pr_error_at(err, PR_E_PARSE, -1, bl, bc,
					    "unexpected character after a closing quote");
				return fail(c, err);
			}
			break;
		case S_Q:
			if (b == '"')
				st = S_QQ;
			else if (add_bytes(c, &b, 1, bl, bc, err))
				return -1;
			break;
		}
	}
	/* end of input */
	if (st == S_Q) {
		pr_error_at(err, PR_E_PARSE, -1, qline, qcol, "unterminated quoted field");
		return fail(c, err);
	}
	if (!started || (c->nf == 0 && !any))
		return 0;
	if (end_field(c, fstart, fline, fcol, quoted, err))
		return -1;
done:
	for (i = 0; i < c->nf; i++)
		c->fields[i].p = c->rec + c->foff[i];
	c->nrec++;
	return 1;
}

const struct pr_csv_field *pr_csv_fields(const struct pr_csv *c, size_t *n)
{
	*n = c->nf;
	return c->fields;
}

long pr_csv_line(const struct pr_csv *c)
{
	return c->rec_line;
}

int64_t pr_csv_offset(const struct pr_csv *c)
{
	return c->rec_offset;
}

int64_t pr_csv_records(const struct pr_csv *c)
{
	return c->nrec;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when invalid. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char b = p[0];
	size_t k, i;
	uint32_t cp;
	if (b < 0x80)
		return 1;
	if (b >= 0xC2 && b <= 0xDF) {
		k = 2;
		cp = b & 0x1F;
	} else if (b >= 0xE0 && b <= 0xEF) {
		k = 3;
		cp = b & 0x0F;
	} else if (b >= 0xF0 && b <= 0xF4) {
		k = 4;
		cp = b & 0x07;
	} else {
		return 0;
	}
	if (k > n)
		return 0;
	for (i = 1; i < k; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return k;
}

static int is_ctl(unsigned char b)
{
	return (b < 0x20 && b != '\t') || b == 0x7F;
}

int pr_csv_text_ok(const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, k;
	while (i < n) {
		if (s[i] < 0x80) {
			if (is_ctl(s[i]))
				return 0;
			i++;
			continue;
		}
		k = utf8_seq(s + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

size_t pr_csv_text_clean(struct pr_strbuf *out, const char *p, size_t n)
{
	const unsigned char *s = (const unsigned char *)p;
	size_t i = 0, k, bad = 0;
	while (i < n) {
		k = s[i] < 0x80 ? (is_ctl(s[i]) ? 0 : 1) : utf8_seq(s + i, n - i);
		if (!k) {
			pr_strbuf_addch(out, '?');
			bad++;
			i++;
			continue;
		}
		pr_strbuf_add(out, s + i, k);
		i += k;
	}
	return bad;
}
