/*
 * history.h - the runs of a store as a history: each run's id, label,
 * metadata (--meta), time and headline metrics (analyze/multi/headline.h) and the
 * mean time per call of its spans, read through the analysis model one run
 * at a time (`metrics`, `changes`): each run's digest (pr_model_digest), which
 * a store's model cache serves without parsing the run's whole model.
 *
 * Order: by the `time` metadata when every run has it (ties by run id),
 * else by run id (ingest order).
 */
#ifndef PR_CLI_HISTORY_H
#define PR_CLI_HISTORY_H

#include <stdint.h>

#include <jansson.h>

#include "analyze/multi/headline.h"
#include "store/store.h"

struct pr_hist_run {
	int64_t id;
	char *label;
	json_t *meta;	 /* object of strings (owned) */
	int has_time;	 /* meta time parsed */
	int64_t time_ns; /* meta time, epoch ns */
	int has_epoch;	 /* the run's clock starts at a known epoch time */
	int64_t epoch_ns;
	struct pr_headline h[PR_HEADLINE_MAX];
	char *series; /* peak_memory's series (owned), or NULL */
	size_t nh;
	json_t *spans;	    /* {"name": mean ns per call} of the spans the model lists (owned) */
	json_t *span_total; /* {"name": total ns} (owned) */
};

struct pr_history {
	struct pr_hist_run *runs;
	size_t n;
	int by_time; /* ordered by the time metadata (else by id) */
};

/*
 * Reads every run of st. cache: st is a store given as it is (not a temporary one): the runs'
 * models come from its model cache and go there, with report's options, so that `report STORE`,
 * `metrics STORE` and `changes STORE` analyse a run once (docs/store.md). 0 or -1.
 */
int pr_history_load(struct pr_store *st, int cache, struct pr_history *h,
		    struct pr_error *err) PR_MUST_CHECK;
void pr_history_release(struct pr_history *h);
/* The value of a headline metric of a run: 1 with *v, 0 when the run has not it. */
int pr_hist_value(const struct pr_hist_run *r, const char *metric, double *v);

#endif
