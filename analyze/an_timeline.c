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
 * on a 1 GB trace).
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/imap.h"
#include "analyze/spanstat.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

#define MAX_LANES 16
#define MAX_INTERVALS 4000

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

/* ---- the merged intervals, made in the span pass ---- */

struct tlane {
	int64_t track, spans;
	int64_t *c; /* the merged intervals as (start, end) pairs, ascending and apart by > gap */
	size_t n, cap;
};

struct pr_tlanes {
	int64_t gap;
	struct tlane *l;
	size_t n, cap;
	struct pr_imap by_track;
	int64_t last_track;
	size_t last;
};

struct pr_tlanes *pr_tlanes_new(int64_t gap)
{
	struct pr_tlanes *t = pr_xcalloc(1, sizeof(*t));
	t->gap = gap;
	t->last = SIZE_MAX;
	return t;
}

void pr_tlanes_free(struct pr_tlanes *t)
{
	size_t i;
	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->l[i].c);
	free(t->l);
	pr_imap_release(&t->by_track);
	free(t);
}

static struct tlane *tlane_of(struct pr_tlanes *t, int64_t track)
{
	int64_t v;
	if (t->last != SIZE_MAX && t->last_track == track)
		return &t->l[t->last];
	if (!pr_imap_get(&t->by_track, track, &v)) {
		if (t->n == t->cap) { /* doubling: one lane per track, up to 65536 */
			t->cap = t->cap ? t->cap * 2 : 16;
			t->l = pr_xreallocarray(t->l, t->cap, sizeof(*t->l));
		}
		memset(&t->l[t->n], 0, sizeof(t->l[t->n]));
		t->l[t->n].track = track;
		v = (int64_t)t->n++;
		pr_imap_put(&t->by_track, track, v);
	}
	t->last_track = track;
	t->last = (size_t)v;
	return &t->l[v];
}

/* Room for one more interval at index k of l. */
static void tlane_open(struct tlane *l, size_t k)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->c = pr_xreallocarray(l->c, l->cap, 2 * sizeof(*l->c));
	}
	memmove(&l->c[2 * (k + 1)], &l->c[2 * k], (l->n - k) * 2 * sizeof(*l->c));
	l->n++;
}

void pr_tlanes_row(struct pr_tlanes *t, int64_t track, int64_t ts, int64_t dur)
{
	struct tlane *l = tlane_of(t, track);
	int64_t s = ts, e = dur, g = t->gap;
	size_t lo, hi, k, m;
	/* within +-PR_TIME_LIMIT_NS: e, an end + gap and the union (busy) fit in int64 */
	pr_span_clamp(&s, &e);
	e += s;
	l->spans++;
	/* mostly in order: at or after the start of the last interval */
	if (l->n && s >= l->c[2 * (l->n - 1)]) {
		int64_t *last = &l->c[2 * (l->n - 1)];
		if (s <= last[1] + g) {
			if (e > last[1])
				last[1] = e;
			return;
		}
		tlane_open(l, l->n);
		l->c[2 * (l->n - 1)] = s;
		l->c[2 * (l->n - 1) + 1] = e;
		return;
	}
	/* the first interval that reaches s (its end + gap >= s) */
	lo = 0;
	hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->c[2 * mid + 1] + g >= s)
			hi = mid;
		else
			lo = mid + 1;
	}
	k = lo;
	if (k == l->n || l->c[2 * k] > e + g) { /* touches none: a new interval */
		tlane_open(l, k);
		l->c[2 * k] = s;
		l->c[2 * k + 1] = e;
		return;
	}
	/* k and every interval after it that starts by e + gap become one */
	for (m = k; m + 1 < l->n && l->c[2 * (m + 1)] <= e + g; m++)
		;
	if (s < l->c[2 * k])
		l->c[2 * k] = s;
	l->c[2 * k + 1] = e > l->c[2 * m + 1] ? e : l->c[2 * m + 1];
	if (m > k) {
		memmove(&l->c[2 * (k + 1)], &l->c[2 * (m + 1)], (l->n - m - 1) * 2 * sizeof(*l->c));
		l->n -= m - k;
	}
}

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
		const struct tlane *l = &t->l[i];
		lanes[i].track = l->track;
		lanes[i].spans = l->spans;
		lanes[i].busy = 0;
		lanes[i].iv = json_array();
		for (k = 0; k < l->n; k++) {
			if (k < MAX_INTERVALS)
				json_array_append_new(lanes[i].iv,
						      json_pack("[o,o]", pr_actx_t(ctx, l->c[2 * k]),
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
