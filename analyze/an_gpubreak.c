/*
 * an_gpubreak.c - "gpu_breakdown" and "step_breakdown": the breakdowns
 * Holistic Trace Analysis (HTA) and the TensorBoard profiler plugin print,
 * from one time-ordered scan of the run's GPU ops (kernel, memcpy, memset
 * spans), runtime calls and, when the run has steps, CPU ops.
 *
 * gpu_breakdown (HTA's definitions, exact ns):
 *  - every GPU op is compute, communication or memory: memory = memcpy and
 *    memset spans and the kernels kclass.h calls memory ("Memcpy..."/
 *    "Memset...", MTIA's "dma..."); communication = kernels of a collective
 *    library (kclass.h: NCCL/RCCL, gloo, MSCCL, NVSHMEM, DeepEP, and the
 *    --comm-kernels pattern); compute = every other kernel;
 *  - temporal breakdown of the rank (all streams) and of each stream, over
 *    its span (first op start .. last op end): compute = union of compute
 *    kernels; communication = union of compute and communication minus
 *    compute (overlapped communication counts as compute, as in HTA);
 *    memory = union of all ops minus that; idle = span - union of all ops;
 *  - idle split (HTA's idle time breakdown): a gap before an op is host
 *    wait when the runtime call that launched the op (same "correlation":
 *    any runtime call, as the gpu section links them, not only those named
 *    launch/memcpy/memset) started after the previous op ended (the CPU was late), else kernel
 *    wait when shorter than 30 ns (HTA's consecutive_kernel_delay), else
 *    other. Per stream the gaps are those between the stream's consecutive
 *    ops (HTA); for the rank, those of the union of all streams;
 *  - overlap: time where communication and compute kernels run at once /
 *    union of communication kernels (HTA's comm/comp overlap);
 *  - scopes (TraceLens's gpu_timeline, issue 28): computation, exposed
 *    communication and memcpy, busy, idle and total over every GPU op (all),
 *    the ops a traced runtime call launched (linked: TraceLens's
 *    include_unlinked_kernels=False) and those launched inside a top-level
 *    ProfilerStep (steps); memsets count as computation there;
 *  - kernels: time per type and per communication library, the top names
 *    by total time (count, mean, median, min, max, std, share; TensorBoard's
 *    duration-weighted blocks per SM and achieved occupancy where the args
 *    carry them), the rest summed; memcpy/memset per direction with bytes
 *    and bandwidth = bytes / time of the ops that carry "bytes".
 *
 * step_breakdown (TensorBoard's overview, torch_tb_profiler step_parser.py,
 * overall_parser.py, gpu_metrics_parser.py):
 *  - steps are the top-level ProfilerStep spans, extended to the device as
 *    TensorBoard does: a step ends at the later of its host end and the end
 *    of the last GPU op launched by a runtime call lying inside it, and
 *    starts no earlier than the previous step's end (step 0 no earlier than
 *    the end of the GPU ops launched outside any step that end before step
 *    0's first op); trailing steps that launched nothing are dropped, and
 *    so is the last step when it launched < 80 % of the ops of the one
 *    before (the profiler may have cut its kernels off);
 *  - every instant of a step goes to the first of Kernel > Memcpy > Memset >
 *    Communication > Runtime > DataLoader > CPU Exec > Other active then
 *    (Kernel = non-communication kernels; DataLoader = spans named
 *    "enumerate(DataLoader)#....__next__"; CPU Exec = CPU ops), so the
 *    categories add up to the step;
 *  - GPU utilisation = union of kernels / time; estimated SM efficiency =
 *    integral of min(sum of "blocks per SM" of the running kernels, 1) /
 *    time; achieved occupancy = "est. achieved occupancy %" weighted by
 *    kernel time; per step and over the steps' range.
 *
 * MEMORY: the scan streams: the shared pass's GPU rows (gpuscan.h) are put
 * in start order by base/xsort (an 8 MiB buffer, then sorted runs in a
 * scratch file); what is held is per
 * stream, per distinct name, per step, plus the launches whose op has not
 * started yet and the kernels running at the scan's time. Role coverage is
 * kept as running unions; step boundaries known only at the end (device
 * ends) are handled by evaluating the cumulative coverage at every
 * candidate boundary as the scan passes it. Runtime calls not named as
 * launches wait for their GPU op in a ring of the last 65 536 (512 KiB,
 * only when the run has such calls; other_put()).
 */
#include <math.h>
#include <stddef.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "analyze/analyzers.h"
#include "analyze/model.h"
#include "base/timecheck.h"
#include "analyze/gpuscan.h"
#include "analyze/kclass.h"
#include "base/stats.h"
#include "analyze/throughput.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"
#include "base/xsort.h"

#define KERNEL_WAIT_NS 30 /* HTA's consecutive_kernel_delay default */
#define MAX_STREAMS 64
#define MAX_STEPS_LISTED 1000
#define TAIL_RATIO 0.8
/* Durations kept for exact medians (8 bytes each); beyond, one more ordered SQL pass. */
size_t pr_gpubreak_keep_max = (size_t)4 << 20;

enum rowkind {
	K_KERNEL,
	K_MEMCPY,
	K_MEMSET,
	K_RUNTIME,
	K_OP,
	K_PHASE,
	K_OTHER
};
/* the classes and libraries of kclass.h, the one classification */
enum gclass {
	C_COMPUTE = PR_KC_COMPUTE,
	C_COMM = PR_KC_COMM,
	C_MEMORY = PR_KC_MEMORY,
	NCLASS
};
#define class_names pr_kclass_names
#define NLIB PR_KL_N
#define lib_names pr_klib_names

enum dir {
	D_HTOD,
	D_DTOH,
	D_DTOD,
	D_PTOP,
	D_HTOH,
	D_MEMSET,
	D_OTHER,
	NDIR
};
static const char *const dir_names[NDIR] = { "HtoD", "DtoH",   "DtoD", "PtoP",
					     "HtoH", "Memset", "other" };

#define F_LAUNCH 1     /* a runtime call that launches GPU work */
#define F_GRAPH 2      /* ... a graph launch: several ops share its correlation */
#define F_DATALOADER 4 /* TensorBoard's DataLoader span */

/* Per distinct name: classification, and statistics when it names GPU ops. */
struct gname {
	int64_t id;
	uint8_t lib, dir, flags, cls; /* cls: of a kernel of this name (kclass.h) */
	int kind;		      /* kind of its first GPU op, -1 = none */
	int64_t count, total, min, max;
	int64_t calls, launched; /* a runtime call name's calls kept by other_put, linked ones */
	double sumsq, median, bps_w, bps_d, occ_w, occ_d;
	double *durs; /* every duration, while the total kept is under pr_gpubreak_keep_max */
	size_t ndurs, capdurs;
};

/* The args of a GPU op read (gpuscan.h reads them). */
enum {
	A_BYTES,
	A_BPS,
	A_OCC,
	NARGS
};

/* A running union of intervals added in start order. */
struct uacc {
	int64_t s, e, total;
	int open;
};

/*
 * A scope's running unions (TraceLens's gpu_timeline): computation = kernels
 * and memsets that are not communication, cc = computation and
 * communication, mem = memcpys (memory-class kernels not named Memset too).
 */
enum {
	S_ALL,
	S_LINKED,
	S_STEPS,
	NSCOPE
};
static const char *const scope_names[NSCOPE] = { "all", "linked", "steps" };
enum {
	SK_COMP,
	SK_COMM,
	SK_MEMCPY
};

struct scope {
	int64_t first, last, ops;
	struct uacc all, comp, cc, comm, mem;
};

struct stream {
	int64_t track, first, last_end, ops;
	int64_t kstream; /* Kineto's stream id (the "stream" arg), PR_GPU_NO_STREAM */
	int64_t idle[3]; /* host wait, kernel wait, other */
	struct uacc all, comp, cc;
};

struct launch {
	int64_t ts, end;
	int graph, next_free;
	int other;  /* a call not named as a launch: in the ring of recent ones */
	int64_t nm; /* its name's index in names */
};

/* Runtime calls not named launch/memcpy/memset kept for their correlation (the most recent). */
#define OTHER_CALLS 65536
/* ... until a name has had this many calls and none launched a GPU op (cudaEventQuery) */
#define OTHER_TRIES 1024

/* ---- TensorBoard step breakdown ---- */

/* Cumulative functions of time evaluated at candidate step boundaries. */
enum {
	F_K,
	F_MC,
	F_MS,
	F_COMM,
	F_RT,
	F_DL,
	F_CPU,
	F_GPU,
	F_SM,
	F_OCCW,
	F_OCCD,
	NF
};
#define NROLE 7 /* F_K .. F_CPU: the priority-ordered roles */
static const char *const role_keys[NROLE] = { "kernel_ns",	  "memcpy_ns",	"memset_ns",
					      "communication_ns", "runtime_ns", "dataloader_ns",
					      "cpu_exec_ns" };

