/* hash.c - two-lane multiply/rotate hash over 16-byte blocks. */
#include "base/hash.h"

#include <stdio.h>
#include <string.h>

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static inline void block(struct pr_hash *h, const unsigned char *p)
{
	h->a = rotl(h->a ^ (load64(p) * P2), 31) * P1;
	h->b = rotl(h->b ^ (load64(p + 8) * P1), 29) * P2;
}

void pr_hash_init(struct pr_hash *h)
{
	memset(h, 0, sizeof(*h));
	h->a = P1 ^ P3;
	h->b = P2 + P3;
}

void pr_hash_update(struct pr_hash *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	h->total += n;
	if (h->ntail) {
		size_t take = 16 - h->ntail;
		if (take > n)
			take = n;
		memcpy(h->tail + h->ntail, p, take);
		h->ntail += take;
		p += take;
		n -= take;
		if (h->ntail < 16)
			return;
		block(h, h->tail);
		h->ntail = 0;
	}
	while (n >= 16) {
		block(h, p);
		p += 16;
		n -= 16;
	}
	memcpy(h->tail, p, n);
	h->ntail = n;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xFF51AFD7ED558CCDULL;
	x ^= x >> 33;
	x *= 0xC4CEB9FE1A85EC53ULL;
	x ^= x >> 33;
	return x;
}

void pr_hash_final_hex(const struct pr_hash *h, char out[33])
{
	struct pr_hash c = *h;
	unsigned char pad[16] = { 0 };
	uint64_t x, y;
	memcpy(pad, c.tail, c.ntail);
	pad[15] = (unsigned char)(0x80 | c.ntail);
	block(&c, pad);
	x = mix(c.a ^ rotl(c.b, 17) ^ c.total);
	y = mix(c.b + rotl(c.a, 41) + c.total * P3);
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)x, (unsigned long long)y);
}
