/*
 * args.h - a command's option values (cli/args.c).
 */
#ifndef PR_ARGS_H
#define PR_ARGS_H

#include <stdint.h>

#include "base/error.h"

struct pr_command;
struct pr_args;

/* Value of option lname, or NULL. */
const char *pr_arg(const struct pr_command *cmd, const struct pr_args *a, const char *lname);
/* Parses a non-negative integer option into *out (unchanged when absent). */
int pr_cli_uint_opt(const struct pr_command *cmd, struct pr_args *a, const char *name,
		    int64_t max, int64_t *out, struct pr_error *err) PR_MUST_CHECK;

#endif
