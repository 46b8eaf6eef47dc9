/*
 * html_util.h - the page's small shared pieces (render/html_util.c), used by
 * the run page and its views.
 */
#ifndef PR_HTML_UTIL_H
#define PR_HTML_UTIL_H

#include <stddef.h>

#include <jansson.h>

struct pr_strbuf;

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
