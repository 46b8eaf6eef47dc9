/* gpu_panel.c - the GPU panels (HTA's breakdowns, queues, TensorBoard's steps) from the model. */
#include "render/gpu_panel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "render/panelset.h"
#include "render/time_axis.h"
#include "render/units.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* ---- palette ---- */

static const struct {
	const char *name;
	uint32_t rgb;
} gpu_colors[] = {
	{ "compute", 0x1F77B4 },    { "kernel", 0x1F77B4 },    { "communication", 0xFF7F0E },
	{ "memory", 0x2CA02C },	    { "memcpy", 0x2CA02C },    { "memset", 0x98DF8A },
	{ "idle", 0xC7C7C7 },	    { "host_wait", 0x7F7F7F }, { "kernel_wait", 0xA9A9A9 },
	{ "other_idle", 0xD9D9D9 }, { "other", 0xD9D9D9 },     { "runtime", 0xD62728 },
	{ "dataloader", 0x8C564B }, { "cpu_exec", 0xE377C2 },  { "overlapped", 0x9467BD },
};

uint32_t pr_gpu_color(const char *category)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(gpu_colors); i++)
		if (!strcmp(gpu_colors[i].name, category))
			return gpu_colors[i].rgb;
	return 0xBBBBBB;
}

/* ---- names ---- */

char *pr_gpu_short_name(const char *name, size_t max, char *buf, size_t n)
{
	char *full;
	size_t len, head, tail;
	if (!n)
		return buf;
	full = pr_xmalloc(strlen(name) + 1);
	pr_name_display(name, full, strlen(name) + 1); /* never longer than the name */
	len = strlen(full);
	if (len <= max || max < 8) {
		snprintf(buf, n, "%s", full);
		free(full);
		return buf;
	}
	/* the head (about 60 %) and the tail; never split a UTF-8 sequence */
	head = (max - 1) * 3 / 5;
	tail = max - 1 - head;
	while (head > 0 && ((unsigned char)full[head] & 0xC0) == 0x80)
		head--;
	while (tail > 0 && ((unsigned char)full[len - tail] & 0xC0) == 0x80)
		tail--;
	snprintf(buf, n, "%.*s\xE2\x80\xA6%.*s", (int)head, full, (int)tail, full + len - tail);
	free(full);
	return buf;
}

/* ---- helpers ---- */

static const char *pct_text(struct pr_panelset *ps, double share)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%.1f%%", share * 100);
	return pr_panelset_strdup(ps, buf);
}

/* A number of the model, 0 when absent (a segment that is not there draws nothing). */
static double share_of(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : 0;
}

/* A stacked bar chart's groups: labels and colours, values[ncat] and value_text[ncat] from the pool. */
static struct pr_chart_bar_group *stack_groups(struct pr_panelset *ps, const char *const *labels,
					       const char *const *colors, size_t ng, size_t ncat)
{
	struct pr_chart_bar_group *g = pr_panelset_alloc(ps, ng, sizeof(*g));
	size_t i;
	for (i = 0; i < ng; i++) {
		g[i].label = labels[i];
		g[i].rgb = pr_gpu_color(colors[i]);
		g[i].values = pr_panelset_alloc(ps, ncat, sizeof(double));
		g[i].value_text = pr_panelset_alloc(ps, ncat, sizeof(char *));
	}
	return g;
}

static struct pr_chart *stacked_chart(struct pr_panelset *ps, const char *name, const char *title,
				      const char **cat, size_t ncat, struct pr_chart_bar_group *g,
				      size_t ng, int horizontal)
{
	struct pr_chart_bars *b = pr_panelset_alloc(ps, 1, sizeof(*b));
	struct pr_chart *c = pr_panelset_add(ps, name, title);
	*b = (struct pr_chart_bars){ cat, ncat, g, ng, horizontal, 1, 1, 0 };
	c->bars = b;
	return c;
}

/* ---- temporal breakdown (HTA) ---- */

/* One bar: the scope's compute / communication / memory shares and its idle, split or whole
 * (the run's gpu_breakdown.rank and .idle, or a stream's, of one shape: named by the rank's;
 * the streams' names must exist too, so either losing a key fails to compile). */
