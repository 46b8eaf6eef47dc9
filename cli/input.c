/* input.c - INPUT arguments to a store (implicit ingest). */
#include "cli/input.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ingest/ingest.h"
#include "ingest/source.h"
#include "cli/par.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/*
 * An SQLite file is a store when the nsys reader does not claim it
 * (ingest/fmt_nsys.c's sniff: 0 for profreport's schema); an Nsight Systems
 * export, or any other SQLite file, is an input, which that reader reads or
 * refuses with the reason.
 */
int pr_cli_is_store(const char *path)
{
	const struct pr_format *nsys = pr_format_find("nsys");
	unsigned char *head;
	struct stat sb;
	size_t n;
	FILE *f;
	int yes;
	/* only a regular file: a FIFO's bytes read here would be lost to its reader */
	if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
		return 0;
	f = fopen(path, "rb");
	if (!f)
		return 0;
	head = pr_xmalloc(PR_SOURCE_HEAD);
	n = fread(head, 1, PR_SOURCE_HEAD, f);
	yes = n >= 16 && !memcmp(head, "SQLite format 3", 16);
	if (yes && nsys && nsys->sniff(head, n, path) >= PR_SNIFF_MIN)
		yes = 0;
	free(head);
	fclose(f);
	return yes;
}

/* A path as the user gave it ('-', not its temporary copy), on one line. */
static const char *shown(const char *path, char *buf, size_t n)
{
	pr_error_escape(pr_path_shown(path), buf, n);
	return buf;
}

static void report_line(struct pr_strbuf *report, const char *file,
			const struct pr_ingest_result *r, const char *phases_file)
{
	char path[2048], phases[2048];
	if (!report)
		return;
	shown(file, path, sizeof(path));
	if (phases_file)
		shown(phases_file, phases, sizeof(phases));
	if (r->duplicate) {
		pr_strbuf_addf(report, "'%s': already in the store as run %lld\n", path,
			       (long long)r->run_id);
		return;
	}
	pr_strbuf_addf(report, "'%s': run %lld, %s, %lld spans, %lld samples, %lld instants", path,
		       (long long)r->run_id, r->format, (long long)r->stats.spans,
		       (long long)r->stats.samples, (long long)r->stats.instants);
	if (r->stats.diags)
		pr_strbuf_addf(report, ", %lld diagnostics", (long long)r->stats.diags);
	if (phases_file)
		pr_strbuf_addf(report, "; %lld of the spans are phases from '%s'",
			       (long long)r->phases, phases);
	pr_strbuf_addch(report, '\n');
}

static void show_progress(void *ctx, const char *file, int64_t done, int64_t total)
{
	char path[2048];
	(void)ctx;
	shown(file, path, sizeof(path));
	if (total > 0 && done <= total)
		fprintf(stderr, "\ringesting '%s': %lld MB of %lld MB (%d%%)\033[K", path,
			(long long)(done / 1000000), (long long)(total / 1000000),
			(int)(done * 100 / total));
	else
		fprintf(stderr, "\ringesting '%s': %lld MB\033[K", path,
			(long long)(done / 1000000));
}

/* Prints one input's error now; the first one is returned, marked as printed. */
static void report_error(const char *cmd, struct pr_error *e, struct pr_error *first, int *failed)
{
	char line[4200];
	pr_error_format(e, line, sizeof(line));
	fprintf(stderr, "profreport: %s: %s\n", cmd, line);
	if (!*failed) {
		*first = *e;
		first->reported = 1;
	}
	*failed = 1;
}

/* --phases belongs to one run: one INPUT, a file that is not a store. */
static int phases_target(char **paths, int n, struct pr_error *err)
{
	struct stat sb;
	int dir;
	if (n != 1)
		return pr_error_set(
			err, PR_E_USAGE,
			"--phases attaches a phase log to one run: give one trace file, "
			"not %d inputs",
			n);
	dir = stat(paths[0], &sb) == 0 && S_ISDIR(sb.st_mode);
	if (dir || pr_cli_is_store(paths[0])) {
		pr_error_set(err, PR_E_USAGE,
			     "--phases attaches a phase log to one run: give the trace file, not a "
			     "%s",
			     dir ? "directory" : "store");
		pr_error_set_source(err, paths[0]);
		return -1;
	}
	return 0;
}

