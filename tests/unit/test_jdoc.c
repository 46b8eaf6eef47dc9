/* test_jdoc.c - ingest/jdoc: whole JSON documents from a pr_source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include "ingest/jdoc.h"
#include "base/strbuf.h"

static json_t *load_bytes(const char *text, size_t n, long *nf, struct pr_error *err)
{
	char path[] = "/tmp/pr_jdoc_XXXXXX";
	int fd = mkstemp(path);
	struct pr_source *src = NULL;
	json_t *doc = NULL;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, n), (ssize_t)n);
	close(fd);
	if (pr_source_open(&src, path, err) == 0) {
		doc = pr_jdoc_load(src, nf, err);
		pr_source_close(src);
	}
	unlink(path);
	return doc;
}

static json_t *load_text(const char *text, long *nf, struct pr_error *err)
{
	return load_bytes(text, strlen(text), nf, err);
}

static void test_nonfinite_become_null(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	long nf = -1;
	json_t *doc = load_text("{\"a\": NaN, \"b\": [Infinity, -Infinity, \"NaN\"], \"c\": 1.5}",
				&nf, &err);
	char *s;
	(void)state;
	assert_non_null(doc);
	assert_int_equal(nf, 3);
	s = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	assert_string_equal(s, "{\"a\":null,\"b\":[null,null,\"NaN\"],\"c\":1.5}");
	free(s);
	json_decref(doc);
}

static void test_error_position(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	long nf = 0;
	(void)state;
	assert_null(load_text("{\"a\": 1,\n \"b\": }", &nf, &err));
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 7);
}

static void test_head_and_getters(void **state)
{
	static const char *const want[] = { "session_info", "stages", NULL };
	static const char *const missing[] = { "session_info", "nope", NULL };
	const char *head = "\xEF\xBB\xBF  {\"session_info\": {}, \"stages\": []}";
	json_t *o = json_pack("{s:i, s:f, s:f, s:s}", "i", 7, "r", 2.0, "x", 2.5, "s", "t");
	double d;
	int64_t i;
	(void)state;
	assert_true(pr_jdoc_head_has((const unsigned char *)head, strlen(head), want));
	assert_false(pr_jdoc_head_has((const unsigned char *)head, strlen(head), missing));
	assert_false(pr_jdoc_head_has((const unsigned char *)"[1]", 3, want));
	assert_int_equal(pr_jget_int(o, "i", &i), 0);
	assert_int_equal(i, 7);
	assert_int_equal(pr_jget_int(o, "r", &i), 0); /* 2.0 is an integer value */
	assert_int_equal(i, 2);
	assert_int_equal(pr_jget_int(o, "x", &i), -1);
	assert_int_equal(pr_jget_num(o, "x", &d), 0);
	assert_true(d == 2.5);
	assert_int_equal(pr_jget_num(o, "s", &d), -1);
	assert_string_equal(pr_jget_str(o, "s"), "t");
	assert_null(pr_jget_str(o, "i"));
	json_decref(o);
}

/* The text is read in 64 KiB pieces: a word cut by a piece's end is still
 * replaced (issue 12: the whole text used to be held twice for this). */
static void test_nonfinite_across_reads(void **state)
{
	static const char *const words[] = { "-Infinity", "Infinity", "NaN" };
	size_t k, cut;
	(void)state;
	for (k = 0; k < 3; k++) {
		for (cut = 0; cut <= strlen(words[k]); cut++) {
			/* [ spaces... word , "NaN" ] with the word starting cut bytes
			 * before offset 65536 */
			struct pr_strbuf sb = PR_STRBUF_INIT;
			struct pr_error err = PR_ERROR_INIT;
			long nf = 0;
			json_t *doc;
			pr_strbuf_addch(&sb, '[');
			while (sb.len < 65536 - cut)
				pr_strbuf_addch(&sb, ' ');
			pr_strbuf_addf(&sb, "%s, \"NaN\", 2]", words[k]);
			doc = load_bytes(sb.buf, sb.len, &nf, &err);
			assert_non_null(doc);
			assert_int_equal(nf, 1);
			assert_true(json_is_null(json_array_get(doc, 0)));
			assert_string_equal(json_string_value(json_array_get(doc, 1)), "NaN");
			assert_int_equal(json_integer_value(json_array_get(doc, 2)), 2);
			json_decref(doc);
			pr_strbuf_release(&sb);
		}
	}
}

