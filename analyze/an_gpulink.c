/*
 * an_gpulink.c - "gpu": the CPU linked to the GPU. Every kernel, memcpy
 * and memset (device activity of any accelerator) is attached to the
 * runtime call that launched it (same "correlation" arg; Kineto's ac2g
 * flows where an event lacks the arg) and through the call's ancestors to
 * the CPU op and user annotation above it. From the links:
 *   launches  launch latency = activity start - runtime call start (per
 *             activity) and CPU launch overhead = the call's duration (per
 *             call that launched something), overall, per runtime API and
 *             per activity type;
 *   ops       per op name TensorBoard's device self duration (activities
 *             launched by the op itself) and device total duration (by the
 *             op or any op below it), activities launched, calls and host
 *             times, the top N by device total;
 *   streams   per stream the queue length over time: activities launched
 *             (their call started) and not finished, never negative (an
 *             activity that ends before its call starts is taken to end
 *             when the call starts), time-weighted mean and max;
 *   annotations  activities per GPU user annotation (the innermost one
 *             holding the activity's start on its stream, as HTA's
 *             get_gpu_kernels_with_user_annotations) and per CPU user
 *             annotation or step (the innermost one around the launching
 *             call), with HTA's default window (events before the start of
 *             the last ProfilerStep) next to the whole trace.
 * One pass over the run's spans (in id order, no sort); the ancestors of
 * launching calls are looked up by id and remembered. Memory: one record
 * per device activity and per runtime call with a correlation, plus the
 * distinct ancestors of launching calls; names only for what is printed.
 * The section is absent when the run has no device stream.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/gpuscan.h"
#include "analyze/imap.h"
#include "analyze/stats.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "base/xsort.h"

#define NO_KEY INT64_MIN
#define API_CAP 10
#define ANN_CAP 20
#define STREAM_CAP 64
#define TYPE_CAP 16


/* ---- records ---- */

enum act_kind { AK_KERNEL, AK_MEMCPY, AK_MEMSET };

struct act { /* one device activity */
	int64_t ts, dur, corr, name_id;
	int64_t ann_ts;  /* start of its GPU annotation */
	int32_t stream;  /* index into streams */
	int32_t gpu_ann; /* its GPU annotation (index into ganns), -1 */
	int32_t call;    /* index into calls, -1 = not linked */
	uint8_t kind;
	uint8_t by_flow;
};

struct call { /* one runtime call */
	int64_t ts, dur, name_id, corr;
	int64_t above; /* the span above its parent and grandparent (0 = none), resolved into up */
	/* its parent and grandparent, from the scan (span_up): their names until the call is
	 * linked, then what they are (its memory is per call: one or the other) */
	union {
		int64_t name[2];
		struct {
			int32_t op[2];  /* an op: its name (index into ops); else -1 */
			int32_t ann[2]; /* a user annotation or step: its name (index into canns); else -1 */
		} idx;
	} anc;
	uint32_t track;      /* index into tracks */
	int32_t up;          /* node of above, -1 = none, -2 = not resolved yet */
	int32_t launched;
	uint8_t anc_kind[2]; /* 0 = other, 1 = op, 2 = user annotation or step */
	uint8_t nanc;
};

struct node { /* a distinct ancestor of the parent of a launching call */
	int32_t parent; /* node above, -1 */
	int32_t op;     /* an op: its name (index into ops); else -1 */
	int32_t ann;    /* the nearest CPU annotation at or above (index into canns), -1 */
};

struct name_stat { /* per name: ops, CPU or GPU annotations */
	int64_t name_id, count, hta_count;
	int64_t total_ns;                     /* annotations: their time */
	int64_t dev_self, dev_total, n_self, n_total; /* ops: device time and activities */
	int64_t acts, act_ns, hta_acts;       /* annotations: activities attributed */
};

struct stream {
	int64_t track;
	char *pid, *tid, *name;
	int64_t acts, linked, busy_ns;
	int64_t nk[3];
};

struct api_stat {
	int64_t name_id, calls, acts;
	double overhead, latency;
};

struct type_stat {
	char *type;
	int64_t acts, linked, device_ns;
	double latency, latency_max;
	int has_max;
};

struct gl {
	struct pr_actx *ctx;
	struct pr_imap streams_by_track;
	struct stream *streams;
	size_t nstreams;
	struct act *acts;
	size_t nacts, cap_acts;
	struct call *calls;
	size_t ncalls, cap_calls;
	int64_t *tracks; /* the calls' track ids (the shared pass's track index) */
	struct pr_imap call_by_corr; /* correlation -> index into calls */
	struct node *nodes;
	size_t nnodes, cap_nodes;
	struct pr_imap node_by_id;
	struct name_stat *ops, *canns, *ganns;
	size_t nops, ncanns, nganns;
	struct pr_imap op_by_name, cann_by_name, gann_by_name;
	int64_t window_end; /* HTA: start of the last step; INT64_MAX when < 2 steps */
	int64_t dup_corr, missing_corr;
	int64_t last_track, last_stream; /* one-entry cache of streams_by_track */
	sqlite3_stmt *up; /* ancestor lookup by id */
};

static size_t name_slot(struct pr_imap *by_name, struct name_stat **v, size_t *n, int64_t name_id)
{
	int64_t idx;
	if (pr_imap_get(by_name, name_id, &idx))
		return (size_t)idx;
	*v = pr_xreallocarray(*v, *n + 1, sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].name_id = name_id;
	pr_imap_put(by_name, name_id, (int64_t)*n);
	return (*n)++;
}

/* *acc += v for times (v >= 0), saturated: hostile durations cannot overflow a sum. */
static void add_ns(int64_t *acc, int64_t v)
{
	*acc = v > 0 && *acc > INT64_MAX - v ? INT64_MAX : *acc + v;
}

