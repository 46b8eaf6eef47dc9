/*
 * an_flame.c - "flame": time (or the profile's weight) by call stack, the
 * data of the report's flame graph (an icicle: the root on top).
 *
 * A run with `frame` spans (sampled and evented profiles: speedscope,
 * folded stacks, perf script, DHAT) is read as its frames; any other run as
 * its host-side spans (device activity and GPU annotations left out: they
 * are not on a call stack). Spans with the same name under the same path
 * merge into one node, whatever their time or thread (a flame graph, not a
 * timeline); a node's total is the sum of its spans' durations, its self
 * the total less its children's. The value is ns, or the profile's weight
 * (samples, bytes) where the run's time is synthetic.
 *
 * Bounded: at most FLAME_MAX_SPANS spans are read (a larger run says so and
 * has no flame graph: the speedscope export has all of it), the tree holds
 * at most pr_flame_max_tree nodes (past them, a span on a path not seen yet is
 * counted in an "(other paths)" node under its parent's, and spans_folded
 * says how many spans were; their time stays in every ancestor), and the model
 * keeps the nodes of at least FLAME_MIN_SHARE of the root total, at most
 * FLAME_MAX_DEPTH deep and FLAME_MAX_NODES of them, in depth-first order,
 * children by total (largest first), then name; nodes_more counts the rest.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/spanstat.h"
#include "analyze/imap.h"
#include "analyze/model.h"
#include "base/xalloc.h"

#define FLAME_MAX_SPANS 2000000
#define FLAME_MAX_NODES 1500
#define FLAME_MAX_DEPTH 40
#define FLAME_MIN_SHARE 0.001
/* The tree's nodes: past pr_flame_max_tree (131072: 7 MiB of nodes, about as much of maps),
 * a span on a new path goes to its parent's "(other paths)" node. */
size_t pr_flame_max_tree = 131072;
#define FLAME_FOLD 0x7fffffff /* the name id of an "(other paths)" node */

struct node {
	int64_t name_id;
	long parent; /* -1: under the root */
	int depth;
	double total, child;
	long first_child, next; /* children lists, filled after the pass */
};

struct fl {
	struct node *n;
	size_t nn, cap;
	struct pr_imap by_key;  /* (parent + 1) << 31 | name_id -> node */
	/* span id -> node: dense (dense[id - base], -1 = none; 4 bytes a span, where
	 * the ids come in id order and close together, as a store's do) or else a map */
	int32_t *dense;
	int64_t base;
	size_t ndense, nset; /* nset: spans mapped */
	int sparse;
	struct pr_imap by_span;
	double root;
	int64_t folded; /* spans that went to an "(other paths)" node */
};

static int span_node(const struct fl *f, int64_t id, int64_t *node)
{
	if (f->sparse)
		return pr_imap_get(&f->by_span, id, node);
	if (!f->ndense || id < f->base || (uint64_t)(id - f->base) >= f->ndense ||
	    f->dense[id - f->base] < 0)
		return 0;
	*node = f->dense[id - f->base];
	return 1;
}

static void set_span_node(struct fl *f, int64_t id, int64_t node)
{
	size_t i, old;
	if (!f->sparse && !f->ndense) {
		f->base = id;
		f->ndense = 4096;
		f->dense = pr_xreallocarray(NULL, f->ndense, sizeof(*f->dense));
		for (i = 0; i < f->ndense; i++)
			f->dense[i] = -1;
	}
	/* ids below the first, far apart, or more nodes than an int32: the map */
	f->nset++;
	if (!f->sparse && (id < f->base || (uint64_t)(id - f->base) > 4 * (uint64_t)f->nset + 65536 ||
			   node > INT32_MAX)) {
		for (i = 0; i < f->ndense; i++)
			if (f->dense[i] >= 0)
				pr_imap_put(&f->by_span, f->base + (int64_t)i, f->dense[i]);
		free(f->dense);
		f->dense = NULL;
		f->ndense = 0;
		f->sparse = 1;
	}
	if (f->sparse) {
		pr_imap_put(&f->by_span, id, node);
		return;
	}
	if ((uint64_t)(id - f->base) >= f->ndense) {
		old = f->ndense;
		while ((uint64_t)(id - f->base) >= f->ndense)
			f->ndense *= 2;
		f->dense = pr_xreallocarray(f->dense, f->ndense, sizeof(*f->dense));
		for (i = old; i < f->ndense; i++)
			f->dense[i] = -1;
	}
	f->dense[id - f->base] = (int32_t)node;
}

