/*
 * decimal.h - exact decimal text -> scaled int64 (no double round-trip).
 *
 * pr_decimal_scaled("1669329643132548.123", n, 3, &ns) gives the exact
 * nanoseconds of a microsecond value: the value is multiplied by
 * 10^scale_exp and rounded half away from zero. Accepts JSON number syntax
 * ([-]int[.frac][(e|E)[+|-]exp]), and a leading '+'.
 */
#ifndef PR_DECIMAL_H
#define PR_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

enum {
	PR_DEC_OK = 0,
	PR_DEC_SYNTAX = -1,
	PR_DEC_RANGE = -2
};

int pr_decimal_scaled(const char *s, size_t n, int scale_exp, int64_t *out);
/* Parses a finite double from exactly n bytes; PR_DEC_* result. */
int pr_decimal_double(const char *s, size_t n, double *out);

/*
 * A JSON array or object member's number "-?[0-9]+(.[0-9]+)?" of at most 15 digits in all,
 * then ',' or ']', at p: 1 with its value as strtod reads it (*d) and, without a fraction, as
 * strtoll does (*iv; else INT64_MIN); 0 for any other text, which the caller reads with
 * strtod/strtoll (exponents, more digits, -0). Exact: Clinger's fast path (an integer below
 * 2^53 over a power of ten up to 1e15, rounded once); the GPU rows' args (analyze/gpuscan.c).
 */
int pr_decimal_fast(const char *p, double *d, int64_t *iv);

#endif
