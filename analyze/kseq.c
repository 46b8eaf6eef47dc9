/* kseq.c - frequent kernel sequences (kseq.h). */
#include "analyze/kseq.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/gpuscan.h"
#include "base/jsonx.h"
#include "base/spill.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "base/xsort.h"

size_t pr_kseq_max_ngrams = PR_KSEQ_NGRAMS_DEFAULT;

#define NONE INT64_MIN
#define L_MAX PR_KSEQ_MAX_LEN

/* An activity, sorted by start (48 bytes; the key first). */
struct krec {
	int64_t ts, dur, name, op;
	int64_t seg; /* the step of its call's start (its own without one), -1: none */
	int32_t stream;
	int32_t pad;
};

/* What the names of a listed pattern are read back from (24 bytes an activity). */
struct back {
	int64_t name, op;
	int64_t prev; /* the index of the stream's previous activity, -1 */
};

struct item {
	int64_t name, ts, end, dur;
	int has_op;
};

struct sstate {
	struct item ring[L_MAX];   /* the last n activities, the newest at head - 1 */
	uint64_t prevh[L_MAX + 1]; /* the hashes of the windows ending at the previous one */
	int64_t seg, pos, last_g;
	int n, head, nprev;
};

struct ent {
	uint64_t key, pre, suf; /* the pattern's hash, its two one-shorter pieces' (len >= 4) */
	int64_t kns, gap;	/* summed over the counted occurrences */
	int64_t last;		/* the position of the last counted occurrence's end */
	int64_t first_g, first_t, first_pos; /* the first occurrence: its last activity's
					      * index, its start, its last position */
	int64_t op_g; /* the last activity of the first counted occurrence whose activities all
		       * have an op, -1: none */
	uint32_t count;
	int32_t stream;
	uint8_t len, dropped;
	uint8_t pad[6];
};

struct pr_kseq {
	struct pr_actx *ctx;
	size_t nstreams;
	struct pr_xsort *sort;
	struct pr_spill *back;
	struct sstate *ss;
	struct ent *ents;
	size_t nents, cap;
	uint32_t *slots; /* index + 1 into ents, 0 = empty */
	size_t nslots;
	int64_t nacts, g, over;
	struct pr_gpupart part; /* PR_TIMINGS=parts */
};

struct pr_kseq *pr_kseq_new(struct pr_actx *ctx, size_t nstreams)
{
	struct pr_kseq *k = pr_xcalloc(1, sizeof(*k));
	size_t m = pr_xsort_mem / (sizeof(struct krec) + 24) * sizeof(struct krec);
	k->ctx = ctx;
	k->nstreams = nstreams;
	k->sort = pr_xsort_new("the kernel sequences' activities by start", sizeof(struct krec),
			       m ? m : sizeof(struct krec), PR_XSORT_SIGNED);
	return k;
}

void pr_kseq_free(struct pr_kseq *k)
{
	if (!k)
		return;
	pr_xsort_free(k->sort);
	pr_spill_free(k->back);
	free(k->ss);
	free(k->ents);
	free(k->slots);
	free(k);
}

void pr_kseq_add(struct pr_kseq *k, int32_t stream, int64_t ts, int64_t dur, int64_t name_id,
		 int64_t op_name, int64_t call_ts)
{
	struct krec r;
	if (stream < 0 || (size_t)stream >= k->nstreams)
		return;
	if (pr_gpupart_on())
		pr_gpupart_begin(&k->part);
	memset(&r, 0, sizeof(r));
	r.ts = ts;
	r.dur = dur;
	r.name = name_id;
	r.op = op_name;
	r.stream = stream;
	r.seg = pr_actx_step_index(k->ctx, call_ts != NONE ? call_ts : ts);
	pr_xsort_put(k->sort, &r);
	k->nacts++;
	if (pr_gpupart_on())
		pr_gpupart_end(&k->part);
}

static uint64_t fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

static void add_sat(int64_t *acc, int64_t v)
{
	*acc = v > 0 && *acc > INT64_MAX - v ? INT64_MAX : *acc + v;
}

