/* cmd_report.c - profreport report INPUT... --json FILE: the analysis model. */
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analyze/export/chrome_merge.h"
#include "analyze/model.h"
#include "render/archive.h"
#include "render/html_report.h"
#include "render/panels.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/meta.h"
#include "cli/par.h"
#include "base/decimal.h"
#include "base/env.h"
#include "base/strbuf.h"
#include "base/timecheck.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* The options, as the table binds them (pr_opt_fill). */
struct report_opts {
	const char *output, *json, *png, *svg, *format, *phases, *comm_kernels, *window, *trace;
	const char *critpath_annotation;
	const char *jobs;
	int64_t top, run, timeline_points;
	int no_cache, quiet;
};

#define O struct report_opts
static const struct pr_option opts[] = {
	PR_OPT_STRING("output", 'o', "report.html|DIR",
		      "the HTML report: FILE.html (one page; past 100 runs or 10 MB an index, the "
		      "pages in FILE.runs/), or a directory (one page per run + index.html)",
		      0, O, output),
	PR_OPT_STRING("json", 0, "FILE", "write the analysis model (JSON; '-' = stdout)", 0, O,
		      json),
	PR_OPT_STRING("png", 0, "DIR", "write the panels as PNG files into DIR", 0, O, png),
	PR_OPT_STRING("svg", 0, "DIR", "write the panels as SVG files into DIR", 0, O, svg),
	PR_OPT_UINT("top", 0, "N",
		    "rows in the top-spans tables (default " PR_STR(PR_MODEL_TOP_N) ")", 0, O, top,
		    100000),
	PR_OPT_UINT("run", 0, "ID", "only this run of the store", 0, O, run, INT32_MAX),
	PR_OPT_UINT("timeline-points", 0, "N",
		    "points per series timeline in the model (default " PR_STR(
			    PR_MODEL_TIMELINE_POINTS) ", 0 = none)",
		    0, O, timeline_points, 10000000),
	PR_CLI_ANALYSIS_OPTS(O),
	PR_OPT_STRING("trace", 0, "FILE",
		      "also write the run's spans as a Chrome trace (Perfetto, chrome://tracing); "
		      "a store of several runs needs --run",
		      0, O, trace),
	PR_OPT_FLAG("no-cache", 0, "neither read nor write the store's model cache", 0, O,
		    no_cache),
	PR_CLI_META_OPTS,
	PR_OPT_STRING("jobs", 'j', "N",
		      "an archive's pages analysed and written by N processes (default: the CPUs)",
		      0, O, jobs),
	PR_OPT_FLAG("quiet", 'q', "print nothing on success (not even what was written)", 0, O,
		    quiet),
	PR_OPT_END,
};
#undef O

/*
 * The command's state while it writes: progress on stderr while the model
 * is built and the pages and panels are drawn, only when stderr is a
 * terminal and -q is not given (like ingest's): one line rewritten in place,
 * cleared when the step ends.
 */
struct report_state {
	int show_progress;
	const char *stage;     /* "analyzing", "rendering", ... */
	size_t progress_total; /* the last total shown (an archive's pages: the runs analysed) */
	int jobs;	       /* -j: an archive's pages by this many processes */
	int quiet;	       /* -q */
	const struct pr_model_opts *mo; /* the runs' analysis: an index's full pages' stamp */
};

static void progress(void *ctx, size_t done, size_t total, const char *label)
{
	struct report_state *rs = ctx;
	char shown[2048];
	if (total)
		rs->progress_total = total;
	/* a label is trace text: no control characters on the terminal */
	pr_error_escape(label ? label : "", shown, sizeof(shown));
	if (total)
		fprintf(stderr, "\r%s run %zu of %zu: '%s'\033[K", rs->stage, done, total, shown);
	else
		fprintf(stderr, "\r%s run %zu: '%s'\033[K", rs->stage, done, shown);
}

static void progress_done(const struct report_state *rs)
{
	if (rs->show_progress)
		fputs("\r\033[K", stderr);
}

