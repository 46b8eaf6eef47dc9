/*
 * html_util.c - the page's small shared pieces: escaped text, values in
 * their unit, the display names of a set of names, the sortable tables and
 * their cells, the panels as inline SVG. Used by the run page
 * (html_report.c, html_gpu.c), the archive index (html_index.c), the
 * aggregate and compare pages and the views (html_trace.c, html_opkern.c,
 * html_flame.c), which call down into this file and never into each other.
 */
#include "render/html_util.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "analyze/model.h"
#include "base/escape.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "render/panel_data.h"
#include "render/panels.h"
#include "render/panelset.h"
#include "render/tables.h"
#include "render/units.h"

void pr_html_esc(struct pr_strbuf *sb, const char *s)
{
	pr_xml_escape(sb, s);
}

json_t *pr_html_display_map(const json_t *names, size_t w)
{
	json_t *out = json_object(), *v;
	const char *key, **full = pr_xcalloc(json_object_size(names) + 1, sizeof(*full));
	pr_label_t *shown = pr_xcalloc(json_object_size(names) + 1, sizeof(*shown));
	size_t i, n = 0;
	json_object_foreach ((json_t *)names, key, v)
		full[n++] = key;
	pr_name_column(shown, full, n, w < sizeof(shown[0]) ? w : sizeof(shown[0]) - 1);
	for (i = 0; i < n; i++)
		if (strcmp(shown[i], full[i]))
			json_object_set_new(out, full[i], json_string(shown[i]));
	free(shown);
	free(full);
	return out;
}

const char *pr_html_fmt_val(double v, const char *unit, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (!strcmp(unit, "s"))
		pr_fmt_duration(v * 1e9, buf, n);
	else
		pr_fmt_value(v, unit, buf, n);
	return buf;
}

/* ---- tables ---- */

void pr_html_table_begin(struct pr_strbuf *sb, const char *const *heads)
{
	size_t i;
	/* in a scroll box: a table wider than its card scrolls inside it */
	pr_strbuf_addstr(sb, "<div class=\"scroll\"><table class=\"sortable\"><thead><tr>");
	for (i = 0; heads[i]; i++) {
		const char *h = heads[i];
		int numeric = h[0] == '#';
		pr_strbuf_addstr(sb, numeric ? "<th class=\"n\">" : "<th>");
		pr_html_esc(sb, numeric ? h + 1 : h);
		pr_strbuf_addstr(sb, "</th>");
	}
	pr_strbuf_addstr(sb, "</tr></thead><tbody>\n");
}

void pr_html_table_end(struct pr_strbuf *sb, size_t shown, size_t total, const char *all_in)
{
	pr_strbuf_addstr(sb, "</tbody></table></div>\n");
	if (total > shown) {
		pr_strbuf_addf(sb, "<p class=\"capped\">Showing %zu of %zu rows (capped at %d; ",
			       shown, total, PR_HTML_ROWS);
		pr_html_esc(sb, all_in);
		pr_strbuf_addstr(sb, " has all of them).</p>\n");
	}
}

void pr_html_model_table_end(struct pr_strbuf *sb, size_t shown, size_t total)
{
	pr_html_table_end(sb, shown, total, "the JSON model");
}

/*
 * A name cell: shown is what the cell says; when it differs from the full
 * name (demangled, shortened, cut), the full name is the cell's title
 * (hover), data-full (what copying the cell puts on the clipboard,
 * report.js) and what the column filters and sorts by.
 */
void pr_html_td_shown(struct pr_strbuf *sb, const char *full, const char *shown)
{
	if (!strcmp(full, shown)) {
		pr_strbuf_addstr(sb, "<td class=\"name\">");
		pr_html_esc(sb, full);
		pr_strbuf_addstr(sb, "</td>");
		return;
	}
	pr_strbuf_addstr(sb, "<td class=\"name el\" title=\"");
	pr_html_esc(sb, full);
	pr_strbuf_addstr(sb, "\" data-full=\"");
	pr_html_esc(sb, full);
	pr_strbuf_addstr(sb, "\">");
	pr_html_esc(sb, shown);
	pr_strbuf_addstr(sb, "</td>");
}

void pr_html_td(struct pr_strbuf *sb, const char *text)
{
	char shown[PR_HTML_NAME_SHOWN + 1];
	pr_html_td_shown(sb, text, pr_name_display(text, shown, sizeof(shown)));
}

