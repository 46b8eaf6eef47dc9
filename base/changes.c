/* changes.c - E-Divisive means change points with a permutation test (changes.h). */
#include "base/changes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/xalloc.h"

/* A value and its index, to rank z[0..n) (ties by index: every rank distinct). */
struct ranked {
	double v;
	size_t i;
};

static int by_value(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Fenwick trees over the ranks: how many values with rank < r were added, and their sum. */
static void fen_add(size_t *cnt, double *sum, size_t n, size_t r, double v)
{
	for (r++; r <= n; r += r & (~r + 1)) {
		cnt[r]++;
		sum[r] += v;
	}
}

static void fen_below(const size_t *cnt, const double *sum, size_t r, size_t *c, double *s)
{
	*c = 0;
	*s = 0;
	for (; r > 0; r -= r & (~r + 1)) {
		*c += cnt[r];
		*s += sum[r];
	}
}

/*
 * The best split of z[0..n): the tau in [min, n - min] that maximizes
 *   Q(tau) = m k / (m + k) * (2/(m k) S_xy - S_xx / C(m,2) - S_yy / C(k,2))
 * with m = tau, k = n - tau, S the sums of |z_i - z_j| between and within
 * the two sides (energy distance, alpha = 1). Moving tau by one moves one
 * value from the right side to the left; the sums of its distances to the
 * values on its left (Fenwick trees of counts and sums by rank) and to all
 * values (prefix sums of the sorted values) give the rest: O(n log n), where
 * the direct sums were O(n^2) (issue 32: 10 000 runs of history took 45 s).
 * Returns Q (-1 when no split is allowed) and *tau.
 */
/* The scan of best_split over z[0..n) given each value's rank (rank[t]: its place in the
 * sorted order, ties by index), the prefix sums of the sorted values and b, the sum of
 * |z_i - z_j| over all pairs. */
static double split_scan(const double *z, size_t n, size_t min, const size_t *rank,
			 const double *pre, double b, size_t *tau)
{
	double a = 0, w = 0, left = 0, best = -1, *fsum;
	size_t t, *fcnt;
	fcnt = pr_xcalloc(n + 1, sizeof(*fcnt));
	fsum = pr_xcalloc(n + 1, sizeof(*fsum));
	for (t = 0; t + 1 <= n - min; t++) {
		/* move z[t] from the right to the left */
		size_t k = rank[t], cb;
		double x = z[t], sb, all, row_l, row_r;
		/* to every value: the smaller ranks below x, the larger above */
		all = (double)k * x - pre[k] + (pre[n] - pre[k + 1]) - (double)(n - k - 1) * x;
		/* to the t values on the left, cb of them ranked below x */
		fen_below(fcnt, fsum, k, &cb, &sb);
		row_l = ((double)cb * x - sb) + ((left - sb) - (double)(t - cb) * x);
		row_r = all - row_l;
		fen_add(fcnt, fsum, n, k, x);
		left += x;
		a += row_l;
		b -= row_r;
		w += row_r - row_l;
		{
			double m = (double)(t + 1), kk = (double)(n - t - 1), q;
			if (t + 1 < min)
				continue;
			q = m * kk / (m + kk) *
			    (2 * w / (m * kk) - a / (m * (m - 1) / 2) - b / (kk * (kk - 1) / 2));
			if (q > best) {
				best = q;
				*tau = t + 1;
			}
		}
	}
	free(fcnt);
	free(fsum);
	return best;
}

/* z[0..n) sorted (ties by index): r, the prefix sums pre[0..n] and the sum of the pairs'
 * distances; rank (when not NULL) each value's place. */
static double sort_values(const double *z, size_t n, struct ranked *r, double *pre, size_t *rank)
{
	double b = 0;
	size_t i;
	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ z[i], i };
	qsort(r, n, sizeof(*r), by_value);
	pre[0] = 0;
	for (i = 0; i < n; i++) {
		if (rank)
			rank[r[i].i] = i;
		pre[i + 1] = pre[i] + r[i].v;
		/* tau = 0: everything on the right; each pair once, from its larger value */
		b += r[i].v * (double)i - pre[i];
	}
	return b;
}

/*
 * The best split of z[0..n): the tau in [min, n - min] that maximizes
 *   Q(tau) = m k / (m + k) * (2/(m k) S_xy - S_xx / C(m,2) - S_yy / C(k,2))
 * with m = tau, k = n - tau, S the sums of |z_i - z_j| between and within
 * the two sides (energy distance, alpha = 1). Moving tau by one moves one
 * value from the right side to the left; the sums of its distances to the
 * values on its left (Fenwick trees of counts and sums by rank) and to all
 * values (prefix sums of the sorted values) give the rest: O(n log n), where
 * the direct sums were O(n^2) (issue 32: 10 000 runs of history took 45 s).
 * Returns Q (-1 when no split is allowed) and *tau.
 */
