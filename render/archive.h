/*
 * archive.h - an archive of run reports: one page per run, named
 * <label>-<hash prefix>.html (a page already there whole is not written
 * again), and their index (docs/report.md, "Archives").
 *
 * The runs come one at a time, as pr_model_each hands them (pr_archive_want,
 * pr_archive_add), or from a model already built (pr_archive_model): a page
 * is written from the run's whole model and only the run's digest is kept
 * for the index, so an archive of many runs is written in the memory of one.
 * Where the runs come from (the store, worker processes) is the caller's
 * (cli/cmd_report.c); this module writes files.
 */
#ifndef PR_RENDER_ARCHIVE_H
#define PR_RENDER_ARCHIVE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

struct pr_archive;

/* A run's time for the index's order: 1 with *ns, 0 when it has none. */
typedef int pr_archive_time_fn(const json_t *run, int64_t *ns);
/* Said before the n-th run's page (1-based, in the order added) is written. */
typedef void pr_archive_page_fn(void *ctx, size_t n, const char *label);

/*
 * dir: the pages' directory (made if missing). index NULL: the index is
 * DIR/index.html, else that file, linking to the pages as <DIR's name>/<page>.
 * keep: only these run ids (sorted ascending), or NULL: every run.
 */
int pr_archive_open(struct pr_archive **out, const char *dir, const char *index,
		    const int64_t *keep, size_t nkeep, pr_archive_time_fn *time,
		    struct pr_error *err) PR_MUST_CHECK;
void pr_archive_set_progress(struct pr_archive *a, pr_archive_page_fn *fn, void *ctx);
void pr_archive_free(struct pr_archive *a);

/*
 * What a full index page's stamp holds beside its runs (render/archive.c, page_stamp): the
 * analyser version and the options its runs' digests were made with (pr_model_options_stamp).
 */
void pr_archive_set_stamp(struct pr_archive *a, const char *salt);

/* A run of the index, known before its digest (one row of the store's run table). */
struct pr_archive_run {
	int64_t id;
	const char *label, *hash, *source; /* copied */
	int has;			   /* a time (pr_archive_time_fn's, from the row) */
	int64_t t;
};
/*
 * The archive's runs (those kept) before they come: their order, the index's pages, which
 * full pages stand (there with the same stamp: not written again), so pr_archive_want says
 * -1 (neither page nor digest) for a run whose digest no page to write needs (nor the
 * trends): pr_archive_needed_ids lists the others. Without it the runs' digests tell the
 * order at pr_archive_finish.
 */
void pr_archive_plan(struct pr_archive *a, const struct pr_archive_run *runs, size_t n);
/* After pr_archive_plan: the ids of those runs, ascending, *n of them (the caller frees);
 * NULL without a plan. */
int64_t *pr_archive_needed_ids(const struct pr_archive *a, size_t *n);

/* How many of runs ids[0..n) have a page still to write (pr_archive_want's 1), counting up to
 * stop; without a plan, n. */
size_t pr_archive_pages_to_write(const struct pr_archive *a, const int64_t *ids, size_t n,
				 size_t stop);

/* Is run id one of the archive's? */
int pr_archive_kept(const struct pr_archive *a, int64_t id);
/* pr_model_each's callbacks, ctx the archive: is the run's page still to be
 * written (so its whole model is needed)? Then the run, whole or its digest. */
int pr_archive_want(void *ctx, int64_t id, const char *label, const char *hash);
int pr_archive_add(void *ctx, json_t *run, int whole, struct pr_error *err);
/* The runs of a model already built, as pr_model_each would hand them. */
int pr_archive_model(struct pr_archive *a, const json_t *model, struct pr_error *err);

/* Runs added so far; the digest of the i-th (0-based, in the order added). */
size_t pr_archive_count(const struct pr_archive *a);
const json_t *pr_archive_digest(const struct pr_archive *a, size_t i);
/* The last run added taken out again (its page's link and digest, the caller's to free):
 * a worker process hands them to the parent, which adds them with pr_archive_fold. */
void pr_archive_pop(struct pr_archive *a, char **href, json_t **digest);
/* A run whose page another process wrote (written 1) or found there (0); takes digest. */
void pr_archive_fold(struct pr_archive *a, const char *href, json_t *digest, int written);

/*
 * The index (past PR_HTML_INDEX_ROWS runs in full pages STEM-1.html, ... beside it, each
 * written only when it does not stand), its runs in time order, with note above the newest
 * page's table (or NULL). The index's path into
 * path (n bytes); *written and *skipped: pages written, pages already there.
 */
int pr_archive_finish(struct pr_archive *a, const char *note, char *path, size_t n, size_t *written,
		      size_t *skipped, struct pr_error *err) PR_MUST_CHECK;

/* One HTML report file (render/html_report.h) at path. own: a name of
 * profreport's own (pr_output_open_own: no link followed); else the user's. */
int pr_archive_write_html(const json_t *model, json_t *const *runs, size_t n, const char *path,
			  int own, struct pr_error *err) PR_MUST_CHECK;

#endif
