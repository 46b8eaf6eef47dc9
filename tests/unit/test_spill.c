/* test_spill.c - base/spill: a byte stream in memory, then in a scratch file, read back whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/helpers.h"

#include "base/error.h"
#include "base/spill.h"

#define REC 20 /* not a divisor of the buffer sizes below: records straddle refills */

static void rec_of(unsigned char *b, uint32_t i)
{
	size_t k;
	for (k = 0; k < REC; k++)
		b[k] = (unsigned char)(i * 31u + k * 7u);
}

/* Writes n records, reads them back, and checks every byte and the end. */
static void round_trip(size_t mem_max, uint32_t n, int want_disk)
{
	struct pr_spill *s = pr_spill_new("test records", mem_max);
	struct pr_error err = { 0 };
	unsigned char b[REC];
	const unsigned char *p;
	uint32_t i;
	for (i = 0; i < n; i++) {
		rec_of(b, i);
		assert_int_equal(pr_spill_put(s, b, REC), 0);
	}
	assert_int_equal(pr_spill_size(s), (uint64_t)n * REC);
	assert_int_equal(pr_spill_on_disk(s), want_disk);
	assert_int_equal(pr_spill_rewind(s, &err), 0);
	for (i = 0; i < n; i++) {
		p = pr_spill_next(s, REC);
		assert_non_null(p);
		rec_of(b, i);
		assert_memory_equal(p, b, REC);
	}
	assert_null(pr_spill_next(s, REC));
	assert_int_equal(pr_spill_failed(s, &err), 0);
	pr_spill_free(s);
}

static void test_in_memory(void **state)
{
	(void)state;
	round_trip(1 << 20, 1000, 0); /* 20 000 bytes: held */
	round_trip(1 << 20, 0, 0);    /* nothing put: the end at once */
}

static void test_on_disk(void **state)
{
	(void)state;
	round_trip(0, 3, 0);	     /* 60 bytes fit the smallest buffer (64) */
	round_trip(0, 4, 1);	     /* 80 do not */
	round_trip(100, 100000, 1);  /* 2 MB through a 100-byte buffer */
	round_trip(4096, 100000, 1); /* through whole pages */
}

/* A put larger than the buffer goes through in pieces. */
static void test_big_put(void **state)
{
	struct pr_spill *s = pr_spill_new("test records", 64);
	struct pr_error err = { 0 };
	unsigned char big[1000];
	const unsigned char *p;
	size_t i;
	(void)state;
	for (i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)(i * 13);
	assert_int_equal(pr_spill_put(s, big, sizeof(big)), 0);
	assert_int_equal(pr_spill_rewind(s, &err), 0);
	for (i = 0; i < sizeof(big); i += 40) {
		p = pr_spill_next(s, 40);
		assert_non_null(p);
		assert_memory_equal(p, big + i, 40);
	}
	assert_null(pr_spill_next(s, 1));
	assert_null(pr_spill_next(s, 65)); /* more than the buffer: never */
	pr_spill_free(s);
}

/* Bytes left over that do not make a whole record: an error, not a silent end. */
static void test_short_tail(void **state)
{
	struct pr_spill *s = pr_spill_new("test records", 0);
	struct pr_error err = { 0 };
	unsigned char b[REC] = { 0 };
	(void)state;
	assert_int_equal(pr_spill_put(s, b, REC), 0);
	assert_int_equal(pr_spill_put(s, b, REC), 0);
	assert_int_equal(pr_spill_put(s, b, REC), 0);
	assert_int_equal(pr_spill_put(s, b, 10), 0);
	assert_int_equal(pr_spill_put(s, b, REC), 0); /* 90 bytes: on disk */
	assert_int_equal(pr_spill_rewind(s, &err), 0);
	assert_non_null(pr_spill_next(s, 40));
	assert_non_null(pr_spill_next(s, 40));
	assert_null(pr_spill_next(s, 40));
	assert_int_equal(pr_spill_failed(s, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	assert_non_null(strstr(err.text, "scratch file of test records"));
	pr_spill_free(s);
}

/* No scratch directory: the error names it; the stream refuses what follows. */
static void test_no_dir(void **state)
{
	char *keep = tmpdir_set("/nonexistent/profreport-test");
	struct pr_spill *s;
	struct pr_error err = { 0 };
	unsigned char b[REC] = { 0 };
	int i, rc = 0;
	(void)state;
	s = pr_spill_new("test records", 0);
	for (i = 0; i < 10; i++)
		rc |= pr_spill_put(s, b, REC);
	assert_int_equal(rc, -1);
	assert_int_equal(pr_spill_rewind(s, &err), -1);
	assert_string_equal(err.text, "cannot create a scratch file for test records in "
				      "'/nonexistent/profreport-test': No such file or directory");
	assert_null(pr_spill_next(s, REC));
	pr_spill_free(s);
	/* in memory it never needs the directory */
	s = pr_spill_new("test records", 1 << 20);
	assert_int_equal(pr_spill_put(s, b, REC), 0);
	assert_int_equal(pr_spill_rewind(s, &err), 0);
	assert_non_null(pr_spill_next(s, REC));
	pr_spill_free(s);
	tmpdir_restore(keep);
}

/* Read once: a second rewind, or a put after it, is refused. */
static void test_once(void **state)
{
	struct pr_spill *s = pr_spill_new("test records", 0);
	struct pr_error err = { 0 };
	unsigned char b[REC] = { 0 };
	(void)state;
	assert_int_equal(pr_spill_put(s, b, REC), 0);
	assert_int_equal(pr_spill_rewind(s, &err), 0);
	assert_int_equal(pr_spill_put(s, b, REC), -1);
	assert_int_equal(pr_spill_rewind(s, &err), -1);
	pr_spill_free(s);
	pr_spill_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_memory), cmocka_unit_test(test_on_disk),
		cmocka_unit_test(test_big_put),	  cmocka_unit_test(test_short_tail),
		cmocka_unit_test(test_no_dir),	  cmocka_unit_test(test_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
