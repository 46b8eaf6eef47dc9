/*
 * an_trace.c - "trace": the named slices of one or two windows of the run,
 * for the page's zoomable trace view (one lane per thread / GPU stream /
 * async track, nesting depth inside a lane, the launch -> kernel links).
 *
 * WINDOWS: with steps, the slowest step and the median step (by duration;
 * the lower middle for an even count; ties by start), one window each (one
 * when they are the same step), in start order. GPU work a step launched
 * runs after the step's CPU end, so a step's window ends at the latest end
 * of the device activities whose launching runtime call (same
 * "correlation") starts in the step, at most at the next step's start +
 * the step's duration (the last step: its end + its duration). Without
 * steps: the whole run. opts->window picks one instead (--window SPEC:
 * a step by name or #N, extended as above, or a time range).
 *
 * HOW: the windows' steps are read before the shared span pass (the
 * store's span_step index: a few rows), so that the pass (spanstat.c)
 * feeds every span that may lie in a window to pr_trace_row: its widest
 * reach (each step's window to its bound) is known then, its exact end
 * only once the pass is over (the correlations, read back from the GPU
 * analyses' rows, gpuscan.h). While the pass runs: counters, the longest
 * pr_trace_bound candidates in a heap by duration (a longer span evicts the
 * shortest; ties: the later id goes), and a span that meets a step's reach
 * but not its CPU interval waits as a candidate record (57 bytes,
 * base/spill.h: a scratch file past 1 MiB); once the ends are known, those
 * starting before their window's end count and are offered to the heap, so
 * the heap holds exactly the longest of the spans in the final windows.
 * Then the kept candidates are the slices: their names, lanes (track
 * order), depths (among the slices of the lane), their useful args (read
 * by span id, one row each) and the links between them.
 *
 * MEMORY: 56 bytes a candidate (pr_trace_bound of them), the spill's MiB,
 * 8 bytes per runtime call in the windows' steps (the correlations).
 * LEFT OUT: spans of kinds session and profiler. A window's extension reads
 * the "correlation" args only (the links also Kineto's ac2g flows).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/gpuscan.h"
#include "analyze/kclass.h"
#include "base/imap.h"
#include "analyze/lane_name.h"
#include "analyze/spanstat.h"
#include "analyze/trace_impl.h"
#include "base/spill.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

#define ARG_CUT 256 /* bytes of a value's JSON text kept */

/* ---- after the pass ---- */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Each step window's end: the latest end of the device activities launched from it. */
static int extend(struct pr_actx *ctx, struct pr_trace *tr, struct pr_error *err)
{
	struct pr_gpuscan *gs = ctx->gpuscan;
	struct pr_gpuread *rd;
	const struct pr_gpurow *r;
	int64_t *corr[TR_MAXW] = { NULL };
	size_t nc[TR_MAXW] = { 0 }, cap[TR_MAXW] = { 0 }, i;
	int rc;
	if (!tr->steps || !gs || !gs->nkind[PR_GK_RUNTIME])
		return 0;
	if (!(rd = pr_gpuscan_open(ctx, gs, 0, err)))
		return -1;
	while ((r = pr_gpuread_next(rd))) {
		int64_t c = pr_gpurow_corr_link(r);
		if (r->kind != PR_GK_RUNTIME || c == PR_GPU_NO_CORR)
			continue;
		for (i = 0; i < tr->nw; i++)
			if (r->ts >= tr->w[i].t0 && r->ts < tr->w[i].base_end) {
				if (nc[i] == cap[i]) {
					cap[i] = cap[i] ? cap[i] * 2 : 256;
					corr[i] =
						pr_xreallocarray(corr[i], cap[i], sizeof(int64_t));
				}
				corr[i][nc[i]++] = c;
			}
	}
	rc = pr_gpuread_close(rd, err);
	for (i = 0; i < tr->nw; i++)
		if (nc[i])
			qsort(corr[i], nc[i], sizeof(int64_t), cmp_i64);
	if (!rc && (nc[0] || nc[1])) {
		if (!(rd = pr_gpuscan_open(ctx, gs, 0, err))) {
			rc = -1;
		} else {
			while ((r = pr_gpuread_next(rd))) {
				int64_t c = pr_gpurow_corr_link(r), ts = r->ts, dur = r->dur;
				if ((r->kind != PR_GK_KERNEL && r->kind != PR_GK_MEMCPY &&
				     r->kind != PR_GK_MEMSET) ||
				    c == PR_GPU_NO_CORR)
					continue;
				pr_span_clamp(&ts, &dur);
				for (i = 0; i < tr->nw; i++) {
					struct trwin *w = &tr->w[i];
					int64_t e = ts + dur;
					if (nc[i] && e > w->end &&
					    bsearch(&c, corr[i], nc[i], sizeof(int64_t), cmp_i64))
						w->end = e < w->hi ? e : w->hi;
				}
			}
			rc = pr_gpuread_close(rd, err);
		}
	}
	for (i = 0; i < TR_MAXW; i++)
		free(corr[i]);
	return rc;
}