/* An archive's page about to be written (pr_archive_page_fn), then the next run's analysis. */
static void page_progress(void *ctx, size_t n, const char *label)
{
	struct report_state *rs = ctx;
	if (!rs->show_progress)
		return;
	rs->stage = "writing the page of";
	progress(rs, n, rs->progress_total, label);
	rs->stage = "analyzing";
}

/* Writes every panel of every run into dir as <name>.<ext> (run<ID>-<name> when several runs). */
static int write_panels(struct report_state *rs, const json_t *model, const char *dir,
			enum pr_gfx_format fmt, size_t *files, struct pr_error *err)
{
	json_t *runs = json_object_get(model, PRK_RUNS), *run;
	size_t i;
	*files = 0;
	json_array_foreach (runs, i, run) {
		struct pr_panelset *ps;
		char prefix[64] = "";
		int rc;
		rs->stage = fmt == PR_GFX_PNG ? "drawing the PNG panels of"
					      : "drawing the SVG panels of";
		if (rs->show_progress)
			progress(rs, i + 1, json_array_size(runs),
				 json_string_value(json_object_get(run, PRK_LABEL)));
		ps = pr_panels_build(run);
		if (json_array_size(runs) > 1)
			snprintf(prefix, sizeof(prefix), "run%lld-",
				 (long long)json_integer_value(json_object_get(run, PRK_ID)));
		rc = pr_panelset_write_files(ps, dir, prefix, fmt, err);
		*files += pr_panelset_count(ps);
		pr_panelset_free(ps);
		if (rc)
			return -1;
	}
	return 0;
}

/* The one-page report, with progress while its runs are drawn. */
static int write_page(struct report_state *rs, const json_t *model, const char *path,
		      struct pr_error *err)
{
	int rc;
	rs->stage = "rendering";
	pr_html_set_progress(rs->show_progress ? progress : NULL, rs);
	rc = pr_archive_write_html(model, NULL, 0, path, 0, err);
	pr_html_set_progress(NULL, NULL);
	progress_done(rs);
	return rc;
}

/* A run's time for the index's order (pr_archive_time_fn): its --meta time (docs/store.md),
 * else the epoch start of its clock. 1 with *ns, 0 when it has neither. */
static int run_time(const json_t *run, int64_t *ns)
{
	const char *t =
		json_string_value(json_object_get(json_object_get(run, PRK_META), PRK_META_TIME));
	json_t *e = json_object_get(json_object_get(run, PRK_CLOCK), PRK_CLOCK_EPOCH_START_NS);
	if (t && pr_cli_meta_time(t, ns) == 0)
		return 1;
	if (!json_is_integer(e))
		return 0;
	*ns = json_integer_value(e);
	return 1;
}

/*
 * The archive's runs from one scan of the store's run table (id, label, content hash, source
 * and the time the index sorts by, as run_time reads it from a digest: the run's --meta time,
 * else the start of its clock, time_origin_ns + ts_min), for pr_archive_plan: the index's
 * order known without the runs' digests, only those of the pages to write are read.
 */
