/*
 * actx.h - the analysis context shared by the analyzers of one run
 * (internal to analyze/).
 *
 * The driver (model.c) fills the run's identity, its series (samples
 * loaded on demand), its phases and steps (spans of kind phase/section/
 * stage and step, in start order with their nesting), then calls each
 * analyzer in table order; later analyzers read what earlier ones publish
 * (results.h; recommendations read all of them), not their JSON sections.
 *
 * OWNERSHIP: everything in the context belongs to it; analyzers borrow.
 * Times are ns on the run's clock; "t" in the model = ts - run start.
 */
#ifndef PR_ACTX_H
#define PR_ACTX_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/imap.h"
#include "analyze/model_opts.h"
#include "base/error.h"
#include "base/jsonx.h"

struct sqlite3;
struct sqlite3_stmt;
struct pr_gpuscan;
struct pr_spanstat;
struct pr_opmerge;
struct pr_at_batch;
struct pr_flame;
struct pr_tlanes;
struct pr_parray;
struct pr_pcache;
struct pr_results;

struct pr_aseries {
	int64_t id, count, ts_min, ts_max;
	char *name, *device, *unit, *orig_unit;
	double min, max;
	int memory; /* a memory-like quantity (bytes held), see actx.c */
	int loaded;
	size_t n;	       /* samples, ordered by ts then arrival: pr_aseries_t/_v (i < n) */
	struct pr_parray *smp; /* struct pr_sample records (base/parray.h), when loaded */
};

struct pr_sample {
	int64_t ts;
	double v;
};

struct pr_aspan {
	int64_t id, ts, dur;
	char *name, *kind;
	int depth;	   /* nesting among the spans of this list */
	size_t occurrence; /* 1-based count of this name so far */
	size_t name_index; /* 0-based index of the name among the list's names, first-seen order */
};

struct pr_actx {
	struct sqlite3 *db;
	const struct pr_model_opts *opts;
	int64_t run, ts_min, ts_max, dur, origin;
	int has_extent, has_origin, synthetic;
	int has_world_size; /* the run's world size (run.world_size; 0: unknown) */
	int64_t world_size;
	char *format, *collector, *label;
	json_t *meta; /* run.meta parsed ({} when unreadable) */
	json_t *out;  /* the run's model object being built */
	struct pr_aseries *series;
	size_t nseries;
	struct pr_pcache *pcache; /* the loaded series' memory and blocks (base/parray.h) */
	struct pr_aspan *phases, *steps;
	size_t nphases, nsteps;
	int phases_inferred; /* phases are slices taken as phases (model.c, infer_phases) */
	/* Phases grouped by name: names in first-seen order, each group in start
	 * order: phase_group[phase_group_start[k] .. phase_group_start[k + 1]). */
	size_t nphase_names, *phase_group, *phase_group_start;
	struct pr_gpuscan *gpuscan; /* the GPU analyses' shared pass (gpuscan.h), NULL until used */
	struct pr_spanstat *spanstat; /* per-name span statistics (spanstat.h), NULL until used */
	/* the time points whose spans peaks and fragmentation will ask for (model.c
	 * gathers them first), answered by the shared span pass once at_done */
	struct pr_at_batch *at;
	int at_done;
	/* flame's tree of host spans, fed by the shared span pass (complete once
	 * flame_done; an_flame.c takes it), NULL when the run is too large */
	struct pr_flame *flame;
	int flame_done;
	/* the trace view's candidates, fed by the shared span pass (an_trace.c takes it) */
	struct pr_trace *trace;
	/* a perf script run of several events (perfev.c): the one the span analyses read
	 * (NULL: one event or none), its unit (meta perf.events), the others' tracks */
	const char *perf_event, *perf_unit;
	struct pr_imap perf_other;
	/* ops merged into a same-name parent (opmerge.h), NULL until used */
	struct pr_opmerge *opmerge;
	/* critical_path's budget (an_critpath.c): events dropped, steps left out */
	size_t critpath_over, critpath_over_steps;
	/* what analyzers publish for later ones (results.h, pr_results): NULL until first used */
	struct pr_results *res;
	/* gpu.kernel_sequences' budget (kseq.h): windows of patterns past it, not counted */
	size_t kseq_over;
};

/*
 * When an analyzer runs (model.c's list is in stage order, checked at each build, and the
 * sections come in it): the span analyses that give back the shared
 * pass's memory (timeline's lanes, flame's tree: 21 MB on a 1 GB trace) run before the GPU
 * rows are copied, the run's peak of memory; critical_path before gpu_link, which frees the
 * shared GPU pass it reads; those that read every section last.
 */
