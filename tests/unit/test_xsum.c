/* test_xsum.c - analyze/xsum: exact sums, order-independent, mergeable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include <math.h>

#include "base/xsum.h"

/* Wants are Python's math.fsum over the same terms (the naive sum in brackets):
 *   fsum([1e100, 1.0, -1e100]) = 1.0        (0.0)
 *   fsum([0.1] * 10)           = 1.0        (0.9999999999999999)
 *   fsum([1e16, 1.0, 1.0, -1e16]) = 2.0     (0.0) */
static double fsum(const double *v, size_t n)
{
	struct pr_xsum s = PR_XSUM_INIT;
	double r;
	size_t i;
	for (i = 0; i < n; i++)
		pr_xsum_add(&s, v[i]);
	r = pr_xsum_value(&s);
	free(s.p);
	return r;
}

static void test_exact(void **state)
{
	static const double a[] = { 1e100, 1.0, -1e100 };
	static const double b[] = { 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1 };
	static const double c[] = { 1e16, 1.0, 1.0, -1e16 };
	struct pr_xsum e = PR_XSUM_INIT;
	(void)state;
	assert_true(fsum(a, 3) == 1.0);
	assert_true(fsum(b, 10) == 1.0);
	assert_true(fsum(c, 4) == 2.0);
	assert_true(pr_xsum_value(&e) == 0.0);
}

/* Non-finite terms are left out (a NaN must not poison an aggregate). */
static void test_nonfinite_ignored(void **state)
{
	const double v[] = { 2.0, NAN, INFINITY, 3.0 };
	(void)state;
	assert_true(fsum(v, 4) == 5.0);
}

/* Any split of the terms, merged, gives the sum of them all in one pass:
 * fsum(v) = 0.30000000099999996 = 0x1.33333344613f1p-2 (the naive sum: -1.2999999999999998). */
static void test_merge_any_order(void **state)
{
	static const double v[] = { 1e16, 0.1, -3.5, 1.0, 1e-9, -1e16, 0.7, 2.0 };
	size_t cut;
	(void)state;
	assert_true(fsum(v, 8) == 0x1.33333344613f1p-2);
	for (cut = 0; cut <= 8; cut++) {
		struct pr_xsum x = PR_XSUM_INIT, y = PR_XSUM_INIT;
		size_t i;
		for (i = 0; i < cut; i++)
			pr_xsum_add(&x, v[i]);
		for (i = 8; i-- > cut;)
			pr_xsum_add(&y, v[i]);
		pr_xsum_merge(&y, &x);
		assert_true(pr_xsum_value(&y) == fsum(v, 8));
		free(x.p);
		free(y.p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_nonfinite_ignored),
		cmocka_unit_test(test_merge_any_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
