/* test_jscan.c - base/jscan: the validating, resumable JSON scanner. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"
#include <jansson.h>

#include "base/jscan.h"

/* What one js_value call did. */
struct res {
	int rc;
	size_t p, err_pos;
	const char *err_msg;
	int hit_eof;
	unsigned long ctrl, utf8;
	struct pr_strbuf out;
};

/* Scans doc[0..len) (of n bytes) as one value from 0; out gets the copy. */
static void scan(const char *doc, size_t len, int eof, unsigned flags, struct res *r)
{
	struct js_ctx c;
	memset(&c, 0, sizeof(c));
	c.buf = doc;
	c.len = len;
	c.eof = eof;
	c.flags = flags;
	r->p = 0;
	pr_strbuf_reset(&r->out);
	r->rc = js_value(&c, &r->p, &r->out);
	r->err_pos = c.err_pos;
	r->err_msg = c.err_msg;
	r->hit_eof = c.hit_eof;
	r->ctrl = c.ctrl_repairs;
	r->utf8 = c.utf8_repairs;
}

static void res_init(struct res *r)
{
	memset(r, 0, sizeof(*r));
	pr_strbuf_init(&r->out);
}

/* A value that must be accepted whole; end is where it stops (trailing ws kept). */
static void accept(const char *doc, size_t n, size_t end)
{
	struct res r;
	res_init(&r);
	scan(doc, n, 1, 0, &r);
	if (r.rc != JS_OK || r.p != end)
		print_error("'%.*s': rc %d p %zu (%s at %zu), want OK p %zu\n", (int)n, doc, r.rc,
			    r.p, r.err_msg ? r.err_msg : "-", r.err_pos, end);
	assert_int_equal(r.rc, JS_OK);
	assert_int_equal(r.p, end);
	pr_strbuf_release(&r.out);
}

/* A value that must be rejected at err_pos (SIZE_MAX: any position). */
static void reject(const char *doc, size_t err_pos, int hit_eof)
{
	struct res r;
	res_init(&r);
	scan(doc, strlen(doc), 1, 0, &r);
	if (r.rc != JS_ERR || (err_pos != SIZE_MAX && r.err_pos != err_pos))
		print_error("'%s': rc %d err_pos %zu (%s), want JS_ERR at %zu\n", doc, r.rc,
			    r.err_pos, r.err_msg ? r.err_msg : "-", err_pos);
	assert_int_equal(r.rc, JS_ERR);
	assert_non_null(r.err_msg);
	if (err_pos != SIZE_MAX)
		assert_int_equal(r.err_pos, err_pos);
	assert_int_equal(r.hit_eof, hit_eof);
	pr_strbuf_release(&r.out);
}

static void test_valid_values(void **state)
{
	static const char *const docs[] = {
		"0",
		"-0",
		"1",
		"-1",
		"123",
		"0.5",
		"-0.0e-0",
		"1E+2",
		"1e-2",
		"0e0",
		"0E-0",
		"123456789012345678901234567890",
		"-123.456e+789",
		"1e999999",
		"1.7976931348623157e309",
		"4.9e-324",
		"true",
		"false",
		"null",
		"\"\"",
		"\"\\u0000\"",
		"\"\\uD83D\\uDE00\"",
		"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
		"\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
		"\"\x7f\"",
		"[]",
		"{}",
		"[[]]",
		"[{}]",
		"{\"\":{}}",
		"{\"a\":[1,{\"b\":null}],\"a\":true}",
		"[1,-2.5e3,\"x\",true,false,null,[],{}]",
		"{ \"a\" : 1 , \"b\" : [ ] }",
		"[\t\n\r 1 \t\n\r]",
	};
	size_t i;
	(void)state;
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		accept(docs[i], strlen(docs[i]), strlen(docs[i]));
	/* Leading whitespace is skipped; trailing whitespace is left alone. */
	accept("  [1] \n", 7, 5);
	accept(" 12 ", 4, 3);
	/* A value stops at its end; what follows is the caller's business. */
	accept("[1]x", 4, 3);
	accept("1,2", 3, 1);
	accept("\"a\"\"b\"", 6, 3);
	/* A 10 000-digit number is fine. */
	{
		char *big = malloc(10001);
		memset(big, '7', 10000);
		big[10000] = '\0';
		accept(big, 10000, 10000);
		free(big);
	}
}

