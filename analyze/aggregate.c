/* aggregate.c - multi-rank aggregation (see aggregate.h). */
#include "analyze/aggregate.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <regex.h>
#include <sqlite3.h>

#include "analyze/model.h"
#include "analyze/stats.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

/* ---- exact sums (Shewchuk partials, as Python's math.fsum) ------------ */

struct xsum {
	double *p; /* non-overlapping, increasing magnitude */
	size_t n, alloc;
};

static void xsum_add(struct xsum *s, double x)
{
	size_t i = 0, j;
	if (!isfinite(x))
		return;
	for (j = 0; j < s->n; j++) {
		double y = s->p[j], hi, lo;
		if (fabs(x) < fabs(y)) {
			double t = x;
			x = y;
			y = t;
		}
		hi = x + y;
		lo = y - (hi - x);
		if (lo != 0.0)
			s->p[i++] = lo;
		x = hi;
	}
	if (i + 1 > s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 4;
		s->p = pr_xreallocarray(s->p, s->alloc, sizeof(s->p[0]));
	}
	s->p[i] = x;
	s->n = i + 1;
}

static void xsum_merge(struct xsum *into, const struct xsum *from)
{
	size_t i;
	for (i = 0; i < from->n; i++)
		xsum_add(into, from->p[i]);
}

/* The correctly rounded value of the exact sum. */
static double xsum_value(const struct xsum *s)
{
	size_t n = s->n;
	double hi = 0.0, lo = 0.0, x, y, yr;
	if (!n)
		return 0.0;
	hi = s->p[--n];
	while (n > 0) {
		x = hi;
		y = s->p[--n];
		hi = x + y;
		yr = hi - x;
		lo = y - yr;
		if (lo != 0.0)
			break;
	}
	if (n > 0 && ((lo < 0 && s->p[n - 1] < 0) || (lo > 0 && s->p[n - 1] > 0))) {
		y = lo * 2;
		x = hi + y;
		yr = x - hi;
		if (y == yr)
			hi = x;
	}
	return hi;
}

/* ---- accumulators ----------------------------------------------------- */

enum { CAT_RUN, CAT_STAGE, CAT_COLLECTIVE, CAT_SPAN, CAT_PEAK, CAT_METRIC, CAT_GPU, CAT_N };
static const char *const cat_names[CAT_N] = { "run", "stage", "collective", "span", "peak",
					      "metric", "gpu" };

struct stat {
	int cat;
	char *kind, *name, *unit;
	uint64_t ranks;
	struct xsum calls, sum, sumsq;
	struct pr_moments mom;
	double min, max;
	long argmin, argmax;
	struct pr_sketch *sk;
	/* Every rank's value while there are at most PR_AGG_EXACT_MAX (exact = 1):
	 * the median is then exact; beyond, the sketch answers. */
	double *vals;
	size_t nvals;
	int exact;
};

struct row {
	long rank;
	char *source;
	json_t *j; /* the row as written */
};

/*
 * Collective arrival order: per collective (kind, name) and step index, the
 * least time a rank spent in it and that rank (ties: the lower rank).
 * Ranks issue collectives in the same order, so step k's call is the same
 * call everywhere; the rank that spent the least time in it arrived last
 * and the others waited for it (HTA's late start, counted per step like
 * nsys' nccl_straggler). Keeping the lesser is exact under merging.
 */
struct arrival {
	char *kind, *name;
	size_t n;     /* steps */
	double *least; /* ns; NAN: no rank yet */
	long *rank;   /* -1: no rank yet */
};
#define ARRIVAL_CAP 64         /* collectives tracked */
#define ARRIVAL_STEPS 1000000  /* steps tracked per collective */
#define ARRIVAL_P 0.01         /* binomial p-value (Bonferroni over ranks) to name a rank */

struct pr_agg {
	struct arrival *arr;
	size_t narr;
	struct stat *st;
	size_t nst, stalloc;
	struct pr_strmap idx; /* "cat\x1fkind\x1fname" -> index */
	struct row *rows;
	size_t nrows, rowalloc;
	pr_agg_run_fn on_run;
	void *on_run_ctx;
	json_t *warnings; /* array of strings */
	int inferred;
	long world_size;
	char *world_size_src; /* the first input that stated world_size */
	/* Ranks stated by the user: a regex over the path, or a list in input order. */
	regex_t rank_re;
	int has_rank_re;
	long *user_ranks;
	size_t nuser_ranks, next_user_rank;
	struct pr_strmap hashes; /* content hash -> row index + 1 */
};

struct pr_agg *pr_agg_new(void)
{
	struct pr_agg *a = pr_xcalloc(1, sizeof(*a));
	struct pr_strmap m = PR_STRMAP_INIT;
	a->idx = m;
	a->hashes = m;
	a->warnings = json_array();
	return a;
}

static void stat_release(struct stat *s)
{
	free(s->kind);
	free(s->name);
	free(s->unit);
	free(s->calls.p);
	free(s->sum.p);
	free(s->sumsq.p);
	pr_sketch_free(s->sk);
	free(s->vals);
}

/* Gives the exact value list up: the sketch answers from now on. */
static void vals_drop(struct stat *s)
{
	free(s->vals);
	s->vals = NULL;
	s->nvals = 0;
	s->exact = 0;
}

/* Keeps v in the exact value list, or gives the list up past the cap. */
static void vals_add(struct stat *s, const double *v, size_t n)
{
	if (!s->exact)
		return;
	if (s->nvals + n > PR_AGG_EXACT_MAX) {
		vals_drop(s);
		return;
	}
	if (n) {
		s->vals = pr_xreallocarray(s->vals, s->nvals + n, sizeof(s->vals[0]));
		memcpy(s->vals + s->nvals, v, n * sizeof(v[0]));
		s->nvals += n;
	}
}

void pr_agg_free(struct pr_agg *a)
{
	size_t i;
	if (!a)
		return;
	for (i = 0; i < a->nst; i++)
		stat_release(&a->st[i]);
	free(a->st);
	for (i = 0; i < a->narr; i++) {
		free(a->arr[i].kind);
		free(a->arr[i].name);
		free(a->arr[i].least);
		free(a->arr[i].rank);
	}
	free(a->arr);
	pr_strmap_release(&a->idx);
	for (i = 0; i < a->nrows; i++) {
		free(a->rows[i].source);
		json_decref(a->rows[i].j);
	}
	free(a->rows);
	json_decref(a->warnings);
	if (a->has_rank_re)
		regfree(&a->rank_re);
	free(a->user_ranks);
	free(a->world_size_src);
	pr_strmap_release(&a->hashes);
	free(a);
}

size_t pr_agg_rank_count(const struct pr_agg *a)
{
	return a->nrows;
}

static struct stat *stat_get(struct pr_agg *a, int cat, const char *kind, const char *name,
			     const char *unit)
{
	struct pr_strbuf k = PR_STRBUF_INIT;
	int64_t i;
	struct stat *s;
	pr_strbuf_addf(&k, "%d\x1f%s\x1f%s", cat, kind ? kind : "", name);
	if (pr_strmap_get(&a->idx, k.buf, k.len, &i)) {
		pr_strbuf_release(&k);
		return &a->st[i];
	}
	if (a->nst == a->stalloc) {
		a->stalloc = a->stalloc ? 2 * a->stalloc : 64;
		a->st = pr_xreallocarray(a->st, a->stalloc, sizeof(a->st[0]));
	}
	s = &a->st[a->nst];
	memset(s, 0, sizeof(*s));
	s->cat = cat;
	s->kind = pr_xstrdup(kind ? kind : "");
	s->name = pr_xstrdup(name);
	s->unit = pr_xstrdup(unit ? unit : "");
	pr_moments_init(&s->mom);
	s->min = INFINITY;
	s->max = -INFINITY;
	s->argmin = s->argmax = -1;
	s->sk = pr_sketch_new();
	s->exact = 1;
	pr_strmap_put(&a->idx, k.buf, k.len, (int64_t)a->nst);
	pr_strbuf_release(&k);
	return &a->st[a->nst++];
}

/* min/max with the rank; ties go to the lowest rank (order-independent). */
static void extrema(struct stat *s, double min, long argmin, double max, long argmax)
{
	if (min < s->min || (min == s->min && argmin < s->argmin)) {
		s->min = min;
		s->argmin = argmin;
	}
	if (max > s->max || (max == s->max && argmax < s->argmax)) {
		s->max = max;
		s->argmax = argmax;
	}
}

