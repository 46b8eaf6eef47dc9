/* layout.c - the chart layout pass: data ranges, margins, titles, band labels, the note, marks. */
#include "render/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/chart_spec.h"
#include "base/xalloc.h"
#include "render/layout_impl.h"

void pr_layout_init(struct pr_layout *lo)
{
	memset(lo, 0, sizeof(*lo));
}

void pr_layout_release(struct pr_layout *lo)
{
	size_t i;
	for (i = 0; i < lo->ntexts; i++)
		free(lo->texts[i].text);
	free(lo->texts);
	free(lo->x.ticks);
	free(lo->y.ticks);
	free(lo->legend.entries);
	free(lo->marks);
	free(lo->bars);
	free(lo->lines);
	for (i = 0; i < lo->nstacks; i++) {
		free(lo->stacks[i].lines);
		free(lo->stacks[i].x);
		free(lo->stacks[i].top);
	}
	free(lo->stacks);
	pr_layout_init(lo);
}

/* ---- validation ---- */

static int validate(const struct pr_chart *c, struct pr_error *err)
{
	size_t i;
	if (!c)
		return pr_error_set(err, PR_E_USAGE, "no chart");
	if ((c->width && (c->width < 200 || c->width > 8000)) ||
	    (c->height && (c->height < 200 || c->height > 8000)))
		return pr_error_set(err, PR_E_USAGE, "chart size %dx%d out of range (200..8000 px)",
				    c->width, c->height);
	if (c->y_fixed &&
	    !(pr_lo_usable(c->y_min) && pr_lo_usable(c->y_max) && c->y_max > c->y_min))
		return pr_error_set(err, PR_E_USAGE, "fixed y range %g..%g is empty or not finite",
				    c->y_min, c->y_max);
#define NEED(arr, cnt, what)                                                                       \
	if ((cnt) && !(arr))                                                                       \
		return pr_error_set(err, PR_E_USAGE, "%zu %s but no array", (size_t)(cnt), what);
	NEED(c->lines, c->nlines, "lines")
	NEED(c->bands, c->nbands, "bands")
	NEED(c->vlines, c->nvlines, "vlines")
	NEED(c->zones, c->nzones, "zones")
	NEED(c->hlines, c->nhlines, "hlines")
	NEED(c->marks, c->nmarks, "marks")
	for (i = 0; i < c->nlines; i++) {
		if (c->lines[i].n && !c->lines[i].y)
			return pr_error_set(err, PR_E_USAGE,
					    "line %zu has %zu points but no y values", i,
					    c->lines[i].n);
	}
	if (c->bars) {
		const struct pr_chart_bars *b = c->bars;
		NEED(b->categories, b->ncategories, "bar categories")
		NEED(b->groups, b->ngroups, "bar groups")
		if (b->ncategories > 100000 || b->ngroups > 1000 ||
		    b->ncategories * b->ngroups > 1000000)
			return pr_error_set(err, PR_E_LIMIT,
					    "%zu bar categories x %zu groups is too many",
					    b->ncategories, b->ngroups);
		for (i = 0; i < b->ngroups; i++) {
			if (b->ncategories && !b->groups[i].values)
				return pr_error_set(err, PR_E_USAGE, "bar group %zu has no values",
						    i);
		}
	}
#undef NEED
	return 0;
}
/* ---- data ranges ---- */

/* A zero-width range gets room around it. */
static void pad_flat(struct pr_lo_range *r)
{
	if (r->hi > r->lo)
		return;
	if (r->lo == 0) {
		r->lo = -1;
		r->hi = 1;
	} else {
		double d = fabs(r->lo) * 0.05;
		r->lo -= d;
		r->hi += d;
	}
}