/*
 * The files of one ingest go into the store in groups (pr_store_group_begin):
 * one transaction per group of files read within GROUP_NS or holding
 * GROUP_BYTES, each file a savepoint of it. A file's line is printed when
 * its group is committed, so a line never names a run that is not stored.
 * The files go through one ingest session (ingest.h): a file's outcome is
 * told while the next one is read, so a group is committed (and a
 * directory's count checked) once the session is synced.
 */
#define GROUP_NS 1000000000LL
#define GROUP_BYTES (64LL << 20)

struct group {
	struct pr_store *st;
	struct pr_strbuf lines; /* the report lines of the files of the open group */
	FILE *report;
	int64_t bytes, t0;
	size_t files;
	int due; /* big or old enough: commit once the session is synced */
};

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Commits the open group and prints its lines; a failed commit is one error. */
static void group_commit(struct group *g, const char *cmd, struct pr_error *err, int *failed)
{
	struct pr_error e = PR_ERROR_INIT;
	char why[sizeof(e.text)];
	/* a group of no stored file lost nothing: the error that emptied it (a full
	 * disk) was told with its file, and saying it again made two lines of one */
	if (pr_store_group_commit(g->st, &e) && g->files) {
		snprintf(why, sizeof(why), "%s", e.text);
		pr_error_set(&e, e.code, "the %zu file(s) before this error are not stored: %s",
			     g->files, why);
		pr_error_set_source(&e, pr_store_path(g->st));
		report_error(cmd, &e, err, failed);
	} else if (g->report && g->lines.len) {
		fwrite(g->lines.buf, 1, g->lines.len, g->report);
	}
	pr_strbuf_reset(&g->lines);
	g->bytes = 0;
	g->files = 0;
	g->due = 0;
}

/* After a file stored: the group is due when big or old enough. */
static void group_next(struct group *g, int64_t bytes)
{
	if (!g->files++)
		g->t0 = now_ns();
	g->bytes += bytes;
	if (g->bytes >= GROUP_BYTES || now_ns() - g->t0 >= GROUP_NS)
		g->due = 1;
}

/* One INPUT argument: its files' outcomes are counted as they are told. */
struct arg_state {
	int in_dir;
	size_t used, skipped;
	struct pr_strbuf names; /* the first skipped files' names, for the note */
};

#define SKIPPED_NAMED 3 /* skipped files named in the note of summary and report */

struct ingest_all {
	const char *cmd;
	const struct pr_cli_inopts *o;
	struct group g;
	struct pr_error *err;
	int failed;
	struct pr_cli_input *in; /* a kept store's: the runs of the files (NULL: none) */
};

static void add_run(struct pr_cli_input *in, int64_t id)
{
	in->runs = pr_xreallocarray(in->runs, in->nruns + 1, sizeof(*in->runs));
	in->runs[in->nruns++] = id;
}

/* The run of the store whose content hash is the file's (input.h); when the
 * file cannot be read, the ingest then says why. */
int pr_cli_input_known_run(struct pr_store *st, const char *path, int64_t *id)
{
	struct pr_error e = PR_ERROR_INIT;
	struct pr_source *src;
	sqlite3_stmt *q = NULL;
	char hash[33], *buf;
	long r;
	int found = 0;
	if (pr_source_open(&src, path, &e))
		return 0;
	buf = pr_xmalloc(1 << 20);
	while ((r = pr_source_read(src, buf, 1 << 20, &e)) > 0)
		;
	free(buf);
	pr_source_hash_hex(src, hash);
	pr_source_close(src);
	if (r < 0 ||
	    sqlite3_prepare_v2(pr_store_db(st), "SELECT id FROM run WHERE content_hash = ?1", -1,
			       &q, NULL) != SQLITE_OK) {
		sqlite3_finalize(q);
		return 0;
	}
	sqlite3_bind_text(q, 1, hash, 32, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW) {
		*id = sqlite3_column_int64(q, 0);
		found = 1;
	}
	sqlite3_finalize(q);
	return found;
}

