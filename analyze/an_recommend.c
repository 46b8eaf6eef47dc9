/*
 * an_recommend.c - "recommendations": a rule table (id, source, severity,
 * category, the collector it belongs to, its threshold, condition,
 * suggestion, evaluator). Rules read what the other analyzers published
 * (results.h; evidence copied whole from their sections) and the store for
 * span-name rules.
 *
 * What makes a finding true:
 *  - A rule whose data is absent does not fire: Inferix says "GPU
 *    utilization 0 %" on a machine without a GPU; we do not.
 *  - A collector's own rules (collector set in the table) fire only on that
 *    collector's runs: Inferix's "stage > 30 % of total" is advice about an
 *    Inferix pipeline, not about a PyTorch backward pass.
 *  - Each threshold lives in one place: in the table (threshold, with the
 *    condition's "{t}" printing it, the evaluator comparing against it and
 *    the evidence stating it), or, where an analysis already decided (a
 *    leak, a straggling step, a stage over its share, a pressure zone, GPU
 *    gaps), in that analyzer, whose own rule text becomes the "rule".
 *  - One finding per root cause: a leaking series is one finding listing
 *    the bases (steps, phases) it shows in; a pressure item already
 *    reported by a collector's GPU-memory rule is not reported again.
 *  - Evidence is bounded (the analyses cap their value lists; the leak
 *    finding lists at most LEAK_BASES bases and counts the rest).
 * docs/analysis.md "Recommendations" lists the table; ids are stable.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/spanstat.h"
#include "analyze/model.h"
#include "analyze/primary.h"
#include "analyze/results.h"
#include "base/xalloc.h"

#define EVIDENCE_ITEMS 20  /* list items in one finding's evidence (the rest counted) */
#define LEAK_BASES 20	   /* bases listed in a leak finding's evidence */
#define LEAK_BASES_NAMED 4 /* ... and named in its message */

struct rule {
	const char *id, *source, *severity, *category;
	const char *collector; /* fires only on runs of this collector (NULL: any run) */
	double threshold; /* in the unit of the evidence it is compared with; NAN: the analysis decides */
	const char *condition; /* "{t}" (or "{t%}": x 100) stands for the threshold, at most once */
	const char *suggestion;
	int (*eval)(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err);
};

/*
 * The rule text: the table's condition with "{t}" = its threshold, or
 * "{t%}" = the threshold (a fraction) in percent; `analysis` when given.
 */
static json_t *rule_text(const struct rule *r, const char *analysis)
{
	const char *at = strstr(r->condition, "{t");
	int pct = at && !strncmp(at, "{t%}", 4);
	char buf[600];
	if (analysis)
		return json_string(analysis);
	if (!at)
		return json_string(r->condition);
	snprintf(buf, sizeof(buf), "%.*s%g%s", (int)(at - r->condition), r->condition,
		 pct ? r->threshold * 100 : r->threshold, at + (pct ? 4 : 3));
	return json_string(buf);
}

static void fire(const struct rule *r, json_t *out, const char *analysis, json_t *evidence,
		 const char *fmt, ...) PR_PRINTF_LIKE(5, 6);

/*
 * Appends a finding. analysis: the deciding analysis' own rule text (NULL:
 * the table's condition). The table's threshold is added to the evidence.
 */
static void fire(const struct rule *r, json_t *out, const char *analysis, json_t *evidence,
		 const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!isnan(r->threshold) && json_is_object(evidence))
		json_object_set_new(evidence, "threshold", pr_jnum(r->threshold));
	json_array_append_new(out,
			      pr_jobj("id", json_string(r->id), "source", json_string(r->source),
				      "severity", json_string(r->severity), "category",
				      json_string(r->category), "message", json_string(msg),
				      "suggestion", json_string(r->suggestion), "rule",
				      rule_text(r, analysis), "evidence", evidence, NULL));
}

/* ---- GPU data ---- */

/*
 * GPU data is real when some NVML series (gpu.*) has a non-zero value or
 * a CUDA device's allocator was sampled (dev.mem.* on cuda:N).
 */
static int gpu_present(struct pr_actx *ctx)
{
	size_t i;
	for (i = 0; i < ctx->nseries; i++) {
		const struct pr_aseries *s = &ctx->series[i];
		if (!s->count)
			continue;
		if (!strncmp(s->name, "gpu.", 4) && s->max > 0)
			return 1;
		if (!strncmp(s->name, "dev.mem.", 8) && !strncmp(s->device, "cuda", 4))
			return 1;
	}
	return 0;
}

/* ---- memory pressure ---- */

/* 1 when a finding already in out has this pressure item as its evidence. */
static int reported(json_t *out, const struct pr_res_pressure *item)
{
	json_t *v;
	size_t i;
	json_array_foreach (out, i, v) {
		json_t *e = json_object_get(v, "evidence");
		if (!strcmp(pr_mstr(e, "series"), item->series) &&
		    !strcmp(pr_mstr(e, "device"), item->device) &&
		    !strcmp(pr_mstr(e, "basis"), item->basis) &&
		    json_is_number(json_object_get(e, "peak_pct")))
			return 1;
	}
	return 0;
}

/*
 * A series as a finding names it: its human label, then the raw name in
 * parentheses when they differ ("Used memory (sys.mem.used)"), and " on
 * DEVICE" for a device's series.
 */
static const char *series_words(const char *name, const char *device, char *buf, size_t n)
{
	char *label = pr_series_label(name, device);
	if (strcmp(label, name))
		snprintf(buf, n, "%s (%s)%s%s", label, name, *device ? " on " : "", device);
	else
		snprintf(buf, n, "%s%s%s", name, *device ? " on " : "", device);
	free(label);
	return buf;
}

/* Pressure items of the given series name / basis prefix with a peak over the rule's threshold. */
static void pressure_over(const struct rule *r, struct pr_actx *ctx, json_t *out,
			  const char *series, const char *basis)
{
	const struct pr_res_bottlenecks *b = &pr_results(ctx)->bottlenecks;
	size_t i;
	for (i = 0; i < b->npressure; i++) {
		const struct pr_res_pressure *v = &b->pressure[i];
		char w[400];
		if (strcmp(v->series, series) || (basis && strncmp(v->basis, basis, strlen(basis))))
			continue;
		if (v->peak_pct > r->threshold)
			fire(r, out, NULL, json_deep_copy(v->json),
			     "Peak %s is %.1f%% of the total",
			     series_words(v->series, v->device, w, sizeof(w)), v->peak_pct);
	}
}

static int r_gpu_mem(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	(void)err;
	pressure_over(r, ctx, out, "gpu.mem.used", NULL);
	return 0;
}