pr_label_t *pr_html_name_column(const json_t *items, const char *key, size_t max)
{
	size_t n = json_array_size(items), i;
	const char **names;
	pr_label_t *lab;
	if (n > max)
		n = max;
	names = pr_xcalloc(n ? n : 1, sizeof(*names));
	lab = pr_xcalloc(n ? n : 1, sizeof(*lab));
	for (i = 0; i < n; i++)
		names[i] = pr_mstr(json_array_get(items, i), key);
	pr_name_column(lab, names, n, PR_HTML_NAME_SHOWN);
	free(names);
	return lab;
}

/* A numeric cell: sorts by v, shows v formatted in unit. */
void pr_html_tdn(struct pr_strbuf *sb, double v, const char *unit)
{
	char buf[64];
	if (isnan(v))
		pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
	else {
		/* data-u: the unit of data-v, for the table's CSV (templates/views.js) */
		pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\" data-u=\"", v);
		pr_html_esc(sb, unit);
		pr_strbuf_addstr(sb, "\">");
		pr_html_esc(sb, pr_html_fmt_val(v, unit, buf, sizeof(buf)));
		pr_strbuf_addstr(sb, "</td>");
	}
}

/* A numeric cell with `prec` decimals (prec < 0: 6 significant digits). */
void pr_html_tdf(struct pr_strbuf *sb, double v, int prec)
{
	char buf[64];
	if (isnan(v)) {
		pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
		return;
	}
	if (prec < 0)
		snprintf(buf, sizeof(buf), "%.6g", v);
	else
		snprintf(buf, sizeof(buf), "%.*f", prec, v);
	pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\">%s</td>", v, buf);
}

/* ---- inline SVG panels: ids made unique per panel ---- */

void pr_html_inline_svg(struct pr_strbuf *sb, const char *svg, size_t len, const char *prefix)
{
	const char *p = svg, *end = svg + len, *start = strstr(svg, "<svg");
	static const char *const pats[] = { "id=\"", "href=\"#", "url(#" };
	if (start)
		p = start;
	while (p < end) {
		const char *best = NULL;
		size_t bl = 0, k;
		for (k = 0; k < PR_ARRAY_SIZE(pats); k++) {
			const char *q = strstr(p, pats[k]);
			if (q && q < end && (!best || q < best)) {
				best = q;
				bl = strlen(pats[k]);
			}
		}
		if (!best) {
			pr_strbuf_add(sb, p, (size_t)(end - p));
			break;
		}
		pr_strbuf_add(sb, p, (size_t)(best - p) + bl);
		pr_strbuf_addstr(sb, prefix);
		p = best + bl;
	}
}

/*
 * Panel i of ps as <figure id="IDPREFIX NAME"> with the SVG inline, its
 * ids prefixed with SVGPREFIX "p<i>-".
 */
int pr_html_panel(struct pr_strbuf *sb, const struct pr_panelset *ps, size_t i,
		  const char *idprefix, const char *svgprefix, struct pr_error *err)
{
	struct pr_output out;
	const char *data;
	size_t len;
	char prefix[96];
	int rc = 0;
	pr_output_init_memory(&out);
	if (pr_panelset_render(ps, i, PR_GFX_SVG, &out, err) || pr_output_close(&out, err)) {
		rc = -1;
	} else {
		data = pr_output_data(&out, &len);
		snprintf(prefix, sizeof(prefix), "%sp%zu-", svgprefix, i);
		pr_strbuf_addf(sb, "<figure id=\"%s%s\" aria-label=\"", idprefix,
			       pr_panelset_name(ps, i));
		pr_html_esc(sb, pr_panelset_title(ps, i));
		pr_strbuf_addstr(sb, "\">");
		pr_html_inline_svg(sb, data, len, prefix);
		/* a line chart's data for hover and zoom (templates/report.js) */
		if (pr_panel_data(pr_panelset_chart(ps, i), sb, err) < 0)
			rc = -1;
		pr_strbuf_addstr(sb, "</figure>\n");
	}
	pr_output_release(&out);
	return rc;
}

int pr_html_panels(struct pr_strbuf *sb, struct pr_panelset *ps, const char *idprefix,
		   struct pr_error *err)
{
	size_t i;
	int rc = 0;
	if (pr_panelset_count(ps))
		pr_strbuf_addstr(sb, "<h3>Panels</h3>\n");
	for (i = 0; i < pr_panelset_count(ps) && !rc; i++)
		rc = pr_html_panel(sb, ps, i, idprefix, idprefix, err);
	for (i = 0; i < pr_panelset_skipped_count(ps); i++) { /* panels that would say nothing */
		pr_strbuf_addstr(sb, i ? "; " : "<p class=\"skipped\">Not drawn: ");
		pr_html_esc(sb, pr_panelset_skipped_name(ps, i));
		pr_strbuf_addstr(sb, " (");
		pr_html_esc(sb, pr_panelset_skipped_reason(ps, i));
		pr_strbuf_addch(sb, ')');
	}
	if (pr_panelset_skipped_count(ps))
		pr_strbuf_addstr(sb, ".</p>\n");
	pr_panelset_free(ps);
	return rc;
}

