/* compare.c - two analysis models -> a comparison (see compare.h). */
#include "analyze/multi/compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

enum group {
	G_STEP,
	G_TPUT,
	G_PHASE,
	G_PEAK,
	G_FRAG,
	G_GPU,
	G_SPAN,
	G_REPORTED,
	G_PERF
};
static const char *const group_names[] = { "step", "throughput",    "phase",
					   "peak", "fragmentation", "gpu",
					   "span", "reported",	    "perf" };

enum kind {
	K_TIME,
	K_MEM,
	K_TPUT,
	K_RATIO,
	K_SHARE,
	K_INFO
};
static const char *const kind_names[] = {
	"time", "memory", "throughput", "ratio", "share", "info"
};

enum agg {
	AGG_MEDIAN,
	AGG_MAX,
	AGG_MEAN
};

struct dvec {
	double *v;
	size_t n, a;
};

struct side {
	int present;
	struct dvec samp;  /* within-run samples: steps, occurrences, per-step times */
	struct dvec runv;  /* one value per run (or run and device) */
	int steps_ok;	   /* spans: every run that has the name gave per_step_ns */
	long last_run;	   /* spans: run index of the last runv entry */
	size_t samp_start; /* spans: where that run's per-step samples start */
	double total_ns;   /* spans: summed total over runs (noise floor) */
	double calls;	   /* spans: summed call count over runs */
	double value;	   /* the aggregate, set at compare time */
};

struct metric {
	char *id, *name;
	enum group group;
	enum kind kind;
	enum agg agg;
	char unit[32];
	struct side s[2];
	double sortkey;
	int bad_dir; /* shares: +1 an increase is bad (idle), -1 a decrease (overlap) */
	int opt_in;  /* reported, gated only by a --fail-on / config rule (perf:, tflops:) */
};

struct table {
	struct metric *m;
	size_t n, a;
	struct pr_strmap idx;
	double dur_ns[2]; /* summed run time per side */
	size_t runs[2];
	double steps[2];  /* summed step count per side */
	int steps_all[2]; /* every run of the side has steps */
	int gpu[2];	  /* some run of the side has GPU ops (a gpu_breakdown) */
};

static void dpush(struct dvec *d, double x)
{
	if (d->n == d->a) {
		d->a = d->a ? 2 * d->a : 16;
		d->v = pr_xreallocarray(d->v, d->a, sizeof(*d->v));
	}
	d->v[d->n++] = x;
}

static struct metric *get(struct table *t, const char *prefix, const char *name, enum group g,
			  enum kind k, enum agg a, const char *unit)
{
	struct pr_strbuf id = PR_STRBUF_INIT;
	struct metric *m;
	int64_t at;
	if (prefix)
		pr_strbuf_addf(&id, "%s:%s", prefix, name);
	else
		pr_strbuf_addstr(&id, name);
	if (pr_strmap_get(&t->idx, id.buf, id.len, &at)) {
		pr_strbuf_release(&id);
		return &t->m[at];
	}
	if (t->n == t->a) {
		t->a = t->a ? 2 * t->a : 64;
		t->m = pr_xreallocarray(t->m, t->a, sizeof(*t->m));
	}
	m = &t->m[t->n];
	memset(m, 0, sizeof(*m));
	pr_strmap_put(&t->idx, id.buf, id.len, (int64_t)t->n);
	t->n++;
	m->id = pr_strbuf_detach(&id, NULL);
	m->name = pr_xstrdup(name);
	m->group = g;
	m->kind = k;
	m->agg = a;
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->s[0].steps_ok = m->s[1].steps_ok = 1;
	m->s[0].last_run = m->s[1].last_run = -1;
	return m;
}

/* pr_mnum with a flag: 0 and *ok = 0 when absent (a JSON number is never NaN). */
static double num(const json_t *o, const char *key, int *ok)
{
	double v = pr_mnum(o, key);
	*ok = !isnan(v);
	return *ok ? v : 0;
}

static void add_value(struct table *t, int k, const char *prefix, const char *name, enum group g,
		      enum kind kind, enum agg a, const char *unit, double v)
{
	struct metric *m = get(t, prefix, name, g, kind, a, unit);
	m->s[k].present = 1;
	dpush(&m->s[k].runv, v);
}

static void collect_spans(struct table *t, int k, long ri, const json_t *run)
{
	const json_t *items = json_object_get(json_object_get(run, PRK_SPANS), PRK_SPANS_ITEMS),
		     *it;
	/* spans.unit: a run whose positions are not time (DHAT: bytes allocated) weighs its
	 * spans in that unit: bytes are memory, another unit is listed, not gated */
	const char *su =
		json_string_value(json_object_get(json_object_get(run, PRK_SPANS), PRK_SPANS_UNIT));
	enum kind sk = !su || !strcmp(su, "ns") ? K_TIME : !strcmp(su, "bytes") ? K_MEM : K_INFO;
	size_t i;
	if (!su)
		su = "ns";
	json_array_foreach (items, i, it) {
		const char *name = json_string_value(json_object_get(it, PRK_SPANS_ITEMS_NAME));
		const char *kind = json_string_value(json_object_get(it, PRK_SPANS_ITEMS_KIND));
		const json_t *ps = json_object_get(it, PRK_SPANS_ITEMS_PER_STEP_NS);
		struct metric *m;
		struct side *s;
		double total;
		int ok;
		if (!name || (kind && (!strcmp(kind, "step") || !strcmp(kind, "phase"))))
			continue;
		total = num(it, PRK_SPANS_ITEMS_TOTAL_NS, &ok);
		if (!ok)
			continue;
		m = get(t, "span", name, G_SPAN, sk, AGG_MEDIAN, su);
		s = &m->s[k];
		s->present = 1;
		s->total_ns += total;
		s->calls += num(it, PRK_SPANS_ITEMS_COUNT, &ok);
		if (s->last_run != ri) {
			size_t j;
			json_t *x;
			s->last_run = ri;
			dpush(&s->runv, total);
			s->samp_start = s->samp.n;
			if (!json_is_array(ps) || json_array_size(ps) == 0)
				s->steps_ok = 0;
			else
				json_array_foreach (ps, j, x)
					dpush(&s->samp, json_number_value(x));
		} else {
			/* the same name with another kind in this run: add it up */
			s->runv.v[s->runv.n - 1] += total;
			if (!json_is_array(ps) ||
			    json_array_size(ps) != s->samp.n - s->samp_start) {
				s->steps_ok = 0;
			} else {
				size_t j;
				json_t *x;
				json_array_foreach (ps, j, x)
					s->samp.v[s->samp_start + j] += json_number_value(x);
			}
		}
	}
}

/* Reported units -> the compare kind and a factor to the canonical unit. */
static enum kind reported_kind(const char *unit, double *factor, const char **canon)
{
	*factor = 1.0;
	*canon = unit;
	if (!strcmp(unit, "ns") || !strcmp(unit, "us") || !strcmp(unit, "ms") ||
	    !strcmp(unit, "s")) {
		*factor = !strcmp(unit, "s")	? 1e9
			  : !strcmp(unit, "ms") ? 1e6
			  : !strcmp(unit, "us") ? 1e3
						: 1.0;
		*canon = "ns";
		return K_TIME;
	}
	if (!strcmp(unit, "bytes") || !strcmp(unit, "B") || !strcmp(unit, "KiB") ||
	    !strcmp(unit, "MiB") || !strcmp(unit, "GiB")) {
		*factor = !strcmp(unit, "GiB")	 ? 1073741824.0
			  : !strcmp(unit, "MiB") ? 1048576.0
			  : !strcmp(unit, "KiB") ? 1024.0
						 : 1.0;
		*canon = "bytes";
		return K_MEM;
	}
	{
		size_t n = strlen(unit);
		if (n > 2 && !strcmp(unit + n - 2, "/s"))
			return K_TPUT;
	}
	return K_INFO;
}

/*
 * GPU metrics from the model's gpu_breakdown (HTA) and step_breakdown
 * (TensorBoard): time in compute, communication (not overlapped by compute)
 * and memory ops, the GPU idle share, and the share of communication kernel
 * time overlapped by compute. Per-step samples where the run has a step
 * breakdown (compute = its Kernel, communication = Communication, memory =
 * Memcpy + Memset, idle = the rest of the step / the step), else one run
 * total (gpu_breakdown.rank); samples_of() uses the per-step samples only
 * when every run of both sides has them. The overlap is one value per run.
 */
static void collect_gpu(struct table *t, int k, const json_t *run)
{
	static const char *const names[] = { "compute", "communication", "memory" };
	static const char *const totals[] = { PRK_GPU_BREAKDOWN_RANK_COMPUTE_NS,
					      PRK_GPU_BREAKDOWN_RANK_COMMUNICATION_NS,
					      PRK_GPU_BREAKDOWN_RANK_MEMORY_NS };
	const json_t *gb = json_object_get(run, PRK_GPU_BREAKDOWN),
		     *r = json_object_get(gb, PRK_GPU_BREAKDOWN_RANK);
	const json_t *steps = json_object_get(json_object_get(run, PRK_STEP_BREAKDOWN),
					      PRK_STEP_BREAKDOWN_STEPS),
		     *x;
	struct metric *m[4];
	size_t i, j;
	int ok, ok2;
	double span = num(r, PRK_GPU_BREAKDOWN_RANK_SPAN_NS, &ok), v;
	if (!ok || !(span > 0))
		return;
	t->gpu[k] = 1;
	for (j = 0; j < 3; j++) {
		m[j] = get(t, "gpu", names[j], G_GPU, K_TIME, AGG_MEDIAN, "ns");
		v = num(r, totals[j], &ok);
		m[j]->s[k].present = 1;
		dpush(&m[j]->s[k].runv, ok ? v : NAN);
		m[j]->s[k].total_ns += ok ? v : 0;
	}
	m[3] = get(t, "gpu", "idle_share", G_GPU, K_SHARE, AGG_MEDIAN, "share");
	m[3]->bad_dir = 1;
	m[3]->s[k].present = 1;
	dpush(&m[3]->s[k].runv, num(r, PRK_GPU_BREAKDOWN_RANK_IDLE_NS, &ok) / span);
	if (json_array_size(steps) == 0) {
		for (j = 0; j < 4; j++)
			m[j]->s[k].steps_ok = 0;
	} else {
		json_array_foreach (steps, i, x) {
			double kern = num(x, PRK_STEP_BREAKDOWN_STEPS_KERNEL_NS, &ok),
			       comm = num(x, PRK_STEP_BREAKDOWN_STEPS_COMMUNICATION_NS, &ok2);
			double cp = num(x, PRK_STEP_BREAKDOWN_STEPS_MEMCPY_NS, &ok),
			       cs = num(x, PRK_STEP_BREAKDOWN_STEPS_MEMSET_NS, &ok2);
			double dur = num(x, PRK_STEP_BREAKDOWN_STEPS_DUR_NS, &ok);
			dpush(&m[0]->s[k].samp, kern);
			dpush(&m[1]->s[k].samp, comm);
			dpush(&m[2]->s[k].samp, cp + cs);
			if (dur > 0) /* a step of 0 ns has no idle share */
				dpush(&m[3]->s[k].samp, (dur - kern - comm - cp - cs) / dur);
		}
	}
	v = num(json_object_get(gb, PRK_GPU_BREAKDOWN_OVERLAP), PRK_GPU_BREAKDOWN_OVERLAP_SHARE,
		&ok);
	if (ok) {
		struct metric *o = get(t, "gpu", "overlap", G_GPU, K_SHARE, AGG_MEDIAN, "share");
		o->bad_dir = -1;
		o->s[k].present = 1;
		dpush(&o->s[k].runv, v);
	}
}

