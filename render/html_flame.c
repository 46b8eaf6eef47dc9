/* html_flame.c - the flame graph of a run's page; see html_views.h. */
#include "render/html_util.h"
#include "render/html_views.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "base/escape.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* tree_data() reads the model's four trees (flame, flame.gpu, flame.by_step, flame.by_step.gpu)
 * by the flame's key names: the other trees' names must exist too, so any tree losing a key
 * fails to compile. */
#define SAME_TREE_KEYS(T)                                                                          \
	_Static_assert(sizeof(T##_NODES) + sizeof(T##_TOTAL) + sizeof(T##_NODES_MORE) +            \
				       sizeof(T##_SPANS_FOLDED) + sizeof(T##_NODES_NAME) +         \
				       sizeof(T##_NODES_DEPTH) + sizeof(T##_NODES_TOTAL) +         \
				       sizeof(T##_NODES_SELF) + sizeof(T##_NODES_DEVICE) >         \
			       0,                                                                  \
		       #T " has the flame's keys")
SAME_TREE_KEYS(PRK_FLAME_GPU);
SAME_TREE_KEYS(PRK_FLAME_BY_STEP);
SAME_TREE_KEYS(PRK_FLAME_BY_STEP_GPU);

#define esc pr_html_esc
#define fmt_val pr_html_fmt_val

/*
 * A tree of the model (nodes depth-first, children largest first) as the
 * script reads it: {"total", "nodes": [[name, depth, total, self, device], ...],
 * "more", "folded"}; NULL when the tree has nothing to draw.
 */
static json_t *tree_data(const json_t *t)
{
	const json_t *nodes = json_object_get(t, PRK_FLAME_NODES), *v;
	double total = pr_mnum(t, PRK_FLAME_TOTAL);
	json_t *arr;
	size_t i;
	if (!json_array_size(nodes) || !(total > 0) || !isfinite(total))
		return NULL;
	arr = json_array();
	json_array_foreach (nodes, i, v) {
		double tt = pr_mnum(v, PRK_FLAME_NODES_TOTAL),
		       self = pr_mnum(v, PRK_FLAME_NODES_SELF);
		long long d = pr_mll(v, PRK_FLAME_NODES_DEPTH);
		json_array_append_new(arr,
				      json_pack("[s,I,f,f,b]", pr_mstr(v, PRK_FLAME_NODES_NAME),
						(json_int_t)(d >= 0 ? d : 0),
						tt > 0 && isfinite(tt) ? tt : 0.0,
						self > 0 && isfinite(self) ? self : 0.0,
						json_is_true(
							json_object_get(v,
									PRK_FLAME_NODES_DEVICE))));
	}
	return json_pack("{s:f,s:o,s:I,s:I}", "total", total, "nodes", arr, "more",
			 (json_int_t)(pr_mll(t, PRK_FLAME_NODES_MORE) > 0
					      ? pr_mll(t, PRK_FLAME_NODES_MORE)
					      : 0),
			 "folded",
			 (json_int_t)(pr_mll(t, PRK_FLAME_SPANS_FOLDED) > 0
					      ? pr_mll(t, PRK_FLAME_SPANS_FOLDED)
					      : 0));
}

/* Adds the tree t (the model's, NULL: none) to the script's trees under key: 1 when it has one. */
static int add_tree(json_t *trees, const char *key, const json_t *t)
{
	json_t *d = t ? tree_data(t) : NULL;
	if (d)
		json_object_set_new(trees, key, d);
	return d != NULL;
}

/*
 * The flame graph (an icicle: the root on top, callees below), time or the
 * profile's weight by call stack: its data (the model's trees: merged steps,
 * by_step, and their device-time twins) embedded as JSON for
 * templates/flame.js, which draws, zooms, searches and switches them.
 */
/* The display names of every tree's frames: {"full": "shown"} where they differ. */
static json_t *display_names(const json_t *trees)
{
	json_t *seen = json_object(), *out, *t, *nd;
	const char *key;
	size_t i;
	/* keys: page data - trees holds tree_data()'s documents, not the model's */
	json_object_foreach ((json_t *)trees, key, t) {
		/* a node is tree_data()'s array [name, depth, total, self, device] */
		json_array_foreach (json_object_get(t, "nodes"), i, nd) { /* keys: page data */
			const char *nm = json_string_value(json_array_get(nd, 0));
			if (nm)
				json_object_set_new(seen, nm, json_true());
		}
	}
	out = pr_html_display_map(seen, PR_LABEL - 1);
	json_decref(seen);
	return out;
}

/* Whether every node is a root: spans that do not nest have no call stack to show. */
static int flat(const json_t *nodes)
{
	const json_t *nd;
	size_t i;
	json_array_foreach (nodes, i, nd)
		if (pr_mnum(nd, PRK_FLAME_NODES_DEPTH) > 0)
			return 0;
	return 1;
}

void pr_html_flame(struct pr_strbuf *sb, const json_t *run, size_t runi)
{
	const json_t *fl = json_object_get(run, PRK_FLAME),
		     *bs = json_object_get(fl, PRK_FLAME_BY_STEP);
	const char *unit = pr_mstr(fl, PRK_FLAME_UNIT);
	double total = pr_mnum(fl, PRK_FLAME_TOTAL);
	json_t *data, *trees;
	char a[48], *s;
	if (json_is_string(json_object_get(fl, PRK_FLAME_SKIPPED))) {
		pr_strbuf_addstr(sb, "<h3>Flame graph</h3>\n<p class=\"capped\">No flame graph: ");
		esc(sb, pr_mstr(fl, PRK_FLAME_SKIPPED));
		pr_strbuf_addstr(sb, ".</p>\n");
		return;
	}
	if (!json_array_size(json_object_get(fl, PRK_FLAME_NODES)) || !(total > 0) ||
	    !isfinite(total))
		return;
	if (flat(json_object_get(fl, PRK_FLAME_NODES)))
		return; /* nothing nests: the boxes would restate the spans' own table */
	trees = json_object();
	if (!add_tree(trees, "host", fl)) {
		json_decref(trees);
		return;
	}
	add_tree(trees, "split", bs);
	add_tree(trees, "gpu", json_object_get(fl, PRK_FLAME_GPU));
	add_tree(trees, "gpu_split", json_object_get(bs, PRK_FLAME_BY_STEP_GPU));
	data = json_pack("{s:s,s:o,s:I,s:I}", "unit", unit, "trees", trees, "steps",
			 (json_int_t)(pr_mll(bs, PRK_FLAME_BY_STEP_STEPS) > 0
					      ? pr_mll(bs, PRK_FLAME_BY_STEP_STEPS)
					      : 0),
			 "of_steps",
			 (json_int_t)(pr_mll(bs, PRK_FLAME_BY_STEP_OF_STEPS) > 0
					      ? pr_mll(bs, PRK_FLAME_BY_STEP_OF_STEPS)
					      : 0));
	json_object_set_new(data, "display", display_names(trees));
	fmt_val(total, unit, a, sizeof(a));
	pr_strbuf_addf(sb, "<h3>Flame graph (%s by call stack, from the %s)</h3>\n",
		       strcmp(unit, "ns") ? "weight" : "time", pr_mstr(fl, PRK_FLAME_SOURCE));
	if (json_array_size(json_object_get(fl, PRK_FLAME_EVENTS)) > 1) {
		/* perf events weigh different things: one profile each, never summed */
		const json_t *ev;
		size_t i, n = 0;
		pr_strbuf_addstr(sb, "<p class=\"meta\">perf event ");
		pr_html_esc(sb, pr_mstr(fl, PRK_FLAME_EVENT));
		pr_strbuf_addstr(sb, " only; the others (");
		json_array_foreach (json_object_get(fl, PRK_FLAME_EVENTS), i, ev) {
			if (!strcmp(pr_mstr(ev, PRK_FLAME_EVENTS_EVENT),
				    pr_mstr(fl, PRK_FLAME_EVENT)))
				continue;
			if (n++)
				pr_strbuf_addstr(sb, ", ");
			pr_html_esc(sb, pr_mstr(ev, PRK_FLAME_EVENTS_EVENT));
		}
		pr_strbuf_addstr(sb, ") weigh other units, not added to it: <code>profreport "
				     "speedscope</code> writes one profile per event and thread.");
		pr_strbuf_addstr(sb, "</p>\n");
	}
	pr_strbuf_addf(sb,
		       "<div class=\"flame-view\" id=\"flame-r%zu\" aria-label=\"flame graph, "
		       "%s in all\">\n",
		       runi, a);
	/* the controls are made by the script when the view is first drawn */
	pr_strbuf_addstr(
		sb, "<div class=\"fl-bar\"></div><div class=\"fl-crumbs\"></div>"
		    "<p class=\"fl-note capped\"></p><div class=\"fl-chart\"><noscript>The flame "
		    "graph is drawn by the page's script.</noscript></div>"
		    "<div class=\"fl-tip\" hidden></div>\n");
	s = json_dumps(data, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII |
				     JSON_REAL_PRECISION(17));
	json_decref(data);
	if (!s)
		abort(); /* only out of memory */
	pr_strbuf_addstr(sb, "<script type=\"application/json\" class=\"fl-data\">");
	pr_json_script_escape(sb, s);
	pr_strbuf_addstr(sb, "</script></div>\n");
	free(s);
	if (pr_mll(fl, PRK_FLAME_NODES_MORE) > 0)
		pr_strbuf_addf(
			sb,
			"<p class=\"capped\">%lld smaller or deeper node(s) are left out (under "
			"0.1 %% of the total, deeper than 40 levels or past 1500 boxes): they show "
			"as their parent's self; <code>profreport speedscope</code> has every stack.</p>\n",
			pr_mll(fl, PRK_FLAME_NODES_MORE));
}
