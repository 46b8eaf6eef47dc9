/* panel_data.c - a line chart's data as JSON for the page's script (zoom, hover). */
#include "render/panel_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/escape.h"
#include "render/layout.h"
#include "render/reduce.h"

static json_t *num(double v)
{
	/* JSON has no NaN: a gap (or an unusable value) is null */
	return isfinite(v) && fabs(v) < 1e300 ? json_real(v) : json_null();
}

static json_t *color(uint32_t rgb)
{
	char buf[8];
	snprintf(buf, sizeof(buf), "#%06x", (unsigned)(rgb & 0xFFFFFFu));
	return json_string(buf);
}

/* jansson refuses invalid UTF-8: labels are cleaned the way the SVG draws them. */
static json_t *text(const char *s)
{
	char *clean = pr_text_clean(s);
	json_t *j = json_string(clean);
	free(clean);
	return j ? j : json_string("");
}

static json_t *axis(const struct pr_axis *a, const char *unit, const char *label)
{
	static const char *const kinds[] = { "plain", "bytes", "time", "percent" };
	return json_pack("{s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o}", "lo", num(a->lo), "hi",
			 num(a->hi), "unit", text(unit ? unit : ""), "k", kinds[a->unit.kind], "f",
			 num(a->unit.factor), "s", num(a->unit.scale), "name", text(a->unit.name),
			 "sfx", text(a->unit.suffix), "label", text(label ? label : ""));
}

static json_t *line(const struct pr_layout *lo, const struct pr_chart_line *l)
{
	json_t *xs = json_array(), *ys = json_array();
	double *rx, *ry;
	size_t n, i;
	pr_reduce_minmax(l->x, l->y, l->n, lo->x.lo, lo->x.hi, PR_PANEL_DATA_COLUMNS, &rx, &ry, &n);
	for (i = 0; i < n; i++) {
		json_array_append_new(xs, num(rx[i]));
		json_array_append_new(ys, num(ry[i]));
	}
	free(rx);
	free(ry);
	return json_pack("{s:o, s:o, s:f, s:f, s:b, s:b, s:o, s:o}", "l", text(l->label), "c",
			 color(l->rgb), "w", l->width > 0 ? l->width : 2.0, "fill",
			 l->fill_alpha > 1 ? 1.0 : l->fill_alpha, "dash", l->dashed, "step",
			 l->style == PR_LINE_STEP, "x", xs, "y", ys);
}

/* Consecutive rects of one lane (same y, colour and label) as one entry. */
static json_t *rects(const struct pr_chart *c)
{
	json_t *out = json_array(), *cur = NULL, *xs = NULL;
	size_t i;
	for (i = 0; i < c->nrects; i++) {
		const struct pr_chart_rect *r = &c->rects[i], *p = i ? &c->rects[i - 1] : NULL;
		if (!p || p->y0 != r->y0 || p->y1 != r->y1 || p->rgb != r->rgb ||
		    strcmp(p->label ? p->label : "", r->label ? r->label : "")) {
			xs = json_array();
			cur = json_pack("{s:o, s:o, s:o, s:o, s:o}", "l", text(r->label), "c",
					color(r->rgb), "y0", num(r->y0), "y1", num(r->y1), "x", xs);
			json_array_append_new(out, cur);
		}
		json_array_append_new(xs, num(r->x0));
		json_array_append_new(xs, num(r->x1));
	}
	return out;
}

static json_t *decorations(const struct pr_chart *c, const char *what)
{
	json_t *a = json_array();
	size_t i;
	if (!strcmp(what, "bands"))
		for (i = 0; i < c->nbands; i++)
			json_array_append_new(a,
					      json_pack("[o, o, o, f]", num(c->bands[i].x0),
							num(c->bands[i].x1), color(c->bands[i].rgb),
							c->bands[i].alpha > 0 ? c->bands[i].alpha
									      : 0.15));
	else if (!strcmp(what, "zones"))
		for (i = 0; i < c->nzones; i++)
			json_array_append_new(a,
					      json_pack("[o, o, o, f]", num(c->zones[i].y0),
							num(c->zones[i].y1), color(c->zones[i].rgb),
							c->zones[i].alpha > 0 ? c->zones[i].alpha
									      : 0.08));
	else if (!strcmp(what, "vlines"))
		for (i = 0; i < c->nvlines; i++)
			json_array_append_new(a, json_pack("[o, o, b]", num(c->vlines[i].x),
							   color(c->vlines[i].rgb),
							   c->vlines[i].dashed));
	else if (!strcmp(what, "hlines"))
		for (i = 0; i < c->nhlines; i++)
			json_array_append_new(a, json_pack("[o, o, b]", num(c->hlines[i].y),
							   color(c->hlines[i].rgb),
							   c->hlines[i].dashed));
	else
		for (i = 0; i < c->nmarks; i++)
			json_array_append_new(a, json_pack("[o, o, o]", num(c->marks[i].x),
							   num(c->marks[i].y),
							   color(c->marks[i].rgb)));
	return a;
}