struct tbstep {
	const struct pr_aspan *sp;
	int64_t hs, he, dmax, matched;
	int has_dev;  /* a GPU op launched inside it */
	int have_dev; /* ev_dev holds the value at dmax */
	double ev_hs[NF], ev_he[NF], ev_dev[NF];
};

struct pt {
	int64_t t;
	size_t step; /* host points: step * 2 + (0 start, 1 end) */
};

struct running {
	int64_t end;
	double bps, occ;
	int has_bps, has_occ;
};

struct tb {
	int on;
	struct tbstep *st;
	size_t n;
	struct pt *host; /* sorted by t */
	size_t nhost, ihost;
	struct pt *dev; /* min-heap */
	size_t ndev, capdev;
	int64_t *pre; /* min-heap of ends of ops launched outside the steps */
	size_t npre, cappre;
	int pre_tracking, have_pre;
	int64_t pre_best;
	double ev_pre[NF];
	int any_matched, any_bps, any_occ;
	struct uacc r[NROLE], g;
	/* sweep over running kernels for SM efficiency and occupancy */
	struct running *run;
	size_t nrun, caprun;
	int64_t sw_t;
	int sw_started;
	double bps_sum, occ_sum, occ_n, S, O, D;
};

struct gb {
	struct pr_actx *ctx;
	struct pr_kclassify kc;
	struct pr_strmap name_idx;
	struct gname *names;
	size_t nnames, capnames;
	sqlite3_stmt *name_st;
	struct pr_strmap launches;
	struct launch *lv;
	size_t nlv, caplv;
	int free_head;
	int64_t *ring; /* correlations of the last OTHER_CALLS such calls */
	size_t nring;
	/* rank */
	int64_t first, last, ops, linked, nostream;
	int64_t idle[3], gaps;
	struct uacc all, comp, cc, comm;
	struct scope sc[NSCOPE];
	struct stream *streams;
	size_t nstreams, capstreams, last_stream;
	struct pr_strmap stream_idx;
	int64_t type_count[NCLASS], type_time[NCLASS], lib_count[NLIB], lib_time[NLIB];
	int64_t dir_count[NDIR], dir_time[NDIR], dir_sized[NDIR], dir_sized_time[NDIR];
	double dir_bytes[NDIR];
	struct tb tb;
	size_t kept;	/* durations held in the names' durs */
	int median_sql; /* too many: medians from an ordered pass */
};

/* ---- unions ---- */

static void u_add(struct uacc *u, int64_t a, int64_t b)
{
	if (!u->open) {
		u->s = a;
		u->e = b;
		u->open = 1;
	} else if (a > u->e) {
		u->total = pr_add_sat(u->total, pr_sub_sat(u->e, u->s));
		u->s = a;
		u->e = b;
	} else if (b > u->e) {
		u->e = b;
	}
}

static int64_t u_total(const struct uacc *u)
{
	return pr_add_sat(u->total, u->open ? pr_sub_sat(u->e, u->s) : 0);
}

/* Covered time in (-inf, t], exact once every interval starting at or before t was added. */
static int64_t u_upto(const struct uacc *u, int64_t t)
{
	int64_t in = 0;
	if (u->open && t > u->s)
		in = pr_sub_sat(t < u->e ? t : u->e, u->s);
	return pr_add_sat(u->total, in);
}

/* ---- names ---- */

/* Direction of a memcpy from Kineto's ("Memcpy HtoD (Pinned -> Device)") or HIP's names. */
static int mem_direction(const char *name, int kind)
{
	static const struct {
		const char *a, *b;
		int dir;
	} map[] = {
		{ "HtoD", "HostToDevice", D_HTOD },   { "DtoH", "DeviceToHost", D_DTOH },
		{ "DtoD", "DeviceToDevice", D_DTOD }, { "PtoP", "PeerToPeer", D_PTOP },
		{ "HtoH", "HostToHost", D_HTOH },
	};
	size_t i;
	if (kind == K_MEMSET || strstr(name, "Memset"))
		return D_MEMSET;
	for (i = 0; i < PR_ARRAY_SIZE(map); i++)
		if (strstr(name, map[i].a) || strstr(name, map[i].b))
			return map[i].dir;
	return D_OTHER;
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !memcmp(s + n - m, suf, m);
}

/*
 * The text of row id of a one-column lookup (sql: ?1 = run, ?2 = id), kept
 * prepared in *st: "" when there is no such row, NULL with err on an error.
 * Borrowed until the next lookup with *st.
 */
static const char *lookup_text(struct gb *g, sqlite3_stmt **st, const char *sql, int64_t id,
			       struct pr_error *err)
{
	int rc;
	if (!*st && pr_actx_prep(g->ctx, sql, st, err))
		return NULL;
	sqlite3_reset(*st);
	sqlite3_bind_int64(*st, 2, id);
	rc = sqlite3_step(*st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(g->ctx->db));
		return NULL;
	}
	return rc == SQLITE_ROW ? pr_actx_text(*st, 0) : "";
}

static struct gname *name_get(struct gb *g, int64_t id, struct pr_error *err)
{
	int64_t v;
	struct gname *nm;
	const char *text;
	if (pr_strmap_get(&g->name_idx, &id, sizeof(id), &v))
		return &g->names[v];
	text = lookup_text(g, &g->name_st,
			   "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", id, err);
	if (!text)
		return NULL;
	if (g->nnames == g->capnames) {
		g->capnames = g->capnames ? g->capnames * 2 : 256;
		g->names = pr_xreallocarray(g->names, g->capnames, sizeof(*g->names));
	}
	nm = &g->names[g->nnames];
	memset(nm, 0, sizeof(*nm));
	nm->id = id;
	nm->kind = -1;
	nm->min = INT64_MAX;
	{
		int lib;
		nm->cls = (uint8_t)pr_kclass_of(&g->kc, text, &lib);
		nm->lib = (uint8_t)lib;
	}
	nm->dir = (uint8_t)mem_direction(text, K_MEMCPY);
	if (pr_kclass_has_ci(text, "launch") || pr_kclass_has_ci(text, "memcpy") ||
	    pr_kclass_has_ci(text, "memset"))
		nm->flags |= F_LAUNCH;
	if (pr_kclass_has_ci(text, "graph") && pr_kclass_has_ci(text, "launch"))
		nm->flags |= F_GRAPH;
	if (!strncmp(text, "enumerate(DataLoader)#", 22) && ends_with(text, ".__next__"))
		nm->flags |= F_DATALOADER;
	pr_strmap_put(&g->name_idx, &id, sizeof(id), (int64_t)g->nnames);
	return &g->names[g->nnames++];
}

/* ---- launches in flight: correlation -> runtime call ---- */

static void launch_put(struct gb *g, int64_t corr, int64_t ts, int64_t end, int graph, int other)
{
	int i;
	int64_t old;
	if (pr_strmap_get(&g->launches, &corr, sizeof(corr), &old)) {
		g->lv[old].ts = ts;
		g->lv[old].end = end;
		g->lv[old].graph = graph;
		g->lv[old].other = other;
		return;
	}
	if (g->free_head >= 0) {
		i = g->free_head;
		g->free_head = g->lv[i].next_free;
	} else {
		if (g->nlv == g->caplv) {
			g->caplv = g->caplv ? g->caplv * 2 : 1024;
			g->lv = pr_xreallocarray(g->lv, g->caplv, sizeof(*g->lv));
		}
		i = (int)g->nlv++;
	}
	g->lv[i].ts = ts;
	g->lv[i].end = end;
	g->lv[i].graph = graph;
	g->lv[i].other = other;
	pr_strmap_put(&g->launches, &corr, sizeof(corr), i);
}

static void launch_free(struct gb *g, int64_t corr, int64_t i)
{
	pr_strmap_del(&g->launches, &corr, sizeof(corr), NULL);
	g->lv[i].next_free = g->free_head;
	g->free_head = (int)i;
}

/*
 * Any other runtime call with a correlation (MTIA's runFunction, a call
 * the names do not say launches): linked like a launch when a GPU op of its
 * correlation comes, forgotten when OTHER_CALLS later such calls came
 * first (most have no GPU op: syncs, event records); a name whose first
 * OTHER_TRIES such calls launched nothing is not kept any more.
 */
static void other_put(struct gb *g, int64_t corr, int64_t ts, int64_t end, struct gname *nm)
{
	size_t k = g->nring % OTHER_CALLS;
	int64_t i;
	if (nm->calls >= OTHER_TRIES && !nm->launched)
		return; /* a name that launches nothing (syncs, queries): not worth the map */
	nm->calls++;
	if (!g->ring)
		/* not cleared: a slot is read only once written */
		g->ring = pr_xreallocarray(NULL, OTHER_CALLS, sizeof(*g->ring));
	if (g->nring >= OTHER_CALLS &&
	    pr_strmap_get(&g->launches, &g->ring[k], sizeof(g->ring[k]), &i) && g->lv[i].other)
		launch_free(g, g->ring[k], i);
	g->ring[k] = corr;
	g->nring++;
	launch_put(g, corr, ts, end, 0, 1);
	if (pr_strmap_get(&g->launches, &corr, sizeof(corr), &i))
		g->lv[i].nm = nm - g->names;
}

