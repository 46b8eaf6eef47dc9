/*
 * an_cuptirange.c - "cupti_ranges": the counters of the CUPTI range
 * profiler (torch.profiler with Kineto's CUDA_PROFILER_RANGE activity:
 * `cuda_profiler_range` events, span kind profiler_range) per range and
 * per op.
 *
 * What Kineto writes (libkineto/src/CuptiRangeProfiler.cpp): one event per
 * range, named after its kernel in per-kernel (auto range) mode, on the
 * device's pid, one arg per counter (e.g.
 * smsp__sass_thread_inst_executed_op_ffma_pred_on.sum); no kernel events
 * (the range profiler runs alone) and no correlation: the ranges' times
 * are the profiling span split evenly among them ("the actual times do not
 * really matter here"), as each kernel is replayed once per counter pass.
 * So their time is replay, no GPU work: ingest keeps them off the GPU
 * streams (no kernel, no busy time, no step breakdown share) and this
 * section states it as replay_ns.
 *
 * The op of a range, HTA's rule (hta/analyzers/cupti_counter_analysis.py,
 * get_counter_data_with_operators): the ranges in time order are matched
 * one to one with the runtime calls named cudaLaunchKernel* in time order,
 * only when there are as many of each (else no range has an op, as HTA
 * gives no result); a range's op is the nearest cpu op above its call
 * (HTA's bottom_level_op), its top_op the outermost (top_level_op). FLOPs:
 * HTA's CUDA_SASS_INSTRUCTION_COUNTER_FLOPS, the 9 SASS thread instruction
 * counters smsp__sass_thread_inst_executed_op_{f,h,d}{fma,mul,add}_pred_on.sum,
 * an FMA counting 2; null where a range has none of them.
 *
 * HOW: the ranges and the calls are read side by side in time order (two
 * statements stepped together), each call's ancestors looked up by id (at
 * most ANC_MAX of them). Memory: the first RANGE_ITEMS ranges, per op name
 * (at most OP_NAMES, the rest in "(other ops)") and per counter name (at
 * most COUNTER_NAMES, the rest not summed but counted) their sums.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/model.h"
#include "analyze/spanstat.h"
#include "base/jsonx.h"
#include "base/strmap.h"
#include "base/xalloc.h"

#define RANGE_ITEMS 50
#define OP_NAMES 4096
#define COUNTER_NAMES 256
#define ANC_MAX 256
#define OTHER_OPS "(other ops)"

/* HTA's FLOPs per SASS thread instruction counter (FMA: 2). */
static double flops_weight(const char *counter)
{
	static const char pre[] = "smsp__sass_thread_inst_executed_op_";
	static const char *const ops[] = { "ffma", "fmul", "fadd", "hfma", "hmul",
					   "hadd", "dfma", "dmul", "dadd" };
	size_t i, n = sizeof(pre) - 1;
	if (strncmp(counter, pre, n))
		return 0;
	for (i = 0; i < PR_ARRAY_SIZE(ops); i++)
		if (!strncmp(counter + n, ops[i], 4) && !strcmp(counter + n + 4, "_pred_on.sum"))
			return ops[i][1] == 'f' && ops[i][2] == 'm' ? 2 : 1;
	return 0;
}

struct sums { /* per op name, or the run's */
	char *name;
	int64_t ranges, with_flops;
	double flops;
	double *v; /* per counter index, COUNTER_NAMES of them */
};

struct cr {
	struct pr_actx *ctx;
	char **counters;
	size_t ncounters;
	int64_t counters_dropped;
	struct pr_strmap counter_idx;
	struct sums all;
	struct sums *ops;
	size_t nops;
	struct pr_strmap op_idx;
	json_t *items;
	sqlite3_stmt *up;
};

static void sums_add(struct sums *s, size_t ncounters, const double *v, const int *has,
		     double flops, int has_flops)
{
	size_t i;
	s->ranges++;
	if (has_flops) {
		s->flops += flops;
		s->with_flops++;
	}
	for (i = 0; i < ncounters; i++)
		if (has[i])
			s->v[i] += v[i];
}

