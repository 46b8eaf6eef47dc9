/* headline.c - a run's headline metrics from its model object (headline.h). */
#include "analyze/multi/headline.h"

#include <math.h>
#include <string.h>

#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

static const struct pr_headline_def defs[] = {
	{ "step_time", "s", "profreport_step_time_seconds", "seconds",
	  "Median step time of the run (p50 of its steps).", -1 },
	{ "steps_per_s", "1/s", "profreport_steps_per_second", NULL, "Steps per second of the run.",
	  1 },
	{ "tokens_per_s", "tokens/s", "profreport_tokens_per_second", NULL,
	  "Tokens per second of the run.", 1 },
	{ "fps", "frames/s", "profreport_frames_per_second", NULL,
	  "Frames per second of the run (blocks).", 1 },
	{ "gpu_busy", "ratio", "profreport_gpu_busy_ratio", "ratio",
	  "Share of the GPU's active range with a kernel, copy or set running.", 1 },
	{ "peak_memory", "bytes", "profreport_peak_memory_bytes", "bytes",
	  "Peak of the run's primary memory series.", -1 },
	{ "duration", "s", "profreport_duration_seconds", "seconds",
	  "Duration of the run (its clock's extent).", -1 },
};

const struct pr_headline_def *pr_headline_defs(size_t *n)
{
	*n = sizeof(defs) / sizeof(defs[0]);
	return defs;
}

const struct pr_headline_def *pr_headline_def_find(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (!strcmp(defs[i].name, name))
			return &defs[i];
	return NULL;
}

/* A finite number at o[key]: 1 with *v. */
static int num(const json_t *o, const char *key, double *v)
{
	const json_t *x = json_object_get(o, key);
	if (!json_is_number(x))
		return 0;
	*v = json_number_value(x);
	return isfinite(*v);
}

static const json_t *path2(const json_t *o, const char *a, const char *b)
{
	return json_object_get(json_object_get(o, a), b);
}

static void put(struct pr_headline *out, size_t *n, size_t def, double v)
{
	memset(&out[*n], 0, sizeof(out[*n]));
	out[*n].def = &defs[def];
	out[*n].value = v;
	(*n)++;
}

static int gpu_busy(const json_t *run, double *v)
{
	const json_t *k = path2(run, PRK_BOTTLENECKS, PRK_BOTTLENECKS_GPU_KERNELS), *u, *x;
	double busy, active, sum = 0;
	size_t i, cnt = 0;
	if (num(path2(run, PRK_GPU_BREAKDOWN, PRK_GPU_BREAKDOWN_RANK),
		PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE, v))
		return 1;
	if (num(k, PRK_BOTTLENECKS_GPU_KERNELS_BUSY_NS, &busy) &&
	    num(k, PRK_BOTTLENECKS_GPU_KERNELS_ACTIVE_NS, &active) && active > 0) {
		*v = busy / active;
		return 1;
	}
	u = path2(run, PRK_BOTTLENECKS, PRK_BOTTLENECKS_GPU_UTIL);
	json_array_foreach (u, i, x) {
		double p;
		if (num(x, PRK_BOTTLENECKS_GPU_UTIL_MEAN_PCT, &p)) {
			sum += p / 100;
			cnt++;
		}
	}
	if (!cnt)
		return 0;
	*v = sum / (double)cnt;
	return 1;
}

size_t pr_headline_read(const json_t *run, struct pr_headline *out)
{
	const json_t *steps = path2(run, PRK_THROUGHPUT, PRK_THROUGHPUT_STEPS), *ps, *pk;
	const json_t *clock = json_object_get(run, PRK_CLOCK);
	size_t n = 0, i;
	double v, lo, hi;
	if (num(steps, PRK_THROUGHPUT_STEPS_P50_NS, &v)) {
		put(out, &n, 0, v / 1e9);
		if (num(steps, PRK_THROUGHPUT_STEPS_MIN_NS, &lo) &&
		    num(steps, PRK_THROUGHPUT_STEPS_MAX_NS, &hi)) {
			out[n - 1].has_bounds = 1;
			out[n - 1].lower = lo / 1e9;
			out[n - 1].upper = hi / 1e9;
		}
	}
	if (num(steps, PRK_THROUGHPUT_STEPS_PER_S, &v))
		put(out, &n, 1, v);
	if (num(path2(run, PRK_THROUGHPUT, PRK_THROUGHPUT_TOKENS),
		PRK_THROUGHPUT_TOKENS_TOKENS_PER_S, &v))
		put(out, &n, 2, v);
	if (num(path2(run, PRK_THROUGHPUT, PRK_THROUGHPUT_BLOCKS), PRK_THROUGHPUT_BLOCKS_FPS, &v))
		put(out, &n, 3, v);
	if (gpu_busy(run, &v))
		put(out, &n, 4, v);
	ps = json_object_get(run, PRK_PRIMARY_SERIES);
	if (json_is_object(ps)) {
		const char *name = json_string_value(json_object_get(ps, PRK_PRIMARY_SERIES_NAME));
		const char *dev = json_string_value(json_object_get(ps, PRK_PRIMARY_SERIES_DEVICE));
		json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk) {
			const char *s = json_string_value(json_object_get(pk, PRK_PEAKS_SERIES));
			const char *d = json_string_value(json_object_get(pk, PRK_PEAKS_DEVICE));
			if (name && s && !strcmp(s, name) && !strcmp(d ? d : "", dev ? dev : "") &&
			    num(pk, PRK_PEAKS_VALUE, &v)) {
				put(out, &n, 5, v);
				out[n - 1].series = s;
				break;
			}
		}
	}
	if (!json_object_get(clock, PRK_CLOCK_X_UNIT) && num(clock, PRK_CLOCK_DURATION_NS, &v))
		put(out, &n, 6, v / 1e9);
	return n;
}
