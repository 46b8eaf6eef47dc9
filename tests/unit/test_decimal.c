/* test_decimal.c - base/decimal: exact decimal text -> scaled int64. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include "base/decimal.h"

/* Parses s at scale and checks both the result code and (when OK) the value. */
static void check(const char *s, int scale, int want_rc, int64_t want)
{
	int64_t got = 0x5a5a5a5a;
	int rc = pr_decimal_scaled(s, strlen(s), scale, &got);
	if (rc != want_rc || (want_rc == PR_DEC_OK && got != want))
		print_error("'%s' at scale %d: got rc %d value %lld, want rc %d value %lld\n", s,
			    scale, rc, (long long)got, want_rc, (long long)want);
	assert_int_equal(rc, want_rc);
	if (want_rc == PR_DEC_OK)
		assert_true(got == want);
}

static void test_exact_microseconds(void **state)
{
	(void)state;
	/* The Kineto timestamp case: a double would lose the last digits. */
	check("1669329643132548.123", 3, PR_DEC_OK, INT64_C(1669329643132548123));
	check("1669329643132548.1", 3, PR_DEC_OK, INT64_C(1669329643132548100));
	check("1669329643132548", 3, PR_DEC_OK, INT64_C(1669329643132548000));
	check("1669329643132548.999", 3, PR_DEC_OK, INT64_C(1669329643132548999));
	check("0", 3, PR_DEC_OK, 0);
	check("-0", 3, PR_DEC_OK, 0);
	check("0.000", 3, PR_DEC_OK, 0);
	check("12.5", 3, PR_DEC_OK, 12500);
	check("+5", 0, PR_DEC_OK, 5);
	check("-17", 3, PR_DEC_OK, -17000);
	/* Only the input's n bytes count, not what follows them. */
	{
		int64_t v = 0;
		assert_int_equal(pr_decimal_scaled("12345", 3, 0, &v), PR_DEC_OK);
		assert_true(v == 123);
	}
}

static void test_rounding_half_away_from_zero(void **state)
{
	(void)state;
	check("0.0005", 3, PR_DEC_OK, 1);   /* 0.5 ns rounds up */
	check("-0.0005", 3, PR_DEC_OK, -1); /* and away from zero when negative */
	check("0.0004999", 3, PR_DEC_OK, 0);
	check("-0.0004999", 3, PR_DEC_OK, 0);
	check("0.0015", 3, PR_DEC_OK, 2);
	check("0.0025", 3, PR_DEC_OK, 3); /* not banker's rounding (that gives 2) */
	check("-0.0025", 3, PR_DEC_OK, -3);
	check("2.5", 0, PR_DEC_OK, 3);
	check("-2.5", 0, PR_DEC_OK, -3);
	check("2.49999", 0, PR_DEC_OK, 2);
	check("0.4", 0, PR_DEC_OK, 0);
	check("1.0000000000000000000000001", 0, PR_DEC_OK, 1);
	/* Digits beyond the 19 the mantissa keeps still decide the rounding. */
	check("0.00049999999999999999999999", 3, PR_DEC_OK, 0);
	check("0.1234567890123456789012345", 18, PR_DEC_OK, INT64_C(123456789012345679));
	check("1e-400", 3, PR_DEC_OK, 0);
	check("-1e-400", 3, PR_DEC_OK, 0);
	check("0.000000000000000000000000000000000000000000005", 45, PR_DEC_OK, 5);
}

/*
 * More than 19 significant digits where the scaled value is an integer with
 * exactly the 19 kept digits: the dropped digits must still round.
 */
static void test_rounding_past_19_digits(void **state)
{
	(void)state;
	check("1669329643132548.1234", 3, PR_DEC_OK, INT64_C(1669329643132548123));
	check("1669329643132548.1235", 3, PR_DEC_OK, INT64_C(1669329643132548124));
	check("-1669329643132548.1235", 3, PR_DEC_OK, INT64_C(-1669329643132548124));
	check("1234567890123456789.5", 0, PR_DEC_OK, INT64_C(1234567890123456790));
	check("9223372036854775.8075", 3, PR_DEC_RANGE, 0); /* rounds to INT64_MAX + 1 */
}

static void test_exponents(void **state)
{
	(void)state;
	check("1.5e3", 0, PR_DEC_OK, 1500);
	check("1.5e3", 3, PR_DEC_OK, 1500000);
	check("1.5E3", 3, PR_DEC_OK, 1500000);
	check("1.5e+3", 3, PR_DEC_OK, 1500000);
	check("15e-1", 0, PR_DEC_OK, 2);
	check("1.5e-3", 3, PR_DEC_OK, 2);
	check("-1.25e2", 0, PR_DEC_OK, -125);
	check("1e18", 0, PR_DEC_OK, INT64_C(1000000000000000000));
	check("100000000000000000000e-2", 0, PR_DEC_OK, INT64_C(1000000000000000000));
	check("0.0000000000000000000000000000001e31", 0, PR_DEC_OK, 1);
	check("0e400", 3, PR_DEC_OK, 0);
	check("1e19", 0, PR_DEC_RANGE, 0);
	check("1e400", 0, PR_DEC_RANGE, 0);
	check("-1e400", 0, PR_DEC_RANGE, 0);
	check("1e99999999999", 3, PR_DEC_RANGE, 0);
	check("1669329643132548123e3", 3, PR_DEC_RANGE, 0);
}

