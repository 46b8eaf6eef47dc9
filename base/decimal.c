/* decimal.c - exact decimal parsing into scaled integers. */
#include "base/decimal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t pow10_u64[20] = {
	1ULL,
	10ULL,
	100ULL,
	1000ULL,
	10000ULL,
	100000ULL,
	1000000ULL,
	10000000ULL,
	100000000ULL,
	1000000000ULL,
	10000000000ULL,
	100000000000ULL,
	1000000000000ULL,
	10000000000000ULL,
	100000000000000ULL,
	1000000000000000ULL,
	10000000000000000ULL,
	100000000000000000ULL,
	1000000000000000000ULL,
	10000000000000000000ULL,
};

int pr_decimal_scaled(const char *s, size_t n, int scale_exp, int64_t *out)
{
	const char *p = s, *end = s + n;
	int neg = 0, ndig = 0, any = 0, first_dropped = -1;
	uint64_t mant = 0;
	long exp10 = 0, e;

	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	if (p == end || !(*p >= '0' && *p <= '9'))
		return PR_DEC_SYNTAX;
	while (p < end && *p >= '0' && *p <= '9') {
		any = 1;
		if (ndig < 19) {
			mant = mant * 10 + (uint64_t)(*p - '0');
			if (mant)
				ndig++;
		} else {
			exp10++;
			if (first_dropped < 0)
				first_dropped = *p - '0';
		}
		p++;
	}
	if (p < end && *p == '.') {
		p++;
		if (p == end || !(*p >= '0' && *p <= '9'))
			return PR_DEC_SYNTAX;
		while (p < end && *p >= '0' && *p <= '9') {
			if (ndig < 19) {
				mant = mant * 10 + (uint64_t)(*p - '0');
				if (mant)
					ndig++;
				exp10--;
			} else if (first_dropped < 0) {
				first_dropped = *p - '0';
			}
			p++;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0;
		long ev = 0;
		p++;
		if (p < end && (*p == '-' || *p == '+'))
			eneg = *p++ == '-';
		if (p == end || !(*p >= '0' && *p <= '9'))
			return PR_DEC_SYNTAX;
		while (p < end && *p >= '0' && *p <= '9') {
			if (ev < 100000)
				ev = ev * 10 + (*p - '0');
			p++;
		}
		exp10 += eneg ? -ev : ev;
	}
	if (p != end || !any)
		return PR_DEC_SYNTAX;

	e = exp10 + scale_exp;
	if (mant == 0) {
		*out = 0;
		return PR_DEC_OK;
	}
	if (e >= 0) {
		if (e > 19 || mant > UINT64_MAX / pow10_u64[e])
			return PR_DEC_RANGE;
		mant *= pow10_u64[e];
		/* Digits beyond the 19 kept ones only matter here (e > 0 overflows
		 * anyway): round half away from zero on the first of them. */
		if (e == 0 && first_dropped >= 5) {
			if (mant == UINT64_MAX)
				return PR_DEC_RANGE;
			mant++;
		}
	} else {
		uint64_t div, q, r;
		if (-e > 19) {
			mant = 0; /* |value| < 0.5 after scaling: rounds to 0 */
		} else {
			div = pow10_u64[-e];
			q = mant / div;
			r = mant % div;
			/* Half away from zero; dropped digits (below r's last unit)
			 * cannot move r across div / 2. */
			if (r >= div / 2)
				q++;
			mant = q;
		}
	}
	if (neg) {
		if (mant > (uint64_t)INT64_MAX + 1)
			return PR_DEC_RANGE;
		*out = mant == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mant;
	} else {
		if (mant > (uint64_t)INT64_MAX)
			return PR_DEC_RANGE;
		*out = (int64_t)mant;
	}
	return PR_DEC_OK;
}

int pr_decimal_double(const char *s, size_t n, double *out)
{
	char tmp[64], *endp;
	double v;
	int64_t dummy;
	int rc;

	if (n == 0 || n >= sizeof(tmp))
		return n ? PR_DEC_RANGE : PR_DEC_SYNTAX;
	/* Syntax check with the exact parser (scale 0 may overflow; that's fine). */
	rc = pr_decimal_scaled(s, n, -400, &dummy);
	if (rc == PR_DEC_SYNTAX)
		return rc;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	v = strtod(tmp, &endp);
	if (endp != tmp + n)
		return PR_DEC_SYNTAX;
	if (!isfinite(v))
		return PR_DEC_RANGE;
	*out = v;
	return PR_DEC_OK;
}

/*
 * A number "-?[0-9]+(\.[0-9]+)?" of at most 15 digits in all, then ',' or ']', at p: 1 with
 * its value as strtod reads it (*d) and, without a fraction, as strtoll does (*iv; else
 * INT64_MIN); 0 for any other text (strtod and strtoll read it). Exact: the digits make an
 * integer below 2^53 and the fraction a power of ten up to 1e15, both doubles exactly, and
 * their quotient is rounded once, to the nearest, as strtod rounds (Clinger's fast path).
 */
int pr_decimal_fast(const char *p, double *d, int64_t *iv)
{
	static const double p10[16] = { 1e0, 1e1, 1e2,	1e3,  1e4,  1e5,  1e6,	1e7,
					1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	int neg = *p == '-', nd = 0, frac = 0;
	int64_t m = 0;
	p += neg;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (++nd > 15)
			return 0;
		m = m * 10 + (*p - '0');
	}
	if (!nd)
		return 0;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, frac++) {
			if (++nd > 15)
				return 0;
			m = m * 10 + (*p - '0');
		}
		if (!frac)
			return 0;
	}
	if ((*p != ',' && *p != ']') || (neg && !m)) /* -0: strtod's sign */
		return 0;
	if (neg)
		m = -m;
	*d = frac ? (double)m / p10[frac] : (double)m;
	*iv = frac ? INT64_MIN : m;
	return 1;
}
