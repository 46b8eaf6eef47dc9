/*
 * datetime.h - date-time text to Unix epoch nanoseconds, independent of the
 * locale and TZ (no strptime/mktime/timegm): the days come from the
 * proleptic Gregorian calendar.
 *
 * Accepted: "YYYY-MM-DD[( |T)HH:MM[:SS[.frac]]][Z|(+|-)HH[:]MM|(+|-)HH]" with
 * '-' or '/' between the date parts (nvidia-smi writes 2024/01/15 10:23:45.123,
 * Python's isoformat() 2024-01-15T10:23:45.123456+02:00), surrounding blanks
 * ignored, years 1700..2200. Returns 0 with *ns and *naive (1 when no zone
 * was given: the time is taken as UTC), or -1.
 */
#ifndef PR_DATETIME_H
#define PR_DATETIME_H

#include <stddef.h>
#include <stdint.h>

int pr_parse_datetime(const char *p, size_t n, int64_t *ns, int *naive);

#endif
