/*
 * traces.h - the one way the unit tests find the real traces of tests/data/traces
 * (HTA's and TraceLens's, MIT, vendored; ctest sets $PR_TRACES to that folder).
 *
 * pr_test_trace(buf, n, rel) writes "$PR_TRACES/rel" into buf and returns 1 when it
 * exists. When it does not: 0 when the traces folder itself is absent (a tree without
 * tests/data/traces: the caller skips, exit 77), else the test fails at once (exit 1):
 * an in-repository trace that went missing is a failure, never a silent skip.
 */
#ifndef PR_TEST_TRACES_H
#define PR_TEST_TRACES_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static inline const char *pr_test_traces_dir(char *buf, size_t n)
{
	const char *d = getenv("PR_TRACES"), *t = getenv("PR_TESTS");
	if (d && *d)
		snprintf(buf, n, "%s", d);
	else
		snprintf(buf, n, "%s/data/traces", t && *t ? t : "tests");
	return buf;
}

static inline int pr_test_trace(char *buf, size_t n, const char *rel)
{
	char dir[1024];
	struct stat sb;
	pr_test_traces_dir(dir, sizeof(dir));
	if (snprintf(buf, n, "%s%s%s", dir, *rel ? "/" : "", rel) >= (int)n) {
		fprintf(stderr, "FAIL: the path of %s is longer than %zu bytes\n", rel, n);
		exit(1);
	}
	if (!stat(buf, &sb))
		return 1;
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		printf("%s is missing (a tree without tests/data/traces): skipped\n", dir);
		return 0;
	}
	fprintf(stderr, "FAIL: %s is missing from %s (tests/data/traces/SHA256SUMS lists it)\n",
		rel, dir);
	exit(1);
}

#endif
