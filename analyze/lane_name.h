/*
 * lane_name.h - a track's name as a lane of the timeline and the trace view
 * (internal to analyze/).
 */
#ifndef PR_LANE_NAME_H
#define PR_LANE_NAME_H

#include <stdint.h>

#include <jansson.h>

#include "analyze/actx.h"

/* A track's name as the trace names it (an_timeline.c): "GPU 0 stream 7", a thread's
 * thread_name, else "thread <tid>" (the process name first only when the run has several),
 * kind "thread" or "gpu_stream"; the timeline and the trace view name lanes so. NULL with
 * err on a store error. */
json_t *pr_timeline_lane_name(struct pr_actx *ctx, int64_t track, const char **kind,
			      struct pr_error *err);

#endif