_Static_assert(sizeof(PRK_GPU_BREAKDOWN_STREAMS_COMPUTE_SHARE) +
			       sizeof(PRK_GPU_BREAKDOWN_STREAMS_COMMUNICATION_SHARE) +
			       sizeof(PRK_GPU_BREAKDOWN_STREAMS_MEMORY_SHARE) +
			       sizeof(PRK_GPU_BREAKDOWN_STREAMS_IDLE_SHARE) +
			       sizeof(PRK_GPU_BREAKDOWN_STREAMS_IDLE_HOST_WAIT_SHARE) +
			       sizeof(PRK_GPU_BREAKDOWN_STREAMS_IDLE_KERNEL_WAIT_SHARE) +
			       sizeof(PRK_GPU_BREAKDOWN_STREAMS_IDLE_OTHER_SHARE) >
		       0,
	       "gpu_breakdown.streams[] has the rank's shares");
static void temporal_bar(struct pr_panelset *ps, struct pr_chart_bar_group *g, int split, size_t i,
			 const json_t *o, const json_t *idle)
{
	double v[6];
	size_t k, n = split ? 6 : 4;
	v[0] = share_of(o, PRK_GPU_BREAKDOWN_RANK_COMPUTE_SHARE);
	v[1] = share_of(o, PRK_GPU_BREAKDOWN_RANK_COMMUNICATION_SHARE);
	v[2] = share_of(o, PRK_GPU_BREAKDOWN_RANK_MEMORY_SHARE);
	v[3] = share_of(o, PRK_GPU_BREAKDOWN_RANK_IDLE_SHARE);
	if (split) {
		double idl = v[3];
		v[3] = idl * share_of(idle, PRK_GPU_BREAKDOWN_IDLE_HOST_WAIT_SHARE);
		v[4] = idl * share_of(idle, PRK_GPU_BREAKDOWN_IDLE_KERNEL_WAIT_SHARE);
		v[5] = idl * share_of(idle, PRK_GPU_BREAKDOWN_IDLE_OTHER_SHARE);
	}
	for (k = 0; k < n; k++) {
		((double *)g[k].values)[i] = v[k] * 100;
		((const char **)g[k].value_text)[i] = pct_text(ps, v[k]);
	}
}

static void temporal(struct pr_panelset *ps, const json_t *run)
{
	static const char *const labels6[] = {
		"compute",	   "communication",	"memory",
		"idle: host wait", "idle: kernel wait", "idle: other"
	};
	static const char *const colors6[] = { "compute",   "communication", "memory",
					       "host_wait", "kernel_wait",   "other_idle" };
	static const char *const colors4[] = { "compute", "communication", "memory", "idle" };
	const json_t *gb = json_object_get(run, PRK_GPU_BREAKDOWN),
		     *r = json_object_get(gb, PRK_GPU_BREAKDOWN_RANK);
	const json_t *streams = json_object_get(gb, PRK_GPU_BREAKDOWN_STREAMS), *s;
	const json_t *idle = json_object_get(gb, PRK_GPU_BREAKDOWN_IDLE);
	size_t ns = json_array_size(streams),
	       shown = ns < PR_GPU_PANEL_MAX_STREAMS ? ns : PR_GPU_PANEL_MAX_STREAMS;
	size_t ncat = 1 + shown, i;
	int split = json_is_number(json_object_get(idle, PRK_GPU_BREAKDOWN_IDLE_HOST_WAIT_SHARE));
	const char **cat;
	struct pr_chart_bar_group *g;
	struct pr_chart *c;
	char title[200], buf[200], span[40];
	if (!json_is_number(json_object_get(r, PRK_GPU_BREAKDOWN_RANK_SPAN_NS)) ||
	    !(pr_mnum(r, PRK_GPU_BREAKDOWN_RANK_SPAN_NS) > 0))
		return;
	json_array_foreach (streams, i, s)
		if (i < shown &&
		    !json_is_number(
			    json_object_get(json_object_get(s, PRK_GPU_BREAKDOWN_STREAMS_IDLE),
					    PRK_GPU_BREAKDOWN_STREAMS_IDLE_HOST_WAIT_SHARE)))
			split = 0; /* one legend for every bar */
	cat = pr_panelset_alloc(ps, ncat, sizeof(*cat));
	g = stack_groups(ps,
			 split ? labels6
			       : (const char *const[]){ "compute", "communication", "memory",
							"idle" },
			 split ? colors6 : colors4, split ? 6 : 4, ncat);
	cat[0] = "rank (all streams)";
	temporal_bar(ps, g, split, 0, r, idle);
	json_array_foreach (streams, i, s) {
		if (i >= shown)
			break;
		pr_stream_label(pr_mstr(s, PRK_GPU_BREAKDOWN_STREAMS_DEVICE),
				pr_mstr(s, PRK_GPU_BREAKDOWN_STREAMS_STREAM), buf, sizeof(buf));
		cat[1 + i] = pr_panelset_strdup(ps, buf);
		temporal_bar(ps, g, split, 1 + i, s,
			     json_object_get(s, PRK_GPU_BREAKDOWN_STREAMS_IDLE));
	}
	pr_fmt_duration(pr_mnum(r, PRK_GPU_BREAKDOWN_RANK_SPAN_NS), span, sizeof(span));
	snprintf(title, sizeof(title),
		 "GPU time breakdown (HTA) | busy %.2f%% of %s, first to last GPU op",
		 pr_mnum(r, PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE) * 100, span);
	c = stacked_chart(ps, "gpu_temporal", title, cat, ncat, g, split ? 6 : 4, 1);
	c->x_label = "Share of the span";
	c->x_unit = "percent"; /* the bars end at 100; the axis keeps the layout's 5 % headroom */
	c->legend_title = "GPU time";
	c->height = (int)fmax(220, fmin(1000, 130 + 44 * (double)ncat));
	if (ns > shown) {
		snprintf(
			buf, sizeof(buf),
			"%zu streams: the first %zu are shown (the tables and the JSON model have them all)",
			ns, shown);
		c->x_label = pr_panelset_strdup(ps, buf);
	}
}

