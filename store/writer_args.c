/*
 * writer_args.c - args stored split: a JSON object becomes a key list and a
 * value array; an end event's args are merged into its span's.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "store/writer_impl.h"
#include "base/jscan.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
		i++;
	return i;
}

/* A scanner over s[0..n), the whole text (base/jscan.h); raw control characters in strings are
 * kept as they are, as the parsers that wrote the text kept them. */
static void scanner(struct js_ctx *c, const char *s, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->buf = s;
	c->len = n;
	c->eof = 1;
	c->flags = JS_LENIENT;
}

/* End of the string starting at s[i] == '"', or 0 if it is not a valid one. */
static size_t skip_string(const char *s, size_t n, size_t i)
{
	struct js_ctx c;
	struct js_str str;
	scanner(&c, s, n);
	return js_string(&c, &i, &str) == JS_OK ? i : 0;
}

/* End of the JSON value at s[i], or 0 if none starts there. */
static size_t skip_json(const char *s, size_t n, size_t i)
{
	struct js_ctx c;
	if (i >= n)
		return 0;
	scanner(&c, s, n);
	return js_value(&c, &i, NULL) == JS_OK ? i : 0;
}

/*
 * Splits a JSON object's text into its key list ["k1",...] and value list
 * [v1,...], both as JSON text. Returns 0, or -1 if s is not an object.
 */
int pr_wr_split_args(const char *s, size_t n, struct pr_strbuf *keys, struct pr_strbuf *vals)
{
	size_t i = skip_ws(s, n, 0), v0 = vals->len;
	pr_strbuf_reset(keys);
	if (i >= n || s[i] != '{')
		return -1;
	pr_strbuf_addch(keys, '[');
	pr_strbuf_addch(vals, '[');
	i = skip_ws(s, n, i + 1);
	/* (vals is the batch arena: the caller records the offset) */
	if (i < n && s[i] == '}')
		goto done;
	for (;;) {
		size_t ke, ve;
		if (i >= n || s[i] != '"' || !(ke = skip_string(s, n, i)))
			goto bad;
		if (keys->len > 1) {
			pr_strbuf_addch_fast(keys, ',');
			pr_strbuf_addch_fast(vals, ',');
		}
		pr_strbuf_add_fast(keys, s + i, ke - i);
		i = skip_ws(s, n, ke);
		if (i >= n || s[i] != ':')
			goto bad;
		i = skip_ws(s, n, i + 1);
		if (!(ve = skip_json(s, n, i)))
			goto bad;
		pr_strbuf_add_fast(vals, s + i, ve - i);
		i = skip_ws(s, n, ve);
		if (i < n && s[i] == ',') {
			i = skip_ws(s, n, i + 1);
			continue;
		}
		if (i < n && s[i] == '}')
			break;
		goto bad;
	}
done:
	pr_strbuf_addch(keys, ']');
	pr_strbuf_addch(vals, ']');
	return 0;
bad:
	vals->len = v0;
	vals->buf[v0] = '\0';
	return -1;
}

/* Appends one JSON array's elements to another ("[a]" + "[b]" -> "[a,b]"). */
static void array_append(struct pr_strbuf *into, const char *arr, size_t n)
{
	if (n < 2 || arr[0] != '[' || arr[n - 1] != ']' || n == 2)
		return;
	if (into->len < 2) {
		pr_strbuf_reset(into);
		pr_strbuf_add(into, arr, n);
		return;
	}
	into->len--; /* drop ']' */
	if (into->len > 1)
		pr_strbuf_addch(into, ',');
	pr_strbuf_add(into, arr + 1, n - 1);
}

/* Element extents of a JSON array's text: fills starts/ends, returns the count (max cap). */
static size_t array_elems(const char *a, size_t n, size_t *starts, size_t *ends, size_t cap)
{
	size_t i = 1, k = 0;
	if (n < 2 || a[0] != '[')
		return 0;
	while (k < cap) {
		size_t e;
		i = skip_ws(a, n, i);
		if (i >= n || a[i] == ']')
			break;
		if (!(e = skip_json(a, n, i)))
			break;
		starts[k] = i;
		ends[k++] = e;
		i = skip_ws(a, n, e);
		if (i < n && a[i] == ',')
			i++;
	}
	return k;
}

/*
 * E's args merge into the span's; a key given by both takes E's value, as
 * in Chrome's viewer.
 */
#define MERGE_MAX 256
void pr_wr_merge_split(struct pr_writer *w, struct payload *p, const char *keys, size_t klen,
		       const char *vals, size_t vlen)
{
	size_t bks[MERGE_MAX], bke[MERGE_MAX], bvs[MERGE_MAX], bve[MERGE_MAX];
	size_t eks[MERGE_MAX], eke[MERGE_MAX], nb, ne, nbv, i, j;
	if (!klen)
		return;
	if (!p->keys.len && p->args.len)
		return; /* the begin's args were not an object: keep them */
	nb = array_elems(p->keys.buf, p->keys.len, bks, bke, MERGE_MAX);
	nbv = array_elems(p->args.buf, p->args.len, bvs, bve, MERGE_MAX);
	ne = array_elems(keys, klen, eks, eke, MERGE_MAX);
	if (nb != nbv)
		nb = 0;
	pr_strbuf_reset(&w->mk);
	pr_strbuf_reset(&w->mv);
	pr_strbuf_addch(&w->mk, '[');
	pr_strbuf_addch(&w->mv, '[');
	for (i = 0; i < nb; i++) {
		for (j = 0; j < ne; j++)
			if (bke[i] - bks[i] == eke[j] - eks[j] &&
			    !memcmp(p->keys.buf + bks[i], keys + eks[j], bke[i] - bks[i]))
				break;
		if (j < ne)
			continue; /* E gives this key */
		if (w->mk.len > 1) {
			pr_strbuf_addch(&w->mk, ',');
			pr_strbuf_addch(&w->mv, ',');
		}
		pr_strbuf_add(&w->mk, p->keys.buf + bks[i], bke[i] - bks[i]);
		pr_strbuf_add(&w->mv, p->args.buf + bvs[i], bve[i] - bvs[i]);
	}
	pr_strbuf_addch(&w->mk, ']');
	pr_strbuf_addch(&w->mv, ']');
	array_append(&w->mk, keys, klen);
	array_append(&w->mv, vals, vlen);
	pr_strbuf_reset(&p->keys);
	pr_strbuf_reset(&p->args);
	pr_strbuf_add(&p->keys, w->mk.buf, w->mk.len);
	pr_strbuf_add(&p->args, w->mv.buf, w->mv.len);
}
