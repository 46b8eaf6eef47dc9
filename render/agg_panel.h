/*
 * agg_panel.h - the panels and the HTML page of a multi-rank aggregate
 * (profreport aggregate --png/--svg/--html), built from agg.json
 * (analyze/aggregate.h, README "agg.json") and drawn with render/chart.h.
 *
 * USAGE
 *   json_t *doc = pr_agg_to_json(agg);
 *   struct pr_agg_panels *ps = pr_agg_panels_build(doc);
 *   for (i = 0; i < pr_agg_panels_count(ps); i++)
 *       pr_agg_panels_render(ps, i, PR_GFX_PNG, &out, &err);   (file <name>.png)
 *   pr_agg_panels_free(ps);
 *   pr_agg_html(doc, &out, &err);                              (the whole page)
 *
 * Panels (only those whose data exists):
 *   rank_comparison  grouped bars, one category per rank ("rank 2 (straggler)";
 *                    with more than 8 ranks "2*", the stragglers first),
 *                    one group per stage/phase (the 5 largest by total across
 *                    ranks) plus "collectives (wait)"; a straggler's bars named
 *                    in its evidence are red (red is used for nothing else),
 *                    every bar of a straggler named for its step time only;
 *                    the stragglers' summaries in the note.
 *   step_time        mean and max step time per rank, the median of the means
 *                    as a dashed line; stragglers' bars in red shades.
 *   peak_memory      peak per rank of up to 4 memory series (bytes; "sys.*"
 *                    only when there is nothing else), max over devices.
 * More than PR_AGG_PANEL_RANKS ranks: the stragglers and then the lowest
 * ranks are drawn, and the title says how many of how many. Categories are
 * in rank order; with more than 8, the stragglers come first.
 *
 * The page (templates/report.html via pr_html_page): summary cards (ranks,
 * world size, stragglers), each straggler with its evidence, warnings, the
 * panels as inline SVG, sortable tables of the cross-rank statistics
 * (capped at PR_HTML_ROWS rows, the cap stated), the per-rank rows and the
 * straggler checks. Every string from agg.json is escaped.
 *
 * OWNERSHIP: doc is borrowed; the panels copy what they need, so doc may be
 * released after pr_agg_panels_build(). Output is a pure function of doc.
 */
#ifndef PR_AGG_PANEL_H
#define PR_AGG_PANEL_H

#include <stddef.h>

#include <jansson.h>

#include "render/chart.h"

#define PR_AGG_PANEL_RANKS 24
#define PR_AGG_PANEL_STAGES 5

struct pr_agg_panels;

struct pr_agg_panels *pr_agg_panels_build(const json_t *doc);
size_t pr_agg_panels_count(const struct pr_agg_panels *ps);
/* Stable file-name stem of panel i ("rank_comparison", "step_time", "peak_memory"). */
const char *pr_agg_panels_name(const struct pr_agg_panels *ps, size_t i);
const char *pr_agg_panels_title(const struct pr_agg_panels *ps, size_t i);
/* The chart spec of panel i (borrowed). */
const struct pr_chart *pr_agg_panels_chart(const struct pr_agg_panels *ps, size_t i);
int pr_agg_panels_render(const struct pr_agg_panels *ps, size_t i, enum pr_gfx_format format,
			 struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;
int pr_agg_panels_layout(const struct pr_agg_panels *ps, size_t i, struct pr_strbuf *dump,
			 struct pr_error *err) PR_MUST_CHECK;
void pr_agg_panels_free(struct pr_agg_panels *ps); /* NULL is fine */

/*
 * The aggregate's HTML page into out (which stays open: the caller closes
 * it). Returns 0, or -1 with err (a panel that cannot be drawn, PR_E_IO for
 * a write failure).
 */
int pr_agg_html(const json_t *doc, struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;

#endif
