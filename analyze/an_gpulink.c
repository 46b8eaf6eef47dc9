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
 *   kernel_sequences  the frequent kernel sequences (kseq.h): fed each
 *             activity with its launching call's op and start in the
 *             activities' pass.
 *
 * HOW (in bounded memory, whatever the trace's size): the shared pass's
 * rows (gpuscan.h, id order) go to two streams (base/spill.h), the device
 * activities and the runtime calls, and their correlations to two external
 * sorts (base/xsort.h) of (correlation, index). Merging these by
 * correlation links each activity to the first call of its correlation in
 * id order (later ones count as duplicates); the (call, activity) pairs are
 * sorted by call, read next to the calls (in id order: launch counts,
 * overhead, per API, the ancestors resolved, the activities' device time
 * to ops and annotations), which write what the activities need of their
 * call to a sort by activity; that is read next to the activities (in id
 * order: latency, types, GPU annotations, streams). The quantiles come from
 * sorts of the latencies and overheads, the queue lengths from a sort of
 * the launches and ends by stream, then one sort per stream shown (its
 * changes through a stream, read twice for the timeline). The double sums
 * add in the order the in-memory version did (activity or call order, the
 * quantiles' in ascending order); the saturated int64 sums of durations
 * (never negative) do not depend on it.
 *
 * MEMORY: the streams' and sorts' buffers (pr_gpuscan_mem, pr_xsort_mem;
 * at most four sorts at a time, each with its sorting scratch within
 * pr_xsort_mem), per name statistics, the ancestor nodes of launching calls
 * (at most node_cap(), then forgotten and looked up again), and only for
 * traces whose events lack the "correlation" arg, the ac2g flows' ends (two
 * maps of O(flows)).
 * The section is absent when the run has no device stream.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "analyze/analyzers.h"
#include "analyze/gpuscan.h"
#include "base/imap.h"
#include "analyze/kseq.h"
#include "analyze/model.h"
#include "analyze/opkern.h"
#include "analyze/opmerge.h"
#include "analyze/opview.h"
#include "base/stats.h"
#include "base/spill.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"
#include "base/xsort.h"

#define NO_KEY INT64_MIN
#define API_CAP 10
#define ANN_CAP 20
#define STREAM_CAP 64
#define TYPE_CAP 16
#define OUTLIER_CAP 10
#define OP_KERNELS 3 /* per op of launch_delays.by_op, its activities' names with most delay */
/* HTA's get_cuda_kernel_launch_stats defaults (runtime_cutoff 50 us, launch_delay_cutoff 100 us) */
#define RUNTIME_CUTOFF_NS 50000
#define DELAY_CUTOFF_NS 100000

/* ---- records ---- */

enum act_kind {
	AK_KERNEL,
	AK_MEMCPY,
	AK_MEMSET
};

struct arec { /* one device activity, in the activities' stream (96 bytes) */
	int64_t ts, dur, name_id;
	int64_t ann_ts;	 /* start of its GPU annotation */
	double bps, occ; /* "blocks per SM", "est. achieved occupancy %" (kernel view) */
	struct pr_launch lp;
	int32_t stream;	 /* index into streams, -1 */
	int32_t gpu_ann; /* its GPU annotation (index into ganns), -1 */
	uint8_t kind;
	uint8_t nocorr; /* no "correlation" arg (an ac2g flow may give one) */
	uint8_t pad[6];
};

struct crec {		/* one runtime call, in the calls' stream (64 bytes) */
	int64_t parent; /* its parent's span id, 0 = none (the op view: the parent's shapes) */
	int64_t ts, dur, name_id;
	int64_t above;	     /* the span above its parent and grandparent (0 = none) */
	int64_t name[2];     /* its parent's and grandparent's names */
	uint32_t track;	     /* index into tracks */
	uint8_t anc_kind[2]; /* 0 = other, 1 = op, 2 = user annotation or step */
	uint8_t nanc;
	uint8_t nocorr;
};

struct corr_rec { /* a call's or activity's correlation, sorted by it (24 bytes) */
	int64_t corr;
	int64_t dur;  /* an activity's duration (for the calls' pass), 0 for a call */
	uint32_t idx; /* index of the call or activity in id order */
	uint8_t flow; /* the correlation is an ac2g flow's id */
	uint8_t pad[3];
};

struct pair_rec { /* an activity linked to a call, sorted by the call (24 bytes) */
	uint64_t call;
	int64_t dur; /* the activity's */
	uint32_t act;
	uint8_t by_flow;
	uint8_t pad[3];
};

struct link_rec { /* what an activity needs of its call, sorted by the activity (40 bytes) */
	uint64_t act;
	int64_t ts, dur; /* the call's */
	int64_t op_name; /* the name id of the nearest op above the call, 0 = none */
	int32_t api;	 /* index into apis */
	uint8_t by_flow;
	uint8_t pad[3];
};

struct qrec { /* a linked activity's launch and end, sorted by stream (24 bytes) */
	uint64_t stream;
	int64_t start, end;
};

struct node {		/* a distinct ancestor of the parent of a launching call */
	int32_t parent; /* node above, -1 */
	int32_t op;	/* an op: its name (index into ops); else -1 */
	int32_t ann;	/* the nearest CPU annotation at or above (index into canns), -1 */
	int32_t row;	/* an op: its op_view row (opkern.h), else -1 */
};

struct name_stat { /* per name: ops, CPU or GPU annotations */
	int64_t name_id, count, hta_count;
	int64_t total_ns;			      /* annotations: their time */
	int64_t dev_self, dev_total, n_self, n_total; /* ops: device time and activities */
	int64_t acts, act_ns, hta_acts;		      /* annotations: activities attributed */
};

struct stream {
	int64_t track;
	int64_t kstream; /* Kineto's stream id (the "stream" arg), PR_GPU_NO_STREAM */
	char *pid, *tid, *name;
	int64_t acts, linked, busy_ns;
	int64_t nk[3];
};

/* A launch-delay outlier (HTA's kernel launch statistics). */
struct outlier {
	int64_t delay, ts, cpu, gpu, name_id, api_name, op_name;
};

/* Per op name (the nearest op above the call): its activities' launch delays. */
struct op_delay {
	int64_t name_id, acts, delay_max;
	double delay, latency;
};

/* Per (op, activity name): the activities an op launched, by name. */
struct op_kernel {
	int64_t op, name_id, acts;
	double delay;
};

/* HTA's kernel launch statistics over the linked activities. */
struct launch_delays {
	struct pr_strmap by_pair; /* (op, name) -> index into pairs */
	struct op_kernel *pairs;
	size_t npairs;
	int64_t n, cpu_max, gpu_max, delay_max, runtime_out, delay_out, short_k, no_op;
	double cpu, gpu, delay, latency;
	struct outlier top[OUTLIER_CAP];
	size_t ntop;
	struct pr_imap by_op;
	struct op_delay *ops;
	size_t nops;
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
	size_t nacts, ncalls;
	struct pr_spill *acts, *calls;	       /* struct arec, struct crec, in id order */
	struct pr_xsort *call_corr, *act_corr; /* struct corr_rec */
	struct pr_xsort *pairs, *links;	       /* struct pair_rec, struct link_rec */
	struct pr_xsort *lat, *ovh;	       /* launch latencies, overheads (int64) */
	struct pr_xsort *queue;		       /* struct qrec */
	int64_t *tracks; /* the calls' track ids (the shared pass's track index) */
	struct node *nodes;
	size_t nnodes, cap_nodes;
	struct pr_imap node_by_id;
	struct name_stat *ops, *canns, *ganns;
	size_t nops, ncanns, nganns;
	struct pr_imap op_by_name, cann_by_name, gann_by_name;
	struct api_stat *apis;
	size_t napis;
	struct pr_imap api_by_name;
	struct type_stat *types;
	size_t ntypes;
	struct pr_imap type_by_name;
	int64_t window_end; /* HTA: start of the last step; INT64_MAX when < 2 steps */
	int64_t dup_corr, missing_corr, need_f;
	int64_t last_track, last_stream; /* one-entry cache of streams_by_track */
	sqlite3_stmt *up;		 /* ancestor lookup by id */
	struct pr_spill *anc_s;		 /* the launching ops' rows (gpuscan.h), taken */
	struct pr_gpuanc *anc;		 /* their reader: found there, not looked up */
	sqlite3_stmt *name_st;		 /* a name's text, for those rows */
	struct pr_imap name_ix;		 /* name id -> index in names */
	char **names;
	size_t nnames;
	const struct pr_opmerge *merge; /* ops merged into a same-name parent: not ops here */
	int op_rows;	      /* the run has an op view whose rows the op nodes are charged to */
	struct pr_opk *opk;   /* the op and kernel views' share */
	struct pr_kseq *kseq; /* the frequent kernel sequences' share */
	/* gathered by the activities' pass */
	int64_t linked, by_flow, negative, kern_linked, kern_short, short_dev, short_call;
	int64_t no_op_acts, no_op_ns, gpu_none, cpu_none, hta_acts;
	int64_t t0; /* the first launch of a linked activity on a stream */
	struct launch_delays ld;
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
		s->kstream = PR_GPU_NO_STREAM;
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

/*
 * The buffer of one of the sorts below: its records and the 24 bytes a
 * record that sorting a buffer takes (base/xsort.h) within pr_xsort_mem,
 * at least one record (an 8-byte value gets a quarter of it).
 */
static size_t sort_mem(size_t rec)
{
	size_t m = pr_xsort_mem / (rec + 24) * rec;
	return m ? m : rec;
}

/* A runtime call with its parent and grandparent, to the calls' stream and its correlation to
 * their sort. */
static void add_call(struct gl *g, const struct pr_gpurow *r)
{
	struct crec c;
	struct corr_rec k;
	int64_t corr = pr_gpurow_corr_link(r);
	memset(&c, 0, sizeof(c));
	c.parent = r->u.call.parent;
	c.ts = r->ts;
	c.dur = r->dur;
	c.name_id = r->name;
	c.track = r->track;
	c.above = r->u.call.above;
	if (r->pkind != PR_GK_NONE) {
		c.name[0] = r->u.call.pname;
		c.anc_kind[0] = kind_class(r->pkind);
		c.nanc = 1;
		if (r->qkind != PR_GK_NONE) {
			c.name[1] = r->u.call.qname;
			c.anc_kind[1] = kind_class(r->qkind);
			c.nanc = 2;
		}
	}
	if (corr != NO_KEY) {
		memset(&k, 0, sizeof(k));
		k.corr = corr;
		k.idx = (uint32_t)g->ncalls;
		pr_xsort_put(g->call_corr, &k);
	} else {
		c.nocorr = 1;
		g->missing_corr++;
	}
	pr_spill_put(g->calls, &c, sizeof(c));
	g->ncalls++;
}

/*
 * The pass over the run's spans but ops and Python functions (the shared
 * scan, gpuscan.h, in id order): device activities, runtime calls, GPU and
 * CPU annotations and steps; activities and calls with their parent and
 * grandparent span (the writer nests spans per track: a kernel's parent is the GPU
 * annotation around it, a runtime call's the op or annotation that made
 * it). The activities and calls go to their streams, their correlations to
 * their sorts (errors are sticky: the first read of each says).
 */
static int scan(struct gl *g, struct pr_error *err)
{
	struct pr_gpuscan *gs = pr_gpuscan_get(g->ctx, err);
	struct pr_gpuread *rd;
	const struct pr_gpurow *r;
	if (!gs)
		return -1;
	g->tracks = pr_xreallocarray(NULL, gs->ntracks + 1, sizeof(*g->tracks));
	if (gs->ntracks)
		memcpy(g->tracks, gs->tracks, gs->ntracks * sizeof(*g->tracks));
	if (gs->nkind[PR_GK_KERNEL] + gs->nkind[PR_GK_MEMCPY] + gs->nkind[PR_GK_MEMSET] >
		    INT32_MAX ||
	    gs->nkind[PR_GK_RUNTIME] > INT32_MAX)
		return pr_error_set(err, PR_E_LIMIT,
				    "gpu: more than %d device activities or runtime "
				    "calls in a run",
				    INT32_MAX);
	/* a record is read whole from the buffer: at least one record (base/spill.h) */
	g->acts = pr_spill_new("the gpu analysis' device activities",
			       pr_gpuscan_mem < sizeof(struct arec) ? sizeof(struct arec)
								    : pr_gpuscan_mem);
	g->calls = pr_spill_new("the gpu analysis' runtime calls",
				pr_gpuscan_mem < sizeof(struct crec) ? sizeof(struct crec)
								     : pr_gpuscan_mem);
	g->call_corr = pr_xsort_new("the gpu analysis' runtime calls by correlation",
				    sizeof(struct corr_rec), sort_mem(sizeof(struct corr_rec)),
				    PR_XSORT_SIGNED);
	g->act_corr = pr_xsort_new("the gpu analysis' device activities by correlation",
				   sizeof(struct corr_rec), sort_mem(sizeof(struct corr_rec)),
				   PR_XSORT_SIGNED);
	/* the rows read back in id order, with their parents and grandparents (span_up) */
	if (!(rd = pr_gpuscan_open(g->ctx, gs, 1, err)))
		return -1;
	while ((r = pr_gpuread_next(rd))) {
		int64_t name_id = r->name, ts = r->ts, dur = r->dur, corr;
		struct arec a;
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
		memset(&a, 0, sizeof(a));
		a.ts = ts;
		a.dur = dur;
		a.name_id = name_id;
		a.kind = (uint8_t)ak;
		a.gpu_ann = -1;
		a.bps = r->u.act.bps;
		a.occ = r->u.act.occ;
		a.lp = r->u.act.lp;
		if (r->pkind == PR_GK_GPU_ANN || r->pkind == PR_GK_GPU_STEP) {
			a.gpu_ann = (int32_t)name_slot(&g->gann_by_name, &g->ganns, &g->nganns,
						       r->u.act.pname);
			a.ann_ts = r->u.act.pts;
		}
		si = gs->tracks[r->track];
		if (si != g->last_track) {
			g->last_track = si;
			g->last_stream = pr_imap_get(&g->streams_by_track, si, &si) ? si : -1;
		}
		a.stream = (int32_t)g->last_stream;
		if (a.stream >= 0)
			g->streams[a.stream].kstream = gs->tstream[r->track];
		corr = pr_gpurow_corr_link(r);
		if (corr != NO_KEY) {
			struct corr_rec c;
			memset(&c, 0, sizeof(c));
			c.corr = corr;
			c.dur = dur;
			c.idx = (uint32_t)g->nacts;
			pr_xsort_put(g->act_corr, &c);
		} else {
			a.nocorr = 1;
			g->need_f++;
		}
		pr_spill_put(g->acts, &a, sizeof(a));
		g->nacts++;
	}
	return pr_gpuread_close(rd, err);
}
/*
 * Kineto's ac2g flows carry the correlation as their id: "s" at the
 * runtime call's start on its thread, "f" at the activity's start on its
 * stream. Used only for events without a "correlation" arg: a call gets its
 * flow's id where no call has it as its arg and no earlier call got it (the
 * merge of link_pairs: the flows' records come after the args' in the
 * stable sort), an activity its flow's id. The flows' ends are held in
 * memory (O(flows), only for traces that lack the arg).
 */
/* an ac2g flow's end into the map of its kind (pr_gpu_flows) */
static int flow_end(void *arg, int64_t id, int start, int64_t track, int64_t ts)
{
	struct pr_imap *ends = arg;
	pr_imap_put(&ends[start ? 0 : 1], pr_gpu_flow_key(track, ts), id);
	return 0;
}

static int link_by_flows(struct gl *g, struct pr_error *err)
{
	struct pr_imap ends[2] = { { 0 }, { 0 } }; /* the "s" ends, the "f" ends */
	const void *p;
	size_t i;
	int rc = -1;
	int64_t v;
	if (!g->need_f && !g->missing_corr)
		return 0;
	if (pr_gpu_flows(g->ctx, flow_end, ends, err))
		goto out;
	if (g->missing_corr) {
		if (pr_spill_reread(g->calls, err))
			goto out;
		for (i = 0; i < g->ncalls && (p = pr_spill_next(g->calls, sizeof(struct crec)));
		     i++) {
			struct crec c;
			struct corr_rec k;
			memcpy(&c, p, sizeof(c));
			if (!c.nocorr ||
			    !pr_imap_get(&ends[0], pr_gpu_flow_key(g->tracks[c.track], c.ts), &v))
				continue;
			memset(&k, 0, sizeof(k));
			k.corr = v;
			k.idx = (uint32_t)i;
			k.flow = 1;
			pr_xsort_put(g->call_corr, &k);
		}
		if (pr_spill_failed(g->calls, err))
			goto out;
	}
	if (g->need_f) {
		if (pr_spill_reread(g->acts, err))
			goto out;
		for (i = 0; i < g->nacts && (p = pr_spill_next(g->acts, sizeof(struct arec)));
		     i++) {
			struct arec a;
			struct corr_rec k;
			memcpy(&a, p, sizeof(a));
			if (!a.nocorr || a.stream < 0 ||
			    !pr_imap_get(&ends[1],
					 pr_gpu_flow_key(g->streams[a.stream].track, a.ts), &v))
				continue;
			memset(&k, 0, sizeof(k));
			k.corr = v;
			k.dur = a.dur;
			k.idx = (uint32_t)i;
			k.flow = 1;
			pr_xsort_put(g->act_corr, &k);
		}
		if (pr_spill_failed(g->acts, err))
			goto out;
	}
	rc = 0;
out:
	pr_imap_release(&ends[0]);
	pr_imap_release(&ends[1]);
	return rc;
}

static int32_t make_node(struct gl *g, int64_t id, int64_t name_id, int is_op, int is_ann,
			 int32_t above, int32_t row)
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
	nd->row = is_op ? row : -1;
	if (is_ann && pr_imap_get(&g->cann_by_name, name_id, &v))
		nd->ann = (int32_t)v;
	pr_imap_put(&g->node_by_id, id, (int64_t)g->nnodes);
	return (int32_t)g->nnodes++;
}

/* The text of a name id ("" when none, as the lookup's subquery), NULL with err on an error. */
static const char *anc_name(struct gl *g, int64_t id, struct pr_error *err)
{
	int64_t ix;
	int rc;
	if (pr_imap_get(&g->name_ix, id, &ix))
		return g->names[ix];
	if (!g->name_st &&
	    pr_actx_prep(g->ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL",
			 &g->name_st, err))
		return NULL;
	sqlite3_reset(g->name_st);
	sqlite3_bind_int64(g->name_st, 2, id);
	rc = sqlite3_step(g->name_st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(g->ctx->db));
		return NULL;
	}
	g->names = pr_xreallocarray(g->names, g->nnames + 1, sizeof(*g->names));
	g->names[g->nnames] = pr_xstrdup(rc == SQLITE_ROW ? pr_actx_text(g->name_st, 0) : "");
	pr_imap_put(&g->name_ix, id, (int64_t)g->nnames);
	return g->names[g->nnames++];
}