static int load_streams(struct gl *g, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (pr_actx_prep(g->ctx,
			 "SELECT id, ifnull(pid, ''), ifnull(tid, ''), ifnull(name, '') FROM track "
			 "WHERE run_id = ?1 AND kind = 'gpu_stream' ORDER BY id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct stream *s;
		g->streams = pr_xreallocarray(g->streams, g->nstreams + 1, sizeof(*g->streams));
		s = &g->streams[g->nstreams];
		memset(s, 0, sizeof(*s));
		s->track = sqlite3_column_int64(st, 0);
		s->pid = pr_xstrdup(pr_actx_text(st, 1));
		s->tid = pr_xstrdup(pr_actx_text(st, 2));
		s->name = pr_xstrdup(pr_actx_text(st, 3));
		pr_imap_put(&g->streams_by_track, s->track, (int64_t)g->nstreams++);
	}
	return pr_actx_done(g->ctx, st, rc, err);
}

static int is_ann_kind(uint8_t kind)
{
	return kind == PR_GK_PHASE || kind == PR_GK_STEP;
}

static uint8_t kind_class(uint8_t kind)
{
	return kind == PR_GK_OP ? 1 : is_ann_kind(kind) ? 2 : 0;
}

/* A runtime call with its parent and grandparent. */
static void add_call(struct gl *g, const struct pr_gpurow *r)
{
	struct call *c;
	int64_t prev;
	if (g->ncalls == g->cap_calls) {
		g->cap_calls = g->cap_calls ? g->cap_calls * 2 : 1024;
		g->calls = pr_xreallocarray(g->calls, g->cap_calls, sizeof(*g->calls));
	}
	c = &g->calls[g->ncalls];
	c->ts = r->ts;
	c->dur = r->dur;
	c->name_id = r->name;
	c->corr = pr_gpurow_corr_link(r);
	c->track = r->track;
	c->nanc = 0;
	c->above = r->u.call.above;
	c->anc.name[0] = c->anc.name[1] = 0;
	if (r->pkind != PR_GK_NONE) {
		c->anc.name[0] = r->u.call.pname;
		c->anc_kind[0] = kind_class(r->pkind);
		c->nanc = 1;
		if (r->qkind != PR_GK_NONE) {
			c->anc.name[1] = r->u.call.qname;
			c->anc_kind[1] = kind_class(r->qkind);
			c->nanc = 2;
		}
	}
	c->up = -2;
	c->launched = 0;
	if (c->corr != NO_KEY) {
		if (pr_imap_get(&g->call_by_corr, c->corr, &prev))
			g->dup_corr++; /* the first call keeps the correlation */
		else
			pr_imap_put(&g->call_by_corr, c->corr, (int64_t)g->ncalls);
	} else {
		g->missing_corr++;
	}
	g->ncalls++;
}

/*
 * The pass over the run's spans but ops and Python functions (the shared
 * scan, gpuscan.h, in id order): device activities, runtime calls, GPU and
 * CPU annotations and steps; activities and calls with their parent and
 * grandparent span (the writer nests spans per track: a kernel's parent is the GPU
 * annotation around it, a runtime call's the op or annotation that made
 * it).
 */
static int scan(struct gl *g, struct pr_error *err)
{
	struct pr_gpuscan *gs = pr_gpuscan_get(g->ctx, err);
	struct pr_gpuread *rd;
	const struct pr_gpurow *r;
	size_t nacts, ncalls;
	if (!gs)
		return -1;
	g->tracks = pr_xreallocarray(NULL, gs->ntracks + 1, sizeof(*g->tracks));
	if (gs->ntracks)
		memcpy(g->tracks, gs->tracks, gs->ntracks * sizeof(*g->tracks));
	/* the copies sized at once: growing them would hold the old and the new block together */
	nacts = gs->nkind[PR_GK_KERNEL] + gs->nkind[PR_GK_MEMCPY] + gs->nkind[PR_GK_MEMSET];
	ncalls = gs->nkind[PR_GK_RUNTIME];
	g->cap_acts = nacts ? nacts : 1;
	g->acts = pr_xreallocarray(NULL, g->cap_acts, sizeof(*g->acts));
	g->cap_calls = ncalls ? ncalls : 1;
	g->calls = pr_xreallocarray(NULL, g->cap_calls, sizeof(*g->calls));
	pr_imap_reserve(&g->call_by_corr, ncalls);
	/* the rows read back in id order, with their parents and grandparents (span_up) */
	if (!(rd = pr_gpuscan_open(g->ctx, gs, 1, err)))
		return -1;
	while ((r = pr_gpuread_next(rd))) {
		int64_t name_id = r->name, ts = r->ts, dur = r->dur;
		struct act *a;
		int64_t si;
		size_t k;
		int ak;
		switch (r->kind) {
		case PR_GK_RUNTIME:
			add_call(g, r);
			continue;
		case PR_GK_GPU_ANN:
		case PR_GK_GPU_STEP:
			k = name_slot(&g->gann_by_name, &g->ganns, &g->nganns, name_id);
			g->ganns[k].count++;
			add_ns(&g->ganns[k].total_ns, dur);
			g->ganns[k].hta_count += ts < g->window_end;
			continue;
		case PR_GK_PHASE:
		case PR_GK_STEP:
			k = name_slot(&g->cann_by_name, &g->canns, &g->ncanns, name_id);
			g->canns[k].count++;
			add_ns(&g->canns[k].total_ns, dur);
			g->canns[k].hta_count += ts < g->window_end;
			continue;
		case PR_GK_KERNEL:
			ak = AK_KERNEL;
			break;
		case PR_GK_MEMCPY:
			ak = AK_MEMCPY;
			break;
		case PR_GK_MEMSET:
			ak = AK_MEMSET;
			break;
		default:
			continue; /* the DataLoader ops the step breakdown reads */
		}
		if (g->nacts == g->cap_acts) {
			g->cap_acts = g->cap_acts ? g->cap_acts * 2 : 1024;
			g->acts = pr_xreallocarray(g->acts, g->cap_acts, sizeof(*g->acts));
		}
		a = &g->acts[g->nacts++];
		a->ts = ts;
		a->dur = dur;
		a->name_id = name_id;
		a->corr = pr_gpurow_corr_link(r);
		a->kind = (uint8_t)ak;
		a->by_flow = 0;
		a->call = -1;
		a->gpu_ann = -1;
		a->ann_ts = 0;
		if (r->pkind == PR_GK_GPU_ANN || r->pkind == PR_GK_GPU_STEP) {
			a->gpu_ann = (int32_t)name_slot(&g->gann_by_name, &g->ganns, &g->nganns,
							r->u.act.pname);
			a->ann_ts = r->u.act.pts;
		}
		si = gs->tracks[r->track];
		if (si != g->last_track) {
			g->last_track = si;
			g->last_stream = pr_imap_get(&g->streams_by_track, si, &si) ? si : -1;
		}
		a->stream = (int32_t)g->last_stream;
	}
	return pr_gpuread_close(rd, err);
}

/* (track, ts) -> map key for flow ends */
static int64_t flow_key(int64_t track, int64_t ts)
{
	return (int64_t)((uint64_t)ts * 1000003u + (uint64_t)track * 0x9e3779b97f4a7c15ULL);
}

/*
 * Kineto's ac2g flows carry the correlation as their id: "s" at the
 * runtime call's start on its thread, "f" at the activity's start on its
 * stream. Used only for events without a "correlation" arg.
 */
static int link_by_flows(struct gl *g, struct pr_error *err)
{
	struct pr_imap s_ends = { 0 }, f_ends = { 0 };
	sqlite3_stmt *st;
	size_t i;
	int rc;
	int64_t need_f = 0, v;
	for (i = 0; i < g->nacts; i++)
		need_f += g->acts[i].corr == NO_KEY;
	if (!need_f && !g->missing_corr)
		return 0;
	if (pr_actx_prep(g->ctx,
			 "SELECT f.flow_id, f.phase, ifnull(f.track_id, 0), f.ts FROM flow f "
			 "JOIN string c ON c.id = f.cat_id WHERE f.run_id = ?1 AND c.value = 'ac2g' "
			 "AND f.phase IN ('s', 'f')",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *fid = pr_actx_text(st, 0);
		char *end;
		long long id = strtoll(fid, &end, 10);
		if (end == fid || *end)
			continue;
		pr_imap_put(pr_actx_text(st, 1)[0] == 's' ? &s_ends : &f_ends,
			 flow_key(sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3)), id);
	}
	if (pr_actx_done(g->ctx, st, rc, err)) {
		pr_imap_release(&s_ends);
		pr_imap_release(&f_ends);
		return -1;
	}
	for (i = 0; i < g->ncalls; i++) {
		struct call *c = &g->calls[i];
		int64_t other;
		if (c->corr != NO_KEY || !pr_imap_get(&s_ends, flow_key(g->tracks[c->track], c->ts), &v) ||
		    pr_imap_get(&g->call_by_corr, v, &other))
			continue;
		c->corr = v;
		pr_imap_put(&g->call_by_corr, v, (int64_t)i);
	}
	for (i = 0; i < g->nacts; i++) {
		struct act *a = &g->acts[i];
		if (a->corr != NO_KEY || a->stream < 0 ||
		    !pr_imap_get(&f_ends, flow_key(g->streams[a->stream].track, a->ts), &v))
			continue;
		a->corr = v;
		a->by_flow = 1;
	}
	pr_imap_release(&s_ends);
	pr_imap_release(&f_ends);
	return 0;
}

static int32_t make_node(struct gl *g, int64_t id, int64_t name_id, int is_op, int is_ann,
			 int32_t above)
{
	struct node *nd;
	int64_t v;
	if (g->nnodes == g->cap_nodes) {
		g->cap_nodes = g->cap_nodes ? g->cap_nodes * 2 : 256;
		g->nodes = pr_xreallocarray(g->nodes, g->cap_nodes, sizeof(*g->nodes));
	}
	nd = &g->nodes[g->nnodes];
	nd->parent = above;
	nd->op = is_op ? (int32_t)name_slot(&g->op_by_name, &g->ops, &g->nops, name_id) : -1;
	nd->ann = above >= 0 ? g->nodes[above].ann : -1;
	if (is_ann && pr_imap_get(&g->cann_by_name, name_id, &v))
		nd->ann = (int32_t)v;
	pr_imap_put(&g->node_by_id, id, (int64_t)g->nnodes);
	return (int32_t)g->nnodes++;
}

/* Node of span id, created with its ancestors (looked up by id) when new; -1 for none. */
static int resolve(struct gl *g, int64_t id, int32_t *out, struct pr_error *err)
{
	struct {
		int64_t id, name_id;
		int is_op, is_ann;
	} chain[256];
	size_t n = 0;
	int64_t v;
	int32_t above = -1;
	/* walk up to the first span already known (or the top) */
	while (id > 0 && n < PR_ARRAY_SIZE(chain)) {
		uint8_t kind;
		int rc;
		if (pr_imap_get(&g->node_by_id, id, &v)) {
			above = (int32_t)v;
			break;
		}
		sqlite3_reset(g->up);
		sqlite3_bind_int64(g->up, 1, id);
		rc = sqlite3_step(g->up);
		if (rc == SQLITE_DONE)
			break;
		if (rc != SQLITE_ROW)
			return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(g->ctx->db));
		kind = pr_gpuscan_kind(pr_actx_text(g->up, 0));
		chain[n].id = id;
		chain[n].name_id = sqlite3_column_int64(g->up, 1);
		chain[n].is_op = kind == PR_GK_OP;
		chain[n].is_ann = is_ann_kind(kind);
		n++;
		id = sqlite3_column_int64(g->up, 2);
	}
	/* create from the top down, so a node's parent always has a lower index */
	while (n--)
		above = make_node(g, chain[n].id, chain[n].name_id, chain[n].is_op, chain[n].is_ann,
				  above);
	*out = above;
	return 0;
}

