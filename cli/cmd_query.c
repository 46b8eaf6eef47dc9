/* cmd_query.c - profreport query STORE SQL: read-only SQL, tab-separated. */
#include <stdio.h>

#include "cli/commands.h"
#include "store/dump.h"

static int cmd_query(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_store *st = NULL;
	int rc;
	(void)cmd;
	if (pr_store_open(&st, a->pos[0], PR_STORE_READONLY, err))
		return -1;
	rc = pr_store_query(st, a->pos[1], stdout, err);
	pr_store_close(st);
	return rc;
}

const struct pr_command pr_cmd_query = {
	.name = "query",
	.fn = cmd_query,
	.min_pos = 2,
	.max_pos = 2,
	.opts = NULL,
	.usage = "query STORE SQL",
	.summary = "run one read-only SQL statement on a store; tab-separated output with a header",
	.help = "The schema is documented in README.md (tables run, span, track, series, sample,\n"
		"instant, flow, metric, diag, string; views span_v, sample_v, instant_v).",
};
