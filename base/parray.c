/* parray.c - records in memory within a budget, else in a scratch file read in cached blocks (parray.h). */
#include "base/parray.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/spill.h"
#include "base/xalloc.h"

struct slot {
	struct pr_parray *owner; /* NULL: empty */
	uint64_t blk, used;	 /* the block held; when it was last read (the cache's tick) */
	unsigned char *buf;	 /* block bytes, allocated on first use */
};

struct pr_pcache {
	size_t mem_left, block;
	uint64_t tick;
	struct slot slot[PR_PCACHE_SLOTS];
	unsigned char *zero; /* what a failed read gives: block bytes of zeros */
};

struct pr_parray {
	struct pr_pcache *c;
	const char *what;
	size_t rec, per_blk; /* record bytes; records a block (file) */
	uint64_t n;
	/* in memory: cap records allocated, charged bytes taken from the budget */
	unsigned char *mem;
	size_t cap, charged;
	/* in a file: the first key of each block, and the slot of the last block read, which
	 * holds records [wlo, wlo + wn) while its owner is this array and its block wblk */
	struct pr_spill *file;
	int64_t *first;
	size_t nfirst, firstcap;
	int last;
	uint64_t wlo, wn, wblk;
};

struct pr_pcache *pr_pcache_new(size_t mem, size_t block)
{
	struct pr_pcache *c = pr_xcalloc(1, sizeof(*c));
	c->mem_left = mem;
	c->block = block ? block : PR_PCACHE_BLOCK;
	if (c->block < 8)
		c->block = 8;
	c->zero = pr_xcalloc(1, c->block);
	return c;
}

void pr_pcache_free(struct pr_pcache *c)
{
	size_t i;
	if (!c)
		return;
	for (i = 0; i < PR_PCACHE_SLOTS; i++)
		free(c->slot[i].buf);
	free(c->zero);
	free(c);
}

static int64_t key_of(const void *rec)
{
	int64_t k;
	memcpy(&k, rec, sizeof(k));
	return k;
}

/* Takes bytes from the budget: 1, or 0 (not enough left, nothing taken). */
static int charge(struct pr_parray *a, size_t bytes)
{
	if (bytes > a->c->mem_left)
		return 0;
	a->c->mem_left -= bytes;
	a->charged += bytes;
	return 1;
}

static int file_put(struct pr_parray *a, const void *rec)
{
	if (a->n % a->per_blk == 0) {
		if (a->nfirst == a->firstcap) {
			a->firstcap = a->firstcap ? a->firstcap * 2 : 16;
			a->first = pr_xreallocarray(a->first, a->firstcap, sizeof(*a->first));
		}
		a->first[a->nfirst++] = key_of(rec);
	}
	return pr_spill_put(a->file, rec, a->rec);
}

/* From memory to a scratch file: the records so far are written out and their memory given back. */
static void to_file(struct pr_parray *a)
{
	uint64_t i, n = a->n;
	a->file = pr_spill_new(a->what, a->per_blk * a->rec);
	a->n = 0;
	for (i = 0; i < n; i++, a->n++)
		(void)file_put(a, a->mem + i * a->rec); /* a failure is sticky */
	free(a->mem);
	a->mem = NULL;
	a->cap = 0;
	a->c->mem_left += a->charged;
	a->charged = 0;
}

struct pr_parray *pr_parray_new(struct pr_pcache *c, const char *what, size_t rec_size,
				uint64_t expected)
{
	struct pr_parray *a = pr_xcalloc(1, sizeof(*a));
	a->c = c;
	a->what = what;
	/* a record holds its int64 key first and fits a block: anything else is a caller's bug
	 * (it was clamped silently, and the caller read past its records) */
	PR_ASSERT(rec_size >= 8 && rec_size <= c->block);
	a->rec = rec_size;
	a->per_blk = c->block / a->rec;
	a->last = -1;
	if (expected && expected <= SIZE_MAX / a->rec && charge(a, (size_t)expected * a->rec)) {
		a->cap = (size_t)expected;
		a->mem = pr_xmalloc(a->cap * a->rec);
	} else if (expected) {
		a->file = pr_spill_new(what, a->per_blk * a->rec);
	}
	return a;
}