static int archive_plan(struct pr_archive *a, struct pr_store *store,
			const struct pr_model_opts *mo, struct pr_error *err)
{
	static const char *const q[] = {
		"SELECT r.id, ifnull(r.label, ''), r.content_hash, r.source, r.time_origin_ns, "
		"r.ts_min, m.value FROM run r LEFT JOIN run_meta m ON m.run_id = r.id AND "
		"m.key = 'time' WHERE r.id BETWEEN ?1 AND ?2 ORDER BY r.id",
		/* a store of version 4: no run_meta */
		"SELECT id, ifnull(label, ''), content_hash, source, time_origin_ns, ts_min, NULL "
		"FROM run WHERE id BETWEEN ?1 AND ?2 ORDER BY id"
	};
	sqlite3 *db = pr_store_db(store);
	sqlite3_stmt *s = NULL;
	struct pr_archive_run *runs = NULL;
	size_t n = 0, cap = 0, i;
	int timed = pr_timings_on(), rc;
	double t0 = timed ? pr_clock_s(CLOCK_MONOTONIC) : 0;
	double c0 = timed ? pr_clock_s(CLOCK_PROCESS_CPUTIME_ID) : 0;
	if (sqlite3_prepare_v2(db, q[0], -1, &s, NULL) != SQLITE_OK &&
	    (!strstr(sqlite3_errmsg(db), "no such table") ||
	     sqlite3_prepare_v2(db, q[1], -1, &s, NULL) != SQLITE_OK))
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, mo->run ? (int64_t)mo->run : INT64_MIN);
	sqlite3_bind_int64(s, 2, mo->run ? (int64_t)mo->run : INT64_MAX);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct pr_archive_run *r;
		const char *t = (const char *)sqlite3_column_text(s, 6);
		int64_t epoch;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			runs = pr_xreallocarray(runs, cap, sizeof(*runs));
		}
		r = &runs[n++];
		r->id = sqlite3_column_int64(s, 0);
		r->label = pr_xstrdup((const char *)sqlite3_column_text(s, 1));
		r->hash = pr_xstrdup((const char *)sqlite3_column_text(s, 2));
		r->source = pr_xstrdup((const char *)sqlite3_column_text(s, 3));
		r->has = 0;
		r->t = 0;
		if (t && pr_cli_meta_time(t, &r->t) == 0)
			r->has = 1;
		else if (sqlite3_column_type(s, 4) != SQLITE_NULL &&
			 sqlite3_column_type(s, 5) != SQLITE_NULL &&
			 /* as the model's clock: no epoch start when the sum overflows */
			 !__builtin_add_overflow(sqlite3_column_int64(s, 4),
						 pr_time_clamp(sqlite3_column_int64(s, 5)),
						 &epoch)) {
			r->has = 1;
			r->t = epoch;
		}
	}
	sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		pr_archive_plan(a, runs, n);
	for (i = 0; i < n; i++) {
		free((char *)runs[i].label);
		free((char *)runs[i].hash);
		free((char *)runs[i].source);
	}
	free(runs);
	if (rc != SQLITE_DONE)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	/* what the index reads of every run of the store, whatever it writes */
	if (timed)
		fprintf(stderr, "profreport: timing: index plan %zu run(s) %.6f %.6f\n", n,
			pr_clock_s(CLOCK_MONOTONIC) - t0,
			pr_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0);
	return 0;
}

/* ---- -j N: an archive's runs analysed and their pages written by workers ---- */

/*
 * Each worker opens the store again (a connection of its own, read-only),
 * builds a run's model (or reads it from the cache), writes its page as
 * one process would and hands back the page's name, the run's digest for
 * the index and the cache rows it built; the parent adds them in run order
 * and is the store's one writer (pr_store_cache_take). The record: 'W'
 * (page written) or 'S' (already there), then NUL-ended texts: the name,
 * the digest, and six per cache row (run, hash, analyser, options, model,
 * digest).
 */
struct par_archive {
	struct pr_archive *a; /* the parent's, copied by fork */
	struct report_state *rs;
	const struct pr_model_opts *mo;
	const char *store_path;
	int64_t *ids;
	struct pr_store *st; /* a worker's own connection, opened at its first run */
	struct pr_strbuf *rec;
};

static void rec_str(struct pr_strbuf *rec, const char *s)
{
	pr_strbuf_add(rec, s ? s : "", strlen(s ? s : "") + 1);
}

static void rec_cache_row(void *ctx, int64_t run, const char *hash, const char *analyzer,
			  const char *options, const char *model, const char *digest)
{
	struct par_archive *p = ctx;
	char id[32];
	snprintf(id, sizeof(id), "%" PRId64, run);
	rec_str(p->rec, id);
	rec_str(p->rec, hash);
	rec_str(p->rec, analyzer);
	rec_str(p->rec, options);
	rec_str(p->rec, model);
	rec_str(p->rec, digest);
}

static int par_add(void *ctx, json_t *run, int whole, struct pr_error *err)
{
	struct par_archive *p = ctx;
	size_t n = pr_archive_count(p->a);
	char *d, *href;
	json_t *digest;
	if (pr_archive_add(p->a, run, whole, err))
		return -1;
	if (pr_archive_count(p->a) == n)
		return 0; /* not kept */
	pr_archive_pop(p->a, &href, &digest);
	d = json_dumps(digest, JSON_COMPACT | JSON_PRESERVE_ORDER);
	pr_strbuf_addstr(p->rec, whole ? "W" : "S");
	rec_str(p->rec, href);
	rec_str(p->rec, d);
	free(d);
	json_decref(digest);
	free(href);
	pr_store_cache_take(p->st, rec_cache_row, p);
	return 0;
}