/* LSD radix sort of v[0..n) (base/xsort.h: bytes that are equal in every value are skipped). */
static void radix_u64(uint64_t *v, size_t n)
{
	pr_radix_u64(v, NULL, n);
}

/* Sorts signed values (the sign bit flipped, so the unsigned order is the signed one). */
static void radix_i64(int64_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		v[i] = (int64_t)((uint64_t)v[i] ^ 0x8000000000000000ULL);
	radix_u64((uint64_t *)v, n);
	for (i = 0; i < n; i++)
		v[i] = (int64_t)((uint64_t)v[i] ^ 0x8000000000000000ULL);
}

/* a - b without overflow on hostile times: saturated at the int64 range. */
static int64_t sub_sat(int64_t a, int64_t b)
{
	if (b < 0 && a > INT64_MAX + b)
		return INT64_MAX;
	if (b > 0 && a < INT64_MIN + b)
		return INT64_MIN;
	return a - b;
}

/* t0 + d for the queue keys (d >= 0), wrapping instead of overflowing. */
static int64_t add_wrap(int64_t t0, uint64_t d)
{
	return (int64_t)((uint64_t)t0 + d);
}

/*
 * Links the activities to their calls and resolves what is above each
 * launching call: its parent and grandparent from the scan, the ancestors
 * above looked up in id order (the lookups then walk the span table's
 * B-tree forward instead of jumping around a store larger than SQLite's
 * cache).
 */
