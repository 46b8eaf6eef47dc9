/*
 * fuzz_jscan.c - libFuzzer harness for base/jscan.
 *
 * Properties checked on every input (abort() = a finding):
 *  - js_value never reads outside the window, in strict and lenient mode;
 *  - the repaired copy of an accepted value is strict JSON: it scans again
 *    with no repairs, to its end, and copies to itself;
 *  - a window cut anywhere gives JS_MORE or the same answer as the whole
 *    input, and a retry with the whole input gives exactly that answer;
 *  - jansson and jscan agree on strict inputs, except where jansson is
 *    stricter by design (number overflow, lone surrogate escapes) or the
 *    nesting is beyond JS_MAX_DEPTH;
 *  - js_object_split agrees with js_value and writes two JSON arrays;
 *  - js_quote output scans as a strict string and decodes back.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/dict.h"
#include "base/jscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pr_fuzz_dict_maybe_print(pr_fuzz_json_tokens, NULL);
	return 0;
}

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz_jscan: %s:%d: check failed: %s\n", __FILE__,         \
				__LINE__, #cond);                                                  \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

struct res {
	int rc;
	size_t p, err_pos;
	const char *err_msg;
	unsigned long ctrl, utf8;
};

static void scan(const char *buf, size_t len, int eof, unsigned flags, struct res *r,
		 struct pr_strbuf *out)
{
	struct js_ctx c;
	memset(&c, 0, sizeof(c));
	c.buf = buf;
	c.len = len;
	c.eof = eof;
	c.flags = flags;
	r->p = 0;
	if (out)
		pr_strbuf_reset(out);
	r->rc = js_value(&c, &r->p, out);
	r->err_pos = c.err_pos;
	r->err_msg = c.err_msg;
	r->ctrl = c.ctrl_repairs;
	r->utf8 = c.utf8_repairs;
	CHECK(r->rc == JS_OK || r->rc == JS_ERR || (r->rc == JS_MORE && !eof));
	CHECK(r->rc != JS_OK || r->p <= len);
	CHECK(r->rc != JS_ERR || (r->err_pos <= len && r->err_msg));
}

static int only_ws(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

/* The copy of an accepted value is strict, repair-free JSON that copies to itself. */
static void check_copy(const struct pr_strbuf *copy)
{
	struct pr_strbuf again = PR_STRBUF_INIT;
	struct res r;
	scan(copy->buf, copy->len, 1, 0, &r, &again);
	CHECK(r.rc == JS_OK);
	CHECK(r.p == copy->len);
	CHECK(r.ctrl == 0 && r.utf8 == 0);
	CHECK(again.len == copy->len && !memcmp(again.buf, copy->buf, copy->len));
	pr_strbuf_release(&again);
}

static void check_split(const char *buf, size_t size, size_t k, unsigned flags,
			const struct res *whole, const struct pr_strbuf *whole_out)
{
	struct pr_strbuf out = PR_STRBUF_INIT;
	struct res part;
	scan(buf, k, 0, flags, &part, &out);
	if (part.rc == JS_MORE)
		scan(buf, size, 1, flags, &part, &out);
	CHECK(part.rc == whole->rc);
	if (whole->rc == JS_OK) {
		CHECK(part.p == whole->p);
		CHECK(out.len == whole_out->len && !memcmp(out.buf, whole_out->buf, out.len));
	} else {
		CHECK(part.err_pos == whole->err_pos);
		CHECK(!strcmp(part.err_msg, whole->err_msg));
	}
	pr_strbuf_release(&out);
}

