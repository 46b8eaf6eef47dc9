/* chart.c - a chart spec: layout (render/layout.c), then paint (render/gfx.c). */
#include "render/chart.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/layout.h"
#include "render/reduce.h"
#include "base/xalloc.h"

const uint32_t pr_chart_palette[PR_PALETTE_SIZE] = {
	0x1F77B4, 0xFF7F0E, 0x2CA02C, 0xD62728, 0x9467BD,
	0x8C564B, 0xE377C2, 0x7F7F7F, 0xBCBD22, 0x17BECF,
};

uint32_t pr_chart_color(size_t i)
{
	return pr_chart_palette[i % PR_PALETTE_SIZE];
}

#define RGB_BG 0xFFFFFFu
#define RGB_GRID 0xE6E6E6u
#define RGB_FRAME 0xB3B3B3u
#define RGB_AXIS 0x555555u
#define RGB_BOX 0xCCCCCCu
#define TICK_LEN 5.0
#define FAR 1e5 /* px: coordinates are clamped to +-FAR so Cairo's fixed point never overflows */

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static double px_x(const struct pr_layout *lo, double v)
{
	return clampd(pr_layout_x(lo, v), -FAR, FAR);
}

static double px_y(const struct pr_layout *lo, double v)
{
	return clampd(pr_layout_y(lo, v), -FAR, FAR);
}

static int usable(double v)
{
	return isfinite(v) && fabs(v) < 1e300;
}

/* A band across the plot between two values on the x (vertical) or y axis. */
static void band(struct pr_gfx *g, const struct pr_layout *lo, int on_x, double v0, double v1,
		 uint32_t rgb, double alpha)
{
	const struct pr_rect *p = &lo->plot;
	double a, b;
	if (!usable(v0) || !usable(v1))
		return;
	if (on_x) {
		a = clampd(px_x(lo, fmin(v0, v1)), p->x, p->x + p->w);
		b = clampd(px_x(lo, fmax(v0, v1)), p->x, p->x + p->w);
		pr_gfx_fill_rect(g, a, p->y, b - a, p->h, rgb, alpha);
	} else {
		a = clampd(px_y(lo, fmax(v0, v1)), p->y, p->y + p->h);
		b = clampd(px_y(lo, fmin(v0, v1)), p->y, p->y + p->h);
		pr_gfx_fill_rect(g, p->x, a, p->w, b - a, rgb, alpha);
	}
}

/* A line across the plot at a value of the x (vertical line) or y axis. */
static void rule(struct pr_gfx *g, const struct pr_layout *lo, int on_x, double v, uint32_t rgb,
		 double alpha, double width, int dashed)
{
	const struct pr_rect *p = &lo->plot;
	if (!usable(v))
		return;
	if (on_x) {
		double x = px_x(lo, v);
		if (x >= p->x - 0.5 && x <= p->x + p->w + 0.5)
			pr_gfx_line(g, x, p->y, x, p->y + p->h, rgb, alpha, width, dashed);
	} else {
		double y = px_y(lo, v);
		if (y >= p->y - 0.5 && y <= p->y + p->h + 0.5)
			pr_gfx_line(g, p->x, y, p->x + p->w, y, rgb, alpha, width, dashed);
	}
}

struct pixels {
	double *x, *y;
	size_t n;
};

/* The line's points in px (reduced when the layout says so); NaN = gap. */
static void line_pixels(const struct pr_layout *lo, const struct pr_chart_line *l, int reduce,
			struct pixels *px)
{
	const double *xs = l->x, *ys = l->y;
	double *rx = NULL, *ry = NULL;
	size_t n = l->n, i;
	if (reduce) {
		pr_reduce_minmax(l->x, l->y, l->n, lo->x.lo, lo->x.hi, (size_t)ceil(lo->plot.w),
				 &rx, &ry, &n);
		xs = rx;
		ys = ry;
	}
	px->x = pr_xreallocarray(NULL, n ? n : 1, sizeof(double));
	px->y = pr_xreallocarray(NULL, n ? n : 1, sizeof(double));
	px->n = n;
	for (i = 0; i < n; i++) {
		double xv = xs ? xs[i] : (double)i, yv = ys[i];
		if (usable(xv) && usable(yv)) {
			px->x[i] = px_x(lo, xv);
			px->y[i] = px_y(lo, yv);
		} else { /* a gap; its x still ends the step before it */
			px->x[i] = usable(xv) ? px_x(lo, xv) : NAN;
			px->y[i] = NAN;
		}
	}
	free(rx);
	free(ry);
}

