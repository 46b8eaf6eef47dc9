/*
 * an_bottlenecks.c - "bottlenecks":
 *  - stages: phases taking > 30 % (and < 98 %) of the steps' time (the run's
 *    wall time without steps), the step's structure (forward, backward,
 *    optimizer, pipeline schedules, phases of >= 98 %) listed apart, not
 *    flagged; Inferix stages > 30 % of the run's wall time (Inferix's rule,
 *    with the wall time as denominator instead of the sum of stage totals,
 *    so nested stages are not double counted);
 *  - top spans by self time and by total time with the nsys column set
 *    (count, total, mean, median, min, max, std);
 *  - memory pressure (used / total) with the share of samples in the zones
 *    < 70 %, 70-85 %, >= 85 % (QNN plot rule);
 *  - GPU idle: from utilisation samples (share at 0 %) and from kernel
 *    spans (busy union over the GPU's active range; gaps > 500 ms as nsys
 *    gpu_gaps; 30 chunks under 50 % busy as nsys gpu_time_util).
 */
#include <ctype.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "analyze/analyzers.h"
#include "analyze/spanstat.h"
#include "base/stats.h"
#include "base/strbuf.h"
#include "base/timecheck.h"
#include "base/xalloc.h"
#include "base/xsort.h"

#define STAGE_SHARE 0.30
#define STAGE_STRUCTURE 0.98 /* a phase this large is the step (or the run) itself */
#define GAP_NS 500000000LL
#define CHUNKS 30
#define CHUNK_UTIL 0.50

/*
 * The structure of a step, not a bottleneck: the step itself, its forward /
 * backward / optimizer passes and pipeline schedules (1F1B, GPipe, ...).
 */