/* The runtime call of correlation corr (1), consumed unless it launched a graph. */
static int launch_take(struct gb *g, int64_t corr, struct launch *out)
{
	int64_t i;
	if (corr < 0 || !pr_strmap_get(&g->launches, &corr, sizeof(corr), &i))
		return 0;
	*out = g->lv[i];
	if (g->lv[i].other)
		g->names[g->lv[i].nm].launched++;
	if (!g->lv[i].graph)
		launch_free(g, corr, i);
	return 1;
}

/* ---- TensorBoard: heaps, sweep, evaluation ---- */

static void pt_push(struct pt **h, size_t *n, size_t *cap, struct pt v)
{
	size_t i;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*h = pr_xreallocarray(*h, *cap, sizeof(**h));
	}
	i = (*n)++;
	while (i && (*h)[(i - 1) / 2].t > v.t) {
		(*h)[i] = (*h)[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	(*h)[i] = v;
}

static struct pt pt_pop(struct pt *h, size_t *n)
{
	struct pt top = h[0], last = h[--*n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1].t < h[c].t)
			c++;
		if (h[c].t >= last.t)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
	return top;
}

static void i64_push(int64_t **h, size_t *n, size_t *cap, int64_t v)
{
	size_t i;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*h = pr_xreallocarray(*h, *cap, sizeof(**h));
	}
	i = (*n)++;
	while (i && (*h)[(i - 1) / 2] > v) {
		(*h)[i] = (*h)[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	(*h)[i] = v;
}

static int64_t i64_pop(int64_t *h, size_t *n)
{
	int64_t top = h[0], last = h[--*n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && h[c + 1] < h[c])
			c++;
		if (h[c] >= last)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
	return top;
}

static void run_push(struct tb *tb, struct running v)
{
	size_t i;
	if (tb->nrun == tb->caprun) {
		tb->caprun = tb->caprun ? tb->caprun * 2 : 64;
		tb->run = pr_xreallocarray(tb->run, tb->caprun, sizeof(*tb->run));
	}
	i = tb->nrun++;
	while (i && tb->run[(i - 1) / 2].end > v.end) {
		tb->run[i] = tb->run[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	tb->run[i] = v;
}

static struct running run_pop(struct tb *tb)
{
	struct running top = tb->run[0], last = tb->run[--tb->nrun];
	size_t i = 0, n = tb->nrun;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && tb->run[c + 1].end < tb->run[c].end)
			c++;
		if (tb->run[c].end >= last.end)
			break;
		tb->run[i] = tb->run[c];
		i = c;
	}
	if (n)
		tb->run[i] = last;
	return top;
}

static void integrate(struct tb *tb, int64_t to)
{
	double dt;
	if (!tb->sw_started) {
		tb->sw_t = to;
		tb->sw_started = 1;
		return;
	}
	if (to <= tb->sw_t)
		return;
	dt = (double)(to - tb->sw_t);
	if (tb->bps_sum > 0)
		tb->S += (tb->bps_sum < 1 ? tb->bps_sum : 1) * dt;
	tb->O += tb->occ_sum * dt;
	tb->D += tb->occ_n * dt;
	tb->sw_t = to;
}

/* Moves the sweep to t: kernels ending at or before t stop contributing. */
static void advance(struct tb *tb, int64_t t)
{
	while (tb->nrun && tb->run[0].end <= t) {
		struct running r;
		integrate(tb, tb->run[0].end);
		r = run_pop(tb);
		tb->bps_sum -= r.has_bps ? r.bps : 0;
		tb->occ_sum -= r.has_occ ? r.occ : 0;
		tb->occ_n -= r.has_occ;
		if (!tb->nrun)
			tb->bps_sum = tb->occ_sum = tb->occ_n = 0; /* no rounding residue */
	}
	integrate(tb, t);
}

static void evaluate(struct tb *tb, int64_t t, double *ev)
{
	int k;
	advance(tb, t);
	for (k = 0; k < NROLE; k++)
		ev[k] = (double)u_upto(&tb->r[k], t);
	ev[F_GPU] = (double)u_upto(&tb->g, t);
	ev[F_SM] = tb->S;
	ev[F_OCCW] = tb->O;
	ev[F_OCCD] = tb->D;
}

/*
 * Evaluates the pending boundary points before time T (all of them when
 * final), in time order: host step starts/ends, device-end candidates
 * (kept only while still the step's latest), and ends of ops launched
 * outside the steps (candidates for step 0's start).
 */
static void tb_points(struct tb *tb, int64_t T, int final)
{
	for (;;) {
		int64_t th = INT64_MAX, td = INT64_MAX, tp = INT64_MAX, t;
		if (tb->ihost < tb->nhost)
			th = tb->host[tb->ihost].t;
		if (tb->ndev)
			td = tb->dev[0].t;
		if (tb->npre)
			tp = tb->pre[0];
		t = th < td ? th : td;
		t = t < tp ? t : tp;
		if (t == INT64_MAX || (!final && t >= T))
			return;
		if (t == th) {
			struct pt p = tb->host[tb->ihost++];
			struct tbstep *s = &tb->st[p.step / 2];
			evaluate(tb, t, p.step % 2 ? s->ev_he : s->ev_hs);
		} else if (t == td) {
			struct pt p = pt_pop(tb->dev, &tb->ndev);
			struct tbstep *s = &tb->st[p.step];
			if (p.t == s->dmax) {
				evaluate(tb, t, s->ev_dev);
				s->have_dev = 1;
			}
		} else {
			i64_pop(tb->pre, &tb->npre);
			if (tb->pre_tracking && (!tb->have_pre || t > tb->pre_best)) {
				evaluate(tb, t, tb->ev_pre);
				tb->pre_best = t;
				tb->have_pre = 1;
			}
		}
	}
}

/* The step whose host span holds the runtime call [ts, end], or -1 (TensorBoard's match). */
static long tb_step_of(const struct tb *tb, int64_t ts, int64_t end)
{
	size_t lo = 0, hi = tb->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tb->st[mid].hs <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	return end <= tb->st[lo].he ? (long)lo : -1;
}

static int cmp_pt(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->step < y->step ? -1 : x->step > y->step;
}

/* TensorBoard's steps: torch.profiler's ProfilerStep#N, outermost only. */
static int tb_step(const struct pr_aspan *sp)
{
	return sp->depth == 0 && !strncmp(sp->name, "ProfilerStep", 12);
}

static void tb_init(struct gb *g)
{
	struct tb *tb = &g->tb;
	size_t i;
	for (i = 0; i < g->ctx->nsteps; i++)
		if (tb_step(&g->ctx->steps[i]))
			tb->n++;
	if (!tb->n)
		return;
	tb->on = 1;
	tb->pre_tracking = 1;
	tb->st = pr_xcalloc(tb->n, sizeof(*tb->st));
	tb->host = pr_xcalloc(2 * tb->n, sizeof(*tb->host));
	tb->n = 0;
	for (i = 0; i < g->ctx->nsteps; i++) {
		const struct pr_aspan *sp = &g->ctx->steps[i];
		struct tbstep *s;
		if (!tb_step(sp))
			continue;
		s = &tb->st[tb->n];
		s->sp = sp;
		s->hs = sp->ts;
		s->he = sp->ts + sp->dur;
		s->dmax = INT64_MIN;
		tb->host[tb->nhost].t = s->hs;
		tb->host[tb->nhost++].step = tb->n * 2;
		tb->host[tb->nhost].t = s->he;
		tb->host[tb->nhost++].step = tb->n * 2 + 1;
		tb->n++;
	}
	qsort(tb->host, tb->nhost, sizeof(*tb->host), cmp_pt);
}

static void tb_release(struct tb *tb)
{
	free(tb->st);
	free(tb->host);
	free(tb->dev);
	free(tb->pre);
	free(tb->run);
}

/* ---- the scan ---- */

static struct stream *stream_get(struct gb *g, int64_t track)
{
	int64_t v;
	if (g->nstreams && g->streams[g->last_stream].track == track)
		return &g->streams[g->last_stream];
	if (!pr_strmap_get(&g->stream_idx, &track, sizeof(track), &v)) {
		if (g->nstreams == g->capstreams) {
			g->capstreams = g->capstreams ? g->capstreams * 2 : 8;
			g->streams =
				pr_xreallocarray(g->streams, g->capstreams, sizeof(*g->streams));
		}
		memset(&g->streams[g->nstreams], 0, sizeof(g->streams[0]));
		g->streams[g->nstreams].track = track;
		v = (int64_t)g->nstreams++;
		pr_strmap_put(&g->stream_idx, &track, sizeof(track), v);
	}
	g->last_stream = (size_t)v;
	return &g->streams[v];
}

/* HTA's idle category of a gap before an op whose launch started at rts (has_rt). */
static int idle_category(int64_t gap, int has_rt, int64_t rts, int64_t prev_end)
{
	if (has_rt && rts > prev_end)
		return 0;
	return gap < KERNEL_WAIT_NS ? 1 : 2;
}

static void drop_durations(struct gb *g)
{
	size_t i;
	for (i = 0; i < g->nnames; i++) {
		free(g->names[i].durs);
		g->names[i].durs = NULL;
		g->names[i].ndurs = g->names[i].capdurs = 0;
	}
	g->kept = 0;
}

static void keep_duration(struct gb *g, struct gname *nm, int64_t dur)
{
	if (g->median_sql)
		return;
	if (g->kept >= pr_gpubreak_keep_max) {
		drop_durations(g);
		g->median_sql = 1;
		return;
	}
	if (nm->ndurs == nm->capdurs) {
		nm->capdurs = nm->capdurs ? nm->capdurs * 2 : 16;
		nm->durs = pr_xreallocarray(nm->durs, nm->capdurs, sizeof(*nm->durs));
	}
	nm->durs[nm->ndurs++] = (double)dur;
	g->kept++;
}

static void scope_add(struct scope *sc, int64_t ts, int64_t end, int sk)
{
	if (!sc->ops || ts < sc->first)
		sc->first = ts;
	if (!sc->ops || end > sc->last)
		sc->last = end;
	sc->ops++;
	u_add(&sc->all, ts, end);
	if (sk == SK_MEMCPY) {
		u_add(&sc->mem, ts, end);
		return;
	}
	u_add(&sc->cc, ts, end);
	if (sk == SK_COMM)
		u_add(&sc->comm, ts, end);
	else
		u_add(&sc->comp, ts, end);
}

/* TraceLens's class of an op: memsets compute, memcpys (and dma-like memory kernels) memcpy. */
static int scope_kind(int kind, const struct gname *nm)
{
	if (kind == K_MEMCPY)
		return SK_MEMCPY;
	if (kind != K_KERNEL)
		return SK_COMP;
	if (nm->cls == C_COMM)
		return SK_COMM;
	return nm->cls == C_MEMORY && nm->dir != D_MEMSET ? SK_MEMCPY : SK_COMP;
}

/* in_steps: the op's runtime call lies in a top-level ProfilerStep span */
static void gpu_op(struct gb *g, int kind, int64_t track, int64_t kstream, int64_t ts, int64_t dur,
		   struct gname *nm, const double *a, int has_rt, const struct launch *rt,
		   int in_steps)
{
	int64_t end = ts + dur;
	int cls = kind != K_KERNEL ? C_MEMORY : nm->cls;
	struct stream *s = stream_get(g, track);
	int dir, sk = scope_kind(kind, nm);
	s->kstream = kstream;
	scope_add(&g->sc[S_ALL], ts, end, sk);
	if (has_rt)
		scope_add(&g->sc[S_LINKED], ts, end, sk);
	if (in_steps)
		scope_add(&g->sc[S_STEPS], ts, end, sk);

	g->ops++;
	g->linked += has_rt;
	if (g->ops == 1 || ts < g->first)
		g->first = ts;
	if (g->ops == 1 || end > g->last)
		g->last = end;
	if (g->all.open && ts > g->all.e) {
		int64_t gap = ts - g->all.e;
		int64_t *idle = &g->idle[idle_category(gap, has_rt, rt->ts, g->all.e)];
		*idle = pr_add_sat(*idle, gap);
		g->gaps++;
	}
	u_add(&g->all, ts, end);
	if (cls == C_COMPUTE)
		u_add(&g->comp, ts, end);
	if (cls != C_MEMORY)
		u_add(&g->cc, ts, end);
	if (cls == C_COMM)
		u_add(&g->comm, ts, end);

	if (!s->ops) {
		s->first = ts;
		s->last_end = end;
	} else {
		if (ts > s->last_end)
			s->idle[idle_category(ts - s->last_end, has_rt, rt->ts, s->last_end)] +=
				ts - s->last_end;
		if (end > s->last_end)
			s->last_end = end;
	}
	s->ops++;
	u_add(&s->all, ts, end);
	if (cls == C_COMPUTE)
		u_add(&s->comp, ts, end);
	if (cls != C_MEMORY)
		u_add(&s->cc, ts, end);

	g->type_count[cls]++;
	g->type_time[cls] = pr_add_sat(g->type_time[cls], dur);
	if (cls == C_COMM) {
		g->lib_count[nm->lib]++;
		g->lib_time[nm->lib] = pr_add_sat(g->lib_time[nm->lib], dur);
	}
	if (nm->kind < 0)
		nm->kind = kind;
	nm->count++;
	nm->total = pr_add_sat(nm->total, dur);
	nm->sumsq += (double)dur * (double)dur;
	if (dur < nm->min)
		nm->min = dur;
	if (dur > nm->max)
		nm->max = dur;
	keep_duration(g, nm, dur);
	if (kind == K_KERNEL && a[A_BPS] > 0) {
		nm->bps_w += a[A_BPS] * (double)dur;
		nm->bps_d += (double)dur;
	}
	if (kind == K_KERNEL && a[A_OCC] >= 0) {
		nm->occ_w += a[A_OCC] * (double)dur;
		nm->occ_d += (double)dur;
	}
	if (cls == C_MEMORY) {
		dir = kind == K_MEMSET ? D_MEMSET : nm->dir;
		g->dir_count[dir]++;
		g->dir_time[dir] = pr_add_sat(g->dir_time[dir], dur);
		if (a[A_BYTES] >= 0) {
			g->dir_sized[dir]++;
			g->dir_sized_time[dir] = pr_add_sat(g->dir_sized_time[dir], dur);
			g->dir_bytes[dir] += a[A_BYTES];
		}
	}
}

static void tb_row(struct gb *g, int kind, int64_t ts, int64_t dur, const struct gname *nm,
		   const double *a, int has_rt, const struct launch *rt)
{
	struct tb *tb = &g->tb;
	int64_t end = ts + dur;
	int role, k;
	switch (kind) {
	case K_KERNEL:
		role = nm->lib ? F_COMM : F_K;
		break;
	case K_MEMCPY:
		role = F_MC;
		break;
	case K_MEMSET:
		role = F_MS;
		break;
	case K_RUNTIME:
		role = F_RT;
		break;
	case K_OP:
		role = nm->flags & F_DATALOADER ? F_DL : F_CPU;
		break;
	case K_PHASE:
		if (!(nm->flags & F_DATALOADER))
			return;
		role = F_DL;
		break;
	default:
		return;
	}
	for (k = role; k < NROLE; k++)
		u_add(&tb->r[k], ts, end);
	if (kind > K_MEMSET)
		return;
	if (kind == K_KERNEL) {
		int hb = a[A_BPS] > 0, ho = a[A_OCC] >= 0;
		u_add(&tb->g, ts, end);
		if (hb || ho) {
			struct running r;
			advance(tb, ts);
			r.end = end;
			r.bps = hb ? a[A_BPS] : 0;
			r.occ = ho ? a[A_OCC] : 0;
			r.has_bps = hb;
			r.has_occ = ho;
			tb->bps_sum += r.bps;
			tb->occ_sum += r.occ;
			tb->occ_n += ho;
			tb->any_bps |= hb;
			tb->any_occ |= ho;
			run_push(tb, r);
		}
	}
	/* device side of the steps */
	{
		long i = has_rt ? tb_step_of(tb, rt->ts, rt->end) : -1;
		if (i >= 0) {
			struct tbstep *s = &tb->st[i];
			if (i == 0 && !s->has_dev)
				tb->pre_tracking =
					0; /* step 0's first op: the candidates before it are final */
			s->has_dev = 1;
			s->matched++;
			tb->any_matched = 1;
			if (end > s->dmax) {
				struct pt p;
				s->dmax = end;
				p.t = end;
				p.step = (size_t)i;
				pt_push(&tb->dev, &tb->ndev, &tb->capdev, p);
			}
		} else if (tb->pre_tracking) {
			i64_push(&tb->pre, &tb->npre, &tb->cappre, end);
		}
	}
}

static int rowkind(uint8_t k)
{
	switch (k) {
	case PR_GK_KERNEL:
		return K_KERNEL;
	case PR_GK_MEMCPY:
		return K_MEMCPY;
	case PR_GK_MEMSET:
		return K_MEMSET;
	case PR_GK_RUNTIME:
		return K_RUNTIME;
	case PR_GK_OP:
		return K_OP;
	case PR_GK_PHASE:
		return K_PHASE;
	default:
		return K_OTHER;
	}
}

/*
 * A row of the main stream as gpu_breakdown sorts it (base/xsort.h; the
 * start first, its key): 64 bytes, not the 80 of a struct pr_gpurow, as the
 * sort's runs go through a scratch file on a large trace.
 */
struct mrow {
	int64_t ts, dur, name;
	int64_t corr;		/* as gpu_breakdown reads it (pr_gpurow_corr_break) */
	double bytes, bps, occ; /* device activities' args (gpuscan.h) */
	uint32_t track;
	uint8_t kind;	  /* enum pr_gk */
	uint8_t nostream; /* a device activity without a "stream" arg in a run whose others have */
	uint8_t zero[2];
};
_Static_assert(sizeof(struct mrow) == 64 && offsetof(struct mrow, ts) == 0,
	       "struct mrow: 64 bytes, ts first");

/* One row of the main stream: a GPU op, a runtime call or a DataLoader span. */
static int main_row(struct gb *g, const struct pr_gpuscan *gs, const struct mrow *r,
		    struct pr_error *err)
{
	struct tb *tb = &g->tb;
	int kind = rowkind(r->kind);
	int64_t ts = r->ts, dur = r->dur;
	double a[NARGS];
	int64_t corr = -1;
	struct gname *nm;
	struct launch rt;
	int has_rt = 0, j;
	if (kind == K_OTHER)
		return 0;
	if (dur < 0)
		dur = 0;
	if (tb->on)
		tb_points(tb, ts, 0);
	if (!(nm = name_get(g, r->name, err)))
		return -1;
	for (j = 0; j < NARGS; j++)
		a[j] = NAN;
	/* the args as the shared pass read them (gpuscan.h) */
	if (kind <= K_MEMSET) {
		a[A_BYTES] = r->bytes;
		a[A_BPS] = r->bps;
		a[A_OCC] = r->occ;
	}
	if (kind <= K_RUNTIME)
		corr = r->corr;
	rt.ts = rt.end = 0;
	if (kind == K_RUNTIME) {
		if (corr >= 0 && nm->flags & F_LAUNCH)
			launch_put(g, corr, ts, ts + dur, (nm->flags & F_GRAPH) != 0, 0);
		else if (corr >= 0)
			other_put(g, corr, ts, ts + dur, nm);
	} else if (kind <= K_MEMSET) {
		has_rt = launch_take(g, corr, &rt);
		if (r->nostream)
			g->nostream++; /* HTA leaves them out (its stream -1) */
		else
			gpu_op(g, kind, gs->tracks[r->track], gs->tstream[r->track], ts, dur, nm, a,
			       has_rt, &rt, has_rt && tb->on && tb_step_of(tb, rt.ts, rt.end) >= 0);
	}
	if (tb->on)
		tb_row(g, kind, ts, dur, nm, a, has_rt, &rt);
	return 0;
}

/*
 * Where the CPU ops ran, for the step breakdown: the store's op_cover
 * (writer.c), whose union is the ops' union (the CPU Exec role) with far
 * fewer rows than ops. DataLoader ops are in it too: harmless, their time
 * is in the (higher) DataLoader role already, which the CPU Exec union
 * includes. Sorted by start (stable: rows of one start in the order the
 * store gives them) through an external sort of a quarter of pr_xsort_mem
 * (2 MiB), so that a long run's cover (16 B a row, 735 k rows for a 2 GB
 * trace) costs the scratch file, not memory.
 */

struct cover {
	int64_t ts, end;
};

static struct pr_xsort *load_cover(struct gb *g, struct pr_error *err)
{
	struct pr_xsort *xs;
	sqlite3_stmt *st;
	struct cover c;
	int rc;
	if (pr_actx_prep(g->ctx, "SELECT ts, end_ts FROM op_cover WHERE run_id = ?1", &st, err))
		return NULL;
	xs = pr_xsort_new("gpu_breakdown's CPU op cover by start", sizeof(c), pr_xsort_mem / 4,
			  PR_XSORT_SIGNED);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		c.ts = pr_time_clamp(sqlite3_column_int64(st, 0)); /* the nearest bound */
		c.end = pr_time_clamp(sqlite3_column_int64(st, 1));
		if (pr_xsort_put(xs, &c))
			break;
	}
	/* a failed put (rc still SQLITE_ROW) is the sort's error */
	if (pr_actx_done(g->ctx, st, rc, err) || pr_xsort_sort(xs, err)) {
		pr_xsort_free(xs);
		return NULL;
	}
	return xs;
}

