/* layout_bars.c - bar charts: value range, headroom, bars (grouped or stacked), value labels. */
#include "render/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "render/layout_impl.h"

static void value_label(struct pr_lo_ctx *x, const struct pr_axis *va, size_t g, size_t i,
			char *buf, size_t n)
{
	const struct pr_chart_bar_group *grp = &x->c->bars->groups[g];
	if (grp->value_text && grp->value_text[i]) {
		char *clean = pr_text_clean(grp->value_text[i]);
		snprintf(buf, n, "%s", clean);
		free(clean);
	} else if (va->log) {
		pr_lo_log_format(&va->unit, grp->values[i], 3, buf, n);
	} else if (grp->values[i] == 0 && !va->unit.suffix[0]) {
		snprintf(buf, n, "0.0"); /* like its neighbours, not like a tick */
	} else {
		pr_axis_unit_format(&va->unit, grp->values[i], 1, buf, n);
	}
}

/* Whether dark text reads better than white on rgb (relative luminance above 0.5). */
static int dark_on(uint32_t rgb)
{
	double r = (double)((rgb >> 16) & 0xFF) / 255, g = (double)((rgb >> 8) & 0xFF) / 255,
	       b = (double)(rgb & 0xFF) / 255;
	return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5;
}

/*
 * One segment of a stacked bar: category i, group g, from `base` to
 * base + value on the value axis; its value label centred inside it when
 * the text fits the segment (and the bar's thickness).
 */
static void stacked_bar(struct pr_lo_ctx *x, struct pr_layout *lo, const struct pr_axis *va,
			struct pr_bar *b, size_t i, size_t g, size_t ncat, double slot,
			double group, double base)
{
	const struct pr_chart_bars *bs = x->c->bars;
	const struct pr_chart_bar_group *grp = &bs->groups[g];
	double v = grp->values[i], a0, a1, len, thick, tw, cx, cy;
	char buf[256];
	b->category = i;
	b->group = g;
	b->value = v;
	b->rgb = grp->colors ? grp->colors[i] : grp->rgb;
	if (lo->horizontal) {
		a0 = pr_layout_x(lo, base);
		a1 = pr_layout_x(lo, base + v);
		b->r.x = fmin(a0, a1);
		b->r.w = fabs(a1 - a0);
		b->r.y = pr_layout_y(lo, (double)(ncat - i)) + (slot - group) / 2;
		b->r.h = group;
		len = b->r.w;
		thick = b->r.h;
	} else {
		a0 = pr_layout_y(lo, base);
		a1 = pr_layout_y(lo, base + v);
		b->r.y = fmin(a0, a1);
		b->r.h = fabs(a1 - a0);
		b->r.x = lo->plot.x + slot * (double)i + (slot - group) / 2;
		b->r.w = group;
		len = b->r.h;
		thick = b->r.w;
	}
	if (!bs->value_labels)
		return;
	value_label(x, va, g, i, buf, sizeof(buf));
	tw = pr_lo_text_w(x->m, buf, PR_SIZE_SMALL, 0);
	if (lo->horizontal ? (tw + 6 > len || thick < PR_SIZE_SMALL * 1.3)
			   : (tw + 6 > thick || len < PR_SIZE_SMALL * 1.3))
		return; /* does not fit inside: the legend and the tables have it */
	cx = b->r.x + b->r.w / 2;
	cy = b->r.y + b->r.h / 2 + PR_SIZE_SMALL * PR_TEXT_CAP / 2;
	pr_lo_add_text(lo, "value", pr_xstrdup(buf), cx, cy, PR_SIZE_SMALL, 0, PR_ALIGN_CENTER,
		       dark_on(b->rgb) ? RGB_TITLE : RGB_WHITE);
}

/* Room on the value axis of a bar chart for the value labels. */
void pr_lo_bar_headroom(struct pr_lo_ctx *x, struct pr_axis *va, int horiz, size_t ncat, double len)
{
	const struct pr_chart *c = x->c;
	double span = va->hi - va->lo, f = VALUE_MARGIN;
	size_t g, i;
	if (c->y_fixed)
		return;
	if (c->bars->value_labels && !c->bars->stacked) { /* stacked: labels inside the segments */
		if (horiz) {
			double w = 0;
			char buf[256];
			for (g = 0; g < c->bars->ngroups; g++) {
				for (i = 0; i < ncat; i++) {
					double t;
					if (!pr_lo_usable(c->bars->groups[g].values[i]))
						continue;
					value_label(x, va, g, i, buf, sizeof(buf));
					t = pr_lo_text_w(x->m, buf, PR_SIZE_SMALL, 0);
					if (t > w)
						w = t;
				}
			}
			f = (w + 10) / len;
		} else {
			f = (PR_SIZE_SMALL + 8) / len;
		}
		if (f > 0.45)
			f = 0.45;
		f = f / (1 - f);
	}
	if (va->log) { /* the same room, in decades */
		double l0 = log10(va->lo), l1 = log10(va->hi);
		va->hi = pow(10, l1 + (l1 - l0) * f);
		return;
	}
	if (va->hi > 0)
		va->hi += span * f;
	if (va->lo < 0)
		va->lo -= span * f;
}