/*
 * Step-after: each point's value holds until the next point's x (even when
 * that point's value is missing), so a corner (x[i + 1], y[i]) follows
 * every finite point that has a next x. Replaces px.
 */
static void step_pixels(struct pixels *px)
{
	double *x = pr_xreallocarray(NULL, px->n ? 2 * px->n : 1, sizeof(double));
	double *y = pr_xreallocarray(NULL, px->n ? 2 * px->n : 1, sizeof(double));
	size_t i, m = 0;
	for (i = 0; i < px->n; i++) {
		x[m] = px->x[i];
		y[m++] = px->y[i];
		if (i + 1 < px->n && !isnan(px->x[i]) && !isnan(px->y[i]) && !isnan(px->x[i + 1])) {
			x[m] = px->x[i + 1];
			y[m++] = px->y[i];
		}
	}
	free(px->x);
	free(px->y);
	px->x = x;
	px->y = y;
	px->n = m;
}

/* Row k of stack s in px (k < 0: the zero line); steps when the stack's lines are. */
static void stack_pixels(const struct pr_layout *lo, const struct pr_stack *s, long k, int step,
			 struct pixels *px)
{
	size_t j;
	px->x = pr_xreallocarray(NULL, s->n ? s->n : 1, sizeof(double));
	px->y = pr_xreallocarray(NULL, s->n ? s->n : 1, sizeof(double));
	px->n = s->n;
	for (j = 0; j < s->n; j++) {
		px->x[j] = px_x(lo, s->x[j]);
		px->y[j] = px_y(lo, k < 0 ? 0 : s->top[(size_t)k * s->n + j]);
	}
	if (step)
		step_pixels(px);
}

/* The stacked areas: each line's band from the one below to its top, then its top edge. */
static void paint_stacks(struct pr_gfx *g, const struct pr_layout *lo, const struct pr_chart *c)
{
	size_t i, k;
	for (i = 0; i < lo->nstacks; i++) {
		const struct pr_stack *s = &lo->stacks[i];
		struct pixels below, top;
		int step = lo->lines[s->lines[0]].step;
		stack_pixels(lo, s, -1, step, &below);
		for (k = 0; k < s->nlines; k++) {
			const struct pr_chart_line *l = &c->lines[s->lines[k]];
			double a = l->fill_alpha > 0 ? fmin(l->fill_alpha, 1) : 0.7;
			stack_pixels(lo, s, (long)k, step, &top);
			pr_gfx_fill_between(g, top.x, below.y, top.y, top.n, l->rgb, a);
			pr_gfx_polyline(g, top.x, top.y, top.n, l->rgb, 1,
					l->width > 0 ? l->width : 1, l->dashed);
			free(below.x);
			free(below.y);
			below = top;
		}
		free(below.x);
		free(below.y);
	}
}

static void paint_lines(struct pr_gfx *g, const struct pr_layout *lo, const struct pr_chart *c)
{
	struct pixels *px = pr_xcalloc(c->nlines ? c->nlines : 1, sizeof(*px));
	double base = lo->y.log ? lo->plot.y + lo->plot.h
				: clampd(px_y(lo, 0), lo->plot.y, lo->plot.y + lo->plot.h);
	size_t i;
	paint_stacks(g, lo, c);
	for (i = 0; i < c->nlines; i++) {
		if (lo->lines[i].stack)
			continue;
		line_pixels(lo, &c->lines[i], lo->lines[i].reduce, &px[i]);
		if (lo->lines[i].step)
			step_pixels(&px[i]);
	}
	for (i = 0; i < c->nlines; i++) { /* fills first: no line is hidden by a later fill */
		const struct pr_chart_line *l = &c->lines[i];
		if (l->fill_alpha > 0 && !lo->lines[i].stack)
			pr_gfx_area(g, px[i].x, px[i].y, px[i].n, base, l->rgb,
				    l->fill_alpha > 1 ? 1 : l->fill_alpha);
	}
	for (i = 0; i < c->nlines; i++) {
		const struct pr_chart_line *l = &c->lines[i];
		if (!lo->lines[i].stack)
			pr_gfx_polyline(g, px[i].x, px[i].y, px[i].n, l->rgb, 1,
					l->width > 0 ? l->width : 2, l->dashed);
		free(px[i].x);
		free(px[i].y);
	}
	free(px);
}

