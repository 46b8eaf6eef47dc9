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

#include "ingest/jdoc.h"

static json_t *load_text(const char *text, long *nf, struct pr_error *err)
{
	char path[] = "/tmp/pr_jdoc_XXXXXX";
	int fd = mkstemp(path);
	struct pr_source *src = NULL;
	json_t *doc = NULL;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	if (pr_source_open(&src, path, err) == 0) {
		doc = pr_jdoc_load(src, nf, err);
		pr_source_close(src);
	}
	unlink(path);
	return doc;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nonfinite_become_null),
		cmocka_unit_test(test_error_position),
		cmocka_unit_test(test_head_and_getters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
