/*
 * agg_panel.h - the panels and the HTML page of a multi-rank aggregate
 * (profreport aggregate --png/--svg/--html), built from agg.json
 * (analyze/multi/aggregate.h, docs/aggregate.md) and drawn with render/chart.h.
 *
 * USAGE
 *   json_t *doc = pr_agg_to_json(agg);
 *   struct pr_panelset *ps = pr_agg_panels_build(doc);
 *   pr_panelset_write_files(ps, dir, "", PR_GFX_PNG, &err);   (files <name>.png)
 *   pr_panelset_free(ps);
 *   pr_agg_html(doc, &out, &err);                              (the whole page)
 *
 * Panels (only those whose data exists):
 *   rank_comparison  grouped bars, one category per rank ("rank 2 (straggler)";
 *                    with more than 8 ranks "2*", the stragglers first),
 *                    one group per stage/phase (the 5 largest by total across
 *                    ranks) plus "collectives (wait)"; a straggler's bars named
 *                    in its evidence are red (red is used for nothing else;
 *                    a straggler by step time alone is red in step_time);
 *                    the stragglers' summaries in the note.
 *   step_time        mean and max step time per rank, the median of the means
 *                    as a dashed line; the bars of a straggler whose evidence
 *                    is its step time in red shades (a straggler by a stage or
 *                    collective keeps the others' colour: DDP syncs steps, so
 *                    its step time is theirs; the note says where to look).
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

#include "render/panelset.h"

#define PR_AGG_PANEL_RANKS 24
#define PR_AGG_PANEL_STAGES 5

struct pr_panelset *pr_agg_panels_build(const json_t *doc);

/*
 * The aggregate's HTML page into out (which stays open: the caller closes
 * it). Returns 0, or -1 with err (a panel that cannot be drawn, PR_E_IO for
 * a write failure).
 */
int pr_agg_html(const json_t *doc, struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;

#endif
