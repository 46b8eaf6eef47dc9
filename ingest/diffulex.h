/*
 * diffulex.h - what the three Diffulex readers (JSON, CSV, summary text)
 * store the same way: finite metrics, custom metrics, and the throughput
 * rules with their diagnostics (FORMATS.md §003).
 */
#ifndef PR_DIFFULEX_H
#define PR_DIFFULEX_H

#include <jansson.h>

#include "store/store.h"

/* pr_writer_metric, skipping non-finite values. */
void pr_dfx_metric(struct pr_writer *w, const char *name, double v, const char *unit, int64_t span,
		   const char *origin, const char *detail);
/* Numeric and boolean custom metrics as reported "custom.<key>"; others stay in span args. */
void pr_dfx_custom_metrics(struct pr_writer *w, const json_t *custom, int64_t span);
/* The diagnostic for a section without tokens whose duration is > 0. */
void pr_dfx_not_recorded(struct pr_writer *w, long line, long col, const char *name);
/*
 * Tokens and throughput of one section as written (exact values: JSON and
 * CSV). where names the section in messages ("'metrics[2]' ('x')").
 */
void pr_dfx_throughput(struct pr_writer *w, long line, long col, const char *where,
		       const char *name, double dur, double tokens, double tps, int64_t span);

#endif
