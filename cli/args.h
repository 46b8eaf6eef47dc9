/*
 * args.h - a command's option values (cli/args.c).
 */
#ifndef PR_ARGS_H
#define PR_ARGS_H

#include "base/error.h"

struct pr_command;
struct pr_args;

/* Value of option lname, or NULL. */
const char *pr_arg(const struct pr_command *cmd, const struct pr_args *a, const char *lname);

#endif