/*
 * The perf model's numbers (docs/compare.md, "Perf model"): per category its
 * device time, perf:CATEGORY (a time, gated like a span), and per op with FLOPs
 * its achieved TFLOP/s over all its shapes, tflops:OP = sum of FLOPs / sum of
 * device time (reported; gated only when a --fail-on or config rule names it).
 * One value per run; the op's device ns is its noise-floor weight.
 */
static void collect_perf(struct table *t, int k, const json_t *run)
{
	const json_t *pm = json_object_get(run, PRK_PERF_MODEL), *x;
	struct pr_strmap at = PR_STRMAP_INIT;
	struct op {
		const char *name;
		double flops, ns;
	} *ops = NULL;
	size_t i, n = 0;
	int ok, ok2;
	json_array_foreach (json_object_get(pm, PRK_PERF_MODEL_CATEGORIES), i, x) {
		const char *c =
			json_string_value(json_object_get(x, PRK_PERF_MODEL_CATEGORIES_CATEGORY));
		double v = num(x, PRK_PERF_MODEL_CATEGORIES_DEVICE_NS, &ok);
		struct metric *m;
		if (!c || !*c || !ok)
			continue;
		m = get(t, "perf", c, G_PERF, K_TIME, AGG_MEDIAN, "ns");
		m->opt_in = 1;
		m->s[k].present = 1;
		dpush(&m->s[k].runv, v);
		m->s[k].total_ns += v;
	}
	ops = pr_xcalloc(json_array_size(json_object_get(pm, PRK_PERF_MODEL_GROUPS)) + 1,
			 sizeof(ops[0]));
	json_array_foreach (json_object_get(pm, PRK_PERF_MODEL_GROUPS), i, x) {
		const char *name =
			json_string_value(json_object_get(x, PRK_PERF_MODEL_GROUPS_NAME));
		double f = num(x, PRK_PERF_MODEL_GROUPS_FLOPS, &ok),
		       ns = num(x, PRK_PERF_MODEL_GROUPS_DEVICE_NS, &ok2);
		int64_t j;
		if (!name || !*name || !ok || !ok2 || !(f > 0) || !(ns >= 0))
			continue;
		if (!pr_strmap_get(&at, name, strlen(name), &j)) {
			j = (int64_t)n;
			ops[n++].name = name;
			pr_strmap_put(&at, name, strlen(name), j);
		}
		ops[j].flops += f;
		ops[j].ns += ns;
	}
	for (i = 0; i < n; i++) {
		struct metric *m;
		if (!(ops[i].ns > 0))
			continue;
		m = get(t, "tflops", ops[i].name, G_PERF, K_TPUT, AGG_MEDIAN, "TFLOP/s");
		m->opt_in = 1;
		m->s[k].present = 1;
		dpush(&m->s[k].runv, ops[i].flops / ops[i].ns / 1e3);
		m->s[k].total_ns += ops[i].ns;
	}
	free(ops);
	pr_strmap_release(&at);
}

static void collect_run(struct table *t, int k, long ri, const json_t *run)
{
	const json_t *tp = json_object_get(run, PRK_THROUGHPUT), *st, *ph, *pk, *fr, *dv, *rp, *lst,
		     *snap;
	const json_t *steps = json_object_get(tp, PRK_THROUGHPUT_STEPS);
	struct pr_strmap seen = PR_STRMAP_INIT;
	size_t i;
	int ok;
	double v = num(json_object_get(run, PRK_CLOCK), PRK_CLOCK_DURATION_NS, &ok);
	if (ok)
		t->dur_ns[k] += v;
	/* steps */
	lst = json_object_get(steps, PRK_THROUGHPUT_STEPS_LIST);
	t->steps[k] += (double)json_array_size(lst);
	if (json_array_size(lst) == 0)
		t->steps_all[k] = 0;
	if (json_array_size(lst) > 0) {
		struct metric *m = get(t, NULL, "step_time", G_STEP, K_TIME, AGG_MEDIAN, "ns");
		m->s[k].present = 1;
		json_array_foreach (lst, i, st) {
			v = num(st, PRK_THROUGHPUT_STEPS_LIST_DUR_NS, &ok);
			if (ok)
				dpush(&m->s[k].samp, v);
		}
	}
	/* throughput, higher is better */
	v = num(json_object_get(tp, PRK_THROUGHPUT_TOKENS), PRK_THROUGHPUT_TOKENS_TOKENS_PER_S,
		&ok);
	if (ok)
		add_value(t, k, "throughput", "tokens_per_s", G_TPUT, K_TPUT, AGG_MEAN, "tokens/s",
			  v);
	v = num(json_object_get(tp, PRK_THROUGHPUT_BLOCKS), PRK_THROUGHPUT_BLOCKS_FPS, &ok);
	if (ok)
		add_value(t, k, "throughput", "fps", G_TPUT, K_TPUT, AGG_MEAN, "frames/s", v);
	v = num(json_object_get(tp, PRK_THROUGHPUT_BLOCKS), PRK_THROUGHPUT_BLOCKS_BPS, &ok);
	if (ok)
		add_value(t, k, "throughput", "bps", G_TPUT, K_TPUT, AGG_MEAN, "blocks/s", v);
	v = num(json_object_get(tp, PRK_THROUGHPUT_DIFFUSION), PRK_THROUGHPUT_DIFFUSION_STEPS_PER_S,
		&ok);
	if (ok)
		add_value(t, k, "throughput", "steps_per_s", G_TPUT, K_TPUT, AGG_MEAN, "steps/s",
			  v);
	/* phases: every occurrence is a sample */
	json_array_foreach (json_object_get(json_object_get(run, PRK_PHASES),
					    PRK_PHASES_OCCURRENCES),
			    i, ph) {
		const char *name =
			json_string_value(json_object_get(ph, PRK_PHASES_OCCURRENCES_NAME));
		struct metric *m;
		v = num(ph, PRK_PHASES_OCCURRENCES_DUR_NS, &ok);
		if (!name || !ok)
			continue;
		m = get(t, "phase", name, G_PHASE, K_TIME, AGG_MEDIAN, "ns");
		m->s[k].present = 1;
		dpush(&m->s[k].samp, v);
	}
	/* memory peaks */
	json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk) {
		const char *series = json_string_value(json_object_get(pk, PRK_PEAKS_SERIES));
		const char *unit = json_string_value(json_object_get(pk, PRK_PEAKS_UNIT));
		v = num(pk, PRK_PEAKS_VALUE, &ok);
		if (!series || !ok)
			continue;
		unit = unit ? unit : "";
		add_value(t, k, "peak", series, G_PEAK, !strcmp(unit, "bytes") ? K_MEM : K_INFO,
			  AGG_MAX, unit, v);
	}
	json_array_foreach (json_object_get(run, PRK_FRAGMENTATION), i, fr) {
		v = num(fr, PRK_FRAGMENTATION_MEAN_RATIO, &ok);
		if (ok)
			add_value(t, k, NULL, "fragmentation", G_FRAG, K_RATIO, AGG_MEAN, "", v);
	}
	/* a CUDA memory snapshot's external fragmentation (1 - largest free / free), devices
	 * averaged */
	snap = json_object_get(json_object_get(run, PRK_CUDA_SNAPSHOT), PRK_CUDA_SNAPSHOT_DEVICES);
	json_array_foreach (snap, i, dv) {
		v = num(dv, PRK_CUDA_SNAPSHOT_DEVICES_EXTERNAL_FRAGMENTATION, &ok);
		if (ok)
			add_value(t, k, NULL, "external_fragmentation", G_FRAG, K_RATIO, AGG_MEAN,
				  "", v);
	}
	collect_spans(t, k, ri, run);
	collect_gpu(t, k, run);
	collect_perf(t, k, run);
	/* reported metrics; a name repeated within a run gets " #2", " #3"... */
	json_array_foreach (json_object_get(run, PRK_REPORTED), i, rp) {
		const char *name = json_string_value(json_object_get(rp, PRK_REPORTED_NAME));
		const char *unit = json_string_value(json_object_get(rp, PRK_REPORTED_UNIT));
		const char *canon;
		struct pr_strbuf nm = PR_STRBUF_INIT;
		int64_t times = 0;
		double factor;
		enum kind kd;
		v = num(rp, PRK_REPORTED_VALUE, &ok);
		if (!name || !ok)
			continue;
		kd = reported_kind(unit ? unit : "", &factor, &canon);
		pr_strmap_get(&seen, name, strlen(name), &times);
		pr_strmap_put(&seen, name, strlen(name), times + 1);
		pr_strbuf_addstr(&nm, name);
		if (times > 0)
			pr_strbuf_addf(&nm, " #%lld", (long long)times + 1);
		add_value(t, k, "reported", nm.buf, G_REPORTED, kd, AGG_MEAN, canon, v * factor);
		pr_strbuf_release(&nm);
	}
	pr_strmap_release(&seen);
}

static int collect(struct table *t, int k, const json_t *model, json_t *labels,
		   struct pr_error *err)
{
	const json_t *runs = json_object_get(model, PRK_RUNS), *run;
	const char *schema = json_string_value(json_object_get(model, PRK_SCHEMA));
	size_t i;
	if (!schema || strcmp(schema, "profreport-model") || !json_is_array(runs))
		return pr_error_set(err, PR_E_FORMAT, "the %s input is not an analysis model",
				    k ? "new" : "base");
	if (json_array_size(runs) == 0)
		return pr_error_set(err, PR_E_FORMAT, "the %s input has no runs",
				    k ? "new" : "base");
	t->steps_all[k] = 1;
	json_array_foreach (runs, i, run) {
		const char *label = json_string_value(json_object_get(run, PRK_LABEL));
		json_array_append_new(labels, json_string(label ? label : ""));
		collect_run(t, k, (long)i, run);
	}
	t->runs[k] = json_array_size(runs);
	return 0;
}