static int r_hbm(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	(void)err;
	pressure_over(r, ctx, out, "dev.mem.reserved", "reserved / deviceProperties");
	return 0;
}

/* Any sample in the high zone, as the pressure analysis draws the zones. */
static int r_pressure(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_bottlenecks *b = &pr_results(ctx)->bottlenecks;
	char rule[300];
	size_t i;
	(void)err;
	snprintf(rule, sizeof(rule), "a sample in the high pressure zone (%s)", b->pressure_zones);
	for (i = 0; i < b->npressure; i++) {
		const struct pr_res_pressure *v = &b->pressure[i];
		char w[400];
		if (!(v->zone_high > 0) || reported(out, v))
			continue;
		fire(r, out, rule, json_deep_copy(v->json), "Peak %s is %.1f%% of the total",
		     series_words(v->series, v->device, w, sizeof(w)), v->peak_pct);
	}
	return 0;
}

/* ---- Inferix ---- */

static int r_gpu_util(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_bottlenecks *b = &pr_results(ctx)->bottlenecks;
	size_t i;
	(void)err;
	if (!gpu_present(ctx))
		return 0;
	for (i = 0; i < b->ngpu_util; i++)
		if (b->gpu_util[i].mean_pct < r->threshold)
			fire(r, out, NULL, json_deep_copy(b->gpu_util[i].json),
			     "Average GPU utilization is only %.1f%% (%s)", b->gpu_util[i].mean_pct,
			     b->gpu_util[i].device);
	return 0;
}

static int r_stage(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_bottlenecks *b = &pr_results(ctx)->bottlenecks;
	char rule[1024];
	size_t i;
	int step = !strcmp(b->stages_basis, "step");
	(void)err;
	snprintf(rule, sizeof(rule), "%s (top 3)", b->stages_rule);
	for (i = 0; i < b->nstages && i < 3; i++) {
		const struct pr_res_stage_item *v = &b->stages[i];
		if (step && !strcmp(v->source, "phases"))
			fire(r, out, rule, json_deep_copy(v->json),
			     "Phase '%s' takes %.1f%% of the step time", v->name, v->share * 100);
		else
			fire(r, out, rule, json_deep_copy(v->json),
			     "Stage '%s' takes %.1f%% of total time", v->name, v->share * 100);
	}
	return 0;
}

static int r_thermal(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	size_t i;
	(void)err;
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		if (!strcmp(s->name, "gpu.temp") && s->count && s->max > r->threshold)
			fire(r, out, NULL,
			     pr_jobj("series", json_string(s->name), "device",
				     json_string(s->device), "max", pr_jnum(s->max), NULL),
			     "Peak GPU temperature is %.1f\xc2\xb0"
			     "C (%s)",
			     s->max, s->device);
	}
	return 0;
}

static int r_drop(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double v;
	(void)err;
	if (pr_actx_metric(ctx, "streaming_analysis.drop_rate_percent", &v) && v > r->threshold)
		fire(r, out, NULL, pr_jobj("drop_rate_percent", pr_jnum(v), NULL),
		     "High frame drop rate: %.1f%%", v);
	return 0;
}

static int r_layer(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc, k = 0;
	if (pr_actx_prep(
		    ctx,
		    "WITH l AS (SELECT substr(name, 40, length(name) - 50) AS layer, value FROM metric "
		    "WHERE run_id = ?1 AND origin = 'reported' AND name LIKE "
		    "'computation_analysis.layer_performance.%.total_time') "
		    "SELECT layer, value, value * 100.0 / (SELECT sum(value) FROM l) AS pct FROM l "
		    "WHERE value * 100.0 / (SELECT sum(value) FROM l) > ?2 ORDER BY pct DESC, layer",
		    &st, err))
		return -1;
	sqlite3_bind_double(st, 2, r->threshold);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && k++ < 3)
		fire(r, out, NULL,
		     pr_jobj("layer", json_string(pr_actx_text(st, 0)), "total_ns",
			     pr_jnum(sqlite3_column_double(st, 1)), "percent",
			     pr_jnum(sqlite3_column_double(st, 2)), NULL),
		     "Layer '%s' takes %.1f%% of total computation time", pr_actx_text(st, 0),
		     sqlite3_column_double(st, 2));
	return pr_actx_done(ctx, st, rc, err);
}

static int r_steps(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double n = pr_results(ctx)->throughput.diffusion_steps;
	(void)err;
	if (n > r->threshold)
		fire(r, out, NULL, pr_jobj("steps", pr_jnum(n), NULL), "Using %.0f diffusion steps",
		     n);
	return 0;
}

static int r_block_size(const struct rule *r, struct pr_actx *ctx, json_t *out,
			struct pr_error *err)
{
	const struct pr_res_throughput *t = &pr_results(ctx)->throughput;
	double avg = t->blocks_frames / t->blocks_count;
	(void)err;
	if (avg > r->threshold)
		fire(r, out, NULL, pr_jobj("avg_block_size", pr_jnum(avg), NULL),
		     "Average block size is %.1f frames", avg);
	return 0;
}

static int r_fps(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double v = pr_results(ctx)->throughput.blocks_fps;
	(void)err;
	if (v < r->threshold)
		fire(r, out, NULL,
		     pr_jobj("fps", pr_jnum(v), "basis",
			     json_string("frames of block_computation / block compute time"), NULL),
		     "Current FPS is %.1f", v);
	return 0;
}

static int r_bps(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double v = pr_results(ctx)->throughput.blocks_bps;
	(void)err;
	if (v < r->threshold)
		fire(r, out, NULL, pr_jobj("bps", pr_jnum(v), NULL), "Current BPS is %.1f", v);
	return 0;
}

static int r_first_block(const struct rule *r, struct pr_actx *ctx, json_t *out,
			 struct pr_error *err)
{
	double v = pr_results(ctx)->throughput.blocks_first_ns / 1e9;
	(void)err;
	if (v > r->threshold)
		fire(r, out, NULL, pr_jobj("first_block_s", pr_jnum(v), NULL),
		     "First-block delay is %.2f seconds", v);
	return 0;
}

static int r_multi_gpu(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	(void)err;
	if (!gpu_present(ctx))
		return 0; /* a world size says nothing about GPUs */
	if (ctx->has_world_size && (double)ctx->world_size > r->threshold)
		fire(r, out, NULL, pr_jobj("world_size", pr_jint(ctx->world_size), NULL),
		     "Using %lld GPUs", (long long)ctx->world_size);
	return 0;
}

/* ---- TensorBoard profiler, Nsight Systems ---- */

