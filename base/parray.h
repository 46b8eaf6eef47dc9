/*
 * parray.h - an array of fixed-size records, written once in order and then
 * read at any index, that stays in memory while a shared budget allows and
 * otherwise lives in a scratch file read through a shared cache of blocks
 * (layer 0).
 *
 * USAGE
 *   struct pr_pcache *c = pr_pcache_new(8 << 20, 0);        (one per analysis)
 *   struct pr_parray *a = pr_parray_new(c, "the samples of 'x'", sizeof(rec), expected);
 *   pr_parray_put(a, &rec);                                ... (errors are sticky)
 *   memcpy(&rec, pr_parray_at(a, i), sizeof(rec));         i < pr_parray_count(a)
 *   i = pr_parray_lower(a, key);                           (records ordered by key)
 *   if (pr_parray_failed(a, &err)) ...
 *   pr_parray_free(a); ... pr_pcache_free(c);
 *
 * The analyses of memory series (actx.h) index their samples at will: a
 * series is scanned whole, searched for a time, walked from there. Held in
 * memory whole, a long run's series grew the process by 16 bytes a sample
 * (620 k samples a series in a 2 GB trace). Here an array whose expected
 * size fits what is left of the cache's budget (mem) is one allocation,
 * charged to the budget until freed; any other array goes to an unlinked
 * scratch file (base/spill.h) as it is written, and is read back in blocks
 * (of block bytes, PR_PCACHE_BLOCK when 0: tests make them small) kept in
 * PR_PCACHE_SLOTS slots shared by all the cache's arrays, the least
 * recently used going first. An array that outgrows
 * its expected size moves to a file the same way when the budget runs out.
 *
 * Reading a file-backed array costs a pread of one block for each block
 * not in the cache: a scan reads every block once; pr_parray_lower finds
 * the block from the first keys of the blocks (kept in memory, 8 bytes a
 * block) and reads at most two.
 *
 * The key of a record is its first 8 bytes as an int64 (host order).
 *
 * MEMORY: the cache's budget (mem), PR_PCACHE_SLOTS blocks (2 MiB by
 * default), and for each file-backed array a write buffer of one
 * block and 8 bytes a block of first keys.
 */
#ifndef PR_PARRAY_H
#define PR_PARRAY_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/pr_common.h"

#define PR_PCACHE_BLOCK ((size_t)64 << 10)
#define PR_PCACHE_SLOTS 32

struct pr_pcache;
struct pr_parray;

struct pr_pcache *pr_pcache_new(size_t mem, size_t block);
/* After its arrays are freed. */
void pr_pcache_free(struct pr_pcache *c);

/* what names the scratch file in error messages (kept, not copied); rec_size at least 8 and
 * at most the block (else PR_BUG); expected: the records that will be put, as far as known. */
struct pr_parray *pr_parray_new(struct pr_pcache *c, const char *what, size_t rec_size,
				uint64_t expected);
/* Appends a record: 0, or -1 once anything failed (kept for pr_parray_failed). */
int pr_parray_put(struct pr_parray *a, const void *rec);
size_t pr_parray_count(const struct pr_parray *a);
/* Record i (i < count, else PR_BUG), valid until the next pr_parray_at or pr_parray_lower on any
 * array of the cache; on a failed read, a record of zero bytes (pr_parray_failed says so). */
const void *pr_parray_at(struct pr_parray *a, size_t i);
/* The first index whose key is >= key (count: none), the records being in key order. */
size_t pr_parray_lower(struct pr_parray *a, int64_t key);
/* -1 with err when a write or read failed, else 0. */
int pr_parray_failed(const struct pr_parray *a, struct pr_error *err) PR_MUST_CHECK;
/* Whether the records went to a scratch file. */
int pr_parray_on_disk(const struct pr_parray *a);
void pr_parray_free(struct pr_parray *a);

#endif
