/* jscan.c - validating, resumable-by-restart JSON scanner. */
#include "base/jscan.h"

#include <stdint.h>
#include <string.h>

/* Character classes inside strings: 0 plain, 1 quote, 2 backslash, 3 control, 4 non-ASCII. */
static const unsigned char str_class[256] = {
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
	3, 3, 3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
};

static int fail(struct js_ctx *c, size_t pos, const char *msg)
{
	c->hit_eof = 0;
	c->err_pos = pos;
	c->err_msg = msg;
	return JS_ERR;
}

/* End of window: more input may come (JS_MORE) or the input is cut (error). */
static int at_end(struct js_ctx *c, size_t pos, const char *msg)
{
	if (!c->eof)
		return JS_MORE;
	fail(c, pos, msg);
	c->hit_eof = 1;
	return JS_ERR;
}

static const unsigned char ws_class[256] = {
	['\t'] = 1,
	['\n'] = 1,
	['\r'] = 1,
	[' '] = 1,
};

int js_error(struct js_ctx *c, size_t pos, const char *msg)
{
	return fail(c, pos, msg);
}

int js_end(struct js_ctx *c, size_t pos)
{
	return at_end(c, pos, "unexpected end of input");
}

static inline int is_ws(unsigned char ch)
{
	return ws_class[ch];
}

int js_ws_run(struct js_ctx *c, size_t *p)
{
	size_t i = *p;
	while (i < c->len && is_ws((unsigned char)c->buf[i]))
		i++;
	*p = i;
	if (i == c->len && !c->eof)
		return JS_MORE;
	return JS_OK;
}

