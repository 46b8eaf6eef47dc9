/*
 * stats.c - quantiles, moments, regression, robust statistics, rank tests,
 * the normal distribution and a mergeable quantile sketch.
 */
#include "base/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* Not in strict C11 <math.h>. */
#define PR_SQRT1_2 0.70710678118654752440
#define PR_SQRT_2PI 2.50662827463100050242
#define PR_SQRT_PI_2 1.25331413731550025121

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void pr_sort_doubles(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_double);
}

double pr_quantile_sorted(const double *v, size_t n, double q)
{
	double pos, frac;
	size_t lo;
	if (n == 0)
		return NAN;
	if (q <= 0)
		return v[0];
	if (q >= 1)
		return v[n - 1];
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * frac;
}

/* ---- Moments ---------------------------------------------------------- */

void pr_moments_init(struct pr_moments *m)
{
	m->n = 0;
	m->sum = 0;
	m->sumsq_dev = 0;
	m->mean = 0;
	m->min = INFINITY;
	m->max = -INFINITY;
}

void pr_moments_add(struct pr_moments *m, double x)
{
	double delta = x - m->mean;
	m->n += 1;
	m->mean += delta / m->n;
	m->sumsq_dev += delta * (x - m->mean);
	m->sum += x;
	if (x < m->min)
		m->min = x;
	if (x > m->max)
		m->max = x;
}

void pr_moments_merge(struct pr_moments *into, const struct pr_moments *from)
{
	double n, delta;
	if (from->n == 0)
		return;
	if (into->n == 0) {
		*into = *from;
		return;
	}
	n = into->n + from->n;
	delta = from->mean - into->mean;
	into->mean += delta * (from->n / n);
	into->sumsq_dev += from->sumsq_dev + delta * delta * (into->n * from->n / n);
	into->n = n;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

double pr_moments_std(const struct pr_moments *m, int sample)
{
	double d = sample ? m->n - 1 : m->n;
	if (d <= 0 || m->sumsq_dev <= 0)
		return 0;
	return sqrt(m->sumsq_dev / d);
}

double pr_mean(const double *v, size_t n)
{
	double s = 0;
	size_t i;
	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

double pr_std(const double *v, size_t n, int sample)
{
	double mean, ss = 0, comp = 0, d;
	size_t i;
	if (n == 0 || (sample && n < 2))
		return 0;
	mean = pr_mean(v, n);
	for (i = 0; i < n; i++) {
		d = v[i] - mean;
		ss += d * d;
		comp += d;
	}
	/* Corrected two-pass: comp is the rounding error of the mean. */
	ss -= comp * comp / (double)n;
	if (ss <= 0)
		return 0;
	return sqrt(ss / (double)(sample ? n - 1 : n));
}

/* ---- Linear regression ------------------------------------------------ */

int pr_linreg(const double *x, const double *y, size_t n, struct pr_linreg *out)
{
	double mx, my, sxx = 0, sxy = 0, syy = 0, ssr = 0, sx2 = 0, dx, dy, r, slope, icpt;
	size_t i;
	int xconst = 1, yconst = 1;
	if (n < 2)
		return -1;
	/* The mean of equal values need not be exactly that value: compare. */
	for (i = 1; i < n; i++) {
		if (x[i] != x[0])
			xconst = 0;
		if (y[i] != y[0])
			yconst = 0;
	}
	if (xconst)
		return -1;
	mx = pr_mean(x, n);
	my = pr_mean(y, n);
	for (i = 0; i < n; i++) {
		dx = x[i] - mx;
		dy = y[i] - my;
		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
		sx2 += x[i] * x[i];
	}
	if (yconst) {
		slope = 0;
		icpt = y[0];
	} else {
		slope = sxy / sxx;
		icpt = my - slope * mx;
	}
	for (i = 0; i < n && !yconst; i++) {
		r = y[i] - (slope * x[i] + icpt);
		ssr += r * r;
	}
	out->slope = slope;
	out->intercept = icpt;
	out->n = n;
	if (yconst)
		out->r2 = 1;
	else
		out->r2 = fmin(1, fmax(0, 1 - ssr / syy));
	out->slope_se = n > 2 ? sqrt(ssr / (double)(n - 2) / sxx) : 0;
	out->intercept_se = out->slope_se * sqrt(sx2 / (double)n);
	return 0;
}

/* ---- Robust statistics ------------------------------------------------ */

double pr_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	pr_sort_doubles(v, n);
	return pr_quantile_sorted(v, n, 0.5);
}

double pr_mad(const double *v, size_t n, double median)
{
	double *d, r;
	size_t i;
	if (n == 0)
		return NAN;
	d = pr_xmalloc(n * sizeof(*d));
	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - median);
	r = pr_median(d, n);
	free(d);
	return r;
}

