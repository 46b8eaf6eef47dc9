/* test_gpuscan.c - analyze/gpuscan's sorts and analyze/imap's reserve (issue 16's memory work). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analyze/gpuscan.h"
#include "analyze/imap.h"

/* Keys with ties, negatives and both extremes: the order by key, ties in index order (stable). */
static void test_sort_stable(void **state)
{
	int64_t keys[] = { 5, -3, 5, INT64_MIN, 0, INT64_MAX, -3, 5 };
	uint32_t idx[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	/* by hand: INT64_MIN(3), -3(1), -3(6), 0(4), 5(0), 5(2), 5(7), INT64_MAX(5) */
	const uint32_t want[] = { 3, 1, 6, 4, 0, 2, 7, 5 };
	const int64_t want_keys[] = { INT64_MIN, -3, -3, 0, 5, 5, 5, INT64_MAX };
	size_t i;
	(void)state;
	pr_gpuscan_sort(idx, keys, 8);
	for (i = 0; i < 8; i++) {
		assert_int_equal(idx[i], want[i]);
		assert_true(keys[i] == want_keys[i]);
	}
}

/* The packed keys of gpu_breakdown: (start - earliest) << bits | row; sorted ascending. */
static void test_sort_u64(void **state)
{
	uint64_t k[1000];
	size_t i;
	(void)state;
	for (i = 0; i < 1000; i++) /* starts 0..99 repeated, rows 0..999 in 10 bits */
		k[i] = (uint64_t)((i * 37) % 100) << 10 | i;
	pr_gpuscan_sort_u64(k, 1000);
	for (i = 1; i < 1000; i++)
		assert_true(k[i - 1] < k[i]);
	/* each start holds its 10 rows in row order: start 0 = rows 0, 100, ..., 900 */
	for (i = 0; i < 10; i++)
		assert_int_equal(k[i], (uint64_t)(i * 100));
	k[0] = UINT64_MAX;
	k[1] = 0;
	pr_gpuscan_sort_u64(k, 2);
	assert_true(k[0] == 0 && k[1] == UINT64_MAX);
}

/* After pr_imap_reserve(n), n puts do not grow the table, and every key reads back. */
static void test_imap_reserve(void **state)
{
	struct pr_imap m = { 0 };
	size_t cap, i;
	int64_t v;
	(void)state;
	pr_imap_put(&m, 42, 1);
	pr_imap_reserve(&m, 100000);
	cap = m.cap;
	assert_true(cap * 3 >= (size_t)100000 * 4);
	for (i = 0; i < 100000; i++)
		pr_imap_put(&m, (int64_t)(i * 7919) - 50000, (int64_t)i);
	assert_int_equal(m.cap, cap);
	assert_true(pr_imap_get(&m, 42, &v)); /* 42 = 7919 * i - 50000 for no i: still 1 */
	assert_int_equal(v, 1);
	for (i = 0; i < 100000; i += 997) {
		assert_true(pr_imap_get(&m, (int64_t)(i * 7919) - 50000, &v));
		assert_int_equal(v, (int64_t)i);
	}
	pr_imap_reserve(&m, 10); /* never shrinks */
	assert_int_equal(m.cap, cap);
	pr_imap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_stable),
		cmocka_unit_test(test_sort_u64),
		cmocka_unit_test(test_imap_reserve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