/* Node of span id, created with its ancestors (looked up by id) when new; -1 for none. */
static int resolve(struct gl *g, int64_t id, int32_t *out, struct pr_error *err)
{
	struct {
		int64_t id, name_id;
		int is_op, is_ann;
		int32_t row;
	} chain[256];
	size_t n = 0;
	int64_t v;
	int32_t above = -1;
	/* walk up to the first span already known (or the top) */
	while (id > 0 && n < PR_ARRAY_SIZE(chain)) {
		uint8_t kind;
		int rc;
		const struct pr_gpuanc_row *ar;
		if (pr_imap_get(&g->node_by_id, id, &v)) {
			above = (int32_t)v;
			break;
		}
		if ((ar = pr_gpuanc_find(g->anc, id))) { /* the row as the shared pass read it */
			kind = ar->kind;
			if (kind == PR_GK_OP && pr_opmerge_absorbed(g->merge, id))
				kind = PR_GK_OTHER;
			chain[n].id = id;
			chain[n].name_id = ar->name;
			chain[n].is_op = kind == PR_GK_OP;
			chain[n].is_ann = is_ann_kind(kind);
			chain[n].row = -1;
			if (kind == PR_GK_OP && g->op_rows) {
				const char *nm = anc_name(g, ar->name, err);
				if (!nm)
					return -1;
				chain[n].row =
					pr_opk_op_row(g->opk, nm, ar->has_keys ? ar->akeys : -1,
						      ar->args, ar->alen);
			}
			n++;
			id = ar->parent;
			continue;
		}
		sqlite3_reset(g->up);
		sqlite3_bind_int64(g->up, 1, id);
		rc = sqlite3_step(g->up);
		if (rc == SQLITE_DONE)
			break;
		if (rc != SQLITE_ROW)
			return pr_error_set(err, PR_E_STORE, "sqlite: %s",
					    sqlite3_errmsg(g->ctx->db));
		kind = pr_gpuscan_kind(pr_actx_text(g->up, 0));
		if (kind == PR_GK_OP && pr_opmerge_absorbed(g->merge, id))
			kind = PR_GK_OTHER; /* one call with its parent: its activities are its */
		chain[n].id = id;
		chain[n].name_id = sqlite3_column_int64(g->up, 1);
		chain[n].is_op = kind == PR_GK_OP;
		chain[n].is_ann = is_ann_kind(kind);
		chain[n].row =
			kind == PR_GK_OP && g->op_rows
				? pr_opk_op_row(g->opk, pr_actx_text(g->up, 5),
						sqlite3_column_type(g->up, 3) == SQLITE_INTEGER
							? sqlite3_column_int64(g->up, 3)
							: -1,
						(const char *)sqlite3_column_text(g->up, 4),
						(size_t)sqlite3_column_bytes(g->up, 4))
				: -1;
		n++;
		id = sqlite3_column_int64(g->up, 2);
	}
	/* create from the top down, so a node's parent always has a lower index */
	while (n--)
		above = make_node(g, chain[n].id, chain[n].name_id, chain[n].is_op, chain[n].is_ann,
				  above, chain[n].row);
	*out = above;
	return 0;
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

/* The next record of a sort copied to rec: 1, or 0 at its end (or on a failed read). */
static int xnext(struct pr_xsort *xs, void *rec, size_t size)
{
	const void *p = pr_xsort_next(xs);
	if (!p)
		return 0;
	memcpy(rec, p, size);
	return 1;
}

/*
 * Links the activities to their calls: the calls' and the activities'
 * correlations merged, each sorted by correlation (stable: a correlation's
 * calls in id order, those from args before those from flows). The first
 * call of a correlation keeps it (later calls with it as their arg count as
 * duplicates, later ones with it from a flow do not get it); every activity
 * of the correlation is linked to it: the pairs go to a sort by call.
 */
static int link_pairs(struct gl *g, struct pr_error *err)
{
	struct corr_rec c, a;
	struct pair_rec pr;
	int hc, ha;
	if (pr_xsort_sort(g->call_corr, err) || pr_xsort_sort(g->act_corr, err))
		return -1;
	g->pairs = pr_xsort_new("the gpu analysis' links by call", sizeof(struct pair_rec),
				sort_mem(sizeof(struct pair_rec)), 0);
	hc = xnext(g->call_corr, &c, sizeof(c));
	ha = xnext(g->act_corr, &a, sizeof(a));
	while (hc) {
		int64_t corr = c.corr;
		uint32_t keeper = c.idx;
		int by_arg = !c.flow;
		while ((hc = xnext(g->call_corr, &c, sizeof(c))) && c.corr == corr)
			g->dup_corr += by_arg && !c.flow;
		while (ha && a.corr < corr)
			ha = xnext(g->act_corr, &a, sizeof(a));
		for (; ha && a.corr == corr; ha = xnext(g->act_corr, &a, sizeof(a))) {
			memset(&pr, 0, sizeof(pr));
			pr.call = keeper;
			pr.act = a.idx;
			pr.dur = a.dur;
			pr.by_flow = a.flow;
			pr_xsort_put(g->pairs, &pr);
		}
	}
	if (pr_xsort_failed(g->call_corr, err) || pr_xsort_failed(g->act_corr, err))
		return -1;
	pr_xsort_free(g->call_corr);
	pr_xsort_free(g->act_corr);
	g->call_corr = g->act_corr = NULL;
	return 0;
}

/*
 * The ancestor nodes kept at most (pr_gpuscan_mem / 64: 16 Ki nodes and
 * their map entries by default): past it, between two calls, they are all
 * forgotten, and later calls look their ancestors up again (a node is a
 * function of its span: the same whenever it is made).
 */
static size_t node_cap(void)
{
	return pr_gpuscan_mem / 64 ? pr_gpuscan_mem / 64 : 1;
}

/*
 * One activity (of duration dur) launched by a call (ts, its parent's and
 * grandparent's op and annotation indexes, the node above them): device
 * self to the nearest op, device total to every op above the call, the
 * activity to the innermost CPU annotation or step. The sums saturate and
 * the durations are never negative (store/writer.c), so their order does
 * not matter: they are added here, call by call, while the nodes are kept.
 */
static int64_t attribute(struct gl *g, int64_t ts, const int32_t *op, const int32_t *ann_k,
			 size_t nanc, int32_t up, int32_t pn, int64_t dur)
{
	int32_t nd, self = -1, ann = -1;
	size_t k;
	int first = 1;
	/* the op view's rows: the chain from the call's parent up (pn, when resolved) */
	for (nd = pn; nd >= 0; nd = g->nodes[nd].parent) {
		if (g->nodes[nd].row < 0)
			continue;
		pr_opk_op_dev(g->opk, g->nodes[nd].row, first, dur);
		first = 0;
	}
	for (k = 0; k < nanc; k++) {
		if (ann < 0)
			ann = ann_k[k];
		if (op[k] < 0)
			continue;
		if (self < 0)
			self = op[k];
		add_ns(&g->ops[op[k]].dev_total, dur);
		g->ops[op[k]].n_total++;
	}
	for (nd = up; nd >= 0; nd = g->nodes[nd].parent) {
		int32_t o = g->nodes[nd].op;
		if (o < 0)
			continue;
		if (self < 0)
			self = o;
		add_ns(&g->ops[o].dev_total, dur);
		g->ops[o].n_total++;
	}
	if (self >= 0) {
		add_ns(&g->ops[self].dev_self, dur);
		g->ops[self].n_self++;
	} else {
		g->no_op_acts++;
		add_ns(&g->no_op_ns, dur);
	}
	if (ann < 0 && up >= 0)
		ann = g->nodes[up].ann;
	if (ann >= 0) {
		g->canns[ann].acts++;
		add_ns(&g->canns[ann].act_ns, dur);
		g->canns[ann].hta_acts += ts < g->window_end;
	} else {
		g->cpu_none++;
	}
	return self >= 0 ? g->ops[self].name_id : 0;
}

/* The node of a call's parent (and its ancestors) from its span id: -1 when none. */
static int parent_node(struct gl *g, int64_t parent, int32_t *out, struct pr_error *err)
{
	*out = -1;
	return parent > 0 ? resolve(g, parent, out, err) : 0;
}

/*
 * The calls' pass, in id order next to the pairs sorted by call: for each
 * call that launched something, what is above it (its parent and
 * grandparent from the scan, the ancestors above looked up by id, in id
 * order so that the lookups walk the span table's B-tree forward) and its
 * activities attributed to ops and annotations; its overhead (to the
 * overheads' sort), its API's counts; and for each of its activities what
 * they need of it, to a sort by activity.
 */
static int calls_pass(struct gl *g, struct pr_error *err)
{
	struct pair_rec pr;
	const void *p;
	size_t i, k;
	int hp;
	int64_t v;
	if (!(g->merge = pr_opmerge_get(g->ctx, err)))
		return -1;
	if (pr_xsort_sort(g->pairs, err) || pr_spill_reread(g->calls, err))
		return -1;
	g->links = pr_xsort_new("the gpu analysis' links by activity", sizeof(struct link_rec),
				sort_mem(sizeof(struct link_rec)), 0);
	g->ovh = pr_xsort_new("the gpu analysis' launch overheads", sizeof(int64_t),
			      sort_mem(sizeof(int64_t)), PR_XSORT_SIGNED);
	hp = xnext(g->pairs, &pr, sizeof(pr));
	for (i = 0; hp && i < g->ncalls && (p = pr_spill_next(g->calls, sizeof(struct crec)));
	     i++) {
		struct crec c;
		struct link_rec l;
		struct api_stat *ap;
		int32_t op[2] = { -1, -1 }, ann[2] = { -1, -1 }, up = -1, pn = -1;
		if (pr.call != i)
			continue;
		memcpy(&c, p, sizeof(c));
		/* an absorbed parent or grandparent (opmerge.h) is no op of its own: the parent
		 * is when its id is absorbed; the grandparent when the span above it has
		 * absorbed its only child, which the grandparent (an op below it) then is */
		if (c.nanc >= 1 && c.anc_kind[0] == 1 && pr_opmerge_absorbed(g->merge, c.parent))
			c.anc_kind[0] = 0;
		if (c.nanc == 2 && c.anc_kind[1] == 1 && c.above > 0 &&
		    pr_opmerge_absorber(g->merge, c.above))
			c.anc_kind[1] = 0;
		for (k = 0; k < c.nanc; k++)
			if (c.anc_kind[k] == 1)
				op[k] = (int32_t)name_slot(&g->op_by_name, &g->ops, &g->nops,
							   c.name[k]);
			else if (c.anc_kind[k] == 2 && pr_imap_get(&g->cann_by_name, c.name[k], &v))
				ann[k] = (int32_t)v;
		if (c.above > 0 && resolve(g, c.above, &up, err))
			return -1;
		if (c.nanc && g->op_rows && parent_node(g, c.parent, &pn, err))
			return -1;
		pr_xsort_put(g->ovh, &c.dur);
		if (!pr_imap_get(&g->api_by_name, c.name_id, &v)) {
			g->apis = pr_xreallocarray(g->apis, g->napis + 1, sizeof(*g->apis));
			memset(&g->apis[g->napis], 0, sizeof(*g->apis));
			g->apis[g->napis].name_id = c.name_id;
			v = (int64_t)g->napis++;
			pr_imap_put(&g->api_by_name, c.name_id, v);
		}
		memset(&l, 0, sizeof(l));
		l.ts = c.ts;
		l.dur = c.dur;
		l.api = (int32_t)v;
		ap = &g->apis[v];
		ap->calls++;
		for (; hp && pr.call == i; hp = xnext(g->pairs, &pr, sizeof(pr))) {
			l.op_name = attribute(g, c.ts, op, ann, c.nanc, up, pn, pr.dur);
			l.act = pr.act;
			l.by_flow = pr.by_flow;
			pr_xsort_put(g->links, &l);
			ap->acts++;
		}
		ap->overhead += (double)c.dur;
		if (g->nnodes > node_cap()) {
			g->nnodes = 0;
			pr_imap_release(&g->node_by_id);
			memset(&g->node_by_id, 0, sizeof(g->node_by_id));
		}
	}
	if (pr_xsort_failed(g->pairs, err) || pr_spill_failed(g->calls, err))
		return -1;
	pr_xsort_free(g->pairs);
	pr_spill_free(g->calls);
	g->pairs = NULL;
	g->calls = NULL;
	return 0;
}

/* Memcpy/memset type: the name up to " (" ("Memcpy HtoD (Pinned -> Device)" -> "Memcpy HtoD"). */
static char *act_type(struct pr_actx *ctx, const struct arec *a);

static void op_kernel_add(struct launch_delays *ld, int64_t op, int64_t name_id, int64_t delay)
{
	int64_t key[2] = { op, name_id }, v;
	if (!pr_strmap_get(&ld->by_pair, key, sizeof(key), &v)) {
		ld->pairs = pr_xreallocarray(ld->pairs, ld->npairs + 1, sizeof(*ld->pairs));
		memset(&ld->pairs[ld->npairs], 0, sizeof(*ld->pairs));
		ld->pairs[ld->npairs].op = op;
		ld->pairs[ld->npairs].name_id = name_id;
		v = (int64_t)ld->npairs++;
		pr_strmap_put(&ld->by_pair, key, sizeof(key), v);
	}
	ld->pairs[v].acts++;
	ld->pairs[v].delay += (double)delay;
}

/* Outlier x before y: the longer delay, then the earlier start, then the name. */
static int outlier_before(const struct outlier *x, const struct outlier *y)
{
	if (x->delay != y->delay)
		return x->delay > y->delay;
	if (x->ts != y->ts)
		return x->ts < y->ts;
	return x->name_id < y->name_id;
}

/*
 * HTA's kernel launch statistics of a linked activity a and its call l
 * (get_cuda_kernel_launch_stats): CPU duration = the call's, GPU duration
 * = the activity's, launch delay = activity start - call end, clipped at 0
 * (HTA's docstring; lat = start - call start is the gpu section's latency);
 * outliers past HTA's cutoffs, the OUTLIER_CAP longest delays kept, and
 * per op above the call its activities' delays.
 */
static void launch_delay(struct gl *g, const struct arec *a, const struct link_rec *l, int64_t lat)
{
	struct launch_delays *ld = &g->ld;
	int64_t delay = sub_sat(a->ts, l->ts > INT64_MAX - l->dur ? INT64_MAX : l->ts + l->dur);
	struct outlier o;
	int64_t v;
	size_t k;
	if (delay < 0)
		delay = 0;
	ld->n++;
	ld->cpu += (double)l->dur;
	ld->gpu += (double)a->dur;
	ld->delay += (double)delay;
	ld->latency += (double)lat;
	if (l->dur > ld->cpu_max)
		ld->cpu_max = l->dur;
	if (a->dur > ld->gpu_max)
		ld->gpu_max = a->dur;
	if (delay > ld->delay_max)
		ld->delay_max = delay;
	ld->runtime_out += l->dur > RUNTIME_CUTOFF_NS;
	ld->short_k += l->dur <= RUNTIME_CUTOFF_NS && a->dur < l->dur;
	if (l->op_name) {
		struct op_delay *od;
		if (!pr_imap_get(&ld->by_op, l->op_name, &v)) {
			ld->ops = pr_xreallocarray(ld->ops, ld->nops + 1, sizeof(*ld->ops));
			memset(&ld->ops[ld->nops], 0, sizeof(*ld->ops));
			ld->ops[ld->nops].name_id = l->op_name;
			v = (int64_t)ld->nops++;
			pr_imap_put(&ld->by_op, l->op_name, v);
		}
		od = &ld->ops[v];
		op_kernel_add(ld, l->op_name, a->name_id, delay);
		od->acts++;
		od->delay += (double)delay;
		od->latency += (double)lat;
		if (delay > od->delay_max)
			od->delay_max = delay;
	} else {
		ld->no_op++;
	}
	if (delay <= DELAY_CUTOFF_NS)
		return;
	ld->delay_out++;
	o.delay = delay;
	o.ts = a->ts;
	o.cpu = l->dur;
	o.gpu = a->dur;
	o.name_id = a->name_id;
	o.api_name = g->apis[l->api].name_id;
	o.op_name = l->op_name;
	if (ld->ntop == OUTLIER_CAP && !outlier_before(&o, &ld->top[OUTLIER_CAP - 1]))
		return;
	if (ld->ntop < OUTLIER_CAP)
		ld->ntop++;
	for (k = ld->ntop - 1; k > 0 && outlier_before(&o, &ld->top[k - 1]); k--)
		ld->top[k] = ld->top[k - 1];
	ld->top[k] = o;
}

/*
 * The activities' pass, in id order next to their links sorted by
 * activity: per type, per GPU annotation, per stream; the latencies to their sort, the queue's launches and ends to
 * theirs (by stream).
 */
static int acts_pass(struct gl *g, struct pr_error *err)
{
	struct link_rec l;
	const void *p;
	size_t i, k;
	int hl;
	int64_t v;
	if (pr_xsort_sort(g->links, err) || pr_spill_reread(g->acts, err))
		return -1;
	g->lat = pr_xsort_new("the gpu analysis' launch latencies", sizeof(int64_t),
			      sort_mem(sizeof(int64_t)), PR_XSORT_SIGNED);
	g->queue = pr_xsort_new("the gpu analysis' launches by stream", sizeof(struct qrec),
				sort_mem(sizeof(struct qrec)), 0);
	g->t0 = INT64_MAX;
	hl = xnext(g->links, &l, sizeof(l));
	for (i = 0; i < g->nacts && (p = pr_spill_next(g->acts, sizeof(struct arec))); i++) {
		struct arec a;
		struct type_stat *t;
		struct stream *s = NULL;
		int64_t key, lat;
		memcpy(&a, p, sizeof(a));
		/* the type of a name, looked up once per distinct name (kernels: one type) */
		key = a.kind == AK_KERNEL ? NO_KEY + 1 : a.name_id;
		if (!pr_imap_get(&g->type_by_name, key, &v)) {
			char *type = act_type(g->ctx, &a);
			for (k = 0; k < g->ntypes && strcmp(g->types[k].type, type); k++)
				;
			if (k == g->ntypes) {
				g->types = pr_xreallocarray(g->types, g->ntypes + 1,
							    sizeof(*g->types));
				memset(&g->types[g->ntypes], 0, sizeof(*g->types));
				g->types[g->ntypes++].type = type;
			} else {
				free(type);
			}
			v = (int64_t)k;
			pr_imap_put(&g->type_by_name, key, v);
		}
		t = &g->types[v];
		t->acts++;
		add_ns(&t->device_ns, a.dur);
		if (a.gpu_ann >= 0) {
			g->ganns[a.gpu_ann].acts++;
			add_ns(&g->ganns[a.gpu_ann].act_ns, a.dur);
		} else {
			g->gpu_none++;
		}
		if (a.stream >= 0) {
			s = &g->streams[a.stream];
			s->acts++;
			add_ns(&s->busy_ns, a.dur);
			s->nk[a.kind]++;
		}
		if (!hl || l.act != i) {
			g->cpu_none++;
			if (a.kind == AK_KERNEL)
				pr_opk_kernel(g->opk, a.name_id, 0, &a.lp, a.dur, a.bps, a.occ);
			pr_kseq_add(g->kseq, a.stream, a.ts, a.dur, a.name_id, 0, INT64_MIN);
			continue;
		}
		pr_kseq_add(g->kseq, a.stream, a.ts, a.dur, a.name_id, l.op_name, l.ts);
		/* launch latency */
		g->linked++;
		if (a.kind == AK_KERNEL)
			pr_opk_kernel(g->opk, a.name_id, l.op_name, &a.lp, a.dur, a.bps, a.occ);
		g->by_flow += l.by_flow;
		lat = sub_sat(a.ts, l.ts);
		pr_xsort_put(g->lat, &lat);
		g->negative += lat < 0;
		t->linked++;
		t->latency += (double)lat;
		if (!t->has_max || (double)lat > t->latency_max)
			t->latency_max = (double)lat;
		t->has_max = 1;
		g->apis[l.api].latency += (double)lat;
		launch_delay(g, &a, &l, lat);
		/* HTA's short kernels: the GPU runs it in less time than the CPU took to launch it */
		if (a.kind == AK_KERNEL) {
			g->kern_linked++;
			if (a.dur < l.dur) {
				g->kern_short++;
				add_ns(&g->short_dev, a.dur);
				add_ns(&g->short_call, l.dur);
			}
		}
		if (l.ts < g->window_end) {
			g->hta_acts++;
			if (a.gpu_ann >= 0 && a.ann_ts < g->window_end)
				g->ganns[a.gpu_ann].hta_acts++;
		}
		/* the stream's queue: launched when the call starts, never ending before */
		if (s) {
			struct qrec q;
			s->linked++;
			if (l.ts < g->t0)
				g->t0 = l.ts;
			q.stream = (uint64_t)a.stream;
			q.start = l.ts;
			q.end = a.ts + a.dur > l.ts ? a.ts + a.dur : l.ts;
			pr_xsort_put(g->queue, &q);
		}
		hl = xnext(g->links, &l, sizeof(l));
	}
	if (pr_xsort_failed(g->links, err) || pr_spill_failed(g->acts, err))
		return -1;
	pr_xsort_free(g->links);
	pr_spill_free(g->acts);
	g->links = NULL;
	g->acts = NULL;
	return 0;
}

/*
 * min, mean, p50, p95, max of the values of a sort: read in ascending
 * order, summed in it, the quantiles interpolated as pr_quantile_sorted
 * does (its indexes known from the count). NULL with err when a read fails.
 */
static json_t *quantiles(struct pr_xsort *xs, int with_total, struct pr_error *err)
{
	static const double qs[2] = { 0.5, 0.95 };
	uint64_t n = pr_xsort_count(xs), i;
	double sum = 0, d = 0, lo_v[2] = { 0, 0 }, hi_v[2] = { 0, 0 }, pos[2], q[2];
	size_t lo[2], k;
	int64_t v = 0, vmin = 0;
	json_t *o;
	if (!n)
		return json_null();
	if (pr_xsort_sort(xs, err))
		return NULL;
	for (k = 0; k < 2; k++) {
		pos[k] = qs[k] * (double)(n - 1);
		lo[k] = (size_t)pos[k];
	}
	for (i = 0; i < n && xnext(xs, &v, sizeof(v)); i++) {
		d = (double)v;
		sum += d;
		if (!i)
			vmin = v;
		for (k = 0; k < 2; k++) {
			if (i == lo[k])
				lo_v[k] = d;
			if (i == lo[k] + 1)
				hi_v[k] = d;
		}
	}
	if (pr_xsort_failed(xs, err))
		return NULL;
	if (i < n) {
		pr_error_set(err, PR_E_IO, "sort of the gpu analysis' values: %llu of %llu read",
			     (unsigned long long)i, (unsigned long long)n);
		return NULL;
	}
	for (k = 0; k < 2; k++) /* pr_quantile_sorted */
		q[k] = lo[k] + 1 >= n ? d
				      : lo_v[k] + (hi_v[k] - lo_v[k]) * (pos[k] - (double)lo[k]);
	o = pr_jobj("min_ns", pr_jint(vmin), "mean_ns", pr_jnum(sum / (double)n), "p50_ns",
		    pr_jnum(q[0]), "p95_ns", pr_jnum(q[1]), "max_ns", pr_jint(v), NULL);
	if (with_total)
		json_object_set_new(o, "total_ns", pr_jnum(sum));
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
static char *act_type(struct pr_actx *ctx, const struct arec *a)
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

/* The launches from what the passes gathered (NULL with err when a sort's read fails). */
static json_t *launches_json(struct gl *g, struct pr_error *err)
{
	size_t i, j, ntypes = g->ntypes, napis = g->napis;
	struct api_stat *apis = g->apis;
	struct type_stat *types = g->types;
	json_t *o, *arr, *lat, *ovh;
	uint64_t ncalls = pr_xsort_count(g->ovh);
	if (!(lat = quantiles(g->lat, 0, err)))
		return NULL;
	if (!(ovh = quantiles(g->ovh, 1, err))) {
		json_decref(lat);
		return NULL;
	}
	/* their buffers back before the streams' sorts */
	pr_xsort_free(g->lat);
	pr_xsort_free(g->ovh);
	g->lat = g->ovh = NULL;
	o = pr_jobj("activities", pr_jint((int64_t)g->nacts), "linked", pr_jint(g->linked),
		    "linked_by_flow", pr_jint(g->by_flow), "unlinked",
		    pr_jint((int64_t)g->nacts - g->linked), "calls", pr_jint((int64_t)ncalls),
		    "latency", lat, "negative_latency", pr_jint(g->negative), "overhead", ovh,
		    NULL);
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
		json_array_append_new(arr,
				      pr_jobj("name", json_string(nm), "calls",
					      pr_jint(apis[i].calls), "activities",
					      pr_jint(apis[i].acts), "overhead_total_ns",
					      pr_jnum(apis[i].overhead), "overhead_mean_ns",
					      pr_jnum(apis[i].overhead / (double)apis[i].calls),
					      "latency_mean_ns",
					      pr_jnum(apis[i].latency / (double)apis[i].acts),
					      NULL));
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
					    pr_jint(calls), "overhead_total_ns", pr_jnum(ov),
					    NULL));
	}
	/* per activity type (kernel, Memcpy DtoD, ...), the most frequent first */
	if (ntypes) /* types is NULL when no GPU op was linked */
		qsort(types, ntypes, sizeof(*types), cmp_type);
	arr = json_array();
	for (i = 0; i < ntypes && i < TYPE_CAP; i++)
		json_array_append_new(arr,
				      pr_jobj("type", json_string(types[i].type), "activities",
					      pr_jint(types[i].acts), "linked",
					      pr_jint(types[i].linked), "device_ns",
					      pr_jint(types[i].device_ns), "latency_mean_ns",
					      types[i].linked ? pr_jnum(types[i].latency /
									(double)types[i].linked)
							      : json_null(),
					      "latency_max_ns",
					      types[i].has_max ? pr_jnum(types[i].latency_max)
							       : json_null(),
					      NULL));
	if (ntypes > TYPE_CAP) {
		int64_t n = 0;
		for (i = TYPE_CAP; i < ntypes; i++)
			n += types[i].acts;
		json_object_set_new(o, "by_type_more",
				    pr_jobj("types", pr_jint((int64_t)(ntypes - TYPE_CAP)),
					    "activities", pr_jint(n), NULL));
	}
	json_object_set_new(o, "by_type", arr);
	json_object_set_new(o, "short_kernels",
			    pr_jobj("kernels", pr_jint(g->kern_short), "of_linked",
				    pr_jint(g->kern_linked), "device_ns", pr_jint(g->short_dev),
				    "launch_ns", pr_jint(g->short_call), "rule",
				    json_string(
					    "a linked kernel whose duration is shorter than its "
					    "runtime call's (HTA's short GPU kernels)"),
				    NULL));
	json_object_set_new(
		o, "rule",
		json_string(
			"an activity (kernel, memcpy, memset) is linked to the runtime call with "
			"its \"correlation\" arg (the ac2g flow's id where the arg is missing); "
			"latency = activity start - call start, per activity; overhead = call "
			"duration, per call that launched something"));
	return o;
}

