/* compare.c - two analysis models -> a comparison (see compare.h). */
#include "analyze/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "store/strbuf.h"
#include "store/strmap.h"
#include "store/xalloc.h"

enum group { G_STEP, G_TPUT, G_PHASE, G_PEAK, G_FRAG, G_SPAN, G_REPORTED };
static const char *const group_names[] = { "step", "throughput", "phase", "peak",
					   "fragmentation", "span", "reported" };

enum kind { K_TIME, K_MEM, K_TPUT, K_RATIO, K_INFO };
static const char *const kind_names[] = { "time", "memory", "throughput", "ratio", "info" };

enum agg { AGG_MEDIAN, AGG_MAX, AGG_MEAN };

struct dvec {
	double *v;
	size_t n, a;
};

struct side {
	int present;
	struct dvec samp;  /* within-run samples: steps, occurrences, per-step times */
	struct dvec runv;  /* one value per run (or run and device) */
	int steps_ok;      /* spans: every run that has the name gave per_step_ns */
	long last_run;     /* spans: run index of the last runv entry */
	size_t samp_start; /* spans: where that run's per-step samples start */
	double total_ns;   /* spans: summed total over runs (noise floor) */
	double value;      /* the aggregate, set at compare time */
};

struct metric {
	char *id, *name;
	enum group group;
	enum kind kind;
	enum agg agg;
	char unit[32];
	struct side s[2];
	double sortkey;
};