static void fold(struct pr_agg *a, int cat, const char *kind, const char *name, const char *unit,
		 double v, double calls, long rank)
{
	struct stat *s;
	if (!isfinite(v) || !name)
		return;
	s = stat_get(a, cat, kind, name, unit);
	s->ranks++;
	xsum_add(&s->calls, calls);
	xsum_add(&s->sum, v);
	xsum_add(&s->sumsq, v * v);
	pr_moments_add(&s->mom, v);
	extrema(s, v, rank, v, rank);
	pr_sketch_add(s->sk, v);
	vals_add(s, &v, 1);
}

static void stat_merge(struct stat *into, const struct stat *from)
{
	into->ranks += from->ranks;
	xsum_merge(&into->calls, &from->calls);
	xsum_merge(&into->sum, &from->sum);
	xsum_merge(&into->sumsq, &from->sumsq);
	pr_moments_merge(&into->mom, &from->mom);
	if (from->ranks)
		extrema(into, from->min, from->argmin, from->max, from->argmax);
	pr_sketch_merge(into->sk, from->sk);
	if (from->exact)
		vals_add(into, from->vals, from->nvals);
	else
		vals_drop(into);
}

/* ---- rank discovery --------------------------------------------------- */

static long rank_in(const char *s, size_t n)
{
	static const char *const pre[] = { "rank", "worker" };
	long found = -1;
	size_t i, p;
	for (i = 0; i < n; i++) {
		if (i > 0 && isalpha((unsigned char)s[i - 1]))
			continue;
		for (p = 0; p < 2; p++) {
			size_t l = strlen(pre[p]), j = i + l;
			long v = 0;
			size_t d = 0;
			if (j > n || strncasecmp(s + i, pre[p], l))
				continue;
			if (j < n && (s[j] == '_' || s[j] == '-'))
				j++;
			while (j < n && isdigit((unsigned char)s[j]) && d < 9) {
				v = v * 10 + (s[j] - '0');
				j++;
				d++;
			}
			if (d && (j == n || !isdigit((unsigned char)s[j])))
				found = v;
		}
	}
	return found;
}

long pr_agg_rank_from_path(const char *path)
{
	const char *c = path, *e;
	long r = -1;
	if (!path)
		return -1;
	while (*c) {
		long v;
		e = strchr(c, '/');
		if (!e)
			e = c + strlen(c);
		v = rank_in(c, (size_t)(e - c));
		if (v >= 0)
			r = v;
		c = *e ? e + 1 : e;
	}
	return r;
}

int pr_agg_rank_from(struct pr_agg *a, const char *regex, struct pr_error *err)
{
	int rc;
	if (a->has_rank_re)
		regfree(&a->rank_re);
	a->has_rank_re = 0;
	rc = regcomp(&a->rank_re, regex, REG_EXTENDED);
	if (rc) {
		char msg[128];
		regerror(rc, &a->rank_re, msg, sizeof(msg));
		return pr_error_set(err, PR_E_USAGE, "--rank-from '%s': %s", regex, msg);
	}
	if (a->rank_re.re_nsub < 1) {
		regfree(&a->rank_re);
		return pr_error_set(err, PR_E_USAGE,
				    "--rank-from '%s': needs a group around the rank, e.g. "
				    "'_([0-9]+)\\.json'",
				    regex);
	}
	a->has_rank_re = 1;
	return 0;
}

/* "N" or "N-M" parts separated by commas. */
int pr_agg_set_ranks(struct pr_agg *a, const char *list, struct pr_error *err)
{
	const char *p = list;
	size_t n = 0, cap = 0;
	long *v = NULL;
	while (*p) {
		char *end;
		long lo, hi, r;
		errno = 0;
		lo = strtol(p, &end, 10);
		if (end == p || lo < 0 || errno || lo > INT32_MAX)
			goto bad;
		hi = lo;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || errno || hi > INT32_MAX || hi - lo > 1000000)
				goto bad;
			p = end;
		}
		for (r = lo; r <= hi; r++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				v = pr_xreallocarray(v, cap, sizeof(v[0]));
			}
			v[n++] = r;
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (!n)
		goto bad;
	free(a->user_ranks);
	a->user_ranks = v;
	a->nuser_ranks = n;
	a->next_user_rank = 0;
	return 0;
bad:
	free(v);
	return pr_error_set(err, PR_E_USAGE,
			    "--ranks '%s': expected ranks like '0,1,2,3' or '0-7' (one per input)",
			    list);
}

int pr_agg_check_ranks(const struct pr_agg *a, struct pr_error *err)
{
	if (a->user_ranks && a->next_user_rank != a->nuser_ranks)
		return pr_error_set(err, PR_E_USAGE, "--ranks names %zu ranks but %zu inputs were read",
				    a->nuser_ranks, a->next_user_rank);
	return 0;
}

/* The rank a --rank-from regex gives path: its first group's digits; -1 when none. */
static long rank_by_regex(const struct pr_agg *a, const char *path)
{
	regmatch_t m[2];
	long v = 0;
	regoff_t i;
	int d = 0;
	if (!path || regexec(&a->rank_re, path, 2, m, 0) || m[1].rm_so < 0)
		return -1;
	for (i = m[1].rm_so; i < m[1].rm_eo; i++) {
		if (!isdigit((unsigned char)path[i]))
			continue;
		if (++d > 9)
			return -1;
		v = v * 10 + (path[i] - '0');
	}
	return d ? v : -1;
}

int pr_agg_is_collective(const char *name)
{
	static const char *const pats[] = { "nccl",	     "c10d",	    "allreduce",
					    "all_reduce",    "all_gather",  "allgather",
					    "reduce_scatter", "reducescatter", "broadcast",
					    "alltoall",	     "all_to_all" };
	size_t i, n = strlen(name);
	char *low = pr_xmalloc(n + 1);
	int yes = 0;
	for (i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]) && !yes; i++)
		yes = strstr(low, pats[i]) != NULL;
	free(low);
	return yes;
}

/* The (kind, name) collective's arrival record with room for n steps; NULL past the caps. */
static struct arrival *arrival_get(struct pr_agg *a, const char *kind, const char *name, size_t n)
{
	struct arrival *ar = NULL;
	size_t i;
	for (i = 0; i < a->narr && !ar; i++)
		if (!strcmp(a->arr[i].kind, kind) && !strcmp(a->arr[i].name, name))
			ar = &a->arr[i];
	if (!ar) {
		if (a->narr == ARRIVAL_CAP)
			return NULL;
		a->arr = pr_xreallocarray(a->arr, a->narr + 1, sizeof(a->arr[0]));
		ar = &a->arr[a->narr++];
		memset(ar, 0, sizeof(*ar));
		ar->kind = pr_xstrdup(kind);
		ar->name = pr_xstrdup(name);
	}
	if (n > ARRIVAL_STEPS)
		n = ARRIVAL_STEPS;
	if (n > ar->n) {
		ar->least = pr_xreallocarray(ar->least, n, sizeof(ar->least[0]));
		ar->rank = pr_xreallocarray(ar->rank, n, sizeof(ar->rank[0]));
		for (i = ar->n; i < n; i++) {
			ar->least[i] = NAN;
			ar->rank[i] = -1;
		}
		ar->n = n;
	}
	return ar;
}

static void arrival_note(struct arrival *ar, size_t k, double v, long rank)
{
	if (k >= ar->n || !(v > 0) || !isfinite(v) || rank < 0)
		return; /* no call in this step, or past the cap */
	if (ar->rank[k] < 0 || v < ar->least[k] || (v == ar->least[k] && rank < ar->rank[k])) {
		ar->least[k] = v;
		ar->rank[k] = rank;
	}
}

static int rank_used(const struct pr_agg *a, long r)
{
	size_t i;
	for (i = 0; i < a->nrows; i++)
		if (a->rows[i].rank == r)
			return 1;
	return 0;
}

static void warnf(struct pr_agg *a, const char *fmt, ...) PR_PRINTF_LIKE(2, 3);
static void warnf(struct pr_agg *a, const char *fmt, ...)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	va_list ap;
	size_t i;
	va_start(ap, fmt);
	pr_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (i = 0; i < json_array_size(a->warnings); i++)
		if (!strcmp(json_string_value(json_array_get(a->warnings, i)), sb.buf)) {
			pr_strbuf_release(&sb);
			return;
		}
	json_array_append_new(a->warnings, json_string(sb.buf));
	pr_strbuf_release(&sb);
}

