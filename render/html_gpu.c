/*
 * html_gpu.c - the GPU part of a run's page (html_gpu.h): HTA's breakdowns,
 * the CPU-GPU link, TensorBoard's steps, the perf model, collectives, the
 * CUPTI range profiler and the critical path. Split from html_report.c
 * (issue 31); its cells and panels come from html_util.c.
 */
#include "render/html_gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/gpu_panel.h"
#include "render/html_util.h"
#include "render/names.h"
#include "render/panels.h"
#include "render/panelset.h"
#include "render/perf_panel.h"
#include "render/tables.h"
#include "render/units.h"
#include "render/scope_keys.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* ---- GPU: HTA's breakdowns, the CPU-GPU link, TensorBoard's steps, collectives ---- */

/* A short text cell (a type, a layer): never broken inside a word, unlike a name. */
static void tdt(struct pr_strbuf *sb, const char *text)
{
	pr_strbuf_addstr(sb, "<td>");
	pr_html_esc(sb, text);
	pr_strbuf_addstr(sb, "</td>");
}

/* A share (0..1) as a percent cell with `prec` decimals; absent stays "-". */
static void tdpct(struct pr_strbuf *sb, const json_t *o, const char *key, int prec)
{
	json_t *v = json_object_get(o, key);
	pr_html_tdf(sb, json_is_number(v) ? json_number_value(v) * 100 : NAN, prec);
}

/* One row of the temporal breakdown: the rank's or a stream's shares (gpu_breakdown.rank and
 * .idle, or a stream's, of one shape: named by the rank's; the streams' names must exist too). */
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_SPAN_NS) == sizeof(PRK_GPU_BREAKDOWN_RANK_SPAN_NS),
	       "streams[].span_ns");
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_BUSY_SHARE) ==
		       sizeof(PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE),
	       "streams[].busy_share");
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_COMPUTE_SHARE) ==
		       sizeof(PRK_GPU_BREAKDOWN_RANK_COMPUTE_SHARE),
	       "streams[].compute_share");
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_COMMUNICATION_SHARE) ==
		       sizeof(PRK_GPU_BREAKDOWN_RANK_COMMUNICATION_SHARE),
	       "streams[].communication_share");
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_MEMORY_SHARE) ==
		       sizeof(PRK_GPU_BREAKDOWN_RANK_MEMORY_SHARE),
	       "streams[].memory_share");
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_IDLE_SHARE) ==
		       sizeof(PRK_GPU_BREAKDOWN_RANK_IDLE_SHARE),
	       "streams[].idle_share");
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_IDLE_HOST_WAIT_SHARE) ==
		       sizeof(PRK_GPU_BREAKDOWN_IDLE_HOST_WAIT_SHARE),
	       "streams[].idle.host_wait_share");
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_IDLE_KERNEL_WAIT_SHARE) ==
		       sizeof(PRK_GPU_BREAKDOWN_IDLE_KERNEL_WAIT_SHARE),
	       "streams[].idle.kernel_wait_share");
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_IDLE_OTHER_SHARE) ==
		       sizeof(PRK_GPU_BREAKDOWN_IDLE_OTHER_SHARE),
	       "streams[].idle.other_share");
static void temporal_row(struct pr_strbuf *sb, const char *scope, const json_t *o,
			 const json_t *idle)
{
	pr_strbuf_addstr(sb, "<tr>");
	pr_html_td(sb, scope);
	pr_html_tdn(sb, pr_mnum(o, PRK_GPU_BREAKDOWN_RANK_SPAN_NS), "ns");
	tdpct(sb, o, PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE, 2);
	tdpct(sb, o, PRK_GPU_BREAKDOWN_RANK_COMPUTE_SHARE, 1);
	tdpct(sb, o, PRK_GPU_BREAKDOWN_RANK_COMMUNICATION_SHARE, 1);
	tdpct(sb, o, PRK_GPU_BREAKDOWN_RANK_MEMORY_SHARE, 1);
	tdpct(sb, o, PRK_GPU_BREAKDOWN_RANK_IDLE_SHARE, 1);
	tdpct(sb, idle, PRK_GPU_BREAKDOWN_IDLE_HOST_WAIT_SHARE, 1);
	tdpct(sb, idle, PRK_GPU_BREAKDOWN_IDLE_KERNEL_WAIT_SHARE, 1);
	tdpct(sb, idle, PRK_GPU_BREAKDOWN_IDLE_OTHER_SHARE, 1);
	pr_strbuf_addstr(sb, "</tr>\n");
}

/* The GPU panels of a run and where rendering them failed (the first error wins). */
struct gfig {
	const struct pr_panelset *ps;
	const char *idp;
	struct pr_error *err;
	int rc;
};

static void gpu_figures(struct pr_strbuf *sb, struct gfig *f, const char *name);
static void kernel_types_table(struct pr_strbuf *sb, const json_t *gb, struct gfig *f);

#define FEW_ROWS 4 /* rows a GPU table says better without a chart of the same numbers */