static double best_split(const double *z, size_t n, size_t min, size_t *tau)
{
	double b, *pre, best;
	size_t *rank;
	struct ranked *r;
	if (n < 2 * min || min < 2)
		return -1;
	r = pr_xmalloc(n * sizeof(*r));
	rank = pr_xmalloc(n * sizeof(*rank));
	pre = pr_xmalloc((n + 1) * sizeof(*pre));
	b = sort_values(z, n, r, pre, rank);
	best = split_scan(z, n, min, rank, pre, b, tau);
	free(r);
	free(rank);
	free(pre);
	return best;
}

static double median_of(const double *v, size_t n)
{
	double *c = pr_xmalloc((n ? n : 1) * sizeof(*c)), m;
	memcpy(c, v, n * sizeof(*c));
	pr_sort_doubles(c, n);
	m = n ? pr_quantile_sorted(c, n, 0.5) : NAN;
	free(c);
	return m;
}

static double mad_of(const double *v, size_t n, double med)
{
	double *c = pr_xmalloc((n ? n : 1) * sizeof(*c)), m;
	size_t i;
	for (i = 0; i < n; i++)
		c[i] = fabs(v[i] - med);
	pr_sort_doubles(c, n);
	m = n ? pr_quantile_sorted(c, n, 0.5) : NAN;
	free(c);
	return m;
}

/*
 * The level jump at `at` of the model v[x] = a + b x + d [x >= at] fitted by least squares on
 * x in [lo, hi) (a common slope: a drift is b, a step d): *d and its t statistic d / se(d).
 * Returns 0, or -1 when the fit is not determined (fewer than 5 points, a singular system).
 */
