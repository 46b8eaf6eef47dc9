/* xsort.c - an external stable sort of fixed-size records (xsort.h). */
#include "base/xsort.h"

#include <stdlib.h>
#include <string.h>

#include "base/spill.h"
#include "base/xalloc.h"

size_t pr_xsort_mem = (size_t)8 << 20;

#define XSORT_WRITE_BUF ((size_t)64 << 10) /* the scratch file's write buffer */
#define XSORT_READ_MIN ((size_t)4 << 10)   /* the least read buffer of a run while merging */

struct xrun {		    /* a run of the scratch file, while merging */
	uint64_t next, end; /* its records not yet in b, as record numbers in the file */
	unsigned char *b;   /* its read buffer: len records, pos the current one */
	size_t len, pos;
	uint64_t key; /* the current record's key */
};

struct pr_xsort {
	const char *what;
	size_t rec, cap;    /* bytes a record, records a buffer */
	uint64_t flip;	    /* xor-ed into the keys: the sign bit for PR_XSORT_SIGNED */
	unsigned char *buf; /* the records not yet in a run */
	size_t n;
	uint64_t count;
	uint32_t *idx; /* one run only, reading: buf's sorted order */
	size_t pos;
	struct pr_spill *file; /* the runs, one after another; NULL: none written */
	uint64_t *run_end;     /* in records: run r is [run_end[r - 1], run_end[r]) */
	size_t nruns, run_cap;
	int reading, misuse;
	int failed;	   /* a write or read of the file failed (the file keeps the error) */
	struct xrun *runs; /* merging */
	size_t per;	   /* records a run's read buffer holds */
	unsigned char *rbuf;
	size_t *heap, nheap; /* runs with records left, by (key, run) */
	int have_top;	     /* the heap's top record was handed out: advance it first */
};

struct pr_xsort *pr_xsort_new(const char *what, size_t rec_size, size_t mem, unsigned flags)
{
	struct pr_xsort *xs = pr_xcalloc(1, sizeof(*xs));
	xs->what = what;
	xs->rec = rec_size;
	xs->cap = (mem ? mem : pr_xsort_mem) / xs->rec;
	if (!xs->cap)
		xs->cap = 1;
	if (xs->cap > UINT32_MAX)
		xs->cap = UINT32_MAX;
	xs->flip = flags & PR_XSORT_SIGNED ? (uint64_t)1 << 63 : 0;
	return xs;
}

static uint64_t key_of(const struct pr_xsort *xs, const unsigned char *rec)
{
	uint64_t k;
	memcpy(&k, rec, sizeof(k));
	return k ^ xs->flip;
}

void pr_radix_u64(uint64_t *k, uint32_t *idx, size_t n)
{
	size_t(*cnt)[256], i, b;
	uint64_t *ks = k, *kd, *ktmp, *kx;
	uint32_t *is = idx, *id = NULL, *itmp = NULL, *ix;
	if (n < 2)
		return;
	for (i = 1; i < n && k[i - 1] <= k[i]; i++)
		;
	if (i == n)
		return; /* in order already: the (stable) sort would keep every key and idx */
	cnt = pr_xcalloc(8, sizeof(*cnt));
	for (i = 0; i < n; i++) {
		uint64_t v = k[i];
		for (b = 0; b < 8; b++)
			cnt[b][(v >> (8 * b)) & 0xff]++;
	}
	ktmp = kd = pr_xreallocarray(NULL, n, sizeof(*kd));
	if (idx)
		itmp = id = pr_xreallocarray(NULL, n, sizeof(*id));
	for (b = 0; b < 8; b++) {
		size_t sum = 0, d, c;
		unsigned sh = (unsigned)(8 * b);
		if (cnt[b][(ks[0] >> sh) & 0xff] == n)
			continue; /* one value of this byte in every key */
		for (d = 0; d < 256; d++) {
			c = cnt[b][d];
			cnt[b][d] = sum;
			sum += c;
		}
		if (idx) {
			for (i = 0; i < n; i++) {
				size_t to = cnt[b][(ks[i] >> sh) & 0xff]++;
				kd[to] = ks[i];
				id[to] = is[i];
			}
			ix = is;
			is = id;
			id = ix;
		} else {
			for (i = 0; i < n; i++)
				kd[cnt[b][(ks[i] >> sh) & 0xff]++] = ks[i];
		}
		kx = ks;
		ks = kd;
		kd = kx;
	}
	if (ks != k) {
		memcpy(k, ks, n * sizeof(*k));
		if (idx)
			memcpy(idx, is, n * sizeof(*idx));
	}
	free(ktmp);
	free(itmp);
	free(cnt);
}

