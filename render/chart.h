/*
 * chart.h - one chart panel: a plain-data spec (its types: render/chart_spec.h),
 * laid out (render/layout.h) and painted (render/gfx.h) to PNG or SVG.
 *
 * USAGE:
 *   struct pr_chart_line rss = { .label = "RSS", .rgb = 0x2E86AB,
 *           .x = t, .y = bytes, .n = n, .width = 3, .fill_alpha = 0.15 };
 *   struct pr_chart c = { .title = "Memory", .x_label = "Time",
 *           .x_unit = "s", .y_label = "Memory", .y_unit = "bytes",
 *           .lines = &rss, .nlines = 1 };
 *   struct pr_output out;
 *   if (pr_output_open_file(&out, "memory.png", err)) return -1;
 *   if (pr_chart_render(&c, PR_GFX_PNG, &out, err) || pr_output_close(&out, err))
 *           { pr_output_release(&out); return -1; }
 *   pr_output_release(&out);
 *
 * A chart is a line chart (lines, with bands, vlines, zones, hlines and
 * marks as decoration) or, when `bars` is set, a grouped or stacked bar
 * chart (lines and the x-positioned decorations are then ignored; zones
 * and hlines stay on the value axis).
 *
 * Units (x_unit, y_unit) name what the data values are in; the axis shows
 * them scaled by magnitude and states the unit in the axis label:
 *   "bytes" "B" "KiB" "MiB" "GiB" "TiB"  -> B/KiB/MiB/GiB/TiB/PiB/EiB (IEC)
 *   "s" "ms" "us" "ns" "min"               -> us/ms/s/min/h, ns below 1 us
 *   "percent" "%"                          -> plain numbers, label "(%)"
 *   anything else (including "" or NULL)   -> plain numbers with an SI
 *                                             suffix (k M G T P E) per tick,
 *                                             the unit string in the label.
 *
 * Data rules: non-finite values (and |v| >= 1e300) are skipped and break
 * lines; an empty or all-equal range is padded; n = 1 draws a dot. The
 * y axis includes 0 when a line fills to zero, for bars, and when all data
 * is >= 0 and the smallest value is below half the largest (else the data
 * range is padded by 5%); 10% headroom on top (15% with marks). The x range
 * is exactly the data (lines, bands, vlines, marks), padded only when it
 * has zero width. Lines with more than 4 * (plot width in px) points are
 * drawn through pr_reduce_minmax (render/reduce.h).
 *
 * Text: "DejaVu Sans" (pinned); widths come from a built-in table of that
 * font's advances (render/layout.h), so the layout, and the dump, is the
 * same on every machine. Long titles, axis labels, legend entries and
 * category labels are elided with "...". Text is drawn by Cairo (in SVG as
 * glyph outlines), so no escaping is needed here.
 *
 * Determinism: the same spec gives the same layout dump, SVG bytes and PNG
 * bytes (for a given Cairo and font), in any order and any number of
 * charts per process. Numbers are formatted with snprintf and need
 * LC_NUMERIC "C" (profreport never calls setlocale).
 *
 * OWNERSHIP: the spec and every array and string it points to belong to
 * the caller and are only read during the call.
 * Scales: the value axis is linear or logarithmic (value_scale, below); the
 * x axis of a line chart may be a UTC clock (x_date). render/layout.h says
 * how their ticks are chosen and labelled.
 *
 * LIMITATIONS: one y axis; log scale for the value axis (a log x axis on
 * horizontal bars, and on line charts through x_scale), never for stacks; stacked lines are not
 * reduced (fine for the model's 2000-point timelines, slow for millions);
 * lines are drawn with alpha 1 (fills carry the transparency).
 */
#ifndef PR_CHART_H
#define PR_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "render/chart_spec.h"
#include "render/gfx.h"
#include "base/output.h"
#include "base/error.h"
#include "base/pr_common.h"
#include "base/strbuf.h"

/* Tableau-10 palette, 0xRRGGBB. */
#define PR_PALETTE_SIZE 10
extern const uint32_t pr_chart_palette[PR_PALETTE_SIZE];
/* pr_chart_palette[i % PR_PALETTE_SIZE]. */
uint32_t pr_chart_color(size_t i);

/*
 * Lay out and paint the chart into `out` (which stays open: the caller
 * closes it). Returns 0, or -1 with PR_E_USAGE for an invalid spec (size
 * out of range, n > 0 with y NULL, bars without categories, ...),
 * PR_E_LIMIT for more than 100000 bar categories, 1000 groups or 10^6 bars,
 * or PR_E_IO when Cairo or a write fails.
 */
int pr_chart_render(const struct pr_chart *chart, enum pr_gfx_format format, struct pr_output *out,
		    struct pr_error *err) PR_MUST_CHECK;

/*
 * Append the layout of the chart as stable text (pr_layout_dump) to dump.
 * Same layout code and text widths as pr_chart_render. Returns 0 or -1
 * (PR_E_USAGE) like pr_chart_render.
 */
int pr_chart_layout(const struct pr_chart *chart, struct pr_strbuf *dump,
		    struct pr_error *err) PR_MUST_CHECK;

#endif
