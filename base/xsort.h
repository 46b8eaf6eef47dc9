/*
 * xsort.h - an external stable sort of fixed-size records by a 64-bit key
 * at their start, in bounded memory (layer 0); and the LSD radix sort it
 * uses, shared with the analyses.
 *
 * USAGE
 *   struct pr_xsort *xs = pr_xsort_new("the GPU rows by start", sizeof(rec), 0, PR_XSORT_SIGNED);
 *   pr_xsort_put(xs, &rec);                        ... (errors are sticky)
 *   if (pr_xsort_sort(xs, &err)) ...                (ends the input; fails with the first error)
 *   while ((p = pr_xsort_next(xs))) ... memcpy(&rec, p, sizeof(rec));
 *   if (pr_xsort_failed(xs, &err)) ...
 *   pr_xsort_free(xs);
 *
 * Records fill a buffer of mem bytes; each full buffer is radix-sorted
 * (stable) and written as a run to one unlinked scratch file (base/spill.h,
 * in $TMPDIR or /tmp); reading merges the runs with a heap, a key tied
 * between runs going to the earlier run, so that records of equal keys come
 * out in the order they were put. When everything fits one buffer no file
 * is made: the buffer is read in its sorted order.
 *
 * The key is the record's first 8 bytes (host order): unsigned, or with
 * PR_XSORT_SIGNED an int64 (its sign bit flipped for the sort).
 *
 * MEMORY: the buffer (mem, or pr_xsort_mem when 0; at least one record),
 * 24 bytes per buffered record while a buffer is sorted, and while the runs
 * merge, read buffers of mem bytes in all: each run's at least 4 KiB (or
 * one record), so past mem / 4 KiB runs (256 runs, 2 GB of records with the
 * default 8 MiB) they grow by 4 KiB a run.
 */
#ifndef PR_XSORT_H
#define PR_XSORT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/pr_common.h"

#define PR_XSORT_SIGNED 1 /* the key is an int64 */

/* The buffer of a sort created with mem 0 (8 MiB; tests lower it to force runs). */
extern size_t pr_xsort_mem;

struct pr_xsort;

/* what names the scratch file in error messages (kept, not copied); rec_size at least 8 (the
 * key). */
struct pr_xsort *pr_xsort_new(const char *what, size_t rec_size, size_t mem, unsigned flags);
/* Adds a record (rec_size bytes): 0, or -1 once anything failed (the error is kept). */
int pr_xsort_put(struct pr_xsort *xs, const void *rec);
/* Ends the input and starts reading the records in key order: 0, or -1 with err. */
int pr_xsort_sort(struct pr_xsort *xs, struct pr_error *err) PR_MUST_CHECK;
/* The next record (valid until the next call), NULL at the end or on a failed read (then
 * pr_xsort_failed says so). */
const void *pr_xsort_next(struct pr_xsort *xs);
/* -1 with err when a write or read failed, else 0. */
int pr_xsort_failed(const struct pr_xsort *xs, struct pr_error *err) PR_MUST_CHECK;
/* Records put, and the runs written to the scratch file (0: none, all in memory). */
uint64_t pr_xsort_count(const struct pr_xsort *xs);
size_t pr_xsort_runs(const struct pr_xsort *xs);
void pr_xsort_free(struct pr_xsort *xs);

/*
 * LSD radix sort of k[0..n) ascending, stable, carrying idx[] along when
 * not NULL (idx[i] stays with k[i]). Bytes equal in every key are skipped
 * (one counting pass finds them). 12 bytes per key of scratch (8 without
 * idx), and 16 KiB of counts.
 */
void pr_radix_u64(uint64_t *k, uint32_t *idx, size_t n);

#endif
