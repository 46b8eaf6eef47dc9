/*
 * jscan.h - a validating JSON scanner over an in-memory window, for the
 * streaming trace parser (RFC 8259 grammar; JSONTestSuite y_ accepted,
 * n_ rejected).
 *
 * USAGE: the caller keeps a window buf[0..len) of the input and whether the
 * input ends there (eof). Each function starts at *p, and on JS_OK leaves *p
 * after what it consumed. JS_MORE means the window ended inside the item
 * and eof is not set: the caller reads more and calls again from the same
 * start. JS_ERR fills ctx->err_pos (window index) and ctx->err_msg.
 *
 * Repairs: with JS_LENIENT set, a raw control character inside a string is
 * accepted (counted in ctx->ctrl_repairs) and written escaped by the copy
 * functions. Invalid UTF-8 is always accepted (counted in utf8_repairs) and
 * replaced by U+FFFD when copied. Without JS_LENIENT, control characters
 * are errors.
 * On JS_MORE or JS_ERR, js_value may have appended part of the value to out:
 * callers retrying truncate out to its earlier length.
 * LIMITATIONS: nesting deeper than JS_MAX_DEPTH is an error.
 */
#ifndef PR_JSCAN_H
#define PR_JSCAN_H

#include <stddef.h>

#include "base/strbuf.h"

#define JS_MAX_DEPTH 1000

enum {
	JS_OK = 0,
	JS_MORE = 1,
	JS_ERR = -1
};
enum {
	JS_LENIENT = 1
};

struct js_ctx {
	const char *buf;
	size_t len;
	int eof;
	unsigned flags;
	size_t err_pos;
	const char *err_msg;
	unsigned long ctrl_repairs, utf8_repairs;
	int hit_eof; /* the last JS_ERR was input ending inside an item */
};

/* A string token: raw bytes between the quotes. */
struct js_str {
	size_t start, len;
	unsigned char escaped; /* contains backslash escapes */
	unsigned char dirty;   /* contains raw control chars or invalid UTF-8 */
};

/* For callers that scan structure themselves: record an error at pos
 * (returns JS_ERR), or the end of the window at pos (JS_MORE unless eof,
 * then an "unexpected end of input" error with hit_eof set). */
int js_error(struct js_ctx *c, size_t pos, const char *msg);
int js_end(struct js_ctx *c, size_t pos);

int js_ws_run(struct js_ctx *c, size_t *p);
/* Skips white space at *p (JS_MORE when it runs to the window's end before
 * eof). Inline for the common case, no white space: every byte above ' '
 * is not white space. */
static inline int js_ws(struct js_ctx *c, size_t *p)
{
	if (*p < c->len && (unsigned char)c->buf[*p] > ' ')
		return JS_OK;
	return js_ws_run(c, p);
}
int js_string(struct js_ctx *c, size_t *p, struct js_str *out);
int js_number(struct js_ctx *c, size_t *p);
/* An object member's key at *p: "key" ws ':' ws; leaves *p at the value. */
int js_key(struct js_ctx *c, size_t *p, struct js_str *k);
/* Any value; with out != NULL also appends its minified, repaired text. */
int js_value(struct js_ctx *c, size_t *p, struct pr_strbuf *out);

/*
 * An object at *p, split: appends its keys as a JSON array of strings to
 * keys and its values (minified, repaired) as a JSON array to vals, in
 * order. Same return and retry rules as js_value.
 */
int js_object_split(struct js_ctx *c, size_t *p, struct pr_strbuf *keys, struct pr_strbuf *vals);

/* Decodes a string token's raw bytes (escapes, repairs) as UTF-8 into out. */
void js_decode(const char *raw, size_t n, struct pr_strbuf *out);
/* Appends a JSON string literal for the UTF-8 bytes s[0..n). */
void js_quote(const char *s, size_t n, struct pr_strbuf *out);

#endif
