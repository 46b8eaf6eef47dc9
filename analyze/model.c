/* model.c - the analysis driver: runs -> context -> analyzers -> JSON model. */
#include "analyze/model.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyze/actx.h"
#include "analyze/analyzer_version.h"
#include "analyze/analyzers.h"
#include "analyze/at_batch.h"
#include "analyze/flame_impl.h"
#include "analyze/gpuscan.h"
#include "analyze/kseq.h"
#include "analyze/opmerge.h"
#include "analyze/perfev.h"
#include "analyze/results.h"
#include "analyze/spanstat.h"
#include "analyze/trace_impl.h"
#include "base/env.h"
#include "base/output.h"
#include "base/parray.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/timecheck.h"
#include "base/xalloc.h"
#include "store/store.h"

/*
 * The analyzers in the order they run, which is the order of their sections in the model: by
 * stage (actx.h, enum pr_stage: what each may read of the others), and within a stage later
 * ones read the sections of earlier ones. check_order says so at each build.
 */
static const struct pr_analyzer *const analyzers[] = {
	/* PR_STAGE_CONTEXT */
	&pr_an_series,
	&pr_an_phases,
	&pr_an_peaks,
	&pr_an_alloc_tree,
	&pr_an_fragmentation,
	&pr_an_throughput,
	&pr_an_bottlenecks,
	&pr_an_spans,
	&pr_an_ops,
	&pr_an_collectives,
	/* PR_STAGE_SPANS: read nothing of the GPU analyses */
	&pr_an_timeline,
	&pr_an_flame,
	&pr_an_trace,
	/* PR_STAGE_GPU: gpu_breakdown and step_breakdown, one scan */
	&pr_an_gpubreak,
	/* PR_STAGE_GPU_PATH: before gpu, which frees the shared GPU pass it reads */
	&pr_an_critpath,
	/* PR_STAGE_GPU_MODEL: op categories, FLOPs, bytes, roofline */
	&pr_an_perfmodel,
	/* PR_STAGE_GPU_LATE: gpu, then the CUPTI range-profiler counters */
	&pr_an_gpulink,
	&pr_an_cuptirange,
	/* PR_STAGE_LAST: they read every section above */
	&pr_an_leaks,
	&pr_an_crosscheck,
	&pr_an_recommendations,
};

/* The list above is in stage order (a new analyzer listed out of its stage is a bug). */
static void check_order(void)
{
	size_t i;
	for (i = 1; i < PR_ARRAY_SIZE(analyzers); i++)
		if (analyzers[i - 1]->stage > analyzers[i]->stage)
			PR_BUG("analyzer %s (stage %d) is listed after %s (stage %d)",
			       analyzers[i]->name, (int)analyzers[i]->stage, analyzers[i - 1]->name,
			       (int)analyzers[i - 1]->stage);
}

/*
 * PR_TIMINGS=1 in the environment: one line per run and analyzer on stderr,
 * "profreport: timing: run ID NAME WALL_S CPU_S rss RSS_MB hwm PEAK_MB" (wall
 * clock and the thread's CPU time, then the process's resident and peak
 * resident megabytes after the step, from /proc/self/status, -0.0 where
 * there is none; bench/gpu_bench.sh reads them). A measuring hook for
 * benchmarks only: the model never depends on it, and without the variable
 * no clock is read.
 */
