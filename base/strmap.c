/* strmap.c - open-addressing hash map from byte strings to int64. */
#include "base/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

uint64_t pr_strmap_hash(const void *key, size_t n)
{
	const unsigned char *p = key;
	uint64_t h = 0xcbf29ce484222325ULL ^ n;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
		p += 8;
		n -= 8;
	}
	while (n--) {
		h = (h ^ *p++) * 0x100000001b3ULL;
	}
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	h ^= h >> 32;
	return h < 2 ? h + 2 : h;
}

static int slot_is(const struct pr_strmap *m, const struct pr_strmap_slot *s, uint64_t h,
		   const void *key, size_t n)
{
	return s->hash == h && s->len == n && !memcmp(m->arena + s->off, key, n);
}

static struct pr_strmap_slot *find(const struct pr_strmap *m, const void *key, size_t n, uint64_t h,
				   struct pr_strmap_slot **free_slot)
{
	size_t mask = m->cap - 1, i = h & mask;
	*free_slot = NULL;
	for (;;) {
		struct pr_strmap_slot *s = &m->slots[i];
		if (s->hash == 0) {
			if (!*free_slot)
				*free_slot = s;
			return NULL;
		}
		if (s->hash == 1) {
			if (!*free_slot)
				*free_slot = s;
		} else if (slot_is(m, s, h, key, n)) {
			return s;
		}
		i = (i + 1) & mask;
	}
}

int pr_strmap_get(const struct pr_strmap *m, const void *key, size_t n, int64_t *value)
{
	struct pr_strmap_slot *s, *fs;
	if (!m->cap)
		return 0;
	s = find(m, key, n, pr_strmap_hash(key, n), &fs);
	if (!s)
		return 0;
	*value = s->value;
	return 1;
}

static void compact_arena(struct pr_strmap *m)
{
	char *na = pr_xmalloc(m->arena_len - m->arena_dead + 1);
	size_t len = 0, i;
	for (i = 0; i < m->cap; i++) {
		struct pr_strmap_slot *s = &m->slots[i];
		if (s->hash < 2)
			continue;
		memcpy(na + len, m->arena + s->off, s->len);
		s->off = len;
		len += s->len;
	}
	free(m->arena);
	m->arena = na;
	m->arena_len = len;
	m->arena_cap = m->arena_len - 0 + 1;
	m->arena_dead = 0;
}

static void rehash(struct pr_strmap *m, size_t ncap)
{
	struct pr_strmap_slot *old = m->slots;
	size_t ocap = m->cap, i;
	m->slots = pr_xcalloc(ncap, sizeof(*m->slots));
	m->cap = ncap;
	m->used = m->live;
	for (i = 0; i < ocap; i++) {
		size_t j;
		if (old[i].hash < 2)
			continue;
		j = old[i].hash & (ncap - 1);
		while (m->slots[j].hash)
			j = (j + 1) & (ncap - 1);
		m->slots[j] = old[i];
	}
	free(old);
}

void pr_strmap_put(struct pr_strmap *m, const void *key, size_t n, int64_t value)
{
	uint64_t h = pr_strmap_hash(key, n);
	struct pr_strmap_slot *s, *fs;
	if ((m->used + 1) * 4 >= m->cap * 3) {
		size_t ncap = m->cap ? m->cap : 16;
		while ((m->live + 1) * 2 >= ncap)
			ncap *= 2;
		rehash(m, ncap);
	}
	s = find(m, key, n, h, &fs);
	if (s) {
		s->value = value;
		return;
	}
	if (m->arena_len + n + 1 > m->arena_cap) {
		size_t nc = m->arena_cap ? m->arena_cap * 2 : 4096;
		while (nc < m->arena_len + n + 1)
			nc *= 2;
		m->arena = pr_xrealloc(m->arena, nc);
		m->arena_cap = nc;
	}
	memcpy(m->arena + m->arena_len, key, n);
	if (fs->hash == 0)
		m->used++;
	fs->hash = h;
	fs->off = m->arena_len;
	fs->len = (uint32_t)n;
	fs->value = value;
	m->arena_len += n;
	m->live++;
}

int pr_strmap_del(struct pr_strmap *m, const void *key, size_t n, int64_t *value)
{
	struct pr_strmap_slot *s, *fs;
	if (!m->cap)
		return 0;
	s = find(m, key, n, pr_strmap_hash(key, n), &fs);
	if (!s)
		return 0;
	if (value)
		*value = s->value;
	s->hash = 1;
	m->live--;
	m->arena_dead += s->len;
	if (m->arena_dead > 65536 && m->arena_dead * 2 > m->arena_len)
		compact_arena(m);
	return 1;
}

size_t pr_strmap_count(const struct pr_strmap *m)
{
	return m->live;
}

void pr_strmap_release(struct pr_strmap *m)
{
	free(m->slots);
	free(m->arena);
	memset(m, 0, sizeof(*m));
}