/* ---- folding one run -------------------------------------------------- */

static int is_step_kind(const char *k)
{
	return k && (!strcmp(k, "step") || !strcmp(k, "gpu_step"));
}

/* Inferix key and value from a reported "summary.gpu.x" metric. */
static void inferix_key(const json_t *m, struct pr_strbuf *key, double *v)
{
	const char *name = json_string_value(json_object_get(m, "name"));
	const char *unit = json_string_value(json_object_get(m, "unit"));
	const char *last = strrchr(name, '.');
	pr_strbuf_addstr(key, last ? last + 1 : name);
	*v = pr_mnum(m, "value");
	if (unit && !strcmp(unit, "bytes")) {
		pr_strbuf_addstr(key, "_mb");
		*v /= 1048576.0;
	} else if (unit && !strcmp(unit, "ns")) {
		*v /= 1e9;
	}
}

static json_t *inferix_part(const json_t *run, const json_t *meta)
{
	json_t *inf = json_object(), *gpu = json_object(), *cpu = json_object();
	const json_t *rep = json_object_get(run, "reported"), *m;
	const char *sid = json_string_value(json_object_get(meta, "session_id"));
	double dur = NAN;
	size_t i;
	json_array_foreach(rep, i, m) {
		const char *name = json_string_value(json_object_get(m, "name"));
		struct pr_strbuf key = PR_STRBUF_INIT;
		double v;
		if (!name)
			continue;
		if (!strncmp(name, "summary.gpu.", 12) || !strncmp(name, "summary.cpu.", 12)) {
			inferix_key(m, &key, &v);
			json_object_set_new(name[8] == 'g' ? gpu : cpu, key.buf, pr_jnum(v));
		} else if (!strcmp(name, "session_info.duration")) {
			inferix_key(m, &key, &dur);
		}
		pr_strbuf_release(&key);
	}
	json_object_set_new(inf, "session_id", sid ? json_string(sid) : json_null());
	json_object_set_new(inf, "duration", pr_jnum(dur));
	json_object_set_new(inf, "gpu", gpu);
	json_object_set_new(inf, "cpu", cpu);
	return inf;
}

static const char *row_source(const struct pr_agg *a, long rank)
{
	size_t i;
	for (i = 0; i < a->nrows; i++)
		if (a->rows[i].rank == rank)
			return a->rows[i].source;
	return "";
}

/*
 * Byte-identical inputs (the same content hash) are counted once, as
 * ingest does: 1 (a duplicate, warned) or 0.
 */
static int is_duplicate(struct pr_agg *a, const json_t *run, const char *src)
{
	const char *h = json_string_value(json_object_get(run, "content_hash"));
	int64_t i;
	if (!h || !*h || !pr_strmap_get(&a->hashes, h, strlen(h), &i))
		return 0;
	warnf(a, "'%s' has the same content as '%s': counted once", src, a->rows[i].source);
	return 1;
}

/* Inputs of one job agree on the world size; -1 with err when not. */
static int same_job(struct pr_agg *a, const json_t *run, const char *src, struct pr_error *err)
{
	const json_t *ws = json_object_get(run, "world_size");
	long w;
	if (!json_is_integer(ws) || json_integer_value(ws) <= 0)
		return 0;
	w = (long)json_integer_value(ws);
	if (a->world_size > 0 && w != a->world_size)
		return pr_error_set(err, PR_E_FORMAT,
				    "'%s': world size %ld, but '%s' has %ld: inputs of different jobs "
				    "(aggregate each job alone)",
				    src, w, a->world_size_src ? a->world_size_src : "", a->world_size);
	if (a->world_size <= 0) {
		a->world_size = w;
		free(a->world_size_src);
		a->world_size_src = pr_xstrdup(src);
	}
	return 0;
}

static void add_row(struct pr_agg *a, long rank, const char *source, json_t *j)
{
	const char *h = json_string_value(json_object_get(j, "content_hash"));
	if (h && *h)
		pr_strmap_put(&a->hashes, h, strlen(h), (int64_t)a->nrows);
	if (a->nrows == a->rowalloc) {
		a->rowalloc = a->rowalloc ? 2 * a->rowalloc : 16;
		a->rows = pr_xreallocarray(a->rows, a->rowalloc, sizeof(a->rows[0]));
	}
	a->rows[a->nrows].rank = rank;
	a->rows[a->nrows].source = pr_xstrdup(source ? source : "");
	a->rows[a->nrows].j = j;
	a->nrows++;
}

static int cmp_total_desc(const void *x, const void *y)
{
	const json_t *const *a = x, *const *b = y;
	double u = pr_mnum(*a, "total_ns"), v = pr_mnum(*b, "total_ns");
	if (u != v)
		return u > v ? -1 : 1;
	return strcmp(json_string_value(json_object_get(*a, "name")),
		      json_string_value(json_object_get(*b, "name")));
}

#define TOP_SPANS 5

/*
 * The run's GPU temporal breakdown (the model's gpu_breakdown, HTA's
 * definitions) as the row's "gpu" object, and its shares folded as stats of
 * category "gpu" (unit "share", a fraction): compute/communication/memory/
 * idle of the GPU span, the idle split as shares of the idle time, and the
 * share of communication time overlapped by compute. null when the run has
 * no GPU op. The row keeps the ns too, so a merged agg.json can run the
 * GPU-idle straggler check from rows alone.
 */
static double ratio_of(double part, double whole)
{
	return whole > 0 && isfinite(part) ? part / whole : NAN;
}

/* A row's GPU share from its ns (exact through agg.json: the ns are integers). */
static double gpu_share(const json_t *g, const char *part, const char *whole)
{
	return ratio_of(pr_mnum(g, part), pr_mnum(g, whole));
}

static json_t *gpu_part(struct pr_agg *a, const json_t *run, long rank)
{
	static const char *const rk[] = { "span_ns",   "busy_ns", "compute_ns",
					  "communication_ns", "memory_ns", "idle_ns" };
	static const char *const ik[][2] = { { "host_wait_ns", "idle_host_wait_ns" },
					     { "kernel_wait_ns", "idle_kernel_wait_ns" },
					     { "other_ns", "idle_other_ns" } };
	/* share (row key and stat name) = part / whole, all from the row's ns */
	static const char *const sh[][4] = {
		{ "busy_share", NULL, "busy_ns", "span_ns" },
		{ "compute_share", "compute", "compute_ns", "span_ns" },
		{ "communication_share", "communication", "communication_ns", "span_ns" },
		{ "memory_share", "memory", "memory_ns", "span_ns" },
		{ "idle_share", "idle", "idle_ns", "span_ns" },
		{ "idle_host_wait_share", "idle: host wait", "idle_host_wait_ns", "idle_ns" },
		{ "idle_kernel_wait_share", "idle: kernel wait", "idle_kernel_wait_ns", "idle_ns" },
		{ "idle_other_share", "idle: other", "idle_other_ns", "idle_ns" },
		{ "overlap_share", "comm overlapped", "overlapped_ns", "overlap_communication_ns" },
	};
	const json_t *gb = json_object_get(run, "gpu_breakdown");
	const json_t *r = json_object_get(gb, "rank"), *idle = json_object_get(gb, "idle"),
		     *ov = json_object_get(gb, "overlap");
	json_t *g;
	size_t i;
	if (!json_is_object(r) || !(pr_mnum(r, "span_ns") > 0))
		return json_null();
	g = json_object();
	for (i = 0; i < sizeof(rk) / sizeof(rk[0]); i++)
		json_object_set_new(g, rk[i], pr_jnum(pr_mnum(r, rk[i])));
	for (i = 0; i < sizeof(ik) / sizeof(ik[0]); i++)
		json_object_set_new(g, ik[i][1], pr_jnum(pr_mnum(idle, ik[i][0])));
	json_object_set_new(g, "overlap_communication_ns", pr_jnum(pr_mnum(ov, "communication_ns")));
	json_object_set_new(g, "overlapped_ns", pr_jnum(pr_mnum(ov, "overlapped_ns")));
	for (i = 0; i < sizeof(sh) / sizeof(sh[0]); i++) {
		double v = gpu_share(g, sh[i][2], sh[i][3]);
		json_object_set_new(g, sh[i][0], pr_jnum(v));
		if (sh[i][1])
			fold(a, CAT_GPU, "", sh[i][1], "share", v, 1, rank);
	}
	json_object_set_new(g, "launch_linked_share", pr_jnum(pr_mnum(idle, "launch_linked_share")));
	return g;
}


