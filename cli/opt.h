/*
 * opt.h - a small table-driven option parser and help printer.
 *
 * Options: --name VALUE, --name=VALUE, -x VALUE, flags without values,
 * "--" ends options. Everything else is a positional argument.
 * An option given more than once keeps its last value in val[]; count[]
 * says how often it was given and pr_opt_nth() returns each value in turn
 * (repeatable options such as compare's --fail-on).
 */
#ifndef PR_OPT_H
#define PR_OPT_H

#include <stdio.h>

#include "base/error.h"

#define PR_OPT_MAX 24
#define PR_POS_MAX 4096

/* pr_option.flags: how the option reads in the generated usage line. */
enum {
	PR_OPT_REQUIRED = 1, /* must be given (the command says so itself); shown without brackets */
	PR_OPT_REPEAT = 2,   /* may be given more than once: "[--x V]..." */
	PR_OPT_OR = 4        /* an alternative to the option before it: "[--a X | --b Y]" */
};

struct pr_option {
	const char *lname; /* without "--" */
	char sname;        /* 0 = none */
	const char *arg;   /* NULL = flag; else the value's name for help */
	const char *help;
	unsigned flags;    /* PR_OPT_* */
};

struct pr_args {
	const char *val[PR_OPT_MAX]; /* value, or "" for a set flag, NULL when absent */
	char **pos;
	int npos;
	int count[PR_OPT_MAX]; /* times each option was given */
	int argc;              /* what was parsed, for pr_opt_nth */
	char **argv;
};

/* argv[0] is the command name. */
int pr_opt_parse(int argc, char **argv, const struct pr_option *opts, struct pr_args *out,
		 struct pr_error *err) PR_MUST_CHECK;
void pr_opt_help(const struct pr_option *opts, FILE *out);
/* The options part of a usage line, from the table: " -o STORE [--format NAME] [-q]" (appended to buf). */
void pr_opt_usage(const struct pr_option *opts, char *buf, size_t n);
/* Index of the option with this long name (for reading pr_args.val). */
int pr_opt_index(const struct pr_option *opts, const char *lname);
/* The n-th (0-based) value of option lname in command-line order, or NULL. */
const char *pr_opt_nth(const struct pr_option *opts, const struct pr_args *a, const char *lname,
		       int n);

#endif
