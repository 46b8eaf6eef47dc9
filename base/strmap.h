/*
 * strmap.h - byte-string -> int64 hash map (open addressing).
 *
 * USAGE: struct pr_strmap m = PR_STRMAP_INIT; pr_strmap_put(&m, k, n, v);
 * pr_strmap_get(&m, k, n, &v); pr_strmap_release(&m);
 * Keys are copied into the map's own arena; deleted keys' bytes are only
 * reclaimed by pr_strmap_release (delete is for short-lived keys such as
 * open async slices, and the arena is compacted when it is mostly dead).
 */
#ifndef PR_STRMAP_H
#define PR_STRMAP_H

#include <stddef.h>
#include <stdint.h>

struct pr_strmap_slot {
	uint64_t hash; /* 0 = empty, 1 = deleted */
	size_t off;
	uint32_t len;
	int64_t value;
};

struct pr_strmap {
	struct pr_strmap_slot *slots;
	size_t cap, used, live;
	char *arena;
	size_t arena_len, arena_cap, arena_dead;
};

#define PR_STRMAP_INIT                                                                             \
	{                                                                                          \
		NULL, 0, 0, 0, NULL, 0, 0, 0                                                       \
	}

uint64_t pr_strmap_hash(const void *key, size_t n);
/* Returns 1 and *value when found, else 0. */
int pr_strmap_get(const struct pr_strmap *m, const void *key, size_t n, int64_t *value);
/* Inserts or replaces. */
void pr_strmap_put(struct pr_strmap *m, const void *key, size_t n, int64_t value);
/* Returns 1 (and *value if non-NULL) when the key was present. */
int pr_strmap_del(struct pr_strmap *m, const void *key, size_t n, int64_t *value);
size_t pr_strmap_count(const struct pr_strmap *m);
void pr_strmap_release(struct pr_strmap *m);

#endif