struct lane {
	int64_t track, sort_index;
	int cls, has_sort; /* 0 thread-like, 1 GPU stream, 2 async */
	char *pid, *tid;
	json_t *name;
	int depth;
};

/* numbers as numbers (shorter digit strings first), then text */
static int cmp_id_text(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b), i;
	int da = na > 0, db = nb > 0;
	for (i = 0; i < na && da; i++)
		da = isdigit((unsigned char)a[i]) != 0;
	for (i = 0; i < nb && db; i++)
		db = isdigit((unsigned char)b[i]) != 0;
	if (da && db) {
		while (*a == '0' && a[1])
			a++, na--;
		while (*b == '0' && b[1])
			b++, nb--;
		if (na != nb)
			return na < nb ? -1 : 1;
	} else if (da != db) {
		return da ? -1 : 1;
	}
	return strcmp(a, b);
}

static int cmp_lane(const void *pa, const void *pb)
{
	const struct lane *x = pa, *y = pb;
	int c;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if ((c = cmp_id_text(x->pid, y->pid)))
		return c;
	if (x->cls == 0 && x->has_sort != y->has_sort)
		return x->has_sort ? -1 : 1;
	if (x->cls == 0 && x->has_sort && x->sort_index != y->sort_index)
		return x->sort_index < y->sort_index ? -1 : 1;
	if ((c = cmp_id_text(x->tid, y->tid)))
		return c;
	return x->track < y->track ? -1 : x->track > y->track;
}

struct slice {
	struct cand c;
	size_t lane;
	int depth;
	int64_t corr;
	long args;
};

static int by_lane_start(const void *pa, const void *pb)
{
	const struct slice *x = pa, *y = pb;
	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->c.ts != y->c.ts)
		return x->c.ts < y->c.ts ? -1 : 1;
	if (x->c.dur != y->c.dur)
		return x->c.dur > y->c.dur ? -1 : 1;
	return x->c.id < y->c.id ? -1 : x->c.id > y->c.id;
}

static int by_lane_depth(const void *pa, const void *pb)
{
	const struct slice *x = pa, *y = pb;
	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->c.ts != y->c.ts)
		return x->c.ts < y->c.ts ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->c.id < y->c.id ? -1 : x->c.id > y->c.id;
}

