/*
 * gotwant.h - cmocka's integer assertions with a readable failure: cmocka
 * prints "0x126587a60 != 0x126587a61"; these print the expressions and the
 * values in decimal, got first:
 *   test_x.c:42: pr_mll(pk, "t_ns"): got 4938300000, want 4938300001
 * Included by helpers.h and by the tests that do not use it, after cmocka.h.
 * Equality is cmocka's (the values as unsigned long long), so no assertion
 * changes meaning.
 */
#ifndef PR_TEST_GOTWANT_H
#define PR_TEST_GOTWANT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static inline void pr_gotwant_int(unsigned long long got, unsigned long long want, int equal,
				  const char *expr, const char *want_expr, const char *file,
				  int line)
{
	if ((got == want) == equal)
		return;
	if (equal)
		print_error("%s:%d: %s: got %lld, want %lld (%s)\n", file, line, expr,
			    (long long)got, (long long)want, want_expr);
	else
		print_error("%s:%d: %s: got %lld, want anything but that (%s)\n", file, line, expr,
			    (long long)got, want_expr);
	_fail(file, line);
}

#undef assert_int_equal
#define assert_int_equal(a, b)                                                                     \
	pr_gotwant_int((unsigned long long)(a), (unsigned long long)(b), 1, #a, #b, __FILE__,      \
		       __LINE__)
#undef assert_int_not_equal
#define assert_int_not_equal(a, b)                                                                 \
	pr_gotwant_int((unsigned long long)(a), (unsigned long long)(b), 0, #a, #b, __FILE__,      \
		       __LINE__)

#endif
