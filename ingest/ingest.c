/* ingest.c - drives one file through sniff, parse and the store writer. */
#include "ingest/ingest.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ingest/phaselog.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

struct locate_ctx {
	const struct pr_source *src;
};

static void locate_cb(void *ctx, int64_t offset, long *line, long *col)
{
	struct locate_ctx *lc = ctx;
	pr_source_locate_in(lc->src, offset, line, col);
}

int pr_ingest_file(struct pr_store *st, const char *path, const char *format,
		   struct pr_ingest_result *res, struct pr_error *err)
{
	return pr_ingest_file_sniffed(st, path, format, PR_SNIFF_MIN, res, err);
}

int pr_ingest_file_sniffed(struct pr_store *st, const char *path, const char *format,
			   int min_confidence, struct pr_ingest_result *res, struct pr_error *err)
{
	struct pr_ingest_opts o = PR_INGEST_OPTS_INIT;
	o.format = format;
	o.min_confidence = min_confidence;
	return pr_ingest_file_opts(st, path, &o, res, err);
}

/* The hash of a run made of a source and a phase log: both contents. */
static void combined_hash(char hash[33], const char *phases_hash)
{
	struct pr_hash h;
	pr_hash_init(&h);
	pr_hash_update(&h, hash, 32);
	pr_hash_update(&h, "+phases:", 8);
	pr_hash_update(&h, phases_hash, 32);
	pr_hash_final_hex(&h, hash);
}

/*
 * Reads one file into a run of the session: 0 with *wp ready to hand over
 * (its content hash in hash, res filled but for the outcome), or -1 with
 * err, the run discarded if it was begun (*began says whether it was).
 */
static int read_run(struct pr_writer_session *ws, const char *path, const struct pr_ingest_opts *o,
		    struct pr_writer **wp, char hash[33], struct pr_ingest_result *res,
		    struct pr_error *err, int *began)
{
	const char *format = o->format;
	int min_confidence = o->min_confidence;
	struct pr_phaselog_stats ps;
	int confidence = 0;
	struct pr_source *src = NULL;
	struct pr_writer *w = NULL;
	const struct pr_format *fmt;
	const unsigned char *head;
	size_t nhead;
	struct pr_run_info info;
	struct locate_ctx lc;
	size_t i;

	memset(res, 0, sizeof(*res));
	*wp = NULL;
	*began = 0;
	if (pr_source_open(&src, path, err))
		return -1;
	if (pr_source_head(src, &head, &nhead, err))
		goto fail;
	if (format) {
		fmt = pr_format_find(format);
		if (!fmt) {
			pr_error_set(err, PR_E_USAGE,
				     "unknown format '%s' (see 'profreport formats')", format);
			goto fail;
		}
	} else {
		fmt = pr_format_sniff(head, nhead, path, &confidence);
		if (!fmt || confidence < min_confidence) {
			pr_error_set(err, PR_E_FORMAT,
				     nhead ? "unrecognized input format (see 'profreport formats')"
					   : "empty file");
			pr_error_set_source(err, path);
			goto fail;
		}
	}
	res->format = fmt->name;
	info.format = fmt->name;
	info.source = pr_path_shown(path); /* '-', not the copy read (source.h) */
	info.label = !strcmp(info.source, "-") ? "stdin" : NULL;
	if (pr_writer_begin_in(ws, &info, &w, err))
		goto fail;
	*began = 1;
	for (i = 0; i < o->nmeta; i++)
		pr_writer_run_meta(w, o->meta[2 * i], o->meta[2 * i + 1]);
	if (fmt->parse(src, w, err) || pr_writer_failed(w, err)) {
		if (err->offset >= 0 && err->line <= 0)
			pr_source_locate_in(src, err->offset, &err->line, &err->column);
		goto fail;
	}
	pr_writer_end_input(w);
	lc.src = src;
	pr_writer_locate_diags(w, locate_cb, &lc);
	pr_source_hash_hex(src, hash);
	if (o->phases) {
		if (pr_phaselog_attach(w, o->phases, &ps, err))
			goto fail;
		combined_hash(hash, ps.hash);
		res->phases = ps.phases;
	}
	res->bytes = pr_source_consumed(src);
	pr_writer_get_stats(w, &res->stats);
	pr_source_close(src);
	*wp = w;
	return 0;
fail:
	if (!err->source[0])
		pr_error_set_source(err, path);
	pr_writer_discard(w);
	pr_source_close(src);
	return -1;
}