static int load_lanes(struct pr_actx *ctx, struct slice *sl, size_t n, struct lane **out,
		      size_t *nout, struct pr_error *err)
{
	struct pr_imap by_track = { 0 };
	struct lane *l = NULL;
	size_t nl = 0, i;
	size_t *rank;
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;
	if (pr_actx_prep(ctx,
			 "SELECT kind, ifnull(pid, ''), ifnull(tid, ''), sort_index FROM track "
			 "WHERE id = ?2 AND ?1 IS NOT NULL",
			 &st, err))
		return -1;
	for (i = 0; i < n; i++) {
		int64_t v;
		if (pr_imap_get(&by_track, sl[i].c.track, &v)) {
			sl[i].lane = (size_t)v;
			continue;
		}
		l = pr_xreallocarray(l, nl + 1, sizeof(*l));
		memset(&l[nl], 0, sizeof(*l));
		l[nl].track = sl[i].c.track;
		sqlite3_bind_int64(st, 2, sl[i].c.track);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			const char *k = pr_actx_text(st, 0);
			l[nl].cls = !strcmp(k, "gpu_stream") ? 1 : !strcmp(k, "async") ? 2 : 0;
			l[nl].pid = pr_xstrdup(pr_actx_text(st, 1));
			l[nl].tid = pr_xstrdup(pr_actx_text(st, 2));
			l[nl].has_sort = sqlite3_column_type(st, 3) == SQLITE_INTEGER;
			l[nl].sort_index = sqlite3_column_int64(st, 3);
		} else if (rc != SQLITE_DONE) {
			break;
		} else {
			l[nl].pid = pr_xstrdup("");
			l[nl].tid = pr_xstrdup("");
		}
		rc = SQLITE_DONE;
		sqlite3_reset(st);
		pr_imap_put(&by_track, sl[i].c.track, (int64_t)nl);
		sl[i].lane = nl++;
	}
	pr_imap_release(&by_track);
	if (pr_actx_done(ctx, st, rc, err)) {
		for (i = 0; i < nl; i++) {
			free(l[i].pid);
			free(l[i].tid);
		}
		free(l);
		return -1;
	}
	/* sorted, and the slices' lane indexes renumbered */
	for (i = 0; i < nl; i++)
		l[i].sort_index = l[i].has_sort ? l[i].sort_index : 0, l[i].depth = (int)i;
	if (nl)
		qsort(l, nl, sizeof(*l), cmp_lane);
	rank = pr_xreallocarray(NULL, nl ? nl : 1, sizeof(*rank));
	for (i = 0; i < nl; i++) {
		rank[l[i].depth] = i;
		l[i].depth = 0;
	}
	for (i = 0; i < n; i++)
		sl[i].lane = rank[sl[i].lane];
	free(rank);
	*out = l;
	*nout = nl;
	return 0;
}

/* ---- args ---- */

enum {
	AK_OP = 1,
	AK_KERNEL = 2,
	AK_COPY = 4,
	AK_LINK = 8,
	AK_COLL = 16
};

static const struct {
	const char *key;
	unsigned kinds;
} arg_keys[] = {
	{ "Input Dims", AK_OP },
	{ "Input type", AK_OP },
	{ "Concrete Inputs", AK_OP },
	{ "Sequence number", AK_OP },
	{ "Fwd thread id", AK_OP },
	{ "grid", AK_KERNEL },
	{ "block", AK_KERNEL },
	{ "registers per thread", AK_KERNEL },
	{ "shared memory", AK_KERNEL },
	{ "blocks per SM", AK_KERNEL },
	{ "warps per SM", AK_KERNEL },
	{ "est. achieved occupancy %", AK_KERNEL },
	{ "stream", AK_KERNEL },
	{ "device", AK_KERNEL },
	{ "bytes", AK_COPY },
	{ "memory bandwidth (GB/s)", AK_COPY },
	{ "correlation", AK_LINK },
	{ "External id", AK_LINK },
	{ "Collective name", AK_COLL },
	{ "In msg nelems", AK_COLL },
	{ "Out msg nelems", AK_COLL },
	{ "Group size", AK_COLL },
	{ "dtype", AK_COLL },
	{ "Process Group Name", AK_COLL },
	{ "Process Group Ranks", AK_COLL },
};

static unsigned kind_keys(const char *kind, const char *name)
{
	unsigned k = 0;
	if (!strcmp(kind, "kernel"))
		k = AK_KERNEL | AK_LINK;
	else if (!strcmp(kind, "memcpy") || !strcmp(kind, "memset"))
		k = AK_COPY | AK_LINK;
	else if (!strcmp(kind, "runtime") || !strcmp(kind, "gpu_annotation") ||
		 !strcmp(kind, "gpu_step"))
		k = AK_LINK;
	else if (!strcmp(kind, "op") || !strcmp(kind, "python") || !strcmp(kind, "slice"))
		k = AK_OP;
	/* collectives by the one classification (kclass.h): their args are kept */
	if (!strcmp(name, "record_param_comms") || pr_kclass_is_collective(name))
		k |= AK_COLL;
	return k;
}

