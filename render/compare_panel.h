/*
 * compare_panel.h - the panels and the HTML page of a comparison
 * (profreport compare --png/--svg/--html), built from the comparison
 * (analyze/multi/compare.h) and, for the step times, the two models.
 *
 * USAGE
 *   json_t *cmp = pr_compare(base, newm, &gate, &err);
 *   struct pr_panelset *ps = pr_compare_panels_build(cmp, base, newm);
 *   pr_panelset_write_files(ps, dir, "", PR_GFX_PNG, &err);   (files <name>.png)
 *   pr_panelset_free(ps);
 *   pr_compare_html(cmp, base, newm, &out, &err);                  (the whole page)
 *
 * Panels:
 *   changes    horizontal bars of the ratio new / base of the metrics with
 *              the largest changes (at most PR_COMPARE_PANEL_METRICS;
 *              added/removed metrics have no ratio and are left out) on a
 *              log-ratio axis centred on 1 (1/M .. M, M from 2, 5, 10, 20...:
 *              2x and 0.5x are bars of one length from 1, and one +5174 %
 *              does not flatten the rest), each labelled "+19.1% (1.19x)":
 *              regressions red, improvements green, beyond the threshold but
 *              not significant orange, unchanged grey; the thresholds (their
 *              relative part, in the bad direction: + for lower-is-better,
 *              - for higher-is-better) as dashed vertical lines at 1 + rel.
 *              "No metric changed" when every ratio is 1.
 *   step_time  step durations of base and new by step number as the traces
 *              name them (the first run with steps on each side), with each
 *              side's median; the y axis from zero when both sides have at
 *              most 8 steps; only when both sides have steps.
 *
 * The page (templates/report.html via pr_html_page): the verdict banner
 * (the summary line, red on failure), summary cards, the panels as inline
 * SVG, a sortable table of every metric (capped at PR_HTML_ROWS rows, the
 * cap stated), the spans below the noise floor, the ignored metrics and the
 * gate's settings. Every string is escaped.
 *
 * OWNERSHIP: everything is borrowed; the panels copy what they need. base
 * and newm may be NULL (no step-time panel). Output is a pure function of
 * the inputs.
 */
#ifndef PR_COMPARE_PANEL_H
#define PR_COMPARE_PANEL_H

#include <stddef.h>

#include <jansson.h>

#include "render/panelset.h"

#define PR_COMPARE_PANEL_METRICS 30

/*
 * The high end M of the changes panel's log-ratio axis 1/M .. M: the
 * smallest of 2, 5, 10, 20, 50, ... at least 1.6 times the largest deviation
 * from 1 (r or 1/r) of the ratios and the hlines' y (values <= 0 or not
 * finite are ignored; deviations are capped at 1e12).
 */
double pr_ratio_axis_max(const double *ratio, size_t n, const struct pr_chart_hline *h, size_t nh);

struct pr_panelset *pr_compare_panels_build(const json_t *cmp, const json_t *base,
					    const json_t *newm);

/*
 * The comparison's HTML page into out (which stays open: the caller closes
 * it). Returns 0, or -1 with err (a panel that cannot be drawn, PR_E_IO for
 * a write failure).
 */
int pr_compare_html(const json_t *cmp, const json_t *base, const json_t *newm,
		    struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;

#endif
