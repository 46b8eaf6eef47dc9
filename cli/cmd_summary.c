/* cmd_summary.c - profreport summary INPUT...: the console report. */
#include <stdio.h>
#include <string.h>

#include "analyze/overview.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "render/text_summary.h"
#include "store/decimal.h"

static const struct pr_option opts[] = {
	{ "top", 0, "N", "how many spans to list by self time (default 10)" },
	{ "format", 0, "NAME", "force the input format" },
	{ NULL, 0, NULL, NULL },
};

static int cmd_summary(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_cli_input in;
	struct pr_overview ov;
	const char *top = pr_arg(cmd, a, "top");
	int64_t n = 10;
	if (top && (pr_decimal_scaled(top, strlen(top), 0, &n) || n < 0 || n > 100000))
		return pr_error_set(err, PR_E_USAGE, "--top needs a number from 0 to 100000");
	if (pr_cli_input_open(&in, cmd->name, a->pos, a->npos, pr_arg(cmd, a, "format"), err))
		return -1;
	if (pr_overview_build(in.store, (size_t)n, &ov, err)) {
		pr_cli_input_close(&in);
		return -1;
	}
	pr_render_summary_text(&ov, stdout);
	pr_overview_release(&ov);
	pr_cli_input_close(&in);
	return 0;
}

const struct pr_command pr_cmd_summary = {
	.name = "summary",
	.fn = cmd_summary,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "summary INPUT... [--top N] [--format NAME]",
	.summary = "print runs, steps, phases, top spans by self time, series and diagnostics",
	.help = "INPUT is a store, trace files or directories (ingested into a temporary store).",
};