/* ---- communication / computation overlap ---- */

static void overlap(struct pr_panelset *ps, const json_t *run)
{
	static const char *const labels[] = { "overlapped by compute", "not overlapped" };
	static const char *const colors[] = { "overlapped", "communication" };
	const json_t *ov =
		json_object_get(json_object_get(run, PRK_GPU_BREAKDOWN), PRK_GPU_BREAKDOWN_OVERLAP);
	double comm = pr_mnum(ov, PRK_GPU_BREAKDOWN_OVERLAP_COMMUNICATION_NS),
	       over = pr_mnum(ov, PRK_GPU_BREAKDOWN_OVERLAP_OVERLAPPED_NS);
	double share = pr_mnum(ov, PRK_GPU_BREAKDOWN_OVERLAP_SHARE);
	const char **cat;
	struct pr_chart_bar_group *g;
	struct pr_chart *c;
	char title[200], a[40], b[40], buf[80];
	if (!json_is_number(json_object_get(ov, PRK_GPU_BREAKDOWN_OVERLAP_SHARE)) || !(comm > 0) ||
	    isnan(over))
		return;
	cat = pr_panelset_alloc(ps, 1, sizeof(*cat));
	cat[0] = "communication kernels";
	g = stack_groups(ps, labels, colors, 2, 1);
	((double *)g[0].values)[0] = share * 100;
	((double *)g[1].values)[0] = (1 - share) * 100;
	pr_fmt_duration(over, a, sizeof(a));
	pr_fmt_duration(comm - over, b, sizeof(b));
	snprintf(buf, sizeof(buf), "%.1f%% (%s)", share * 100, a);
	((const char **)g[0].value_text)[0] = pr_panelset_strdup(ps, buf);
	snprintf(buf, sizeof(buf), "%.1f%% (%s)", (1 - share) * 100, b);
	((const char **)g[1].value_text)[0] = pr_panelset_strdup(ps, buf);
	pr_fmt_duration(comm, a, sizeof(a));
	snprintf(title, sizeof(title),
		 "Communication / computation overlap | %.1f%% of %s of communication kernels",
		 share * 100, a);
	c = stacked_chart(ps, "gpu_overlap", title, cat, 1, g, 2, 1);
	c->x_label = "Share of communication kernel time";
	c->x_unit = "percent"; /* the bars end at 100; the axis keeps the layout's 5 % headroom */
	c->height = 220;
}

/* ---- kernel breakdown ---- */