/* Rows of the main stream: GPU ops, runtime calls, and for the step breakdown DataLoader spans. */
static int main_kind(const struct pr_gpuscan *gs, const struct pr_gpurow *r, int dataloader)
{
	uint8_t k = r->kind;
	return k == PR_GK_KERNEL || k == PR_GK_MEMCPY || k == PR_GK_MEMSET || k == PR_GK_RUNTIME ||
	       (dataloader && (k == PR_GK_OP || k == PR_GK_PHASE) &&
		pr_gpuscan_is_dataloader(gs, r->name));
}

/*
 * The main stream by ts, ties in id order: the rows go through an external
 * sort (base/xsort.h) keyed by their start (the row's first field, as an
 * int64), stable, so that rows of one start keep the id order they are read
 * in. In memory up to pr_xsort_mem (8 MiB: one run, no file), then in
 * radix-sorted runs in a scratch file merged back.
 */
static struct pr_xsort *main_order(struct pr_actx *ctx, struct pr_gpuscan *gs, int dataloader,
				   struct pr_error *err)
{
	struct pr_xsort *xs = pr_xsort_new("gpu_breakdown's GPU rows by start", sizeof(struct mrow),
					   0, PR_XSORT_SIGNED);
	struct pr_gpuread *rd = pr_gpuscan_open(ctx, gs, 0, err);
	const struct pr_gpurow *r;
	struct mrow m;
	int rc;
	if (!rd) {
		pr_xsort_free(xs);
		return NULL;
	}
	memset(&m, 0, sizeof(m)); /* the bytes written are all set */
	while ((r = pr_gpuread_next(rd))) {
		if (!main_kind(gs, r, dataloader))
			continue;
		m.ts = r->ts;
		m.dur = r->dur;
		m.name = r->name;
		m.corr = pr_gpurow_corr_break(r);
		m.track = r->track;
		m.kind = r->kind;
		m.bytes = m.bps = m.occ = 0;
		m.nostream = 0;
		if (r->kind == PR_GK_KERNEL || r->kind == PR_GK_MEMCPY || r->kind == PR_GK_MEMSET) {
			m.nostream = gs->nstreamed && r->u.act.stream == PR_GPU_NO_STREAM;
			m.bytes = r->u.act.bytes;
			m.bps = r->u.act.bps;
			m.occ = r->u.act.occ;
		}
		if (pr_xsort_put(xs, &m))
			break;
	}
	rc = pr_gpuread_close(rd, err);
	if (rc || pr_xsort_sort(xs, err)) {
		pr_xsort_free(xs);
		return NULL;
	}
	return xs;
}