/*
 * Whether the value axis is logarithmic (render/chart.h, pr_scale): only
 * when asked (PR_SCALE_LOG), never for stacked bars, and only when some value
 * is > 0. A bar's length is its value from zero on a linear axis otherwise:
 * a log axis draws 28 us as a solid bar next to 131 ms. *pr gets the range
 * of the values > 0 (hlines included).
 */
static int use_log(struct pr_lo_ctx *x, struct pr_lo_range *pr)
{
	const struct pr_chart *c = x->c;
	const struct pr_chart_bars *b = c->bars;
	size_t i, g;
	if (b->stacked || c->value_scale != PR_SCALE_LOG)
		return 0;
	for (g = 0; g < b->ngroups; g++) {
		for (i = 0; i < b->ncategories; i++) {
			double v = b->groups[g].values[i];
			if (!pr_lo_usable(v))
				continue;
			if (v > 0)
				pr_lo_grow(pr, v);
		}
	}
	for (i = 0; i < c->nhlines; i++) {
		if (pr_lo_usable(c->hlines[i].y) && c->hlines[i].y > 0)
			pr_lo_grow(pr, c->hlines[i].y);
	}
	return pr->any;
}

/* A logarithmic value axis over the values > 0 (whole decades) and the category axis. */
static void log_value_axis(struct pr_lo_ctx *x, const struct pr_lo_range *pr)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	struct pr_axis *va = x->va, *ca = x->horiz ? &lo->y : &lo->x;
	x->dmax = pr->hi;
	if (c->y_fixed && c->y_min > 0) {
		va->log = 1;
		va->lo = c->y_min;
		va->hi = c->y_max;
	} else {
		pr_lo_log_range(va, pr->lo, pr->hi, 0);
	}
	pr_axis_unit_choose(&va->unit, x->horiz ? c->x_unit : c->y_unit, va->hi);
	ca->categorical = 1;
	ca->lo = 0;
	ca->hi = (double)x->ncat;
	pr_axis_unit_choose(&ca->unit, "", 0);
}

/*
 * The value range of a bar chart: its values (stacked: each category's sum
 * of the positive values) and the hlines; the category axis holds 0..n.
 */
void pr_lo_bar_ranges(struct pr_lo_ctx *x)
{
	const struct pr_chart *c = x->c;
	const struct pr_chart_bars *b = c->bars;
	struct pr_layout *lo = x->lo;
	struct pr_lo_range vr = { 0, 0, 1 }, pr = { 0, 0, 0 };
	struct pr_axis *va;
	double vmaxabs;
	int anyv = 0;
	size_t i, g, ncat = b->ncategories;
	x->horiz = b->horizontal != 0;
	lo->horizontal = x->horiz;
	x->ncat = ncat;
	for (i = 0; i < ncat && b->stacked; i++) {
		double sum = 0;
		for (g = 0; g < b->ngroups; g++) {
			if (pr_lo_usable(b->groups[g].values[i]) && b->groups[g].values[i] >= 0) {
				sum += b->groups[g].values[i];
				anyv = 1;
			}
		}
		pr_lo_grow(&vr, sum);
	}
	for (g = 0; g < b->ngroups && !b->stacked; g++) {
		for (i = 0; i < ncat; i++) {
			if (pr_lo_usable(b->groups[g].values[i])) {
				pr_lo_grow(&vr, b->groups[g].values[i]);
				anyv = 1;
			}
		}
	}
	for (i = 0; i < c->nhlines; i++)
		pr_lo_grow(&vr, c->hlines[i].y);
	lo->empty = !anyv || !ncat;
	va = x->horiz ? &lo->x : &lo->y;
	x->va = va;
	if (!lo->empty && use_log(x, &pr)) {
		log_value_axis(x, &pr);
		return;
	}
	x->dmax = vr.hi;
	va->lo = vr.lo;
	va->hi = vr.hi;
	if (c->y_fixed) {
		va->lo = c->y_min;
		va->hi = c->y_max;
	} else if (va->hi == va->lo) {
		va->hi = va->lo + 1;
	}
	vmaxabs = fmax(fabs(va->lo), fabs(va->hi));
	pr_axis_unit_choose(&va->unit, x->horiz ? c->x_unit : c->y_unit, lo->empty ? 0 : vmaxabs);
	if (lo->empty) {
		va->lo = 0;
		va->hi = 1;
	}
	{
		struct pr_axis *ca = x->horiz ? &lo->y : &lo->x;
		ca->categorical = 1;
		ca->lo = 0;
		ca->hi = ncat ? (double)ncat : 1;
		pr_axis_unit_choose(&ca->unit, "", 0);
	}
}

