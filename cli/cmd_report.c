/* cmd_report.c - profreport report INPUT... --json FILE: the analysis model. */
#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "store/decimal.h"

static const struct pr_option opts[] = {
	{ "json", 0, "FILE", "write the analysis model (JSON; '-' = stdout)" },
	{ "top", 0, "N", "rows in the top-spans tables (default 15)" },
	{ "run", 0, "ID", "only this run of the store" },
	{ "timeline-points", 0, "N", "points per series timeline in the model (default 2000, 0 = none)" },
	{ "format", 0, "NAME", "force the input format" },
	{ NULL, 0, NULL, NULL },
};

/* Parses a non-negative integer option into *out (unchanged when absent). */
int pr_cli_uint_opt(const struct pr_command *cmd, struct pr_args *a, const char *name,
		    int64_t max, int64_t *out, struct pr_error *err);

int pr_cli_uint_opt(const struct pr_command *cmd, struct pr_args *a, const char *name,
		    int64_t max, int64_t *out, struct pr_error *err)
{
	const char *v = pr_arg(cmd, a, name);
	int64_t n;
	if (!v)
		return 0;
	if (pr_decimal_scaled(v, strlen(v), 0, &n) || n < 0 || n > max)
		return pr_error_set(err, PR_E_USAGE, "--%s needs a whole number from 0 to %lld", name,
				    (long long)max);
	*out = n;
	return 0;
}

static int cmd_report(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_model_opts mo = PR_MODEL_OPTS_INIT;
	struct pr_cli_input in;
	const char *json = pr_arg(cmd, a, "json");
	int64_t top = (int64_t)mo.top_n, run = 0, tl = (int64_t)mo.timeline_points;
	json_t *model;
	int rc;
	if (!json)
		return pr_error_set(err, PR_E_USAGE, "nothing to write: give --json FILE");
	if (pr_cli_uint_opt(cmd, a, "top", 100000, &top, err) ||
	    pr_cli_uint_opt(cmd, a, "run", INT32_MAX, &run, err) ||
	    pr_cli_uint_opt(cmd, a, "timeline-points", 10000000, &tl, err))
		return -1;
	mo.top_n = (size_t)top;
	mo.run = (long)run;
	mo.timeline_points = (size_t)tl;
	if (pr_cli_input_open(&in, cmd->name, a->pos, a->npos, pr_arg(cmd, a, "format"), err))
		return -1;
	model = pr_model_build(in.store, &mo, err);
	pr_cli_input_close(&in);
	if (!model)
		return -1;
	rc = pr_model_write(model, json, err);
	json_decref(model);
	return rc;
}

const struct pr_command pr_cmd_report = {
	.name = "report",
	.fn = cmd_report,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "report INPUT... --json FILE [--top N] [--run ID] [--timeline-points N] [--format NAME]",
	.summary = "analyze runs: peaks, phases, fragmentation, throughput, bottlenecks, leaks, recommendations",
	.help = "INPUT is a store, trace files or directories (ingested into a temporary store).\n"
		"The model's schema is documented in README (\"The analysis model\").",
};
