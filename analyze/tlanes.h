/*
 * tlanes.h - timeline's merged intervals per track (internal to analyze/).
 */
#ifndef PR_TLANES_H
#define PR_TLANES_H

#include <stddef.h>
#include <stdint.h>

#include "base/imap.h"

struct tlane {
	int64_t track, spans;
	int64_t *c; /* the merged intervals as (start, end) pairs, ascending and apart by > gap */
	size_t n, cap;
	int64_t *p; /* spans that came before the last interval's start, merged in batches */
	size_t np, pcap;
};

struct pr_tlanes {
	int64_t gap;
	struct tlane *l;
	size_t n, cap;
	struct pr_imap by_track;
	int64_t last_track;
	size_t last;
	size_t waiting; /* spans waiting in all lanes */
};

/* Timeline's merged intervals per track (an_timeline.c), fed the top-level spans
 * by the shared span pass in any order; gap: ctx->dur / 4000. Free: NULL is fine. */
struct pr_tlanes *pr_tlanes_new(int64_t gap);
void pr_tlanes_row(struct pr_tlanes *t, int64_t track, int64_t ts, int64_t dur);
void pr_tlanes_free(struct pr_tlanes *t);
/* Merges the lane's waiting spans into its intervals (gap g). */
void pr_tlane_merge(struct tlane *l, int64_t g);

#endif
