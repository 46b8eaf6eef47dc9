/*
 * an_timeline.c - "timeline": per thread / GPU stream / track, the busy
 * intervals of its top-level spans, merged when the gap between them is
 * under 1/4000 of the run (so a million kernels become a drawable few
 * thousand intervals), for the timeline panel. The 16 busiest tracks are
 * kept, in track order.
 *
 * The intervals are made while the shared span pass reads the spans in id
 * order (pr_tlanes_row, fed by spanstat.c), not from every top-level span
 * sorted afterwards: the merged intervals of a track are the connected
 * pieces of the union of its spans each stretched by the gap on the right
 * ([start, end + gap]), which is what a sweep in start order merges, in
 * whatever order the spans come. Two intervals of a track are more than the
 * gap (1/4000 of the run) apart, so a track holds at most about 4000 of
 * them whatever the trace's size (before, 32 bytes per top-level span: 9 MB
 * on a 1 GB trace). A span that starts before a track's last interval waits
 * in a batch (up to TL_BATCH a lane, TL_WAITING in all) that is sorted and
 * swept together with the intervals: a file in reverse order costs a sort.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/lane_name.h"
#include "analyze/gpuscan.h"
#include "base/imap.h"
#include "analyze/spanstat.h"
#include "analyze/tlanes.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

#define MAX_LANES 16
#define MAX_INTERVALS 4000

struct lane_out {
	int64_t track, busy, spans;
	json_t *iv;
};

static int by_busy(const void *a, const void *b)
{
	const struct lane_out *x = a, *y = b;
	if (x->busy != y->busy)
		return x->busy > y->busy ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
}

static int by_track(const void *a, const void *b)
{
	const struct lane_out *x = a, *y = b;
	return x->track < y->track ? -1 : x->track > y->track;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_spanstat *ss;
	struct pr_tlanes *t;
	struct lane_out *lanes = NULL;
	size_t n, i, k;
	int64_t gap = ctx->dur > 0 ? ctx->dur / 4000 : 0;
	json_t *arr = json_array();
	json_object_set_new(ctx->out, "timeline",
			    pr_jobj("merged_below_ns", pr_jint(gap), "lanes", arr, NULL));
	/* the intervals the shared span pass merged (spanstat.h, pr_tlanes_row) */
	if (!pr_spanstat_get(ctx, err))
		return -1;
	ss = ctx->spanstat;
	t = ss->tl;
	n = t ? t->n : 0;
	lanes = pr_xreallocarray(NULL, n ? n : 1, sizeof(*lanes));
	for (i = 0; i < n; i++) {
		struct tlane *l = &t->l[i];
		pr_tlane_merge(l, t->gap);
		lanes[i].track = l->track;
		lanes[i].spans = l->spans;
		lanes[i].busy = 0;
		lanes[i].iv = json_array();
		for (k = 0; k < l->n; k++) {
			if (k < MAX_INTERVALS)
				json_array_append_new(lanes[i].iv,
						      json_pack("[o,o]",
								pr_actx_t(ctx, l->c[2 * k]),
								pr_actx_t(ctx, l->c[2 * k + 1])));
			lanes[i].busy += l->c[2 * k + 1] - l->c[2 * k];
		}
	}
	pr_tlanes_free(t); /* read: its memory back */
	ss->tl = NULL;
	/* in track order, as the sweep over the spans sorted by track made them */
	if (n > 1)
		qsort(lanes, n, sizeof(*lanes), by_track);
	if (n > 1)
		qsort(lanes, n, sizeof(*lanes), by_busy);
	if (n > MAX_LANES) {
		for (i = MAX_LANES; i < n; i++)
			json_decref(lanes[i].iv);
		json_object_set_new(json_object_get(ctx->out, "timeline"), "lanes_more",
				    pr_jint((int64_t)(n - MAX_LANES)));
		n = MAX_LANES;
	}
	if (n > 1)
		qsort(lanes, n, sizeof(*lanes), by_track);
	for (i = 0; i < n; i++) {
		const char *kind = "thread";
		json_t *name = pr_timeline_lane_name(ctx, lanes[i].track, &kind, err);
		if (!name)
			goto fail;
		json_array_append_new(arr, pr_jobj("name", name, "kind", json_string(kind), "spans",
						   pr_jint(lanes[i].spans), "busy_ns",
						   pr_jint(lanes[i].busy), "intervals", lanes[i].iv,
						   NULL));
		lanes[i].iv = NULL;
	}
	free(lanes);
	return 0;
fail:
	for (i = 0; i < n; i++)
		json_decref(lanes[i].iv);
	free(lanes);
	return -1;
}

const struct pr_analyzer pr_an_timeline = {
	.name = "timeline",
	.summary = "busy intervals of the top-level spans per thread / GPU stream",
	.run = run,
	.stage = PR_STAGE_SPANS,
};