static int par_want(void *ctx, int64_t id, const char *label, const char *hash)
{
	const struct par_archive *p = ctx;
	return pr_archive_want(p->a, id, label, hash);
}

static int par_run(void *ctx, size_t i, struct pr_strbuf *rec, struct pr_error *err)
{
	struct par_archive *p = ctx;
	struct pr_model_opts mo = *p->mo;
	if (!p->st && pr_store_open(&p->st, p->store_path, PR_STORE_READONLY, err))
		return -1;
	p->rs->show_progress = 0;
	mo.progress = NULL;
	mo.run = (long)p->ids[i];
	p->rec = rec;
	return pr_model_each(p->st, &mo, par_want, par_add, p, err);
}

/* The next NUL-ended text of a record, or NULL past its end. */
static const char *rec_next(const struct pr_strbuf *rec, size_t *at)
{
	const char *s = rec->buf + *at;
	if (*at >= rec->len)
		return NULL;
	*at += strlen(s) + 1;
	return *at <= rec->len ? s : NULL;
}

/* In the parent: a worker's record into the archive (while the workers work). */
static int par_fold(struct pr_archive *a, const struct pr_strbuf *rec, struct pr_error *err)
{
	const char *name, *digest;
	json_error_t je;
	json_t *d;
	size_t at = 1;
	if (!rec->len)
		return 0; /* a run not kept */
	name = rec_next(rec, &at);
	digest = rec_next(rec, &at);
	d = name && digest ? json_loads(digest, 0, &je) : NULL;
	if (!d)
		return pr_error_set(err, PR_E_IO, "a worker's record does not read back");
	pr_archive_fold(a, name, d, rec->buf[0] == 'W');
	return 0;
}

/*
 * In the parent, once the workers have ended (their connections read no
 * more): a record's cache rows queued for the store, written every 32 MiB
 * of text as pr_model_each does.
 */
static void par_cache(struct pr_store *store, const struct pr_strbuf *rec)
{
	const char *f[6];
	size_t at = 1, k;
	if (!rec->len || !rec_next(rec, &at) || !rec_next(rec, &at))
		return;
	for (;;) {
		int64_t id;
		for (k = 0; k < 6 && (f[k] = rec_next(rec, &at)); k++)
			;
		if (k < 6)
			break;
		if (pr_decimal_scaled(f[0], strlen(f[0]), 0, &id) == 0)
			pr_store_cache_put(store, id, f[1], f[2], f[3], f[4], f[5]);
	}
	if (pr_store_cache_pending(store) >= (32u << 20))
		pr_store_cache_flush(store);
}

/* pr_model_each(store, mo, pr_archive_want, pr_archive_add, a) by rs->jobs processes: the runs
 * mo->ids lists (write_archive's plan: those of the index pages to write). */
