/*
 * agg_text.h - the console table of a multi-rank aggregate (profreport
 * aggregate): per-rank headline numbers, cross-rank statistics of stages,
 * collectives and run numbers, and the named stragglers with their
 * evidence. 80 columns; long names are cut with "...".
 *
 * USAGE: pr_render_agg_text(pr_agg_to_json(a), stdout);
 * OWNERSHIP: doc is borrowed. LIMITATIONS: reads only the documented
 * agg.json keys (docs/aggregate.md); the per-rank table shows at most 64
 * ranks (then a count of the rest; agg.json has them all).
 */
#ifndef PR_AGG_TEXT_H
#define PR_AGG_TEXT_H

#include <stdio.h>

#include <jansson.h>

void pr_render_agg_text(const json_t *doc, FILE *out);

#endif