/*
 * Two time-ordered streams merged here: GPU ops, runtime calls and
 * DataLoader spans from the shared scan (gpuscan.h; by ts, then id), and,
 * for the step breakdown, where the CPU ops ran (op_cover, by ts); ties go
 * to the first. Both are sorted here (radix), not in SQLite.
 */
static int scan(struct gb *g, struct pr_error *err)
{
	struct tb *tb = &g->tb;
	struct pr_gpuscan *gs;
	struct pr_xsort *xs = NULL, *cov = NULL;
	struct mrow row;
	struct cover c;
	const void *p, *q = NULL;
	int ret = -1;
	if (!(gs = pr_gpuscan_get(g->ctx, err)))
		return -1;
	if (tb->on && !(cov = load_cover(g, err)))
		return -1;
	if (!(xs = main_order(g->ctx, gs, tb->on, err)))
		goto out;
	if ((p = pr_xsort_next(xs)))
		memcpy(&row, p, sizeof(row));
	if (cov && (q = pr_xsort_next(cov)))
		memcpy(&c, q, sizeof(c));
	while (p || q) {
		if (p && (!q || row.ts <= c.ts)) {
			if (main_row(g, gs, &row, err))
				goto out;
			if ((p = pr_xsort_next(xs)))
				memcpy(&row, p, sizeof(row));
		} else {
			tb_points(tb, c.ts, 0);
			u_add(&tb->r[F_CPU], c.ts, c.end > c.ts ? c.end : c.ts);
			if ((q = pr_xsort_next(cov)))
				memcpy(&c, q, sizeof(c));
		}
	}
	if (pr_xsort_failed(xs, err) || (cov && pr_xsort_failed(cov, err)))
		goto out;
	if (tb->on)
		tb_points(tb, INT64_MAX, 1);
	ret = 0;
out:
	pr_xsort_free(xs);
	pr_xsort_free(cov);
	return ret;
}

/* ---- output: gpu_breakdown ---- */

static json_t *share(double part, double whole)
{
	return whole > 0 ? pr_jnum(part / whole) : json_null();
}