/* gpu_breakdown.scopes side by side: TraceLens's gpu_timeline per scope (issue 28). */
static void gpu_scopes_table(struct pr_strbuf *sb, const json_t *sc)
{
	static const char *const th[] = {
		"Scope",	"#GPU ops",	 "#Total",	    "#Busy", "#Busy %",
		"#Computation", "#Exposed comm", "#Exposed memcpy", "#Idle", NULL
	};
	static const char *const names[] = { PRK_GPU_BREAKDOWN_SCOPES_ALL,
					     PRK_GPU_BREAKDOWN_SCOPES_LINKED,
					     PRK_GPU_BREAKDOWN_SCOPES_STEPS };
	static const char *const what[] = { "all: every GPU op",
					    "linked: launched by a traced runtime call",
					    "steps: launched inside a ProfilerStep" };
	size_t i, n = 0;
	if (!json_is_object(sc))
		return;
	pr_strbuf_addstr(sb, "<h4>GPU time by scope (TraceLens's gpu_timeline)</h4>\n<p>Each "
			     "number names its scope: <em>all</em> counts every GPU op (the HTA "
			     "breakdown above), <em>linked</em> only those a traced CPU call "
			     "launched (TraceLens's default), <em>steps</em> those launched inside "
			     "a ProfilerStep. Memsets count as computation here.</p>\n");
	pr_html_table_begin(sb, th);
	for (i = 0; i < PR_ARRAY_SIZE(names); i++) {
		const json_t *v = json_object_get(sc, names[i]);
		if (!json_is_object(v))
			continue;
		pr_strbuf_addstr(sb, "<tr>");
		tdt(sb, what[i]);
		pr_html_tdf(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_OPS), 0);
		pr_html_tdn(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_TOTAL_NS), "ns");
		pr_html_tdn(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_BUSY_NS), "ns");
		tdpct(sb, v, PRK_GPU_BREAKDOWN_SCOPES_ALL_BUSY_SHARE, 2);
		pr_html_tdn(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_COMPUTATION_NS), "ns");
		pr_html_tdn(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_EXPOSED_COMM_NS), "ns");
		pr_html_tdn(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_EXPOSED_MEMCPY_NS), "ns");
		pr_html_tdn(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_IDLE_NS), "ns");
		pr_strbuf_addstr(sb, "</tr>\n");
		n++;
	}
	pr_html_model_table_end(sb, n, n);
}

static void gpu_breakdown_tables(struct pr_strbuf *sb, const json_t *gb, struct gfig *f)
{
	static const char *const th[] = { "Scope",
					  "#Span",
					  "#Busy %",
					  "#Compute %",
					  "#Communication %",
					  "#Memory %",
					  "#Idle %",
					  "#Idle: host wait %",
					  "#Idle: kernel wait %",
					  "#Idle: other %",
					  NULL };
	const json_t *r = json_object_get(gb, PRK_GPU_BREAKDOWN_RANK),
		     *ov = json_object_get(gb, PRK_GPU_BREAKDOWN_OVERLAP);
	const json_t *k = json_object_get(gb, PRK_GPU_BREAKDOWN_KERNELS), *v;
	char a[64], b[64];
	size_t i, n;
	pr_strbuf_addstr(sb, "<h4>Temporal breakdown (HTA)</h4>\n<p>");
	if (json_is_number(json_object_get(r, PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE)))
		pr_strbuf_addf(sb, "GPU busy %.2f%% of %s (scope all: first to last GPU op). ",
			       pr_mnum(r, PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE) * 100,
			       pr_html_fmt_val(pr_mnum(r, PRK_GPU_BREAKDOWN_RANK_SPAN_NS), "ns", a,
					       sizeof(a)));
	if (json_is_number(json_object_get(ov, PRK_GPU_BREAKDOWN_OVERLAP_SHARE)))
		pr_strbuf_addf(sb, "Comm/compute overlap %.1f%% of %s of communication kernels.",
			       pr_mnum(ov, PRK_GPU_BREAKDOWN_OVERLAP_SHARE) * 100,
			       pr_html_fmt_val(pr_mnum(ov,
						       PRK_GPU_BREAKDOWN_OVERLAP_COMMUNICATION_NS),
					       "ns", b, sizeof(b)));
	else if (json_is_object(ov))
		pr_strbuf_addstr(sb, "Comm/compute overlap: no communication kernels.");
	pr_strbuf_addstr(sb, "</p>\n");
	gpu_figures(sb, f, "gpu_temporal");
	gpu_figures(sb, f, "gpu_overlap");
	pr_html_table_begin(sb, th);
	temporal_row(sb, "rank (all streams)", r, json_object_get(gb, PRK_GPU_BREAKDOWN_IDLE));
	n = 1;
	json_array_foreach (json_object_get(gb, PRK_GPU_BREAKDOWN_STREAMS), i, v) {
		if (n >= PR_HTML_ROWS)
			break;
		pr_stream_label(pr_mstr(v, PRK_GPU_BREAKDOWN_STREAMS_DEVICE),
				pr_mstr(v, PRK_GPU_BREAKDOWN_STREAMS_STREAM), a, sizeof(a));
		temporal_row(sb, a, v, json_object_get(v, PRK_GPU_BREAKDOWN_STREAMS_IDLE));
		n++;
	}
	pr_html_model_table_end(sb, n,
				1 + json_array_size(
					    json_object_get(gb, PRK_GPU_BREAKDOWN_STREAMS)));
	gpu_scopes_table(sb, json_object_get(gb, PRK_GPU_BREAKDOWN_SCOPES));
	kernel_types_table(sb, gb, f);
	n = json_array_size(json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_TOP));
	if (n) {
		pr_strbuf_addstr(sb, "<h4>Top GPU ops by total time</h4>\n");
		if (n > FEW_ROWS)
			gpu_figures(sb, f, "gpu_top_kernels");
		pr_html_table(sb, &pr_table_gpu_ops,
			      json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_TOP), NULL);
	}
	n = json_array_size(json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS));
	if (n) {
		pr_strbuf_addstr(sb, "<h4>Memcpy / memset by direction</h4>\n");
		pr_html_table(sb, &pr_table_memory_ops,
			      json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS), NULL);
	}
}

/* A row of its own for a table of rows gathered from the model: a copy of o (an object, else an
 * empty one) with "name" and, when not NULL, key set to val (borrowed, referenced). */
static json_t *named_row(const json_t *o, const char *name, const char *key, const json_t *val)
{
	json_t *r = json_is_object(o) ? json_copy((json_t *)o) : json_object();
	json_object_set_new(r, "name", json_string(name));
	if (key) {
		if (val)
			json_object_set(r, key, (json_t *)val);
		else
			json_object_del(r, key);
	}
	return r;
}