int pr_agg_add_model_run(struct pr_agg *a, const json_t *run, const json_t *meta,
			 const char *path, struct pr_error *err)
{
	const char *format = json_string_value(json_object_get(run, "format"));
	const char *src = path ? path : json_string_value(json_object_get(run, "source"));
	const char *rsrc = "trace";
	const json_t *jr = json_object_get(run, "rank"), *tp, *steps, *phases, *v, *items;
	json_t *row, *stages, *coll, *peaks, *thr, *top, *rsteps;
	long rank;
	double coll_ns = 0;
	size_t i, nsp = 0;
	const json_t **sp = NULL;
	int any_coll = 0;

	if (!json_is_object(run))
		return pr_error_set(err, PR_E_PARSE, "model run is not an object");
	if (format && !strcmp(format, "inferix")) {
		const char *kind = json_string_value(json_object_get(meta, "inferix_file"));
		if (kind && !strcmp(kind, "raw"))
			return 0;
	}
	if (is_duplicate(a, run, src))
		return 0;
	if (a->user_ranks) {
		if (a->next_user_rank == a->nuser_ranks)
			return pr_error_set(err, PR_E_USAGE,
					    "'%s': more inputs than the %zu ranks --ranks names", src,
					    a->nuser_ranks);
		rank = a->user_ranks[a->next_user_rank++];
		rsrc = "--ranks";
	} else if (a->has_rank_re) {
		if ((rank = rank_by_regex(a, src)) < 0)
			return pr_error_set(err, PR_E_USAGE,
					    "'%s': --rank-from matches no rank in this path", src);
		rsrc = "--rank-from";
	} else if (json_is_integer(jr) && json_integer_value(jr) >= 0) {
		rank = (long)json_integer_value(jr);
	} else if ((rank = pr_agg_rank_from_path(src)) >= 0) {
		rsrc = "path";
	} else {
		rank = 0;
		while (rank_used(a, rank))
			rank++;
		rsrc = "inferred";
		a->inferred = 1;
		warnf(a, "ranks inferred: no rank in the trace or its path; ranks follow the sorted "
			 "input order, which need not be the job's (state them with --ranks or "
			 "--rank-from; stragglers are named with their file)");
	}
	if (rank_used(a, rank))
		return pr_error_set(err, PR_E_FORMAT,
				    "'%s': rank %ld is already taken by '%s' (rank from %s): inputs "
				    "of different jobs? aggregate each job alone, or state ranks with "
				    "--ranks or --rank-from",
				    src, rank, row_source(a, rank), rsrc);
	if (same_job(a, run, src, err))
		return -1;

	row = json_object();
	json_object_set_new(row, "rank", json_integer(rank));
	json_object_set_new(row, "rank_source", json_string(rsrc));
	json_object_set(row, "world_size",
			json_is_integer(json_object_get(run, "world_size"))
				? json_object_get(run, "world_size")
				: json_null());
	json_object_set_new(row, "source", json_string(src ? src : ""));
	json_object_set_new(row, "format", json_string(format ? format : ""));
	if (json_is_string(json_object_get(run, "content_hash")))
		json_object_set(row, "content_hash", json_object_get(run, "content_hash"));

	v = json_object_get(run, "clock");
	json_object_set_new(row, "duration_ns", pr_jnum(pr_mnum(v, "duration_ns")));
	fold(a, CAT_RUN, "", "duration", "ns", pr_mnum(v, "duration_ns"), 1, rank);

	tp = json_object_get(run, "throughput");
	steps = json_object_get(tp, "steps");
	if (json_is_object(steps) && pr_mnum(steps, "count") > 0) {
		rsteps = json_object();
		json_object_set(rsteps, "name", json_object_get(steps, "name"));
		json_object_set_new(rsteps, "count", pr_jnum(pr_mnum(steps, "count")));
		json_object_set_new(rsteps, "mean_ns", pr_jnum(pr_mnum(steps, "mean_ns")));
		json_object_set_new(rsteps, "p50_ns", pr_jnum(pr_mnum(steps, "p50_ns")));
		json_object_set_new(rsteps, "min_ns", pr_jnum(pr_mnum(steps, "min_ns")));
		json_object_set_new(rsteps, "max_ns", pr_jnum(pr_mnum(steps, "max_ns")));
		json_object_set_new(row, "steps", rsteps);
		fold(a, CAT_RUN, "", "steps.count", "count", pr_mnum(steps, "count"), 1, rank);
		fold(a, CAT_RUN, "", "steps.mean", "ns", pr_mnum(steps, "mean_ns"), pr_mnum(steps, "count"),
		     rank);
		fold(a, CAT_RUN, "", "steps.p50", "ns", pr_mnum(steps, "p50_ns"), pr_mnum(steps, "count"),
		     rank);
		fold(a, CAT_RUN, "", "steps.max", "ns", pr_mnum(steps, "max_ns"), pr_mnum(steps, "count"),
		     rank);
	} else {
		json_object_set_new(row, "steps", json_null());
	}

	thr = json_object();
	if (json_is_object(steps) && isfinite(pr_mnum(steps, "per_s")))
		json_object_set_new(thr, "steps_per_s", pr_jnum(pr_mnum(steps, "per_s")));
	v = json_object_get(tp, "blocks");
	if (json_is_object(v)) {
		if (isfinite(pr_mnum(v, "fps")))
			json_object_set_new(thr, "fps", pr_jnum(pr_mnum(v, "fps")));
		if (isfinite(pr_mnum(v, "bps")))
			json_object_set_new(thr, "bps", pr_jnum(pr_mnum(v, "bps")));
	}
	v = json_object_get(tp, "tokens");
	if (json_is_object(v) && isfinite(pr_mnum(v, "per_s")))
		json_object_set_new(thr, "tokens_per_s", pr_jnum(pr_mnum(v, "per_s")));
	{
		const char *k;
		json_t *x;
		json_object_foreach(thr, k, x) {
			struct pr_strbuf n = PR_STRBUF_INIT;
			pr_strbuf_addf(&n, "throughput.%s", k);
			fold(a, CAT_RUN, "", n.buf, "per_s", json_number_value(x), 1, rank);
			pr_strbuf_release(&n);
		}
	}
	json_object_set_new(row, "throughput", thr);

	/* stages: timeline phases (annotations) and Inferix stages */
	stages = json_object();
	phases = json_object_get(run, "phases");
	{
		static const char *const parts[] = { "totals", "stages" };
		size_t p;
		for (p = 0; p < 2; p++) {
			json_array_foreach(json_object_get(phases, parts[p]), i, v) {
				const char *name = json_string_value(json_object_get(v, "name"));
				double t = pr_mnum(v, "total_ns");
				if (!name || !isfinite(t) || json_object_get(stages, name))
					continue;
				json_object_set_new(stages, name, pr_jnum(t));
				fold(a, CAT_STAGE, "", name, "ns", t, pr_mnum(v, "count"), rank);
			}
		}
	}
	json_object_set_new(row, "stages", stages);

	/* spans: per name (steps excluded: they are in "steps"), collectives */
	coll = json_object();
	items = json_object_get(json_object_get(run, "spans"), "items");
	sp = pr_xcalloc(json_array_size(items) + 1, sizeof(sp[0]));
	json_array_foreach(items, i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		const char *kind = json_string_value(json_object_get(v, "kind"));
		double t = pr_mnum(v, "total_ns");
		if (!name || is_step_kind(kind) || !isfinite(t))
			continue;
		fold(a, CAT_SPAN, kind, name, "ns", t, pr_mnum(v, "count"), rank);
		sp[nsp++] = v;
		if (pr_agg_is_collective(name)) {
			json_t *old = json_object_get(coll, name), *ps = json_object_get(v, "per_step_ns"), *x;
			double prev = old ? json_number_value(old) : 0;
			struct arrival *ar;
			size_t k;
			if (json_array_size(ps) &&
			    (ar = arrival_get(a, kind ? kind : "", name, json_array_size(ps))))
				json_array_foreach(ps, k, x)
					arrival_note(ar, k, json_number_value(x), rank);
			json_object_set_new(coll, name, pr_jnum(prev + t));
			coll_ns += t;
			any_coll = 1;
		}
	}
	if (any_coll) {
		const char *k;
		json_t *x;
		json_object_foreach(coll, k, x)
			fold(a, CAT_COLLECTIVE, "", k, "ns", json_number_value(x), 1, rank);
		fold(a, CAT_COLLECTIVE, "", "(all collectives)", "ns", coll_ns, 1, rank);
	}
	json_object_set_new(row, "collectives", coll);
	json_object_set_new(row, "collective_ns", any_coll ? pr_jnum(coll_ns) : json_null());
	/* bus bandwidth per collective (Kineto's collective args): the late rank shows the transfer's */
	json_array_foreach(json_object_get(json_object_get(run, "collectives"), "items"), i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		double bw = pr_mnum(v, "busbw_Bps");
		if (name && isfinite(bw)) {
			struct pr_strbuf n = PR_STRBUF_INIT;
			pr_strbuf_addf(&n, "busbw: %s", name);
			fold(a, CAT_COLLECTIVE, "", n.buf, "bytes_per_s", bw, pr_mnum(v, "sized_calls"), rank);
			pr_strbuf_release(&n);
		}
	}
	qsort(sp, nsp, sizeof(sp[0]), cmp_total_desc);
	top = json_array();
	for (i = 0; i < nsp && i < TOP_SPANS; i++) {
		json_t *t = json_object();
		json_object_set(t, "name", json_object_get(sp[i], "name"));
		json_object_set(t, "kind", json_object_get(sp[i], "kind"));
		json_object_set_new(t, "count", pr_jnum(pr_mnum(sp[i], "count")));
		json_object_set_new(t, "total_ns", pr_jnum(pr_mnum(sp[i], "total_ns")));
		json_array_append_new(top, t);
	}
	free(sp);
	json_object_set_new(row, "top_spans", top);

	peaks = json_array();
	json_array_foreach(json_object_get(run, "peaks"), i, v) {
		const char *series = json_string_value(json_object_get(v, "series"));
		const char *dev = json_string_value(json_object_get(v, "device"));
		const char *unit = json_string_value(json_object_get(v, "unit"));
		json_t *p;
		if (!series || !isfinite(pr_mnum(v, "value")))
			continue;
		p = json_object();
		json_object_set_new(p, "series", json_string(series));
		json_object_set_new(p, "device", json_string(dev ? dev : ""));
		json_object_set_new(p, "unit", json_string(unit ? unit : ""));
		json_object_set_new(p, "value", pr_jnum(pr_mnum(v, "value")));
		json_array_append_new(peaks, p);
		fold(a, CAT_PEAK, dev ? dev : "", series, unit, pr_mnum(v, "value"), 1, rank);
	}
	json_object_set_new(row, "peaks", peaks);

	json_array_foreach(json_object_get(run, "reported"), i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		const char *unit = json_string_value(json_object_get(v, "unit"));
		if (name && strcmp(unit ? unit : "", "recommendation"))
			fold(a, CAT_METRIC, "", name, unit, pr_mnum(v, "value"), 1, rank);
	}
	json_object_set_new(row, "gpu", gpu_part(a, run, rank));
	if (format && !strcmp(format, "inferix"))
		json_object_set_new(row, "inferix", inferix_part(run, meta));

	add_row(a, rank, src, row);
	return 1;
}

