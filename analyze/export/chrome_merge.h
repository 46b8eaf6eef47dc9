/*
 * chrome_merge.h - many runs (one per rank) merged into one Chrome trace
 * (Trace Event Format, JSON object form) that Perfetto, chrome://tracing
 * and profreport itself open: one process per rank.
 *
 * USAGE
 *   struct pr_chrome_merge *m;
 *   if (pr_chrome_merge_open(&m, "merged.json", &err)) ...;
 *   for each rank's store: pr_chrome_merge_add(m, store, run_id, rank, &err);
 *   if (pr_chrome_merge_close(m, &err)) ...;   (renamed into place)
 *   on an error: pr_chrome_merge_free(m);       (the file is left as it was)
 *
 * WHAT IS WRITTEN
 *   {"displayTimeUnit": "ms", "otherData": {"exporter": "profreport@<ver>"},
 *    "traceEvents": [ ... ]}
 * For every run added: "M" events naming the process "rank R" (with the
 * run's label) and sorting the processes by rank (pid = R); per span lane of
 * the run (analyze/export/spanwalk.h: properly nested, balanced, time ordered) a
 * thread (tid = 1, 2, ... within the rank) named "<process> / <thread>",
 * and its spans as "B"/"E" pairs; the run's memory series as counters
 * ("C", named "<series> [<device>]", value in the series' unit). A span that
 * ends after its parent is clamped to the parent's end, as in the
 * speedscope export (stats.clamped).
 *
 * TIMES are the runs' own clocks in microseconds with three decimals
 * (exact: the store's ns). Ranks line up when their clocks do: Kineto
 * writes wall-clock times, so the ranks of one job share the time axis.
 *
 * MEMORY: one rank's open-span stacks and memory samples at a time (see
 * spanwalk.h); events are streamed to the file.
 * LIMITATIONS: instants, flows, non-memory counters and span args are not
 * written.
 */
#ifndef PR_RENDER_CHROME_MERGE_H
#define PR_RENDER_CHROME_MERGE_H

#include <stdint.h>

#include "analyze/export/spanwalk.h"
#include "base/error.h"
#include "store/store.h"

struct pr_chrome_merge;

int pr_chrome_merge_open(struct pr_chrome_merge **m, const char *path,
			 struct pr_error *err) PR_MUST_CHECK;
/* Appends run run_id of st (0 = every run) as pid = rank (>= 0). */
int pr_chrome_merge_add(struct pr_chrome_merge *m, struct pr_store *st, int64_t run_id, long rank,
			struct pr_error *err) PR_MUST_CHECK;
/* Totals over every run added so far. */
const struct pr_spanwalk_stats *pr_chrome_merge_stats(const struct pr_chrome_merge *m);
/* Finishes the file and renames it into place; frees m in every case. */
int pr_chrome_merge_close(struct pr_chrome_merge *m, struct pr_error *err) PR_MUST_CHECK;
/* Drops the unfinished file (the path is left as it was); NULL is fine. */
void pr_chrome_merge_free(struct pr_chrome_merge *m);

#endif
