/*
 * agg_json.c - agg.json (see aggregate.h, README "agg.json"): the aggregate
 * written as JSON with its exact state (hex floats, sum expansions,
 * sketches, values), and an agg.json read back and merged.
 */
#include "analyze/aggregate.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/agg_impl.h"
#include "analyze/stats.h"
#include "analyze/xsum.h"
#include "base/jsonx.h"
#include "base/xalloc.h"

static const char *const cat_names[CAT_N] = { "run", "stage", "collective", "span", "peak",
					      "metric", "gpu" };

/* Exact doubles are written as C99 hex floats ("0x1.8p+3"). */
static json_t *hexd(double v)
{
	char b[64];
	snprintf(b, sizeof(b), "%a", v);
	return json_string(b);
}

static int unhex(const json_t *j, double *out)
{
	const char *s = json_string_value(j);
	char *end;
	if (!s)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	return (*end || end == s) ? -1 : 0;
}

/*
 * The canonical expansion of the exact sum: its correctly rounded value,
 * then that of the remainder, and so on. It depends only on the exact sum,
 * not on the partials, so equal sums are written identically.
 */
static json_t *xsum_json(const struct pr_xsum *s)
{
	json_t *arr = json_array();
	struct pr_xsum c = PR_XSUM_INIT;
	size_t i;
	for (i = 0; i < s->n; i++)
		pr_xsum_add(&c, s->p[i]);
	for (i = 0; i < 64; i++) {
		double v = pr_xsum_value(&c);
		if (v == 0.0)
			break;
		json_array_append_new(arr, hexd(v));
		pr_xsum_add(&c, -v);
	}
	free(c.p);
	return arr;
}

static int xsum_read(struct pr_xsum *s, const json_t *arr)
{
	size_t i;
	const json_t *v;
	if (!json_is_array(arr))
		return -1;
	json_array_foreach(arr, i, v) {
		double d;
		if (unhex(v, &d))
			return -1;
		pr_xsum_add(s, d);
	}
	return 0;
}

static json_t *sketch_json(const struct pr_sketch *sk)
{
	json_t *o = json_object(), *b = json_array(), *nb = json_array();
	int32_t *idx = NULL;
	uint64_t *cnt = NULL;
	size_t n, i;
	n = pr_sketch_bins(sk, &idx, &cnt);
	for (i = 0; i < n; i++)
		json_array_append_new(b, json_pack("[iI]", (int)idx[i], (json_int_t)cnt[i]));
	free(idx);
	free(cnt);
	idx = NULL;
	cnt = NULL;
	n = pr_sketch_neg_bins(sk, &idx, &cnt);
	for (i = 0; i < n; i++)
		json_array_append_new(nb, json_pack("[iI]", (int)idx[i], (json_int_t)cnt[i]));
	free(idx);
	free(cnt);
	json_object_set_new(o, "bins", b);
	json_object_set_new(o, "neg_bins", nb);
	json_object_set_new(o, "zeros", json_integer((json_int_t)pr_sketch_zero_count(sk)));
	json_object_set_new(o, "min", hexd(pr_sketch_min(sk)));
	json_object_set_new(o, "max", hexd(pr_sketch_max(sk)));
	return o;
}

static int sketch_read(struct pr_sketch *sk, const json_t *o)
{
	static const char *const parts[] = { "bins", "neg_bins" };
	size_t p, i;
	const json_t *v;
	double mn, mx;
	for (p = 0; p < 2; p++) {
		const json_t *arr = json_object_get(o, parts[p]);
		if (!json_is_array(arr))
			return -1;
		json_array_foreach(arr, i, v) {
			const json_t *ji = json_array_get(v, 0), *jc = json_array_get(v, 1);
			int r;
			if (!json_is_integer(ji) || !json_is_integer(jc) || json_integer_value(jc) < 0)
				return -1;
			r = p == 0 ? pr_sketch_add_bin(sk, (int32_t)json_integer_value(ji),
						       (uint64_t)json_integer_value(jc))
				   : pr_sketch_add_neg_bin(sk, (int32_t)json_integer_value(ji),
							   (uint64_t)json_integer_value(jc));
			if (r)
				return -1;
		}
	}
	if (!json_is_integer(json_object_get(o, "zeros")))
		return -1;
	pr_sketch_add_zeros(sk, (uint64_t)json_integer_value(json_object_get(o, "zeros")));
	if (pr_sketch_count(sk) == 0)
		return 0;
	if (unhex(json_object_get(o, "min"), &mn) || unhex(json_object_get(o, "max"), &mx))
		return -1;
	return pr_sketch_set_extrema(sk, mn, mx);
}