static json_t *temporal(int64_t span, const struct uacc *all, const struct uacc *comp,
			const struct uacc *cc)
{
	int64_t busy = u_total(all), c = u_total(comp), x = u_total(cc) - c, m = busy - u_total(cc);
	return pr_jobj("span_ns", pr_jint(span), "busy_ns", pr_jint(busy), "compute_ns", pr_jint(c),
		       "communication_ns", pr_jint(x), "memory_ns", pr_jint(m), "idle_ns",
		       pr_jint(span - busy), "busy_share", share((double)busy, (double)span),
		       "compute_share", share((double)c, (double)span), "communication_share",
		       share((double)x, (double)span), "memory_share",
		       share((double)m, (double)span), "idle_share",
		       share((double)(span - busy), (double)span), NULL);
}

static json_t *idle_split(const int64_t *idle)
{
	int64_t t = idle[0] + idle[1] + idle[2];
	return pr_jobj("host_wait_ns", pr_jint(idle[0]), "kernel_wait_ns", pr_jint(idle[1]),
		       "other_ns", pr_jint(idle[2]), "host_wait_share",
		       share((double)idle[0], (double)t), "kernel_wait_share",
		       share((double)idle[1], (double)t), "other_share",
		       share((double)idle[2], (double)t), NULL);
}

static int by_busy(const void *a, const void *b)
{
	const struct stream *x = a, *y = b;
	int64_t bx = u_total(&x->all), by = u_total(&y->all);
	if (bx != by)
		return bx > by ? -1 : 1;
	return x->track < y->track ? -1 : x->track > y->track;
}

static int streams_json(struct gb *g, json_t *out, struct pr_error *err)
{
	json_t *arr = json_array();
	sqlite3_stmt *st = NULL;
	size_t i;
	int64_t more_busy = 0, more_ops = 0;
	json_object_set_new(out, "streams", arr);
	qsort(g->streams, g->nstreams, sizeof(*g->streams), by_busy);
	if (pr_actx_prep(g->ctx,
			 "SELECT ifnull(pid, ''), ifnull(tid, ''), ifnull(name, '') FROM track "
			 "WHERE id = ?2 AND ?1 IS NOT NULL",
			 &st, err))
		return -1;
	for (i = 0; i < g->nstreams; i++) {
		struct stream *s = &g->streams[i];
		json_t *o, *t;
		const char *tid, *label;
		char buf[24];
		int rc;
		if (i >= MAX_STREAMS) {
			more_busy = pr_add_sat(more_busy, u_total(&s->all));
			more_ops += s->ops;
			continue;
		}
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 2, s->track);
		rc = sqlite3_step(st);
		tid = rc == SQLITE_ROW ? pr_actx_text(st, 1) : "";
		label = pr_gpuscan_stream_label(s->kstream, tid, buf, sizeof(buf));
		o = pr_jobj("device", json_string(rc == SQLITE_ROW ? pr_actx_text(st, 0) : ""),
			    "stream", json_string(label), "name",
			    json_string(rc == SQLITE_ROW ? pr_actx_text(st, 2) : ""), "ops",
			    pr_jint(s->ops), "t_ns", pr_actx_t(g->ctx, s->first), NULL);
		if (strcmp(label, tid))
			json_object_set_new(o, "tid", json_string(tid)); /* the track's thread */
		json_object_update(o,
				   t = temporal(s->last_end - s->first, &s->all, &s->comp, &s->cc));
		json_decref(t);
		json_object_set_new(o, "idle", idle_split(s->idle));
		json_array_append_new(arr, o);
	}
	sqlite3_finalize(st);
	if (more_ops)
		json_object_set_new(out, "streams_more",
				    pr_jobj("streams",
					    pr_jint((int64_t)(g->nstreams - MAX_STREAMS)), "ops",
					    pr_jint(more_ops), "busy_ns", pr_jint(more_busy),
					    NULL));
	return 0;
}

struct rank_ent {
	int64_t total, id;
	size_t idx;
};

static int by_total(const void *a, const void *b)
{
	const struct rank_ent *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Exact medians of the top names' durations from one ordered pass over their spans (when
 * the scan held too many durations to keep them). */
static int medians(struct gb *g, const struct rank_ent *top, size_t n, struct pr_error *err)
{
	sqlite3_stmt *st;
	int64_t *ids, cur = INT64_MIN;
	struct gname *nm = NULL;
	int64_t seen = 0;
	size_t i;
	int rc;
	if (!n)
		return 0;
	ids = pr_xmalloc(n * sizeof(*ids));
	for (i = 0; i < n; i++)
		ids[i] = top[i].id;
	rc = pr_actx_prep_ids(
		g->ctx,
		"SELECT name_id, dur FROM span WHERE run_id = ?1 AND kind IN ('kernel', "
		"'memcpy', 'memset') AND "
		"name_id IN (SELECT value FROM json_each(?2)) ORDER BY name_id, dur",
		ids, n, &st, err);
	free(ids);
	if (rc)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		double d = (double)sqlite3_column_int64(st, 1);
		int64_t v;
		if (id != cur) {
			cur = id;
			seen = 0;
			nm = pr_strmap_get(&g->name_idx, &id, sizeof(id), &v) ? &g->names[v] : NULL;
		}
		if (!nm)
			continue;
		if (seen == (nm->count - 1) / 2)
			nm->median = d;
		else if (seen == (nm->count - 1) / 2 + 1 && nm->count % 2 == 0)
			nm->median = (nm->median + d) / 2;
		seen++;
	}
	return pr_actx_done(g->ctx, st, rc, err);
}

static int kernels_json(struct gb *g, json_t *out, struct pr_error *err)
{
	json_t *types = json_array(), *libs = json_array(), *top = json_array(),
	       *mem = json_array();
	struct rank_ent *idx;
	size_t n = 0, i, ntop;
	int64_t all_time = 0, rest_count = 0, rest_time = 0;
	sqlite3_stmt *st = NULL;
	int k;
	for (k = 0; k < NCLASS; k++)
		all_time = pr_add_sat(all_time, g->type_time[k]); /* saturated: +-2^62 ns traces */
	for (k = 0; k < NCLASS; k++)
		json_array_append_new(types,
				      pr_jobj("type", json_string(class_names[k]), "count",
					      pr_jint(g->type_count[k]), "time_ns",
					      pr_jint(g->type_time[k]), "share",
					      share((double)g->type_time[k], (double)all_time),
					      NULL));
	for (k = 1; k < NLIB; k++)
		if (g->lib_count[k])
			json_array_append_new(libs,
					      pr_jobj("library", json_string(lib_names[k]), "count",
						      pr_jint(g->lib_count[k]), "time_ns",
						      pr_jint(g->lib_time[k]), NULL));
	for (k = 0; k < NDIR; k++)
		if (g->dir_count[k])
			json_array_append_new(mem,
					      pr_jobj("direction", json_string(dir_names[k]),
						      "count", pr_jint(g->dir_count[k]), "time_ns",
						      pr_jint(g->dir_time[k]), "sized_count",
						      pr_jint(g->dir_sized[k]), "bytes",
						      g->dir_sized[k] ? pr_jnum(g->dir_bytes[k])
								      : json_null(),
						      "bandwidth_Bps",
						      g->dir_sized_time[k] > 0
							      ? pr_jnum(g->dir_bytes[k] /
									((double)g->dir_sized_time
										 [k] /
									 1e9))
							      : json_null(),
						      NULL));
	json_object_set_new(out, "kernels",
			    pr_jobj("by_type", types, "communication", libs, "top", top,
				    "memory_ops", mem, NULL));
	for (i = 0; i < g->nnames; i++)
		if (g->names[i].count)
			n++;
	idx = pr_xcalloc(n + 1, sizeof(*idx));
	n = 0;
	for (i = 0; i < g->nnames; i++)
		if (g->names[i].count) {
			idx[n].total = g->names[i].total;
			idx[n].id = g->names[i].id;
			idx[n++].idx = i;
		}
	qsort(idx, n, sizeof(*idx), by_total);
	ntop = n < g->ctx->opts->top_n ? n : g->ctx->opts->top_n;
	if (!g->median_sql)
		for (i = 0; i < ntop; i++) {
			struct gname *nm = &g->names[idx[i].idx];
			nm->median = pr_median(nm->durs, nm->ndurs);
		}
	if ((g->median_sql && medians(g, idx, ntop, err)) ||
	    pr_actx_prep(g->ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &st,
			 err)) {
		free(idx);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct gname *nm = &g->names[idx[i].idx];
		double cnt = (double)nm->count, mean = (double)nm->total / cnt;
		double var = cnt > 1 ? (nm->sumsq - (double)nm->total * mean) / (cnt - 1) : 0;
		int cls = nm->kind != K_KERNEL ? C_MEMORY : nm->cls;
		json_t *o;
		int rc;
		if (i >= ntop) {
			rest_count += nm->count;
			rest_time = pr_add_sat(rest_time, nm->total);
			continue;
		}
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 2, nm->id);
		rc = sqlite3_step(st);
		o = pr_jobj("name", json_string(rc == SQLITE_ROW ? pr_actx_text(st, 0) : ""),
			    "type", json_string(class_names[cls]), "library",
			    nm->lib && nm->kind == K_KERNEL ? json_string(lib_names[nm->lib])
							    : json_null(),
			    "count", pr_jint(nm->count), "total_ns", pr_jint(nm->total), "mean_ns",
			    pr_jnum(mean), "median_ns", pr_jnum(nm->median), "min_ns",
			    pr_jint(nm->min), "max_ns", pr_jint(nm->max), "std_ns",
			    pr_jnum(var > 0 ? sqrt(var) : 0), "share",
			    share((double)nm->total, (double)all_time), NULL);
		if (nm->bps_d > 0)
			json_object_set_new(o, "mean_blocks_per_sm",
					    pr_jnum(nm->bps_w / nm->bps_d));
		if (nm->occ_d > 0)
			json_object_set_new(o, "mean_occupancy_pct",
					    pr_jnum(nm->occ_w / nm->occ_d));
		json_array_append_new(top, o);
	}
	sqlite3_finalize(st);
	if (n > ntop)
		json_object_set_new(json_object_get(out, "kernels"), "others",
				    pr_jobj("names", pr_jint((int64_t)(n - ntop)), "count",
					    pr_jint(rest_count), "total_ns", pr_jint(rest_time),
					    "share", share((double)rest_time, (double)all_time),
					    NULL));
	free(idx);
	return 0;
}