static void kernel_types(struct pr_panelset *ps, const json_t *run)
{
	const json_t *bt = json_object_get(json_object_get(json_object_get(run, PRK_GPU_BREAKDOWN),
							   PRK_GPU_BREAKDOWN_KERNELS),
					   PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE);
	const json_t *v;
	size_t n = json_array_size(bt), i, k = 0;
	const char **cat, **txt;
	double *val, total = 0;
	uint32_t *col;
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart *c;
	char buf[120], a[40];
	if (!n)
		return;
	cat = pr_panelset_alloc(ps, n, sizeof(*cat));
	txt = pr_panelset_alloc(ps, n, sizeof(*txt));
	val = pr_panelset_alloc(ps, n, sizeof(double));
	col = pr_panelset_alloc(ps, n, sizeof(uint32_t));
	json_array_foreach (bt, i, v) {
		pr_fmt_duration(pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_TIME_NS), a,
				sizeof(a));
		snprintf(buf, sizeof(buf), "%s (%lld)",
			 pr_mstr(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_TYPE),
			 pr_mll(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_COUNT));
		cat[k] = pr_panelset_strdup(ps, buf);
		val[k] = fmax(0, pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_TIME_NS));
		if (isnan(val[k]))
			val[k] = 0;
		total += val[k];
		snprintf(buf, sizeof(buf), "%s  %.1f%%", a,
			 pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_SHARE) * 100);
		txt[k] = pr_panelset_strdup(ps, buf);
		col[k] = pr_gpu_color(pr_mstr(v, PRK_GPU_BREAKDOWN_KERNELS_BY_TYPE_TYPE));
		k++;
	}
	if (!(total > 0))
		return;
	g = pr_panelset_alloc(ps, 1, sizeof(*g));
	*g = (struct pr_chart_bar_group){ "GPU op time", 0x666666, val, col, txt };
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ cat, k, g, 1, 1, 1, 0, 0 };
	pr_fmt_duration(total, a, sizeof(a));
	snprintf(buf, sizeof(buf), "GPU op time by type (count) | %s in all", a);
	c = pr_panelset_add(ps, "gpu_kernel_types", buf);
	c->bars = b;
	c->legend = PR_LEGEND_NONE;
	c->x_label = "Total time";
	c->x_unit = "ns";
	c->height = (int)fmax(200, 130 + 40 * (double)k);
}

static void top_kernels(struct pr_panelset *ps, const json_t *run)
{
	const json_t *top = json_object_get(json_object_get(json_object_get(run, PRK_GPU_BREAKDOWN),
							    PRK_GPU_BREAKDOWN_KERNELS),
					    PRK_GPU_BREAKDOWN_KERNELS_TOP);
	const json_t *v;
	size_t n = json_array_size(top), i, k = 0;
	const char **cat, **txt, **names;
	pr_label_t *lab;
	double *val;
	uint32_t *col;
	struct pr_chart_bar_group *g;
	struct pr_chart_bars *b;
	struct pr_chart *c;
	char buf[200], a[40];
	if (!n)
		return;
	if (n > PR_GPU_PANEL_MAX_KERNELS)
		n = PR_GPU_PANEL_MAX_KERNELS;
	cat = pr_panelset_alloc(ps, n, sizeof(*cat));
	txt = pr_panelset_alloc(ps, n, sizeof(*txt));
	val = pr_panelset_alloc(ps, n, sizeof(double));
	col = pr_panelset_alloc(ps, n, sizeof(uint32_t));
	/* the axis labels: different ops never label alike (names.h) */
	names = pr_xcalloc(n, sizeof(*names));
	lab = pr_xcalloc(n, sizeof(*lab));
	for (i = 0; i < n; i++)
		names[i] = pr_mstr(json_array_get(top, i), PRK_GPU_BREAKDOWN_KERNELS_TOP_NAME);
	pr_name_column(lab, names, n, PR_GPU_PANEL_NAME_MAX);
	json_array_foreach (top, i, v) {
		if (k == n)
			break;
		cat[k] = pr_panelset_strdup(ps, lab[k]);
		val[k] = pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_TOP_TOTAL_NS);
		pr_fmt_duration(val[k], a, sizeof(a));
		snprintf(buf, sizeof(buf), "%s  %.1f%%  x%lld", a,
			 pr_mnum(v, PRK_GPU_BREAKDOWN_KERNELS_TOP_SHARE) * 100,
			 pr_mll(v, PRK_GPU_BREAKDOWN_KERNELS_TOP_COUNT));
		txt[k] = pr_panelset_strdup(ps, buf);
		col[k] = pr_gpu_color(pr_mstr(v, PRK_GPU_BREAKDOWN_KERNELS_TOP_TYPE));
		k++;
	}
	free(names);
	free(lab);
	g = pr_panelset_alloc(ps, 1, sizeof(*g));
	*g = (struct pr_chart_bar_group){ "total time", 0x666666, val, col, txt };
	b = pr_panelset_alloc(ps, 1, sizeof(*b));
	*b = (struct pr_chart_bars){ cat, k, g, 1, 1, 1, 0, 0 };
	snprintf(buf, sizeof(buf),
		 "Top %zu GPU ops by total time (share of all GPU op time, count)", k);
	c = pr_panelset_add(ps, "gpu_top_kernels", buf);
	c->bars = b;
	c->x_label = "Total time";
	c->x_unit = "ns";
	c->height = (int)fmax(220, fmin(1000, 130 + 30 * (double)k));
	c->note = "colour = type: compute blue, communication orange, memory green";
}

