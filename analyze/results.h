/*
 * results.h - what an analyzer publishes for the analyzers after it (internal
 * to analyze/): small structs in the analysis context, read as C instead of
 * by key look-ups in the model being built.
 *
 *   producer, at the end of its run function (a "publish" block):
 *     struct pr_res_throughput *t = &pr_results(ctx)->throughput;
 *     t->blocks_fps = pr_mnum(blocks, "fps");      (the number it just wrote)
 *   consumer (a later stage, or later in the list of the same stage):
 *     const struct pr_results *res = pr_results(ctx);
 *     if (res->throughput.blocks_fps < 10) ...
 *
 * RULES:
 *  - A number is the one the producer wrote in its section, exactly: NAN where
 *    the JSON has null or no key (pr_mnum's reading). A consumer that used to
 *    read json_number_value (0 for null) says so with pr_res_or0. pr_jnum(x)
 *    gives back the JSON value for a key the producer always writes with
 *    pr_jnum or pr_jint.
 *  - Strings are "" where the JSON has none (pr_mstr's reading). Strings and
 *    the json_t pointers (kept only for evidence copied whole into another
 *    section) are borrowed from the run's model (ctx->out): valid while it is
 *    built.
 *  - Every result starts absent (present = 0, numbers NAN, no items) until its
 *    producer publishes it: a consumer reads an analyzer that did not run as
 *    it read a missing section.
 *  - Arrays hold what the JSON lists (capped where the section caps them), in
 *    its order. pr_results_free releases them (model.c, with the context).
 * tests/unit/test_results.c checks that each struct carries the numbers its
 * section has. docs/development.md "Adding an analyzer" shows the pattern.
 */
#ifndef PR_RESULTS_H
#define PR_RESULTS_H

#include <stddef.h>

#include <jansson.h>

struct pr_actx;

/* phases (an_phases.c) */
struct pr_res_phase_occ {
	const char *name;
	double dur_ns;
	double rss_delta; /* the last mem.rss item of its "memory": delta (0 for null); NAN: none */
};
struct pr_res_stage { /* "stages": Inferix's stages */
	const char *name;
	double reported_percentage, share_of_wall, total_ns;
};
struct pr_res_phase_total { /* "totals": per name */
	const char *name;
	double share, union_ns;
};
struct pr_res_phases {
	int present;
	struct pr_res_phase_occ *occ; /* "occurrences" */
	size_t nocc;
	struct pr_res_phase_total *totals;
	size_t ntotals;
	struct pr_res_stage *stages;
	size_t nstages;
};

/* peaks (an_peaks.c) */
struct pr_res_peak {
	const char *series;
	double value;
};
struct pr_res_peaks {
	int present;
	struct pr_res_peak *v;
	size_t n;
};

/* fragmentation (an_fragmentation.c) */
struct pr_res_frag {
	const char *device;
	double mean_ratio, max_gap;
};
struct pr_res_fragmentation {
	int present;
	struct pr_res_frag *v;
	size_t n;
};

/* throughput (an_throughput.c) */
struct pr_res_token_section {
	const char *section;
	double tokens_per_s, reported_tokens_per_s;
};
struct pr_res_throughput {
	int present;
	/* "blocks" */
	double blocks_count, blocks_frames, blocks_first_ns, blocks_fps, blocks_bps;
	/* "diffusion" */
	double diffusion_steps, diffusion_steps_per_s, diffusion_frames_per_s;
	/* "tokens" */
	double tokens_per_s;
	struct pr_res_token_section *sections;
	size_t nsections;
	/* "steps": its rule, median and stragglers (x_median[i] of stragglers[i]) */
	const char *steps_rule;
	double steps_p50_ns;
	const json_t *stragglers; /* the array, for evidence copied whole; NULL: none */
	double *x_median;
	size_t nstragglers;
};

/* bottlenecks (an_bottlenecks.c) */
struct pr_res_pressure { /* "memory_pressure" items */
	const char *series, *device, *basis;
	double peak_pct, zone_high;
	const json_t *json; /* the item, for evidence */
};
struct pr_res_gpu_util { /* "gpu_util" */
	const char *device;
	double mean_pct;
	const json_t *json;
};
struct pr_res_stage_item { /* "stages" items */
	const char *name, *source;
	double share;
	const json_t *json;
};
struct pr_res_bottlenecks {
	int present;
	const char *pressure_zones;
	struct pr_res_pressure *pressure;
	size_t npressure;
	struct pr_res_gpu_util *gpu_util;
	size_t ngpu_util;
	const char *stages_rule, *stages_basis;
	struct pr_res_stage_item *stages;
	size_t nstages;
	/* "gpu_kernels" (json NULL: none) */
	const json_t *gpu_kernels;
	const char *gpu_kernels_rule;
	double idle_share, gaps_over_500ms, max_gap_ns, chunks, chunks_under_50pct;
};

/* gpu_breakdown and step_breakdown (an_gpubreak.c) */
struct pr_res_gpubreak {
	int present; /* "gpu_breakdown" */
	double rank_communication_share, rank_idle_share;
	const char *overlap_rule;
	double overlap_share, overlap_communication_ns, overlap_overlapped_ns;
	const char *idle_rule;
	double idle_host_wait_share, idle_host_wait_ns, idle_kernel_wait_share;
	int step_average; /* "step_breakdown" has "average": the per-step means below */
	double step_dur_ns, step_kernel_ns, step_memcpy_ns, step_dataloader_ns,
		step_communication_ns;
};

/* gpu (an_gpulink.c) */
struct pr_res_gpulink {
	int present; /* "gpu" */
	/* launches.short_kernels */
	const char *short_rule;
	double short_kernels, short_of_linked, short_device_ns, short_launch_ns;
};

/* leaks (an_leaks.c) */
struct pr_res_leak {
	const char *series, *device, *scope, *basis;
	int leak;
	double occurrences, slope_per_occurrence, r2, growth, min, max, values_omitted;
	const json_t *values;
};
struct pr_res_leaks {
	int present;
	const char *rule;
	struct pr_res_leak *v;
	size_t n;
};

struct pr_results {
	struct pr_res_phases phases;
	struct pr_res_peaks peaks;
	struct pr_res_fragmentation fragmentation;
	struct pr_res_throughput throughput;
	struct pr_res_bottlenecks bottlenecks;
	struct pr_res_gpubreak gpubreak;
	struct pr_res_gpulink gpulink;
	struct pr_res_leaks leaks;
};

/* The run's results, made (every one absent) on first use. */
struct pr_results *pr_results(struct pr_actx *ctx);
void pr_results_free(struct pr_results *r);

/* A published number as json_number_value read it: 0 for NAN. */
static inline double pr_res_or0(double v)
{
	return v == v ? v : 0;
}

/* An array of n items of size each, for a producer's publish block (zeroed; freed by
 * pr_results_free). */
void *pr_res_array(size_t n, size_t size);

#endif
