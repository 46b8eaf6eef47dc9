/*
 * stats.h - small numeric helpers shared by analyzers (pure functions).
 */
#ifndef PR_STATS_H
#define PR_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Linear-interpolated quantile (numpy's default) of sorted v[0..n); q in [0,1]. */
double pr_quantile_sorted(const double *v, size_t n, double q);
/* Sorts v in place (ascending). */
void pr_sort_doubles(double *v, size_t n);

#endif
