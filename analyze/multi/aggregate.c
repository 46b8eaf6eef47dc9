/*
 * aggregate.c - multi-rank aggregation (see aggregate.h): the accumulators,
 * rank discovery, folding one run (from a model or a store), merging, and
 * agg.json files. agg_impl.h lists the other pieces (agg.json, stragglers,
 * Inferix's keys).
 */
#include "analyze/multi/aggregate.h"
#include "analyze/kclass.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <regex.h>
#include <sqlite3.h>

#include "analyze/multi/agg_impl.h"
#include "base/imap.h"
#include "analyze/model.h"
#include "base/stats.h"
#include "base/xsum.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* ---- accumulators ----------------------------------------------------- */

struct pr_agg *pr_agg_new(void)
{
	struct pr_agg *a = pr_xcalloc(1, sizeof(*a));
	struct pr_strmap m = PR_STRMAP_INIT;
	a->idx = m;
	a->colidx = m;
	a->warnings = json_array();
	pr_strbuf_init(&a->key);
	return a;
}

static void stat_release(struct agg_stat *s)
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
static void vals_drop(struct agg_stat *s)
{
	free(s->vals);
	s->vals = NULL;
	s->nvals = 0;
	s->exact = 0;
}

/* Keeps v in the exact value list, or gives the list up past the cap. */
static void vals_add(struct agg_stat *s, const double *v, size_t n)
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
	free(a->rows);
	if (a->spill) {
		if (a->spill->f)
			fclose(a->spill->f);
		free(a->spill->buf);
		free(a->spill);
	}
	for (i = 0; i < a->ncols; i++) {
		free(a->cols[i].name);
		free(a->cols[i].row);
		free(a->cols[i].val);
	}
	free(a->cols);
	pr_strmap_release(&a->colidx);
	pr_imap_release(&a->by_rank);
	pr_imap_release(&a->by_hash);
	json_decref(a->warnings);
	if (a->has_rank_re)
		regfree(&a->rank_re);
	free(a->user_ranks);
	free(a->world_size_src);
	pr_strbuf_release(&a->key);
	free(a);
}

size_t pr_agg_rank_count(const struct pr_agg *a)
{
	return a->nrows;
}

/*
 * "n\x1fs" (t NULL) or "n\x1fs\x1ft" in a->key (replaced), n in decimal: the
 * key of a stat or a column, made without printf (it is made for every value
 * folded).
 */
static const struct pr_strbuf *map_key(struct pr_agg *a, int n, const char *s, const char *t)
{
	char d[16];
	size_t i = sizeof(d);
	unsigned u = n < 0 ? 0u - (unsigned)n : (unsigned)n;
	do
		d[--i] = (char)('0' + u % 10);
	while (u /= 10);
	if (n < 0)
		d[--i] = '-';
	pr_strbuf_reset(&a->key);
	pr_strbuf_add(&a->key, d + i, sizeof(d) - i);
	pr_strbuf_addch(&a->key, '\x1f');
	pr_strbuf_addstr(&a->key, s);
	if (t) {
		pr_strbuf_addch(&a->key, '\x1f');
		pr_strbuf_addstr(&a->key, t);
	}
	return &a->key;
}

struct agg_stat *pr_agg_stat_get(struct pr_agg *a, int cat, const char *kind, const char *name,
				 const char *unit)
{
	const struct pr_strbuf *k = map_key(a, cat, kind ? kind : "", name);
	int64_t i;
	struct agg_stat *s;
	if (pr_strmap_get(&a->idx, k->buf, k->len, &i))
		return &a->st[i];
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
	pr_strmap_put(&a->idx, k->buf, k->len, (int64_t)a->nst);
	return &a->st[a->nst++];
}

/* min/max with the rank; ties go to the lowest rank (order-independent). */
static void extrema(struct agg_stat *s, double min, long argmin, double max, long argmax)
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
	struct agg_stat *s;
	if (!isfinite(v) || !name)
		return;
	s = pr_agg_stat_get(a, cat, kind, name, unit);
	s->ranks++;
	pr_xsum_add(&s->calls, calls);
	pr_xsum_add(&s->sum, v);
	pr_xsum_add(&s->sumsq, v * v);
	pr_moments_add(&s->mom, v);
	extrema(s, v, rank, v, rank);
	pr_sketch_add(s->sk, v);
	vals_add(s, &v, 1);
}

void pr_agg_stat_merge(struct agg_stat *into, const struct agg_stat *from)
{
	into->ranks += from->ranks;
	pr_xsum_merge(&into->calls, &from->calls);
	pr_xsum_merge(&into->sum, &from->sum);
	pr_xsum_merge(&into->sumsq, &from->sumsq);
	pr_moments_merge(&into->mom, &from->mom);
	if (from->ranks)
		extrema(into, from->min, from->argmin, from->max, from->argmax);
	pr_sketch_merge(into->sk, from->sk);
	if (from->exact)
		vals_add(into, from->vals, from->nvals);
	else
		vals_drop(into);
}

/* ---- rows and their scratch file -------------------------------------- */

/*
 * The record of a row in the scratch file: its source, content hash and
 * JSON, back to back (agg_row has the lengths). The JSON is compact, keys
 * in order, reals to 17 digits: parsed again it is the same tree (same
 * types, bits and key order), so every output made from it is the one the
 * tree itself would give.
 */
#define ROW_DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

static int spill_fail(struct agg_spill *sp, int e)
{
	if (!sp->err)
		sp->err = e ? e : EIO;
	return -1;
}