static int structural(const char *name)
{
	static const char *const pats[] = { "profilerstep", "forward",	 "backward",
					    "optimizer",    "zero_grad", "1f1b",
					    "gpipe",	    "pipeline",	 "schedule" };
	char low[256];
	size_t i, n = strlen(name);
	if (n >= sizeof(low))
		n = sizeof(low) - 1;
	for (i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[n] = 0;
	for (i = 0; i < PR_ARRAY_SIZE(pats); i++)
		if (strstr(low, pats[i]))
			return 1;
	return 0;
}

/* torch's DataLoader spans: the DataLoader finding measures them (TensorBoard's rule). */
static int torch_dataloader(const char *name)
{
	return !strncmp(name, "enumerate(DataLoader)", 21);
}

/*
 * A phase's share: of the steps' time when the run has steps (the time of its
 * outermost occurrences that start inside a step / the steps' total), else of
 * the run's wall time (phases.totals' share).
 */
static double phase_share(const struct pr_actx *ctx, const struct pr_res_phase_total *v,
			  double steps)
{
	const char *name = v->name;
	double in = 0;
	int64_t end = INT64_MIN;
	size_t k, i;
	if (steps <= 0)
		return v->share;
	for (k = 0; k < ctx->nphase_names; k++) /* the name's group of occurrences */
		if (!strcmp(ctx->phases[ctx->phase_group[ctx->phase_group_start[k]]].name, name))
			break;
	if (k == ctx->nphase_names) /* not among the context's phases: its share of the run */
		return v->share;
	for (i = ctx->phase_group_start[k]; i < ctx->phase_group_start[k + 1]; i++) {
		const struct pr_aspan *p = &ctx->phases[ctx->phase_group[i]]; /* in start order */
		if (pr_actx_step_index(ctx, p->ts) < 0)
			continue;
		if (p->ts < end) /* inside an occurrence of the same name: counted with it */
			continue;
		in += (double)p->dur;
		end = p->ts + p->dur;
	}
	return in / steps;
}

#define STAGES_RULE                                                                                \
	"a phase is a bottleneck when its time inside the steps / the steps' time (the run's "     \
	"wall time when there are no steps) > 30 % and < 98 %; the step's structure (steps, "      \
	"forward, backward, optimizer, pipeline schedules such as 1F1B, and any phase of 98 % "    \
	"or more, which is the step) is listed as structure, not flagged; torch's DataLoader "     \
	"spans are measured by the DataLoader finding; Inferix stages: stage time / run wall "     \
	"time > 30 % (the collector's rule)"

static void stages(struct pr_actx *ctx, json_t *out)
{
	const struct pr_res_phases *ph = &pr_results(ctx)->phases;
	json_t *items = json_array(), *structure = json_array();
	double steps = 0;
	size_t i;
	for (i = 0; i < ctx->nsteps; i++)
		steps += (double)ctx->steps[i].dur;
	for (i = 0; i < ph->ntotals; i++) {
		const struct pr_res_phase_total *v = &ph->totals[i];
		const char *name = v->name;
		double s;
		if (isnan(v->share) || torch_dataloader(name))
			continue;
		s = phase_share(ctx, v, steps);
		if (structural(name) || s >= STAGE_STRUCTURE) {
			if (s > STAGE_SHARE)
				json_array_append_new(structure,
						      pr_jobj("name", json_string(name), "share",
							      pr_jnum(s), NULL));
			continue;
		}
		if (s > STAGE_SHARE)
			json_array_append_new(items,
					      pr_jobj("name", json_string(name), "share",
						      pr_jnum(s), "total_ns", pr_jnum(v->union_ns),
						      "source", json_string("phases"), NULL));
	}
	for (i = 0; i < ph->nstages; i++) {
		const struct pr_res_stage *v = &ph->stages[i];
		if (v->share_of_wall > STAGE_SHARE)
			json_array_append_new(items, pr_jobj("name", json_string(v->name), "share",
							     pr_jnum(v->share_of_wall), "total_ns",
							     pr_jnum(v->total_ns), "source",
							     json_string("inferix stages"), NULL));
	}
	json_object_set_new(out, "stages",
			    pr_jobj("rule", json_string(STAGES_RULE), "basis",
				    json_string(steps > 0 ? "step" : "run"), "threshold",
				    pr_jnum(STAGE_SHARE), "items", items, "structure", structure,
				    NULL));
}

struct toprow {
	int64_t name_id, count, min, max;
	double total, self, sumsq, median; /* sums in doubles: they need not fit in int64 */
	char *name, *kind;
};

/*
 * Medians of the rows' durations in one scan (the rows' name ids in an IN
 * list; durations come sorted per name and kind): a query per row would
 * scan the span table once per row.
 */
static int medians(struct pr_actx *ctx, struct toprow *r, size_t n, struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t i, k = n, seen = 0;
	int64_t cur_id = -1, *ids;
	char cur_kind[64] = "";
	int rc;
	if (!n)
		return 0;
	ids = pr_xmalloc(n * sizeof(ids[0]));
	for (i = 0; i < n; i++)
		ids[i] = r[i].name_id;
	rc = pr_actx_prep_ids(ctx,
			      "SELECT name_id, kind, dur FROM span WHERE run_id = ?1 AND "
			      "name_id IN (SELECT value FROM json_each(?2)) "
			      "ORDER BY name_id, kind, dur",
			      ids, n, &st, err);
	free(ids);
	if (rc)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *kind = pr_actx_text(st, 1);
		double d = (double)sqlite3_column_int64(st, 2);
		if (id != cur_id || strcmp(kind, cur_kind)) {
			cur_id = id;
			snprintf(cur_kind, sizeof(cur_kind), "%s", kind);
			seen = 0;
			for (k = 0; k < n; k++)
				if (r[k].name_id == id && !strcmp(r[k].kind, kind))
					break;
		}
		if (k == n)
			continue;
		/* the median: element (count-1)/2, averaged with the next one when count is even */
		if (seen == (size_t)(r[k].count - 1) / 2)
			r[k].median = d;
		else if (seen == (size_t)(r[k].count - 1) / 2 + 1 && r[k].count % 2 == 0)
			r[k].median = (r[k].median + d) / 2;
		seen++;
	}
	return pr_actx_done(ctx, st, rc, err);
}

