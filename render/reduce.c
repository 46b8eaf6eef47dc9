/* reduce.c - per-pixel-column first/min/max/last decimation. */
#include "render/reduce.h"

#include <math.h>
#include <stdlib.h>

#include "base/xalloc.h"

struct sink {
	double *x, *y;
	size_t n, alloc;
};

static void put(struct sink *s, double x, double y)
{
	if (s->n == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 256;
		s->x = pr_xreallocarray(s->x, s->alloc, sizeof(double));
		s->y = pr_xreallocarray(s->y, s->alloc, sizeof(double));
	}
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
}

static double xat(const double *x, size_t i)
{
	return x ? x[i] : (double)i;
}

/*
 * One run: indices first <= imin, imax <= last; emit in index order. A
 * dense run (more than the 4 points kept) has its extremes drawn at the
 * column centre `mid`: the dropped points filled the column's width, and
 * the min-max strokes of neighbouring columns, 1 px apart, then overlap
 * instead of leaving light slivers between them.
 */
static void flush(struct sink *s, const double *x, const double *y, size_t first, size_t imin,
		  size_t imax, size_t last, double mid)
{
	size_t idx[4] = { first, imin < imax ? imin : imax, imin < imax ? imax : imin, last };
	size_t k, prev = (size_t)-1;
	int dense = last - first + 1 > 4 && isfinite(mid);
	if (dense) { /* stay between the run's ends, so sorted x stays sorted */
		double xa = xat(x, first), xb = xat(x, last);
		if (mid < fmin(xa, xb))
			mid = fmin(xa, xb);
		if (mid > fmax(xa, xb))
			mid = fmax(xa, xb);
	}
	for (k = 0; k < 4; k++) {
		if (idx[k] == prev)
			continue;
		put(s, dense && (k == 1 || k == 2) ? mid : xat(x, idx[k]), y[idx[k]]);
		prev = idx[k];
	}
}

/* The x of the centre of column c (NaN when there are no columns). */
static double column_mid(size_t c, double x0, double x1, size_t columns, int one)
{
	if (one)
		return NAN;
	return x0 + ((double)c + 0.5) * ((x1 - x0) / (double)columns);
}

static size_t column_of(double xv, double x0, double x1, size_t columns, int one)
{
	double t;
	if (one)
		return 0;
	t = (xv - x0) / (x1 - x0) * (double)columns;
	if (!(t > 0))
		return 0;
	if (t >= (double)columns)
		return columns - 1;
	return (size_t)t;
}

void pr_reduce_minmax(const double *x, const double *y, size_t n, double x0, double x1,
		      size_t columns, double **out_x, double **out_y, size_t *nout)
{
	struct sink s = { NULL, NULL, 0, 0 };
	int one = !(columns > 0 && isfinite(x0) && isfinite(x1) && x1 > x0 && isfinite(x1 - x0));
	int in_run = 0, gap = 0;
	size_t i, col = 0, first = 0, imin = 0, imax = 0, last = 0;

	for (i = 0; i < n; i++) {
		double xv = xat(x, i), yv = y[i];
		size_t c;
		if (!isfinite(xv) || !isfinite(yv)) {
			if (in_run)
				flush(&s, x, y, first, imin, imax, last,
				      column_mid(col, x0, x1, columns, one));
			in_run = 0;
			gap = s.n > 0;
			continue;
		}
		c = column_of(xv, x0, x1, columns, one);
		if (in_run && c == col) {
			if (yv < y[imin])
				imin = i;
			if (yv > y[imax])
				imax = i;
			last = i;
			continue;
		}
		if (in_run)
			flush(&s, x, y, first, imin, imax, last,
			      column_mid(col, x0, x1, columns, one));
		if (gap) {
			put(&s, NAN, NAN);
			gap = 0;
		}
		in_run = 1;
		col = c;
		first = imin = imax = last = i;
	}
	if (in_run)
		flush(&s, x, y, first, imin, imax, last, column_mid(col, x0, x1, columns, one));
	if (!s.x) {
		s.x = pr_xmalloc(sizeof(double));
		s.y = pr_xmalloc(sizeof(double));
	}
	*out_x = s.x;
	*out_y = s.y;
	*nout = s.n;
}
