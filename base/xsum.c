/* xsum.c - exact floating-point sums (see xsum.h). */
#include "base/xsum.h"

#include <math.h>

#include "base/xalloc.h"

void pr_xsum_add(struct pr_xsum *s, double x)
{
	size_t i = 0, j;
	if (!isfinite(x))
		return;
	for (j = 0; j < s->n; j++) {
		double y = s->p[j], hi, lo;
		if (fabs(x) < fabs(y)) {
			double t = x;
			x = y;
			y = t;
		}
		hi = x + y;
		lo = y - (hi - x);
		if (lo != 0.0)
			s->p[i++] = lo;
		x = hi;
	}
	if (i + 1 > s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 4;
		s->p = pr_xreallocarray(s->p, s->alloc, sizeof(s->p[0]));
	}
	s->p[i] = x;
	s->n = i + 1;
}

void pr_xsum_merge(struct pr_xsum *into, const struct pr_xsum *from)
{
	size_t i;
	for (i = 0; i < from->n; i++)
		pr_xsum_add(into, from->p[i]);
}

/* The correctly rounded value of the exact sum. */
double pr_xsum_value(const struct pr_xsum *s)
{
	size_t n = s->n;
	double hi = 0.0, lo = 0.0, x, y, yr;
	if (!n)
		return 0.0;
	hi = s->p[--n];
	while (n > 0) {
		x = hi;
		y = s->p[--n];
		hi = x + y;
		yr = hi - x;
		lo = y - yr;
		if (lo != 0.0)
			break;
	}
	if (n > 0 && ((lo < 0 && s->p[n - 1] < 0) || (lo > 0 && s->p[n - 1] > 0))) {
		y = lo * 2;
		x = hi + y;
		yr = x - hi;
		if (y == yr)
			hi = x;
	}
	return hi;
}