static int archive_parallel(struct report_state *rs, struct pr_archive *a, struct pr_store *store,
			    const struct pr_model_opts *mo, struct pr_error *err)
{
	struct par_archive p;
	struct pr_strbuf rec = PR_STRBUF_INIT;
	struct pr_par *par = NULL;
	size_t n = mo->nids, i = 0, k;
	int rc = -1;
	memset(&p, 0, sizeof(p));
	/* the runs of the index pages to write: write_archive's plan (archive_plan) */
	p.ids = pr_xcalloc(n + 1, sizeof(*p.ids));
	if (n)
		memcpy(p.ids, mo->ids, n * sizeof(*p.ids));
	if (mo->run && n == 0) {
		free(p.ids);
		return pr_error_set(err, PR_E_USAGE, "no run %ld in the store", mo->run);
	}
	if (n < 2 || pr_archive_pages_to_write(a, p.ids, n, 2) < 2) {
		/* one process: no second connection of our own beside the store's; nor
		 * workers for at most one page to write (the others' digests come from the
		 * cache: one new run in an archive of many) */
		free(p.ids);
		return pr_model_each(store, mo, pr_archive_want, pr_archive_add, a, err);
	}
	p.a = a;
	p.rs = rs;
	p.mo = mo;
	p.store_path = pr_store_path(store);
	rs->progress_total = n;
	par = pr_par_run(n, rs->jobs, par_run, &p, err);
	for (i = 0; par && i < n; i++) {
		size_t had = pr_archive_count(a);
		if (rs->show_progress)
			progress(rs, i + 1, n, "");
		if (pr_par_get(par, i, &rec, err) < 0 || par_fold(a, &rec, err))
			break;
		if (pr_archive_count(a) > had && rec.buf[0] == 'W')
			/* as -j 1 says it: the page the workers wrote, in input order */
			page_progress(rs, i + 1,
				      json_string_value(
					      json_object_get(pr_archive_digest(a, pr_archive_count(
											   a) -
											   1),
							      PRK_LABEL)));
	}
	rc = par && i == n ? 0 : -1;
	/* the store's one writer, once no worker reads it: what was built is
	 * cached even when a later run failed */
	pr_par_end(par);
	for (k = 0; par && k < i; k++) {
		struct pr_error ignored = PR_ERROR_INIT;
		if (pr_par_reread(par, k, &rec, &ignored) >= 0)
			par_cache(store, &rec);
	}
	if (pr_store_cache_pending(store))
		pr_store_cache_flush(store);
	pr_par_free(par);
	pr_strbuf_release(&rec);
	free(p.ids);
	return rc;
}

/*
 * model NULL: the runs come from the store, one at a time. index NULL: the
 * index is DIR/index.html; else that file, linking to the pages as
 * <DIR's name>/<page>, with `note` above its table (why it is an archive).
 */
static int write_archive(struct report_state *rs, const json_t *model, struct pr_store *store,
			 const struct pr_model_opts *mo, const char *dir, const char *index,
			 const char *note, const struct pr_cli_input *in, struct pr_error *err)
{
	struct pr_archive *a;
	struct pr_strbuf stamp = PR_STRBUF_INIT;
	struct pr_model_opts only;
	char path[4096];
	size_t written, skipped;
	int64_t *ids = NULL;
	int rc;
	if (pr_env_number(PR_HTML_INDEX_ROWS_ENV, PR_HTML_INDEX_ROWS_DEFAULT, 2, 1000000, 0,
			  &pr_html_index_rows, err))
		return -1;
	if (pr_archive_open(&a, dir, index, in && in->runs ? in->runs : NULL,
			    in && in->runs ? in->nruns : 0, run_time, err))
		return -1;
	pr_archive_set_progress(a, page_progress, rs);
	if (pr_model_options_stamp(rs->mo, &stamp, err)) {
		pr_strbuf_release(&stamp);
		pr_archive_free(a);
		return -1;
	}
	pr_archive_set_stamp(a, stamp.buf);
	pr_strbuf_release(&stamp);
	if (model)
		rs->progress_total = json_array_size(json_object_get(model, PRK_RUNS));
	else if (archive_plan(a, store, mo, err)) {
		pr_archive_free(a);
		return -1;
	} else {
		/* only the runs of the index pages to write: looked up, not scanned again */
		only = *mo;
		only.ids = ids = pr_archive_needed_ids(a, &only.nids);
		mo = &only;
	}
	rc = model	    ? pr_archive_model(a, model, err)
	     : rs->jobs > 1 ? archive_parallel(rs, a, store, mo, err)
			    : pr_model_each(store, mo, pr_archive_want, pr_archive_add, a, err);
	free(ids);
	if (!rc)
		rc = pr_archive_finish(a, note, path, sizeof(path), &written, &skipped, err);
	pr_archive_free(a);
	if (!rc && !rs->quiet)
		fprintf(stderr,
			"profreport: report: %zu report(s) written, %zu already there (same "
			"content hash), index '%s'\n",
			written, skipped, path);
	return rc;
}