static void paint_legend(struct pr_gfx *g, const struct pr_layout *lo)
{
	const struct pr_legend *L = &lo->legend;
	size_t i;
	if (!L->shown)
		return;
	pr_gfx_fill_rect(g, L->box.x, L->box.y, L->box.w, L->box.h, RGB_BG, 0.9);
	pr_gfx_stroke_rect(g, L->box.x, L->box.y, L->box.w, L->box.h, RGB_BOX, 1, 1);
	for (i = 0; i < L->nentries; i++) {
		const struct pr_legend_entry *e = &L->entries[i];
		const struct pr_rect *s = &e->swatch;
		if (e->kind == PR_SWATCH_LINE) {
			pr_gfx_line(g, s->x, s->y, s->x + s->w, s->y, e->rgb, e->alpha,
				    e->line_width, e->dashed);
		} else {
			pr_gfx_fill_rect(g, s->x, s->y, s->w, s->h, RGB_BG, 1);
			pr_gfx_fill_rect(g, s->x, s->y, s->w, s->h, e->rgb, e->alpha);
			pr_gfx_stroke_rect(g, s->x, s->y, s->w, s->h, e->rgb, 0.8, 1);
		}
	}
}

static void paint_marks(struct pr_gfx *g, const struct pr_layout *lo)
{
	size_t i;
	for (i = 0; i < lo->nmarks; i++) {
		const struct pr_mark_box *m = &lo->marks[i];
		if (!m->visible)
			continue;
		pr_gfx_line(g, m->px, m->py, m->cx, m->cy, m->rgb, 0.9, 1.2, 0);
		pr_gfx_fill_rect(g, m->box.x, m->box.y, m->box.w, m->box.h, RGB_BG, 0.92);
		pr_gfx_stroke_rect(g, m->box.x, m->box.y, m->box.w, m->box.h, m->rgb, 1, 1);
		pr_gfx_circle(g, m->px, m->py, 5, m->rgb, 1, RGB_BG, 1.5);
	}
}

static void paint_axes(struct pr_gfx *g, const struct pr_layout *lo)
{
	const struct pr_rect *p = &lo->plot;
	size_t i;
	pr_gfx_stroke_rect(g, p->x, p->y, p->w, p->h, RGB_FRAME, 1, 1);
	if (lo->empty)
		return;
	/* The axes themselves, darker, and the ticks. */
	pr_gfx_line(g, p->x, p->y + p->h, p->x + p->w, p->y + p->h, RGB_AXIS, 1, 1, 0);
	pr_gfx_line(g, p->x, p->y, p->x, p->y + p->h, RGB_AXIS, 1, 1, 0);
	for (i = 0; i < lo->x.nticks; i++) {
		double x = lo->x.ticks[i].pos;
		pr_gfx_line(g, x, p->y + p->h, x, p->y + p->h + TICK_LEN, RGB_AXIS, 1, 1, 0);
	}
	for (i = 0; i < lo->y.nticks; i++) {
		double y = lo->y.ticks[i].pos;
		pr_gfx_line(g, p->x - TICK_LEN, y, p->x, y, RGB_AXIS, 1, 1, 0);
	}
}