struct table {
	struct metric *m;
	size_t n, a;
	struct pr_strmap idx;
	double dur_ns[2]; /* summed run time per side */
	size_t runs[2];
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

static double num(const json_t *o, const char *key, int *ok)
{
	const json_t *v = json_object_get(o, key);
	if (!json_is_number(v)) {
		*ok = 0;
		return 0;
	}
	*ok = 1;
	return json_number_value(v);
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
	const json_t *items = json_object_get(json_object_get(run, "spans"), "items"), *it;
	size_t i;
	json_array_foreach(items, i, it) {
		const char *name = json_string_value(json_object_get(it, "name"));
		const char *kind = json_string_value(json_object_get(it, "kind"));
		const json_t *ps = json_object_get(it, "per_step_ns");
		struct metric *m;
		struct side *s;
		double total;
		int ok;
		if (!name || (kind && (!strcmp(kind, "step") || !strcmp(kind, "phase"))))
			continue;
		total = num(it, "total_ns", &ok);
		if (!ok)
			continue;
		m = get(t, "span", name, G_SPAN, K_TIME, AGG_MEDIAN, "ns");
		s = &m->s[k];
		s->present = 1;
		s->total_ns += total;
		if (s->last_run != ri) {
			size_t j;
			json_t *x;
			s->last_run = ri;
			dpush(&s->runv, total);
			s->samp_start = s->samp.n;
			if (!json_is_array(ps) || json_array_size(ps) == 0)
				s->steps_ok = 0;
			else
				json_array_foreach(ps, j, x)
					dpush(&s->samp, json_number_value(x));
		} else {
			/* the same name with another kind in this run: add it up */
			s->runv.v[s->runv.n - 1] += total;
			if (!json_is_array(ps) || json_array_size(ps) != s->samp.n - s->samp_start) {
				s->steps_ok = 0;
			} else {
				size_t j;
				json_t *x;
				json_array_foreach(ps, j, x)
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
	if (!strcmp(unit, "ns") || !strcmp(unit, "us") || !strcmp(unit, "ms") || !strcmp(unit, "s")) {
		*factor = !strcmp(unit, "s") ? 1e9 : !strcmp(unit, "ms") ? 1e6 : !strcmp(unit, "us") ? 1e3 : 1.0;
		*canon = "ns";
		return K_TIME;
	}
	if (!strcmp(unit, "bytes") || !strcmp(unit, "B") || !strcmp(unit, "KiB") ||
	    !strcmp(unit, "MiB") || !strcmp(unit, "GiB")) {
		*factor = !strcmp(unit, "GiB")   ? 1073741824.0
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

static void collect_run(struct table *t, int k, long ri, const json_t *run)
{
	const json_t *tp = json_object_get(run, "throughput"), *x, *lst;
	const json_t *steps = json_object_get(tp, "steps");
	struct pr_strmap seen = PR_STRMAP_INIT;
	size_t i;
	int ok;
	double v = num(json_object_get(run, "clock"), "duration_ns", &ok);
	if (ok)
		t->dur_ns[k] += v;
	/* steps */
	lst = json_object_get(steps, "list");
	if (json_array_size(lst) > 0) {
		struct metric *m = get(t, NULL, "step_time", G_STEP, K_TIME, AGG_MEDIAN, "ns");
		m->s[k].present = 1;
		json_array_foreach(lst, i, x) {
			v = num(x, "dur_ns", &ok);
			if (ok)
				dpush(&m->s[k].samp, v);
		}
	}
	/* throughput, higher is better */
	v = num(json_object_get(tp, "tokens"), "tokens_per_s", &ok);
	if (ok)
		add_value(t, k, "throughput", "tokens_per_s", G_TPUT, K_TPUT, AGG_MEAN, "tokens/s", v);
	v = num(json_object_get(tp, "blocks"), "fps", &ok);
	if (ok)
		add_value(t, k, "throughput", "fps", G_TPUT, K_TPUT, AGG_MEAN, "frames/s", v);
	v = num(json_object_get(tp, "blocks"), "bps", &ok);
	if (ok)
		add_value(t, k, "throughput", "bps", G_TPUT, K_TPUT, AGG_MEAN, "blocks/s", v);
	v = num(json_object_get(tp, "diffusion"), "steps_per_s", &ok);
	if (ok)
		add_value(t, k, "throughput", "steps_per_s", G_TPUT, K_TPUT, AGG_MEAN, "steps/s", v);
	/* phases: every occurrence is a sample */
	json_array_foreach(json_object_get(json_object_get(run, "phases"), "occurrences"), i, x) {
		const char *name = json_string_value(json_object_get(x, "name"));
		struct metric *m;
		v = num(x, "dur_ns", &ok);
		if (!name || !ok)
			continue;
		m = get(t, "phase", name, G_PHASE, K_TIME, AGG_MEDIAN, "ns");
		m->s[k].present = 1;
		dpush(&m->s[k].samp, v);
	}
	/* memory peaks */
	json_array_foreach(json_object_get(run, "peaks"), i, x) {
		const char *series = json_string_value(json_object_get(x, "series"));
		const char *unit = json_string_value(json_object_get(x, "unit"));
		v = num(x, "value", &ok);
		if (!series || !ok)
			continue;
		unit = unit ? unit : "";
		add_value(t, k, "peak", series, G_PEAK, !strcmp(unit, "bytes") ? K_MEM : K_INFO,
			  AGG_MAX, unit, v);
	}
	json_array_foreach(json_object_get(run, "fragmentation"), i, x) {
		v = num(x, "mean_ratio", &ok);
		if (ok)
			add_value(t, k, NULL, "fragmentation", G_FRAG, K_RATIO, AGG_MEAN, "", v);
	}
	collect_spans(t, k, ri, run);
	/* reported metrics; a name repeated within a run gets " #2", " #3"... */
	json_array_foreach(json_object_get(run, "reported"), i, x) {
		const char *name = json_string_value(json_object_get(x, "name"));
		const char *unit = json_string_value(json_object_get(x, "unit"));
		const char *canon;
		struct pr_strbuf nm = PR_STRBUF_INIT;
		int64_t times = 0;
		double factor;
		enum kind kd;
		v = num(x, "value", &ok);
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

static int collect(struct table *t, int k, const json_t *model, json_t *labels, struct pr_error *err)
{
	const json_t *runs = json_object_get(model, "runs"), *run;
	const char *schema = json_string_value(json_object_get(model, "schema"));
	size_t i;
	if (!schema || strcmp(schema, "profreport-model") || !json_is_array(runs))
		return pr_error_set(err, PR_E_FORMAT, "the %s input is not an analysis model",
				    k ? "new" : "base");
	if (json_array_size(runs) == 0)
		return pr_error_set(err, PR_E_FORMAT, "the %s input has no runs", k ? "new" : "base");
	json_array_foreach(runs, i, run) {
		const char *label = json_string_value(json_object_get(run, "label"));
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
	if (m->group == G_SPAN) {
		int ok0 = !m->s[0].present || (m->s[0].steps_ok && m->s[0].samp.n);
		int ok1 = !m->s[1].present || (m->s[1].steps_ok && m->s[1].samp.n);
		if (ok0 && ok1)
			return &m->s[k].samp;
	}
	return &m->s[k].runv;
}

struct thr {
	int gated, dir, has_rel, has_abs;
	double rel, abs;
	enum pr_gate_unit abs_unit;
	const char *source;
};

static int unit_fits(enum pr_gate_unit u, const char *unit)
{
	if (u == PR_GATE_NS)
		return !strcmp(unit, "ns");
	if (u == PR_GATE_BYTES)
		return !strcmp(unit, "bytes");
	return 1;
}

static struct thr threshold(const struct metric *m, const struct pr_gate *g)
{
	struct thr t;
	size_t i;
	memset(&t, 0, sizeof(t));
	for (i = g->nrules; i-- > 0;) {
		const struct pr_gate_rule *r = &g->rules[i];
		if (!pr_gate_rule_matches(r, m->id) || (r->has_abs && !unit_fits(r->abs_unit, m->unit)))
			continue;
		t.gated = 1;
		t.dir = r->dir;
		t.has_rel = r->has_rel;
		t.rel = r->rel;
		t.has_abs = r->has_abs;
		t.abs = r->abs;
		t.abs_unit = r->abs_unit;
		t.source = r->text;
		return t;
	}
	t.source = "default";
	t.gated = 1;
	switch (m->kind) {
	case K_TIME:
		t.dir = 1, t.has_rel = 1, t.rel = PR_COMPARE_TIME_REL;
		break;
	case K_MEM:
		t.dir = 1, t.has_rel = 1, t.rel = PR_COMPARE_MEM_REL;
		t.has_abs = 1, t.abs = PR_COMPARE_MEM_ABS, t.abs_unit = PR_GATE_BYTES;
		break;
	case K_TPUT:
		t.dir = -1, t.has_rel = 1, t.rel = PR_COMPARE_TPUT_REL;
		break;
	case K_RATIO:
		t.dir = 1, t.has_rel = 1, t.rel = PR_COMPARE_FRAG_REL;
		t.has_abs = 1, t.abs = PR_COMPARE_FRAG_ABS, t.abs_unit = PR_GATE_PLAIN;
		break;
	case K_INFO:
		t.gated = 0;
		t.source = "not gated (unit without a direction; name it in --fail-on)";
		break;
	}
	return t;
}

/* delta goes in direction d and is beyond every threshold. */
static int exceeds(const struct thr *t, int d, double base, double delta)
{
	if (!(delta * d > 0))
		return 0;
	if (t->has_rel && base != 0 && !(fabs(delta) / fabs(base) > t->rel))
		return 0;
	if (t->has_abs && !(fabs(delta) > t->abs))
		return 0;
	return t->has_rel || t->has_abs;
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

static json_t *test_json(const struct dvec *a, const struct dvec *b, double alpha, int *sig,
			 int *tested)
{
	struct pr_mwu u;
	double sh, lo, hi;
	json_t *o;
	*tested = 0;
	*sig = 0;
	if (a->n < 2 || b->n < 2 || pr_mann_whitney(a->v, a->n, b->v, b->n, &u))
		return json_pack("{s:s, s:s}", "method", "thresholds only", "reason",
				 a->n < 2 || b->n < 2 ? "fewer than 2 samples on a side"
						      : "samples not comparable");
	*tested = 1;
	*sig = u.p < alpha;
	o = json_pack("{s:s, s:o, s:o, s:b, s:o, s:o}", "method", "mann-whitney", "u", jnum(u.u1), "p",
		      jnum(u.p), "exact", u.exact, "effect", jnum(u.effect), "cles", jnum(u.cles));
	if (!pr_hodges_lehmann(a->v, a->n, b->v, b->n, 0.95, &sh, &lo, &hi)) {
		json_object_set_new(o, "hl_shift", jnum(sh));
		json_object_set_new(o, "hl_ci", json_pack("[o, o]", jnum(lo), jnum(hi)));
		json_object_set_new(o, "conf", json_real(0.95));
	}
	/* the ratio's CI: fixed seed per sample sizes, so a rerun prints the same interval */
	if (!pr_bootstrap_median_ratio(a->v, a->n, b->v, b->n, 0.95, PR_COMPARE_BOOT,
				       0x70726f66ULL ^ ((uint64_t)a->n << 32) ^ (uint64_t)b->n, &lo,
				       &hi))
		json_object_set_new(o, "ratio_ci", json_pack("[o, o]", jnum(lo), jnum(hi)));
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
	pr_gate_threshold_text(1, 1, PR_COMPARE_FRAG_REL, 1, PR_COMPARE_FRAG_ABS, PR_GATE_PLAIN, buf,
			       sizeof(buf));
	json_object_set_new(d, "fragmentation", json_string(buf));
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

json_t *pr_compare(const json_t *base, const json_t *newm, const struct pr_gate *gate,
		   struct pr_error *err)
{
	struct table t;
	json_t *out = NULL, *metrics, *floor, *ignored, *lb = json_array(), *ln = json_array();
	size_t i, cnt[6] = { 0 }, nfloor = 0, nign = 0;
	static const char *const verdicts[] = { "regression", "improvement", "unchanged",
						"noise", "added", "removed" };
	static const char marks[] = { '+', '-', ' ', '~', 'x', '!' };
	memset(&t, 0, sizeof(t));
	if (collect(&t, 0, base, lb, err) || collect(&t, 1, newm, ln, err)) {
		json_decref(lb);
		json_decref(ln);
		table_release(&t);
		return NULL;
	}
	for (i = 0; i < t.n; i++) {
		struct metric *m = &t.m[i];
		int k;
		for (k = 0; k < 2; k++)
			m->s[k].value = m->s[k].present ? aggregate(samples_of(m, k), m->agg) : NAN;
		m->sortkey = 0;
		if (m->group == G_SPAN)
			m->sortkey = fmax(isfinite(m->s[0].value) ? m->s[0].value : 0,
					  isfinite(m->s[1].value) ? m->s[1].value : 0);
	}
	/* the strmap indexes go stale here; it is not used after the sort */
	if (t.n)
		qsort(t.m, t.n, sizeof(*t.m), cmp_metric);
	metrics = json_array();
	floor = json_array();
	ignored = json_array();
	for (i = 0; i < t.n; i++) {
		struct metric *m = &t.m[i];
		const struct dvec *a = samples_of(m, 0), *b = samples_of(m, 1);
		double bv = m->s[0].value, nv = m->s[1].value, delta = nv - bv;
		int v, tested = 0, sig = 0;
		struct thr th;
		json_t *o, *test, *tj;
		char tt[128];
		if (pr_gate_ignored(gate, m->name, m->id)) {
			json_array_append_new(ignored, json_string(m->id));
			nign++;
			continue;
		}
		if (m->group == G_SPAN) {
			double s0 = t.dur_ns[0] > 0 ? m->s[0].total_ns / t.dur_ns[0] : 0;
			double s1 = t.dur_ns[1] > 0 ? m->s[1].total_ns / t.dur_ns[1] : 0;
			double vmax = m->sortkey;
			if (fmax(s0, s1) < gate->noise_floor || vmax < gate->min_us * 1000.0) {
				json_array_append_new(floor, json_pack("{s:s, s:o, s:o}", "id", m->id,
								       "base", jnum(bv), "new", jnum(nv)));
				nfloor++;
				continue;
			}
		}
		th = threshold(m, gate);
		if (!m->s[0].present || !m->s[1].present) {
			v = m->s[0].present ? 5 : 4;
			test = json_pack("{s:s, s:s}", "method", "thresholds only", "reason",
					 "present on one side only");
		} else {
			test = test_json(a, b, gate->alpha, &sig, &tested);
			if (!th.gated)
				v = 2;
			else if (exceeds(&th, th.dir, bv, delta))
				v = tested && !sig ? 3 : 0;
			else if (exceeds(&th, -th.dir, bv, delta))
				v = tested && !sig ? 3 : 1;
			else
				v = 2;
		}
		cnt[v]++;
		pr_gate_threshold_text(th.dir, th.has_rel, th.rel, th.has_abs, th.abs, th.abs_unit, tt,
				       sizeof(tt));
		tj = json_pack("{s:s, s:s, s:b}", "text", th.gated ? tt : "none", "source", th.source,
			       "gated", th.gated);
		if (th.has_rel)
			json_object_set_new(tj, "rel", json_real(th.rel * th.dir));
		if (th.has_abs)
			json_object_set_new(tj, "abs", json_real(th.abs * th.dir));
		o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "id", m->id, "group",
			      group_names[m->group], "name", m->name, "kind", kind_names[m->kind],
			      "unit", m->unit, "better",
			      !th.gated ? "unknown" : th.dir < 0 ? "higher" : "lower");
		json_object_set_new(o, "base", jnum(bv));
		json_object_set_new(o, "new", jnum(nv));
		json_object_set_new(o, "delta", jnum(delta));
		json_object_set_new(o, "ratio", bv != 0 ? jnum(nv / bv) : json_null());
		json_object_set_new(o, "change", bv != 0 ? jnum(delta / bv) : json_null());
		json_object_set_new(o, "n1", json_integer((json_int_t)(m->s[0].present ? a->n : 0)));
		json_object_set_new(o, "n2", json_integer((json_int_t)(m->s[1].present ? b->n : 0)));
		json_object_set_new(o, "test", test);
		json_object_set_new(o, "threshold", tj);
		json_object_set_new(o, "verdict", json_string(verdicts[v]));
		json_object_set_new(o, "mark", json_stringn(&marks[v], 1));
		json_array_append_new(metrics, o);
	}
	out = json_pack("{s:s, s:i}", "schema", PR_COMPARE_SCHEMA, "version", PR_COMPARE_VERSION);
	json_object_set_new(out, "base", json_pack("{s:I, s:o}", "runs", (json_int_t)t.runs[0],
						  "labels", lb));
	json_object_set_new(out, "new", json_pack("{s:I, s:o}", "runs", (json_int_t)t.runs[1],
						 "labels", ln));
	json_object_set_new(out, "settings", settings_json(gate));
	json_object_set_new(
		out, "summary",
		json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "status",
			  cnt[0] ? "fail" : "pass", "regressions", (json_int_t)cnt[0], "improvements",
			  (json_int_t)cnt[1], "unchanged", (json_int_t)cnt[2], "noise",
			  (json_int_t)cnt[3], "added", (json_int_t)cnt[4], "removed",
			  (json_int_t)cnt[5], "below_noise_floor", (json_int_t)nfloor, "ignored",
			  (json_int_t)nign, "metrics", (json_int_t)json_array_size(metrics)));
	json_object_set_new(out, "metrics", metrics);
	json_object_set_new(out, "below_noise_floor", floor);
	json_object_set_new(out, "ignored", ignored);
	table_release(&t);
	return out;
}

size_t pr_compare_regressions(const json_t *cmp)
{
	const json_t *n = json_object_get(json_object_get(cmp, "summary"), "regressions");
	return json_is_integer(n) ? (size_t)json_integer_value(n) : 0;
}