/* HTA's kernel launch statistics: the summary, the ops with most delay, the outliers. */
static void launch_delay_tables(struct pr_strbuf *sb, const json_t *ld)
{
	const json_t *ops = json_object_get(ld, PRK_GPU_LAUNCH_DELAYS_BY_OP),
		     *out = json_object_get(ld, PRK_GPU_LAUNCH_DELAYS_OUTLIERS);
	const json_t *more = json_object_get(ld, PRK_GPU_LAUNCH_DELAYS_BY_OP_MORE);
	struct pr_table_ctx x = { 0 };
	char a[40], b[40], c[40], d[40], e[40], f[40];
	if (!json_is_object(ld))
		return;
	pr_strbuf_addstr(sb, "<h4>Launch delays (HTA's kernel launch statistics)</h4>\n<p>");
	pr_html_fmt_val(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_MEAN_NS), "ns", a, sizeof(a));
	pr_html_fmt_val(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_MAX_NS), "ns", b, sizeof(b));
	pr_html_fmt_val(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_CPU_DURATION_MEAN_NS), "ns", c,
			sizeof(c));
	pr_html_fmt_val(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_GPU_DURATION_MEAN_NS), "ns", d,
			sizeof(d));
	pr_html_fmt_val(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_CUTOFF_NS), "ns", e, sizeof(e));
	pr_html_fmt_val(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_RUNTIME_CUTOFF_NS), "ns", f, sizeof(f));
	pr_strbuf_addf(sb,
		       "%lld launches: delay (activity start - call end, at least 0) mean %s, "
		       "max %s; CPU duration mean %s, GPU duration mean %s. %lld delays over %s, "
		       "%lld calls over %s, %lld short kernels (GPU shorter than its call).</p>\n",
		       pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_LAUNCHES), a, b, c, d,
		       pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_OUTLIERS), e,
		       pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_RUNTIME_OUTLIERS), f,
		       pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_SHORT_KERNELS));
	if (json_array_size(ops)) {
		/* names shown by the column rule: two different names never print alike */
		x.total = json_array_size(ops) +
			  (size_t)(pr_mll(more, PRK_GPU_LAUNCH_DELAYS_BY_OP_MORE_NAMES) > 0
					   ? pr_mll(more, PRK_GPU_LAUNCH_DELAYS_BY_OP_MORE_NAMES)
					   : 0);
		pr_html_table_ctx(sb, &pr_table_launch_ops, ops, &x);
	}
	if (json_array_size(out)) {
		x.total = (size_t)pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_OUTLIERS);
		pr_html_table_ctx(sb, &pr_table_launch_outliers, out, &x);
	}
}

static void gpu_link_tables(struct pr_strbuf *sb, const json_t *g, struct gfig *f)
{
	static const char *const qh[] = { "Device",	"Stream",	"#Activities",
					  "#Busy",	"#Queue mean",	"#Queue mean (HTA)",
					  "#Queue max", "#Time at max", NULL };
	const json_t *l = json_object_get(g, PRK_GPU_LAUNCHES), *v;
	size_t i, n = 0, total;
	if (json_is_object(l)) {
		json_t *rows = json_array();
		pr_strbuf_addf(sb,
			       "<h4>Launches</h4>\n<p>%lld of %lld activities linked to their "
			       "runtime call.</p>\n",
			       pr_mll(l, PRK_GPU_LAUNCHES_LINKED),
			       pr_mll(l, PRK_GPU_LAUNCHES_ACTIVITIES));
		json_array_append_new(rows, named_row(json_object_get(l, PRK_GPU_LAUNCHES_LATENCY),
						      "latency (activity start - call start)", NULL,
						      NULL));
		json_array_append_new(rows, named_row(json_object_get(l, PRK_GPU_LAUNCHES_OVERHEAD),
						      "CPU overhead (call duration)", NULL, NULL));
		pr_html_table(sb, &pr_table_launches, rows, NULL);
		json_decref(rows);
	}
	launch_delay_tables(sb, json_object_get(g, PRK_GPU_LAUNCH_DELAYS));
	total = json_array_size(
		json_object_get(json_object_get(g, PRK_GPU_STREAMS), PRK_GPU_STREAMS_ITEMS));
	if (!total)
		return;
	pr_strbuf_addstr(sb, "<h4>Queue length per stream</h4>\n");
	gpu_figures(sb, f, "gpu_queue");
	pr_html_table_begin(sb, qh);
	json_array_foreach (json_object_get(json_object_get(g, PRK_GPU_STREAMS),
					    PRK_GPU_STREAMS_ITEMS),
			    i, v) {
		const json_t *q = json_object_get(v, PRK_GPU_STREAMS_ITEMS_QUEUE);
		if (n >= PR_HTML_ROWS)
			break;
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(v, PRK_GPU_STREAMS_ITEMS_DEVICE));
		pr_html_td(sb, pr_mstr(v, PRK_GPU_STREAMS_ITEMS_STREAM));
		pr_html_tdf(sb, pr_mnum(v, PRK_GPU_STREAMS_ITEMS_ACTIVITIES), 0);
		pr_html_tdn(sb, pr_mnum(v, PRK_GPU_STREAMS_ITEMS_BUSY_NS), "ns");
		pr_html_tdf(sb,
			    json_is_object(q) ? pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MEAN) : NAN,
			    2);
		pr_html_tdf(sb,
			    json_is_object(q) ? pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_SAMPLE_MEAN)
					      : NAN,
			    2);
		pr_html_tdf(sb,
			    json_is_object(q) ? pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX) : NAN,
			    0);
		pr_html_tdn(sb,
			    json_is_object(q) ? pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_AT_MAX_NS)
					      : NAN,
			    "ns");
		pr_strbuf_addstr(sb, "</tr>\n");
		n++;
	}
	pr_html_model_table_end(sb, n, total);
}