static void paint(struct pr_gfx *g, const struct pr_layout *lo, const struct pr_chart *c)
{
	const struct pr_rect *p = &lo->plot;
	int value_on_x = lo->bar_chart && lo->horizontal; /* zones/hlines run along x */
	size_t i;

	pr_gfx_fill_rect(g, 0, 0, lo->width, lo->height, RGB_BG, 1);
	if (!lo->empty) {
		pr_gfx_clip(g, p->x, p->y, p->w, p->h);
		for (i = 0; i < c->nzones; i++)
			band(g, lo, value_on_x, c->zones[i].y0, c->zones[i].y1, c->zones[i].rgb,
			     c->zones[i].alpha > 0 ? c->zones[i].alpha : 0.08);
		if (!lo->bar_chart) {
			for (i = 0; i < c->nbands; i++)
				band(g, lo, 1, c->bands[i].x0, c->bands[i].x1, c->bands[i].rgb,
				     c->bands[i].alpha > 0 ? c->bands[i].alpha : 0.15);
		}
		for (i = 0; i < lo->x.nticks; i++) {
			if (lo->x.ticks[i].grid)
				pr_gfx_line(g, lo->x.ticks[i].pos, p->y, lo->x.ticks[i].pos,
					    p->y + p->h, RGB_GRID, 1, 1, 0);
		}
		for (i = 0; i < lo->y.nticks; i++) {
			if (lo->y.ticks[i].grid)
				pr_gfx_line(g, p->x, lo->y.ticks[i].pos, p->x + p->w,
					    lo->y.ticks[i].pos, RGB_GRID, 1, 1, 0);
		}
		if (lo->bar_chart) {
			for (i = 0; i < lo->nbars; i++)
				pr_gfx_fill_rect(g, lo->bars[i].r.x, lo->bars[i].r.y,
						 lo->bars[i].r.w, lo->bars[i].r.h, lo->bars[i].rgb,
						 0.9);
			rule(g, lo, value_on_x, 0, RGB_AXIS, 1, 1, 0); /* the zero line */
		} else {
			for (i = 0; i < c->nrects; i++) {
				const struct pr_chart_rect *r = &c->rects[i];
				double x0 = pr_layout_x(lo, r->x0), x1 = pr_layout_x(lo, r->x1);
				double y0 = pr_layout_y(lo, r->y1), y1 = pr_layout_y(lo, r->y0);
				if (!isfinite(x0) || !isfinite(x1) || !isfinite(y0) ||
				    !isfinite(y1))
					continue;
				pr_gfx_fill_rect(g, x0, y0, fmax(x1 - x0, 0.75), y1 - y0, r->rgb,
						 0.85);
			}
			paint_lines(g, lo, c);
			for (i = 0; i < c->nvlines; i++)
				rule(g, lo, 1, c->vlines[i].x, c->vlines[i].rgb, 0.7, 1.5,
				     c->vlines[i].dashed);
		}
		for (i = 0; i < c->nhlines; i++)
			rule(g, lo, value_on_x, c->hlines[i].y, c->hlines[i].rgb, 1, 1.5,
			     c->hlines[i].dashed);
		pr_gfx_unclip(g);
		paint_marks(g, lo);
	}
	paint_axes(g, lo);
	if (lo->has_note) {
		pr_gfx_fill_rect(g, lo->note.x, lo->note.y, lo->note.w, lo->note.h, RGB_BG, 0.9);
		pr_gfx_stroke_rect(g, lo->note.x, lo->note.y, lo->note.w, lo->note.h, RGB_BOX, 1,
				   1);
	}
	paint_legend(g, lo);
	for (i = 0; i < lo->ntexts; i++) {
		const struct pr_text *t = &lo->texts[i];
		enum pr_gfx_align a = t->align == PR_ALIGN_LEFT	   ? PR_GFX_LEFT
				      : t->align == PR_ALIGN_RIGHT ? PR_GFX_RIGHT
								   : PR_GFX_CENTER;
		pr_gfx_text(g, t->text, t->x, t->y, t->size, t->bold, t->rgb, a,
			    t->vertical ? 90 : 0);
	}
}

int pr_chart_render(const struct pr_chart *chart, enum pr_gfx_format format, struct pr_output *out,
		    struct pr_error *err)
{
	struct pr_layout lo;
	struct pr_gfx *g;
	int ret;

	pr_layout_init(&lo);
	if (pr_layout_chart(&lo, chart, NULL, err))
		return -1;
	g = pr_gfx_new(format, lo.width, lo.height, out, err);
	if (!g) {
		pr_layout_release(&lo);
		return -1;
	}
	paint(g, &lo, chart);
	ret = pr_gfx_finish(g, err);
	pr_layout_release(&lo);
	return ret;
}

int pr_chart_layout(const struct pr_chart *chart, struct pr_strbuf *dump, struct pr_error *err)
{
	struct pr_layout lo;
	pr_layout_init(&lo);
	if (pr_layout_chart(&lo, chart, NULL, err))
		return -1;
	pr_layout_dump(dump, &lo);
	pr_layout_release(&lo);
	return 0;
}