/* A file's outcome (ingest session), in input order. */
static void file_done(void *ctx, void *file_ctx, const char *file, const struct pr_ingest_result *r,
		      struct pr_error *fe)
{
	struct ingest_all *c = ctx;
	struct arg_state *as = file_ctx;
	char path[2048];
	if (!fe) {
		report_line(c->g.report ? &c->g.lines : NULL, file, r,
			    r->duplicate ? NULL : c->o->phases);
		as->used++;
		if (c->in) {
			add_run(c->in, r->run_id);
			c->in->ingested += !r->duplicate;
		}
		group_next(&c->g, r->bytes);
		return;
	}
	/* an I/O error that undid the whole group: said now, with the count
	 * (an error is told while the session writes nothing) */
	if (pr_store_group_lost(c->g.st))
		group_commit(&c->g, c->cmd, c->err, &c->failed);
	if (as->in_dir && fe->code == PR_E_FORMAT) {
		if (c->g.report)
			pr_strbuf_addf(&c->g.lines, "'%s': skipped, not a recognized format\n",
				       shown(file, path, sizeof(path)));
		else if (as->skipped < SKIPPED_NAMED)
			pr_strbuf_addf(&as->names, "%s'%s'", as->skipped ? ", " : "",
				       shown(file, path, sizeof(path)));
		as->skipped++;
		return;
	}
	report_error(c->cmd, fe, c->err, &c->failed);
}

/*
 * -j N (pr_cli_inopts.jobs): the files are parsed by worker processes
 * (cli/par.h), each into a temporary store of its own, emptied after each
 * file (pr_store_take_run: the run's rows to the parent); the parent
 * copies each file's run into st in input order
 * (pr_store_merge_run: the ids and rows ingesting the files here one after
 * another gives) and tells it to file_done, in groups as above. The
 * parent is the one writer of st. What is told, and when, is what the
 * one-process loop below tells: the same lines, errors, skips and notes.
 * Used for two files or more of which none is standard input or a FIFO
 * (read once, by whoever opens it first) or over PAR_MAX_FILE, without
 * --phases, and not for a kept store. A worker's memory is an ingest's, its store's page cache and
 * one file's rows; the parent's one file's rows at a time.
 */
struct par_ingest {
	char **files; /* per item: the path */
	int *conf;    /* per item: the lowest sniff confidence */
	const struct pr_cli_inopts *o;
};

/* An item's record: this head, then the run's rows (pr_store_take_run), or
 * the pr_error of a file that failed. */
struct par_head {
	int32_t failed, pad;
	int64_t bytes, phases;
	struct pr_writer_stats stats;
	char format[32];
};

/*
 * A worker's store and ingest session, kept from file to file: the store is
 * emptied after each file (pr_store_take_run) and the session then forgets
 * its ids and strings (pr_ingest_session_forget), so each file is read on
 * ids from 1, as into a new store; the files are savepoints of one
 * transaction of the worker's (a group never committed: the store is only
 * scratch), so the session's statements and the indexes' checks are set up
 * once per worker.
 */
static struct pr_store *par_store;
static struct pr_ingest_session *par_sess;
static struct par_outcome {
	struct pr_ingest_result res;
	struct pr_error err;
	int failed;
} par_out;

static void par_done(void *ctx, void *file_ctx, const char *path,
		     const struct pr_ingest_result *res, struct pr_error *err)
{
	(void)ctx;
	(void)file_ctx;
	(void)path;
	if (res)
		par_out.res = *res;
	par_out.failed = err != NULL;
	if (err)
		par_out.err = *err;
}

static void par_end(void *ctx)
{
	(void)ctx;
	pr_ingest_session_close(par_sess);
	par_sess = NULL;
	pr_store_close(par_store); /* a temporary store: removed */
	par_store = NULL;
}