/* The scratch file, made (and unlinked) on first use; NULL with err. */
static struct agg_spill *spill_get(struct pr_agg *a, struct pr_error *err)
{
	struct pr_strbuf path = PR_STRBUF_INIT;
	const char *dir = getenv("TMPDIR");
	int fd;
	if (a->spill && !a->spill->err)
		return a->spill;
	if (a->spill) {
		pr_agg_failed(a, err);
		return NULL;
	}
	pr_strbuf_addf(&path, "%s/profreport-agg-rows-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path.buf);
	if (fd < 0) {
		pr_error_set(err, PR_E_IO,
			     "cannot create a scratch file for the rank rows in '%s': %s",
			     dir && *dir ? dir : "/tmp", strerror(errno));
		pr_strbuf_release(&path);
		return NULL;
	}
	unlink(path.buf); /* gone from the directory at once: nothing to clean up, ever */
	pr_strbuf_release(&path);
	a->spill = pr_xcalloc(1, sizeof(*a->spill));
	a->spill->f = fdopen(fd, "w+b");
	if (!a->spill->f) {
		spill_fail(a->spill, errno);
		close(fd);
		pr_agg_failed(a, err);
		return NULL;
	}
	return a->spill;
}

/* Appends n bytes; 0 or -1 (sticky). */
static int spill_put(struct agg_spill *sp, const void *p, size_t n)
{
	if (sp->err)
		return -1;
	if (n && fwrite(p, 1, n, sp->f) != n)
		return spill_fail(sp, errno);
	sp->len += n;
	return 0;
}

/* Reads n bytes at off into sp->buf (NUL-terminated); 0 or -1 (sticky). */
static int spill_read(const struct pr_agg *a, uint64_t off, size_t n)
{
	struct agg_spill *sp = a->spill;
	size_t got = 0;
	if (!sp || sp->err)
		return -1;
	if (off + n > sp->len)
		return spill_fail(sp, EINVAL);
	if (fflush(sp->f))
		return spill_fail(sp, errno);
	if (n + 1 > sp->cap) {
		sp->cap = n + 1 > 2 * sp->cap ? n + 1 : 2 * sp->cap;
		sp->buf = pr_xrealloc(sp->buf, sp->cap);
	}
	while (got < n) {
		ssize_t r = pread(fileno(sp->f), sp->buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return spill_fail(sp, r < 0 ? errno : EIO);
		got += (size_t)r;
	}
	sp->buf[n] = '\0';
	return 0;
}

int pr_agg_failed(const struct pr_agg *a, struct pr_error *err)
{
	if (!a->spill || !a->spill->err)
		return 0;
	return pr_error_set(err, PR_E_IO, "scratch file of the rank rows: %s",
			    strerror(a->spill->err));
}

const char *pr_agg_row_source(const struct pr_agg *a, const struct agg_row *r)
{
	return spill_read(a, r->off, r->slen) ? NULL : a->spill->buf;
}

/* A row's content hash (in the scratch buffer, as pr_agg_row_source); NULL on failure. */
static const char *row_hash(const struct pr_agg *a, const struct agg_row *r)
{
	return spill_read(a, r->off + r->slen, r->hlen) ? NULL : a->spill->buf;
}

const char *pr_agg_row_text(const struct pr_agg *a, const struct agg_row *r, size_t *n)
{
	if (spill_read(a, r->off + r->slen + r->hlen, r->jlen))
		return NULL;
	*n = r->jlen;
	return a->spill->buf;
}

json_t *pr_agg_row_json(const struct pr_agg *a, const struct agg_row *r)
{
	json_t *j;
	if (spill_read(a, r->off + r->slen + r->hlen, r->jlen))
		return NULL;
	j = json_loadb(a->spill->buf, r->jlen, JSON_ALLOW_NUL, NULL);
	if (!j)
		spill_fail(a->spill,
			   EILSEQ); /* not what was written: cannot happen but by corruption */
	return j;
}

struct agg_col *pr_agg_col_get(struct pr_agg *a, int field, const char *name)
{
	const struct pr_strbuf *k = map_key(a, field, name, NULL);
	int64_t i;
	if (!pr_strmap_get(&a->colidx, k->buf, k->len, &i)) {
		i = (int64_t)a->ncols;
		a->cols = pr_xreallocarray(a->cols, a->ncols + 1, sizeof(a->cols[0]));
		memset(&a->cols[a->ncols], 0, sizeof(a->cols[0]));
		a->cols[a->ncols].name = pr_xstrdup(name);
		a->cols[a->ncols].field = field;
		a->ncols++;
		pr_strmap_put(&a->colidx, k->buf, k->len, i);
	}
	return &a->cols[i];
}

static void col_add(struct agg_col *c, uint32_t row, double v)
{
	if (c->n == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 8;
		c->row = pr_xreallocarray(c->row, c->alloc, sizeof(c->row[0]));
		c->val = pr_xreallocarray(c->val, c->alloc, sizeof(c->val[0]));
	}
	c->row[c->n] = row;
	c->val[c->n++] = v;
}

/*
 * The content-hash index: a 63-bit hash of the text, probing on to the next
 * key while the row found there has another hash (read back to compare),
 * so that equal hashes, and only those, meet. Returns the row with hash h
 * (-1: none) and in *key where it is, or where it would go.
 */
static int64_t hash_key(const char *h, size_t n)
{
	return (int64_t)(pr_strmap_hash(h, n) & (uint64_t)INT64_MAX);
}

static int64_t hash_find(const struct pr_agg *a, const char *h, size_t n, int64_t *key)
{
	int64_t k = hash_key(h, n), i;
	while (pr_imap_get(&a->by_hash, k, &i)) {
		const struct agg_row *r = &a->rows[i];
		const char *rh;
		if (r->hlen == n && (rh = row_hash(a, r)) && !memcmp(rh, h, n)) {
			*key = k;
			return i;
		}
		k = (k + 1) & INT64_MAX;
	}
	*key = k;
	return -1;
}

/* The next row's slot (room made); -1 with err past the rows one aggregate holds. */
static struct agg_row *row_new(struct pr_agg *a, struct pr_error *err)
{
	if (a->nrows >= UINT32_MAX) {
		pr_error_set(err, PR_E_FORMAT, "more than %lu ranks in one aggregate",
			     (unsigned long)UINT32_MAX);
		return NULL;
	}
	if (a->nrows == a->rowalloc) {
		a->rowalloc = a->rowalloc ? a->rowalloc + a->rowalloc / 2 : 16;
		a->rows = pr_xreallocarray(a->rows, a->rowalloc, sizeof(a->rows[0]));
	}
	memset(&a->rows[a->nrows], 0, sizeof(a->rows[0]));
	return &a->rows[a->nrows];
}

/*
 * The first row with rank r (-1: none). The index cannot hold INT64_MIN (its
 * empty mark), a rank only a hand-made agg.json has: that one is kept aside.
 */
static int64_t rank_row(const struct pr_agg *a, long r)
{
	int64_t i;
	if (r == INT64_MIN)
		return a->min_rank_row - 1;
	return pr_imap_get(&a->by_rank, r, &i) ? i : -1;
}

/* Indexes the row just filled in (a->rows[a->nrows]) and counts it; h: its content hash. */
static void row_commit(struct pr_agg *a, const char *h, size_t hn)
{
	const struct agg_row *r = &a->rows[a->nrows];
	if (rank_row(a, r->rank) < 0) {
		if (r->rank == INT64_MIN)
			a->min_rank_row = (int64_t)a->nrows + 1;
		else
			pr_imap_put(&a->by_rank, r->rank, (int64_t)a->nrows);
	}
	a->nrows++;
	if (hn) {
		int64_t key;
		hash_find(a, h, hn, &key);
		pr_imap_put(&a->by_hash, key, (int64_t)a->nrows - 1); /* the last row with it */
	}
}

/* json_dump_callback into a strbuf (not json_dumps: no copy, nor a string of jansson's allocator). */
static int dump_to_strbuf(const char *buf, size_t n, void *sb)
{
	pr_strbuf_add(sb, buf, n);
	return 0;
}

int pr_agg_add_row(struct pr_agg *a, long rank, const char *source, json_t *j, struct pr_error *err)
{
	/* AGG_F_STAGE, AGG_F_COLLECTIVE, AGG_F_PERF */
	static const char *const fields[] = { PRA_RANKS_STAGES, PRA_RANKS_COLLECTIVES,
					      PRA_RANKS_PERF };
	const char *src = source ? source : "";
	const char *h = json_string_value(json_object_get(j, PRA_RANKS_CONTENT_HASH));
	const char *rs = json_string_value(json_object_get(j, PRA_RANKS_RANK_SOURCE));
	const json_t *g = json_object_get(j, PRA_RANKS_GPU), *v;
	struct agg_spill *sp;
	struct agg_row *r;
	struct pr_strbuf text = PR_STRBUF_INIT;
	size_t sn = strlen(src), hn = h ? strlen(h) : 0, f;
	const char *key;
	if (!(r = row_new(a, err)) || !(sp = spill_get(a, err)))
		goto fail;
	if (json_dump_callback(j, dump_to_strbuf, &text, ROW_DUMP_FLAGS) || !text.len ||
	    sn > UINT32_MAX || hn > UINT32_MAX || text.len > UINT32_MAX) {
		pr_error_set(err, PR_E_FORMAT, "rank %ld: its row cannot be kept", rank);
		goto fail;
	}
	r->off = sp->len;
	if (spill_put(sp, src, sn) || spill_put(sp, h, hn) || spill_put(sp, text.buf, text.len)) {
		pr_agg_failed(a, err);
		goto fail;
	}
	r->rank = rank;
	r->slen = (uint32_t)sn;
	r->hlen = (uint32_t)hn;
	r->jlen = (uint32_t)text.len;
	r->inferred = rs && !strcmp(rs, "inferred");
	r->duration_ns = pr_mnum(j, PRA_RANKS_DURATION_NS);
	r->step_mean_ns = pr_mnum(json_object_get(j, PRA_RANKS_STEPS), PRA_RANKS_STEPS_MEAN_NS);
	/* the linked scope's idle share where the row has it (gpu_part), else the span's */
	r->gpu_idle =
		pr_agg_gpu_share(g, PRA_RANKS_GPU_LINKED_IDLE_NS, PRA_RANKS_GPU_LINKED_TOTAL_NS);
	if (!isfinite(r->gpu_idle))
		r->gpu_idle = pr_agg_gpu_share(g, PRA_RANKS_GPU_IDLE_NS, PRA_RANKS_GPU_SPAN_NS);
	r->gpu_host_wait =
		pr_agg_gpu_share(g, PRA_RANKS_GPU_IDLE_HOST_WAIT_NS, PRA_RANKS_GPU_IDLE_NS);
	for (f = 0; f < 3; f++)
		json_object_foreach (json_object_get(j, fields[f]), key, v) {
			struct agg_col *c = pr_agg_col_get(a, (int)f, key);
			if (json_is_number(v))
				col_add(c, (uint32_t)a->nrows, json_number_value(v));
		}
	{
		/* the critical path's host-side shares (AGG_F_CRITPATH), from the row's ns */
		const json_t *cp = json_object_get(j, PRA_RANKS_CRITICAL_PATH);
		const json_t *comp = json_object_get(cp, PRA_RANKS_CRITICAL_PATH_COMPOSITION_NS);
		double len = pr_mnum(cp, PRA_RANKS_CRITICAL_PATH_LENGTH_NS);
		for (f = 0; f < PR_AGG_CP_NCLASSES && len > 0; f++) {
			double x = pr_mnum(comp, pr_agg_cp_classes[f]);
			if (isfinite(x))
				col_add(pr_agg_col_get(a, AGG_F_CRITPATH, pr_agg_cp_classes[f]),
					(uint32_t)a->nrows, x / len);
		}
	}
	row_commit(a, h, hn);
	pr_strbuf_release(&text);
	json_decref(j);
	return 0;
fail:
	pr_strbuf_release(&text);
	json_decref(j);
	return -1;
}

/* Appends from's row fr to a: its record copied from file to file, its numbers as they are. */
static int row_copy(struct pr_agg *a, const struct pr_agg *from, const struct agg_row *fr,
		    struct pr_error *err)
{
	size_t n = (size_t)fr->slen + fr->hlen + fr->jlen;
	struct agg_spill *sp;
	struct agg_row *r;
	if (spill_read(from, fr->off, n))
		return pr_agg_failed(from, err);
	if (!(r = row_new(a, err)) || !(sp = spill_get(a, err)))
		return -1;
	*r = *fr;
	r->off = sp->len;
	if (spill_put(sp, from->spill->buf, n))
		return pr_agg_failed(a, err);
	row_commit(a, from->spill->buf + fr->slen, fr->hlen);
	return 0;
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
		return pr_error_set(err, PR_E_USAGE,
				    "--ranks names %zu ranks but %zu inputs were read",
				    a->nuser_ranks, a->next_user_rank);
	return 0;
}

/* The rank a --rank-from regex gives path: its first group's digits; -1 when none. */
static long rank_by_regex(const struct pr_agg *a, const char *path)
{
	regmatch_t m[2];
	long v = 0;
	regoff_t i;
	int d = 0, sig = 0;
	if (!path || regexec(&a->rank_re, path, 2, m, 0) || m[1].rm_so < 0)
		return -1;
	for (i = m[1].rm_so; i < m[1].rm_eo; i++) {
		if (!isdigit((unsigned char)path[i]))
			continue;
		d++;
		if (!sig && path[i] == '0')
			continue; /* zero-padded: rank_0003 is rank 3 */
		if (++sig > 9)
			return -2;
		v = v * 10 + (path[i] - '0');
	}
	return d ? v : -1;
}

/* The (kind, name) collective's arrival record with room for n steps; NULL past the caps. */
struct agg_arrival *pr_agg_arrival_get(struct pr_agg *a, const char *kind, const char *name,
				       size_t n)
{
	struct agg_arrival *ar = NULL;
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

void pr_agg_arrival_note(struct agg_arrival *ar, size_t k, double v, long rank)
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
	return rank_row(a, r) >= 0;
}

void pr_agg_warnf(struct pr_agg *a, const char *fmt, ...)
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

/* The source of the first row with rank (read back: valid until the next read). */
static const char *row_source(const struct pr_agg *a, long rank)
{
	int64_t i = rank_row(a, rank);
	const char *s = i >= 0 ? pr_agg_row_source(a, &a->rows[i]) : NULL;
	return s ? s : "";
}

/*
 * Byte-identical inputs (the same content hash) are counted once, as
 * ingest does: 1 (a duplicate, warned) or 0.
 */
static int is_duplicate(struct pr_agg *a, const json_t *run, const char *src)
{
	const char *h = json_string_value(json_object_get(run, PRK_CONTENT_HASH)), *s;
	int64_t i, key;
	if (!h || !*h || (i = hash_find(a, h, strlen(h), &key)) < 0)
		return 0;
	s = pr_agg_row_source(a, &a->rows[i]);
	pr_agg_warnf(a, "'%s' has the same content as '%s': counted once", src, s ? s : "");
	return 1;
}

/* Inputs of one job agree on the world size; -1 with err when not. */
static int same_job(struct pr_agg *a, const json_t *run, const char *src, struct pr_error *err)
{
	const json_t *ws = json_object_get(run, PRK_WORLD_SIZE);
	long w;
	if (!json_is_integer(ws) || json_integer_value(ws) <= 0)
		return 0;
	w = (long)json_integer_value(ws);
	if (a->world_size > 0 && w != a->world_size)
		return pr_error_set(
			err, PR_E_FORMAT,
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

static int cmp_total_desc(const void *x, const void *y)
{
	const json_t *const *a = x, *const *b = y;
	double u = pr_mnum(*a, PRK_SPANS_ITEMS_TOTAL_NS), v = pr_mnum(*b, PRK_SPANS_ITEMS_TOTAL_NS);
	if (u != v)
		return u > v ? -1 : 1;
	return strcmp(json_string_value(json_object_get(*a, PRK_SPANS_ITEMS_NAME)),
		      json_string_value(json_object_get(*b, PRK_SPANS_ITEMS_NAME)));
}

#define TOP_SPANS 5

static double ratio_of(double part, double whole)
{
	return whole > 0 && isfinite(part) ? part / whole : NAN;
}

/* A row's GPU share from its ns (exact through agg.json: the ns are integers). */
double pr_agg_gpu_share(const json_t *g, const char *part, const char *whole)
{
	return ratio_of(pr_mnum(g, part), pr_mnum(g, whole));
}

/*
 * The linked scope of gpu_breakdown.scopes (GPU ops a traced runtime call
 * launched, TraceLens's gpu_timeline) in the row's "gpu": its busy, idle and
 * total ns and busy share, folded as the "busy (linked)" share; null where
 * the model has no linked op (or no scopes). The GPU-idle straggler check
 * judges this scope's idle share where the row has it.
 */
static void linked_part(struct pr_agg *a, json_t *g, const json_t *l, long rank)
{
	int on = json_is_object(l) && pr_mnum(l, PRK_GPU_BREAKDOWN_SCOPES_LINKED_OPS) > 0 &&
		 pr_mnum(l, PRK_GPU_BREAKDOWN_SCOPES_LINKED_TOTAL_NS) > 0;
	double v;
	json_object_set_new(g, "linked_busy_ns",
			    on ? pr_jnum(pr_mnum(l, PRK_GPU_BREAKDOWN_SCOPES_LINKED_BUSY_NS))
			       : json_null());
	json_object_set_new(g, "linked_idle_ns",
			    on ? pr_jnum(pr_mnum(l, PRK_GPU_BREAKDOWN_SCOPES_LINKED_IDLE_NS))
			       : json_null());
	json_object_set_new(g, "linked_total_ns",
			    on ? pr_jnum(pr_mnum(l, PRK_GPU_BREAKDOWN_SCOPES_LINKED_TOTAL_NS))
			       : json_null());
	v = on ? pr_agg_gpu_share(g, "linked_busy_ns", "linked_total_ns") : NAN;
	json_object_set_new(g, "linked_busy_share", pr_jnum(v));
	if (on)
		fold(a, CAT_GPU, "", "busy (linked)", "share", v, 1, rank);
}

/*
 * The run's GPU temporal breakdown (the model's gpu_breakdown, HTA's
 * definitions) as the row's "gpu" object, and its shares folded as stats of
 * category "gpu" (unit "share", a fraction): compute/communication/memory/
 * idle of the GPU span, the idle split as shares of the idle time, and the
 * share of communication time overlapped by compute. null when the run has
 * no GPU op. The row keeps the ns too, so a merged agg.json can run the
 * GPU-idle straggler check from rows alone.
 */
static json_t *gpu_part(struct pr_agg *a, const json_t *run, long rank)
{
	/* the rank's ns, kept under their names; the idle parts renamed idle_<part> */
	static const char *const rk[] = {
		PRK_GPU_BREAKDOWN_RANK_SPAN_NS,	   PRK_GPU_BREAKDOWN_RANK_BUSY_NS,
		PRK_GPU_BREAKDOWN_RANK_COMPUTE_NS, PRK_GPU_BREAKDOWN_RANK_COMMUNICATION_NS,
		PRK_GPU_BREAKDOWN_RANK_MEMORY_NS,  PRK_GPU_BREAKDOWN_RANK_IDLE_NS
	};
	static const char *const ik[][2] = {
		{ PRK_GPU_BREAKDOWN_IDLE_HOST_WAIT_NS, "idle_host_wait_ns" },
		{ PRK_GPU_BREAKDOWN_IDLE_KERNEL_WAIT_NS, "idle_kernel_wait_ns" },
		{ PRK_GPU_BREAKDOWN_IDLE_OTHER_NS, "idle_other_ns" }
	};
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
	const json_t *gb = json_object_get(run, PRK_GPU_BREAKDOWN);
	const json_t *r = json_object_get(gb, PRK_GPU_BREAKDOWN_RANK),
		     *idle = json_object_get(gb, PRK_GPU_BREAKDOWN_IDLE),
		     *ov = json_object_get(gb, PRK_GPU_BREAKDOWN_OVERLAP);
	json_t *g;
	size_t i;
	if (!json_is_object(r) || !(pr_mnum(r, PRK_GPU_BREAKDOWN_RANK_SPAN_NS) > 0))
		return json_null();
	g = json_object();
	for (i = 0; i < sizeof(rk) / sizeof(rk[0]); i++)
		json_object_set_new(g, rk[i], pr_jnum(pr_mnum(r, rk[i])));
	for (i = 0; i < sizeof(ik) / sizeof(ik[0]); i++)
		json_object_set_new(g, ik[i][1], pr_jnum(pr_mnum(idle, ik[i][0])));
	json_object_set_new(g, "overlap_communication_ns",
			    pr_jnum(pr_mnum(ov, PRK_GPU_BREAKDOWN_OVERLAP_COMMUNICATION_NS)));
	json_object_set_new(g, "overlapped_ns",
			    pr_jnum(pr_mnum(ov, PRK_GPU_BREAKDOWN_OVERLAP_OVERLAPPED_NS)));
	for (i = 0; i < sizeof(sh) / sizeof(sh[0]); i++) {
		double v = pr_agg_gpu_share(g, sh[i][2], sh[i][3]);
		json_object_set_new(g, sh[i][0], pr_jnum(v));
		if (sh[i][1])
			fold(a, CAT_GPU, "", sh[i][1], "share", v, 1, rank);
	}
	json_object_set_new(g, "launch_linked_share",
			    pr_jnum(pr_mnum(idle, PRK_GPU_BREAKDOWN_IDLE_LAUNCH_LINKED_SHARE)));
	linked_part(a, g,
		    json_object_get(json_object_get(gb, PRK_GPU_BREAKDOWN_SCOPES),
				    PRK_GPU_BREAKDOWN_SCOPES_LINKED),
		    rank);
	return g;
}

/*
 * The perf model's category times (the model's perf_model, docs/analysis.md):
 * the row's "perf" object, category -> device ns of the ops that launched
 * device work, each folded as a stat of category "gpu" named "perf: <category>"
 * (unit ns). NULL when the run has no perf model (no row key).
 */
static json_t *perf_part(struct pr_agg *a, const json_t *run, long rank)
{
	const json_t *cats = json_object_get(json_object_get(run, PRK_PERF_MODEL),
					     PRK_PERF_MODEL_CATEGORIES),
		     *c;
	struct pr_strbuf name = PR_STRBUF_INIT;
	json_t *p;
	size_t i;
	if (!json_array_size(cats))
		return NULL;
	p = json_object();
	json_array_foreach (cats, i, c) {
		double v = pr_mnum(c, PRK_PERF_MODEL_CATEGORIES_DEVICE_NS);
		if (!*pr_mstr(c, PRK_PERF_MODEL_CATEGORIES_CATEGORY) || isnan(v))
			continue;
		json_object_set_new(p, pr_mstr(c, PRK_PERF_MODEL_CATEGORIES_CATEGORY), pr_jnum(v));
		pr_strbuf_reset(&name);
		pr_strbuf_addstr(&name, "perf: ");
		pr_strbuf_addstr(&name, pr_mstr(c, PRK_PERF_MODEL_CATEGORIES_CATEGORY));
		fold(a, CAT_GPU, "", name.buf, "ns", v, 1, rank);
	}
	pr_strbuf_release(&name);
	return p;
}

/* The critical path's host-side classes whose share of the path the straggler check judges. */
const char *const pr_agg_cp_classes[PR_AGG_CP_NCLASSES] = { PRK_CRITICAL_PATH_COMPOSITION_NS_CPU_OP,
							    PRK_CRITICAL_PATH_COMPOSITION_NS_SYNC,
							    PRK_CRITICAL_PATH_COMPOSITION_NS_IDLE };

/*
 * The critical path's composition (the model's critical_path, docs/analysis.md):
 * the row's "critical_path" object {length_ns, steps_analysed, composition_ns
 * {class: ns}}, each class's share of length_ns folded as a stat of category
 * "gpu" named "critical path: <class>" (unit share). NULL when the run has no
 * critical path or none was analysed (no row key).
 */
static json_t *critpath_part(struct pr_agg *a, const json_t *run, long rank)
{
	const json_t *cp = json_object_get(run, PRK_CRITICAL_PATH);
	const json_t *comp = json_object_get(cp, PRK_CRITICAL_PATH_COMPOSITION_NS), *v;
	struct pr_strbuf name = PR_STRBUF_INIT;
	double len = pr_mnum(cp, PRK_CRITICAL_PATH_LENGTH_NS);
	const char *key;
	json_t *p, *c;
	if (!json_is_object(comp) || !(len > 0))
		return NULL;
	p = json_object();
	c = json_object();
	json_object_set_new(p, "length_ns", pr_jnum(len));
	json_object_set_new(p, "steps_analysed",
			    pr_jnum(pr_mnum(cp, PRK_CRITICAL_PATH_STEPS_ANALYSED)));
	json_object_foreach ((json_t *)comp, key, v) {
		if (!json_is_number(v))
			continue;
		json_object_set_new(c, key, pr_jnum(json_number_value(v)));
		pr_strbuf_reset(&name);
		pr_strbuf_addstr(&name, "critical path: ");
		pr_strbuf_addstr(&name, key);
		fold(a, CAT_GPU, "", name.buf, "share", json_number_value(v) / len, 1, rank);
	}
	json_object_set_new(p, "composition_ns", c);
	pr_strbuf_release(&name);
	return p;
}

/*
 * The rank of the run read from src and where it came from (*rsrc): the
 * user's --ranks, --rank-from, the trace, the path, else the lowest unused
 * rank (a warning). -1 with err when the rank is missing or taken.
 */
static int run_rank(struct pr_agg *a, const json_t *run, const char *src, long *rankp,
		    const char **rsrcp, struct pr_error *err)
{
	const json_t *jr = json_object_get(run, PRK_RANK);
	const char *rsrc = "trace";
	long rank;
	if (a->user_ranks) {
		if (a->next_user_rank == a->nuser_ranks)
			return pr_error_set(err, PR_E_USAGE,
					    "'%s': more inputs than the %zu ranks --ranks names",
					    src, a->nuser_ranks);
		rank = a->user_ranks[a->next_user_rank++];
		rsrc = "--ranks";
	} else if (a->has_rank_re) {
		if ((rank = rank_by_regex(a, src)) == -2)
			return pr_error_set(err, PR_E_USAGE,
					    "'%s': the rank --rank-from reads in this path is "
					    "out of range (more than 9 digits)",
					    src);
		if (rank < 0)
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
		pr_agg_warnf(a,
			     "ranks inferred: no rank in the trace or its path; ranks follow the "
			     "sorted input order, which need not be the job's (state them with "
			     "--ranks or --rank-from; stragglers are named with their file)");
	}
	if (rank_used(a, rank))
		return pr_error_set(
			err, PR_E_FORMAT,
			"'%s': rank %ld is already taken by '%s' (rank from %s): inputs "
			"of different jobs? aggregate each job alone, or state ranks with "
			"--ranks or --rank-from",
			src, rank, row_source(a, rank), rsrc);
	*rankp = rank;
	*rsrcp = rsrc;
	return 0;
}

/* The row's "steps" and "throughput"; folds the run's steps.* and throughput.* stats. */
static void fold_throughput(struct pr_agg *a, const json_t *run, json_t *row, long rank)
{
	const json_t *tp, *steps, *v;
	json_t *thr, *rsteps;

	tp = json_object_get(run, PRK_THROUGHPUT);
	steps = json_object_get(tp, PRK_THROUGHPUT_STEPS);
	if (json_is_object(steps) && pr_mnum(steps, PRK_THROUGHPUT_STEPS_COUNT) > 0) {
		rsteps = json_object();
		json_object_set(rsteps, "name", json_object_get(steps, PRK_THROUGHPUT_STEPS_NAME));
		json_object_set_new(rsteps, "count",
				    pr_jnum(pr_mnum(steps, PRK_THROUGHPUT_STEPS_COUNT)));
		json_object_set_new(rsteps, "mean_ns",
				    pr_jnum(pr_mnum(steps, PRK_THROUGHPUT_STEPS_MEAN_NS)));
		json_object_set_new(rsteps, "p50_ns",
				    pr_jnum(pr_mnum(steps, PRK_THROUGHPUT_STEPS_P50_NS)));
		json_object_set_new(rsteps, "min_ns",
				    pr_jnum(pr_mnum(steps, PRK_THROUGHPUT_STEPS_MIN_NS)));
		json_object_set_new(rsteps, "max_ns",
				    pr_jnum(pr_mnum(steps, PRK_THROUGHPUT_STEPS_MAX_NS)));
		json_object_set_new(row, "steps", rsteps);
		fold(a, CAT_RUN, "", "steps.count", "count",
		     pr_mnum(steps, PRK_THROUGHPUT_STEPS_COUNT), 1, rank);
		fold(a, CAT_RUN, "", "steps.mean", "ns",
		     pr_mnum(steps, PRK_THROUGHPUT_STEPS_MEAN_NS),
		     pr_mnum(steps, PRK_THROUGHPUT_STEPS_COUNT), rank);
		fold(a, CAT_RUN, "", "steps.p50", "ns", pr_mnum(steps, PRK_THROUGHPUT_STEPS_P50_NS),
		     pr_mnum(steps, PRK_THROUGHPUT_STEPS_COUNT), rank);
		fold(a, CAT_RUN, "", "steps.max", "ns", pr_mnum(steps, PRK_THROUGHPUT_STEPS_MAX_NS),
		     pr_mnum(steps, PRK_THROUGHPUT_STEPS_COUNT), rank);
	} else {
		json_object_set_new(row, "steps", json_null());
	}

	thr = json_object();
	if (json_is_object(steps) && isfinite(pr_mnum(steps, PRK_THROUGHPUT_STEPS_PER_S)))
		json_object_set_new(thr, "steps_per_s",
				    pr_jnum(pr_mnum(steps, PRK_THROUGHPUT_STEPS_PER_S)));
	v = json_object_get(tp, PRK_THROUGHPUT_BLOCKS);
	if (json_is_object(v)) {
		if (isfinite(pr_mnum(v, PRK_THROUGHPUT_BLOCKS_FPS)))
			json_object_set_new(thr, "fps",
					    pr_jnum(pr_mnum(v, PRK_THROUGHPUT_BLOCKS_FPS)));
		if (isfinite(pr_mnum(v, PRK_THROUGHPUT_BLOCKS_BPS)))
			json_object_set_new(thr, "bps",
					    pr_jnum(pr_mnum(v, PRK_THROUGHPUT_BLOCKS_BPS)));
	}
	v = json_object_get(tp, PRK_THROUGHPUT_TOKENS);
	if (json_is_object(v) && isfinite(pr_mnum(v, PRK_THROUGHPUT_TOKENS_TOKENS_PER_S)))
		json_object_set_new(thr, "tokens_per_s",
				    pr_jnum(pr_mnum(v, PRK_THROUGHPUT_TOKENS_TOKENS_PER_S)));
	{
		const char *k;
		json_t *x;
		json_object_foreach (thr, k, x) {
			struct pr_strbuf n = PR_STRBUF_INIT;
			pr_strbuf_addstr(&n, "throughput.");
			pr_strbuf_addstr(&n, k);
			fold(a, CAT_RUN, "", n.buf, "per_s", json_number_value(x), 1, rank);
			pr_strbuf_release(&n);
		}
	}
	json_object_set_new(row, "throughput", thr);
}

/* The row's "stages": timeline phases (annotations) and Inferix stages, folded as stage stats. */
/* phases.totals and phases.stages are one shape here, read by the totals' names */
_Static_assert(sizeof(PRK_PHASES_STAGES_NAME) == sizeof(PRK_PHASES_TOTALS_NAME),
	       "phases.stages[].name");
_Static_assert(sizeof(PRK_PHASES_STAGES_TOTAL_NS) == sizeof(PRK_PHASES_TOTALS_TOTAL_NS),
	       "phases.stages[].total_ns");
_Static_assert(sizeof(PRK_PHASES_STAGES_COUNT) == sizeof(PRK_PHASES_TOTALS_COUNT),
	       "phases.stages[].count");
static void fold_stages(struct pr_agg *a, const json_t *run, json_t *row, long rank)
{
	static const char *const parts[] = { PRK_PHASES_TOTALS, PRK_PHASES_STAGES };
	const json_t *phases = json_object_get(run, PRK_PHASES), *v;
	json_t *stages = json_object();
	size_t p, i;
	for (p = 0; p < 2; p++) {
		json_array_foreach (json_object_get(phases, parts[p]), i, v) {
			const char *name =
				json_string_value(json_object_get(v, PRK_PHASES_TOTALS_NAME));
			double t = pr_mnum(v, PRK_PHASES_TOTALS_TOTAL_NS);
			if (!name || !isfinite(t) || json_object_get(stages, name))
				continue;
			json_object_set_new(stages, name, pr_jnum(t));
			fold(a, CAT_STAGE, "", name, "ns", t, pr_mnum(v, PRK_PHASES_TOTALS_COUNT),
			     rank);
		}
	}
	json_object_set_new(row, "stages", stages);
}

/*
 * The row's "collectives", "collective_ns" and "top_spans": folds every
 * span name (steps excluded: they are in "steps") and every collective,
 * whose per-step times note who arrived last.
 */
static void fold_spans(struct pr_agg *a, const json_t *run, json_t *row, long rank)
{
	const json_t *v, *cv, *items;
	json_t *coll, *top;
	double coll_ns = 0;
	size_t i, nsp = 0;
	const json_t **sp = NULL;
	int any_coll = 0;

	coll = json_object();
	items = json_object_get(json_object_get(run, PRK_SPANS), PRK_SPANS_ITEMS);
	sp = pr_xcalloc(json_array_size(items) + 1, sizeof(sp[0]));
	json_array_foreach (items, i, v) {
		const char *name = json_string_value(json_object_get(v, PRK_SPANS_ITEMS_NAME));
		const char *kind = json_string_value(json_object_get(v, PRK_SPANS_ITEMS_KIND));
		double t = pr_mnum(v, PRK_SPANS_ITEMS_TOTAL_NS);
		if (!name || is_step_kind(kind) || !isfinite(t))
			continue;
		fold(a, CAT_SPAN, kind, name, "ns", t, pr_mnum(v, PRK_SPANS_ITEMS_COUNT), rank);
		sp[nsp++] = v;
		if (pr_kclass_is_collective(name)) { /* the one classification (kclass.h) */
			json_t *old = json_object_get(coll, name),
			       *ps = json_object_get(v, PRK_SPANS_ITEMS_PER_STEP_NS), *x;
			double prev = old ? json_number_value(old) : 0;
			struct agg_arrival *ar;
			size_t k;
			if (json_array_size(ps) &&
			    (ar = pr_agg_arrival_get(a, kind ? kind : "", name,
						     json_array_size(ps))))
				json_array_foreach (ps, k, x)
					pr_agg_arrival_note(ar, k, json_number_value(x), rank);
			json_object_set_new(coll, name, pr_jnum(prev + t));
			coll_ns += t;
			any_coll = 1;
		}
	}
	if (any_coll) {
		const char *k;
		json_t *x;
		json_object_foreach (coll, k, x)
			fold(a, CAT_COLLECTIVE, "", k, "ns", json_number_value(x), 1, rank);
		fold(a, CAT_COLLECTIVE, "", "(all collectives)", "ns", coll_ns, 1, rank);
	}
	json_object_set_new(row, "collectives", coll);
	json_object_set_new(row, "collective_ns", any_coll ? pr_jnum(coll_ns) : json_null());
	/* bus bandwidth per collective (Kineto's collective args): the late rank shows the transfer's */
	json_array_foreach (json_object_get(json_object_get(run, PRK_COLLECTIVES),
					    PRK_COLLECTIVES_ITEMS),
			    i, cv) {
		const char *name =
			json_string_value(json_object_get(cv, PRK_COLLECTIVES_ITEMS_NAME));
		double bw = pr_mnum(cv, PRK_COLLECTIVES_ITEMS_BUSBW_BPS);
		if (name && isfinite(bw)) {
			struct pr_strbuf n = PR_STRBUF_INIT;
			pr_strbuf_addstr(&n, "busbw: ");
			pr_strbuf_addstr(&n, name);
			fold(a, CAT_COLLECTIVE, "", n.buf, "bytes_per_s", bw,
			     pr_mnum(cv, PRK_COLLECTIVES_ITEMS_SIZED_CALLS), rank);
			pr_strbuf_release(&n);
		}
	}
	qsort(sp, nsp, sizeof(sp[0]), cmp_total_desc);
	top = json_array();
	for (i = 0; i < nsp && i < TOP_SPANS; i++) {
		json_t *t = json_object();
		json_object_set(t, "name", json_object_get(sp[i], PRK_SPANS_ITEMS_NAME));
		json_object_set(t, "kind", json_object_get(sp[i], PRK_SPANS_ITEMS_KIND));
		json_object_set_new(t, "count", pr_jnum(pr_mnum(sp[i], PRK_SPANS_ITEMS_COUNT)));
		json_object_set_new(t, "total_ns",
				    pr_jnum(pr_mnum(sp[i], PRK_SPANS_ITEMS_TOTAL_NS)));
		json_array_append_new(top, t);
	}
	free(sp);
	json_object_set_new(row, "top_spans", top);
}

/* The row's "peaks" (per series and device) and the reported metrics, folded. */
static void fold_peaks(struct pr_agg *a, const json_t *run, json_t *row, long rank)
{
	const json_t *v;
	json_t *peaks;
	size_t i;

	peaks = json_array();
	json_array_foreach (json_object_get(run, PRK_PEAKS), i, v) {
		const char *series = json_string_value(json_object_get(v, PRK_PEAKS_SERIES));
		const char *dev = json_string_value(json_object_get(v, PRK_PEAKS_DEVICE));
		const char *unit = json_string_value(json_object_get(v, PRK_PEAKS_UNIT));
		json_t *p;
		if (!series || !isfinite(pr_mnum(v, PRK_PEAKS_VALUE)))
			continue;
		p = json_object();
		json_object_set_new(p, "series", json_string(series));
		json_object_set_new(p, "device", json_string(dev ? dev : ""));
		json_object_set_new(p, "unit", json_string(unit ? unit : ""));
		json_object_set_new(p, "value", pr_jnum(pr_mnum(v, PRK_PEAKS_VALUE)));
		json_array_append_new(peaks, p);
		fold(a, CAT_PEAK, dev ? dev : "", series, unit, pr_mnum(v, PRK_PEAKS_VALUE), 1,
		     rank);
	}
	json_object_set_new(row, "peaks", peaks);

	/* measurements only: not a recommendation's priority (Inferix's 3/2/1), and not GPU
	 * numbers the run's own diagnostics call meaningless (all-zero GPU snapshots) */
	json_array_foreach (json_object_get(run, PRK_REPORTED), i, v) {
		const char *name = json_string_value(json_object_get(v, PRK_REPORTED_NAME));
		const char *unit = json_string_value(json_object_get(v, PRK_REPORTED_UNIT));
		if (!name || !strcmp(name, "recommendation") ||
		    !strcmp(unit ? unit : "", "priority"))
			continue;
		if (pr_agg_gpu_meaningless(run) && pr_agg_gpu_metric(name))
			continue;
		fold(a, CAT_METRIC, "", name, unit, pr_mnum(v, PRK_REPORTED_VALUE), 1, rank);
	}
}

/*
 * Every path of a run object that pr_agg_add_model_run and its folds read
 * (pr_agg_inferix_part and pr_agg_gpu_meaningless too): "a.b" is key b of
 * object a, "a[].b" key b of each item of array a; a path's value is kept
 * whole (critical_path.composition_ns: every class). A path the fold starts
 * to read must be added here: t0166-agg-jobs-slim.sh compares -j 1 (the
 * whole run) with -j 2 and 4 (this slim) over inputs that reach every one.
 */
#define PG(k) PRK_GPU_BREAKDOWN "." k
static const char *const slim_paths[] = {
	PRK_CLOCK "." PRK_CLOCK_DURATION_NS,
	PRK_COLLECTIVES "." PRK_COLLECTIVES_ITEMS "[]." PRK_COLLECTIVES_ITEMS_NAME,
	PRK_COLLECTIVES "." PRK_COLLECTIVES_ITEMS "[]." PRK_COLLECTIVES_ITEMS_BUSBW_BPS,
	PRK_COLLECTIVES "." PRK_COLLECTIVES_ITEMS "[]." PRK_COLLECTIVES_ITEMS_SIZED_CALLS,
	PRK_CONTENT_HASH,
	PRK_CRITICAL_PATH "." PRK_CRITICAL_PATH_LENGTH_NS,
	PRK_CRITICAL_PATH "." PRK_CRITICAL_PATH_STEPS_ANALYSED,
	PRK_CRITICAL_PATH "." PRK_CRITICAL_PATH_COMPOSITION_NS,
	PRK_DIAGNOSTICS "[]." PRK_DIAGNOSTICS_CODE,
	PRK_FORMAT,
	PG(PRK_GPU_BREAKDOWN_RANK "." PRK_GPU_BREAKDOWN_RANK_SPAN_NS),
	PG(PRK_GPU_BREAKDOWN_RANK "." PRK_GPU_BREAKDOWN_RANK_BUSY_NS),
	PG(PRK_GPU_BREAKDOWN_RANK "." PRK_GPU_BREAKDOWN_RANK_COMPUTE_NS),
	PG(PRK_GPU_BREAKDOWN_RANK "." PRK_GPU_BREAKDOWN_RANK_COMMUNICATION_NS),
	PG(PRK_GPU_BREAKDOWN_RANK "." PRK_GPU_BREAKDOWN_RANK_MEMORY_NS),
	PG(PRK_GPU_BREAKDOWN_RANK "." PRK_GPU_BREAKDOWN_RANK_IDLE_NS),
	PG(PRK_GPU_BREAKDOWN_IDLE "." PRK_GPU_BREAKDOWN_IDLE_HOST_WAIT_NS),
	PG(PRK_GPU_BREAKDOWN_IDLE "." PRK_GPU_BREAKDOWN_IDLE_KERNEL_WAIT_NS),
	PG(PRK_GPU_BREAKDOWN_IDLE "." PRK_GPU_BREAKDOWN_IDLE_OTHER_NS),
	PG(PRK_GPU_BREAKDOWN_IDLE "." PRK_GPU_BREAKDOWN_IDLE_LAUNCH_LINKED_SHARE),
	PG(PRK_GPU_BREAKDOWN_OVERLAP "." PRK_GPU_BREAKDOWN_OVERLAP_COMMUNICATION_NS),
	PG(PRK_GPU_BREAKDOWN_OVERLAP "." PRK_GPU_BREAKDOWN_OVERLAP_OVERLAPPED_NS),
	PG(PRK_GPU_BREAKDOWN_SCOPES "." PRK_GPU_BREAKDOWN_SCOPES_LINKED
				    "." PRK_GPU_BREAKDOWN_SCOPES_LINKED_OPS),
	PG(PRK_GPU_BREAKDOWN_SCOPES "." PRK_GPU_BREAKDOWN_SCOPES_LINKED
				    "." PRK_GPU_BREAKDOWN_SCOPES_LINKED_BUSY_NS),
	PG(PRK_GPU_BREAKDOWN_SCOPES "." PRK_GPU_BREAKDOWN_SCOPES_LINKED
				    "." PRK_GPU_BREAKDOWN_SCOPES_LINKED_IDLE_NS),
	PG(PRK_GPU_BREAKDOWN_SCOPES "." PRK_GPU_BREAKDOWN_SCOPES_LINKED
				    "." PRK_GPU_BREAKDOWN_SCOPES_LINKED_TOTAL_NS),
	PRK_PEAKS "[]." PRK_PEAKS_SERIES,
	PRK_PEAKS "[]." PRK_PEAKS_DEVICE,
	PRK_PEAKS "[]." PRK_PEAKS_UNIT,
	PRK_PEAKS "[]." PRK_PEAKS_VALUE,
	PRK_PERF_MODEL "." PRK_PERF_MODEL_CATEGORIES "[]." PRK_PERF_MODEL_CATEGORIES_CATEGORY,
	PRK_PERF_MODEL "." PRK_PERF_MODEL_CATEGORIES "[]." PRK_PERF_MODEL_CATEGORIES_DEVICE_NS,
	PRK_PHASES "." PRK_PHASES_TOTALS "[]." PRK_PHASES_TOTALS_NAME,
	PRK_PHASES "." PRK_PHASES_TOTALS "[]." PRK_PHASES_TOTALS_TOTAL_NS,
	PRK_PHASES "." PRK_PHASES_TOTALS "[]." PRK_PHASES_TOTALS_COUNT,
	PRK_PHASES "." PRK_PHASES_STAGES "[]." PRK_PHASES_STAGES_NAME,
	PRK_PHASES "." PRK_PHASES_STAGES "[]." PRK_PHASES_STAGES_TOTAL_NS,
	PRK_PHASES "." PRK_PHASES_STAGES "[]." PRK_PHASES_STAGES_COUNT,
	PRK_RANK,
	PRK_REPORTED "[]." PRK_REPORTED_NAME,
	PRK_REPORTED "[]." PRK_REPORTED_UNIT,
	PRK_REPORTED "[]." PRK_REPORTED_VALUE,
	PRK_SOURCE,
	PRK_SPANS "." PRK_SPANS_ITEMS "[]." PRK_SPANS_ITEMS_NAME,
	PRK_SPANS "." PRK_SPANS_ITEMS "[]." PRK_SPANS_ITEMS_KIND,
	PRK_SPANS "." PRK_SPANS_ITEMS "[]." PRK_SPANS_ITEMS_COUNT,
	PRK_SPANS "." PRK_SPANS_ITEMS "[]." PRK_SPANS_ITEMS_TOTAL_NS,
	PRK_SPANS "." PRK_SPANS_ITEMS "[]." PRK_SPANS_ITEMS_PER_STEP_NS,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_STEPS "." PRK_THROUGHPUT_STEPS_NAME,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_STEPS "." PRK_THROUGHPUT_STEPS_COUNT,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_STEPS "." PRK_THROUGHPUT_STEPS_MEAN_NS,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_STEPS "." PRK_THROUGHPUT_STEPS_P50_NS,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_STEPS "." PRK_THROUGHPUT_STEPS_MIN_NS,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_STEPS "." PRK_THROUGHPUT_STEPS_MAX_NS,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_STEPS "." PRK_THROUGHPUT_STEPS_PER_S,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_BLOCKS "." PRK_THROUGHPUT_BLOCKS_FPS,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_BLOCKS "." PRK_THROUGHPUT_BLOCKS_BPS,
	PRK_THROUGHPUT "." PRK_THROUGHPUT_TOKENS "." PRK_THROUGHPUT_TOKENS_TOKENS_PER_S,
	PRK_WORLD_SIZE,
};
#undef PG
#define NSLIM (sizeof(slim_paths) / sizeof(slim_paths[0]))

/* The length of a path's first key (up to '.', "[]" or its end). */
static size_t path_key_len(const char *p)
{
	return strcspn(p, ".[");
}

/* What is left of path p after its first key (or "[]") of n bytes: its leading '.' skipped. */
static const char *path_rest(const char *p, size_t n)
{
	p += n;
	return *p == '.' ? p + 1 : p;
}

/*
 * v pruned to the n paths (relative to v) of sfx: a new value holding only
 * what they reach, references to v's leaves. An empty path, or a value whose
 * type is not the one the paths take (a number where they name keys), is
 * kept whole: what the fold reads of it is then the same.
 */
static json_t *slim_of(json_t *v, const char *const *sfx, size_t n)
{
	const char *sub[NSLIM];
	size_t i, m = 0;
	for (i = 0; i < n; i++)
		if (!*sfx[i])
			return json_incref(v);
	if (json_is_array(v)) {
		json_t *o, *x;
		for (i = 0; i < n; i++)
			if (!strncmp(sfx[i], "[]", 2))
				sub[m++] = path_rest(sfx[i], 2);
		if (m < n)
			return json_incref(v);
		o = json_array();
		json_array_foreach (v, i, x)
			json_array_append_new(o, slim_of(x, sub, m));
		return o;
	}
	if (json_is_object(v)) {
		const char *key;
		json_t *o = json_object(), *x;
		for (i = 0; i < n; i++)
			if (!path_key_len(sfx[i])) /* "[]" of an object */
				break;
		if (i < n) {
			json_decref(o);
			return json_incref(v);
		}
		json_object_foreach (v, key, x) {
			size_t kn = strlen(key);
			for (i = m = 0; i < n; i++)
				if (path_key_len(sfx[i]) == kn && !strncmp(sfx[i], key, kn))
					sub[m++] = path_rest(sfx[i], kn);
			if (m)
				json_object_set_new(o, key, slim_of(x, sub, m));
		}
		return o;
	}
	return json_incref(v);
}

/* The keys of a run's store meta that the fold reads (pr_agg_add_model_run,
 * pr_agg_inferix_part). */
static const char *const slim_meta_keys[] = {
	"inferix_file", /* keys: run meta */
	"session_id",	/* keys: run meta */
};

json_t *pr_agg_meta_slim(const json_t *meta)
{
	json_t *o = json_object();
	size_t i;
	for (i = 0; i < sizeof(slim_meta_keys) / sizeof(slim_meta_keys[0]); i++) {
		json_t *v = json_object_get(meta, slim_meta_keys[i]);
		if (v)
			json_object_set(o, slim_meta_keys[i], v);
	}
	return o;
}

json_t *pr_agg_run_slim(const json_t *run)
{
	return slim_of((json_t *)run, slim_paths, NSLIM);
}

int pr_agg_add_model_run(struct pr_agg *a, const json_t *run, const json_t *meta, const char *path,
			 struct pr_error *err)
{
	const char *format = json_string_value(json_object_get(run, PRK_FORMAT));
	const char *src = path ? path : json_string_value(json_object_get(run, PRK_SOURCE));
	const char *rsrc = "trace";
	const json_t *v;
	json_t *row;
	long rank = -1;

	if (!json_is_object(run))
		return pr_error_set(err, PR_E_PARSE, "model run is not an object");
	if (format && !strcmp(format, "inferix")) {
		/* keys: run meta - the store's meta of the run, open in the schema (docs/formats.md) */
		const char *kind = json_string_value(json_object_get(meta, "inferix_file"));
		if (kind && !strcmp(kind, "raw"))
			return 0;
	}
	if (is_duplicate(a, run, src))
		return 0;
	if (run_rank(a, run, src, &rank, &rsrc, err))
		return -1;
	if (same_job(a, run, src, err))
		return -1;

	row = json_object();
	json_object_set_new(row, "rank", json_integer(rank));
	json_object_set_new(row, "rank_source", json_string(rsrc));
	json_object_set(row, "world_size",
			json_is_integer(json_object_get(run, PRK_WORLD_SIZE))
				? json_object_get(run, PRK_WORLD_SIZE)
				: json_null());
	json_object_set_new(row, "source", json_string(src ? src : ""));
	json_object_set_new(row, "format", json_string(format ? format : ""));
	if (json_is_string(json_object_get(run, PRK_CONTENT_HASH)))
		json_object_set(row, "content_hash", json_object_get(run, PRK_CONTENT_HASH));

	v = json_object_get(run, PRK_CLOCK);
	json_object_set_new(row, "duration_ns", pr_jnum(pr_mnum(v, PRK_CLOCK_DURATION_NS)));
	fold(a, CAT_RUN, "", "duration", "ns", pr_mnum(v, PRK_CLOCK_DURATION_NS), 1, rank);

	fold_throughput(a, run, row, rank);
	fold_stages(a, run, row, rank);
	fold_spans(a, run, row, rank);
	fold_peaks(a, run, row, rank);
	json_object_set_new(row, "gpu", gpu_part(a, run, rank));
	{
		json_t *perf = perf_part(a, run, rank);
		if (perf)
			json_object_set_new(row, "perf", perf);
	}
	{
		json_t *cp = critpath_part(a, run, rank);
		if (cp)
			json_object_set_new(row, "critical_path", cp);
	}
	if (format && !strcmp(format, "inferix"))
		json_object_set_new(row, "inferix", pr_agg_inferix_part(run, meta));

	if (pr_agg_add_row(a, rank, src, row, err))
		return -1;
	return 1;
}

/* ---- from a store ----------------------------------------------------- */

static json_t *run_meta(struct pr_store *st, long id)
{
	sqlite3 *db = pr_store_db(st);
	sqlite3_stmt *s = NULL;
	json_t *meta = NULL;
	if (sqlite3_prepare_v2(db, "SELECT meta FROM run WHERE id = ?", -1, &s, NULL) ==
	    SQLITE_OK) {
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

int pr_agg_store_models(struct pr_store *st, long run_id, pr_agg_model_fn *fn, void *ctx,
			struct pr_error *err)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	sqlite3 *db = pr_store_db(st);
	sqlite3_stmt *s = NULL;
	int folded = 0, rc;
	if (sqlite3_prepare_v2(db, "SELECT id FROM run WHERE id BETWEEN ?1 AND ?2 ORDER BY id", -1,
			       &s, NULL) != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	/* one run, or (0) all: a range on the rowid, which a store of 10 000 runs
	 * reads by its key, where "?1 = 0 OR id = ?1" scanned the whole table */
	sqlite3_bind_int64(s, 1, run_id ? (int64_t)run_id : INT64_MIN);
	sqlite3_bind_int64(s, 2, run_id ? (int64_t)run_id : INT64_MAX);
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
		r = fn(ctx, st, id, json_array_get(json_object_get(model, PRK_RUNS), 0), meta, err);
		json_decref(meta);
		json_decref(model);
		if (r < 0) {
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

struct add_ctx {
	struct pr_agg *a;
	const char *path;
};

static int add_one(void *ctx, struct pr_store *st, long id, const json_t *run, const json_t *meta,
		   struct pr_error *err)
{
	struct add_ctx *c = ctx;
	struct pr_agg *a = c->a;
	int r = pr_agg_add_model_run(a, run, meta, c->path, err);
	if (r < 0 || (r > 0 && a->on_run &&
		      a->on_run(a->on_run_ctx, st, id, a->rows[a->nrows - 1].rank, err)))
		return -1;
	return r;
}

int pr_agg_add_store(struct pr_agg *a, struct pr_store *st, long run_id, const char *path,
		     struct pr_error *err)
{
	struct add_ctx c = { a, path };
	return pr_agg_store_models(st, run_id, add_one, &c, err);
}

/* ---- merging ---------------------------------------------------------- */

int pr_agg_merge(struct pr_agg *into, const struct pr_agg *from, struct pr_error *err)
{
	size_t i, k, base = into->nrows;
	for (i = 0; i < from->nst; i++) {
		const struct agg_stat *f = &from->st[i];
		pr_agg_stat_merge(pr_agg_stat_get(into, f->cat, f->kind, f->name, f->unit), f);
	}
	for (i = 0; i < from->narr; i++) {
		const struct agg_arrival *f = &from->arr[i];
		struct agg_arrival *t = pr_agg_arrival_get(into, f->kind, f->name, f->n);
		for (k = 0; t && k < f->n; k++)
			pr_agg_arrival_note(t, k, f->least[k], f->rank[k]);
	}
	for (i = 0; i < from->nrows; i++) {
		if (rank_used(into, from->rows[i].rank))
			pr_agg_warnf(into, "rank %ld appears in more than one input",
				     from->rows[i].rank);
		if (row_copy(into, from, &from->rows[i], err))
			return -1;
	}
	for (i = 0; i < from->ncols; i++) {
		const struct agg_col *f = &from->cols[i];
		struct agg_col *t = pr_agg_col_get(into, f->field, f->name);
		for (k = 0; k < f->n; k++)
			col_add(t, (uint32_t)(base + f->row[k]), f->val[k]);
	}
	for (i = 0; i < json_array_size(from->warnings); i++)
		pr_agg_warnf(into, "%s", json_string_value(json_array_get(from->warnings, i)));
	into->inferred |= from->inferred;
	if (from->world_size > into->world_size)
		into->world_size = from->world_size;
	return 0;
}

/* ---- rows in rank order ---------------------------------------------- */

/* By rank, then the order added (rows lie in one array). */
static int cmp_row(const void *x, const void *y)
{
	const struct agg_row *const *a = x, *const *b = y;
	if ((*a)->rank != (*b)->rank)
		return (*a)->rank < (*b)->rank ? -1 : 1;
	return (*a < *b) ? -1 : (*a > *b);
}

struct src_row {
	struct agg_row *r;
	char *src;
};

/* By source, then the order added. */
static int cmp_src_row(const void *x, const void *y)
{
	const struct src_row *a = x, *b = y;
	int c = strcmp(a->src, b->src);
	if (c)
		return c;
	return (a->r < b->r) ? -1 : (a->r > b->r);
}

struct agg_row **pr_agg_rows_sorted(const struct pr_agg *a, size_t *distinct)
{
	struct agg_row **rv = pr_xcalloc(a->nrows + 1, sizeof(rv[0]));
	size_t i, j, k;
	for (i = 0; i < a->nrows; i++)
		rv[i] = &a->rows[i];
	qsort(rv, a->nrows, sizeof(rv[0]), cmp_row);
	*distinct = 0;
	for (i = 0; i < a->nrows; i = j) {
		(*distinct)++;
		for (j = i + 1; j < a->nrows && rv[j]->rank == rv[i]->rank; j++)
			;
		if (j - i > 1) {
			/* one rank in several inputs (merged agg.json files): by source, read back */
			struct src_row *sr = pr_xcalloc(j - i, sizeof(sr[0]));
			for (k = i; k < j; k++) {
				const char *s = pr_agg_row_source(a, rv[k]);
				sr[k - i].r = rv[k];
				sr[k - i].src = pr_xstrdup(s ? s : "");
			}
			qsort(sr, j - i, sizeof(sr[0]), cmp_src_row);
			for (k = i; k < j; k++) {
				rv[k] = sr[k - i].r;
				free(sr[k - i].src);
			}
			free(sr);
		}
	}
	return rv;
}
/* ---- files ------------------------------------------------------------ */

int pr_agg_sniff(const char *path)
{
	return pr_json_head_names_schema(path, 4095, PR_AGG_SCHEMA);
}
