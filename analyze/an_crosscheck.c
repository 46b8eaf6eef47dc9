/*
 * an_crosscheck.c - "crosscheck": where a collector reported a number,
 * show it next to the number recomputed from the data, whether they agree
 * (relative tolerance 0.5 %, or the collector's printed precision), and
 * when they differ, the reason FORMATS.md documents for that collector.
 * The recomputed numbers are what the analyzers before it published (results.h).
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/results.h"
#include "base/xalloc.h"

#define TOL 0.005

static void add(json_t *arr, const char *topic, double reported, double recomputed,
		const char *unit, double tol, const char *why)
{
	int agree;
	if (isnan(reported))
		return; /* the collector did not report it */
	agree = !isnan(reported) && !isnan(recomputed) &&
		fabs(reported - recomputed) <= tol * fmax(fabs(reported), fabs(recomputed)) + 1e-12;
	json_array_append_new(arr, pr_jobj("topic", json_string(topic), "reported",
					   pr_jnum(reported), "recomputed", pr_jnum(recomputed),
					   "unit", json_string(unit), "agree", json_boolean(agree),
					   "reason", agree ? json_null() : json_string(why), NULL));
}

static double metric(struct pr_actx *ctx, const char *name)
{
	double v = NAN;
	pr_actx_metric(ctx, name, &v);
	return v;
}

static double series_max(struct pr_actx *ctx, const char *name, const char *dev)
{
	struct pr_aseries *s = pr_actx_series(ctx, name, dev);
	return s && s->count ? s->max : NAN;
}

static double series_mean(struct pr_actx *ctx, const char *name, const char *dev)
{
	struct pr_aseries *s = pr_actx_series(ctx, name, dev);
	double sum = 0;
	size_t i;
	if (!s || !s->n)
		return NAN;
	for (i = 0; i < s->n; i++)
		sum += pr_aseries_v(s, i);
	return sum / (double)s->n;
}

static void inferix(struct pr_actx *ctx, json_t *arr, double energy_wh)
{
	const struct pr_results *res = pr_results(ctx);
	const struct pr_res_throughput *tp = &res->throughput;
	size_t i;
	double used = series_max(ctx, "gpu.mem.used", "all");
	struct pr_aseries *tot = pr_actx_series(ctx, "gpu.mem.total", "all");
	add(arr, "block FPS (block_analysis.fps)", metric(ctx, "block_analysis.fps"),
	    tp->blocks_fps, "frames/s", TOL, "recomputed from the block spans");
	add(arr, "block BPS (block_analysis.bps)", metric(ctx, "block_analysis.bps"),
	    tp->blocks_bps, "blocks/s", TOL, "recomputed from the block spans");
	add(arr, "diffusion FPS (diffusion_analysis.fps)", metric(ctx, "diffusion_analysis.fps"),
	    tp->diffusion_frames_per_s, "frames/s", TOL,
	    "Inferix sums block_size over every denoising step, so a block's frames count once per "
	    "step; recomputed = frames of distinct blocks / step compute time");
	add(arr, "diffusion BPS (diffusion_analysis.bps)", metric(ctx, "diffusion_analysis.bps"),
	    tp->diffusion_steps_per_s, "steps/s", TOL,
	    "Inferix's diffusion bps is steps per second");
	add(arr, "total energy (power_analysis.total_energy_wh)",
	    metric(ctx, "gpu_metrics.power_analysis.total_energy_wh"), energy_wh, "Wh", TOL,
	    "Inferix computes sum(power) * N * 0.5 s / 3600: the sample count multiplies again and "
	    "the interval is hardcoded; recomputed = sum(power) * mean interval / 3600");
	if (tot && tot->n && pr_actx_load(ctx, tot, &(struct pr_error)PR_ERROR_INIT) == 0 &&
	    pr_aseries_v(tot, 0) > 0)
		add(arr, "peak GPU memory utilization (summary.gpu.peak_memory_utilization)",
		    metric(ctx, "summary.gpu.peak_memory_utilization"),
		    used / pr_aseries_v(tot, 0) * 100, "%", TOL,
		    "recomputed = max(used) / first snapshot's total");
	add(arr, "average GPU utilization (summary.gpu.avg_gpu_utilization)",
	    metric(ctx, "summary.gpu.avg_gpu_utilization"), series_mean(ctx, "gpu.util", "all"),
	    "%", TOL, "recomputed = mean of the timeline's utilization");
	for (i = 0; i < res->phases.nstages; i++) {
		const struct pr_res_stage *v = &res->phases.stages[i];
		char topic[300];
		snprintf(topic, sizeof(topic), "stage '%s' share of time", v->name);
		add(arr, topic, pr_res_or0(v->reported_percentage),
		    pr_res_or0(v->share_of_wall) * 100, "%", TOL,
		    "Inferix divides by the sum of all stage totals, which counts nested stages "
		    "(run_inference around diffusion_block) twice; recomputed = stage total / session "
		    "wall time");
	}
}

