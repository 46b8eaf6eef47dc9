/*
 * commands.h - the subcommand descriptor and table.
 *
 * Commands read their options with pr_opt_fill (cli/opt.h: the table binds
 * a member of the command's options struct), or pr_arg (cli/args.h).
 *
 * Adding a command = one cmd_<name>.c exporting one const struct
 * pr_command, one line in commands.c, a CLI test, a row of README.md's
 * Commands table and its page in docs/.
 * The dispatcher (main.c) handles -h/--help, parses options from the
 * descriptor's table, checks the positional count, then calls fn.
 */
#ifndef PR_COMMANDS_H
#define PR_COMMANDS_H

#include "cli/opt.h"

struct pr_command {
	const char *name;
	int (*fn)(const struct pr_command *cmd, struct pr_args *args, struct pr_error *err);
	int min_pos, max_pos; /* max_pos -1 = any */
	const struct pr_option *opts;
	const char *usage; /* after "profreport ": the name and positionals ("ingest INPUT..."); the
			      * options part of the usage line is made from opts (pr_command_usage) */
	const char *summary; /* one line */
	const char *help;    /* longer text, may be NULL */
};

extern const struct pr_command *const pr_commands[];

const struct pr_command *pr_command_find(const char *name);
/* The usage line after "profreport ": usage, then the options from the table. */
void pr_command_usage(const struct pr_command *cmd, char *buf, size_t n);

#endif