/* The median of a group's sorted durations, at the index medians() uses. */
static double median_of(const struct pr_spanstat_group *g, int64_t count)
{
	size_t m = (size_t)(count - 1) / 2;
	double d;
	if (m >= g->ndurs)
		return NAN;
	d = (double)g->durs[m];
	if (count % 2 == 0 && m + 1 < g->ndurs)
		d = (d + (double)g->durs[m + 1]) / 2;
	return d;
}

/*
 * One name per thing on a page: slices taken as phases (a trace without
 * categories, model.c's infer_phases) are "phase" here too, as in the phase
 * table.
 */
static const char *kind_shown(const struct pr_actx *ctx, const char *name, const char *kind)
{
	size_t i;
	if (!ctx->phases_inferred || strcmp(kind, "slice"))
		return kind;
	for (i = 0; i < ctx->nphase_names; i++) /* a name's first occurrence */
		if (!strcmp(ctx->phases[ctx->phase_group[ctx->phase_group_start[i]]].name, name))
			return "phase";
	return kind;
}

/*
 * The top spans by self (self) or total time: the groups with a known self
 * time of the shared span statistics (spanstat.h; before, a GROUP BY query
 * each), their medians from its second pass, or from SQLite when there were
 * too many durations to keep.
 */
static int top(struct pr_actx *ctx, json_t *out, const char *key, int self, struct pr_error *err)
{
	const struct pr_spanstat *ss = pr_spanstat_get(ctx, err);
	json_t *arr = json_array();
	struct toprow *r = NULL;
	const size_t *groups;
	size_t n = 0, i;
	int ret = 0;
	json_object_set_new(out, key, arr);
	if (!ss || pr_spanstat_detail(ctx, err))
		return -1;
	groups = self ? ss->top_self : ss->top_total;
	n = self ? ss->ntop_self : ss->ntop_total;
	r = pr_xcalloc(n ? n : 1, sizeof(*r));
	for (i = 0; i < n; i++) {
		const struct pr_spanstat_group *g = &ss->g[groups[i]];
		r[i].name = pr_xstrdup(g->name);
		r[i].kind = pr_xstrdup(ss->kinds[g->kind]);
		r[i].count = g->known.count;
		r[i].total = g->known.total;
		r[i].self = g->known.self;
		r[i].min = g->known.min;
		r[i].max = g->known.max;
		r[i].sumsq = g->known.sumsq;
		r[i].name_id = g->name_id;
		r[i].median = g->durs ? median_of(g, g->known.count) : NAN;
	}
	if (n && !ss->g[groups[0]].durs && medians(ctx, r, n, err))
		ret = -1;
	for (i = 0; i < n; i++) {
		double cnt = (double)r[i].count, mean = r[i].total / cnt;
		double var = cnt > 1 ? (r[i].sumsq - r[i].total * mean) / (cnt - 1) : 0;
		if (!ret)
			json_array_append_new(arr,
					      pr_jobj("name", json_string(r[i].name), "kind",
						      json_string(kind_shown(ctx, r[i].name,
									     r[i].kind)),
						      "count", pr_jint(r[i].count), "total_ns",
						      pr_jnum(r[i].total), "self_ns",
						      pr_jnum(r[i].self), "mean_ns", pr_jnum(mean),
						      "median_ns", pr_jnum(r[i].median), "min_ns",
						      pr_jint(r[i].min), "max_ns",
						      pr_jint(r[i].max), "std_ns",
						      pr_jnum(var > 0 ? sqrt(var) : 0),
						      "share_of_run",
						      ctx->dur > 0 ? pr_jnum(r[i].total /
									     (double)ctx->dur)
								   : json_null(),
						      NULL));
		free(r[i].name);
		free(r[i].kind);
	}
	free(r);
	return ret;
}

