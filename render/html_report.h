/*
 * html_report.h - the single-file HTML report and the archive index.
 *
 * USAGE
 *   struct pr_output out; pr_output_open_file(&out, "report.html", &err);
 *   pr_html_report(model, NULL, 0, &out, &err);  pr_output_close(&out, &err);
 *
 * The page comes from templates/report.html (+ report.css, report.js),
 * embedded at build time: summary cards, recommendations with severity and
 * evidence, the panels as inline SVG (ids made unique per panel), sortable
 * tables (phases, stages, top spans, layers, series, cross-checks, reported
 * numbers, diagnostics) capped at PR_HTML_ROWS rows with the cap stated,
 * run metadata. No external requests (a Content-Security-Policy forbids
 * them); every string from a trace is escaped (render/escape.h).
 */
#ifndef PR_HTML_REPORT_H
#define PR_HTML_REPORT_H

#include <stddef.h>

#include <jansson.h>

#include "base/output.h"
#include "base/error.h"
#include "render/elide.h"

#define PR_HTML_ROWS 200

/* The report of the given run objects of the model (runs NULL = every run). */
int pr_html_report(const json_t *model, json_t *const *runs, size_t nruns, struct pr_output *out,
		   struct pr_error *err) PR_MUST_CHECK;

/* Runs on one page: up to this many are unfolded; more are folded, listed in a navigation. */
#define PR_HTML_RUNS_OPEN 8

/*
 * What a page calls each run: its label, and where two runs share a label
 * (trace.json in two directories) the fewest last directories of the source
 * that tell them apart ("a/trace.json", "b/trace.json"); " (run ID)" after
 * a name still shared. Free with pr_html_run_names_free.
 */
char **pr_html_run_names(const json_t *const *runs, size_t n);
void pr_html_run_names_free(char **names, size_t n);

/*
 * Progress: fn is called before each run's section of a page is rendered
 * (done = 1..total, the run's label); NULL = none (the default). Process-wide,
 * like ingest's pr_source_set_progress; the CLI sets it when stderr is a terminal.
 */
typedef void pr_html_progress_fn(void *ctx, size_t done, size_t total, const char *label);
void pr_html_set_progress(pr_html_progress_fn *fn, void *ctx);

/* One row of the archive index. */
struct pr_html_index_row {
	const json_t *run; /* the run object of the model */
	const char *href;  /* the run's report file, relative to the index */
};

/*
 * The same with a note (plain text, escaped here; NULL = none) in a
 * paragraph above the table: why the runs are an archive (cli/cmd_report.c).
 */
int pr_html_index_note(const struct pr_html_index_row *rows, size_t n, const char *note,
		       struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;

/*
 * Past this many runs an index is split in pages of this many rows (the
 * page budget, docs/report.md): part `part` of nparts, parts[k] the file
 * name of part k (for the links between them, relative to the index's
 * directory); the trend panels (of every run) are on part 0.
 */
#define PR_HTML_INDEX_ROWS ((size_t)1000)
int pr_html_index_part(const struct pr_html_index_row *rows, size_t n, size_t part,
		       const char *const *parts, size_t nparts, const char *note,
		       struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;

/* index.html of an archive: a table of runs linking to their reports, and trend panels. */
int pr_html_index(const struct pr_html_index_row *rows, size_t n, struct pr_output *out,
		  struct pr_error *err) PR_MUST_CHECK;

/*
 * The page template with title/subtitle (escaped here) and body (HTML, the
 * caller escapes what it puts there): for other pages (aggregate, compare).
 * Returns 0 or -1 with PR_E_IO in err (a write failure, also sticky in out).
 */
int pr_html_page(const char *title, const char *subtitle, const char *body, struct pr_output *out,
		 struct pr_error *err);
/* Appends an SVG document (from pr_chart_render) inline: the XML prolog dropped, ids prefixed. */
struct pr_strbuf;
void pr_html_inline_svg(struct pr_strbuf *sb, const char *svg, size_t len, const char *prefix);

/*
 * Appends the panels of ps as inline SVG figures (ids "<idprefix><name>",
 * SVG ids prefixed per panel) under a "Panels" heading, and frees ps.
 */
struct pr_panelset;

/* Sortable tables: heads end with NULL; a head starting with '#' is a numeric column. */
void pr_html_table_begin(struct pr_strbuf *sb, const char *const *heads);
/* Closes the table; when rows were capped, says so and where all of them are. */
void pr_html_table_end(struct pr_strbuf *sb, size_t shown, size_t total, const char *all_in);
/* Names longer than this many bytes are cut in the middle in their cell (full name on hover and copy). */
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

int pr_html_panels(struct pr_strbuf *sb, struct pr_panelset *ps, const char *idprefix,
		   struct pr_error *err) PR_MUST_CHECK;

#endif
