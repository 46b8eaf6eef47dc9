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

/*
 * The display names (render/names.h) of the keys of names (a JSON object used as a set of
 * full names), as one column at most w bytes wide, so that two different names never print
 * alike: a new object {"full": "shown"} holding the names whose display differs.
 */
json_t *pr_html_display_map(const json_t *names, size_t w);

/* Escaped text (pr_xml_escape) and a value in its unit ("-" for NaN), as html_report.c writes
 * them. */
void pr_html_esc(struct pr_strbuf *sb, const char *s);
const char *pr_html_fmt_val(double v, const char *unit, char *buf, size_t n);

#endif