static double aggregate(const struct dvec *d, enum agg a)
{
	size_t i;
	double r;
	if (!d->n)
		return NAN;
	if (a == AGG_MAX) {
		r = d->v[0];
		for (i = 1; i < d->n; i++)
			if (d->v[i] > r)
				r = d->v[i];
		return r;
	}
	if (a == AGG_MEAN)
		return pr_mean(d->v, d->n);
	{
		double *c = pr_xmalloc(d->n * sizeof(*c));
		memcpy(c, d->v, d->n * sizeof(*c));
		pr_sort_doubles(c, d->n);
		r = pr_quantile_sorted(c, d->n, 0.5);
		free(c);
	}
	return r;
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Which samples a metric is tested on (both sides the same kind). */
static const struct dvec *samples_of(const struct metric *m, int k)
{
	if (m->group == G_STEP || m->group == G_PHASE)
		return &m->s[k].samp;
	if (m->group == G_SPAN || (m->group == G_GPU && strcmp(m->name, "overlap"))) {
		int ok0 = !m->s[0].present || (m->s[0].steps_ok && m->s[0].samp.n);
		int ok1 = !m->s[1].present || (m->s[1].steps_ok && m->s[1].samp.n);
		if (ok0 && ok1)
			return &m->s[k].samp;
	}
	return &m->s[k].runv;
}

struct thr {
	int gated;
	struct pr_cmp_threshold t;
	enum pr_gate_unit abs_unit;
	const char *source;
};

static int unit_fits(enum pr_gate_unit u, const char *unit)
{
	if (u == PR_GATE_NS)
		return !strcmp(unit, "ns");
	if (u == PR_GATE_BYTES)
		return !strcmp(unit, "bytes");
	if (u == PR_GATE_SHARE)
		return !strcmp(unit, "share");
	return 1;
}

/* The rule of g that sets m's threshold (the last matching one), or -1. */
static long rule_for(const struct metric *m, const struct pr_gate *g)
{
	size_t i;
	for (i = g->nrules; i-- > 0;) {
		const struct pr_gate_rule *r = &g->rules[i];
		if (pr_gate_rule_matches(r, m->id) &&
		    (!r->has_abs || unit_fits(r->abs_unit, m->unit)))
			return (long)i;
	}
	return -1;
}

static struct thr threshold(const struct metric *m, const struct pr_gate *g)
{
	struct thr t;
	long ri = rule_for(m, g);
	memset(&t, 0, sizeof(t));
	if (ri >= 0) {
		const struct pr_gate_rule *r = &g->rules[ri];
		t.gated = 1;
		t.t.dir = r->dir;
		t.t.has_rel = r->has_rel;
		t.t.rel = r->rel;
		t.t.has_abs = r->has_abs;
		t.t.abs = r->abs;
		t.abs_unit = r->abs_unit;
		t.source = r->text;
		return t;
	}
	t.source = "default";
	t.gated = 1;
	if (m->opt_in) {
		/* the perf model's numbers: judged by the default threshold of their kind and
		 * reported, gated only by a rule that names them (docs/compare.md) */
		t.gated = 0;
		t.t.has_rel = 1;
		if (m->kind == K_TPUT) {
			t.t.dir = -1, t.t.rel = PR_COMPARE_TPUT_REL;
			t.source = "not gated by default (an op's achieved TFLOP/s; gate it with "
				   "--fail-on 'tflops:NAME:-10%' or a config rule)";
		} else {
			t.t.dir = 1, t.t.rel = PR_COMPARE_TIME_REL;
			t.source =
				"not gated by default (a perf-model category's device time, the "
				"sum of ops gated as spans; gate it with --fail-on 'perf:*:+5%')";
		}
		return t;
	}
	switch (m->kind) {
	case K_TIME:
		t.t.dir = 1, t.t.has_rel = 1, t.t.rel = PR_COMPARE_TIME_REL;
		break;
	case K_MEM:
		t.t.dir = 1, t.t.has_rel = 1, t.t.rel = PR_COMPARE_MEM_REL;
		t.t.has_abs = 1, t.t.abs = PR_COMPARE_MEM_ABS, t.abs_unit = PR_GATE_BYTES;
		break;
	case K_TPUT:
		t.t.dir = -1, t.t.has_rel = 1, t.t.rel = PR_COMPARE_TPUT_REL;
		break;
	case K_RATIO:
		t.t.dir = 1, t.t.has_rel = 1, t.t.rel = PR_COMPARE_FRAG_REL;
		t.t.has_abs = 1, t.t.abs = PR_COMPARE_FRAG_ABS, t.abs_unit = PR_GATE_PLAIN;
		break;
	case K_SHARE:
		/* points, not a ratio: 2 % -> 3 % idle is +50 % but one point */
		t.t.dir = m->bad_dir, t.t.has_abs = 1, t.t.abs = PR_COMPARE_SHARE_ABS;
		t.abs_unit = PR_GATE_SHARE;
		break;
	case K_INFO:
		t.gated = 0;
		t.source = "not gated (unit without a direction; name it in --fail-on)";
		break;
	}
	return t;
}

/* delta goes in direction d and is beyond every threshold. */
static int exceeds(const struct pr_cmp_threshold *t, int d, double base, double delta)
{
	if (!(delta * d > 0))
		return 0;
	if (t->has_rel && base != 0 && !(fabs(delta) / fabs(base) > t->rel))
		return 0;
	if (t->has_abs && !(fabs(delta) > t->abs))
		return 0;
	return t->has_rel || t->has_abs;
}

double pr_compare_min_p(size_t n1, size_t n2)
{
	struct pr_mwu u;
	double *v, p = 1;
	size_t i;
	if (n1 == 0 || n2 == 0)
		return 1;
	/* the most extreme arrangement: every b above every a, no ties */
	v = pr_xmalloc((n1 + n2) * sizeof(*v));
	for (i = 0; i < n1 + n2; i++)
		v[i] = (double)i;
	if (!pr_mann_whitney(v, n1, v + n1, n2, &u))
		p = u.p;
	free(v);
	return p;
}

static void minmax(const double *v, size_t n, double *lo, double *hi)
{
	size_t i;
	*lo = *hi = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < *lo)
			*lo = v[i];
		if (v[i] > *hi)
			*hi = v[i];
	}
}

/* The CI's end nearest to 1 on the side of direction d, read as a change of base, exceeds t. */
static int ci_beyond(const struct pr_cmp_decision *d, const struct pr_cmp_threshold *t, int dir,
		     double base)
{
	double r = dir > 0 ? d->ci_lo : d->ci_hi;
	if (!d->has_ci || !(base > 0))
		return 0;
	return exceeds(t, dir, base, (r - 1) * base);
}

/*
 * |v[i] - median(v)| of a side into r, leaving out (for an odd n) the one
 * sample that is the median, whose deviation is 0 by construction. Returns
 * the count written.
 */
static size_t deviations(const double *v, size_t n, double *r)
{
	double *c = pr_xmalloc(n * sizeof(*c)), med;
	size_t i, k = 0;
	memcpy(c, v, n * sizeof(*c));
	pr_sort_doubles(c, n);
	med = pr_quantile_sorted(c, n, 0.5);
	for (i = 0; i < n; i++)
		if (!(n % 2 && i == n / 2))
			r[k++] = fabs(c[i] - med);
	free(c);
	return k;
}

/*
 * The runs' own spread: 1.4826 x the median absolute deviation of the
 * samples from their own side's median, both sides pooled (an estimate of
 * the steps' sd that one slow warm-up step does not inflate).
 */
static double pooled_spread(const double *a, size_t na, const double *b, size_t nb)
{
	double *r = pr_xmalloc((na + nb) * sizeof(*r)), s;
	size_t k = deviations(a, na, r);
	k += deviations(b, nb, r + k);
	pr_sort_doubles(r, k);
	s = k ? 1.4826 * pr_quantile_sorted(r, k, 0.5) : 0;
	free(r);
	return s;
}

void pr_compare_decide(const double *a, size_t na, const double *b, size_t nb, double base,
		       double newv, const struct pr_cmp_threshold *t, double alpha, int want_ci,
		       struct pr_cmp_decision *d)
{
	struct pr_mwu u;
	double delta = newv - base;
	int bad;
	memset(d, 0, sizeof(*d));
	d->p = d->min_p = NAN;
	d->ci_lo = d->ci_hi = NAN;
	d->excess = d->spread = NAN;
	d->verdict = PR_CMP_UNCHANGED;
	d->rule = PR_CMP_RULE_THRESHOLD;
	d->beyond = exceeds(t, t->dir, base, delta)    ? t->dir
		    : exceeds(t, -t->dir, base, delta) ? -t->dir
						       : 0;
	if (na >= 2 && nb >= 2 && !pr_mann_whitney(a, na, b, nb, &u)) {
		double alo, ahi, blo, bhi;
		d->tested = 1;
		d->p = u.p;
		d->min_p = pr_compare_min_p(na, nb);
		d->reaches_alpha = d->min_p < alpha;
		minmax(a, na, &alo, &ahi);
		minmax(b, nb, &blo, &bhi);
		d->separated = blo > ahi ? 1 : bhi < alo ? -1 : 0;
		/* the ratio's CI: fixed seed per sample sizes, so a rerun gives the same interval */
		if ((want_ci || (d->beyond && !d->reaches_alpha)) &&
		    !pr_bootstrap_median_ratio(a, na, b, nb, 0.95, PR_COMPARE_BOOT,
					       0x70726f66ULL ^ ((uint64_t)na << 32) ^ (uint64_t)nb,
					       &d->ci_lo, &d->ci_hi))
			d->has_ci = 1;
	}
	if (!d->beyond)
		return;
	bad = d->beyond == t->dir;
	if (!d->tested) {
		d->rule = PR_CMP_RULE_THRESHOLDS_ONLY;
		d->verdict = bad ? PR_CMP_REGRESSION : PR_CMP_IMPROVEMENT;
	} else if (d->reaches_alpha) {
		d->rule = PR_CMP_RULE_MWU;
		d->verdict = d->p < alpha ? (bad ? PR_CMP_REGRESSION : PR_CMP_IMPROVEMENT)
					  : PR_CMP_NOISE;
	} else {
		d->rule = PR_CMP_RULE_BOOTSTRAP;
		d->verdict = ci_beyond(d, t, d->beyond, base)
				     ? (bad ? PR_CMP_REGRESSION : PR_CMP_IMPROVEMENT)
				     : PR_CMP_NOISE;
	}
	if (d->verdict == PR_CMP_NOISE && t->key) {
		/* a key metric beyond its threshold is never "noise": the change beyond the
		 * threshold larger than K times the runs' spread decides, else inconclusive */
		double thr = 0;
		if (t->has_rel)
			thr = t->rel * fabs(base);
		if (t->has_abs && t->abs > thr)
			thr = t->abs;
		d->excess = fabs(delta) - thr;
		d->spread = pooled_spread(a, na, b, nb);
		d->rule = PR_CMP_RULE_CONSISTENT;
		d->verdict = d->excess > PR_COMPARE_SPREAD_K * d->spread
				     ? (bad ? PR_CMP_REGRESSION : PR_CMP_IMPROVEMENT)
				     : PR_CMP_INCONCLUSIVE;
	}
}

