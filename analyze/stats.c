/* stats.c - quantiles and sorting. */
#include "analyze/stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void pr_sort_doubles(double *v, size_t n)
{
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
