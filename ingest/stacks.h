/*
 * stacks.h - sampled call stacks as nested spans, and a line reader, for the
 * stack-sample text formats (fmt_folded.c, fmt_perf_script.c).
 *
 * SAMPLES: the layout of speedscope's sampled profiles (fmt_speedscope.c):
 * per track, samples are laid end to end from time 0, each lasting its
 * weight (ns); adjacent samples share the spans of their common stack prefix
 * (root first). A frame's total is then SUM(dur) of its spans and its self
 * weight SUM(self), which the report, `query` and the speedscope export read
 * like any other spans. Frames are told apart by (name, aux): aux is an
 * interned id the caller adds (perf's DSO) or 0; args is the span's JSON
 * args text (or NULL), used when the span is opened.
 *
 *   struct pr_stk *s = pr_stk_new(w, "frame");
 *   pr_stk_sample(s, track, frames, nframes, dur_ns);   (any tracks, any order)
 *   pr_stk_finish(s); pr_stk_free(s);
 *
 * A track's time past PR_STK_MAX_NS gives the diagnostic time_out_of_range
 * once and the samples beyond it are dropped.
 *
 * The stack formats read their text with ingest/lines.h.
 */
#ifndef PR_STACKS_H
#define PR_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "ingest/lines.h"
#include "ingest/source.h"
#include "store/store.h"

#define PR_STK_MAX_NS 4000000000000000000LL /* 4e18 ns: well inside the store's +-2^62 */

struct pr_stk_frame {
	int64_t name; /* interned */
	int64_t aux;  /* interned id that also tells frames apart, or 0 */
	const char *args;
};

struct pr_stk;

struct pr_stk *pr_stk_new(struct pr_writer *w, const char *kind);
/* One sample: frames root first (n may be 0: nothing open), lasting dur >= 0 ns. */
void pr_stk_sample(struct pr_stk *s, int64_t track, const struct pr_stk_frame *f, size_t n,
		   int64_t dur);
/* Closes every open span at its track's end. */
void pr_stk_finish(struct pr_stk *s);
void pr_stk_free(struct pr_stk *s);

#endif
