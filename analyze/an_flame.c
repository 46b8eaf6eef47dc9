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
 * Steps merge: a span of kind `step` is named as its group, its name with
 * the trailing number replaced by '*' (ProfilerStep#4, #5 -> ProfilerStep#*;
 * a name without a trailing number stays itself), so that the same stack in
 * every step is one node. by_step keeps the FLAME_SPLIT_STEPS slowest steps
 * apart (each a root under its own name, in start order; the path above a
 * step is not kept), for the page's "split steps".
 *
 * Device time (gpu): every kernel, memcpy and memset linked to the runtime
 * call that launched it (the first call of its "correlation" in id order,
 * as the gpu analysis links them) is a leaf ("device": true) under the
 * node of the op that made the call (the call's parent; the call itself
 * where it has none), weighted by its duration: a tree of the host paths
 * with the device time under each. Activities without a call go under
 * "(no launching call)". gpu_by_step is the same for by_step. The pairing
 * goes through two external sorts (base/xsort.h) of the calls and the
 * activities by correlation, read from the GPU analyses' shared rows
 * (gpuscan.h) and matched to the tree by the span ids of the calls (the
 * span id -> node maps of the pass are kept until then).
 *
 * Bounded: at most FLAME_MAX_SPANS spans are read (a larger run says so and
 * has no flame graph: the speedscope export has all of it), each tree holds
 * at most pr_flame_max_tree nodes (past them, a span on a path not seen yet is
 * counted in an "(other paths)" node under its parent's, and spans_folded
 * says how many spans were; their time stays in every ancestor), and the model
 * keeps the nodes of at least FLAME_MIN_SHARE of the tree's total, at most
 * FLAME_MAX_DEPTH deep and FLAME_MAX_NODES of them (FLAME_SPLIT_NODES for the
 * two by-step trees), in depth-first order, children by total (largest
 * first), then name; nodes_more counts the rest.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/flame_impl.h"
#include "analyze/gpuscan.h"
#include "base/imap.h"
#include "analyze/model.h"
#include "analyze/perfev.h"
#include "analyze/spanstat.h"
#include "base/spill.h"
#include "base/xalloc.h"
#include "base/xsort.h"

static struct fl *sort_ctx; /* qsort has no context argument */

static int by_total(const void *a, const void *b)
{
	const struct node *x = &sort_ctx->n[*(const long *)a], *y = &sort_ctx->n[*(const long *)b];
	if (sort_ctx->roots_by_code && x->parent < 0 && y->parent < 0 && x->name_id != y->name_id)
		return x->name_id > y->name_id ? -1 : 1; /* CODE_SYN0 - k: k ascending */
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->dev != y->dev)
		return x->dev - y->dev;
	return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* Node names, looked up once for the nodes kept (st: SELECT value FROM string WHERE id = ?2). */
static char *name_of(const struct pr_flame *fl, sqlite3_stmt *st, int64_t code)
{
	char *s = NULL;
	if (code == CODE_FOLD)
		return pr_xstrdup("(other paths)");
	if (code == CODE_NOCALL)
		return pr_xstrdup("(no launching call)");
	if (code <= CODE_SYN0)
		return pr_xstrdup((size_t)(CODE_SYN0 - code) < fl->nsyn ? fl->syn[CODE_SYN0 - code]
									: "?");
	if (!st)
		return pr_xstrdup("?");
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 2, code);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		s = pr_xstrdup((const char *)sqlite3_column_text(st, 0));
	return s ? s : pr_xstrdup("?");
}

struct emit_to {
	const struct pr_flame *fl;
	sqlite3_stmt *st;
	json_t *arr;
	size_t kept, more, max;
};

/* Depth-first: children sorted by total; kept nodes appended to e->arr. */
static void emit(struct emit_to *e, struct fl *f, long first)
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
	if (k)
		qsort(kids, k, sizeof(*kids), by_total);
	for (i = 0; i < k; i++) {
		struct node *n = &f->n[kids[i]];
		char *name;
		if (n->total < f->root * FLAME_MIN_SHARE || n->depth >= FLAME_MAX_DEPTH ||
		    e->kept >= e->max) {
			e->more++;
			continue;
		}
		name = name_of(e->fl, e->st, n->name_id);
		json_array_append_new(e->arr,
				      pr_jobj("name", json_string(name), "depth", pr_jint(n->depth),
					      "total", pr_jnum(n->total), "self",
					      pr_jnum(n->total > n->child ? n->total - n->child
									  : 0),
					      "device", n->dev ? json_true() : NULL, NULL));
		free(name);
		e->kept++;
		emit(e, f, n->first_child);
	}
	free(kids);
}