static void test_invalid_values_positions(void **state)
{
	(void)state;
	reject("[1,]", 3, 0);
	reject("[1 2]", 3, 0);
	reject("[1}", 2, 0);
	reject("]", 0, 0);
	reject("{\"a\" 1}", 5, 0);
	reject("{\"a\":1,}", 7, 0);
	reject("{\"a\":1]", 6, 0);
	reject("{1:2}", 1, 0);
	reject("{'a':2}", 1, 0);
	reject("01", 1, 0);
	reject("-01", 2, 0);
	reject("00", 1, 0);
	reject("1.x", 2, 0);
	reject("1.e1", 2, 0);
	reject("-a", 1, 0);
	reject("1e+x", 3, 0);
	reject("1ee2", 2, 0);
	reject("0x1", 1, 0);
	reject(".5", 0, 0);
	reject("+1", 0, 0);
	reject("NaN", 0, 0);
	reject("Infinity", 0, 0);
	reject("-Infinity", 1, 0);
	reject("trUe", 0, 0);
	reject("truex", 4, 0);
	reject("nil", 0, 0);
	reject("'a'", 0, 0);
	reject("\xef\xbb\xbf"
	       "1",
	       0, 0); /* a BOM is the caller's to skip */
	reject("[\"a\",\n  tru]", 8, 0);
	reject("\"\\x\"", 1, 0);
	reject("\"ab\\u12G4\"", 3, 0);
	reject("\"\\U0041\"", 1, 0);
	reject("\"a\x01\"", 2, 0);
	reject("\"a\n\"", 2, 0);
	/* Input ending inside a value: positioned at the value, hit_eof set. */
	reject("-", 0, 1);
	reject("1.", 0, 1);
	reject("1e", 0, 1);
	reject("tru", 0, 1);
	reject("nul", 0, 1);
	reject("\"abc", 0, 1);
	reject("\"abc\\", 0, 1);
	reject("\"\\u12", 0, 1);
	reject("[", 1, 1);
	reject("[1", 2, 1);
	reject("[1,", 3, 1);
	reject("{", 1, 1);
	reject("{\"a\"", 4, 1);
	reject("{\"a\" ", 5, 1);
	reject("{\"a\":", 5, 1);
	reject("{\"a\":1,", 7, 1);
	reject("{\"a\":1, ", 8, 1);
	reject("", 0, 1);
	reject("   ", 3, 1);
}

/*
 * Every prefix of a document, scanned as a window that is not at EOF, gives
 * JS_MORE or the same answer as the whole document; after JS_MORE, retrying
 * with the whole document (and the copy truncated back) gives exactly what a
 * single pass gives.
 */
static void check_all_splits(const char *doc, size_t n, unsigned flags)
{
	struct res whole, part;
	size_t k;
	res_init(&whole);
	res_init(&part);
	scan(doc, n, 1, flags, &whole);
	for (k = 0; k <= n; k++) {
		scan(doc, k, 0, flags, &part);
		if (part.rc == JS_MORE) {
			/* The retry: same start, bigger window, at EOF. */
			scan(doc, n, 1, flags, &part);
			assert_int_equal(part.rc, whole.rc);
		}
		if (part.rc != whole.rc || part.p != whole.p ||
		    (whole.rc == JS_ERR && part.err_pos != whole.err_pos) ||
		    (whole.rc == JS_OK && strcmp(part.out.buf, whole.out.buf)))
			print_error(
				"'%.*s' split at %zu: rc %d p %zu err %zu, whole gives rc %d p %zu "
				"err %zu\n",
				(int)n, doc, k, part.rc, part.p, part.err_pos, whole.rc, whole.p,
				whole.err_pos);
		assert_int_equal(part.rc, whole.rc);
		if (whole.rc == JS_OK) {
			assert_int_equal(part.p, whole.p);
			assert_int_equal(part.out.len, whole.out.len);
			assert_memory_equal(part.out.buf, whole.out.buf, whole.out.len);
		} else {
			assert_int_equal(part.err_pos, whole.err_pos);
			assert_string_equal(part.err_msg, whole.err_msg);
		}
	}
	pr_strbuf_release(&whole.out);
	pr_strbuf_release(&part.out);
}

