/*
 * stats.h - small numeric helpers shared by analyzers (pure functions).
 *
 * Unless a function says otherwise it neither allocates nor keeps state.
 * The ones that allocate (pr_mad, pr_mann_whitney, pr_hodges_lehmann, the
 * sketch) do it with pr_xmalloc, which aborts on out of memory.
 */
#ifndef PR_STATS_H
#define PR_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Linear-interpolated quantile (numpy's default) of sorted v[0..n); q in [0,1]. */
double pr_quantile_sorted(const double *v, size_t n, double q);
/* Sorts v in place (ascending). */
void pr_sort_doubles(double *v, size_t n);

/* ---- Moments ---------------------------------------------------------- */

/*
 * Running moments, mergeable (Welford for one value at a time, Chan, Golub
 * and LeVeque's pairwise formula for merging two accumulators). n is a
 * double so that merged counts need no conversion. sumsq_dev is M2, the sum
 * of squared deviations from the mean. sum is the plain sum of the values
 * (mean * n loses digits; aggregates want the sum itself).
 * An empty accumulator has n = sum = sumsq_dev = mean = 0, min = +inf and
 * max = -inf, so that merging with it changes nothing.
 */
struct pr_moments {
	double n, sum, sumsq_dev /* M2, Welford */, mean, min, max;
};

void pr_moments_init(struct pr_moments *m);
void pr_moments_add(struct pr_moments *m, double x);
/* into += from; from may be empty, so may into (then into = *from). */
void pr_moments_merge(struct pr_moments *into, const struct pr_moments *from);
/*
 * Standard deviation: sample = 1 divides M2 by n - 1 (0 when n < 2),
 * sample = 0 by n (0 when n = 0).
 */
double pr_moments_std(const struct pr_moments *m, int sample);

/* Mean of v[0..n) (NAN when n = 0). */
double pr_mean(const double *v, size_t n);
/* Standard deviation of v[0..n), two passes; sample as pr_moments_std. */
double pr_std(const double *v, size_t n, int sample);

/* ---- Linear regression ------------------------------------------------ */

/*
 * Ordinary least squares y = slope * x + intercept.
 * r2 is the coefficient of determination 1 - SS_res / SS_tot, clamped to
 * [0, 1]. When y has zero variance (all y equal, SS_tot = 0) the fit is the
 * horizontal line through them (slope 0, intercept y[0], exact) and r2 = 1;
 * this is scikit-learn's r2_score convention (1 for a perfect fit of a
 * constant, which is the only case possible here).
 * slope_se is the standard error of the slope, sqrt(SS_res / (n - 2) / Sxx);
 * intercept_se = slope_se * sqrt(sum(x^2) / n). Both are 0 when n = 2 (the
 * line goes through both points; scipy.stats.linregress does the same).
 */
struct pr_linreg {
	double slope, intercept, r2, slope_se, intercept_se;
	size_t n;
};

/* Returns 0, or -1 (out untouched) when n < 2 or all x are equal. */
int pr_linreg(const double *x, const double *y, size_t n, struct pr_linreg *out);

/* ---- Robust statistics ------------------------------------------------ */

/* Median of v[0..n) (numpy's); sorts v in place. NAN when n = 0. */
double pr_median(double *v, size_t n);
/*
 * Raw median absolute deviation: median of |v[i] - median| (no 1.4826
 * factor). Works on a temporary copy (pr_xmalloc). NAN when n = 0.
 */
double pr_mad(const double *v, size_t n, double median);
/* Mean absolute deviation around center: mean of |v[i] - center|. NAN when n = 0. */
double pr_meanad(const double *v, size_t n, double center);
/*
 * Iglewicz and Hoaglin's modified z-score 0.6745 * (x - median) / mad
 * (mad from pr_mad; |z| > 3.5 is their outlier rule).
 * The MAD is 0 when more than half of the values equal the median; then
 * pr_robust_z_meanad uses the fallback given in IBM's documentation of the
 * modified z-score: (x - median) / (1.253314 * meanad), with
 * meanad = pr_meanad(v, n, median) and 1.253314 = sqrt(pi / 2). When meanad
 * is 0 too (all values equal), the result is 0 for x == median and
 * +-INFINITY (the sign of x - median) otherwise.
 * pr_robust_z(x, median, mad) is pr_robust_z_meanad(x, median, mad, 0): it
 * has no fallback, so a zero mad goes straight to the 0 / +-INFINITY rule.
 */
double pr_robust_z(double x, double median, double mad);
double pr_robust_z_meanad(double x, double median, double mad, double meanad);

/* ---- Normal distribution ---------------------------------------------- */

