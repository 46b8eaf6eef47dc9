/*
 * overview.h - the first analysis model: what a store holds, per run.
 *
 * USAGE: struct pr_overview ov; pr_overview_build(st, 10, &ov, &err);
 * ...read ov...; pr_overview_release(&ov);
 * Plain data only (no SQLite types), so render/ can print it.
 * Times are ns; step statistics cover every span of kind "step"; phases are
 * spans of kind phase, section or stage; metrics are the first 40 reported
 * ones in file order.
 */
#ifndef PR_OVERVIEW_H
#define PR_OVERVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

struct pr_ov_top {
	char *name, *kind;
	int64_t count, total, self, min, max;
};

struct pr_ov_span {
	char *name;
	int64_t ts, dur;
};

struct pr_ov_series {
	char *name, *device, *unit;
	int64_t count;
	double min, max;
};

struct pr_ov_metric {
	char *name, *unit, *detail;
	double value;
	int has_value;
};

struct pr_ov_diag {
	char *code, *message;
	int64_t count;
	long line, col;
};

struct pr_ov_steps {
	size_t n;
	double mean, min, max, p50, p95, p99; /* ns */
};

struct pr_ov_run {
	int64_t id, rank, world_size; /* -1 = unknown */
	char *label, *format, *collector;
	int64_t ts_min, ts_max, spans, samples, instants;
	int synthetic, has_extent;
	struct pr_ov_steps step_stats;
	struct pr_ov_span *steps, *phases;
	size_t nsteps, nphases, more_steps, more_phases;
	struct pr_ov_top *tops;
	size_t ntops;
	struct pr_ov_series *series;
	size_t nseries;
	struct pr_ov_diag *diags;
	size_t ndiags;
	struct pr_ov_metric *metrics; /* the collector's own ("reported") numbers */
	size_t nmetrics, more_metrics;
};

struct pr_overview {
	struct pr_ov_run *runs;
	size_t nruns;
};

/* top_n: how many spans by self time; lists of steps/phases are capped at 50. */
int pr_overview_build(struct pr_store *st, size_t top_n, struct pr_overview *ov,
		      struct pr_error *err) PR_MUST_CHECK;
void pr_overview_release(struct pr_overview *ov);

#endif