double pr_meanad(const double *v, size_t n, double center)
{
	double s = 0;
	size_t i;
	if (n == 0)
		return NAN;
	for (i = 0; i < n; i++)
		s += fabs(v[i] - center);
	return s / (double)n;
}

double pr_robust_z_meanad(double x, double median, double mad, double meanad)
{
	double d = x - median;
	if (mad > 0)
		return 0.6745 * d / mad;
	if (meanad > 0)
		return d / (PR_SQRT_PI_2 * meanad);
	if (d == 0)
		return 0;
	return d > 0 ? INFINITY : -INFINITY;
}

double pr_robust_z(double x, double median, double mad)
{
	return pr_robust_z_meanad(x, median, mad, 0);
}

/* ---- Normal distribution ---------------------------------------------- */

double pr_norm_cdf(double z)
{
	return 0.5 * erfc(-z * PR_SQRT1_2);
}

double pr_norm_sf(double z)
{
	return 0.5 * erfc(z * PR_SQRT1_2);
}

uint64_t pr_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

double pr_rand_uniform(uint64_t *x)
{
	return ((double)(pr_splitmix64(x) >> 11) + 0.5) / 9007199254740992.0;
}

double pr_rand_normal(uint64_t *x)
{
	double u = pr_rand_uniform(x);
	return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * pr_rand_uniform(x));
}

/* Median of a resample of the sorted v[0..n): n positions drawn, counted, walked to the middle. */
static double boot_median(const double *v, size_t n, size_t *cnt, uint64_t *rng)
{
	size_t i, seen = 0, lo_rank = (n - 1) / 2, hi_rank = n / 2;
	double lo = NAN;
	memset(cnt, 0, n * sizeof(cnt[0]));
	for (i = 0; i < n; i++)
		cnt[(size_t)(((pr_splitmix64(rng) >> 32) * (uint64_t)n) >> 32)]++;
	for (i = 0; i < n; i++) {
		if (!cnt[i])
			continue;
		if (isnan(lo) && seen + cnt[i] > lo_rank)
			lo = v[i];
		if (seen + cnt[i] > hi_rank)
			return (lo + v[i]) / 2;
		seen += cnt[i];
	}
	return lo; /* not reached: the counts add up to n */
}

int pr_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb, double conf,
			      unsigned nboot, uint64_t seed, double *lo, double *hi)
{
	double *sa, *sb, *r;
	size_t *cnt, i;
	uint64_t rng = seed;
	int rc = 0;
	if (na < 2 || nb < 2 || !(conf > 0 && conf < 1) || nboot < 100 || na > UINT32_MAX ||
	    nb > UINT32_MAX)
		return -1;
	for (i = 0; i < na; i++)
		if (!isfinite(a[i]))
			return -1;
	for (i = 0; i < nb; i++)
		if (!isfinite(b[i]))
			return -1;
	sa = pr_xmalloc(na * sizeof(*sa));
	sb = pr_xmalloc(nb * sizeof(*sb));
	cnt = pr_xmalloc((na > nb ? na : nb) * sizeof(*cnt));
	r = pr_xmalloc(nboot * sizeof(*r));
	memcpy(sa, a, na * sizeof(*sa));
	memcpy(sb, b, nb * sizeof(*sb));
	pr_sort_doubles(sa, na);
	pr_sort_doubles(sb, nb);
	for (i = 0; i < nboot && !rc; i++) {
		double ma = boot_median(sa, na, cnt, &rng), mb = boot_median(sb, nb, cnt, &rng);
		if (ma == 0)
			rc = -1;
		r[i] = mb / ma;
	}
	if (!rc) {
		pr_sort_doubles(r, nboot);
		if (lo)
			*lo = pr_quantile_sorted(r, nboot, (1 - conf) / 2);
		if (hi)
			*hi = pr_quantile_sorted(r, nboot, (1 + conf) / 2);
	}
	free(sa);
	free(sb);
	free(cnt);
	free(r);
	return rc;
}

