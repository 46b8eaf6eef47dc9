/*
 * test_opt.c - cli/opt.c: options bound by the table (PR_OPT_STRING, PR_OPT_FLAG,
 * PR_OPT_UINT) and filled by pr_opt_fill. cli/ is an executable, not a library:
 * the module is compiled into this test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli/opt.c"

struct t_opts {
	const char *name;
	int64_t top;
	int quiet;
};

#define O struct t_opts
static const struct pr_option t_table[] = {
	PR_OPT_STRING("name", 'n', "NAME", "a name", 0, O, name),
	PR_OPT("raw", 0, "X", "read with pr_opt_nth", PR_OPT_REPEAT),
	PR_OPT_UINT("top", 0, "N", "rows", 0, O, top, 100),
	PR_OPT_FLAG("quiet", 'q', "say nothing", 0, O, quiet),
	PR_OPT_END,
};
#undef O

/* Parses line (words split at spaces, the first the command) and fills o; returns
 * pr_opt_fill's result. */
static int fill(const char *line, struct t_opts *o, struct pr_error *err)
{
	static char buf[256];
	char *argv[16], *w;
	int argc = 0;
	struct pr_args a;
	int rc;
	snprintf(buf, sizeof(buf), "%s", line);
	for (w = strtok(buf, " "); w && argc < 16; w = strtok(NULL, " "))
		argv[argc++] = w;
	assert_int_equal(pr_opt_parse(argc, argv, t_table, &a, err), 0);
	rc = pr_opt_fill(t_table, &a, o, err);
	free(a.pos);
	return rc;
}

static void test_bound_values(void **state)
{
	const char *line = "cmd --name=a -n b --top 7 -q --raw x pos";
	struct t_opts o = { "default", 10, 0 };
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	assert_int_equal(fill(line, &o, &err), 0);
	assert_string_equal(o.name, "b"); /* the last value given */
	assert_true(o.top == 7);
	assert_int_equal(o.quiet, 1);
}

static void test_absent_keeps_defaults(void **state)
{
	const char *line = "cmd pos";
	struct t_opts o = { "default", 10, 0 };
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	assert_int_equal(fill(line, &o, &err), 0);
	assert_string_equal(o.name, "default");
	assert_true(o.top == 10);
	assert_int_equal(o.quiet, 0);
}

static void test_range(void **state)
{
	const char *max = "cmd --top 100";
	const char *over = "cmd --top 101 --name kept";
	const char *neg = "cmd --top -1";
	const char *word = "cmd --top many";
	struct t_opts o = { NULL, 10, 0 };
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	assert_int_equal(fill(max, &o, &err), 0);
	assert_true(o.top == 100);
	assert_int_equal(fill(over, &o, &err), -1);
	assert_int_equal(err.code, PR_E_USAGE);
	assert_string_equal(err.text, "--top needs a whole number from 0 to 100");
	assert_string_equal(o.name, "kept"); /* strings are filled before the numbers */
	pr_error_init(&err);
	assert_int_equal(fill(neg, &o, &err), -1);
	assert_string_equal(err.text, "--top needs a whole number from 0 to 100");
	pr_error_init(&err);
	assert_int_equal(fill(word, &o, &err), -1);
	assert_string_equal(err.text, "--top needs a whole number from 0 to 100");
}

static void test_usage_and_help_from_bound_entries(void **state)
{
	char buf[256] = "cmd";
	(void)state;
	pr_opt_usage(t_table, buf, sizeof(buf));
	assert_string_equal(buf, "cmd [-n NAME] [--raw X]... [--top N] [-q]");
	assert_int_equal(pr_opt_index(t_table, "top"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound_values),
		cmocka_unit_test(test_absent_keeps_defaults),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_usage_and_help_from_bound_entries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
