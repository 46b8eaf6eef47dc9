/* layout_legend.c - legend entries (lines, hlines, bands, rects, zones) and their box. */
#include "render/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "render/layout_impl.h"

#define MAX_LEGEND_SOURCES 1000

static void add_entry(struct pr_lo_entries *e, const char *label, enum pr_swatch_kind kind,
		      uint32_t rgb, double alpha, double lw, int dashed, int dedupe)
{
	size_t i;
	if (!label || !label[0])
		return;
	if (e->n >= MAX_LEGEND_SOURCES) {
		e->extra++;
		return;
	}
	if (dedupe) {
		for (i = 0; i < e->n; i++) {
			if (e->v[i].kind == kind && e->v[i].rgb == rgb &&
			    !strcmp(e->v[i].label, label))
				return;
		}
	}
	if (e->n == e->alloc) {
		e->alloc = e->alloc ? 2 * e->alloc : 16;
		e->v = pr_xreallocarray(e->v, e->alloc, sizeof(*e->v));
	}
	e->v[e->n].label = label;
	e->v[e->n].kind = kind;
	e->v[e->n].rgb = rgb;
	e->v[e->n].alpha = alpha;
	e->v[e->n].line_width = lw;
	e->v[e->n].dashed = dashed;
	e->n++;
}

static double swatch_alpha(double a, double dflt)
{
	if (!(a > 0))
		a = dflt;
	a *= 3;
	return a > 1 ? 1 : a;
}

void pr_lo_collect_entries(const struct pr_chart *c, struct pr_lo_entries *e)
{
	size_t i;
	if (c->bars) {
		for (i = 0; i < c->bars->ngroups; i++)
			add_entry(e, c->bars->groups[i].label, PR_SWATCH_PATCH,
				  c->bars->groups[i].rgb, 1, 0, 0, 0);
	} else {
		for (i = 0; i < c->nlines; i++) {
			const struct pr_chart_line *l = &c->lines[i];
			if (l->stack > 0) /* a stacked area: its colour as filled */
				add_entry(e, l->label, PR_SWATCH_PATCH, l->rgb,
					  l->fill_alpha > 0 ? fmin(l->fill_alpha, 1) : 0.7, 0, 0,
					  0);
			else
				add_entry(e, l->label, PR_SWATCH_LINE, l->rgb, 1,
					  l->width > 0 ? l->width : 2, l->dashed, 0);
		}
	}
	for (i = 0; i < c->nhlines; i++)
		add_entry(e, c->hlines[i].label, PR_SWATCH_LINE, c->hlines[i].rgb, 1, 1.5,
			  c->hlines[i].dashed, 0);
	if (!c->bars) {
		for (i = 0; i < c->nbands; i++)
			add_entry(e, c->bands[i].label, PR_SWATCH_PATCH, c->bands[i].rgb,
				  swatch_alpha(c->bands[i].alpha, 0.15), 0, 0, 1);
		for (i = 0; i < c->nrects; i++)
			add_entry(e, c->rects[i].label, PR_SWATCH_PATCH, c->rects[i].rgb, 0.85, 0,
				  0, 1);
	}
	for (i = 0; i < c->nzones; i++)
		add_entry(e, c->zones[i].label, PR_SWATCH_PATCH, c->zones[i].rgb,
			  swatch_alpha(c->zones[i].alpha, 0.08), 0, 0, 1);
}

/* ---- the legend box ---- */

double pr_lo_legend_width(struct pr_lo_ctx *x, double cap)
{
	double w = 0;
	size_t i;
	for (i = 0; i < x->ent.n; i++) {
		double t = pr_lo_text_w(x->m, x->ent.v[i].label, PR_SIZE_LEGEND, 0);
		if (t > cap)
			t = cap;
		if (t > w)
			w = t;
	}
	w += SWATCH_W + SWATCH_GAP;
	if (x->c->legend_title && x->c->legend_title[0]) {
		double t = pr_lo_text_w(x->m, x->c->legend_title, PR_SIZE_LEGEND, 1);
		if (t > cap + SWATCH_W + SWATCH_GAP)
			t = cap + SWATCH_W + SWATCH_GAP;
		if (t > w)
			w = t;
	}
	return ceil(w + 2 * LEGEND_PAD);
}

