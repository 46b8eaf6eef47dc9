/*
 * error.h - errors as values.
 *
 * USAGE: library functions take a struct pr_error * and return 0 on success
 * or -1 after filling it: `return pr_error_set(err, PR_E_PARSE, "...")`.
 * Library code never prints and never exits; cli/main.c prints one line.
 *
 * Positions: a parser that knows line/column sets them (1-based); a parser
 * that only knows a byte offset sets `offset` and the ingest driver turns it
 * into line/column by re-reading the source.
 */
#ifndef PR_ERROR_H
#define PR_ERROR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "base/pr_common.h"

enum pr_errcode {
	PR_OK = 0,
	PR_E_USAGE,	 /* bad command line */
	PR_E_IO,	 /* cannot open/read/write a file */
	PR_E_PARSE,	 /* malformed input */
	PR_E_FORMAT,	 /* input of no known/forced format */
	PR_E_LIMIT,	 /* input beyond a documented limit (nesting, size) */
	PR_E_STORE,	 /* SQLite failure or store version mismatch */
	PR_E_REGRESSION, /* compare found a regression */
};

struct pr_error {
	enum pr_errcode code;
	char source[512];  /* file the error is about, or "" */
	long line, column; /* 1-based; 0 = unknown */
	int64_t offset;	   /* byte offset in the source; -1 = unknown */
	char text[512];
	int reported; /* the CLI already printed it */
};

#define PR_ERROR_INIT                                                                              \
	{                                                                                          \
		PR_OK, "", 0, 0, -1, "", 0                                                         \
	}

void pr_error_init(struct pr_error *err);
int pr_error_set(struct pr_error *err, enum pr_errcode code, const char *fmt, ...)
	PR_PRINTF_LIKE(3, 4);
int pr_error_vset(struct pr_error *err, enum pr_errcode code, const char *fmt, va_list ap)
	PR_PRINTF_LIKE(3, 0);
/* Like pr_error_set, and record where: offset (or -1), line/col (or 0). */
int pr_error_at(struct pr_error *err, enum pr_errcode code, int64_t offset, long line, long column,
		const char *fmt, ...) PR_PRINTF_LIKE(6, 7);
/* The source is stored as pr_path_shown(source). */
void pr_error_set_source(struct pr_error *err, const char *source);
/*
 * "'file':12:7: text" (position parts only when known), on one line: control
 * characters in the file name or the text (a newline or ESC in a file name)
 * are escaped as by pr_error_escape.
 */
void pr_error_format(const struct pr_error *err, char *buf, size_t n);
/*
 * s into buf (n bytes, always terminated) as one line of visible text:
 * newline, CR and tab as "\n", "\r", "\t", the other C0 controls and DEL as
 * "\xNN", the C1 controls (UTF-8 C2 80..C2 9F) as "\u00NN", the bidirectional
 * controls (U+200E/F, U+202A..202E, U+2066..2069) as "\u20NN"; the rest, invalid
 * UTF-8 included, unchanged. A truncated result never ends inside an escape.
 */
void pr_error_escape(const char *s, char *buf, size_t n);
/*
 * One unit of s[0..n) (n >= 1) as visible text, the rule both error lines
 * and console reports (render/termsafe.h) use: returns the bytes it covers
 * (2 for a C1 control, 3 for a bidi control, else 1) and sets esc to its escape ("\n", "\xNN",
 * "\u00NN"), or to "" when it is shown as it is. keep_lines (a report):
 * newline and tab are shown as they are and CR is "\x0d"; else (one error
 * line) newline, CR and tab are "\n", "\r", "\t".
 */
size_t pr_visible_unit(const char *s, size_t n, int keep_lines, char esc[8]);

/*
 * The name to show for a path: a path the program made for the user's one
 * (a temporary copy of '-', standard input, or of a FIFO: ingest/source.h)
 * shows as the user's, in errors and as a run's source. pr_path_set_shown
 * copies both strings; pr_path_shown returns path itself when it has no
 * other name. pr_path_shown_release forgets every name.
 */
void pr_path_set_shown(const char *path, const char *shown);
const char *pr_path_shown(const char *path);
void pr_path_shown_release(void);
/* Process exit status for an error code: 0 ok, 1 regression, 2 otherwise. */
int pr_error_exit_code(enum pr_errcode code);

#endif
