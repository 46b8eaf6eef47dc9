/* test_error.c - base/error: one-line error text, and the names shown for paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include "base/error.h"

/* Newline, CR and tab by name, other C0 and DEL as \xNN, C1 as \u00NN; the rest as it is. */
static void test_escape(void **state)
{
	char buf[256];
	(void)state;
	pr_error_escape("a\nb\rc\td\x1b[2J\x7f"
			"e\x01",
			buf, sizeof(buf));
	assert_string_equal(buf, "a\\nb\\rc\\td\\x1b[2J\\x7fe\\x01");
	/* C1 CSI (U+009B, UTF-8 C2 9B) is obeyed by some terminals; U+00A0 and e-acute are text */
	pr_error_escape("x\xc2\x9by\xc2\xa0z\xc3\xa9", buf, sizeof(buf));
	assert_string_equal(buf, "x\\u009by\xc2\xa0z\xc3\xa9");
	/* invalid UTF-8 passes through (it cannot start a line or a terminal command) */
	pr_error_escape("\xff\xc2", buf, sizeof(buf));
	assert_string_equal(buf, "\xff\xc2");
	/* bidi controls as \u20NN (U+202E would make a name read backwards); their
	 * neighbours U+2010 (hyphen) and U+2065 stay; a cut sequence stays as it is */
	pr_error_escape("a\xe2\x80\xae"
			"b\xe2\x80\x8f"
			"c\xe2\x81\xa6"
			"d\xe2\x80\x90"
			"e\xe2\x81\xa5",
			buf, sizeof(buf));
	assert_string_equal(buf, "a\\u202eb\\u200fc\\u2066d\xe2\x80\x90"
				 "e\xe2\x81\xa5");
	pr_error_escape("z\xe2\x80", buf, sizeof(buf));
	assert_string_equal(buf, "z\xe2\x80");
	pr_error_escape("", buf, sizeof(buf));
	assert_string_equal(buf, "");
}

/* A result that does not fit stops before an escape it cannot finish. */
static void test_escape_truncated(void **state)
{
	char buf[8];
	(void)state;
	pr_error_escape("ab\ncdef", buf, 6); /* "ab\n" is 4 bytes, "c" the 5th, then the NUL */
	assert_string_equal(buf, "ab\\nc");
	pr_error_escape("ab\ncdef", buf, 4); /* "ab" and no room for both bytes of "\n" */
	assert_string_equal(buf, "ab");
	pr_error_escape("\x1b", buf, 4); /* "\x1b" needs 4 bytes and the NUL */
	assert_string_equal(buf, "");
	buf[0] = 'z';
	pr_error_escape("abc", buf, 1);
	assert_string_equal(buf, "");
}

/* A file name with a newline and a message with ESC stay on one line. */
static void test_format_one_line(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	char line[1200];
	(void)state;
	pr_error_at(&err, PR_E_PARSE, -1, 3, 7, "bad name '\x1b]0;owned\x07'");
	pr_error_set_source(&err, "dir/a\nb.json");
	pr_error_format(&err, line, sizeof(line));
	assert_string_equal(line, "'dir/a\\nb.json':3:7: bad name '\\x1b]0;owned\\x07'");
	assert_null(strchr(line, '\n'));
	/* the stored source keeps the raw bytes: only the formatted line is escaped */
	assert_string_equal(err.source, "dir/a\nb.json");
}

/* A path the program made for the user's one shows as the user's. */
static void test_path_shown(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	assert_string_equal(pr_path_shown("/tmp/profreport-input-x"), "/tmp/profreport-input-x");
	pr_path_set_shown("/tmp/profreport-input-x", "-");
	pr_path_set_shown("/tmp/profreport-input-y", "/dev/fd/63");
	assert_string_equal(pr_path_shown("/tmp/profreport-input-x"), "-");
	assert_string_equal(pr_path_shown("/tmp/profreport-input-y"), "/dev/fd/63");
	assert_string_equal(pr_path_shown("other.json"), "other.json");
	pr_error_set(&err, PR_E_IO, "read failed");
	pr_error_set_source(&err, "/tmp/profreport-input-x");
	assert_string_equal(err.source, "-");
	pr_path_shown_release();
	assert_string_equal(pr_path_shown("/tmp/profreport-input-x"), "/tmp/profreport-input-x");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escape_truncated),
		cmocka_unit_test(test_format_one_line),
		cmocka_unit_test(test_path_shown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