double pr_binom_sf(uint64_t k, uint64_t n, double p)
{
	double lp, lq, lnf, sum = 0;
	uint64_t i;
	if (!(p >= 0 && p <= 1))
		return NAN;
	if (k == 0)
		return 1;
	if (k > n)
		return 0;
	if (p == 0)
		return 0;
	if (p == 1)
		return 1;
	lp = log(p);
	lq = log1p(-p);
	lnf = lgamma((double)n + 1);
	for (i = k; i <= n; i++) {
		double t = exp(lnf - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) +
			       (double)i * lp + (double)(n - i) * lq);
		sum += t;
		if (t < sum * 1e-17 && (double)i > (double)n * p)
			break; /* past the mode the terms only shrink */
	}
	return sum > 1 ? 1 : sum;
}

/* Acklam's approximation for 0 < p <= 0.5, then one Halley step. */
static double ppf_lower(double p)
{
	static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02,
				    -2.759285104469687e+02, 1.383577518672690e+02,
				    -3.066479806614716e+01, 2.506628277459239e+00 };
	static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02,
				    -1.556989798598866e+02, 6.680131188771972e+01,
				    -1.328068155288572e+01 };
	static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01,
				    -2.400758277161838e+00, -2.549732539343734e+00,
				    4.374664141464968e+00,  2.938163982698783e+00 };
	static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01,
				    2.445134137142996e+00, 3.754408661907416e+00 };
	double q, r, x, e, u;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
		    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
	} else {
		q = p - 0.5;
		r = q * q;
		x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
		    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
	}
	e = pr_norm_cdf(x) - p;
	u = e * PR_SQRT_2PI * exp(x * x / 2);
	if (isfinite(u))
		x -= u / (1 + x * u / 2);
	return x;
}

double pr_norm_ppf(double p)
{
	if (!(p >= 0 && p <= 1))
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p > 0.5)
		return -ppf_lower(1 - p); /* exact for p in [0.5, 1] */
	return ppf_lower(p);
}

/* ---- Mann-Whitney U --------------------------------------------------- */

/* Sorted copy of v[0..n) (pr_xmalloc); -1 (nothing allocated) if a value is NAN. */
static int sorted_copy(const double *v, size_t n, int finite, double **out)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (isnan(v[i]) || (finite && !isfinite(v[i])))
			return -1;
	*out = pr_xmalloc(n * sizeof(**out));
	memcpy(*out, v, n * sizeof(**out));
	pr_sort_doubles(*out, n);
	return 0;
}

/*
 * P(U <= u) for the Mann-Whitney U of samples of sizes m and n without ties.
 * The counts of U are the coefficients of the Gaussian binomial
 *   [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i);
 * multiplying by (1 - q^j) and dividing by (1 - q^i) only look at lower
 * coefficients, so coefficients 0..u are enough. Dividing right after each
 * multiplication keeps the partial products' coefficients non-negative.
 * m is the smaller size (fewer passes).
 */
static double mwu_exact_cdf(size_t m, size_t n, size_t u)
{
	double *c = pr_xcalloc(u + 1, sizeof(*c));
	double total = 1, acc = 0;
	size_t i, k, j;
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		j = n + i;
		for (k = u; k >= j && k <= u; k--)
			c[k] -= c[k - j];
		for (k = i; k <= u; k++)
			c[k] += c[k - i];
		total = total * (double)(n + i) / (double)i;
	}
	for (k = 0; k <= u; k++)
		acc += c[k];
	free(c);
	return acc / total;
}