#define GPU_RULE                                                                                       \
	"HTA's definitions over the first-to-last GPU op span: compute = union of compute kernels; "   \
	"communication = union of compute and communication kernels - compute (overlapped "            \
	"communication counts as compute); memory = union of all ops - union of kernels; idle = span " \
	"- union of all ops. Communication kernels: names starting nccl/rccl, containing gloo:, "      \
	"msccl, nvshmem, DeepEP deep_ep::/dpsk::ep:: dispatch/combine/notify, or matching "            \
	"--comm-kernels; memory: memcpy/memset, kernels named Memcpy/Memset, and on MTIA or "          \
	"an unknown device kernels named dma*; GPU ops without a stream arg, in a run whose "          \
	"others have one, are left out (HTA)"
#define IDLE_RULE                                                                                  \
	"a gap before an op is host wait when the op's runtime call (same correlation) started "   \
	"after the previous op ended, else kernel wait when < 30 ns (HTA's "                       \
	"consecutive_kernel_delay), else other; rank: gaps of the union of all streams; streams: " \
	"gaps between the stream's consecutive ops"

#define SCOPE_RULE                                                                                 \
	"TraceLens's gpu_timeline per scope: all = every GPU op (as rank above); linked = GPU "    \
	"ops whose correlation is that of a traced runtime call (TraceLens's "                     \
	"include_unlinked_kernels=False); steps = GPU ops launched by a runtime call inside "      \
	"a top-level ProfilerStep span (null when the run has none). computation = union of "      \
	"kernels and memsets that are not communication; exposed_comm = union of "                 \
	"communication kernels - computation; exposed_memcpy = union of memcpys (and memory "      \
	"kernels not named Memset) - computation and communication; busy = union of the "          \
	"scope's ops; total = its first op start to last op end; idle = total - busy. GPU "        \
	"ops without a stream arg are left out, as above"

/* One scope's numbers (TraceLens's gpu_timeline). */
static json_t *scope_json(const struct gb *g, const struct scope *sc, const char *name)
{
	int64_t total = sc->ops ? pr_sub_sat(sc->last, sc->first) : 0;
	int64_t busy = u_total(&sc->all), comp = u_total(&sc->comp), cc = u_total(&sc->cc);
	return pr_jobj("scope", json_string(name), "ops", pr_jint(sc->ops), "t_ns",
		       sc->ops ? pr_actx_t(g->ctx, sc->first) : json_null(), "total_ns",
		       pr_jint(total), "busy_ns", pr_jint(busy), "computation_ns", pr_jint(comp),
		       "exposed_comm_ns", pr_jint(cc - comp), "exposed_memcpy_ns",
		       pr_jint(busy - cc), "idle_ns", pr_jint(total - busy), "comm_ns",
		       pr_jint(u_total(&sc->comm)), "memcpy_ns", pr_jint(u_total(&sc->mem)),
		       "busy_share", share((double)busy, (double)total), NULL);
}

static json_t *scopes_json(const struct gb *g)
{
	json_t *o = pr_jobj("rule", json_string(SCOPE_RULE), NULL);
	int k;
	for (k = 0; k < NSCOPE; k++) {
		json_t *v = k == S_STEPS && !g->tb.on ? json_null()
						      : scope_json(g, &g->sc[k], scope_names[k]);
		json_object_set_new(o, scope_names[k], v);
	}
	return o;
}

static int gpu_json(struct gb *g, struct pr_error *err)
{
	int64_t span = pr_sub_sat(g->last, g->first), c = u_total(&g->comp), x = u_total(&g->comm);
	int64_t over = pr_sub_sat(pr_add_sat(x, c), u_total(&g->cc));
	json_t *out, *rank, *idle;
	rank = temporal(span, &g->all, &g->comp, &g->cc);
	idle = idle_split(g->idle);
	json_object_set_new(idle, "gaps", pr_jint(g->gaps));
	json_object_set_new(idle, "launch_linked_share", share((double)g->linked, (double)g->ops));
	json_object_set_new(idle, "kernel_wait_below_ns", pr_jint(KERNEL_WAIT_NS));
	json_object_set_new(idle, "rule", json_string(IDLE_RULE));
	out = pr_jobj("rule", json_string(GPU_RULE), "ops", pr_jint(g->ops), "t_ns",
		      pr_actx_t(g->ctx, g->first), "rank", rank, "idle", idle, "overlap",
		      pr_jobj("communication_ns", pr_jint(x), "overlapped_ns", pr_jint(over),
			      "share", share((double)over, (double)x), "rule",
			      json_string(
				      "time where communication and compute kernels run at once / "
				      "union of communication kernels (HTA comm/comp overlap)"),
			      NULL),
		      NULL);
	json_object_set_new(out, "device_family", json_string(pr_kfamily_name(g->kc.family)));
	json_object_set_new(out, "scopes", scopes_json(g));
	if (g->nostream)
		json_object_set_new(out, "ops_without_stream", pr_jint(g->nostream));
	if (g->kc.has_re)
		json_object_set_new(out, "comm_kernels_pattern",
				    json_string(g->ctx->opts->comm_kernels));
	json_object_set_new(g->ctx->out, "gpu_breakdown", out);
	if (streams_json(g, out, err) || kernels_json(g, out, err))
		return -1;
	return 0;
}

/* ---- output: step_breakdown ---- */

struct bpt {
	int64_t t;
	const double *ev;
};

static struct bpt bmax(struct bpt a, struct bpt b)
{
	return b.t > a.t ? b : a;
}

static json_t *step_values(const struct bpt *s, const struct bpt *e, double *sum)
{
	double dur = (double)(e->t - s->t), prev = 0, v[NROLE], gpu, sm, od;
	json_t *o = json_object();
	int k;
	for (k = 0; k < NROLE; k++) {
		double cum = e->ev[k] - s->ev[k];
		v[k] = cum - prev;
		prev = cum;
	}
	gpu = e->ev[F_GPU] - s->ev[F_GPU];
	sm = e->ev[F_SM] - s->ev[F_SM];
	od = e->ev[F_OCCD] - s->ev[F_OCCD];
	json_object_set_new(o, "dur_ns", pr_jint(e->t - s->t));
	for (k = 0; k < NROLE; k++)
		json_object_set_new(o, role_keys[k], pr_jnum(v[k]));
	json_object_set_new(o, "other_ns", pr_jnum(dur - prev));
	json_object_set_new(o, "gpu_util", share(gpu, dur));
	json_object_set_new(o, "sm_efficiency", share(sm, dur));
	json_object_set_new(o, "occupancy_pct", share(e->ev[F_OCCW] - s->ev[F_OCCW], od));
	if (sum) {
		sum[0] += dur;
		for (k = 0; k < NROLE; k++)
			sum[1 + k] += v[k];
		sum[1 + NROLE] += dur - prev;
	}
	return o;
}

#define TB_RULE                                                                                     \
	"TensorBoard's overview: steps = top-level ProfilerStep spans extended to the end of the "  \
	"GPU ops their runtime calls launched (a step starts no earlier than the previous one "     \
	"ends); each instant goes to the first of Kernel > Memcpy > Memset > Communication > "      \
	"Runtime > DataLoader > CPU Exec > Other active then; gpu_util = union of kernels / time; " \
	"sm_efficiency = integral of min(sum of blocks per SM, 1) / time; occupancy_pct = "         \
	"est. achieved occupancy weighted by kernel time"