/* A file handed over, its outcome not yet told. */
struct pending {
	struct pr_writer *w; /* NULL: none */
	char *path;
	void *ctx;
	struct pr_ingest_opts o; /* to read it again */
	struct pr_ingest_result res;
	int again; /* read again already (its first run was not written) */
};

struct pr_ingest_session {
	struct pr_writer_session *ws;
	pr_ingest_done_fn *done;
	void *ctx;
	struct pending prev;
	/* The last outcome was not a stored run (a duplicate, an error): read
	 * the next file only once the previous one's outcome is known, rather
	 * than reading it on ids that may not be the store's (a directory
	 * ingested again is all duplicates). */
	int cautious;
};

int pr_ingest_session_open(struct pr_store *st, pr_ingest_done_fn *done, void *ctx,
			   struct pr_ingest_session **out, struct pr_error *err)
{
	struct pr_ingest_session *s = pr_xcalloc(1, sizeof(*s));
	*out = NULL;
	if (pr_writer_session_open(st, &s->ws, err)) {
		free(s);
		return -1;
	}
	s->done = done;
	s->ctx = ctx;
	*out = s;
	return 0;
}

/* Tells an error, with the session idle (done() may use the store). */
static void tell_error(struct pr_ingest_session *s, void *file_ctx, const char *path,
		       const struct pr_ingest_result *res, struct pr_error *e)
{
	pr_writer_session_wait(s->ws);
	if (!e->source[0])
		pr_error_set_source(e, path);
	s->done(s->ctx, file_ctx, path, res, e);
}

/*
 * Waits for a handed-over file's outcome and tells it (0 stored, 1 a
 * duplicate, -1 an error); PR_WRITER_STALE, not told, when its run was not
 * written because it began on ids that are not the store's.
 */
static int take(struct pr_ingest_session *s, struct pending *p)
{
	struct pr_error e = PR_ERROR_INIT;
	int rc = pr_writer_outcome(p->w, &p->res.run_id, &p->res.stats, &e);
	p->w = NULL;
	s->cautious = rc != 0;
	if (rc == PR_WRITER_STALE)
		return rc;
	p->res.duplicate = rc == 1;
	if (rc < 0)
		tell_error(s, p->ctx, p->path, &p->res, &e);
	else
		s->done(s->ctx, p->ctx, p->path, &p->res, NULL);
	free(p->path);
	return rc;
}

static void session_file(struct pr_ingest_session *s, const char *path,
			 const struct pr_ingest_opts *o, void *file_ctx, int again);

/* A file whose run came back stale, read again (it is then the pending
 * one); twice stale, the session's ids moved under it: an error. */
static void read_again(struct pr_ingest_session *s, struct pending *p)
{
	if (p->again) {
		struct pr_error e = PR_ERROR_INIT;
		pr_error_set(&e, PR_E_STORE,
			     "the store's ids moved while the file was written (a bug)");
		tell_error(s, p->ctx, p->path, &p->res, &e);
	} else {
		session_file(s, p->path, &p->o, p->ctx, 1);
	}
	free(p->path);
}

/* Takes the pending file's outcome (reading it again when stale): 0 when
 * it was stored, or nothing was pending. */
static int settle(struct pr_ingest_session *s)
{
	int rc = 0;
	while (s->prev.w) {
		struct pending p = s->prev;
		s->prev.w = NULL;
		rc = take(s, &p);
		if (rc == PR_WRITER_STALE)
			read_again(s, &p);
	}
	return rc;
}

/*
 * One file: read on the ids the pending file will leave, handed over, and
 * then the pending file's outcome taken while the session inserts this one.
 * When the pending file was not stored, this file's run was not written
 * (the session found the ids wrong): it is read again, once that outcome
 * is told, on the store's ids.
 */
