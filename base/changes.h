/*
 * changes.h - change points of a series of values in run order: E-Divisive
 * means (Matteson and James, "A Nonparametric Approach for Multiple Change
 * Point Analysis of Multivariate Data", JASA 2014), the way MongoDB's CI
 * and Apache Otava (hunter) use it: the divergence of each split of a
 * segment measured by the energy statistic (alpha = 1), the best split of
 * the best segment accepted when a permutation test says it is significant,
 * then the segments searched again until no split is. The permutations come
 * from a fixed seed, so the result is a pure function of the values.
 *
 * Each accepted split is then classified (docs/compare.md, "History"):
 *   shift:  the medians of the segments before and after differ by at least
 *           min_change (relative), and the level jumps there: the model
 *           a + b x + d [x >= split] (a common slope b, a jump d), fitted to the
 *           adjacent segments widened to PR_CHANGES_FIT_SIDE values either side,
 *           has a jump of the medians' sign with |d / se(d)| >= PR_CHANGES_STEP_T.
 *           A slow drift splits (its segments differ) but is the slope, not a
 *           jump: not reported.
 *   spread: not a shift, the medians within one median absolute deviation
 *           of each other, and the deviations of the two segments (5 values
 *           or more each) differ by a factor of 2 or more.
 * Splits of neither kind are dropped from the result (they still split).
 */
#ifndef PR_CHANGES_H
#define PR_CHANGES_H

#include <stddef.h>
#include <stdint.h>

struct pr_changes_opts {
	double alpha;	   /* significance level of the permutation test (default 0.01) */
	int permutations;  /* per test (default 199) */
	size_t min_size;   /* fewest values in a segment (default 3) */
	double min_change; /* relative change of the medians for a shift (default 0.01) */
	uint64_t seed;	   /* of the permutations */
};
#define PR_CHANGES_OPTS_INIT                                                                       \
	{                                                                                          \
		0.01, 199, 3, 0.01, 0x5eed5eedULL                                                  \
	}

#define PR_CHANGES_FIT_SIDE 30
#define PR_CHANGES_STEP_T 3.5

enum pr_change_kind {
	PR_CHANGE_SHIFT = 1,
	PR_CHANGE_SPREAD = 2
};

struct pr_change {
	size_t at; /* index of the first value after the change */
	enum pr_change_kind kind;
	double before, after; /* medians of the segments either side */
	double mad_before, mad_after;
	double change; /* (after - before) / |before| (NAN when before is 0) */
	double p;      /* permutation p-value */
	double q;      /* the energy statistic of the split */
};

/*
 * The change points of v[0..n), sorted by index, into *out (the caller
 * frees it); returns how many. Non-finite values must not be given.
 */
size_t pr_changes_detect(const double *v, size_t n, const struct pr_changes_opts *o,
			 struct pr_change **out);

#endif
