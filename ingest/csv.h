/*
 * csv.h - a streaming RFC 4180 CSV record reader.
 *
 * USAGE
 *   struct pr_csv *c = pr_csv_new_source(src, NULL);   (or pr_csv_new_mem)
 *   while ((rc = pr_csv_next(c, &err)) > 0) {
 *           size_t n; const struct pr_csv_field *f = pr_csv_fields(c, &n);
 *           ... f[i].p / f[i].n, pr_csv_line(c) ...
 *   }
 *   pr_csv_free(c);                                    (rc < 0: err is filled)
 *
 * WHAT IT ACCEPTS
 *   - fields separated by ','; records end with LF, CRLF or a lone CR;
 *   - quoted fields ("a,b") with doubled quotes ("say ""hi""") and embedded
 *     separators and line breaks (kept as written, CRLF included);
 *   - a UTF-8 byte order mark at the very start (skipped; columns count
 *     from the byte after it);
 *   - a last record without a trailing line break;
 *   - blank lines (nothing but a line break, or only blanks with
 *     PR_CSV_TRIM) are skipped, they are not records.
 *   A quote inside an unquoted field is taken literally (lenient). Blanks
 *   between a closing quote and the next separator are dropped.
 *
 * ERRORS (pr_csv_next returns -1; err has code, line and column, 1-based,
 * columns in bytes; offset is -1 because the position is exact):
 *   PR_E_PARSE  a quoted field never closed: the position of its opening
 *               quote; any other character than a separator, line break or
 *               blank after a closing quote: the position of that character.
 *   PR_E_LIMIT  a record longer than max_record bytes of field text: the
 *               position of the first byte over the limit; more than
 *               max_fields fields: the start of the first field too many.
 *   PR_E_IO etc. from pr_source_read, passed through.
 *   After an error the reader stays failed: later calls return -1 again.
 *
 * BYTES: the reader is byte-transparent. NUL bytes and invalid UTF-8 in a
 * field are delivered as they are (every field also has a terminating NUL
 * after its n bytes, so numeric parsers stop early at an embedded NUL and
 * reject the field). Callers that store a field as text check it with
 * pr_csv_text_ok() and clean it with pr_csv_text_clean().
 *
 * MEMORY: one read chunk plus one record (bounded by max_record and
 * max_fields); the input is never loaded whole.
 *
 * OWNERSHIP: the source (or memory) must outlive the reader and is not
 * closed by it. Field pointers are borrowed and valid until the next
 * pr_csv_next() or pr_csv_free().
 */
#ifndef PR_CSV_H
#define PR_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "ingest/source.h"
#include "base/error.h"
#include "base/strbuf.h"

#define PR_CSV_MAX_RECORD (1u << 20) /* default cap on one record's field bytes */
#define PR_CSV_MAX_FIELDS 4096u	     /* default cap on fields per record */

enum {
	PR_CSV_TRIM = 1, /* drop blanks (space, tab) around unquoted fields and quotes */
};

struct pr_csv_opts {
	size_t max_record; /* 0 = PR_CSV_MAX_RECORD */
	size_t max_fields; /* 0 = PR_CSV_MAX_FIELDS */
	int flags;	   /* PR_CSV_* */
};

struct pr_csv_field {
	const char *p; /* n bytes, followed by a NUL */
	size_t n;
	long col;   /* 1-based byte column where the field starts */
	int quoted; /* the field was quoted */
};

struct pr_csv;

/* Reads src from its current position. opts may be NULL. Never NULL. */
struct pr_csv *pr_csv_new_source(struct pr_source *src, const struct pr_csv_opts *opts);
/* Reads n bytes at p (not copied; p must outlive the reader). Never NULL. */
struct pr_csv *pr_csv_new_mem(const void *p, size_t n, const struct pr_csv_opts *opts);
/* NULL-safe. */
void pr_csv_free(struct pr_csv *c);

/* Reads the next record: 1, 0 at end of input, or -1 with err filled. */
int pr_csv_next(struct pr_csv *c, struct pr_error *err);
/* The current record's fields (borrowed); *n gets their count. */
const struct pr_csv_field *pr_csv_fields(const struct pr_csv *c, size_t *n);
/* 1-based line where the current record starts. */
long pr_csv_line(const struct pr_csv *c);
/* Byte offset of the current record's first byte in the stream. */
int64_t pr_csv_offset(const struct pr_csv *c);
/* Records returned so far. */
int64_t pr_csv_records(const struct pr_csv *c);

/* 1 when the n bytes are valid UTF-8 without NUL or other C0 controls
 * than tab (text that can go into the store and JSON as is). */
int pr_csv_text_ok(const char *p, size_t n);
/* Appends p[0..n) to out with every byte of an invalid UTF-8 sequence and
 * every control character replaced by '?'. Returns the count replaced. */
size_t pr_csv_text_clean(struct pr_strbuf *out, const char *p, size_t n);

#endif