/*
 * The page budget (docs/report.md, "Page budget"): a page of more runs
 * than this, or of several runs and more bytes, is written as an archive
 * instead, FILE.html the index and the runs' pages in FILE.runs/. Measured
 * here (headless Chromium, the page's pr-ready mark): README's 79 samples
 * are a 6.2 MB page ready in 0.8 s; tiny runs take about 10 ms and 40 KB
 * each (100: 4.0 MB in 1.1 s; 400: 15.8 MB in 4.0 s).
 */
#define PAGE_MAX_RUNS 100
#define PAGE_MAX_BYTES (10LL << 20)

/* FILE.html -> FILE.runs (a new string). */
static char *runs_dir(const char *page)
{
	size_t n = strlen(page), ext = !strcasecmp(page + n - 4, ".htm") ? 4 : 5;
	char *d = pr_xmalloc(n - ext + 6);
	memcpy(d, page, n - ext);
	memcpy(d + n - ext, ".runs", 6);
	return d;
}

/* -o FILE.html of too many runs (or bytes): the archive, said on stderr and on the index. */
static int page_as_archive(struct report_state *rs, const json_t *model, struct pr_store *store,
			   const struct pr_model_opts *mo, const char *html, long long nruns,
			   long long bytes, struct pr_error *err)
{
	char *dir = runs_dir(html), note[512];
	int rc;
	if (bytes)
		snprintf(note, sizeof(note),
			 "%lld runs make a page of %.1f MiB, over the budget of one page "
			 "(%lld MiB): one page per run in %s/, this page their index.",
			 nruns, (double)bytes / 1048576, PAGE_MAX_BYTES >> 20, dir);
	else
		snprintf(note, sizeof(note),
			 "%lld runs, more than one page holds (%d): one page per run in %s/, "
			 "this page their index.",
			 nruns, PAGE_MAX_RUNS, dir);
	if (!rs->quiet)
		fprintf(stderr, "profreport: report: '%s': %s\n", html, note);
	rc = write_archive(rs, model, store, mo, dir, html, note, NULL, err);
	free(dir);
	return rc;
}

/* The one page, or an archive when it would be over the page budget. */
static int write_page_budget(struct report_state *rs, const json_t *model, const char *html,
			     int *archived, struct pr_error *err)
{
	struct stat sb;
	size_t n = json_array_size(json_object_get(model, PRK_RUNS));
	if (write_page(rs, model, html, err))
		return -1;
	if (n < 2 || stat(html, &sb) || sb.st_size <= PAGE_MAX_BYTES)
		return 0;
	*archived = 1;
	return page_as_archive(rs, model, NULL, NULL, html, (long long)n, (long long)sb.st_size,
			       err);
}

/*
 * -o PATH: FILE.html or FILE.htm (any case) is one page; a path ending in
 * '/', an existing directory or a name without an extension is an archive
 * directory; another extension (report.txt, report.pdf) is refused rather
 * than silently made a directory.
 */
static int is_page(const char *path)
{
	size_t n = strlen(path);
	return (n > 5 && !strcasecmp(path + n - 5, ".html")) ||
	       (n > 4 && !strcasecmp(path + n - 4, ".htm"));
}

static int check_output(const char *path, struct pr_error *err)
{
	const char *base = strrchr(path, '/'), *dot;
	struct stat sb;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!*path || (!is_page(path) && *base && dot && dot != base && stat(path, &sb) != 0))
		return pr_error_set(
			err, PR_E_USAGE,
			"'-o %s': the report is FILE.html (one page) or a directory (a name "
			"without an extension, or ending in '/')",
			path);
	return 0;
}

/* --trace FILE: one run's spans (and memory series) as a Chrome trace (chrome_merge.h). */
static int write_trace(struct pr_store *st, long run, const char *path, int quiet,
		       struct pr_error *err)
{
	struct pr_chrome_merge *m;
	const struct pr_spanwalk_stats *ms;
	if (!run && pr_store_run_count(st) > 1)
		return pr_error_set(err, PR_E_USAGE,
				    "--trace writes one run: the store has %lld, give --run ID",
				    (long long)pr_store_run_count(st));
	if (pr_chrome_merge_open(&m, path, err))
		return -1;
	if (pr_chrome_merge_add(m, st, run, 0, err)) {
		pr_chrome_merge_free(m);
		return -1;
	}
	ms = pr_chrome_merge_stats(m);
	if (ms->clamped)
		fprintf(stderr,
			"profreport: report: %s: %lld span(s) ended after their parent and were "
			"clamped to its end\n",
			path, (long long)ms->clamped);
	if (pr_chrome_merge_close(m, err))
		return -1;
	if (!quiet)
		fprintf(stderr, "profreport: report: wrote the Chrome trace '%s'\n", path);
	return 0;
}