static long node_of(struct fl *f, long parent, int64_t name_id)
{
	int64_t key = ((int64_t)(parent + 1) << 31) | (name_id & 0x7fffffff), v;
	if (pr_imap_get(&f->by_key, key, &v))
		return (long)v;
	if (f->nn >= pr_flame_max_tree && name_id != FLAME_FOLD) {
		f->folded++;
		return node_of(f, parent, FLAME_FOLD);
	}
	if (f->nn == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		f->n = pr_xreallocarray(f->n, f->cap, sizeof(*f->n));
	}
	memset(&f->n[f->nn], 0, sizeof(f->n[f->nn]));
	f->n[f->nn].name_id = name_id;
	f->n[f->nn].parent = parent;
	f->n[f->nn].depth = parent < 0 ? 0 : f->n[parent].depth + 1;
	f->n[f->nn].first_child = f->n[f->nn].next = -1;
	pr_imap_put(&f->by_key, key, (int64_t)f->nn);
	return (long)f->nn++;
}

struct pending {
	int64_t id, parent, name_id, dur;
};

/* Adds span (id, parent span, name, dur); 0 when its parent span is not read yet. */
static int add_span(struct fl *f, int64_t id, int64_t parent, int has_parent, int64_t name_id,
		    int64_t dur)
{
	int64_t pn = -1;
	long nd;
	if (has_parent && !span_node(f, parent, &pn)) {
		if (parent > id)
			return 0; /* a parent with a larger id (a re-nested track): later */
		pn = -1;          /* a parent left out (device, profiler window): a root */
	}
	nd = node_of(f, (long)pn, name_id);
	f->n[nd].total += (double)(dur > 0 ? dur : 0);
	if (pn >= 0)
		f->n[pn].child += (double)(dur > 0 ? dur : 0);
	else
		f->root += (double)(dur > 0 ? dur : 0);
	set_span_node(f, id, (int64_t)nd);
	return 1;
}

static struct fl *sort_ctx; /* qsort has no context argument */

