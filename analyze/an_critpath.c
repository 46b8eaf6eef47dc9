/*
 * an_critpath.c - "critical_path": per step (ProfilerStep span; the whole
 * trace when the run has no steps) the chain of dependencies that set the
 * step's length, and what it is made of (docs/analysis.md, "Critical path").
 *
 * THE GRAPH (its nodes are the start and end of every CPU op, runtime call
 * and device activity of the step; an activity belongs to the step of the
 * runtime call that launched it, else to the step holding its start):
 *   - on a thread, time runs through the innermost op, user annotation
 *     (span kind phase: a DataLoader's __next__, a record_function) or
 *     runtime call open (nesting and order: parent start -> child start,
 *     child end -> next sibling's start or the parent's end); time in none
 *     is a gap;
 *   - launch: the launching call's start -> the activity's start (linked by
 *     the "correlation" arg, as the gpu section links them);
 *   - stream order: an activity's end -> the next activity's start on its
 *     stream;
 *   - between streams: from Kineto's cuda_sync records where the trace has
 *     them (read_waits: a Stream Wait Event ties the next activity launched
 *     on its stream to the event's work on the awaited stream); else
 *     inferred: an activity that started more than 10 us after it was free
 *     to (its call had returned, its stream's previous activity had ended)
 *     and within 10 us of the end of another stream's activity waited for
 *     that one;
 *   - synchronisation: a blocking call (cuda/hip DeviceSynchronize,
 *     StreamSynchronize, EventSynchronize: the device activity of the step
 *     that ended last within the call, of the record's stream or event where
 *     a cuda_sync record names one; Memcpy, MemcpyAsync: its own copy,
 *     when that ended within the call) -> the call's end.
 * Every edge spans the time between its ends, so every path from the
 * step's start to its end has the step's length; the critical path is the
 * one that follows, at each node, the dependency that arrived last (the one
 * the node waited for): walking back from the step's end (the later of the
 * step span's end and its activities' last end), at an activity's start the
 * later of the previous activity's end on its stream (ties: the stream) and
 * the launching call's start, unless it waited for another stream (above);
 * at a blocking call's end the awaited activity when it ended within the
 * call. The path's segments tile the step, each in one class: cpu_op (an
 * op, an annotation or a non-launching runtime call), launch (a runtime
 * call that put work on the device, and the launch delay from its start to
 * the activity's start), kernel_{compute,communication,memory} (kclass.h),
 * sync (a blocking call's own time, from the awaited activity's end to the
 * call's return, and a wait for another stream) and idle (a thread in no
 * span, a stream with no activity: untraced host code or nothing).
 *
 * --critpath-annotation NAME[:N] (find_window): one window, HTA's annotation
 * and instance_id, instead of the steps.
 *
 * MEMORY: the ops, annotations, runtime calls and activities of the
 * analysed steps, 48 bytes each, at most pr_critpath_max_events of them
 * (512 Ki: 24 MiB) plus their per-step indexes; past it the latest steps
 * are left out whole (evict; diagnostic critical_path_over_budget,
 * model.c; PROFREPORT_CRITPATH_EVENTS=N sets the budget). The section is
 * absent when the run has no device activity, and then nothing is read.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/gpuscan.h"
#include "base/imap.h"
#include "analyze/kclass.h"
#include "analyze/model.h"
#include "base/xalloc.h"

size_t pr_critpath_max_events = PR_CRITPATH_EVENTS_DEFAULT;

#define CP_TOP 10	 /* ops and kernels listed */
#define CP_STEPS_CAP 256 /* steps listed one by one */
#define NONE INT64_MIN
/* an activity that could have started this much earlier waited for another stream (10 us) */
#define CP_XSTREAM_NS 10000

enum {
	EV_OP,
	EV_RT,
	EV_ACT
};
enum {
	RT_OTHER,
	RT_LAUNCH,
	RT_SYNC,
	RT_MEMCPY
};
enum {
	C_CPU,
	C_LAUNCH,
	C_KCOMP,
	C_KCOMM,
	C_KMEM,
	C_SYNC,
	C_IDLE,
	C_N
};
static const char *const cat_names[C_N] = {
	"cpu_op", "launch", "kernel_compute", "kernel_communication", "kernel_memory",
	"sync",	  "idle"
};

struct cev { /* 48 bytes */
	int64_t ts, end, name, corr;
	uint32_t track; /* index into struct cp's tracks */
	int32_t step;	/* -1: none */
	int32_t link;	/* activity: its launching call; call: the first activity it launched */
	uint8_t kind;	/* EV_* */
	uint8_t cls;	/* runtime: RT_*; activity: enum pr_kclass */
};

struct seg {
	int64_t a, b;
	int32_t owner; /* event index, -1: gap */
};

struct lane {
	uint32_t track;
	int gpu;
	size_t first, n; /* into the step's sorted index (activities) or its segments (threads) */
};

struct tally {
	int64_t key; /* name id */
	int64_t ns;
	uint8_t cls;
};

struct cp {
	struct pr_actx *ctx;
	struct pr_kclassify kc;
	struct cev *ev;
	size_t n, cap, over;
	uint8_t *step_over;	  /* per step: an event of it was dropped */
	int32_t cutoff;		  /* steps from here on are left out (the budget) */
	struct pr_imap rt_cls;	  /* runtime name id -> RT_* */
	struct pr_imap k_cls;	  /* activity name id -> kclass */
	struct pr_imap track_idx; /* track id -> index into tracks */
	size_t ntracks;
	sqlite3_stmt *name_st;
	/* per step scratch */
	uint32_t *idx;
	size_t nidx;
	struct seg *segs;
	size_t nsegs, capsegs;
	struct lane *lanes;
	size_t nlanes, caplanes;
	uint32_t *by_end; /* the step's activities by end */
	size_t nby_end;
	/* totals */
	int64_t comp[C_N], length;
	struct tally *ops, *kernels;
	size_t nops, capops, nkern, capkern;
	struct pr_imap op_idx, kern_idx;
	/* waits read from the trace's handles (read_waits) */
	int want_sync;		   /* a sync or wait call was read: look for cuda_sync records */
	int has_waits;		   /* the trace records Stream Wait Events: no inferred waits */
	struct pr_imap stream_trk; /* Kineto "stream" arg -> track index (activities) */
	struct pr_imap wait_src;   /* activity -> 2 * the activity it waited for + method */
	struct pr_imap sync_on;	   /* sync call -> awaited activity, or -(stream track + 1) */
	size_t nwaits[2], wait_unmatched;
	/* --critpath-annotation: one window instead of the steps (find_window) */
	int win;
	int64_t win_ts, win_end, win_track, win_instance, win_last;
	char *win_name;
	int64_t waits[3]; /* on the paths, by method (W_*) */
};