static void check_jansson(const char *buf, size_t size, const struct res *strict)
{
	json_error_t je;
	json_t *v;
	int ours = strict->rc == JS_OK && only_ws(buf + strict->p, size - strict->p);
	if (memchr(buf, '\0', size))
		return; /* jansson's buffer reader takes a NUL byte as the end of input */
	v = json_loadb(buf, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
	if (v && !ours) {
		/* jansson accepts: only our depth limit may say no. */
		CHECK(strict->rc == JS_ERR && strstr(strict->err_msg, "nesting"));
	}
	if (!v && ours) {
		enum json_error_code code = json_error_code(&je);
		/* jansson refuses overflowing numbers, lone surrogate escapes and
		 * "\u0000" in keys; invalid UTF-8 is a repair here, an error there. */
		CHECK(code == json_error_numeric_overflow || code == json_error_null_byte_in_key ||
		      (code == json_error_invalid_syntax && strstr(je.text, "Unicode")) ||
		      code == json_error_invalid_utf8 || strict->utf8 > 0);
	}
	json_decref(v);
}

static void check_object_split(const char *buf, size_t size, const struct res *whole)
{
	struct pr_strbuf keys = PR_STRBUF_INIT, vals = PR_STRBUF_INIT;
	struct js_ctx c;
	size_t p = 0;
	int rc;
	while (p < size && (buf[p] == ' ' || buf[p] == '\t' || buf[p] == '\n' || buf[p] == '\r'))
		p++;
	if (p >= size || buf[p] != '{')
		return;
	memset(&c, 0, sizeof(c));
	c.buf = buf;
	c.len = size;
	c.eof = 1;
	c.flags = JS_LENIENT;
	rc = js_object_split(&c, &p, &keys, &vals);
	/* Its values nest one level below the object, counted afresh: skip depth errors. */
	if (whole->rc == JS_ERR && strstr(whole->err_msg, "nesting"))
		goto out;
	CHECK(rc == whole->rc);
	if (rc == JS_OK) {
		CHECK(p == whole->p);
		check_copy(&keys);
		check_copy(&vals);
		CHECK(keys.buf[0] == '[' && vals.buf[0] == '[');
	}
out:
	pr_strbuf_release(&keys);
	pr_strbuf_release(&vals);
}

static void check_quote(const char *buf, size_t size)
{
	struct pr_strbuf q = PR_STRBUF_INIT, back = PR_STRBUF_INIT;
	struct js_ctx c;
	struct js_str s;
	size_t p = 0;
	js_quote(buf, size, &q);
	memset(&c, 0, sizeof(c));
	c.buf = q.buf;
	c.len = q.len;
	c.eof = 1;
	CHECK(js_string(&c, &p, &s) == JS_OK);
	CHECK(p == q.len);
	js_decode(q.buf + s.start, s.len, &back);
	if (!s.dirty)
		CHECK(back.len == size && !memcmp(back.buf, buf, size));
	pr_strbuf_release(&q);
	pr_strbuf_release(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size heap copy, so ASan sees any read past the window. */
	char *buf = malloc(size ? size : 1);
	struct pr_strbuf out = PR_STRBUF_INIT, lout = PR_STRBUF_INIT;
	struct res strict, lenient;
	size_t k;

	memcpy(buf, data, size);
	scan(buf, size, 1, 0, &strict, &out);
	scan(buf, size, 1, JS_LENIENT, &lenient, &lout);
	if (strict.rc == JS_OK) {
		CHECK(lenient.rc == JS_OK && lenient.p == strict.p);
		CHECK(strict.ctrl == 0);
		check_copy(&out);
	}
	if (lenient.rc == JS_OK)
		check_copy(&lout);
	/* Three window cuts, chosen by the input itself. */
	if (size) {
		size_t cuts[3];
		cuts[0] = data[0] % (size + 1);
		cuts[1] = size / 2;
		cuts[2] = size - 1;
		for (k = 0; k < 3; k++) {
			check_split(buf, size, cuts[k], 0, &strict, &out);
			check_split(buf, size, cuts[k], JS_LENIENT, &lenient, &lout);
		}
	}
	check_jansson(buf, size, &strict);
	check_object_split(buf, size, &lenient);
	check_quote(buf, size);
	/* js_decode accepts any bytes. */
	pr_strbuf_reset(&out);
	js_decode(buf, size, &out);
	pr_strbuf_release(&out);
	pr_strbuf_release(&lout);
	free(buf);
	return 0;
}