/* QEff keys phase durations and deltas by name: compare with the name's last occurrence. */
static void qeff(struct pr_actx *ctx, json_t *arr)
{
	const struct pr_results *res = pr_results(ctx);
	const struct pr_res_phases *ph = &res->phases;
	size_t i, j;
	char key[400], topic[400];
	for (i = 0; i < ph->nocc; i++) {
		const char *name = ph->occ[i].name;
		const struct pr_res_phase_occ *last = NULL;
		double dur_s = NAN, delta = NAN;
		int dup = 0;
		for (j = 0; j < ph->nocc; j++) {
			if (!strcmp(ph->occ[j].name, name)) {
				if (j < i)
					goto next; /* handled at the first occurrence */
				dup += last != NULL;
				last = &ph->occ[j];
			}
		}
		dur_s = pr_res_or0(last->dur_ns) / 1e9;
		if (!isnan(last->rss_delta))
			delta = last->rss_delta / 1048576.0;
		snprintf(key, sizeof(key), "qeff.phase_duration_s.%s", name);
		snprintf(topic, sizeof(topic), "phase '%s' duration%s", name,
			 dup ? " (last occurrence)" : "");
		add(arr, topic, metric(ctx, key), dur_s, "s", TOL,
		    "QEff keys durations by name: a repeated phase reports its last occurrence");
		snprintf(key, sizeof(key), "qeff.phase_delta_mb.%s", name);
		snprintf(topic, sizeof(topic), "phase '%s' RSS delta%s", name,
			 dup ? " (last occurrence)" : "");
		add(arr, topic, metric(ctx, key), delta, "MiB", 0.01,
		    "QEff estimates the phase's first sample as duration/sampling_interval samples back; "
		    "the real period is longer, so its delta starts inside the previous phase; "
		    "recomputed = the phase's last RSS sample - the last one before the phase");
	next:;
	}
	for (i = 0; i < res->peaks.n; i++)
		if (!strcmp(res->peaks.v[i].series, "mem.rss"))
			add(arr, "peak RSS (qeff.peak_rss_mb)", metric(ctx, "qeff.peak_rss_mb"),
			    pr_res_or0(res->peaks.v[i].value) / 1048576.0, "MiB", 1e-6,
			    "recomputed = max of the RSS samples");
}

static void diffulex(struct pr_actx *ctx, json_t *arr)
{
	const struct pr_res_throughput *tp = &pr_results(ctx)->throughput;
	size_t i;
	add(arr, "average throughput (summary.avg_throughput_tokens_per_sec)",
	    metric(ctx, "summary.avg_throughput"), tp->tokens_per_s, "tokens/s", TOL,
	    "Diffulex divides all tokens by the duration of all sections, including those without "
	    "tokens; recomputed over the sections that have tokens");
	for (i = 0; i < tp->nsections; i++) {
		const struct pr_res_token_section *v = &tp->sections[i];
		char topic[300];
		if (isnan(v->tokens_per_s))
			continue;
		snprintf(topic, sizeof(topic), "section '%s' throughput", v->section);
		add(arr, topic, pr_res_or0(v->reported_tokens_per_s), v->tokens_per_s, "tokens/s",
		    TOL,
		    "Diffulex divides by the duration passed to record_throughput() (0 when it was "
		    "called inside the section), not by the section's duration");
	}
}

