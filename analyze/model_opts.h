/*
 * model_opts.h - the options of a model build (model.h, pr_model_build), in
 * a header of their own: the analysis context (actx.h) and the shared span
 * pass read them, and model.c, which includes those, drives the build.
 */
#ifndef PR_MODEL_OPTS_H
#define PR_MODEL_OPTS_H

#include <stddef.h>
#include <stdint.h>

struct pr_results;
struct json_t;

struct pr_model_opts {
	size_t top_n;		/* rows in the top-spans tables (default 15) */
	size_t max_phases;	/* phase occurrences listed per run (default 500) */
	size_t timeline_points; /* per series in "timeline" (default 2000; 0 = none) */
	long run;		/* only this run id (0 = all) */
	/* Extended regular expression (POSIX ERE): kernels whose name matches it are
	 * communication kernels, next to the built-in NCCL/RCCL, gloo, MSCCL, NVSHMEM
	 * and DeepEP names (gpu_breakdown). NULL = none. Borrowed. */
	const char *comm_kernels;
	/* Called before each run is analyzed (done = 1..total, the run's label), e.g. to show
	 * progress on a terminal; NULL = none. */
	void (*progress)(void *ctx, size_t done, size_t total, const char *label);
	void *progress_ctx;
	/* Use the store's model cache (docs/store.md, "The event store"): a run whose
	 * model was built before by this analyser version with the same options
	 * is read from the store, and a run built here is written to it. Every
	 * field above but run and the progress callback changes a run's model and
	 * is part of the cache key (options_key in model.c): a new field must be
	 * added there. */
	int cache;
	/* The trace view's window (--window SPEC, pr_trace_window_parse): NULL = the slowest and
	 * the median step (the whole run without steps). Borrowed; part of the cache key. */
	const char *window;
	/* The critical path's window (--critpath-annotation NAME[:INSTANCE], an_critpath.c): NULL
	 * = per step. Borrowed; part of the cache key. */
	const char *critpath_annotation;
	/* Called after the analyzers of each run with what they published (results.h) and the
	 * run's model object, for tests; NULL = none. Not part of the cache key: it only looks
	 * (and a run read from the cache is not analyzed). */
	void (*results)(void *arg, const struct pr_results *res, const struct json_t *run);
	void *results_arg;
	/* Read the "history" part of the runs' digests (pr_model_digest; cli/history.c). When 0,
	 * a digest read from the cache is parsed without it (its string is most of a digest's
	 * text, and an archive's index, which reads every run's digest, does not read it). Not a
	 * part of the cache key: the digest is the same either way. */
	int digest_history;
	/* Only these runs (ids ascending, looked up one by one), when not NULL: an archive's
	 * index whose full pages stand reads only the runs of the pages it writes, not a scan of
	 * every run (cli/cmd_report.c). Borrowed; not part of the cache key. */
	const int64_t *ids;
	size_t nids;
};

#endif