static void test_int64_boundaries(void **state)
{
	(void)state;
	check("9223372036854775807", 0, PR_DEC_OK, INT64_MAX);
	check("9223372036854775808", 0, PR_DEC_RANGE, 0);
	check("-9223372036854775808", 0, PR_DEC_OK, INT64_MIN);
	check("-9223372036854775809", 0, PR_DEC_RANGE, 0);
	check("9223372036854775.807", 3, PR_DEC_OK, INT64_MAX);
	check("9223372036854775.808", 3, PR_DEC_RANGE, 0);
	check("-9223372036854775.808", 3, PR_DEC_OK, INT64_MIN);
	check("9223372036854775807.4", 0, PR_DEC_OK, INT64_MAX);
	check("9.223372036854775807e18", 0, PR_DEC_OK, INT64_MAX);
	check("18446744073709551615", 0, PR_DEC_RANGE, 0);
	check("18446744073709551616", 0, PR_DEC_RANGE, 0);
	check("99999999999999999999999999", 0, PR_DEC_RANGE, 0);
}

static void test_syntax_errors(void **state)
{
	static const char *const bad[] = {
		"1.",  ".5",  "--1",	   "1e",    "0x10", "",	     "-",	 "+",
		"+-1", "1e+", "1e-",	   "1.5.5", " 1",   "1 ",    "1,5",	 "NaN",
		"nan", "inf", "-Infinity", "1e5.5", "e5",   "1_000", "\xd9\xa1",
	};
	size_t i;
	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check(bad[i], 3, PR_DEC_SYNTAX, 0);
}

static void test_double(void **state)
{
	double d = 0;
	(void)state;
	assert_int_equal(pr_decimal_double("1.5", 3, &d), PR_DEC_OK);
	assert_true(d == 1.5);
	assert_int_equal(pr_decimal_double("-2.5e-3", 7, &d), PR_DEC_OK);
	assert_true(d == -2.5e-3);
	assert_int_equal(pr_decimal_double("1669329643132548.123", 20, &d), PR_DEC_OK);
	assert_true(d == 1669329643132548.123);
	assert_int_equal(pr_decimal_double("1e400", 5, &d), PR_DEC_RANGE);
	assert_int_equal(pr_decimal_double("-1e400", 6, &d), PR_DEC_RANGE);
	assert_int_equal(pr_decimal_double("NaN", 3, &d), PR_DEC_SYNTAX);
	assert_int_equal(pr_decimal_double("", 0, &d), PR_DEC_SYNTAX);
	assert_int_equal(pr_decimal_double("0x10", 4, &d), PR_DEC_SYNTAX);
	assert_int_equal(pr_decimal_double("1.", 2, &d), PR_DEC_SYNTAX);
	assert_int_equal(pr_decimal_double("\"1\"", 3, &d), PR_DEC_SYNTAX);
}

/* pr_decimal_fast gives strtod's double (and strtoll's integer) bit for bit where it takes the
 * text, and declines what strtod must read: a fixed list, then 200 000 seeded random numbers
 * of its form (a 64-bit LCG: the same numbers every run). */
static void fast_is_strtod(const char *text)
{
	double d = 0, want;
	int64_t iv = 0;
	char *end;
	if (!pr_decimal_fast(text, &d, &iv))
		return;
	want = strtod(text, &end);
	assert_memory_equal(&d, &want, sizeof(d));
	if (!strchr(text, '.'))
		assert_int_equal(iv, strtoll(text, &end, 10));
	else
		assert_true(iv == INT64_MIN);
}

static void test_fast(void **state)
{
	static const char *const declined[] = { "1e5,", "-0,",	 "1.,", ".5,", "1234567890123456,",
						"12 ,", "0x10,", "",	"-,",  "7}" };
	double d;
	int64_t iv;
	uint64_t x = 88172645463325252ULL;
	size_t i;
	char buf[40];
	(void)state;
	for (i = 0; i < sizeof(declined) / sizeof(declined[0]); i++)
		assert_int_equal(pr_decimal_fast(declined[i], &d, &iv), 0);
	assert_int_equal(pr_decimal_fast("123456789012345]", &d, &iv), 1);
	assert_true(d == 123456789012345.0 && iv == 123456789012345);
	assert_int_equal(pr_decimal_fast("-0.1,", &d, &iv), 1);
	fast_is_strtod("-0.1,");
	fast_is_strtod("0.30000000000001]");
	for (i = 0; i < 200000; i++) {
		int nd, frac, k, n = 0;
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		nd = 1 + (int)((x >> 33) % 15);
		frac = (int)((x >> 40) % (unsigned)nd);
		if (x >> 63)
			buf[n++] = '-';
		for (k = 0; k < nd; k++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			if (frac && k == nd - frac)
				buf[n++] = '.';
			buf[n++] = (char)('0' + (x >> 60) % 10);
		}
		buf[n++] = (x >> 40) & 1 ? ',' : ']';
		buf[n] = '\0';
		fast_is_strtod(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_microseconds),
		cmocka_unit_test(test_rounding_half_away_from_zero),
		cmocka_unit_test(test_rounding_past_19_digits),
		cmocka_unit_test(test_exponents),
		cmocka_unit_test(test_int64_boundaries),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_double),
		cmocka_unit_test(test_fast),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
