/*
 * model.h - the analysis model: what the store's runs mean.
 *
 * USAGE
 *   struct pr_model_opts o = PR_MODEL_OPTS_INIT;
 *   json_t *m = pr_model_build(store, &o, &err);   (NULL on error)
 *   pr_model_write(m, "model.json", &err);  json_decref(m);
 *
 * The model is plain JSON data (jansson), versioned by "schema" and
 * "version" (docs/analysis.md, "The analysis model"), so the renderers, `compare`
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
#include <stdint.h>

#include <jansson.h>

#include "analyze/model_opts.h"
#include "base/error.h"
#include "base/jsonx.h"

struct pr_store; /* store/store.h; the model is built from one, read without it */

#define PR_MODEL_SCHEMA "profreport-model"
#define PR_MODEL_VERSION 1

/* struct pr_model_opts: model_opts.h */

/*
 * The model's defaults and caps, named once: the CLI's help and the
 * reports' notes on what the model leaves out quote them.
 */
#define PR_MODEL_TOP_N 15	      /* rows in the top-spans tables */
#define PR_MODEL_MAX_PHASES 500	      /* phase occurrences listed per run */
#define PR_MODEL_TIMELINE_POINTS 2000 /* points per series timeline */
#define PR_MODEL_ALLOC_NODES 500      /* nodes of the peak's allocation tree (an_alloc.c) */

/* The defaults; every other field 0 or NULL (named, so a new field needs no change here). */
#define PR_MODEL_OPTS_INIT                                                                         \
	{                                                                                          \
		.top_n = PR_MODEL_TOP_N, .max_phases = PR_MODEL_MAX_PHASES,                        \
		.timeline_points = PR_MODEL_TIMELINE_POINTS                                        \
	}

#define PR_TRACE_BOUND 20000 /* slices of the trace view (an_trace.c) */

/*
 * --window SPEC of the trace view: a step's name (PR_TW_NAME), "#N" (the
 * N-th step in start order, 1-based), or "START:END" in time since the
 * run's start (units ns, us, ms, s; bare numbers are ms; START or END may
 * be left out: from the start, to the end). 0, or -1 with a PR_E_USAGE
 * error naming the forms. name points into spec.
 */
enum pr_trace_window_kind {
	PR_TW_NONE,
	PR_TW_NAME,
	PR_TW_INDEX,
	PR_TW_TIME
};
struct pr_trace_window {
	enum pr_trace_window_kind kind;
	const char *name;
	size_t index;
	int64_t t0, t1; /* ns since the run's start */
	int open_end;
};
int pr_trace_window_parse(const char *spec, struct pr_trace_window *w,
			  struct pr_error *err) PR_MUST_CHECK;

json_t *pr_model_build(struct pr_store *st, const struct pr_model_opts *opts, struct pr_error *err);

/*
 * One run at a time, for a caller that need not hold every run (an
 * archive of many runs): for each run of the store (opts->run: that one),
 * in id order, want(ctx, id, label, content_hash) says whether the caller
 * needs the run's whole object of the model (non-zero) or only its digest
 * (pr_model_digest), or (negative) neither: the run is passed over, not even
 * its digest read (an archive's index page that stands); want NULL = always
 * whole. fn(ctx, run, whole, err) then gets that object, borrowed (incref
 * to keep it); a non-zero return stops the loop and is returned. With
 * opts->cache, a digest asked for is read from the cache when there, and a
 * run built is cached with its digest.
 */
typedef int pr_model_want_fn(void *ctx, int64_t id, const char *label, const char *hash);
typedef int pr_model_run_fn(void *ctx, json_t *run, int whole, struct pr_error *err);
int pr_model_each(struct pr_store *st, const struct pr_model_opts *opts, pr_model_want_fn *want,
		  pr_model_run_fn *fn, void *ctx, struct pr_error *err) PR_MUST_CHECK;
/*
 * What a run's model and digest depend on beyond its content: this build's analyser version
 * and the options (the model cache's key, with the environment's budgets), into sb. An
 * archive's index pages are stamped with it (render/archive.c).
 */
struct pr_strbuf;
int pr_model_options_stamp(const struct pr_model_opts *opts, struct pr_strbuf *sb,
			   struct pr_error *err) PR_MUST_CHECK;
/*
 * The digest of a run object: the parts of it an archive's index page
 * reads (render/html_index.c, pr_html_index: id, label, source,
 * content_hash, clock, the peaks' series and value, the throughput's
 * tokens_per_s, fps, p50_ns and per_s, one null per recommendation), in the
 * run object's shape, so the index reads a digest as it reads the run.
 */
json_t *pr_model_digest(const json_t *run);
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
