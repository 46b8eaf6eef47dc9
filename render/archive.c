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
#include "base/env.h"
#include "base/hash.h"
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
	char *salt; /* pr_archive_set_stamp */
	/* the index's runs in its order and its pages (plan()): before the runs come when
	 * pr_archive_plan was called (planned), else at pr_archive_finish */
	struct entry *ents;
	size_t nents;
	struct id_at *by_id;   /* ents' indices by id */
	size_t full;	       /* full pages */
	char **files;	       /* files[k] the full page k+1's name, files[full] the newest */
	char (*stamps)[33];    /* the full pages' stamps */
	unsigned char *stands; /* a full page already there with its stamp: not written again */
	int planned;
	size_t index_written, index_stood;
};

struct id_at {
	int64_t id;
	size_t at;
};

/* A run of the index: in its order (by_time), with what its page's stamp is made of. */
struct entry {
	int64_t id, t;
	int has;       /* a time */
	int need;      /* its digest is read: on a page to write or in the trends */
	size_t digest; /* its digest's index in digests + 1, or 0 */
	char *label, *hash, *source;
	char *href; /* its page's link, made when a page to write shows it */
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

/* ---- the index's pages: which stand, which runs' digests they need ---- */

static int by_time(const void *p, const void *q)
{
	const struct entry *x = p, *y = q;
	if (x->has && y->has && x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->has != y->has)
		return x->has ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_id(const void *p, const void *q)
{
	const struct id_at *x = p, *y = q;
	return x->id < y->id ? -1 : x->id > y->id;
}

static struct entry *find(const struct pr_archive *a, int64_t id)
{
	struct id_at key = { id, 0 }, *f;
	f = a->by_id ? bsearch(&key, a->by_id, a->nents, sizeof(key), by_id) : NULL;
	return f ? &a->ents[f->at] : NULL;
}

/* The index's path (the user's FILE.html, else DIR/index.html) into path. */
static void index_path(const struct pr_archive *a, char *path, size_t n)
{
	if (a->index)
		snprintf(path, n, "%s", a->index);
	else
		snprintf(path, n, "%s%sindex.html", a->dir, a->sep);
}

/* The path of the index's file `file` (beside the index) into out. */
static void beside_index(const struct pr_archive *a, const char *file, char *out, size_t n)
{
	char path[4096];
	const char *slash;
	index_path(a, path, sizeof(path));
	slash = strrchr(path, '/');
	if (snprintf(out, n, "%.*s%s", slash ? (int)(slash - path) + 1 : 0, path, file) >= (int)n)
		out[0] = '\0'; /* too long a path: no file (opening "" fails) */
}

/* Full page k's file name (k from 1): STEM-k.html beside the index's file STEM.EXT. */
static void full_page_file(const struct pr_archive *a, size_t k, char *out, size_t n)
{
	char path[4096];
	const char *slash, *dot;
	int stem;
	index_path(a, path, sizeof(path));
	slash = strrchr(path, '/');
	slash = slash ? slash + 1 : path;
	dot = strrchr(slash, '.');
	stem = dot ? (int)(dot - slash) : (int)strlen(slash);
	snprintf(out, n, "%.*s-%zu.html", stem, slash, k);
}

static void hash_field(struct pr_hash *h, const char *s)
{
	uint64_t len = strlen(s ? s : "");
	pr_hash_update(h, &len, sizeof(len));
	pr_hash_update(h, s ? s : "", (size_t)len);
}

/*
 * A full page's stamp: what its bytes are made from beside the renderer (profreport's version
 * and PR_INDEX_FORMAT): the page size, the analyser and options (the salt), the pages' link
 * prefix, and each of its runs' id, time, content hash, label (its page's name) and source.
 * Equal stamps: the same page.
 */
#define PR_INDEX_FORMAT "2"
static void page_stamp(const struct pr_archive *a, size_t k, char out[33])
{
	struct pr_hash h;
	size_t i, hi = (k + 1) * PR_HTML_INDEX_ROWS;
	uint64_t rows = PR_HTML_INDEX_ROWS;
	pr_hash_init(&h);
	hash_field(&h, "profreport " PR_VERSION " index " PR_INDEX_FORMAT);
	pr_hash_update(&h, &rows, sizeof(rows));
	hash_field(&h, a->salt);
	hash_field(&h, a->href);
	for (i = k * PR_HTML_INDEX_ROWS; i < hi; i++) {
		const struct entry *e = &a->ents[i];
		int64_t num[3] = { e->id, e->has, e->t };
		pr_hash_update(&h, num, sizeof(num));
		hash_field(&h, e->hash);
		hash_field(&h, e->label);
		hash_field(&h, e->source);
	}
	pr_hash_final_hex(&h, out);
}

/*
 * Is the page at path there whole (a regular file, its closing tag) with this stamp in its
 * head (stamp NULL: an index page of profreport's, by its stamp or its generator and title)?
 * Reads its first 2 KiB and its last bytes: not its runs, not their digests.
 */
static int page_stands(const char *path, const char *stamp)
{
	static const char tag[] = "<meta name=\"" PR_HTML_INDEX_STAMP "\" content=\"";
	char head[2049], *at;
	ssize_t n;
	int fd;
	if (!complete_page(path))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = pread(fd, head, sizeof(head) - 1, 0);
	close(fd);
	if (n <= 0)
		return 0;
	head[n] = '\0';
	at = strstr(head, tag);
	if (!stamp) /* any index page of profreport's, an older one's (no stamp) too */
		return at || (strstr(head, "<meta name=\"generator\" content=\"profreport\">") &&
			      strstr(head, " archived runs</title>"));
	if (!at)
		return 0;
	return !strncmp(at + sizeof(tag) - 1, stamp, 32) && at[sizeof(tag) - 1 + 32] == '"';
}

/*
 * The runs (ents) in the index's order, its pages and their stamps; a full page already there
 * with its stamp stands. A run's digest is needed when its page is to be written or it is in
 * the newest page's trends (the last PR_HTML_INDEX_ROWS runs).
 */
static void plan(struct pr_archive *a)
{
	size_t n = a->nents, i, k, tlo = n > PR_HTML_INDEX_ROWS ? n - PR_HTML_INDEX_ROWS : 0;
	char path[4096], *slash;
	qsort(a->ents, n, sizeof(*a->ents), by_time);
	a->by_id = pr_xcalloc(n + 1, sizeof(*a->by_id));
	for (i = 0; i < n; i++)
		a->by_id[i] = (struct id_at){ a->ents[i].id, i };
	qsort(a->by_id, n, sizeof(*a->by_id), by_id);
	a->full = n > PR_HTML_INDEX_ROWS ? (n - 1) / PR_HTML_INDEX_ROWS : 0;
	a->files = pr_xcalloc(a->full + 1, sizeof(*a->files));
	a->stamps = pr_xcalloc(a->full + 1, sizeof(*a->stamps));
	a->stands = pr_xcalloc(a->full + 1, 1);
	index_path(a, path, sizeof(path));
	slash = strrchr(path, '/');
	a->files[a->full] = pr_xstrdup(slash ? slash + 1 : path);
	for (k = 0; k < a->full; k++) {
		char file[4096];
		full_page_file(a, k + 1, file, sizeof(file));
		a->files[k] = pr_xstrdup(file);
		page_stamp(a, k, a->stamps[k]);
		beside_index(a, file, path, sizeof(path));
		a->stands[k] = page_stands(path, a->stamps[k]);
	}
	for (i = 0; i < n; i++)
		a->ents[i].need = i >= tlo || !a->stands[i / PR_HTML_INDEX_ROWS];
}

static void entry_set(struct entry *e, int64_t id, const char *label, const char *hash,
		      const char *source)
{
	e->id = id;
	e->label = pr_xstrdup(label ? label : "");
	e->hash = pr_xstrdup(hash ? hash : "");
	e->source = pr_xstrdup(source ? source : "");
}

/* Its page's link (the pages' directory as the index links it, then page_name). */
static const char *entry_href(const struct pr_archive *a, struct entry *e)
{
	char name[200], href[4096];
	if (!e->href) {
		page_name(e->label, e->hash, name);
		snprintf(href, sizeof(href), "%s%s", a->href, name);
		e->href = pr_xstrdup(href);
	}
	return e->href;
}

void pr_archive_plan(struct pr_archive *a, const struct pr_archive_run *runs, size_t n)
{
	size_t i;
	a->ents = pr_xcalloc(n + 1, sizeof(*a->ents));
	for (i = 0; i < n; i++) {
		struct entry *e = &a->ents[a->nents];
		if (!pr_archive_kept(a, runs[i].id))
			continue;
		entry_set(e, runs[i].id, runs[i].label, runs[i].hash, runs[i].source);
		e->has = runs[i].has;
		e->t = runs[i].has ? runs[i].t : 0;
		a->nents++;
	}
	plan(a);
	a->planned = 1;
}

/* Is run id's digest needed (kept, and on a page to write or in the trends)? */
static int needed(const struct pr_archive *a, int64_t id)
{
	const struct entry *e;
	if (!pr_archive_kept(a, id))
		return 0;
	if (!a->planned)
		return 1;
	e = find(a, id);
	return e && e->need;
}

int64_t *pr_archive_needed_ids(const struct pr_archive *a, size_t *n)
{
	int64_t *ids;
	size_t i;
	*n = 0;
	if (!a->planned)
		return NULL;
	ids = pr_xcalloc(a->nents + 1, sizeof(*ids));
	for (i = 0; i < a->nents; i++) /* by_id: ascending */
		if (a->ents[a->by_id[i].at].need)
			ids[(*n)++] = a->by_id[i].id;
	return ids;
}

void pr_archive_set_stamp(struct pr_archive *a, const char *salt)
{
	free(a->salt);
	a->salt = pr_xstrdup(salt ? salt : "");
}

/* The plan's entry of the run added last, or NULL. */
static struct entry *last_entry(const struct pr_archive *a)
{
	if (!a->planned || !a->n)
		return NULL;
	return find(a, (int64_t)json_integer_value(json_object_get(a->digests[a->n - 1], PRK_ID)));
}

/* The run just added: its digest for its entry of the plan. */
static void attach(struct pr_archive *a)
{
	struct entry *e = last_entry(a);
	if (e)
		e->digest = a->n;
}

/* Is the page of the run (label, hash) in the archive whole? */
static int page_there(const struct pr_archive *a, const char *label, const char *hash)
{
	char name[200], path[4096];
	page_name(label, hash, name);
	snprintf(path, sizeof(path), "%s%s%s", a->dir, a->sep, name);
	return complete_page(path);
}

int pr_archive_want(void *ctx, int64_t id, const char *label, const char *hash)
{
	struct pr_archive *a = ctx;
	if (!pr_archive_kept(a, id))
		return a->planned ? -1 : 0;
	if (!needed(a, id))
		return -1; /* on a full page that stands: neither its page nor its digest */
	return !page_there(a, label, hash);
}

size_t pr_archive_pages_to_write(const struct pr_archive *a, const int64_t *ids, size_t n,
				 size_t stop)
{
	size_t i, m = 0;
	if (!a->planned)
		return n;
	for (i = 0; i < n && m < stop; i++) {
		const struct entry *e = find(a, ids[i]);
		if (e && e->need)
			m += !page_there(a, e->label, e->hash);
	}
	return m;
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
	attach(a);
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
	struct entry *e = last_entry(a);
	if (e)
		e->digest = 0;
	a->n--;
	*href = a->names[a->n];
	*digest = a->digests[a->n];
}

void pr_archive_fold(struct pr_archive *a, const char *href, json_t *digest, int written)
{
	grow(a);
	a->digests[a->n] = digest;
	a->names[a->n++] = pr_xstrdup(href);
	attach(a);
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
	for (i = 0; i < a->nents; i++) {
		free(a->ents[i].label);
		free(a->ents[i].href);
		free(a->ents[i].hash);
		free(a->ents[i].source);
	}
	free(a->ents);
	free(a->by_id);
	for (i = 0; a->files && i <= a->full; i++)
		free(a->files[i]);
	free(a->files);
	free(a->stamps);
	free(a->stands);
	free(a->salt);
	free(a->href);
	json_decref(a->head);
	free(a);
}

/* One page of the index (rows lo..hi; k < full: a full page) at path. */
static int write_index_page(struct pr_archive *a, const struct pr_html_index_row *rows, size_t k,
			    const char *note, struct pr_error *err)
{
	size_t n = a->nents, lo = k * PR_HTML_INDEX_ROWS, i;
	struct pr_html_index_page p = { rows,
					n,
					lo,
					k < a->full ? lo + PR_HTML_INDEX_ROWS : n,
					n > PR_HTML_INDEX_ROWS ? n - PR_HTML_INDEX_ROWS : 0,
					a->full,
					(const char *const *)a->files,
					note,
					k < a->full ? a->stamps[k] : NULL };
	struct pr_output out = { 0 };
	char path[4096];
	int rc = 0;
	for (i = k < a->full ? lo : p.trend_lo; i < p.hi; i++)
		if (!rows[i].run)
			return pr_error_set(err, PR_E_STORE,
					    "run %lld of the index was not read (the store changed "
					    "while it was written?)",
					    (long long)a->ents[i].id);
	beside_index(a, a->files[k], path, sizeof(path));
	/* the user's index name follows a link; the pages beside it and an archive
	 * directory's index.html are names of profreport's own */
	if ((a->index && k == a->full ? pr_output_open_file(&out, path, err)
				      : pr_output_open_own(&out, path, err)) ||
	    pr_html_index_page(&p, &out, err) || pr_output_close(&out, err))
		rc = -1;
	pr_output_release(&out);
	return rc;
}

/* Full pages of an index that had more runs (STEM-K.html past the last one, an index page of
 * profreport's, not a file of the user's that has such a name): removed. */
static void remove_stale(const struct pr_archive *a)
{
	char file[4096], path[4096];
	size_t k;
	for (k = a->full + 1;; k++) {
		struct stat sb;
		full_page_file(a, k, file, sizeof(file));
		beside_index(a, file, path, sizeof(path));
		if (lstat(path, &sb) || !S_ISREG(sb.st_mode) || !page_stands(path, NULL) ||
		    unlink(path))
			break;
	}
}

int pr_archive_finish(struct pr_archive *a, const char *note, char *path, size_t n, size_t *written,
		      size_t *skipped, struct pr_error *err)
{
	struct pr_html_index_row *rows;
	size_t i, k, unread = 0;
	int rc = 0;
	if (!a->planned) {
		/* the runs of a model (or a store read whole): their digests tell their order */
		a->ents = pr_xcalloc(a->n + 1, sizeof(*a->ents));
		for (i = 0; i < a->n; i++) {
			struct entry *e = &a->ents[a->nents++];
			const json_t *d = a->digests[i];
			e->id = (int64_t)json_integer_value(json_object_get(d, PRK_ID));
			entry_set(e, e->id, pr_mstr(d, PRK_LABEL), pr_mstr(d, PRK_CONTENT_HASH),
				  pr_mstr(d, PRK_SOURCE));
			e->href = pr_xstrdup(a->names[i]);
			e->has = a->time && a->time(d, &e->t);
			if (!e->has)
				e->t = 0;
			e->digest = i + 1;
		}
		plan(a);
	}
	rows = pr_xcalloc(a->nents + 1, sizeof(*rows));
	for (i = 0; i < a->nents; i++) {
		rows[i].run = a->ents[i].digest ? a->digests[a->ents[i].digest - 1] : NULL;
		if (rows[i].run) /* on a page to write, or in the trends */
			rows[i].href = entry_href(a, &a->ents[i]);
		unread += !a->ents[i].digest;
	}
	index_path(a, path, n);
	for (k = 0; k <= a->full && !rc; k++) {
		if (k < a->full && a->stands[k]) {
			a->index_stood++;
			continue;
		}
		rc = write_index_page(a, rows, k, note, err);
		a->index_written += !rc;
	}
	free(rows);
	if (!rc)
		remove_stale(a);
	if (pr_timings_on())
		fprintf(stderr,
			"profreport: timing: index %zu page(s) written, %zu standing; %zu run(s), "
			"%zu digest(s) read\n",
			a->index_written, a->index_stood, a->nents, a->nents - unread);
	*written = a->written;
	*skipped = a->skipped + unread;
	return rc;
}