static void session_file(struct pr_ingest_session *s, const char *path,
			 const struct pr_ingest_opts *o, void *file_ctx, int again)
{
	for (;;) {
		struct pending cur, p;
		struct pr_error e = PR_ERROR_INIT;
		char hash[33];
		int began, rc;
		if (s->cautious)
			settle(s);
		memset(&cur, 0, sizeof(cur));
		if (read_run(s->ws, path, o, &cur.w, hash, &cur.res, &e, &began)) {
			/* When the pending file was not stored, the run's failure
			 * may be the writer's (on ids not the store's): read it
			 * again, once. */
			if (settle(s) && began && !again) {
				again = 1;
				continue;
			}
			tell_error(s, file_ctx, path, &cur.res, &e);
			return;
		}
		pr_writer_hand_over(cur.w, hash, cur.res.bytes);
		cur.path = pr_xstrdup(path);
		cur.ctx = file_ctx;
		cur.o = *o;
		cur.again = again;
		p = s->prev;
		s->prev = cur;
		if (!p.w)
			return;
		rc = take(s, &p);
		if (!rc)
			return;
		/* The run began on the ids p would leave: not written. */
		s->prev.w = NULL;
		if (take(s, &cur) != PR_WRITER_STALE)
			return; /* (told: the session found the ids right after all) */
		free(cur.path);
		if (rc == PR_WRITER_STALE)
			read_again(s, &p); /* p first, then this file */
		s->cautious = 1;
		again = 1;
	}
}

void pr_ingest_session_file(struct pr_ingest_session *s, const char *path,
			    const struct pr_ingest_opts *o, void *file_ctx)
{
	session_file(s, path, o, file_ctx, 0);
}

void pr_ingest_session_sync(struct pr_ingest_session *s)
{
	settle(s);
	pr_writer_session_wait(s->ws);
}

void pr_ingest_session_forget(struct pr_ingest_session *s)
{
	pr_ingest_session_sync(s);
	pr_writer_session_forget(s->ws);
}

void pr_ingest_session_close(struct pr_ingest_session *s)
{
	if (!s)
		return;
	pr_ingest_session_sync(s);
	pr_writer_session_close(s->ws);
	free(s);
}

/* One file alone: a session of one file, its outcome kept. */
struct one {
	struct pr_ingest_result *res;
	struct pr_error *err;
	int rc;
};

static void one_done(void *ctx, void *file_ctx, const char *path,
		     const struct pr_ingest_result *res, struct pr_error *err)
{
	struct one *one = ctx;
	(void)file_ctx;
	(void)path;
	*one->res = *res;
	if (err) {
		*one->err = *err;
		one->rc = -1;
	}
}

int pr_ingest_file_opts(struct pr_store *st, const char *path, const struct pr_ingest_opts *o,
			struct pr_ingest_result *res, struct pr_error *err)
{
	struct one one = { res, err, 0 };
	struct pr_ingest_session *s;
	memset(res, 0, sizeof(*res));
	if (pr_ingest_session_open(st, one_done, &one, &s, err))
		return -1;
	pr_ingest_session_file(s, path, o, NULL);
	pr_ingest_session_close(s);
	return one.rc;
}

static void list_add(struct pr_pathlist *pl, char *p)
{
	if (pl->n == pl->alloc) {
		pl->alloc = pl->alloc ? pl->alloc * 2 : 16;
		pl->v = pr_xreallocarray(pl->v, pl->alloc, sizeof(*pl->v));
	}
	pl->v[pl->n++] = p;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static pr_ingest_notice_fn *notice_fn;
static void *notice_ctx;

void pr_ingest_set_notice(pr_ingest_notice_fn *fn, void *ctx)
{
	notice_fn = fn;
	notice_ctx = ctx;
}

void pr_ingest_get_notice(pr_ingest_notice_fn **fn, void **ctx)
{
	*fn = notice_fn;
	*ctx = notice_ctx;
}

static void notice(const char *path, const char *fmt, ...) PR_PRINTF_LIKE(2, 3);
static void notice(const char *path, const char *fmt, ...)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	va_list ap;
	if (!notice_fn)
		return;
	va_start(ap, fmt);
	pr_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	notice_fn(notice_ctx, path, sb.buf);
	pr_strbuf_release(&sb);
}