static int cmp_metric(const void *pa, const void *pb)
{
	const struct metric *a = pa, *b = pb;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->sortkey != b->sortkey)
		return a->sortkey > b->sortkey ? -1 : 1;
	return strcmp(a->id, b->id);
}

static json_t *test_json(const struct dvec *a, const struct dvec *b,
			 const struct pr_cmp_decision *d)
{
	struct pr_mwu u;
	double sh, lo, hi;
	json_t *o;
	if (!d->tested || pr_mann_whitney(a->v, a->n, b->v, b->n, &u))
		return json_pack("{s:s, s:s}", "method", "thresholds only", "reason",
				 a->n < 2 || b->n < 2 ? "fewer than 2 samples on a side"
						      : "samples not comparable");
	o = json_pack("{s:s, s:o, s:o, s:b, s:o, s:o}", "method", "mann-whitney", "u", jnum(u.u1),
		      "p", jnum(u.p), "exact", u.exact, "effect", jnum(u.effect), "cles",
		      jnum(u.cles));
	json_object_set_new(o, "min_p", jnum(d->min_p));
	json_object_set_new(o, "reaches_alpha", json_boolean(d->reaches_alpha));
	json_object_set_new(o, "separated",
			    json_string(d->separated > 0   ? "above"
					: d->separated < 0 ? "below"
							   : "no"));
	if (!pr_hodges_lehmann(a->v, a->n, b->v, b->n, 0.95, &sh, &lo, &hi)) {
		json_object_set_new(o, "hl_shift", jnum(sh));
		json_object_set_new(o, "hl_ci", json_pack("[o, o]", jnum(lo), jnum(hi)));
		json_object_set_new(o, "conf", json_real(0.95));
	}
	if (d->has_ci)
		json_object_set_new(o, "ratio_ci",
				    json_pack("[o, o]", jnum(d->ci_lo), jnum(d->ci_hi)));
	return o;
}

static json_t *settings_json(const struct pr_gate *g)
{
	json_t *s, *d, *fo = json_array(), *ig = json_array();
	size_t i;
	char buf[96];
	for (i = 0; i < g->nrules; i++)
		json_array_append_new(fo, json_string(g->rules[i].text));
	for (i = 0; i < g->nignore; i++)
		json_array_append_new(ig, json_string(g->ignore[i]));
	d = json_object();
	pr_gate_threshold_text(1, 1, PR_COMPARE_TIME_REL, 0, 0, PR_GATE_PLAIN, buf, sizeof(buf));
	json_object_set_new(d, "time", json_string(buf));
	pr_gate_threshold_text(1, 1, PR_COMPARE_MEM_REL, 1, PR_COMPARE_MEM_ABS, PR_GATE_BYTES, buf,
			       sizeof(buf));
	json_object_set_new(d, "memory", json_string(buf));
	pr_gate_threshold_text(-1, 1, PR_COMPARE_TPUT_REL, 0, 0, PR_GATE_PLAIN, buf, sizeof(buf));
	json_object_set_new(d, "throughput", json_string(buf));
	pr_gate_threshold_text(1, 1, PR_COMPARE_FRAG_REL, 1, PR_COMPARE_FRAG_ABS, PR_GATE_PLAIN,
			       buf, sizeof(buf));
	json_object_set_new(d, "fragmentation", json_string(buf));
	pr_gate_threshold_text(1, 0, 0, 1, PR_COMPARE_SHARE_ABS, PR_GATE_SHARE, buf, sizeof(buf));
	json_object_set_new(d, "gpu_idle_share", json_string(buf));
	pr_gate_threshold_text(-1, 0, 0, 1, PR_COMPARE_SHARE_ABS, PR_GATE_SHARE, buf, sizeof(buf));
	json_object_set_new(d, "gpu_overlap", json_string(buf));
	s = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "alpha", json_real(g->alpha), "min_us",
		      json_real(g->min_us), "noise_floor", json_real(g->noise_floor), "defaults", d,
		      "fail_on", fo, "ignore", ig);
	return s;
}

static void table_release(struct table *t)
{
	size_t i;
	int k;
	for (i = 0; i < t->n; i++) {
		free(t->m[i].id);
		free(t->m[i].name);
		for (k = 0; k < 2; k++) {
			free(t->m[i].s[k].samp.v);
			free(t->m[i].s[k].runv.v);
		}
	}
	free(t->m);
	pr_strmap_release(&t->idx);
}

enum vd {
	V_REG,
	V_IMP,
	V_UNCH,
	V_NOISE,
	V_ADD,
	V_REM,
	V_MISS,
	V_CALLS,
	V_INCONCL,
	V_COUNT
};
static const char *const verdicts[V_COUNT] = { "regression", "improvement",   "unchanged",
					       "noise",	     "added",	      "removed",
					       "missing",    "calls changed", "inconclusive" };
static const char marks[V_COUNT] = { '+', '-', ' ', '~', 'x', '!', '!', '#', '?' };
static const char *const rule_names[] = { "threshold", "mann-whitney", "bootstrap-ci",
					  "thresholds-only", "consistent" };

/* A metric whose absence in NEW fails the gate: the run lost what it is measured by. */
static int key_metric(const struct metric *m)
{
	return m->group == G_STEP || m->group == G_PHASE || m->group == G_PEAK ||
	       m->group == G_TPUT;
}

/* What the test said: "Mann-Whitney p = 0.065 >= alpha 0.01" or the bootstrap CI's sentence. */
static void test_text(struct pr_strbuf *sb, const struct pr_cmp_decision *d, const char *tt,
		      size_t na, size_t nb, double alpha, int wholly)
{
	if (d->reaches_alpha) {
		pr_strbuf_addf(sb, "Mann-Whitney p = %.2g %s alpha %g", d->p,
			       d->p < alpha ? "<" : ">=", alpha);
		return;
	}
	pr_strbuf_addf(sb,
		       "with %zu and %zu samples Mann-Whitney cannot reach p < %g (smallest p "
		       "%.2g), so the 95 %% bootstrap CI of new/base decides: ",
		       na, nb, alpha, d->min_p);
	if (d->has_ci)
		pr_strbuf_addf(sb, "[%.3fx, %.3fx] is %s beyond %s", d->ci_lo, d->ci_hi,
			       wholly ? "wholly" : "not wholly", tt);
	else
		pr_strbuf_addstr(sb, "it cannot be computed (a median of 0)");
}

/* An amount of the metric's unit as a share of base ("29.3 %"), else as it is. */
static void amount(struct pr_strbuf *sb, double v, double base)
{
	if (base != 0 && isfinite(base))
		pr_strbuf_addf(sb, "%.1f %% of base", 100.0 * v / fabs(base));
	else
		pr_strbuf_addf(sb, "%.4g", v);
}

/*
 * A headline metric: step time, throughput, GPU busy (its complement, the idle share) and
 * memory peaks. Beyond its threshold it is never "noise" (the consistent rule, RULES), and
 * the reports pin it at the top.
 */
static int headline_metric(const struct metric *m)
{
	return m->group == G_STEP || m->group == G_TPUT || m->group == G_PEAK ||
	       (m->group == G_GPU && !strcmp(m->name, "idle_share"));
}

/* The sentence saying why a metric got its verdict from its samples. */
static void why_text(struct pr_strbuf *sb, const struct pr_cmp_decision *d, const char *tt,
		     size_t na, size_t nb, double alpha, double base, double newv)
{
	static const char *const word[] = { "unchanged", "a regression", "an improvement",
					    "not significant", "inconclusive" };
	if (!d->beyond) {
		pr_strbuf_addf(sb, "unchanged: the change is within the threshold %s", tt);
		return;
	}
	if (d->rule == PR_CMP_RULE_CONSISTENT) {
		/* "inconclusive: +39.3 % over 3 and 3 samples, p = 0.065; ..." */
		pr_strbuf_addf(sb, "%s: ", word[d->verdict]);
		if (base != 0)
			pr_strbuf_addf(sb, "%+.1f %%", 100.0 * (newv - base) / fabs(base));
		else
			pr_strbuf_addf(sb, "%+.4g", newv - base);
		if (na == nb)
			pr_strbuf_addf(sb, " over %zu samples a side", na);
		else
			pr_strbuf_addf(sb, " over %zu and %zu samples", na, nb);
		pr_strbuf_addf(sb,
			       ", p = %.2g, beyond the threshold %s; the test cannot confirm it (",
			       d->p, tt);
		test_text(sb, d, tt, na, nb, alpha, 0);
		pr_strbuf_addstr(sb, "); the key-metric rule: the change beyond the threshold (");
		amount(sb, d->excess, base);
		pr_strbuf_addf(sb, ") %s %g x the runs' spread (",
			       d->verdict == PR_CMP_INCONCLUSIVE ? "is not above" : "exceeds",
			       PR_COMPARE_SPREAD_K);
		amount(sb, d->spread, base);
		pr_strbuf_addstr(sb, d->verdict == PR_CMP_INCONCLUSIVE
					     ? "): not failed; record more steps to decide"
					     : ")");
		return;
	}
	pr_strbuf_addf(sb, "%s: beyond the threshold %s; ", word[d->verdict], tt);
	switch (d->rule) {
	case PR_CMP_RULE_MWU:
	case PR_CMP_RULE_BOOTSTRAP:
		test_text(sb, d, tt, na, nb, alpha, d->verdict != PR_CMP_NOISE);
		break;
	case PR_CMP_RULE_THRESHOLDS_ONLY:
		pr_strbuf_addf(sb,
			       "%zu and %zu samples, no test possible: the threshold alone decides",
			       na, nb);
		break;
	case PR_CMP_RULE_THRESHOLD:
	case PR_CMP_RULE_CONSISTENT:
		break;
	}
}

