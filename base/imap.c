/* imap.c - the int64 hash map of imap.h. */
#include "base/imap.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define EMPTY INT64_MIN

static uint64_t mix(int64_t k)
{
	uint64_t x = (uint64_t)k;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static void resize(struct pr_imap *m, size_t cap)
{
	struct pr_imap old = *m;
	size_t i;
	m->cap = cap;
	m->n = 0;
	m->slots = pr_xreallocarray(NULL, m->cap, sizeof(*m->slots));
	for (i = 0; i < m->cap; i++)
		m->slots[i].key = EMPTY;
	for (i = 0; i < old.cap; i++)
		if (old.slots[i].key != EMPTY)
			pr_imap_put(m, old.slots[i].key, old.slots[i].val);
	free(old.slots);
}

void pr_imap_put(struct pr_imap *m, int64_t key, int64_t val)
{
	size_t i;
	if ((m->n + 1) * 4 > m->cap * 3)
		resize(m, m->cap ? m->cap * 2 : 1024);
	for (i = (size_t)mix(key) & (m->cap - 1); m->slots[i].key != EMPTY;
	     i = (i + 1) & (m->cap - 1))
		if (m->slots[i].key == key) {
			m->slots[i].val = val;
			return;
		}
	m->slots[i].key = key;
	m->slots[i].val = val;
	m->n++;
}

void pr_imap_reserve(struct pr_imap *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 1024;
	while (n * 4 > cap * 3)
		cap *= 2;
	if (cap > m->cap)
		resize(m, cap);
}

int pr_imap_get(const struct pr_imap *m, int64_t key, int64_t *val)
{
	size_t i;
	if (!m->cap)
		return 0;
	for (i = (size_t)mix(key) & (m->cap - 1); m->slots[i].key != EMPTY;
	     i = (i + 1) & (m->cap - 1))
		if (m->slots[i].key == key) {
			*val = m->slots[i].val;
			return 1;
		}
	return 0;
}

void pr_imap_release(struct pr_imap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
