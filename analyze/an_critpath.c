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
 *   - between streams (inferred, no event handle being traced): an activity
 *     that started more than 10 us after it was free to (its call had
 *     returned, its stream's previous activity had ended) and within 10 us
 *     of the end of another stream's activity waited for that one;
 *   - synchronisation: a blocking call (cuda/hip DeviceSynchronize,
 *     StreamSynchronize, EventSynchronize: the device activity of the step
 *     that ended last within the call; Memcpy, MemcpyAsync: its own copy,
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
};

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
	if (!late && c->n >= pr_critpath_max_events && c->ctx->nsteps) {
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
 * (its launch may be in a step that ended before it ran); 0 without steps; -1: none. */
static int32_t step_of(const struct pr_actx *ctx, int64_t ts, int after)
{
	size_t lo = 0, hi = ctx->nsteps;
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

static int read_events(struct cp *c, struct pr_error *err)
{
	struct pr_actx *ctx = c->ctx;
	struct pr_gpuscan *gs = pr_gpuscan_get(ctx, err);
	struct pr_gpuread *rd;
	const struct pr_gpurow *r;
	sqlite3_stmt *st;
	size_t nslots = ctx->nsteps ? ctx->nsteps : 1;
	int rc, cl;
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
		/* an activity's step is its call's (set when linked), else its start's */
		e.step = step_of(ctx, e.ts, e.kind == EV_ACT);
		if (e.step >= 0)
			keep(c, &e, nslots);
	}
	if (pr_gpuread_close(rd, err))
		return -1;
	if (pr_actx_prep(ctx,
			 "SELECT track_id, name_id, ts, dur FROM span "
			 "WHERE run_id = ?1 AND kind IN ('op', 'phase')",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct cev e = { 0 };
		int64_t dur = sqlite3_column_int64(st, 3);
		e.track = track_index(c, sqlite3_column_int64(st, 0));
		e.name = sqlite3_column_int64(st, 1);
		e.ts = clamp_t(sqlite3_column_int64(st, 2));
		e.end = end_of(e.ts, dur);
		e.corr = NONE;
		e.link = -1;
		e.kind = EV_OP;
		e.step = step_of(ctx, e.ts, 0);
		if (e.step >= 0)
			keep(c, &e, nslots);
	}
	return pr_actx_done(ctx, st, rc, err);
}

/* Links each activity to the first kept call of its correlation; its step becomes the call's. */
static void link_events(struct cp *c)
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
	pr_imap_release(&m);
}

static const struct cev *g_ev; /* qsort's comparisons (the analysis runs on one thread) */

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
	if (e->cls == RT_MEMCPY) {
		const struct cev *a = e->link >= 0 ? &c->ev[e->link] : NULL;
		return a && a->end > e->ts && a->end <= e->end ? e->link : -1;
	}
	while (lo < hi) { /* the last activity ending at or before the call's end */
		size_t mid = lo + (hi - lo) / 2;
		if (c->ev[c->by_end[mid]].end <= e->end)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || c->ev[c->by_end[lo - 1]].end <= e->ts)
		return -1;
	return (int32_t)c->by_end[lo - 1];
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
static void walk(struct cp *c, struct lane *ln, int64_t t, int64_t s0, int64_t *comp)
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
			int64_t a, pend = INT64_MIN, lt = INT64_MIN;
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
			if ((w = waited_stream(c, k, pend, t)) >= 0) {
				/* it was free to start: it waited for another stream */
				int64_t we = c->ev[w].end > s0 ? c->ev[w].end : s0;
				charge(c, comp, C_SYNC, -1, t - we);
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
	int64_t s0, s1, comp[C_N] = { 0 }, sink_t, track = NONE;
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
	if (ctx->nsteps) {
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
	if (!ctx->nsteps)
		s1 = sink_t; /* the trace's extent: from its first event's start to its last end */
	walk(c, sink, sink_t, s0, comp);
	for (i = 0; i < C_N; i++)
		c->comp[i] = sat_add(c->comp[i], comp[i]);
	c->length = sat_add(c->length, sink_t - s0);
	if (*nsteps < CP_STEPS_CAP) {
		const char *nm = ctx->nsteps ? ctx->steps[s].name : "(trace)";
		json_t *o = pr_jobj("name", json_string(nm), "t_ns", pr_actx_t(ctx, s0),
				    "length_ns", pr_jint(sink_t - s0), "span_ns", pr_jint(s1 - s0),
				    "composition_ns", comp_json(comp), NULL);
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
	size_t nstep_slots = ctx->nsteps ? ctx->nsteps : 1;
	uint32_t *all;
	c->step_over = pr_xcalloc(nstep_slots, 1);
	c->cutoff = (int32_t)nstep_slots;
	if (read_events(c, err))
		return -1;
	for (i = 0; i < c->n; i++)
		nacts += c->ev[i].kind == EV_ACT;
	if (!nacts && !c->over)
		return 0; /* no device activity: no section */
	link_events(c);
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
	sec = pr_jobj("scope", json_string(ctx->nsteps ? "steps" : "trace"), "steps_analysed",
		      pr_jint((int64_t)nsteps), "steps_over_budget", pr_jint((int64_t)skipped),
		      "events", pr_jint((int64_t)c->n), "events_budget",
		      pr_jint((int64_t)pr_critpath_max_events), "events_over_budget",
		      pr_jint((int64_t)c->over), "length_ns", pr_jint(c->length), "composition_ns",
		      comp_json(c->comp), "steps", steps, "top_ops", ops, "top_kernels", kern,
		      NULL);
	json_object_set_new(ctx->out, "critical_path", sec);
	ctx->critpath_over = c->over;
	ctx->critpath_over_steps = skipped;
	return 0;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct cp c;
	int ret;
	memset(&c, 0, sizeof(c));
	c.ctx = ctx;
	if (pr_kclassify_init(&c.kc, ctx->meta, ctx->opts->comm_kernels, err))
		return -1;
	ret = analyse(&c, err);
	sqlite3_finalize(c.name_st);
	pr_kclassify_release(&c.kc);
	pr_imap_release(&c.rt_cls);
	pr_imap_release(&c.k_cls);
	pr_imap_release(&c.track_idx);
	pr_imap_release(&c.op_idx);
	pr_imap_release(&c.kern_idx);
	free(c.ev);
	free(c.step_over);
	free(c.segs);
	free(c.lanes);
	free(c.by_end);
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