int pr_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct pr_mwu *out)
{
	double *sa = NULL, *sb = NULL;
	double n1 = (double)na, n2 = (double)nb, nn = n1 + n2, u1 = 0, u2, mu, tie = 0, s2, z = 0,
	       v;
	double umin;
	size_t i = 0, j = 0, ca, cb, t;
	int ties = 0, rc = -1;
	if (na == 0 || nb == 0)
		return -1;
	if (sorted_copy(a, na, 0, &sa) || sorted_copy(b, nb, 0, &sb))
		goto out;
	/* Walk the pooled sample one value (tie group) at a time. */
	while (i < na || j < nb) {
		v = j == nb || (i < na && sa[i] < sb[j]) ? sa[i] : sb[j];
		for (ca = 0; i < na && sa[i] == v; i++)
			ca++;
		for (cb = 0; j < nb && sb[j] == v; j++)
			cb++;
		/* a-values here beat the (j - cb) smaller b-values, tie with cb. */
		u1 += (double)ca * (double)(j - cb) + 0.5 * (double)ca * (double)cb;
		t = ca + cb;
		if (t > 1) {
			ties = 1;
			tie += (double)t * (double)t * (double)t - (double)t;
		}
	}
	u2 = n1 * n2 - u1;
	mu = n1 * n2 / 2;
	s2 = n1 * n2 / 12 * ((nn + 1) - tie / (nn * (nn - 1)));
	if (s2 > 0) {
		z = (fabs(u1 - mu) - 0.5) / sqrt(s2);
		if (z < 0)
			z = 0;
		if (u2 < u1)
			z = -z;
	}
	umin = fmin(u1, u2);
	out->u1 = u1;
	out->u2 = u2;
	out->z = z;
	out->n1 = na;
	out->n2 = nb;
	out->effect = (u2 - u1) / (n1 * n2);
	out->cles = u2 / (n1 * n2);
	out->exact = !ties && (na <= 8 || nb <= 8) && umin < (double)PR_MWU_EXACT_MAX;
	if (out->exact)
		out->p = 2 * mwu_exact_cdf(na < nb ? na : nb, na < nb ? nb : na, (size_t)umin);
	else
		out->p = 2 * pr_norm_sf(fabs(z));
	if (out->p > 1)
		out->p = 1;
	rc = 0;
out:
	free(sa);
	free(sb);
	return rc;
}

/* ---- Hodges-Lehmann --------------------------------------------------- */

/* Order-preserving map of non-NAN doubles to unsigned keys (-0 just below +0). */
static uint64_t dkey(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof(u));
	return (u >> 63) ? ~u : u | ((uint64_t)1 << 63);
}

static double dunkey(uint64_t k)
{
	uint64_t u = (k >> 63) ? k & ~((uint64_t)1 << 63) : ~k;
	double d;
	memcpy(&d, &u, sizeof(d));
	return d;
}

/*
 * Number of pairs with b_j - a_i <= t, a and b sorted. Rounded subtraction
 * is monotone in both operands, so for each j the pairs that qualify are a
 * suffix of a, and the suffix only shrinks as b_j grows.
 */
static uint64_t count_le(const double *a, size_t na, const double *b, size_t nb, double t)
{
	uint64_t cnt = 0;
	size_t i = 0, j;
	for (j = 0; j < nb; j++) {
		while (i < na && b[j] - a[i] > t)
			i++;
		cnt += na - i;
	}
	return cnt;
}

