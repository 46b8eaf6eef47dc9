/* datetime.c - calendar date-times to epoch nanoseconds, no libc time functions. */
#include "ingest/datetime.h"

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t era, yoe, doy, doe;
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int digits_at(const char *p, size_t n, size_t at, size_t k, int64_t *v)
{
	size_t i;
	*v = 0;
	if (at + k > n)
		return 0;
	for (i = at; i < at + k; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		*v = *v * 10 + (p[i] - '0');
	}
	return 1;
}

/*
 * "YYYY-MM-DD[( |T)HH:MM[:SS[.frac]]][Z|(+|-)HH[:]MM|(+|-)HH]", '-' or '/'
 * between date parts. Returns 0 with *ns since the epoch (UTC) and *naive
 * set when there was no zone, or -1.
 */
int pr_parse_datetime(const char *p, size_t n, int64_t *ns, int *naive)
{
	static const int mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int64_t y, mo, d, h = 0, mi = 0, s = 0, frac = 0, oh = 0, om = 0, days;
	size_t i = 10, k;
	int sign = 0;
	char sep;

	while (n && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (!digits_at(p, n, 0, 4, &y) || n < 10)
		return -1;
	sep = p[4];
	if ((sep != '-' && sep != '/') || p[7] != sep || !digits_at(p, n, 5, 2, &mo) ||
	    !digits_at(p, n, 8, 2, &d))
		return -1;
	if (y < 1700 || y > 2200 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
	    (mo == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))))
		return -1;
	if (i < n && (p[i] == ' ' || p[i] == 'T' || p[i] == 't')) {
		if (!digits_at(p, n, i + 1, 2, &h) || i + 3 >= n || p[i + 3] != ':' ||
		    !digits_at(p, n, i + 4, 2, &mi))
			return -1;
		i += 6;
		if (i < n && p[i] == ':') {
			if (!digits_at(p, n, i + 1, 2, &s))
				return -1;
			i += 3;
			if (i < n && (p[i] == '.' || p[i] == ',')) {
				i++;
				for (k = 0; i < n && p[i] >= '0' && p[i] <= '9'; i++, k++)
					if (k < 9)
						frac = frac * 10 + (p[i] - '0');
				if (!k)
					return -1;
				for (; k < 9; k++)
					frac *= 10;
			}
		}
		if (h > 23 || mi > 59 || s > 60)
			return -1;
	}
	*naive = 1;
	if (i < n && (p[i] == 'Z' || p[i] == 'z')) {
		*naive = 0;
		i++;
	} else if (i < n && (p[i] == '+' || p[i] == '-')) {
		sign = p[i] == '-' ? -1 : 1;
		if (!digits_at(p, n, i + 1, 2, &oh))
			return -1;
		i += 3;
		if (i < n && p[i] == ':')
			i++;
		if (i < n) {
			if (!digits_at(p, n, i, 2, &om))
				return -1;
			i += 2;
		}
		if (oh > 23 || om > 59)
			return -1;
		*naive = 0;
	}
	if (i != n)
		return -1;
	days = days_from_civil(y, mo, d);
	*ns = ((days * 86400 + h * 3600 + mi * 60 + s) - sign * (oh * 3600 + om * 60)) *
		      1000000000LL +
	      frac;
	return 0;
}
