/* test_stats.c - analyze/stats: moments, regression, robust statistics, rank tests, sketch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include <math.h>

#include "base/stats.h"

/* |got - want| <= tol, or both the same infinity, or both NAN. */
#define assert_near(got, want, tol) check_near((got), (want), (tol), #got, __LINE__)

static void check_near(double got, double want, double tol, const char *what, int line)
{
	int ok;
	if (isnan(want))
		ok = isnan(got);
	else if (isinf(want))
		ok = got == want;
	else
		ok = fabs(got - want) <= tol;
	if (!ok)
		print_error("line %d: %s = %.17g, want %.17g (tol %g)\n", line, what, got, want,
			    tol);
	assert_true(ok);
}

/* Deterministic generator for the randomized checks (xorshift64). */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void test_quantile(void **state)
{
	double v[10];
	size_t i;
	(void)state;
	for (i = 0; i < 10; i++)
		v[i] = (double)(i + 1);
	/* numpy.quantile(range(1, 11), q) with the default linear method. */
	assert_near(pr_quantile_sorted(v, 10, 0.5), 5.5, 1e-12);
	assert_near(pr_quantile_sorted(v, 10, 0.95), 9.55, 1e-12);
	assert_near(pr_quantile_sorted(v, 10, 0.99), 9.91, 1e-12);
	assert_near(pr_quantile_sorted(v, 10, 0), 1, 0);
	assert_near(pr_quantile_sorted(v, 10, 1), 10, 0);
	assert_near(pr_quantile_sorted(v, 0, 0.5), NAN, 0);
}

static void test_moments(void **state)
{
	/* The textbook example: mean 5, population std 2, sample std sqrt(32 / 7). */
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct pr_moments all, lo, hi, empty;
	size_t i;
	(void)state;
	pr_moments_init(&all);
	pr_moments_init(&lo);
	pr_moments_init(&hi);
	pr_moments_init(&empty);
	assert_near(pr_moments_std(&all, 1), 0, 0);
	assert_near(pr_moments_std(&all, 0), 0, 0);
	for (i = 0; i < 8; i++) {
		pr_moments_add(&all, v[i]);
		pr_moments_add(i < 3 ? &lo : &hi, v[i]);
	}
	assert_near(all.n, 8, 0);
	assert_near(all.sum, 40, 0);
	assert_near(all.mean, 5, 1e-15);
	assert_near(all.sumsq_dev, 32, 1e-12);
	assert_near(all.min, 2, 0);
	assert_near(all.max, 9, 0);
	assert_near(pr_moments_std(&all, 0), 2, 1e-15);
	assert_near(pr_moments_std(&all, 1), 2.138089935299395, 1e-15);
	assert_near(pr_mean(v, 8), 5, 0);
	assert_near(pr_std(v, 8, 0), 2, 1e-15);
	assert_near(pr_std(v, 8, 1), 2.138089935299395, 1e-15);
	assert_near(pr_std(v, 1, 1), 0, 0);
	assert_near(pr_mean(v, 0), NAN, 0);

	/* Two unequal parts merged = one pass. */
	pr_moments_merge(&lo, &hi);
	assert_near(lo.n, all.n, 0);
	assert_near(lo.sum, all.sum, 0);
	assert_near(lo.mean, all.mean, 1e-12);
	assert_near(lo.sumsq_dev, all.sumsq_dev, 1e-12);
	assert_near(lo.min, 2, 0);
	assert_near(lo.max, 9, 0);
	assert_near(pr_moments_std(&lo, 1), pr_moments_std(&all, 1), 1e-12);

	/* An empty accumulator is neutral on either side. */
	pr_moments_merge(&lo, &empty);
	assert_near(lo.n, 8, 0);
	assert_near(lo.mean, 5, 1e-12);
	pr_moments_merge(&empty, &all);
	assert_near(empty.n, 8, 0);
	assert_near(empty.sumsq_dev, 32, 1e-12);
	assert_near(empty.min, 2, 0);
}

