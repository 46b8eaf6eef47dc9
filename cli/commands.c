/* commands.c - the table of subcommands, in help order. */
#include "cli/commands.h"

#include <stdio.h>
#include <string.h>

extern const struct pr_command pr_cmd_ingest;
extern const struct pr_command pr_cmd_summary;
extern const struct pr_command pr_cmd_report;
extern const struct pr_command pr_cmd_formats;
extern const struct pr_command pr_cmd_dump;
extern const struct pr_command pr_cmd_query;
extern const struct pr_command pr_cmd_speedscope;
extern const struct pr_command pr_cmd_compare;
extern const struct pr_command pr_cmd_aggregate;
extern const struct pr_command pr_cmd_metrics;
extern const struct pr_command pr_cmd_changes;

const struct pr_command *const pr_commands[] = {
	&pr_cmd_ingest,	 &pr_cmd_summary, &pr_cmd_report,    &pr_cmd_compare,
	&pr_cmd_metrics, &pr_cmd_changes, &pr_cmd_aggregate, &pr_cmd_speedscope,
	&pr_cmd_query,	 &pr_cmd_dump,	  &pr_cmd_formats,   NULL,
};

const struct pr_command *pr_command_find(const char *name)
{
	size_t i;
	for (i = 0; pr_commands[i]; i++)
		if (!strcmp(pr_commands[i]->name, name))
			return pr_commands[i];
	return NULL;
}

void pr_command_usage(const struct pr_command *cmd, char *buf, size_t n)
{
	snprintf(buf, n, "%s", cmd->usage);
	if (cmd->opts)
		pr_opt_usage(cmd->opts, buf, n);
}
