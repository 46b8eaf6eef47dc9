/*
 * html_gpu.h - the GPU part of a run's page (internal to render/, called by
 * html_report.c's run section): appends to sb, nothing when the run has no
 * data for it. idp prefixes the ids of the panels ("r<RUNI>-"). Each
 * returns 0, or -1 with err set when a panel failed to render.
 */
#ifndef PR_HTML_GPU_H
#define PR_HTML_GPU_H

#include <jansson.h>

#include "base/error.h"

struct pr_strbuf;

/* "GPU": the GPU tables, each after its panel, when the run has any GPU data. */
int pr_html_gpu_section(struct pr_strbuf *sb, const json_t *run, const char *idp,
			struct pr_error *err) PR_MUST_CHECK;
/* "Critical path" (an_critpath.c): the steps' bars and the top ops and kernels on it. */
int pr_html_critpath_section(struct pr_strbuf *sb, const json_t *run, const char *idp,
			     struct pr_error *err) PR_MUST_CHECK;

#endif