/* Warnings: gate rules and ignore globs that select nothing in either input. */
static json_t *gate_warnings(const struct table *t, const struct pr_gate *g)
{
	json_t *w = json_array();
	size_t i, j;
	for (i = 0; i < g->nrules; i++) {
		const struct pr_gate_rule *r = &g->rules[i];
		size_t matched = 0, fits = 0;
		for (j = 0; j < t->n; j++) {
			if (!pr_gate_rule_matches(r, t->m[j].id))
				continue;
			matched++;
			fits += !r->has_abs || unit_fits(r->abs_unit, t->m[j].unit);
		}
		if (!matched)
			json_array_append_new(w,
					      json_sprintf("fail-on rule '%s' matches no metric of "
							   "BASE or NEW",
							   r->text));
		else if (!fits)
			json_array_append_new(
				w, json_sprintf("fail-on rule '%s' matches %zu metric(s), "
						"none measured in %s",
						r->text, matched,
						r->abs_unit == PR_GATE_BYTES ? "bytes" : "time"));
	}
	for (i = 0; i < g->nignore; i++) {
		for (j = 0; j < t->n; j++)
			if (pr_gate_glob_matches(g->ignore[i], t->m[j].name, t->m[j].id))
				break;
		if (j == t->n)
			json_array_append_new(w,
					      json_sprintf("ignore glob '%s' matches no metric of "
							   "BASE or NEW",
							   g->ignore[i]));
	}
	return w;
}

/* Up to 3 ids present on side k (and not on the other), for the "nothing to compare" error. */
static void some_ids(const struct table *t, int k, struct pr_strbuf *sb)
{
	size_t i, n = 0, all = 0;
	for (i = 0; i < t->n; i++) {
		if (!t->m[i].s[k].present)
			continue;
		if (n < 3)
			pr_strbuf_addf(sb, "%s%s", n ? ", " : "", t->m[i].id);
		n += n < 3;
		all++;
	}
	if (!all)
		pr_strbuf_addstr(sb, "nothing");
	else if (all > n)
		pr_strbuf_addf(sb, " and %zu more", all - n);
}

/* ---- What a side must be before it is compared (compare.h, INPUT CHECKS) ---- */

/*
 * Ingest diagnostics that mean data was dropped or made up: a measured value
 * that compare reads (a span, step or phase time, a memory sample, a counter,
 * a throughput, a reported value) was skipped, cut short or replaced by an
 * invented one. A side with any of them is an error.
 */
static const char *const diag_lost[] = {
	/* Chrome traces and the store's writer: events skipped, times made up, files cut short */
	"truncated",
	"missing_phase",
	"unknown_phase",
	"non_object_event",
	"bad_timestamp",
	"bad_duration",
	"negative_duration",
	"missing_duration",
	"unmatched_end",
	"unclosed_span",
	"async_unmatched_end",
	"async_unclosed",
	"counter_not_numeric",
	"chrome_bad_sample",
	/* any format: a time beyond +-2^62 ns skipped, or an end cut there */
	"time_out_of_range",
	/* the writer's caps: samples dropped, spans stored without nesting (no self time) */
	"too_many_series",
	"too_many_tracks",
	/* the analyses' budgets (spanstat.h) and a phase log's: steps, phases or names left out */
	"steps_over_budget",
	"phases_over_budget",
	"names_over_budget",
	"phase_log_over_budget",
	/* the writer's guards: a sample or span it could not store */
	"unknown_track",
	"unknown_series",
	"non_finite_sample",
	/* CSV samplers: rows or cells skipped, series dropped */
	"csv_bad_field_count",
	"csv_bad_time",
	"csv_bad_value",
	"csv_mixed_time",
	"csv_too_many_series",
	"csv_series_mostly_missing",
	/* Diffulex */
	"diffulex_bad_section",
	"diffulex_bad_value",
	"diffulex_csv_bad_field_count",
	"diffulex_csv_bad_value",
	"diffulex_csv_nonfinite",
	"diffulex_json_truncated",
	"diffulex_nonfinite",
	"diffulex_txt_bad_line",
	"diffulex_txt_bad_value",
	"diffulex_txt_truncated",
	/* Valgrind DHAT */
	"dhat_bad_frame",
	"dhat_bad_pp",
	/* folded stacks */
	"folded_bad_line",
	"folded_deep_stack",
	"folded_fractional_count",
	/* Inferix */
	"inferix_bad_event",
	"inferix_bad_value",
	"inferix_nonfinite",
	/* massif */
	"massif_bad_line",
	"massif_bad_value",
	"massif_incomplete_snapshot",
	/* MemoryTracer (and its speedscope export) */
	"memtracer_bad_event",
	"memtracer_bad_section",
	"memtracer_bad_value",
	"memtracer_unclosed_layer",
	"memtracer_unmatched_exit",
	"nonfinite_number",
	/* Linux perf */
	"perf_script_bad_frame",
	"perf_script_bad_record",
	"perf_script_deep_stack",
	"perf_stat_bad_line",
	/* phase logs (--phases) */
	"phase_bad_line",
	"phase_mixed_time",
	"phase_outside_run",
	"phase_time_backwards",
	"phase_unclosed",
	"phase_unmatched_end",
	/* Nsight Systems export */
	"nsys_bad_value",
	"nsys_negative_duration",
	"nsys_unclosed_range",
	/* QEff */
	"qeff_bad_operation",
	"qeff_bad_value",
	"qeff_length_mismatch",
	"qeff_missing_start_time",
	"qeff_nonfinite",
	/* QNN */
	"qnn_bad_field_count",
	"qnn_bad_timestamp",
	"qnn_bad_value",
	/* sysstat (sadf, pidstat) */
	"pidstat_bad_field_count",
	"pidstat_bad_line",
	"pidstat_bad_time",
	"pidstat_bad_value",
	"sadf_bad_field_count",
	"sadf_bad_time",
	"sadf_bad_value",
	/* speedscope */
	"speedscope_bad_event",
	"speedscope_bad_frame",
	"speedscope_bad_profile",
	"speedscope_bad_weight",
	"speedscope_length_mismatch",
	"speedscope_time_backwards",
	"speedscope_unbalanced",
	"speedscope_unclosed",
	"speedscope_unmatched_close",
	/* torch memory timelines */
	"torch_memtl_bad_entry",
	"torch_memtl_length_mismatch",
	"torch_memtl_nonfinite",
	/* torch CUDA memory snapshots: segments, blocks or trace events skipped */
	"torch_snapshot_bad_block",
	"torch_snapshot_bad_event",
	"torch_snapshot_bad_segment",
};

/*
 * Diagnostics that note something and keep the data as measured: text
 * repaired, order recomputed, a time zone assumed, metadata or flows that
 * compare does not read, a collector's quirk explained (its own numbers are
 * kept next to corrected ones), a series the collector did not record.
 */
static const char *const diag_note[] = {
	"trailing_comma",
	"control_character",
	"invalid_utf8",
	"ignored_phase",
	"flow_without_id",
	/* the critical path's budget (an_critpath.c): it covers the first steps only; compare
	 * reads none of it, every other number keeps all the steps */
	"critical_path_over_budget",
	/* gpu.kernel_sequences' budget (kseq.h): patterns first seen past it are not counted;
	 * compare reads none of it */
	"kernel_sequences_over_budget",
	"metadata_skipped",
	"metadata_unreadable",
	"overlapping_spans",
	"unsorted_track",
	/* Bytes-only [memory] events: the running total is exact up to its start,
	 * which both sides set by the same rule */
	"memory_reconstructed",
	"csv_invalid_text",
	"csv_missing_value",
	"csv_naive_time_utc",
	"csv_no_time_column",
	"csv_repeated_header",
	"csv_time_backwards",
	"dhat_access_latched",
	"dhat_no_lifetimes",
	"diffulex_avg_throughput_diluted",
	"diffulex_csv_header_unsorted",
	"diffulex_csv_invalid_text",
	"diffulex_gpu_util_negative",
	"diffulex_gpu_util_no_nvml",
	"diffulex_summary_mismatch",
	"diffulex_throughput_not_recorded",
	"diffulex_throughput_other_duration",
	"diffulex_throughput_zero",
	"diffulex_txt_invalid_text",
	"diffulex_txt_unparsed_repr",
	"folded_empty_frame",
	"folded_invalid_text",
	"inferix_block_memory_is_peak",
	"inferix_diffusion_fps_per_step",
	"inferix_energy_overcounted",
	"inferix_first_block_delay_unconditional",
	"inferix_gpu_data_zero",
	"inferix_model_total_overcounted",
	"inferix_samples_capped",
	"inferix_stage_share_double_counted",
	"massif_no_peak",
	"massif_peak_not_max",
	"massif_time_backwards",
	"massif_tree_sum",
	"memtracer_alloc_event",
	"memtracer_frag_formula",
	"memtracer_no_layer_events",
	"memtracer_oldest_dropped",
	"memtracer_size_bytes_zero",
	"memtracer_summary_mismatch",
	"memtracer_time_backwards",
	"memtracer_unknown_event_type",
	"nsys_missing_string",
	"nsys_schema_version_missing",
	"nsys_unknown_enum",
	"perf_script_invalid_text",
	"perf_script_mixed_events",
	"perf_stat_multiplexed",
	"perf_stat_not_counted",
	"perf_stat_not_supported",
	"perf_stat_time_backwards",
	"phase_beyond_run",
	"phase_naive_time_utc",
	"qeff_delta_start_estimated",
	"qeff_disk_counter_decreased",
	"qeff_missing_series",
	"qeff_naive_datetime",
	"qeff_no_samples",
	"qeff_repeated_phase_name",
	"qeff_time_backwards",
	"qnn_cached_concatenated",
	"qnn_proc_columns_zero",
	"qnn_proc_value_zero",
	"qnn_time_backwards",
	"qnn_timestamp_non_numeric",
	"qnn_value_missing",
	"pidstat_local_time",
	"pidstat_next_day",
	"pidstat_no_date",
	"sadf_comment",
	"sadf_decimal_comma",
	"sadf_local_time",
	"sadf_restart",
	"sadf_time_backwards",
	"speedscope_end_value",
	"speedscope_flat_stacks",
	"speedscope_invalid_unit",
	"speedscope_schema",
	"speedscope_synthetic_time",
	"torch_memtl_negative_category",
	"torch_memtl_slot0_nonzero",
	"torch_memtl_time_backwards",
	"torch_snapshot_block_sum",
	"torch_snapshot_history_short",
	"torch_snapshot_no_history",
	"torch_snapshot_time_backwards",
};