/* value as in the trace, or its first ARG_CUT bytes of JSON text (a string) when longer */
static json_t *cut_value(json_t *v)
{
	char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	json_t *out;
	size_t n;
	if (!t)
		return json_null();
	n = strlen(t);
	if (n <= ARG_CUT) {
		free(t);
		return json_incref(v);
	}
	n = ARG_CUT;
	while (n && ((unsigned char)t[n] & 0xC0) == 0x80) /* a whole UTF-8 sequence */
		n--;
	out = json_stringn(t, n);
	free(t);
	return out ? out : json_null();
}

/* The value of key in a split row (keys: the names, vals: the values) or an object (keys NULL). */
static json_t *arg_value(json_t *keys, json_t *vals, const char *key)
{
	size_t j;
	if (!keys)
		return json_object_get(vals, key);
	for (j = 0; j < json_array_size(keys); j++)
		if (json_is_string(json_array_get(keys, j)) &&
		    !strcmp(json_string_value(json_array_get(keys, j)), key))
			return json_array_get(vals, j);
	return NULL;
}

/* The slice's useful args as an object (NULL: none), and its correlation (*corr). */
static json_t *pick_args(const char *keys_text, const char *args_text, unsigned want, int64_t *corr)
{
	json_t *keys = NULL, *vals, *out = NULL;
	size_t i;
	*corr = PR_GPU_NO_CORR;
	if (!args_text || !want)
		return NULL;
	vals = json_loads(args_text, JSON_DECODE_ANY, NULL);
	if (keys_text)
		keys = json_loads(keys_text, 0, NULL);
	if ((keys && (!json_is_array(keys) || !json_is_array(vals))) ||
	    (!keys && !json_is_object(vals))) {
		json_decref(keys);
		json_decref(vals);
		return NULL;
	}
	for (i = 0; i < PR_ARRAY_SIZE(arg_keys); i++) {
		json_t *v = NULL;
		if (!(arg_keys[i].kinds & want))
			continue;
		v = arg_value(keys, vals, arg_keys[i].key);
		/* PyTorch 1.8-1.10 spell it "external id" on calls and kernels */
		if (!v && !strcmp(arg_keys[i].key, "External id"))
			v = arg_value(keys, vals, "external id");
		if (!v)
			continue;
		if (!strcmp(arg_keys[i].key, "correlation") && json_is_integer(v))
			*corr = json_integer_value(v);
		if (!out)
			out = json_object();
		json_object_set_new(out, arg_keys[i].key, cut_value(v));
	}
	json_decref(keys);
	json_decref(vals);
	return out;
}

static int read_args(struct pr_actx *ctx, struct slice *sl, size_t n, const struct pr_spanstat *ss,
		     json_t *const *names, json_t *args, struct pr_error *err)
{
	struct pr_strmap seen = PR_STRMAP_INIT;
	sqlite3_stmt *st;
	size_t i;
	int rc = SQLITE_DONE;
	if (pr_actx_prep(
		    ctx,
		    "SELECT k.keys, s.args FROM span s LEFT JOIN argkeys k ON k.id = s.args_keys "
		    "WHERE s.id = ?2 AND ?1 IS NOT NULL",
		    &st, err))
		return -1;
	for (i = 0; i < n; i++) {
		const char *kind = ss->kinds[sl[i].c.kind];
		unsigned want = kind_keys(kind, json_string_value(names[i]));
		json_t *o;
		sl[i].args = -1;
		sl[i].corr = PR_GPU_NO_CORR;
		if (!want)
			continue;
		sqlite3_bind_int64(st, 2, sl[i].c.id);
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			break;
		if (rc == SQLITE_ROW &&
		    (o = pick_args(sqlite3_column_type(st, 0) == SQLITE_NULL ? NULL
									     : pr_actx_text(st, 0),
				   sqlite3_column_type(st, 1) == SQLITE_NULL ? NULL
									     : pr_actx_text(st, 1),
				   want, &sl[i].corr))) {
			char *t = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
			int64_t v;
			if (t && pr_strmap_get(&seen, t, strlen(t), &v)) {
				sl[i].args = (long)v;
				json_decref(o);
			} else if (t) {
				sl[i].args = (long)json_array_size(args);
				pr_strmap_put(&seen, t, strlen(t), sl[i].args);
				json_array_append_new(args, o);
			} else {
				json_decref(o);
			}
			free(t);
		}
		rc = SQLITE_DONE;
		sqlite3_reset(st);
	}
	pr_strmap_release(&seen);
	return pr_actx_done(ctx, st, rc, err);
}

