/* cmd_dump.c - profreport dump events STORE: the normalized event dump. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "base/decimal.h"
#include "store/dump.h"

/* The options, as the table binds them (pr_opt_fill); --run keeps its own message. */
struct dump_opts {
	const char *run;
};

static const struct pr_option opts[] = {
	PR_OPT_STRING("run", 0, "ID", "only this run", 0, struct dump_opts, run),
	PR_OPT_END,
};

static int cmd_dump(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_store *st = NULL;
	struct dump_opts o = { 0 };
	const char *run;
	int64_t run_id = 0;
	int rc;
	if (pr_opt_fill(cmd->opts, a, &o, err)) /* a string: cannot fail */
		return -1;
	run = o.run;
	if (strcmp(a->pos[0], "events"))
		return pr_error_set(err, PR_E_USAGE, "unknown dump '%s' (known: events)",
				    a->pos[0]);
	if (run && (pr_decimal_scaled(run, strlen(run), 0, &run_id) || run_id <= 0))
		return pr_error_set(err, PR_E_USAGE, "--run needs a positive run id");
	if (pr_store_open(&st, a->pos[1], PR_STORE_READONLY, err))
		return -1;
	rc = pr_store_dump(st, run_id, stdout, err);
	pr_store_close(st);
	return rc;
}

const struct pr_command pr_cmd_dump = {
	.name = "dump",
	.fn = cmd_dump,
	.min_pos = 2,
	.max_pos = 2,
	.opts = opts,
	.usage = "dump events STORE",
	.summary = "print the store as normalized text, one line per row (used by golden tests)",
	.help = NULL,
};