static int in_list(const char *const *list, size_t n, const char *code)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(list[i], code))
			return 1;
	return 0;
}

enum pr_cmp_diag pr_compare_diag_class(const char *code)
{
	if (in_list(diag_lost, sizeof(diag_lost) / sizeof(diag_lost[0]), code))
		return PR_CMP_DIAG_LOST;
	if (in_list(diag_note, sizeof(diag_note) / sizeof(diag_note[0]), code))
		return PR_CMP_DIAG_NOTE;
	return PR_CMP_DIAG_UNKNOWN;
}

/* Where a bad value sits, for messages: "runs[0].spans.items[3].per_step_ns[2]". */
struct vpath {
	char buf[160];
};

static const char *vpath(struct vpath *p, const char *fmt, ...) PR_PRINTF_LIKE(2, 3);
static const char *vpath(struct vpath *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->buf, sizeof(p->buf), fmt, ap);
	va_end(ap);
	return p->buf;
}

static const char *json_kind(const json_t *v)
{
	return json_is_null(v)	    ? "null"
	       : json_is_string(v)  ? "a string"
	       : json_is_boolean(v) ? "a boolean"
	       : json_is_array(v)   ? "an array"
	       : json_is_object(v)  ? "an object"
				    : "a number";
}

/*
 * A value compare takes as a sample: it must be a number >= 0 (times, counts,
 * bytes, rates). null_ok: null (or absent) means "not measured" and is
 * skipped, as the analysis model writes it; otherwise null is an error.
 */
static int check_num(const json_t *o, const char *key, int null_ok, int nonneg, const char *side,
		     const char *where, const char *what, struct pr_error *err)
{
	const json_t *v = json_object_get(o, key);
	if (!v || (null_ok && json_is_null(v)))
		return 0;
	if (!json_is_number(v))
		return pr_error_set(err, PR_E_FORMAT, "%s: %s.%s is %s, not %s", side, where, key,
				    json_kind(v), what);
	if (nonneg && json_number_value(v) < 0)
		return pr_error_set(err, PR_E_FORMAT, "%s: %s.%s is %.15g, not %s", side, where,
				    key, json_number_value(v), what);
	return 0;
}

/* A time compare's GPU metrics read: present, a number, >= 0. */
static int check_gpu_time(const json_t *o, const char *key, const char *side, const char *where,
			  struct pr_error *err)
{
	if (!json_object_get(o, key))
		return pr_error_set(err, PR_E_FORMAT, "%s: %s has no %s", side, where, key);
	return check_num(o, key, 0, 1, side, where, "a time in ns (>= 0)", err);
}

/* The GPU values compare reads (collect_gpu): only when the run has GPU ops. */
static int check_gpu(const json_t *run, size_t r, const char *side, struct pr_error *err)
{
	static const char *const rk[] = { PRK_GPU_BREAKDOWN_RANK_SPAN_NS,
					  PRK_GPU_BREAKDOWN_RANK_COMPUTE_NS,
					  PRK_GPU_BREAKDOWN_RANK_COMMUNICATION_NS,
					  PRK_GPU_BREAKDOWN_RANK_MEMORY_NS,
					  PRK_GPU_BREAKDOWN_RANK_IDLE_NS };
	static const char *const sk[] = { PRK_STEP_BREAKDOWN_STEPS_DUR_NS,
					  PRK_STEP_BREAKDOWN_STEPS_KERNEL_NS,
					  PRK_STEP_BREAKDOWN_STEPS_COMMUNICATION_NS,
					  PRK_STEP_BREAKDOWN_STEPS_MEMCPY_NS,
					  PRK_STEP_BREAKDOWN_STEPS_MEMSET_NS };
	const json_t *gb = json_object_get(run, PRK_GPU_BREAKDOWN),
		     *rk_o = json_object_get(gb, PRK_GPU_BREAKDOWN_RANK);
	const json_t *x;
	struct vpath p;
	size_t i, j;
	if (!json_is_object(rk_o) ||
	    !json_is_number(json_object_get(rk_o, PRK_GPU_BREAKDOWN_RANK_SPAN_NS)) ||
	    !(json_number_value(json_object_get(rk_o, PRK_GPU_BREAKDOWN_RANK_SPAN_NS)) > 0))
		return 0;
	vpath(&p, "runs[%zu].gpu_breakdown.rank", r);
	for (j = 0; j < sizeof(rk) / sizeof(rk[0]); j++)
		if (check_gpu_time(rk_o, rk[j], side, p.buf, err))
			return -1;
	if (check_num(json_object_get(gb, PRK_GPU_BREAKDOWN_OVERLAP),
		      PRK_GPU_BREAKDOWN_OVERLAP_SHARE, 1, 1, side,
		      vpath(&p, "runs[%zu].gpu_breakdown.overlap", r), "a share (>= 0)", err))
		return -1;
	json_array_foreach (json_object_get(json_object_get(run, PRK_STEP_BREAKDOWN),
					    PRK_STEP_BREAKDOWN_STEPS),
			    i, x) {
		vpath(&p, "runs[%zu].step_breakdown.steps[%zu]", r, i);
		for (j = 0; j < sizeof(sk) / sizeof(sk[0]); j++)
			if (check_gpu_time(x, sk[j], side, p.buf, err))
				return -1;
	}
	return 0;
}

/* The perf model's values compare reads (collect_perf): times and FLOPs, numbers >= 0. */
static int check_perf(const json_t *run, size_t r, const char *side, struct pr_error *err)
{
	const json_t *pm = json_object_get(run, PRK_PERF_MODEL), *x;
	struct vpath p;
	size_t i;
	json_array_foreach (json_object_get(pm, PRK_PERF_MODEL_CATEGORIES), i, x)
		if (check_num(x, PRK_PERF_MODEL_CATEGORIES_DEVICE_NS, 1, 1, side,
			      vpath(&p, "runs[%zu].perf_model.categories[%zu]", r, i),
			      "a time in ns (>= 0)", err))
			return -1;
	json_array_foreach (json_object_get(pm, PRK_PERF_MODEL_GROUPS), i, x) {
		vpath(&p, "runs[%zu].perf_model.groups[%zu]", r, i);
		if (check_num(x, PRK_PERF_MODEL_GROUPS_DEVICE_NS, 1, 1, side, p.buf,
			      "a time in ns (>= 0)", err) ||
		    check_num(x, PRK_PERF_MODEL_GROUPS_FLOPS, 1, 1, side, p.buf,
			      "a FLOP count (>= 0)", err))
			return -1;
	}
	return 0;
}

/* The values of one run that compare reads. */
static int check_values(const json_t *run, size_t r, const char *side, struct pr_error *err)
{
	const json_t *tp = json_object_get(run, PRK_THROUGHPUT), *st, *ph, *pk, *fr, *sp, *rp,
		     *items;
	static const char *const tput[][2] = { { "tokens", "tokens_per_s" },
					       { "blocks", "fps" },
					       { "blocks", "bps" },
					       { "diffusion", "steps_per_s" } };
	struct vpath p;
	size_t i, j;
	if (check_num(json_object_get(run, PRK_CLOCK), PRK_CLOCK_DURATION_NS, 1, 1, side,
		      vpath(&p, "runs[%zu].clock", r), "a duration in ns (>= 0)", err))
		return -1;
	json_array_foreach (json_object_get(json_object_get(tp, PRK_THROUGHPUT_STEPS),
					    PRK_THROUGHPUT_STEPS_LIST),
			    i, st) {
		vpath(&p, "runs[%zu].throughput.steps.list[%zu]", r, i);
		if (!json_object_get(st, PRK_THROUGHPUT_STEPS_LIST_DUR_NS))
			return pr_error_set(err, PR_E_FORMAT, "%s: %s has no dur_ns", side, p.buf);
		if (check_num(st, PRK_THROUGHPUT_STEPS_LIST_DUR_NS, 0, 1, side, p.buf,
			      "a step time in ns (>= 0)", err))
			return -1;
		if (json_number_value(json_object_get(st, PRK_THROUGHPUT_STEPS_LIST_DUR_NS)) == 0) {
			const char *name = json_string_value(
				json_object_get(st, PRK_THROUGHPUT_STEPS_LIST_NAME));
			return pr_error_set(
				err, PR_E_FORMAT,
				"%s: the step %s%s%s (%s) lasts 0 ns: a step without a "
				"duration is not a measurement (events without \"dur\"?)",
				side, name ? "'" : "", name ? name : "", name ? "'" : "", p.buf);
		}
	}
	for (i = 0; i < sizeof(tput) / sizeof(tput[0]); i++)
		if (check_num(json_object_get(tp, tput[i][0]), tput[i][1], 1, 1, side,
			      vpath(&p, "runs[%zu].throughput.%s", r, tput[i][0]), "a rate (>= 0)",
			      err))
			return -1;
	json_array_foreach (json_object_get(json_object_get(run, PRK_PHASES),
					    PRK_PHASES_OCCURRENCES),
			    i, ph) {
		vpath(&p, "runs[%zu].phases.occurrences[%zu]", r, i);
		if (!json_object_get(ph, PRK_PHASES_OCCURRENCES_DUR_NS))
			return pr_error_set(err, PR_E_FORMAT, "%s: %s has no dur_ns", side, p.buf);
		if (check_num(ph, PRK_PHASES_OCCURRENCES_DUR_NS, 0, 1, side, p.buf,
			      "a phase time in ns (>= 0)", err))
			return -1;
	}
	json_array_foreach (json_object_get(run, PRK_PEAKS), i, pk) {
		const char *unit = json_string_value(json_object_get(pk, PRK_PEAKS_UNIT));
		if (check_num(pk, PRK_PEAKS_VALUE, 1, unit && !strcmp(unit, "bytes"), side,
			      vpath(&p, "runs[%zu].peaks[%zu]", r, i),
			      unit && !strcmp(unit, "bytes") ? "a size in bytes (>= 0)"
							     : "a number",
			      err))
			return -1;
	}
	json_array_foreach (json_object_get(run, PRK_FRAGMENTATION), i, fr)
		if (check_num(fr, PRK_FRAGMENTATION_MEAN_RATIO, 1, 0, side,
			      vpath(&p, "runs[%zu].fragmentation[%zu]", r, i), "a ratio", err))
			return -1;
	items = json_object_get(json_object_get(run, PRK_SPANS), PRK_SPANS_ITEMS);
	json_array_foreach (items, i, sp) {
		const json_t *ps = json_object_get(sp, PRK_SPANS_ITEMS_PER_STEP_NS), *y;
		vpath(&p, "runs[%zu].spans.items[%zu]", r, i);
		if (check_num(sp, PRK_SPANS_ITEMS_TOTAL_NS, 0, 1, side, p.buf,
			      "a time in ns (>= 0)", err) ||
		    check_num(sp, PRK_SPANS_ITEMS_COUNT, 0, 1, side, p.buf, "a count (>= 0)", err))
			return -1;
		if (ps && !json_is_array(ps) && !json_is_null(ps))
			return pr_error_set(err, PR_E_FORMAT,
					    "%s: %s.per_step_ns is %s, not an array", side, p.buf,
					    json_kind(ps));
		json_array_foreach (ps, j, y) {
			if (!json_is_number(y) || json_number_value(y) < 0) {
				const char *name = json_string_value(
					json_object_get(sp, PRK_SPANS_ITEMS_NAME));
				char v[32];
				if (json_is_number(y))
					snprintf(v, sizeof(v), "%.15g", json_number_value(y));
				else
					snprintf(v, sizeof(v), "%s", json_kind(y));
				return pr_error_set(
					err, PR_E_FORMAT,
					"%s: %s.per_step_ns[%zu] is %s, not a time in ns "
					"(>= 0) (span '%s', step %zu)",
					side, p.buf, j, v, name ? name : "?", j + 1);
			}
		}
	}
	json_array_foreach (json_object_get(run, PRK_REPORTED), i, rp)
		if (check_num(rp, PRK_REPORTED_VALUE, 1, 0, side,
			      vpath(&p, "runs[%zu].reported[%zu]", r, i), "a number", err))
			return -1;
	if (check_perf(run, r, side, err))
		return -1;
	return check_gpu(run, r, side, err);
}

