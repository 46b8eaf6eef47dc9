/* archive.c - an archive of run reports and their index (archive.h), moved here from
 * cli/cmd_report.c: the command says where the runs come from, this writes the files. */
#include "render/archive.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/model.h"
#include "base/output.h"
#include "base/xalloc.h"
#include "render/html_report.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

struct pr_archive {
	const char *dir, *sep; /* the pages' directory; "/" unless it ends with one */
	char *href;	       /* the pages' directory as the index links it ("" or "DIR/") */
	const char *index;     /* the index's path, or NULL: DIR/index.html */
	json_t *head;	       /* schema and version, for the pages' subtitle */
	const int64_t *keep;   /* only these runs (sorted), or NULL: every run */
	size_t nkeep;
	pr_archive_time_fn *time;
	pr_archive_page_fn *page;
	void *page_ctx;
	json_t **digests;
	char **names;
	size_t n, cap, written, skipped;
};

int pr_archive_write_html(const json_t *model, json_t *const *runs, size_t n, const char *path,
			  int own, struct pr_error *err)
{
	struct pr_output out;
	if (own ? pr_output_open_own(&out, path, err) : pr_output_open_file(&out, path, err))
		return -1;
	if (pr_html_report(model, runs, n, &out, err) || pr_output_close(&out, err)) {
		pr_output_release(&out);
		return -1;
	}
	pr_output_release(&out);
	return 0;
}

static void page_name(const char *label, const char *hash, char name[200])
{
	char *p;
	snprintf(name, 200, "%.60s-%.12s.html", label ? label : "run", hash ? hash : "");
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
			*p = '_';
}

static int cmp_id(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
	return a < b ? -1 : a > b;
}

int pr_archive_kept(const struct pr_archive *a, int64_t id)
{
	return !a->keep || bsearch(&id, a->keep, a->nkeep, sizeof(id), cmp_id);
}

/*
 * Is path a page written whole: a regular file (not a link, a directory, a
 * FIFO) that ends with the page's closing tag? Only then is a run "already
 * there"; an empty file or anything else in its place is written again.
 */
static int complete_page(const char *path)
{
	struct stat sb;
	char tail[32];
	ssize_t n;
	int fd, ok = 0;
	if (lstat(path, &sb) || !S_ISREG(sb.st_mode) || sb.st_size < (off_t)sizeof(tail))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = pread(fd, tail, sizeof(tail) - 1, sb.st_size - (off_t)sizeof(tail) + 1);
	if (n > 0) {
		tail[n] = '\0';
		ok = strstr(tail, "</html>") != NULL;
	}
	close(fd);
	return ok;
}

int pr_archive_want(void *ctx, int64_t id, const char *label, const char *hash)
{
	struct pr_archive *a = ctx;
	char name[200], path[4096];
	if (!pr_archive_kept(a, id))
		return 0;
	page_name(label, hash, name);
	snprintf(path, sizeof(path), "%s%s%s", a->dir, a->sep, name);
	return !complete_page(path);
}

static void grow(struct pr_archive *a)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		a->digests = pr_xreallocarray(a->digests, a->cap, sizeof(*a->digests));
		a->names = pr_xreallocarray(a->names, a->cap, sizeof(*a->names));
	}
}

int pr_archive_add(void *ctx, json_t *run, int whole, struct pr_error *err)
{
	struct pr_archive *a = ctx;
	char name[200], path[4096];
	if (!pr_archive_kept(a, (int64_t)json_integer_value(json_object_get(run, PRK_ID))))
		return 0; /* a run of the kept store whose file is gone or changed */
	page_name(json_string_value(json_object_get(run, PRK_LABEL)),
		  json_string_value(json_object_get(run, PRK_CONTENT_HASH)), name);
	if (whole) {
		snprintf(path, sizeof(path), "%s%s%s", a->dir, a->sep, name);
		if (a->page)
			a->page(a->page_ctx, a->n + 1,
				json_string_value(json_object_get(run, PRK_LABEL)));
		if (pr_archive_write_html(a->head, &run, 1, path, 1, err))
			return -1;
		a->written++;
	} else {
		a->skipped++;
	}
	grow(a);
	a->digests[a->n] = whole ? pr_model_digest(run) : json_incref(run);
	snprintf(path, sizeof(path), "%s%s", a->href, name);
	a->names[a->n++] = pr_xstrdup(path);
	return 0;
}

int pr_archive_model(struct pr_archive *a, const json_t *model, struct pr_error *err)
{
	json_t *run;
	size_t i;
	json_array_foreach (json_object_get(model, PRK_RUNS), i, run) {
		json_t *r = run;
		const char *label = json_string_value(json_object_get(run, PRK_LABEL));
		const char *hash = json_string_value(json_object_get(run, PRK_CONTENT_HASH));
		int whole = pr_archive_want(a, 0, label, hash);
		if (!whole)
			r = pr_model_digest(run);
		if (pr_archive_add(a, r, whole, err)) {
			if (!whole)
				json_decref(r);
			return -1;
		}
		if (!whole)
			json_decref(r);
	}
	return 0;
}

size_t pr_archive_count(const struct pr_archive *a)
{
	return a->n;
}

const json_t *pr_archive_digest(const struct pr_archive *a, size_t i)
{
	return i < a->n ? a->digests[i] : NULL;
}

void pr_archive_pop(struct pr_archive *a, char **href, json_t **digest)
{
	a->n--;
	*href = a->names[a->n];
	*digest = a->digests[a->n];
}

