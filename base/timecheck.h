/*
 * timecheck.h - the range of times a store holds, and int64 arithmetic on
 * nanoseconds that cannot overflow.
 *
 * Times are int64 ns. Ingest keeps every time (a start, and a start plus
 * its duration) within +-PR_TIME_LIMIT_NS, just under 2^62 ns (146 years
 * either side of the clock's zero; Unix epoch ns reach it in 2116): the
 * difference of any two such times, and the sum of two, fits in an int64.
 * Sums of many durations do not, so analysis adds them with pr_add_sat or
 * in doubles, and a store written by something else may hold any int64: a
 * reader clamps what it reads (pr_time_clamp) before subtracting.
 *
 * USAGE
 *   if (!pr_time_ok(ts)) ... drop with a diagnostic ...
 *   d = pr_sub_sat(end, start);   never overflows; saturates at INT64_MIN/MAX
 */
#ifndef PR_TIMECHECK_H
#define PR_TIMECHECK_H

#include <stdint.h>

#define PR_TIME_LIMIT_NS ((INT64_C(1) << 62) - 1)

static inline int pr_time_ok(int64_t t)
{
	return t >= -PR_TIME_LIMIT_NS && t <= PR_TIME_LIMIT_NS;
}

static inline int64_t pr_time_clamp(int64_t t)
{
	return t < -PR_TIME_LIMIT_NS  ? -PR_TIME_LIMIT_NS
	       : t > PR_TIME_LIMIT_NS ? PR_TIME_LIMIT_NS
				      : t;
}

/* A span read from a store: start clamped, duration >= 0 and ending within the limit. */
static inline void pr_span_clamp(int64_t *ts, int64_t *dur)
{
	*ts = pr_time_clamp(*ts);
	if (*dur < 0)
		*dur = 0;
	if (*dur > PR_TIME_LIMIT_NS - *ts)
		*dur = PR_TIME_LIMIT_NS - *ts;
}

/* a + b, saturated to the int64 range. */
static inline int64_t pr_add_sat(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return r;
}

/* a - b, saturated to the int64 range. */
static inline int64_t pr_sub_sat(int64_t a, int64_t b)
{
	int64_t r;
	if (__builtin_sub_overflow(a, b, &r))
		return b < 0 ? INT64_MAX : INT64_MIN;
	return r;
}

#endif