/* kB of a /proc/self/status line ("VmRSS", "VmHWM"); -1 where there is none (not Linux) */
static long proc_kb(const char *key)
{
	char line[256];
	long kb = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			kb = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

/* PR_TIMINGS: wall and CPU seconds of a step, then the resident and peak resident MB after it */
static void timing(int on, int64_t run, const char *name, double *t0)
{
	double t, c;
	if (!on)
		return;
	t = pr_clock_s(CLOCK_MONOTONIC);
	c = pr_clock_s(CLOCK_THREAD_CPUTIME_ID);
	fprintf(stderr, "profreport: timing: run %lld %s %.6f %.6f rss %.1f hwm %.1f\n",
		(long long)run, name, t - t0[0], c - t0[1], proc_kb("VmRSS") / 1024.0,
		proc_kb("VmHWM") / 1024.0);
	t0[0] = t;
	t0[1] = c;
}

static int starts(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static int ends(const char *s, const char *p)
{
	size_t n = strlen(s), m = strlen(p);
	return n >= m && !strcmp(s + n - m, p);
}

/*
 * Memory-like: a quantity of bytes held. Capacities (gpu.mem.total,
 * sys.mem.total, ...), headroom (".free", ".available") and cumulative I/O
 * counters ("disk.") are bytes but not memory held. dev.mem.total (the sum
 * of torch's memory categories) is memory held.
 */
static int memory_like(const char *name, const char *unit)
{
	static const char *const capacities[] = { "gpu.mem.total", "sys.mem.total",
						  "sys.swap.total", "torch_total_memory" };
	size_t i;
	if (strcmp(unit, "bytes"))
		return 0;
	for (i = 0; i < PR_ARRAY_SIZE(capacities); i++)
		if (!strcmp(name, capacities[i]))
			return 0;
	if (starts(name, "disk.") || ends(name, ".free") || ends(name, ".available"))
		return 0;
	return 1;
}

static int load_series(struct pr_actx *ctx, struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT id, name, device, unit, ifnull(orig_unit, ''), count, min, max, "
			 "ifnull(ts_min, 0), ifnull(ts_max, 0) FROM series WHERE run_id = ?1 "
			 "ORDER BY name, device, id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pr_aseries *s;
		if (ctx->nseries == cap) {
			cap = cap ? cap * 2 : 16;
			ctx->series = pr_xreallocarray(ctx->series, cap, sizeof(*ctx->series));
		}
		s = &ctx->series[ctx->nseries++];
		memset(s, 0, sizeof(*s));
		s->id = sqlite3_column_int64(st, 0);
		s->name = pr_xstrdup(pr_actx_text(st, 1));
		s->device = pr_xstrdup(pr_actx_text(st, 2));
		s->unit = pr_xstrdup(pr_actx_text(st, 3));
		s->orig_unit = pr_xstrdup(pr_actx_text(st, 4));
		s->count = sqlite3_column_int64(st, 5);
		s->min = sqlite3_column_double(st, 6);
		s->max = sqlite3_column_double(st, 7);
		s->ts_min = pr_time_clamp(sqlite3_column_int64(st, 8));
		s->ts_max = pr_time_clamp(sqlite3_column_int64(st, 9));
		s->memory = memory_like(s->name, s->unit);
	}
	return pr_actx_done(ctx, st, rc, err);
}

/* Nesting depth (among the list's spans), occurrence numbers and name indexes. */
static void number_spans(struct pr_aspan *v, size_t n, size_t *nnames)
{
	struct pr_strmap seen = PR_STRMAP_INIT;
	size_t depth = 0, i;
	int64_t *stack_end = pr_xreallocarray(NULL, n ? n : 1, sizeof(*stack_end));
	for (i = 0; i < n; i++) {
		struct pr_aspan *p = &v[i];
		while (depth && stack_end[depth - 1] <= p->ts &&
		       !(stack_end[depth - 1] == p->ts && p->dur == 0))
			depth--;
		p->depth = (int)depth;
		stack_end[depth++] = p->ts + p->dur;
	}
	free(stack_end);
	/* occurrence numbers and name indexes in one pass; the map holds index * 2^32 + count */
	for (i = 0; i < n; i++) {
		const char *name = v[i].name;
		int64_t x;
		if (!pr_strmap_get(&seen, name, strlen(name), &x))
			x = (int64_t)(*nnames)++ << 32;
		x++;
		pr_strmap_put(&seen, name, strlen(name), x);
		v[i].occurrence = (size_t)(x & 0xffffffff);
		v[i].name_index = (size_t)(x >> 32);
	}
	pr_strmap_release(&seen);
}

/* A new zeroed entry at the end of a list. */
static struct pr_aspan *add_span(struct pr_aspan **out, size_t *n, size_t *cap)
{
	struct pr_aspan *p;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*out = pr_xreallocarray(*out, *cap, sizeof(**out));
	}
	p = &(*out)[(*n)++];
	memset(p, 0, sizeof(*p));
	return p;
}

/* Appends the current row (columns id, ts, dur, name, kind) to a list. */
static void add_row(sqlite3_stmt *st, struct pr_aspan **out, size_t *n, size_t *cap)
{
	struct pr_aspan *p = add_span(out, n, cap);
	p->id = sqlite3_column_int64(st, 0);
	p->ts = sqlite3_column_int64(st, 1);
	p->dur = sqlite3_column_int64(st, 2);
	pr_span_clamp(&p->ts, &p->dur); /* ends and differences fit (timecheck.h) */
	p->name = pr_xstrdup(pr_actx_text(st, 3));
	p->kind = pr_xstrdup(pr_actx_text(st, 4));
}

/*
 * Spans selected by sql (columns id, ts, dur, name, kind; ?1 = run, ?2 =
 * the run's step count; ordered by ts, dur DESC, id) and accepted by keep
 * (NULL: all), in start order (outer first), with nesting depth and
 * occurrence numbers.
 */
static int load_spans_sql(struct pr_actx *ctx, const char *sql, int (*keep)(const char *name),
			  struct pr_aspan **out, size_t *n, size_t *nnames, struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;
	if (pr_actx_prep(ctx, sql, &st, err))
		return -1;
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, (int64_t)ctx->nsteps);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (!keep || keep(pr_actx_text(st, 3)))
			add_row(st, out, n, &cap);
	number_spans(*out, *n, nnames);
	return pr_actx_done(ctx, st, rc, err);
}

static int cmp_sp(const void *a, const void *b)
{
	const struct pr_spanstat_sp *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The steps and the phases (kinds phase, section, stage) from the shared
 * span pass (spanstat.h; it was a scan of the span table each), in start
 * order (ts, dur DESC, id: the order SQL gave them in), with their names
 * (a span whose name has no string is left out, as the join with string
 * did); see load_spans_sql.
 */
static int load_steps_phases(struct pr_actx *ctx, size_t *nstep_names, struct pr_error *err)
{
	struct pr_spanstat *ss;
	sqlite3_stmt *st;
	size_t scap = 0, pcap = 0, i;
	int rc = SQLITE_DONE;
	if (!pr_spanstat_get(ctx, err))
		return -1;
	ss = ctx->spanstat;
	if (ss->nsp)
		qsort(ss->sp, ss->nsp, sizeof(*ss->sp), cmp_sp);
	if (pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &st,
			 err))
		return -1;
	for (i = 0; i < ss->nsp; i++) {
		const struct pr_spanstat_sp *x = &ss->sp[i];
		const char *kind = ss->kinds[x->kind];
		struct pr_aspan *p;
		sqlite3_bind_int64(st, 2, x->name_id);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			if (!strcmp(kind, "step"))
				p = add_span(&ctx->steps, &ctx->nsteps, &scap);
			else
				p = add_span(&ctx->phases, &ctx->nphases, &pcap);
			p->id = x->id;
			p->ts = x->ts;
			p->dur = x->dur;
			pr_span_clamp(&p->ts, &p->dur); /* ends and differences fit (timecheck.h) */
			p->name = pr_xstrdup(pr_actx_text(st, 0));
			p->kind = pr_xstrdup(kind);
		} else if (rc != SQLITE_DONE) {
			break;
		}
		rc = SQLITE_DONE;
		sqlite3_reset(st);
	}
	free(ss->sp);
	ss->sp = NULL;
	ss->nsp = 0;
	number_spans(ctx->steps, ctx->nsteps, nstep_names);
	number_spans(ctx->phases, ctx->nphases, &ctx->nphase_names);
	return pr_actx_done(ctx, st, rc, err);
}

