/*
 * panel_data.h - a line chart's data for the HTML page's script
 * (templates/report.js): hover values, zoom and pan on the x axis.
 *
 * USAGE
 *   pr_strbuf sb; ... the panel's inline SVG ...
 *   int rc = pr_panel_data(chart, &sb, &err);  1 appended, 0 not interactive, -1 error
 *
 * What is appended, right after the panel's <svg> inside its <figure>, is
 * one <script type="application/json" class="pz-data"> element (escaped
 * with pr_json_script_escape: no "</script" can end it) holding:
 *   "w", "h"      the SVG's size (its viewBox, px);
 *   "plot"        [x, y, w, h] of the plot area in those px (render/layout.h);
 *   "x", "y"      each axis: "lo", "hi" (data range), "unit" (the data unit,
 *                 render/chart.h), "k" (time|bytes|percent|plain), "f" (data
 *                 value * f = the base unit: s, bytes), "s" and "name" (the
 *                 tick labels show value * f / s, axis title in "name"), "sfx"
 *                 (SI suffix of plain ticks), "label" (the axis title);
 *   "xt"          the x tick labels' baseline "y", font "size" and extent
 *                 from "l" to "r" (px, what a zoomed view covers), "yt" the y
 *                 grid lines' positions (px) - what the script redraws;
 *   "lines"       [{"l" label, "c" colour, "w" width, "fill" alpha, "dash",
 *                 "x": [...], "y": [...]}], reduced by min/max per column
 *                 (render/reduce.h) to at most 4 * PR_PANEL_DATA_COLUMNS
 *                 points, null = a gap;
 *   "rects"       [{"l", "c", "y0", "y1", "x": [x0, x1, x0, x1, ...]}]:
 *                 consecutive rects of one lane (a timeline), at most
 *                 PR_PANEL_DATA_RECTS in all;
 *   "bands", "zones", "vlines", "hlines", "marks": the decorations, so that
 *                 a zoomed view draws what the static one does.
 * A chart is interactive when it is a line chart (no bars) on linear axes
 * that is not empty and has a line with a point or a rect; others (a log
 * axis: the roofline) get nothing (the
 * static SVG is all there is). Numbers are the chart's data units (the
 * same as the PNG/SVG panels), 10 significant digits.
 */
#ifndef PR_PANEL_DATA_H
#define PR_PANEL_DATA_H

#include "base/error.h"
#include "base/strbuf.h"
#include "render/chart.h"

#define PR_PANEL_DATA_COLUMNS 2048 /* reduction columns across the x range */
#define PR_PANEL_DATA_RECTS 20000  /* rects embedded at most; more: no zoom data */

int pr_panel_data(const struct pr_chart *c, struct pr_strbuf *sb, struct pr_error *err);

#endif