static int par_work(void *ctx, size_t i, struct pr_strbuf *rec, struct pr_error *err)
{
	struct par_ingest *p = ctx;
	struct pr_ingest_opts io = PR_INGEST_OPTS_INIT;
	struct pr_error e = PR_ERROR_INIT;
	struct par_head h;
	int failed = 1;
	(void)err;
	memset(&h, 0, sizeof(h));
	memset(&par_out, 0, sizeof(par_out));
	pr_source_set_progress(NULL, NULL);
	io.format = p->o->format;
	io.min_confidence = p->conf[i];
	io.meta = p->o->meta;
	io.nmeta = p->o->nmeta;
	pr_strbuf_add(rec, &h, sizeof(h));
	if (!par_store) {
		const char *tmpdir = getenv("TMPDIR");
		struct pr_strbuf tmp = PR_STRBUF_INIT;
		int fd;
		pr_strbuf_addf(&tmp, "%s/profreport-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
		fd = pr_output_temp_mkstemp(tmp.buf);
		if (fd < 0) {
			pr_error_set(&e, PR_E_IO, "cannot create a temporary store");
		} else {
			close(fd);
			if (pr_store_open(&par_store, tmp.buf, PR_STORE_CREATE | PR_STORE_TEMPORARY,
					  &e)) {
				unlink(tmp.buf);
				pr_output_temp_forget(tmp.buf);
				par_store = NULL;
			} else {
				pr_store_group_begin(par_store);
				if (pr_ingest_session_open(par_store, par_done, NULL, &par_sess,
							   &e))
					par_end(NULL);
			}
		}
		pr_strbuf_release(&tmp);
	}
	if (par_sess) {
		pr_ingest_session_file(par_sess, p->files[i], &io, NULL);
		pr_ingest_session_sync(par_sess);
		if (par_out.failed) {
			e = par_out.err;
		} else if (par_out.res.duplicate) {
			pr_error_set(&e, PR_E_STORE, "a worker's store was not empty");
			par_end(NULL); /* the next file gets a store of its own */
		} else if (pr_store_take_run(par_store, rec, &e)) {
			par_end(NULL);
		} else {
			failed = 0;
		}
		if (par_sess)
			pr_ingest_session_forget(par_sess);
	}
	h.failed = failed;
	h.bytes = par_out.res.bytes;
	h.phases = par_out.res.phases;
	h.stats = par_out.res.stats;
	if (par_out.res.format)
		snprintf(h.format, sizeof(h.format), "%s", par_out.res.format);
	memcpy(rec->buf, &h, sizeof(h));
	if (failed) {
		rec->len = sizeof(h);
		pr_strbuf_add(rec, &e, sizeof(e));
	}
	return 0;
}

/*
 * What a directory argument gave, once its k files were read: an error when
 * every file was skipped (nothing recognized), else, when note, one line
 * naming the files skipped (no line per file).
 */
static void dir_outcome(const char *cmd, const struct arg_state *a, size_t k, const char *path,
			int note, struct pr_error *err, int *failed)
{
	struct pr_error e = PR_ERROR_INIT;
	char dir[2048];
	if (!a->used && a->skipped == k) {
		pr_error_set(&e, PR_E_FORMAT,
			     "no recognized inputs in the directory (%zu file%s "
			     "skipped)",
			     a->skipped, a->skipped == 1 ? "" : "s");
		pr_error_set_source(&e, path);
		report_error(cmd, &e, err, failed);
	} else if (a->skipped && note) {
		fprintf(stderr,
			"profreport: %s: '%s': %zu file(s) skipped, not a recognized format: "
			"%s%s\n",
			cmd, shown(path, dir, sizeof(dir)), a->skipped,
			a->names.buf ? a->names.buf : "",
			a->skipped > SKIPPED_NAMED ? ", ..." : "");
	}
}

/* One file's outcome from its item: copied into the store, then told. */
static void par_file(struct ingest_all *c, struct pr_store_merge *m, struct pr_par *par,
		     size_t item, const char *file, struct arg_state *as, struct pr_strbuf *rec)
{
	struct pr_error e = PR_ERROR_INIT;
	struct pr_ingest_result r;
	const struct pr_format *f;
	struct par_head h;
	int rc;
	memset(&r, 0, sizeof(r));
	if (pr_par_get(par, item, rec, &e) < 0) {
		if (!e.source[0])
			pr_error_set_source(&e, file);
		file_done(c, as, file, NULL, &e);
		return;
	}
	if (rec->len < sizeof(h) ||
	    (memcpy(&h, rec->buf, sizeof(h)), h.failed && rec->len != sizeof(h) + sizeof(e))) {
		pr_error_set(&e, PR_E_IO, "a worker's record of the file is cut short");
		pr_error_set_source(&e, file);
		file_done(c, as, file, NULL, &e);
		return;
	}
	if (h.failed) {
		memcpy(&e, rec->buf + sizeof(h), sizeof(e));
		file_done(c, as, file, NULL, &e);
		return;
	}
	rc = pr_store_merge_run(m, rec->buf + sizeof(h), rec->len - sizeof(h), &r.run_id, &e);
	if (rc < 0) {
		if (!e.source[0])
			pr_error_set_source(&e, file);
		file_done(c, as, file, NULL, &e);
		return;
	}
	h.format[sizeof(h.format) - 1] = '\0';
	f = pr_format_find(h.format);
	r.duplicate = rc == 1;
	r.format = f ? f->name : "?";
	r.bytes = h.bytes;
	r.phases = h.phases;
	r.stats = h.stats;
	file_done(c, as, file, &r, NULL);
}

/* The notices of the listing, kept to be told where the one-process loop tells them. */
struct par_notes {
	struct pr_strbuf buf; /* per notice: arg (int), path NUL, message NUL */
	int arg;
};

static void par_note(void *ctx, const char *path, const char *msg)
{
	struct par_notes *pn = ctx;
	pr_strbuf_add(&pn->buf, &pn->arg, sizeof(pn->arg));
	pr_strbuf_add(&pn->buf, path, strlen(path) + 1);
	pr_strbuf_add(&pn->buf, msg, strlen(msg) + 1);
}

/* Tells the kept notices of arg to fn; *at: the offset of the next one. */
static void par_tell_notes(const struct par_notes *pn, size_t *at, int arg, pr_ingest_notice_fn *fn,
			   void *ctx)
{
	while (*at < pn->buf.len) {
		const char *path, *msg;
		int a;
		memcpy(&a, pn->buf.buf + *at, sizeof(a));
		if (a != arg)
			return;
		path = pn->buf.buf + *at + sizeof(a);
		msg = path + strlen(path) + 1;
		*at = (size_t)(msg + strlen(msg) + 1 - pn->buf.buf);
		if (fn)
			fn(ctx, path, msg);
	}
}

/*
 * The largest file the workers take: a file's rows pass through memory
 * between a worker and the parent (about half the file's size for a Chrome
 * trace), where the one-process ingest streams them into the store, so an
 * ingest with a larger file is left to one process.
 */
#define PAR_MAX_FILE (64LL << 20)

/* 1 when the listed files suit the workers (see above). */
static int par_suits(const struct pr_pathlist *pl, int n, size_t *total)
{
	size_t k;
	int i;
	*total = 0;
	for (i = 0; i < n; i++)
		for (k = 0; k < pl[i].n; k++) {
			struct stat sb;
			if (!strcmp(pl[i].v[k], "-") || stat(pl[i].v[k], &sb) ||
			    !S_ISREG(sb.st_mode) || sb.st_size > PAR_MAX_FILE)
				return 0;
			++*total;
		}
	return *total >= 2;
}

/* ingest_all with o->jobs workers; 1 when the inputs do not suit them (nothing done). */
static int ingest_par(struct pr_store *st, const char *cmd, char **paths, int n,
		      const struct pr_cli_inopts *o, FILE *report, struct pr_error *err)
{
	struct ingest_all c = { cmd, o, { st, PR_STRBUF_INIT, report, 0, 0, 0, 0 }, err, 0, NULL };
	struct pr_pathlist *pl = pr_xcalloc((size_t)n, sizeof(*pl));
	struct pr_error *aerr = pr_xcalloc((size_t)n, sizeof(*aerr));
	struct arg_state *as = pr_xcalloc((size_t)n, sizeof(*as));
	struct par_ingest p = { NULL, NULL, o };
	struct pr_strbuf rec = PR_STRBUF_INIT;
	struct pr_store_merge *m = NULL;
	struct pr_par *par = NULL;
	struct par_notes pn = { PR_STRBUF_INIT, 0 };
	pr_ingest_notice_fn *note_fn;
	void *note_ctx;
	size_t total, item = 0, k, note_at = 0;
	int i, rc = 1;
	pr_ingest_get_notice(&note_fn, &note_ctx);
	pr_ingest_set_notice(par_note, &pn);
	for (i = 0; i < n; i++) {
		pn.arg = i;
		pr_error_init(&aerr[i]);
		if (pr_cli_is_store(paths[i])) {
			pr_error_set(&aerr[i], PR_E_USAGE,
				     "is a store; give trace files, or the store alone where a "
				     "command takes one");
			pr_error_set_source(&aerr[i], paths[i]);
			continue;
		}
		as[i].in_dir = pr_ingest_list(paths[i], &pl[i], &aerr[i]) == 0 &&
			       (pl[i].n != 1 || strcmp(pl[i].v[0], paths[i]));
	}
	pr_ingest_set_notice(note_fn, note_ctx);
	if (!par_suits(pl, n, &total))
		goto out; /* listed again by the loop below, which tells the notices */
	rc = -1;
	p.files = pr_xcalloc(total, sizeof(*p.files));
	p.conf = pr_xcalloc(total, sizeof(*p.conf));
	for (i = 0; i < n; i++)
		for (k = 0; k < pl[i].n; k++, item++) {
			p.files[item] = pl[i].v[k];
			p.conf[item] = as[i].in_dir ? PR_SNIFF_DIR : PR_SNIFF_MIN;
		}
	if (pr_store_merge_open(st, &m, err))
		goto out;
	pr_par_worker_end(par_end);
	par = pr_par_run(total, o->jobs, par_work, &p, err);
	if (!par)
		goto out;
	pr_store_group_begin(st);
	for (i = 0, item = 0; i < n; i++) {
		par_tell_notes(&pn, &note_at, i, note_fn, note_ctx);
		if (aerr[i].code != PR_OK) {
			report_error(cmd, &aerr[i], err, &c.failed);
			continue;
		}
		for (k = 0; k < pl[i].n; k++, item++) {
			par_file(&c, m, par, item, pl[i].v[k], &as[i], &rec);
			if (c.g.due)
				group_commit(&c.g, cmd, err, &c.failed);
		}
		/* a directory whose every file was skipped gave nothing: say so */
		if (as[i].in_dir)
			dir_outcome(cmd, &as[i], k, paths[i], !report && !o->quiet_skips, err,
				    &c.failed);
	}
	group_commit(&c.g, cmd, err, &c.failed);
	rc = c.failed ? -1 : 0;
out:
	pr_par_free(par);
	par_end(NULL); /* one process (-j 1 after all): its store */
	pr_store_merge_close(m);
	pr_strbuf_release(&rec);
	pr_strbuf_release(&pn.buf);
	pr_strbuf_release(&c.g.lines);
	for (i = 0; i < n; i++) {
		pr_pathlist_release(&pl[i]);
		pr_strbuf_release(&as[i].names);
	}
	free(pl);
	free(aerr);
	free(as);
	free(p.files);
	free(p.conf);
	return rc;
}

int pr_cli_ingest_jobs(const char *arg, int *jobs, struct pr_error *err)
{
	if (pr_par_jobs(arg, jobs, err))
		return -1;
	if (!arg && *jobs < PR_CLI_INGEST_MIN_CPUS)
		*jobs = 1;
	return 0;
}

/* in: a kept store's input (files it has by content hash are not read again), or NULL. */
static int ingest_all(struct pr_store *st, const char *cmd, char **paths, int n,
		      const struct pr_cli_inopts *o, FILE *report, struct pr_cli_input *in,
		      struct pr_error *err)
{
	int i, tty = isatty(2);
	struct ingest_all c = { cmd, o, { st, PR_STRBUF_INIT, report, 0, 0, 0, 0 }, err, 0, in };
	struct pr_ingest_session *s;
	struct arg_state *as;
	int64_t *known = NULL; /* per listed file: its run in the kept store, or -1 */
	size_t nknown = 0, ntotal;
	if (o->phases && phases_target(paths, n, err))
		return -1;
	if (!in && !o->phases && o->jobs > 1) {
		int rc = ingest_par(st, cmd, paths, n, o, report, err);
		if (rc <= 0)
			return rc;
	}
	/* a new kept store has no run to find: its files are not read twice */
	for (i = 0; in && pr_store_run_count(st) > 0 && i < n; i++) {
		struct pr_pathlist pl = PR_PATHLIST_INIT;
		struct pr_error e = PR_ERROR_INIT;
		size_t k;
		if (!pr_cli_is_store(paths[i]) && !pr_ingest_list(paths[i], &pl, &e)) {
			known = pr_xreallocarray(known, nknown + pl.n + 1, sizeof(*known));
			for (k = 0; k < pl.n; k++)
				if (!pr_cli_input_known_run(st, pl.v[k], &known[nknown++]))
					known[nknown - 1] = -1;
		}
		pr_pathlist_release(&pl);
	}
	ntotal = nknown;
	nknown = 0;
	pr_source_set_progress(tty ? show_progress : NULL, NULL);
	pr_store_group_begin(st);
	if (pr_ingest_session_open(st, file_done, &c, &s, err))
		return -1;
	as = pr_xcalloc(n > 0 ? (size_t)n : 1, sizeof(*as));
	for (i = 0; i < n; i++) {
		struct pr_pathlist pl = PR_PATHLIST_INIT;
		struct pr_error e = PR_ERROR_INIT;
		size_t k;
		if (pr_cli_is_store(paths[i])) {
			pr_error_set(
				&e, PR_E_USAGE,
				"is a store; give trace files, or the store alone where a command "
				"takes one");
			pr_error_set_source(&e, paths[i]);
			pr_ingest_session_sync(s); /* the files before it are told first */
			report_error(cmd, &e, err, &c.failed);
			continue;
		}
		as[i].in_dir = pr_ingest_list(paths[i], &pl, &e) == 0 &&
			       (pl.n != 1 || strcmp(pl.v[0], paths[i]));
		if (e.code != PR_OK) {
			pr_ingest_session_sync(s);
			report_error(cmd, &e, err, &c.failed);
			continue;
		}
		for (k = 0; k < pl.n; k++) {
			struct pr_ingest_opts io = PR_INGEST_OPTS_INIT;
			char path[2048];
			/* in the kept store already (asked before the session began) */
			if (nknown < ntotal && known[nknown++] >= 0) {
				add_run(in, known[nknown - 1]);
				in->reused++;
				as[i].used++;
				continue;
			}
			shown(pl.v[k], path, sizeof(path));
			if (tty)
				fprintf(stderr, "\ringesting '%s' ...\033[K", path);
			io.format = o->format;
			io.min_confidence = as[i].in_dir ? PR_SNIFF_DIR : PR_SNIFF_MIN;
			io.phases = o->phases;
			io.meta = o->meta;
			io.nmeta = o->nmeta;
			pr_ingest_session_file(s, pl.v[k], &io, &as[i]);
			if (tty)
				fputs("\r\033[K", stderr);
			if (c.g.due) {
				pr_ingest_session_sync(s);
				group_commit(&c.g, cmd, err, &c.failed);
			}
		}
		pr_pathlist_release(&pl);
		/* a directory whose every file was skipped gave nothing: say so */
		if (as[i].in_dir) {
			pr_ingest_session_sync(s);
			dir_outcome(cmd, &as[i], k, paths[i], !report && !o->quiet_skips, err,
				    &c.failed);
		}
		pr_strbuf_release(&as[i].names);
	}
	pr_ingest_session_close(s);
	group_commit(&c.g, cmd, err, &c.failed);
	pr_strbuf_release(&c.g.lines);
	free(as);
	free(known);
	return c.failed ? -1 : 0;
}

int pr_cli_ingest_all(struct pr_store *st, const char *cmd, char **paths, int n,
		      const struct pr_cli_inopts *o, FILE *report, struct pr_error *err)
{
	return ingest_all(st, cmd, paths, n, o, report, NULL, err);
}

static void reading(struct pr_store *st);

static int cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

int pr_cli_input_open_kept(struct pr_cli_input *in, const char *cmd, char **paths, int n,
			   const struct pr_cli_inopts *o, const char *kept, struct pr_error *err)
{
	struct pr_error e = PR_ERROR_INIT;
	size_t i, k;
	if (o->phases || (n == 1 && pr_cli_is_store(paths[0])))
		return pr_cli_input_open_opts(in, cmd, paths, n, o, err);
	memset(in, 0, sizeof(in[0]));
	if (pr_store_open(&in->store, kept, PR_STORE_CREATE, &e)) {
		/* another schema, or not a store: it is only a cache, start it anew */
		unlink(kept);
		if (pr_store_open(&in->store, kept, PR_STORE_CREATE, err))
			return -1;
	}
	if (ingest_all(in->store, cmd, paths, n, o, NULL, in, err)) {
		pr_cli_input_close(in);
		return -1;
	}
	qsort(in->runs, in->nruns, sizeof(*in->runs), cmp_id);
	for (i = k = 0; i < in->nruns; i++) /* one content given twice is one run */
		if (!k || in->runs[k - 1] != in->runs[i])
			in->runs[k++] = in->runs[i];
	in->nruns = k;
	reading(in->store);
	err->code = PR_OK;
	return 0;
}

/*
 * What follows reads: the analyses. The writer's page cache (32 MiB) and the
 * ingest's buffers are freed in small blocks amid the heap; hand their pages
 * back, or a 1 GB trace's report keeps them for the rest of its run (26 MB).
 * From here blocks of 256 KiB and more are mapped, so that freeing one gives
 * its memory back: left alone, glibc raises this threshold to the size of each
 * mapped block freed (up to 32 MiB), and after the first big array grows the
 * analyses' large blocks (the GPU pass's row chunks, freed as they are read)
 * come from the heap and stay resident. Not during an ingest: there it maps
 * and unmaps a file's buffers once per file, and 2000 small files ingest at
 * 60 % of the rate (1.53 s against 0.92).
 */
static void reading(struct pr_store *st)
{
	pr_store_read_cache(st);
#ifdef __GLIBC__
	malloc_trim(0);
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

int pr_cli_input_open(struct pr_cli_input *in, const char *cmd, char **paths, int n,
		      const char *format, struct pr_error *err)
{
	struct pr_cli_inopts o = { format, NULL, 0, NULL, 0, 0 };
	return pr_cli_input_open_opts(in, cmd, paths, n, &o, err);
}

int pr_cli_input_open_opts(struct pr_cli_input *in, const char *cmd, char **paths, int n,
			   const struct pr_cli_inopts *o, struct pr_error *err)
{
	const char *tmpdir = getenv("TMPDIR");
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int fd;

	memset(in, 0, sizeof(in[0]));
	if (o->phases && phases_target(paths, n, err))
		return -1;
	if (n == 1 && pr_cli_is_store(paths[0])) {
		if (pr_store_open(&in->store, paths[0], PR_STORE_READONLY, err))
			return -1;
		reading(in->store);
		return 0;
	}
	pr_strbuf_addf(&sb, "%s/profreport-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	/* registered for removal on a signal from the moment it exists; the
	 * empty file is a valid new database */
	fd = pr_output_temp_mkstemp(sb.buf);
	if (fd < 0) {
		pr_strbuf_release(&sb);
		return pr_error_set(err, PR_E_IO, "cannot create a temporary store");
	}
	close(fd);
	in->tmp_path = pr_strbuf_detach(&sb, NULL);
	if (pr_store_open(&in->store, in->tmp_path, PR_STORE_CREATE | PR_STORE_TEMPORARY, err) ||
	    pr_cli_ingest_all(in->store, cmd, paths, n, o, NULL, err)) {
		pr_cli_input_close(in);
		return -1;
	}
	reading(in->store);
	err->code = PR_OK;
	return 0;
}

void pr_cli_input_close(struct pr_cli_input *in)
{
	pr_store_close(in->store);
	in->store = NULL;
	free(in->runs);
	in->runs = NULL;
	in->nruns = 0;
	if (in->tmp_path) {
		struct pr_strbuf j = PR_STRBUF_INIT;
		unlink(in->tmp_path);
		pr_output_temp_forget(in->tmp_path);
		pr_strbuf_addf(&j, "%s-journal", in->tmp_path);
		unlink(j.buf);
		pr_strbuf_release(&j);
		free(in->tmp_path);
		in->tmp_path = NULL;
	}
}

int pr_cli_output_form_misused(const char *fmt, const char *forms, struct pr_error *err)
{
	size_t n = strlen(fmt);
	const char *p = strstr(forms, fmt);
	if (pr_format_find(fmt) || !p || (p != forms && p[-1] != ' ') || (p[n] && p[n] != ','))
		return 0;
	return pr_error_set(err, PR_E_USAGE,
			    "--format names the input format; the output's form is --to %s", fmt);
}