/*
 * Names of operators and runtime calls, which are never user phases:
 * C++ scopes (aten::, c10d::, autograd::engine::...), autograd nodes
 * (AddmmBackward0) and CUDA/HIP runtime calls.
 */
static int op_like(const char *name)
{
	size_t n = strlen(name), i = n;
	if (strstr(name, "::") || starts(name, "cuda") || starts(name, "hip"))
		return 1;
	while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
		i--;
	return i >= 8 && !strncmp(name + i - 8, "Backward", 8);
}

static int phase_like(const char *name)
{
	return !op_like(name);
}

/*
 * User phases of a trace without categories (legacy torch.profiler,
 * viztracer, hand-instrumented code): when a run has steps but no span of
 * kind phase/section/stage, a span of kind slice is a phase when it is a
 * direct child of a step, its name is not an operator's (op_like), and
 * the name is a direct child of at least half of the steps (a stage of
 * every step, not a one-off call).
 */
#define INFERRED_PHASE_RULE                                                                        \
	"no categorised phases: a slice that is a direct child of a step, is not an operator "     \
	"(no '::', not an autograd node or CUDA/HIP call), and whose name is a direct child of "   \
	">= half of the steps"
static int infer_phases(struct pr_actx *ctx, size_t *nnames, struct pr_error *err)
{
	static const char sql[] =
		"SELECT s.id, s.ts, s.dur, n.value, 'phase' FROM span s "
		"JOIN span p ON p.id = s.parent_id JOIN string n ON n.id = s.name_id "
		"WHERE s.run_id = ?1 AND s.kind = 'slice' AND p.kind = 'step' AND s.name_id IN ("
		" SELECT c.name_id FROM span c JOIN span q ON q.id = c.parent_id "
		" WHERE c.run_id = ?1 AND c.kind = 'slice' AND q.kind = 'step' "
		" GROUP BY c.name_id HAVING 2 * COUNT(DISTINCT c.parent_id) >= ?2) "
		"ORDER BY s.ts, s.dur DESC, s.id";
	if (load_spans_sql(ctx, sql, phase_like, &ctx->phases, &ctx->nphases, nnames, err))
		return -1;
	ctx->phases_inferred = ctx->nphases > 0;
	return 0;
}

/* Counting sort of the phases by name index (stable: each group stays in start order). */
static void group_phases(struct pr_actx *ctx)
{
	size_t i, *fill;
	ctx->phase_group = pr_xcalloc(ctx->nphases + 1, sizeof(size_t));
	ctx->phase_group_start = pr_xcalloc(ctx->nphase_names + 1, sizeof(size_t));
	fill = pr_xcalloc(ctx->nphase_names + 1, sizeof(size_t));
	for (i = 0; i < ctx->nphases; i++)
		ctx->phase_group_start[ctx->phases[i].name_index + 1]++;
	for (i = 0; i < ctx->nphase_names; i++)
		ctx->phase_group_start[i + 1] += ctx->phase_group_start[i];
	for (i = 0; i < ctx->nphases; i++) {
		size_t k = ctx->phases[i].name_index;
		ctx->phase_group[ctx->phase_group_start[k] + fill[k]++] = i;
	}
	free(fill);
}

static void free_spans(struct pr_aspan *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].kind);
	}
	free(v);
}

static void ctx_release(struct pr_actx *ctx)
{
	size_t i;
	for (i = 0; i < ctx->nseries; i++) {
		struct pr_aseries *s = &ctx->series[i];
		free(s->name);
		free(s->device);
		free(s->unit);
		free(s->orig_unit);
		pr_parray_free(s->smp);
	}
	free(ctx->series);
	pr_pcache_free(ctx->pcache);
	pr_gpuscan_free(ctx->gpuscan);
	pr_spanstat_free(ctx->spanstat);
	pr_at_batch_free(ctx->at);
	pr_flame_free(ctx->flame);
	pr_trace_free(ctx->trace);
	pr_imap_release(&ctx->perf_other);
	pr_opmerge_free(ctx->opmerge);
	pr_results_free(ctx->res);
	free_spans(ctx->phases, ctx->nphases);
	free_spans(ctx->steps, ctx->nsteps);
	free(ctx->phase_group);
	free(ctx->phase_group_start);
	free(ctx->format);
	free(ctx->collector);
	free(ctx->label);
	json_decref(ctx->meta);
}

static json_t *opt_int(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? json_null()
							   : pr_jint(sqlite3_column_int64(st, col));
}

static void budget_diag(json_t *diags, const char *code, size_t count, const char *fmt, ...)
	PR_PRINTF_LIKE(4, 5);

static void budget_diag(json_t *diags, const char *code, size_t count, const char *fmt, ...)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	pr_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	json_array_append_new(diags, pr_jobj("code", json_string(code), "count",
					     pr_jint((int64_t)count), "line", json_null(), "column",
					     json_null(), "message", json_string(sb.buf), NULL));
	pr_strbuf_release(&sb);
}

/* critical_path's budget (an_critpath.c): the events past it and the steps left out. */
static void critpath_diag(const struct pr_actx *ctx, json_t *diags)
{
	if (ctx->critpath_over)
		budget_diag(diags, "critical_path_over_budget", ctx->critpath_over,
			    "%zu events past the critical path's budget of %zu; %zu steps left out "
			    "of it",
			    ctx->critpath_over, pr_critpath_max_events, ctx->critpath_over_steps);
}

