/* test_xalloc.c - base/xalloc: jansson allocates under the project's out-of-memory policy. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/xalloc.h"

/* Under AddressSanitizer a failed malloc must return NULL as it does in
 * production, not be reported by ASan itself. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

/* An allocation no machine can satisfy: half the address space. */
#define HUGE_SIZE (SIZE_MAX / 2)

static void test_installed(void **state)
{
	json_malloc_t m = NULL;
	json_free_t f = NULL;
	json_t *o;
	(void)state;
	pr_xalloc_json_init();
	json_get_alloc_funcs(&m, &f);
	assert_ptr_equal(m, pr_json_malloc);
	assert_ptr_equal(f, free);
	o = json_pack("{s:i}", "k", 1); /* jansson works through it */
	assert_int_equal(json_integer_value(json_object_get(o, "k")), 1);
	json_decref(o);
}

/* Loading a document: a failed allocation comes back as NULL to be reported. */
static void test_tolerant_returns_null(void **state)
{
	(void)state;
	assert_int_equal(pr_json_tolerant(1), 0);
	assert_null(pr_json_malloc(HUGE_SIZE));
	assert_int_equal(pr_json_tolerant(0), 1);
}

/* Everywhere else: out of memory aborts (a model must not lose a key unseen). */
static void test_otherwise_aborts(void **state)
{
	int status = 0;
	pid_t pid;
	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the message goes to stderr; keep the test log clean */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		pr_json_malloc(HUGE_SIZE);
		_exit(0); /* not reached when the policy holds */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_installed),
		cmocka_unit_test(test_tolerant_returns_null),
		cmocka_unit_test(test_otherwise_aborts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