/* The run's ingest diagnostics: data dropped or made up is an error. */
static int check_diags(const json_t *run, size_t r, size_t nruns, const char *side,
		       struct pr_error *err)
{
	const json_t *d, *first = NULL;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	size_t i, n = 0;
	json_array_foreach (json_object_get(run, PRK_DIAGNOSTICS), i, d) {
		const char *code = json_string_value(json_object_get(d, PRK_DIAGNOSTICS_CODE));
		const json_t *cnt = json_object_get(d, PRK_DIAGNOSTICS_COUNT);
		if (!code || pr_compare_diag_class(code) == PR_CMP_DIAG_NOTE)
			continue;
		if (n < 3)
			pr_strbuf_addf(&sb, "%s%s x%lld%s", n ? ", " : "", code,
				       json_is_integer(cnt) ? (long long)json_integer_value(cnt)
							    : 1LL,
				       pr_compare_diag_class(code) == PR_CMP_DIAG_UNKNOWN
					       ? " (a diagnostic this version does not know)"
					       : "");
		if (!first)
			first = d;
		n++;
	}
	if (n) {
		const char *label = json_string_value(json_object_get(run, PRK_LABEL));
		const char *msg =
			json_string_value(json_object_get(first, PRK_DIAGNOSTICS_MESSAGE));
		if (n > 3)
			pr_strbuf_addf(&sb, " and %zu more", n - 3);
		if (nruns > 1)
			pr_error_set(err, PR_E_FORMAT,
				     "%s: the ingest of run %zu (%s) dropped or made up data (%s; "
				     "first: %s): its metrics are not measurements, the gate "
				     "cannot judge them",
				     side, r, label ? label : "?", sb.buf, msg ? msg : "?");
		else
			pr_error_set(err, PR_E_FORMAT,
				     "%s: its ingest dropped or made up data (%s; first: %s): its "
				     "metrics are not measurements, the gate cannot judge them",
				     side, sb.buf, msg ? msg : "?");
	}
	pr_strbuf_release(&sb);
	return n ? -1 : 0;
}

/* The checks of pr_compare_check_side but the one that needs the metrics. */
static int check_side(const json_t *model, const char *side, struct pr_error *err)
{
	const json_t *runs = json_object_get(model, PRK_RUNS), *run;
	const char *schema = json_string_value(json_object_get(model, PRK_SCHEMA));
	size_t i;
	if (!schema || strcmp(schema, "profreport-model") || !json_is_array(runs))
		return pr_error_set(err, PR_E_FORMAT, "%s is not an analysis model", side);
	if (json_array_size(runs) == 0)
		return pr_error_set(err, PR_E_FORMAT, "%s has no runs", side);
	json_array_foreach (runs, i, run) {
		if (!json_is_object(run))
			return pr_error_set(err, PR_E_FORMAT, "%s: runs[%zu] is %s, not an object",
					    side, i, json_kind(run));
		if (check_diags(run, i, json_array_size(runs), side, err) ||
		    check_values(run, i, side, err))
			return -1;
	}
	return 0;
}

/* Metrics present on side k. */
static size_t side_metrics(const struct table *t, int k)
{
	size_t i, n = 0;
	for (i = 0; i < t->n; i++)
		n += t->m[i].s[k].present;
	return n;
}

static int no_metrics(const char *side, struct pr_error *err)
{
	return pr_error_set(err, PR_E_FORMAT,
			    "%s has no metrics: no step, phase, span, memory peak, throughput or "
			    "reported value (an empty trace?)",
			    side);
}

int pr_compare_check_side(const json_t *model, const char *side, struct pr_error *err)
{
	struct table t;
	json_t *labels;
	size_t n;
	if (check_side(model, side, err))
		return -1;
	memset(&t, 0, sizeof(t));
	labels = json_array();
	n = collect(&t, 0, model, labels, err) ? 0 : side_metrics(&t, 0);
	json_decref(labels);
	table_release(&t);
	return n ? 0 : no_metrics(side, err);
}

/* Sets each metric's value per side and its sort key, and sorts the table; returns how many
 * metrics are on both sides. */
static size_t prepare(struct table *t)
{
	size_t i, common = 0;
	for (i = 0; i < t->n; i++) {
		struct metric *m = &t->m[i];
		int k;
		for (k = 0; k < 2; k++)
			m->s[k].value = m->s[k].present ? aggregate(samples_of(m, k), m->agg) : NAN;
		m->sortkey = 0;
		if (m->group == G_SPAN || (m->group == G_GPU && m->kind == K_TIME) ||
		    m->group == G_PERF)
			m->sortkey = fmax(isfinite(m->s[0].value) ? m->s[0].value : 0,
					  isfinite(m->s[1].value) ? m->s[1].value : 0);
		common += m->s[0].present && m->s[1].present;
	}
	/* the strmap indexes go stale here; it is not used after the sort */
	if (t->n)
		qsort(t->m, t->n, sizeof(*t->m), cmp_metric);
	return common;
}

static int nothing_common(const struct table *t, struct pr_error *err)
{
	struct pr_strbuf b = PR_STRBUF_INIT, n = PR_STRBUF_INIT;
	some_ids(t, 0, &b);
	some_ids(t, 1, &n);
	pr_error_set(err, PR_E_FORMAT,
		     "nothing to compare: no metric is in both inputs (BASE has %s; NEW has %s)",
		     b.buf, n.buf);
	pr_strbuf_release(&b);
	pr_strbuf_release(&n);
	return -1;
}

/* What one comparison counted: the verdicts, and the metrics it set aside. */
struct tally {
	size_t cnt[V_COUNT], nfloor, nign, judged, ungated;
	json_t *metrics, *floor, *ignored;
};

/* The judgement of one metric. */
struct judgement {
	enum vd v;
	const char *rule;
	struct pr_strbuf why;
	json_t *test;
	struct thr th;
	char tt[128];  /* the threshold as text */
	size_t n1, n2; /* the samples tested on each side (0 where absent) */
	/* spans: calls per step when every run of both sides has steps */
	int per_step, calls_moved;
	double c0, c1;
	int small; /* a span under the noise floor judged on its presence or calls only */
};

/* Whether m's time is under the gate's noise floor, so that it is listed apart and not
 * judged. Presence and count changes of spans are verdicts whatever their size (HTA's trace
 * diff): an op on one side only, or calls per step changed; such a span is j->small. */
static int under_floor(const struct table *t, const struct metric *m, const struct pr_gate *gate,
		       struct judgement *j)
{
	double s0, s1, vmax;
	int below;
	if (!((m->group == G_SPAN && m->kind == K_TIME) ||
	      (m->group == G_GPU && m->kind == K_TIME) || m->group == G_PERF))
		return 0;
	s0 = t->dur_ns[0] > 0 ? m->s[0].total_ns / t->dur_ns[0] : 0;
	s1 = t->dur_ns[1] > 0 ? m->s[1].total_ns / t->dur_ns[1] : 0;
	/* tflops:OP: weighed by the op's device time, not its rate */
	vmax = m->kind == K_TPUT ? fmax(m->s[0].total_ns, m->s[1].total_ns) : m->sortkey;
	below = fmax(s0, s1) < gate->noise_floor || vmax < gate->min_us * 1000.0;
	if (below && m->group == G_SPAN &&
	    (!m->s[0].present || !m->s[1].present || j->calls_moved)) {
		j->small = 1;
		return 0;
	}
	return below;
}

/* The judgement of a metric on one side only. */
static void judge_presence(const struct table *t, const struct metric *m, struct judgement *j)
{
	/* a GPU metric of BASE fails when NEW has no GPU op at all (it ran on the CPU, or was
	 * profiled without CUDA activity); the overlap of a NEW without communication kernels
	 * is only removed */
	int gpu_gone = m->group == G_GPU && !t->gpu[1];
	j->v = m->s[1].present ? V_ADD : key_metric(m) || gpu_gone ? V_MISS : V_REM;
	j->rule = "presence";
	pr_strbuf_addstr(&j->why,
			 j->v == V_ADD ? "only in NEW"
			 : gpu_gone    ? "a GPU metric of BASE is missing in NEW: NEW has no GPU "
					 "op (a CPU-only run, or a trace without CUDA activity)"
			 : j->v == V_MISS    ? "a key metric of BASE is missing in NEW"
			 : m->group == G_GPU ? "only in BASE: NEW has no communication kernel"
					     : "only in BASE");
	j->test = json_pack("{s:s, s:s}", "method", "thresholds only", "reason",
			    "present on one side only");
	j->n1 = m->s[0].present ? samples_of(m, 0)->n : 0;
	j->n2 = m->s[1].present ? samples_of(m, 1)->n : 0;
}

/* The judgement of a metric on both sides: the gate's test against its threshold, then a
 * change of calls per step. */