/* gpu.kernel_sequences' budget (kseq.h): windows of patterns first seen past it. */
static void kseq_diag(const struct pr_actx *ctx, json_t *diags)
{
	if (ctx->kseq_over)
		budget_diag(
			diags, "kernel_sequences_over_budget", ctx->kseq_over,
			"%zu windows of kernel sequences first seen after %zu distinct patterns "
			"are not counted; PROFREPORT_KSEQ_NGRAMS=N raises the budget",
			ctx->kseq_over, pr_kseq_max_ngrams);
}

/* What the analysis left out to stay within its budgets (spanstat.h), as diagnostics. */
static void budget_diags(const struct pr_actx *ctx, json_t *diags)
{
	const struct pr_spanstat *ss = ctx->spanstat;
	static const char *const what[2] = { "steps", "phases" };
	size_t c;
	critpath_diag(ctx, diags);
	kseq_diag(ctx, diags);
	if (!ss)
		return;
	for (c = 0; c < 2; c++)
		if (ss->sp_over[c])
			budget_diag(
				diags, c ? "phases_over_budget" : "steps_over_budget",
				ss->sp_over[c],
				"%zu %s after the first %zu (in store order) are left out of the "
				"analyses; PROFREPORT_MAX_STEPS=N raises the budget",
				ss->sp_over[c], what[c], pr_spanstat_sp_max);
	if (ss->over_spans)
		budget_diag(diags, "names_over_budget", ss->over_spans,
			    "%zu spans of names first seen after %zu distinct names are counted "
			    "together as '%s'; PROFREPORT_MAX_NAMES=N raises the budget",
			    ss->over_spans, pr_spanstat_groups_max, PR_SPANSTAT_OVER_NAME);
}