/*
 * state.values of an agg.json stat: every rank's value (hex floats), or
 * absent when the stat had more ranks than PR_AGG_EXACT_MAX; exact only
 * when there is one value per rank.
 */
static int vals_read(struct agg_stat *s, const json_t *arr)
{
	size_t i;
	const json_t *v;
	s->exact = 0;
	if (!arr)
		return 0;
	if (!json_is_array(arr) || json_array_size(arr) > PR_AGG_EXACT_MAX)
		return -1;
	s->vals = pr_xreallocarray(NULL, json_array_size(arr) + 1, sizeof(s->vals[0]));
	json_array_foreach(arr, i, v)
		if (unhex(v, &s->vals[i]))
			return -1;
	s->nvals = json_array_size(arr);
	s->exact = s->nvals == s->ranks;
	return 0;
}

static int cmp_double(const void *x, const void *y)
{
	double u = *(const double *)x, v = *(const double *)y;
	return (u > v) - (u < v);
}

/* The stat's values sorted (a new array), or NULL when not exact or empty. */
static double *vals_sorted(const struct agg_stat *s)
{
	double *v;
	if (!s->exact || !s->nvals)
		return NULL;
	v = pr_xmalloc(s->nvals * sizeof(v[0]));
	memcpy(v, s->vals, s->nvals * sizeof(v[0]));
	qsort(v, s->nvals, sizeof(v[0]), cmp_double);
	return v;
}

static int cat_from_name(const char *s)
{
	int c;
	for (c = 0; c < CAT_N; c++)
		if (s && !strcmp(s, cat_names[c]))
			return c;
	return -1;
}

static int stat_read(struct pr_agg *a, const json_t *j, struct pr_error *err, size_t k)
{
	const json_t *state = json_object_get(j, "state"), *m;
	const char *name = json_string_value(json_object_get(j, "name"));
	int cat = cat_from_name(json_string_value(json_object_get(j, "category")));
	struct agg_stat tmp, *s;
	double d[5];
	static const char *const mk[] = { "n", "mean", "m2", "min", "max" };
	size_t i;
	if (cat < 0 || !name || !json_is_object(state) ||
	    !json_is_integer(json_object_get(j, "ranks")))
		goto bad;
	memset(&tmp, 0, sizeof(tmp));
	tmp.sk = pr_sketch_new();
	tmp.ranks = (uint64_t)json_integer_value(json_object_get(j, "ranks"));
	m = json_object_get(state, "moments");
	for (i = 0; i < 5; i++)
		if (unhex(json_object_get(m, mk[i]), &d[i]))
			goto bad_tmp;
	tmp.mom.n = d[0];
	tmp.mom.mean = d[1];
	tmp.mom.sumsq_dev = d[2];
	tmp.mom.min = d[3];
	tmp.mom.max = d[4];
	if (xsum_read(&tmp.calls, json_object_get(state, "calls")) ||
	    xsum_read(&tmp.sum, json_object_get(state, "sum")) ||
	    xsum_read(&tmp.sumsq, json_object_get(state, "sumsq")) ||
	    sketch_read(tmp.sk, json_object_get(state, "sketch")) ||
	    vals_read(&tmp, json_object_get(state, "values")))
		goto bad_tmp;
	tmp.mom.sum = pr_xsum_value(&tmp.sum);
	tmp.min = tmp.mom.min;
	tmp.max = tmp.mom.max;
	tmp.argmin = json_is_integer(json_object_get(j, "argmin"))
			     ? (long)json_integer_value(json_object_get(j, "argmin"))
			     : -1;
	tmp.argmax = json_is_integer(json_object_get(j, "argmax"))
			     ? (long)json_integer_value(json_object_get(j, "argmax"))
			     : -1;
	s = pr_agg_stat_get(a, cat, json_string_value(json_object_get(j, "kind")), name,
		     json_string_value(json_object_get(j, "unit")));
	pr_agg_stat_merge(s, &tmp);
	free(tmp.calls.p);
	free(tmp.sum.p);
	free(tmp.sumsq.p);
	pr_sketch_free(tmp.sk);
	free(tmp.vals);
	return 0;
bad_tmp:
	free(tmp.calls.p);
	free(tmp.sum.p);
	free(tmp.sumsq.p);
	pr_sketch_free(tmp.sk);
	free(tmp.vals);
bad:
	return pr_error_set(err, PR_E_PARSE, "aggregate: bad entry stats[%zu]", k);
}