static int link_calls(struct gl *g, struct pr_error *err)
{
	int64_t *ids = pr_xreallocarray(NULL, g->ncalls + 1, sizeof(*ids)), v, name[2];
	size_t n = 0, i, k;
	int32_t node;
	int rc = 0;
	for (i = 0; i < g->nacts; i++) {
		struct call *c;
		if (g->acts[i].corr == NO_KEY || !pr_imap_get(&g->call_by_corr, g->acts[i].corr, &v))
			continue;
		g->acts[i].call = (int32_t)v;
		c = &g->calls[v];
		if (c->up != -2)
			continue;
		c->up = -1;
		if (c->above > 0)
			ids[n++] = c->above;
		name[0] = c->anc.name[0];
		name[1] = c->anc.name[1];
		c->anc.idx.op[0] = c->anc.idx.op[1] = c->anc.idx.ann[0] = c->anc.idx.ann[1] = -1;
		for (k = 0; k < c->nanc; k++)
			if (c->anc_kind[k] == 1)
				c->anc.idx.op[k] = (int32_t)name_slot(&g->op_by_name, &g->ops, &g->nops,
								      name[k]);
			else if (c->anc_kind[k] == 2 && pr_imap_get(&g->cann_by_name, name[k], &v))
				c->anc.idx.ann[k] = (int32_t)v;
	}
	radix_i64(ids, n);
	for (i = 0; i < n && !rc; i++)
		if (!i || ids[i] != ids[i - 1])
			rc = resolve(g, ids[i], &node, err);
	free(ids);
	if (rc)
		return -1;
	for (i = 0; i < g->ncalls; i++) {
		struct call *c = &g->calls[i];
		if (c->up == -1 && c->above > 0 && pr_imap_get(&g->node_by_id, c->above, &v))
			c->up = (int32_t)v;
	}
	return 0;
}

static json_t *quantiles(int64_t *v, size_t n, int with_total)
{
	double sum = 0, *d;
	size_t i;
	json_t *o;
	if (!n)
		return json_null();
	radix_i64(v, n);
	d = pr_xreallocarray(NULL, n, sizeof(*d));
	for (i = 0; i < n; i++) {
		d[i] = (double)v[i];
		sum += d[i];
	}
	o = pr_jobj("min_ns", pr_jint(v[0]), "mean_ns", pr_jnum(sum / (double)n), "p50_ns",
		    pr_jnum(pr_quantile_sorted(d, n, 0.5)), "p95_ns",
		    pr_jnum(pr_quantile_sorted(d, n, 0.95)), "max_ns", pr_jint(v[n - 1]), NULL);
	if (with_total)
		json_object_set_new(o, "total_ns", pr_jnum(sum));
	free(d);
	return o;
}

static char *name_text(struct pr_actx *ctx, int64_t name_id)
{
	sqlite3_stmt *st;
	char *s = NULL;
	if (sqlite3_prepare_v2(ctx->db, "SELECT value FROM string WHERE id = ?1", -1, &st, NULL) ==
	    SQLITE_OK) {
		sqlite3_bind_int64(st, 1, name_id);
		if (sqlite3_step(st) == SQLITE_ROW)
			s = pr_xstrdup(pr_actx_text(st, 0));
		sqlite3_finalize(st);
	}
	return s ? s : pr_xstrdup("");
}

/* Memcpy/memset type: the name up to " (" ("Memcpy HtoD (Pinned -> Device)" -> "Memcpy HtoD"). */
static char *act_type(struct pr_actx *ctx, const struct act *a)
{
	char *s, *p;
	if (a->kind == AK_KERNEL)
		return pr_xstrdup("kernel");
	s = name_text(ctx, a->name_id);
	if ((p = strstr(s, " (")) != NULL)
		*p = 0;
	if (!*s) {
		free(s);
		s = pr_xstrdup(a->kind == AK_MEMCPY ? "memcpy" : "memset");
	}
	return s;
}

/* ---- output ---- */

static int cmp_type(const void *a, const void *b)
{
	const struct type_stat *x = a, *y = b;
	if (x->acts != y->acts)
		return x->acts > y->acts ? -1 : 1;
	return strcmp(x->type, y->type);
}

