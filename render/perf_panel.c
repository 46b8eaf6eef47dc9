/* perf_panel.c - the perf model's roofline (see perf_panel.h). */
#include "render/perf_panel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonx.h"
#include "render/gpu_panel.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* One colour per category of docs/analysis.md (perf_model), in the palette's order. */
static uint32_t cat_color(const char *cat)
{
	static const struct {
		const char *name;
		uint32_t rgb;
	} c[] = {
		{ "GEMM", 0x1F77B4 },	       { "convolution", 0x17BECF },
		{ "attention", 0x9467BD },     { "elementwise", 0x2CA02C },
		{ "reduction", 0xBCBD22 },     { "normalization", 0x8C564B },
		{ "communication", 0xFF7F0E }, { "memory copy", 0x98DF8A },
		{ "other", 0x7F7F7F },
	};
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(c); i++)
		if (!strcmp(c[i].name, cat))
			return c[i].rgb;
	return 0xBBBBBB;
}

static int usable_dot(const json_t *g)
{
	return pr_mnum(g, PRK_PERF_MODEL_GROUPS_FLOPS) > 0 &&
	       pr_mnum(g, PRK_PERF_MODEL_GROUPS_BYTES) > 0 &&
	       pr_mnum(g, PRK_PERF_MODEL_GROUPS_DEVICE_NS) > 0;
}

size_t pr_perf_panels_add(struct pr_panelset *ps, const json_t *run)
{
	const json_t *pm = json_object_get(run, PRK_PERF_MODEL);
	const json_t *roof = json_object_get(pm, PRK_PERF_MODEL_ROOFLINE);
	const json_t *groups = json_object_get(pm, PRK_PERF_MODEL_GROUPS);
	const json_t *g;
	double peak = pr_mnum(roof, PRK_PERF_MODEL_ROOFLINE_PEAK_TFLOPS) * 1e12,
	       bw = pr_mnum(roof, PRK_PERF_MODEL_ROOFLINE_HBM_TBPS) * 1e12;
	double ridge, xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, *rx, *ry;
	struct pr_chart_line *lines;
	struct pr_chart_vline *vl;
	struct pr_chart_mark *mk;
	struct pr_chart *c;
	const char *seen[16];
	size_t i, n = 0, nl = 0, nseen = 0, nm = 0, k;
	char title[200], buf[160], nbuf[64];
	if (!json_is_object(roof) || !(peak > 0) || !(bw > 0))
		return 0;
	json_array_foreach (groups, i, g) {
		double ai;
		if (!usable_dot(g) || n == PR_PERF_PANEL_MAX_DOTS)
			continue;
		ai = pr_mnum(g, PRK_PERF_MODEL_GROUPS_FLOPS) /
		     pr_mnum(g, PRK_PERF_MODEL_GROUPS_BYTES);
		xmin = fmin(xmin, ai);
		xmax = fmax(xmax, ai);
		ymin = fmin(ymin, pr_mnum(g, PRK_PERF_MODEL_GROUPS_FLOPS) /
					  pr_mnum(g, PRK_PERF_MODEL_GROUPS_DEVICE_NS) * 1e9);
		n++;
	}
	if (!n)
		return 0;
	ridge = peak / bw;
	xmin = fmin(xmin, ridge) / 4;
	xmax = fmax(xmax, ridge) * 4;
	lines = pr_panelset_alloc(ps, n + 1, sizeof(*lines));
	/* the roof: the bandwidth slope up to the ridge, then the peak */
	rx = pr_panelset_alloc(ps, 3, sizeof(double));
	ry = pr_panelset_alloc(ps, 3, sizeof(double));
	rx[0] = xmin;
	ry[0] = xmin * bw;
	rx[1] = ridge;
	ry[1] = peak;
	rx[2] = xmax;
	ry[2] = peak;
	snprintf(buf, sizeof(buf), "roof: %s %.4g TFLOP/s, %.4g TB/s",
		 pr_mstr(roof, PRK_PERF_MODEL_ROOFLINE_DTYPE), peak / 1e12, bw / 1e12);
	lines[nl++] = (struct pr_chart_line){ .label = pr_panelset_strdup(ps, buf),
					      .rgb = 0x333333,
					      .x = rx,
					      .y = ry,
					      .n = 3,
					      .width = 2 };
	mk = pr_panelset_alloc(ps, 3, sizeof(*mk));
	k = 0;
	json_array_foreach (groups, i, g) {
		double *x, *y;
		const char *cat = pr_mstr(g, PRK_PERF_MODEL_GROUPS_CATEGORY), *label = NULL;
		size_t j;
		if (!usable_dot(g) || k == PR_PERF_PANEL_MAX_DOTS)
			continue;
		k++;
		x = pr_panelset_alloc(ps, 1, sizeof(double));
		y = pr_panelset_alloc(ps, 1, sizeof(double));
		x[0] = pr_mnum(g, PRK_PERF_MODEL_GROUPS_FLOPS) /
		       pr_mnum(g, PRK_PERF_MODEL_GROUPS_BYTES);
		y[0] = pr_mnum(g, PRK_PERF_MODEL_GROUPS_FLOPS) /
		       pr_mnum(g, PRK_PERF_MODEL_GROUPS_DEVICE_NS) * 1e9;
		for (j = 0; j < nseen && strcmp(seen[j], cat); j++)
			;
		if (j == nseen && nseen < PR_ARRAY_SIZE(seen)) {
			seen[nseen++] = cat;
			label = pr_panelset_strdup(ps, cat);
		}
		lines[nl++] = (struct pr_chart_line){
			.label = label, .rgb = cat_color(cat), .x = x, .y = y, .n = 1, .width = 7
		};
		for (j = 0; j < nm &&
			    (fabs(log10(mk[j].x / x[0])) > 0.6 || fabs(log10(mk[j].y / y[0])) > 1);
		     j++)
			;
		/* the 3 largest device times (the groups' order), callouts apart */
		if (nm < 3 && j == nm) {
			mk[nm++] = (struct pr_chart_mark){
				x[0], y[0],
				pr_panelset_strdup(
					ps,
					pr_gpu_short_name(pr_mstr(g, PRK_PERF_MODEL_GROUPS_NAME),
							  32, nbuf, sizeof(nbuf))),
				cat_color(cat)
			};
		}
	}
	vl = pr_panelset_alloc(ps, 1, sizeof(*vl));
	vl[0] = (struct pr_chart_vline){ ridge, 0x333333, 1 };
	snprintf(title, sizeof(title),
		 "Roofline (log-log) | %s | ridge %.3g FLOP/byte | %zu op groups",
		 pr_mstr(json_object_get(pm, PRK_PERF_MODEL_DEVICE), PRK_PERF_MODEL_DEVICE_MODEL),
		 ridge, n);
	c = pr_panelset_add(ps, "perf_roofline", title);
	c->lines = lines;
	c->nlines = nl;
	c->vlines = vl;
	c->nvlines = 1;
	c->marks = mk;
	c->nmarks = nm;
	c->x_scale = PR_SCALE_LOG;
	c->value_scale = PR_SCALE_LOG;
	c->x_label = "Arithmetic intensity";
	c->x_unit = "FLOP/byte";
	c->y_label = "Achieved";
	c->y_unit = "FLOP/s";
	c->legend_title = "Op category";
	/* y: the decade below the slowest dot to the one above the peak */
	c->y_fixed = 1;
	c->y_min = pow(10, floor(log10(ymin / 2)));
	c->y_max = pow(10, ceil(log10(peak * 1.5)));
	c->height = 520;
	return 1;
}
