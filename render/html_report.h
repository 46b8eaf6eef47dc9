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
#include "render/html_util.h"

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
 * Past this many runs an index is split in pages of this many rows (the page budget,
 * docs/report.md, "Archives"): the runs in the index's order, page k (1-based) of the full
 * pages holds runs (k-1)*ROWS+1 .. k*ROWS and the newest page the rest (at least one).
 */
#define PR_HTML_INDEX_ROWS_DEFAULT ((size_t)1000)
/* PROFREPORT_INDEX_ROWS (2-1000000; for tests of many pages with few runs) sets it. */
#define PR_HTML_INDEX_ROWS_ENV "PROFREPORT_INDEX_ROWS"
extern size_t pr_html_index_rows;
#define PR_HTML_INDEX_ROWS pr_html_index_rows
/* The <meta> name of a full page's stamp, in its head (render/archive.c). */
#define PR_HTML_INDEX_STAMP "profreport-index-stamp"

/* One page of an archive index. */
struct pr_html_index_page {
	const struct pr_html_index_row *rows; /* every run of the index, in its order; a row
						 neither on the page nor in its trends may
						 have run NULL */
	size_t n;			      /* runs in all */
	size_t lo, hi;			      /* the page's rows */
	size_t trend_lo;		      /* the newest page: trends of rows trend_lo..n */
	size_t full;			      /* full pages (none: one page of every run) */
	const char *const *files; /* files[k]: full page k+1's name, files[full] the newest's */
	const char *note;	  /* above the newest page's table (plain text), or NULL */
	/*
	 * A full page: what tells its runs (archive.c), written into its head; it names no
	 * total, links only files[0..its own) and the newest, and has no trends. NULL: the
	 * newest page (or the only one): the total, every page linked, the trends.
	 */
	const char *stamp;
};
int pr_html_index_page(const struct pr_html_index_page *p, struct pr_output *out,
		       struct pr_error *err) PR_MUST_CHECK;

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
/* The same, with head (HTML) in the page's head before its <title>. */
int pr_html_page_head(const char *title, const char *subtitle, const char *head, const char *body,
		      struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;
#endif
