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
#include "analyze/gpuscan.h"
#include "analyze/imap.h"
#include "analyze/spanstat.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

#define MAX_LANES 16
#define MAX_INTERVALS 4000

/* s without its leading and trailing blanks (Kineto writes "stream 7 ") into buf. */
static const char *trimmed(const char *s, char *buf, size_t n)
{
	size_t len;
	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), s);
	return buf;
}

/* A GPU track's stream as Kineto names it (its activities' "stream" arg, gpuscan.h), else tid. */
static const char *kineto_stream(struct pr_actx *ctx, int64_t track, const char *tid, char *buf,
				 size_t n)
{
	const struct pr_gpuscan *gs = ctx->gpuscan;
	size_t i;
	for (i = 0; gs && i < gs->ntracks; i++)
		if (gs->tracks[i] == track)
			return pr_gpuscan_stream_label(gs->tstream[i], tid, buf, n);
	return tid;
}

/*
 * A lane as the trace names it (analyze/actx.h): a GPU stream "GPU 0 stream 7"
 * (its numeric device, then its thread_name, else "stream <id>": Kineto's
 * stream id from the activities' "stream" arg, else the tid; a device that
 * is no number: "<process name> / <thread_name>"); a thread its thread_name
 * ("thread 2910249 (pt_main_thread)"), else "thread <tid>" with the tid as the
 * trace prints it (-549452224: Kineto's pid/tid packing; an async track "async
 * <id>"); the process name before a thread ("python3.10 / ...") only when the
 * run's tracks of its kind belong to more than one process name.
 */
json_t *pr_timeline_lane_name(struct pr_actx *ctx, int64_t track, const char **kind,
			      struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *name = NULL;
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT kind, ifnull(process_name, ''), ifnull(name, ''), ifnull(pid, ''), "
			 "ifnull(tid, ''), (SELECT count(DISTINCT ifnull(t2.process_name, '')) "
			 "FROM track t2 WHERE t2.run_id = track.run_id AND t2.kind = track.kind) "
			 "FROM track WHERE id = ?2",
			 &st, err))
		return NULL;
	sqlite3_bind_int64(st, 2, track);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char buf[700], tn[300], proc[300], sid[24];
		const char *pid = pr_actx_text(st, 3), *tid = pr_actx_text(st, 4);
		const char *tk = pr_actx_text(st, 0);
		int gpu = !strcmp(tk, "gpu_stream");
		int device = gpu && *pid && !pid[strspn(pid, "0123456789")];
		trimmed(pr_actx_text(st, 1), proc, sizeof(proc));
		trimmed(pr_actx_text(st, 2), tn, sizeof(tn));
		*kind = gpu ? "gpu_stream" : "thread";
		if (!tn[0])
			snprintf(tn, sizeof(tn), "%.20s %.200s", gpu ? "stream" : tk,
				 gpu ? kineto_stream(ctx, track, tid, sid, sizeof(sid)) : tid);
		if (device && !strstr(tn, "GPU") && !strstr(tn, "device"))
			snprintf(buf, sizeof(buf), "GPU %.100s %s", pid, tn);
		else if (proc[0] && (gpu || sqlite3_column_int64(st, 5) > 1))
			snprintf(buf, sizeof(buf), "%s / %s", proc, tn);
		else
			snprintf(buf, sizeof(buf), "%s", tn);
		name = json_string(buf);
	}
	if (pr_actx_done(ctx, st, rc, err) || !name) {
		json_decref(name);
		return name ? NULL : json_string("?");
	}
	return name;
}

struct tlane {
	int64_t track, spans;
	int64_t *c; /* the merged intervals as (start, end) pairs, ascending and apart by > gap */
	size_t n, cap;
	int64_t *p; /* spans that came before the last interval's start, merged in batches */
	size_t np, pcap;
};

struct pr_tlanes {
	int64_t gap;
	struct tlane *l;
	size_t n, cap;
	struct pr_imap by_track;
	int64_t last_track;
	size_t last;
	size_t waiting; /* spans waiting in all lanes */
};

/* spans out of order merged at once, one sort and one sweep: per lane, and in all lanes */
#define TL_BATCH 4096
#define TL_WAITING (1 << 18)

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
	for (i = 0; i < t->n; i++) {
		free(t->l[i].c);
		free(t->l[i].p);
	}
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

static void tlane_add(struct tlane *l, int64_t s, int64_t e)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->c = pr_xreallocarray(l->c, l->cap, 2 * sizeof(*l->c));
	}
	l->c[2 * l->n] = s;
	l->c[2 * l->n++ + 1] = e;
}

static int cmp_pair(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The waiting spans sorted and swept together with the intervals, into new intervals. */
static void tlane_merge(struct tlane *l, int64_t g)
{
	int64_t *old = l->c;
	size_t nold = l->n, i = 0, j = 0;
	if (!l->np)
		return;
	qsort(l->p, l->np, 2 * sizeof(*l->p), cmp_pair);
	l->c = NULL;
	l->n = l->cap = 0;
	while (i < nold || j < l->np) {
		const int64_t *x = j == l->np || (i < nold && old[2 * i] <= l->p[2 * j])
					   ? &old[2 * i++]
					   : &l->p[2 * j++];
		int64_t *last = l->n ? &l->c[2 * (l->n - 1)] : NULL;
		if (last && x[0] <= last[1] + g) {
			if (x[1] > last[1])
				last[1] = x[1];
		} else {
			tlane_add(l, x[0], x[1]);
		}
	}
	free(old);
	l->np = 0;
}

void pr_tlanes_row(struct pr_tlanes *t, int64_t track, int64_t ts, int64_t dur)
{
	struct tlane *l = tlane_of(t, track);
	int64_t s = ts, e = dur, g = t->gap;
	/* within +-PR_TIME_LIMIT_NS: e, an end + gap and the union (busy) fit in int64 */
	pr_span_clamp(&s, &e);
	e += s;
	l->spans++;
	/* mostly in order: at or after the start of the last interval, it extends it or follows */
	if (!l->n || s >= l->c[2 * (l->n - 1)]) {
		int64_t *last = l->n ? &l->c[2 * (l->n - 1)] : NULL;
		if (last && s <= last[1] + g) {
			if (e > last[1])
				last[1] = e;
		} else {
			tlane_add(l, s, e);
		}
		return;
	}
	/* before it: waits for a batch (the intervals do not depend on the order) */
	if (l->np == l->pcap) {
		l->pcap = l->pcap ? l->pcap * 2 : 64;
		l->p = pr_xreallocarray(l->p, l->pcap, 2 * sizeof(*l->p));
	}
	l->p[2 * l->np] = s;
	l->p[2 * l->np++ + 1] = e;
	t->waiting++;
	if (l->np == TL_BATCH) {
		t->waiting -= l->np;
		tlane_merge(l, g);
	}
	if (t->waiting >= TL_WAITING) { /* many lanes out of order: bounded all the same */
		size_t i;
		for (i = 0; i < t->n; i++)
			tlane_merge(&t->l[i], g);
		t->waiting = 0;
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
		struct tlane *l = &t->l[i];
		tlane_merge(l, t->gap);
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
		json_t *name = pr_timeline_lane_name(ctx, lanes[i].track, &kind, err);
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