/* Total capacity of a CUDA device from torch's deviceProperties (0 = unknown). */
static double device_total(const struct pr_actx *ctx, const char *device)
{
	json_t *props = json_object_get(ctx->meta, "deviceProperties"), *p;
	size_t i;
	long id;
	if (strncmp(device, "cuda:", 5))
		return 0;
	id = strtol(device + 5, NULL, 10);
	json_array_foreach (props, i, p) {
		json_t *pid = json_object_get(p, "id");
		if (json_is_integer(pid) && json_integer_value(pid) == id)
			return json_number_value(json_object_get(p, "totalGlobalMem"));
	}
	return 0;
}

/*
 * The share of the total that used holds, at each sample of used: the total
 * series' value then, or fixed_total. held: used is the memory available,
 * and what is held is total - available (named as such).
 */
static void pressure_one(struct pr_actx *ctx, json_t *arr, const struct pr_aseries *used,
			 const struct pr_aseries *total, double fixed_total, const char *basis,
			 int held)
{
	size_t k, n = 0, z[3] = { 0, 0, 0 }, pk = 0;
	double sum = 0, peak = -1, cap = 0;
	for (k = 0; k < used->n; k++) {
		struct pr_sample u = pr_aseries_get(used, k);
		double t = total ? pr_aseries_at(total, u.ts) : fixed_total, p;
		if (held)
			u.v = t - u.v;
		if (!(t > 0) || isnan(u.v))
			continue;
		p = u.v / t * 100.0;
		sum += p;
		n++;
		z[p < 70 ? 0 : p < 85 ? 1 : 2]++;
		if (p > peak) {
			peak = p;
			pk = k;
			cap = t;
		}
	}
	if (!n)
		return;
	json_array_append_new(arr,
			      pr_jobj("series",
				      json_string(held ? "sys.mem.total-available" : used->name),
				      "device", json_string(used->device), "basis",
				      json_string(basis), "total", pr_jnum(cap), "peak_pct",
				      pr_jnum(peak), "peak_t_ns",
				      pr_actx_t(ctx, pr_aseries_t(used, pk)), "mean_pct",
				      pr_jnum(sum / (double)n), "samples", pr_jint((int64_t)n),
				      "zones",
				      pr_jobj("low", pr_jnum((double)z[0] / (double)n), "medium",
					      pr_jnum((double)z[1] / (double)n), "high",
					      pr_jnum((double)z[2] / (double)n), NULL),
				      NULL));
}

static int pressure(struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *arr = json_array();
	size_t i;
	json_object_set_new(out, "memory_pressure",
			    pr_jobj("zones",
				    json_string("low < 70 %, medium 70-85 %, high >= 85 %"),
				    "items", arr, NULL));
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i], *t = NULL;
		const char *basis = NULL;
		double fixed = 0;
		if (!strcmp(s->name, "sys.mem.used")) {
			t = pr_actx_series(ctx, "sys.mem.total", s->device);
			basis = "used / total";
		} else if (!strcmp(s->name, "gpu.mem.used")) {
			t = pr_actx_series(ctx, "gpu.mem.total", s->device);
			basis = "used / total";
		} else if (!strcmp(s->name, "dev.mem.reserved") &&
			   (fixed = device_total(ctx, s->device)) > 0) {
			basis = "reserved / deviceProperties.totalGlobalMem";
		} else if (!strcmp(s->name, "sys.mem.available") &&
			   (t = pr_actx_series(ctx, "sys.mem.total", s->device))) {
			/* (total - available) / total: the kernel's own estimate of memory in use */
			if (pr_actx_load(ctx, s, err) || pr_actx_load(ctx, t, err))
				return -1;
			pressure_one(ctx, arr, s, t, 0, "(total - available) / total", 1);
			continue;
		}
		if (!basis || (!t && fixed <= 0))
			continue;
		if (pr_actx_load(ctx, s, err) || (t && pr_actx_load(ctx, t, err)))
			return -1;
		pressure_one(ctx, arr, s, t, fixed, basis, 0);
	}
	return 0;
}