/* ---- queue length per stream ---- */

static void queue(struct pr_panelset *ps, const json_t *run)
{
	const json_t *items =
		json_object_get(json_object_get(json_object_get(run, PRK_GPU), PRK_GPU_STREAMS),
				PRK_GPU_STREAMS_ITEMS);
	const json_t *s;
	struct pr_chart_line *l = pr_panelset_alloc(ps, 8, sizeof(*l));
	struct pr_chart_mark *m;
	struct pr_chart *c;
	double best = -1, bx = 0, ymax = 0;
	size_t i, n = 0, total = 0;
	char buf[200], lane[100];
	int one_device = 1;
	json_array_foreach (items, i, s)
		one_device &=
			!strcmp(pr_mstr(s, PRK_GPU_STREAMS_ITEMS_DEVICE),
				pr_mstr(json_array_get(items, 0), PRK_GPU_STREAMS_ITEMS_DEVICE));
	json_array_foreach (items, i, s) {
		const json_t *q = json_object_get(s, PRK_GPU_STREAMS_ITEMS_QUEUE),
			     *tl = json_object_get(q, PRK_GPU_STREAMS_ITEMS_QUEUE_TIMELINE);
		const json_t *t = json_object_get(tl, PRK_GPU_STREAMS_ITEMS_QUEUE_TIMELINE_T_NS),
			     *v = json_object_get(tl, PRK_GPU_STREAMS_ITEMS_QUEUE_TIMELINE_V);
		size_t k = json_array_size(t), j, p = 0;
		double *x, *y;
		if (!k || json_array_size(v) != k)
			continue;
		total++;
		if (n == 8)
			continue;
		/* a step series: each value holds until the next change */
		x = pr_panelset_alloc(ps, 2 * k, sizeof(double));
		y = pr_panelset_alloc(ps, 2 * k, sizeof(double));
		for (j = 0; j < k; j++) {
			double tj = json_number_value(json_array_get(t, j)) / 1e9;
			double vj = fmax(0, json_number_value(json_array_get(v, j)));
			if (j) {
				x[p] = tj;
				y[p] = y[p - 1];
				p++;
			}
			x[p] = tj;
			y[p] = vj;
			p++;
		}
		pr_stream_label(pr_mstr(s, PRK_GPU_STREAMS_ITEMS_DEVICE),
				pr_mstr(s, PRK_GPU_STREAMS_ITEMS_STREAM), lane, sizeof(lane));
		snprintf(buf, sizeof(buf), "%s: mean %.1f, max %lld", lane,
			 pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MEAN),
			 pr_mll(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX));
		l[n] = (struct pr_chart_line){ pr_panelset_strdup(ps, buf),
					       pr_chart_color(n),
					       x,
					       y,
					       p,
					       1.5,
					       0,
					       0,
					       PR_LINE_LINEAR,
					       0 };
		if (pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX) > best) {
			best = pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX);
			bx = pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX_T_NS) / 1e9;
		}
		ymax = fmax(ymax, pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX));
		n++;
	}
	if (!n)
		return;
	if (one_device)
		snprintf(buf, sizeof(buf),
			 "GPU queue length per stream of GPU %s (launched, not finished)%s",
			 pr_mstr(json_array_get(items, 0), PRK_GPU_STREAMS_ITEMS_DEVICE),
			 total > n ? " | the first 8 streams" : "");
	else
		snprintf(buf, sizeof(buf),
			 "GPU queue length per GPU stream (launched, not finished)%s",
			 total > n ? " | the first 8 streams" : "");
	c = pr_panelset_add(ps, "gpu_queue", buf);
	c->x_label = pr_time_axis_label(ps, run);
	c->x_unit = "s";
	c->y_label = "Queued ops";
	c->y_unit = "";
	c->lines = l;
	c->nlines = n;
	c->y_fixed = 1; /* never below zero */
	c->y_min = 0;
	c->y_max = fmax(1, ymax * 1.25);
	m = pr_panelset_alloc(ps, 1, sizeof(*m));
	snprintf(buf, sizeof(buf), "max %.0f", best);
	*m = (struct pr_chart_mark){ bx, best, pr_panelset_strdup(ps, buf), 0xD62728 };
	c->marks = m;
	c->nmarks = 1;
}