/*
 * Time of the spans of a capture (their names match a LIKE pattern, see
 * spanstat.h), starting inside a step / total step time; added in id order,
 * as the query it replaces added them.
 */
static int step_share(struct pr_actx *ctx, enum pr_capture_id which, double *share, double *ns,
		      struct pr_error *err)
{
	const struct pr_spanstat *ss = pr_spanstat_get(ctx, err);
	const struct pr_capture *c;
	double steps = 0;
	size_t i;
	*share = NAN;
	*ns = 0;
	if (!ss)
		return -1;
	for (i = 0; i < ctx->nsteps; i++)
		steps += (double)ctx->steps[i].dur;
	if (steps <= 0)
		return 0;
	c = &ss->capture[which];
	for (i = 0; i < c->n; i++)
		if (pr_actx_step_index(ctx, c->rows[i].ts) >= 0)
			*ns += (double)c->rows[i].dur;
	*share = *ns / steps;
	return 0;
}

/* A user phase that loads input: data_loading, load_data, DataLoad, "data load" ... */
static int data_loading_name(const char *name)
{
	static const char *const pats[] = { "dataload",	 "data_load", "data load", "data-load",
					    "load_data", "loaddata",  "load data", "load-data" };
	char low[128];
	size_t i, n = strlen(name);
	if (n >= sizeof(low))
		return 0;
	for (i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	for (i = 0; i < PR_ARRAY_SIZE(pats); i++)
		if (strstr(low, pats[i]))
			return 1;
	return 0;
}

/*
 * A category's share of the step breakdown's average step (TensorBoard's): fires
 * "<what> %.1f%% of the step time" over the rule's threshold, with the per-step
 * time as evidence. Returns 1 when the breakdown decided (whether or not it
 * fired), 0 when the run has no breakdown (or, need_time, no time of the
 * category in it), for the caller's own measure.
 */
static int breakdown_share(const struct rule *r, struct pr_actx *ctx, json_t *out, const char *cat,
			   double cat_ns, int need_time, const char *what)
{
	const struct pr_res_gpubreak *g = &pr_results(ctx)->gpubreak;
	char ev[80];
	double share;
	snprintf(ev, sizeof(ev), "%s_ns_per_step", cat);
	if (!g->step_average || !(g->step_dur_ns > 0) || (need_time && !(cat_ns > 0)))
		return 0;
	share = cat_ns / g->step_dur_ns;
	if (share > r->threshold)
		fire(r, out, NULL,
		     pr_jobj(ev, pr_jnum(cat_ns), "step_ns", pr_jnum(g->step_dur_ns),
			     "share_of_step", pr_jnum(share), NULL),
		     "%s %.1f%% of the step time", what, share * 100);
	return 1;
}

/*
 * The DataLoader finding's severity and advice, set on the finding just fired (the last of
 * out, when it is this rule's): TensorBoard fires over 5 % and grades nothing; here the
 * share grades it, [low] up to DL_MEDIUM, [medium] up to DL_HIGH, [high] from DL_HIGH on, and
 * pin_memory (pinned host buffers for the copies to the device) is advised only where the
 * run has device work to copy to (a gpu section or a step breakdown with GPU time).
 */
#define DL_MEDIUM 0.10
#define DL_HIGH 0.20
static void dataloader_grade(const struct rule *r, struct pr_actx *ctx, json_t *out, size_t n0)
{
	json_t *f = json_array_get(out, json_array_size(out) - 1);
	const struct pr_results *res = pr_results(ctx);
	double share;
	int device;
	if (json_array_size(out) == n0 || !f || strcmp(pr_mstr(f, "id"), r->id))
		return;
	share = pr_mnum(json_object_get(f, "evidence"), "share_of_step");
	json_object_set_new(f, "severity",
			    json_string(share >= DL_HIGH     ? "high"
					: share >= DL_MEDIUM ? "medium"
							     : "low"));
	device = res->gpulink.present || res->gpubreak.present ||
		 res->gpubreak.step_kernel_ns > 0 || res->gpubreak.step_memcpy_ns > 0;
	if (!device)
		json_object_set_new(f, "suggestion",
				    json_string("Increase DataLoader num_workers so input loading "
						"overlaps computation (a CPU-only run: pin_memory, "
						"for copies to a GPU, does not apply)."));
}

/*
 * DataLoader time: the step breakdown's (TensorBoard's) DataLoader share where it
 * has one; else torch's enumerate(DataLoader) spans inside the steps; failing those, the
 * outermost user phases named for data loading (record_function("data_loading")
 * in a trace with or without categories), inside steps. Graded by dataloader_grade.
 */
static int r_dataloader_share(const struct rule *r, struct pr_actx *ctx, json_t *out,
			      struct pr_error *err)
{
	double share, ns = 0, steps = 0;
	const char *what = "DataLoader";
	size_t i;
	/* TensorBoard's figure, the one the step breakdown shows: DataLoader time when no
	 * GPU work runs, per step extended to its GPU work */
	if (breakdown_share(r, ctx, out, "dataloader", pr_results(ctx)->gpubreak.step_dataloader_ns,
			    1, "DataLoader takes"))
		return 0;
	if (step_share(ctx, PR_CAP_DATALOADER, &share, &ns, err))
		return -1;
	if (ns == 0) {
		for (i = 0; i < ctx->nsteps; i++)
			steps += (double)ctx->steps[i].dur;
		for (i = 0; i < ctx->nphases; i++) {
			const struct pr_aspan *p = &ctx->phases[i];
			if (p->depth == 0 && data_loading_name(p->name) &&
			    pr_actx_step_index(ctx, p->ts) >= 0) {
				ns += (double)p->dur;
				what = p->name;
			}
		}
		share = steps > 0 ? ns / steps : NAN;
	}
	if (share > r->threshold)
		fire(r, out, NULL,
		     pr_jobj("dataloader_ns", pr_jnum(ns), "share_of_step", pr_jnum(share), "phase",
			     strcmp(what, "DataLoader") ? json_string(what) : NULL, NULL),
		     "%s takes %.1f%% of the step time", what, share * 100);
	return 0;
}

static int r_dataloader(const struct rule *r, struct pr_actx *ctx, json_t *out,
			struct pr_error *err)
{
	size_t n0 = json_array_size(out);
	if (r_dataloader_share(r, ctx, out, err))
		return -1;
	dataloader_grade(r, ctx, out, n0);
	return 0;
}

/*
 * Communication time per step: the step breakdown's communication kernels
 * (NCCL, RCCL, gloo, MSCCL, NVSHMEM, DeepEP, --comm-kernels), so a run whose
 * all-to-all is DeepEP is not silent; NCCL-named kernels where there is no
 * step breakdown.
 */
static int r_comm(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double share, ns = 0;
	if (breakdown_share(r, ctx, out, "communication",
			    pr_results(ctx)->gpubreak.step_communication_ns, 0,
			    "Communication kernels take"))
		return 0;
	if (step_share(ctx, PR_CAP_NCCL, &share, &ns, err))
		return -1;
	if (share > r->threshold)
		fire(r, out, NULL,
		     pr_jobj("communication_ns", pr_jnum(ns), "share_of_step", pr_jnum(share),
			     NULL),
		     "Communication (NCCL kernels) takes %.1f%% of the step time", share * 100);
	return 0;
}

static int r_gpu_busy(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_bottlenecks *b = &pr_results(ctx)->bottlenecks;
	double busy = 1 - b->idle_share;
	(void)err;
	if (busy < r->threshold)
		fire(r, out, NULL, json_deep_copy(b->gpu_kernels),
		     "The GPU is busy only %.1f%% of its active time", busy * 100);
	return 0;
}

static int r_gaps(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_bottlenecks *b = &pr_results(ctx)->bottlenecks;
	(void)err;
	if (b->gaps_over_500ms > 0)
		fire(r, out, b->gpu_kernels_rule,
		     pr_jobj("gaps", pr_jnum(b->gaps_over_500ms), "max_gap_ns",
			     pr_jnum(b->max_gap_ns), NULL),
		     "%.0f GPU idle gap(s) longer than 500 ms", b->gaps_over_500ms);
	return 0;
}

static int r_chunks(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_bottlenecks *b = &pr_results(ctx)->bottlenecks;
	(void)err;
	if (b->chunks_under_50pct > 0)
		fire(r, out, b->gpu_kernels_rule,
		     pr_jobj("chunks", pr_jnum(b->chunks), "under_50pct",
			     pr_jnum(b->chunks_under_50pct), NULL),
		     "%.0f of %.0f time chunks have GPU utilization under 50%%",
		     b->chunks_under_50pct, b->chunks);
	return 0;
}

/* Count and total time of the run's spans matching `where`, a literal SQL condition. */
#define COUNT_SPANS_SQL(where)                                                                     \
	"SELECT count(*), total(s.dur) FROM span s JOIN string n ON n.id = s.name_id "             \
	"WHERE s.run_id = ?1 AND " where
static int count_spans_sql(struct pr_actx *ctx, const char *sql, double *count, double *ns,
			   struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (pr_actx_prep(ctx, sql, &st, err))
		return -1;
	*count = *ns = 0;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*count = sqlite3_column_double(st, 0);
		*ns = sqlite3_column_double(st, 1);
	}
	return pr_actx_done(ctx, st, rc, err);
}