static void grow(struct pr_kseq *k)
{
	size_t n = k->nslots ? k->nslots * 2 : 1024, i;
	free(k->slots);
	k->slots = pr_xcalloc(n, sizeof(*k->slots));
	k->nslots = n;
	for (i = 0; i < k->nents; i++) {
		size_t s = (size_t)k->ents[i].key & (n - 1);
		while (k->slots[s])
			s = (s + 1) & (n - 1);
		k->slots[s] = (uint32_t)(i + 1);
	}
}

/* The entry of key, NULL when none; with add, made when new (NULL past the budget). */
static struct ent *lookup(struct pr_kseq *k, uint64_t key, int add)
{
	size_t s;
	if (!k->nslots) {
		if (!add)
			return NULL;
		grow(k);
	}
	for (s = (size_t)key & (k->nslots - 1); k->slots[s]; s = (s + 1) & (k->nslots - 1))
		if (k->ents[k->slots[s] - 1].key == key)
			return &k->ents[k->slots[s] - 1];
	if (!add || k->nents >= pr_kseq_max_ngrams)
		return NULL;
	if (k->nents == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 256;
		k->ents = pr_xreallocarray(k->ents, k->cap, sizeof(*k->ents));
	}
	memset(&k->ents[k->nents], 0, sizeof(*k->ents));
	k->ents[k->nents].key = key;
	k->slots[s] = (uint32_t)++k->nents;
	if (k->nents * 2 > k->nslots)
		grow(k);
	return &k->ents[k->nents - 1];
}

/* One activity of the sorted pass: its windows of length 3..16 counted. */
static void step(struct pr_kseq *k, const struct krec *r)
{
	struct sstate *s = &k->ss[r->stream];
	uint64_t h[L_MAX + 1];
	struct back b;
	int64_t kns = 0, gap = 0;
	int L, i, nop = 0;
	if (r->seg != s->seg) { /* a new piece: no window crosses a step's edge */
		s->seg = r->seg;
		s->n = 0;
		s->nprev = 0;
	}
	b.name = r->name;
	b.op = r->op;
	b.prev = s->last_g;
	pr_spill_put(k->back, &b, sizeof(b));
	s->last_g = k->g++;
	s->ring[s->head].name = r->name;
	s->ring[s->head].ts = r->ts;
	s->ring[s->head].dur = r->dur;
	s->ring[s->head].has_op = r->op != 0;
	s->ring[s->head].end = r->ts > INT64_MAX - r->dur ? INT64_MAX : r->ts + r->dur;
	s->head = (s->head + 1) % L_MAX;
	if (s->n < L_MAX)
		s->n++;
	s->pos++;
	h[0] = fmix((uint64_t)r->stream + 0x9e3779b97f4a7c15ULL);
	for (L = 1; L <= s->n; L++) {
		const struct item *it = &s->ring[(s->head - L + L_MAX) % L_MAX];
		struct ent *e;
		int64_t start;
		h[L] = fmix(h[L - 1] ^ ((uint64_t)it->name * 0x9e3779b97f4a7c15ULL + (uint64_t)L));
		add_sat(&kns, it->dur);
		nop += it->has_op;
		if (L > 1) { /* the gap between it and the one after it */
			const struct item *nx = &s->ring[(s->head - L + 1 + L_MAX) % L_MAX];
			if (nx->ts > it->end)
				add_sat(&gap, nx->ts - it->end);
		}
		if (L < PR_KSEQ_MIN_LEN)
			continue;
		if (!(e = lookup(k, h[L] ? h[L] : 1, 1))) {
			k->over++;
			continue;
		}
		start = s->pos - L + 1;
		if (!e->count) {
			e->len = (uint8_t)L;
			e->stream = r->stream;
			e->pre = L > PR_KSEQ_MIN_LEN && L - 1 <= s->nprev ? s->prevh[L - 1] : 0;
			e->suf = L > PR_KSEQ_MIN_LEN ? (h[L - 1] ? h[L - 1] : 1) : 0;
			e->first_g = s->last_g;
			e->first_t = it->ts;
			e->first_pos = s->pos;
			e->op_g = -1;
		} else if (start <= e->last) {
			continue; /* overlaps the last counted occurrence */
		}
		e->count++;
		e->last = s->pos;
		if (e->op_g < 0 && nop == L)
			e->op_g = s->last_g;
		add_sat(&e->kns, kns);
		add_sat(&e->gap, gap);
	}
	for (i = 1; i <= s->n; i++)
		s->prevh[i] = h[i] ? h[i] : 1;
	s->nprev = s->n;
}

