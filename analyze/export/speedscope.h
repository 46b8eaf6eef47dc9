/*
 * speedscope.h - a store as one speedscope file (https://www.speedscope.app,
 * file format of speedscope 1.25.0; shared/REFERENCE.md section 7).
 *
 * USAGE
 *   struct pr_speedscope_opts o = PR_SPEEDSCOPE_OPTS_INIT;   (o.run_id = N for one run)
 *   struct pr_speedscope_stats s;
 *   if (pr_speedscope_export(store, "out.speedscope.json", &o, &s, &err)) ...error...
 *   if (s.clamped) ...warn: s.clamped spans were clamped to their parent's end...
 *
 * WHAT IS WRITTEN
 *   {"$schema": "https://www.speedscope.app/file-format-schema.json",
 *    "exporter": "profreport@<version>", "name": ..., "activeProfileIndex": 0,
 *    "shared": {"frames": [...]}, "profiles": [...]}
 * in this key order, compact, with integers where values are integral.
 *  - Frames: one per distinct (name, file, line, col) of the spans, in the
 *    order they are first used; file/line/col only where the span's args
 *    carry them.
 *  - Evented profiles (unit "nanoseconds"): one per track that has spans,
 *    named "<run label> rank R / <process> / <thread>" (parts that are
 *    unknown are left out; the thread part falls back to the tid, then to the
 *    track kind), events from analyze/export/spanwalk.h: balanced, properly nested,
 *    `at` non-decreasing, zero-duration spans as an open and a close at the
 *    same `at`. A span ending after its parent is clamped to the parent's end
 *    (counted in stats.clamped). Async tracks whose slices overlap get one
 *    profile per lane, "... (lane 2)" onwards.
 *    startValue = the first open, endValue = the latest span end. `at` values
 *    are the store's ns, except for runs whose times exceed 2^53 ns (epoch
 *    timestamps): those are shifted by the run's first timestamp, so that
 *    JavaScript numbers hold them exactly.
 *  - Sampled profiles (unit "bytes"): one per memory series of a run
 *    (pr_spanwalk_is_memory_series) that grows at least once, named
 *    "<run label> rank R / <series> [<device>] growth". Each sample is the
 *    stack of spans open when the series was sampled (outermost first; the
 *    single frame "[no span] <series>" when none was) and its weight is the
 *    series' increase since its previous sample; samples that do not
 *    increase are left out. The weights add up to the series' total growth
 *    (the sum of its increases: at least max - first value), and a flame
 *    graph shows which code was running while memory grew.
 *    startValue = 0, endValue = the sum of the weights.
 *
 * The file is written profile by profile: memory holds the frame table,
 * the open-span stacks, one async track's spans, and one run's memory
 * samples (stack id + weight each); profiles go through a temporary file
 * (in $TMPDIR or /tmp) so that the frames can precede them.
 *
 * OWNERSHIP: nothing returned needs freeing.
 * LIMITATIONS: instants, counters that are not memory, flows and metrics are
 * not exported. A store with nothing to export is an error (speedscope
 * rejects a file without profiles).
 */
#ifndef PR_RENDER_SPEEDSCOPE_H
#define PR_RENDER_SPEEDSCOPE_H

#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

#define PR_SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"

struct pr_speedscope_opts {
	int64_t run_id; /* 0 = every run */
	int spans;	/* evented profiles from spans */
	int memory;	/* sampled profiles from memory series */
};

#define PR_SPEEDSCOPE_OPTS_INIT                                                                    \
	{                                                                                          \
		0, 1, 1                                                                            \
	}

struct pr_speedscope_stats {
	int64_t profiles, evented, sampled, frames;
	int64_t events, samples; /* O and C events; samples written */
	int64_t clamped;	 /* spans clamped to their parent's end */
	int64_t extra_lanes;	 /* async lanes beyond the first per track */
	int64_t flat_series;	 /* memory series left out: they never grow */
};

/*
 * Writes the file to out (which is not closed). Returns 0, or -1 with err:
 * PR_E_USAGE for an unknown run or nothing to export, PR_E_IO for write
 * failures, PR_E_STORE for store errors. stats (may be NULL) is filled.
 */
int pr_speedscope_write(struct pr_store *st, FILE *out, const struct pr_speedscope_opts *opts,
			struct pr_speedscope_stats *stats, struct pr_error *err) PR_MUST_CHECK;

/*
 * The same into `path`, atomically: a temporary file in the same directory,
 * flushed and renamed over path; on any failure path is left as it was.
 */
int pr_speedscope_export(struct pr_store *st, const char *path,
			 const struct pr_speedscope_opts *opts, struct pr_speedscope_stats *stats,
			 struct pr_error *err) PR_MUST_CHECK;

#endif
