/*
 * model.h - the analysis model: what the store's runs mean.
 *
 * USAGE
 *   struct pr_model_opts o = PR_MODEL_OPTS_INIT;
 *   json_t *m = pr_model_build(store, &o, &err);   (NULL on error)
 *   pr_model_write(m, "model.json", &err);  json_decref(m);
 *
 * The model is plain JSON data (jansson), versioned by "schema" and
 * "version" (README: "The analysis model"), so the renderers, `compare`
 * and `aggregate` read it without the store, and a model written by
 * `report --json` can be read back with pr_model_load().
 *
 * Each analyzer is one file (an_<name>.c) that reads the store through the
 * analysis context (actx.h) and adds one section to each run's object;
 * every finding carries its evidence (values, times, names, the rule and
 * its threshold). Output is a pure function of the store: stable orders,
 * no clock, no paths beyond what the store holds.
 */
#ifndef PR_MODEL_H
#define PR_MODEL_H

#include <math.h>
#include <stddef.h>

#include <jansson.h>

#include "base/error.h"
#include "base/jsonx.h"

struct pr_store; /* store/store.h; the model is built from one, read without it */

#define PR_MODEL_SCHEMA "profreport-model"
#define PR_MODEL_VERSION 1

struct pr_model_opts {
	size_t top_n;         /* rows in the top-spans tables (default 15) */
	size_t max_phases;    /* phase occurrences listed per run (default 500) */
	size_t timeline_points; /* per series in "timeline" (default 2000; 0 = none) */
	long run;             /* only this run id (0 = all) */
	/* Extended regular expression (POSIX ERE): kernels whose name matches it are
	 * communication kernels, next to the built-in NCCL/RCCL, gloo, MSCCL, NVSHMEM
	 * and DeepEP names (gpu_breakdown). NULL = none. Borrowed. */
	const char *comm_kernels;
	/* Called before each run is analyzed (done = 1..total, the run's label), e.g. to show
	 * progress on a terminal; NULL = none. */
	void (*progress)(void *ctx, size_t done, size_t total, const char *label);
	void *progress_ctx;
};

#define PR_MODEL_OPTS_INIT { 15, 500, 2000, 0, NULL, NULL, NULL }

json_t *pr_model_build(struct pr_store *st, const struct pr_model_opts *opts,
		       struct pr_error *err);
/* Writes the model as indented JSON, atomically (temp file + rename). "-" = stdout. */
int pr_model_write(const json_t *model, const char *path, struct pr_error *err) PR_MUST_CHECK;
/* Dumps the model to a string (caller frees); the exact bytes pr_model_write writes. */
char *pr_model_dumps(const json_t *model);
/* Reads a model file and checks its schema and version. */
json_t *pr_model_load(const char *path, struct pr_error *err);
/* Readers of model objects: pr_mnum, pr_mll, pr_mstr (base/jsonx.h). */

/* 1 when the file's head looks like a model (cheap sniff for CLI inputs). */
int pr_model_sniff(const char *path);

#endif