/* Ranked: more time, then more occurrences, longer, the stream, the earlier. */
static int cmp_rank(const void *a, const void *b)
{
	const struct ent *x = *(const struct ent *const *)a, *y = *(const struct ent *const *)b;
	if (x->kns != y->kns)
		return x->kns > y->kns ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	return x->first_pos < y->first_pos ? -1 : x->first_pos > y->first_pos;
}

static int overlaps(const struct ent *x, const struct ent *y)
{
	return x->stream == y->stream && x->first_pos - x->len < y->first_pos &&
	       y->first_pos - y->len < x->first_pos;
}

static json_t *name_of(struct pr_kseq *k, sqlite3_stmt *st, int64_t id)
{
	json_t *j = NULL;
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		j = json_string(pr_actx_text(st, 0));
	(void)k;
	return j ? j : json_string("");
}

/* The names and ops of the n activities of a stream ending at index g (names NULL: only ops). */
static int read_back(struct pr_kseq *k, int64_t g, int n, int64_t *names, int64_t *ops,
		     struct pr_error *err)
{
	int i;
	for (i = n - 1; i >= 0; i--) {
		struct back b;
		if (g < 0 || pr_spill_read_at(k->back, (uint64_t)g * sizeof(b), &b, sizeof(b))) {
			if (pr_spill_failed(k->back, err))
				return -1;
			return pr_error_set(err, PR_E_IO,
					    "the kernel sequences: activity %lld not read back",
					    (long long)g);
		}
		if (names)
			names[i] = b.name;
		ops[i] = b.op;
		g = b.prev;
	}
	return 0;
}

/* A listed pattern: its names from its first occurrence, its ops from the first counted one
 * whose activities all have an op (else the first). */
static int item_json(struct pr_kseq *k, sqlite3_stmt *st, const struct ent *e,
		     const char *const *labels, json_t **out, struct pr_error *err)
{
	int64_t names[L_MAX], ops[L_MAX];
	json_t *jn = json_array(), *jo = json_array(), *o;
	int i, j, n = e->len;
	if (read_back(k, e->first_g, n, names, ops, err) ||
	    (e->op_g >= 0 && read_back(k, e->op_g, n, NULL, ops, err))) {
		json_decref(jn);
		json_decref(jo);
		return -1;
	}
	for (i = 0; i < n; i++) {
		json_array_append_new(jn, name_of(k, st, names[i]));
		if (!ops[i])
			continue;
		for (j = 0; j < i && ops[j] != ops[i]; j++)
			;
		if (j == i) /* the ops in the order they first launch */
			json_array_append_new(jo, name_of(k, st, ops[i]));
	}
	o = pr_jobj("stream", json_string(labels[e->stream]), "count", pr_jint(e->count), "length",
		    pr_jint(e->len), "kernel_ns", pr_jint(e->kns), "mean_ns",
		    pr_jnum((double)e->kns / e->count), "gap_ns", pr_jint(e->gap), "gap_mean_ns",
		    pr_jnum((double)e->gap / e->count), "t_ns", pr_actx_t(k->ctx, e->first_t),
		    "label", json_null(), "names", jn, "ops", jo, NULL);
	/* the table's name: the ops, else the first activity's name */
	if (json_array_size(jo)) {
		struct pr_strbuf sb = PR_STRBUF_INIT;
		size_t x;
		json_t *v;
		json_array_foreach (jo, x, v)
			pr_strbuf_addf(&sb, "%s%s", x ? " > " : "", json_string_value(v));
		json_object_set_new(o, "label", json_string(sb.buf));
		pr_strbuf_release(&sb);
	} else {
		json_object_set(o, "label", json_array_get(jn, 0));
	}
	*out = o;
	return 0;
}

static int kseq_finish(struct pr_kseq *k, const char *const *labels, json_t **out,
		       struct pr_error *err);

int pr_kseq_finish(struct pr_kseq *k, const char *const *labels, json_t **out, struct pr_error *err)
{
	int rc;
	if (!pr_gpupart_on())
		return kseq_finish(k, labels, out, err);
	pr_gpupart_begin(&k->part);
	rc = kseq_finish(k, labels, out, err);
	pr_gpupart_end(&k->part);
	pr_gpupart_print("kernel_sequences", &k->part);
	return rc;
}

