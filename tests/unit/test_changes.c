/*
 * test_changes.c - analyze/changes: E-Divisive means change points on series whose answer is
 * known by hand: a clean step (one shift at its first value, the medians of its two levels), a
 * constant series and an exact linear drift (no change), and a two-step series.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analyze/changes.h"

static void test_clean_step(void **state)
{
	double v[12] = { 1, 1.1, 0.9, 1, 1.05, 0.95, 5, 5.1, 4.9, 5, 5.05, 4.95 };
	struct pr_changes_opts o = PR_CHANGES_OPTS_INIT;
	struct pr_change *c;
	size_t n = pr_changes_detect(v, 12, &o, &c);
	(void)state;
	assert_int_equal(n, 1);
	assert_int_equal(c[0].at, 6);
	assert_int_equal(c[0].kind, PR_CHANGE_SHIFT);
	/* medians of {0.9, 0.95, 1, 1, 1.05, 1.1} and {4.9, ..., 5.1}: 1 and 5 */
	assert_true(fabs(c[0].before - 1) < 1e-12);
	assert_true(fabs(c[0].after - 5) < 1e-12);
	assert_true(fabs(c[0].change - 4) < 1e-12);
	/* every permutation's best split is at most the sorted split's: p = 1/200 at best, and
	 * the 924 ways to split 12 values 6/6 leave few as extreme */
	assert_true(c[0].p <= 0.01);
	free(c);
}

static void test_no_change(void **state)
{
	double flat[30], line[60];
	struct pr_changes_opts o = PR_CHANGES_OPTS_INIT;
	struct pr_change *c;
	size_t i;
	(void)state;
	for (i = 0; i < 30; i++)
		flat[i] = 3;
	assert_int_equal(pr_changes_detect(flat, 30, &o, &c), 0);
	free(c);
	/* an exact drift splits (its segments differ) but has no jump: no shift, no spread */
	for (i = 0; i < 60; i++)
		line[i] = 100 + (double)i;
	assert_int_equal(pr_changes_detect(line, 60, &o, &c), 0);
	free(c);
	/* too short for two segments of 3 */
	assert_int_equal(pr_changes_detect(flat, 5, &o, &c), 0);
	free(c);
}

static void test_two_steps(void **state)
{
	double v[45];
	struct pr_changes_opts o = PR_CHANGES_OPTS_INIT;
	struct pr_change *c;
	size_t i, n;
	(void)state;
	/* levels 10, 20, 15 with a -1/+1 alternation */
	for (i = 0; i < 45; i++)
		v[i] = (i < 15 ? 10 : i < 30 ? 20 : 15) + (i % 2 ? 1 : -1);
	n = pr_changes_detect(v, 45, &o, &c);
	assert_int_equal(n, 2);
	assert_int_equal(c[0].at, 15);
	assert_int_equal(c[1].at, 30);
	/* medians: 8 of 15 values at 10 - 1 (even i from 0), 8 at 20 + 1 (odd i from 15), 8 at
	 * 15 - 1 (even i from 30): 9 -> 21 -> 14 */
	assert_true(fabs(c[0].before - 9) < 1e-12 && fabs(c[0].after - 21) < 1e-12);
	assert_true(fabs(c[1].before - 21) < 1e-12 && fabs(c[1].after - 14) < 1e-12);
	assert_true(fabs(c[0].change - 12.0 / 9) < 1e-12);
	assert_true(fabs(c[1].change + 7.0 / 21) < 1e-12);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_step),
		cmocka_unit_test(test_no_change),
		cmocka_unit_test(test_two_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
