/*
 * test_parray.c - base/parray: records read back at any index and searched
 * by key, in memory and from a scratch file in small blocks, across blocks
 * of tied keys, when the budget runs out while writing, with more arrays
 * than cache slots, and with no scratch directory.
 */
#include "tests/unit/helpers.h"

#include "base/parray.h"

struct rec {
	int64_t key;
	double v;
};

/* Keys i / 3 (three of each, so that ties cross the 4-record blocks), values i. */
static void fill(struct pr_parray *a, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		struct rec r = { (int64_t)(i / 3), (double)i };
		assert_int_equal(pr_parray_put(a, &r), 0);
	}
}

static struct rec rec_at(struct pr_parray *a, size_t i)
{
	struct rec r;
	memcpy(&r, pr_parray_at(a, i), sizeof(r));
	return r;
}

/* Every record in order, backwards and strided; lower of every key, between keys and outside. */
static void check(struct pr_parray *a, size_t n)
{
	size_t i;
	int64_t k;
	assert_int_equal(pr_parray_count(a), n);
	for (i = 0; i < n; i++) {
		struct rec r = rec_at(a, i);
		assert_true(r.key == (int64_t)(i / 3) && r.v == (double)i);
	}
	for (i = n; i-- > 0;)
		assert_true(rec_at(a, i).v == (double)i);
	for (i = 0; i < n; i++) {
		size_t j = (i * 7919) % n; /* 7919 is prime: every index once */
		assert_true(rec_at(a, j).v == (double)j);
	}
	/* lower(k) = 3 k for 0 <= k <= (n - 1) / 3 (the first of the key's three); n past them */
	for (k = -2; k <= (int64_t)n / 3 + 2; k++) {
		size_t want = k < 0 ? 0 : (size_t)k * 3 < n ? (size_t)k * 3 : n;
		assert_int_equal(pr_parray_lower(a, k), want);
	}
	assert_int_equal(pr_parray_lower(a, INT64_MIN), 0);
	assert_int_equal(pr_parray_lower(a, INT64_MAX), n);
}

static void test_in_memory(void **state)
{
	struct pr_pcache *c = pr_pcache_new(1 << 20, 64);
	struct pr_parray *a = pr_parray_new(c, "test records", sizeof(struct rec), 1000);
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	fill(a, 1000);
	assert_false(pr_parray_on_disk(a));
	check(a, 1000);
	assert_int_equal(pr_parray_failed(a, &err), 0);
	pr_parray_free(a);
	pr_pcache_free(c);
}

/* No budget, 64-byte blocks of 4 records: 250 blocks through 32 slots. */
static void test_on_disk(void **state)
{
	struct pr_pcache *c = pr_pcache_new(0, 64);
	struct pr_parray *a = pr_parray_new(c, "test records", sizeof(struct rec), 1000);
	struct pr_error err = PR_ERROR_INIT;
	size_t n;
	(void)state;
	fill(a, 1000);
	assert_true(pr_parray_on_disk(a));
	check(a, 1000);
	assert_int_equal(pr_parray_failed(a, &err), 0);
	pr_parray_free(a);
	/* sizes around a block's: a last block that is partly filled, or exactly full */
	for (n = 1; n <= 9; n++) {
		a = pr_parray_new(c, "test records", sizeof(struct rec), n);
		fill(a, n);
		check(a, n);
		pr_parray_free(a);
	}
	pr_pcache_free(c);
}

/*
 * A budget of 100 records: an array expecting 10 stays in memory; one that
 * expected 10 and gets 1000 moves to a file when the budget runs out,
 * keeping what it had; freeing them gives the budget back, so that a third
 * array of 100 fits in memory.
 */
static void test_budget(void **state)
{
	struct pr_pcache *c = pr_pcache_new(100 * sizeof(struct rec), 64);
	struct pr_parray *a = pr_parray_new(c, "test records", sizeof(struct rec), 10);
	struct pr_parray *b = pr_parray_new(c, "test records", sizeof(struct rec), 10);
	(void)state;
	fill(a, 10);
	fill(b, 1000);
	assert_false(pr_parray_on_disk(a));
	assert_true(pr_parray_on_disk(b));
	check(a, 10);
	check(b, 1000);
	pr_parray_free(a);
	pr_parray_free(b);
	a = pr_parray_new(c, "test records", sizeof(struct rec), 100);
	fill(a, 100);
	assert_false(pr_parray_on_disk(a));
	check(a, 100);
	pr_parray_free(a);
	/* expected 0: grows in memory while the budget lasts */
	a = pr_parray_new(c, "test records", sizeof(struct rec), 0);
	fill(a, 50);
	assert_false(pr_parray_on_disk(a));
	check(a, 50);
	pr_parray_free(a);
	pr_pcache_free(c);
}

/* 40 arrays on disk (more than the 32 slots), read in turns: each read gives its own record. */
static void test_shared_slots(void **state)
{
	struct pr_pcache *c = pr_pcache_new(0, 64);
	struct pr_parray *a[40];
	size_t i, k;
	(void)state;
	for (k = 0; k < 40; k++) {
		a[k] = pr_parray_new(c, "test records", sizeof(struct rec), 200);
		for (i = 0; i < 200; i++) {
			struct rec r = { (int64_t)i, (double)(k * 1000 + i) };
			pr_parray_put(a[k], &r);
		}
	}
	for (i = 0; i < 200; i++)
		for (k = 0; k < 40; k++) {
			struct rec r = rec_at(a[(k * 13) % 40], 199 - i);
			assert_true(r.v == (double)(((k * 13) % 40) * 1000 + 199 - i));
		}
	for (k = 0; k < 40; k++) {
		assert_int_equal(pr_parray_lower(a[k], 150), 150);
		pr_parray_free(a[k]);
	}
	pr_pcache_free(c);
}

static void test_no_scratch_dir(void **state)
{
	char *keep = tmpdir_set("/nonexistent/profreport-test");
	struct pr_pcache *c = pr_pcache_new(0, 64);
	struct pr_parray *a;
	struct pr_error err = PR_ERROR_INIT;
	struct rec r = { 1, 2 };
	size_t i;
	int rc = 0;
	(void)state;
	a = pr_parray_new(c, "the test records", sizeof(r), 100);
	for (i = 0; i < 100; i++) /* the first block fills the write buffer; then the file */
		rc |= pr_parray_put(a, &r);
	assert_int_equal(rc, -1);
	assert_int_equal(pr_parray_failed(a, &err), -1);
	assert_string_equal(err.text, "cannot create a scratch file for the test records in "
				      "'/nonexistent/profreport-test': No such file or directory");
	pr_parray_free(a);
	pr_pcache_free(c);
	tmpdir_restore(keep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_memory),      cmocka_unit_test(test_on_disk),
		cmocka_unit_test(test_budget),	       cmocka_unit_test(test_shared_slots),
		cmocka_unit_test(test_no_scratch_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