void pr_archive_fold(struct pr_archive *a, const char *href, json_t *digest, int written)
{
	grow(a);
	a->digests[a->n] = digest;
	a->names[a->n++] = pr_xstrdup(href);
	if (written)
		a->written++;
	else
		a->skipped++;
}

int pr_archive_open(struct pr_archive **out, const char *dir, const char *index,
		    const int64_t *keep, size_t nkeep, pr_archive_time_fn *time,
		    struct pr_error *err)
{
	struct pr_archive *a = pr_xcalloc(1, sizeof(*a));
	char path[4096];
	*out = NULL;
	a->keep = keep;
	a->nkeep = keep ? nkeep : 0;
	a->time = time;
	a->dir = dir;
	a->index = index;
	a->sep = *dir && dir[strlen(dir) - 1] == '/' ? "" : "/";
	if (index) {
		const char *base = strrchr(dir, '/');
		snprintf(path, sizeof(path), "%s/", base ? base + 1 : dir);
		a->href = pr_xstrdup(path);
	} else {
		a->href = pr_xstrdup("");
	}
	a->head = json_pack("{s:s, s:i}", "schema", PR_MODEL_SCHEMA, "version", PR_MODEL_VERSION);
	if (mkdir(dir, 0777) && errno != EEXIST) {
		pr_error_set(err, PR_E_IO, "cannot create the directory '%s': %s", dir,
			     strerror(errno));
		pr_archive_free(a);
		return -1;
	}
	*out = a;
	return 0;
}

void pr_archive_set_progress(struct pr_archive *a, pr_archive_page_fn *fn, void *ctx)
{
	a->page = fn;
	a->page_ctx = ctx;
}

void pr_archive_free(struct pr_archive *a)
{
	size_t i;
	if (!a)
		return;
	for (i = 0; i < a->n; i++) {
		json_decref(a->digests[i]);
		free(a->names[i]);
	}
	free(a->digests);
	free(a->names);
	free(a->href);
	json_decref(a->head);
	free(a);
}

/*
 * The index at path; past PR_HTML_INDEX_ROWS runs in parts, path then the
 * first and STEM-2.html, STEM-3.html, ... beside it the others.
 */
static int write_index(const struct pr_html_index_row *rows, size_t nrows, const char *path,
		       const char *note, int own, struct pr_error *err)
{
	size_t nparts = nrows ? (nrows + PR_HTML_INDEX_ROWS - 1) / PR_HTML_INDEX_ROWS : 1, k;
	const char *base = strrchr(path, '/');
	size_t dirlen = base ? (size_t)(base - path) + 1 : 0;
	char **parts = pr_xcalloc(nparts, sizeof(*parts)), file[4096];
	struct pr_html_index_all *all = pr_html_index_all_new(rows, nrows);
	int rc = 0;
	base = base ? base + 1 : path;
	for (k = 0; k < nparts; k++) {
		size_t stem = strlen(base) - (strrchr(base, '.') ? strlen(strrchr(base, '.')) : 0);
		if (!k)
			parts[k] = pr_xstrdup(base);
		else {
			snprintf(file, sizeof(file), "%.*s-%zu.html", (int)stem, base, k + 1);
			parts[k] = pr_xstrdup(file);
		}
	}
	for (k = 0; k < nparts && !rc; k++) {
		struct pr_output out = { 0 };
		snprintf(file, sizeof(file), "%.*s%s", (int)dirlen, path, parts[k]);
		/* the user's index name follows a link; the parts after it and an
		 * archive directory's index.html are names of profreport's own */
		if ((own || k ? pr_output_open_own(&out, file, err)
			      : pr_output_open_file(&out, file, err)) ||
		    pr_html_index_part_all(rows, nrows, all, k, (const char *const *)parts, nparts,
					   note, &out, err) ||
		    pr_output_close(&out, err))
			rc = -1;
		pr_output_release(&out);
	}
	for (k = 0; k < nparts; k++)
		free(parts[k]);
	free(parts);
	pr_html_index_all_free(all);
	return rc;
}

/* The index's order: by time (runs without one last), then by id; each run's time read once. */
struct timed_row {
	struct pr_html_index_row row;
	int64_t t;
	int has; /* a time */
	json_int_t id;
};

static int by_time(const void *a, const void *b)
{
	const struct timed_row *x = a, *y = b;
	if (x->has && y->has && x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->has != y->has)
		return x->has ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

int pr_archive_finish(struct pr_archive *a, const char *note, char *path, size_t n, size_t *written,
		      size_t *skipped, struct pr_error *err)
{
	struct pr_html_index_row *rows = pr_xcalloc(a->n + 1, sizeof(*rows));
	struct timed_row *tr = pr_xcalloc(a->n + 1, sizeof(*tr));
	size_t i;
	int rc;
	for (i = 0; i < a->n; i++) {
		tr[i].row.run = a->digests[i];
		tr[i].row.href = a->names[i];
		tr[i].has = a->time && a->time(a->digests[i], &tr[i].t);
		tr[i].id = json_integer_value(json_object_get(a->digests[i], PRK_ID));
	}
	qsort(tr, a->n, sizeof(*tr), by_time);
	for (i = 0; i < a->n; i++)
		rows[i] = tr[i].row;
	free(tr);
	if (a->index)
		snprintf(path, n, "%s", a->index);
	else
		snprintf(path, n, "%s%sindex.html", a->dir, a->sep);
	rc = write_index(rows, a->n, path, note, !a->index, err);
	free(rows);
	*written = a->written;
	*skipped = a->skipped;
	return rc;
}