enum pr_stage {
	PR_STAGE_CONTEXT = 0, /* series to collectives: later ones read their sections */
	PR_STAGE_SPANS,	      /* timeline, flame, trace: read nothing of the GPU analyses */
	PR_STAGE_GPU,	      /* gpu_breakdown and step_breakdown */
	PR_STAGE_GPU_PATH,    /* critical_path */
	PR_STAGE_GPU_MODEL,   /* perf_model: reads the shared GPU pass's rows, which gpu frees */
	PR_STAGE_GPU_LATE,    /* gpu_link (gpu), cupti_range */
	PR_STAGE_LAST,	      /* leaks, crosscheck, recommendations */
};

/* One analyzer: adds its section to ctx->out. */
struct pr_analyzer {
	const char *name;
	const char *summary;
	int (*run)(struct pr_actx *ctx, struct pr_error *err);
	enum pr_stage stage; /* 0: PR_STAGE_CONTEXT */
};

/* ---- SQL helpers (errors become PR_E_STORE) ---- */
/* Prepares sql (literal text) with ?1 = run id and ?2 = the n ids as a JSON array bound as text:
 * the statement reads them as `IN (SELECT value FROM json_each(?2))`. */
int pr_actx_prep_ids(struct pr_actx *ctx, const char *sql, const int64_t *ids, size_t n,
		     struct sqlite3_stmt **st, struct pr_error *err) PR_MUST_CHECK;
int pr_actx_prep(struct pr_actx *ctx, const char *sql, struct sqlite3_stmt **st,
		 struct pr_error *err) PR_MUST_CHECK; /* binds ?1 = run id */
int pr_actx_done(struct pr_actx *ctx, struct sqlite3_stmt *st, int rc, struct pr_error *err);
/* Text column or "" (borrowed until the next step). */
const char *pr_actx_text(struct sqlite3_stmt *st, int col);

/* ---- series ---- */
/* The series of this run with that name and device (device NULL = first of the name). */
struct pr_aseries *pr_actx_series(struct pr_actx *ctx, const char *name, const char *device);
/* Loads the samples of s (no-op when loaded). */
int pr_actx_load(struct pr_actx *ctx, struct pr_aseries *s, struct pr_error *err) PR_MUST_CHECK;
/* Sample i (< s->n) of a loaded series: its time and value. A sample read from a scratch
 * file that could not be read is 0 (pr_actx_series_failed says so). */
int64_t pr_aseries_t(const struct pr_aseries *s, size_t i);
double pr_aseries_v(const struct pr_aseries *s, size_t i);
struct pr_sample pr_aseries_get(const struct pr_aseries *s, size_t i);
/* -1 with err when a loaded series' scratch file failed (checked after every analyzer). */
int pr_actx_series_failed(const struct pr_actx *ctx, struct pr_error *err) PR_MUST_CHECK;
/* The loaded series' budget in memory (8 MiB, all series together; past it a series is read
 * from a scratch file through 2 MiB of cached blocks) and the blocks' size (0: 64 KiB):
 * tests lower them. */
extern size_t pr_series_mem, pr_series_block;
/* Index of the first sample with ts >= t (n when none). */
size_t pr_aseries_lower(const struct pr_aseries *s, int64_t t);
/* Value at t: the last sample at or before t (NAN before the first). */
double pr_aseries_at(const struct pr_aseries *s, int64_t t);

/* ---- spans ---- */
/* Innermost phase / step containing t (half-open [ts, ts+dur); zero-length spans match t == ts). */
const struct pr_aspan *pr_actx_phase_at(const struct pr_actx *ctx, int64_t t);
const struct pr_aspan *pr_actx_step_at(const struct pr_actx *ctx, int64_t t);
/* Index of the step whose [ts, ts+dur) holds t, or -1 (steps are in start order, not nested). */
long pr_actx_step_index(const struct pr_actx *ctx, int64_t t);
/* ---- reported metrics ---- */
/* First reported metric of that exact name: 1 found, 0 not. */
int pr_actx_metric(struct pr_actx *ctx, const char *name, double *value);

/* ---- JSON helpers (pr_jnum, pr_jint, pr_jobj: base/jsonx.h) ---- */
/* Relative time of ts in the run, as a JSON integer (ns). */
json_t *pr_actx_t(const struct pr_actx *ctx, int64_t ts);

#endif
