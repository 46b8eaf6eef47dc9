/*
 * hash.h - streaming 128-bit content hash (non-cryptographic) used to spot
 * a source that was already ingested. Feed any chunking; same bytes give
 * the same hash.
 */
#ifndef PR_HASH_H
#define PR_HASH_H

#include <stddef.h>
#include <stdint.h>

struct pr_hash {
	uint64_t a, b, total;
	unsigned char tail[16];
	size_t ntail;
};

void pr_hash_init(struct pr_hash *h);
void pr_hash_update(struct pr_hash *h, const void *data, size_t n);
/* Writes 32 lowercase hex digits and a NUL into out[33]. */
void pr_hash_final_hex(const struct pr_hash *h, char out[33]);

#endif