#define PR_KEPT_STORE ".profreport.db" /* an archive's store, in its directory */

/*
 * The INPUTs. An archive alone (-o DIR, no --json, --png, --svg, --trace)
 * of trace files or directories keeps its store as DIR/.profreport.db
 * (docs/report.md, "Archives"): a second call ingests only the files whose
 * content is not there yet and reads the other runs' models from its cache.
 */
static int open_input(struct pr_cli_input *in, const struct pr_command *cmd, struct pr_args *a,
		      const struct report_opts *o, const struct pr_cli_inopts *io, int archive,
		      struct pr_error *err)
{
	const char *dir = o->output;
	char kept[4096];
	if (!archive)
		return pr_cli_input_open_opts(in, cmd->name, a->pos, a->npos, io, err);
	if (mkdir(dir, 0777) && errno != EEXIST)
		return pr_error_set(err, PR_E_IO, "cannot create the directory '%s': %s", dir,
				    strerror(errno));
	snprintf(kept, sizeof(kept), "%s%s" PR_KEPT_STORE, dir,
		 *dir && dir[strlen(dir) - 1] == '/' ? "" : "/");
	{
		/* the archive's own name: a link planted there would have SQLite write
		 * through it into another file (issue 30 S1) */
		struct stat sb;
		if (!lstat(kept, &sb) && !S_ISREG(sb.st_mode)) {
			pr_error_set(err, PR_E_IO,
				     "is not a regular file (a link, a directory, a FIFO): not "
				     "the archive's store; remove it");
			pr_error_set_source(err, kept);
			return -1;
		}
	}
	if (pr_cli_input_open_kept(in, cmd->name, a->pos, a->npos, io, kept, err))
		return -1;
	if (in->runs && !o->quiet)
		fprintf(stderr,
			"profreport: report: %zu file(s) ingested, %zu already in '%s' (same "
			"content hash): %zu run(s)\n",
			in->ingested, in->reused, kept, in->nruns);
	return 0;
}