static int is_device(const char *kind);

/*
 * Kineto's ac2g flows carry the correlation as their id: "s" at the runtime
 * call's start on its thread, "f" at the activity's start on its stream. A
 * shown call or activity without a "correlation" arg gets its flow's id
 * (one pass over the run's ac2g flows, only when there is such a slice;
 * memory: a map of those slices).
 */
struct flows_arg {
	struct slice *sl;
	const struct pr_spanstat *ss;
	struct pr_imap *want;
};

/* an ac2g flow's end: the correlation of the shown slice it marks (pr_gpu_flows) */
static int flow_end(void *arg, int64_t id, int start, int64_t track, int64_t ts)
{
	struct flows_arg *a = arg;
	struct slice *x;
	int64_t v;
	if (!pr_imap_get(a->want, pr_gpu_flow_key(track, ts), &v))
		return 0;
	x = &a->sl[v];
	if (x->c.track != track || x->c.ts != ts || x->corr != PR_GPU_NO_CORR ||
	    id == PR_GPU_NO_CORR)
		return 0;
	/* the start ("s") names a call, the end ("f") an activity */
	if (start == !strcmp(a->ss->kinds[x->c.kind], "runtime"))
		x->corr = id;
	return 0;
}

static int corr_by_flows(struct pr_actx *ctx, struct slice *sl, size_t n,
			 const struct pr_spanstat *ss, struct pr_error *err)
{
	struct pr_imap want = { 0 };
	struct flows_arg a;
	size_t i, nwant = 0;
	int rc;
	for (i = 0; i < n; i++) {
		const char *k = ss->kinds[sl[i].c.kind];
		int64_t key = pr_gpu_flow_key(sl[i].c.track, sl[i].c.ts);
		if (sl[i].corr == PR_GPU_NO_CORR && (!strcmp(k, "runtime") || is_device(k)) &&
		    key != INT64_MIN) { /* INT64_MIN: the map's empty slot */
			pr_imap_put(&want, key, (int64_t)i);
			nwant++;
		}
	}
	if (!nwant)
		return 0;
	a.sl = sl;
	a.ss = ss;
	a.want = &want;
	rc = pr_gpu_flows(ctx, flow_end, &a, err);
	pr_imap_release(&want);
	return rc;
}

static int is_device(const char *kind)
{
	return !strcmp(kind, "kernel") || !strcmp(kind, "memcpy") || !strcmp(kind, "memset");
}