/* Does name contain sub, ASCII letters in any case (SQLite's LIKE '%sub%')? */
static int like_contains(const char *name, const char *sub)
{
	size_t n = strlen(sub), i;
	for (; *name; name++) {
		for (i = 0; i < n && name[i]; i++) {
			char a = name[i], b = sub[i];
			if (a >= 'A' && a <= 'Z')
				a = (char)(a - 'A' + 'a');
			if (b >= 'A' && b <= 'Z')
				b = (char)(b - 'A' + 'a');
			if (a != b)
				break;
		}
		if (i == n)
			return 1;
	}
	return !n;
}

/*
 * Count and time of the spans of a kind whose name matches (sql is
 * COUNT_SPANS_SQL of the same test): from the shared span pass's groups (spanstat.h), whose
 * sums are exact while they stay under 2^53 ns, and so in any order; past
 * that, SQLite's sum in its order.
 */
static int count_spans(struct pr_actx *ctx, const char *kind, int (*match)(const char *name),
		       const char *sql, double *count, double *ns, struct pr_error *err)
{
	const struct pr_spanstat *ss = pr_spanstat_get(ctx, err);
	size_t i;
	if (!ss)
		return -1;
	*count = *ns = 0;
	for (i = 0; i < ss->n; i++) {
		const struct pr_spanstat_group *g = &ss->g[i];
		if (!g->name || strcmp(ss->kinds[g->kind], kind) || !match(g->name))
			continue;
		if (!(g->all.total < 9007199254740992.0) || g->all.min < 0 ||
		    !(*ns + g->all.total < 9007199254740992.0))
			return count_spans_sql(ctx, sql, count, ns, err);
		*count += (double)g->all.count;
		*ns += g->all.total;
	}
	return 0;
}

