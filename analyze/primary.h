/*
 * primary.h - the order of a run's memory series and their human labels
 * (primary.c; internal to analyze/).
 */
#ifndef PR_PRIMARY_H
#define PR_PRIMARY_H

#include <stddef.h>

#include <jansson.h>

struct pr_actx;
struct pr_aseries;

/* A person's name for a series ("sys.mem.used" -> "Used memory"; dev.mem.allocated is "GPU
 * allocated", or "CPU allocated" on device "cpu"); an unknown name as it is. The caller frees
 * it. */
char *pr_series_label(const char *name, const char *device);
/* The same as a JSON string (a new reference). */
json_t *pr_series_label_json(const char *name, const char *device);
/* The memory series of ctx in the order cards, peaks and phase deltas list them: *out holds
 * their indexes in ctx->series (the caller frees it); returns how many. */
size_t pr_series_order(const struct pr_actx *ctx, size_t **out);
/* The order's rule in words, for the model. */
extern const char *const pr_series_order_rule;

#endif
