/* layout_stack.c - stacked lines (render/chart.h, `stack`) on a common x grid. */
#include "render/layout.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "render/layout_impl.h"

struct pt {
	double x, y;
	size_t i; /* the point's index: ties keep the input order */
};

static int cmp_pt(const void *a, const void *b)
{
	const struct pt *p = a, *q = b;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

static int cmp_double(const void *a, const void *b)
{
	double p = *(const double *)a, q = *(const double *)b;
	return p < q ? -1 : p > q;
}

/* A line's usable points sorted by x (ties in input order); *n gets their count. */
static struct pt *sorted_points(const struct pr_chart_line *l, size_t *n)
{
	struct pt *p = pr_xcalloc(l->n ? l->n : 1, sizeof(*p));
	size_t k, m = 0;
	for (k = 0; k < l->n; k++) {
		double xv = l->x ? l->x[k] : (double)k;
		if (!pr_lo_usable(xv) || !pr_lo_usable(l->y[k]))
			continue;
		p[m].x = xv;
		p[m].y = l->y[k];
		p[m].i = k;
		m++;
	}
	qsort(p, m, sizeof(*p), cmp_pt);
	*n = m;
	return p;
}

/*
 * The line's value at each grid x (grid sorted): steps hold the last sample
 * at or before x (the last of equal x), 0 before the first; linear lines
 * interpolate, 0 outside their first..last x.
 */
static void eval_on_grid(const struct pt *p, size_t np, int step, const double *gx, size_t ng,
			 double *out)
{
	size_t j, k = 0; /* p[k - 1] is the last point with x <= gx[j] */
	for (j = 0; j < ng; j++) {
		while (k < np && p[k].x <= gx[j])
			k++;
		if (!k) {
			out[j] = 0;
		} else if (step) {
			out[j] = p[k - 1].y;
		} else if (p[k - 1].x == gx[j]) {
			out[j] = p[k - 1].y;
		} else if (k == np) {
			out[j] = 0;
		} else {
			const struct pt *a = &p[k - 1], *b = &p[k];
			out[j] = a->y + (b->y - a->y) * (gx[j] - a->x) / (b->x - a->x);
		}
	}
}

/* Stack group `group` (its first line is `first`): grid, tops, and the lines' info. */
static void build_stack(const struct pr_chart *c, struct pr_layout *lo, size_t first,
			struct pr_stack *s)
{
	struct pt **pts;
	size_t *np, i, k, total = 0, m;
	double *row;
	int step = c->lines[first].style == PR_LINE_STEP;
	s->group = c->lines[first].stack;
	for (i = first; i < c->nlines; i++)
		s->nlines += c->lines[i].stack == s->group;
	s->lines = pr_xcalloc(s->nlines, sizeof(*s->lines));
	pts = pr_xcalloc(s->nlines, sizeof(*pts));
	np = pr_xcalloc(s->nlines, sizeof(*np));
	for (i = first, k = 0; i < c->nlines; i++) {
		if (c->lines[i].stack != s->group)
			continue;
		s->lines[k] = i;
		pts[k] = sorted_points(&c->lines[i], &np[k]);
		total += np[k];
		lo->lines[i].stack = (size_t)(s - lo->stacks) + 1;
		lo->lines[i].step = step;
		k++;
	}
	/* The grid: every usable x of the group, sorted, each once. */
	s->x = pr_xcalloc(total ? total : 1, sizeof(double));
	for (k = 0, m = 0; k < s->nlines; k++)
		for (i = 0; i < np[k]; i++)
			s->x[m++] = pts[k][i].x;
	qsort(s->x, m, sizeof(double), cmp_double);
	for (i = 0, s->n = 0; i < m; i++)
		if (!s->n || s->x[i] != s->x[s->n - 1])
			s->x[s->n++] = s->x[i];
	s->top = pr_xcalloc(s->nlines * (s->n ? s->n : 1), sizeof(double));
	row = pr_xcalloc(s->n ? s->n : 1, sizeof(double));
	for (k = 0; k < s->nlines; k++) {
		double *top = s->top + k * s->n, *below = k ? top - s->n : NULL;
		eval_on_grid(pts[k], np[k], step, s->x, s->n, row);
		for (i = 0; i < s->n; i++)
			top[i] = (below ? below[i] : 0) + row[i];
		free(pts[k]);
	}
	free(row);
	free(pts);
	free(np);
}

void pr_lo_stacks(struct pr_lo_ctx *x, struct pr_lo_range *xr, struct pr_lo_range *yr)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	size_t i, j, k;
	for (i = 0; i < c->nlines; i++) {
		int seen = 0;
		if (c->lines[i].stack <= 0)
			continue;
		for (j = 0; j < i && !seen; j++)
			seen = c->lines[j].stack == c->lines[i].stack;
		if (seen)
			continue;
		lo->stacks = pr_xreallocarray(lo->stacks, lo->nstacks + 1, sizeof(*lo->stacks));
		memset(&lo->stacks[lo->nstacks], 0, sizeof(*lo->stacks));
		build_stack(c, lo, i, &lo->stacks[lo->nstacks]);
		lo->nstacks++;
	}
	for (k = 0; k < lo->nstacks; k++) {
		const struct pr_stack *s = &lo->stacks[k];
		for (j = 0; j < s->n; j++) {
			pr_lo_grow(xr, s->x[j]);
			pr_lo_grow(yr, 0);
			for (i = 0; i < s->nlines; i++)
				pr_lo_grow(yr, s->top[i * s->n + j]);
		}
	}
}