static int cmp_op_delay(const void *a, const void *b)
{
	const struct op_delay *x = a, *y = b;
	if (x->delay != y->delay)
		return x->delay > y->delay ? -1 : 1;
	return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

static json_t *name_json(struct pr_actx *ctx, int64_t name_id)
{
	char *t;
	json_t *j;
	if (!name_id)
		return json_null();
	t = name_text(ctx, name_id);
	j = json_string(t);
	free(t);
	return j;
}

/* Pair x before y: the op, then the most delay, then the name id. */
static int cmp_pair(const void *a, const void *b)
{
	const struct op_kernel *x = a, *y = b;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	if (x->delay != y->delay)
		return x->delay > y->delay ? -1 : 1;
	return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* An op's activities by name (pairs sorted by cmp_pair): the OP_KERNELS with most delay. */
static json_t *op_kernels_json(struct gl *g, int64_t op)
{
	struct launch_delays *ld = &g->ld;
	json_t *arr = json_array();
	size_t lo = 0, hi = ld->npairs, k;
	while (lo < hi) { /* the first pair of op */
		size_t mid = lo + (hi - lo) / 2;
		if (ld->pairs[mid].op < op)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < ld->npairs && ld->pairs[k].op == op && k - lo < OP_KERNELS; k++) {
		const struct op_kernel *x = &ld->pairs[k];
		json_array_append_new(arr, pr_jobj("name", name_json(g->ctx, x->name_id),
						   "activities", pr_jint(x->acts), "delay_total_ns",
						   pr_jnum(x->delay), NULL));
	}
	return arr;
}

/* HTA's kernel launch statistics (launch_delay() says what each is). */
static json_t *launch_delays_json(struct gl *g)
{
	struct launch_delays *ld = &g->ld;
	double n = (double)ld->n;
	size_t i, cap = g->ctx->opts->top_n;
	json_t *o, *arr;
	o = pr_jobj("launches", pr_jint(ld->n), "cpu_duration_mean_ns", pr_jnum(ld->cpu / n),
		    "cpu_duration_max_ns", pr_jint(ld->cpu_max), "gpu_duration_mean_ns",
		    pr_jnum(ld->gpu / n), "gpu_duration_max_ns", pr_jint(ld->gpu_max),
		    "delay_mean_ns", pr_jnum(ld->delay / n), "delay_max_ns", pr_jint(ld->delay_max),
		    "delay_total_ns", pr_jnum(ld->delay), "latency_mean_ns",
		    pr_jnum(ld->latency / n), "runtime_cutoff_ns", pr_jint(RUNTIME_CUTOFF_NS),
		    "delay_cutoff_ns", pr_jint(DELAY_CUTOFF_NS), "runtime_outliers",
		    pr_jint(ld->runtime_out), "delay_outliers", pr_jint(ld->delay_out),
		    "short_kernels", pr_jint(ld->short_k), NULL);
	arr = json_array();
	for (i = 0; i < ld->ntop; i++) {
		const struct outlier *x = &ld->top[i];
		json_array_append_new(arr, pr_jobj("name", name_json(g->ctx, x->name_id), "call",
						   name_json(g->ctx, x->api_name), "op",
						   name_json(g->ctx, x->op_name), "t_ns",
						   pr_actx_t(g->ctx, x->ts), "cpu_ns",
						   pr_jint(x->cpu), "gpu_ns", pr_jint(x->gpu),
						   "delay_ns", pr_jint(x->delay), NULL));
	}
	json_object_set_new(o, "outliers", arr);
	if (ld->nops)
		qsort(ld->ops, ld->nops, sizeof(*ld->ops), cmp_op_delay);
	if (ld->npairs) /* the index is not needed any more */
		qsort(ld->pairs, ld->npairs, sizeof(*ld->pairs), cmp_pair);
	arr = json_array();
	for (i = 0; i < ld->nops && i < cap; i++) {
		const struct op_delay *x = &ld->ops[i];
		json_array_append_new(arr,
				      pr_jobj("name", name_json(g->ctx, x->name_id), "activities",
					      pr_jint(x->acts), "delay_total_ns", pr_jnum(x->delay),
					      "delay_mean_ns", pr_jnum(x->delay / (double)x->acts),
					      "delay_max_ns", pr_jint(x->delay_max),
					      "latency_mean_ns",
					      pr_jnum(x->latency / (double)x->acts), "kernels",
					      op_kernels_json(g, x->name_id), NULL));
	}
	json_object_set_new(o, "by_op", arr);
	if (ld->nops > cap) {
		int64_t acts = 0;
		double d = 0;
		for (i = cap; i < ld->nops; i++) {
			acts += ld->ops[i].acts;
			d += ld->ops[i].delay;
		}
		json_object_set_new(o, "by_op_more",
				    pr_jobj("names", pr_jint((int64_t)(ld->nops - cap)),
					    "activities", pr_jint(acts), "delay_total_ns",
					    pr_jnum(d), NULL));
	}
	json_object_set_new(o, "no_op", pr_jint(ld->no_op));
	json_object_set_new(
		o, "rule",
		json_string("HTA's kernel launch statistics over the linked activities (kernels, "
			    "memcpys, memsets): cpu duration = the runtime call's, gpu duration = "
			    "the activity's, delay = activity start - call end, clipped at 0 "
			    "(latency = start - call start, the launches' figure); outliers: cpu "
			    "duration > runtime_cutoff_ns, delay > delay_cutoff_ns (HTA's 50 and "
			    "100 us; the longest 10 delays listed); short kernels: cpu duration <= "
			    "runtime cutoff and gpu duration < cpu duration; by_op: the nearest op "
			    "above the call, the most delay first, with its 3 activity names of "
			    "most delay"));
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
	json_array_foreach (items, i, it) {
		if (!strcmp(pr_mstr(it, "name"), name) && !strcmp(pr_mstr(it, "kind"), kind))
			return it;
	}
	return NULL;
}

/* A "spans" row's integer less the merged ops' share (opmerge.h); null without the row. */
static json_t *less(json_t *host, const char *key, int64_t merged)
{
	json_t *v = json_object_get(host, key);
	if (!host)
		return json_null();
	if (!merged || !json_is_integer(v))
		return json_incref(v);
	return pr_jint(json_integer_value(v) - merged);
}

static json_t *ops_json(struct gl *g, int64_t no_op_acts, int64_t no_op_ns)
{
	json_t *host;
	size_t i, n = 0, cap = g->ctx->opts->top_n;
	struct name_stat *v = pr_xreallocarray(NULL, g->nops ? g->nops : 1, sizeof(*v));
	json_t *arr = json_array(), *o;
	int64_t more_self = 0, more_n = 0, more_names = 0, mcalls, mdur;
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
		/* an op merged into its same-name parent is no call of its own (opmerge.h) */
		mcalls = pr_opmerge_name(g->merge, v[i].name_id, &mdur);
		json_array_append_new(arr,
				      pr_jobj("name", json_string(nm), "calls",
					      less(host, "count", mcalls), "host_total_ns",
					      less(host, "total_ns", mdur), "host_self_ns",
					      host ? json_incref(json_object_get(host, "self_ns"))
						   : json_null(),
					      "device_self_ns", pr_jint(v[i].dev_self),
					      "device_total_ns", pr_jint(v[i].dev_total),
					      "activities", pr_jint(v[i].n_self),
					      "activities_total", pr_jint(v[i].n_total), NULL));
		free(nm);
	}
	o = pr_jobj("items", arr, "no_op",
		    pr_jobj("activities", pr_jint(no_op_acts), "device_ns", pr_jint(no_op_ns),
			    NULL),
		    NULL);
	if (more_names)
		json_object_set_new(o, "items_more",
				    pr_jobj("names", pr_jint(more_names), "device_self_ns",
					    pr_jint(more_self), "activities", pr_jint(more_n),
					    NULL));
	json_object_set_new(
		o, "rule",
		json_string(
			"TensorBoard's operator view: device self = activities launched by "
			"runtime calls whose nearest op ancestor is the op; device total = by the "
			"op or any op below it (summed per call, so nested calls of one name "
			"count twice, but an op that is the only child of a same-name op is "
			"one call with it, as TensorBoard merges them); the top N names by "
			"device total; calls and host times from \"spans\", less the merged "
			"ops"));
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
		json_array_append_new(arr,
				      pr_jobj("name", json_string(nm), "count", pr_jint(v[i].count),
					      "total_ns", pr_jint(v[i].total_ns), "activities",
					      pr_jint(v[i].acts), "device_ns", pr_jint(v[i].act_ns),
					      "hta",
					      pr_jobj("count", pr_jint(v[i].hta_count),
						      "activities", pr_jint(v[i].hta_acts), NULL),
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
			json_string(
				"HTA's default (include_last_profiler_step=False) with >= 2 steps: "
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

/* A queue's change (time, length), in the series' stream. */
struct qpoint {
	int64_t t, v;
};

/* The next change of the series (k its index, n the count): 1, or 0 past the end. */
static int qnext(struct pr_spill *series, uint64_t k, uint64_t n, struct qpoint *pt)
{
	const void *p;
	if (k >= n || !(p = pr_spill_next(series, sizeof(*pt))))
		return 0;
	memcpy(pt, p, sizeof(*pt));
	return 1;
}

/*
 * The step series (its n changes, first at t_first, last at t_last, in the
 * series' stream) reduced to at most cap points: min and max of each time
 * bucket, in order. NULL with err when reading it fails.
 */
static json_t *queue_timeline(struct pr_actx *ctx, struct pr_spill *series, uint64_t n,
			      int64_t t_first, int64_t t_last, size_t cap, struct pr_error *err)
{
	json_t *ta, *va;
	size_t b, buckets = cap / 2 ? cap / 2 : 1;
	uint64_t k = 0;
	double span = n ? (double)sub_sat(t_last, t_first) + 1 : 1;
	struct qpoint cur = { 0, 0 };
	int has;
	if (pr_spill_reread(series, err))
		return NULL;
	ta = json_array();
	va = json_array();
	has = qnext(series, k, n, &cur);
	for (b = 0; has && (n <= cap || b < buckets); b++) {
		int64_t end =
			n <= cap || b + 1 == buckets
				? INT64_MAX
				: t_first + (int64_t)(span * (double)(b + 1) / (double)buckets);
		struct qpoint lo, hi, x;
		uint64_t ilo, ihi, ix;
		if (n <= cap) { /* every change */
			json_array_append_new(ta, pr_actx_t(ctx, cur.t));
			json_array_append_new(va, pr_jint(cur.v));
			has = qnext(series, ++k, n, &cur);
			continue;
		}
		if (cur.t >= end)
			continue;
		lo = hi = cur;
		ilo = ihi = k;
		for (; has && cur.t < end; has = qnext(series, ++k, n, &cur)) {
			if (cur.v < lo.v) {
				lo = cur;
				ilo = k;
			}
			if (cur.v > hi.v) {
				hi = cur;
				ihi = k;
			}
		}
		if (ilo > ihi) {
			x = lo;
			lo = hi;
			hi = x;
			ix = ilo;
			ilo = ihi;
			ihi = ix;
		}
		json_array_append_new(ta, pr_actx_t(ctx, lo.t));
		json_array_append_new(va, pr_jint(lo.v));
		if (ihi != ilo) {
			json_array_append_new(ta, pr_actx_t(ctx, hi.t));
			json_array_append_new(va, pr_jint(hi.v));
		}
	}
	if (pr_spill_failed(series, err) || (k < n && (n <= cap || b < buckets))) {
		if (!err->code)
			pr_error_set(err, PR_E_IO,
				     "the gpu analysis' queue series: %llu of %llu read",
				     (unsigned long long)k, (unsigned long long)n);
		json_decref(ta);
		json_decref(va);
		return NULL;
	}
	return pr_jobj("t_ns", ta, "v", va, "reduced", json_boolean(n > cap), NULL);
}

/*
 * Queue length of one stream from its events, sorted: key = (t - t0) * 2,
 * + 1 for an end, so at one time launches come before ends and the value
 * after each time (the series) never dips below what both leave. The
 * series goes to a stream, read again for the timeline.
 */
static json_t *queue_json(struct gl *g, struct pr_xsort *keys, int64_t t0, struct pr_error *err)
{
	size_t cap = g->ctx->opts->timeline_points;
	uint64_t n = pr_xsort_count(keys), key = 0, ntp = 0;
	int64_t q = 0, qmax = 0, tmax = 0, first, last, at_max = 0;
	double area = 0, samples = 0;
	uint64_t nsamples = 0;
	struct pr_spill *series;
	json_t *o, *tl;
	int has;
	if (!n)
		return json_null();
	if (pr_xsort_sort(keys, err))
		return NULL;
	series = pr_spill_new("the gpu analysis' queue series", pr_gpuscan_mem);
	has = xnext(keys, &key, sizeof(key));
	first = last = add_wrap(t0, key >> 1);
	while (has) {
		int64_t t = add_wrap(t0, key >> 1);
		struct qpoint pt;
		area += (double)q * (double)sub_sat(t, last);
		if (q == qmax && ntp)
			add_ns(&at_max, sub_sat(t, last)); /* at the running max */
		/* HTA's statistic: the mean of the value after each launch and end */
		for (; has && add_wrap(t0, key >> 1) == t; has = xnext(keys, &key, sizeof(key))) {
			q += key & 1 ? -1 : 1;
			samples += (double)q;
			nsamples++;
		}
		last = t;
		pt.t = t;
		pt.v = q;
		pr_spill_put(series, &pt, sizeof(pt));
		ntp++;
		if (q > qmax) {
			qmax = q;
			tmax = t;
			at_max = 0;
		}
	}
	if (pr_xsort_failed(keys, err)) {
		pr_spill_free(series);
		return NULL;
	}
	o = pr_jobj("mean", pr_jnum(last > first ? area / (double)sub_sat(last, first) : 0), "max",
		    pr_jint(qmax), "max_t_ns", pr_actx_t(g->ctx, tmax), "changes",
		    pr_jint((int64_t)ntp), "sample_mean",
		    pr_jnum(nsamples ? samples / (double)nsamples : 0), "at_max_ns",
		    pr_jint(at_max), NULL);
	if (cap) {
		if (!(tl = queue_timeline(g->ctx, series, ntp, first, last, cap, err))) {
			json_decref(o);
			pr_spill_free(series);
			return NULL;
		}
		json_object_set_new(o, "timeline", tl);
	}
	pr_spill_free(series);
	return o;
}

/*
 * Per stream: activities, busy time and the queue length (launches +1,
 * ends -1, in time order): the launches and ends by stream (in activity
 * order), those of a stream shown to a sort of their keys. NULL with err
 * when a sort or stream fails.
 */
static json_t *streams_json(struct gl *g, struct pr_error *err)
{
	size_t j, more = 0;
	json_t *arr, *o, *queue;
	struct qrec r;
	int hr;
	if (pr_xsort_sort(g->queue, err))
		return NULL;
	arr = json_array();
	hr = xnext(g->queue, &r, sizeof(r));
	for (j = 0; j < g->nstreams; j++) {
		struct stream *s = &g->streams[j];
		struct pr_xsort *keys;
		const char *label;
		char buf[24];
		if (!s->acts)
			continue;
		if (json_array_size(arr) >= STREAM_CAP) {
			more++;
			continue;
		}
		while (hr && r.stream < j) /* streams beyond the cap */
			hr = xnext(g->queue, &r, sizeof(r));
		keys = pr_xsort_new("the gpu analysis' queue of a stream", sizeof(uint64_t),
				    sort_mem(sizeof(uint64_t)), 0);
		for (; hr && r.stream == j; hr = xnext(g->queue, &r, sizeof(r))) {
			uint64_t k = ((uint64_t)r.start - (uint64_t)g->t0) << 1;
			pr_xsort_put(keys, &k);
			k = (((uint64_t)r.end - (uint64_t)g->t0) << 1) | 1;
			pr_xsort_put(keys, &k);
		}
		queue = queue_json(g, keys, g->t0, err);
		pr_xsort_free(keys);
		if (!queue || pr_xsort_failed(g->queue, err)) {
			json_decref(queue);
			json_decref(arr);
			return NULL;
		}
		label = pr_gpuscan_stream_label(s->kstream, s->tid, buf, sizeof(buf));
		json_array_append_new(arr,
				      o = pr_jobj("device", json_string(s->pid), "stream",
						  json_string(label), "name", json_string(s->name),
						  "activities", pr_jint(s->acts), "kernels",
						  pr_jint(s->nk[AK_KERNEL]), "memcpys",
						  pr_jint(s->nk[AK_MEMCPY]), "memsets",
						  pr_jint(s->nk[AK_MEMSET]), "linked",
						  pr_jint(s->linked), "busy_ns",
						  pr_jint(s->busy_ns), "queue", queue, NULL));
		if (strcmp(label, s->tid))
			json_object_set_new(o, "tid", json_string(s->tid)); /* the track's thread */
	}
	if (pr_xsort_failed(g->queue, err)) {
		json_decref(arr);
		return NULL;
	}
	o = pr_jobj("items", arr, NULL);
	if (more)
		json_object_set_new(o, "items_more", pr_jint((int64_t)more));
	json_object_set_new(
		o, "rule",
		json_string(
			"queue length = linked activities whose runtime call has started and "
			"that have not finished (an end before the call's start counts at the "
			"call's start); mean weighted by time from the first launch to the last "
			"end on the stream; sample_mean: HTA's, the mean of the length after "
			"each launch and end; at_max_ns: time at the stream's maximum length; "
			"stream: Kineto's stream id (the stream arg), tid: the track's thread "
			"where it differs"));
	return o;
}

/* gpu.kernel_sequences (kseq.h), with the streams named as in gpu.streams. */
static int kseq_json(struct gl *g, json_t *o, struct pr_error *err)
{
	char(*buf)[24] = pr_xcalloc(g->nstreams + 1, sizeof(*buf));
	const char **labels = pr_xcalloc(g->nstreams + 1, sizeof(*labels));
	json_t *ks;
	size_t i;
	int rc;
	for (i = 0; i < g->nstreams; i++)
		labels[i] = pr_gpuscan_stream_label(g->streams[i].kstream, g->streams[i].tid,
						    buf[i], sizeof(buf[i]));
	rc = pr_kseq_finish(g->kseq, labels, &ks, err);
	if (!rc)
		json_object_set_new(o, "kernel_sequences", ks);
	free(labels);
	free(buf);
	return rc;
}

static void gl_release(struct gl *g)
{
	size_t i;
	pr_imap_release(&g->streams_by_track);
	pr_imap_release(&g->ld.by_op);
	free(g->ld.ops);
	pr_strmap_release(&g->ld.by_pair);
	free(g->ld.pairs);
	for (i = 0; i < g->nstreams; i++) {
		free(g->streams[i].pid);
		free(g->streams[i].tid);
		free(g->streams[i].name);
	}
	free(g->streams);
	pr_spill_free(g->acts);
	pr_spill_free(g->calls);
	pr_xsort_free(g->call_corr);
	pr_xsort_free(g->act_corr);
	pr_xsort_free(g->pairs);
	pr_xsort_free(g->links);
	pr_xsort_free(g->lat);
	pr_xsort_free(g->ovh);
	pr_xsort_free(g->queue);
	free(g->tracks);
	free(g->nodes);
	pr_imap_release(&g->node_by_id);
	free(g->ops);
	free(g->canns);
	free(g->ganns);
	pr_imap_release(&g->op_by_name);
	pr_imap_release(&g->cann_by_name);
	pr_imap_release(&g->gann_by_name);
	free(g->apis);
	pr_imap_release(&g->api_by_name);
	for (i = 0; i < g->ntypes; i++)
		free(g->types[i].type);
	free(g->types);
	pr_imap_release(&g->type_by_name);
	if (g->up)
		sqlite3_finalize(g->up);
	pr_gpuanc_close(g->anc, NULL);
	pr_spill_free(g->anc_s);
	if (g->name_st)
		sqlite3_finalize(g->name_st);
	for (i = 0; i < g->nnames; i++)
		free(g->names[i]);
	free(g->names);
	pr_imap_release(&g->name_ix);
	pr_opk_free(g->opk);
	pr_kseq_free(g->kseq);
}

/* What recommendations read (results.h): that there is a "gpu" section, its short kernels. */
static void publish(struct pr_actx *ctx)
{
	struct pr_res_gpulink *r = &pr_results(ctx)->gpulink;
	const json_t *o = json_object_get(ctx->out, "gpu");
	const json_t *sk = json_object_get(json_object_get(o, "launches"), "short_kernels");
	r->present = o != NULL;
	r->short_rule = pr_mstr(sk, "rule");
	r->short_kernels = pr_mnum(sk, "kernels");
	r->short_of_linked = pr_mnum(sk, "of_linked");
	r->short_device_ns = pr_mnum(sk, "device_ns");
	r->short_launch_ns = pr_mnum(sk, "launch_ns");
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct gl g;
	json_t *o, *dt, *part;
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
	 * in the streams, the rest of its memory back before the links are made (but the
	 * launching ops' rows, for the ancestors) */
	if (ctx->gpuscan)
		g.anc_s = pr_gpuscan_take_anc(ctx->gpuscan);
	pr_gpuscan_drop(ctx);
	if (link_by_flows(&g, err) || link_pairs(&g, err))
		goto out;
	if (!(g.opk = pr_opk_new(ctx, err)))
		goto out;
	/* an op's shapes and name only when the op view has rows to charge */
	g.op_rows = json_object_get(ctx->out, "op_view") != NULL;
	if (sqlite3_prepare_v2(ctx->db,
			       g.op_rows ? "SELECT s.kind, s.name_id, ifnull(s.parent_id, 0), "
					   "s.args_keys, s.args, "
					   "(SELECT value FROM string WHERE id = s.name_id) "
					   "FROM span s WHERE s.id = ?1"
					 : "SELECT kind, name_id, ifnull(parent_id, 0) FROM span "
					   "WHERE id = ?1",
			       -1, &g.up, NULL) != SQLITE_OK) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
		goto out;
	}
	g.kseq = pr_kseq_new(ctx, g.nstreams);
	if (!(g.anc = pr_gpuanc_open(g.anc_s, err)))
		goto out;
	if (calls_pass(&g, err) || pr_gpuanc_close(g.anc, err)) {
		g.anc = NULL;
		goto out;
	}
	g.anc = NULL;
	pr_spill_free(g.anc_s);
	g.anc_s = NULL;
	if (acts_pass(&g, err))
		goto out;
	dt = json_object_get(ctx->meta, "device_type");
	o = pr_jobj("device_type", json_is_string(dt) ? json_incref(dt) : json_null(), NULL);
	if (!(part = launches_json(&g, err))) {
		json_decref(o);
		goto out;
	}
	json_object_set_new(o, "launches", part);
	if (g.ld.n)
		json_object_set_new(o, "launch_delays", launch_delays_json(&g));
	json_object_set_new(o, "ops", ops_json(&g, g.no_op_acts, g.no_op_ns));
	if (!(part = streams_json(&g, err))) {
		json_decref(o);
		goto out;
	}
	json_object_set_new(o, "streams", part);
	if (kseq_json(&g, o, err)) {
		json_decref(o);
		goto out;
	}
	json_object_set_new(o, "annotations",
			    annotations_json(&g, g.gpu_none, g.cpu_none, g.hta_acts));
	if (g.dup_corr)
		json_object_set_new(o, "duplicate_correlations", pr_jint(g.dup_corr));
	json_object_set_new(ctx->out, "gpu", o);
	/* the op view's device columns and the kernel view, after "gpu" */
	if (pr_opk_finish(g.opk, err))
		goto out;
	publish(ctx);
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
	.stage = PR_STAGE_GPU_LATE,
};