static void step_breakdown_table(struct pr_strbuf *sb, const json_t *s, struct gfig *f)
{
	const json_t *v;
	json_t *rows = json_array();
	struct pr_table_ctx x = { 0 };
	size_t i;
	pr_strbuf_addstr(sb, "<h4>Step breakdown (TensorBoard)</h4>\n");
	gpu_figures(sb, f, "gpu_steps");
	/* the average first, then the steps (their utilisation: gpu_util) */
	json_array_append_new(rows,
			      named_row(json_object_get(s, PRK_STEP_BREAKDOWN_AVERAGE), "average",
					PRK_STEP_BREAKDOWN_STEPS_GPU_UTIL,
					json_object_get(s, PRK_STEP_BREAKDOWN_GPU_UTILIZATION)));
	json_array_foreach (json_object_get(s, PRK_STEP_BREAKDOWN_STEPS), i, v) {
		if (i + 1 >= PR_HTML_ROWS)
			break;
		json_array_append(rows, (json_t *)v);
	}
	x.cap = PR_HTML_ROWS;
	x.total = 1 + json_array_size(json_object_get(s, PRK_STEP_BREAKDOWN_STEPS)) +
		  (size_t)(pr_mll(s, PRK_STEP_BREAKDOWN_STEPS_MORE) > 0
				   ? pr_mll(s, PRK_STEP_BREAKDOWN_STEPS_MORE)
				   : 0);
	pr_html_table_ctx(sb, &pr_table_steps, rows, &x);
	json_decref(rows);
}

static void collectives_table(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *items =
		json_object_get(json_object_get(run, PRK_COLLECTIVES), PRK_COLLECTIVES_ITEMS);
	if (!json_array_size(items))
		return;
	pr_strbuf_addstr(sb,
			 "<h4>Collectives (bandwidth includes waiting for the other ranks)</h4>\n");
	pr_html_table(sb, &pr_table_collectives, items, NULL);
}

/* The GPU kernels' busy share of their active range, gaps and chunks (nsys's rules), as
 * `summary`. */
static void gpu_kernels_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = { "#Active range",
					 "#Busy",
					 "#Busy %",
					 "#Gaps > 500 ms",
					 "#Longest gap",
					 "#Chunks",
					 "#Chunks < 50 % busy",
					 NULL };
	const json_t *gk =
		json_object_get(json_object_get(run, PRK_BOTTLENECKS), PRK_BOTTLENECKS_GPU_KERNELS);
	if (!json_is_object(gk))
		return;
	pr_strbuf_addstr(sb, "<h4>GPU kernels (busy time over the active range)</h4>\n");
	pr_html_table_begin(sb, h);
	pr_strbuf_addstr(sb, "<tr>");
	pr_html_tdn(sb, pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_ACTIVE_NS), "ns");
	pr_html_tdn(sb, pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_BUSY_NS), "ns");
	pr_html_tdf(sb,
		    json_is_number(json_object_get(gk, PRK_BOTTLENECKS_GPU_KERNELS_IDLE_SHARE))
			    ? (1 - pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_IDLE_SHARE)) * 100
			    : NAN,
		    1);
	pr_html_tdf(sb, pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_GAPS_OVER_500MS), 0);
	pr_html_tdn(sb, pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_MAX_GAP_NS), "ns");
	pr_html_tdf(sb, pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_CHUNKS), 0);
	pr_html_tdf(sb, pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_CHUNKS_UNDER_50PCT), 0);
	pr_strbuf_addstr(sb, "</tr>\n");
	pr_html_model_table_end(sb, 1, 1);
}

/* Sampled GPU utilisation per device (nvidia-smi, Diffulex), as `summary`'s "GPU utilisation". */
static void gpu_util_table(struct pr_strbuf *sb, const json_t *run)
{
	static const char *const h[] = {
		"Device", "#Samples", "#Mean %", "#Max %", "#Idle (0 %) samples %", NULL
	};
	const json_t *items = json_object_get(json_object_get(run, PRK_BOTTLENECKS),
					      PRK_BOTTLENECKS_GPU_UTIL),
		     *v;
	size_t i, n = json_array_size(items);
	if (!n)
		return;
	pr_strbuf_addstr(sb, "<h4>GPU utilisation (sampled)</h4>\n");
	pr_html_table_begin(sb, h);
	json_array_foreach (items, i, v) {
		pr_strbuf_addstr(sb, "<tr>");
		tdt(sb, pr_mstr(v, PRK_BOTTLENECKS_GPU_UTIL_DEVICE));
		pr_html_tdf(sb, pr_mnum(v, PRK_BOTTLENECKS_GPU_UTIL_SAMPLES), 0);
		pr_html_tdf(sb, pr_mnum(v, PRK_BOTTLENECKS_GPU_UTIL_MEAN_PCT), 1);
		pr_html_tdf(sb, pr_mnum(v, PRK_BOTTLENECKS_GPU_UTIL_MAX_PCT), 1);
		tdpct(sb, v, PRK_BOTTLENECKS_GPU_UTIL_IDLE_SHARE, 1);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_model_table_end(sb, n, n);
}

/* GPU op time by type (compute / communication / memory) and communication kernels by library. */
static void kernel_types_table(struct pr_strbuf *sb, const json_t *gb, struct gfig *f)
{
	static const char *const h[] = { "Type", "#Count", "#Time", "#Share %", NULL };
	static const char *const lh[] = { "Library", "#Count", "#Time", NULL };
	const json_t *k = json_object_get(gb, PRK_GPU_BREAKDOWN_KERNELS), *v;
	size_t i, n = json_array_size(json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE));
	if (n) {
		pr_strbuf_addstr(sb, "<h4>GPU op time by type</h4>\n");
		/* a few types: the table says them, a chart would say them again */
		if (n > FEW_ROWS)
			gpu_figures(sb, f, "gpu_kernel_types");
		pr_html_table_begin(sb, h);
		size_t shown = 0;
		json_array_foreach (json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE), i, v) {
			if (!(pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_COUNT) > 0))
				continue; /* a type the run has none of: nothing to say */
			pr_strbuf_addstr(sb, "<tr>");
			tdt(sb, pr_mstr(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_TYPE));
			pr_html_tdf(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_COUNT), 0);
			pr_html_tdn(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_TIME_NS),
				    "ns");
			tdpct(sb, v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_SHARE, 1);
			pr_strbuf_addstr(sb, "</tr>\n");
			shown++;
		}
		pr_html_model_table_end(sb, shown, shown);
	}
	n = json_array_size(json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_COMMUNICATION));
	if (n) {
		pr_strbuf_addstr(sb, "<h4>Communication kernels by library</h4>\n");
		pr_html_table_begin(sb, lh);
		json_array_foreach (json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_COMMUNICATION), i,
				    v) {
			pr_strbuf_addstr(sb, "<tr>");
			tdt(sb, pr_mstr(v, PRK_GPU_BREAKDOWN_KERNELS_COMMUNICATION_LIBRARY));
			pr_html_tdf(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_COMMUNICATION_COUNT),
				    0);
			pr_html_tdn(sb, pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_COMMUNICATION_TIME_NS),
				    "ns");
			pr_strbuf_addstr(sb, "</tr>\n");
		}
		pr_html_model_table_end(sb, n, n);
	}
}