void pr_lo_place_legend(struct pr_lo_ctx *x, double bx, double by, double cap, double max_h)
{
	struct pr_layout *lo = x->lo;
	struct pr_legend *L = &lo->legend;
	const char *title = x->c->legend_title;
	size_t total = x->ent.n + x->ent.extra, rows_max, shown, i;
	int has_title = title && title[0];
	double y, w = x->legend_w;

	rows_max = max_h > 2 * LEGEND_PAD + LEGEND_ROW
			   ? (size_t)((max_h - 2 * LEGEND_PAD) / LEGEND_ROW)
			   : 1;
	if (rows_max < 1 + (size_t)has_title)
		rows_max = 1 + (size_t)has_title;
	shown = total;
	if ((size_t)has_title + total > rows_max)
		shown = rows_max - (size_t)has_title - 1; /* one row for "+N more" */
	if (shown > x->ent.n)
		shown = x->ent.n;
	L->shown = 1;
	L->hidden = total - shown;
	L->entries = shown ? pr_xcalloc(shown, sizeof(*L->entries)) : NULL;
	L->nentries = shown;
	L->box.x = bx;
	L->box.y = by;
	L->box.w = w;
	L->box.h = 2 * LEGEND_PAD - (LEGEND_ROW - PR_SIZE_LEGEND) +
		   LEGEND_ROW * (double)((size_t)has_title + shown + (L->hidden ? 1 : 0));
	y = by + LEGEND_PAD - (LEGEND_ROW - PR_SIZE_LEGEND) / 2;
	if (has_title) {
		char *clean = pr_text_clean(title);
		pr_lo_add_text(lo, "legend-title",
			       pr_text_elide(x->m, clean, PR_SIZE_LEGEND, 1, w - 2 * LEGEND_PAD),
			       bx + LEGEND_PAD,
			       y + LEGEND_ROW / 2 + PR_TEXT_CAP * PR_SIZE_LEGEND / 2,
			       PR_SIZE_LEGEND, 1, PR_ALIGN_LEFT, RGB_TITLE);
		free(clean);
		y += LEGEND_ROW;
	}
	for (i = 0; i < shown; i++) {
		const struct pr_lo_entry *s = &x->ent.v[i];
		struct pr_legend_entry *e = &L->entries[i];
		double cy = y + LEGEND_ROW / 2;
		char *clean = pr_text_clean(s->label);
		e->kind = s->kind;
		e->rgb = s->rgb;
		e->alpha = s->alpha;
		e->line_width = s->line_width > 4 ? 4 : s->line_width;
		e->dashed = s->dashed;
		e->swatch.x = bx + LEGEND_PAD;
		e->swatch.w = SWATCH_W;
		if (s->kind == PR_SWATCH_LINE) {
			e->swatch.y = cy;
			e->swatch.h = 0;
		} else {
			e->swatch.y = cy - 5;
			e->swatch.h = 10;
		}
		pr_lo_add_text(lo, "legend", pr_text_elide(x->m, clean, PR_SIZE_LEGEND, 0, cap),
			       bx + LEGEND_PAD + SWATCH_W + SWATCH_GAP,
			       cy + PR_TEXT_CAP * PR_SIZE_LEGEND / 2, PR_SIZE_LEGEND, 0,
			       PR_ALIGN_LEFT, RGB_LABEL);
		free(clean);
		y += LEGEND_ROW;
	}
	if (L->hidden) {
		char buf[64];
		snprintf(buf, sizeof(buf), "+%zu more", L->hidden);
		pr_lo_add_text(lo, "legend-more", pr_xstrdup(buf),
			       bx + LEGEND_PAD + SWATCH_W + SWATCH_GAP,
			       y + LEGEND_ROW / 2 + PR_TEXT_CAP * PR_SIZE_LEGEND / 2,
			       PR_SIZE_LEGEND, 0, PR_ALIGN_LEFT, RGB_TICK);
	}
}