static void test_moments_large_offset(void **state)
{
	/* 1e9 + small values: the naive sum of squares loses everything here. */
	struct pr_moments all, part[3];
	double v[999];
	size_t i;
	(void)state;
	pr_moments_init(&all);
	for (i = 0; i < 3; i++)
		pr_moments_init(&part[i]);
	for (i = 0; i < 999; i++) {
		v[i] = 1e9 + (double)(i % 7);
		pr_moments_add(&all, v[i]);
		pr_moments_add(&part[i % 3], v[i]);
	}
	pr_moments_merge(&part[2], &part[0]);
	pr_moments_merge(&part[2], &part[1]);
	assert_near(part[2].n, 999, 0);
	assert_near(part[2].mean, all.mean, 1e-6);
	/*
	 * mean^2 / variance is about 2.5e17 here, so one ulp of the 1e9-sized
	 * values is 1e-7 and no update formula keeps 1e-12; Welford and Chan
	 * keep about 1e-9 (a naive sum of squares gives garbage). Exact sample
	 * std: sqrt(3986984 / 998001 * 999 / 998) = 1.9997432137193536.
	 */
	assert_near(pr_moments_std(&all, 1), 1.9997432137193536, 5e-9);
	assert_near(pr_moments_std(&part[2], 1), 1.9997432137193536, 5e-9);
	assert_near(pr_std(v, 999, 1), 1.9997432137193536, 5e-9);
	/*
	 * i % 7 over 999 values = 142 cycles of 0..6 plus 0..4: sum 142 * 21 + 10 = 2992,
	 * sum of squares 142 * 91 + 30 = 12952, population variance
	 * (12952 * 999 - 2992^2) / 999^2 = 3986984 / 998001, std 1.998742090645988.
	 */
	assert_near(pr_std(v, 999, 0), 1.998742090645988, 1e-9);
	assert_near(pr_moments_std(&part[2], 0), 1.998742090645988, 1e-9);
}

static void test_linreg(void **state)
{
	double x[10], y[10];
	static const double nx[] = { 1, 2, 3, 4, 5 }, ny[] = { 2, 4, 5, 4, 5 };
	static const double cx[] = { 0.1, 0.1, 0.1 }, cy[] = { 1, 2, 3 };
	struct pr_linreg r;
	size_t i;
	(void)state;
	for (i = 0; i < 10; i++) {
		x[i] = (double)i;
		y[i] = 3 * x[i] + 1;
	}
	assert_int_equal(pr_linreg(x, y, 10, &r), 0);
	assert_near(r.slope, 3, 1e-12);
	assert_near(r.intercept, 1, 1e-12);
	assert_near(r.r2, 1, 1e-12);
	assert_near(r.slope_se, 0, 1e-12);
	assert_int_equal(r.n, 10);

	/*
	 * By hand: mean x = 3, mean y = 4, Sxx = 10, Sxy = (-2)(-2) + (-1)(0) +
	 * 0(1) + 1(0) + 2(1) = 6, so slope = 0.6, intercept = 4 - 0.6 * 3 = 2.2.
	 * Fitted 2.8 3.4 4.0 4.6 5.2, residuals -0.8 0.6 1.0 -0.6 -0.2,
	 * SS_res = 0.64 + 0.36 + 1 + 0.36 + 0.04 = 2.4, SS_tot = 4 + 0 + 1 + 0 + 1 = 6,
	 * r2 = 1 - 2.4 / 6 = 0.6; se(slope) = sqrt(2.4 / 3 / 10) = sqrt(0.08),
	 * se(intercept) = sqrt(2.4 / 3 * (1 / 5 + 9 / 10)) = sqrt(0.88).
	 */
	assert_int_equal(pr_linreg(nx, ny, 5, &r), 0);
	assert_near(r.slope, 0.6, 1e-12);
	assert_near(r.intercept, 2.2, 1e-12);
	assert_near(r.r2, 0.6, 1e-12);
	assert_near(r.slope_se, 0.282842712474619, 1e-12);
	assert_near(r.intercept_se, 0.938083151964686, 1e-12);

	/* Constant y: the horizontal line, exact, r2 = 1 by convention. */
	for (i = 0; i < 10; i++)
		y[i] = 0.1;
	assert_int_equal(pr_linreg(x, y, 10, &r), 0);
	assert_near(r.slope, 0, 0);
	assert_near(r.intercept, 0.1, 0);
	assert_near(r.r2, 1, 0);
	assert_near(r.slope_se, 0, 0);

	/* Two points: exact line, no degrees of freedom left: se 0. */
	assert_int_equal(pr_linreg(nx, ny, 2, &r), 0);
	assert_near(r.slope, 2, 1e-12);
	assert_near(r.intercept, 0, 1e-12);
	assert_near(r.slope_se, 0, 0);

	memset(&r, 0, sizeof(r));
	assert_int_equal(pr_linreg(nx, ny, 1, &r), -1);
	assert_int_equal(pr_linreg(cx, cy, 3, &r), -1); /* all x equal (their mean is not 0.1) */
	assert_int_equal(r.n, 0);
}