/* A document over the limit (PROFREPORT_JSON_MAX_MB, default 128 MiB) is
 * refused with one line that says how to raise it; a bad value is an error. */
static void test_size_limit(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_error err = PR_ERROR_INIT;
	size_t max = 0;
	long nf = 0;
	json_t *doc;
	(void)state;
	unsetenv(PR_JDOC_MAX_ENV);
	assert_int_equal(pr_jdoc_limit(&max, &err), 0);
	assert_int_equal(max, (size_t)128 << 20);
	/* exactly 1 MiB loads under a 1 MiB limit; one byte more does not */
	pr_strbuf_addch(&sb, '[');
	while (sb.len < 1048575)
		pr_strbuf_addch(&sb, ' ');
	pr_strbuf_addch(&sb, ']');
	assert_int_equal(setenv(PR_JDOC_MAX_ENV, "1", 1), 0);
	doc = load_bytes(sb.buf, sb.len, &nf, &err);
	assert_non_null(doc);
	json_decref(doc);
	pr_strbuf_addch(&sb, '\n');
	assert_null(load_bytes(sb.buf, sb.len, &nf, &err));
	assert_int_equal(err.code, PR_E_LIMIT);
	assert_string_equal(err.text,
			    "JSON document larger than 1 MiB (after gunzip): not loaded, documents "
			    "are held whole in memory; set PROFREPORT_JSON_MAX_MB=N (MiB) to raise "
			    "the limit");
	assert_int_equal(setenv(PR_JDOC_MAX_ENV, "2", 1), 0);
	doc = load_bytes(sb.buf, sb.len, &nf, &err);
	assert_non_null(doc);
	json_decref(doc);
	/* the text reader (diffulex) has the same limit */
	assert_int_equal(setenv(PR_JDOC_MAX_ENV, "1x", 1), 0);
	assert_null(load_text("[1]", &nf, &err));
	assert_int_equal(err.code, PR_E_USAGE);
	assert_string_equal(err.text, "PROFREPORT_JSON_MAX_MB='1x': expected a whole number of MiB "
				      "from 1 to 1048576");
	assert_int_equal(pr_jdoc_max(), (size_t)128 << 20);
	assert_int_equal(setenv(PR_JDOC_MAX_ENV, "0", 1), 0);
	assert_int_equal(pr_jdoc_limit(&max, &err), -1);
	unsetenv(PR_JDOC_MAX_ENV);
	pr_strbuf_release(&sb);
}

/* jansson gives no text when an allocation fails (issue 12: the error was
 * "'FILE':1:1: " and nothing else): out of memory is said in words. */
static long allocs_left = -1;

static void *failing_malloc(size_t n)
{
	if (allocs_left == 0)
		return NULL;
	if (allocs_left > 0)
		allocs_left--;
	return malloc(n);
}

static void test_out_of_memory(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	long nf = 0;
	(void)state;
	json_set_alloc_funcs(failing_malloc, free);
	allocs_left = 50;
	assert_null(load_text("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, "
			      "19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, "
			      "35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, "
			      "51, 52, 53, 54, 55, 56, 57, 58, 59, 60]",
			      &nf, &err));
	allocs_left = -1;
	json_set_alloc_funcs(malloc, free);
	assert_int_equal(err.code, PR_E_LIMIT);
	assert_string_equal(err.text, "out of memory loading a JSON document of 0 MiB "
				      "(documents are held whole in memory)");
	/* the helper the diffulex reader shares: jansson's own text when it has one */
	{
		json_error_t je;
		struct pr_error e2 = PR_ERROR_INIT;
		memset(&je, 0, sizeof(je));
		je.line = -1;
		assert_int_equal(pr_jdoc_error(&je, (size_t)3 << 20, &e2), -1);
		assert_string_equal(e2.text, "out of memory loading a JSON document of 3 MiB "
					     "(documents are held whole in memory)");
		snprintf(je.text, sizeof(je.text), "%s", "'[' or '{' expected near 'x'");
		je.line = 2;
		je.column = 0;
		assert_int_equal(pr_jdoc_error(&je, 10, &e2), -1);
		assert_int_equal(e2.code, PR_E_PARSE);
		assert_string_equal(e2.text, "'[' or '{' expected near 'x'");
		assert_int_equal(e2.line, 2);
		assert_int_equal(e2.column, 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nonfinite_become_null),
		cmocka_unit_test(test_error_position),
		cmocka_unit_test(test_head_and_getters),
		cmocka_unit_test(test_nonfinite_across_reads),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