static void test_more_at_every_split(void **state)
{
	static const char *const docs[] = {
		("{\"ph\":\"X\",\"name\":\"aten::mm\",\"ts\":1669329643132548.123,\"dur\":-1.5e-3,"
		 "\"args\":{\"a\":[true,false,null,{}],\"\\u00e9\\uD83D\\uDE00\":\"\\\"\"}}"),
		"[0,-0,1e5,1E-5,-0.25e+10,12345678901234567890]",
		"\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xff \xc3\"",
		"  [ [ [ ] ] , { } ]  ",
		"123456",
		"-0.5",
		"true",
		"null",
		"[true,false,null]",
		"truex",
		"nullnull",
		/* invalid ones: the error is the same whatever the window */
		"[1,2,]",
		"{\"a\":1 \"b\":2}",
		"[1.]",
		"[01]",
		"[tru]",
		"{\"a\":\"\\q\"}",
		"[\"\\u00G0\"]",
		"[[1]",
		"\"\x01\"",
	};
	size_t i;
	(void)state;
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		check_all_splits(docs[i], strlen(docs[i]), 0);
	{
		const char *lenient = "{\"a\":\"x\x01y\",\"b\x1f\":\"\tz\"}";
		check_all_splits(lenient, strlen(lenient), JS_LENIENT);
	}
}

static void test_control_characters(void **state)
{
	const char *doc = "{\"k\":\"a\tb\x01\",\"n\x1f\":[\"\x7f\"]}";
	struct res r;
	(void)state;
	res_init(&r);
	/* Strict: the first raw control character is the error. */
	scan(doc, strlen(doc), 1, 0, &r);
	assert_int_equal(r.rc, JS_ERR);
	assert_int_equal(r.err_pos, 7);
	assert_string_equal(r.err_msg, "control character in string");
	/* Lenient: counted, and escaped in the copy; DEL is not a control char. */
	scan(doc, strlen(doc), 1, JS_LENIENT, &r);
	assert_int_equal(r.rc, JS_OK);
	assert_int_equal(r.ctrl, 3);
	assert_int_equal(r.utf8, 0);
	assert_string_equal(r.out.buf, "{\"k\":\"a\\u0009b\\u0001\",\"n\\u001f\":[\"\x7f\"]}");
	/* The repaired copy is valid JSON. */
	{
		json_error_t je;
		json_t *v = json_loads(r.out.buf, 0, &je);
		assert_non_null(v);
		assert_string_equal(json_string_value(json_object_get(v, "k")), "a\tb\x01");
		json_decref(v);
	}
	/* js_string reports it as dirty. */
	{
		struct js_ctx c;
		struct js_str s;
		size_t p = 0;
		memset(&c, 0, sizeof(c));
		c.buf = "\"x\ny\" ";
		c.len = 6;
		c.eof = 1;
		c.flags = JS_LENIENT;
		assert_int_equal(js_string(&c, &p, &s), JS_OK);
		assert_int_equal(p, 5);
		assert_int_equal(s.start, 1);
		assert_int_equal(s.len, 3);
		assert_int_equal(s.dirty, 1);
		assert_int_equal(s.escaped, 0);
	}
	pr_strbuf_release(&r.out);
}

static void check_utf8_copy(const char *doc, unsigned long repairs, const char *want)
{
	struct res r;
	res_init(&r);
	scan(doc, strlen(doc), 1, 0, &r);
	if (r.rc != JS_OK || r.utf8 != repairs || strcmp(r.out.buf, want))
		print_error("'%s': rc %d, %lu repairs, copy '%s'; want %lu repairs, '%s'\n", doc,
			    r.rc, r.utf8, r.out.buf, repairs, want);
	assert_int_equal(r.rc, JS_OK);
	assert_int_equal(r.utf8, repairs);
	assert_string_equal(r.out.buf, want);
	pr_strbuf_release(&r.out);
}

#define FFFD "\xef\xbf\xbd"

static void test_invalid_utf8_replaced(void **state)
{
	(void)state;
	check_utf8_copy("\"a\xff"
			"b\"",
			1, "\"a" FFFD "b\"");
	check_utf8_copy("\"\xc3\"", 1, "\"" FFFD "\"");			  /* cut sequence */
	check_utf8_copy("\"\xc0\xaf\"", 2, "\"" FFFD FFFD "\"");	  /* overlong */
	check_utf8_copy("\"\xed\xa0\x80\"", 3, "\"" FFFD FFFD FFFD "\""); /* surrogate */
	check_utf8_copy("\"\xf4\x90\x80\x80\"", 4, "\"" FFFD FFFD FFFD FFFD "\""); /* > 10FFFF */
	check_utf8_copy("\"\x80\"", 1, "\"" FFFD "\"");
	check_utf8_copy("{\"k\xfe\":\"\xf0\x9f\x98\x80\"}", 1,
			"{\"k" FFFD "\":\"\xf0\x9f\x98\x80\"}");
	/* Valid multi-byte text is copied as is, with no repairs. */
	check_utf8_copy("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"]", 0,
			"[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"]");
	/* Escapes are copied verbatim (the copy is minified JSON, not decoded text). */
	check_utf8_copy("[ \"\\u00e9\" , 1 ]", 0, "[\"\\u00e9\",1]");
}