/* The value range of a line chart's y axis (see render/chart.h). */
static void y_range_lines(const struct pr_chart *c, struct pr_lo_range *yr, int fill, double *lo,
			  double *hi)
{
	double dmin = yr->lo, dmax = yr->hi, head = c->nmarks ? 0.15 : 0.10;
	if (!yr->any) {
		*lo = 0;
		*hi = 1;
		return;
	}
	if (dmin == dmax) {
		if (dmin == 0) {
			*lo = 0;
			*hi = 1;
		} else if (fill) {
			*lo = dmin < 0 ? dmin * (1 + head) : 0;
			*hi = dmin < 0 ? 0 : dmax * (1 + head);
		} else {
			*lo = dmin - fabs(dmin) * 0.1;
			*hi = dmax + fabs(dmax) * 0.1;
		}
		return;
	}
	if (fill || (dmin >= 0 && dmin < 0.5 * dmax)) {
		if (dmin > 0)
			dmin = 0;
	}
	if (fill || (dmax <= 0 && dmax > 0.5 * dmin)) {
		if (dmax < 0)
			dmax = 0;
	}
	{
		double span = dmax - dmin;
		*lo = dmin == 0 ? 0 : dmin - span * (dmax == 0 ? head : VALUE_MARGIN);
		*hi = dmax == 0 ? 0 : dmax + span * head;
	}
}

/* Text block geometry for boxes (marks, the note). */
static double block_height(size_t nlines, double size)
{
	return (double)(nlines - 1) * PR_TEXT_LINE * size + (PR_TEXT_CAP + PR_TEXT_DESCENT) * size;
}

/* Split text at '\n' into clean, elided lines. Returns the count; *out owned by caller. */
static size_t split_lines(const struct pr_text_metrics *m, const char *text, double size,
			  double max_w, char ***out)
{
	size_t n = 0, alloc = 0;
	char **v = NULL;
	const char *p = text ? text : "";
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *raw = pr_xstrndup(p, len), *clean = pr_text_clean(raw);
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 4;
			v = pr_xreallocarray(v, alloc, sizeof(*v));
		}
		v[n++] = pr_text_elide(m, clean, size, 0, max_w);
		free(raw);
		free(clean);
		if (!nl || n >= 64)
			break;
		p = nl + 1;
	}
	*out = v;
	return n;
}

static double max_text_w(const struct pr_text_metrics *m, char **lines, size_t n, double size)
{
	double w = 0;
	size_t i;
	for (i = 0; i < n; i++) {
		double t = pr_lo_text_w(m, lines[i], size, 0);
		if (t > w)
			w = t;
	}
	return w;
}

/* Add a boxed multi-line text whose box is already placed; takes lines. */
static void add_block(struct pr_layout *lo, const char *role, char **lines, size_t n,
		      const struct pr_rect *box, double size)
{
	size_t i;
	for (i = 0; i < n; i++)
		pr_lo_add_text(lo, role, lines[i], box->x + BOX_PAD,
			       box->y + BOX_PAD + PR_TEXT_CAP * size +
				       (double)i * PR_TEXT_LINE * size,
			       size, 0, PR_ALIGN_LEFT, RGB_LABEL);
	free(lines);
}

/* ---- the chart layout ---- */

/*
 * Px at the top of the plot that data must leave free: the band label row
 * and the boxes inside the plot (the note top left, the legend top right).
 */
