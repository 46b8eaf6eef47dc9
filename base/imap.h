/*
 * imap.h - an int64 -> int64 hash map (open addressing, linear probing) for
 * the analyzers' id lookups. Keys may be any int64 but INT64_MIN.
 *
 * USAGE: struct pr_imap m = { 0 }; pr_imap_put(&m, k, v);
 *        if (pr_imap_get(&m, k, &v)) ...; pr_imap_release(&m);
 */
#ifndef PR_IMAP_H
#define PR_IMAP_H

#include <stddef.h>
#include <stdint.h>

struct pr_imap_slot {
	int64_t key, val;
};

struct pr_imap {
	struct pr_imap_slot *slots; /* key INT64_MIN = empty */
	size_t cap, n;
};

/* Inserts or replaces. */
void pr_imap_put(struct pr_imap *m, int64_t key, int64_t val);
/* Room for n keys at once (no growth, which holds the old and the new table together, until then). */
void pr_imap_reserve(struct pr_imap *m, size_t n);
/* 1 and *val when key is there, else 0. */
int pr_imap_get(const struct pr_imap *m, int64_t key, int64_t *val);
void pr_imap_release(struct pr_imap *m);

#endif
