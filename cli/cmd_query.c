/* cmd_query.c - profreport query STORE SQL: read-only SQL, tab-separated. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "base/decimal.h"
#include "store/dump.h"

#define QUERY_TIMEOUT_DEFAULT 60 /* seconds */
#define QUERY_TIMEOUT_MAX 86400
#define PROGRESS_OPS 10000	 /* SQLite VM steps between two looks at the clock */
#define QUERY_MEMORY_DEFAULT 512 /* MiB of SQLite heap */
#define QUERY_MEMORY_MAX 1048576

/* The options, as the table binds them (pr_opt_fill); read here: seconds with ms precision
 * and MiB, each with its own message. */
struct query_opts {
	const char *timeout, *max_memory;
};

#define O struct query_opts
static const struct pr_option opts[] = {
	PR_OPT_STRING("timeout", 0, "SECONDS",
		      "stop the statement after this long (default 60, ms precision; 0 = no limit)",
		      0, O, timeout),
	PR_OPT_STRING("max-memory", 0, "MIB",
		      "stop the statement when SQLite's heap would pass this many MiB (default "
		      "512; 0 = no limit)",
		      0, O, max_memory),
	PR_OPT_END,
};
#undef O

struct guard {
	struct timespec deadline;
	int limited, timed_out, tokenizer;
};

/* SQLite's progress handler: non-zero interrupts the statement. */
static int past_deadline(void *ctx)
{
	struct guard *g = ctx;
	struct timespec now;
	if (!g->limited || clock_gettime(CLOCK_MONOTONIC, &now))
		return 0;
	if (now.tv_sec > g->deadline.tv_sec ||
	    (now.tv_sec == g->deadline.tv_sec && now.tv_nsec >= g->deadline.tv_nsec))
		g->timed_out = 1;
	return g->timed_out;
}

/*
 * fts3_tokenizer('name') returns the address of a tokenizer module (a
 * pointer into the process: it defeats address randomization) and, with a
 * second argument, would install one: denied at prepare, views included.
 */
static int authorize(void *ctx, int action, const char *a1, const char *a2, const char *db,
		     const char *trigger)
{
	struct guard *g = ctx;
	(void)a1;
	(void)db;
	(void)trigger;
	if (action == SQLITE_FUNCTION && a2 && !sqlite3_stricmp(a2, "fts3_tokenizer")) {
		g->tokenizer = 1;
		return SQLITE_DENY;
	}
	return SQLITE_OK;
}

static int cmd_query(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_store *st = NULL;
	struct guard g;
	struct query_opts o = { 0 };
	const char *tv, *mv;
	int64_t ms = QUERY_TIMEOUT_DEFAULT * 1000; /* the limit in milliseconds */
	int64_t mib = QUERY_MEMORY_DEFAULT;
	int rc;
	if (pr_opt_fill(cmd->opts, a, &o, err)) /* strings: cannot fail */
		return -1;
	tv = o.timeout;
	mv = o.max_memory;
	if (tv && (pr_decimal_scaled(tv, strlen(tv), 3, &ms) != PR_DEC_OK || ms < 0 ||
		   ms > (int64_t)QUERY_TIMEOUT_MAX * 1000))
		return pr_error_set(
			err, PR_E_USAGE,
			"--timeout needs a number of seconds from 0 to %d (0 = no limit)",
			QUERY_TIMEOUT_MAX);
	if (mv && (!*mv || strspn(mv, "0123456789") != strlen(mv) || strlen(mv) > 8 ||
		   (mib = strtoll(mv, NULL, 10)) > QUERY_MEMORY_MAX))
		return pr_error_set(err, PR_E_USAGE,
				    "--max-memory needs a whole number of MiB from 0 to %d (0 = no "
				    "limit)",
				    QUERY_MEMORY_MAX);
	if (pr_store_open(&st, a->pos[0], PR_STORE_READONLY | PR_STORE_MEMSTATUS, err))
		return -1;
	/* the whole process's SQLite heap, the open store included; a statement that
	 * would pass it fails with SQLITE_NOMEM (one statement used 1.8 GB before) */
	sqlite3_hard_heap_limit64(mib * 1048576);
	memset(&g, 0, sizeof(g));
	sqlite3_set_authorizer(pr_store_db(st), authorize, &g);
	if (ms > 0 && clock_gettime(CLOCK_MONOTONIC, &g.deadline) == 0) {
		g.deadline.tv_sec += (time_t)(ms / 1000);
		g.deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
		if (g.deadline.tv_nsec >= 1000000000L) {
			g.deadline.tv_sec++;
			g.deadline.tv_nsec -= 1000000000L;
		}
		g.limited = 1;
		sqlite3_progress_handler(pr_store_db(st), PROGRESS_OPS, past_deadline, &g);
	}
	rc = pr_store_query(st, a->pos[1], stdout, err);
	if (rc && g.tokenizer)
		pr_error_set(err, PR_E_USAGE,
			     "fts3_tokenizer() is not allowed (it returns a memory address)");
	else if (rc && mib > 0 && sqlite3_errcode(pr_store_db(st)) == SQLITE_NOMEM)
		pr_error_set(err, PR_E_LIMIT,
			     "the statement needed more than %lld MiB of memory and was stopped "
			     "(--max-memory MIB; 0 = no limit)",
			     (long long)mib);
	else if (rc && g.timed_out)
		pr_error_set(err, PR_E_LIMIT,
			     "the statement ran longer than %s s and was stopped (--timeout "
			     "SECONDS; 0 = no limit)",
			     tv ? tv : "60");
	sqlite3_progress_handler(pr_store_db(st), 0, NULL, NULL);
	sqlite3_set_authorizer(pr_store_db(st), NULL, NULL);
	pr_store_close(st);
	sqlite3_hard_heap_limit64(0);
	return rc;
}

const struct pr_command pr_cmd_query = {
	.name = "query",
	.fn = cmd_query,
	.min_pos = 2,
	.max_pos = 2,
	.opts = opts,
	.usage = "query STORE SQL",
	.summary = "run one read-only SQL statement on a store; tab-separated output with a header",
	.help = "The schema is documented in docs/store.md (tables run, span, track, series,\n"
		"sample, instant, flow, metric, diag, string; views span_v, sample_v, instant_v).\n"
		"A statement still running after --timeout SECONDS (default 60; 0 = no limit)\n"
		"is stopped: exit 2, rows already printed stay printed. fts3_tokenizer() is refused.",
};
