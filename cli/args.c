/*
 * args.c - a command's option values, read from its parsed arguments. The
 * commands call down into it (and it into opt.c); nothing here calls a
 * command, so the command table (commands.c) and the commands never call
 * each other both ways.
 */
#include "cli/args.h"

#include <string.h>

#include "cli/commands.h"

const char *pr_arg(const struct pr_command *cmd, const struct pr_args *a, const char *lname)
{
	int k = pr_opt_index(cmd->opts, lname);
	return k < 0 ? NULL : a->val[k];
}