static void memtracer(struct pr_actx *ctx, json_t *arr)
{
	const struct pr_res_fragmentation *fr = &pr_results(ctx)->fragmentation;
	add(arr, "peak allocated (summary.peak_allocated_mb)",
	    metric(ctx, "summary.peak_allocated"), series_max(ctx, "dev.mem.allocated", NULL),
	    "bytes", 1e-6, "recomputed from the events");
	add(arr, "peak reserved (summary.peak_reserved_mb)", metric(ctx, "summary.peak_reserved"),
	    series_max(ctx, "dev.mem.reserved", NULL), "bytes", 1e-6, "recomputed from the events");
	if (fr->n)
		add(arr, "average fragmentation (summary.avg_fragmentation)",
		    metric(ctx, "summary.avg_fragmentation"), pr_res_or0(fr->v[0].mean_ratio) * 100,
		    "%", TOL,
		    "MemoryTracer 6176cc5+ writes inactive_split / reserved (not in the file); "
		    "recomputed = (reserved - allocated) / reserved, the README's formula");
}

/* QNN: the host summary prints "Peak process RSS memory: 0 MB" from columns that are always 0. */
static void qnn(struct pr_actx *ctx, json_t *arr)
{
	sqlite3_stmt *st;
	struct pr_error ignore = PR_ERROR_INIT;
	int zero = 0;
	if (pr_actx_prep(
		    ctx,
		    "SELECT count(*) FROM diag WHERE run_id = ?1 AND code = 'qnn_proc_columns_zero'",
		    &st, &ignore))
		return;
	if (sqlite3_step(st) == SQLITE_ROW)
		zero = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	if (zero) {
		add(arr, "peak process RSS (host summary)", 0, NAN, "MiB", TOL,
		    "proc_rss_kb is 0 in every row: monitor_memory.sh forks the sampler before "
		    "INFERENCE_PID is set, so no process memory was recorded (absent, not 0)");
		add(arr, "peak process VSS (host summary)", 0, NAN, "MiB", TOL,
		    "proc_vss_kb is 0 in every row, for the same reason");
	}
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	json_t *arr = json_array();
	double e = NAN;
	sqlite3_stmt *st;
	int rc;
	json_object_set_new(ctx->out, "crosscheck", arr);
	/* derived metrics stored at ingest (e.g. Inferix's corrected energy) */
	if (pr_actx_prep(ctx,
			 "SELECT value FROM metric WHERE run_id = ?1 AND origin = 'derived' AND "
			 "name = 'gpu_metrics.power_analysis.total_energy'",
			 &st, err))
		return -1;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		e = sqlite3_column_double(st, 0);
	if (pr_actx_done(ctx, st, rc, err))
		return -1;
	if (!isfinite(e))
		e = NAN;
	if (!strcmp(ctx->collector, "inferix"))
		inferix(ctx, arr, e);
	else if (!strcmp(ctx->collector, "qeff-memory-profiler"))
		qeff(ctx, arr);
	else if (!strcmp(ctx->collector, "diffulex"))
		diffulex(ctx, arr);
	else if (!strcmp(ctx->collector, "qnn-memory-monitor"))
		qnn(ctx, arr);
	else if (!strcmp(ctx->collector, "gpu_optimizer.MemoryTracer") &&
		 !strcmp(ctx->format, "memtracer"))
		memtracer(ctx, arr);
	return 0;
}

const struct pr_analyzer pr_an_crosscheck = {
	.name = "crosscheck",
	.summary =
		"collector-reported numbers next to recomputed ones, with the documented reason for each difference",
	.run = run,
	.stage = PR_STAGE_LAST,
};
