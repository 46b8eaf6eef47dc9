/*
 * lines.h - a line reader over a pr_source for the text formats (sadf -d,
 * pidstat, folded stacks, perf stat, perf script): lines one at a time through a window that grows to hold the
 * longest line, up to a cap, so memory does not grow with the file.
 *
 * USAGE: struct pr_lines r; pr_lines_init(&r, src, 1 << 20, "sadf");
 *        while ((rc = pr_lines_next(&r, &s, err)) > 0) { ... r.line ... }
 *        pr_lines_release(&r);
 * s is NUL-terminated with LF / CR LF cut off (borrowed until the next
 * call); r.line is its 1-based number, r.n its length in bytes, r.off the
 * byte offset of its start in the input (for diagnostics' positions). A UTF-8 BOM on line 1 is skipped.
 * A line longer than the cap is PR_E_LIMIT at its start ("<what> line
 * longer than N KiB"), so a binary file given with --format stops at once.
 */
#ifndef PR_LINES_H
#define PR_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "ingest/source.h"

struct pr_lines {
	struct pr_source *src;
	char *buf;
	size_t cap, max, len, pos;
	int eof;
	long line;
	const char *what;
	size_t n;    /* length of the line last returned */
	int64_t off; /* byte offset of the line last returned */
};

void pr_lines_init(struct pr_lines *r, struct pr_source *src, size_t max, const char *what);
/* 1 a line, 0 at the end, -1 with err filled. */
int pr_lines_next(struct pr_lines *r, char **out, struct pr_error *err);
void pr_lines_release(struct pr_lines *r);

#endif