static double top_reserve(struct pr_lo_ctx *x, double plot_h)
{
	const struct pr_chart *c = x->c;
	double r = 0, boxes = 0;
	size_t i;
	x->strip = 0;
	if (!c->bars) {
		for (i = 0; i < c->nbands; i++) {
			if (c->bands[i].label && c->bands[i].label[0])
				x->strip = 20;
		}
	}
	x->inset = x->strip > 0 ? x->strip + 2 : 8;
	if (c->note && c->note[0]) {
		size_t n = 1;
		const char *p;
		for (p = c->note; *p && n < 64; p++)
			n += *p == '\n';
		boxes = ceil(block_height(n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
	}
	if (x->legend_pos == PR_LEGEND_INSIDE) {
		int has_title = c->legend_title && c->legend_title[0];
		size_t rows = x->ent.n + x->ent.extra + (size_t)has_title;
		double h =
			2 * LEGEND_PAD - (LEGEND_ROW - PR_SIZE_LEGEND) + LEGEND_ROW * (double)rows;
		if (h > plot_h - x->inset - 8)
			h = plot_h - x->inset - 8;
		if (h > boxes)
			boxes = h;
	}
	r = boxes > 0 ? x->inset + boxes + 6 : x->strip;
	return r > 0.6 * plot_h ? 0.6 * plot_h : r;
}

/* Raise hi so that dmax maps at least `px` below the plot top. */
static void keep_below(double *hi, double lo, double dmax, double px, double plot_h)
{
	double r = px / plot_h;
	if (!(px > 0) || !(r < 1) || !pr_lo_usable(dmax))
		return;
	if ((*hi - dmax) < r * (*hi - lo))
		*hi = (dmax - r * lo) / (1 - r);
}

/* The ranges and units of a line chart from its lines, rects and (when there is data) decorations. */
static void line_ranges(struct pr_lo_ctx *x)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	struct pr_lo_range xr = { 0, 0, 0 }, yr = { 0, 0, 0 }, xr0;
	int fill = 0, ylog = c->value_scale == PR_SCALE_LOG;
	int xlog = c->x_scale == PR_SCALE_LOG && !c->x_date;
	double vmaxabs;
	size_t i;
	lo->nlines = c->nlines;
	lo->lines = c->nlines ? pr_xcalloc(c->nlines, sizeof(*lo->lines)) : NULL;
	for (i = 0; i < c->nlines; i++) {
		ylog &= c->lines[i].stack <= 0; /* stacks stay linear */
		xlog &= c->lines[i].stack <= 0;
	}
	for (i = 0; i < c->nlines; i++) {
		const struct pr_chart_line *l = &c->lines[i];
		size_t k, fin = 0;
		for (k = 0; k < l->n; k++) {
			double xv = l->x ? l->x[k] : (double)k, yv = l->y[k];
			if (!pr_lo_usable(xv) || !pr_lo_usable(yv) || (ylog && !(yv > 0)) ||
			    (xlog && !(xv > 0)))
				continue;
			fin++;
			pr_lo_grow(&xr, xv);
			pr_lo_grow(&yr, yv);
		}
		lo->lines[i].n = l->n;
		lo->lines[i].finite = fin;
		lo->lines[i].step = l->style == PR_LINE_STEP;
		if (fin && l->fill_alpha > 0)
			fill = 1;
	}
	pr_lo_stacks(x, &xr, &yr);
	if (lo->nstacks)
		fill = 1;
	for (i = 0; i < c->nrects; i++) {
		const struct pr_chart_rect *r = &c->rects[i];
		if (!pr_lo_usable(r->x0) || !pr_lo_usable(r->x1) || !pr_lo_usable(r->y0) ||
		    !pr_lo_usable(r->y1) || (xlog && !(r->x0 > 0 && r->x1 > 0)))
			continue;
		pr_lo_grow(&xr, r->x0);
		pr_lo_grow(&xr, r->x1);
		pr_lo_grow(&yr, r->y0);
		pr_lo_grow(&yr, r->y1);
	}
	lo->empty = !yr.any;
	if (!lo->empty) {
		for (i = 0; i < c->nbands; i++) {
			if (xlog && !(c->bands[i].x0 > 0 && c->bands[i].x1 > 0))
				continue;
			pr_lo_grow(&xr, c->bands[i].x0);
			pr_lo_grow(&xr, c->bands[i].x1);
		}
		for (i = 0; i < c->nvlines; i++)
			if (!xlog || c->vlines[i].x > 0)
				pr_lo_grow(&xr, c->vlines[i].x);
		for (i = 0; i < c->nmarks; i++) {
			if (pr_lo_usable(c->marks[i].x) && pr_lo_usable(c->marks[i].y) &&
			    (!ylog || c->marks[i].y > 0) && (!xlog || c->marks[i].x > 0)) {
				pr_lo_grow(&xr, c->marks[i].x);
				pr_lo_grow(&yr, c->marks[i].y);
			}
		}
		for (i = 0; i < c->nhlines; i++)
			if (!ylog || c->hlines[i].y > 0)
				pr_lo_grow(&yr, c->hlines[i].y);
	}
	x->dmax = yr.hi;
	xr0 = xr;
	pad_flat(&xr);
	lo->x.lo = xr.any ? xr.lo : 0;
	lo->x.hi = xr.any ? xr.hi : 1;
	if (xlog && xr0.any && xr0.hi > xr0.lo) { /* exactly the data, as a linear x */
		lo->x.log = 1;
		lo->x.lo = xr0.lo;
		lo->x.hi = xr0.hi;
	} else if (xlog && xr0.any) { /* one x: its decade (padding could reach 0) */
		pr_lo_log_range(&lo->x, xr0.lo, xr0.hi, 0);
	}
	if (c->x_date) {
		lo->x.date = 1;
		lo->x.epoch = pr_lo_usable(c->x_epoch) ? c->x_epoch : 0;
	}
	if (c->y_fixed && (!ylog || c->y_min > 0)) {
		lo->y.lo = c->y_min;
		lo->y.hi = c->y_max;
		lo->y.log = ylog;
	} else if (ylog && yr.any) {
		pr_lo_log_range(&lo->y, yr.lo, yr.hi, c->nmarks ? 0.15 : 0.10);
	} else {
		y_range_lines(c, &yr, fill, &lo->y.lo, &lo->y.hi);
	}
	vmaxabs = fmax(fabs(xr.lo), fabs(xr.hi));
	pr_axis_unit_choose(&lo->x.unit, c->x_date ? "" : c->x_unit, lo->empty ? 0 : vmaxabs);
	vmaxabs = yr.any ? fmax(fabs(yr.lo), fabs(yr.hi)) : 0;
	if (c->y_fixed)
		vmaxabs = fmax(fabs(c->y_min), fabs(c->y_max));
	pr_axis_unit_choose(&lo->y.unit, c->y_unit, lo->empty ? 0 : vmaxabs);
}

/* The plot's top and bottom edges, and the room data leaves at the top of it. */
static void vertical_room(struct pr_lo_ctx *x)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	double top, bottom, reserve;
	top = PAD + (c->title && c->title[0] ? PR_SIZE_TITLE * 1.2 + 10 : 6);
	bottom = PAD + (c->x_label && c->x_label[0] ? PR_SIZE_LABEL * 1.25 + 4 : 0) + TICK_LEN +
		 TICK_GAP + PR_SIZE_TICK * (PR_TEXT_CAP + PR_TEXT_DESCENT);
	top = ceil(top); /* the plot's edges on whole pixels */
	bottom = ceil(bottom);
	lo->plot.y = top;
	lo->plot.h = x->H - top - bottom;
	if (lo->plot.h < 20)
		lo->plot.h = 20;

	if (c->bars && !lo->empty && !x->horiz)
		pr_lo_bar_headroom(x, x->va, 0, x->ncat, lo->plot.h);
	reserve = lo->empty ? 0 : top_reserve(x, lo->plot.h);
	if (reserve > 0 && !c->y_fixed && lo->y.log) { /* the same in decades */
		double lhi = log10(lo->y.hi);
		keep_below(&lhi, log10(lo->y.lo), log10(x->dmax),
			   reserve + (c->bars && c->bars->value_labels ? PR_SIZE_SMALL + 6 : 4),
			   lo->plot.h);
		lo->y.hi = pow(10, lhi);
	} else if (reserve > 0 && !c->y_fixed) {
		if (!c->bars)
			keep_below(&lo->y.hi, lo->y.lo, x->dmax, reserve + 4, lo->plot.h);
		else if (!x->horiz)
			keep_below(&lo->y.hi, lo->y.lo, x->dmax,
				   reserve + (c->bars->value_labels && !c->bars->stacked
						      ? PR_SIZE_SMALL + 6
						      : 4),
				   lo->plot.h);
	}
	if (reserve > 0 && c->bars && x->horiz) /* push the categories down */
		keep_below(&lo->y.hi, 0, (double)x->ncat, reserve, lo->plot.h);
}