static int hexval(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* Value of four hex digits, or -1. */
static int hex4(const unsigned char *s)
{
	int a = hexval(s[0]), b = hexval(s[1]), c = hexval(s[2]), d = hexval(s[3]);
	if (a < 0 || b < 0 || c < 0 || d < 0)
		return -1;
	return a << 12 | b << 8 | c << 4 | d;
}

/*
 * Length of a valid UTF-8 sequence at s (n bytes available), 0 if invalid,
 * -1 if it may be valid but is cut by the end of the window.
 */
static int utf8_len(const unsigned char *s, size_t n)
{
	unsigned char b = s[0];
	int need, i;
	unsigned cp;
	if (b < 0xC2 || b > 0xF4)
		return 0;
	need = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
	cp = b & (need == 2 ? 0x1F : need == 3 ? 0x0F : 0x07);
	for (i = 1; i < need; i++) {
		if ((size_t)i >= n)
			return -1;
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((need == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (need == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return need;
}

int js_string(struct js_ctx *c, size_t *p, struct js_str *out)
{
	const unsigned char *b = (const unsigned char *)c->buf;
	size_t i = *p + 1, n = c->len;
	out->start = i;
	out->escaped = out->dirty = 0;
	for (;;) {
		/* 8 bytes at a time while they fit: the first byte that is not
		 * plain (str_class != 0), if any, is the lowest flagged byte of m
		 * (each term's lowest flag is exact; a borrow only flags bytes
		 * above it) */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		while (i + 8 <= n) {
			uint64_t v, q, e, m;
			memcpy(&v, b + i, 8);
			q = v ^ 0x2222222222222222ULL; /* '"' -> 0 */
			e = v ^ 0x5C5C5C5C5C5C5C5CULL; /* '\\' -> 0 */
			m = ((q - 0x0101010101010101ULL) & ~q) |
			    ((e - 0x0101010101010101ULL) & ~e) |
			    ((v - 0x2020202020202020ULL) & ~v) | v;
			m &= 0x8080808080808080ULL;
			if (m) {
				i += (size_t)__builtin_ctzll(m) >> 3;
				break;
			}
			i += 8;
		}
#endif
		while (i < n && !str_class[b[i]])
			i++;
		if (i >= n)
			return at_end(c, *p, "unterminated string");
		switch (str_class[b[i]]) {
		case 1:
			out->len = i - out->start;
			*p = i + 1;
			return JS_OK;
		case 2:
			out->escaped = 1;
			if (i + 1 >= n)
				return at_end(c, *p, "unterminated string");
			switch (b[i + 1]) {
			case '"':
			case '\\':
			case '/':
			case 'b':
			case 'f':
			case 'n':
			case 'r':
			case 't':
				i += 2;
				break;
			case 'u': {
				int k;
				if (i + 6 > n)
					return at_end(c, *p, "unterminated string");
				for (k = 2; k < 6; k++)
					if (hexval(b[i + k]) < 0)
						return fail(c, i, "invalid \\u escape in string");
				i += 6;
				break;
			}
			default:
				return fail(c, i, "invalid escape in string");
			}
			break;
		case 3:
			if (!(c->flags & JS_LENIENT))
				return fail(c, i, "control character in string");
			c->ctrl_repairs++;
			out->dirty = 1;
			i++;
			break;
		default: {
			int l = utf8_len(b + i, n - i);
			if (l < 0)
				return at_end(c, *p, "unterminated string");
			if (l == 0) {
				c->utf8_repairs++;
				out->dirty = 1;
				i++;
			} else {
				i += (size_t)l;
			}
			break;
		}
		}
	}
}

int js_number(struct js_ctx *c, size_t *p)
{
	const char *b = c->buf;
	size_t i = *p, n = c->len;
#define NEED(cond, msg)                                                                            \
	do {                                                                                       \
		if (i >= n)                                                                        \
			return at_end(c, *p, "unexpected end of input in number");                 \
		if (!(cond))                                                                       \
			return fail(c, i, msg);                                                    \
	} while (0)
	if (i < n && b[i] == '-')
		i++;
	NEED(b[i] >= '0' && b[i] <= '9', "invalid number");
	if (b[i] == '0') {
		i++;
	} else {
		while (i < n && b[i] >= '0' && b[i] <= '9')
			i++;
	}
	if (i < n && b[i] == '.') {
		i++;
		NEED(b[i] >= '0' && b[i] <= '9', "invalid number: digit expected after '.'");
		while (i < n && b[i] >= '0' && b[i] <= '9')
			i++;
	}
	if (i < n && (b[i] == 'e' || b[i] == 'E')) {
		i++;
		if (i < n && (b[i] == '+' || b[i] == '-'))
			i++;
		NEED(b[i] >= '0' && b[i] <= '9', "invalid number: digit expected in exponent");
		while (i < n && b[i] >= '0' && b[i] <= '9')
			i++;
	}
#undef NEED
	if (i >= n && !c->eof)
		return JS_MORE; /* the number may continue */
	if (i < n) {
		unsigned char ch = (unsigned char)b[i];
		if ((ch >= '0' && ch <= '9') || ch == '.' || ch == 'e' || ch == 'E' || ch == '+' ||
		    ch == '-' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch >= 0x80)
			return fail(c, i, "invalid number");
	}
	*p = i;
	return JS_OK;
}

int js_key(struct js_ctx *c, size_t *p, struct js_str *k)
{
	size_t i = *p;
	int rc;
	if (i >= c->len)
		return at_end(c, i, "unexpected end of input");
	if (c->buf[i] != '"')
		return fail(c, i, "object key (a string) expected");
	if ((rc = js_string(c, &i, k)) != JS_OK || (rc = js_ws(c, &i)) != JS_OK)
		return rc;
	if (i >= c->len)
		return at_end(c, i, "unexpected end of input");
	if (c->buf[i] != ':')
		return fail(c, i, "':' expected after object key");
	i++;
	if ((rc = js_ws(c, &i)) != JS_OK)
		return rc;
	*p = i;
	return JS_OK;
}

static int literal(struct js_ctx *c, size_t *p, const char *word)
{
	size_t k = strlen(word), avail = c->len - *p;
	if (avail < k) {
		if (memcmp(c->buf + *p, word, avail))
			return fail(c, *p, "invalid literal");
		return at_end(c, *p, "unexpected end of input");
	}
	if (memcmp(c->buf + *p, word, k))
		return fail(c, *p, "invalid literal");
	if (*p + k == c->len && !c->eof)
		return JS_MORE; /* like a number, "true" may go on ("truex") */
	if (*p + k < c->len) {
		unsigned char ch = (unsigned char)c->buf[*p + k];
		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9'))
			return fail(c, *p + k, "invalid literal");
	}
	*p += k;
	return JS_OK;
}

static void put_utf8(struct pr_strbuf *out, unsigned cp)
{
	char u[4];
	size_t k;
	if (cp < 0x80) {
		u[0] = (char)cp;
		k = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		k = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		k = 3;
	} else {
		u[0] = (char)(0xF0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		k = 4;
	}
	pr_strbuf_add(out, u, k);
}

/* Copies a string token's raw bytes as valid JSON string content. */
static void copy_string_raw(const char *raw, size_t n, int dirty, struct pr_strbuf *out)
{
	const unsigned char *s = (const unsigned char *)raw;
	size_t i = 0, run = 0;
	if (!dirty) {
		pr_strbuf_add_fast(out, raw, n);
		return;
	}
	while (i < n) {
		unsigned char ch = s[i];
		int l;
		if (ch >= 0x20 && ch < 0x80) {
			i++;
			continue;
		}
		if (ch >= 0x80) {
			l = utf8_len(s + i, n - i);
			if (l > 0) {
				i += (size_t)l;
				continue;
			}
		}
		pr_strbuf_add(out, raw + run, i - run);
		if (ch < 0x20)
			pr_strbuf_addf(out, "\\u%04x", ch);
		else
			pr_strbuf_add(out, "\xEF\xBF\xBD", 3);
		i++;
		run = i;
	}
	pr_strbuf_add(out, raw + run, n - run);
}

int js_value(struct js_ctx *c, size_t *p, struct pr_strbuf *out)
{
	/* Iterative, so hostile nesting cannot overflow the C stack. */
	unsigned char stack[JS_MAX_DEPTH + 1];
	int depth = 0, rc;
	size_t i = *p;
	enum {
		VALUE,
		AFTER_VALUE,
		KEY_OR_END,
		VALUE_OR_END
	} st = VALUE;

	for (;;) {
		if (st == AFTER_VALUE && depth == 0) {
			*p = i;
			return JS_OK;
		}
		if ((rc = js_ws(c, &i)) != JS_OK)
			return rc;
		if (i >= c->len)
			return at_end(c, i, "unexpected end of input");
		switch (st) {
		case VALUE_OR_END:
			if (c->buf[i] == ']') {
				i++;
				if (out)
					pr_strbuf_addch_fast(out, ']');
				depth--;
				st = AFTER_VALUE;
				break;
			}
			/* fall through */
		case VALUE: {
			char ch = c->buf[i];
			if (ch == '{' || ch == '[') {
				if (depth >= JS_MAX_DEPTH)
					return fail(c, i, "nesting deeper than 1000 levels");
				stack[depth++] = (unsigned char)ch;
				if (out)
					pr_strbuf_addch_fast(out, ch);
				i++;
				st = ch == '{' ? KEY_OR_END : VALUE_OR_END;
				break;
			}
			if (ch == '"') {
				struct js_str s;
				if ((rc = js_string(c, &i, &s)) != JS_OK)
					return rc;
				if (out) {
					pr_strbuf_addch_fast(out, '"');
					copy_string_raw(c->buf + s.start, s.len, s.dirty, out);
					pr_strbuf_addch_fast(out, '"');
				}
			} else if (ch == '-' || (ch >= '0' && ch <= '9')) {
				size_t start = i;
				if ((rc = js_number(c, &i)) != JS_OK)
					return rc;
				if (out)
					pr_strbuf_add_fast(out, c->buf + start, i - start);
			} else if (ch == 't' || ch == 'f' || ch == 'n') {
				size_t start = i;
				rc = literal(c, &i,
					     ch == 't'	 ? "true"
					     : ch == 'f' ? "false"
							 : "null");
				if (rc != JS_OK)
					return rc;
				if (out)
					pr_strbuf_add_fast(out, c->buf + start, i - start);
			} else {
				return fail(c, i, "unexpected character, value expected");
			}
			st = AFTER_VALUE;
			break;
		}
		case KEY_OR_END:
			if (c->buf[i] == '}') {
				i++;
				if (out)
					pr_strbuf_addch_fast(out, '}');
				depth--;
				st = AFTER_VALUE;
				break;
			}
			/* not '}': a key */
			{
				struct js_str s;
				if ((rc = js_key(c, &i, &s)) != JS_OK)
					return rc;
				if (out) {
					pr_strbuf_addch_fast(out, '"');
					copy_string_raw(c->buf + s.start, s.len, s.dirty, out);
					pr_strbuf_add(out, "\":", 2);
				}
			}
			st = VALUE;
			break;
		case AFTER_VALUE:
			if (c->buf[i] == ',') {
				i++;
				if (out)
					pr_strbuf_addch_fast(out, ',');
				if (stack[depth - 1] == '{') {
					if ((rc = js_ws(c, &i)) != JS_OK)
						return rc;
					if (i >= c->len)
						return at_end(c, i, "unexpected end of input");
					if (c->buf[i] != '"')
						return fail(c, i, "object key (a string) expected");
					st = KEY_OR_END;
				} else {
					st = VALUE;
				}
			} else if (c->buf[i] == (stack[depth - 1] == '{' ? '}' : ']')) {
				if (out)
					pr_strbuf_addch_fast(out, c->buf[i]);
				i++;
				depth--;
			} else {
				return fail(c, i,
					    stack[depth - 1] == '{'
						    ? "',' or '}' expected in object"
						    : "',' or ']' expected in array");
			}
			break;
		}
	}
}

int js_object_split(struct js_ctx *c, size_t *p, struct pr_strbuf *keys, struct pr_strbuf *vals)
{
	size_t i = *p + 1;
	int rc, first = 1;
	pr_strbuf_addch_fast(keys, '[');
	pr_strbuf_addch_fast(vals, '[');
	for (;;) {
		struct js_str k;
		if ((rc = js_ws(c, &i)) != JS_OK)
			return rc;
		if (i >= c->len)
			return at_end(c, i, "unexpected end of input");
		if (first && c->buf[i] == '}')
			break;
		if ((rc = js_key(c, &i, &k)) != JS_OK)
			return rc;
		if (!first) {
			pr_strbuf_addch_fast(keys, ',');
			pr_strbuf_addch_fast(vals, ',');
		}
		first = 0;
		pr_strbuf_addch_fast(keys, '"');
		copy_string_raw(c->buf + k.start, k.len, k.dirty, keys);
		pr_strbuf_addch_fast(keys, '"');
		if ((rc = js_value(c, &i, vals)) != JS_OK)
			return rc;
		if ((rc = js_ws(c, &i)) != JS_OK)
			return rc;
		if (i >= c->len)
			return at_end(c, i, "unexpected end of input");
		if (c->buf[i] == '}')
			break;
		if (c->buf[i] != ',')
			return fail(c, i, "',' or '}' expected in object");
		i++;
	}
	pr_strbuf_addch_fast(keys, ']');
	pr_strbuf_addch_fast(vals, ']');
	*p = i + 1;
	return JS_OK;
}

void js_decode(const char *raw, size_t n, struct pr_strbuf *out)
{
	const unsigned char *s = (const unsigned char *)raw;
	size_t i = 0;
	while (i < n) {
		unsigned char ch = s[i];
		if (ch == '\\' && i + 1 < n) {
			char e = (char)s[i + 1];
			unsigned cp;
			switch (e) {
			case 'b':
				pr_strbuf_addch(out, '\b');
				i += 2;
				continue;
			case 'f':
				pr_strbuf_addch(out, '\f');
				i += 2;
				continue;
			case 'n':
				pr_strbuf_addch(out, '\n');
				i += 2;
				continue;
			case 'r':
				pr_strbuf_addch(out, '\r');
				i += 2;
				continue;
			case 't':
				pr_strbuf_addch(out, '\t');
				i += 2;
				continue;
			case 'u': {
				int v = i + 6 <= n ? hex4(s + i + 2) : -1;
				if (v < 0)
					break; /* not \uXXXX (unvalidated bytes): kept as they are */
				cp = (unsigned)v;
				i += 6;
				if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= n && s[i] == '\\' &&
				    s[i + 1] == 'u') {
					int lo = hex4(s + i + 2);
					if (lo >= 0xDC00 && lo <= 0xDFFF) {
						cp = 0x10000 + ((cp - 0xD800) << 10) +
						     ((unsigned)lo - 0xDC00);
						i += 6;
					}
				}
				if (cp >= 0xD800 && cp <= 0xDFFF)
					cp = 0xFFFD; /* lone surrogate */
				put_utf8(out, cp);
				continue;
			}
			default:
				pr_strbuf_addch(out, e);
				i += 2;
				continue;
			}
		}
		if (ch >= 0x80) {
			int l = utf8_len(s + i, n - i);
			if (l > 0) {
				pr_strbuf_add(out, raw + i, (size_t)l);
				i += (size_t)l;
			} else {
				pr_strbuf_add(out, "\xEF\xBF\xBD", 3);
				i++;
			}
			continue;
		}
		pr_strbuf_addch(out, (char)ch);
		i++;
	}
}

void js_quote(const char *s, size_t n, struct pr_strbuf *out)
{
	size_t i, run = 0;
	pr_strbuf_addch(out, '"');
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		pr_strbuf_add(out, s + run, i - run);
		if (ch == '"' || ch == '\\') {
			pr_strbuf_addch(out, '\\');
			pr_strbuf_addch(out, (char)ch);
		} else if (ch == '\n') {
			pr_strbuf_add(out, "\\n", 2);
		} else if (ch == '\t') {
			pr_strbuf_add(out, "\\t", 2);
		} else {
			pr_strbuf_addf(out, "\\u%04x", ch);
		}
		run = i + 1;
	}
	pr_strbuf_add(out, s + run, n - run);
	pr_strbuf_addch(out, '"');
}