static int reported_and_diags(struct pr_actx *ctx, struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *rep = json_array(), *diags = json_array();
	size_t n = 0, more = 0;
	int rc;
	json_object_set_new(ctx->out, "reported", rep);
	json_object_set_new(ctx->out, "diagnostics", diags);
	if (pr_actx_prep(ctx,
			 "SELECT name, value, ifnull(unit, ''), ifnull(detail, '') FROM metric "
			 "WHERE run_id = ?1 AND origin = 'reported' ORDER BY id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n++ >= 200) {
			more++;
			continue;
		}
		json_array_append_new(rep,
				      pr_jobj("name", json_string(pr_actx_text(st, 0)), "value",
					      sqlite3_column_type(st, 1) == SQLITE_NULL
						      ? json_null()
						      : pr_jnum(sqlite3_column_double(st, 1)),
					      "unit", json_string(pr_actx_text(st, 2)), "detail",
					      json_string(pr_actx_text(st, 3)), NULL));
	}
	if (pr_actx_done(ctx, st, rc, err))
		return -1;
	if (more)
		json_object_set_new(ctx->out, "reported_more", pr_jint((int64_t)more));
	if (pr_actx_prep(ctx,
			 "SELECT code, count, line, col, message FROM diag WHERE run_id = ?1 "
			 "ORDER BY code, line, col",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_array_append_new(diags,
				      pr_jobj("code", json_string(pr_actx_text(st, 0)), "count",
					      pr_jint(sqlite3_column_int64(st, 1)), "line",
					      opt_int(st, 2), "column", opt_int(st, 3), "message",
					      json_string(pr_actx_text(st, 4)), NULL));
	budget_diags(ctx, diags);
	return pr_actx_done(ctx, st, rc, err);
}

/* phases.inferred: the rule and the names it took as phases (first-seen order). */
static void note_inferred(struct pr_actx *ctx)
{
	json_t *phases = json_object_get(ctx->out, "phases"), *names = json_array();
	size_t k;
	for (k = 0; k < ctx->nphase_names; k++)
		json_array_append_new(names,
				      json_string(
					      ctx->phases
						      [ctx->phase_group[ctx->phase_group_start[k]]]
							      .name));
	if (!json_is_object(phases)) {
		json_decref(names);
		return;
	}
	json_object_set_new(phases, "inferred",
			    pr_jobj("rule", json_string(INFERRED_PHASE_RULE), "names", names,
				    NULL));
}

/*
 * The time points whose spans peaks and fragmentation show, gathered before
 * the analyzers run, so that the shared span pass answers them (one scan
 * of the span table each, before).
 */
static int gather_points(struct pr_actx *ctx, struct pr_error *err)
{
	int64_t *t = NULL;
	size_t n = 0, cap = 0;
	int rc = pr_peaks_points(ctx, &t, &n, &cap, err) ||
		 pr_fragmentation_points(ctx, &t, &n, &cap, err);
	if (!rc && n && !(ctx->at = pr_at_batch_new(ctx, t, n, err)))
		rc = -1;
	free(t);
	return rc ? -1 : 0;
}

static json_t *build_run(sqlite3 *db, sqlite3_stmt *rs, const struct pr_model_opts *opts,
			 struct pr_error *err)
{
	struct pr_actx ctx;
	json_error_t jerr;
	json_t *clock;
	int64_t epoch;
	size_t i, nstep_names = 0;
	int ret = -1, have_epoch;
	int timed = pr_timings_on();
	double t0[2] = { 0, 0 };

	if (timed) {
		t0[0] = pr_clock_s(CLOCK_MONOTONIC);
		t0[1] = pr_clock_s(CLOCK_THREAD_CPUTIME_ID);
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.db = db;
	ctx.opts = opts;
	ctx.run = sqlite3_column_int64(rs, 0);
	ctx.format = pr_xstrdup(pr_actx_text(rs, 1));
	ctx.collector = pr_xstrdup(pr_actx_text(rs, 2));
	ctx.label = pr_xstrdup(pr_actx_text(rs, 3));
	ctx.has_extent = sqlite3_column_type(rs, 7) != SQLITE_NULL;
	/* A store written by another program may hold any int64: the extent is
	 * read within +-PR_TIME_LIMIT_NS, so its duration is a difference that fits. */
	ctx.ts_min = pr_time_clamp(sqlite3_column_int64(rs, 7));
	ctx.ts_max = pr_time_clamp(sqlite3_column_int64(rs, 8));
	ctx.dur = ctx.ts_max - ctx.ts_min;
	ctx.has_origin = sqlite3_column_type(rs, 9) != SQLITE_NULL;
	ctx.origin = sqlite3_column_int64(rs, 9);
	ctx.synthetic = sqlite3_column_int(rs, 10);
	ctx.has_world_size = sqlite3_column_type(rs, 6) != SQLITE_NULL;
	ctx.world_size = sqlite3_column_int64(rs, 6);
	ctx.meta = json_loads(pr_actx_text(rs, 11), 0, &jerr);
	if (!json_is_object(ctx.meta)) {
		json_decref(ctx.meta);
		ctx.meta = json_object();
	}

	/* no epoch start when origin + start overflows (an origin near INT64_MAX) */
	have_epoch = ctx.has_origin && ctx.has_extent &&
		     !__builtin_add_overflow(ctx.origin, ctx.ts_min, &epoch);
	clock = pr_jobj("start_ns", pr_jint(ctx.ts_min), "end_ns", pr_jint(ctx.ts_max),
			"duration_ns", ctx.has_extent ? pr_jint(ctx.dur) : json_null(),
			"epoch_start_ns", have_epoch ? pr_jint(epoch) : json_null(), "synthetic",
			json_boolean(ctx.synthetic), "x_unit",
			json_is_string(json_object_get(ctx.meta, "x_unit"))
				? json_incref(json_object_get(ctx.meta, "x_unit"))
				: NULL,
			NULL);
	ctx.out = pr_jobj("id", pr_jint(ctx.run), "label", json_string(ctx.label), "source",
			  json_string(pr_actx_text(rs, 4)), "content_hash",
			  json_string(pr_actx_text(rs, 15)), "format", json_string(ctx.format),
			  "collector", json_string(ctx.collector), "rank", opt_int(rs, 5),
			  "world_size", opt_int(rs, 6), "clock", clock, "counts",
			  pr_jobj("spans", pr_jint(sqlite3_column_int64(rs, 12)), "samples",
				  pr_jint(sqlite3_column_int64(rs, 13)), "instants",
				  pr_jint(sqlite3_column_int64(rs, 14)), NULL),
			  NULL);
	/* the user's labels (--meta): commit, branch, build, time, ... */
	{
		json_t *um = pr_store_run_meta(db, ctx.run, err);
		if (!um)
			goto out;
		if (json_object_size(um))
			json_object_set_new(ctx.out, "meta", um);
		else
			json_decref(um);
	}

	/* the points first: the shared span pass (run for the steps and phases) answers them */
	if (pr_actx_perf_events(&ctx, err) || load_series(&ctx, err) || gather_points(&ctx, err) ||
	    load_steps_phases(&ctx, &nstep_names, err) ||
	    (!ctx.nphases && ctx.nsteps && infer_phases(&ctx, &ctx.nphase_names, err)))
		goto out;
	group_phases(&ctx);
	timing(timed, ctx.run, "context", t0);
	check_order();
	for (i = 0; i < PR_ARRAY_SIZE(analyzers); i++) {
		const struct pr_analyzer *an = analyzers[i];
		if (an->run(&ctx, err) || pr_actx_series_failed(&ctx, err))
			goto out;
		timing(timed, ctx.run, an->name, t0);
	}
	/* the published results next to the sections (a test's look; results.h) */
	if (ctx.opts->results)
		ctx.opts->results(ctx.opts->results_arg, pr_results(&ctx), ctx.out);
	if (ctx.phases_inferred)
		note_inferred(&ctx);
	if (reported_and_diags(&ctx, err))
		goto out;
	ret = 0;
out:
	ctx_release(&ctx);
	if (ret) {
		json_decref(ctx.out);
		return NULL;
	}
	return ctx.out;
}

/*
 * The options that change a run's model, as the model cache's key: every
 * field of pr_model_opts but run (which only picks runs) and cache. The
 * regular expression goes with its length, so no text of it can imitate
 * the fields after it.
 */
static void options_key(const struct pr_model_opts *o, struct pr_strbuf *sb)
{
	pr_strbuf_addf(sb, "top_n=%zu max_phases=%zu timeline_points=%zu ", o->top_n, o->max_phases,
		       o->timeline_points);
	/* the budgets of spanstat.h, when the environment changed them */
	if (pr_spanstat_groups_max != PR_MAX_NAMES_DEFAULT ||
	    pr_spanstat_sp_max != PR_MAX_STEPS_DEFAULT)
		pr_strbuf_addf(sb, "max_names=%zu max_steps=%zu ", pr_spanstat_groups_max,
			       pr_spanstat_sp_max);
	if (pr_critpath_max_events != PR_CRITPATH_EVENTS_DEFAULT)
		pr_strbuf_addf(sb, "critpath_events=%zu ", pr_critpath_max_events);
	if (pr_kseq_max_ngrams != PR_KSEQ_NGRAMS_DEFAULT)
		pr_strbuf_addf(sb, "kseq_ngrams=%zu ", pr_kseq_max_ngrams);
	pr_strbuf_addstr(sb, "comm_kernels=");
	if (o->comm_kernels)
		pr_strbuf_addf(sb, "%zu:%s", strlen(o->comm_kernels), o->comm_kernels);
	else
		pr_strbuf_addstr(sb, "none");
	/* the trace view's window, the same way (a cached model is never another window's) */
	if (o->window)
		pr_strbuf_addf(sb, " window=%zu:%s", strlen(o->window), o->window);
	if (o->critpath_annotation) /* the critical path's window, the same way */
		pr_strbuf_addf(sb, " critpath_annotation=%zu:%s", strlen(o->critpath_annotation),
			       o->critpath_annotation);
}

static void digest_copy(json_t *d, const json_t *from, const char *key)
{
	json_t *v = json_object_get(from, key);
	if (v)
		json_object_set(d, key, v);
}

/* d[key] = {k: from[key][k]} for the keys ks (NULL-ended) that from[key] has; nothing when
 * from[key] is not an object. Returns d[key] or NULL. */
static json_t *digest_pick(json_t *d, const json_t *from, const char *key, const char *const *ks)
{
	json_t *x = json_object_get(from, key), *o;
	if (!json_is_object(x))
		return NULL;
	o = json_object();
	for (; *ks; ks++)
		digest_copy(o, x, *ks);
	json_object_set_new(d, key, o);
	return o;
}

/*
 * What a store's history reads (cli/history.c, analyze/headline.c: `changes`, `metrics`) beyond
 * the digest's other keys, in the run's shape: the throughput with the steps' bounds, the GPU
 * busy share's three sources, the primary series, and each listed span's name, count and
 * total. It goes into the digest as one string of compact JSON ("history"), so that a history of
 * many runs reads the small digests from the model cache instead of parsing every run's whole
 * model, while the archive's index, which reads every run's digest, pays only a string's copy
 * for it, not a tree of objects.
 */
static json_t *digest_history(const json_t *run)
{
	static const char *const tokens[] = { "tokens_per_s", NULL };
	static const char *const fps[] = { "fps", NULL };
	static const char *const steps[] = { "p50_ns", "per_s", "min_ns", "max_ns", NULL };
	static const char *const busy[] = { "busy_ns", "active_ns", NULL };
	static const char *const share[] = { "busy_share", NULL };
	static const char *const series[] = { "name", "device", NULL };
	static const char *const item[] = { "name", "count", "total_ns", NULL };
	static const char *const none[] = { NULL };
	const json_t *b = json_object_get(run, "bottlenecks"), *x;
	json_t *h = json_object(), *o, *arr;
	char *text;
	size_t i;
	if ((o = digest_pick(h, run, "throughput", none))) {
		x = json_object_get(run, "throughput");
		digest_pick(o, x, "tokens", tokens);
		digest_pick(o, x, "blocks", fps);
		digest_pick(o, x, "steps", steps);
	}
	if ((o = digest_pick(h, run, "gpu_breakdown", none)))
		digest_pick(o, json_object_get(run, "gpu_breakdown"), "rank", share);
	if ((o = digest_pick(h, run, "bottlenecks", none))) {
		digest_pick(o, b, "gpu_kernels", busy);
		if (json_is_array(json_object_get(b, "gpu_util"))) {
			arr = json_array();
			json_array_foreach (json_object_get(b, "gpu_util"), i, x) {
				json_t *e = json_object();
				if (json_is_object(x))
					digest_copy(e, x, "mean_pct");
				json_array_append_new(arr, e);
			}
			json_object_set_new(o, "gpu_util", arr);
		}
	}
	digest_pick(h, run, "primary_series", series);
	x = json_object_get(json_object_get(run, "spans"), "items");
	if (json_is_array(x)) {
		const json_t *it;
		arr = json_array();
		json_array_foreach (x, i, it) {
			json_t *e = json_object();
			size_t k;
			for (k = 0; item[k] && json_is_object(it); k++)
				digest_copy(e, it, item[k]);
			json_array_append_new(arr, e);
		}
		json_object_set_new(h, "spans", pr_jobj("items", arr, NULL));
	}
	text = json_dumps(h, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(h);
	o = json_string(text ? text : "{}");
	free(text);
	return o;
}

json_t *pr_model_digest(const json_t *run)
{
	json_t *d = json_object(), *pk, *t = json_object_get(run, "throughput"), *dt, *x, *dx;
	json_t *peaks, *recs;
	size_t i;
	/* what the index reads: its table, its kinds (format / collector) and trends */
	static const char *const whole[] = { "id",     "label",	    "source", "content_hash",
					     "format", "collector", "clock",  "meta" };
	for (i = 0; i < PR_ARRAY_SIZE(whole); i++)
		digest_copy(d, run, whole[i]);
	if (json_is_array(json_object_get(run, "peaks"))) {
		peaks = json_array();
		json_array_foreach (json_object_get(run, "peaks"), i, pk) {
			json_t *p = json_object();
			digest_copy(p, pk, "series");
			digest_copy(p, pk, "device");
			digest_copy(p, pk, "value");
			json_array_append_new(peaks, p);
		}
		json_object_set_new(d, "peaks", peaks);
	}
	if (json_is_object(t)) {
		static const char *const parts[][3] = { { "tokens", "tokens_per_s", NULL },
							{ "blocks", "fps", NULL },
							{ "steps", "p50_ns", "per_s" } };
		dt = json_object();
		for (i = 0; i < PR_ARRAY_SIZE(parts); i++) {
			size_t k;
			x = json_object_get(t, parts[i][0]);
			if (!x)
				continue;
			if (!json_is_object(x)) {
				json_object_set(dt, parts[i][0], x);
				continue;
			}
			dx = json_object();
			for (k = 1; k < 3 && parts[i][k]; k++)
				digest_copy(dx, x, parts[i][k]);
			json_object_set_new(dt, parts[i][0], dx);
		}
		json_object_set_new(d, "throughput", dt);
	}
	if (json_is_array(json_object_get(run, "recommendations"))) {
		recs = json_array();
		for (i = 0; i < json_array_size(json_object_get(run, "recommendations")); i++)
			json_array_append_new(recs, json_null());
		json_object_set_new(d, "recommendations", recs);
	}
	json_object_set_new(d, "history", digest_history(run));
	return d;
}

/* Cached text is written in full precision and read back to the same values. */
#define CACHE_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER)
/* Queued cache rows are written out once they hold this much text. */
#define CACHE_FLUSH_BYTES (32u << 20)

struct run_ref {
	int64_t id;
	char *label, *hash;
};

/* The rows of list_runs' statement into out: SQLITE_DONE, or SQLite's error. */
static int list_step(sqlite3_stmt *st, struct run_ref **out, size_t *n, size_t *cap_)
{
	size_t cap = *cap_;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*out = pr_xreallocarray(*out, cap, sizeof(**out));
		}
		(*out)[*n].id = sqlite3_column_int64(st, 0);
		(*out)[*n].label = pr_xstrdup((const char *)sqlite3_column_text(st, 1));
		(*out)[(*n)++].hash = pr_xstrdup((const char *)sqlite3_column_text(st, 2));
	}
	*cap_ = cap;
	return rc;
}

static int list_runs(sqlite3 *db, const struct pr_model_opts *o, struct run_ref **out, size_t *n,
		     struct pr_error *err)
{
	long run = o->run;
	sqlite3_stmt *st;
	size_t cap = 0, k = 0;
	int rc;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT id, ifnull(label, ''), content_hash FROM run "
			       "WHERE id BETWEEN ?1 AND ?2 ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
		return -1;
	}
	/* one run, or (0) all: a range on the rowid, which a store of 10 000 runs
	 * reads by its key, where "?1 = 0 OR id = ?1" scanned the whole table;
	 * o->ids: each of them (within run), one lookup each */
	for (;;) {
		int64_t lo = run ? (int64_t)run : INT64_MIN, hi = run ? (int64_t)run : INT64_MAX;
		if (o->ids) {
			for (; k < o->nids && (o->ids[k] < lo || o->ids[k] > hi); k++)
				;
			if (k == o->nids) {
				rc = SQLITE_DONE;
				break;
			}
			lo = hi = o->ids[k++];
		}
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, lo);
		sqlite3_bind_int64(st, 2, hi);
		rc = list_step(st, out, n, &cap);
		if (rc != SQLITE_DONE || !o->ids)
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* A digest's text without its history part, in place: the digest's last key (pr_model_digest),
 * whose unescaped `,"history":"` is the text's last (in a string a quote is escaped). */
static void cut_history(char *text)
{
	static const char key[] = ",\"history\":\"";
	char *p = text, *last = NULL;
	while ((p = strstr(p, key)) != NULL)
		last = p++;
	if (last) {
		last[0] = '}';
		last[1] = 0;
	}
}

/* The cached object (model or digest) of a run, or NULL. */
static json_t *cache_read(struct pr_store *store, const struct run_ref *r, const char *key,
			  int what, int history, struct pr_error *err, int *failed)
{
	char *text = NULL;
	json_t *v = NULL;
	json_error_t jerr;
	int rc = pr_store_cache_get(store, r->id, PR_ANALYZER_VERSION, key, what, &text, err);
	if (rc < 0)
		*failed = 1;
	if (rc == 1 && what == PR_CACHE_DIGEST && !history)
		cut_history(text);
	if (rc == 1) {
		v = json_loads(text, 0, &jerr);
		/* a row that is not an object (not written by this code) is not used */
		if (!json_is_object(v) || json_integer_value(json_object_get(v, "id")) != r->id) {
			json_decref(v);
			v = NULL;
		}
	}
	free(text);
	return v;
}

static void cache_write(struct pr_store *store, const struct run_ref *r, const char *key,
			const json_t *run, const json_t *digest)
{
	char *m = json_dumps(run, CACHE_FLAGS), *d = json_dumps(digest, CACHE_FLAGS);
	if (m && d)
		pr_store_cache_put(store, r->id, r->hash, PR_ANALYZER_VERSION, key, m, d);
	free(m);
	free(d);
}

/* The environment's budgets of the analyses (read before a model is built or keyed). */
static int budgets(struct pr_error *err)
{
	return pr_spanstat_budgets(err) ||
			       pr_env_number(PR_CRITPATH_EVENTS_ENV, PR_CRITPATH_EVENTS_DEFAULT, 1,
					     PR_MAX_COUNT_MAX, 0, &pr_critpath_max_events, err) ||
			       pr_env_number(PR_KSEQ_NGRAMS_ENV, PR_KSEQ_NGRAMS_DEFAULT, 1,
					     UINT32_MAX - 1, 0, &pr_kseq_max_ngrams, err)
		       ? -1
		       : 0;
}

int pr_model_options_stamp(const struct pr_model_opts *opts, struct pr_strbuf *sb,
			   struct pr_error *err)
{
	if (budgets(err))
		return -1;
	pr_strbuf_addstr(sb, PR_ANALYZER_VERSION " ");
	options_key(opts, sb);
	return 0;
}

int pr_model_each(struct pr_store *store, const struct pr_model_opts *opts, pr_model_want_fn *want,
		  pr_model_run_fn *fn, void *ctx, struct pr_error *err)
{
	sqlite3 *db = pr_store_db(store);
	sqlite3_stmt *rs = NULL;
	struct run_ref *refs = NULL;
	struct pr_strbuf key = PR_STRBUF_INIT;
	size_t n = 0, i;
	int ret = -1;
	int timed = pr_timings_on();

	if (budgets(err))
		goto out;
	/* the analyses read in passes: a small page cache (its memory is the report's) */
	if (pr_store_read_cache(store)) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
		goto out;
	}
	options_key(opts, &key);
	if (list_runs(db, opts, &refs, &n, err))
		goto out;
	if (opts->run && n == 0) {
		pr_error_set(err, PR_E_USAGE, "no run %ld in the store", opts->run);
		goto out;
	}
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT id, format, ifnull(collector, ''), ifnull(label, ''), source, "
		    "rank, world_size, ts_min, ts_max, time_origin_ns, time_synthetic, meta, "
		    "span_count, sample_count, instant_count, content_hash FROM run "
		    "WHERE id = ?1",
		    -1, &rs, NULL) != SQLITE_OK) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct run_ref *r = &refs[i];
		int wv = want ? want(ctx, r->id, r->label, r->hash) : 1, whole = wv != 0;
		int failed = 0, rc;
		double t0[2] = { 0, 0 };
		json_t *run = NULL;
		if (wv < 0)
			continue; /* neither the run nor its digest */
		if (timed) {
			t0[0] = pr_clock_s(CLOCK_MONOTONIC);
			t0[1] = pr_clock_s(CLOCK_THREAD_CPUTIME_ID);
		}
		if (opts->progress)
			opts->progress(opts->progress_ctx, i + 1, n, r->label);
		if (opts->cache) {
			run = cache_read(store, r, key.buf,
					 whole ? PR_CACHE_MODEL : PR_CACHE_DIGEST,
					 opts->digest_history, err, &failed);
			if (failed)
				goto out;
			if (run)
				timing(timed, r->id, "model_cache", t0);
		}
		if (!run) {
			sqlite3_bind_int64(rs, 1, r->id);
			if (sqlite3_step(rs) != SQLITE_ROW) {
				pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
				goto out;
			}
			run = build_run(db, rs, opts, err);
			sqlite3_reset(rs);
			if (!run)
				goto out;
			if (opts->cache || !whole) {
				json_t *d = pr_model_digest(run);
				if (opts->cache)
					cache_write(store, r, key.buf, run, d);
				if (!whole) {
					json_decref(run);
					run = d;
				} else {
					json_decref(d);
				}
			}
		}
		rc = fn(ctx, run, whole, err);
		json_decref(run);
		if (rc) {
			ret = rc;
			goto out;
		}
		if (opts->cache && pr_store_cache_pending(store) >= CACHE_FLUSH_BYTES)
			pr_store_cache_flush(store);
	}
	ret = 0;