/* The tree's nodes (the model's list) and how many were left out (*more). */
static json_t *tree_nodes(struct pr_actx *ctx, const struct pr_flame *fl, struct fl *f, size_t max,
			  size_t *more)
{
	struct emit_to e = { fl, NULL, json_array(), 0, 0, max };
	long c, root_first = -1;
	struct pr_error ignore = PR_ERROR_INIT;
	/* children lists (reverse order; emit sorts them) */
	for (c = (long)f->nn - 1; c >= 0; c--) {
		long p = f->n[c].parent;
		long *head = p < 0 ? &root_first : &f->n[p].first_child;
		f->n[c].next = *head;
		*head = c;
	}
	if (pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &e.st,
			 &ignore))
		e.st = NULL; /* names read as "?" */
	emit(&e, f, root_first);
	if (e.st)
		sqlite3_finalize(e.st);
	*more = e.more;
	return e.arr;
}

static const char *value_unit(struct pr_actx *ctx)
{
	const char *u;
	if (!ctx->synthetic)
		return "ns";
	if (ctx->perf_event && ctx->perf_unit) /* several perf events: the one read */
		return ctx->perf_unit;
	if ((u = json_string_value(json_object_get(ctx->meta, "weight_unit"))) && strcmp(u, "us"))
		return u;
	if ((u = json_string_value(json_object_get(ctx->meta, "x_unit"))))
		return u;
	return "units";
}

/* ---- device time ---- */

/* A call (corr, where its activities go in the two trees: node or -1) or an activity
 * (corr, name, dur; none: it has no correlation, sorted last); 32 bytes each, sorted by
 * corr. */
struct corr_rec {
	int64_t corr, a, b, none;
};

/* The gpu tree of a host tree: host nodes mirrored (map: host node -> gpu node, -1). */
struct gpu_tree {
	struct fl t;
	const struct fl *host;
	int32_t *map;
	int64_t acts;
};

static long mirror(struct gpu_tree *g, long h)
{
	long chain[FLAME_MAX_DEPTH * 4], top = h, d;
	size_t n = 0;
	if (g->map[h] >= 0)
		return g->map[h];
	/* the unmapped ancestors, from h up (a deep path: the part past the chain goes to the
	 * root, placed one level at a time by the recursion below) */
	while (top >= 0 && g->map[top] < 0 && n < PR_ARRAY_SIZE(chain)) {
		chain[n++] = top;
		top = g->host->n[top].parent;
	}
	d = top < 0 ? -1 : g->map[top] >= 0 ? g->map[top] : mirror(g, top);
	while (n > 0) {
		long x = chain[--n];
		d = pr_fl_node_of(&g->t, d, g->host->n[x].name_id, 0);
		g->map[x] = (int32_t)d;
	}
	return d;
}

/* An activity under host node h (-1: under "(no launching call)"). */
static void gpu_add(struct gpu_tree *g, long h, int64_t name, int64_t dur)
{
	int64_t folded = g->t.folded;
	long p = h >= 0 ? mirror(g, h) : pr_fl_node_of(&g->t, -1, CODE_NOCALL, 0);
	long leaf = pr_fl_node_of(&g->t, p, name, 1);
	if (g->t.folded > folded)
		g->t.folded = folded + 1; /* spans_folded: activities, each once */
	/* the leaf's own time; totals are summed up the tree at the end */
	g->t.n[leaf].total += (double)(dur > 0 ? dur : 0);
	g->acts++;
}

/* Totals: each node's children added to it (a parent comes before its children). */
static void gpu_sum(struct gpu_tree *g)
{
	long c;
	for (c = (long)g->t.nn - 1; c >= 0; c--) {
		struct node *n = &g->t.n[c];
		if (n->parent >= 0) {
			g->t.n[n->parent].total += n->total;
			g->t.n[n->parent].child += n->total;
		} else {
			g->t.root += n->total;
		}
	}
}

