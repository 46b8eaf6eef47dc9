/*
 * pr_common.h - macros every profreport file may use.
 *
 * OWNERSHIP (the one rule of the project): pointers returned by pr_*_get*
 * are borrowed and live until their owner is released; everything returned
 * by pr_*_new / _dup / _detach is the caller's to free.
 */
#ifndef PR_COMMON_H
#define PR_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define PR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PR_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define PR_MUST_CHECK __attribute__((warn_unused_result))
#define PR_UNUSED(x) ((void)(x))
/* The text of a macro's value, at compile time: PR_STR(3) is "3". */
#define PR_STR_(x) #x
#define PR_STR(x) PR_STR_(x)

#endif