out:
	sqlite3_finalize(rs);
	/* what was built is cached even when a later step failed */
	if (opts->cache && pr_store_cache_pending(store)) {
		int w = pr_store_cache_flush(store);
		if (timed)
			fprintf(stderr, "profreport: timing: model_cache %s %d run(s)\n",
				w < 0 ? "could not write" : "wrote", w < 0 ? 0 : w);
	}
	for (i = 0; i < n; i++) {
		free(refs[i].label);
		free(refs[i].hash);
	}
	free(refs);
	pr_strbuf_release(&key);
	return ret;
}

static int append_run(void *ctx, json_t *run, int whole, struct pr_error *err)
{
	(void)whole;
	(void)err;
	return json_array_append(ctx, run);
}

json_t *pr_model_build(struct pr_store *store, const struct pr_model_opts *opts,
		       struct pr_error *err)
{
	json_t *runs = json_array();
	json_t *model = pr_jobj("schema", json_string(PR_MODEL_SCHEMA), "version",
				pr_jint(PR_MODEL_VERSION), "runs", runs, NULL);
	if (pr_model_each(store, opts, NULL, append_run, runs, err)) {
		json_decref(model);
		return NULL;
	}
	return model;
}

#define DUMP_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12))

char *pr_model_dumps(const json_t *model)
{
	return json_dumps(model, DUMP_FLAGS);
}

