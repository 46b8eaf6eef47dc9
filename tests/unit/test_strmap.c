/* test_strmap.c - base/strmap: byte-string -> int64 open-addressing map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include "base/strmap.h"

static int get(const struct pr_strmap *m, const char *k, int64_t *v)
{
	return pr_strmap_get(m, k, strlen(k), v);
}

static void put(struct pr_strmap *m, const char *k, int64_t v)
{
	pr_strmap_put(m, k, strlen(k), v);
}

static int del(struct pr_strmap *m, const char *k, int64_t *v)
{
	return pr_strmap_del(m, k, strlen(k), v);
}

static void assert_released(const struct pr_strmap *m)
{
	assert_null(m->slots);
	assert_null(m->arena);
	assert_int_equal(m->cap, 0);
	assert_int_equal(m->live, 0);
	assert_int_equal(m->arena_len, 0);
}

static void test_put_get_del(void **state)
{
	struct pr_strmap m = PR_STRMAP_INIT;
	int64_t v = 0;
	(void)state;
	assert_int_equal(get(&m, "a", &v), 0); /* empty map, no table yet */
	assert_int_equal(del(&m, "a", &v), 0);
	assert_int_equal(pr_strmap_count(&m), 0);

	put(&m, "a", 1);
	put(&m, "b", 2);
	put(&m, "", -7); /* the empty key is a key */
	assert_int_equal(pr_strmap_count(&m), 3);
	assert_int_equal(get(&m, "a", &v), 1);
	assert_int_equal(v, 1);
	assert_int_equal(get(&m, "b", &v), 1);
	assert_int_equal(v, 2);
	assert_int_equal(get(&m, "", &v), 1);
	assert_int_equal(v, -7);
	assert_int_equal(get(&m, "c", &v), 0);
	assert_int_equal(get(&m, "ab", &v), 0);

	put(&m, "a", INT64_MIN); /* replace: count unchanged */
	assert_int_equal(pr_strmap_count(&m), 3);
	assert_int_equal(get(&m, "a", &v), 1);
	assert_true(v == INT64_MIN);

	v = 0;
	assert_int_equal(del(&m, "a", &v), 1);
	assert_true(v == INT64_MIN);
	assert_int_equal(get(&m, "a", &v), 0);
	assert_int_equal(del(&m, "a", &v), 0);
	assert_int_equal(del(&m, "b", NULL), 1); /* value pointer may be NULL */
	assert_int_equal(pr_strmap_count(&m), 1);
	assert_int_equal(get(&m, "", &v), 1);

	pr_strmap_release(&m);
	assert_released(&m);
	/* A released map is an empty, reusable map. */
	put(&m, "again", 5);
	assert_int_equal(get(&m, "again", &v), 1);
	assert_int_equal(v, 5);
	pr_strmap_release(&m);
	pr_strmap_release(&m);
	assert_released(&m);
}

static void test_tombstone_reuse(void **state)
{
	struct pr_strmap m = PR_STRMAP_INIT;
	char k[32];
	int64_t v;
	size_t used, cap, i;
	(void)state;
	for (i = 0; i < 8; i++) {
		snprintf(k, sizeof(k), "k%zu", i);
		put(&m, k, (int64_t)i);
	}
	used = m.used;
	cap = m.cap;
	assert_int_equal(used, 8);
	/* A deleted slot is a tombstone: still "used" until the next rehash. */
	assert_int_equal(del(&m, "k3", &v), 1);
	assert_int_equal(v, 3);
	assert_int_equal(m.used, used);
	assert_int_equal(m.live, 7);
	/* Putting the key back lands on its own tombstone: no new slot is used. */
	put(&m, "k3", 33);
	assert_int_equal(m.used, used);
	assert_int_equal(m.cap, cap);
	assert_int_equal(get(&m, "k3", &v), 1);
	assert_int_equal(v, 33);
	/* Every other key is still reachable across the tombstone. */
	for (i = 0; i < 8; i++) {
		snprintf(k, sizeof(k), "k%zu", i);
		assert_int_equal(get(&m, k, &v), 1);
		assert_int_equal(v, i == 3 ? 33 : (int64_t)i);
	}
	pr_strmap_release(&m);
}

/* Open async slices: millions of short-lived keys, few alive at a time. */
static void test_churn_stays_small(void **state)
{
	struct pr_strmap m = PR_STRMAP_INIT;
	char k[64];
	int64_t v;
	long i;
	(void)state;
	for (i = 0; i < 1000000; i++) {
		snprintf(k, sizeof(k), "async-slice-%ld-with-a-longish-id", i);
		put(&m, k, i);
		if (i >= 10) {
			snprintf(k, sizeof(k), "async-slice-%ld-with-a-longish-id", i - 10);
			assert_int_equal(del(&m, k, &v), 1);
			assert_int_equal(v, i - 10);
		}
	}
	assert_int_equal(pr_strmap_count(&m), 10);
	/* Tombstones are swept by rehashing in place and dead key bytes compacted. */
	assert_true(m.cap <= 64);
	assert_true(m.arena_cap <= (1u << 20));
	for (i = 1000000 - 10; i < 1000000; i++) {
		snprintf(k, sizeof(k), "async-slice-%ld-with-a-longish-id", i);
		assert_int_equal(get(&m, k, &v), 1);
		assert_int_equal(v, i);
	}
	pr_strmap_release(&m);
}