static int kseq_finish(struct pr_kseq *k, const char *const *labels, json_t **out,
		       struct pr_error *err)
{
	const void *p;
	struct ent **cand = NULL, *top[PR_KSEQ_TOP];
	size_t i, j, nc = 0, ntop = 0, ov = 0;
	int64_t ngrams;
	sqlite3_stmt *st = NULL;
	json_t *items;
	*out = NULL;
	if (pr_xsort_sort(k->sort, err))
		return -1;
	k->ss = pr_xcalloc(k->nstreams ? k->nstreams : 1, sizeof(*k->ss));
	for (i = 0; i < k->nstreams; i++) {
		k->ss[i].seg = NONE;
		k->ss[i].last_g = -1;
	}
	k->back = pr_spill_new("the kernel sequences' names", pr_gpuscan_mem < sizeof(struct back)
								      ? sizeof(struct back)
								      : pr_gpuscan_mem);
	while ((p = pr_xsort_next(k->sort))) {
		struct krec r;
		memcpy(&r, p, sizeof(r));
		step(k, &r);
	}
	if (pr_xsort_failed(k->sort, err) || pr_spill_failed(k->back, err))
		return -1;
	pr_xsort_free(k->sort);
	k->sort = NULL;
	/* a pattern in a one-longer one of its count is in every longer one of that count */
	for (i = 0; i < k->nents; i++) {
		struct ent *e = &k->ents[i], *x;
		if (e->count < 2 || e->len <= PR_KSEQ_MIN_LEN)
			continue;
		if (e->pre && (x = lookup(k, e->pre, 0)) && x->count == e->count)
			x->dropped = 1;
		if (e->suf && (x = lookup(k, e->suf, 0)) && x->count == e->count)
			x->dropped = 1;
	}
	for (i = 0; i < k->nents; i++)
		if (k->ents[i].count >= 2 && !k->ents[i].dropped) {
			cand = pr_xreallocarray(cand, nc + 1, sizeof(*cand));
			cand[nc++] = &k->ents[i];
		}
	if (nc)
		qsort(cand, nc, sizeof(*cand), cmp_rank);
	for (i = 0; i < nc; i++) {
		for (j = 0; j < ntop && !overlaps(cand[i], top[j]); j++)
			;
		if (j < ntop)
			ov++;
		else if (ntop < PR_KSEQ_TOP)
			top[ntop++] = cand[i];
	}
	items = json_array();
	if (ntop && sqlite3_prepare_v2(k->ctx->db, "SELECT value FROM string WHERE id = ?1", -1,
				       &st, NULL) != SQLITE_OK) {
		json_decref(items);
		free(cand);
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(k->ctx->db));
	}
	for (i = 0; i < ntop; i++) {
		json_t *o = NULL;
		if (item_json(k, st, top[i], labels, &o, err)) {
			sqlite3_finalize(st);
			json_decref(items);
			free(cand);
			return -1;
		}
		json_array_append_new(items, o);
	}
	sqlite3_finalize(st);
	free(cand);
	ngrams = (int64_t)k->nents;
	k->ctx->kseq_over = (size_t)k->over;
	*out = pr_jobj(
		"items", items, "patterns", pr_jint((int64_t)nc), "overlapping",
		pr_jint((int64_t)ov), "activities", pr_jint(k->nacts), "pieces",
		json_string(k->ctx->nsteps ? "steps" : "run"), "min_length",
		pr_jint(PR_KSEQ_MIN_LEN), "max_length", pr_jint(PR_KSEQ_MAX_LEN), "ngrams",
		pr_jint(ngrams), "ngrams_max", pr_jint((int64_t)pr_kseq_max_ngrams), "ngrams_over",
		pr_jint(k->over), "rule",
		json_string("per stream its activities (kernels, memcpys, memsets) in start order, "
			    "cut where the step of the launching call (else of the activity) "
			    "changes; patterns of 3-16 names seen at least twice without overlap "
			    "(count: greedy from the left), less one inside a one-longer pattern "
			    "of the same count; ranked by the device time of the counted "
			    "occurrences; listed: the top 10 but one whose first occurrence "
			    "overlaps a listed one's (overlapping); gap: idle time between the "
			    "activities of one occurrence (what fusing them would save)"),
		NULL);
	return 0;
}
