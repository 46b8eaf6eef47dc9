/* opt.c - option parsing from a const table. */
#include "cli/opt.h"

#include <stdlib.h>
#include <string.h>

#include "base/decimal.h"
#include "base/xalloc.h"

int pr_opt_index(const struct pr_option *opts, const char *lname)
{
	int i;
	for (i = 0; opts && opts[i].lname; i++)
		if (!strcmp(opts[i].lname, lname))
			return i;
	return -1;
}

static int find(const struct pr_option *opts, const char *arg, size_t len, char sname)
{
	int i;
	for (i = 0; opts && opts[i].lname; i++) {
		if (sname && opts[i].sname == sname)
			return i;
		if (!sname && strlen(opts[i].lname) == len && !strncmp(opts[i].lname, arg, len))
			return i;
	}
	return -1;
}

int pr_opt_parse(int argc, char **argv, const struct pr_option *opts, struct pr_args *out,
		 struct pr_error *err)
{
	int i, only_pos = 0;
	memset(out, 0, sizeof(*out));
	out->argc = argc;
	out->argv = argv;
	out->pos = pr_xcalloc((size_t)argc + 1, sizeof(*out->pos));
	for (i = 1; i < argc; i++) {
		char *a = argv[i];
		const char *eq = NULL;
		int k;
		if (only_pos || a[0] != '-' || !a[1]) {
			out->pos[out->npos++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = 1;
			continue;
		}
		if (a[1] == '-') {
			eq = strchr(a + 2, '=');
			k = find(opts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), 0);
		} else {
			k = a[2] ? -1 : find(opts, NULL, 0, a[1]);
		}
		if (k < 0) {
			free(out->pos);
			out->pos = NULL;
			return pr_error_set(err, PR_E_USAGE, "unknown option '%s'", a);
		}
		if (!opts[k].arg) {
			if (eq) {
				free(out->pos);
				out->pos = NULL;
				return pr_error_set(err, PR_E_USAGE, "option '--%s' takes no value",
						    opts[k].lname);
			}
			out->val[k] = "";
			out->count[k]++;
		} else if (eq) {
			out->val[k] = eq + 1;
			out->count[k]++;
		} else if (i + 1 < argc) {
			out->val[k] = argv[++i];
			out->count[k]++;
		} else {
			free(out->pos);
			out->pos = NULL;
			return pr_error_set(err, PR_E_USAGE, "option '%s' needs a value (%s)", a,
					    opts[k].arg);
		}
	}
	return 0;
}

const char *pr_opt_nth(const struct pr_option *opts, const struct pr_args *a, const char *lname,
		       int n)
{
	int i, want = pr_opt_index(opts, lname), seen = 0;
	if (want < 0 || !opts[want].arg || n < 0 || n >= a->count[want])
		return NULL;
	/* the same walk as pr_opt_parse, which already accepted this command line */
	for (i = 1; i < a->argc; i++) {
		char *s = a->argv[i];
		const char *eq = NULL, *val;
		int k;
		if (s[0] != '-' || !s[1])
			continue;
		if (!strcmp(s, "--"))
			break;
		if (s[1] == '-') {
			eq = strchr(s + 2, '=');
			k = find(opts, s + 2, eq ? (size_t)(eq - s - 2) : strlen(s + 2), 0);
		} else {
			k = s[2] ? -1 : find(opts, NULL, 0, s[1]);
		}
		if (k < 0 || !opts[k].arg)
			continue;
		val = eq ? eq + 1 : (i + 1 < a->argc ? a->argv[++i] : NULL);
		if (k == want && seen++ == n)
			return val;
	}
	return NULL;
}

void pr_opt_help(const struct pr_option *opts, FILE *out)
{
	int i;
	if (!opts || !opts[0].lname)
		return;
	fputs("\noptions:\n", out);
	for (i = 0; opts[i].lname; i++) {
		char left[64];
		if (opts[i].sname)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", opts[i].sname, opts[i].lname,
				 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", opts[i].lname,
				 opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		fprintf(out, "  %-26s %s\n", left, opts[i].help);
	}
}

/* One option as the usage line names it: "-o STORE", "--format NAME", "-q". */
static void usage_token(const struct pr_option *o, char *buf, size_t n)
{
	if (o->sname)
		snprintf(buf, n, "-%c%s%s", o->sname, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(buf, n, "--%s%s%s", o->lname, o->arg ? " " : "", o->arg ? o->arg : "");
}

void pr_opt_usage(const struct pr_option *opts, char *buf, size_t n)
{
	size_t i, len = strlen(buf);
	char tok[160];
	for (i = 0; opts[i].lname && len + 1 < n; i++) {
		const struct pr_option *o = &opts[i];
		int alt_next = opts[i + 1].lname && (opts[i + 1].flags & PR_OPT_OR);
		usage_token(o, tok, sizeof(tok));
		if (o->flags & PR_OPT_OR)
			snprintf(buf + len, n - len, " | %s%s", tok, alt_next ? "" : "]");
		else if (o->flags & PR_OPT_REQUIRED)
			snprintf(buf + len, n - len, " %s", tok);
		else
			snprintf(buf + len, n - len, " [%s%s%s", tok, alt_next ? "" : "]",
				 !alt_next && (o->flags & PR_OPT_REPEAT) ? "..." : "");
		len += strlen(buf + len);
	}
}

int pr_opt_uint(const char *lname, const char *v, int64_t max, int64_t *out, struct pr_error *err)
{
	int64_t n;
	if (pr_decimal_scaled(v, strlen(v), 0, &n) || n < 0 || n > max)
		return pr_error_set(err, PR_E_USAGE, "--%s needs a whole number from 0 to %lld",
				    lname, (long long)max);
	*out = n;
	return 0;
}

int pr_opt_fill(const struct pr_option *opts, const struct pr_args *a, void *target,
		struct pr_error *err)
{
	char *base = target;
	int i;
	/* the strings and flags first: a number's error leaves them filled */
	for (i = 0; opts && opts[i].lname; i++) {
		if (!a->val[i])
			continue;
		if (opts[i].type == PR_OPT_T_STRING)
			*(const char **)(void *)(base + opts[i].off) = a->val[i];
		else if (opts[i].type == PR_OPT_T_FLAG)
			*(int *)(void *)(base + opts[i].off) = 1;
	}
	for (i = 0; opts && opts[i].lname; i++)
		if (a->val[i] && opts[i].type == PR_OPT_T_UINT &&
		    pr_opt_uint(opts[i].lname, a->val[i], opts[i].max,
				(int64_t *)(void *)(base + opts[i].off), err))
			return -1;
	return 0;
}