/* how a wait between streams was found (the model's names) */
enum {
	W_RECORD,
	W_STREAM,
	W_INFERRED,
	W_N
};
static const char *const wait_names[W_N] = { "event_record", "wait_on_stream", "inferred" };

static const char *name_text(struct cp *c, int64_t id, struct pr_error *err)
{
	int rc;
	if (!c->name_st &&
	    pr_actx_prep(c->ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL",
			 &c->name_st, err))
		return NULL;
	sqlite3_reset(c->name_st);
	sqlite3_bind_int64(c->name_st, 2, id);
	rc = sqlite3_step(c->name_st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(c->ctx->db));
		return NULL;
	}
	return rc == SQLITE_ROW ? pr_actx_text(c->name_st, 0) : "";
}

/* The index of a track id (added when new). */
static uint32_t track_index(struct cp *c, int64_t id)
{
	int64_t v;
	if (!pr_imap_get(&c->track_idx, id, &v)) {
		v = (int64_t)c->ntracks++;
		pr_imap_put(&c->track_idx, id, v);
	}
	return (uint32_t)v;
}

static int rt_class(const char *s)
{
	static const char *const syncs[] = { "DeviceSynchronize", "StreamSynchronize",
					     "EventSynchronize" };
	size_t i;
	if ((!strncmp(s, "cuda", 4) || !strncmp(s, "hip", 3))) {
		const char *p = s + (s[0] == 'c' ? 4 : 3);
		for (i = 0; i < sizeof(syncs) / sizeof(syncs[0]); i++)
			if (!strcmp(p, syncs[i]))
				return RT_SYNC;
		if (!strcmp(p, "Memcpy") || !strcmp(p, "MemcpyAsync"))
			return RT_MEMCPY;
	}
	if (pr_kclass_has_ci(s, "launch"))
		return RT_LAUNCH;
	return RT_OTHER;
}

static int cls_of(struct cp *c, struct pr_imap *m, int64_t name, int rt, int *out,
		  struct pr_error *err)
{
	int64_t v;
	const char *s;
	if (pr_imap_get(m, name, &v)) {
		*out = (int)v;
		return 0;
	}
	if (!(s = name_text(c, name, err)))
		return -1;
	*out = rt ? rt_class(s) : pr_kclass_of(&c->kc, s, NULL);
	if (rt && (*out == RT_SYNC || strstr(s, "StreamWaitEvent")))
		c->want_sync = 1; /* the trace may say what it waited for (read_waits) */
	pr_imap_put(m, name, *out);
	return 0;
}

/* Times within +-2^61 and durations up to 2^61 (the store's times reach +-2^62): every
 * difference of two of them fits an int64. */
#define CP_T_MAX ((int64_t)1 << 61)

static int64_t clamp_t(int64_t t)
{
	return t < -CP_T_MAX ? -CP_T_MAX : t > CP_T_MAX ? CP_T_MAX : t;
}

static int64_t end_of(int64_t ts, int64_t dur)
{
	return ts + (dur <= 0 ? 0 : dur > CP_T_MAX ? CP_T_MAX : dur);
}

static int64_t sat_add(int64_t a, int64_t b) /* a, b >= 0 */
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static void drop(struct cp *c, const struct cev *e)
{
	c->over++;
	if (e->step >= 0)
		c->step_over[e->step] = 1;
}

/*
 * Over the budget, the latest steps go: a step limit (cutoff) is lowered until at least a
 * quarter of the events held are freed; the CPU events of the steps at or past it and the
 * activities past it (an activity may still be its previous step's: its step is set by its
 * launch later) are dropped, and those steps left out.
 */
static void evict(struct cp *c, size_t nslots)
{
	size_t *cpu = pr_xcalloc(nslots, sizeof(*cpu)), *act = pr_xcalloc(nslots, sizeof(*act));
	size_t i, j, freed = 0;
	int32_t hi = c->cutoff;
	for (i = 0; i < c->n; i++)
		(c->ev[i].kind == EV_ACT ? act : cpu)[c->ev[i].step]++;
	while (hi > 0 && freed < c->n / 4 + 1) {
		hi--;
		freed += cpu[hi] + ((size_t)hi + 1 < nslots ? act[hi + 1] : 0);
	}
	c->cutoff = hi;
	for (i = j = 0; i < c->n; i++) {
		const struct cev *e = &c->ev[i];
		if (e->step > hi || (e->step == hi && e->kind != EV_ACT))
			drop(c, e);
		else
			c->ev[j++] = *e;
	}
	c->n = j;
	free(cpu);
	free(act);
}

/* Keeps an event (its step >= 0) unless past the budget (the cutoff, then the count). */
static void keep(struct cp *c, const struct cev *e, size_t nslots)
{
	int late = e->kind == EV_ACT ? e->step > c->cutoff : e->step >= c->cutoff;
	if (!late && c->n >= pr_critpath_max_events && c->ctx->nsteps && !c->win) {
		evict(c, nslots);
		late = e->kind == EV_ACT ? e->step > c->cutoff : e->step >= c->cutoff;
	}
	if (late || c->n >= pr_critpath_max_events) {
		drop(c, e);
		return;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		if (c->cap > pr_critpath_max_events)
			c->cap = pr_critpath_max_events;
		c->ev = pr_xreallocarray(c->ev, c->cap, sizeof(*c->ev));
	}
	c->ev[c->n++] = *e;
}

/* The step holding ts (CPU events); for an activity (after: 1), the last step started by ts
 * (its launch may be in a step that ended before it ran); 0 without steps; -1: none. With an
 * annotation window: 0 for a CPU event starting in it, or an activity starting from its start
 * (an unlinked one is dropped after linking, as HTA keeps the launched ones only). */
static int32_t step_of(const struct cp *c, int64_t ts, int after)
{
	const struct pr_actx *ctx = c->ctx;
	size_t lo = 0, hi = ctx->nsteps;
	if (c->win)
		return ts >= c->win_ts && (after || ts <= c->win_end) ? 0 : -1;
	if (!ctx->nsteps)
		return 0;
	if (!after)
		return (int32_t)pr_actx_step_index(ctx, ts);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ctx->steps[mid].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (int32_t)lo - 1;
}