int pr_model_write(const json_t *model, const char *path, struct pr_error *err)
{
	char *text = pr_model_dumps(model);
	struct pr_output out;
	int rc = pr_output_open_file(&out, path, err);
	if (!rc) {
		pr_output_write(&out, text,
				strlen(text)); /* failures are sticky: close reports them */
		pr_output_write(&out, "\n", 1);
		rc = pr_output_close(&out, err);
	}
	pr_output_release(&out);
	free(text);
	return rc;
}

json_t *pr_model_load(const char *path, struct pr_error *err)
{
	json_error_t jerr;
	json_t *m = json_load_file(path, 0, &jerr), *s, *v;
	if (!m) {
		pr_error_at(err, PR_E_PARSE, -1, jerr.line, jerr.column, "%s", jerr.text);
		pr_error_set_source(err, path);
		return NULL;
	}
	s = json_object_get(m, "schema");
	v = json_object_get(m, "version");
	if (!json_is_string(s) || strcmp(json_string_value(s), PR_MODEL_SCHEMA) ||
	    !json_is_integer(v) || !json_is_array(json_object_get(m, "runs"))) {
		json_decref(m);
		pr_error_set(err, PR_E_FORMAT, "not a profreport model (no \"schema\": \"%s\")",
			     PR_MODEL_SCHEMA);
		pr_error_set_source(err, path);
		return NULL;
	}
	if (json_integer_value(v) != PR_MODEL_VERSION) {
		pr_error_set(err, PR_E_FORMAT, "model version %lld is not supported (this is %d)",
			     (long long)json_integer_value(v), PR_MODEL_VERSION);
		pr_error_set_source(err, path);
		json_decref(m);
		return NULL;
	}
	return m;
}

int pr_model_sniff(const char *path)
{
	return pr_json_head_names_schema(path, 255, PR_MODEL_SCHEMA);
}
