/* cmd_formats.c - profreport formats: the ingest registry. */
#include <stdio.h>

#include "cli/commands.h"
#include "ingest/format.h"

static int cmd_formats(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	size_t i;
	(void)cmd;
	(void)a;
	(void)err;
	for (i = 0; pr_formats[i]; i++)
		printf("%-10s %s\n", pr_formats[i]->name, pr_formats[i]->summary);
	return 0;
}

const struct pr_command pr_cmd_formats = {
	.name = "formats",
	.fn = cmd_formats,
	.min_pos = 0,
	.max_pos = 0,
	.opts = NULL,
	.usage = "formats",
	.summary = "list the input formats profreport reads (auto-detected by content)",
	.help = NULL,
};