/* A piece of the union of the activities: its time, and its share of each chunk. */
static void union_piece(int64_t s, int64_t e, int64_t first, double w, double *in, int64_t *busy)
{
	size_t c;
	*busy += e - s;
	if (w <= 0)
		return;
	for (c = 0; c < CHUNKS; c++) {
		double a = (double)first + w * (double)c, b = a + w;
		double lo = fmax(a, (double)s), hi = fmin(b, (double)e);
		if (hi > lo)
			in[c] += hi - lo;
	}
}

/*
 * From the device activities of the shared span pass (spanstat.h), by start
 * (its external sort): the union is made and measured piece by piece as it
 * closes, each chunk's busy time added up in the pieces' order.
 */
static int gpu_kernels(struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	struct pr_spanstat *ss;
	int64_t first, last, busy = 0, cur_s = 0, cur_e = INT64_MIN, gaps = 0, maxgap = 0;
	double w, in[CHUNKS] = { 0 };
	const unsigned char *p;
	size_t c, low = 0;
	json_t *o;
	if (!pr_spanstat_get(ctx, err))
		return -1;
	ss = ctx->spanstat;
	if (!ss->ndev)
		return 0;
	first = ss->dev_first;
	last = ss->dev_last;
	/* utilisation in 30 equal chunks of the active range */
	w = last > first ? (double)(last - first) / CHUNKS : 0;
	if (pr_xsort_sort(ss->dev, err))
		return -1;
	while ((p = pr_xsort_next(ss->dev))) {
		int64_t a, b;
		memcpy(&a, p, sizeof(a));
		memcpy(&b, p + sizeof(a), sizeof(b));
		/* within +-PR_TIME_LIMIT_NS, so the union's length (busy) fits */
		pr_span_clamp(&a, &b);
		b += a;
		if (a > cur_e) {
			if (cur_e != INT64_MIN) {
				union_piece(cur_s, cur_e, first, w, in, &busy);
				if (a - cur_e > GAP_NS)
					gaps++;
				if (a - cur_e > maxgap)
					maxgap = a - cur_e;
			}
			cur_s = a;
			cur_e = b;
		} else if (b > cur_e) {
			cur_e = b;
		}
	}
	if (pr_xsort_failed(ss->dev, err))
		return -1;
	union_piece(cur_s, cur_e, first, w, in, &busy);
	if (last > first)
		for (c = 0; c < CHUNKS; c++)
			if (in[c] / w < CHUNK_UTIL)
				low++;
	o = pr_jobj("active_ns", pr_jint(last - first), "busy_ns", pr_jint(busy), "idle_share",
		    last > first ? pr_jnum(1.0 - (double)busy / (double)(last - first))
				 : json_null(),
		    "gaps_over_500ms", pr_jint(gaps), "max_gap_ns", pr_jint(maxgap), "chunks",
		    pr_jint(CHUNKS), "chunks_under_50pct", pr_jint((int64_t)low), "rule",
		    json_string(
			    "busy = union of kernel/memcpy/memset spans over the first-to-last GPU "
			    "activity range; gaps > 500 ms (nsys gpu_gaps); 30 chunks < 50 % busy "
			    "(nsys gpu_time_util)"),
		    NULL);
	json_object_set_new(out, "gpu_kernels", o);
	return 0;
}