static json_t *launches_json(struct gl *g)
{
	int64_t *lat = NULL, *ovh = NULL;
	size_t nlat = 0, novh = 0, i, j, ntypes = 0, napis = 0;
	struct api_stat *apis = NULL;
	struct type_stat *types = NULL;
	struct pr_imap api_by_name = { 0 }, type_by_name = { 0 };
	int64_t linked = 0, by_flow = 0, negative = 0, v;
	int64_t kern_linked = 0, kern_short = 0, short_dev = 0, short_call = 0;
	json_t *o, *arr;
	lat = pr_xreallocarray(NULL, g->nacts ? g->nacts : 1, sizeof(*lat));
	ovh = pr_xreallocarray(NULL, g->ncalls ? g->ncalls : 1, sizeof(*ovh));
	for (i = 0; i < g->nacts; i++) {
		const struct act *a = &g->acts[i];
		struct type_stat *t;
		/* the type of a name, looked up once per distinct name (kernels: one type) */
		int64_t key = a->kind == AK_KERNEL ? NO_KEY + 1 : a->name_id;
		if (!pr_imap_get(&type_by_name, key, &v)) {
			char *type = act_type(g->ctx, a);
			for (j = 0; j < ntypes && strcmp(types[j].type, type); j++)
				;
			if (j == ntypes) {
				types = pr_xreallocarray(types, ntypes + 1, sizeof(*types));
				memset(&types[ntypes], 0, sizeof(*types));
				types[ntypes++].type = type;
			} else {
				free(type);
			}
			v = (int64_t)j;
			pr_imap_put(&type_by_name, key, v);
		}
		t = &types[v];
		t->acts++;
		add_ns(&t->device_ns, a->dur);
		if (a->call < 0)
			continue;
		linked++;
		by_flow += a->by_flow;
		lat[nlat] = sub_sat(a->ts, g->calls[a->call].ts);
		negative += lat[nlat] < 0;
		t->linked++;
		t->latency += (double)lat[nlat];
		if (!t->has_max || (double)lat[nlat] > t->latency_max)
			t->latency_max = (double)lat[nlat];
		t->has_max = 1;
		nlat++;
		/* HTA's short kernels: the GPU runs it in less time than the CPU took to launch it */
		if (a->kind == AK_KERNEL) {
			kern_linked++;
			if (a->dur < g->calls[a->call].dur) {
				kern_short++;
				add_ns(&short_dev, a->dur);
				add_ns(&short_call, g->calls[a->call].dur);
			}
		}
	}
	for (i = 0; i < g->ncalls; i++) {
		const struct call *c = &g->calls[i];
		struct api_stat *ap;
		if (!c->launched)
			continue;
		ovh[novh++] = c->dur;
		if (!pr_imap_get(&api_by_name, c->name_id, &v)) {
			apis = pr_xreallocarray(apis, napis + 1, sizeof(*apis));
			memset(&apis[napis], 0, sizeof(*apis));
			apis[napis].name_id = c->name_id;
			v = (int64_t)napis++;
			pr_imap_put(&api_by_name, c->name_id, v);
		}
		ap = &apis[v];
		ap->calls++;
		ap->acts += c->launched;
		ap->overhead += (double)c->dur;
	}
	for (i = 0; i < g->nacts; i++)
		if (g->acts[i].call >= 0 &&
		    pr_imap_get(&api_by_name, g->calls[g->acts[i].call].name_id, &v))
			apis[v].latency +=
				(double)sub_sat(g->acts[i].ts, g->calls[g->acts[i].call].ts);
	o = pr_jobj("activities", pr_jint((int64_t)g->nacts), "linked", pr_jint(linked),
		    "linked_by_flow", pr_jint(by_flow), "unlinked", pr_jint((int64_t)g->nacts - linked),
		    "calls", pr_jint((int64_t)novh), "latency", quantiles(lat, nlat, 0),
		    "negative_latency", pr_jint(negative), "overhead", quantiles(ovh, novh, 1), NULL);
	/* per runtime API: the API_CAP with the most overhead (then calls, name) */
	for (i = 1; i < napis; i++) /* insertion sort: few APIs */
		for (j = i; j > 0; j--) {
			struct api_stat *x = &apis[j - 1], *y = &apis[j], t;
			char *nx, *ny;
			int swap = y->overhead > x->overhead ||
				   (y->overhead == x->overhead && y->calls > x->calls);
			if (!swap && y->overhead == x->overhead && y->calls == x->calls) {
				nx = name_text(g->ctx, x->name_id);
				ny = name_text(g->ctx, y->name_id);
				swap = strcmp(ny, nx) < 0;
				free(nx);
				free(ny);
			}
			if (!swap)
				break;
			t = *x;
			*x = *y;
			*y = t;
		}
	arr = json_array();
	for (i = 0; i < napis && i < API_CAP; i++) {
		char *nm = name_text(g->ctx, apis[i].name_id);
		json_array_append_new(
			arr, pr_jobj("name", json_string(nm), "calls", pr_jint(apis[i].calls),
				     "activities", pr_jint(apis[i].acts), "overhead_total_ns",
				     pr_jnum(apis[i].overhead), "overhead_mean_ns",
				     pr_jnum(apis[i].overhead / (double)apis[i].calls),
				     "latency_mean_ns",
				     pr_jnum(apis[i].latency / (double)apis[i].acts), NULL));
		free(nm);
	}
	json_object_set_new(o, "by_api", arr);
	if (napis > API_CAP) {
		int64_t calls = 0;
		double ov = 0;
		for (i = API_CAP; i < napis; i++) {
			calls += apis[i].calls;
			ov += apis[i].overhead;
		}
		json_object_set_new(o, "by_api_more",
				    pr_jobj("names", pr_jint((int64_t)(napis - API_CAP)), "calls",
					    pr_jint(calls), "overhead_total_ns", pr_jnum(ov), NULL));
	}
	/* per activity type (kernel, Memcpy DtoD, ...), the most frequent first */
	if (ntypes) /* types is NULL when no GPU op was linked */
		qsort(types, ntypes, sizeof(*types), cmp_type);
	arr = json_array();
	for (i = 0; i < ntypes && i < TYPE_CAP; i++)
		json_array_append_new(
			arr, pr_jobj("type", json_string(types[i].type), "activities",
				     pr_jint(types[i].acts), "linked", pr_jint(types[i].linked),
				     "device_ns", pr_jint(types[i].device_ns), "latency_mean_ns",
				     types[i].linked ? pr_jnum(types[i].latency / (double)types[i].linked)
						     : json_null(),
				     "latency_max_ns",
				     types[i].has_max ? pr_jnum(types[i].latency_max) : json_null(), NULL));
	if (ntypes > TYPE_CAP) {
		int64_t n = 0;
		for (i = TYPE_CAP; i < ntypes; i++)
			n += types[i].acts;
		json_object_set_new(o, "by_type_more",
				    pr_jobj("types", pr_jint((int64_t)(ntypes - TYPE_CAP)), "activities",
					    pr_jint(n), NULL));
	}
	for (i = 0; i < ntypes; i++)
		free(types[i].type);
	json_object_set_new(o, "by_type", arr);
	json_object_set_new(o, "short_kernels",
			    pr_jobj("kernels", pr_jint(kern_short), "of_linked", pr_jint(kern_linked),
				    "device_ns", pr_jint(short_dev), "launch_ns", pr_jint(short_call),
				    "rule",
				    json_string("a linked kernel whose duration is shorter than its "
						"runtime call's (HTA's short GPU kernels)"),
				    NULL));
	json_object_set_new(
		o, "rule",
		json_string("an activity (kernel, memcpy, memset) is linked to the runtime call with "
			    "its \"correlation\" arg (the ac2g flow's id where the arg is missing); "
			    "latency = activity start - call start, per activity; overhead = call "
			    "duration, per call that launched something"));
	free(types);
	free(apis);
	pr_imap_release(&api_by_name);
	pr_imap_release(&type_by_name);
	free(lat);
	free(ovh);
	return o;
}