/* One collective_arrivals entry of an agg.json into a; -1 when malformed. */
static int arrival_read(struct pr_agg *a, const json_t *j)
{
	const char *kind = json_string_value(json_object_get(j, "kind")),
		   *name = json_string_value(json_object_get(j, "name"));
	const json_t *state = json_object_get(j, "state"), *least = json_object_get(state, "least_ns"),
		     *rank = json_object_get(state, "rank");
	struct agg_arrival *ar;
	size_t n = json_array_size(least), k;
	if (!kind || !name || !json_is_array(least) || !json_is_array(rank) ||
	    json_array_size(rank) != n)
		return -1;
	for (k = 0; k < n; k++) {
		const json_t *l = json_array_get(least, k), *r = json_array_get(rank, k);
		if (!json_is_integer(r) || json_integer_value(r) < -1 ||
		    json_integer_value(r) > INT32_MAX || !(json_is_null(l) || json_is_number(l)) ||
		    (json_integer_value(r) >= 0) != json_is_number(l))
			return -1;
	}
	if (!(ar = pr_agg_arrival_get(a, kind, name, n)))
		return 0;
	for (k = 0; k < n; k++)
		pr_agg_arrival_note(ar, k, json_number_value(json_array_get(least, k)),
			     (long)json_integer_value(json_array_get(rank, k)));
	return 0;
}

int pr_agg_merge_json(struct pr_agg *a, const json_t *doc, struct pr_error *err)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	const json_t *v, *stats = json_object_get(doc, "stats"), *ranks = json_object_get(doc, "ranks");
	struct pr_agg *tmp;
	size_t i;
	if (!schema || strcmp(schema, PR_AGG_SCHEMA))
		return pr_error_set(err, PR_E_FORMAT, "not a profreport aggregate (schema '%s')",
				    schema ? schema : "");
	if (!json_is_integer(json_object_get(doc, "version")) ||
	    json_integer_value(json_object_get(doc, "version")) != PR_AGG_VERSION)
		return pr_error_set(err, PR_E_FORMAT, "aggregate version %lld is not %d",
				    (long long)json_integer_value(json_object_get(doc, "version")),
				    PR_AGG_VERSION);
	if (!json_is_array(stats) || !json_is_array(ranks))
		return pr_error_set(err, PR_E_PARSE, "aggregate without 'stats' or 'ranks'");
	tmp = pr_agg_new();
	json_array_foreach(stats, i, v) {
		if (stat_read(tmp, v, err, i)) {
			pr_agg_free(tmp);
			return -1;
		}
	}
	json_array_foreach(ranks, i, v) {
		const json_t *r = json_object_get(v, "rank");
		const char *rs = json_string_value(json_object_get(v, "rank_source"));
		if (!json_is_integer(r)) {
			pr_agg_free(tmp);
			return pr_error_set(err, PR_E_PARSE, "aggregate: ranks[%zu] has no rank", i);
		}
		if (rs && !strcmp(rs, "inferred"))
			tmp->inferred = 1;
		pr_agg_add_row(tmp, (long)json_integer_value(r),
			json_string_value(json_object_get(v, "source")), json_deep_copy(v));
	}
	json_array_foreach(json_object_get(doc, "collective_arrivals"), i, v) {
		if (arrival_read(tmp, v)) {
			pr_agg_free(tmp);
			return pr_error_set(err, PR_E_PARSE,
					    "aggregate: bad entry collective_arrivals[%zu]", i);
		}
	}
	json_array_foreach(json_object_get(doc, "warnings"), i, v)
		if (json_is_string(v))
			pr_agg_warnf(tmp, "%s", json_string_value(v));
	if (json_is_integer(json_object_get(doc, "world_size")))
		tmp->world_size = (long)json_integer_value(json_object_get(doc, "world_size"));
	pr_agg_merge(a, tmp);
	pr_agg_free(tmp);
	return 0;
}

/* ---- output ----------------------------------------------------------- */

static int cmp_stat(const void *x, const void *y)
{
	const struct agg_stat *const *a = x, *const *b = y;
	int c;
	if ((*a)->cat != (*b)->cat)
		return (*a)->cat - (*b)->cat;
	if ((c = strcmp((*a)->name, (*b)->name)))
		return c;
	return strcmp((*a)->kind, (*b)->kind);
}

