/*
 * spill.h - an append-only byte stream that stays in memory while it is
 * small and goes to an unlinked scratch file when it grows, to be read back
 * once from the start (layer 0).
 *
 * USAGE
 *   struct pr_spill *s = pr_spill_new("the span records", 4 << 20);
 *   pr_spill_put(s, &rec, sizeof(rec));            ... (errors are sticky)
 *   if (pr_spill_rewind(s, &err)) ...               (fails with the first error)
 *   while ((p = pr_spill_next(s, sizeof(rec)))) ... memcpy(&rec, p, sizeof(rec));
 *   if (pr_spill_failed(s, &err)) ...
 *   pr_spill_free(s);
 *
 * Two ways to read it again (gpuscan.h reads one stream once per analysis,
 * xsort.h reads its runs at their offsets): pr_spill_reread starts over from
 * the first byte, and pr_spill_read_at copies bytes at any offset while the
 * stream is still being written (or was never read in order).
 *
 * What a pass over a large run must keep for a later pass, when holding it
 * in memory would make the memory grow with the trace: the bytes cost the
 * kernel's page cache (or the disk), not the process's resident set, and
 * are read back at the speed of a copy. The file is made in $TMPDIR (or
 * /tmp) on the first byte past mem_max and unlinked at once, so that
 * nothing is ever left behind.
 *
 * MEMORY: at most max(mem_max, 64) bytes of buffer.
 */
#ifndef PR_SPILL_H
#define PR_SPILL_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/pr_common.h"

struct pr_spill;

/* what names the stream in error messages ("scratch file of WHAT: ..."); kept, not copied */
struct pr_spill *pr_spill_new(const char *what, size_t mem_max);
/* Appends n bytes: 0, or -1 once anything failed (the error is kept for pr_spill_failed). */
int pr_spill_put(struct pr_spill *s, const void *p, size_t n);
/* Ends the writing and starts reading from the first byte: 0, or -1 with err. */
int pr_spill_rewind(struct pr_spill *s, struct pr_error *err) PR_MUST_CHECK;
/* The next n bytes (valid until the next call), NULL at the end, or on a short or failed
 * read (then pr_spill_failed says so); n at most max(mem_max, 64). */
const void *pr_spill_next(struct pr_spill *s, size_t n);
/* Starts reading (again) from the first byte, whether or not it was read before: 0, or -1
 * with err (as pr_spill_rewind; writing ends). */
int pr_spill_reread(struct pr_spill *s, struct pr_error *err) PR_MUST_CHECK;
/* Copies the n bytes at offset off of those put to dst, while writing (before any rewind;
 * puts may follow): 0, or -1 (a read error or bytes past the end; kept for pr_spill_failed). */
int pr_spill_read_at(struct pr_spill *s, uint64_t off, void *dst, size_t n);
/* -1 with err when a write or read failed, else 0. */
int pr_spill_failed(const struct pr_spill *s, struct pr_error *err) PR_MUST_CHECK;
/* Bytes put, and whether they went to a file. */
uint64_t pr_spill_size(const struct pr_spill *s);
int pr_spill_on_disk(const struct pr_spill *s);
void pr_spill_free(struct pr_spill *s);

#endif
