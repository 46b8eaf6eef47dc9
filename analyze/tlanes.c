/*
 * tlanes.c - timeline's merged intervals per track (tlanes.h), fed by the
 * shared span pass (spanstat.c) and read by timeline (an_timeline.c); calls
 * nothing of either. How the intervals are merged: an_timeline.c's header.
 */
#include "analyze/tlanes.h"

#include <stdlib.h>
#include <string.h>

#include "base/timecheck.h"
#include "base/xalloc.h"

/* spans out of order merged at once, one sort and one sweep: per lane, and in all lanes */
#define TL_BATCH 4096
#define TL_WAITING (1 << 18)

struct pr_tlanes *pr_tlanes_new(int64_t gap)
{
	struct pr_tlanes *t = pr_xcalloc(1, sizeof(*t));
	t->gap = gap;
	t->last = SIZE_MAX;
	return t;
}

void pr_tlanes_free(struct pr_tlanes *t)
{
	size_t i;
	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->l[i].c);
		free(t->l[i].p);
	}
	free(t->l);
	pr_imap_release(&t->by_track);
	free(t);
}

static struct tlane *tlane_of(struct pr_tlanes *t, int64_t track)
{
	int64_t v;
	if (t->last != SIZE_MAX && t->last_track == track)
		return &t->l[t->last];
	if (!pr_imap_get(&t->by_track, track, &v)) {
		if (t->n == t->cap) { /* doubling: one lane per track, up to 65536 */
			t->cap = t->cap ? t->cap * 2 : 16;
			t->l = pr_xreallocarray(t->l, t->cap, sizeof(*t->l));
		}
		memset(&t->l[t->n], 0, sizeof(t->l[t->n]));
		t->l[t->n].track = track;
		v = (int64_t)t->n++;
		pr_imap_put(&t->by_track, track, v);
	}
	t->last_track = track;
	t->last = (size_t)v;
	return &t->l[v];
}

static void tlane_add(struct tlane *l, int64_t s, int64_t e)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 16;
		l->c = pr_xreallocarray(l->c, l->cap, 2 * sizeof(*l->c));
	}
	l->c[2 * l->n] = s;
	l->c[2 * l->n++ + 1] = e;
}

static int cmp_pair(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The waiting spans sorted and swept together with the intervals, into new intervals. */
void pr_tlane_merge(struct tlane *l, int64_t g)
{
	int64_t *old = l->c;
	size_t nold = l->n, i = 0, j = 0;
	if (!l->np)
		return;
	qsort(l->p, l->np, 2 * sizeof(*l->p), cmp_pair);
	l->c = NULL;
	l->n = l->cap = 0;
	while (i < nold || j < l->np) {
		const int64_t *x = j == l->np || (i < nold && old[2 * i] <= l->p[2 * j])
					   ? &old[2 * i++]
					   : &l->p[2 * j++];
		int64_t *last = l->n ? &l->c[2 * (l->n - 1)] : NULL;
		if (last && x[0] <= last[1] + g) {
			if (x[1] > last[1])
				last[1] = x[1];
		} else {
			tlane_add(l, x[0], x[1]);
		}
	}
	free(old);
	l->np = 0;
}

void pr_tlanes_row(struct pr_tlanes *t, int64_t track, int64_t ts, int64_t dur)
{
	struct tlane *l = tlane_of(t, track);
	int64_t s = ts, e = dur, g = t->gap;
	/* within +-PR_TIME_LIMIT_NS: e, an end + gap and the union (busy) fit in int64 */
	pr_span_clamp(&s, &e);
	e += s;
	l->spans++;
	/* mostly in order: at or after the start of the last interval, it extends it or follows */
	if (!l->n || s >= l->c[2 * (l->n - 1)]) {
		int64_t *last = l->n ? &l->c[2 * (l->n - 1)] : NULL;
		if (last && s <= last[1] + g) {
			if (e > last[1])
				last[1] = e;
		} else {
			tlane_add(l, s, e);
		}
		return;
	}
	/* before it: waits for a batch (the intervals do not depend on the order) */
	if (l->np == l->pcap) {
		l->pcap = l->pcap ? l->pcap * 2 : 64;
		l->p = pr_xreallocarray(l->p, l->pcap, 2 * sizeof(*l->p));
	}
	l->p[2 * l->np] = s;
	l->p[2 * l->np++ + 1] = e;
	t->waiting++;
	if (l->np == TL_BATCH) {
		t->waiting -= l->np;
		pr_tlane_merge(l, g);
	}
	if (t->waiting >= TL_WAITING) { /* many lanes out of order: bounded all the same */
		size_t i;
		for (i = 0; i < t->n; i++)
			pr_tlane_merge(&t->l[i], g);
		t->waiting = 0;
	}
}