static struct sums *op_sums(struct cr *c, const char *name)
{
	int64_t k;
	size_t n = strlen(name);
	if (pr_strmap_get(&c->op_idx, name, n, &k))
		return &c->ops[k];
	if (c->nops == OP_NAMES)
		name = OTHER_OPS, n = strlen(OTHER_OPS);
	if (pr_strmap_get(&c->op_idx, name, n, &k))
		return &c->ops[k];
	c->ops = pr_xreallocarray(c->ops, c->nops + 1, sizeof(*c->ops));
	memset(&c->ops[c->nops], 0, sizeof(*c->ops));
	c->ops[c->nops].name = pr_xstrdup(name);
	c->ops[c->nops].v = pr_xcalloc(COUNTER_NAMES, sizeof(double));
	pr_strmap_put(&c->op_idx, name, n, (int64_t)c->nops);
	return &c->ops[c->nops++];
}

/* Index of a counter name, a new one at the end (-1: past COUNTER_NAMES). */
static long counter(struct cr *c, const char *name)
{
	int64_t k;
	size_t n = strlen(name);
	if (pr_strmap_get(&c->counter_idx, name, n, &k))
		return (long)k;
	if (c->ncounters == COUNTER_NAMES) {
		c->counters_dropped++;
		return -1;
	}
	c->counters = pr_xreallocarray(c->counters, c->ncounters + 1, sizeof(char *));
	c->counters[c->ncounters] = pr_xstrdup(name);
	pr_strmap_put(&c->counter_idx, name, n, (int64_t)c->ncounters);
	return (long)c->ncounters++;
}

/* The nearest and the outermost op above span id (names, new strings; NULL for none). */
static int ops_above(struct cr *c, int64_t id, char **near, char **top, struct pr_error *err)
{
	size_t depth = 0;
	*near = *top = NULL;
	while (id > 0 && depth++ < ANC_MAX) {
		int rc;
		sqlite3_reset(c->up);
		sqlite3_bind_int64(c->up, 2, id);
		rc = sqlite3_step(c->up);
		if (rc == SQLITE_DONE)
			break;
		if (rc != SQLITE_ROW)
			return pr_error_set(err, PR_E_STORE, "sqlite: %s",
					    sqlite3_errmsg(c->ctx->db));
		if (!strcmp(pr_actx_text(c->up, 0), "op")) {
			free(*top);
			*top = pr_xstrdup(pr_actx_text(c->up, 1));
			if (!*near)
				*near = pr_xstrdup(*top);
		}
		id = sqlite3_column_type(c->up, 2) == SQLITE_INTEGER
			     ? sqlite3_column_int64(c->up, 2)
			     : 0;
	}
	return 0;
}

static json_t *counters_json(const struct cr *c, const double *v, const int *has)
{
	json_t *o = json_object();
	size_t i;
	for (i = 0; i < c->ncounters; i++)
		if (!has || has[i])
			json_object_set_new(o, c->counters[i], pr_jnum(v[i]));
	return o;
}

/* One range: its counters from the stored args (keys: the argkeys list, vals: the args). */
static int one_range(struct cr *c, sqlite3_stmt *st, const char *op, const char *top,
		     int64_t *nitems)
{
	json_t *keys = NULL, *vals = NULL, *k;
	double *v = pr_xcalloc(COUNTER_NAMES, sizeof(double)), flops = 0;
	int *has = pr_xcalloc(COUNTER_NAMES, sizeof(int)), has_flops = 0;
	size_t i;
	if (sqlite3_column_type(st, 4) == SQLITE_TEXT &&
	    sqlite3_column_type(st, 5) == SQLITE_TEXT) {
		vals = json_loads(pr_actx_text(st, 4), JSON_DECODE_ANY, NULL);
		keys = json_loads(pr_actx_text(st, 5), JSON_DECODE_ANY, NULL);
	}
	json_array_foreach (keys, i, k) {
		json_t *x = json_array_get(vals, i);
		long ci;
		double w;
		if (!json_is_string(k) || !json_is_number(x) || !isfinite(json_number_value(x)))
			continue;
		if ((ci = counter(c, json_string_value(k))) < 0)
			continue;
		v[ci] = json_number_value(x);
		has[ci] = 1;
		if ((w = flops_weight(json_string_value(k))) > 0) {
			flops += w * v[ci];
			has_flops = 1;
		}
	}
	sums_add(&c->all, c->ncounters, v, has, flops, has_flops);
	sums_add(op_sums(c, op ? op : "(no op)"), c->ncounters, v, has, flops, has_flops);
	if ((*nitems)++ < RANGE_ITEMS)
		json_array_append_new(c->items,
				      pr_jobj("name", json_string(pr_actx_text(st, 1)), "device",
					      json_string(pr_actx_text(st, 6)), "t_ns",
					      pr_actx_t(c->ctx, sqlite3_column_int64(st, 2)),
					      "dur_ns", pr_jint(sqlite3_column_int64(st, 3)), "op",
					      op ? json_string(op) : json_null(), "top_op",
					      top ? json_string(top) : json_null(), "counters",
					      counters_json(c, v, has), "flops",
					      has_flops ? pr_jnum(flops) : json_null(), NULL));
	json_decref(keys);
	json_decref(vals);
	free(v);
	free(has);
	return 0;
}