/* ---- from a store ----------------------------------------------------- */

static json_t *run_meta(struct pr_store *st, long id)
{
	sqlite3 *db = pr_store_db(st);
	sqlite3_stmt *s = NULL;
	json_t *meta = NULL;
	if (sqlite3_prepare_v2(db, "SELECT meta FROM run WHERE id = ?", -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, id);
		if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
			meta = json_loads((const char *)sqlite3_column_text(s, 0), 0, NULL);
	}
	sqlite3_finalize(s);
	return meta ? meta : json_object();
}

void pr_agg_on_run(struct pr_agg *a, pr_agg_run_fn fn, void *ctx)
{
	a->on_run = fn;
	a->on_run_ctx = ctx;
}

int pr_agg_add_store(struct pr_agg *a, struct pr_store *st, long run_id, const char *path,
		     struct pr_error *err)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	sqlite3 *db = pr_store_db(st);
	sqlite3_stmt *s = NULL;
	int folded = 0, rc;
	if (sqlite3_prepare_v2(db, "SELECT id FROM run WHERE ?1 = 0 OR id = ?1 ORDER BY id", -1, &s,
			       NULL) != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, run_id);
	o.timeline_points = 0;
	o.top_n = 5;
	o.max_phases = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		long id = (long)sqlite3_column_int64(s, 0);
		json_t *model, *meta;
		int r;
		o.run = id;
		model = pr_model_build(st, &o, err);
		if (!model) {
			sqlite3_finalize(s);
			return -1;
		}
		meta = run_meta(st, id);
		r = pr_agg_add_model_run(a, json_array_get(json_object_get(model, "runs"), 0), meta,
					 path, err);
		json_decref(meta);
		json_decref(model);
		if (r < 0 || (r > 0 && a->on_run &&
			      a->on_run(a->on_run_ctx, st, id, a->rows[a->nrows - 1].rank, err))) {
			sqlite3_finalize(s);
			return -1;
		}
		folded += r;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	return folded;
}

/* ---- merging ---------------------------------------------------------- */

void pr_agg_merge(struct pr_agg *into, const struct pr_agg *from)
{
	size_t i, k;
	for (i = 0; i < from->nst; i++) {
		const struct stat *f = &from->st[i];
		stat_merge(stat_get(into, f->cat, f->kind, f->name, f->unit), f);
	}
	for (i = 0; i < from->narr; i++) {
		const struct arrival *f = &from->arr[i];
		struct arrival *t = arrival_get(into, f->kind, f->name, f->n);
		for (k = 0; t && k < f->n; k++)
			arrival_note(t, k, f->least[k], f->rank[k]);
	}
	for (i = 0; i < from->nrows; i++) {
		if (rank_used(into, from->rows[i].rank))
			warnf(into, "rank %ld appears in more than one input", from->rows[i].rank);
		add_row(into, from->rows[i].rank, from->rows[i].source,
			json_deep_copy(from->rows[i].j));
	}
	for (i = 0; i < json_array_size(from->warnings); i++)
		warnf(into, "%s", json_string_value(json_array_get(from->warnings, i)));
	into->inferred |= from->inferred;
	if (from->world_size > into->world_size)
		into->world_size = from->world_size;
}

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
static json_t *xsum_json(const struct xsum *s)
{
	json_t *arr = json_array();
	struct xsum c = { NULL, 0, 0 };
	size_t i;
	for (i = 0; i < s->n; i++)
		xsum_add(&c, s->p[i]);
	for (i = 0; i < 64; i++) {
		double v = xsum_value(&c);
		if (v == 0.0)
			break;
		json_array_append_new(arr, hexd(v));
		xsum_add(&c, -v);
	}
	free(c.p);
	return arr;
}