static void test_robust(void **state)
{
	double v[] = { 9, 1, 4, 2, 6, 1, 2 };
	double w[] = { 5, 6, 5, 5, 5 };
	double e[] = { 4, 1, 3, 2 };
	double med, mad, mean_ad;
	(void)state;
	/*
	 * {1,1,2,2,4,6,9}: median 2; |v - 2| = {1,1,0,0,2,4,7}, sorted
	 * {0,0,1,1,2,4,7}: MAD 1; modified z of 9 = 0.6745 * 7 / 1 = 4.7215.
	 */
	med = pr_median(v, 7);
	assert_near(med, 2, 0);
	assert_near(v[0], 1, 0); /* sorted in place */
	assert_near(v[6], 9, 0);
	mad = pr_mad(v, 7, med);
	assert_near(mad, 1, 0);
	assert_near(pr_robust_z(9, med, mad), 4.7215, 1e-12);
	assert_near(pr_robust_z(1, med, mad), -0.6745, 1e-12);
	assert_near(pr_robust_z_meanad(9, med, mad, 123), 4.7215, 1e-12); /* mad > 0: no fallback */
	assert_near(pr_median(e, 4), 2.5, 0);
	assert_near(pr_median(e, 0), NAN, 0);
	assert_near(pr_mad(e, 0, 0), NAN, 0);

	/*
	 * {5,5,5,5,6}: median 5, |w - 5| = {0,0,0,0,1}: MAD 0. Mean absolute
	 * deviation 1 / 5 = 0.2; fallback z of 6 = 1 / (1.253314 * 0.2)
	 * = 5 * sqrt(2 / pi) = 3.989422804014327.
	 */
	med = pr_median(w, 5);
	mad = pr_mad(w, 5, med);
	mean_ad = pr_meanad(w, 5, med);
	assert_near(med, 5, 0);
	assert_near(mad, 0, 0);
	assert_near(mean_ad, 0.2, 1e-15);
	assert_near(pr_robust_z_meanad(6, med, mad, mean_ad), 3.989422804014327, 1e-12);
	assert_near(pr_robust_z_meanad(5, med, mad, mean_ad), 0, 0);
	/* No spread at all: 0 at the median, infinite elsewhere. */
	assert_near(pr_robust_z_meanad(5, 5, 0, 0), 0, 0);
	assert_near(pr_robust_z_meanad(6, 5, 0, 0), INFINITY, 0);
	assert_near(pr_robust_z_meanad(4, 5, 0, 0), -INFINITY, 0);
	assert_near(pr_robust_z(6, 5, 0), INFINITY, 0);
	assert_near(pr_robust_z(5, 5, 0), 0, 0);
}

static uint64_t bt_state = 0x243F6A8885A308D3ULL;

static double bt_uniform(void)
{
	bt_state ^= bt_state << 13;
	bt_state ^= bt_state >> 7;
	bt_state ^= bt_state << 17;
	return ((double)(bt_state >> 11) + 0.5) / 9007199254740992.0;
}

/* Exponential with median m: -m ln(U) / ln 2 (a skewed, step-time-like distribution). */
static double bt_exp(double m)
{
	return -m * log(bt_uniform()) / log(2.0);
}

static void test_bootstrap(void **state)
{
	double a[60], b[60], lo, hi, lo2, hi2;
	size_t i, t, covered = 0, trials = 300;
	(void)state;
	/* no spread: the interval is the ratio itself */
	for (i = 0; i < 10; i++) {
		a[i] = 5;
		b[i] = 10;
	}
	assert_int_equal(pr_bootstrap_median_ratio(a, 10, b, 10, 0.95, 1000, 1, &lo, &hi), 0);
	assert_true(lo == 2 && hi == 2);
	/* coverage: the true ratio of medians is 1.2; a 95 % interval holds it in ~95 % of trials */
	for (t = 0; t < trials; t++) {
		for (i = 0; i < 60; i++) {
			a[i] = 100 + bt_exp(10);
			b[i] = 120 + bt_exp(12);
		}
		assert_int_equal(pr_bootstrap_median_ratio(a, 60, b, 60, 0.95, 1000, t, &lo, &hi),
				 0);
		assert_true(lo <= hi);
		covered += lo <= 1.2 && 1.2 <= hi;
	}
	assert_true(covered >= trials * 88 / 100 && covered <= trials * 99 / 100);
	/* deterministic: the same seed gives the same interval, another seed a close one */
	assert_int_equal(pr_bootstrap_median_ratio(a, 60, b, 60, 0.95, 2000, 7, &lo, &hi), 0);
	assert_int_equal(pr_bootstrap_median_ratio(a, 60, b, 60, 0.95, 2000, 7, &lo2, &hi2), 0);
	assert_true(lo == lo2 && hi == hi2);
	assert_int_equal(pr_bootstrap_median_ratio(a, 60, b, 60, 0.95, 2000, 8, &lo2, &hi2), 0);
	assert_true(fabs(lo - lo2) < 0.02 && fabs(hi - hi2) < 0.02);
	/* a wider confidence gives a wider interval */
	assert_int_equal(pr_bootstrap_median_ratio(a, 60, b, 60, 0.5, 2000, 7, &lo2, &hi2), 0);
	assert_true(lo2 >= lo && hi2 <= hi && lo2 < hi2);
	/* refusals */
	assert_int_equal(pr_bootstrap_median_ratio(a, 1, b, 60, 0.95, 1000, 1, &lo, &hi), -1);
	assert_int_equal(pr_bootstrap_median_ratio(a, 60, b, 60, 1.0, 1000, 1, &lo, &hi), -1);
	assert_int_equal(pr_bootstrap_median_ratio(a, 60, b, 60, 0.95, 10, 1, &lo, &hi), -1);
	for (i = 0; i < 10; i++)
		a[i] = 0;
	assert_int_equal(pr_bootstrap_median_ratio(a, 10, b, 10, 0.95, 1000, 1, &lo, &hi), -1);
	a[0] = NAN;
	assert_int_equal(pr_bootstrap_median_ratio(a, 10, b, 10, 0.95, 1000, 1, &lo, &hi), -1);
}