static int interactive(const struct pr_chart *c, const struct pr_layout *lo)
{
	size_t i;
	if (c->bars || lo->empty || lo->bar_chart || lo->x.categorical || !(lo->x.hi > lo->x.lo) ||
	    c->nrects > PR_PANEL_DATA_RECTS)
		return 0;
	if (lo->x.log || lo->y.log) /* the script maps linearly: a log chart stays static */
		return 0;
	for (i = 0; i < c->nlines; i++) /* a stacked area stays the static SVG */
		if (c->lines[i].stack)
			return 0;
	for (i = 0; i < c->nlines; i++)
		if (lo->lines[i].finite)
			return 1;
	return c->nrects > 0;
}

int pr_panel_data(const struct pr_chart *c, struct pr_strbuf *sb, struct pr_error *err)
{
	static const char *const decor[] = { "bands", "zones", "vlines", "hlines", "marks" };
	struct pr_layout lo;
	json_t *o, *lines, *yt;
	char *s;
	size_t i;
	double xt_y = NAN, xt_size = PR_SIZE_TICK, xt_l, xt_r;
	pr_layout_init(&lo);
	if (pr_layout_chart(&lo, c, NULL, err))
		return -1;
	if (!interactive(c, &lo)) {
		pr_layout_release(&lo);
		return 0;
	}
	/* the static x tick labels: their baseline and how far they reach (what a zoomed view covers) */
	xt_l = lo.plot.x;
	xt_r = lo.plot.x + lo.plot.w;
	for (i = 0; i < lo.ntexts; i++) {
		const struct pr_text *t = &lo.texts[i];
		double w;
		if (strcmp(t->role, "xtick"))
			continue;
		xt_y = t->y;
		xt_size = t->size;
		w = pr_text_width_dejavu(NULL, t->text, t->size, t->bold);
		w = t->align == PR_ALIGN_CENTER ? w / 2 : w;
		xt_l = fmin(xt_l, t->align == PR_ALIGN_LEFT ? t->x : t->x - w);
		xt_r = fmax(xt_r, t->align == PR_ALIGN_RIGHT ? t->x : t->x + w);
	}
	if (isnan(xt_y)) /* no tick label: where one would stand */
		xt_y = lo.plot.y + lo.plot.h + 5 + 4 + PR_SIZE_TICK * PR_TEXT_CAP;
	lines = json_array();
	for (i = 0; i < c->nlines; i++)
		json_array_append_new(lines, line(&lo, &c->lines[i]));
	yt = json_array();
	for (i = 0; i < lo.y.nticks; i++)
		if (lo.y.ticks[i].grid)
			json_array_append_new(yt, num(lo.y.ticks[i].pos));
	o = json_pack("{s:i, s:i, s:[f, f, f, f], s:o, s:o, s:{s:f, s:f, s:f, s:f}, s:o, s:o, s:o}",
		      "w", lo.width, "h", lo.height, "plot", lo.plot.x, lo.plot.y, lo.plot.w,
		      lo.plot.h, "x", axis(&lo.x, c->x_unit, c->x_label), "y",
		      axis(&lo.y, c->y_unit, c->y_label), "xt", "y", xt_y, "size", xt_size, "l",
		      xt_l, "r", xt_r, "yt", yt, "lines", lines, "rects", rects(c));
	for (i = 0; i < PR_ARRAY_SIZE(decor); i++)
		json_object_set_new(o, decor[i], decorations(c, decor[i]));
	if (c->x_date) /* a UTC clock axis: x is seconds after this Unix time */
		json_object_set_new(json_object_get(o, "x"), "epoch", num(c->x_epoch));
	pr_layout_release(&lo);
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII |
				  JSON_REAL_PRECISION(10));
	json_decref(o);
	if (!s)
		abort(); /* only out of memory */
	pr_strbuf_addstr(sb, "<script type=\"application/json\" class=\"pz-data\">");
	pr_json_script_escape(sb, s);
	pr_strbuf_addstr(sb, "</script>");
	free(s);
	return 1;
}