/* Standard normal CDF P(Z <= z), via erfc (accurate in both tails). */
double pr_norm_cdf(double z);
/* Survival function P(Z > z) = pr_norm_cdf(-z), without cancellation. */
double pr_norm_sf(double z);
/*
 * Inverse CDF: Acklam's rational approximation (relative error < 1.2e-9)
 * refined by one Halley step on erfc, so |error| is a few ulps.
 * p = 0 -> -INFINITY, p = 1 -> +INFINITY, p outside [0, 1] or NAN -> NAN.
 */
double pr_norm_ppf(double p);

/* ---- Bootstrap --------------------------------------------------------- */

/*
 * Percentile-bootstrap confidence interval of median(b) / median(a): nboot
 * resamples of each side (with replacement, the sides independently), the
 * ratios' (1 - conf) / 2 and (1 + conf) / 2 quantiles. The generator is
 * seeded with `seed`, so the same inputs give the same interval. A
 * resample's median comes from counting the drawn positions in the sorted
 * sample (O(n) per resample, no sort). Returns -1 when a side has fewer
 * than 2 values, a value is not finite, conf is not in (0, 1), nboot < 100,
 * or a resampled median of a is 0 (the ratio is undefined).
 */
int pr_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb, double conf,
			      unsigned nboot, uint64_t seed, double *lo, double *hi);

/* ---- Binomial distribution --------------------------------------------- */

/*
 * Upper tail P(X >= k) for X ~ Binomial(n, p), summed term by term in log
 * space (lgamma), so it is accurate far into the tail (n up to ~1e6).
 * k <= 0 -> 1, k > n -> 0; p outside [0, 1] or NAN -> NAN.
 */
double pr_binom_sf(uint64_t k, uint64_t n, double p);

/* ---- Mann-Whitney U --------------------------------------------------- */

/*
 * Two-sided Mann-Whitney U test, as scipy.stats.mannwhitneyu(a, b,
 * use_continuity=True, alternative="two-sided", method="auto").
 *
 * u1 is the U statistic of a: the number of pairs (a_i, b_j) with
 * a_i > b_j plus half the pairs with a_i == b_j (scipy's statistic);
 * u2 = n1 * n2 - u1.
 * Method (scipy's "auto" rule, _mwu_choose_method): the exact null
 * distribution is used when there are no ties in the pooled sample and at
 * least one sample has at most 8 values (n1 <= 8 or n2 <= 8; scipy goes
 * asymptotic only when both are larger than 8). Otherwise, and also when the
 * exact table would exceed PR_MWU_EXACT_MAX entries (the smaller of u1, u2
 * plus one; scipy has no such limit), the normal approximation with tie
 * correction and continuity correction is used.
 *   exact:      p = min(1, 2 * P(U <= min(u1, u2))), the distribution of U
 *               from the Gaussian binomial coefficient [n1 + n2 choose n1]_q
 *               (polynomial recurrence in doubles);
 *   asymptotic: s = sqrt(n1 n2 / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1))))
 *               over the tie groups t of the pooled sample (N = n1 + n2),
 *               z = (|u1 - n1 n2 / 2| - 0.5) / s, p = min(1, 2 * sf(z)).
 * z is reported in both cases: the continuity-corrected z above, floored at
 * 0 and signed like u2 - u1 (> 0 when b tends to be larger); 0 when s = 0
 * (all values equal). Then p = min(1, 2 * pr_norm_sf(|z|)) when !exact.
 * effect is the rank-biserial correlation r = (u2 - u1) / (n1 n2) in
 * [-1, 1], > 0 when b tends to be larger (= 2 * cles - 1).
 * cles is the common-language effect size P(B > A) + 0.5 P(B == A) =
 * u2 / (n1 n2).
 * Allocates sorted copies of a and b. Returns -1 when na == 0, nb == 0 or a
 * value is NAN.
 */
#define PR_MWU_EXACT_MAX ((size_t)1 << 22)

struct pr_mwu {
	double u1, u2, z, p;
	double effect; /* rank-biserial r = (u2 - u1) / (n1 n2), > 0 when b tends larger */
	double cles;   /* P(B > A) + 0.5 P(B == A) */
	int exact;     /* 1: exact p, 0: normal approximation */
	size_t n1, n2;
};

int pr_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct pr_mwu *out);

/* ---- Hodges-Lehmann --------------------------------------------------- */

/*
 * Hodges-Lehmann estimate of the shift b - a: the median of the na * nb
 * pairwise differences b_j - a_i (mean of the two middle ones when na * nb is
 * even), and the distribution-free confidence interval at level conf
 * (e.g. 0.95) from their order statistics: with N = na * nb and
 *   k = floor(N / 2 - z_{1-(1-conf)/2} * sqrt(na nb (na + nb + 1) / 12))
 * clamped to [1, N], lo = d_(k) and hi = d_(N + 1 - k) (1-based order
 * statistics of the sorted differences d). k is the normal approximation of
 * the U distribution's critical value; floor makes the interval slightly
 * conservative. A clamped k = 1 (small samples) gives the full range
 * [min d, max d], whose coverage can be below conf.
 * The differences are never stored: each order statistic is found exactly by
 * bisection over the doubles with an O(na + nb) count of the differences
 * <= t on sorted copies of a and b, so memory is O(na + nb) at any size (no
 * subsampling, no size limit) and the result equals sorting all na * nb
 * differences. lo or hi may be NULL.
 * Returns -1 when na == 0, nb == 0, conf is not in (0, 1), or a value is
 * not finite.
 */
