/*
 * spans_at.h - the spans open at given time points (internal to analyze/).
 */
#ifndef PR_SPANS_AT_H
#define PR_SPANS_AT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analyze/actx.h"

/*
 * The innermost host-side span open at each t[0..n) (GPU kernels/memcpy
 * excluded: memory is allocated by host code), as {"name", "kind", "t_ns",
 * "dur_ns"}, in one scan of the span table: out[i] (json null when none; the
 * caller owns them). 0, or -1 with err (out then holds nothing).
 */
int pr_actx_spans_at(struct pr_actx *ctx, const int64_t *t, size_t n, json_t **out,
		     struct pr_error *err) PR_MUST_CHECK;

#endif