static int cmd_report(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_model_opts mo = PR_MODEL_OPTS_INIT;
	struct report_opts o = { .top = (int64_t)mo.top_n,
				 .timeline_points = (int64_t)mo.timeline_points };
	struct pr_trace_window tw;
	struct pr_cli_input in;
	struct pr_cli_inopts io;
	struct pr_cli_meta meta;
	const char *json, *trace, *png, *svg, *html;
	json_t *model;
	int rc, page, quiet, archived = 0;
	long long many = 0;
	size_t nruns, npng = 0, nsvg = 0;
	struct report_state rs = { .jobs = 1 };
	/* a bad number is said where it was before: after "nothing to write" and -o */
	struct pr_error oerr = PR_ERROR_INIT;
	int obad = pr_opt_fill(cmd->opts, a, &o, &oerr);
	json = o.json;
	trace = o.trace;
	png = o.png;
	svg = o.svg;
	html = o.output;
	quiet = rs.quiet = o.quiet;
	io = (struct pr_cli_inopts){ o.format, o.phases, quiet, NULL, 0, 0 };
	if (!json && !png && !svg && !html && !trace)
		return pr_error_set(err, PR_E_USAGE,
				    "nothing to write: give -o report.html (or a directory), "
				    "--json FILE, --png DIR, --svg DIR or --trace FILE");
	if (html && check_output(html, err))
		return -1;
	if (obad) {
		*err = oerr;
		return -1;
	}
	mo.top_n = (size_t)o.top;
	mo.run = (long)o.run;
	mo.timeline_points = (size_t)o.timeline_points;
	mo.comm_kernels = o.comm_kernels;
	mo.critpath_annotation = o.critpath_annotation;
	mo.window = o.window;
	if (mo.window && pr_trace_window_parse(mo.window, &tw, err))
		return -1;
	if (pr_par_jobs(o.jobs, &rs.jobs, err) || pr_cli_meta_parse(cmd, a, &meta, err))
		return -1;
	rs.mo = &mo;
	if (meta.n && a->npos == 1 && pr_cli_is_store(a->pos[0])) {
		pr_cli_meta_release(&meta);
		return pr_error_set(err, PR_E_USAGE,
				    "--meta labels the runs this command ingests; the runs of a "
				    "store keep the labels they were ingested with");
	}
	io.meta = (const char *const *)meta.kv;
	io.nmeta = meta.n;
	rc = open_input(&in, cmd, a, &o, &io,
			html && !is_page(html) && !json && !png && !svg && !trace, err);
	pr_cli_meta_release(&meta);
	if (rc)
		return -1;
	/* the run's spans as a Chrome trace (the Perfetto-loadable file), before the analysis */
	if (trace && write_trace(in.store, mo.run, trace, quiet, err)) {
		pr_cli_input_close(&in);
		return -1;
	}
	/* a store given as it is keeps its runs' models (docs/store.md, the model cache) */
	mo.cache = !in.tmp_path && !o.no_cache;
	rs.show_progress = isatty(2) && !quiet;
	if (rs.show_progress) {
		rs.stage = "analyzing";
		mo.progress = progress;
		mo.progress_ctx = &rs;
	}
	/* more runs than a page holds: an archive (taking its runs one at a time) */
	page = html && is_page(html);
	if (page && !mo.run && pr_store_run_count(in.store) > PAGE_MAX_RUNS) {
		page = 0;
		many = pr_store_run_count(in.store);
	}
	/* an archive alone takes its runs one at a time; anything else needs the whole model */
	model = NULL;
	if ((json || png || svg || page) && !(model = pr_model_build(in.store, &mo, err))) {
		progress_done(&rs);
		pr_cli_input_close(&in);
		return -1;
	}
	progress_done(&rs);
	nruns = json_array_size(json_object_get(model, PRK_RUNS));
	rc = (json && pr_model_write(model, json, err)) ||
			     (page && write_page_budget(&rs, model, html, &archived, err)) ||
			     (many &&
			      page_as_archive(&rs, model, in.store, &mo, html, many, 0, err)) ||
			     (html && !is_page(html) &&
			      write_archive(&rs, model, in.store, &mo, html, NULL, NULL, &in,
					    err)) ||
			     (png && write_panels(&rs, model, png, PR_GFX_PNG, &npng, err)) ||
			     (svg && write_panels(&rs, model, svg, PR_GFX_SVG, &nsvg, err))
		     ? -1
		     : 0;
	progress_done(&rs);
	json_decref(model);
	pr_cli_input_close(&in);
	/* what was written, on stderr (an archive says it itself) */
	if (!rc && !quiet) {
		if (json && strcmp(json, "-"))
			fprintf(stderr, "profreport: report: wrote the model '%s' (%zu run%s)\n",
				json, nruns, nruns == 1 ? "" : "s");
		if (page && !archived)
			fprintf(stderr, "profreport: report: wrote '%s' (%zu run%s)\n", html, nruns,
				nruns == 1 ? "" : "s");
		if (png)
			fprintf(stderr, "profreport: report: wrote %zu PNG panel%s into '%s'\n",
				npng, npng == 1 ? "" : "s", png);
		if (svg)
			fprintf(stderr, "profreport: report: wrote %zu SVG panel%s into '%s'\n",
				nsvg, nsvg == 1 ? "" : "s", svg);
	}
	return rc;
}

const struct pr_command pr_cmd_report = {
	.name = "report",
	.fn = cmd_report,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "report INPUT...",
	.summary =
		"analyze runs: peaks, phases, fragmentation, throughput, bottlenecks, leaks, recommendations",
	.help = "INPUT is a store, trace files or directories (ingested into a temporary store).\n"
		"The model's schema is documented in docs/analysis.md\n"
		"(JSON Schema: docs/schema/model.schema.json).\n"
		"--phases FILE attaches a phase log to the run of the one trace file.",
};