int pr_parray_put(struct pr_parray *a, const void *rec)
{
	if (!a->file && a->n == a->cap) {
		size_t more = a->cap ? a->cap : 16;
		if (a->cap <= SIZE_MAX / a->rec / 2 && charge(a, more * a->rec)) {
			a->cap += more;
			a->mem = pr_xrealloc(a->mem, a->cap * a->rec);
		} else {
			to_file(a);
		}
	}
	if (a->file) {
		int rc = file_put(a, rec);
		a->n++;
		return rc;
	}
	memcpy(a->mem + a->n * a->rec, rec, a->rec);
	a->n++;
	return 0;
}

size_t pr_parray_count(const struct pr_parray *a)
{
	return (size_t)a->n;
}

/* The slot holding block blk of a, read in when it is not there. */
static const unsigned char *block_of(struct pr_parray *a, uint64_t blk)
{
	struct pr_pcache *c = a->c;
	struct slot *s;
	size_t i, victim = 0;
	uint64_t off = blk * a->per_blk, len = a->n - off < a->per_blk ? a->n - off : a->per_blk;
	c->tick++;
	for (i = 0; i < PR_PCACHE_SLOTS; i++) {
		s = &c->slot[i];
		if (s->owner == a && s->blk == blk) {
			victim = i;
			break;
		}
		if (!s->owner || (c->slot[victim].owner && s->used < c->slot[victim].used))
			victim = i;
	}
	s = &c->slot[victim];
	if (i == PR_PCACHE_SLOTS) {
		if (!s->buf)
			s->buf = pr_xmalloc(c->block);
		s->owner = NULL;
		if (pr_spill_read_at(a->file, off * a->rec, s->buf, (size_t)(len * a->rec))) {
			a->last = -1; /* the spill keeps the error */
			return c->zero;
		}
		s->owner = a;
		s->blk = blk;
	}
	s->used = c->tick;
	a->last = (int)victim;
	a->wlo = off;
	a->wn = len;
	a->wblk = blk;
	return s->buf;
}

const void *pr_parray_at(struct pr_parray *a, size_t i)
{
	const struct slot *s;
	PR_ASSERT(i < a->n);
	if (!a->file)
		return a->mem + i * a->rec;
	/* the last block read, while it is still in its slot (the least recently used block
	 * goes first, the recency being that of the reads from a file or other blocks) */
	if (a->last >= 0 && i - a->wlo < a->wn && (s = &a->c->slot[a->last])->owner == a &&
	    s->blk == a->wblk)
		return s->buf + (i - a->wlo) * a->rec;
	return block_of(a, i / a->per_blk) + (i % a->per_blk) * a->rec;
}

/* The first index of [lo, hi) whose key is >= key (hi: none). */
static size_t lower_in(struct pr_parray *a, size_t lo, size_t hi, int64_t key)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_of(pr_parray_at(a, mid)) < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t pr_parray_lower(struct pr_parray *a, int64_t key)
{
	size_t lo = 0, hi, b, end;
	if (!a->file)
		return lower_in(a, 0, (size_t)a->n, key);
	/* b: the first block whose first key is >= key; the answer is in block b - 1 or is b's first */
	hi = a->nfirst;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a->first[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	b = lo;
	if (b == 0)
		return 0;
	end = b * a->per_blk < a->n ? b * a->per_blk : (size_t)a->n;
	return lower_in(a, (b - 1) * a->per_blk, end, key);
}

int pr_parray_failed(const struct pr_parray *a, struct pr_error *err)
{
	return a->file ? pr_spill_failed(a->file, err) : 0;
}

int pr_parray_on_disk(const struct pr_parray *a)
{
	return a->file != NULL;
}

void pr_parray_free(struct pr_parray *a)
{
	size_t i;
	if (!a)
		return;
	for (i = 0; i < PR_PCACHE_SLOTS; i++)
		if (a->c->slot[i].owner == a)
			a->c->slot[i].owner = NULL;
	a->c->mem_left += a->charged;
	pr_spill_free(a->file);
	free(a->first);
	free(a->mem);
	free(a);
}