#define TB_BASIS                                                                                   \
	"device: ProfilerStep spans extended to the end of the GPU work they launched, as "        \
	"TensorBoard measures them (step_breakdown.rule)"

/*
 * One step time per run: throughput.steps becomes the statistics of
 * TensorBoard's steps (the ones the breakdown keeps), and the host spans'
 * count, mean, p50 and total stay beside them as "host".
 */
static void tb_throughput(struct gb *g, const struct bpt *bs, const struct bpt *be, size_t keep)
{
	json_t *tp = json_object_get(g->ctx->out, "throughput"), *host, *dev;
	struct pr_aspan *sp;
	size_t i;
	if (!tp || !json_is_object(json_object_get(tp, "steps")))
		return;
	host = json_object_get(tp, "steps");
	sp = pr_xcalloc(keep, sizeof(*sp));
	for (i = 0; i < keep; i++) {
		sp[i] = *g->tb.st[i].sp;
		sp[i].ts = bs[i].t;
		sp[i].dur = be[i].t - bs[i].t;
	}
	dev = pr_throughput_steps(g->ctx, sp, keep, TB_BASIS);
	json_object_set_new(dev, "host",
			    pr_jobj("basis", json_incref(json_object_get(host, "basis")), "count",
				    json_incref(json_object_get(host, "count")), "total_ns",
				    json_incref(json_object_get(host, "total_ns")), "mean_ns",
				    json_incref(json_object_get(host, "mean_ns")), "p50_ns",
				    json_incref(json_object_get(host, "p50_ns")), NULL));
	json_object_set_new(tp, "steps", dev);
	free(sp);
}

static void tb_json(struct gb *g)
{
	struct tb *tb = &g->tb;
	struct bpt prev, *bs, *be;
	size_t i, keep = tb->n, last = 0;
	double sum[2 + NROLE];
	json_t *steps = json_array(), *out, *avg;
	int k;
	memset(sum, 0, sizeof(sum));
	bs = pr_xcalloc(tb->n, sizeof(*bs));
	be = pr_xcalloc(tb->n, sizeof(*be));
	prev.t = tb->st[0].hs;
	prev.ev = tb->st[0].ev_hs;
	if (tb->any_matched && tb->st[0].has_dev && tb->have_pre && tb->pre_best > prev.t) {
		prev.t = tb->pre_best;
		prev.ev = tb->ev_pre;
	}
	for (i = 0; i < tb->n; i++) {
		struct tbstep *s = &tb->st[i];
		struct bpt hs = { s->hs, s->ev_hs }, he = { s->he, s->ev_he };
		if (!tb->any_matched) {
			bs[i] = hs;
			be[i] = he;
			continue;
		}
		bs[i] = bmax(prev, hs);
		if (!s->has_dev) {
			be[i] = bmax(he, bs[i]);
		} else {
			struct bpt dv = { s->dmax, s->ev_dev };
			be[i] = s->have_dev ? bmax(he, dv) : he;
			if (be[i].t < bs[i].t)
				be[i] = bs[i];
		}
		prev = be[i];
	}
	/* tail steps the profiler may have cut */
	if (tb->any_matched && tb->n > 1) {
		long j = (long)tb->n - 1;
		while (j >= 0 && !tb->st[j].matched)
			j--;
		if (j >= 0) {
			keep = (size_t)j + 1;
			if (j > 0 &&
			    (double)tb->st[j - 1].matched * TAIL_RATIO > (double)tb->st[j].matched)
				keep = (size_t)j;
		}
	}
	for (i = 0; i < keep; i++) {
		json_t *o;
		if (i >= MAX_STEPS_LISTED) {
			json_decref(step_values(&bs[i], &be[i], sum)); /* summed, not listed */
			continue;
		}
		o = step_values(&bs[i], &be[i], sum);
		json_object_set_new(o, "name", json_string(tb->st[i].sp->name));
		json_object_set_new(o, "t_ns", pr_actx_t(g->ctx, bs[i].t));
		json_object_set_new(o, "host_dur_ns", pr_jint(tb->st[i].he - tb->st[i].hs));
		json_object_set_new(o, "gpu_ops", pr_jint(tb->st[i].matched));
		json_array_append_new(steps, o);
		last = i;
	}
	avg = json_object();
	json_object_set_new(avg, "dur_ns", pr_jnum(sum[0] / (double)keep));
	for (k = 0; k < NROLE; k++)
		json_object_set_new(avg, role_keys[k], pr_jnum(sum[1 + k] / (double)keep));
	json_object_set_new(avg, "other_ns", pr_jnum(sum[1 + NROLE] / (double)keep));
	out = pr_jobj("rule", json_string(TB_RULE), "device_adjusted",
		      json_boolean(tb->any_matched), "steps", steps, NULL);
	if (keep > MAX_STEPS_LISTED)
		json_object_set_new(out, "steps_more", pr_jint((int64_t)(keep - MAX_STEPS_LISTED)));
	json_object_set_new(out, "dropped_tail_steps", pr_jint((int64_t)(tb->n - keep)));
	json_object_set_new(out, "average", avg);
	{
		json_t *all = step_values(&bs[0], &be[keep - 1], NULL);
		(void)last;
		json_object_set_new(out, "gpu_utilization",
				    json_incref(json_object_get(all, "gpu_util")));
		json_object_set_new(out, "sm_efficiency",
				    tb->any_bps ? json_incref(json_object_get(all, "sm_efficiency"))
						: json_null());
		json_object_set_new(out, "achieved_occupancy_pct",
				    tb->any_occ ? json_incref(json_object_get(all, "occupancy_pct"))
						: json_null());
		json_decref(all);
	}
	json_object_set_new(g->ctx->out, "step_breakdown", out);
	if (tb->any_matched)
		tb_throughput(g, bs, be, keep);
	free(bs);
	free(be);
}

/* What later analyzers read (results.h): the rank's shares, overlap, idle split, the step
 * breakdown's average; and throughput.steps again, which the step breakdown may replace. */
static void publish(struct pr_actx *ctx)
{
	struct pr_res_gpubreak *r = &pr_results(ctx)->gpubreak;
	const json_t *gb = json_object_get(ctx->out, "gpu_breakdown");
	const json_t *rank = json_object_get(gb, "rank"), *ov = json_object_get(gb, "overlap");
	const json_t *idle = json_object_get(gb, "idle");
	const json_t *avg = json_object_get(json_object_get(ctx->out, "step_breakdown"), "average");
	r->present = gb != NULL;
	r->rank_communication_share = pr_mnum(rank, "communication_share");
	r->rank_idle_share = pr_mnum(rank, "idle_share");
	r->overlap_rule = pr_mstr(ov, "rule");
	r->overlap_share = pr_mnum(ov, "share");
	r->overlap_communication_ns = pr_mnum(ov, "communication_ns");
	r->overlap_overlapped_ns = pr_mnum(ov, "overlapped_ns");
	r->idle_rule = pr_mstr(idle, "rule");
	r->idle_host_wait_share = pr_mnum(idle, "host_wait_share");
	r->idle_host_wait_ns = pr_mnum(idle, "host_wait_ns");
	r->idle_kernel_wait_share = pr_mnum(idle, "kernel_wait_share");
	r->step_average = avg != NULL;
	r->step_dur_ns = pr_mnum(avg, "dur_ns");
	r->step_kernel_ns = pr_mnum(avg, "kernel_ns");
	r->step_memcpy_ns = pr_mnum(avg, "memcpy_ns");
	r->step_dataloader_ns = pr_mnum(avg, "dataloader_ns");
	r->step_communication_ns = pr_mnum(avg, "communication_ns");
	pr_throughput_publish_steps(ctx);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct gb g;
	int rc = -1;
	memset(&g, 0, sizeof(g));
	g.ctx = ctx;
	g.free_head = -1;
	if (pr_kclassify_init(&g.kc, ctx->meta, ctx->opts->comm_kernels, err))
		return -1;
	tb_init(&g);
	if (scan(&g, err))
		goto out;
	if (g.ops && gpu_json(&g, err))
		goto out;
	if (g.tb.on && (g.ops || g.tb.r[NROLE - 1].open))
		tb_json(&g);
	publish(ctx);
	rc = 0;
out:
	sqlite3_finalize(g.name_st);
	pr_strmap_release(&g.name_idx);
	pr_strmap_release(&g.launches);
	free(g.ring);
	pr_strmap_release(&g.stream_idx);
	drop_durations(&g);
	free(g.names);
	free(g.lv);
	free(g.streams);
	tb_release(&g.tb);
	pr_kclassify_release(&g.kc);
	return rc;
}

const struct pr_analyzer pr_an_gpubreak = {
	.name = "gpu_breakdown",
	.summary =
		"HTA's temporal, idle, overlap and kernel breakdowns; TensorBoard's step breakdown",
	.run = run,
	.stage = PR_STAGE_GPU,
};