/* One bar of a grouped bar chart (category i, group g; c0: its left or top edge) and its value label. */
static void grouped_bar(struct pr_lo_ctx *x, struct pr_bar *b, size_t i, size_t g, double slot,
			double group, double bw)
{
	const struct pr_chart_bars *bs = x->c->bars;
	const struct pr_chart_bar_group *grp = &bs->groups[g];
	struct pr_layout *lo = x->lo;
	size_t ng = bs->ngroups, ncat = x->ncat;
	double v = grp->values[i], a0, a1, c0;
	double from = !x->va->log ? 0 : bs->log_base > 0 ? bs->log_base : x->va->lo;
	int up = v >= from; /* the bar grows right / up */
	char buf[256];
	b->category = i;
	b->group = g;
	b->value = v;
	b->rgb = grp->colors ? grp->colors[i] : grp->rgb;
	if (x->horiz) {
		c0 = pr_layout_y(lo, (double)(ncat - i)) + (slot - group) / 2 + bw * (double)g;
		a0 = pr_layout_x(lo, from);
		a1 = pr_layout_x(lo, v);
		b->r.x = fmin(a0, a1);
		b->r.w = fabs(a1 - a0);
		b->r.y = c0;
		b->r.h = bw;
	} else {
		c0 = lo->plot.x + slot * (double)i + (slot - group) / 2 + bw * (double)g;
		a0 = pr_layout_y(lo, from);
		a1 = pr_layout_y(lo, v);
		b->r.y = fmin(a0, a1);
		b->r.h = fabs(a1 - a0);
		b->r.x = c0;
		b->r.w = bw;
	}
	if (!bs->value_labels)
		return;
	value_label(x, x->va, g, i, buf, sizeof(buf));
	if (x->horiz) {
		double tw = pr_lo_text_w(x->m, buf, PR_SIZE_SMALL, 0);
		double ty = b->r.y + b->r.h / 2 + PR_SIZE_SMALL * PR_TEXT_CAP / 2;
		if (bw < PR_SIZE_SMALL * 0.9)
			return;
		if (up && a1 + 4 + tw <= lo->plot.x + lo->plot.w - 2)
			pr_lo_add_text(lo, "value", pr_xstrdup(buf), a1 + 4, ty, PR_SIZE_SMALL, 0,
				       PR_ALIGN_LEFT, RGB_LABEL);
		else if (!up && a1 - 4 - tw >= lo->plot.x + 2)
			pr_lo_add_text(lo, "value", pr_xstrdup(buf), a1 - 4, ty, PR_SIZE_SMALL, 0,
				       PR_ALIGN_RIGHT, RGB_LABEL);
	} else {
		char *t = pr_text_elide(x->m, buf, PR_SIZE_SMALL, 0, ng > 1 ? bw + 2 : slot - 4);
		double ty = up ? a1 - 4 : a1 + 4 + PR_SIZE_SMALL * PR_TEXT_CAP;
		if (!t[0] || !strcmp(t, "\xE2\x80\xA6")) {
			free(t);
			return;
		}
		pr_lo_add_text(lo, "value", t, c0 + bw / 2, ty, PR_SIZE_SMALL, 0, PR_ALIGN_CENTER,
			       RGB_LABEL);
	}
}

void pr_lo_bars(struct pr_lo_ctx *x)
{
	const struct pr_chart_bars *bs = x->c->bars;
	struct pr_layout *lo = x->lo;
	size_t ng = bs->ngroups, ncat = x->ncat, k = 0, i, g;
	double slot = x->horiz ? lo->plot.h / (lo->y.hi - lo->y.lo) : lo->plot.w / (double)ncat;
	double group = slot * 0.7, bw = ng && !bs->stacked ? group / (double)ng : group;
	lo->bars = pr_xcalloc(ncat * (ng ? ng : 1), sizeof(*lo->bars));
	for (i = 0; i < ncat; i++) {
		double base = 0; /* stacked: where the next segment starts */
		for (g = 0; g < ng; g++) {
			double v = bs->groups[g].values[i];
			struct pr_bar *b = &lo->bars[k];
			if (!pr_lo_usable(v) || ((bs->stacked || x->va->log) && !(v > 0)))
				continue;
			k++;
			if (bs->stacked) {
				stacked_bar(x, lo, x->va, b, i, g, ncat, slot, group, base);
				base += v;
				continue;
			}
			grouped_bar(x, b, i, g, slot, group, bw);
		}
	}
	lo->nbars = k;
}
