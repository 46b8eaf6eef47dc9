/*
 * termsafe.h - text for terminals: control characters in trace names
 * (an OSC sequence that retitles the terminal, CSI that clears it, a
 * carriage return that overwrites a line) are written as visible escapes.
 *
 * Kept: newline and tab. Escaped as in error lines (pr_visible_unit in
 * base/error.h): the other C0 controls and DEL as "\xNN", the
 * C1 controls (UTF-8 C2 80 .. C2 9F) as "\u00NN". Everything else,
 * invalid UTF-8 included, passes through unchanged.
 */
#ifndef PR_TERMSAFE_H
#define PR_TERMSAFE_H

#include <stddef.h>
#include <stdio.h>

#include "base/strbuf.h"

/* Appends s[0..n) to out with control characters escaped. */
void pr_term_safe(struct pr_strbuf *out, const char *s, size_t n);
/* Rewrites sb in place (the same escaping). */
void pr_term_safe_inplace(struct pr_strbuf *sb);
/*
 * Runs render(arg, f) into memory, then writes the escaped text to out
 * (a failed write shows in ferror(out)). When memory cannot be had,
 * render writes to out directly.
 */
void pr_term_render(FILE *out, void (*render)(const void *arg, FILE *f), const void *arg);

#endif