static int xsum_read(struct xsum *s, const json_t *arr)
{
	size_t i;
	const json_t *v;
	if (!json_is_array(arr))
		return -1;
	json_array_foreach(arr, i, v) {
		double d;
		if (unhex(v, &d))
			return -1;
		xsum_add(s, d);
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
static int vals_read(struct stat *s, const json_t *arr)
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
static double *vals_sorted(const struct stat *s)
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
	struct stat tmp, *s;
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
	tmp.mom.sum = xsum_value(&tmp.sum);
	tmp.min = tmp.mom.min;
	tmp.max = tmp.mom.max;
	tmp.argmin = json_is_integer(json_object_get(j, "argmin"))
			     ? (long)json_integer_value(json_object_get(j, "argmin"))
			     : -1;
	tmp.argmax = json_is_integer(json_object_get(j, "argmax"))
			     ? (long)json_integer_value(json_object_get(j, "argmax"))
			     : -1;
	s = stat_get(a, cat, json_string_value(json_object_get(j, "kind")), name,
		     json_string_value(json_object_get(j, "unit")));
	stat_merge(s, &tmp);
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
	struct arrival *ar;
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
	if (!(ar = arrival_get(a, kind, name, n)))
		return 0;
	for (k = 0; k < n; k++)
		arrival_note(ar, k, json_number_value(json_array_get(least, k)),
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
		add_row(tmp, (long)json_integer_value(r),
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
			warnf(tmp, "%s", json_string_value(v));
	if (json_is_integer(json_object_get(doc, "world_size")))
		tmp->world_size = (long)json_integer_value(json_object_get(doc, "world_size"));
	pr_agg_merge(a, tmp);
	pr_agg_free(tmp);
	return 0;
}

/* ---- output ----------------------------------------------------------- */

static int cmp_stat(const void *x, const void *y)
{
	const struct stat *const *a = x, *const *b = y;
	int c;
	if ((*a)->cat != (*b)->cat)
		return (*a)->cat - (*b)->cat;
	if ((c = strcmp((*a)->name, (*b)->name)))
		return c;
	return strcmp((*a)->kind, (*b)->kind);
}

static int cmp_row(const void *x, const void *y)
{
	const struct row *const *a = x, *const *b = y;
	if ((*a)->rank != (*b)->rank)
		return (*a)->rank < (*b)->rank ? -1 : 1;
	return strcmp((*a)->source, (*b)->source);
}

static json_t *stat_json(const struct stat *s)
{
	json_t *o = json_object(), *state = json_object(), *m = json_object();
	double sum = xsum_value(&s->sum), n = (double)s->ranks, mean = n > 0 ? sum / n : NAN;
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
	json_object_set_new(o, "calls", pr_jnum(xsum_value(&s->calls)));
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

/* ---- stragglers ------------------------------------------------------- */

static const char *short_name(const char *name, char *buf, size_t n)
{
	if (strstr(name, "DataLoader") || strstr(name, "dataloader"))
		return "dataloader";
	if (strlen(name) < n)
		return name;
	snprintf(buf, n, "%.*s...", (int)n - 4, name);
	return buf;
}

struct check {
	const char *what; /* "stage", "collective", "step time" */
	const char *name;
	int low; /* 1: the straggler has the LOWEST value (waits least) */
	double min_excess; /* |x - median| must reach this (in x's unit; 0: no floor) */
	/* GPU idle: a rank is named only when its aux value (the host-wait share
	 * of its idle time) is at least aux_min; NULL: no such condition. */
	const double *aux;
	double aux_min;
};

/* One cross-rank comparison; appends its record to checks, outliers to per-rank reasons. */
static void run_check(const struct pr_agg *a, struct row **rows, const struct check *c,
		      double *vals, long *ranks, size_t n, json_t *checks, json_t *reasons)
{
	double *tmp, med, mad, meanad;
	json_t *rec, *outl;
	size_t i;
	if (n < 3)
		return;
	(void)a;
	(void)rows;
	tmp = pr_xmalloc(n * sizeof(tmp[0]));
	memcpy(tmp, vals, n * sizeof(tmp[0]));
	med = pr_median(tmp, n);
	mad = pr_mad(vals, n, med);
	meanad = pr_meanad(vals, n, med);
	free(tmp);
	rec = json_object();
	outl = json_array();
	json_object_set_new(rec, "what", json_string(c->what));
	json_object_set_new(rec, "name", json_string(c->name));
	json_object_set_new(rec, "straggler_is", json_string(c->low ? "lowest" : "highest"));
	json_object_set_new(rec, "ranks", json_integer((json_int_t)n));
	json_object_set_new(rec, "median", pr_jnum(med));
	json_object_set_new(rec, "mad", pr_jnum(mad));
	if (c->min_excess > 0)
		json_object_set_new(rec, "min_excess", pr_jnum(c->min_excess));
	if (c->aux)
		json_object_set_new(rec, "host_wait_min", pr_jnum(c->aux_min));
	for (i = 0; i < n; i++) {
		double z = pr_robust_z_meanad(vals[i], med, mad, meanad);
		double ratio = med > 0 ? vals[i] / med : NAN;
		int hit;
		/* a GPU that idles where the others never do: infinitely many times the median */
		if (c->aux && med == 0 && vals[i] > 0)
			ratio = INFINITY;
		hit = c->low ? (z < -PR_AGG_Z && ratio <= PR_AGG_WAIT_RATIO)
			     : (z > PR_AGG_Z && ratio >= PR_AGG_SLOW_RATIO);
		if (fabs(vals[i] - med) < c->min_excess)
			hit = 0;
		if (c->aux && !(c->aux[i] >= c->aux_min))
			hit = 0;
		json_t *o, *why;
		char sb[48], line[256];
		if (!hit)
			continue;
		o = json_object();
		json_object_set_new(o, "rank", json_integer(ranks[i]));
		json_object_set_new(o, "value", pr_jnum(vals[i]));
		json_object_set_new(o, "ratio", pr_jnum(ratio));
		json_object_set_new(o, "z", isfinite(z) ? json_real(z) : json_string(z > 0 ? "inf" : "-inf"));
		json_array_append_new(outl, o);
		if (c->aux)
			snprintf(line, sizeof(line),
				 "GPU idle %.0f %% vs a median of %.0f %%, %.0f %% of it host wait",
				 vals[i] * 100, med * 100, c->aux[i] * 100);
		else if (c->low)
			snprintf(line, sizeof(line), "waits %.0f %% less in %s", (1 - ratio) * 100,
				 short_name(c->name, sb, sizeof(sb)));
		else if (!strcmp(c->what, "step time"))
			snprintf(line, sizeof(line), "step time %.2fx the median", ratio);
		else
			snprintf(line, sizeof(line), "%s %.2fx the median",
				 short_name(c->name, sb, sizeof(sb)), ratio);
		why = json_object();
		json_object_set_new(why, "rank", json_integer(ranks[i]));
		json_object_set_new(why, "text", json_string(line));
		json_object_set_new(why, "what", json_string(c->what));
		json_object_set_new(why, "name", json_string(c->name));
		json_object_set_new(why, "value", pr_jnum(vals[i]));
		json_object_set_new(why, "median", pr_jnum(med));
		json_object_set_new(why, "mad", pr_jnum(mad));
		json_object_set_new(why, "z", isfinite(z) ? json_real(z) : json_string(z > 0 ? "inf" : "-inf"));
		json_object_set_new(why, "ratio", pr_jnum(ratio));
		if (c->aux)
			json_object_set_new(why, "host_wait_share", pr_jnum(c->aux[i]));
		json_array_append_new(reasons, why);
	}
	json_object_set_new(rec, "outliers", outl);
	json_array_append_new(checks, rec);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Sorted distinct keys of rows[i].j[field] (an object). */
static const char **row_keys(struct row **rows, size_t n, const char *field, size_t *nk)
{
	const char **k = NULL;
	size_t cnt = 0, alloc = 0, i, w;
	for (i = 0; i < n; i++) {
		const char *key;
		json_t *v;
		json_object_foreach(json_object_get(rows[i]->j, field), key, v) {
			if (cnt == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				k = pr_xreallocarray(k, alloc, sizeof(k[0]));
			}
			k[cnt++] = key;
		}
	}
	if (cnt)
		qsort(k, cnt, sizeof(k[0]), cmp_str);
	for (i = w = 0; i < cnt; i++)
		if (!w || strcmp(k[w - 1], k[i]))
			k[w++] = k[i];
	*nk = w;
	return k;
}

struct arrcount {
	long rank;
	size_t steps;
};

static int cmp_long(const void *x, const void *y)
{
	long u = *(const long *)x, v = *(const long *)y;
	return (u > v) - (u < v);
}

static int cmp_arrcount(const void *x, const void *y)
{
	const struct arrcount *u = x, *v = y;
	if (u->steps != v->steps)
		return u->steps > v->steps ? -1 : 1;
	return (u->rank > v->rank) - (u->rank < v->rank);
}

/* Steps in which each rank arrived last, most first (ties: lower rank); *decided = steps with a rank. */
static struct arrcount *arrival_counts(const struct arrival *ar, size_t *nc, size_t *decided)
{
	long *r = pr_xmalloc((ar->n + 1) * sizeof(r[0]));
	struct arrcount *c;
	size_t m = 0, i, k = 0;
	for (i = 0; i < ar->n; i++)
		if (ar->rank[i] >= 0)
			r[m++] = ar->rank[i];
	qsort(r, m, sizeof(r[0]), cmp_long);
	c = pr_xmalloc((m + 1) * sizeof(c[0]));
	for (i = 0; i < m; i++) {
		if (k && c[k - 1].rank == r[i]) {
			c[k - 1].steps++;
		} else {
			c[k].rank = r[i];
			c[k++].steps = 1;
		}
	}
	free(r);
	qsort(c, k, sizeof(c[0]), cmp_arrcount);
	*nc = k;
	*decided = m;
	return c;
}

/* P(one of nranks ranks arrives last in >= k of d steps by chance), Bonferroni-bounded. */
static double arrival_p(size_t k, size_t d, size_t nranks)
{
	if (nranks < 2 || !d)
		return NAN;
	return fmin(1, (double)nranks * pr_binom_sf(k, d, 1.0 / (double)nranks));
}

static int cmp_arrival(const void *x, const void *y)
{
	const struct arrival *const *u = x, *const *v = y;
	int c = strcmp((*u)->name, (*v)->name);
	return c ? c : strcmp((*u)->kind, (*v)->kind);
}

static json_t *arrival_json(const struct arrival *ar, size_t nranks)
{
	size_t nc, d, i;
	struct arrcount *c = arrival_counts(ar, &nc, &d);
	json_t *o = json_object(), *top = json_array(), *least = json_array(), *rank = json_array(),
	       *state = json_object();
	json_object_set_new(o, "kind", json_string(ar->kind));
	json_object_set_new(o, "name", json_string(ar->name));
	json_object_set_new(o, "steps", json_integer((json_int_t)ar->n));
	json_object_set_new(o, "decided", json_integer((json_int_t)d));
	for (i = 0; i < nc && i < 5; i++) {
		json_t *t = json_object();
		json_object_set_new(t, "rank", json_integer(c[i].rank));
		json_object_set_new(t, "steps", json_integer((json_int_t)c[i].steps));
		json_array_append_new(top, t);
	}
	json_object_set_new(o, "last_to_arrive", top);
	json_object_set_new(o, "p_value", pr_jnum(nc ? arrival_p(c[0].steps, d, nranks) : NAN));
	for (i = 0; i < ar->n; i++) {
		json_array_append_new(least, pr_jnum(ar->least[i]));
		json_array_append_new(rank, json_integer(ar->rank[i]));
	}
	json_object_set_new(state, "least_ns", least);
	json_object_set_new(state, "rank", rank);
	json_object_set_new(o, "state", state);
	free(c);
	return o;
}

/* A rank that arrived last in most steps of a collective, far beyond chance, is a straggler. */
static void arrival_reasons(const struct pr_agg *a, size_t nranks, json_t *reasons)
{
	size_t i;
	for (i = 0; i < a->narr; i++) {
		size_t nc, d;
		struct arrcount *c = arrival_counts(&a->arr[i], &nc, &d);
		double p = nc ? arrival_p(c[0].steps, d, nranks) : NAN;
		if (d >= 3 && 2 * c[0].steps > d && p < ARRIVAL_P) {
			json_t *why = json_object();
			char sb[48], line[256], detail[256];
			snprintf(line, sizeof(line), "last into %s in %zu of %zu steps",
				 short_name(a->arr[i].name, sb, sizeof(sb)), c[0].steps, d);
			snprintf(detail, sizeof(detail),
				 "least time in it in %zu of %zu steps, so the other ranks waited "
				 "for it; by chance 1 in %zu per step: p = %.2g",
				 c[0].steps, d, nranks, p);
			json_object_set_new(why, "rank", json_integer(c[0].rank));
			json_object_set_new(why, "text", json_string(line));
			json_object_set_new(why, "what", json_string("arrival"));
			json_object_set_new(why, "name", json_string(a->arr[i].name));
			json_object_set_new(why, "steps", json_integer((json_int_t)c[0].steps));
			json_object_set_new(why, "of", json_integer((json_int_t)d));
			json_object_set_new(why, "p_value", pr_jnum(p));
			json_object_set_new(why, "detail", json_string(detail));
			json_array_append_new(reasons, why);
		}
		free(c);
	}
}

static void stragglers(const struct pr_agg *a, struct row **rows, size_t n, size_t nranks,
		       json_t *out)
{
	json_t *checks = json_array(), *reasons = json_array(), *named = json_array();
	double *vals = pr_xmalloc((n + 1) * sizeof(vals[0]));
	long *rk = pr_xmalloc((n + 1) * sizeof(rk[0]));
	static const char *const fields[] = { "stages", "collectives" };
	size_t f, i, k, m;
	double floor_ns = 0;
	for (i = m = 0; i < n; i++)
		if (isfinite(pr_mnum(rows[i]->j, "duration_ns")))
			vals[m++] = pr_mnum(rows[i]->j, "duration_ns");
	if (m)
		floor_ns = PR_AGG_MIN_SHARE * pr_median(vals, m);
	for (f = 0; f < 2; f++) {
		size_t nk;
		const char **keys = row_keys(rows, n, fields[f], &nk);
		for (k = 0; k < nk; k++) {
			struct check c = { f ? "collective" : "stage", keys[k], (int)f, floor_ns, NULL, 0 };
			for (i = m = 0; i < n; i++) {
				json_t *v = json_object_get(json_object_get(rows[i]->j, fields[f]), keys[k]);
				if (json_is_number(v)) {
					vals[m] = json_number_value(v);
					rk[m++] = rows[i]->rank;
				}
			}
			run_check(a, rows, &c, vals, rk, m, checks, reasons);
		}
		free(keys);
	}
	{
		struct check c = { "step time", "mean step", 0, 0, NULL, 0 };
		for (i = m = 0; i < n; i++) {
			double v = pr_mnum(json_object_get(rows[i]->j, "steps"), "mean_ns");
			if (isfinite(v)) {
				vals[m] = v;
				rk[m++] = rows[i]->rank;
			}
		}
		run_check(a, rows, &c, vals, rk, m, checks, reasons);
	}
	{
		/* a rank whose GPU idles while the others' compute, waiting on its own host */
		double *hw = pr_xmalloc((n + 1) * sizeof(hw[0]));
		struct check c = { "gpu idle", "GPU idle share", 0, PR_AGG_GPU_IDLE_POINTS, NULL,
				   PR_AGG_GPU_HOST_WAIT };
		for (i = m = 0; i < n; i++) {
			const json_t *g = json_object_get(rows[i]->j, "gpu");
			double v = gpu_share(g, "idle_ns", "span_ns");
			double h = gpu_share(g, "idle_host_wait_ns", "idle_ns");
			if (isfinite(v)) {
				vals[m] = v;
				hw[m] = isfinite(h) ? h : 0;
				rk[m++] = rows[i]->rank;
			}
		}
		c.aux = hw;
		run_check(a, rows, &c, vals, rk, m, checks, reasons);
		free(hw);
	}
	arrival_reasons(a, nranks, reasons);
	/* name each rank once, in rank order, with all its reasons */
	for (i = 0; i < n; i++) {
		struct pr_strbuf sb = PR_STRBUF_INIT;
		json_t *ev, *r, *o;
		size_t j;
		if (i > 0 && rows[i - 1]->rank == rows[i]->rank)
			continue;
		ev = json_array();
		json_array_foreach(reasons, j, r) {
			if (json_integer_value(json_object_get(r, "rank")) != rows[i]->rank)
				continue;
			pr_strbuf_addstr(&sb, json_array_size(ev) ? "; " : "");
			pr_strbuf_addstr(&sb, json_string_value(json_object_get(r, "text")));
			json_array_append(ev, r);
		}
		if (!json_array_size(ev)) {
			json_decref(ev);
			pr_strbuf_release(&sb);
			continue;
		}
		o = json_object();
		json_object_set_new(o, "rank", json_integer(rows[i]->rank));
		json_object_set_new(o, "source", json_string(rows[i]->source));
		{
			struct pr_strbuf line = PR_STRBUF_INIT;
			const char *rs = json_string_value(json_object_get(rows[i]->j, "rank_source"));
			const char *base = strrchr(rows[i]->source, '/');
			pr_strbuf_addf(&line, "rank %ld", rows[i]->rank);
			if (rs && !strcmp(rs, "inferred"))
				pr_strbuf_addf(&line, " (%s)", base ? base + 1 : rows[i]->source);
			pr_strbuf_addf(&line, ": %s", sb.buf);
			json_object_set_new(o, "summary", json_string(line.buf));
			pr_strbuf_release(&line);
		}
		json_object_set_new(o, "evidence", ev);
		json_array_append_new(named, o);
		pr_strbuf_release(&sb);
	}
	free(vals);
	free(rk);
	json_decref(reasons);
	json_object_set_new(
		out, "rule",
		json_string("per stage/phase total, collective time and mean step time across ranks: "
			    "modified z = 0.6745 (x - median) / MAD (meanAD fallback when MAD = 0); "
			    "straggler when a stage or the step time has z > 3.5 and x >= 1.2 x median, "
			    "or a collective has z < -3.5 and x <= 0.8 x median (the straggler waits "
			    "least), and for stages and collectives |x - median| >= 1 % of the median "
			    "run duration; needs >= 3 ranks. GPU idle: a rank whose GPU idle share (of "
			    "its first-to-last GPU op span) has z > 3.5, is >= 1.2 x the median (any "
			    "idle when the median is 0) and >= 5 points above it, with >= 50 % of its "
			    "idle time host wait (the GPU waited for its own CPU to launch work), "
			    "while the other ranks' GPUs were busy. Also: a rank that spent the least time in a "
			    "collective in most of its steps, with p < 0.01 against 1 in N ranks per "
			    "step (binomial, times N), arrived last"));
	json_object_set_new(out, "z_threshold", json_real(PR_AGG_Z));
	json_object_set_new(out, "ranks", named);
	json_object_set_new(out, "checks", checks);
}

json_t *pr_agg_to_json(const struct pr_agg *a)
{
	json_t *doc = json_object(), *stats = json_array(), *ranks = json_array(),
	       *strag = json_object();
	const struct stat **sv = pr_xcalloc(a->nst + 1, sizeof(sv[0]));
	struct row **rv = pr_xcalloc(a->nrows + 1, sizeof(rv[0]));
	size_t i, distinct = 0;
	for (i = 0; i < a->nst; i++)
		sv[i] = &a->st[i];
	qsort(sv, a->nst, sizeof(sv[0]), cmp_stat);
	for (i = 0; i < a->nrows; i++)
		rv[i] = &a->rows[i];
	qsort(rv, a->nrows, sizeof(rv[0]), cmp_row);
	for (i = 0; i < a->nrows; i++)
		if (!i || rv[i - 1]->rank != rv[i]->rank)
			distinct++;
	json_object_set_new(doc, "schema", json_string(PR_AGG_SCHEMA));
	json_object_set_new(doc, "version", json_integer(PR_AGG_VERSION));
	json_object_set_new(doc, "rank_count", json_integer((json_int_t)distinct));
	json_object_set_new(doc, "inputs", json_integer((json_int_t)a->nrows));
	json_object_set_new(doc, "world_size", a->world_size > 0 ? json_integer(a->world_size)
								 : json_null());
	json_object_set_new(doc, "ranks_inferred", json_boolean(a->inferred));
	json_object_set_new(doc, "warnings", json_deep_copy(a->warnings));
	stragglers(a, rv, a->nrows, distinct, strag);
	json_object_set_new(doc, "stragglers", strag);
	{
		const struct arrival **av = pr_xcalloc(a->narr + 1, sizeof(av[0]));
		json_t *arr = json_array();
		for (i = 0; i < a->narr; i++)
			av[i] = &a->arr[i];
		qsort(av, a->narr, sizeof(av[0]), cmp_arrival);
		for (i = 0; i < a->narr; i++)
			json_array_append_new(arr, arrival_json(av[i], distinct));
		json_object_set_new(doc, "collective_arrivals", arr);
		free(av);
	}
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

/* ---- Inferix's keys --------------------------------------------------- */

static json_t *inferix_metrics(struct row **rv, size_t n, const char *part)
{
	json_t *out = json_object(), *keys = json_array();
	size_t i, k;
	/* key order: as in the first report that has the part, then new ones as met */
	for (i = 0; i < n; i++) {
		const char *key;
		json_t *v;
		json_object_foreach(json_object_get(json_object_get(rv[i]->j, "inferix"), part), key, v) {
			int seen = 0;
			for (k = 0; k < json_array_size(keys) && !seen; k++)
				seen = !strcmp(json_string_value(json_array_get(keys, k)), key);
			if (!seen)
				json_array_append_new(keys, json_string(key));
		}
	}
	for (k = 0; k < json_array_size(keys); k++) {
		const char *key = json_string_value(json_array_get(keys, k));
		struct xsum s = { NULL, 0, 0 };
		double mn = INFINITY, mx = -INFINITY, cnt = 0;
		struct pr_strbuf kb = PR_STRBUF_INIT;
		static const char *const sfx[] = { "_min", "_max", "_avg", "_sum" };
		double vals[4];
		size_t q;
		for (i = 0; i < n; i++) {
			json_t *v = json_object_get(
				json_object_get(json_object_get(rv[i]->j, "inferix"), part), key);
			double d;
			if (!json_is_number(v))
				continue;
			d = json_number_value(v);
			xsum_add(&s, d);
			mn = d < mn ? d : mn;
			mx = d > mx ? d : mx;
			cnt++;
		}
		if (cnt > 0) {
			vals[0] = mn;
			vals[1] = mx;
			vals[2] = xsum_value(&s) / cnt;
			vals[3] = xsum_value(&s);
			for (q = 0; q < 4; q++) {
				pr_strbuf_reset(&kb);
				pr_strbuf_addf(&kb, "%s%s", key, sfx[q]);
				json_object_set_new(out, kb.buf,
						    q == 2 ? json_real(vals[q]) : pr_jnum(vals[q]));
			}
		}
		free(s.p);
		pr_strbuf_release(&kb);
	}
	json_decref(keys);
	return out;
}

json_t *pr_agg_to_inferix(const struct pr_agg *a)
{
	json_t *doc = json_object(), *sum = json_array();
	struct row **rv = pr_xcalloc(a->nrows + 1, sizeof(rv[0]));
	size_t i, distinct = 0;
	for (i = 0; i < a->nrows; i++)
		rv[i] = &a->rows[i];
	qsort(rv, a->nrows, sizeof(rv[0]), cmp_row);
	for (i = 0; i < a->nrows; i++)
		if (!i || rv[i - 1]->rank != rv[i]->rank)
			distinct++;
	json_object_set_new(doc, "total_reports", json_integer((json_int_t)a->nrows));
	json_object_set_new(doc, "rank_count", json_integer((json_int_t)distinct));
	json_object_set_new(doc, "aggregated_gpu_metrics", inferix_metrics(rv, a->nrows, "gpu"));
	json_object_set_new(doc, "aggregated_cpu_metrics", inferix_metrics(rv, a->nrows, "cpu"));
	for (i = 0; i < a->nrows; i++) {
		const json_t *inf = json_object_get(rv[i]->j, "inferix");
		const json_t *sid = json_object_get(inf, "session_id");
		const json_t *dur = json_object_get(inf, "duration");
		json_t *o = json_object();
		double d = json_is_number(dur)
				   ? json_number_value(dur)
				   : pr_mnum(rv[i]->j, "duration_ns") / 1e9;
		json_object_set_new(o, "report_index", json_integer((json_int_t)i));
		json_object_set_new(o, "session_id",
				    json_is_string(sid) ? json_copy((json_t *)sid)
							: json_string("unknown"));
		json_object_set_new(o, "duration", isfinite(d) ? json_real(d) : json_integer(0));
		json_object_set_new(o, "rank", json_integer(rv[i]->rank));
		json_array_append_new(sum, o);
	}
	json_object_set_new(doc, "reports_summary", sum);
	free(rv);
	return doc;
}

/* ---- files ------------------------------------------------------------ */

int pr_agg_sniff(const char *path)
{
	char head[4096];
	size_t n;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = 0;
	return strstr(head, "\"" PR_AGG_SCHEMA "\"") != NULL;
}

json_t *pr_agg_load(const char *path, struct pr_error *err)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	if (!doc) {
		pr_error_at(err, PR_E_PARSE, -1, je.line, je.column, "%s", je.text);
		pr_error_set_source(err, path);
		return NULL;
	}
	if (!json_is_object(doc) || !json_is_string(json_object_get(doc, "schema")) ||
	    strcmp(json_string_value(json_object_get(doc, "schema")), PR_AGG_SCHEMA)) {
		json_decref(doc);
		pr_error_set(err, PR_E_FORMAT, "not a profreport aggregate");
		pr_error_set_source(err, path);
		return NULL;
	}
	return doc;
}
