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
 * Past this many runs an index is split in pages of this many rows (the
 * page budget, docs/report.md): part `part` of nparts, parts[k] the file
 * name of part k (for the links between them, relative to the index's
 * directory); the trend panels (of every run) are on part 0.
 */
#define PR_HTML_INDEX_ROWS ((size_t)1000)
int pr_html_index_part(const struct pr_html_index_row *rows, size_t n, size_t part,
		       const char *const *parts, size_t nparts, const char *note,
		       struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;
/*
 * The same, with what every part reads of all the runs (their names, the sources' common
 * directories, whether any has labels) made once by pr_html_index_all_new for all the parts:
 * pr_html_index_part makes it for its one part, so an index of N parts written that way did
 * the names of all the runs N times (archive.c's write_index makes it once).
 */
struct pr_html_index_all;
struct pr_html_index_all *pr_html_index_all_new(const struct pr_html_index_row *rows, size_t n);
void pr_html_index_all_free(struct pr_html_index_all *a);
int pr_html_index_part_all(const struct pr_html_index_row *rows, size_t n,
			   const struct pr_html_index_all *all, size_t part,
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
#endif