static int by_total(const void *a, const void *b)
{
	const struct node *x = &sort_ctx->n[*(const long *)a], *y = &sort_ctx->n[*(const long *)b];
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* Node names, looked up once for the nodes kept. */
static char *name_of(struct pr_actx *ctx, int64_t id)
{
	sqlite3_stmt *st;
	char *s = NULL;
	if (id == FLAME_FOLD)
		return pr_xstrdup("(other paths)");
	if (sqlite3_prepare_v2(ctx->db, "SELECT value FROM string WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		return pr_xstrdup("?");
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		s = pr_xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s ? s : pr_xstrdup("?");
}

/* Depth-first: children sorted by total; kept nodes appended to arr. */
static void emit(struct pr_actx *ctx, struct fl *f, long first, json_t *arr, size_t *kept,
		 size_t *more)
{
	long c, *kids;
	size_t k = 0, i;
	for (c = first; c >= 0; c = f->n[c].next)
		k++;
	if (!k)
		return;
	kids = pr_xreallocarray(NULL, k, sizeof(*kids));
	for (c = first, i = 0; c >= 0; c = f->n[c].next)
		kids[i++] = c;
	sort_ctx = f;
	qsort(kids, k, sizeof(*kids), by_total);
	for (i = 0; i < k; i++) {
		struct node *n = &f->n[kids[i]];
		char *name;
		if (n->total < f->root * FLAME_MIN_SHARE || n->depth >= FLAME_MAX_DEPTH ||
		    *kept >= FLAME_MAX_NODES) {
			(*more)++;
			continue;
		}
		name = name_of(ctx, n->name_id);
		json_array_append_new(arr, pr_jobj("name", json_string(name), "depth", pr_jint(n->depth),
						   "total", pr_jnum(n->total), "self",
						   pr_jnum(n->total > n->child ? n->total - n->child : 0),
						   NULL));
		free(name);
		(*kept)++;
		emit(ctx, f, n->first_child, arr, kept, more);
	}
	free(kids);
}

static const char *value_unit(struct pr_actx *ctx)
{
	const char *u;
	if (!ctx->synthetic)
		return "ns";
	if ((u = json_string_value(json_object_get(ctx->meta, "weight_unit"))) && strcmp(u, "us"))
		return u;
	if ((u = json_string_value(json_object_get(ctx->meta, "x_unit"))))
		return u;
	return "units";
}

/* The spans read so far: the tree, and the spans whose parent comes later. */
struct pr_flame {
	struct fl f;
	struct pending *pend;
	size_t npend, cappend, nspans;
};

struct pr_flame *pr_flame_new(struct pr_actx *ctx)
{
	if (pr_mnum(json_object_get(ctx->out, "counts"), "spans") > FLAME_MAX_SPANS)
		return NULL;
	return pr_xcalloc(1, sizeof(struct pr_flame));
}

int pr_flame_kind(const char *kind)
{
	static const char *const out[] = { "kernel",   "memcpy",   "memset", "gpu_annotation",
					   "gpu_step", "profiler", "async" };
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(out); i++)
		if (!strcmp(kind, out[i]))
			return 0;
	return 1;
}

void pr_flame_row(struct pr_flame *fl, int64_t id, int64_t parent, int has_parent, int64_t name_id,
		  int64_t dur)
{
	if (++fl->nspans > FLAME_MAX_SPANS)
		return;
	if (!add_span(&fl->f, id, parent, has_parent, name_id, dur)) {
		if (fl->npend == fl->cappend) {
			fl->cappend = fl->cappend ? fl->cappend * 2 : 64;
			fl->pend = pr_xreallocarray(fl->pend, fl->cappend, sizeof(*fl->pend));
		}
		fl->pend[fl->npend++] = (struct pending){ id, parent, name_id, dur };
	}
}

void pr_flame_done(struct pr_flame *fl)
{
	struct fl *f = &fl->f;
	if (fl->npend)
		return; /* the maps place the spans still waiting for their parent */
	pr_imap_release(&f->by_key);
	pr_imap_release(&f->by_span);
	free(f->dense);
	f->dense = NULL;
	f->ndense = 0;
	if (f->nn && f->nn < f->cap) {
		f->n = pr_xreallocarray(f->n, f->nn, sizeof(*f->n));
		f->cap = f->nn;
	}
}

void pr_flame_free(struct pr_flame *fl)
{
	if (!fl)
		return;
	free(fl->pend);
	pr_imap_release(&fl->f.by_key);
	pr_imap_release(&fl->f.by_span);
	free(fl->f.dense);
	free(fl->f.n);
	free(fl);
}

/*
 * A run with frames reads them here; any other run takes the host spans the
 * shared span pass fed (spanstat.h: one scan for this and the other
 * analyses), or reads them here when that pass had none to give.
 */
static int run(struct pr_actx *ctx, struct pr_error *err)
{
	static const char sel_frames[] = "SELECT id, parent_id, name_id, dur FROM span "
					 "WHERE run_id = ?1 AND kind = 'frame' ORDER BY id";
	static const char sel_spans[] =
		"SELECT id, parent_id, name_id, dur FROM span WHERE run_id = ?1 AND kind NOT IN "
		"('kernel', 'memcpy', 'memset', 'gpu_annotation', 'gpu_step', 'profiler', 'async') "
		"ORDER BY id";
	const struct pr_spanstat *ss;
	struct pr_flame *fl = NULL;
	struct fl *f;
	size_t i, kept = 0, more = 0;
	sqlite3_stmt *st;
	int64_t nframes = 0;
	int rc;
	long c, root_first = -1;
	json_t *arr;
	/* the frames counted by the shared span pass (spanstat.h), not by a scan */
	if (!(ss = pr_spanstat_get(ctx, err)))
		return -1;
	nframes = (int64_t)pr_spanstat_kind_count(ss, "frame");
	if (nframes > FLAME_MAX_SPANS ||
	    (!nframes && pr_mnum(json_object_get(ctx->out, "counts"), "spans") > FLAME_MAX_SPANS)) {
		fl = pr_xcalloc(1, sizeof(*fl));
		fl->nspans = FLAME_MAX_SPANS + 1; /* known from the counts: no scan */
		goto skipped;
	}
	if (!nframes && ctx->flame && ctx->flame_done) {
		fl = ctx->flame; /* taken from the context */
		ctx->flame = NULL;
		goto fed;
	}
	fl = pr_xcalloc(1, sizeof(*fl));
	if (pr_actx_prep(ctx, nframes ? sel_frames : sel_spans, &st, err)) {
		pr_flame_free(fl);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		pr_flame_row(fl, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
			     sqlite3_column_type(st, 1) != SQLITE_NULL, sqlite3_column_int64(st, 2),
			     sqlite3_column_int64(st, 3));
		if (fl->nspans > FLAME_MAX_SPANS)
			break;
	}
	if (rc != SQLITE_ROW && pr_actx_done(ctx, st, rc, err)) {
		pr_flame_free(fl);
		return -1;
	}
	if (rc == SQLITE_ROW)
		sqlite3_finalize(st);
skipped:
fed:
	f = &fl->f;
	if (fl->nspans > FLAME_MAX_SPANS) {
		json_object_set_new(ctx->out, "flame",
				    pr_jobj("unit", json_string(value_unit(ctx)), "skipped",
					    json_string("more than 2000000 spans: the speedscope export "
							"(profreport speedscope) has every stack"),
					    NULL));
		goto out;
	}
	/* spans whose parent came later in id order; each round places at least one, or
	 * the rest (a parent that never came) go under the root */
	while (fl->npend) {
		struct pending *pend = fl->pend;
		size_t keep = 0;
		for (i = 0; i < fl->npend; i++)
			if (!add_span(f, pend[i].id, pend[i].parent, 1, pend[i].name_id, pend[i].dur))
				pend[keep++] = pend[i];
		if (keep == fl->npend) {
			for (i = 0; i < fl->npend; i++)
				add_span(f, pend[i].id, 0, 0, pend[i].name_id, pend[i].dur);
			keep = 0;
		}
		fl->npend = keep;
	}
	if (!f->nn || f->root <= 0)
		goto out;
	/* children lists (reverse order; emit sorts them) */
	for (c = (long)f->nn - 1; c >= 0; c--) {
		long p = f->n[c].parent;
		long *head = p < 0 ? &root_first : &f->n[p].first_child;
		f->n[c].next = *head;
		*head = c;
	}
	arr = json_array();
	emit(ctx, f, root_first, arr, &kept, &more);
	json_object_set_new(
		ctx->out, "flame",
		pr_jobj("unit", json_string(value_unit(ctx)), "source",
			json_string(nframes ? "frames" : "spans"), "total", pr_jnum(f->root), "nodes", arr,
			"nodes_more", more ? pr_jint((int64_t)more) : NULL, "spans_folded",
			f->folded ? pr_jint(f->folded) : NULL, "rule",
			json_string("spans of one name under one path merge (whatever their time or "
				    "thread); total = sum of their durations, self = total - children (0 when "
				    "overlapping spans make the children longer); "
				    "nodes under 0.1 % of the total, deeper than 40 or past 1500 are "
				    "counted in nodes_more"),
			NULL));
out:
	pr_flame_free(fl);
	return 0;
}

const struct pr_analyzer pr_an_flame = {
	.name = "flame",
	.summary = "time (or weight) by call stack: the flame graph's nodes",
	.run = run,
};
