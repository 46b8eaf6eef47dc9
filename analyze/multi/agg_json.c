/*
 * agg_json.c - agg.json (see aggregate.h, docs/aggregate.md): the aggregate
 * written as JSON with its exact state (hex floats, sum expansions,
 * sketches, values), and an agg.json read back and merged.
 */
#include "analyze/multi/aggregate.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/multi/agg_impl.h"
#include "analyze/model.h"
#include "base/stats.h"
#include "base/xsum.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

static const char *const cat_names[CAT_N] = { "run",  "stage",	"collective", "span",
					      "peak", "metric", "gpu" };

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
	json_array_foreach (arr, i, v) {
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
	static const char *const parts[] = { PRA_STATS_STATE_SKETCH_BINS,
					     PRA_STATS_STATE_SKETCH_NEG_BINS };
	size_t p, i;
	const json_t *v;
	double mn, mx;
	for (p = 0; p < 2; p++) {
		const json_t *arr = json_object_get(o, parts[p]);
		if (!json_is_array(arr))
			return -1;
		json_array_foreach (arr, i, v) {
			const json_t *ji = json_array_get(v, 0), *jc = json_array_get(v, 1);
			int r;
			if (!json_is_integer(ji) || !json_is_integer(jc) ||
			    json_integer_value(jc) < 0)
				return -1;
			r = p == 0 ? pr_sketch_add_bin(sk, (int32_t)json_integer_value(ji),
						       (uint64_t)json_integer_value(jc))
				   : pr_sketch_add_neg_bin(sk, (int32_t)json_integer_value(ji),
							   (uint64_t)json_integer_value(jc));
			if (r)
				return -1;
		}
	}
	if (!json_is_integer(json_object_get(o, PRA_STATS_STATE_SKETCH_ZEROS)))
		return -1;
	pr_sketch_add_zeros(sk, (uint64_t)json_integer_value(
					json_object_get(o, PRA_STATS_STATE_SKETCH_ZEROS)));
	if (pr_sketch_count(sk) == 0)
		return 0;
	if (unhex(json_object_get(o, PRA_STATS_STATE_SKETCH_MIN), &mn) ||
	    unhex(json_object_get(o, PRA_STATS_STATE_SKETCH_MAX), &mx))
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
	json_array_foreach (arr, i, v)
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
	const json_t *state = json_object_get(j, PRA_STATS_STATE), *m;
	const char *name = json_string_value(json_object_get(j, PRA_STATS_NAME));
	int cat = cat_from_name(json_string_value(json_object_get(j, PRA_STATS_CATEGORY)));
	struct agg_stat tmp, *s;
	double d[5];
	static const char *const mk[] = { PRA_STATS_STATE_MOMENTS_N, PRA_STATS_STATE_MOMENTS_MEAN,
					  PRA_STATS_STATE_MOMENTS_M2, PRA_STATS_STATE_MOMENTS_MIN,
					  PRA_STATS_STATE_MOMENTS_MAX };
	size_t i;
	if (cat < 0 || !name || !json_is_object(state) ||
	    !json_is_integer(json_object_get(j, PRA_STATS_RANKS)))
		goto bad;
	memset(&tmp, 0, sizeof(tmp));
	tmp.sk = pr_sketch_new();
	tmp.ranks = (uint64_t)json_integer_value(json_object_get(j, PRA_STATS_RANKS));
	m = json_object_get(state, PRA_STATS_STATE_MOMENTS);
	for (i = 0; i < 5; i++)
		if (unhex(json_object_get(m, mk[i]), &d[i]))
			goto bad_tmp;
	tmp.mom.n = d[0];
	tmp.mom.mean = d[1];
	tmp.mom.sumsq_dev = d[2];
	tmp.mom.min = d[3];
	tmp.mom.max = d[4];
	if (xsum_read(&tmp.calls, json_object_get(state, PRA_STATS_STATE_CALLS)) ||
	    xsum_read(&tmp.sum, json_object_get(state, PRA_STATS_STATE_SUM)) ||
	    xsum_read(&tmp.sumsq, json_object_get(state, PRA_STATS_STATE_SUMSQ)) ||
	    sketch_read(tmp.sk, json_object_get(state, PRA_STATS_STATE_SKETCH)) ||
	    vals_read(&tmp, json_object_get(state, PRA_STATS_STATE_VALUES)))
		goto bad_tmp;
	tmp.mom.sum = pr_xsum_value(&tmp.sum);
	tmp.min = tmp.mom.min;
	tmp.max = tmp.mom.max;
	tmp.argmin = json_is_integer(json_object_get(j, PRA_STATS_ARGMIN))
			     ? (long)json_integer_value(json_object_get(j, PRA_STATS_ARGMIN))
			     : -1;
	tmp.argmax = json_is_integer(json_object_get(j, PRA_STATS_ARGMAX))
			     ? (long)json_integer_value(json_object_get(j, PRA_STATS_ARGMAX))
			     : -1;
	s = pr_agg_stat_get(a, cat, json_string_value(json_object_get(j, PRA_STATS_KIND)), name,
			    json_string_value(json_object_get(j, PRA_STATS_UNIT)));
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
	const char *kind = json_string_value(json_object_get(j, PRA_COLLECTIVE_ARRIVALS_KIND)),
		   *name = json_string_value(json_object_get(j, PRA_COLLECTIVE_ARRIVALS_NAME));
	const json_t *state = json_object_get(j, PRA_COLLECTIVE_ARRIVALS_STATE),
		     *least = json_object_get(state, PRA_COLLECTIVE_ARRIVALS_STATE_LEAST_NS),
		     *rank = json_object_get(state, PRA_COLLECTIVE_ARRIVALS_STATE_RANK);
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

/* Schema, version and the arrays every agg.json has; ranks_array: its "ranks" is an array. */
static int part_check(const json_t *doc, int ranks_array, int from_file, struct pr_error *err)
{
	const char *schema = json_string_value(json_object_get(doc, PRA_SCHEMA));
	if (!schema || strcmp(schema, PR_AGG_SCHEMA))
		return from_file ? pr_error_set(err, PR_E_FORMAT, "not a profreport aggregate")
				 : pr_error_set(err, PR_E_FORMAT,
						"not a profreport aggregate (schema '%s')",
						schema ? schema : "");
	if (!json_is_integer(json_object_get(doc, PRA_VERSION)) ||
	    json_integer_value(json_object_get(doc, PRA_VERSION)) != PR_AGG_VERSION)
		return pr_error_set(err, PR_E_FORMAT, "aggregate version %lld is not %d",
				    (long long)json_integer_value(
					    json_object_get(doc, PRA_VERSION)),
				    PR_AGG_VERSION);
	if (!json_is_array(json_object_get(doc, PRA_STATS)) || !ranks_array)
		return pr_error_set(err, PR_E_PARSE, "aggregate without 'stats' or 'ranks'");
	return 0;
}

static int part_stats(struct pr_agg *tmp, const json_t *doc, struct pr_error *err)
{
	const json_t *v;
	size_t i;
	json_array_foreach (json_object_get(doc, PRA_STATS), i, v)
		if (stat_read(tmp, v, err, i))
			return -1;
	return 0;
}

/* ranks[i] of an agg.json into tmp (v borrowed). */
static int part_row(struct pr_agg *tmp, json_t *v, size_t i, struct pr_error *err)
{
	const json_t *r = json_object_get(v, PRA_RANKS_RANK);
	const char *rs = json_string_value(json_object_get(v, PRA_RANKS_RANK_SOURCE));
	if (!json_is_integer(r))
		return pr_error_set(err, PR_E_PARSE, "aggregate: ranks[%zu] has no rank", i);
	if (rs && !strcmp(rs, "inferred"))
		tmp->inferred = 1;
	return pr_agg_add_row(tmp, (long)json_integer_value(r),
			      json_string_value(json_object_get(v, PRA_RANKS_SOURCE)),
			      json_incref(v), err);
}

/* The rest of the document into tmp, and tmp into a. */
static int part_end(struct pr_agg *a, struct pr_agg *tmp, const json_t *doc, struct pr_error *err)
{
	const json_t *v;
	size_t i;
	json_array_foreach (json_object_get(doc, PRA_COLLECTIVE_ARRIVALS), i, v) {
		if (arrival_read(tmp, v))
			return pr_error_set(err, PR_E_PARSE,
					    "aggregate: bad entry collective_arrivals[%zu]", i);
	}
	json_array_foreach (json_object_get(doc, PRA_WARNINGS), i, v)
		if (json_is_string(v))
			pr_agg_warnf(tmp, "%s", json_string_value(v));
	if (json_is_integer(json_object_get(doc, PRA_WORLD_SIZE)))
		tmp->world_size = (long)json_integer_value(json_object_get(doc, PRA_WORLD_SIZE));
	return pr_agg_merge(a, tmp, err);
}

/*
 * Merging goes through a fresh aggregate (tmp), so that a is unchanged when
 * the document is bad; tmp's rows are copied from its scratch file to a's.
 */
int pr_agg_merge_json(struct pr_agg *a, const json_t *doc, struct pr_error *err)
{
	json_t *v;
	struct pr_agg *tmp;
	size_t i;
	int rc = -1;
	if (part_check(doc, json_is_array(json_object_get(doc, PRA_RANKS)), 0, err))
		return -1;
	tmp = pr_agg_new();
	if (part_stats(tmp, doc, err))
		goto out;
	json_array_foreach (json_object_get(doc, PRA_RANKS), i, v)
		if (part_row(tmp, v, i, err))
			goto out;
	rc = part_end(a, tmp, doc, err);
out:
	pr_agg_free(tmp);
	return rc;
}

/* ---- agg.json files, streamed ----------------------------------------- */

/*
 * A reader of one JSON file a byte at a time, which only finds where each
 * value begins and ends (strings, brackets); jansson parses and checks each
 * value it hands over, so a row at a time is in memory.
 */
struct jrd {
	FILE *f;
	int c;		/* the next byte; EOF at the end */
	uint64_t off;	/* its offset */
	long line, col; /* its position, from 1 */
	struct pr_strbuf sb;
};

static void jr_start(struct jrd *r, uint64_t off, long line, long col)
{
	r->off = off;
	r->line = line;
	r->col = col;
	r->c = getc(r->f);
}

static void jr_next(struct jrd *r)
{
	if (r->c == EOF)
		return;
	r->off++;
	if (r->c == '\n') {
		r->line++;
		r->col = 1;
	} else {
		r->col++;
	}
	r->c = getc(r->f);
}

static void jr_ws(struct jrd *r)
{
	while (r->c == ' ' || r->c == '\t' || r->c == '\n' || r->c == '\r')
		jr_next(r);
}

/* An error at the reader's position: what was expected, or the end of input / a read error. */
static int jr_err(struct jrd *r, const char *expected, struct pr_error *err)
{
	if (r->c == EOF && ferror(r->f))
		return pr_error_set(err, PR_E_IO, "cannot read: %s", strerror(errno));
	if (r->c == EOF)
		return pr_error_at(err, PR_E_PARSE, (int64_t)r->off, r->line, r->col,
				   "premature end of input (%s expected)", expected);
	return pr_error_at(err, PR_E_PARSE, (int64_t)r->off, r->line, r->col,
			   "%s expected near '%c'", expected,
			   r->c >= 0x20 && r->c < 0x7f ? r->c : '?');
}

static void jr_take(struct jrd *r, int keep)
{
	if (keep)
		pr_strbuf_addch(&r->sb, (char)r->c);
	jr_next(r);
}

/* A string at r->c == '"' (appended to r->sb when keep). */
static int jr_string(struct jrd *r, int keep, struct pr_error *err)
{
	jr_take(r, keep);
	for (;;) {
		if (r->c == EOF)
			return jr_err(r, "'\"'", err);
		if (r->c == '"') {
			jr_take(r, keep);
			return 0;
		}
		if (r->c == '\\') {
			jr_take(r, keep);
			if (r->c == EOF)
				return jr_err(r, "an escape", err);
		}
		jr_take(r, keep);
	}
}

/* One value (appended to r->sb when keep): a string, an object or array up to its
 * matching bracket, or a scalar up to the next delimiter. */
static int jr_value(struct jrd *r, int keep, struct pr_error *err)
{
	size_t depth = 0;
	uint64_t o0 = r->off;
	if (r->c == '"')
		return jr_string(r, keep, err);
	if (r->c == '{' || r->c == '[') {
		do {
			if (r->c == '"') {
				if (jr_string(r, keep, err))
					return -1;
				continue;
			}
			if (r->c == EOF)
				return jr_err(r, depth ? "'}' or ']'" : "a value", err);
			if (r->c == '{' || r->c == '[')
				depth++;
			else if (r->c == '}' || r->c == ']')
				depth--;
			jr_take(r, keep);
		} while (depth > 0);
		return 0;
	}
	while (r->c != EOF && !strchr(" \t\r\n,:]}[{\"", r->c))
		jr_take(r, keep);
	return r->off == o0 ? jr_err(r, "a value", err) : 0;
}

/* The value kept in r->sb (starting at line, col) parsed by jansson; NULL with err. */
static json_t *jr_parse(struct jrd *r, long line, long col, uint64_t off, struct pr_error *err)
{
	json_error_t je;
	json_t *v = json_loadb(r->sb.buf, r->sb.len, JSON_DECODE_ANY, &je);
	if (!v)
		pr_error_at(err, PR_E_PARSE, (int64_t)off + je.position, line + je.line - 1,
			    je.line <= 1 ? col + je.column - 1 : je.column, "%s", je.text);
	return v;
}

/*
 * Reads the value at the reader into a tree (r->sb reused). When the value
 * does not end (a bracket or quote too many or too few: the scan ran to the
 * end of the file), jansson's error in what was read says where it broke.
 */
static json_t *jr_read(struct jrd *r, struct pr_error *err)
{
	long line = r->line, col = r->col;
	uint64_t off = r->off;
	pr_strbuf_reset(&r->sb);
	if (jr_value(r, 1, err)) {
		struct pr_error at = PR_ERROR_INIT;
		json_t *v = r->sb.len && err->code == PR_E_PARSE ? jr_parse(r, line, col, off, &at)
								 : NULL;
		if (v)
			json_decref(v);
		else if (at.code)
			*err = at;
		return NULL;
	}
	return jr_parse(r, line, col, off, err);
}

/* What is read of the top level: the keys merging uses, and where "ranks" is. */
struct jr_head {
	json_t *doc; /* the top-level keys but "ranks" that merging reads */
	int ranks_array;
	uint64_t ranks_off, ranks_end;
	long ranks_line, ranks_col;
};

static int jr_ranks(struct jrd *r, const struct jr_head *h, struct pr_agg *tmp,
		    struct pr_error *err);

/* Pass 1: the top-level object, every value checked, "ranks" only skipped over. */
static int jr_head(struct jrd *r, struct jr_head *h, struct pr_error *err)
{
	static const char *const keep[] = { PRA_SCHEMA,	  PRA_VERSION,
					    PRA_STATS,	  PRA_COLLECTIVE_ARRIVALS,
					    PRA_WARNINGS, PRA_WORLD_SIZE };
	jr_ws(r);
	if (r->c != '{')
		return jr_err(r, "'{'", err);
	jr_next(r);
	jr_ws(r);
	if (r->c == '}') {
		jr_next(r);
	} else {
		for (;;) {
			json_t *k, *v;
			char *key;
			size_t i;
			int used = 0;
			if (r->c != '"')
				return jr_err(r, "a string (a key)", err);
			if (!(k = jr_read(r, err)))
				return -1;
			if (strlen(json_string_value(k)) != json_string_length(k)) {
				json_decref(k);
				return jr_err(r, "a key without NUL", err);
			}
			key = pr_xstrdup(json_string_value(k));
			json_decref(k);
			jr_ws(r);
			if (r->c != ':') {
				free(key);
				return jr_err(r, "':'", err);
			}
			jr_next(r);
			jr_ws(r);
			if (!strcmp(key, PRA_RANKS) && r->c == '[') {
				h->ranks_array = 1;
				h->ranks_off = r->off;
				h->ranks_line = r->line;
				h->ranks_col = r->col;
				if (jr_value(r, 0, err)) {
					/* the rows read one by one say where it broke */
					struct pr_error first = *err;
					free(key);
					if (!jr_ranks(r, h, NULL, err))
						*err = first;
					return -1;
				}
				h->ranks_end = r->off;
				free(key);
			} else {
				if (!(v = jr_read(r, err))) {
					free(key);
					return -1;
				}
				if (!strcmp(key, PRA_RANKS))
					h->ranks_array = 0;
				for (i = 0; i < sizeof(keep) / sizeof(keep[0]) && !used; i++)
					used = !strcmp(key, keep[i]);
				if (used)
					json_object_set_new(h->doc, key, v);
				else
					json_decref(v);
				free(key);
			}
			jr_ws(r);
			if (r->c == ',') {
				jr_next(r);
				jr_ws(r);
				continue;
			}
			if (r->c != '}')
				return jr_err(r, "',' or '}'", err);
			jr_next(r);
			break;
		}
	}
	jr_ws(r);
	return r->c == EOF && !ferror(r->f) ? 0 : jr_err(r, "end of file", err);
}

/* Pass 2: the "ranks" array, a row at a time into tmp (NULL: only read, for its error). */
static int jr_ranks(struct jrd *r, const struct jr_head *h, struct pr_agg *tmp,
		    struct pr_error *err)
{
	size_t i = 0;
	if (fseeko(r->f, (off_t)h->ranks_off, SEEK_SET))
		return pr_error_set(err, PR_E_IO, "cannot seek: %s", strerror(errno));
	jr_start(r, h->ranks_off, h->ranks_line, h->ranks_col);
	jr_next(r); /* '[' */
	jr_ws(r);
	if (r->c == ']') {
		jr_next(r);
	} else {
		for (;; i++) {
			json_t *v = jr_read(r, err);
			int rc;
			if (!v)
				return -1;
			rc = tmp ? part_row(tmp, v, i, err) : 0;
			json_decref(v);
			if (rc)
				return -1;
			jr_ws(r);
			if (r->c == ',') {
				jr_next(r);
				jr_ws(r);
				continue;
			}
			if (r->c != ']')
				return jr_err(r, "',' or ']'", err);
			jr_next(r);
			break;
		}
	}
	if (r->off != h->ranks_end) /* cannot be when every row parsed: a guard */
		return pr_error_at(err, PR_E_PARSE, (int64_t)h->ranks_off, h->ranks_line,
				   h->ranks_col, "malformed 'ranks' array");
	return 0;
}

int pr_agg_merge_file(struct pr_agg *a, const char *path, struct pr_error *err)
{
	struct jrd r;
	struct jr_head h;
	struct pr_agg *tmp = NULL;
	int rc = -1;
	memset(&r, 0, sizeof(r));
	memset(&h, 0, sizeof(h));
	if (!(r.f = fopen(path, "rb")))
		return pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
	h.doc = json_object();
	jr_start(&r, 0, 1, 1);
	if (jr_head(&r, &h, err) || part_check(h.doc, h.ranks_array, 1, err))
		goto out;
	tmp = pr_agg_new();
	if (part_stats(tmp, h.doc, err) || jr_ranks(&r, &h, tmp, err))
		goto out;
	rc = part_end(a, tmp, h.doc, err);
out:
	pr_agg_free(tmp);
	json_decref(h.doc);
	pr_strbuf_release(&r.sb);
	fclose(r.f);
	return rc;
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

json_t *pr_agg_head_json(const struct pr_agg *a)
{
	json_t *doc = json_object(), *stats = json_array(), *strag = json_object();
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
	json_object_set_new(doc, "world_size",
			    a->world_size > 0 ? json_integer(a->world_size) : json_null());
	json_object_set_new(doc, "ranks_inferred", json_boolean(a->inferred));
	json_object_set_new(doc, "warnings", json_deep_copy(a->warnings));
	pr_agg_stragglers(a, rv, a->nrows, distinct, strag);
	json_object_set_new(doc, "stragglers", strag);
	json_object_set_new(doc, "collective_arrivals", pr_agg_arrivals_json(a, distinct));
	for (i = 0; i < a->nst; i++)
		json_array_append_new(stats, stat_json(sv[i]));
	json_object_set_new(doc, "stats", stats);
	free(sv);
	free(rv);
	if (pr_agg_failed(a, NULL)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

int pr_agg_ranks_into(const struct pr_agg *a, json_t *doc, size_t brief, struct pr_error *err)
{
	json_t *ranks = json_array();
	size_t i, distinct, gpus = 0;
	struct agg_row **rv = pr_agg_rows_sorted(a, &distinct);
	for (i = 0; i < a->nrows; i++) {
		json_t *row = json_null();
		/* brief: the first brief rows, then rows with a "gpu" object until brief + 1 of those */
		if (!brief || i < brief || gpus <= brief) {
			if (!(row = pr_agg_row_json(a, rv[i])))
				break;
			if (brief && i >= brief &&
			    !json_is_object(json_object_get(row, PRA_RANKS_GPU))) {
				json_decref(row);
				row = json_null();
			}
		}
		if (brief && json_is_object(json_object_get(row, PRA_RANKS_GPU)))
			gpus++;
		json_array_append_new(ranks, row);
	}
	free(rv);
	if (pr_agg_failed(a, err)) {
		json_decref(ranks);
		return -1;
	}
	json_object_set_new(doc, "ranks", ranks);
	return 0;
}

json_t *pr_agg_to_json(const struct pr_agg *a)
{
	json_t *doc = pr_agg_head_json(a);
	if (doc && pr_agg_ranks_into(a, doc, 0, NULL)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/* Writes text with every newline followed by two more spaces (a row nested in "ranks"). */
static void write_nested(struct pr_output *out, const char *text)
{
	const char *p = text, *nl;
	while ((nl = strchr(p, '\n'))) {
		pr_output_write(out, p, (size_t)(nl - p));
		pr_output_write(out, "\n  ", 3);
		p = nl + 1;
	}
	pr_output_write(out, p, strlen(p));
}

/* The end of the number that starts at s[i] (at a ',', '}', ']' or n). */
static size_t token_end(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']')
		i++;
	return i;
}

/*
 * A real number of the kept row (17 digits) as pr_model_dumps writes it:
 * jansson's "%.12g", with ".0" when that has no '.' nor 'e', and the
 * exponent without '+' or leading zeros. -1 when it does not read back.
 */
static int real12(struct pr_strbuf *o, const char *tok, size_t n)
{
	char in[64], b[64], *end, *e, *z;
	double v;
	int len;
	if (n >= sizeof(in))
		return -1;
	memcpy(in, tok, n);
	in[n] = '\0';
	v = strtod(in, &end);
	if (*end || !isfinite(v))
		return -1;
	len = snprintf(b, sizeof(b) - 3, "%.12g", v);
	if (len < 0 || (size_t)len >= sizeof(b) - 3)
		return -1;
	if (!strchr(b, '.') && !strchr(b, 'e'))
		memcpy(b + len, ".0", 3);
	if ((e = strchr(b, 'e'))) {
		e++;
		if (*e == '-')
			e++;
		for (z = e; *z == '+' || *z == '0'; z++)
			;
		memmove(e, z, strlen(z) + 1);
	}
	pr_strbuf_addstr(o, b);
	return 0;
}

/* A newline and the indent of depth d in a row nested in "ranks" (2 + d spaces). */
static void row_newline(struct pr_strbuf *o, int d)
{
	pr_strbuf_addch(o, '\n');
	for (d += 2; d > 0; d--)
		pr_strbuf_addch(o, ' ');
}

/*
 * A row as kept (s, n: compact JSON, 17 digits) appended to o as the dump
 * of its tree with pr_model_dumps (JSON_INDENT(1), 12 digits), indented two
 * levels deeper: what write_nested writes of it, without parsing it into a
 * tree and dumping that. Strings, integers and true/false/null are copied
 * (the kept text is jansson's own dump); reals (a number with a '.' or an
 * exponent) are written again at 12 digits.
 * -1 on a text it does not expect (o then holds part of it): the caller
 * goes the tree's way.
 */
static int row_reindent(struct pr_strbuf *o, const char *s, size_t n)
{
	size_t i = 0, k;
	int d = 0;
	while (i < n) {
		char c = s[i];
		switch (c) {
		case '{':
		case '[':
			if (i + 1 < n && s[i + 1] == (c == '{' ? '}' : ']')) {
				pr_strbuf_add(o, s + i, 2);
				i += 2;
				break;
			}
			pr_strbuf_addch(o, c);
			row_newline(o, ++d);
			i++;
			break;
		case '}':
		case ']':
			if (d == 0)
				return -1;
			row_newline(o, --d);
			pr_strbuf_addch(o, c);
			i++;
			break;
		case ',':
			pr_strbuf_addch(o, ',');
			row_newline(o, d);
			i++;
			break;
		case ':':
			pr_strbuf_add(o, ": ", 2);
			i++;
			break;
		case '"':
			for (k = i + 1; k < n && s[k] != '"'; k++)
				if (s[k] == '\\')
					k++;
			if (k >= n)
				return -1;
			pr_strbuf_add(o, s + i, k + 1 - i);
			i = k + 1;
			break;
		default:
			k = token_end(s, i, n);
			if ((c == '-' || (c >= '0' && c <= '9')) &&
			    (memchr(s + i, '.', k - i) || memchr(s + i, 'e', k - i) ||
			     memchr(s + i, 'E', k - i))) {
				if (real12(o, s + i, k - i))
					return -1;
			} else {
				pr_strbuf_add(o, s + i, k - i);
			}
			if (k == i)
				return -1;
			i = k;
		}
	}
	return d == 0 ? 0 : -1;
}

/* Row r as write_nested writes pr_model_dumps of its tree; -1 when the scratch file fails. */
static int write_row(const struct pr_agg *a, const struct agg_row *r, struct pr_strbuf *o,
		     struct pr_output *out)
{
	size_t n;
	const char *s = pr_agg_row_text(a, r, &n);
	json_t *row;
	char *text;
	if (!s)
		return -1;
	pr_strbuf_reset(o);
	if (!row_reindent(o, s, n)) {
		pr_output_write(out, o->buf, o->len);
		return 0;
	}
	row = json_loadb(s, n, JSON_ALLOW_NUL, NULL);
	text = row ? pr_model_dumps(row) : NULL;
	json_decref(row);
	if (!text)
		return -1;
	write_nested(out, text);
	free(text);
	return 0;
}

/*
 * The head as pr_model_dumps writes it ends in "\n}"; the rows follow as
 * its last key, each dumped alone and indented two levels deeper, which is
 * how the dump of the whole document nests them (JSON_INDENT(1)).
 */
int pr_agg_write(const struct pr_agg *a, const json_t *head, struct pr_output *out,
		 struct pr_error *err)
{
	char *text = pr_model_dumps(head);
	size_t n = text ? strlen(text) : 0, i, distinct;
	struct agg_row **rv;
	struct pr_strbuf o = PR_STRBUF_INIT;
	if (n < 3 || strcmp(text + n - 2, "\n}")) {
		free(text);
		return pr_error_set(err, PR_E_FORMAT,
				    "agg.json: its head is not a non-empty object");
	}
	pr_output_write(out, text, n - 2);
	free(text);
	pr_output_write(out, ",\n \"ranks\": [", 13);
	rv = pr_agg_rows_sorted(a, &distinct);
	for (i = 0; i < a->nrows; i++) {
		pr_output_write(out, i ? ",\n  " : "\n  ", i ? 4 : 3);
		if (write_row(a, rv[i], &o, out)) {
			long rank = rv[i]->rank;
			free(rv);
			pr_strbuf_release(&o);
			if (pr_agg_failed(a, err))
				return -1;
			return pr_error_set(err, PR_E_IO, "rank %ld: cannot write its row", rank);
		}
	}
	free(rv);
	pr_strbuf_release(&o);
	if (pr_agg_failed(a, err))
		return -1;
	pr_output_write(out, a->nrows ? "\n ]\n}\n" : "]\n}\n", a->nrows ? 6 : 4);
	return 0;
}