static void test_growth_to_100k(void **state)
{
	struct pr_strmap m = PR_STRMAP_INIT;
	char k[32];
	int64_t v;
	long i;
	(void)state;
	for (i = 0; i < 100000; i++) {
		snprintf(k, sizeof(k), "key%ld", i);
		put(&m, k, i * 3);
	}
	assert_int_equal(pr_strmap_count(&m), 100000);
	assert_true(m.cap >= 100000 * 4 / 3);
	assert_int_equal(m.cap & (m.cap - 1), 0); /* a power of two */
	for (i = 0; i < 100000; i++) {
		snprintf(k, sizeof(k), "key%ld", i);
		if (!get(&m, k, &v) || v != i * 3)
			print_error("'%s': lost or wrong value after growth\n", k);
		assert_int_equal(get(&m, k, &v), 1);
		assert_int_equal(v, i * 3);
	}
	for (i = 100000; i < 100100; i++) {
		snprintf(k, sizeof(k), "key%ld", i);
		assert_int_equal(get(&m, k, &v), 0);
	}
	/* Delete the even keys (enough dead bytes to trigger arena compaction). */
	for (i = 0; i < 100000; i += 2) {
		snprintf(k, sizeof(k), "key%ld", i);
		assert_int_equal(del(&m, k, NULL), 1);
	}
	for (i = 0; i < 100000; i += 2) {
		snprintf(k, sizeof(k), "key%ld", i);
		assert_int_equal(del(&m, k, NULL), 0);
	}
	assert_int_equal(pr_strmap_count(&m), 50000);
	for (i = 0; i < 100000; i++) {
		snprintf(k, sizeof(k), "key%ld", i);
		assert_int_equal(get(&m, k, &v), i % 2);
		if (i % 2)
			assert_int_equal(v, i * 3);
	}
	for (i = 0; i < 100000; i += 2) {
		snprintf(k, sizeof(k), "key%ld", i);
		put(&m, k, -i);
	}
	assert_int_equal(pr_strmap_count(&m), 100000);
	for (i = 0; i < 100000; i++) {
		snprintf(k, sizeof(k), "key%ld", i);
		assert_int_equal(get(&m, k, &v), 1);
		assert_int_equal(v, i % 2 ? i * 3 : -i);
	}
	pr_strmap_release(&m);
	assert_released(&m);
}

static void test_keys_with_nul_bytes(void **state)
{
	static const struct {
		const char *k;
		size_t n;
	} keys[] = {
		{ "a", 1 },
		{ "a\0", 2 },
		{ "a\0b", 3 },
		{ "a\0c", 3 },
		{ "\0", 1 },
		{ "\0\0", 2 },
		{ "", 0 },
		{ "thread\0"
		  "1\0"
		  "7",
		  10 },
		{ "thread\0"
		  "17\0",
		  10 },
		{ "12345678\0", 9 },
		{ "12345678\0x", 10 },
	};
	struct pr_strmap m = PR_STRMAP_INIT;
	size_t i;
	int64_t v;
	(void)state;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		pr_strmap_put(&m, keys[i].k, keys[i].n, (int64_t)i + 100);
	assert_int_equal(pr_strmap_count(&m), sizeof(keys) / sizeof(keys[0]));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		assert_int_equal(pr_strmap_get(&m, keys[i].k, keys[i].n, &v), 1);
		assert_int_equal(v, (int64_t)i + 100);
	}
	assert_int_equal(pr_strmap_get(&m, "a\0d", 3, &v), 0);
	assert_int_equal(pr_strmap_del(&m, "a\0b", 3, &v), 1);
	assert_int_equal(pr_strmap_get(&m, "a\0c", 3, &v), 1);
	assert_int_equal(v, 103);
	assert_int_equal(pr_strmap_get(&m, "a\0b", 3, &v), 0);
	pr_strmap_release(&m);
}

static void test_hash_reserved_values(void **state)
{
	char k[32];
	int i;
	(void)state;
	/* 0 and 1 mark empty and deleted slots; no key may hash to them. */
	for (i = 0; i < 200000; i++) {
		snprintf(k, sizeof(k), "%d", i);
		assert_true(pr_strmap_hash(k, strlen(k)) >= 2);
	}
	assert_true(pr_strmap_hash("", 0) >= 2);
	/* Length is part of the hash, and bytes past the first word count. */
	assert_true(pr_strmap_hash("\0", 1) != pr_strmap_hash("\0\0", 2));
	assert_true(pr_strmap_hash("abcdefgh1", 9) != pr_strmap_hash("abcdefgh2", 9));
	assert_true(pr_strmap_hash("abcdefghijklmnop", 16) !=
		    pr_strmap_hash("abcdefghijklmnoq", 16));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_del),
		cmocka_unit_test(test_tombstone_reuse),
		cmocka_unit_test(test_churn_stays_small),
		cmocka_unit_test(test_growth_to_100k),
		cmocka_unit_test(test_keys_with_nul_bytes),
		cmocka_unit_test(test_hash_reserved_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