static json_t *stat_json(const struct agg_stat *s)
{
	json_t *o = json_object(), *state = json_object(), *m = json_object();
	double sum = pr_xsum_value(&s->sum), n = (double)s->ranks, mean = n > 0 ? sum / n : NAN;
	double *sorted = vals_sorted(s), median;
	size_t i;
	if (sorted)
		median = s->nvals % 2 ? sorted[s->nvals / 2]
				      : (sorted[s->nvals / 2 - 1] + sorted[s->nvals / 2]) / 2;
	else
		median = pr_sketch_quantile(s->sk, 0.5);
	json_object_set_new(o, "category", json_string(cat_names[s->cat]));
	json_object_set_new(o, "kind", json_string(s->kind));
	json_object_set_new(o, "name", json_string(s->name));
	json_object_set_new(o, "unit", json_string(s->unit));
	json_object_set_new(o, "ranks", json_integer((json_int_t)s->ranks));
	json_object_set_new(o, "calls", pr_jnum(pr_xsum_value(&s->calls)));
	json_object_set_new(o, "sum", pr_jnum(sum));
	json_object_set_new(o, "mean", pr_jnum(mean));
	json_object_set_new(o, "median", pr_jnum(median));
	json_object_set_new(o, "median_exact", json_boolean(sorted != NULL));
	json_object_set_new(o, "std", pr_jnum(pr_moments_std(&s->mom, 0)));
	json_object_set_new(o, "min", pr_jnum(s->min));
	json_object_set_new(o, "argmin", s->argmin >= 0 ? json_integer(s->argmin) : json_null());
	json_object_set_new(o, "max", pr_jnum(s->max));
	json_object_set_new(o, "argmax", s->argmax >= 0 ? json_integer(s->argmax) : json_null());
	json_object_set_new(o, "imbalance", mean > 0 ? pr_jnum(s->max / mean) : json_null());
	json_object_set_new(m, "n", hexd(s->mom.n));
	json_object_set_new(m, "mean", hexd(s->mom.mean));
	json_object_set_new(m, "m2", hexd(s->mom.sumsq_dev));
	json_object_set_new(m, "min", hexd(s->min));
	json_object_set_new(m, "max", hexd(s->max));
	json_object_set_new(state, "calls", xsum_json(&s->calls));
	json_object_set_new(state, "sum", xsum_json(&s->sum));
	json_object_set_new(state, "sumsq", xsum_json(&s->sumsq));
	json_object_set_new(state, "moments", m);
	json_object_set_new(state, "sketch", sketch_json(s->sk));
	if (sorted) {
		json_t *vals = json_array();
		for (i = 0; i < s->nvals; i++)
			json_array_append_new(vals, hexd(sorted[i]));
		json_object_set_new(state, "values", vals);
		free(sorted);
	}
	json_object_set_new(o, "state", state);
	return o;
}

json_t *pr_agg_to_json(const struct pr_agg *a)
{
	json_t *doc = json_object(), *stats = json_array(), *ranks = json_array(),
	       *strag = json_object();
	const struct agg_stat **sv = pr_xcalloc(a->nst + 1, sizeof(sv[0]));
	size_t i, distinct;
	struct agg_row **rv = pr_agg_rows_sorted(a, &distinct);
	for (i = 0; i < a->nst; i++)
		sv[i] = &a->st[i];
	qsort(sv, a->nst, sizeof(sv[0]), cmp_stat);
	json_object_set_new(doc, "schema", json_string(PR_AGG_SCHEMA));
	json_object_set_new(doc, "version", json_integer(PR_AGG_VERSION));
	json_object_set_new(doc, "rank_count", json_integer((json_int_t)distinct));
	json_object_set_new(doc, "inputs", json_integer((json_int_t)a->nrows));
	json_object_set_new(doc, "world_size", a->world_size > 0 ? json_integer(a->world_size)
								 : json_null());
	json_object_set_new(doc, "ranks_inferred", json_boolean(a->inferred));
	json_object_set_new(doc, "warnings", json_deep_copy(a->warnings));
	pr_agg_stragglers(a, rv, a->nrows, distinct, strag);
	json_object_set_new(doc, "stragglers", strag);
	json_object_set_new(doc, "collective_arrivals", pr_agg_arrivals_json(a, distinct));
	for (i = 0; i < a->nst; i++)
		json_array_append_new(stats, stat_json(sv[i]));
	for (i = 0; i < a->nrows; i++)
		json_array_append(ranks, rv[i]->j);
	json_object_set_new(doc, "stats", stats);
	json_object_set_new(doc, "ranks", ranks);
	free(sv);
	free(rv);
	return doc;
}
