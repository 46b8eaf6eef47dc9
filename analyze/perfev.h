/*
 * perfev.h - a perf script run of several events (perfev.c): the one the
 * span analyses read, and what a span's duration weighs (internal to analyze/).
 */
#ifndef PR_PERFEV_H
#define PR_PERFEV_H

#include <stdint.h>

#include "analyze/actx.h"

/* Picks the run's perf event when it sampled several and lists the others' tracks. */
int pr_actx_perf_events(struct pr_actx *ctx, struct pr_error *err) PR_MUST_CHECK;
/* 1 when the track holds another perf event's samples than the run's (leave it out). */
int pr_actx_perf_other(const struct pr_actx *ctx, int64_t track);
/* What a span's duration weighs where not time: clock.x_unit (DHAT's bytes), or the
 * weight of a synthetic profile (perf's page faults, folded stacks' sample counts);
 * NULL for time. */
const char *pr_actx_weight_unit(const struct pr_actx *ctx);

#endif
