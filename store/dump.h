/*
 * dump.h - text views of the store: the normalized event dump used by the
 * golden tests, and read-only SQL with tab-separated output.
 *
 * The dump is deterministic: ids are printed relative to their run (span 1
 * is the run's first span), rows are ordered by time then id, reals use
 * %.17g, strings are JSON-quoted. It prints every table except string.
 */
#ifndef PR_DUMP_H
#define PR_DUMP_H

#include <stdint.h>
#include <stdio.h>

#include "store/store.h"

/* run_id 0 = all runs. */
int pr_store_dump(struct pr_store *st, int64_t run_id, FILE *out,
		  struct pr_error *err) PR_MUST_CHECK;
/* Runs one read-only statement; prints a header line and one line per row. */
int pr_store_query(struct pr_store *st, const char *sql, FILE *out,
		   struct pr_error *err) PR_MUST_CHECK;

#endif
