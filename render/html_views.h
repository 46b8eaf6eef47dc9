/*
 * html_views.h - the "where the time goes" views of a run's page (internal
 * to render/): the trace view (html_trace.c), the operator and kernel views
 * (html_opkern.c) and the flame graph (html_flame.c). Each appends its
 * section to sb from the run object of the model (nothing when the model
 * has no data for it) and embeds the data its script (templates/VIEW.js)
 * reads as <script type="application/json"> escaped with
 * pr_json_script_escape. runi makes element ids unique on a page of runs.
 */
#ifndef PR_HTML_VIEWS_H
#define PR_HTML_VIEWS_H

#include <stddef.h>

#include <jansson.h>

struct pr_strbuf;

void pr_html_trace_view(struct pr_strbuf *sb, const json_t *run, size_t runi);
void pr_html_op_view(struct pr_strbuf *sb, const json_t *run, size_t runi);
void pr_html_kernel_view(struct pr_strbuf *sb, const json_t *run, size_t runi);
void pr_html_flame(struct pr_strbuf *sb, const json_t *run, size_t runi);

#endif