/* ---- TensorBoard's step breakdown ---- */

static void steps(struct pr_panelset *ps, const json_t *run)
{
	static const char *const keys[] = {
		PRK_STEP_BREAKDOWN_STEPS_KERNEL_NS,   PRK_STEP_BREAKDOWN_STEPS_MEMCPY_NS,
		PRK_STEP_BREAKDOWN_STEPS_MEMSET_NS,   PRK_STEP_BREAKDOWN_STEPS_COMMUNICATION_NS,
		PRK_STEP_BREAKDOWN_STEPS_RUNTIME_NS,  PRK_STEP_BREAKDOWN_STEPS_DATALOADER_NS,
		PRK_STEP_BREAKDOWN_STEPS_CPU_EXEC_NS, PRK_STEP_BREAKDOWN_STEPS_OTHER_NS
	};
	static const char *const labels[] = { "Kernel",	 "Memcpy",     "Memset",   "Communication",
					      "Runtime", "DataLoader", "CPU Exec", "Other" };
	static const char *const colors[] = { "kernel",	 "memcpy",     "memset",   "communication",
					      "runtime", "dataloader", "cpu_exec", "other" };
	const json_t *sb = json_object_get(run, PRK_STEP_BREAKDOWN),
		     *st = json_object_get(sb, PRK_STEP_BREAKDOWN_STEPS), *v;
	size_t n = json_array_size(st), i, k;
	const char **cat;
	struct pr_chart_bar_group *g;
	struct pr_chart *c;
	char title[200];
	if (!n)
		return;
	if (n > PR_GPU_PANEL_MAX_STEPS)
		n = PR_GPU_PANEL_MAX_STEPS;
	cat = pr_panelset_alloc(ps, n, sizeof(*cat));
	g = stack_groups(ps, labels, colors, 8, n);
	json_array_foreach (st, i, v) {
		double dur = pr_mnum(v, PRK_STEP_BREAKDOWN_STEPS_DUR_NS);
		if (i == n)
			break;
		cat[i] = pr_panelset_strdup(ps, pr_mstr(v, PRK_STEP_BREAKDOWN_STEPS_NAME));
		for (k = 0; k < 8; k++) {
			double x = share_of(v, keys[k]);
			((double *)g[k].values)[i] = x;
			((const char **)g[k].value_text)[i] =
				dur > 0 ? pct_text(ps, x / dur) : NULL;
		}
	}
	if (json_is_number(json_object_get(sb, PRK_STEP_BREAKDOWN_GPU_UTILIZATION)))
		snprintf(title, sizeof(title),
			 "Step time breakdown (TensorBoard) | GPU utilisation %.1f%%",
			 pr_mnum(sb, PRK_STEP_BREAKDOWN_GPU_UTILIZATION) * 100);
	else
		snprintf(title, sizeof(title), "Step time breakdown (TensorBoard)");
	c = stacked_chart(ps, "gpu_steps", title, cat, n, g, 8, 0);
	c->x_label = json_array_size(st) > n ? "Step (the first 40)" : "Step";
	c->y_label = "Step time";
	c->y_unit = "ns";
	c->legend_title = "Step time";
	c->height = 480;
}

/* The GPU panels in page order; each builder adds at most the one panel of its name. */
static const struct {
	const char *name;
	void (*build)(struct pr_panelset *ps, const json_t *run);
} gpu_panels[] = {
	{ "gpu_temporal", temporal },
	{ "gpu_overlap", overlap },
	{ "gpu_kernel_types", kernel_types },
	{ "gpu_top_kernels", top_kernels },
	{ "gpu_queue", queue },
	{ "gpu_steps", steps },
};

size_t pr_gpu_panels_add(struct pr_panelset *ps, const json_t *run)
{
	size_t before = pr_panelset_count(ps), i;
	for (i = 0; i < PR_ARRAY_SIZE(gpu_panels); i++)
		gpu_panels[i].build(ps, run);
	return pr_panelset_count(ps) - before;
}