/* Exact answers computed with Python's fractions: sum(comb(n, i) p^i (1-p)^(n-i), i >= k). */
static void test_binomial(void **state)
{
	(void)state;
	assert_true(fabs(pr_binom_sf(20, 20, 0.25) / 9.094947017729282e-13 - 1) < 1e-10);
	assert_true(fabs(pr_binom_sf(10, 20, 0.5) - 0.5880985260009766) < 1e-13);
	assert_true(fabs(pr_binom_sf(3, 10, 0.1) - 0.0701908264) < 1e-13);
	assert_true(fabs(pr_binom_sf(60, 100, 0.5) - 0.028443966820490395) < 1e-13);
	assert_true(fabs(pr_binom_sf(700, 1000, 0.5) / 8.832839003975068e-38 - 1) < 1e-9);
	assert_true(fabs(pr_binom_sf(1, 5, 1.0 / 3) - 0.8683127572016461) < 1e-13);
	assert_true(pr_binom_sf(0, 7, 0.3) == 1);
	assert_true(pr_binom_sf(8, 7, 0.3) == 0);
	assert_true(pr_binom_sf(3, 7, 0) == 0);
	assert_true(pr_binom_sf(3, 7, 1) == 1);
	assert_true(isnan(pr_binom_sf(3, 7, 1.5)));
	assert_true(isnan(pr_binom_sf(3, 7, NAN)));
}

static void test_normal(void **state)
{
	/* Reference values: Python's statistics.NormalDist (Wichura's AS241) and math.erfc. */
	static const struct {
		double p, x;
	} ref[] = {
		{ 0.975, 1.9599639845400536 },
		{ 0.995, 2.5758293035489 },
		{ 0.75, 0.6744897501960817 },
		{ 0.3, -0.5244005127080407 },
		{ 0.02425, -1.9729610513118845 },
		{ 1e-10, -6.361340902404056 },
		{ 1e-300, -37.0470962993612 },
		{ 0.9999999, 5.199337582290662 },
		{ 0.5, 0 },
	};
	size_t i;
	double p;
	(void)state;
	assert_near(pr_norm_cdf(0), 0.5, 0);
	assert_near(pr_norm_cdf(1.9599639845400536), 0.975, 1e-15);
	assert_near(pr_norm_cdf(-1.9599639845400536), 0.025, 1e-15);
	assert_near(pr_norm_sf(8), 6.220960574271819e-16, 1e-28);
	for (i = 0; i < sizeof(ref) / sizeof(ref[0]); i++)
		assert_near(pr_norm_ppf(ref[i].p), ref[i].x, 1e-9 * fmax(1, fabs(ref[i].x)));
	for (p = 0.0005; p < 1; p += 0.001)
		assert_near(pr_norm_cdf(pr_norm_ppf(p)), p, 1e-14);
	assert_near(pr_norm_ppf(0), -INFINITY, 0);
	assert_near(pr_norm_ppf(1), INFINITY, 0);
	assert_near(pr_norm_ppf(-0.1), NAN, 0);
	assert_near(pr_norm_ppf(1.5), NAN, 0);
	assert_near(pr_norm_ppf(NAN), NAN, 0);
}

static void test_mwu_exact(void **state)
{
	static const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	/* The example of scipy.stats.mannwhitneyu's documentation: U = 17, exact p = 1/9. */
	static const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };
	struct pr_mwu r;
	(void)state;
	/*
	 * Complete separation: U1 = 0; of the C(10, 5) = 252 equally likely
	 * splits only one gives U <= 0, so the two-sided p = 2 / 252.
	 */
	assert_int_equal(pr_mann_whitney(a, 5, b, 5, &r), 0);
	assert_int_equal(r.exact, 1);
	assert_near(r.u1, 0, 0);
	assert_near(r.u2, 25, 0);
	assert_near(r.p, 2.0 / 252, 1e-15);
	assert_near(r.effect, 1, 0);
	assert_near(r.cles, 1, 0);
	/* (|0 - 12.5| - 0.5) / sqrt(25 * 11 / 12), positive: b is larger. */
	assert_near(r.z, 2.5067182457620487, 1e-12);
	assert_int_equal(r.n1, 5);
	assert_int_equal(r.n2, 5);

	assert_int_equal(pr_mann_whitney(b, 5, a, 5, &r), 0);
	assert_near(r.u1, 25, 0);
	assert_near(r.p, 2.0 / 252, 1e-15);
	assert_near(r.effect, -1, 0);
	assert_near(r.cles, 0, 0);
	assert_near(r.z, -2.5067182457620487, 1e-12);

	assert_int_equal(pr_mann_whitney(males, 5, females, 4, &r), 0);
	assert_int_equal(r.exact, 1);
	assert_near(r.u1, 17, 0);
	assert_near(r.p, 1.0 / 9, 1e-14);
	assert_near(r.effect, (3.0 - 17) / 20, 1e-15);

	assert_int_equal(pr_mann_whitney(a, 0, b, 5, &r), -1);
	assert_int_equal(pr_mann_whitney(a, 5, b, 0, &r), -1);
	{
		double bad[] = { 1, NAN };
		assert_int_equal(pr_mann_whitney(a, 5, bad, 2, &r), -1);
	}
}