/* k-th smallest (1-based) of the differences b_j - a_i, by bisection on keys. */
static double kth_diff(const double *a, size_t na, const double *b, size_t nb, uint64_t k)
{
	uint64_t lo = dkey(b[0] - a[na - 1]), hi = dkey(b[nb - 1] - a[0]), mid;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (count_le(a, na, b, nb, dunkey(mid)) >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return dunkey(lo) + 0.0; /* -0 -> +0 */
}

int pr_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, double conf,
		      double *shift, double *lo, double *hi)
{
	double *sa = NULL, *sb = NULL, x, y, kk;
	uint64_t nn, k;
	int rc = -1;
	if (na == 0 || nb == 0 || !(conf > 0 && conf < 1) || na > UINT64_MAX / nb)
		return -1;
	if (sorted_copy(a, na, 1, &sa) || sorted_copy(b, nb, 1, &sb))
		goto out;
	nn = (uint64_t)na * nb;
	if (nn % 2) {
		*shift = kth_diff(sa, na, sb, nb, nn / 2 + 1);
	} else {
		x = kth_diff(sa, na, sb, nb, nn / 2);
		y = kth_diff(sa, na, sb, nb, nn / 2 + 1);
		*shift = (x + y) / 2;
		if (isinf(*shift))
			*shift = x / 2 + y / 2;
	}
	kk = floor((double)nn / 2 -
		   pr_norm_ppf(1 - (1 - conf) / 2) *
			   sqrt((double)na * (double)nb * ((double)na + (double)nb + 1) / 12));
	k = kk < 1 ? 1 : kk > (double)nn ? nn : (uint64_t)kk;
	if (lo)
		*lo = kth_diff(sa, na, sb, nb, k);
	if (hi)
		*hi = kth_diff(sa, na, sb, nb, nn + 1 - k);
	rc = 0;
out:
	free(sa);
	free(sb);
	return rc;
}

/* ---- Mergeable quantile sketch ---------------------------------------- */

/* Dense counts for bucket indexes [lo, lo + len). */
struct sketch_store {
	int32_t lo;
	size_t len;
	uint64_t *c;
};

struct pr_sketch {
	double log_gamma, gamma;
	struct sketch_store pos, neg;
	uint64_t zero, count;
	double min, max; /* +inf / -inf while empty */
};

static void store_add(struct sketch_store *st, int32_t k, uint64_t n)
{
	int32_t nlo, nhi, hi;
	uint64_t *c;
	if (!st->len) {
		st->len = 64;
		st->lo = k - 32;
		st->c = pr_xcalloc(st->len, sizeof(*st->c));
	}
	hi = st->lo + (int32_t)st->len;
	if (k < st->lo || k >= hi) {
		/* Grow towards k with slack of half the current size. */
		nlo = st->lo;
		nhi = hi;
		if (k < st->lo)
			nlo = k - (int32_t)(st->len / 2);
		else
			nhi = k + 1 + (int32_t)(st->len / 2);
		c = pr_xcalloc((size_t)(nhi - nlo), sizeof(*c));
		memcpy(c + (st->lo - nlo), st->c, st->len * sizeof(*c));
		free(st->c);
		st->c = c;
		st->lo = nlo;
		st->len = (size_t)(nhi - nlo);
	}
	st->c[k - st->lo] += n;
}

static void store_merge(struct sketch_store *into, const struct sketch_store *from)
{
	size_t i;
	for (i = 0; i < from->len; i++)
		if (from->c[i])
			store_add(into, from->lo + (int32_t)i, from->c[i]);
}

static size_t store_bins(const struct sketch_store *st, int32_t **idx, uint64_t **cnt)
{
	size_t i, n = 0;
	*idx = NULL;
	*cnt = NULL;
	for (i = 0; i < st->len; i++)
		n += st->c[i] != 0;
	if (!n)
		return 0;
	*idx = pr_xmalloc(n * sizeof(**idx));
	*cnt = pr_xmalloc(n * sizeof(**cnt));
	for (i = 0, n = 0; i < st->len; i++) {
		if (st->c[i]) {
			(*idx)[n] = st->lo + (int32_t)i;
			(*cnt)[n++] = st->c[i];
		}
	}
	return n;
}

static int32_t sketch_index(const struct pr_sketch *s, double x)
{
	return (int32_t)ceil(log(x) / s->log_gamma);
}

static double sketch_value(const struct pr_sketch *s, int32_t k)
{
	return 2 * exp((double)k * s->log_gamma) / (s->gamma + 1);
}

static void widen(struct pr_sketch *s, double x)
{
	x += 0.0; /* -0 -> +0, so that the order of adds cannot matter */
	if (x < s->min)
		s->min = x;
	if (x > s->max)
		s->max = x;
}

struct pr_sketch *pr_sketch_new(void)
{
	struct pr_sketch *s = pr_xcalloc(1, sizeof(*s));
	s->gamma = (1 + PR_SKETCH_ALPHA) / (1 - PR_SKETCH_ALPHA);
	s->log_gamma = log(s->gamma);
	s->min = INFINITY;
	s->max = -INFINITY;
	return s;
}