/* The left margin (the y axis title and tick labels) and the plot's width. */
static void horizontal_room(struct pr_lo_ctx *x, double right)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	double left = PAD + (c->y_label && c->y_label[0] ? PR_SIZE_LABEL * 1.25 + 4 : 0) +
		      ceil(x->ylw) + TICK_GAP + TICK_LEN;
	lo->plot.x = left;
	lo->plot.w = x->W - left - right;
	if (lo->plot.w < 120 && x->legend_pos == PR_LEGEND_RIGHT) {
		x->legend_pos = PR_LEGEND_NONE; /* no room: drop the legend */
		right = PAD + 8;
		lo->plot.w = x->W - left - right;
	}
	if (lo->plot.w < 20)
		lo->plot.w = 20;
}

/* The chart title and the axis titles (with their units). */
static void titles(struct pr_lo_ctx *x)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	if (c->title && c->title[0]) {
		char *clean = pr_text_clean(c->title);
		char *t = pr_text_elide(x->m, clean, PR_SIZE_TITLE, 1, x->W - 2 * PAD);
		double w = pr_lo_text_w(x->m, t, PR_SIZE_TITLE, 1);
		double cx =
			pr_lo_clamp(lo->plot.x + lo->plot.w / 2, PAD + w / 2, x->W - PAD - w / 2);
		pr_lo_add_text(lo, "title", t, cx, PAD + PR_SIZE_TITLE * PR_TEXT_ASCENT,
			       PR_SIZE_TITLE, 1, PR_ALIGN_CENTER, RGB_TITLE);
		free(clean);
	}
	if (c->x_label && c->x_label[0]) {
		char *full = pr_lo_axis_title(c->x_label,
					      lo->x.categorical || lo->empty ? NULL : &lo->x);
		pr_lo_add_text(lo, "xlabel",
			       pr_text_elide(x->m, full, PR_SIZE_LABEL, 0, lo->plot.w),
			       lo->plot.x + lo->plot.w / 2,
			       x->H - PAD - PR_SIZE_LABEL * PR_TEXT_DESCENT, PR_SIZE_LABEL, 0,
			       PR_ALIGN_CENTER, RGB_LABEL);
		free(full);
	}
	if (c->y_label && c->y_label[0]) {
		char *full = pr_lo_axis_title(c->y_label,
					      lo->y.categorical || lo->empty ? NULL : &lo->y);
		struct pr_text *t =
			pr_lo_add_text(lo, "ylabel",
				       pr_text_elide(x->m, full, PR_SIZE_LABEL, 0, lo->plot.h),
				       PAD + PR_SIZE_LABEL * PR_TEXT_ASCENT,
				       lo->plot.y + lo->plot.h / 2, PR_SIZE_LABEL, 0,
				       PR_ALIGN_CENTER, RGB_LABEL);
		t->vertical = 1;
		free(full);
	}
}