/* A CPU event (op or annotation) for the steps. */
static void add_cpu(struct cp *c, int64_t track, int64_t name, int64_t ts, int64_t dur,
		    size_t nslots)
{
	struct cev e = { 0 };
	e.track = track_index(c, track);
	e.name = name;
	e.ts = clamp_t(ts);
	e.end = end_of(e.ts, dur);
	e.corr = NONE;
	e.link = -1;
	e.kind = EV_OP;
	e.step = step_of(c, e.ts, 0);
	if (e.step >= 0)
		keep(c, &e, nslots);
}

struct host_arg {
	struct cp *c;
	size_t nslots;
};

static int host_event(void *arg, const struct pr_gpuhost *h)
{
	struct host_arg *a = arg;
	add_cpu(a->c, h->track, h->name, h->ts, h->dur, a->nslots);
	return 0;
}

static int read_events(struct cp *c, struct pr_error *err)
{
	struct pr_actx *ctx = c->ctx;
	struct pr_gpuscan *gs = pr_gpuscan_get(ctx, err);
	struct pr_gpuread *rd;
	const struct pr_gpurow *r;
	sqlite3_stmt *st;
	size_t nslots = ctx->nsteps && !c->win ? ctx->nsteps : 1;
	int rc, cl;
	int64_t sv;
	if (!gs)
		return -1;
	if (!gs->nkind[PR_GK_KERNEL] && !gs->nkind[PR_GK_MEMCPY] && !gs->nkind[PR_GK_MEMSET])
		return 0; /* no device activity: no section, nothing read */
	if (!(rd = pr_gpuscan_open(ctx, gs, 0, err)))
		return -1;
	while ((r = pr_gpuread_next(rd))) {
		struct cev e = { 0 };
		if (r->kind != PR_GK_RUNTIME && r->kind != PR_GK_KERNEL &&
		    r->kind != PR_GK_MEMCPY && r->kind != PR_GK_MEMSET)
			continue;
		e.ts = clamp_t(r->ts);
		e.end = end_of(e.ts, r->dur);
		e.name = r->name;
		e.corr = pr_gpurow_corr_link(r);
		e.track = track_index(c, gs->tracks[r->track]);
		e.link = -1;
		e.kind = r->kind == PR_GK_RUNTIME ? EV_RT : EV_ACT;
		if (cls_of(c, e.kind == EV_RT ? &c->rt_cls : &c->k_cls, r->name, e.kind == EV_RT,
			   &cl, err)) {
			pr_gpuread_close(rd, NULL);
			return -1;
		}
		e.cls = (uint8_t)cl;
		if (e.kind == EV_ACT && r->u.act.stream != PR_GPU_NO_STREAM &&
		    !pr_imap_get(&c->stream_trk, r->u.act.stream, &sv))
			pr_imap_put(&c->stream_trk, r->u.act.stream, (int64_t)e.track);
		/* an activity's step is its call's (set when linked), else its start's */
		e.step = step_of(c, e.ts, e.kind == EV_ACT);
		if (e.step >= 0)
			keep(c, &e, nslots);
	}
	if (pr_gpuread_close(rd, err))
		return -1;
	if (gs->host_on) { /* the ops and annotations from the shared pass (gpuscan.h) */
		struct host_arg ha = { c, nslots };
		return pr_gpuscan_hosts(gs, host_event, &ha, err);
	}
	if (pr_actx_prep(ctx,
			 "SELECT track_id, name_id, ts, dur FROM span "
			 "WHERE run_id = ?1 AND kind IN ('op', 'phase')",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		add_cpu(c, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
			sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3), nslots);
	return pr_actx_done(ctx, st, rc, err);
}

/* Links each activity to the first kept call of its correlation; its step becomes the call's;
 * m gets correlation -> that call. */
static void link_events(struct cp *c, struct pr_imap *m_out)
{
	struct pr_imap m = { 0 };
	size_t i;
	int64_t v;
	for (i = 0; i < c->n; i++)
		if (c->ev[i].kind == EV_RT && c->ev[i].corr != NONE &&
		    !pr_imap_get(&m, c->ev[i].corr, &v))
			pr_imap_put(&m, c->ev[i].corr, (int64_t)i);
	for (i = 0; i < c->n; i++) {
		struct cev *e = &c->ev[i];
		if (e->kind != EV_ACT || e->corr == NONE || !pr_imap_get(&m, e->corr, &v))
			continue;
		e->link = (int32_t)v;
		e->step = c->ev[v].step;
		if (c->ev[v].link < 0)
			c->ev[v].link = (int32_t)i;
		if (c->ev[v].cls == RT_OTHER)
			c->ev[v].cls = RT_LAUNCH; /* it put work on the device */
	}
	*m_out = m;
}

static const struct cev *g_ev; /* qsort's comparisons (the analysis runs on one thread) */

/* launched activities by (stream track, their call's start, index) */
static int cmp_launch(const void *pa, const void *pb)
{
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct cev *a = &g_ev[ia], *b = &g_ev[ib];
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (g_ev[a->link].ts != g_ev[b->link].ts)
		return g_ev[a->link].ts < g_ev[b->link].ts ? -1 : 1;
	return ia < ib ? -1 : (ia > ib);
}

/* The first of la[0..n) at or past (track, call start t): its position. */
static size_t launch_lb(const struct cp *c, const uint32_t *la, size_t n, uint32_t track, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cev *e = &c->ev[la[mid]];
		if (e->track < track || (e->track == track && c->ev[e->link].ts < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The last activity put on stream track wtrk by a call that started before t (-1: none). */
static int32_t launched_before(const struct cp *c, const uint32_t *la, size_t n, uint32_t wtrk,
			       int64_t t)
{
	size_t p = launch_lb(c, la, n, wtrk, t);
	return p > 0 && c->ev[la[p - 1]].track == wtrk ? (int32_t)la[p - 1] : -1;
}

/*
 * Kineto's synchronisation records (category cuda_sync, recorded by newer PyTorch on the stream
 * that waits or syncs; "correlation" names the runtime call): "Stream Wait Event" (stream S
 * waits on "wait_on_stream" W): the first activity put on S after the cudaStreamWaitEvent call
 * by its thread waited for the event's work: the last activity put on W before the
 * cudaEventRecord call named by "wait_on_cuda_event_record_corr_id" (event_record), or without
 * that arg (older Kineto: "wait_on_cuda_event_id" only) before the wait call (wait_on_stream:
 * the latest the event can cover). "Event Sync" (cudaEventSynchronize): the same activity is
 * the one the call awaited; "Stream Sync" (cudaStreamSynchronize): an activity of S. Read only
 * when a sync or wait call was and the store has the category's name (one scan of the run's
 * spans otherwise avoided); the records' streams are matched by the activities' "stream".
 */
static int read_waits(struct cp *c, const struct pr_imap *corr_call, struct pr_error *err)
{
	struct pr_actx *ctx = c->ctx;
	sqlite3_stmt *st;
	uint32_t *la;
	size_t i, n = 0;
	int rc;
	if (!c->want_sync)
		return 0;
	/* no record in the store (most traces): no scan of the run's spans */
	if (pr_actx_prep(ctx, "SELECT 1 FROM string WHERE value = 'cuda_sync' AND ?1 IS NOT NULL",
			 &st, err))
		return -1;
	rc = sqlite3_step(st);
	if (pr_actx_done(ctx, st, rc, err))
		return -1;
	if (rc != SQLITE_ROW)
		return 0;
	la = pr_xreallocarray(NULL, c->n ? c->n : 1, sizeof(*la));
	for (i = 0; i < c->n; i++)
		if (c->ev[i].kind == EV_ACT && c->ev[i].link >= 0)
			la[n++] = (uint32_t)i;
	g_ev = c->ev;
	if (n > 1)
		qsort(la, n, sizeof(*la), cmp_launch);
	if (pr_actx_prep(ctx,
			 "SELECT name, json_extract(args, '$.correlation'), "
			 "json_extract(args, '$.stream'), json_extract(args, '$.wait_on_stream'), "
			 "json_extract(args, '$.wait_on_cuda_event_record_corr_id') "
			 "FROM span_v WHERE run_id = ?1 AND kind = 'slice' AND cat = 'cuda_sync' "
			 "ORDER BY id",
			 &st, err)) {
		free(la);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *nm = pr_actx_text(st, 0);
		int wait = !strcmp(nm, "Stream Wait Event"), esync = !strcmp(nm, "Event Sync");
		int64_t call, v, dtrk, wtrk, rec = NONE;
		int32_t src = -1;
		int method = W_STREAM;
		if (wait)
			c->has_waits = 1;
		if (sqlite3_column_type(st, 1) != SQLITE_INTEGER ||
		    !pr_imap_get(corr_call, sqlite3_column_int64(st, 1), &call)) {
			c->wait_unmatched += wait; /* its call is not held (the budget) */
			continue;
		}
		if (!strcmp(nm, "Stream Sync")) {
			if (sqlite3_column_type(st, 2) == SQLITE_INTEGER &&
			    pr_imap_get(&c->stream_trk, sqlite3_column_int64(st, 2), &dtrk))
				pr_imap_put(&c->sync_on, call, -(dtrk + 1));
			continue;
		}
		if ((!wait && !esync) || sqlite3_column_type(st, 3) != SQLITE_INTEGER ||
		    !pr_imap_get(&c->stream_trk, sqlite3_column_int64(st, 3), &wtrk)) {
			c->wait_unmatched += wait; /* W has no activity */
			continue;
		}
		if (sqlite3_column_type(st, 4) == SQLITE_INTEGER) {
			if (!pr_imap_get(corr_call, sqlite3_column_int64(st, 4), &v)) {
				c->wait_unmatched += wait;
				continue;
			}
			rec = c->ev[v].ts;
			method = W_RECORD;
		}
		src = launched_before(c, la, n, (uint32_t)wtrk, rec != NONE ? rec : c->ev[call].ts);
		if (src < 0) {
			c->wait_unmatched += wait;
			continue;
		}
		if (esync) {
			pr_imap_put(&c->sync_on, call, src);
			continue;
		}
		/* the waiting stream: the one the call's next launch from its thread went to */
		if (sqlite3_column_type(st, 2) != SQLITE_INTEGER ||
		    !pr_imap_get(&c->stream_trk, sqlite3_column_int64(st, 2), &dtrk)) {
			c->wait_unmatched++;
			continue;
		}
		for (i = launch_lb(c, la, n, (uint32_t)dtrk, c->ev[call].ts + 1); i < n; i++) {
			const struct cev *k = &c->ev[la[i]];
			if (k->track != (uint32_t)dtrk)
				break;
			if (c->ev[k->link].track == c->ev[call].track)
				break;
		}
		if (i == n || c->ev[la[i]].track != (uint32_t)dtrk ||
		    c->ev[la[i]].track == c->ev[src].track) {
			c->wait_unmatched++;
			continue;
		}
		/* several waits before one launch: the one whose work ended last */
		if (!pr_imap_get(&c->wait_src, la[i], &v) || c->ev[v / 2].end < c->ev[src].end)
			pr_imap_put(&c->wait_src, la[i], 2 * (int64_t)src + method);
		c->nwaits[method]++;
	}
	free(la);
	return pr_actx_done(ctx, st, rc, err);
}

static int cmp_idx(const void *pa, const void *pb)
{
	const struct cev *a = &g_ev[*(const uint32_t *)pa], *b = &g_ev[*(const uint32_t *)pb];
	int ga = a->kind == EV_ACT, gb = b->kind == EV_ACT;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	if (ga != gb)
		return ga - gb;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1; /* outer first */
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

static int cmp_end(const void *pa, const void *pb)
{
	const struct cev *a = &g_ev[*(const uint32_t *)pa], *b = &g_ev[*(const uint32_t *)pb];
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

static void seg_add(struct cp *c, int64_t a, int64_t b, int32_t owner)
{
	if (b <= a)
		return;
	if (c->nsegs && c->segs[c->nsegs - 1].owner == owner && c->segs[c->nsegs - 1].b == a) {
		c->segs[c->nsegs - 1].b = b;
		return;
	}
	if (c->nsegs == c->capsegs) {
		c->capsegs = c->capsegs ? c->capsegs * 2 : 256;
		c->segs = pr_xreallocarray(c->segs, c->capsegs, sizeof(*c->segs));
	}
	c->segs[c->nsegs].a = a;
	c->segs[c->nsegs].b = b;
	c->segs[c->nsegs++].owner = owner;
}

/* A thread's events (sorted by start, outer first) as segments owned by the innermost open. */
static void thread_segs(struct cp *c, const uint32_t *ix, size_t n)
{
	int32_t stack[256];
	size_t depth = 0, i;
	int64_t t;
	if (!n)
		return;
	t = c->ev[ix[0]].ts;
	for (i = 0; i <= n; i++) {
		int64_t next = i < n ? c->ev[ix[i]].ts : INT64_MAX;
		/* close what ends before the next start */
		while (depth && c->ev[stack[depth - 1]].end <= next) {
			int32_t top = stack[--depth];
			seg_add(c, t, c->ev[top].end, top);
			if (c->ev[top].end > t)
				t = c->ev[top].end;
		}
		if (i == n)
			break;
		if (next > t) {
			seg_add(c, t, next, depth ? stack[depth - 1] : -1);
			t = next;
		}
		if (depth == sizeof(stack) / sizeof(stack[0]))
			continue; /* deeper than this: its time stays its parent's */
		/* a child that outlives its parent (bad nesting) is clipped to it */
		if (depth && c->ev[ix[i]].end > c->ev[stack[depth - 1]].end)
			continue;
		stack[depth++] = (int32_t)ix[i];
	}
}

static struct lane *lane_find(struct cp *c, uint32_t track, int gpu)
{
	size_t i;
	for (i = 0; i < c->nlanes; i++)
		if (c->lanes[i].track == track && c->lanes[i].gpu == gpu)
			return &c->lanes[i];
	return NULL;
}

static void tally_add(struct cp *c, int kernel, int64_t name, int64_t ns, uint8_t cls)
{
	struct tally **arr = kernel ? &c->kernels : &c->ops;
	size_t *n = kernel ? &c->nkern : &c->nops, *cap = kernel ? &c->capkern : &c->capops;
	struct pr_imap *m = kernel ? &c->kern_idx : &c->op_idx;
	int64_t v;
	if (ns <= 0)
		return;
	if (!pr_imap_get(m, name, &v)) {
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*arr = pr_xreallocarray(*arr, *cap, sizeof(**arr));
		}
		v = (int64_t)(*n)++;
		(*arr)[v].key = name;
		(*arr)[v].ns = 0;
		(*arr)[v].cls = cls;
		pr_imap_put(m, name, v);
	}
	(*arr)[v].ns = sat_add((*arr)[v].ns, ns);
}

/* One segment of the path: its class, the event it is charged to (-1: none), its time. */
static void charge(struct cp *c, int64_t *comp, int cat, int32_t owner, int64_t ns)
{
	if (ns <= 0)
		return;
	comp[cat] += ns;
	if (owner < 0)
		return;
	if (cat == C_KCOMP || cat == C_KCOMM || cat == C_KMEM)
		tally_add(c, 1, c->ev[owner].name, ns, (uint8_t)(cat - C_KCOMP));
	else
		tally_add(c, 0, c->ev[owner].name, ns, 0);
}

static int cpu_cat(const struct cev *e)
{
	if (e->kind == EV_OP)
		return C_CPU;
	if (e->cls == RT_SYNC || (e->cls == RT_MEMCPY && e->link < 0))
		return C_SYNC;
	if (e->cls == RT_LAUNCH || e->link >= 0)
		return C_LAUNCH;
	return C_CPU;
}

/* The activity a blocking call at [ts, end] waited for (-1: none ended within it). */
static int32_t awaited(struct cp *c, int32_t call)
{
	const struct cev *e = &c->ev[call];
	size_t lo = 0, hi = c->nby_end;
	int64_t on = 0;
	if (e->cls == RT_MEMCPY) {
		const struct cev *a = e->link >= 0 ? &c->ev[e->link] : NULL;
		return a && a->end > e->ts && a->end <= e->end ? e->link : -1;
	}
	if (pr_imap_get(&c->sync_on, call, &on) && on >= 0) { /* Event Sync: the event's work */
		const struct cev *a = &c->ev[on];
		return a->step == e->step && a->end > e->ts && a->end <= e->end ? (int32_t)on : -1;
	}
	while (lo < hi) { /* the last activity ending at or before the call's end */
		size_t mid = lo + (hi - lo) / 2;
		if (c->ev[c->by_end[mid]].end <= e->end)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo > 0 && c->ev[c->by_end[lo - 1]].end > e->ts; lo--)
		if (on >= 0 || c->ev[c->by_end[lo - 1]].track == (uint32_t)(-on - 1))
			return (int32_t)c->by_end[lo - 1]; /* Stream Sync: the last of its stream */
	return -1;
}

/*
 * An activity k starting at t that was free to start earlier (its launching call had returned
 * and its stream's previous activity ended by `ready`, more than CP_XSTREAM_NS before t) waited
 * for something the trace does not link (cudaStreamWaitEvent's event, a dependency between
 * streams): the activity of another stream of the step that ended last in (ready, t], if it
 * ended within CP_XSTREAM_NS of t. -1: none (or k is unlinked).
 */
static int32_t waited_stream(struct cp *c, const struct cev *k, int64_t pend, int64_t t)
{
	int64_t ready = pend;
	size_t lo = 0, hi = c->nby_end;
	if (k->link < 0 || c->ev[k->link].step != k->step)
		return -1;
	if (c->ev[k->link].end > ready)
		ready = c->ev[k->link].end;
	if (t - ready <= CP_XSTREAM_NS)
		return -1;
	while (lo < hi) { /* the last activity ending at or before t */
		size_t mid = lo + (hi - lo) / 2;
		if (c->ev[c->by_end[mid]].end <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		const struct cev *w = &c->ev[c->by_end[lo - 1]];
		if (w->end <= ready || t - w->end > CP_XSTREAM_NS)
			return -1;
		if (w->track != k->track)
			return (int32_t)c->by_end[lo - 1];
		lo--;
	}
	return -1;
}

/* The last of first[0..n) (by key) strictly before t: its position, or -1. */
static long last_before_seg(const struct seg *s, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s[mid].a < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

static long last_act_before(const struct cp *c, const uint32_t *ix, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->ev[ix[mid]].ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/*
 * The walk back from (lane, t) to the step's start s0; comp gets each class's time.
 */
static void walk(struct cp *c, struct lane *ln, int64_t t, int64_t s0, int64_t *comp,
		 int64_t *waits)
{
	size_t guard = 4 * c->nidx + 4 * c->nsegs + 64;
	while (t > s0 && ln && guard--) {
		if (!ln->gpu) {
			const struct seg *sg = c->segs + ln->first;
			long j = last_before_seg(sg, ln->n, t);
			int32_t o, w;
			int64_t a;
			if (j < 0)
				break;
			if (sg[j].b < t) { /* past the thread's last event */
				charge(c, comp, C_IDLE, -1, t - (sg[j].b > s0 ? sg[j].b : s0));
				t = sg[j].b;
				continue;
			}
			o = sg[j].owner;
			if (o >= 0 && t == c->ev[o].end && c->ev[o].kind == EV_RT &&
			    (c->ev[o].cls == RT_SYNC || c->ev[o].cls == RT_MEMCPY) &&
			    (w = awaited(c, o)) >= 0) {
				int64_t we = c->ev[w].end > s0 ? c->ev[w].end : s0;
				charge(c, comp, C_SYNC, o, t - we);
				t = we;
				ln = lane_find(c, c->ev[w].track, 1);
				continue;
			}
			a = sg[j].a > s0 ? sg[j].a : s0;
			charge(c, comp, o < 0 ? C_IDLE : cpu_cat(&c->ev[o]), o, t - a);
			t = a;
		} else {
			const uint32_t *ix = c->idx + ln->first;
			long j = last_act_before(c, ix, ln->n, t);
			const struct cev *k;
			int64_t a, pend = INT64_MIN, lt = INT64_MIN, wv;
			int32_t w;
			if (j < 0)
				break;
			k = &c->ev[ix[j]];
			if (k->end < t) {
				charge(c, comp, C_IDLE, -1, t - (k->end > s0 ? k->end : s0));
				t = k->end;
				continue;
			}
			a = k->ts > s0 ? k->ts : s0;
			charge(c, comp, C_KCOMP + k->cls, (int32_t)ix[j], t - a);
			t = a;
			if (t <= s0)
				break;
			if (j > 0)
				pend = c->ev[ix[j - 1]].end < t ? c->ev[ix[j - 1]].end : t;
			if (k->link >= 0 && c->ev[k->link].step == k->step)
				lt = c->ev[k->link].ts < t ? c->ev[k->link].ts : t;
			if (pr_imap_get(&c->wait_src, ix[j], &wv) &&
			    c->ev[wv / 2].step == k->step && c->ev[wv / 2].end <= t &&
			    c->ev[wv / 2].end > pend && c->ev[wv / 2].end >= lt) {
				/* the trace's handles: it waited for that activity (read_waits) */
				int64_t we = c->ev[wv / 2].end > s0 ? c->ev[wv / 2].end : s0;
				charge(c, comp, C_SYNC, -1, t - we);
				waits[wv % 2]++;
				t = we;
				ln = lane_find(c, c->ev[wv / 2].track, 1);
			} else if (!c->has_waits && (w = waited_stream(c, k, pend, t)) >= 0) {
				/* it was free to start: it waited for another stream */
				int64_t we = c->ev[w].end > s0 ? c->ev[w].end : s0;
				charge(c, comp, C_SYNC, -1, t - we);
				waits[W_INFERRED]++;
				t = we;
				ln = lane_find(c, c->ev[w].track, 1);
			} else if (lt != INT64_MIN && lt > pend) {
				int64_t l0 = lt > s0 ? lt : s0;
				charge(c, comp, C_LAUNCH, k->link, t - l0);
				t = l0;
				ln = lane_find(c, c->ev[k->link].track, 0);
			} else if (pend == INT64_MIN) {
				break;
			}
		}
	}
	if (t > s0)
		charge(c, comp, C_IDLE, -1, t - s0);
}

static json_t *comp_json(const int64_t *comp)
{
	json_t *o = json_object();
	int i;
	for (i = 0; i < C_N; i++)
		json_object_set_new(o, cat_names[i], pr_jint(comp[i]));
	return o;
}

/* cross-stream waits on the path, by how each was found */
static json_t *waits_json(const int64_t *waits)
{
	json_t *o = json_object();
	int i;
	for (i = 0; i < W_N; i++)
		json_object_set_new(o, wait_names[i], pr_jint(waits[i]));
	return o;
}

static int cmp_tally(const void *pa, const void *pb)
{
	const struct tally *a = pa, *b = pb;
	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return a->key < b->key ? -1 : (a->key > b->key);
}

/* The step's thread: the index of its span's track (-1: none of the events' tracks). */
static int step_track(struct cp *c, int64_t span_id, int64_t *track, struct pr_error *err)
{
	sqlite3_stmt *st;
	int64_t v;
	int rc;
	*track = NONE;
	if (pr_actx_prep(c->ctx, "SELECT track_id FROM span WHERE run_id = ?1 AND id = ?2", &st,
			 err))
		return -1;
	sqlite3_bind_int64(st, 2, span_id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW &&
	    pr_imap_get(&c->track_idx, sqlite3_column_int64(st, 0), &v))
		*track = v;
	return pr_actx_done(c->ctx, st, rc, err);
}

/* Builds and walks one step's graph from its events c->idx[0..nidx). */
static int one_step(struct cp *c, long s, json_t *steps, size_t *nsteps, struct pr_error *err)
{
	struct pr_actx *ctx = c->ctx;
	int64_t s0, s1, comp[C_N] = { 0 }, sink_t, track = NONE, waits[W_N] = { 0 };
	struct lane *sink = NULL;
	size_t i, j;
	int32_t last_act = -1;
	c->nsegs = c->nlanes = c->nby_end = 0;
	for (i = 0; i < c->nidx; i = j) {
		const struct cev *e = &c->ev[c->idx[i]];
		int gpu = e->kind == EV_ACT;
		struct lane *ln;
		for (j = i + 1; j < c->nidx; j++) {
			const struct cev *f = &c->ev[c->idx[j]];
			if (f->track != e->track || (f->kind == EV_ACT) != gpu)
				break;
		}
		if (c->nlanes == c->caplanes) {
			c->caplanes = c->caplanes ? c->caplanes * 2 : 16;
			c->lanes = pr_xreallocarray(c->lanes, c->caplanes, sizeof(*c->lanes));
		}
		ln = &c->lanes[c->nlanes++];
		ln->track = e->track;
		ln->gpu = gpu;
		if (gpu) {
			ln->first = i;
			ln->n = j - i;
		} else {
			ln->first = c->nsegs;
			thread_segs(c, c->idx + i, j - i);
			ln->n = c->nsegs - ln->first;
		}
	}
	c->by_end = pr_xreallocarray(c->by_end, c->nidx ? c->nidx : 1, sizeof(*c->by_end));
	for (i = 0; i < c->nidx; i++)
		if (c->ev[c->idx[i]].kind == EV_ACT)
			c->by_end[c->nby_end++] = c->idx[i];
	g_ev = c->ev;
	if (c->nby_end > 1) /* qsort(NULL, 0) is undefined */
		qsort(c->by_end, c->nby_end, sizeof(*c->by_end), cmp_end);
	if (c->nby_end)
		last_act = (int32_t)c->by_end[c->nby_end - 1];
	if (c->win) {
		int64_t v;
		s0 = c->win_ts;
		s1 = c->win_end;
		if (pr_imap_get(&c->track_idx, c->win_track, &v))
			track = v;
	} else if (ctx->nsteps) {
		s0 = clamp_t(ctx->steps[s].ts);
		s1 = end_of(s0, ctx->steps[s].dur);
		if (step_track(c, ctx->steps[s].id, &track, err))
			return -1;
	} else {
		s0 = INT64_MAX;
		s1 = INT64_MIN;
		for (i = 0; i < c->nidx; i++) {
			const struct cev *e = &c->ev[c->idx[i]];
			if (e->ts < s0)
				s0 = e->ts;
			if (e->end > s1 && e->kind != EV_ACT) {
				s1 = e->end;
				track = e->track;
			}
		}
	}
	if (last_act >= 0 && c->ev[last_act].end > s1) {
		sink_t = c->ev[last_act].end;
		sink = lane_find(c, c->ev[last_act].track, 1);
	} else {
		sink_t = s1;
		sink = track == NONE ? NULL : lane_find(c, (uint32_t)track, 0);
	}
	if (sink_t <= s0)
		return 0;
	if (!ctx->nsteps && !c->win)
		s1 = sink_t; /* the trace's extent: from its first event's start to its last end */
	walk(c, sink, sink_t, s0, comp, waits);
	for (i = 0; i < W_N; i++)
		c->waits[i] += waits[i];
	for (i = 0; i < C_N; i++)
		c->comp[i] = sat_add(c->comp[i], comp[i]);
	c->length = sat_add(c->length, sink_t - s0);
	if (*nsteps < CP_STEPS_CAP) {
		const char *nm = c->win	       ? c->win_name
				 : ctx->nsteps ? ctx->steps[s].name
					       : "(trace)";
		json_t *o =
			pr_jobj("name", json_string(nm), "t_ns", pr_actx_t(ctx, s0), "length_ns",
				pr_jint(sink_t - s0), "span_ns", pr_jint(s1 - s0), "composition_ns",
				comp_json(comp), "waits", waits_json(waits), NULL);
		json_array_append_new(steps, o);
	}
	(*nsteps)++;
	return 0;
}

static json_t *top_json(struct cp *c, struct tally *arr, size_t n, int kernel, struct pr_error *err)
{
	json_t *out = json_array();
	size_t i;
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(arr, n, sizeof(*arr), cmp_tally);
	for (i = 0; i < n && i < CP_TOP; i++) {
		const char *s = name_text(c, arr[i].key, err);
		json_t *o;
		if (!s) {
			json_decref(out);
			return NULL;
		}
		o = pr_jobj("name", json_string(s), "ns", pr_jint(arr[i].ns), "share",
			    pr_jnum(c->length > 0 ? (double)arr[i].ns / (double)c->length : 0),
			    NULL);
		if (kernel)
			json_object_set_new(o, "class", json_string(pr_kclass_names[arr[i].cls]));
		json_array_append_new(out, o);
	}
	return out;
}

static int analyse(struct cp *c, struct pr_error *err)
{
	struct pr_actx *ctx = c->ctx;
	json_t *sec, *steps, *ops, *kern;
	size_t i, j, nacts = 0, nsteps = 0, skipped = 0;
	size_t nstep_slots = ctx->nsteps && !c->win ? ctx->nsteps : 1;
	uint32_t *all;
	struct pr_imap corr_call = { 0 };
	c->step_over = pr_xcalloc(nstep_slots, 1);
	c->cutoff = (int32_t)nstep_slots;
	if (read_events(c, err))
		return -1;
	for (i = 0; i < c->n; i++)
		nacts += c->ev[i].kind == EV_ACT;
	if (!nacts && !c->over)
		return 0; /* no device activity: no section */
	link_events(c, &corr_call);
	for (i = 0; c->win && i < c->n; i++)
		if (c->ev[i].kind == EV_ACT && c->ev[i].link < 0)
			c->ev[i].step = -1; /* a window keeps the activities launched in it */
	if (read_waits(c, &corr_call, err)) {
		pr_imap_release(&corr_call);
		return -1;
	}
	pr_imap_release(&corr_call);
	all = pr_xreallocarray(NULL, c->n ? c->n : 1, sizeof(*all));
	for (i = j = 0; i < c->n; i++)
		if (c->ev[i].step >= 0 && !c->step_over[c->ev[i].step])
			all[j++] = (uint32_t)i;
	g_ev = c->ev;
	if (j > 1) /* qsort(NULL, 0) is undefined */
		qsort(all, j, sizeof(*all), cmp_idx);
	steps = json_array();
	for (i = 0; i < j;) {
		size_t k = i;
		int32_t s = c->ev[all[i]].step;
		while (k < j && c->ev[all[k]].step == s)
			k++;
		c->idx = all + i;
		c->nidx = k - i;
		if (one_step(c, s, steps, &nsteps, err)) {
			free(all);
			json_decref(steps);
			return -1;
		}
		i = k;
	}
	c->idx = NULL;
	free(all);
	for (i = 0; i < nstep_slots; i++)
		skipped += c->step_over[i];
	ops = top_json(c, c->ops, c->nops, 0, err);
	kern = ops ? top_json(c, c->kernels, c->nkern, 1, err) : NULL;
	if (!kern) {
		json_decref(ops);
		json_decref(steps);
		return -1;
	}
	sec = pr_jobj("scope",
		      json_string(c->win	? "annotation"
				  : ctx->nsteps ? "steps"
						: "trace"),
		      "steps_analysed", pr_jint((int64_t)nsteps), "steps_over_budget",
		      pr_jint((int64_t)skipped), "events", pr_jint((int64_t)c->n), "events_budget",
		      pr_jint((int64_t)pr_critpath_max_events), "events_over_budget",
		      pr_jint((int64_t)c->over), "length_ns", pr_jint(c->length), "composition_ns",
		      comp_json(c->comp), "steps", steps, "top_ops", ops, "top_kernels", kern,
		      NULL);
	if (c->win)
		json_object_set_new(sec, "window",
				    pr_jobj("annotation",
					    json_string(ctx->opts->critpath_annotation), "name",
					    json_string(c->win_name), "instance",
					    pr_jint(c->win_instance), "last_instance",
					    pr_jint(c->win_last), "t_ns", pr_actx_t(ctx, c->win_ts),
					    "dur_ns", pr_jint(c->win_end - c->win_ts), NULL));
	json_object_set_new(sec, "stream_waits",
			    pr_jobj("rule", json_string(c->has_waits ? "handles" : "inferred"),
				    "event_record", pr_jint((int64_t)c->nwaits[W_RECORD]),
				    "wait_on_stream", pr_jint((int64_t)c->nwaits[W_STREAM]),
				    "unmatched", pr_jint((int64_t)c->wait_unmatched), "on_path",
				    waits_json(c->waits), NULL));
	json_object_set_new(ctx->out, "critical_path", sec);
	ctx->critpath_over = c->over;
	ctx->critpath_over_steps = skipped;
	return 0;
}

/* "N" or "A-B" (digits, A <= B, at most 9 each): 0 and the range, else -1 */
static int parse_instances(const char *s, int64_t *a, int64_t *b)
{
	size_t n = strspn(s, "0123456789"), m;
	if (!n || n > 9)
		return -1;
	*a = *b = atol(s);
	if (!s[n])
		return 0;
	if (s[n] != '-' || !(m = strspn(s + n + 1, "0123456789")) || m > 9 || s[n + 1 + m])
		return -1;
	*b = atol(s + n + 1);
	return *b >= *a ? 0 : -1;
}

/*
 * --critpath-annotation NAME[:N | :A-B] (HTA's critical_path_analysis(annotation, instance_id),
 * an int or an inclusive range): the window runs from the start of the N-th (A-th) op,
 * annotation or step span whose name contains NAME (from 0, by start, then id) to the latest end
 * of the instances in the range; the suffix is the text after the last ':' when it reads as
 * instances (else the whole is the name, instance 0). Its CPU events are those starting in it,
 * its activities those their calls launched.
 */
static int find_window(struct cp *c, const char *spec, struct pr_error *err)
{
	const char *colon = strrchr(spec, ':');
	size_t nlen = strlen(spec);
	int64_t last = 0, got = 0;
	sqlite3_stmt *st;
	int rc;
	c->win_instance = 0;
	if (colon && !parse_instances(colon + 1, &c->win_instance, &last))
		nlen = (size_t)(colon - spec);
	else
		c->win_instance = last = 0;
	if (pr_actx_prep(c->ctx,
			 "SELECT s.track_id, s.ts, s.dur, n.value FROM span s "
			 "JOIN string n ON n.id = s.name_id WHERE s.run_id = ?1 "
			 "AND s.kind IN ('op', 'phase', 'step') AND instr(n.value, ?2) > 0 "
			 "ORDER BY s.ts, s.id LIMIT ?4 OFFSET ?3",
			 &st, err))
		return -1;
	sqlite3_bind_text(st, 2, spec, (int)nlen, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, c->win_instance);
	sqlite3_bind_int64(st, 4, last - c->win_instance + 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t ts = clamp_t(sqlite3_column_int64(st, 1));
		int64_t end = end_of(ts, sqlite3_column_int64(st, 2));
		if (!got++) {
			c->win_track = sqlite3_column_int64(st, 0);
			c->win_ts = ts;
			c->win_end = end;
			c->win_name = pr_xstrdup(pr_actx_text(st, 3));
		} else if (end > c->win_end) {
			c->win_end = end;
		}
	}
	if (pr_actx_done(c->ctx, st, rc, err))
		return -1;
	if (!got)
		return pr_error_set(
			err, PR_E_USAGE,
			"--critpath-annotation '%s': run %lld has no span %lld whose name "
			"contains '%.*s' (instances count from 0)",
			spec, (long long)c->ctx->run, (long long)c->win_instance, (int)nlen, spec);
	if (got != last - c->win_instance + 1)
		return pr_error_set(err, PR_E_USAGE,
				    "--critpath-annotation '%s': run %lld has spans whose name "
				    "contains '%.*s' only up to instance %lld",
				    spec, (long long)c->ctx->run, (int)nlen, spec,
				    (long long)(c->win_instance + got - 1));
	c->win = 1;
	c->win_last = last;
	return 0;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct cp c;
	int ret;
	memset(&c, 0, sizeof(c));
	c.ctx = ctx;
	if (ctx->opts->critpath_annotation &&
	    find_window(&c, ctx->opts->critpath_annotation, err)) {
		free(c.win_name); /* the first instance's name, when a later one is missing */
		return -1;
	}
	if (pr_kclassify_init(&c.kc, ctx->meta, ctx->opts->comm_kernels, err)) {
		free(c.win_name);
		return -1;
	}
	ret = analyse(&c, err);
	sqlite3_finalize(c.name_st);
	pr_kclassify_release(&c.kc);
	pr_imap_release(&c.rt_cls);
	pr_imap_release(&c.k_cls);
	pr_imap_release(&c.track_idx);
	pr_imap_release(&c.op_idx);
	pr_imap_release(&c.kern_idx);
	pr_imap_release(&c.stream_trk);
	pr_imap_release(&c.wait_src);
	pr_imap_release(&c.sync_on);
	free(c.ev);
	free(c.step_over);
	free(c.segs);
	free(c.lanes);
	free(c.by_end);
	free(c.win_name);
	free(c.ops);
	free(c.kernels);
	return ret;
}

const struct pr_analyzer pr_an_critpath = {
	"critical_path",
	"per step, the chain of CPU ops, launches, kernels and syncs that set its length",
	run,
	PR_STAGE_GPU_PATH,
};