static void test_depth_limit(void **state)
{
	size_t n = 100000, i;
	char *doc = malloc(2 * n + 1);
	struct res r;
	(void)state;
	res_init(&r);
	for (i = 0; i < JS_MAX_DEPTH; i++) {
		doc[i] = '[';
		doc[2 * JS_MAX_DEPTH - 1 - i] = ']';
	}
	scan(doc, 2 * JS_MAX_DEPTH, 1, 0, &r);
	assert_int_equal(r.rc, JS_OK);
	assert_int_equal(r.p, 2 * JS_MAX_DEPTH);

	for (i = 0; i <= JS_MAX_DEPTH; i++) {
		doc[i] = '[';
		doc[2 * JS_MAX_DEPTH + 1 - i] = ']';
	}
	scan(doc, 2 * JS_MAX_DEPTH + 2, 1, 0, &r);
	assert_int_equal(r.rc, JS_ERR);
	assert_int_equal(r.err_pos, JS_MAX_DEPTH);
	assert_non_null(strstr(r.err_msg, "nesting"));

	/* Objects count too. */
	pr_strbuf_reset(&r.out);
	{
		struct pr_strbuf sb = PR_STRBUF_INIT;
		for (i = 0; i <= JS_MAX_DEPTH; i++)
			pr_strbuf_addstr(&sb, i % 2 ? "[" : "{\"a\":");
		scan(sb.buf, sb.len, 1, 0, &r);
		assert_int_equal(r.rc, JS_ERR);
		assert_non_null(strstr(r.err_msg, "nesting"));
		pr_strbuf_release(&sb);
	}

	/* 100 000 levels: an error, no stack overflow (the scanner is iterative). */
	memset(doc, '[', n);
	memset(doc + n, ']', n);
	scan(doc, 2 * n, 1, 0, &r);
	assert_int_equal(r.rc, JS_ERR);
	assert_int_equal(r.err_pos, JS_MAX_DEPTH);
	scan(doc, n, 0, 0, &r);
	assert_int_equal(r.rc, JS_ERR);
	free(doc);
	pr_strbuf_release(&r.out);
}

static void check_decode(const char *raw, const char *want, size_t want_len)
{
	struct pr_strbuf out = PR_STRBUF_INIT;
	js_decode(raw, strlen(raw), &out);
	if (out.len != want_len || memcmp(out.buf, want, want_len))
		print_error("js_decode('%s') gave %zu bytes '%s'\n", raw, out.len, out.buf);
	assert_int_equal(out.len, want_len);
	assert_memory_equal(out.buf, want, want_len);
	pr_strbuf_release(&out);
}

static void test_decode(void **state)
{
	(void)state;
	check_decode("plain", "plain", 5);
	check_decode("", "", 0);
	check_decode("\\\"\\\\\\/\\b\\f\\n\\r\\t", "\"\\/\b\f\n\r\t", 8);
	check_decode("\\u0041\\u00e9\\u20AC", "A\xc3\xa9\xe2\x82\xac", 6);
	check_decode("\\u0000", "\0", 1);
	check_decode("a\\u0000b", "a\0b", 3);
	check_decode("\\uD83D\\uDE00", "\xf0\x9f\x98\x80", 4);
	check_decode("\\ud83d\\ude00!", "\xf0\x9f\x98\x80!", 5);
	check_decode("\\uDBFF\\uDFFF", "\xf4\x8f\xbf\xbf", 4);
	/* Lone or misordered surrogates become U+FFFD; what follows survives. */
	check_decode("\\uD800", FFFD, 3);
	check_decode("\\uDC00", FFFD, 3);
	check_decode("\\uD800x", FFFD "x", 4);
	check_decode("\\uD800\\u0041", FFFD "A", 4);
	check_decode("\\uDE00\\uD83D", FFFD FFFD, 6);
	check_decode("\\uD800\\uD800\\uDC00", FFFD "\xf0\x90\x80\x80", 7);
	/* Raw repairs: invalid UTF-8 -> U+FFFD; control characters are kept. */
	check_decode("a\xff"
		     "b",
		     "a" FFFD "b", 5);
	check_decode("a\x01"
		     "b",
		     "a\x01"
		     "b",
		     3);
	check_decode("\xc3\xa9", "\xc3\xa9", 2);
	/* Bytes that are no string token (never from the scanner) are kept, not decoded. */
	check_decode("\\u12G4", "\\u12G4", 6);
	check_decode("\\u12", "\\u12", 4);
	check_decode("\\uD83D\\uZZZZ", FFFD "\\uZZZZ", 9);
	check_decode("\\", "\\", 1);
}