int pr_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, double conf,
		      double *shift, double *lo, double *hi);

/* ---- Mergeable quantile sketch ---------------------------------------- */

/*
 * DDSketch-style quantile sketch with relative accuracy alpha = 0.01:
 * gamma = (1 + alpha) / (1 - alpha); a value x > 0 goes to bucket
 * k = ceil(log(x) / log(gamma)) (bucket k holds (gamma^(k-1), gamma^k]);
 * x < 0 goes to the negative store under the index of -x; x == 0 (either
 * sign) to a separate zero count. count, min and max are kept exactly.
 *
 * Exactly mergeable: buckets hold integer counts, so merging sketches of
 * any partition of a data set, in any order, gives the same bins, counts,
 * min and max, bit for bit, as one sketch of all of it (with one build of
 * profreport: the index comes from libm's log).
 *
 * pr_sketch_quantile(s, q) is the "lower" quantile: the bucket holding the
 * value of 0-based rank floor(q * (count - 1)) in sorted order, returned as
 * the bucket's representative value 2 gamma^k / (gamma + 1) (negated in the
 * negative store, 0 for the zero count), clamped to [min, max]; within
 * alpha relative error of that value. q <= 0 -> min, q >= 1 -> max, empty
 * sketch or NAN q -> NAN.
 *
 * Serialization (the caller writes JSON or anything else): pr_sketch_bins
 * and pr_sketch_neg_bins give the non-empty buckets of the positive and
 * negative store as (index, count) arrays sorted by index (pr_xmalloc'ed,
 * the caller frees both; NULL when 0 is returned); pr_sketch_zero_count,
 * pr_sketch_min and pr_sketch_max the rest. To read back, add the bins with
 * pr_sketch_add_bin / pr_sketch_add_neg_bin and the zeros with
 * pr_sketch_add_zeros, then call pr_sketch_set_extrema. Adding bins widens
 * min and max to the bins' representative values; set_extrema then sets the
 * exact ones. The result is identical to the sketch that was written.
 */
#define PR_SKETCH_ALPHA 0.01
/* Bucket indexes of finite doubles lie in about [-37220, 35489]. */
#define PR_SKETCH_IDX_MIN (-40000)
#define PR_SKETCH_IDX_MAX 40000

struct pr_sketch;

struct pr_sketch *pr_sketch_new(void);
void pr_sketch_free(struct pr_sketch *s); /* NULL is fine */
/* Adds x; returns -1 (nothing added) when x is NAN or infinite. */
int pr_sketch_add(struct pr_sketch *s, double x);
/* into += from (from unchanged). */
void pr_sketch_merge(struct pr_sketch *into, const struct pr_sketch *from);
double pr_sketch_quantile(const struct pr_sketch *s, double q);
uint64_t pr_sketch_count(const struct pr_sketch *s);
/* Exact smallest and largest value added; NAN when empty. */
double pr_sketch_min(const struct pr_sketch *s);
double pr_sketch_max(const struct pr_sketch *s);

size_t pr_sketch_bins(const struct pr_sketch *s, int32_t **idx, uint64_t **cnt);
size_t pr_sketch_neg_bins(const struct pr_sketch *s, int32_t **idx, uint64_t **cnt);
uint64_t pr_sketch_zero_count(const struct pr_sketch *s);
/* Adds cnt values to bucket idx; -1 when idx is outside [PR_SKETCH_IDX_MIN, _MAX]. */
int pr_sketch_add_bin(struct pr_sketch *s, int32_t idx, uint64_t cnt);
int pr_sketch_add_neg_bin(struct pr_sketch *s, int32_t idx, uint64_t cnt);
void pr_sketch_add_zeros(struct pr_sketch *s, uint64_t cnt);
/* Sets min and max (read back from a serialization); -1 when NAN or min > max. */
int pr_sketch_set_extrema(struct pr_sketch *s, double min, double max);

/*
 * Deterministic pseudo-random numbers for resampling, permutation tests and
 * the bench simulations: splitmix64 (Steele, Lea and Flood 2014) from the
 * state *x; a uniform double in (0, 1); a standard normal (Box-Muller, the
 * uniform for the radius drawn first).
 */
uint64_t pr_splitmix64(uint64_t *x);
double pr_rand_uniform(uint64_t *x);
double pr_rand_normal(uint64_t *x);

#endif