static void gpu_init(struct gpu_tree *g, const struct fl *host)
{
	size_t i;
	memset(g, 0, sizeof(*g));
	g->host = host;
	g->map = pr_xreallocarray(NULL, host->nn ? host->nn : 1, sizeof(*g->map));
	for (i = 0; i < host->nn; i++)
		g->map[i] = -1;
}

static void gpu_free(struct gpu_tree *g)
{
	pr_fl_release(&g->t);
	free(g->map);
}

/* Where a call's activities go in tree f: the node of the call's parent, or the call's. */
static int64_t call_node(const struct fl *f, int64_t id)
{
	int64_t h;
	if (!pr_fl_span_node(f, id, &h))
		return -1;
	return f->n[h].parent >= 0 ? f->n[h].parent : h;
}

static int is_act(uint8_t k)
{
	return k == PR_GK_KERNEL || k == PR_GK_MEMCPY || k == PR_GK_MEMSET;
}

/*
 * The device activities of the GPU analyses' rows (id order) placed under
 * their calls' nodes in g (merged tree) and s (by_step): the calls and the
 * activities sorted by correlation, then matched.
 */
static int gpu_trees(struct pr_actx *ctx, struct pr_flame *fl, struct gpu_tree *g,
		     struct gpu_tree *s, struct pr_error *err)
{
	struct pr_gpuscan *gs = pr_gpuscan_get(ctx, err);
	struct pr_gpuread *rd;
	const struct pr_gpurow *r;
	struct pr_xsort *calls, *acts;
	const struct corr_rec *c = NULL, *a;
	struct corr_rec call = { 0, -1, -1, 0 };
	int rc = 0, have = 0;
	if (!gs)
		return -1;
	if (!(gs->nkind[PR_GK_KERNEL] + gs->nkind[PR_GK_MEMCPY] + gs->nkind[PR_GK_MEMSET]))
		return 0;
	if (!(rd = pr_gpuscan_open(ctx, gs, 0, err)))
		return -1;
	if (pr_spill_reread(gs->ids, err)) {
		struct pr_error ignore = PR_ERROR_INIT;
		(void)pr_gpuread_close(rd, &ignore);
		return -1;
	}
	calls = pr_xsort_new("flame's runtime calls by correlation", sizeof(struct corr_rec),
			     pr_xsort_mem / 4, PR_XSORT_SIGNED);
	acts = pr_xsort_new("flame's device activities by correlation", sizeof(struct corr_rec),
			    pr_xsort_mem / 4, PR_XSORT_SIGNED);
	while ((r = pr_gpuread_next(rd))) {
		const unsigned char *p;
		int64_t id, corr;
		struct corr_rec rec;
		if (!is_act(r->kind) && r->kind != PR_GK_RUNTIME)
			continue;
		if (!(p = pr_spill_next(gs->ids, sizeof(id)))) {
			rc = pr_spill_failed(gs->ids, err)
				     ? -1
				     : pr_error_set(err, PR_E_IO, "the GPU rows' span ids: short");
			break;
		}
		memcpy(&id, p, sizeof(id));
		corr = pr_gpurow_corr_link(r);
		if (r->kind == PR_GK_RUNTIME) {
			if (corr == PR_GPU_NO_CORR)
				continue;
			rec = (struct corr_rec){ corr, call_node(&fl->f, id),
						 fl->nsel ? call_node(&fl->split, id) : -1, 0 };
			pr_xsort_put(calls, &rec);
		} else {
			int none = corr == PR_GPU_NO_CORR;
			rec = (struct corr_rec){ none ? INT64_MAX : corr, r->name, r->dur, none };
			pr_xsort_put(acts, &rec);
		}
	}
	{
		struct pr_error ignore = PR_ERROR_INIT;
		if (pr_gpuread_close(rd, rc ? &ignore : err))
			rc = -1;
	}
	if (!rc && (pr_xsort_sort(calls, err) || pr_xsort_sort(acts, err)))
		rc = -1;
	/* each activity to the first call of its correlation (the sort keeps id order) */
	while (!rc && (a = pr_xsort_next(acts))) {
		struct corr_rec act;
		memcpy(&act, a, sizeof(act));
		if (act.none) {
			gpu_add(g, -1, act.a, act.b);
			continue;
		}
		while ((!have || call.corr < act.corr) && (c = pr_xsort_next(calls))) {
			struct corr_rec x;
			memcpy(&x, c, sizeof(x));
			if (have && x.corr == call.corr)
				continue; /* a later call of the same correlation */
			call = x;
			have = 1;
		}
		if (have && call.corr == act.corr) {
			gpu_add(g, (long)call.a, act.a, act.b);
			if (call.b >= 0)
				gpu_add(s, (long)call.b, act.a, act.b);
		} else {
			gpu_add(g, -1, act.a, act.b);
		}
	}
	if (!rc && (pr_xsort_failed(calls, err) || pr_xsort_failed(acts, err)))
		rc = -1;
	pr_xsort_free(calls);
	pr_xsort_free(acts);
	return rc;
}

