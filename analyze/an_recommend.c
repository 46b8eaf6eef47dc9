/*
 * an_recommend.c - "recommendations": a rule table (id, source, severity,
 * category, condition with its threshold, message, suggestion, evidence).
 * Rules read the sections the other analyzers wrote (and the store for
 * span-name rules). A rule whose data is absent does not fire: Inferix
 * says "GPU utilization 0 %" on a machine without a GPU; we do not.
 * README "Recommendations" lists the table; ids are stable.
 */
#include <math.h>
#include <stdarg.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/model.h"

struct rule {
	const char *id, *source, *severity, *category, *condition, *suggestion;
	int (*eval)(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err);
};

static json_t *sec(struct pr_actx *ctx, const char *a, const char *b)
{
	json_t *o = json_object_get(ctx->out, a);
	return b ? json_object_get(o, b) : o;
}

static void fire(const struct rule *r, json_t *out, json_t *evidence, const char *fmt, ...)
	PR_PRINTF_LIKE(4, 5);

static void fire(const struct rule *r, json_t *out, json_t *evidence, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_array_append_new(out, pr_jobj("id", json_string(r->id), "source", json_string(r->source),
					   "severity", json_string(r->severity), "category",
					   json_string(r->category), "message", json_string(msg),
					   "suggestion", json_string(r->suggestion), "rule",
					   json_string(r->condition), "evidence", evidence, NULL));
}

/* A pressure item of the given series name / basis prefix over the threshold. */
static int pressure_rule(const struct rule *r, struct pr_actx *ctx, json_t *out, const char *series,
			 const char *basis, double threshold)
{
	json_t *v;
	size_t i;
	json_array_foreach(json_object_get(sec(ctx, "bottlenecks", "memory_pressure"), "items"), i, v)
	{
		double p = pr_mnum(v, "peak_pct");
		const char *s = json_string_value(json_object_get(v, "series"));
		const char *b = json_string_value(json_object_get(v, "basis"));
		if ((series && strcmp(s, series)) || (basis && strncmp(b, basis, strlen(basis))))
			continue;
		if (p > threshold || (threshold == 85 && p >= 85))
			fire(r, out, json_deep_copy(v), "Peak %s%s%s is %.1f%% of %s", s,
			     *json_string_value(json_object_get(v, "device")) ? " on " : "",
			     json_string_value(json_object_get(v, "device")), p, "the total");
	}
	return 0;
}

static int r_gpu_mem(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	(void)err;
	return pressure_rule(r, ctx, out, "gpu.mem.used", NULL, 90);
}

static int r_hbm(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	(void)err;
	return pressure_rule(r, ctx, out, "dev.mem.reserved", "reserved / deviceProperties", 90);
}

static int r_pressure(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	(void)err;
	return pressure_rule(r, ctx, out, NULL, NULL, 85);
}

/* GPU data is real when some total or utilisation is non-zero. */
static int gpu_present(struct pr_actx *ctx)
{
	size_t i;
	for (i = 0; i < ctx->nseries; i++)
		if ((!strcmp(ctx->series[i].name, "gpu.mem.total") || !strcmp(ctx->series[i].name, "gpu.util") ||
		     !strcmp(ctx->series[i].name, "gpu.mem.used")) &&
		    ctx->series[i].count && ctx->series[i].max > 0)
			return 1;
	return 0;
}

static int r_gpu_util(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *v;
	size_t i;
	(void)err;
	if (!gpu_present(ctx))
		return 0;
	json_array_foreach(sec(ctx, "bottlenecks", "gpu_util"), i, v)
		if (pr_mnum(v, "mean_pct") < 50)
			fire(r, out, json_deep_copy(v), "Average GPU utilization is only %.1f%% (%s)",
			     pr_mnum(v, "mean_pct"), json_string_value(json_object_get(v, "device")));
	return 0;
}

static int r_stage(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *v;
	size_t i;
	(void)err;
	json_array_foreach(json_object_get(sec(ctx, "bottlenecks", "stages"), "items"), i, v)
	{
		const char *name = json_string_value(json_object_get(v, "name"));
		if (i >= 3)
			break;
		fire(r, out, json_deep_copy(v), "Stage '%s' takes %.1f%% of total time", name,
		     pr_mnum(v, "share") * 100);
	}
	return 0;
}

static int r_thermal(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	size_t i;
	(void)err;
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		if (!strcmp(s->name, "gpu.temp") && s->count && s->max > 85)
			fire(r, out, pr_jobj("series", json_string(s->name), "device", json_string(s->device),
					     "max", pr_jnum(s->max), "threshold", pr_jnum(85), NULL),
			     "Peak GPU temperature is %.1f\xc2\xb0" "C (%s)", s->max, s->device);
	}
	return 0;
}