/* P(U <= u) by enumerating every choice of m ranks out of m + n (u1 = pairs a > b). */
static double brute_cdf(unsigned m, unsigned n, double u)
{
	unsigned N = m + n, mask, i, below, hits = 0, total = 0;
	for (mask = 0; mask < (1u << N); mask++) {
		double uu = 0;
		if ((unsigned)__builtin_popcount(mask) != m)
			continue;
		for (i = 0, below = 0; i < N; i++) {
			if (mask & (1u << i))
				uu += below; /* a-value at rank i beats the b-values below it */
			else
				below++;
		}
		total++;
		hits += uu <= u;
	}
	return (double)hits / (double)total;
}

static void test_mwu_exact_vs_enumeration(void **state)
{
	/* scipy's auto rule: exact whenever one side has <= 8 values and there are no ties. */
	double a[3], b[13], a9[9], b9[9], p;
	struct pr_mwu r;
	size_t i, trial;
	(void)state;
	rng_state = 0x9e3779b97f4a7c15u;
	for (trial = 0; trial < 20; trial++) {
		/* Distinct values: a permutation of 0..15 split 3 / 13. */
		double perm[16];
		for (i = 0; i < 16; i++)
			perm[i] = (double)i;
		for (i = 15; i > 0; i--) {
			size_t k = (size_t)(rng() % (i + 1));
			double t = perm[i];
			perm[i] = perm[k];
			perm[k] = t;
		}
		memcpy(a, perm, sizeof(a));
		memcpy(b, perm + 3, sizeof(b));
		assert_int_equal(pr_mann_whitney(a, 3, b, 13, &r), 0);
		assert_int_equal(r.exact, 1);
		p = 2 * brute_cdf(3, 13, fmin(r.u1, r.u2));
		assert_near(r.p, p > 1 ? 1 : p, 1e-14);
		/* Larger side first: same p. */
		assert_int_equal(pr_mann_whitney(b, 13, a, 3, &r), 0);
		assert_near(r.p, p > 1 ? 1 : p, 1e-14);
	}
	/* Both sides above 8: asymptotic. */
	for (i = 0; i < 9; i++) {
		a9[i] = (double)i;
		b9[i] = (double)i + 0.5;
	}
	assert_int_equal(pr_mann_whitney(a9, 9, b9, 9, &r), 0);
	assert_int_equal(r.exact, 0);
	/* A tie anywhere (here within a): asymptotic even for small samples. */
	a[0] = 1;
	a[1] = 1;
	a[2] = 2;
	assert_int_equal(pr_mann_whitney(a, 3, b9, 4, &r), 0);
	assert_int_equal(r.exact, 0);
}