/* Sorts buf's records: xs->idx, their order. */
static void sort_buffer(struct pr_xsort *xs)
{
	uint64_t *keys = pr_xreallocarray(NULL, xs->n ? xs->n : 1, sizeof(*keys));
	size_t i;
	xs->idx = pr_xreallocarray(xs->idx, xs->n ? xs->n : 1, sizeof(*xs->idx));
	for (i = 0; i < xs->n; i++) {
		keys[i] = key_of(xs, xs->buf + i * xs->rec);
		xs->idx[i] = (uint32_t)i;
	}
	pr_radix_u64(keys, xs->idx, xs->n);
	free(keys);
}

/* Sorts buf and writes it to the scratch file as the next run. */
static int write_run(struct pr_xsort *xs)
{
	size_t i;
	sort_buffer(xs);
	if (!xs->file)
		xs->file = pr_spill_new(xs->what, XSORT_WRITE_BUF);
	for (i = 0; i < xs->n; i++)
		if (pr_spill_put(xs->file, xs->buf + (size_t)xs->idx[i] * xs->rec, xs->rec)) {
			xs->failed = 1;
			return -1;
		}
	if (xs->nruns == xs->run_cap) {
		xs->run_cap = xs->run_cap ? xs->run_cap * 2 : 16;
		xs->run_end = pr_xreallocarray(xs->run_end, xs->run_cap, sizeof(*xs->run_end));
	}
	xs->run_end[xs->nruns] = (xs->nruns ? xs->run_end[xs->nruns - 1] : 0) + xs->n;
	xs->nruns++;
	xs->n = 0;
	return 0;
}

int pr_xsort_put(struct pr_xsort *xs, const void *rec)
{
	if (xs->reading) {
		xs->misuse = 1;
		return -1;
	}
	if (xs->failed)
		return -1;
	if (!xs->buf)
		xs->buf = pr_xreallocarray(NULL, xs->cap, xs->rec);
	if (xs->n == xs->cap && write_run(xs))
		return -1;
	memcpy(xs->buf + xs->n * xs->rec, rec, xs->rec);
	xs->n++;
	xs->count++;
	return 0;
}

int pr_xsort_failed(const struct pr_xsort *xs, struct pr_error *err)
{
	if (xs->misuse)
		return pr_error_set(err, PR_E_IO, "sort of %s: a record put after the sort",
				    xs->what);
	return xs->file ? pr_spill_failed(xs->file, err) : 0;
}

/* Reads the next records of run r into its buffer: 0, or -1 (the file's error). */
static int refill(struct pr_xsort *xs, struct xrun *r)
{
	uint64_t left = r->end - r->next;
	size_t k = left < xs->per ? (size_t)left : xs->per;
	if (pr_spill_read_at(xs->file, r->next * xs->rec, r->b, k * xs->rec)) {
		xs->failed = 1;
		return -1;
	}
	r->next += k;
	r->len = k;
	r->pos = 0;
	r->key = key_of(xs, r->b);
	return 0;
}

/* Is run a's current record before run b's (ties: the earlier run)? */
static int before(const struct pr_xsort *xs, size_t a, size_t b)
{
	const struct xrun *x = &xs->runs[a], *y = &xs->runs[b];
	return x->key < y->key || (x->key == y->key && a < b);
}