/* The GPU panels named `name` (and `name`-2, ...), inline; a failure is kept in f->rc. */
static void gpu_figures(struct pr_strbuf *sb, struct gfig *f, const char *name)
{
	size_t i, len = strlen(name);
	char svgp[48];
	snprintf(svgp, sizeof(svgp), "%sg", f->idp);
	for (i = 0; i < pr_panelset_count(f->ps) && !f->rc; i++) {
		const char *pn = pr_panelset_name(f->ps, i);
		if (strncmp(pn, name, len) || (pn[len] && pn[len] != '-'))
			continue;
		f->rc = pr_html_panel(sb, f->ps, i, f->idp, svgp, f->err);
	}
}

/* ---- the perf model (perf_model, docs/analysis.md) ---- */

static void pm_peaks_line(struct pr_strbuf *sb, const json_t *pm)
{
	const json_t *dev = json_object_get(pm, PRK_PERF_MODEL_DEVICE),
		     *roof = json_object_get(pm, PRK_PERF_MODEL_ROOFLINE);
	const json_t *pk = json_object_get(dev, PRK_PERF_MODEL_DEVICE_PEAK_TFLOPS), *v;
	const char *k;
	int first = 1;
	pr_strbuf_addstr(sb, "<p>Device ");
	pr_html_esc(sb, *pr_mstr(dev, PRK_PERF_MODEL_DEVICE_NAME)
				? pr_mstr(dev, PRK_PERF_MODEL_DEVICE_NAME)
				: "unknown");
	if (!json_is_object(roof)) {
		pr_strbuf_addstr(sb, ": not in the table of peaks (no % of peak).</p>\n");
		return;
	}
	pr_strbuf_addstr(sb, " = ");
	pr_html_esc(sb, pr_mstr(dev, PRK_PERF_MODEL_DEVICE_MODEL));
	pr_strbuf_addstr(sb, ": peak TFLOP/s ");
	json_object_foreach ((json_t *)pk, k, v) {
		if (!json_is_number(v))
			continue;
		pr_strbuf_addf(sb, "%s%s %.4g", first ? "" : ", ", k, json_number_value(v));
		first = 0;
	}
	pr_strbuf_addf(sb, "; memory %.4g TB/s. Roofline: %s, ridge %.4g FLOP/byte.</p>\n",
		       pr_mnum(dev, PRK_PERF_MODEL_DEVICE_HBM_TBPS),
		       pr_mstr(roof, PRK_PERF_MODEL_ROOFLINE_DTYPE),
		       pr_mnum(roof, PRK_PERF_MODEL_ROOFLINE_RIDGE_FLOP_PER_BYTE));
}