static int r_drop(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double v;
	(void)err;
	if (pr_actx_metric(ctx, "streaming_analysis.drop_rate_percent", &v) && v > 5)
		fire(r, out, pr_jobj("drop_rate_percent", pr_jnum(v), "threshold", pr_jnum(5), NULL),
		     "High frame drop rate: %.1f%%", v);
	return 0;
}

static int r_layer(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc, k = 0;
	if (pr_actx_prep(ctx,
			 "WITH l AS (SELECT substr(name, 40, length(name) - 50) AS layer, value FROM metric "
			 "WHERE run_id = ?1 AND origin = 'reported' AND name LIKE "
			 "'computation_analysis.layer_performance.%.total_time') "
			 "SELECT layer, value, value * 100.0 / (SELECT sum(value) FROM l) AS pct FROM l "
			 "WHERE value * 100.0 / (SELECT sum(value) FROM l) > 30 ORDER BY pct DESC, layer",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && k++ < 3)
		fire(r, out,
		     pr_jobj("layer", json_string(pr_actx_text(st, 0)), "total_ns",
			     pr_jnum(sqlite3_column_double(st, 1)), "percent",
			     pr_jnum(sqlite3_column_double(st, 2)), "threshold", pr_jnum(30), NULL),
		     "Layer '%s' takes %.1f%% of total computation time", pr_actx_text(st, 0),
		     sqlite3_column_double(st, 2));
	return pr_actx_done(ctx, st, rc, err);
}

static int r_steps(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double n = pr_mnum(sec(ctx, "throughput", "diffusion"), "steps");
	(void)err;
	if (n > 30)
		fire(r, out, pr_jobj("steps", pr_jnum(n), "threshold", pr_jnum(30), NULL),
		     "Using %.0f diffusion steps", n);
	return 0;
}

static int r_block_size(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *b = sec(ctx, "throughput", "blocks");
	double avg = pr_mnum(b, "frames") / pr_mnum(b, "count");
	(void)err;
	if (avg > 8)
		fire(r, out, pr_jobj("avg_block_size", pr_jnum(avg), "threshold", pr_jnum(8), NULL),
		     "Average block size is %.1f frames", avg);
	return 0;
}

static int r_fps(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double v = pr_mnum(sec(ctx, "throughput", "blocks"), "fps");
	(void)err;
	if (v < 10)
		fire(r, out, pr_jobj("fps", pr_jnum(v), "threshold", pr_jnum(10), "basis",
				     json_string("frames of block_computation / block compute time"), NULL),
		     "Current FPS is %.1f", v);
	return 0;
}

static int r_bps(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double v = pr_mnum(sec(ctx, "throughput", "blocks"), "bps");
	(void)err;
	if (v < 2)
		fire(r, out, pr_jobj("bps", pr_jnum(v), "threshold", pr_jnum(2), NULL),
		     "Current BPS is %.1f", v);
	return 0;
}

static int r_first_block(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double v = pr_mnum(sec(ctx, "throughput", "blocks"), "first_block_ns") / 1e9;
	(void)err;
	if (v > 1.0)
		fire(r, out, pr_jobj("first_block_s", pr_jnum(v), "threshold_s", pr_jnum(1), NULL),
		     "First-block delay is %.2f seconds", v);
	return 0;
}

static int r_multi_gpu(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *ws = json_object_get(ctx->out, "world_size");
	(void)err;
	if (strcmp(ctx->collector, "inferix"))
		return 0; /* Inferix's own advice, about its parallel strategies */
	if (json_is_integer(ws) && json_integer_value(ws) > 1)
		fire(r, out, pr_jobj("world_size", json_incref(ws), NULL), "Using %lld GPUs",
		     (long long)json_integer_value(ws));
	return 0;
}

/* Time of spans whose name matches `like`, starting inside a step / total step time. */
static int step_share(struct pr_actx *ctx, const char *like, const char *kinds, double *share,
		      double *ns, struct pr_error *err)
{
	char sql[800];
	sqlite3_stmt *st;
	int rc;
	double steps = 0;
	size_t i;
	for (i = 0; i < ctx->nsteps; i++)
		steps += (double)ctx->steps[i].dur;
	*share = NAN;
	*ns = 0;
	if (steps <= 0)
		return 0;
	snprintf(sql, sizeof(sql),
		 "SELECT s.ts, s.dur FROM span s WHERE s.run_id = ?1 AND s.kind IN (%s) AND "
		 "s.name_id IN (SELECT id FROM string WHERE value LIKE ?2)",
		 kinds);
	if (pr_actx_prep(ctx, sql, &st, err))
		return -1;
	sqlite3_bind_text(st, 2, like, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (pr_actx_step_index(ctx, sqlite3_column_int64(st, 0)) >= 0)
			*ns += (double)sqlite3_column_int64(st, 1);
	*share = *ns / steps;
	return pr_actx_done(ctx, st, rc, err);
}

static int r_dataloader(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double share, ns = 0;
	if (step_share(ctx, "enumerate(DataLoader)%", "'op', 'phase', 'slice'", &share, &ns, err))
		return -1;
	if (share > 0.05)
		fire(r, out, pr_jobj("dataloader_ns", pr_jnum(ns), "share_of_step", pr_jnum(share),
				     "threshold", pr_jnum(0.05), NULL),
		     "DataLoader takes %.1f%% of the step time", share * 100);
	return 0;
}

static int r_comm(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double share, ns = 0;
	if (step_share(ctx, "%nccl%", "'kernel'", &share, &ns, err))
		return -1;
	if (share > 0.10)
		fire(r, out, pr_jobj("communication_ns", pr_jnum(ns), "share_of_step", pr_jnum(share),
				     "threshold", pr_jnum(0.10), NULL),
		     "Communication (NCCL kernels) takes %.1f%% of the step time", share * 100);
	return 0;
}

static int r_gpu_busy(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *k = sec(ctx, "bottlenecks", "gpu_kernels");
	double idle = pr_mnum(k, "idle_share");
	(void)err;
	if (idle > 0.5)
		fire(r, out, json_deep_copy(k), "The GPU is busy only %.1f%% of its active time",
		     (1 - idle) * 100);
	return 0;
}

static int r_gaps(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *k = sec(ctx, "bottlenecks", "gpu_kernels");
	(void)err;
	if (pr_mnum(k, "gaps_over_500ms") > 0)
		fire(r, out, pr_jobj("gaps", json_incref(json_object_get(k, "gaps_over_500ms")),
				     "max_gap_ns", json_incref(json_object_get(k, "max_gap_ns")), NULL),
		     "%.0f GPU idle gap(s) longer than 500 ms", pr_mnum(k, "gaps_over_500ms"));
	return 0;
}

static int r_chunks(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *k = sec(ctx, "bottlenecks", "gpu_kernels");
	(void)err;
	if (pr_mnum(k, "chunks_under_50pct") > 0)
		fire(r, out, pr_jobj("chunks", pr_jint(30), "under_50pct",
				     json_incref(json_object_get(k, "chunks_under_50pct")), NULL),
		     "%.0f of 30 time chunks have GPU utilization under 50%%",
		     pr_mnum(k, "chunks_under_50pct"));
	return 0;
}

static int count_spans(struct pr_actx *ctx, const char *where, double *count, double *ns,
		       struct pr_error *err)
{
	char sql[600];
	sqlite3_stmt *st;
	int rc;
	snprintf(sql, sizeof(sql),
		 "SELECT count(*), total(s.dur) FROM span s JOIN string n ON n.id = s.name_id "
		 "WHERE s.run_id = ?1 AND %s",
		 where);
	if (pr_actx_prep(ctx, sql, &st, err))
		return -1;
	*count = *ns = 0;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*count = sqlite3_column_double(st, 0);
		*ns = sqlite3_column_double(st, 1);
	}
	return pr_actx_done(ctx, st, rc, err);
}

static int r_sync(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double c, ns;
	if (count_spans(ctx,
			"s.kind = 'runtime' AND n.value IN ('cudaDeviceSynchronize', "
			"'cudaStreamSynchronize', 'cudaMemcpy', 'cudaMemset', 'cudaEventSynchronize')",
			&c, &ns, err))
		return -1;
	if (c > 0 && ctx->dur > 0 && ns / (double)ctx->dur > 0.01)
		fire(r, out, pr_jobj("calls", pr_jnum(c), "total_ns", pr_jnum(ns), "share_of_run",
				     pr_jnum(ns / (double)ctx->dur), "threshold", pr_jnum(0.01), NULL),
		     "%.0f synchronizing CUDA API call(s) block the host for %.1f%% of the run", c,
		     ns / (double)ctx->dur * 100);
	return 0;
}

static int r_pageable(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	double c, ns;
	if (count_spans(ctx, "s.kind = 'memcpy' AND n.value LIKE '%Pageable%'", &c, &ns, err))
		return -1;
	if (c > 0)
		fire(r, out, pr_jobj("memcpys", pr_jnum(c), "total_ns", pr_jnum(ns), NULL),
		     "%.0f memory copies use pageable host memory", c);
	return 0;
}

static int r_frag(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *v;
	size_t i;
	(void)err;
	json_array_foreach(json_object_get(ctx->out, "fragmentation"), i, v)
		if (pr_mnum(v, "mean_ratio") > 0.30)
			fire(r, out,
			     pr_jobj("device", json_incref(json_object_get(v, "device")), "mean_ratio",
				     json_incref(json_object_get(v, "mean_ratio")), "max_gap",
				     json_incref(json_object_get(v, "max_gap")), "threshold",
				     pr_jnum(0.30), NULL),
			     "Allocator fragmentation averages %.1f%% on %s", pr_mnum(v, "mean_ratio") * 100,
			     json_string_value(json_object_get(v, "device")));
	return 0;
}

static int r_leak(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *v;
	size_t i;
	(void)err;
	json_array_foreach(json_object_get(sec(ctx, "leaks", NULL), "items"), i, v)
		if (json_is_true(json_object_get(v, "leak")))
			fire(r, out, json_deep_copy(v), "%s grows by %.0f bytes per %s occurrence (R^2 %.2f)",
			     json_string_value(json_object_get(v, "series")), pr_mnum(v, "slope_per_occurrence"),
			     json_string_value(json_object_get(v, "basis")), pr_mnum(v, "r2"));
	return 0;
}

static int r_straggler(const struct rule *r, struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	json_t *s = sec(ctx, "throughput", "steps");
	json_t *st = json_object_get(s, "stragglers");
	(void)err;
	if (json_array_size(st))
		fire(r, out, pr_jobj("stragglers", json_deep_copy(st), "median_ns",
				     json_incref(json_object_get(s, "p50_ns")), NULL),
		     "%zu straggling step(s); the slowest is %.1fx the median", json_array_size(st),
		     pr_mnum(json_array_get(st, 0), "x_median"));
	return 0;
}

static const struct rule rules[] = {
	{ "inferix.gpu_memory", "Inferix", "high", "GPU Memory", "peak GPU memory used / total > 90 %",
	  "Consider reducing batch size, enabling gradient checkpointing, or using mixed precision training to reduce memory usage.",
	  r_gpu_mem },
	{ "inferix.gpu_utilization", "Inferix", "medium", "GPU Utilization",
	  "mean GPU utilization < 50 % (only when GPU data is present and non-zero)",
	  "Consider increasing batch size, optimizing data loading, or reducing CPU bottlenecks to better utilize GPU.",
	  r_gpu_util },
	{ "inferix.stage", "Inferix", "high", "Performance Bottleneck",
	  "stage time / wall time > 30 % (top 3)", "Focus optimization efforts on this stage as it's a major bottleneck.",
	  r_stage },
	{ "inferix.thermal", "Inferix", "high", "Thermal Management", "peak GPU temperature > 85 C",
	  "GPU temperature is high and may cause thermal throttling. Improve cooling or reduce GPU load.",
	  r_thermal },
	{ "inferix.frame_drops", "Inferix", "high", "Streaming Performance", "streaming drop rate > 5 %",
	  "Reduce encoding complexity or improve network bandwidth to maintain streaming quality.", r_drop },
	{ "inferix.layer", "Inferix", "high", "Computation Bottleneck",
	  "layer time / all layer time > 30 % (top 3)",
	  "Consider optimizing this layer's computation or redistributing workload.", r_layer },
	{ "inferix.diffusion_steps", "Inferix", "high", "Diffusion Steps", "diffusion steps > 30",
	  "Consider reducing steps to 20-30 to improve generation speed.", r_steps },
	{ "inferix.block_size", "Inferix", "medium", "Block Size", "mean block size > 8 frames",
	  "Consider reducing block size to improve latency and memory usage. Smaller blocks enable better streaming performance.",
	  r_block_size },
	{ "inferix.fps", "Inferix", "high", "Generation Speed",
	  "FPS < 10 (frames of distinct blocks / block compute time)",
	  "Current generation speed is below real-time requirements. Consider optimizing the model or reducing the computational load to achieve at least 16 FPS for smooth video generation.",
	  r_fps },
	{ "inferix.bps", "Inferix", "medium", "Block Processing", "BPS < 2 (blocks / block compute time)",
	  "Current block processing speed is relatively slow. Consider optimizing block processing or using parallel processing to improve throughput.",
	  r_bps },
	{ "inferix.first_block", "Inferix", "medium", "Latency Optimization",
	  "first block compute time > 1 s (Inferix fires on any non-zero delay)",
	  "The time to generate the first video block is significant. Consider optimizing initialization or using smaller block sizes to reduce initial latency.",
	  r_first_block },
	{ "inferix.multi_gpu", "Inferix", "low", "Multi-GPU Scaling", "world_size > 1",
	  "For better scaling, experiment with different ulysses/ring combinations for your interconnect; scaling is not linear because of communication overhead.",
	  r_multi_gpu },
	{ "tensorboard.dataloader", "TensorBoard profiler", "high", "DataLoader",
	  "DataLoader time / step time > 5 %",
	  "Increase DataLoader num_workers (and use pin_memory) so input loading overlaps computation.",
	  r_dataloader },
	{ "tensorboard.peak_memory", "TensorBoard profiler", "high", "GPU Memory",
	  "peak reserved / deviceProperties.totalGlobalMem > 90 %",
	  "Use gradient checkpointing or automatic mixed precision to reduce memory.", r_hbm },
	{ "tensorboard.communication", "TensorBoard profiler", "medium", "Communication",
	  "NCCL kernel time / step time > 10 %",
	  "Reduce communication: gradient accumulation, gradient compression, or larger buckets.", r_comm },
	{ "tensorboard.gpu_utilization", "TensorBoard profiler", "medium", "GPU Utilization",
	  "GPU busy (kernel union) / active range < 50 %",
	  "Increase the batch size or overlap input loading and host work with GPU work.", r_gpu_busy },
	{ "nsys.gpu_gaps", "Nsight Systems", "medium", "GPU Idle", "GPU idle gap > 500 ms",
	  "Find the host work in the gap (synchronization, data loading, Python overhead) and overlap it with GPU work.",
	  r_gaps },
	{ "nsys.gpu_time_util", "Nsight Systems", "low", "GPU Utilization",
	  "any of 30 equal time chunks with GPU busy < 50 %",
	  "Look at the low-utilization chunks of the timeline for serialization or host-bound regions.",
	  r_chunks },
	{ "nsys.cuda_api_sync", "Nsight Systems", "medium", "Synchronization",
	  "synchronizing CUDA API calls > 1 % of the run",
	  "Replace synchronous APIs with events / cudaStreamWaitEvent and asynchronous copies.", r_sync },
	{ "nsys.cuda_memcpy_async", "Nsight Systems", "medium", "Memory Copies",
	  "memcpy from/to pageable host memory",
	  "Use pinned (page-locked) host memory for asynchronous copies (pin_memory=True).", r_pageable },
	{ "profreport.fragmentation", "profreport", "medium", "Allocator Fragmentation",
	  "mean (reserved - allocated) / reserved > 30 %",
	  "Reduce fragmentation: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, fewer odd-sized temporaries, or empty_cache() between phases.",
	  r_frag },
	{ "profreport.leak", "profreport", "high", "Memory Leak",
	  "memory held at the end of each step/repeated phase grows (slope > 0, R^2 >= 0.8, growth > max(1 MiB, 1 % of peak))",
	  "Look for tensors kept across iterations (losses accumulated with graph, caches, lists of outputs).",
	  r_leak },
	{ "profreport.memory_pressure", "profreport", "high", "Memory Pressure", "peak used / total >= 85 %",
	  "The run is close to the memory limit: reduce batch size or free caches before the peak phase.",
	  r_pressure },
	{ "profreport.straggling_step", "profreport", "medium", "Step Time",
	  "a step with modified z-score > 3.5 and > 1.5 x the median step time",
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
	for (i = 0; i < PR_ARRAY_SIZE(rules); i++)
		if (rules[i].eval(&rules[i], ctx, all, err)) {
			json_decref(all);
			json_decref(out);
			return -1;
		}
	/* stable: by severity, then table order */
	for (s = 0; s < 3; s++) {
		json_t *v;
		json_array_foreach(all, i, v)
			if (sev_rank(json_string_value(json_object_get(v, "severity"))) == s)
				json_array_append(out, v);
	}
	json_decref(all);
	json_object_set_new(ctx->out, "recommendations", out);
	return 0;
}

const struct pr_analyzer pr_an_recommendations = {
	.name = "recommendations",
	.summary = "rule table (Inferix, TensorBoard profiler, Nsight Systems, profreport) with evidence",
	.run = run,
};
