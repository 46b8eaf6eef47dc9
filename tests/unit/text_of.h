/*
 * text_of.h - the console report of a model as a string, for the tests that
 * check what summary prints (test_model, test_tables). Static inline.
 */
#ifndef PR_TEST_TEXT_OF_H
#define PR_TEST_TEXT_OF_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>
#include <jansson.h>

#include "render/text_report.h"

/* The console report of m (caller frees). */
static inline char *text_of(const json_t *m)
{
	FILE *f = tmpfile();
	char *buf;
	long len;
	assert_non_null(f);
	pr_render_text_report(m, f);
	len = ftell(f);
	assert_true(len >= 0);
	buf = calloc((size_t)len + 1, 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}

#endif
