/*
 * an_timeline.c - "timeline": per thread / GPU stream / track, the busy
 * intervals of its top-level spans, merged when the gap between them is
 * under 1/4000 of the run (so a million kernels become a drawable few
 * thousand intervals), for the timeline panel. The 16 busiest tracks are
 * kept, in track order.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/spanstat.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

#define MAX_LANES 16
#define MAX_INTERVALS 4000

struct lane {
	int64_t track, busy, spans;
	json_t *iv;
};

static int by_busy(const void *a, const void *b)
{
	const struct lane *x = a, *y = b;
	if (x->busy != y->busy)
		return x->busy > y->busy ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
}

static int by_track(const void *a, const void *b)
{
	const struct lane *x = a, *y = b;
	return x->track < y->track ? -1 : x->track > y->track;
}

static void flush(const struct pr_actx *ctx, struct lane *l, int64_t s, int64_t e)
{
	if (json_array_size(l->iv) < MAX_INTERVALS)
		json_array_append_new(l->iv, json_pack("[o,o]", pr_actx_t(ctx, s), pr_actx_t(ctx, e)));
	l->busy += e - s;
}

static json_t *lane_name(struct pr_actx *ctx, int64_t track, const char **kind, struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *name = NULL;
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT kind, ifnull(process_name, ''), ifnull(name, ''), ifnull(pid, ''), "
			 "ifnull(tid, '') FROM track WHERE id = ?2",
			 &st, err))
		return NULL;
	sqlite3_bind_int64(st, 2, track);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char buf[600];
		const char *proc = pr_actx_text(st, 1), *tn = pr_actx_text(st, 2);
		*kind = !strcmp(pr_actx_text(st, 0), "gpu_stream") ? "gpu_stream" : "thread";
		if (*proc && *tn)
			snprintf(buf, sizeof(buf), "%s / %s", proc, tn);
		else if (*tn)
			snprintf(buf, sizeof(buf), "%s", tn);
		else
			snprintf(buf, sizeof(buf), "%s %s/%s", pr_actx_text(st, 0), pr_actx_text(st, 3),
				 pr_actx_text(st, 4));
		name = json_string(buf);
	}
	if (pr_actx_done(ctx, st, rc, err) || !name) {
		json_decref(name);
		return name ? NULL : json_string("?");
	}
	return name;
}

static int cmp_top(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;
	int k;
	for (k = 0; k < 4; k++)
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	return 0;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_spanstat *ss;
	struct lane *lanes = NULL;
	size_t n = 0, cap = 0, i, k;
	int64_t gap = ctx->dur > 0 ? ctx->dur / 4000 : 0, cs = 0, ce = INT64_MIN;
	json_t *arr = json_array();
	json_object_set_new(ctx->out, "timeline",
			    pr_jobj("merged_below_ns", pr_jint(gap), "lanes", arr, NULL));
	/* the top-level spans from the shared span pass (spanstat.h; they were a
	 * sorted query), by track, start, then id (the order SQLite's sort gave) */
	if (!pr_spanstat_get(ctx, err))
		return -1;
	ss = ctx->spanstat;
	if (ss->ntop)
		qsort(ss->top, ss->ntop, 4 * sizeof(*ss->top), cmp_top);
	for (k = 0; k < ss->ntop; k++) {
		int64_t tr = ss->top[4 * k], s = ss->top[4 * k + 1], e = ss->top[4 * k + 2];
		struct lane *l = n ? &lanes[n - 1] : NULL;
		/* within +-PR_TIME_LIMIT_NS: e, ce + gap and the union (busy) fit in int64 */
		pr_span_clamp(&s, &e);
		e += s;
		if (!l || l->track != tr) {
			if (l && ce != INT64_MIN)
				flush(ctx, l, cs, ce);
			if (n == cap) { /* doubling: one lane per track, up to 65536 */
				cap = cap ? cap * 2 : 16;
				lanes = pr_xreallocarray(lanes, cap, sizeof(*lanes));
			}
			l = &lanes[n++];
			memset(l, 0, sizeof(*l));
			l->track = tr;
			l->iv = json_array();
			ce = INT64_MIN;
		}
		l->spans++;
		if (ce != INT64_MIN && s <= ce + gap) {
			if (e > ce)
				ce = e;
			continue;
		}
		if (ce != INT64_MIN)
			flush(ctx, l, cs, ce);
		cs = s;
		ce = e;
	}
	if (n && ce != INT64_MIN)
		flush(ctx, &lanes[n - 1], cs, ce);
	free(ss->top); /* read: its memory back */
	ss->top = NULL;
	ss->ntop = 0;
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
		json_t *name = lane_name(ctx, lanes[i].track, &kind, err);
		if (!name)
			goto fail;
		json_array_append_new(arr, pr_jobj("name", name, "kind", json_string(kind), "spans",
						   pr_jint(lanes[i].spans), "busy_ns", pr_jint(lanes[i].busy),
						   "intervals", lanes[i].iv, NULL));
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
};