static int sync_name(const char *name)
{
	static const char *const names[] = { "cudaDeviceSynchronize", "cudaStreamSynchronize",
					     "cudaMemcpy", "cudaMemset", "cudaEventSynchronize" };
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

static int pageable_name(const char *name)
{
	return like_contains(name, "Pageable");
}

static int r_sync(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double c, ns;
	if (count_spans(ctx, "runtime", sync_name,
			COUNT_SPANS_SQL(
				"s.kind = 'runtime' AND n.value IN ('cudaDeviceSynchronize', "
				"'cudaStreamSynchronize', 'cudaMemcpy', 'cudaMemset', "
				"'cudaEventSynchronize')"),
			&c, &ns, err))
		return -1;
	if (c > 0 && ctx->dur > 0 && ns / (double)ctx->dur > r->threshold)
		fire(r, out, NULL,
		     pr_jobj("calls", pr_jnum(c), "total_ns", pr_jnum(ns), "share_of_run",
			     pr_jnum(ns / (double)ctx->dur), NULL),
		     "%.0f synchronizing CUDA API call(s) block the host for %.1f%% of the run", c,
		     ns / (double)ctx->dur * 100);
	return 0;
}

static int r_pageable(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double c, ns;
	if (count_spans(ctx, "memcpy", pageable_name,
			COUNT_SPANS_SQL("s.kind = 'memcpy' AND n.value LIKE '%Pageable%'"), &c, &ns,
			err))
		return -1;
	if (c > r->threshold)
		fire(r, out, NULL, pr_jobj("memcpys", pr_jnum(c), "total_ns", pr_jnum(ns), NULL),
		     "%.0f memory copies use pageable host memory", c);
	return 0;
}

/* ---- Holistic Trace Analysis (gpu_breakdown, gpu) ---- */

/* Communication below this share of the GPU span is not worth overlapping better. */
#define COMM_MATERIAL 0.05
/* Idle below this share of the GPU span says nothing about what the GPU waits for. */
#define IDLE_MATERIAL 0.10

static int r_overlap(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_gpubreak *g = &pr_results(ctx)->gpubreak;
	double comm = g->rank_communication_share, share = g->overlap_share;
	(void)err;
	if (comm >= COMM_MATERIAL && share < r->threshold)
		fire(r, out, g->overlap_rule,
		     pr_jobj("overlap_share", pr_jnum(share), "communication_ns",
			     pr_jnum(g->overlap_communication_ns), "overlapped_ns",
			     pr_jnum(g->overlap_overlapped_ns), "communication_share",
			     pr_jnum(comm), "threshold", pr_jnum(r->threshold), NULL),
		     "Only %.1f%% of the communication kernel time (%.1f%% of the GPU span) overlaps "
		     "compute kernels",
		     share * 100, comm * 100);
	return 0;
}

static int r_host_wait(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_gpubreak *g = &pr_results(ctx)->gpubreak;
	double idle_share = g->rank_idle_share, host = g->idle_host_wait_share;
	(void)err;
	if (idle_share >= IDLE_MATERIAL && host > r->threshold)
		fire(r, out, g->idle_rule,
		     pr_jobj("idle_share", pr_jnum(idle_share), "host_wait_share", pr_jnum(host),
			     "host_wait_ns", pr_jnum(g->idle_host_wait_ns), "kernel_wait_share",
			     pr_jnum(g->idle_kernel_wait_share), NULL),
		     "The GPU idles %.1f%% of its span, %.1f%% of that waiting for the host to launch "
		     "work",
		     idle_share * 100, host * 100);
	return 0;
}

static int r_short_kernels(const struct rule *r, struct pr_actx *ctx, json_t *out,
			   struct pr_error *err)
{
	const struct pr_res_gpulink *sk = &pr_results(ctx)->gpulink;
	const struct pr_res_gpubreak *g = &pr_results(ctx)->gpubreak;
	double n = sk->short_kernels, of = sk->short_of_linked, share = n / of;
	double idle = g->rank_idle_share, host = g->idle_host_wait_share;
	(void)err;
	/* launch-bound: most kernels outrun their launches and the GPU waits on the host */
	if (of > 0 && share > r->threshold && idle >= IDLE_MATERIAL && host > 0.5)
		fire(r, out, sk->short_rule,
		     pr_jobj("short_kernels", pr_jnum(n), "linked_kernels", pr_jnum(of), "share",
			     pr_jnum(share), "device_ns", pr_jnum(sk->short_device_ns), "launch_ns",
			     pr_jnum(sk->short_launch_ns), "idle_share", pr_jnum(idle),
			     "host_wait_share", pr_jnum(host), NULL),
		     "%.0f of %.0f kernels (%.1f%%) run shorter than their launch call while the GPU "
		     "waits on the host: the run is launch-bound",
		     n, of, share * 100);
	return 0;
}

#define SYNC_OPS 5 /* CPU ops named in a synchronous-copy finding */

struct sync_op {
	char *name;
	long n;
};

/* Counts one synchronous copy under CPU op `name` (the SYNC_OPS most frequent are kept). */
static void sync_op_add(struct sync_op *ops, size_t *nops, size_t cap, const char *name)
{
	size_t i;
	for (i = 0; i < *nops; i++)
		if (!strcmp(ops[i].name, name)) {
			ops[i].n++;
			return;
		}
	if (*nops < cap) {
		ops[*nops].name = pr_xstrdup(name);
		ops[(*nops)++].n = 1;
	}
}

static int cmp_sync_op(const void *a, const void *b)
{
	const struct sync_op *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* r_sync_copy's capture rows by (track, ts, id); qsort has no context argument. */
static const struct pr_capture_row *sync_rows;

static int cmp_sync_row(const void *a, const void *b)
{
	const struct pr_capture_row *x = &sync_rows[*(const size_t *)a],
				    *y = &sync_rows[*(const size_t *)b];
	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * One call of r_sync_copy's walk (name NULL: none): 1 when it ends a copy
 * the host waits for, at *at (a blocking copy's start, or the start of the
 * pending asynchronous copy its synchronize ends: counted only when that is
 * not negative, as the walk always had it); the thread's pending
 * asynchronous copy is kept in *track, *pending, *pend_ts, *pend_parent,
 * *pend_op.
 */
static int sync_copy_row(const char *name, const char *op, int64_t tr, int64_t ts, int64_t parent,
			 int has_parent, int64_t *at, int64_t *track, long *pending,
			 int64_t *pend_ts, int64_t *pend_parent, char **pend_op)
{
	if (!name)
		return 0;
	if (tr != *track) {
		*track = tr;
		*pending = 0;
	}
	if (strstr(name, "Memcpy")) {
		if (strstr(name, "Async")) {
			*pending = has_parent;
			*pend_ts = ts;
			*pend_parent = parent;
			free(*pend_op);
			*pend_op = pr_xstrdup(op ? op : "");
			return 0;
		}
		*pending = 0;
		*at = ts;
		free(*pend_op);
		*pend_op = pr_xstrdup(op ? op : "");
		return 1;
	}
	if (*pending && has_parent && parent == *pend_parent) {
		*pending = 0;
		*at = *pend_ts;
		return *at >= 0;
	}
	return 0;
}

/*
 * A synchronous copy in a step: a copy the host waits for, started inside a
 * step. Either a blocking copy API (cudaMemcpy, hipMemcpyWithStream: a
 * copy call without "Async") or an asynchronous copy call followed on the
 * same thread by a synchronize call under the same CPU op (aten::copy_ or
 * aten::_local_scalar_dense calling cudaMemcpyAsync, then
 * cudaStreamSynchronize: what tensor.item() and .cpu() do), with no copy
 * call between. A synchronize that is not the copying op's own (a
 * cudaDeviceSynchronize at the end of a step) is not a copy's. The time
 * blocked is the blocking call's duration.
 */
static int r_sync_copy(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	enum {
		CAP = 64
	};
	struct sync_op ops[CAP];
	const struct pr_spanstat *ss;
	const struct pr_capture *cap;
	sqlite3_stmt *name_st = NULL, *op_st = NULL;
	size_t *idx, ri;
	int64_t track = -1, pend_ts = 0, pend_parent = 0;
	char *pend_op = NULL;
	double copies = 0, blocked = 0, steps_ns = 0, share;
	long last_step = -1, steps_with = 0, pending = 0;
	size_t nops = 0, i;
	int rc;
	json_t *arr;
	for (i = 0; i < ctx->nsteps; i++)
		steps_ns += (double)ctx->steps[i].dur;
	if (steps_ns <= 0)
		return 0;
	/* the runtime calls named for copies and synchronizes, captured by the shared
	 * span pass (spanstat.h), by thread and start (then id, as SQLite's sort kept them) */
	if (!(ss = pr_spanstat_get(ctx, err)))
		return -1;
	cap = &ss->capture[PR_CAP_SYNC_COPY];
	if (pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &name_st,
			 err))
		return -1;
	if (pr_actx_prep(ctx,
			 "SELECT n.value FROM span p JOIN string n ON n.id = p.name_id "
			 "WHERE p.id = ?2 AND ?1 IS NOT NULL",
			 &op_st, err)) {
		sqlite3_finalize(name_st);
		return -1;
	}
	idx = pr_xreallocarray(NULL, cap->n + 1, sizeof(*idx));
	for (ri = 0; ri < cap->n; ri++)
		idx[ri] = ri;
	sync_rows = cap->rows;
	qsort(idx, cap->n, sizeof(*idx), cmp_sync_row);
	sync_rows = NULL;
	rc = SQLITE_DONE;
	for (ri = 0; ri < cap->n; ri++) {
		const struct pr_capture_row *row = &cap->rows[idx[ri]];
		int64_t tr = row->track, ts = row->ts, dur = row->dur;
		int64_t parent = row->parent, at = -1;
		int has_parent = row->has_parent, counted;
		char *name = NULL, *op = NULL;
		long k;
		sqlite3_bind_int64(name_st, 2, row->name_id);
		if ((rc = sqlite3_step(name_st)) == SQLITE_ROW)
			name = pr_xstrdup(pr_actx_text(name_st, 0));
		sqlite3_reset(name_st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			break;
		if (has_parent) {
			sqlite3_bind_int64(op_st, 2, parent);
			if ((rc = sqlite3_step(op_st)) == SQLITE_ROW)
				op = pr_xstrdup(pr_actx_text(op_st, 0));
			sqlite3_reset(op_st);
		}
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			free(name);
			free(op);
			break;
		}
		rc = SQLITE_DONE;
		counted = sync_copy_row(name, op, tr, ts, parent, has_parent, &at, &track, &pending,
					&pend_ts, &pend_parent, &pend_op);
		free(name);
		free(op);
		if (!counted)
			continue;
		if ((k = pr_actx_step_index(ctx, at)) < 0)
			continue;
		copies++;
		blocked += (double)dur;
		if (k != last_step) {
			steps_with++;
			last_step = k;
		}
		sync_op_add(ops, &nops, CAP, pend_op && *pend_op ? pend_op : "(no CPU op)");
	}
	free(idx);
	sqlite3_finalize(op_st);
	free(pend_op);
	if (pr_actx_done(ctx, name_st, rc, err)) {
		for (i = 0; i < nops; i++)
			free(ops[i].name);
		return -1;
	}
	share = blocked / steps_ns;
	qsort(ops, nops, sizeof(*ops), cmp_sync_op);
	arr = json_array();
	for (i = 0; i < nops && i < SYNC_OPS; i++)
		json_array_append_new(arr, pr_jobj("op", json_string(ops[i].name), "copies",
						   pr_jint(ops[i].n), NULL));
	if (copies > 0 && share > r->threshold)
		fire(r, out, NULL,
		     pr_jobj("copies", pr_jnum(copies), "steps", pr_jint(steps_with), "blocked_ns",
			     pr_jnum(blocked), "share_of_step", pr_jnum(share), "ops", arr, NULL),
		     "%.0f synchronous cop%s in %ld step(s) block%s the host for %.1f%% of the step "
		     "time (most under %s)",
		     copies, copies == 1 ? "y" : "ies", steps_with, copies == 1 ? "s" : "",
		     share * 100, nops ? ops[0].name : "?");
	else
		json_decref(arr);
	for (i = 0; i < nops; i++)
		free(ops[i].name);
	return 0;
}

/* ---- profreport ---- */

static int r_frag(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_fragmentation *fr = &pr_results(ctx)->fragmentation;
	size_t i;
	(void)err;
	for (i = 0; i < fr->n; i++) {
		const struct pr_res_frag *v = &fr->v[i];
		if (v->mean_ratio > r->threshold)
			fire(r, out, NULL,
			     pr_jobj("device", json_string(v->device), "mean_ratio",
				     pr_jnum(v->mean_ratio), "max_gap", pr_jnum(v->max_gap), NULL),
			     "Allocator fragmentation averages %.1f%% on %s", v->mean_ratio * 100,
			     v->device);
	}
	return 0;
}

/* Bytes in words for a message: "8.0 MiB", "512 KiB", "100 bytes". */
static void bytes_words(double b, char *buf, size_t n)
{
	double a = fabs(b);
	if (a >= 1073741824.0)
		snprintf(buf, n, "%.1f GiB", b / 1073741824.0);
	else if (a >= 1048576.0)
		snprintf(buf, n, "%.1f MiB", b / 1048576.0);
	else if (a >= 1024.0)
		snprintf(buf, n, "%.1f KiB", b / 1024.0);
	else
		snprintf(buf, n, "%.0f bytes", b);
}

/* "per step" / "per occurrence of phase 'x'" */
static void per_basis(const char *basis, char *buf, size_t n)
{
	if (!strcmp(basis, "steps"))
		snprintf(buf, n, "per step");
	else
		snprintf(buf, n, "per occurrence of %s", basis);
}

/*
 * One finding per leaking (series, device): the leaks analysis has one item
 * per basis; the finding names the strongest basis (steps when they leak,
 * else the one with most occurrences), lists every leaking basis (at most
 * LEAK_BASES, the rest counted) and carries that basis' bounded values.
 */
/* The same leaking (series, device)? */
static int same_leak(const struct pr_res_leak *a, const struct pr_res_leak *b)
{
	return b->leak && !strcmp(a->series, b->series) && !strcmp(a->device, b->device);
}

static int r_leak(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_leaks *lk = &pr_results(ctx)->leaks;
	size_t i, j;
	(void)err;
	for (i = 0; i < lk->n; i++) {
		const struct pr_res_leak *v = &lk->v[i], *best = NULL, *w;
		const char *series = v->series, *device = v->device;
		json_t *bases, *ev;
		size_t nleak = 0, named = 0, k;
		char names[400] = "", slope[40], per[340], msg_dev[80] = "", more[40] = "";
		int first = 1;
		if (!v->leak)
			continue;
		/* the first leaking item of this (series, device) speaks for all of them */
		for (j = 0; j < i && first; j++)
			if (same_leak(v, &lk->v[j]))
				first = 0;
		if (!first)
			continue;
		bases = json_array();
		for (j = i; j < lk->n; j++) {
			w = &lk->v[j];
			if (!same_leak(v, w))
				continue;
			if (!best ||
			    (strcmp(best->basis, "steps") &&
			     (!strcmp(w->basis, "steps") || w->occurrences > best->occurrences)))
				best = w;
			if (nleak++ < LEAK_BASES)
				json_array_append_new(bases,
						      pr_jobj("basis", json_string(w->basis),
							      "occurrences",
							      pr_jnum(w->occurrences),
							      "slope_per_occurrence",
							      pr_jnum(w->slope_per_occurrence),
							      "r2", pr_jnum(w->r2), "growth",
							      pr_jnum(w->growth), NULL));
		}
		/* the other bases, named in the message (a few, then a count) */
		for (j = i, k = 0; j < lk->n; j++) {
			size_t len = strlen(names);
			w = &lk->v[j];
			if (!same_leak(v, w))
				continue;
			if (k++ >= LEAK_BASES)
				break; /* the bases listed in the evidence */
			if (!strcmp(w->basis, best->basis) || named >= LEAK_BASES_NAMED)
				continue;
			snprintf(names + len, sizeof(names) - len, "%s%s", named ? ", " : "",
				 w->basis);
			named++;
		}
		ev = pr_jobj("series", json_string(series), "device", json_string(device), "scope",
			     json_string(best->scope), "basis", json_string(best->basis),
			     "occurrences", pr_jnum(best->occurrences), "slope_per_occurrence",
			     pr_jnum(best->slope_per_occurrence), "r2", pr_jnum(best->r2), "growth",
			     pr_jnum(best->growth), "n", pr_jnum(best->occurrences), "min",
			     pr_jnum(best->min), "max", pr_jnum(best->max), "values",
			     json_deep_copy(best->values), "values_omitted",
			     isnan(best->values_omitted) ? NULL : pr_jnum(best->values_omitted),
			     "bases", bases, "bases_more",
			     nleak > LEAK_BASES ? pr_jint((int64_t)(nleak - LEAK_BASES)) : NULL,
			     NULL);
		bytes_words(best->slope_per_occurrence, slope, sizeof(slope));
		per_basis(best->basis, per, sizeof(per));
		if (*device)
			snprintf(msg_dev, sizeof(msg_dev), " on %s", device);
		if (nleak - 1 > named)
			snprintf(more, sizeof(more), " and %zu more", nleak - 1 - named);
		fire(r, out, lk->rule, ev, "%s%s grows by %s %s (R^2 %.2f, %lld occurrences)%s%s%s",
		     series, msg_dev, slope, per, best->r2,
		     best->occurrences == best->occurrences ? (long long)best->occurrences : 0,
		     nleak > 1 ? "; also across " : "", names, more);
	}
	return 0;
}

static int r_straggler(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	const struct pr_res_throughput *t = &pr_results(ctx)->throughput;
	json_t *shown;
	size_t i, n = t->nstragglers;
	double slowest = 0;
	(void)err;
	if (!n)
		return 0;
	shown = json_array(); /* the first EVIDENCE_ITEMS (step order), the rest counted */
	for (i = 0; i < n; i++) {
		if (i < EVIDENCE_ITEMS)
			json_array_append_new(shown,
					      json_deep_copy(json_array_get(t->stragglers, i)));
		if (t->x_median[i] > slowest)
			slowest = t->x_median[i];
	}
	fire(r, out, t->steps_rule,
	     pr_jobj("stragglers", shown, "stragglers_more",
		     n > EVIDENCE_ITEMS ? pr_jint((int64_t)(n - EVIDENCE_ITEMS)) : NULL,
		     "median_ns", pr_jnum(t->steps_p50_ns), NULL),
	     "%zu straggling step(s); the slowest is %.1fx the median", n, slowest);
	return 0;
}

#define IX "inferix"

static const struct rule rules[] = {
	{ "inferix.gpu_memory", "Inferix", "high", "GPU Memory", IX, 90,
	  "peak GPU memory used / total > {t} %",
	  "Consider reducing batch size, enabling gradient checkpointing, or using mixed precision training to reduce memory usage.",
	  r_gpu_mem },
	{ "inferix.gpu_utilization", "Inferix", "medium", "GPU Utilization", IX, 50,
	  "mean GPU utilization < {t} % (only when GPU data is present and non-zero)",
	  "Consider increasing batch size, optimizing data loading, or reducing CPU bottlenecks to better utilize GPU.",
	  r_gpu_util },
	{ "inferix.stage", "Inferix", "high", "Performance Bottleneck", IX, NAN,
	  "stage time / wall time (a phase: of the steps' time) over the bottlenecks analysis' "
	  "threshold (top 3)",
	  "Focus optimization efforts on this stage as it's a major bottleneck.", r_stage },
	{ "inferix.thermal", "Inferix", "high", "Thermal Management", IX, 85,
	  "peak GPU temperature > {t} C",
	  "GPU temperature is high and may cause thermal throttling. Improve cooling or reduce GPU load.",
	  r_thermal },
	{ "inferix.frame_drops", "Inferix", "high", "Streaming Performance", IX, 5,
	  "streaming drop rate > {t} %",
	  "Reduce encoding complexity or improve network bandwidth to maintain streaming quality.",
	  r_drop },
	{ "inferix.layer", "Inferix", "high", "Computation Bottleneck", IX, 30,
	  "layer time / all layer time > {t} % (top 3)",
	  "Consider optimizing this layer's computation or redistributing workload.", r_layer },
	{ "inferix.diffusion_steps", "Inferix", "high", "Diffusion Steps", IX, 30,
	  "diffusion steps > {t}", "Consider reducing steps to 20-30 to improve generation speed.",
	  r_steps },
	{ "inferix.block_size", "Inferix", "medium", "Block Size", IX, 8,
	  "mean block size > {t} frames",
	  "Consider reducing block size to improve latency and memory usage. Smaller blocks enable better streaming performance.",
	  r_block_size },
	{ "inferix.fps", "Inferix", "high", "Generation Speed", IX, 10,
	  "FPS < {t} (frames of distinct blocks / block compute time)",
	  "Current generation speed is below real-time requirements. Consider optimizing the model or reducing the computational load to achieve at least 16 FPS for smooth video generation.",
	  r_fps },
	{ "inferix.bps", "Inferix", "medium", "Block Processing", IX, 2,
	  "BPS < {t} (blocks / block compute time)",
	  "Current block processing speed is relatively slow. Consider optimizing block processing or using parallel processing to improve throughput.",
	  r_bps },
	{ "inferix.first_block", "Inferix", "medium", "Latency Optimization", IX, 1,
	  "first block compute time > {t} s (Inferix fires on any non-zero delay)",
	  "The time to generate the first video block is significant. Consider optimizing initialization or using smaller block sizes to reduce initial latency.",
	  r_first_block },
	{ "inferix.multi_gpu", "Inferix", "low", "Multi-GPU Scaling", IX, 1,
	  "world_size > {t} and GPU data present",
	  "For better scaling, experiment with different ulysses/ring combinations for your interconnect; scaling is not linear because of communication overhead.",
	  r_multi_gpu },
	{ "tensorboard.dataloader", "TensorBoard profiler", "high", "DataLoader", NULL,
	  0.05, /* graded */
	  "DataLoader time / step time > {t%} %",
	  "Increase DataLoader num_workers (and use pin_memory) so input loading overlaps computation.",
	  r_dataloader },
	{ "tensorboard.peak_memory", "TensorBoard profiler", "high", "GPU Memory", NULL, 90,
	  "peak reserved / deviceProperties.totalGlobalMem > {t} %",
	  "Use gradient checkpointing or automatic mixed precision to reduce memory.", r_hbm },
	{ "tensorboard.communication", "TensorBoard profiler", "medium", "Communication", NULL,
	  0.10, "NCCL kernel time / step time > {t%} %",
	  "Reduce communication: gradient accumulation, gradient compression, or larger buckets.",
	  r_comm },
	{ "tensorboard.gpu_utilization", "TensorBoard profiler", "medium", "GPU Utilization", NULL,
	  0.5, "GPU busy (kernel union) / active range < {t%} %",
	  "Increase the batch size or overlap input loading and host work with GPU work.",
	  r_gpu_busy },
	{ "nsys.gpu_gaps", "Nsight Systems", "medium", "GPU Idle", NULL, NAN,
	  "a GPU idle gap as the bottlenecks analysis counts them",
	  "Find the host work in the gap (synchronization, data loading, Python overhead) and overlap it with GPU work.",
	  r_gaps },
	{ "nsys.gpu_time_util", "Nsight Systems", "low", "GPU Utilization", NULL, NAN,
	  "a time chunk with low GPU utilization as the bottlenecks analysis counts them",
	  "Look at the low-utilization chunks of the timeline for serialization or host-bound regions.",
	  r_chunks },
	{ "nsys.cuda_api_sync", "Nsight Systems", "medium", "Synchronization", NULL, 0.01,
	  "synchronizing CUDA API calls > {t%} % of the run",
	  "Replace synchronous APIs with events / cudaStreamWaitEvent and asynchronous copies.",
	  r_sync },
	{ "nsys.cuda_memcpy_async", "Nsight Systems", "medium", "Memory Copies", NULL, 0,
	  "memcpy from/to pageable host memory (count > {t})",
	  "Use pinned (page-locked) host memory for asynchronous copies (pin_memory=True).",
	  r_pageable },
	{ "nsys.cuda_memcpy_sync", "Nsight Systems", "medium", "Synchronous Copies", NULL, 0.01,
	  "copies the host waits for (blocking copy APIs, or an async copy followed by a synchronize on its thread) inside steps > {t%} % of the step time",
	  "Avoid .item()/.cpu()/.tolist() and blocking copies in the step: keep values on the GPU, log them every N steps, or copy with non_blocking=True into pinned memory and synchronize once.",
	  r_sync_copy },
	{ "hta.comm_overlap", "Holistic Trace Analysis", "medium", "Communication Overlap", NULL,
	  0.5,
	  "communication kernels >= 5 % of the GPU span and overlapped by compute kernels < {t%} % of their time",
	  "Overlap communication with compute: DDP/FSDP bucketing and prefetch (bucket_cap_mb, backward_prefetch), a separate stream for collectives, fewer blocking waits on the comm stream.",
	  r_overlap },
	{ "hta.idle_host_wait", "Holistic Trace Analysis", "high", "GPU Idle (host wait)", NULL,
	  0.5, "GPU idle >= 10 % of its span and host wait > {t%} % of the idle time",
	  "The host launches work too late: cut per-step CPU work (data preparation, Python overhead), use larger batches, CUDA graphs or torch.compile to launch fewer, larger kernels.",
	  r_host_wait },
	{ "hta.short_kernels", "Holistic Trace Analysis", "medium", "Kernel Launches", NULL, 0.5,
	  "kernels shorter than their launch call > {t%} % of the linked kernels, with GPU idle >= 10 % of its span, mostly host wait",
	  "The run is launch-bound: fuse small kernels (torch.compile), capture the step in CUDA graphs, or raise the work per kernel (batch size).",
	  r_short_kernels },
	{ "profreport.fragmentation", "profreport", "medium", "Allocator Fragmentation", NULL, 0.30,
	  "mean (reserved - allocated) / reserved > {t%} %",
	  "Reduce fragmentation: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, fewer odd-sized temporaries, or empty_cache() between phases.",
	  r_frag },
	{ "profreport.leak", "profreport", "high", "Memory Leak", NULL, NAN,
	  "a leak as the leaks analysis decides",
	  "Look for tensors kept across iterations (losses accumulated with graph, caches, lists of outputs).",
	  r_leak },
	{ "profreport.memory_pressure", "profreport", "high", "Memory Pressure", NULL, NAN,
	  "a sample in the high pressure zone",
	  "The run is close to the memory limit: reduce batch size or free caches before the peak phase.",
	  r_pressure },
	{ "profreport.straggling_step", "profreport", "medium", "Step Time", NULL, NAN,
	  "a straggling step as the throughput analysis decides",
	  "Check what happened during the slow step (GC, checkpointing, data stalls, recompilation).",
	  r_straggler },
};

static int sev_rank(const char *s)
{
	return !strcmp(s, "high") ? 0 : !strcmp(s, "medium") ? 1 : 2;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *all = json_array(), *out = json_array();
	size_t i;
	int s;
	for (i = 0; i < PR_ARRAY_SIZE(rules); i++) {
		if (rules[i].collector && strcmp(ctx->collector, rules[i].collector))
			continue; /* a collector's advice is about its own runs */
		if (rules[i].eval(&rules[i], ctx, all, err)) {
			json_decref(all);
			json_decref(out);
			return -1;
		}
	}
	/* stable: by severity, then table order */
	for (s = 0; s < 3; s++) {
		json_t *v;
		json_array_foreach (all, i, v)
			if (sev_rank(json_string_value(json_object_get(v, "severity"))) == s)
				json_array_append(out, v);
	}
	json_decref(all);
	json_object_set_new(ctx->out, "recommendations", out);
	return 0;
}

const struct pr_analyzer pr_an_recommendations = {
	.name = "recommendations",
	.summary =
		"rule table (Inferix, TensorBoard profiler, Nsight Systems, profreport) with evidence",
	.run = run,
	.stage = PR_STAGE_LAST,
};
