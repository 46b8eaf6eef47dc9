/* test_output.c - base/output: links followed to their file, temporary files known to the
 * signal handler. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include "base/output.h"

struct fx {
	char dir[512];
	char p[8][700];
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");
	snprintf(f->dir, sizeof(f->dir), "%s/pr-test-output-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

/* f->p[i] = dir/rel */
static const char *at(struct fx *f, int i, const char *rel)
{
	snprintf(f->p[i], sizeof(f->p[i]), "%s/%s", f->dir, rel);
	return f->p[i];
}

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static void assert_file(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *fp = fopen(path, "r");
	size_t n;
	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = 0;
	fclose(fp);
	assert_string_equal(buf, text);
}

/* Entries of a directory whose name contains ".tmp." */
static int temps_in(const char *dir)
{
	char cmd[800];
	FILE *p;
	int n = -1;
	snprintf(cmd, sizeof(cmd), "ls -a '%s' | grep -c '\\.tmp\\.'", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

static int write_all(const char *path, const char *text, int fail_with, struct pr_error *err)
{
	struct pr_output out;
	int rc;
	if (pr_output_open_file(&out, path, err))
		return -1;
	assert_int_equal(pr_output_write(&out, text, strlen(text)), 0);
	if (fail_with)
		pr_output_fail(&out, fail_with);
	rc = pr_output_close(&out, err);
	pr_output_release(&out);
	return rc;
}

/* A link into another directory: the temporary file is made next to the
 * file it names and renamed onto it; the link stays the same link. */
static void test_link_target_replaced(void **state)
{
	struct fx *f = *state;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_output out;
	struct stat before, after;
	char buf[64];
	ssize_t n;

	assert_int_equal(mkdir(at(f, 0, "archive"), 0777), 0);
	put(at(f, 1, "archive/r1.html"), "old");
	assert_int_equal(symlink("archive/r1.html", at(f, 2, "report.html")), 0);
	assert_int_equal(stat(f->p[1], &before), 0);

	assert_int_equal(pr_output_open_file(&out, f->p[2], &err), 0);
	assert_int_equal(temps_in(f->p[0]), 1); /* next to the target */
	assert_int_equal(temps_in(f->dir), 0);	/* not next to the link */
	assert_int_equal(pr_output_write(&out, "new", 3), 0);
	assert_file(f->p[1], "old"); /* untouched until the close */
	assert_int_equal(pr_output_close(&out, &err), 0);
	pr_output_release(&out);

	assert_file(f->p[1], "new");
	assert_int_equal(stat(f->p[1], &after), 0);
	assert_true(after.st_ino != before.st_ino); /* a rename, not a rewrite */
	n = readlink(f->p[2], buf, sizeof(buf) - 1);
	assert_int_equal(n, (ssize_t)strlen("archive/r1.html"));
	buf[n] = 0;
	assert_string_equal(buf, "archive/r1.html");
	assert_int_equal(temps_in(f->p[0]), 0);
}

/* A write that fails through a link (a full disk) leaves the old file. */
static void test_link_failed_write_keeps_old(void **state)
{
	struct fx *f = *state;
	struct pr_error err = PR_ERROR_INIT;
	struct stat sb;

	put(at(f, 0, "target.json"), "last week");
	assert_int_equal(symlink("target.json", at(f, 1, "link.json")), 0);
	assert_int_equal(write_all(f->p[1], "partial", ENOSPC, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	assert_string_equal(err.source, f->p[1]);
	assert_non_null(strstr(err.text, strerror(ENOSPC)));
	assert_file(f->p[0], "last week");
	assert_int_equal(lstat(f->p[1], &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(temps_in(f->dir), 0);
}

/* A chain of relative links ending in a missing file: the file is created. */
static void test_link_chain_dangling(void **state)
{
	struct fx *f = *state;
	struct pr_error err = PR_ERROR_INIT;
	struct stat sb;

	assert_int_equal(mkdir(at(f, 0, "a"), 0777), 0);
	assert_int_equal(mkdir(at(f, 1, "b"), 0777), 0);
	assert_int_equal(symlink("../b/final.txt", at(f, 2, "a/l2")), 0);
	assert_int_equal(symlink("a/l2", at(f, 3, "l1")), 0);
	assert_int_equal(write_all(f->p[3], "made", 0, &err), 0);
	assert_file(at(f, 4, "b/final.txt"), "made");
	assert_int_equal(lstat(f->p[4], &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_equal(lstat(f->p[2], &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(lstat(f->p[3], &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));

	/* a loop of links is an error naming the path */
	assert_int_equal(symlink("loop2", at(f, 5, "loop1")), 0);
	assert_int_equal(symlink("loop1", at(f, 6, "loop2")), 0);
	pr_error_init(&err);
	assert_int_equal(write_all(f->p[5], "x", 0, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	assert_string_equal(err.source, f->p[5]);
}

/* /proc/self/fd/N names this process's descriptor: written in place
 * (appending), never resolved to the file behind it and replaced. */
static void test_proc_fd_in_place(void **state)
{
	struct fx *f = *state;
	struct pr_error err = PR_ERROR_INIT;
	struct stat before, after;
	char proc[64];
	int fd;

	put(at(f, 0, "log.txt"), "first\n");
	assert_int_equal(stat(f->p[0], &before), 0);
	fd = open(f->p[0], O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	assert_int_equal(write_all(proc, "second\n", 0, &err), 0);
	close(fd);
	assert_file(f->p[0], "first\nsecond\n");
	assert_int_equal(stat(f->p[0], &after), 0);
	assert_true(after.st_ino == before.st_ino);
	assert_int_equal(temps_in(f->dir), 0);
}

/* What the SIGINT/SIGTERM handler calls: every live temporary file goes;
 * closed or released outputs are no longer known to it. */
static void test_remove_temps(void **state)
{
	struct fx *f = *state;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_output a, b, c;

	put(at(f, 0, "keep.txt"), "kept");
	assert_int_equal(pr_output_open_file(&a, at(f, 1, "one.txt"), &err), 0);
	assert_int_equal(pr_output_open_file(&b, f->p[0], &err), 0);
	assert_int_equal(pr_output_open_file(&c, at(f, 2, "done.txt"), &err), 0);
	assert_int_equal(pr_output_write(&c, "done", 4), 0);
	assert_int_equal(pr_output_close(&c, &err), 0);
	pr_output_release(&c);
	assert_int_equal(temps_in(f->dir), 2);

	pr_output_remove_temps();
	assert_int_equal(temps_in(f->dir), 0);
	assert_file(f->p[0], "kept"); /* the old file is not touched */
	assert_file(f->p[2], "done"); /* nor an output already in place */
	assert_int_equal(access(f->p[1], F_OK), -1);
	/* the outputs are dead: closing them fails, nothing appears */
	assert_int_equal(pr_output_close(&a, &err), -1);
	assert_int_equal(pr_output_close(&b, &err), -1);
	pr_output_release(&a);
	pr_output_release(&b);
	assert_int_equal(access(f->p[1], F_OK), -1);
	assert_file(f->p[0], "kept");
	pr_output_remove_temps(); /* nothing registered: harmless */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_link_target_replaced, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_link_failed_write_keeps_old, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_link_chain_dangling, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_proc_fd_in_place, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_remove_temps, fx_setup, fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