static void check_quote_roundtrip(const char *s, size_t n)
{
	struct pr_strbuf q = PR_STRBUF_INIT, back = PR_STRBUF_INIT;
	struct js_ctx c;
	struct js_str str;
	size_t p = 0;
	json_error_t je;
	json_t *v;

	js_quote(s, n, &q);
	/* The literal is strict JSON: no raw control characters. */
	memset(&c, 0, sizeof(c));
	c.buf = q.buf;
	c.len = q.len;
	c.eof = 1;
	assert_int_equal(js_string(&c, &p, &str), JS_OK);
	assert_int_equal(p, q.len);
	assert_int_equal(c.ctrl_repairs, 0);
	js_decode(q.buf + str.start, str.len, &back);
	assert_int_equal(back.len, n);
	assert_memory_equal(back.buf, s, n);
	/* And jansson reads the same string back. */
	v = json_loadb(q.buf, q.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	assert_non_null(v);
	assert_int_equal(json_string_length(v), n);
	assert_memory_equal(json_string_value(v), s, n);
	json_decref(v);
	pr_strbuf_release(&q);
	pr_strbuf_release(&back);
}

static void test_quote(void **state)
{
	struct pr_strbuf q = PR_STRBUF_INIT;
	char all[128];
	int i;
	(void)state;
	js_quote("a\"b\\c\nd\te\x01/", 11, &q);
	assert_string_equal(q.buf, "\"a\\\"b\\\\c\\nd\\te\\u0001/\"");
	pr_strbuf_release(&q);
	js_quote("", 0, &q);
	assert_string_equal(q.buf, "\"\"");
	pr_strbuf_release(&q);

	check_quote_roundtrip("", 0);
	check_quote_roundtrip("plain text", 10);
	check_quote_roundtrip("quote\" back\\slash /", 19);
	check_quote_roundtrip("ctl\x01\x1f\n\t\r\b\f\x7f", 11);
	check_quote_roundtrip("nul\0inside", 10);
	check_quote_roundtrip("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 11);
	for (i = 0; i < 128; i++)
		all[i] = (char)i;
	check_quote_roundtrip(all, sizeof(all));
}

static void test_ws_and_number(void **state)
{
	struct js_ctx c;
	size_t p = 0;
	(void)state;
	memset(&c, 0, sizeof(c));
	c.buf = "  \t\n\r x";
	c.len = 7;
	c.eof = 0;
	assert_int_equal(js_ws(&c, &p), JS_OK);
	assert_int_equal(p, 6);
	p = 0;
	c.len = 6; /* all whitespace, more may come */
	assert_int_equal(js_ws(&c, &p), JS_MORE);
	assert_int_equal(p, 6);
	c.eof = 1;
	p = 0;
	assert_int_equal(js_ws(&c, &p), JS_OK);
	assert_int_equal(p, 6);

	c.buf = "-0.5e10,";
	c.len = 8;
	c.eof = 0;
	p = 0;
	assert_int_equal(js_number(&c, &p), JS_OK);
	assert_int_equal(p, 7);
	c.len = 7; /* "-0.5e10" at the end of a window: it may go on */
	p = 0;
	assert_int_equal(js_number(&c, &p), JS_MORE);
	assert_int_equal(p, 0);
	c.eof = 1;
	assert_int_equal(js_number(&c, &p), JS_OK);
	assert_int_equal(p, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_values),
		cmocka_unit_test(test_invalid_values_positions),
		cmocka_unit_test(test_more_at_every_split),
		cmocka_unit_test(test_control_characters),
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_ws_and_number),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
