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

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

#define PR_OPT_MAX 24
#define PR_POS_MAX 4096

/* pr_option.flags: how the option reads in the generated usage line. */
enum {
	PR_OPT_REQUIRED =
		1,	   /* must be given (the command says so itself); shown without brackets */
	PR_OPT_REPEAT = 2, /* may be given more than once: "[--x V]..." */
	PR_OPT_OR = 4	   /* an alternative to the option before it: "[--a X | --b Y]" */
};

/* pr_option.type: where the parsed value goes (pr_opt_fill), like git's OPT_STRING/OPT_UNSIGNED. */
enum pr_opt_type {
	PR_OPT_T_NONE = 0, /* not bound: read with pr_arg() / pr_opt_nth() */
	PR_OPT_T_STRING,   /* const char *: the last value given */
	PR_OPT_T_FLAG,	   /* int: 1 when given */
	PR_OPT_T_UINT	   /* int64_t: a whole number from 0 to max (usage error otherwise) */
};

struct pr_option {
	const char *lname; /* without "--" */
	char sname;	   /* 0 = none */
	const char *arg;   /* NULL = flag; else the value's name for help */
	const char *help;
	unsigned flags; /* PR_OPT_* */
	enum pr_opt_type type;
	size_t off;  /* the target's offset in the command's options struct (PR_OPT_T_*) */
	int64_t max; /* PR_OPT_T_UINT's largest value */
};

/*
 * Table entries. PR_OPT is an option the command reads itself; the typed
 * ones bind a member of the command's options struct T, which pr_opt_fill
 * fills (a member of another type fails to compile: distinct pointer types).
 */
#define PR_OPT(l, s, a, h, f)                                                                      \
	{                                                                                          \
		.lname = (l), .sname = (s), .arg = (a), .help = (h), .flags = (f)                  \
	}
#define PR_OPT_END                                                                                 \
	{                                                                                          \
		.lname = NULL                                                                      \
	}
#define PR_OPT_TARGET_(T, m, ctype) (offsetof(T, m) + 0 * sizeof(&((T *)0)->m == (ctype *)0))
#define PR_OPT_STRING(l, s, a, h, f, T, m)                                                         \
	{                                                                                          \
		.lname = (l), .sname = (s), .arg = (a), .help = (h), .flags = (f),                 \
		.type = PR_OPT_T_STRING, .off = PR_OPT_TARGET_(T, m, const char *)                 \
	}
#define PR_OPT_FLAG(l, s, h, f, T, m)                                                              \
	{                                                                                          \
		.lname = (l), .sname = (s), .arg = NULL, .help = (h), .flags = (f),                \
		.type = PR_OPT_T_FLAG, .off = PR_OPT_TARGET_(T, m, int)                            \
	}
#define PR_OPT_UINT(l, s, a, h, f, T, m, mx)                                                       \
	{                                                                                          \
		.lname = (l), .sname = (s), .arg = (a), .help = (h), .flags = (f),                 \
		.type = PR_OPT_T_UINT, .off = PR_OPT_TARGET_(T, m, int64_t), .max = (mx)           \
	}

struct pr_args {
	const char *val[PR_OPT_MAX]; /* value, or "" for a set flag, NULL when absent */
	char **pos;
	int npos;
	int count[PR_OPT_MAX]; /* times each option was given */
	int argc;	       /* what was parsed, for pr_opt_nth */
	char **argv;
};

/* argv[0] is the command name. */
int pr_opt_parse(int argc, char **argv, const struct pr_option *opts, struct pr_args *out,
		 struct pr_error *err) PR_MUST_CHECK;
void pr_opt_help(const struct pr_option *opts, FILE *out);
/* The options part of a usage line, from the table: " -o STORE [--format NAME] [-q]" (appended to buf). */
void pr_opt_usage(const struct pr_option *opts, char *buf, size_t n);
/*
 * The bound options' values into the options struct at target: a string or
 * a flag when given (a member stays as the command set it when absent), a
 * whole number checked against its max ("--top needs a whole number from 0
 * to 100000", PR_E_USAGE; the strings and flags are filled all the same).
 * Numbers in table order; 0 or -1.
 */
int pr_opt_fill(const struct pr_option *opts, const struct pr_args *a, void *target,
		struct pr_error *err) PR_MUST_CHECK;
/* v as a whole number from 0 to max into *out, else the usage error naming --lname. */
int pr_opt_uint(const char *lname, const char *v, int64_t max, int64_t *out,
		struct pr_error *err) PR_MUST_CHECK;
/* Index of the option with this long name (for reading pr_args.val). */
int pr_opt_index(const struct pr_option *opts, const char *lname);
/* The n-th (0-based) value of option lname in command-line order, or NULL. */
const char *pr_opt_nth(const struct pr_option *opts, const struct pr_args *a, const char *lname,
		       int n);

#endif
