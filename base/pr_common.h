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

/*
 * Invariants (SQLite's ALWAYS/NEVER, git's BUG()): a broken one is a bug in
 * profreport, never bad input (which is an error value, error.h). PR_BUG
 * prints "profreport: BUG: FILE:LINE: message" on stderr and aborts, in
 * every build (no NDEBUG switch: a wrong record size must not run on);
 * PR_ASSERT(cond) is PR_BUG("COND") when cond is false.
 */
_Noreturn void pr_bug(const char *file, int line, const char *fmt, ...) PR_PRINTF_LIKE(3, 4);
#define PR_BUG(...) pr_bug(__FILE__, __LINE__, __VA_ARGS__)
#define PR_ASSERT(cond) ((cond) ? (void)0 : pr_bug(__FILE__, __LINE__, "%s", #cond))

#endif