static void test_mwu_ties(void **state)
{
	static const double a[] = { 1, 2, 2, 3 }, b[] = { 2, 3, 4, 5 };
	static const double c[] = { 3, 1, 2 }, same[] = { 7, 7, 7 };
	struct pr_mwu r;
	(void)state;
	/*
	 * Pooled and sorted: 1a 2a 2a 2b 3a 3b 4b 5b (N = 8). Ranks: 1 -> 1,
	 * the three 2s -> 3, the two 3s -> 5.5, 4 -> 7, 5 -> 8.
	 * R1 = 1 + 3 + 3 + 5.5 = 12.5, U1 = 12.5 - 4 * 5 / 2 = 2.5, U2 = 16 - 2.5 = 13.5.
	 * Tie groups t = 3 and 2: sum(t^3 - t) = 24 + 6 = 30.
	 * s^2 = 4 * 4 / 12 * ((8 + 1) - 30 / (8 * 7)) = 1.3333333 * 8.4642857 = 11.285714285714285,
	 * s = 3.3594217189442417; mu = 8; z = (|2.5 - 8| - 0.5) / s = 5 / s = 1.4883513944689681;
	 * p = 2 * sf(z) = erfc(z / sqrt 2) = 0.13665824773814753 (Python math.erfc).
	 * effect = (13.5 - 2.5) / 16 = 0.6875, cles = 13.5 / 16 = 0.84375.
	 */
	assert_int_equal(pr_mann_whitney(a, 4, b, 4, &r), 0);
	assert_int_equal(r.exact, 0);
	assert_near(r.u1, 2.5, 0);
	assert_near(r.u2, 13.5, 0);
	assert_near(r.z, 1.4883513944689681, 1e-12);
	assert_near(r.p, 0.13665824773814753, 1e-12);
	assert_near(r.effect, 0.6875, 0);
	assert_near(r.cles, 0.84375, 0);

	/* Identical samples: U1 = U2 = n1 n2 / 2, p = 1, no effect. */
	assert_int_equal(pr_mann_whitney(c, 3, c, 3, &r), 0);
	assert_near(r.u1, 4.5, 0);
	assert_near(r.p, 1, 0);
	assert_near(r.effect, 0, 0);
	assert_near(r.cles, 0.5, 0);
	assert_near(r.z, 0, 0);

	/* One value everywhere: zero variance, p = 1. */
	assert_int_equal(pr_mann_whitney(same, 3, same, 2, &r), 0);
	assert_near(r.p, 1, 0);
	assert_near(r.z, 0, 0);
	assert_near(r.effect, 0, 0);
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

static void test_hodges_lehmann(void **state)
{
	static const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	static const double a2[] = { 1, 0 }, b2[] = { 3, 0 };
	double shift, lo, hi;
	(void)state;
	/*
	 * b_j - a_i: 3 2 1 / 4 3 2 / 5 4 3, sorted 1 2 2 3 3 3 4 4 5 (N = 9): shift 3.
	 * conf 0.95: k = floor(4.5 - 1.959964 * sqrt(9 * 7 / 12) = 4.5 - 4.4908) = 0 -> 1:
	 * [d(1), d(9)] = [1, 5]. conf 0.5: k = floor(4.5 - 0.674490 * 2.291288) =
	 * floor(2.9546) = 2: [d(2), d(8)] = [2, 4].
	 */
	assert_int_equal(pr_hodges_lehmann(a, 3, b, 3, 0.95, &shift, &lo, &hi), 0);
	assert_near(shift, 3, 0);
	assert_near(lo, 1, 0);
	assert_near(hi, 5, 0);
	assert_int_equal(pr_hodges_lehmann(a, 3, b, 3, 0.5, &shift, &lo, &hi), 0);
	assert_near(lo, 2, 0);
	assert_near(hi, 4, 0);
	assert_int_equal(pr_hodges_lehmann(b, 3, a, 3, 0.5, &shift, NULL, NULL), 0);
	assert_near(shift, -3, 0);
	/* Even N: differences -1 0 2 3, median (0 + 2) / 2 = 1. */
	assert_int_equal(pr_hodges_lehmann(a2, 2, b2, 2, 0.9, &shift, &lo, &hi), 0);
	assert_near(shift, 1, 0);
	assert_near(lo, -1, 0);
	assert_near(hi, 3, 0);

	assert_int_equal(pr_hodges_lehmann(a, 0, b, 3, 0.95, &shift, &lo, &hi), -1);
	assert_int_equal(pr_hodges_lehmann(a, 3, b, 3, 1, &shift, &lo, &hi), -1);
	assert_int_equal(pr_hodges_lehmann(a, 3, b, 3, 0, &shift, &lo, &hi), -1);
	{
		double inf[] = { 1, INFINITY };
		assert_int_equal(pr_hodges_lehmann(a, 3, inf, 2, 0.95, &shift, &lo, &hi), -1);
	}
}

static void test_hodges_lehmann_vs_sort(void **state)
{
	/* Random data with ties and negatives against all differences sorted. */
	enum {
		NA = 37,
		NB = 23,
		N = NA * NB
	};
	static const double confs[] = { 0.5, 0.8, 0.9, 0.95, 0.99 };
	double a[NA], b[NB], d[N], shift, lo, hi, sd, kk;
	size_t i, j, c;
	uint64_t k;
	(void)state;
	rng_state = 12345;
	for (i = 0; i < NA; i++)
		a[i] = (double)(rng() % 40) * 0.25 - 3;
	for (i = 0; i < NB; i++)
		b[i] = (double)(rng() % 1000) * 0.013 - 2;
	for (i = 0; i < NA; i++)
		for (j = 0; j < NB; j++)
			d[i * NB + j] = b[j] - a[i];
	qsort(d, N, sizeof(d[0]), cmp_dbl);
	sd = sqrt((double)NA * NB * (NA + NB + 1) / 12.0);
	for (c = 0; c < sizeof(confs) / sizeof(confs[0]); c++) {
		assert_int_equal(pr_hodges_lehmann(a, NA, b, NB, confs[c], &shift, &lo, &hi), 0);
		assert_near(shift, d[N / 2], 0); /* N = 851 is odd */
		kk = floor(N / 2.0 - pr_norm_ppf(1 - (1 - confs[c]) / 2) * sd);
		k = (uint64_t)kk;
		assert_true(k >= 1);
		assert_near(lo, d[k - 1], 0);
		assert_near(hi, d[N - k], 0);
	}
}

static void test_sketch_accuracy(void **state)
{
	struct pr_sketch *s = pr_sketch_new();
	double q, got, want;
	int i;
	(void)state;
	assert_near(pr_sketch_quantile(s, 0.5), NAN, 0);
	assert_near(pr_sketch_min(s), NAN, 0);
	assert_int_equal(pr_sketch_count(s), 0);
	for (i = 1000; i >= 1; i--)
		assert_int_equal(pr_sketch_add(s, i), 0);
	assert_int_equal(pr_sketch_add(s, NAN), -1);
	assert_int_equal(pr_sketch_add(s, INFINITY), -1);
	assert_int_equal(pr_sketch_count(s), 1000);
	assert_near(pr_sketch_min(s), 1, 0);
	assert_near(pr_sketch_max(s), 1000, 0);
	assert_near(pr_sketch_quantile(s, 0), 1, 0);
	assert_near(pr_sketch_quantile(s, 1), 1000, 0);
	/* Lower quantile: the value of 0-based rank floor(q * 999) is floor(q * 999) + 1. */
	for (q = 0.001; q < 1; q += 0.001) {
		got = pr_sketch_quantile(s, q);
		want = floor(q * 999) + 1;
		assert_near(got, want, want * (PR_SKETCH_ALPHA + 1e-12));
	}
	pr_sketch_free(s);
	pr_sketch_free(NULL);
}

static void test_sketch_signed(void **state)
{
	static const double v[] = { -10, -1, 0, 1, 10 };
	struct pr_sketch *s = pr_sketch_new();
	size_t i;
	(void)state;
	for (i = 0; i < 5; i++)
		pr_sketch_add(s, v[i]);
	assert_near(pr_sketch_quantile(s, 0), -10, 0);
	assert_near(pr_sketch_quantile(s, 0.1), -10, 0.1); /* rank 0.4 -> -10, clamped to min */
	assert_near(pr_sketch_quantile(s, 0.25), -1, 0.01);
	assert_near(pr_sketch_quantile(s, 0.5), 0, 0);
	assert_near(pr_sketch_quantile(s, 0.75), 1, 0.01);
	assert_near(pr_sketch_quantile(s, 0.99), 1, 0.01); /* rank 3.96 -> the value of rank 3 */
	assert_int_equal(pr_sketch_zero_count(s), 1);
	pr_sketch_add(s, -0.0);
	assert_int_equal(pr_sketch_zero_count(s), 2);
	pr_sketch_free(s);
}

/* The value set for the merge checks: positives over many octaves, negatives, zeros of both signs. */
static double merge_value(size_t i)
{
	if (i < 1000)
		return (double)(i + 1);
	if (i < 1500)
		return (double)(i - 999) * 0.37e-3;
	if (i < 1700)
		return -(double)(i - 1499) * 1.5;
	return i % 2 ? 0.0 : -0.0;
}

#define MERGE_N 1710

static void assert_same_sketch(const struct pr_sketch *x, const struct pr_sketch *y)
{
	int32_t *xi, *yi;
	uint64_t *xc, *yc;
	size_t nx, ny;
	double q, qx, qy, ex, ey;
	nx = pr_sketch_bins(x, &xi, &xc);
	ny = pr_sketch_bins(y, &yi, &yc);
	assert_int_equal(nx, ny);
	assert_true(nx > 0);
	assert_memory_equal(xi, yi, nx * sizeof(*xi));
	assert_memory_equal(xc, yc, nx * sizeof(*xc));
	free(xi);
	free(xc);
	free(yi);
	free(yc);
	nx = pr_sketch_neg_bins(x, &xi, &xc);
	ny = pr_sketch_neg_bins(y, &yi, &yc);
	assert_int_equal(nx, ny);
	assert_true(nx > 0);
	assert_memory_equal(xi, yi, nx * sizeof(*xi));
	assert_memory_equal(xc, yc, nx * sizeof(*xc));
	free(xi);
	free(xc);
	free(yi);
	free(yc);
	assert_int_equal(pr_sketch_zero_count(x), pr_sketch_zero_count(y));
	assert_int_equal(pr_sketch_count(x), pr_sketch_count(y));
	ex = pr_sketch_min(x);
	ey = pr_sketch_min(y);
	assert_memory_equal(&ex, &ey, sizeof(ex));
	ex = pr_sketch_max(x);
	ey = pr_sketch_max(y);
	assert_memory_equal(&ex, &ey, sizeof(ex));
	for (q = 0; q <= 1; q += 0.01) {
		qx = pr_sketch_quantile(x, q);
		qy = pr_sketch_quantile(y, q);
		assert_memory_equal(&qx, &qy, sizeof(qx));
	}
}

static void test_sketch_merge_exact(void **state)
{
	struct pr_sketch *one = pr_sketch_new(), *part[3], *m1, *m2;
	size_t i, seed;
	(void)state;
	for (i = 0; i < MERGE_N; i++)
		pr_sketch_add(one, merge_value(i));
	assert_int_equal(pr_sketch_zero_count(one), 10);
	assert_near(pr_sketch_min(one), -300, 0);
	assert_near(pr_sketch_max(one), 1000, 0);
	for (seed = 1; seed <= 3; seed++) {
		/* Three random partitions, each added in a shuffled order... */
		size_t order[MERGE_N];
		rng_state = seed * 0x2545f4914f6cdd1du;
		for (i = 0; i < MERGE_N; i++)
			order[i] = i;
		for (i = MERGE_N - 1; i > 0; i--) {
			size_t k = (size_t)(rng() % (i + 1)), t = order[i];
			order[i] = order[k];
			order[k] = t;
		}
		for (i = 0; i < 3; i++)
			part[i] = pr_sketch_new();
		for (i = 0; i < MERGE_N; i++)
			pr_sketch_add(part[rng() % 3], merge_value(order[i]));
		/* ...merged in two different orders. */
		m1 = pr_sketch_new();
		m2 = pr_sketch_new();
		pr_sketch_merge(m1, part[0]);
		pr_sketch_merge(m1, part[1]);
		pr_sketch_merge(m1, part[2]);
		pr_sketch_merge(part[2], part[1]);
		pr_sketch_merge(part[2], part[0]);
		pr_sketch_merge(m2, part[2]);
		assert_same_sketch(one, m1);
		assert_same_sketch(one, part[2]);
		assert_same_sketch(one, m2);
		for (i = 0; i < 3; i++)
			pr_sketch_free(part[i]);
		pr_sketch_free(m1);
		pr_sketch_free(m2);
	}
	pr_sketch_free(one);
}

static void test_sketch_roundtrip(void **state)
{
	struct pr_sketch *s = pr_sketch_new(), *r = pr_sketch_new();
	int32_t *idx;
	uint64_t *cnt;
	size_t i, n;
	(void)state;
	for (i = 0; i < MERGE_N; i++)
		pr_sketch_add(s, merge_value(i));
	/* What a JSON writer and reader would do. */
	n = pr_sketch_bins(s, &idx, &cnt);
	for (i = 0; i < n; i++) {
		assert_true(i == 0 || idx[i - 1] < idx[i]);
		assert_int_equal(pr_sketch_add_bin(r, idx[i], cnt[i]), 0);
	}
	free(idx);
	free(cnt);
	n = pr_sketch_neg_bins(s, &idx, &cnt);
	for (i = 0; i < n; i++)
		assert_int_equal(pr_sketch_add_neg_bin(r, idx[i], cnt[i]), 0);
	free(idx);
	free(cnt);
	pr_sketch_add_zeros(r, pr_sketch_zero_count(s));
	assert_int_equal(pr_sketch_set_extrema(r, pr_sketch_min(s), pr_sketch_max(s)), 0);
	assert_same_sketch(s, r);

	assert_int_equal(pr_sketch_add_bin(r, PR_SKETCH_IDX_MAX + 1, 1), -1);
	assert_int_equal(pr_sketch_add_neg_bin(r, PR_SKETCH_IDX_MIN - 1, 1), -1);
	assert_int_equal(pr_sketch_set_extrema(r, 2, 1), -1);
	assert_int_equal(pr_sketch_set_extrema(r, NAN, 1), -1);
	assert_int_equal(pr_sketch_count(r), MERGE_N);
	pr_sketch_free(s);
	pr_sketch_free(r);

	/* Bins only, no extrema: min and max are the bins' representative values. */
	r = pr_sketch_new();
	assert_int_equal(pr_sketch_bins(r, &idx, &cnt), 0);
	assert_null(idx);
	assert_null(cnt);
	pr_sketch_add(r, 100);
	assert_int_equal(pr_sketch_bins(r, &idx, &cnt), 1);
	s = pr_sketch_new();
	pr_sketch_add_bin(s, idx[0], cnt[0]);
	assert_near(pr_sketch_min(s), 100, 100 * PR_SKETCH_ALPHA);
	assert_near(pr_sketch_quantile(s, 0.5), 100, 100 * PR_SKETCH_ALPHA);
	free(idx);
	free(cnt);
	pr_sketch_free(s);
	pr_sketch_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_moments),
		cmocka_unit_test(test_moments_large_offset),
		cmocka_unit_test(test_linreg),
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_binomial),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_mwu_exact),
		cmocka_unit_test(test_mwu_exact_vs_enumeration),
		cmocka_unit_test(test_mwu_ties),
		cmocka_unit_test(test_hodges_lehmann),
		cmocka_unit_test(test_hodges_lehmann_vs_sort),
		cmocka_unit_test(test_sketch_accuracy),
		cmocka_unit_test(test_sketch_signed),
		cmocka_unit_test(test_sketch_merge_exact),
		cmocka_unit_test(test_sketch_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