/* The directories from the walk's start down to the one being listed. */
struct walk {
	dev_t dev[66];
	ino_t ino[66];
	const char *path[66];
};

static int list_dir(const char *path, struct pr_pathlist *out, int depth, struct walk *wk,
		    struct pr_error *err)
{
	DIR *d;
	struct dirent *de;
	struct pr_pathlist names = PR_PATHLIST_INIT;
	size_t i;
	int rc = 0, k;

	if (depth > 64)
		return pr_error_set(err, PR_E_LIMIT, "directories nested too deeply");
	d = opendir(path);
	if (!d) {
		pr_error_set(err, PR_E_IO, "cannot open directory: %s", strerror(errno));
		pr_error_set_source(err, path);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		list_add(&names, pr_xstrdup(de->d_name));
	}
	closedir(d);
	if (names.n > 1)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (i = 0; i < names.n; i++) {
		struct pr_strbuf sb = PR_STRBUF_INIT;
		struct stat st;
		pr_strbuf_addf(&sb, "%s/%s", path, names.v[i]);
		if (stat(sb.buf, &st) != 0) {
			struct stat lst;
			if (errno == ELOOP)
				notice(sb.buf, "skipped: a symbolic link loop (%s)",
				       strerror(errno));
			else if (lstat(sb.buf, &lst) == 0 && S_ISLNK(lst.st_mode))
				notice(sb.buf, "skipped: a broken symbolic link (%s)",
				       strerror(errno));
			pr_strbuf_release(&sb);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			/* a link back to a directory above (or to this one): a loop */
			for (k = 0; k <= depth; k++)
				if (wk->dev[k] == st.st_dev && wk->ino[k] == st.st_ino)
					break;
			if (k <= depth) {
				notice(sb.buf,
				       "skipped: a symbolic link loop (it leads back to '%s')",
				       wk->path[k]);
				pr_strbuf_release(&sb);
				continue;
			}
			if (depth + 1 <= 64) {
				wk->dev[depth + 1] = st.st_dev;
				wk->ino[depth + 1] = st.st_ino;
				wk->path[depth + 1] = sb.buf;
			}
			rc = list_dir(sb.buf, out, depth + 1, wk, err);
			pr_strbuf_release(&sb);
			if (rc)
				break;
		} else if (S_ISREG(st.st_mode)) {
			list_add(out, pr_strbuf_detach(&sb, NULL));
		} else {
			pr_strbuf_release(&sb);
		}
	}
	pr_pathlist_release(&names);
	return rc;
}

int pr_ingest_list(const char *path, struct pr_pathlist *out, struct pr_error *err)
{
	struct stat st;
	if (strcmp(path, "-") && stat(path, &st) != 0) {
		pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
		pr_error_set_source(err, path);
		return -1;
	}
	if (strcmp(path, "-") && S_ISDIR(st.st_mode)) {
		struct walk wk;
		size_t len = strlen(path);
		char *p = pr_xstrdup(path);
		size_t before = out->n;
		int rc;
		while (len > 1 && p[len - 1] == '/')
			p[--len] = '\0';
		wk.dev[0] = st.st_dev;
		wk.ino[0] = st.st_ino;
		wk.path[0] = p;
		rc = list_dir(p, out, 0, &wk, err);
		free(p);
		if (!rc && out->n == before) {
			pr_error_set(err, PR_E_FORMAT, "empty directory: no files to read");
			pr_error_set_source(err, path);
			return -1;
		}
		return rc;
	}
	list_add(out, pr_xstrdup(path));
	return 0;
}

void pr_pathlist_release(struct pr_pathlist *pl)
{
	size_t i;
	for (i = 0; i < pl->n; i++)
		free(pl->v[i]);
	free(pl->v);
	pl->v = NULL;
	pl->n = pl->alloc = 0;
}
