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

#endif
