/*
 * units.h - human-readable numbers with stated units (IEC for bytes:
 * KiB/MiB/GiB; SI prefixes for time: ns/us/ms/s). Locale-independent.
 */
#ifndef PR_UNITS_H
#define PR_UNITS_H

#include <stddef.h>
#include <stdint.h>

struct tm;

/* "12.345 ms" - three significant decimals, unit by magnitude. */
void pr_fmt_duration(double ns, char *buf, size_t n);
/* "1.50 GiB" */
void pr_fmt_bytes(double bytes, char *buf, size_t n);
/* A value in its canonical store unit (bytes, ns, percent, ...). */
/* A data rate in SI units as nccl-tests prints them: "150.0 GB/s" (B/s .. TB/s). */
void pr_fmt_rate(double bytes_per_s, char *buf, size_t n);
void pr_fmt_value(double v, const char *unit, char *buf, size_t n);
/* An absolute time as a UTC date: "2024-11-19 07:06:40.001 UTC" (ns since the Unix epoch);
 * "-" when not finite or out of the calendar's range. No time zone, no locale. */
void pr_fmt_utc(double epoch_ns, char *buf, size_t n);
/* The UTC calendar time of Unix second t (*tm) and the milliseconds after it, rounded
 * (*ms, 0..999; a round-up carries into the second). 0, or -1 when t is not finite
 * or beyond gmtime's years (*tm zeroed). */
int pr_utc_split(double t, struct tm *tm, long *ms);

#endif
