/*
 * ingest.h - the ingest stage driver: file -> format -> store.
 *
 * USAGE: pr_ingest_file(st, "trace.json.gz", NULL, &res, &err) sniffs the
 * format (or uses the forced one), parses the whole file into one run in
 * one transaction, and fills res. Re-ingesting identical content is not an
 * error: res.duplicate is set and res.run_id names the existing run.
 * pr_ingest_list() expands directories (recursively, sorted by name) into
 * the files to ingest. pr_ingest_file_opts() also attaches a phase log
 * (ingest/phaselog.h) to the run; the run's content hash then covers both
 * files. Many files in a row go through an ingest session (below).
 */
#ifndef PR_INGEST_H
#define PR_INGEST_H

#include <stdint.h>

#include "ingest/format.h"
#include "store/store.h"

struct pr_ingest_result {
	int64_t run_id;
	int duplicate;
	const char *format; /* static registry name */
	int64_t bytes;
	struct pr_writer_stats stats;
	int64_t phases; /* spans from the phase log, if one was attached */
};

int pr_ingest_file(struct pr_store *st, const char *path, const char *format,
		   struct pr_ingest_result *res, struct pr_error *err) PR_MUST_CHECK;
/* The same, recognizing a format only with at least min_confidence (PR_SNIFF_*);
 * below it the error is PR_E_FORMAT. */
int pr_ingest_file_sniffed(struct pr_store *st, const char *path, const char *format,
			   int min_confidence, struct pr_ingest_result *res,
			   struct pr_error *err) PR_MUST_CHECK;

struct pr_ingest_opts {
	const char *format; /* NULL: sniff */
	int min_confidence; /* PR_SNIFF_MIN, or PR_SNIFF_DIR inside a directory */
	const char *phases; /* a phase log to attach, or NULL */
	/* the user's metadata of the run (store.h, pr_writer_run_meta): key, value, key, ...;
	 * nmeta pairs, checked by the caller (borrowed) */
	const char *const *meta;
	size_t nmeta;
};
#define PR_INGEST_OPTS_INIT                                                                        \
	{                                                                                          \
		NULL, PR_SNIFF_MIN, NULL, NULL, 0                                                  \
	}

int pr_ingest_file_opts(struct pr_store *st, const char *path, const struct pr_ingest_opts *o,
			struct pr_ingest_result *res, struct pr_error *err) PR_MUST_CHECK;

/*
 * An ingest of many files into one store: each file is one run, as with
 * pr_ingest_file_opts, written through one writer session (store.h): the
 * next file is read while the previous one is inserted and committed, and no
 * file pays for the writer's set-up. Every file's outcome is told to done(),
 * in the order the files were given, with the file_ctx given with it: res
 * (err NULL) for a run stored or found already stored, err otherwise (res
 * then only has the format, when one was recognized). An error is told
 * while the session writes nothing, so done() may then use the store (a
 * group's commit, pr_store_group_commit); a stored run may be told while
 * the next file is being written, when done() must not touch the store.
 * pr_ingest_session_sync() returns once every file given so far is told and
 * the session is idle.
 */
struct pr_ingest_session;
typedef void pr_ingest_done_fn(void *ctx, void *file_ctx, const char *path,
			       const struct pr_ingest_result *res, struct pr_error *err);
int pr_ingest_session_open(struct pr_store *st, pr_ingest_done_fn *done, void *ctx,
			   struct pr_ingest_session **out, struct pr_error *err) PR_MUST_CHECK;
void pr_ingest_session_file(struct pr_ingest_session *s, const char *path,
			    const struct pr_ingest_opts *o, void *file_ctx);
void pr_ingest_session_sync(struct pr_ingest_session *s);
/* Syncs, then has the next file read on the store's ids and strings as they
 * are then (rows deleted beside the session: pr_writer_session_forget). */
void pr_ingest_session_forget(struct pr_ingest_session *s);
/* Syncs and frees. NULL-safe. */
void pr_ingest_session_close(struct pr_ingest_session *s);

struct pr_pathlist {
	char **v;
	size_t n, alloc;
};
#define PR_PATHLIST_INIT                                                                           \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}
/*
 * Appends path, or the regular files below it when it is a directory
 * (hidden entries skipped, names sorted bytewise; '-', standard input, is
 * appended as it is). Fails on a missing path and on a directory with no
 * file below it (PR_E_FORMAT, "empty directory"). Inside a directory, an
 * entry that cannot be followed is skipped and the notice callback hears
 * about it: a symbolic link loop (a link to itself, links to each other,
 * or a link to a directory that holds it), or a broken link.
 */
int pr_ingest_list(const char *path, struct pr_pathlist *out, struct pr_error *err) PR_MUST_CHECK;
/* Things worth telling the user that are not errors (library code never
 * prints): path is the entry concerned. One callback per process; NULL = silent. */
typedef void pr_ingest_notice_fn(void *ctx, const char *path, const char *msg);
void pr_ingest_set_notice(pr_ingest_notice_fn *fn, void *ctx);
/* The callback and context set (to put them back after another's). */
void pr_ingest_get_notice(pr_ingest_notice_fn **fn, void **ctx);
void pr_pathlist_release(struct pr_pathlist *pl);

#endif