static int step_fit(const double *v, size_t lo, size_t at, size_t hi, double *d, double *t)
{
	double m[3][4] = { { 0 } }, inv[3][3], beta[3], rss = 0, det, s2;
	size_t i, r, c, n = hi - lo;
	if (n < 5 || at <= lo || at >= hi)
		return -1;
	for (i = lo; i < hi; i++) {
		double x[3] = { 1, (double)(i - lo), i >= at ? 1 : 0 };
		for (r = 0; r < 3; r++) {
			for (c = 0; c < 3; c++)
				m[r][c] += x[r] * x[c];
			m[r][3] += x[r] * v[i];
		}
	}
	det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
	      m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
	      m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
	if (!(fabs(det) > 1e-12))
		return -1;
	inv[0][0] = (m[1][1] * m[2][2] - m[1][2] * m[2][1]) / det;
	inv[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det;
	inv[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det;
	inv[1][0] = (m[1][2] * m[2][0] - m[1][0] * m[2][2]) / det;
	inv[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det;
	inv[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det;
	inv[2][0] = (m[1][0] * m[2][1] - m[1][1] * m[2][0]) / det;
	inv[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det;
	inv[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
	for (r = 0; r < 3; r++)
		beta[r] = inv[r][0] * m[0][3] + inv[r][1] * m[1][3] + inv[r][2] * m[2][3];
	for (i = lo; i < hi; i++) {
		double e = v[i] - beta[0] - beta[1] * (double)(i - lo) - (i >= at ? beta[2] : 0);
		rss += e * e;
	}
	s2 = rss / (double)(n - 3);
	*d = beta[2];
	if (s2 > 0 && inv[2][2] > 0)
		*t = beta[2] / sqrt(s2 * inv[2][2]);
	else
		*t = beta[2] != 0 ? INFINITY : 0;
	return 0;
}

/*
 * The permutation p-value of the best split of z[0..n) (q observed). A shuffle does not change
 * the sorted values, so they, their prefix sums and the pairs' sum are made once; each
 * shuffle's ranks follow from the groups of equal values, each group's places given in the
 * shuffled order (what sorting by value, ties by index, gives): the same ranks and sums as
 * best_split's own sort, without a sort per shuffle.
 */
static double perm_p(const double *z, size_t n, double q, const struct pr_changes_opts *o,
		     uint64_t *rng)
{
	double *c = pr_xmalloc(n * sizeof(*c)), *pre = pr_xmalloc((n + 1) * sizeof(*pre)), b;
	struct ranked *r = pr_xmalloc(n * sizeof(*r));
	size_t *gid = pr_xmalloc(n * sizeof(*gid)), *gs = pr_xmalloc(n * sizeof(*gs));
	size_t *next = pr_xmalloc(n * sizeof(*next)), *rank = pr_xmalloc(n * sizeof(*rank));
	size_t i, tau, ng = 0;
	int k, ge = 0;
	memcpy(c, z, n * sizeof(*c));
	b = sort_values(c, n, r, pre, NULL);
	for (i = 0; i < n; i++) {
		if (!i || r[i].v != r[i - 1].v)
			gs[ng++] = i;
		gid[r[i].i] = ng - 1;
	}
	for (k = 0; k < o->permutations; k++) {
		for (i = n - 1; i > 0; i--) {
			size_t j = (size_t)(pr_splitmix64(rng) % (i + 1)); /* a permutation */
			double t = c[i];
			size_t g = gid[i];
			c[i] = c[j];
			c[j] = t;
			gid[i] = gid[j];
			gid[j] = g;
		}
		memcpy(next, gs, ng * sizeof(*next));
		for (i = 0; i < n; i++)
			rank[i] = next[gid[i]]++;
		if (split_scan(c, n, o->min_size, rank, pre, b, &tau) >= q)
			ge++;
	}
	free(c);
	free(pre);
	free(r);
	free(gid);
	free(gs);
	free(next);
	free(rank);
	return (ge + 1.0) / (o->permutations + 1.0);
}

size_t pr_changes_detect(const double *v, size_t n, const struct pr_changes_opts *o,
			 struct pr_change **out)
{
	size_t *cut = pr_xmalloc((n + 2) * sizeof(*cut)), ncut = 2, i, nout = 0;
	double *pv = pr_xmalloc((n + 2) * sizeof(*pv)), *qv = pr_xmalloc((n + 2) * sizeof(*qv));
	uint64_t rng = o->seed;
	*out = NULL;
	cut[0] = 0;
	cut[1] = n;
	for (;;) {
		double best = -1;
		size_t bs = 0, bt = 0, s, tau;
		/* the best split over every segment between the cuts so far */
		for (s = 0; s + 1 < ncut; s++) {
			double q = best_split(v + cut[s], cut[s + 1] - cut[s], o->min_size, &tau);
			if (q > best) {
				best = q;
				bs = s;
				bt = cut[s] + tau;
			}
		}
		if (best <= 0)
			break;
		{
			double p = perm_p(v + cut[bs], cut[bs + 1] - cut[bs], best, o, &rng);
			if (p > o->alpha)
				break;
			cut[ncut] = bt;
			pv[ncut] = p;
			qv[ncut] = best;
			ncut++;
			/* keep cuts sorted, with their p and q */
			for (i = ncut - 1; i > 0 && cut[i - 1] > cut[i]; i--) {
				size_t t = cut[i];
				double x = pv[i], y = qv[i];
				cut[i] = cut[i - 1];
				cut[i - 1] = t;
				pv[i] = pv[i - 1];
				pv[i - 1] = x;
				qv[i] = qv[i - 1];
				qv[i - 1] = y;
			}
		}
	}
	/* classify each split against its neighbours */
	for (i = 1; i + 1 < ncut; i++) {
		size_t lo = cut[i - 1], at = cut[i], hi = cut[i + 1], w = PR_CHANGES_FIT_SIDE;
		double mb = median_of(v + lo, at - lo), ma = median_of(v + at, hi - at);
		double db = mad_of(v + lo, at - lo, mb), da = mad_of(v + at, hi - at, ma);
		double rel = mb != 0 ? (ma - mb) / fabs(mb) : NAN, jump = 0, tj = 0;
		/* the adjacent segments, widened to w values either side: a drift cut in short
		 * segments shows its slope there */
		size_t l0 = at > w ? (at - w < lo ? at - w : lo) : 0;
		size_t r1 = at + w < n ? (at + w > hi ? at + w : hi) : n;
		enum pr_change_kind kind = 0;
		int fit = step_fit(v, l0, at, r1, &jump, &tj) == 0;
		if ((isnan(rel) ? ma != mb : fabs(rel) >= o->min_change) && fit &&
		    fabs(tj) >= PR_CHANGES_STEP_T && (jump > 0) == (ma > mb))
			kind = PR_CHANGE_SHIFT;
		else if (at - lo >= 5 && hi - at >= 5 && (db > 0 || da > 0) &&
			 (da >= 2 * db || db >= 2 * da) && fabs(ma - mb) <= (da > db ? da : db))
			kind = PR_CHANGE_SPREAD;
		if (!kind)
			continue;
		*out = pr_xreallocarray(*out, nout + 1, sizeof(**out));
		(*out)[nout].at = at;
		(*out)[nout].kind = kind;
		(*out)[nout].before = mb;
		(*out)[nout].after = ma;
		(*out)[nout].mad_before = db;
		(*out)[nout].mad_after = da;
		(*out)[nout].change = rel;
		(*out)[nout].p = pv[i];
		(*out)[nout].q = qv[i];
		nout++;
	}
	free(cut);
	free(pv);
	free(qv);
	return nout;
}
