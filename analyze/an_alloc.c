/*
 * an_alloc.c - "alloc_tree": the allocation tree of the peak snapshot as
 * valgrind massif recorded it (heap_tree=peak). The massif reader stores
 * one reported metric massif.peak.tree per node below the root, in file
 * order (depth first), detail = the call path from the allocation site
 * outwards, "fn (file:line) <- caller (file:line) <- ...": a node's depth
 * is the number of entries, its label the last one. The root is the heap
 * at the peak (massif.peak.heap). Nodes massif itself folded are its own
 * "in N places, below massif's threshold (1.00%)" entries.
 *
 * At most PR_MODEL_ALLOC_NODES nodes, depth first (nodes_more counts the rest; the
 * store has them all). share = bytes / heap. t_ns is the peak snapshot's
 * position on the run's x axis (ns, or what clock.x_unit says).
 * The section is absent when the run has no peak tree.
 *
 * "cuda_snapshot": a PyTorch CUDA memory snapshot's numbers as the
 * torch-snapshot reader wrote them (run meta torch_snapshot, the same as its
 * reported metrics), per device; times become t_ns on the run's x axis
 * (ns, or trace events when the history has no time_us), each peak site
 * gets its share of the peak, each OOM the largest free block and whether
 * the request fits in it; timeline (the allocated bytes by peak site over
 * the history, at most 1000 points) gets t_ns. Absent for other formats.
 * "heap_totals": a heap profiler's program totals, from valgrind DHAT's
 * metrics (fmt_dhat.c): total_bytes/total_blocks (sums of the program
 * points' tb/tbk), peak_bytes/peak_blocks (gb/gbk: live at t-gmax, the
 * global peak), peak_t (tg) and end_bytes/end_t (eb, te), t in t_unit
 * (DHAT's tu: instructions, or ns); mode is DHAT's ("heap"; "copy": bytes
 * copied; "ad-hoc": the program's own units). Absent for a run without them.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/model.h"

#define SEP " <- "

static json_t *node(const char *path, double bytes, double heap)
{
	const char *p = path, *label = path, *q;
	int64_t depth = 1;
	while ((q = strstr(p, SEP)) != NULL) {
		depth++;
		p = q + strlen(SEP);
		label = p;
	}
	return pr_jobj("depth", pr_jint(depth), "bytes", pr_jnum(bytes), "share",
		       heap > 0 ? pr_jnum(bytes / heap) : json_null(), "label", json_string(label),
		       NULL);
}

static void t_ns(struct pr_actx *ctx, json_t *o)
{
	json_t *t = json_object_get(o, "t");
	if (json_is_integer(t))
		json_object_set_new(o, "t_ns",
				    pr_jint((int64_t)json_integer_value(t) - ctx->ts_min));
	json_object_del(o, "t");
}

static void cuda_snapshot(struct pr_actx *ctx)
{
	const json_t *snap = json_object_get(ctx->meta, "torch_snapshot");
	json_t *devs, *d, *v;
	size_t i, j;
	if (!json_is_object(snap) || !json_is_array(json_object_get(snap, "devices")))
		return;
	devs = json_deep_copy(json_object_get(snap, "devices"));
	json_array_foreach (devs, i, d) {
		json_t *peak = json_object_get(d, "peak"), *tl;
		double top = pr_mnum(peak, "allocated"), largest = pr_mnum(d, "largest_free_block");
		if (json_is_object(peak)) {
			t_ns(ctx, peak);
			json_array_foreach (json_object_get(peak, "sites"), j, v)
				json_object_set_new(v, "share",
						    top > 0 ? pr_jnum(pr_mnum(v, "bytes") / top)
							    : json_null());
		}
		tl = json_object_get(d, "timeline");
		if (json_is_object(tl)) {
			json_t *t = json_array();
			json_array_foreach (json_object_get(tl, "t"), j, v)
				json_array_append_new(t, pr_jint((int64_t)json_integer_value(v) -
								 ctx->ts_min));
			json_object_set_new(tl, "t_ns", t);
			json_object_del(tl, "t");
		}
		json_array_foreach (json_object_get(d, "ooms"), j, v) {
			t_ns(ctx, v);
			json_object_set_new(v, "largest_free_block", pr_jnum(largest));
			json_object_set_new(v, "fits",
					    json_boolean(pr_mnum(v, "requested") <= largest));
		}
	}
	json_object_set_new(
		ctx->out, "cuda_snapshot",
		pr_jobj("source", json_string("torch.cuda.memory._dump_snapshot (torch-snapshot)"),
			"time", json_incref(json_object_get(snap, "time")), "devices", devs, "rule",
			json_string(
				"segments and blocks as the snapshot holds them; the history "
				"(device_traces) replayed: allocated = alloc - free_requested, "
				"anchored to end at the snapshot's allocated bytes; the blocks "
				"live at its peak grouped by their first Python frame outside "
				"torch "
				"(file:line:function), else the autograd node (backward:NAME); "
				"external fragmentation = 1 - largest free block / free bytes in "
				"segments; an OOM's request against the snapshot's largest free "
				"block"),
			NULL));
}

static int heap_totals(struct pr_actx *ctx, struct pr_error *err)
{
	static const char *const keys[] = { "dhat.total.bytes", "dhat.total.blocks",
					    "dhat.gmax.bytes",	"dhat.gmax.blocks",
					    "dhat.t_gmax",	"dhat.end.bytes",
					    "dhat.t_end" };
	static const char *const out[] = { "total_bytes", "total_blocks", "peak_bytes",
					   "peak_blocks", "peak_t",	  "end_bytes",
					   "end_t" };
	sqlite3_stmt *st;
	json_t *o;
	char unit[16] = "bytes", tunit[16] = "";
	int rc, have = 0;
	size_t k;
	if (pr_actx_prep(ctx,
			 "SELECT name, value, ifnull(unit, '') FROM metric WHERE run_id = ?1 AND "
			 "name IN ('dhat.total.bytes', 'dhat.total.blocks', 'dhat.gmax.bytes', "
			 "'dhat.gmax.blocks', 'dhat.t_gmax', 'dhat.end.bytes', 'dhat.t_end') "
			 "ORDER BY id",
			 &st, err))
		return -1;
	o = json_object();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = pr_actx_text(st, 0), *u = pr_actx_text(st, 2);
		for (k = 0; k < PR_ARRAY_SIZE(keys) && strcmp(keys[k], name); k++)
			;
		if (k == PR_ARRAY_SIZE(keys))
			continue;
		json_object_set_new(o, out[k], pr_jnum(sqlite3_column_double(st, 1)));
		if (k == 0) {
			have = 1;
			snprintf(unit, sizeof(unit), "%s", u);
		} else if (k == 4 || k == 6) {
			snprintf(tunit, sizeof(tunit), "%s", u);
		}
	}
	if (pr_actx_done(ctx, st, rc, err)) {
		json_decref(o);
		return -1;
	}
	if (!have || !json_object_get(o, "total_blocks")) {
		json_decref(o);
		return 0;
	}
	json_object_set_new(o, "source", json_string("valgrind DHAT"));
	{
		const char *m = json_string_value(json_object_get(ctx->meta, "dhat.mode"));
		json_object_set_new(o, "mode", json_string(m ? m : "heap"));
	}
	json_object_set_new(o, "unit", json_string(unit));
	if (*tunit)
		json_object_set_new(o, "t_unit", json_string(tunit));
	json_object_set_new(o, "rule",
			    json_string("total: the sums of every program point's tb and tbk; "
					"peak: what was live at t-gmax, the time of the global "
					"heap peak (sums of gb and gbk); end: live at t-end (eb)"));
	json_object_set_new(ctx->out, "heap_totals", o);
	return 0;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *nodes = NULL, *tree;
	double heap = 0, extra = 0, stacks = 0, snap = -1, t = 0;
	int rc, have_heap = 0, have_t = 0;
	size_t n = 0, more = 0;
	if (heap_totals(ctx, err))
		return -1;
	/* the root's numbers first: share needs the heap */
	if (pr_actx_prep(
		    ctx,
		    "SELECT name, value FROM metric WHERE run_id = ?1 AND origin = 'reported' AND "
		    "name IN ('massif.peak.heap', 'massif.peak.heap_extra', 'massif.peak.stacks', "
		    "'massif.peak.snapshot', 'massif.peak.time') ORDER BY id",
		    &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = pr_actx_text(st, 0) + strlen("massif.peak.");
		double v = sqlite3_column_double(st, 1);
		if (!strcmp(name, "heap")) {
			heap = v;
			have_heap = 1;
		} else if (!strcmp(name, "heap_extra")) {
			extra = v;
		} else if (!strcmp(name, "stacks")) {
			stacks = v;
		} else if (!strcmp(name, "snapshot")) {
			snap = v;
		} else {
			t = v;
			have_t = 1;
		}
	}
	if (pr_actx_done(ctx, st, rc, err))
		return -1;
	cuda_snapshot(ctx);
	if (!have_heap)
		return 0;
	if (pr_actx_prep(ctx,
			 "SELECT value, ifnull(detail, '') FROM metric WHERE run_id = ?1 AND "
			 "origin = 'reported' AND name = 'massif.peak.tree' ORDER BY id",
			 &st, err))
		return -1;
	nodes = json_array();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n++ >= PR_MODEL_ALLOC_NODES) {
			more++;
			continue;
		}
		json_array_append_new(nodes, node(pr_actx_text(st, 1), sqlite3_column_double(st, 0),
						  heap));
	}
	if (pr_actx_done(ctx, st, rc, err)) {
		json_decref(nodes);
		return -1;
	}
	tree = pr_jobj(
		"source", json_string("valgrind massif, heap_tree=peak"), "snapshot",
		snap >= 0 ? pr_jnum(snap) : json_null(), "t_ns",
		have_t ? pr_jnum(t - (double)ctx->ts_min) : json_null(), "heap", pr_jnum(heap),
		"heap_extra", pr_jnum(extra), "stacks", pr_jnum(stacks), "nodes", nodes,
		"nodes_more", more ? pr_jint((int64_t)more) : NULL, "rule",
		json_string("the peak snapshot's tree as massif wrote it, depth first; a node's "
			    "children add up to it; massif folds the sites below its --threshold "
			    "(default 1 %) into 'in N places, below massif's threshold'"),
		NULL);
	json_object_set_new(ctx->out, "alloc_tree", tree);
	return 0;
}

const struct pr_analyzer pr_an_alloc_tree = {
	.name = "alloc_tree",
	.summary = "the peak snapshot's allocation tree (valgrind massif), depth first; a CUDA "
		   "memory snapshot's allocator numbers (torch-snapshot)",
	.run = run,
};