static void perf_model_tables(struct pr_strbuf *sb, const json_t *pm, struct gfig *f)
{
	static const char *const ch[] = { "Category", "#Ops",	"#Activities", "#Device time",
					  "#Share %", "#FLOPs", "#Bytes",      "#TFLOP/s",
					  "#TB/s",    NULL };
	static const char *const th[] = { "TraceLens category", "#Ops", "#Device time", NULL };
	static const char *const gh[] = { "Op",	    "Input Dims",      "Category",   "dtype",
					  "#Calls", "#Device time",    "#TFLOP/s",   "#% of peak",
					  "#TB/s",  "#% of bandwidth", "#FLOP/byte", NULL };
	const json_t *v, *g, *groups = json_object_get(pm, PRK_PERF_MODEL_GROUPS);
	size_t i, n = 0;
	pr_label_t *lab, *dlab;
	pr_strbuf_addstr(sb, "<h4>Perf model: op categories, FLOPs, bytes, roofline</h4>\n<p>");
	pr_html_esc(sb, pr_mstr(pm, PRK_PERF_MODEL_SCOPE));
	pr_strbuf_addf(sb, ": %lld activities linked, %lld not (left out).</p>\n",
		       pr_mll(pm, PRK_PERF_MODEL_LINKED_ACTIVITIES),
		       pr_mll(pm, PRK_PERF_MODEL_UNLINKED_ACTIVITIES));
	pm_peaks_line(sb, pm);
	pr_html_table_begin(sb, ch);
	json_array_foreach (json_object_get(pm, PRK_PERF_MODEL_CATEGORIES), i, v) {
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(v, PRK_PERF_MODEL_CATEGORIES_CATEGORY));
		pr_html_tdf(sb, pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_OPS), 0);
		pr_html_tdf(sb, pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_ACTIVITIES), 0);
		pr_html_tdn(sb, pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_DEVICE_NS), "ns");
		pr_html_tdf(sb, pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_PCT), 2);
		pr_html_tdf(sb, pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_FLOPS), -1);
		pr_html_tdn(sb, pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_BYTES), "bytes");
		pr_html_tdf(sb, pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_TFLOPS), 3);
		pr_html_tdf(sb, pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_TBPS), 3);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_model_table_end(sb, i, i);
	pr_html_table_begin(sb, th);
	json_array_foreach (json_object_get(pm, PRK_PERF_MODEL_TRACELENS_CATEGORIES), i, v) {
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td(sb, pr_mstr(v, PRK_PERF_MODEL_TRACELENS_CATEGORIES_CATEGORY));
		pr_html_tdf(sb, pr_mnum(v, PRK_PERF_MODEL_TRACELENS_CATEGORIES_OPS), 0);
		pr_html_tdn(sb, pr_mnum(v, PRK_PERF_MODEL_TRACELENS_CATEGORIES_DEVICE_NS), "ns");
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_model_table_end(sb, i, i);
	gpu_figures(sb, f, "perf_roofline");
	if (!json_array_size(groups))
		return;
	lab = pr_html_name_column(groups, PRK_PERF_MODEL_GROUPS_NAME, PR_HTML_ROWS);
	dlab = pr_html_name_column(groups, PRK_PERF_MODEL_GROUPS_INPUT_DIMS,
				   PR_HTML_ROWS); /* distinct when cut */
	pr_strbuf_addstr(sb, "<p>Op groups (name, Input Dims, Input type), largest device time "
			     "first; % of peak against the group's dtype.</p>\n");
	pr_html_table_begin(sb, gh);
	json_array_foreach (groups, i, g) {
		if (n >= PR_HTML_ROWS)
			break;
		pr_strbuf_addstr(sb, "<tr>");
		pr_html_td_shown(sb, pr_mstr(g, PRK_PERF_MODEL_GROUPS_NAME), lab[i]);
		pr_html_td_shown(sb, pr_mstr(g, PRK_PERF_MODEL_GROUPS_INPUT_DIMS), dlab[i]);
		pr_html_td(sb, pr_mstr(g, PRK_PERF_MODEL_GROUPS_CATEGORY));
		pr_html_td(sb, pr_mstr(g, PRK_PERF_MODEL_GROUPS_DTYPE));
		pr_html_tdf(sb, pr_mnum(g, PRK_PERF_MODEL_GROUPS_CALLS), 0);
		pr_html_tdn(sb, pr_mnum(g, PRK_PERF_MODEL_GROUPS_DEVICE_NS), "ns");
		pr_html_tdf(sb, pr_mnum(g, PRK_PERF_MODEL_GROUPS_TFLOPS), 3);
		pr_html_tdf(sb, pr_mnum(g, PRK_PERF_MODEL_GROUPS_PCT_PEAK_FLOPS), 1);
		pr_html_tdf(sb, pr_mnum(g, PRK_PERF_MODEL_GROUPS_TBPS), 3);
		pr_html_tdf(sb, pr_mnum(g, PRK_PERF_MODEL_GROUPS_PCT_PEAK_BW), 1);
		pr_html_tdf(sb, pr_mnum(g, PRK_PERF_MODEL_GROUPS_FLOP_PER_BYTE), 3);
		pr_strbuf_addstr(sb, "</tr>\n");
		n++;
	}
	free(lab);
	free(dlab);
	pr_html_model_table_end(sb, n, (size_t)pr_mll(pm, PRK_PERF_MODEL_GROUPS_TOTAL));
}

/*
 * The CUPTI range profiler's counters per op (cupti_ranges): the ops by FLOPs with their
 * ranges and the first RANGE_COLS counters (in name order), and what the ranges' time is.
 */
#define RANGE_COLS 4
_Static_assert(3 + RANGE_COLS <= PR_TABLE_COLS, "the CUPTI table and its counters fit a table");
static void cupti_ranges_table(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *cr = json_object_get(run, PRK_CUPTI_RANGES);
	const json_t *ops = json_object_get(cr, PRK_CUPTI_RANGES_BY_OP),
		     *cs = json_object_get(cr, PRK_CUPTI_RANGES_COUNTERS);
	struct pr_table_col cols[PR_TABLE_COLS];
	struct pr_table t = pr_table_cupti_ops;
	struct pr_table_ctx x = { 0 };
	char *heads[RANGE_COLS];
	size_t j, nc = json_array_size(cs);
	char a[64];
	if (!json_is_object(cr))
		return;
	if (nc > RANGE_COLS)
		nc = RANGE_COLS;
	pr_fmt_duration(pr_mnum(cr, PRK_CUPTI_RANGES_REPLAY_NS), a, sizeof(a));
	pr_strbuf_addf(sb,
		       "<h4>CUPTI range profiler: counters per op</h4>\n<p>%.0f ranges, "
		       "%.0f linked to their cudaLaunchKernel call; their %s are kernel "
		       "replay, kept out of GPU time and utilisation.</p>\n",
		       pr_mnum(cr, PRK_CUPTI_RANGES_RANGES), pr_mnum(cr, PRK_CUPTI_RANGES_LINKED),
		       a);
	if (!json_array_size(ops))
		return;
	/* the described columns, then one per counter: its total per op (by_op[].counters) */
	memcpy(cols, t.cols, t.ncols * sizeof(*cols));
	for (j = 0; j < nc; j++) {
		const char *name = pr_mstr(json_array_get(cs, j), PRK_CUPTI_RANGES_COUNTERS_NAME);
		size_t len = strlen(name);
		heads[j] = pr_xmalloc(len + 2);
		heads[j][0] = '#';
		memcpy(heads[j] + 1, name, len + 1);
		memset(&cols[t.ncols + j], 0, sizeof(cols[0]));
		cols[t.ncols + j].key = name;
		cols[t.ncols + j].head = heads[j];
		cols[t.ncols + j].kind = PR_COL_NUMBER;
		cols[t.ncols + j].in = PRK_CUPTI_RANGES_BY_OP_COUNTERS;
	}
	t.cols = cols;
	t.ncols += nc;
	x.cap = PR_HTML_ROWS;
	pr_html_table_ctx(sb, &t, ops, &x);
	for (j = 0; j < nc; j++)
		free(heads[j]);
}

