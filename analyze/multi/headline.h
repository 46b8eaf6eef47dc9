/*
 * headline.h - a run's headline metrics, read from its object of the
 * analysis model: what `metrics` exports and `changes` follows over a
 * store's history (docs/compare.md, "History").
 *
 *   step_time     s         throughput.steps.p50_ns (lower/upper: min_ns, max_ns)
 *   steps_per_s   1/s       throughput.steps.per_s
 *   tokens_per_s  tokens/s  throughput.tokens.tokens_per_s
 *   fps           frames/s  throughput.blocks.fps
 *   gpu_busy      ratio     gpu_breakdown.rank.busy_share, else
 *                           bottlenecks.gpu_kernels busy_ns / active_ns, else the
 *                           mean of bottlenecks.gpu_util[].mean_pct / 100
 *   peak_memory   bytes     the peak of primary_series (peaks[] of that series and device)
 *   duration      s         clock.duration_ns (not when the x axis is not time)
 *
 * A metric the run has not (no steps, no GPU) is left out.
 */
#ifndef PR_HEADLINE_H
#define PR_HEADLINE_H

#include <stddef.h>

#include <jansson.h>

#define PR_HEADLINE_MAX 7

struct pr_headline_def {
	const char *name;    /* step_time, ... */
	const char *unit;    /* s, 1/s, tokens/s, frames/s, ratio, bytes */
	const char *om_name; /* OpenMetrics family name (profreport_step_time_seconds) */
	const char *om_unit; /* its # UNIT, or NULL */
	const char *help;
	int better; /* -1: lower is better, +1: higher is better */
};

struct pr_headline {
	const struct pr_headline_def *def;
	double value;
	int has_bounds; /* lower and upper set (step_time: the fastest and slowest step) */
	double lower, upper;
	const char *series; /* peak_memory: the series' name (borrowed from the run), else NULL */
};

/* The definitions, in the order above; *n receives their count. */
const struct pr_headline_def *pr_headline_defs(size_t *n);
/* The definition of a name, or NULL. */
const struct pr_headline_def *pr_headline_def_find(const char *name);
/* The run's headline metrics into out[PR_HEADLINE_MAX], in the definitions' order; returns how
 * many. */
size_t pr_headline_read(const json_t *run, struct pr_headline *out);

#endif