static void empty_text(struct pr_lo_ctx *x)
{
	struct pr_layout *lo = x->lo;
	const char *et = x->c->empty_text ? x->c->empty_text : "No data";
	char *clean = pr_text_clean(et);
	pr_lo_add_text(lo, "empty",
		       pr_text_elide(x->m, clean, PR_SIZE_EMPTY, 0, lo->plot.w - 2 * BOX_PAD),
		       lo->plot.x + lo->plot.w / 2,
		       lo->plot.y + lo->plot.h / 2 + PR_SIZE_EMPTY * PR_TEXT_CAP / 2, PR_SIZE_EMPTY,
		       0, PR_ALIGN_CENTER, RGB_EMPTY);
	free(clean);
}

/* Band labels at the top of their band, when they fit. */
static void band_labels(struct pr_lo_ctx *x)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	size_t i;
	for (i = 0; i < c->nbands; i++) {
		const struct pr_chart_band *b = &c->bands[i];
		double a, z, w;
		char *clean, *t;
		if (!b->label || !b->label[0] || !pr_lo_usable(b->x0) || !pr_lo_usable(b->x1))
			continue;
		a = pr_lo_clamp(pr_layout_x(lo, fmin(b->x0, b->x1)), lo->plot.x,
				lo->plot.x + lo->plot.w);
		z = pr_lo_clamp(pr_layout_x(lo, fmax(b->x0, b->x1)), lo->plot.x,
				lo->plot.x + lo->plot.w);
		w = z - a;
		if (w < 16)
			continue;
		clean = pr_text_clean(b->label);
		t = pr_text_elide(x->m, clean, PR_SIZE_SMALL, 0, w - 8);
		free(clean);
		if (!t[0] || !strcmp(t, "\xE2\x80\xA6")) {
			free(t);
			continue;
		}
		pr_lo_add_text(lo, "band", t, (a + z) / 2,
			       lo->plot.y + 5 + PR_SIZE_SMALL * PR_TEXT_CAP, PR_SIZE_SMALL, 0,
			       PR_ALIGN_CENTER, RGB_BAND);
		x->band_labels = 1;
	}
}