static void judge_both(const struct metric *m, const struct pr_gate *gate, struct judgement *j)
{
	static const enum vd map[] = { V_UNCH, V_REG, V_IMP, V_NOISE, V_INCONCL };
	const struct dvec *a = samples_of(m, 0), *b = samples_of(m, 1);
	double bv = m->s[0].value, nv = m->s[1].value;
	struct dvec one[2] = { { NULL, 1, 1 }, { NULL, 1, 1 } };
	struct pr_cmp_decision d;
	if (m->group == G_PEAK) {
		/* a peak is one value a side, the maximum: the peaks of other devices (a CPU
		 * and a GPU series) are no samples of it, and a CI from them would mean
		 * nothing */
		a = &one[0], b = &one[1];
		one[0].v = &bv, one[1].v = &nv;
	}
	pr_compare_decide(a->v, a->n, b->v, b->n, bv, nv, &j->th.t, gate->alpha, 1, &d);
	j->test = test_json(a, b, &d);
	j->n1 = a->n;
	j->n2 = b->n;
	if (!j->th.gated) {
		j->v = V_UNCH;
		j->rule = "not-gated";
		pr_strbuf_addstr(&j->why, j->th.source);
		if (m->opt_in && d.verdict != PR_CMP_UNCHANGED) {
			/* say what the default threshold would have said */
			pr_strbuf_addstr(&j->why, "; by the default threshold, ");
			why_text(&j->why, &d, j->tt, a->n, b->n, gate->alpha, bv, nv);
		}
	} else {
		j->v = map[d.verdict];
		j->rule = rule_names[d.rule];
		why_text(&j->why, &d, j->tt, a->n, b->n, gate->alpha, bv, nv);
	}
	if (j->calls_moved && (j->v == V_UNCH || j->v == V_NOISE || j->small)) {
		/* a span under the noise floor is never gated on its time */
		struct pr_strbuf w2 = PR_STRBUF_INIT;
		pr_strbuf_addf(&w2,
			       "calls per step changed from %g to %g (a change of >= %g is "
			       "reported); time: %s",
			       j->c0, j->c1, PR_COMPARE_CALLS_DELTA,
			       j->small ? "below the noise floor, not gated" : j->why.buf);
		pr_strbuf_release(&j->why);
		j->why = w2;
		j->v = V_CALLS;
		j->rule = "calls-per-step";
	}
}

/* One entry of the comparison's "metrics". */
static json_t *metric_json(const struct metric *m, const struct judgement *j)
{
	double bv = m->s[0].value, nv = m->s[1].value, delta = nv - bv;
	const struct thr *th = &j->th;
	json_t *o, *tj;
	tj = json_pack("{s:s, s:s, s:b}", "text", th->gated ? j->tt : "none", "source", th->source,
		       "gated", th->gated);
	if (th->t.has_rel)
		json_object_set_new(tj, "rel", json_real(th->t.rel * th->t.dir));
	if (th->t.has_abs)
		json_object_set_new(tj, "abs", json_real(th->t.abs * th->t.dir));
	o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "id", m->id, "group", group_names[m->group],
		      "name", m->name, "kind", kind_names[m->kind], "unit", m->unit, "better",
		      !th->gated      ? "unknown"
		      : th->t.dir < 0 ? "higher"
				      : "lower");
	json_object_set_new(o, "base", jnum(bv));
	json_object_set_new(o, "new", jnum(nv));
	json_object_set_new(o, "delta", jnum(delta));
	json_object_set_new(o, "ratio", bv != 0 ? jnum(nv / bv) : json_null());
	json_object_set_new(o, "change", bv != 0 ? jnum(delta / bv) : json_null());
	json_object_set_new(o, "n1", json_integer((json_int_t)j->n1));
	json_object_set_new(o, "n2", json_integer((json_int_t)j->n2));
	json_object_set_new(o, "test", j->test);
	json_object_set_new(o, "threshold", tj);
	if (j->per_step)
		json_object_set_new(o, "calls",
				    json_pack("{s:o, s:o, s:b}", "base", jnum(j->c0), "new",
					      jnum(j->c1), "changed", j->calls_moved));
	json_object_set_new(o, "verdict", json_string(verdicts[j->v]));
	json_object_set_new(o, "mark", json_stringn(&marks[j->v], 1));
	json_object_set_new(o, "rule", json_string(j->rule));
	json_object_set_new(o, "why", json_string(j->why.buf));
	return o;
}

/* Judges one metric into the tally: ignored, under the noise floor, or a verdict. */
static void judge(const struct table *t, const struct metric *m, const struct pr_gate *gate,
		  struct tally *tl)
{
	struct judgement j;
	if (pr_gate_ignored(gate, m->name, m->id)) {
		json_array_append_new(tl->ignored, json_string(m->id));
		tl->nign++;
		return;
	}
	memset(&j, 0, sizeof(j));
	pr_strbuf_init(&j.why);
	j.per_step = m->group == G_SPAN && t->steps_all[0] && t->steps_all[1] && t->steps[0] > 0 &&
		     t->steps[1] > 0;
	j.c0 = j.per_step ? m->s[0].calls / t->steps[0] : NAN;
	j.c1 = j.per_step ? m->s[1].calls / t->steps[1] : NAN;
	j.calls_moved = j.per_step && fabs(j.c1 - j.c0) >= PR_COMPARE_CALLS_DELTA;
	if (under_floor(t, m, gate, &j)) {
		json_array_append_new(tl->floor,
				      json_pack("{s:s, s:o, s:o}", "id", m->id, "base",
						jnum(m->s[0].value), "new", jnum(m->s[1].value)));
		tl->nfloor++;
		return;
	}
	j.th = threshold(m, gate);
	j.th.t.key = headline_metric(m);
	pr_gate_threshold_text(j.th.t.dir, j.th.t.has_rel, j.th.t.rel, j.th.t.has_abs, j.th.t.abs,
			       j.th.abs_unit, j.tt, sizeof(j.tt));
	if (!m->s[0].present || !m->s[1].present)
		judge_presence(t, m, &j);
	else
		judge_both(m, gate, &j);
	tl->cnt[j.v]++;
	/* what the gate judged: a gated metric on both sides, or a missing key metric */
	tl->judged += j.v == V_MISS || (j.v != V_ADD && j.v != V_REM && j.th.gated);
	tl->ungated += j.v != V_ADD && j.v != V_REM && j.v != V_MISS && !j.th.gated;
	json_array_append_new(tl->metrics, metric_json(m, &j));
	pr_strbuf_release(&j.why);
}

/* A gate that checked nothing must not pass. */
static int nothing_judged(const struct tally *tl, struct pr_error *err)
{
	return pr_error_set(err, PR_E_FORMAT,
			    "nothing compared: no gated metric is in both inputs (%zu ignored by "
			    "--ignore, %zu below the noise floor, %zu on one side only, %zu not "
			    "gated)",
			    tl->nign, tl->nfloor, tl->cnt[V_ADD] + tl->cnt[V_REM], tl->ungated);
}

/* The comparison document; takes the references of lb, ln and the tally's arrays. */
static json_t *result_json(const struct table *t, const struct pr_gate *gate, struct tally *tl,
			   json_t *lb, json_t *ln)
{
	const size_t *cnt = tl->cnt;
	json_t *out =
		json_pack("{s:s, s:i}", "schema", PR_COMPARE_SCHEMA, "version", PR_COMPARE_VERSION);
	json_object_set_new(out, "base",
			    json_pack("{s:I, s:o}", "runs", (json_int_t)t->runs[0], "labels", lb));
	json_object_set_new(out, "new",
			    json_pack("{s:I, s:o}", "runs", (json_int_t)t->runs[1], "labels", ln));
	json_object_set_new(out, "settings", settings_json(gate));
	json_object_set_new(
		out, "summary",
		json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			  "status", cnt[V_REG] || cnt[V_MISS] ? "fail" : "pass", "regressions",
			  (json_int_t)cnt[V_REG], "missing", (json_int_t)cnt[V_MISS],
			  "inconclusive", (json_int_t)cnt[V_INCONCL], "improvements",
			  (json_int_t)cnt[V_IMP], "calls_changed", (json_int_t)cnt[V_CALLS],
			  "unchanged", (json_int_t)cnt[V_UNCH], "noise", (json_int_t)cnt[V_NOISE],
			  "added", (json_int_t)cnt[V_ADD], "removed", (json_int_t)cnt[V_REM],
			  "below_noise_floor", (json_int_t)tl->nfloor, "ignored",
			  (json_int_t)tl->nign, "metrics",
			  (json_int_t)json_array_size(tl->metrics)));
	json_object_set_new(out, "metrics", tl->metrics);
	json_object_set_new(out, "below_noise_floor", tl->floor);
	json_object_set_new(out, "ignored", tl->ignored);
	json_object_set_new(out, "warnings", gate_warnings(t, gate));
	tl->metrics = tl->floor = tl->ignored = NULL;
	return out;
}

json_t *pr_compare(const json_t *base, const json_t *newm, const struct pr_gate *gate,
		   struct pr_error *err)
{
	struct table t;
	struct tally tl;
	json_t *out = NULL, *lb = json_array(), *ln = json_array();
	size_t i;
	memset(&t, 0, sizeof(t));
	memset(&tl, 0, sizeof(tl));
	if (check_side(base, "BASE", err) || check_side(newm, "NEW", err) ||
	    collect(&t, 0, base, lb, err) || collect(&t, 1, newm, ln, err) ||
	    (!side_metrics(&t, 0) && no_metrics("BASE", err)) ||
	    (!side_metrics(&t, 1) && no_metrics("NEW", err)))
		goto done;
	if (!prepare(&t)) {
		nothing_common(&t, err);
		goto done;
	}
	tl.metrics = json_array();
	tl.floor = json_array();
	tl.ignored = json_array();
	for (i = 0; i < t.n; i++)
		judge(&t, &t.m[i], gate, &tl);
	if (!tl.judged) {
		nothing_judged(&tl, err);
		goto done;
	}
	out = result_json(&t, gate, &tl, lb, ln);
	lb = ln = NULL;
done:
	json_decref(tl.metrics);
	json_decref(tl.floor);
	json_decref(tl.ignored);
	json_decref(lb);
	json_decref(ln);
	table_release(&t);
	return out;
}

static size_t summary_count(const json_t *cmp, const char *key)
{
	const json_t *n = json_object_get(json_object_get(cmp, PRC_SUMMARY), key);
	return json_is_integer(n) && json_integer_value(n) > 0 ? (size_t)json_integer_value(n) : 0;
}

size_t pr_compare_regressions(const json_t *cmp)
{
	return summary_count(cmp, PRC_SUMMARY_REGRESSIONS);
}

size_t pr_compare_failures(const json_t *cmp)
{
	return summary_count(cmp, PRC_SUMMARY_REGRESSIONS) +
	       summary_count(cmp, PRC_SUMMARY_MISSING);
}