void pr_sketch_free(struct pr_sketch *s)
{
	if (!s)
		return;
	free(s->pos.c);
	free(s->neg.c);
	free(s);
}

int pr_sketch_add(struct pr_sketch *s, double x)
{
	if (!isfinite(x))
		return -1;
	if (x > 0)
		store_add(&s->pos, sketch_index(s, x), 1);
	else if (x < 0)
		store_add(&s->neg, sketch_index(s, -x), 1);
	else
		s->zero++;
	s->count++;
	widen(s, x);
	return 0;
}

void pr_sketch_merge(struct pr_sketch *into, const struct pr_sketch *from)
{
	store_merge(&into->pos, &from->pos);
	store_merge(&into->neg, &from->neg);
	into->zero += from->zero;
	into->count += from->count;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

double pr_sketch_quantile(const struct pr_sketch *s, double q)
{
	double rank, v = 0;
	uint64_t cum = 0;
	size_t i;
	if (!s->count || isnan(q))
		return NAN;
	if (q <= 0)
		return s->min;
	if (q >= 1)
		return s->max;
	rank = q * (double)(s->count - 1);
	/* Sorted order: negative store from its largest index down, zeros, positive store. */
	for (i = s->neg.len; i-- > 0;) {
		cum += s->neg.c[i];
		if ((double)cum > rank) {
			v = -sketch_value(s, s->neg.lo + (int32_t)i);
			goto clamp;
		}
	}
	cum += s->zero;
	if ((double)cum > rank) {
		v = 0;
		goto clamp;
	}
	for (i = 0; i < s->pos.len; i++) {
		cum += s->pos.c[i];
		if ((double)cum > rank) {
			v = sketch_value(s, s->pos.lo + (int32_t)i);
			goto clamp;
		}
	}
	v = s->max; /* not reached: the counts add up to count */
clamp:
	return v < s->min ? s->min : v > s->max ? s->max : v;
}

uint64_t pr_sketch_count(const struct pr_sketch *s)
{
	return s->count;
}

double pr_sketch_min(const struct pr_sketch *s)
{
	return s->count ? s->min : NAN;
}

double pr_sketch_max(const struct pr_sketch *s)
{
	return s->count ? s->max : NAN;
}

size_t pr_sketch_bins(const struct pr_sketch *s, int32_t **idx, uint64_t **cnt)
{
	return store_bins(&s->pos, idx, cnt);
}

size_t pr_sketch_neg_bins(const struct pr_sketch *s, int32_t **idx, uint64_t **cnt)
{
	return store_bins(&s->neg, idx, cnt);
}

uint64_t pr_sketch_zero_count(const struct pr_sketch *s)
{
	return s->zero;
}

static int add_bin(struct pr_sketch *s, struct sketch_store *st, int32_t idx, uint64_t cnt,
		   double sign)
{
	if (idx < PR_SKETCH_IDX_MIN || idx > PR_SKETCH_IDX_MAX)
		return -1;
	if (!cnt)
		return 0;
	store_add(st, idx, cnt);
	s->count += cnt;
	widen(s, sign * sketch_value(s, idx));
	return 0;
}

int pr_sketch_add_bin(struct pr_sketch *s, int32_t idx, uint64_t cnt)
{
	return add_bin(s, &s->pos, idx, cnt, 1);
}

int pr_sketch_add_neg_bin(struct pr_sketch *s, int32_t idx, uint64_t cnt)
{
	return add_bin(s, &s->neg, idx, cnt, -1);
}

void pr_sketch_add_zeros(struct pr_sketch *s, uint64_t cnt)
{
	if (!cnt)
		return;
	s->zero += cnt;
	s->count += cnt;
	widen(s, 0);
}

int pr_sketch_set_extrema(struct pr_sketch *s, double min, double max)
{
	if (isnan(min) || isnan(max) || min > max)
		return -1;
	s->min = min + 0.0;
	s->max = max + 0.0;
	return 0;
}
