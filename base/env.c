/* env.c - budgets that an environment variable may raise (env.h). */
#include "base/env.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int pr_env_number(const char *env, size_t deflt, unsigned long long lo, unsigned long long hi,
		  unsigned shift, size_t *out, struct pr_error *err)
{
	const char *e = getenv(env);
	char *end;
	unsigned long long v;
	*out = deflt;
	if (!e || !*e)
		return 0;
	errno = 0;
	v = strtoull(e, &end, 10);
	if (*e < '0' || *e > '9' || *end || errno || v < lo || v > hi)
		return pr_error_set(err, PR_E_USAGE,
				    "%s='%.40s': expected a whole number%s from %llu to %llu", env,
				    e, shift == 20 ? " of MiB" : "", lo, hi);
	*out = (size_t)v << shift;
	return 0;
}

int pr_timings_on(void)
{
	const char *tv = getenv("PR_TIMINGS");
	return tv && *tv && strcmp(tv, "0");
}

double pr_clock_s(int clock)
{
	struct timespec t;
	clock_gettime((clockid_t)clock, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