static void sift_down(struct pr_xsort *xs, size_t i)
{
	size_t *h = xs->heap, n = xs->nheap;
	for (;;) {
		size_t l = 2 * i + 1, m = i, t;
		if (l < n && before(xs, h[l], h[m]))
			m = l;
		if (l + 1 < n && before(xs, h[l + 1], h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/* Read buffers of mem bytes in all (each at least XSORT_READ_MIN), filled; the heap built. */
static int start_merge(struct pr_xsort *xs)
{
	size_t r, i, per = xs->cap * xs->rec / xs->nruns;
	if (per < XSORT_READ_MIN)
		per = XSORT_READ_MIN;
	per /= xs->rec;
	xs->per = per ? per : 1;
	per = xs->per;
	xs->runs = pr_xcalloc(xs->nruns, sizeof(*xs->runs));
	xs->rbuf = pr_xreallocarray(NULL, xs->nruns, per * xs->rec);
	xs->heap = pr_xreallocarray(NULL, xs->nruns, sizeof(*xs->heap));
	for (r = 0; r < xs->nruns; r++) {
		struct xrun *x = &xs->runs[r];
		x->next = r ? xs->run_end[r - 1] : 0;
		x->end = xs->run_end[r];
		x->b = xs->rbuf + r * per * xs->rec;
		if (refill(xs, x))
			return -1;
		xs->heap[xs->nheap++] = r; /* every run holds a record */
	}
	for (i = xs->nheap / 2; i-- > 0;)
		sift_down(xs, i);
	return 0;
}

int pr_xsort_sort(struct pr_xsort *xs, struct pr_error *err)
{
	if (xs->reading)
		return pr_error_set(err, PR_E_IO, "sort of %s: sorted twice", xs->what);
	xs->reading = 1;
	if (pr_xsort_failed(xs, err))
		return -1;
	if (!xs->file) { /* one run: read in place */
		sort_buffer(xs);
		xs->pos = 0;
		return 0;
	}
	if (xs->n && write_run(xs))
		return pr_xsort_failed(xs, err);
	free(xs->buf);
	free(xs->idx);
	xs->buf = NULL;
	xs->idx = NULL;
	if (start_merge(xs))
		return pr_xsort_failed(xs, err);
	return 0;
}

const void *pr_xsort_next(struct pr_xsort *xs)
{
	struct xrun *r;
	if (!xs->reading || xs->misuse)
		return NULL;
	if (!xs->file)
		return xs->pos < xs->n ? xs->buf + (size_t)xs->idx[xs->pos++] * xs->rec : NULL;
	if (xs->failed)
		return NULL;
	if (xs->have_top) { /* past the record handed out last */
		r = &xs->runs[xs->heap[0]];
		if (++r->pos < r->len) {
			r->key = key_of(xs, r->b + r->pos * xs->rec);
		} else if (r->next < r->end) {
			if (refill(xs, r))
				return NULL;
		} else {
			xs->heap[0] = xs->heap[--xs->nheap]; /* the run is done */
		}
		sift_down(xs, 0);
	}
	xs->have_top = xs->nheap > 0;
	if (!xs->nheap)
		return NULL;
	r = &xs->runs[xs->heap[0]];
	return r->b + r->pos * xs->rec;
}

uint64_t pr_xsort_count(const struct pr_xsort *xs)
{
	return xs->count;
}

size_t pr_xsort_runs(const struct pr_xsort *xs)
{
	return xs->nruns;
}

void pr_xsort_free(struct pr_xsort *xs)
{
	if (!xs)
		return;
	pr_spill_free(xs->file);
	free(xs->buf);
	free(xs->idx);
	free(xs->run_end);
	free(xs->runs);
	free(xs->rbuf);
	free(xs->heap);
	free(xs);
}