static int cmp_link(const void *pa, const void *pb)
{
	const int64_t *x = pa, *y = pb;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

static json_t *make_links(const struct slice *sl, size_t n, const struct pr_spanstat *ss)
{
	struct pr_imap calls = { 0 };
	json_t *out = json_array();
	int64_t *pairs = NULL, v;
	size_t np = 0, i;
	/* the first runtime call of a correlation (slice order) */
	for (i = 0; i < n; i++)
		if (sl[i].corr != PR_GPU_NO_CORR && !strcmp(ss->kinds[sl[i].c.kind], "runtime") &&
		    !pr_imap_get(&calls, sl[i].corr, &v))
			pr_imap_put(&calls, sl[i].corr, (int64_t)i);
	for (i = 0; i < n; i++)
		if (sl[i].corr != PR_GPU_NO_CORR && is_device(ss->kinds[sl[i].c.kind]) &&
		    pr_imap_get(&calls, sl[i].corr, &v)) {
			pairs = pr_xreallocarray(pairs, np + 1, 2 * sizeof(*pairs));
			pairs[2 * np] = v;
			pairs[2 * np++ + 1] = (int64_t)i;
		}
	if (np)
		qsort(pairs, np, 2 * sizeof(*pairs), cmp_link);
	for (i = 0; i < np; i++)
		json_array_append_new(out, json_pack("[I,I]", (json_int_t)pairs[2 * i],
						     (json_int_t)pairs[2 * i + 1]));
	free(pairs);
	pr_imap_release(&calls);
	return out;
}

#define TRACE_RULE                                                                                 \
	"windows: the slowest and the median step (by duration; lower middle; ties by start), "    \
	"each extended to the end of the GPU work its runtime calls launched (same "               \
	"correlation), at most to the next step's start + the step's duration; no steps: the "     \
	"whole run; --window picks one. Every span meeting a window (kinds session and profiler "  \
	"left out), at most the bound: the shortest are left out first (ties: the later id). "     \
	"Depth: nesting among the lane's shown slices. Links: runtime call -> device activity "    \
	"by their \"correlation\" arg (else their ac2g flow's id)."

/* names[i]: the slice's name string (borrowed from name_json's array) */
static int name_table(struct pr_actx *ctx, struct slice *sl, size_t n, json_t *names_out,
		      size_t *name_ix, json_t **names, struct pr_error *err)
{
	struct pr_imap ids = { 0 };
	sqlite3_stmt *st;
	size_t i;
	int rc = SQLITE_DONE;
	if (pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &st,
			 err))
		return -1;
	for (i = 0; i < n; i++) {
		int64_t v;
		if (!pr_imap_get(&ids, sl[i].c.name_id, &v)) {
			sqlite3_bind_int64(st, 2, sl[i].c.name_id);
			rc = sqlite3_step(st);
			if (rc != SQLITE_ROW && rc != SQLITE_DONE)
				break;
			v = (int64_t)json_array_size(names_out);
			json_array_append_new(names_out,
					      json_string(rc == SQLITE_ROW ? pr_actx_text(st, 0)
									   : ""));
			if (!json_array_get(names_out, (size_t)v)) /* not UTF-8: kept as "?" */
				json_array_append_new(names_out, json_string("?"));
			rc = SQLITE_DONE;
			sqlite3_reset(st);
			pr_imap_put(&ids, sl[i].c.name_id, v);
		}
		name_ix[i] = (size_t)v;
		names[i] = json_array_get(names_out, (size_t)v);
	}
	pr_imap_release(&ids);
	return pr_actx_done(ctx, st, rc, err);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_trace *tr;
	const struct pr_spanstat *ss;
	struct slice *sl = NULL;
	struct lane *lanes = NULL;
	size_t nl = 0, n = 0, i, *name_ix = NULL, *kind_ix = NULL, nkinds = 0;
	json_t **names = NULL, *o, *jw, *jl, *jk, *jn, *js, *ja;
	int64_t *stack = NULL;
	uint64_t in = 0;
	const unsigned char *b;
	int rc = -1;
	if (!(ss = pr_spanstat_get(ctx, err)))
		return -1;
	tr = ctx->trace;
	ctx->trace = NULL;
	if (!tr || !tr->seen) { /* no spans: no section */
		pr_trace_free(tr);
		return 0;
	}
	if (extend(ctx, tr, err))
		goto out;
	/* the spans past a step's CPU end: in when they start before the window's end */
	in = tr->sure;
	if (tr->ext_n) {
		if (pr_spill_rewind(tr->ext, err))
			goto out;
		while ((b = pr_spill_next(tr->ext, EXT_REC))) {
			struct cand c;
			memcpy(&c, b, sizeof(c));
			for (i = 0; i < tr->nw; i++)
				if ((b[sizeof(c)] & (1u << i)) && c.ts < tr->w[i].end) {
					in++;
					pr_trace_offer(tr, &c);
					break;
				}
		}
		if (pr_spill_failed(tr->ext, err))
			goto out;
	}
	/* the kept candidates (all inside the final windows) are the slices */
	sl = pr_xcalloc(tr->nheap ? tr->nheap : 1, sizeof(*sl));
	for (n = 0; n < tr->nheap; n++)
		sl[n].c = tr->heap[n];
	if (load_lanes(ctx, sl, n, &lanes, &nl, err))
		goto out;
	/* depth: nesting among the lane's slices (start order, longer first) */
	if (n)
		qsort(sl, n, sizeof(*sl), by_lane_start);
	stack = pr_xreallocarray(NULL, n ? n : 1, sizeof(*stack));
	{
		size_t depth = 0;
		for (i = 0; i < n; i++) {
			if (i && sl[i].lane != sl[i - 1].lane)
				depth = 0;
			while (depth && stack[depth - 1] <= sl[i].c.ts &&
			       !(stack[depth - 1] == sl[i].c.ts && sl[i].c.dur == 0))
				depth--;
			sl[i].depth = (int)depth;
			stack[depth++] = sl[i].c.ts + sl[i].c.dur;
			if (sl[i].depth + 1 > lanes[sl[i].lane].depth)
				lanes[sl[i].lane].depth = sl[i].depth + 1;
		}
	}
	if (n)
		qsort(sl, n, sizeof(*sl), by_lane_depth);
	jw = json_array();
	jl = json_array();
	jk = json_array();
	jn = json_array();
	js = json_array();
	ja = json_array();
	for (i = 0; i < tr->nw; i++)
		json_array_append_new(jw, pr_jobj("label", json_string(tr->w[i].label), "t0_ns",
						  pr_actx_t(ctx, tr->w[i].t0), "t1_ns",
						  pr_actx_t(ctx, tr->w[i].end), NULL));
	/* the section first (the arrays filled below are its) */
	o = pr_jobj("rule", json_string(TRACE_RULE), "windows", jw, "bound",
		    pr_jint((int64_t)tr->bound), "in_windows", pr_jint((int64_t)in), "shown",
		    pr_jint((int64_t)n), "left_out", pr_jint((int64_t)(in - n)),
		    "left_out_below_ns",
		    pr_jint(in > n && tr->evicted ? pr_add_sat(tr->max_evicted, 1) : 0), "lanes",
		    jl, "kinds", jk, "names", jn, "slices", js, "args", ja, NULL);
	json_object_set_new(ctx->out, "trace", o);
	for (i = 0; i < nl; i++) {
		const char *kind = lanes[i].cls == 1   ? "gpu_stream"
				   : lanes[i].cls == 2 ? "async"
						       : "thread";
		const char *ignored = NULL;
		json_t *name = pr_timeline_lane_name(ctx, lanes[i].track, &ignored, err);
		if (!name)
			goto out;
		json_array_append_new(jl, pr_jobj("name", name, "kind", json_string(kind), "depth",
						  pr_jint(lanes[i].depth), NULL));
	}
	/* kinds and names in first-seen order of the slices */
	kind_ix = pr_xcalloc(ss->nkinds ? ss->nkinds : 1, sizeof(*kind_ix));
	for (i = 0; i < n; i++)
		if (!kind_ix[sl[i].c.kind]) {
			kind_ix[sl[i].c.kind] = ++nkinds;
			json_array_append_new(jk, json_string(ss->kinds[sl[i].c.kind]));
		}
	name_ix = pr_xreallocarray(NULL, n ? n : 1, sizeof(*name_ix));
	names = pr_xreallocarray(NULL, n ? n : 1, sizeof(*names));
	if (name_table(ctx, sl, n, jn, name_ix, names, err) ||
	    read_args(ctx, sl, n, ss, names, ja, err) || corr_by_flows(ctx, sl, n, ss, err))
		goto out;
	for (i = 0; i < n; i++)
		json_array_append_new(js,
				      json_pack("[I,i,o,I,I,I,I,i]", (json_int_t)sl[i].lane,
						sl[i].depth, pr_actx_t(ctx, sl[i].c.ts),
						(json_int_t)sl[i].c.dur, (json_int_t)name_ix[i],
						(json_int_t)(kind_ix[sl[i].c.kind] - 1),
						(json_int_t)(sl[i].c.has_self ? sl[i].c.self : -1),
						(int)sl[i].args));
	json_object_set_new(o, "links", make_links(sl, n, ss));
	rc = 0;
out:
	for (i = 0; i < nl; i++) {
		free(lanes[i].pid);
		free(lanes[i].tid);
	}
	free(lanes);
	free(stack);
	free(sl);
	free(names);
	free(name_ix);
	free(kind_ix);
	pr_trace_free(tr);
	return rc;
}

const struct pr_analyzer pr_an_trace = {
	.name = "trace",
	.summary = "the named slices of the slowest and median steps, for the trace view",
	.run = run,
	.stage = PR_STAGE_SPANS,
};
