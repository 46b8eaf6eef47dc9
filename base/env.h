/*
 * env.h - budgets that an environment variable may raise (layer 0).
 *
 * USAGE
 *   size_t max;
 *   if (pr_env_number("PROFREPORT_MAX_STEPS", 65536, 1, 1 << 30, 0, &max, &err)) ...
 *
 * The variable, when set and not empty, must be a whole number from lo to hi
 * (decimal digits only); the value is then shifted left by shift (20: a number
 * of MiB given in bytes). Anything else is a usage error (PR_E_USAGE) that
 * names the variable and the range, and *out keeps the default.
 */
#ifndef PR_ENV_H
#define PR_ENV_H

#include <stddef.h>

#include "base/error.h"
#include "base/pr_common.h"

/* Steps and phases a run's analyses keep, and phases a phase log holds (analyze/spanstat.h). */
#define PR_MAX_STEPS_ENV "PROFREPORT_MAX_STEPS"
#define PR_MAX_STEPS_DEFAULT ((size_t)1 << 16)
/* Distinct (name, kind) groups of a run's span statistics (analyze/spanstat.h). */
#define PR_MAX_NAMES_ENV "PROFREPORT_MAX_NAMES"
#define PR_MAX_NAMES_DEFAULT ((size_t)1 << 17)
#define PR_MAX_COUNT_MAX ((size_t)1 << 30)

int pr_env_number(const char *env, size_t deflt, unsigned long long lo, unsigned long long hi,
		  unsigned shift, size_t *out, struct pr_error *err) PR_MUST_CHECK;

/*
 * PR_TIMINGS, the benchmarks' measuring hook: set, not empty and not "0" (1, or "parts" for
 * the GPU pass's parts). Without it no clock is read and nothing printed. pr_clock_s: a
 * clock (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...) in seconds.
 */
int pr_timings_on(void);
double pr_clock_s(int clock);

#endif
