/* units.c - unit-aware number formatting. */
#include "render/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void pr_fmt_duration(double ns, char *buf, size_t n)
{
	double a = fabs(ns);
	if (a >= 1e21) /* past 31 700 years: no column holds the digits */
		snprintf(buf, n, "%.3g s", ns / 1e9);
	else if (a >= 1e9)
		snprintf(buf, n, "%.3f s", ns / 1e9);
	else if (a >= 1e6)
		snprintf(buf, n, "%.3f ms", ns / 1e6);
	else if (a >= 1e3)
		snprintf(buf, n, "%.3f us", ns / 1e3);
	else
		snprintf(buf, n, "%.0f ns", ns);
}

void pr_fmt_bytes(double bytes, char *buf, size_t n)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double a = fabs(bytes);
	size_t u = 0;
	if (a >= 1024.0 * 1152921504606846976.0) { /* 1024 EiB and more (a float sum, 1e308) */
		snprintf(buf, n, "%.3g B", bytes);
		return;
	}
	while (a >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		a /= 1024;
		bytes /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%.0f B", bytes);
	else
		snprintf(buf, n, "%.2f %s", bytes, units[u]);
}

void pr_fmt_rate(double v, char *buf, size_t n)
{
	static const char *const u[] = { "B/s", "kB/s", "MB/s", "GB/s", "TB/s" };
	size_t i = 0;
	double a = fabs(v);
	if (a >= 1e18) {
		snprintf(buf, n, "%.3g B/s", v);
		return;
	}
	while (a >= 999.95 && i + 1 < sizeof(u) / sizeof(u[0])) {
		a /= 1000;
		v /= 1000;
		i++;
	}
	snprintf(buf, n, "%.1f %s", v, u[i]);
}

void pr_fmt_value(double v, const char *unit, char *buf, size_t n)
{
	if (!strcmp(unit, "bytes"))
		pr_fmt_bytes(v, buf, n);
	else if (!strcmp(unit, "ns"))
		pr_fmt_duration(v, buf, n);
	else if (!strcmp(unit, "bytes_per_s") || !strcmp(unit, "bytes/s"))
		pr_fmt_rate(v, buf, n);
	else if (!strcmp(unit, "percent"))
		snprintf(buf, n, "%.1f %%", v);
	else if (!strcmp(unit, "celsius"))
		snprintf(buf, n, "%.1f C", v);
	else if (!strcmp(unit, "watts"))
		snprintf(buf, n, "%.1f W", v);
	else if (!strcmp(unit, "1/s"))
		snprintf(buf, n, "%.4g/s", v);
	else if (!strcmp(unit, "count"))
		snprintf(buf, n, "%.6g", v);
	else if (unit[0])
		snprintf(buf, n, "%.6g %s", v, unit);
	else
		snprintf(buf, n, "%.6g", v);
}

int pr_utc_split(double t, struct tm *tm, long *ms)
{
	double s = floor(t);
	time_t tt;
	memset(tm, 0, sizeof(*tm));
	*ms = 0;
	if (!isfinite(s) || fabs(s) > 3e11) /* about 9500 years: past gmtime's years */
		return -1;
	*ms = (long)floor((t - s) * 1000 + 0.5);
	if (*ms >= 1000) {
		*ms -= 1000;
		s += 1;
	}
	tt = (time_t)s;
	return gmtime_r(&tt, tm) ? 0 : -1;
}

void pr_fmt_utc(double epoch_ns, char *buf, size_t n)
{
	struct tm tm;
	long ms;
	if (pr_utc_split(epoch_ns / 1e9, &tm, &ms)) {
		snprintf(buf, n, "-");
		return;
	}
	snprintf(buf, n, "%04d-%02d-%02d %02d:%02d:%02d.%03ld UTC", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
}