/*
 * The "GPU" section: present when the run has any GPU section, collectives
 * or GPU samples. Each panel (render/gpu_panel.h) comes right before the
 * table with its numbers.
 */
int pr_html_gpu_section(struct pr_strbuf *sb, const json_t *run, const char *idp,
			struct pr_error *err)
{
	const json_t *g = json_object_get(run, PRK_GPU),
		     *gb = json_object_get(run, PRK_GPU_BREAKDOWN);
	const json_t *s = json_object_get(run, PRK_STEP_BREAKDOWN);
	const json_t *b = json_object_get(run, PRK_BOTTLENECKS);
	struct pr_panelset *ps;
	struct gfig f;
	if (!json_is_object(g) && !json_is_object(gb) && !json_is_object(s) &&
	    !json_array_size(json_object_get(json_object_get(run, PRK_COLLECTIVES),
					     PRK_COLLECTIVES_ITEMS)) &&
	    !json_is_object(json_object_get(run, PRK_CUPTI_RANGES)) &&
	    !json_is_object(json_object_get(b, PRK_BOTTLENECKS_GPU_KERNELS)) &&
	    !json_array_size(json_object_get(b, PRK_BOTTLENECKS_GPU_UTIL)))
		return 0;
	ps = pr_panelset_new();
	pr_gpu_panels_add(ps, run);
	pr_perf_panels_add(ps, run);
	f = (struct gfig){ ps, idp, err, 0 };
	pr_strbuf_addstr(sb, "<h3>GPU");
	if (json_is_string(json_object_get(g, PRK_GPU_DEVICE_TYPE))) {
		pr_strbuf_addstr(sb, " (");
		pr_html_esc(sb, pr_mstr(g, PRK_GPU_DEVICE_TYPE));
		pr_strbuf_addstr(sb, ")");
	}
	pr_strbuf_addstr(sb, "</h3>\n");
	gpu_util_table(sb, run);
	gpu_kernels_table(sb, run);
	if (json_is_object(gb))
		gpu_breakdown_tables(sb, gb, &f);
	if (json_is_object(g))
		gpu_link_tables(sb, g, &f);
	if (json_is_object(s))
		step_breakdown_table(sb, s, &f);
	if (json_is_object(json_object_get(run, PRK_PERF_MODEL)))
		perf_model_tables(sb, json_object_get(run, PRK_PERF_MODEL), &f);
	collectives_table(sb, run);
	cupti_ranges_table(sb, run);
	pr_panelset_free(ps);
	return f.rc;
}

/* ---- critical path (an_critpath.c) ---- */

static const char *const cp_keys[] = { PRK_CRITICAL_PATH_STEPS_COMPOSITION_NS_CPU_OP,
				       PRK_CRITICAL_PATH_STEPS_COMPOSITION_NS_LAUNCH,
				       PRK_CRITICAL_PATH_STEPS_COMPOSITION_NS_KERNEL_COMPUTE,
				       PRK_CRITICAL_PATH_STEPS_COMPOSITION_NS_KERNEL_COMMUNICATION,
				       PRK_CRITICAL_PATH_STEPS_COMPOSITION_NS_KERNEL_MEMORY,
				       PRK_CRITICAL_PATH_STEPS_COMPOSITION_NS_SYNC,
				       PRK_CRITICAL_PATH_STEPS_COMPOSITION_NS_IDLE };
static const char *const cp_labels[] = {
	"CPU ops", "launch", "kernels: compute", "kernels: communication", "kernels: memory",
	"sync",	   "idle"
};
static const char *const cp_colors[] = { "cpu_exec", "runtime",	  "compute", "communication",
					 "memory",   "host_wait", "idle" };

/* One stacked bar per analysed step (the first 40): each class's share of the step's path. */
static int critpath_bar(struct pr_strbuf *sb, const json_t *cp, const char *idp,
			struct pr_error *err)
{
	const json_t *st = json_object_get(cp, PRK_CRITICAL_PATH_STEPS), *v;
	size_t n = json_array_size(st), i, k, nk = PR_ARRAY_SIZE(cp_keys);
	struct pr_panelset *ps;
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart *c;
	const char **cat;
	char svgp[48];
	int rc;
	if (!n)
		return 0;
	if (n > PR_GPU_PANEL_MAX_STEPS)
		n = PR_GPU_PANEL_MAX_STEPS;
	ps = pr_panelset_new();
	cat = pr_panelset_alloc(ps, n, sizeof(*cat));
	g = pr_panelset_alloc(ps, nk, sizeof(*g));
	for (k = 0; k < nk; k++) {
		g[k].label = cp_labels[k];
		g[k].rgb = pr_gpu_color(cp_colors[k]);
		g[k].values = pr_panelset_alloc(ps, n, sizeof(double));
	}
	json_array_foreach (st, i, v) {
		const json_t *comp = json_object_get(v, PRK_CRITICAL_PATH_STEPS_COMPOSITION_NS);
		double len = pr_mnum(v, PRK_CRITICAL_PATH_STEPS_LENGTH_NS);
		if (i == n)
			break;
		cat[i] = pr_panelset_strdup(ps, pr_mstr(v, PRK_CRITICAL_PATH_STEPS_NAME));
		for (k = 0; k < nk; k++) {
			double x = pr_mnum(comp, cp_keys[k]);
			((double *)g[k].values)[i] = len > 0 ? 100 * x / len : 0;
		}
	}
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ cat, n, g, nk, 1, 0, 1, 0 };
	c = pr_panelset_add(ps, "critical_path", "Critical path by class, per step");
	c->bars = b;
	c->x_label = "Share of the step's path";
	c->x_unit = "%";
	c->y_label = json_array_size(st) > n ? "Step (the first 40)" : "Step";
	c->legend_title = "On the path";
	snprintf(svgp, sizeof(svgp), "%sc", idp);
	rc = pr_html_panel(sb, ps, 0, idp, svgp, err);
	pr_panelset_free(ps);
	return rc;
}

