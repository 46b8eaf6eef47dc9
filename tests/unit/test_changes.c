/*
 * test_changes.c - analyze/changes: E-Divisive means change points on series whose answer is
 * known by hand: a clean step (one shift at its first value, the medians of its two levels), a
 * constant series and an exact linear drift (no change), and a two-step series; and the
 * O(n log n) split statistic against the O(n^2) definition, summed directly here.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "base/changes.h"

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

/* Q(tau) of the energy statistic by its definition: every pair's distance summed. */
static double q_direct(const double *z, size_t n, size_t tau)
{
	double sxy = 0, sxx = 0, syy = 0, m = (double)tau, k = (double)(n - tau);
	size_t i, j;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double d = fabs(z[i] - z[j]);
			if (j < tau)
				sxx += d;
			else if (i >= tau)
				syy += d;
			else
				sxy += d;
		}
	return m * k / (m + k) *
	       (2 * sxy / (m * k) - sxx / (m * (m - 1) / 2) - syy / (k * (k - 1) / 2));
}

/* One shift in noisy data with ties: the change's q is the direct maximum of Q over tau. */
static void test_split_statistic(void **state)
{
	double v[240], best = -1;
	struct pr_changes_opts o = PR_CHANGES_OPTS_INIT;
	struct pr_change *c;
	uint64_t r = 42;
	size_t i, n, at = 0;
	(void)state;
	for (i = 0; i < 240; i++) /* integers 0..7 (ties), +20 from 150 on */
		v[i] = (double)((r = r * 6364136223846793005ULL + 1442695040888963407ULL) >> 60 &
				7) +
		       (i >= 150 ? 20 : 0);
	for (i = o.min_size; i + o.min_size <= 240; i++) {
		double q = q_direct(v, 240, i);
		if (q > best) {
			best = q;
			at = i;
		}
	}
	n = pr_changes_detect(v, 240, &o, &c);
	assert_int_equal(at, 150);
	assert_true(n >= 1);
	assert_int_equal(c[0].at, 150);
	assert_true(fabs(c[0].q - best) <= 1e-9 * best);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_step),
		cmocka_unit_test(test_no_change),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_split_statistic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