/* ---- the tables of render/tables.h ---- */

/* The fitted names of a NAME column over the first n items (html_util.h: pr_html_name_column). */
static pr_label_t *name_labels(const struct pr_table_col *col, const json_t *items, size_t n)
{
	const char **names = pr_xcalloc(n ? n : 1, sizeof(*names));
	pr_label_t *lab = pr_xcalloc(n ? n : 1, sizeof(*lab));
	size_t i;
	for (i = 0; i < n; i++)
		names[i] = pr_table_str(col, json_array_get(items, i));
	pr_name_column(lab, names, n, PR_HTML_NAME_SHOWN);
	free(names);
	return lab;
}

/* One cell of column col for item, the i-th row (lab: the column's fitted names). */
static void table_cell(struct pr_strbuf *sb, const struct pr_table_col *col, const json_t *item,
		       size_t i, pr_label_t *lab, const struct pr_table_ctx *x)
{
	char a[64];
	double v;
	switch (col->kind) {
	case PR_COL_SAME: /* (console kinds only: unit/test_tables) */
	case PR_COL_DISPLAY:
		break;
	case PR_COL_NAME:
		pr_html_td_shown(sb, pr_table_str(col, item), lab[i]);
		break;
	case PR_COL_LABEL:
		pr_html_td(sb, pr_table_str(col, item));
		break;
	case PR_COL_TEXT: /* a short text: never broken inside a word */
		pr_strbuf_addstr(sb, "<td>");
		pr_html_esc(sb, pr_table_str(col, item));
		pr_strbuf_addstr(sb, "</td>");
		break;
	case PR_COL_COUNT:
		pr_html_tdf(sb, pr_table_num(col, item), 0);
		break;
	case PR_COL_VALUE:
		pr_html_tdn(sb, pr_table_num(col, item), pr_table_unit(col, item, x->unit));
		break;
	case PR_COL_SHARE:
		pr_html_tdf(sb, pr_table_num(col, item) * 100, col->prec);
		break;
	case PR_COL_INDEX:
		pr_html_tdf(sb, (double)(i + 1), 0);
		break;
	case PR_COL_NUMBER:
	case PR_COL_OF:
	case PR_COL_PERCENT:
		pr_html_tdf(sb, pr_table_num(col, item), col->prec);
		break;
	case PR_COL_XTIME: /* sorts by the time; shows it as the run's x axis does */
		v = pr_table_num(col, item);
		if (isnan(v)) {
			pr_strbuf_addstr(sb, "<td class=\"n\" data-v=\"\">-</td>");
			break;
		}
		pr_fmt_x(x->run, v, a, sizeof(a));
		pr_strbuf_addf(sb, "<td class=\"n\" data-v=\"%.17g\">%s</td>", v, a);
		break;
	}
}

void pr_html_table_ctx(struct pr_strbuf *sb, const struct pr_table *t, const json_t *items,
		       const struct pr_table_ctx *x)
{
	const char *heads[PR_TABLE_COLS + 1];
	pr_label_t *lab[PR_TABLE_COLS] = { NULL };
	size_t n = json_array_size(items), nc = t->ncols < PR_TABLE_COLS ? t->ncols : PR_TABLE_COLS;
	size_t all = x->total > n ? x->total : n, i, c;
	const json_t *v;
	if (x->cap && n > x->cap)
		n = x->cap;
	for (c = 0; c < nc; c++) {
		heads[c] = t->cols[c].head;
		if (t->cols[c].kind == PR_COL_NAME)
			lab[c] = name_labels(&t->cols[c], items, n);
	}
	heads[c] = NULL;
	pr_html_table_begin(sb, heads);
	for (i = 0; i < n; i++) {
		v = json_array_get(items, i);
		pr_strbuf_addstr(sb, "<tr>");
		for (c = 0; c < nc; c++)
			table_cell(sb, &t->cols[c], v, i, lab[c], x);
		pr_strbuf_addstr(sb, "</tr>\n");
	}
	for (c = 0; c < nc; c++)
		free(lab[c]);
	pr_html_table_end(sb, n, all, x->all_in ? x->all_in : "the JSON model");
}

void pr_html_table(struct pr_strbuf *sb, const struct pr_table *t, const json_t *items,
		   const char *unit)
{
	struct pr_table_ctx x = { 0 };
	x.unit = unit;
	pr_html_table_ctx(sb, t, items, &x);
}