/* A top list of the path (ops or kernels): name, time on the path, share. */
static void critpath_top(struct pr_strbuf *sb, const json_t *l, const char *what, int kernels)
{
	if (!json_array_size(l))
		return;
	pr_strbuf_addf(sb, "<h4>%s on the critical path</h4>\n", what);
	pr_html_table(sb, kernels ? &pr_table_critpath_kernels : &pr_table_critpath_ops, l, NULL);
}

/*
 * The "Critical path" section: the composition of the analysed steps' paths
 * (a table, and a stacked bar per step), then the ops and kernels on them.
 */
int pr_html_critpath_section(struct pr_strbuf *sb, const json_t *run, const char *idp,
			     struct pr_error *err)
{
	static const char *const h[] = { "On the path", "#Time", "#Share %", NULL };
	const json_t *cp = json_object_get(run, PRK_CRITICAL_PATH);
	const json_t *comp = json_object_get(cp, PRK_CRITICAL_PATH_COMPOSITION_NS);
	double len = pr_mnum(cp, PRK_CRITICAL_PATH_LENGTH_NS);
	char a[40];
	size_t k;
	if (!json_is_object(cp))
		return 0;
	pr_strbuf_addstr(sb, "<h3>Critical path</h3>\n<p>");
	if (!strcmp(pr_mstr(cp, PRK_CRITICAL_PATH_SCOPE), "steps"))
		pr_strbuf_addf(sb, "%lld step%s analysed",
			       pr_mll(cp, PRK_CRITICAL_PATH_STEPS_ANALYSED),
			       pr_mll(cp, PRK_CRITICAL_PATH_STEPS_ANALYSED) == 1 ? "" : "s");
	else if (!strcmp(pr_mstr(cp, PRK_CRITICAL_PATH_SCOPE), "annotation")) {
		pr_strbuf_addstr(sb, "The window of ");
		pr_html_esc(sb, pr_mstr(json_object_get(cp, PRK_CRITICAL_PATH_WINDOW),
					PRK_CRITICAL_PATH_WINDOW_NAME));
		pr_strbuf_addf(sb, " (instance %lld, --critpath-annotation)",
			       pr_mll(json_object_get(cp, PRK_CRITICAL_PATH_WINDOW),
				      PRK_CRITICAL_PATH_WINDOW_INSTANCE));
	} else
		pr_strbuf_addstr(sb, "The whole trace (it has no steps)");
	pr_fmt_duration(len, a, sizeof(a));
	pr_strbuf_addf(sb,
		       ", %s on the path%s: at each point, the dependency it waited for "
		       "(CPU op order, launches, stream order, synchronisations).",
		       a, pr_mll(cp, PRK_CRITICAL_PATH_STEPS_ANALYSED) == 1 ? "" : "s");
	if (pr_mll(cp, PRK_CRITICAL_PATH_STEPS_OVER_BUDGET) > 0 &&
	    strcmp(pr_mstr(cp, PRK_CRITICAL_PATH_SCOPE), "steps"))
		pr_strbuf_addf(sb, " No path: the trace is past the budget of %lld events.",
			       pr_mll(cp, PRK_CRITICAL_PATH_EVENTS_BUDGET));
	else if (pr_mll(cp, PRK_CRITICAL_PATH_STEPS_OVER_BUDGET) > 0)
		pr_strbuf_addf(sb, " %lld step%s left out: over the budget of %lld events.",
			       pr_mll(cp, PRK_CRITICAL_PATH_STEPS_OVER_BUDGET),
			       pr_mll(cp, PRK_CRITICAL_PATH_STEPS_OVER_BUDGET) == 1 ? "" : "s",
			       pr_mll(cp, PRK_CRITICAL_PATH_EVENTS_BUDGET));
	pr_strbuf_addstr(sb, "</p>\n");
	if (critpath_bar(sb, cp, idp, err))
		return -1;
	pr_html_table_begin(sb, h);
	for (k = 0; k < PR_ARRAY_SIZE(cp_keys); k++) {
		double v = pr_mnum(comp, cp_keys[k]);
		pr_strbuf_addstr(sb, "<tr>");
		tdt(sb, cp_labels[k]);
		pr_html_tdn(sb, v, "ns");
		pr_html_tdf(sb, len > 0 ? 100 * v / len : NAN, 1);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	pr_html_model_table_end(sb, PR_ARRAY_SIZE(cp_keys), PR_ARRAY_SIZE(cp_keys));
	critpath_top(sb, json_object_get(cp, PRK_CRITICAL_PATH_TOP_OPS), "Ops", 0);
	critpath_top(sb, json_object_get(cp, PRK_CRITICAL_PATH_TOP_KERNELS), "Kernels", 1);
	return 0;
}
