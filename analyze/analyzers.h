/*
 * analyzers.h - the analyzers model.c runs (one an_*.c each, its
 * struct pr_analyzer in actx.h) and the few settings and entry points of
 * theirs that model.c and the tests use (internal to analyze/).
 */
#ifndef PR_ANALYZERS_H
#define PR_ANALYZERS_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/actx.h"

extern const struct pr_analyzer pr_an_series, pr_an_phases, pr_an_peaks, pr_an_alloc_tree,
	pr_an_fragmentation, pr_an_throughput, pr_an_bottlenecks, pr_an_spans, pr_an_collectives,
	pr_an_timeline, pr_an_leaks, pr_an_crosscheck, pr_an_recommendations, pr_an_gpulink;
extern const struct pr_analyzer pr_an_gpubreak;
extern const struct pr_analyzer pr_an_flame;
extern const struct pr_analyzer pr_an_ops;
extern const struct pr_analyzer pr_an_trace;
extern const struct pr_analyzer pr_an_cuptirange;
extern const struct pr_analyzer pr_an_critpath;
/* The events (ops, runtime calls, device activities) critical_path holds at most (512 Ki;
 * PROFREPORT_CRITPATH_EVENTS=N changes it, read by the model for each build). */
#define PR_CRITPATH_EVENTS_ENV "PROFREPORT_CRITPATH_EVENTS"
#define PR_CRITPATH_EVENTS_DEFAULT ((size_t)1 << 19)
extern size_t pr_critpath_max_events;
extern const struct pr_analyzer pr_an_perfmodel;
/* GPU op durations gpu_breakdown keeps for exact medians (default 4 Mi; tests lower it to
 * exercise the ordered SQL pass used beyond). */
extern size_t pr_gpubreak_keep_max;
/* The points peaks and fragmentation look up (an_peaks.c, an_fragmentation.c), appended to
 * *t (*n of them, *cap allocated); loads the series they read. */
int pr_peaks_points(struct pr_actx *ctx, int64_t **t, size_t *n, size_t *cap,
		    struct pr_error *err) PR_MUST_CHECK;
int pr_fragmentation_points(struct pr_actx *ctx, int64_t **t, size_t *n, size_t *cap,
			    struct pr_error *err) PR_MUST_CHECK;

#endif