static int count(struct pr_actx *ctx, const char *sql, int64_t *n, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (pr_actx_prep(ctx, sql, &st, err))
		return -1;
	rc = sqlite3_step(st);
	*n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	return pr_actx_done(ctx, st, rc == SQLITE_ROW ? SQLITE_DONE : rc, err);
}

static int cmp_ops(const void *a, const void *b)
{
	const struct sums *x = a, *y = b;
	if (x->flops != y->flops)
		return x->flops > y->flops ? -1 : 1;
	if (x->ranges != y->ranges)
		return x->ranges > y->ranges ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The section, counters in name order. */
static json_t *section(struct cr *c, int64_t nranges, int64_t nlaunch, int64_t replay,
		       int64_t first, int64_t last, int linked)
{
	json_t *o, *cs = json_array(), *ops = json_array();
	size_t i, *ord = pr_xreallocarray(NULL, c->ncounters ? c->ncounters : 1, sizeof(size_t));
	char **sorted = pr_xreallocarray(NULL, c->ncounters ? c->ncounters : 1, sizeof(char *));
	size_t cap = c->ctx->opts->top_n, more = 0;
	int64_t k;
	if (c->ncounters) {
		memcpy(sorted, c->counters, c->ncounters * sizeof(char *));
		qsort(sorted, c->ncounters, sizeof(char *), cmp_str);
	}
	for (i = 0; i < c->ncounters; i++) {
		pr_strmap_get(&c->counter_idx, sorted[i], strlen(sorted[i]), &k);
		ord[i] = (size_t)k;
		json_array_append_new(cs, pr_jobj("name", json_string(sorted[i]), "total",
						  pr_jnum(c->all.v[k]), NULL));
	}
	if (c->nops)
		qsort(c->ops, c->nops, sizeof(*c->ops), cmp_ops);
	for (i = 0; i < c->nops; i++) {
		json_t *cv = json_object();
		size_t j;
		if (i >= cap) {
			more++;
			continue;
		}
		for (j = 0; j < c->ncounters; j++)
			json_object_set_new(cv, sorted[j], pr_jnum(c->ops[i].v[ord[j]]));
		json_array_append_new(ops, pr_jobj("op", json_string(c->ops[i].name), "ranges",
						   pr_jint(c->ops[i].ranges), "flops",
						   c->ops[i].with_flops ? pr_jnum(c->ops[i].flops)
									: json_null(),
						   "counters", cv, NULL));
	}
	o = pr_jobj("ranges", pr_jint(nranges), "launches", pr_jint(nlaunch), "linked",
		    pr_jint(linked ? nranges : 0), "replay_ns", pr_jint(replay), "span_ns",
		    pr_jint(last - first), "flops",
		    c->all.with_flops ? pr_jnum(c->all.flops) : json_null(), "counters", cs,
		    "counters_dropped", c->counters_dropped ? pr_jint(c->counters_dropped) : NULL,
		    "items", c->items, "items_more",
		    nranges > RANGE_ITEMS ? pr_jint(nranges - RANGE_ITEMS) : NULL, "by_op", ops,
		    "by_op_more", more ? pr_jint((int64_t)more) : NULL, NULL);
	c->items = NULL;
	json_object_set_new(
		o, "rule",
		json_string("CUPTI range profiler (Kineto's cuda_profiler_range events): one "
			    "range per kernel or user range, its counters the event's numeric "
			    "args; their times are the profiling span split evenly among the "
			    "ranges (kernel replay), so replay_ns is kept out of GPU time and "
			    "utilisation. HTA's op link: the ranges and the cudaLaunchKernel* "
			    "calls, each in time order, paired one to one when there are as many "
			    "of each (linked = ranges), else none; op = the nearest cpu op above "
			    "the call, top_op the outermost; flops = HTA's SASS thread "
			    "instruction counters (f/h/d fma x 2, mul, add); by_op: per op, "
			    "most flops first, the top N"));
	free(ord);
	free(sorted);
	return o;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct cr c;
	sqlite3_stmt *rs = NULL, *ls = NULL;
	int64_t nranges, nlaunch, nitems = 0, replay = 0, first = 0, last = 0;
	int rc, ret = -1, linked;
	size_t i;
	const struct pr_spanstat *ss = pr_spanstat_get(ctx, err);
	if (!ss)
		return -1;
	/* the shared pass knows the run's span kinds: no scan for a run without ranges */
	for (i = 0; i < ss->nkinds && strcmp(ss->kinds[i], "profiler_range"); i++)
		;
	if (i == ss->nkinds)
		return 0;
	if (count(ctx, "SELECT count(*) FROM span WHERE run_id = ?1 AND kind = 'profiler_range'",
		  &nranges, err))
		return -1;
	if (!nranges)
		return 0;
	if (count(ctx,
		  "SELECT count(*) FROM span s JOIN string n ON n.id = s.name_id WHERE s.run_id = "
		  "?1 AND s.kind = 'runtime' AND n.value LIKE 'cudaLaunchKernel%'",
		  &nlaunch, err))
		return -1;
	linked = nlaunch == nranges;
	memset(&c, 0, sizeof(c));
	c.ctx = ctx;
	c.items = json_array();
	c.counter_idx = (struct pr_strmap)PR_STRMAP_INIT;
	c.op_idx = (struct pr_strmap)PR_STRMAP_INIT;
	c.all.v = pr_xcalloc(COUNTER_NAMES, sizeof(double));
	if (pr_actx_prep(ctx,
			 "SELECT s.id, n.value, s.ts, s.dur, s.args, k.keys, t.pid FROM span s "
			 "JOIN string n ON n.id = s.name_id JOIN track t ON t.id = s.track_id "
			 "LEFT JOIN argkeys k ON k.id = s.args_keys "
			 "WHERE s.run_id = ?1 AND s.kind = 'profiler_range' ORDER BY s.ts, s.id",
			 &rs, err) ||
	    (linked &&
	     pr_actx_prep(ctx,
			  "SELECT s.parent_id FROM span s JOIN string n ON n.id = s.name_id "
			  "WHERE s.run_id = ?1 AND s.kind = 'runtime' AND "
			  "n.value LIKE 'cudaLaunchKernel%' ORDER BY s.ts, s.id",
			  &ls, err)) ||
	    (linked && pr_actx_prep(ctx,
				    "SELECT s.kind, n.value, s.parent_id FROM span s JOIN string n "
				    "ON n.id = s.name_id WHERE s.id = ?2 AND ?1 IS NOT NULL",
				    &c.up, err)))
		goto out;
	while ((rc = sqlite3_step(rs)) == SQLITE_ROW) {
		char *op = NULL, *top = NULL;
		int64_t ts = sqlite3_column_int64(rs, 2), dur = sqlite3_column_int64(rs, 3);
		if (!nitems)
			first = ts;
		if (ts + dur > last || !nitems)
			last = ts > INT64_MAX - dur ? INT64_MAX : ts + dur;
		replay = dur > INT64_MAX - replay ? INT64_MAX : replay + dur;
		if (linked) {
			int lr = sqlite3_step(ls);
			if (lr == SQLITE_ROW && sqlite3_column_type(ls, 0) == SQLITE_INTEGER &&
			    ops_above(&c, sqlite3_column_int64(ls, 0), &op, &top, err))
				goto out;
		}
		one_range(&c, rs, op, top, &nitems);
		free(op);
		free(top);
	}
	if (rc != SQLITE_DONE) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
		goto out;
	}
	json_object_set_new(ctx->out, "cupti_ranges",
			    section(&c, nranges, nlaunch, replay, first, last, linked));
	ret = 0;
out:
	if (rs)
		sqlite3_finalize(rs);
	if (ls)
		sqlite3_finalize(ls);
	if (c.up)
		sqlite3_finalize(c.up);
	json_decref(c.items);
	for (i = 0; i < c.ncounters; i++)
		free(c.counters[i]);
	free(c.counters);
	for (i = 0; i < c.nops; i++) {
		free(c.ops[i].name);
		free(c.ops[i].v);
	}
	free(c.ops);
	free(c.all.v);
	pr_strmap_release(&c.counter_idx);
	pr_strmap_release(&c.op_idx);
	return ret;
}

const struct pr_analyzer pr_an_cuptirange = {
	.name = "cupti_ranges",
	.summary = "CUPTI range profiler: counters per range and per op, replay out of GPU time",
	.run = run,
	.stage = PR_STAGE_GPU_LATE,
};