static int cmp_op(const void *a, const void *b)
{
	const struct name_stat *x = a, *y = b;
	if (x->dev_total != y->dev_total)
		return x->dev_total > y->dev_total ? -1 : 1;
	if (x->dev_self != y->dev_self)
		return x->dev_self > y->dev_self ? -1 : 1;
	return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* The "spans" section's row of (name, kind), or NULL (beyond its cap, or no such section). */
static json_t *span_item(struct pr_actx *ctx, const char *name, const char *kind)
{
	json_t *items = json_object_get(json_object_get(ctx->out, "spans"), "items"), *it;
	size_t i;
	json_array_foreach(items, i, it) {
		if (!strcmp(pr_mstr(it, "name"), name) && !strcmp(pr_mstr(it, "kind"), kind))
			return it;
	}
	return NULL;
}

static json_t *ops_json(struct gl *g, int64_t no_op_acts, int64_t no_op_ns)
{
	json_t *host;
	size_t i, n = 0, cap = g->ctx->opts->top_n;
	struct name_stat *v = pr_xreallocarray(NULL, g->nops ? g->nops : 1, sizeof(*v));
	json_t *arr = json_array(), *o;
	int64_t more_self = 0, more_n = 0, more_names = 0;
	for (i = 0; i < g->nops; i++)
		if (g->ops[i].n_total)
			v[n++] = g->ops[i];
	/* name ids are in first-seen order; ties (equal device times) keep it */
	qsort(v, n, sizeof(*v), cmp_op);
	for (i = 0; i < n; i++) {
		char *nm;
		if (i >= cap) {
			more_names++;
			add_ns(&more_self, v[i].dev_self);
			more_n += v[i].n_self;
			continue;
		}
		nm = name_text(g->ctx, v[i].name_id);
		host = span_item(g->ctx, nm, "op");
		json_array_append_new(
			arr, pr_jobj("name", json_string(nm), "calls",
				     host ? json_incref(json_object_get(host, "count")) : json_null(),
				     "host_total_ns",
				     host ? json_incref(json_object_get(host, "total_ns")) : json_null(),
				     "host_self_ns",
				     host ? json_incref(json_object_get(host, "self_ns")) : json_null(),
				     "device_self_ns", pr_jint(v[i].dev_self), "device_total_ns",
				     pr_jint(v[i].dev_total), "activities", pr_jint(v[i].n_self),
				     "activities_total", pr_jint(v[i].n_total), NULL));
		free(nm);
	}
	o = pr_jobj("items", arr, "no_op", pr_jobj("activities", pr_jint(no_op_acts), "device_ns",
						       pr_jint(no_op_ns), NULL),
		    NULL);
	if (more_names)
		json_object_set_new(o, "items_more",
				    pr_jobj("names", pr_jint(more_names), "device_self_ns",
					    pr_jint(more_self), "activities", pr_jint(more_n), NULL));
	json_object_set_new(
		o, "rule",
		json_string("TensorBoard's operator view: device self = activities launched by "
			    "runtime calls whose nearest op ancestor is the op; device total = by the "
			    "op or any op below it (summed per call, so nested calls of one name "
			    "count twice); the top N names by device total; calls and host times "
			    "from \"spans\""));
	free(v);
	return o;
}

static int cmp_ann(const void *a, const void *b)
{
	const struct name_stat *x = a, *y = b;
	if (x->act_ns != y->act_ns)
		return x->act_ns > y->act_ns ? -1 : 1;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

static json_t *ann_list(struct gl *g, struct name_stat *src, size_t nsrc, json_t **more)
{
	struct name_stat *v = pr_xreallocarray(NULL, nsrc ? nsrc : 1, sizeof(*v));
	json_t *arr = json_array();
	size_t i;
	int64_t mn = 0, ma = 0, mns = 0;
	if (nsrc)
		memcpy(v, src, nsrc * sizeof(*v));
	qsort(v, nsrc, sizeof(*v), cmp_ann);
	for (i = 0; i < nsrc; i++) {
		char *nm;
		if (i >= ANN_CAP) {
			mn++;
			ma += v[i].acts;
			add_ns(&mns, v[i].act_ns);
			continue;
		}
		nm = name_text(g->ctx, v[i].name_id);
		json_array_append_new(
			arr, pr_jobj("name", json_string(nm), "count", pr_jint(v[i].count), "total_ns",
				     pr_jint(v[i].total_ns), "activities", pr_jint(v[i].acts),
				     "device_ns", pr_jint(v[i].act_ns), "hta",
				     pr_jobj("count", pr_jint(v[i].hta_count), "activities",
					     pr_jint(v[i].hta_acts), NULL),
				     NULL));
		free(nm);
	}
	*more = mn ? pr_jobj("names", pr_jint(mn), "activities", pr_jint(ma), "device_ns",
			     pr_jint(mns), NULL)
		   : NULL;
	free(v);
	return arr;
}

static json_t *annotations_json(struct gl *g, int64_t gpu_none, int64_t cpu_none, int64_t hta_acts)
{
	json_t *o, *more;
	o = pr_jobj("gpu", ann_list(g, g->ganns, g->nganns, &more), NULL);
	if (more)
		json_object_set_new(o, "gpu_more", more);
	json_object_set_new(o, "cpu", ann_list(g, g->canns, g->ncanns, &more));
	if (more)
		json_object_set_new(o, "cpu_more", more);
	json_object_set_new(o, "gpu_unattributed", pr_jint(gpu_none));
	json_object_set_new(o, "cpu_unattributed", pr_jint(cpu_none));
	json_object_set_new(
		o, "hta_window",
		pr_jobj("end_t_ns",
			g->window_end == INT64_MAX ? json_null() : pr_actx_t(g->ctx, g->window_end),
			"activities", pr_jint(hta_acts), "rule",
			json_string("HTA's default (include_last_profiler_step=False) with >= 2 steps: "
				    "only events starting before the last ProfilerStep; activities "
				    "whose launching call starts before it, annotations that start "
				    "before it"),
			NULL));
	json_object_set_new(
		o, "rule",
		json_string("gpu: the innermost GPU user annotation holding the activity's start "
			    "on its stream (HTA get_gpu_kernels_with_user_annotations); cpu: the "
			    "innermost user annotation or step around the launching call"));
	return o;
}

/* The step series reduced to at most cap points: min and max of each time bucket, in order. */
static json_t *queue_timeline(struct pr_actx *ctx, const int64_t *tp, const int64_t *vp, size_t n,
			      size_t cap)
{
	json_t *ta = json_array(), *va = json_array();
	size_t b, k = 0, buckets = cap / 2 ? cap / 2 : 1;
	double span = n ? (double)sub_sat(tp[n - 1], tp[0]) + 1 : 1;
	for (b = 0; k < n && (n <= cap || b < buckets); b++) {
		int64_t end = n <= cap || b + 1 == buckets
				      ? INT64_MAX
				      : tp[0] + (int64_t)(span * (double)(b + 1) / (double)buckets);
		size_t lo = k, hi = k, x;
		if (n <= cap) { /* every change */
			json_array_append_new(ta, pr_actx_t(ctx, tp[k]));
			json_array_append_new(va, pr_jint(vp[k]));
			k++;
			continue;
		}
		if (tp[k] >= end)
			continue;
		for (; k < n && tp[k] < end; k++) {
			if (vp[k] < vp[lo])
				lo = k;
			if (vp[k] > vp[hi])
				hi = k;
		}
		if (lo > hi) {
			x = lo;
			lo = hi;
			hi = x;
		}
		json_array_append_new(ta, pr_actx_t(ctx, tp[lo]));
		json_array_append_new(va, pr_jint(vp[lo]));
		if (hi != lo) {
			json_array_append_new(ta, pr_actx_t(ctx, tp[hi]));
			json_array_append_new(va, pr_jint(vp[hi]));
		}
	}
	return pr_jobj("t_ns", ta, "v", va, "reduced", json_boolean(n > cap), NULL);
}

/*
 * Queue length of one stream from its events, sorted: key = (t - t0) * 2,
 * + 1 for an end, so at one time launches come before ends and the value
 * after each time (the series) never dips below what both leave.
 */
static json_t *queue_json(struct gl *g, const uint64_t *key, size_t n, int64_t t0, int64_t *tp,
			  int64_t *vp)
{
	size_t i = 0, ntp = 0, cap = g->ctx->opts->timeline_points;
	int64_t q = 0, qmax = 0, tmax = 0, first, last;
	double area = 0;
	json_t *o;
	if (!n)
		return json_null();
	first = last = add_wrap(t0, key[0] >> 1);
	while (i < n) {
		int64_t t = add_wrap(t0, key[i] >> 1);
		area += (double)q * (double)sub_sat(t, last);
		for (; i < n && add_wrap(t0, key[i] >> 1) == t; i++)
			q += key[i] & 1 ? -1 : 1;
		last = t;
		tp[ntp] = t;
		vp[ntp++] = q;
		if (q > qmax) {
			qmax = q;
			tmax = t;
		}
	}
	o = pr_jobj("mean", pr_jnum(last > first ? area / (double)sub_sat(last, first) : 0), "max",
		    pr_jint(qmax), "max_t_ns", pr_actx_t(g->ctx, tmax), "changes",
		    pr_jint((int64_t)ntp), NULL);
	if (cap)
		json_object_set_new(o, "timeline", queue_timeline(g->ctx, tp, vp, ntp, cap));
	return o;
}

/* Per stream: activities, busy time and the queue length (launches +1, ends -1, in time order). */
static json_t *streams_json(struct gl *g)
{
	size_t *off = pr_xcalloc(g->nstreams + 1, sizeof(*off)), *fill, i, j, n = 0, more = 0;
	uint64_t *key;
	int64_t *tp, *vp, t0 = INT64_MAX;
	json_t *arr = json_array(), *o;
	for (i = 0; i < g->nacts; i++) {
		const struct act *a = &g->acts[i];
		if (a->stream < 0)
			continue;
		g->streams[a->stream].acts++;
		add_ns(&g->streams[a->stream].busy_ns, a->dur);
		g->streams[a->stream].nk[a->kind]++;
		if (a->call < 0)
			continue;
		g->streams[a->stream].linked++;
		off[a->stream + 1] += 2;
		if (g->calls[a->call].ts < t0)
			t0 = g->calls[a->call].ts;
	}
	for (j = 0; j < g->nstreams; j++)
		off[j + 1] += off[j];
	n = off[g->nstreams];
	key = pr_xreallocarray(NULL, n + 1, sizeof(*key));
	fill = pr_xcalloc(g->nstreams + 1, sizeof(*fill));
	for (i = 0; i < g->nacts; i++) {
		const struct act *a = &g->acts[i];
		int64_t start, end;
		size_t at;
		if (a->stream < 0 || a->call < 0)
			continue;
		start = g->calls[a->call].ts;
		end = a->ts + a->dur > start ? a->ts + a->dur : start;
		at = off[a->stream] + fill[a->stream];
		fill[a->stream] += 2;
		key[at] = ((uint64_t)start - (uint64_t)t0) << 1;
		key[at + 1] = (((uint64_t)end - (uint64_t)t0) << 1) | 1;
	}
	tp = pr_xreallocarray(NULL, n + 1, sizeof(*tp));
	vp = pr_xreallocarray(NULL, n + 1, sizeof(*vp));
	for (j = 0; j < g->nstreams; j++) {
		struct stream *s = &g->streams[j];
		if (!s->acts)
			continue;
		if (json_array_size(arr) >= STREAM_CAP) {
			more++;
			continue;
		}
		radix_u64(key + off[j], off[j + 1] - off[j]);
		json_array_append_new(
			arr, pr_jobj("device", json_string(s->pid), "stream", json_string(s->tid), "name",
				     json_string(s->name), "activities", pr_jint(s->acts), "kernels",
				     pr_jint(s->nk[AK_KERNEL]), "memcpys", pr_jint(s->nk[AK_MEMCPY]),
				     "memsets", pr_jint(s->nk[AK_MEMSET]), "linked", pr_jint(s->linked),
				     "busy_ns", pr_jint(s->busy_ns), "queue",
				     queue_json(g, key + off[j], off[j + 1] - off[j], t0, tp, vp), NULL));
	}
	o = pr_jobj("items", arr, NULL);
	if (more)
		json_object_set_new(o, "items_more", pr_jint((int64_t)more));
	json_object_set_new(
		o, "rule",
		json_string("queue length = linked activities whose runtime call has started and "
			    "that have not finished (an end before the call's start counts at the "
			    "call's start); mean weighted by time from the first launch to the last "
			    "end on the stream"));
	free(off);
	free(fill);
	free(key);
	free(tp);
	free(vp);
	return o;
}

static void gl_release(struct gl *g)
{
	size_t i;
	pr_imap_release(&g->streams_by_track);
	for (i = 0; i < g->nstreams; i++) {
		free(g->streams[i].pid);
		free(g->streams[i].tid);
		free(g->streams[i].name);
	}
	free(g->streams);
	free(g->acts);
	free(g->calls);
	free(g->tracks);
	pr_imap_release(&g->call_by_corr);
	free(g->nodes);
	pr_imap_release(&g->node_by_id);
	free(g->ops);
	free(g->canns);
	free(g->ganns);
	pr_imap_release(&g->op_by_name);
	pr_imap_release(&g->cann_by_name);
	pr_imap_release(&g->gann_by_name);
	if (g->up)
		sqlite3_finalize(g->up);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct gl g;
	size_t i, k;
	int64_t no_op_acts = 0, no_op_ns = 0, gpu_none = 0, cpu_none = 0, hta_acts = 0;
	json_t *o, *dt;
	int rc = -1;
	memset(&g, 0, sizeof(g));
	g.ctx = ctx;
	g.last_track = NO_KEY;
	g.window_end = ctx->nsteps >= 2 ? ctx->steps[ctx->nsteps - 1].ts : INT64_MAX;
	if (load_streams(&g, err))
		goto out;
	if (!g.nstreams) {
		rc = 0;
		goto out;
	}
	if (scan(&g, err))
		goto out;
	/* the last reader of the shared pass (model.c runs gpu_breakdown first): its rows are
	 * copied, the rest of its memory back before the links are made */
	pr_gpuscan_drop(ctx);
	if (link_by_flows(&g, err))
		goto out;
	if (sqlite3_prepare_v2(ctx->db, "SELECT kind, name_id, ifnull(parent_id, 0) FROM span "
					"WHERE id = ?1",
			       -1, &g.up, NULL) != SQLITE_OK) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
		goto out;
	}
	if (link_calls(&g, err))
		goto out;
	/* attribute to ops and annotations */
	for (i = 0; i < g.nacts; i++) {
		struct act *a = &g.acts[i];
		struct call *c;
		int32_t nd, self, ann;
		if (a->gpu_ann >= 0) {
			g.ganns[a->gpu_ann].acts++;
			add_ns(&g.ganns[a->gpu_ann].act_ns, a->dur);
		} else {
			gpu_none++;
		}
		if (a->call < 0) {
			cpu_none++;
			continue;
		}
		c = &g.calls[a->call];
		c->launched++;
		if (c->ts < g.window_end) {
			hta_acts++;
			if (a->gpu_ann >= 0 && a->ann_ts < g.window_end)
				g.ganns[a->gpu_ann].hta_acts++;
		}
		/* device self: the nearest op; device total: every op above the call */
		self = -1;
		ann = -1;
		for (k = 0; k < c->nanc; k++) {
			int32_t op = c->anc.idx.op[k];
			if (ann < 0)
				ann = c->anc.idx.ann[k];
			if (op < 0)
				continue;
			if (self < 0)
				self = op;
			add_ns(&g.ops[op].dev_total, a->dur);
			g.ops[op].n_total++;
		}
		for (nd = c->up; nd >= 0; nd = g.nodes[nd].parent) {
			int32_t op = g.nodes[nd].op;
			if (op < 0)
				continue;
			if (self < 0)
				self = op;
			add_ns(&g.ops[op].dev_total, a->dur);
			g.ops[op].n_total++;
		}
		if (self >= 0) {
			add_ns(&g.ops[self].dev_self, a->dur);
			g.ops[self].n_self++;
		} else {
			no_op_acts++;
			add_ns(&no_op_ns, a->dur);
		}
		if (ann < 0 && c->up >= 0)
			ann = g.nodes[c->up].ann;
		if (ann >= 0) {
			g.canns[ann].acts++;
			add_ns(&g.canns[ann].act_ns, a->dur);
			g.canns[ann].hta_acts += c->ts < g.window_end;
		} else {
			cpu_none++;
		}
	}
	dt = json_object_get(ctx->meta, "device_type");
	o = pr_jobj("device_type", json_is_string(dt) ? json_incref(dt) : json_null(), NULL);
	json_object_set_new(o, "launches", launches_json(&g));
	json_object_set_new(o, "ops", ops_json(&g, no_op_acts, no_op_ns));
	json_object_set_new(o, "streams", streams_json(&g));
	json_object_set_new(o, "annotations", annotations_json(&g, gpu_none, cpu_none, hta_acts));
	if (g.dup_corr)
		json_object_set_new(o, "duplicate_correlations", pr_jint(g.dup_corr));
	json_object_set_new(ctx->out, "gpu", o);
	rc = 0;
out:
	gl_release(&g);
	pr_gpuscan_drop(ctx);
	return rc;
}

const struct pr_analyzer pr_an_gpulink = {
	.name = "gpu",
	.summary = "CPU-GPU links: launch latency and overhead, device time per op, stream queue "
		   "length, activities per user annotation",
	.run = run,
};