/* ---- the section ---- */

#define RULE                                                                                       \
	"spans of one name under one path merge (whatever their time or thread); steps merge "     \
	"into one node per name with its trailing number as '*' (ProfilerStep#*); total = sum of " \
	"their durations, self = total - children (0 when overlapping spans make the children "    \
	"longer); nodes under 0.1 % of the total, deeper than 40 or past 1500 are counted in "     \
	"nodes_more"

/* A tree's object: total, nodes, nodes_more, spans_folded, and the keys given. */
static json_t *tree_obj(struct pr_actx *ctx, const struct pr_flame *fl, struct fl *f, size_t max)
{
	size_t more = 0;
	json_t *nodes = tree_nodes(ctx, fl, f, max, &more);
	return pr_jobj("total", pr_jnum(f->root), "nodes", nodes, "nodes_more",
		       more ? pr_jint((int64_t)more) : NULL, "spans_folded",
		       f->folded ? pr_jint(f->folded) : NULL, NULL);
}

static void set_rule(json_t *o, const char *rule)
{
	json_object_set_new(o, "rule", json_string(rule));
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
	/* several perf events: the run's perf event's tracks only (perfev.c; their weights
	 * are not comparable, so never summed) */
	static const char sel_frames_track[] =
		"SELECT id, parent_id, name_id, dur, track_id FROM span WHERE run_id = ?1 AND "
		"kind = 'frame' ORDER BY id";
	static const char sel_spans[] =
		"SELECT id, parent_id, name_id, dur FROM span WHERE run_id = ?1 AND kind NOT IN "
		"('kernel', 'memcpy', 'memset', 'gpu_annotation', 'gpu_step', 'profiler', 'async', "
		"'profiler_range') ORDER BY id";
	const struct pr_spanstat *ss;
	struct pr_flame *fl = NULL;
	struct fl *f;
	struct gpu_tree g, gs;
	size_t i;
	sqlite3_stmt *st;
	int64_t nframes = 0;
	const json_t *events = json_object_get(ctx->meta, "perf.events");
	const json_t *order = json_object_get(ctx->meta, "perf.event_order");
	int by_event = ctx->perf_event != NULL;
	int rc, grc = 0;
	json_t *out, *o;
	char rule[400];
	memset(&g, 0, sizeof(g));
	memset(&gs, 0, sizeof(gs));
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
	fl = pr_flame_new_steps(ctx, !nframes);
	if (pr_actx_prep(ctx,
			 !nframes   ? sel_spans
			 : by_event ? sel_frames_track
				    : sel_frames,
			 &st, err)) {
		pr_flame_free(fl);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (by_event && nframes && pr_actx_perf_other(ctx, sqlite3_column_int64(st, 4)))
			continue;
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
		json_object_set_new(
			ctx->out, "flame",
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
		int none = 1;
		for (i = 0; i < fl->npend; i++) {
			if (pr_fl_add_span(f, pend[i].id, pend[i].parent, 1, pend[i].code,
					   pend[i].dur)) {
				none = 0;
				if (fl->nsel)
					pr_fl_add_split(&fl->split, pend[i].id, pend[i].parent, 1,
							pend[i].name_id, pend[i].sel, pend[i].dur);
			} else {
				pend[keep++] = pend[i];
			}
		}
		if (none) {
			for (i = 0; i < fl->npend; i++) {
				pr_fl_add_span(f, pend[i].id, 0, 0, pend[i].code, pend[i].dur);
				if (fl->nsel)
					pr_fl_add_split(&fl->split, pend[i].id, 0, 0,
							pend[i].name_id, pend[i].sel, pend[i].dur);
			}
			keep = 0;
		}
		fl->npend = keep;
	}
	if (!f->nn || f->root <= 0)
		goto out;
	/* the device time under the calls' nodes (a run of spans with device activities) */
	if (!nframes) {
		gpu_init(&g, f);
		gpu_init(&gs, &fl->split);
		gs.t.roots_by_code = 1;
		grc = gpu_trees(ctx, fl, &g, &gs, err);
		if (grc)
			goto out;
		gpu_sum(&g);
		gpu_sum(&gs);
	}
	pr_fl_release_spans(f);
	pr_fl_release_spans(&fl->split);
	out = pr_jobj("unit", json_string(value_unit(ctx)), "source",
		      json_string(nframes ? "frames" : "spans"), NULL);
	o = tree_obj(ctx, fl, f, FLAME_MAX_NODES);
	json_object_update(out, o);
	json_decref(o);
	if (fl->nmerged)
		json_object_set_new(out, "steps_merged", pr_jint((int64_t)fl->nmerged));
	set_rule(out, RULE);
	if (by_event && nframes) {
		/* one profile per event: this tree is the perf event's; all are listed */
		const json_t *ev;
		json_t *list = json_array();
		json_array_foreach (order, i, ev) {
			const char *e = json_string_value(ev);
			const char *u = json_string_value(json_object_get(events, e ? e : ""));
			if (!e)
				continue;
			json_array_append_new(list, pr_jobj("event", json_string(e), "unit",
							    json_string(u ? u : ""), NULL));
		}
		json_object_set_new(out, "event", json_string(ctx->perf_event));
		json_object_set_new(out, "events", list);
		json_object_set_new(out, "events_rule",
				    json_string("the tree is one event's samples alone: the "
						"first time-weighted one (cpu-clock, "
						"task-clock), else the first in the file (each "
						"event weighs in its own unit: never summed); "
						"profreport speedscope writes one profile per "
						"event and thread"));
	}
	if (fl->nsel && fl->split.root > 0) {
		o = tree_obj(ctx, fl, &fl->split, FLAME_SPLIT_NODES);
		json_object_set_new(o, "steps", pr_jint((int64_t)fl->nsel));
		json_object_set_new(o, "of_steps", pr_jint((int64_t)fl->nsteps));
		snprintf(
			rule, sizeof(rule),
			"the %zu slowest of the run's %zu steps, each a root under its own name in "
			"start order (the path above a step left out), the spans below as in the "
			"merged tree; nodes under 0.1 %% of these steps' total, deeper than 40 or past "
			"%d are counted in nodes_more",
			fl->nsel, fl->nsteps, FLAME_SPLIT_NODES);
		set_rule(o, rule);
		json_object_set_new(out, "by_step", o);
	}
	if (g.acts && g.t.root > 0) {
		o = pr_jobj("unit", json_string("ns"), NULL);
		{
			json_t *t = tree_obj(ctx, fl, &g.t, FLAME_MAX_NODES);
			json_object_update(o, t);
			json_decref(t);
		}
		json_object_set_new(o, "activities", pr_jint(g.acts));
		set_rule(
			o,
			"device time: each kernel, memcpy and memset (\"device\": true) under the "
			"op whose runtime call launched it (the first call of its correlation; the "
			"call itself where it has no parent), \"(no launching call)\" where none "
			"is found; a node's total = its activities' durations; nodes under 0.1 % "
			"of the total, deeper than 40 or past 1500 are counted in nodes_more");
		json_object_set_new(out, "gpu", o);
		if (gs.acts && gs.t.root > 0 && json_object_get(out, "by_step")) {
			o = tree_obj(ctx, fl, &gs.t, FLAME_SPLIT_NODES);
			json_object_set_new(o, "activities", pr_jint(gs.acts));
			json_object_set_new(json_object_get(out, "by_step"), "gpu", o);
		}
	}
	json_object_set_new(ctx->out, "flame", out);
out:
	gpu_free(&g);
	gpu_free(&gs);
	pr_flame_free(fl);
	return grc;
}

const struct pr_analyzer pr_an_flame = {
	.name = "flame",
	.summary = "time (or weight) by call stack: the flame graph's nodes",
	.run = run,
	.stage = PR_STAGE_SPANS,
};
