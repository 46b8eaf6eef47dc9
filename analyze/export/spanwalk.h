/*
 * spanwalk.h - walks a store's spans as properly nested open/close events,
 * and its memory samples together with the spans open at each sample.
 *
 * USAGE
 *   static const struct pr_spanwalk_ops ops = { .lane_begin = ..., .open = ...,
 *           .close = ..., .lane_end = ..., .sample = ... };
 *   struct pr_spanwalk_opts o = { .run_id = 0, .spans = 1, .memory = 1 };
 *   struct pr_spanwalk_stats stats;
 *   if (pr_spanwalk(store, &o, &ops, ctx, &stats, &err)) ...
 *
 * For every run (in id order) the walk calls, in this order:
 *   run_begin(run)
 *   for every track that has spans (track id order), for every lane of it:
 *     lane_begin(lane), then open(frame, at) / close(at) events, lane_end(lane)
 *   sample(...) for every sample of the run's memory series, in time order
 *   run_end(run)
 * Every callback may be NULL. A callback returning non-zero stops the walk;
 * pr_spanwalk then returns -1 with the err the callback filled.
 *
 * NESTING. Spans of a track are taken in (ts, dur descending, id) order and
 * kept on a stack. A span is a child of the span on top of the stack when it
 * starts before that span ends (a zero-duration span at the very end of a
 * longer span is also its child; nothing nests in a zero-duration span). The
 * events of a lane are therefore balanced (every open has its close, a close
 * always closes the innermost open span) and `at` never decreases; a
 * zero-duration span is an open and a close at the same `at`.
 *  - Thread-like tracks (every kind but "async") have one lane. A span that
 *    starts inside its parent but ends after it is clamped to the parent's
 *    end and counted in stats.clamped.
 *  - Async tracks (track.kind = "async") may hold overlapping slices: a span
 *    that does not nest in lane 1 goes to the first lane where it nests, or
 *    to a new lane (stats.extra_lanes counts lanes beyond the first). Async
 *    spans are never clamped. An async track's spans are held in memory
 *    while its lanes are built; thread-like tracks are streamed.
 *
 * MEMORY SAMPLES. The memory series of a run are those for which
 * pr_spanwalk_is_memory_series() is true. Their samples are delivered in
 * (ts, series, arrival) order with the stack of spans open at the sample's
 * time on the run's thread-like tracks: spans with ts <= t <= end (nested as
 * above). When several tracks have open spans, the track whose innermost
 * open span started last wins (ties: the deeper stack, then the lower track
 * id), i.e. the most recently entered activity. stack[0] is the outermost
 * span; depth 0 means no span was open.
 *
 * TIMES are the store's: int64 ns on the run's clock.
 *
 * OWNERSHIP: every pointer handed to a callback is borrowed and valid only
 * during that call.
 * LIMITATIONS: each run costs three scans of the span table (track extents,
 * track order, time order) and a sort of its memory samples; nothing is held
 * per span except the open stacks and the spans of one async track.
 */
#ifndef PR_SPANWALK_H
#define PR_SPANWALK_H

#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* What a span shows as: its name, and file/line/col when its args have
 * "file" (string) and "line"/"col" (integers), as speedscope frames do. */
struct pr_sw_frame {
	const char *name;
	const char *file;  /* NULL = none */
	int64_t line, col; /* -1 = none */
};

struct pr_sw_series {
	int64_t id;
	const char *name, *device, *unit; /* device "" when none */
	int64_t count;
};

struct pr_sw_run {
	int64_t id;
	const char *label, *format; /* label "" when none */
	int64_t rank;		    /* -1 = unknown */
	int has_extent;		    /* ts_min/ts_max are set */
	int64_t ts_min, ts_max;
	int64_t span_count;
	const char *x_unit; /* meta x_unit: "" when positions are ns, else e.g. "bytes" (DHAT) */
	/* a synthetic profile's weights: meta weight_unit ("" when none) and perf.events
	 * (JSON text, "" when none: the unit of each perf event, fmt_perf_script.c), and
	 * the first perf event (on the tracks with a bare tid) */
	const char *weight_unit, *perf_events, *perf_first;
	const struct pr_sw_series *series; /* the run's memory series */
	size_t nseries;
};

struct pr_sw_track {
	int64_t id;
	const char *kind, *pid, *tid, *name, *process_name; /* "" when unknown */
	int async;
	int64_t nspans;
};

struct pr_sw_lane {
	const struct pr_sw_run *run;
	const struct pr_sw_track *track;
	int lane, nlanes;   /* 1-based; nlanes is 1 for thread-like tracks */
	int64_t start, end; /* first open; the latest end of a span in the lane */
	int64_t nspans;
};

struct pr_spanwalk_ops {
	int (*run_begin)(void *ctx, const struct pr_sw_run *run, struct pr_error *err);
	int (*lane_begin)(void *ctx, const struct pr_sw_lane *lane, struct pr_error *err);
	int (*open)(void *ctx, const struct pr_sw_frame *frame, int64_t at, struct pr_error *err);
	int (*close)(void *ctx, int64_t at, struct pr_error *err);
	int (*lane_end)(void *ctx, const struct pr_sw_lane *lane, struct pr_error *err);
	/* series_index indexes run->series; stack[0..depth) outermost first. */
	int (*sample)(void *ctx, const struct pr_sw_run *run, size_t series_index, int64_t ts,
		      double value, const struct pr_sw_frame *stack, size_t depth,
		      struct pr_error *err);
	int (*run_end)(void *ctx, const struct pr_sw_run *run, struct pr_error *err);
};

struct pr_spanwalk_opts {
	int64_t run_id; /* 0 = every run; else only this one (an error if absent) */
	int spans;	/* walk the tracks' spans (lane_begin/open/close/lane_end) */
	int memory;	/* walk the memory samples (sample) */
};

struct pr_spanwalk_stats {
	int64_t runs, tracks, lanes, extra_lanes, spans, clamped, samples;
};

/*
 * Walks the store as described above. Returns 0, or -1 with err (PR_E_USAGE
 * for an unknown opts->run_id, PR_E_STORE for SQLite failures, or what a
 * callback set). stats (may be NULL) is filled in both cases.
 */
int pr_spanwalk(struct pr_store *st, const struct pr_spanwalk_opts *opts,
		const struct pr_spanwalk_ops *ops, void *ctx, struct pr_spanwalk_stats *stats,
		struct pr_error *err) PR_MUST_CHECK;

/*
 * 1 when a series holds an amount of memory in use: unit "bytes", and not a
 * capacity, free amount or I/O counter (names starting with "disk." or
 * "net", or containing "free", "available", "read", "write", "sent", "recv"
 * or "total", except dev.mem.total, the sum of torch's memory categories).
 */
int pr_spanwalk_is_memory_series(const char *name, const char *unit);

#endif
