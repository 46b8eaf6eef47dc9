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
 * files.
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
			   int min_confidence, struct pr_ingest_result *res, struct pr_error *err)
	PR_MUST_CHECK;

struct pr_ingest_opts {
	const char *format;  /* NULL: sniff */
	int min_confidence;  /* PR_SNIFF_MIN, or PR_SNIFF_DIR inside a directory */
	const char *phases;  /* a phase log to attach, or NULL */
};
#define PR_INGEST_OPTS_INIT { NULL, PR_SNIFF_MIN, NULL }

int pr_ingest_file_opts(struct pr_store *st, const char *path, const struct pr_ingest_opts *o,
			struct pr_ingest_result *res, struct pr_error *err) PR_MUST_CHECK;

struct pr_pathlist {
	char **v;
	size_t n, alloc;
};
#define PR_PATHLIST_INIT { NULL, 0, 0 }
/*
 * Appends path, or the regular files below it when it is a directory
 * (hidden entries skipped, names sorted bytewise; '-', standard input, is
 * appended as it is). Fails on a missing path and on a directory with no
 * file below it (PR_E_FORMAT, "empty directory"). Inside a directory, an
 * entry that cannot be followed is skipped and the notice callback hears
 * about it: a symbolic link loop (a link to itself, links to each other,
 * or a link to a directory that holds it), or a broken link.
 */
int pr_ingest_list(const char *path, struct pr_pathlist *out, struct pr_error *err)
	PR_MUST_CHECK;
/* Things worth telling the user that are not errors (library code never
 * prints): path is the entry concerned. One callback per process; NULL = silent. */
typedef void pr_ingest_notice_fn(void *ctx, const char *path, const char *msg);
void pr_ingest_set_notice(pr_ingest_notice_fn *fn, void *ctx);
void pr_pathlist_release(struct pr_pathlist *pl);

#endif