static int gpu_util(struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *arr = json_array();
	size_t i, k;
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		struct pr_moments m;
		size_t zero = 0;
		if (strcmp(s->name, "gpu.util"))
			continue;
		if (pr_actx_load(ctx, s, err))
			return -1;
		if (!s->n)
			continue;
		pr_moments_init(&m);
		for (k = 0; k < s->n; k++) {
			pr_moments_add(&m, pr_aseries_v(s, k));
			zero += pr_aseries_v(s, k) <= 0;
		}
		json_array_append_new(arr,
				      pr_jobj("device", json_string(s->device), "samples",
					      pr_jint((int64_t)s->n), "mean_pct", pr_jnum(m.mean),
					      "max_pct", pr_jnum(m.max), "idle_share",
					      pr_jnum((double)zero / (double)s->n), NULL));
	}
	if (json_array_size(arr))
		json_object_set_new(out, "gpu_util", arr);
	else
		json_decref(arr);
	return 0;
}

/* What later analyzers read (results.h): pressure items, GPU utilization, stages, GPU idle. */
static void publish(struct pr_actx *ctx, const json_t *out)
{
	struct pr_res_bottlenecks *r = &pr_results(ctx)->bottlenecks;
	const json_t *mp = json_object_get(out, "memory_pressure");
	const json_t *items = json_object_get(mp, "items"), *gu = json_object_get(out, "gpu_util");
	const json_t *st = json_object_get(out, "stages"), *k = json_object_get(out, "gpu_kernels");
	const json_t *v;
	size_t i;
	r->present = 1;
	r->pressure_zones = pr_mstr(mp, "zones");
	r->npressure = json_array_size(items);
	r->pressure = pr_res_array(r->npressure, sizeof(*r->pressure));
	json_array_foreach (items, i, v) {
		struct pr_res_pressure *p = &r->pressure[i];
		p->series = pr_mstr(v, "series");
		p->device = pr_mstr(v, "device");
		p->basis = pr_mstr(v, "basis");
		p->peak_pct = pr_mnum(v, "peak_pct");
		p->zone_high = pr_mnum(json_object_get(v, "zones"), "high");
		p->json = v;
	}
	r->ngpu_util = json_array_size(gu);
	r->gpu_util = pr_res_array(r->ngpu_util, sizeof(*r->gpu_util));
	json_array_foreach (gu, i, v) {
		r->gpu_util[i].device = pr_mstr(v, "device");
		r->gpu_util[i].mean_pct = pr_mnum(v, "mean_pct");
		r->gpu_util[i].json = v;
	}
	r->stages_rule = pr_mstr(st, "rule");
	r->stages_basis = pr_mstr(st, "basis");
	items = json_object_get(st, "items");
	r->nstages = json_array_size(items);
	r->stages = pr_res_array(r->nstages, sizeof(*r->stages));
	json_array_foreach (items, i, v) {
		r->stages[i].name = pr_mstr(v, "name");
		r->stages[i].source = pr_mstr(v, "source");
		r->stages[i].share = pr_mnum(v, "share");
		r->stages[i].json = v;
	}
	r->gpu_kernels = k;
	r->gpu_kernels_rule = pr_mstr(k, "rule");
	r->idle_share = pr_mnum(k, "idle_share");
	r->gaps_over_500ms = pr_mnum(k, "gaps_over_500ms");
	r->max_gap_ns = pr_mnum(k, "max_gap_ns");
	r->chunks = pr_mnum(k, "chunks");
	r->chunks_under_50pct = pr_mnum(k, "chunks_under_50pct");
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *out = json_object();
	json_object_set_new(ctx->out, "bottlenecks", out);
	stages(ctx, out);
	if (top(ctx, out, "top_self", 1, err) || top(ctx, out, "top_total", 0, err) ||
	    pressure(ctx, out, err) || gpu_util(ctx, out, err) || gpu_kernels(ctx, out, err))
		return -1;
	pr_spanstat_release(ctx); /* the durations and activities: read */
	publish(ctx, out);
	return 0;
}

const struct pr_analyzer pr_an_bottlenecks = {
	.name = "bottlenecks",
	.summary =
		"stages over 30 % of wall time, top spans (nsys columns), memory pressure zones, GPU idle",
	.run = run,
};
