/*
 * peak_owner.h - the user-level frame that holds a memory peak (peak_owner.c; internal to
 * analyze/).
 */
#ifndef PR_PEAK_OWNER_H
#define PR_PEAK_OWNER_H

#include <stdint.h>

#include <jansson.h>

#include "base/error.h"

struct pr_actx;
struct pr_aseries;

/* peaks[].held_by of series s's peak (value at t): {"name", "kind", "rule", "bytes",
 * "allocations", "share", "untracked_bytes"}, or json null when no span holds it. 0, or -1
 * with err. */
int pr_peak_owner(struct pr_actx *ctx, const struct pr_aseries *s, int64_t t, double value,
		  json_t **out, struct pr_error *err);

#endif
