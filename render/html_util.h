/*
 * html_util.h - the page's small shared pieces (render/html_util.c), used by
 * the run page, its views, the archive index and the aggregate and compare
 * pages: escaping, values, sortable tables and their cells, inline panels.
 */
#ifndef PR_HTML_UTIL_H
#define PR_HTML_UTIL_H

#include <stddef.h>

#include <jansson.h>

#include "base/error.h"
#include "render/elide.h"

struct pr_strbuf;
struct pr_panelset;
struct pr_table;
struct pr_table_ctx;

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

#define PR_HTML_ROWS 200 /* rows a table of the page shows at most */

/* Appends an SVG document (from pr_chart_render) inline: the XML prolog dropped, ids prefixed. */
void pr_html_inline_svg(struct pr_strbuf *sb, const char *svg, size_t len, const char *prefix);

/* Sortable tables: heads end with NULL; a head starting with '#' is a numeric column. */
void pr_html_table_begin(struct pr_strbuf *sb, const char *const *heads);
/* Closes the table; when rows were capped, says so and where all of them are. */
void pr_html_table_end(struct pr_strbuf *sb, size_t shown, size_t total, const char *all_in);
/* Names longer than this many bytes are cut in the middle in their cell (full name on hover
 * and copy). */
#define PR_HTML_NAME_SHOWN 72
/*
 * A text cell (escaped) showing text's display name (render/names.h: a
 * mangled name demangled, a C++ signature without return type and argument
 * list, at most PR_HTML_NAME_SHOWN bytes); when that differs from text, the
 * full text is the title (hover) and data-full (copy, filter, sort).
 */
void pr_html_td(struct pr_strbuf *sb, const char *text);
/* A name cell showing `shown` (a label of pr_html_name_column) for `full`, title/data-full as
 * above. */
void pr_html_td_shown(struct pr_strbuf *sb, const char *full, const char *shown);
/*
 * The labels of a table's name column, so that two different names never
 * show alike (pr_name_column over the string at key of the first max items,
 * PR_HTML_NAME_SHOWN wide); free() the result. Use with pr_html_td_shown.
 */
pr_label_t *pr_html_name_column(const json_t *items, const char *key, size_t max);

/*
 * Appends the panels of ps as inline SVG figures (ids "<idprefix><name>",
 * SVG ids prefixed per panel) under a "Panels" heading, and frees ps.
 */
/*
 * Panel i of ps as <figure id="IDPREFIX NAME"> with the SVG inline, its ids prefixed with
 * SVGPREFIX "p<i>-". Returns 0, or -1 with err set.
 */
int pr_html_panel(struct pr_strbuf *sb, const struct pr_panelset *ps, size_t i,
		  const char *idprefix, const char *svgprefix, struct pr_error *err) PR_MUST_CHECK;
int pr_html_panels(struct pr_strbuf *sb, struct pr_panelset *ps, const char *idprefix,
		   struct pr_error *err) PR_MUST_CHECK;

/* The cells of a table: a number v in unit (sorts by v; NaN "-"), with prec decimals (prec < 0:
 * 6 significant digits); pr_html_table_end with "the JSON model" as where all rows are. */
void pr_html_tdn(struct pr_strbuf *sb, double v, const char *unit);
void pr_html_tdf(struct pr_strbuf *sb, double v, int prec);
void pr_html_model_table_end(struct pr_strbuf *sb, size_t shown, size_t total);

/*
 * A table described in render/tables.h, one row per item of items (a JSON array; every row),
 * its VALUE columns without a unit of their own in unit: the sortable table from its head to
 * its end. The heading above it is the caller's.
 */
void pr_html_table(struct pr_strbuf *sb, const struct pr_table *t, const json_t *items,
		   const char *unit);
/* The same, drawn as x says (tables.h): at most x->cap rows, of x->total, "Showing N of M
 * rows" naming x->all_in when the table is cut. */
void pr_html_table_ctx(struct pr_strbuf *sb, const struct pr_table *t, const json_t *items,
		       const struct pr_table_ctx *x);

#endif