/* The note box, top left inside the plot. */
static void note(struct pr_lo_ctx *x)
{
	struct pr_layout *lo = x->lo;
	char **lines;
	size_t n = split_lines(x->m, x->c->note, PR_SIZE_LEGEND, lo->plot.w * 0.5, &lines);
	lo->has_note = 1;
	lo->note.x = lo->plot.x + 8;
	lo->note.y = lo->plot.y + x->inset;
	lo->note.w = ceil(max_text_w(x->m, lines, n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
	lo->note.h = ceil(block_height(n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
	add_block(lo, "note", lines, n, &lo->note, PR_SIZE_LEGEND);
}

/* A mark: a dot and a callout box that stays inside the plot. */
static void mark(struct pr_lo_ctx *x, const struct pr_chart_mark *mk, struct pr_mark_box *b)
{
	struct pr_layout *lo = x->lo;
	const struct pr_rect *p = &lo->plot;
	char **lines;
	size_t n;
	b->rgb = mk->rgb;
	if (!pr_lo_usable(mk->x) || !pr_lo_usable(mk->y))
		return;
	b->px = pr_layout_x(lo, mk->x);
	b->py = pr_layout_y(lo, mk->y);
	if (b->px < p->x - 0.5 || b->px > p->x + p->w + 0.5 || b->py < p->y - 0.5 ||
	    b->py > p->y + p->h + 0.5)
		return;
	b->visible = 1;
	n = split_lines(x->m, mk->text, PR_SIZE_LEGEND, p->w - 24, &lines);
	b->box.w = ceil(max_text_w(x->m, lines, n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
	b->box.h = ceil(block_height(n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
	b->box.x = b->px + 14;
	b->box.y = b->py - 14 - b->box.h;
	if (b->box.x + b->box.w > p->x + p->w - 4)
		b->box.x = b->px - 14 - b->box.w;
	if (b->box.x < p->x + 4)
		b->box.x = p->x + 4;
	if (b->box.y < p->y + 4 + x->strip) /* no room above: beside it, at the top */
		b->box.y = p->y + 4 + x->strip;
	if (b->box.y + b->box.h > p->y + p->h - 4)
		b->box.y = p->y + p->h - 4 - b->box.h;
	if (b->box.y < p->y + 4)
		b->box.y = p->y + 4;
	b->box.x = floor(b->box.x);
	b->box.y = floor(b->box.y);
	b->cx = pr_lo_clamp(b->px, b->box.x, b->box.x + b->box.w);
	b->cy = pr_lo_clamp(b->py, b->box.y, b->box.y + b->box.h);
	add_block(lo, "mark", lines, n, &b->box, PR_SIZE_LEGEND);
}

/* What is drawn inside the plot once the axes are placed. */
static void plot_content(struct pr_lo_ctx *x)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	size_t i;
	for (i = 0; i < lo->nlines; i++) /* which lines get reduced */
		lo->lines[i].reduce = !c->no_reduce && !lo->lines[i].stack &&
				      (double)lo->lines[i].n > 4 * lo->plot.w;
	if (!c->bars)
		band_labels(x);
	if (x->legend_pos == PR_LEGEND_RIGHT) {
		pr_lo_place_legend(x, lo->plot.x + lo->plot.w + 12, lo->plot.y, 0.2 * x->W,
				   lo->plot.h);
	} else if (x->legend_pos == PR_LEGEND_INSIDE) {
		double cap = 0.3 * lo->plot.w, inset = x->inset;
		x->legend_w = pr_lo_legend_width(x, cap);
		pr_lo_place_legend(x, lo->plot.x + lo->plot.w - 8 - x->legend_w, lo->plot.y + inset,
				   cap, lo->plot.h - inset - 8);
	}
	if (c->note && c->note[0])
		note(x);
	if (!c->bars && c->nmarks) {
		lo->nmarks = c->nmarks;
		lo->marks = pr_xcalloc(c->nmarks, sizeof(*lo->marks));
		for (i = 0; i < c->nmarks; i++)
			mark(x, &c->marks[i], &lo->marks[i]);
	}
	if (c->bars)
		pr_lo_bars(x);
}

int pr_layout_chart(struct pr_layout *lo, const struct pr_chart *c, const struct pr_text_metrics *m,
		    struct pr_error *err)
{
	struct pr_lo_ctx x;
	double right;

	pr_layout_release(lo);
	if (validate(c, err))
		return -1;
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.m = m ? m : &pr_text_metrics_dejavu;
	x.lo = lo;
	x.W = c->width ? c->width : 1200;
	x.H = c->height ? c->height : 420;
	lo->width = x.W;
	lo->height = x.H;
	lo->bar_chart = c->bars != NULL;

	if (!c->bars)
		line_ranges(&x);
	else
		pr_lo_bar_ranges(&x);

	/* Legend entries and the right margin. */
	x.legend_pos = c->legend;
	if (!lo->empty)
		pr_lo_collect_entries(c, &x.ent);
	if (c->bars && c->bars->ngroups < 2)
		x.ent.n = x.ent.extra = 0; /* one series: the title says it */
	if (!x.ent.n || x.legend_pos == PR_LEGEND_NONE)
		x.legend_pos = PR_LEGEND_NONE;
	x.legend_w = x.legend_pos == PR_LEGEND_NONE ? 0 : pr_lo_legend_width(&x, 0.2 * x.W);
	right = x.legend_pos == PR_LEGEND_RIGHT ? PAD + x.legend_w + 12 : PAD + 8;

	vertical_room(&x);
	pr_lo_axis_y(&x); /* the y tick labels' width sets the left margin */
	horizontal_room(&x, right);
	pr_lo_position_y(lo);
	if (c->bars && !lo->empty && x.horiz)
		pr_lo_bar_headroom(&x, x.va, 1, x.ncat, lo->plot.w);
	pr_lo_axis_x(&x);
	titles(&x);
	pr_lo_tick_texts(&x);
	if (lo->empty)
		empty_text(&x);
	else
		plot_content(&x);
	free(x.ent.v);
	return 0;
}
