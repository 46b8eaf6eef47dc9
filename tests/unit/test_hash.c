/* test_hash.c - base/hash: streaming content hash, independent of chunking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include "base/hash.h"

#define BIG 4099 /* not a multiple of the 16-byte block */

/*
 * pr_hash of "" and of "hello, profreport" on little-endian hosts (the hash
 * loads words with memcpy, so a big-endian host gives other values).
 */
#define PINNED_EMPTY "86883a97c9bafb442bb66236fb0dc0d0"
#define PINNED_HELLO "939eb0ae8e6623a1c706730dc93b786c"

static unsigned char big[BIG];

static void fill_big(void)
{
	uint32_t x = 12345;
	size_t i;
	for (i = 0; i < BIG; i++) {
		x = x * 1103515245u + 12345u;
		big[i] = (unsigned char)(x >> 16);
	}
}

static void hash_whole(const void *p, size_t n, char out[33])
{
	struct pr_hash h;
	pr_hash_init(&h);
	pr_hash_update(&h, p, n);
	pr_hash_final_hex(&h, out);
}

static void hash_chunked(const unsigned char *p, size_t n, size_t chunk, char out[33])
{
	struct pr_hash h;
	size_t off = 0;
	pr_hash_init(&h);
	while (off < n) {
		size_t k = n - off < chunk ? n - off : chunk;
		pr_hash_update(&h, p + off, k);
		off += k;
	}
	pr_hash_final_hex(&h, out);
}

static void assert_hex32(const char *s)
{
	size_t i;
	assert_int_equal(strlen(s), 32);
	for (i = 0; i < 32; i++)
		assert_true((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'));
}

static void test_chunking_does_not_matter(void **state)
{
	static const size_t chunks[] = { 1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 100, 4096, BIG };
	char want[33], got[33];
	size_t i;
	(void)state;
	hash_whole(big, BIG, want);
	assert_hex32(want);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		hash_chunked(big, BIG, chunks[i], got);
		if (strcmp(got, want))
			print_error("chunk size %zu: got %s, want %s\n", chunks[i], got, want);
		assert_string_equal(got, want);
	}
	/* Irregular chunks, including empty updates between them. */
	{
		struct pr_hash h;
		size_t off = 0, step = 1;
		pr_hash_init(&h);
		while (off < BIG) {
			size_t k = BIG - off < step ? BIG - off : step;
			pr_hash_update(&h, big + off, k);
			pr_hash_update(&h, big, 0);
			off += k;
			step = step * 3 % 37 + 1;
		}
		pr_hash_final_hex(&h, got);
		assert_string_equal(got, want);
	}
}

static void test_final_does_not_consume(void **state)
{
	struct pr_hash h;
	char mid[33], end[33], want_mid[33], want_end[33];
	(void)state;
	pr_hash_init(&h);
	pr_hash_update(&h, big, 100);
	pr_hash_final_hex(&h, mid);
	pr_hash_update(&h, big + 100, 900);
	pr_hash_final_hex(&h, end);
	hash_whole(big, 100, want_mid);
	hash_whole(big, 1000, want_end);
	assert_string_equal(mid, want_mid);
	assert_string_equal(end, want_end);
}

static void test_different_content_differs(void **state)
{
	static unsigned char zeros[48];
	char a[33], b[33], ref[33];
	unsigned char copy[256];
	size_t i, n;
	(void)state;
	hash_whole("a", 1, a);
	hash_whole("b", 1, b);
	assert_string_not_equal(a, b);
	/* Trailing NULs and lengths around the block size are not padding. */
	for (n = 0; n < sizeof(zeros); n++) {
		hash_whole(zeros, n, a);
		hash_whole(zeros, n + 1, b);
		if (!strcmp(a, b))
			print_error("%zu and %zu zero bytes hash alike: %s\n", n, n + 1, a);
		assert_string_not_equal(a, b);
	}
	hash_whole("abc", 3, a);
	hash_whole("abc\0", 4, b);
	assert_string_not_equal(a, b);
	/* A single flipped bit anywhere changes the hash. */
	memcpy(copy, big, sizeof(copy));
	hash_whole(copy, sizeof(copy), ref);
	for (i = 0; i < sizeof(copy); i++) {
		copy[i] ^= 1;
		hash_whole(copy, sizeof(copy), a);
		copy[i] ^= 1;
		if (!strcmp(a, ref))
			print_error("flipping byte %zu left the hash at %s\n", i, ref);
		assert_string_not_equal(a, ref);
	}
	/* Swapping the two 8-byte lanes of a block changes it too. */
	memcpy(copy, big + 8, 8);
	memcpy(copy + 8, big, 8);
	hash_whole(big, 16, a);
	hash_whole(copy, 16, b);
	assert_string_not_equal(a, b);
}

static void test_empty_input_stable(void **state)
{
	struct pr_hash h;
	char a[33], b[33], c[33];
	(void)state;
	pr_hash_init(&h);
	pr_hash_final_hex(&h, a);
	pr_hash_final_hex(&h, b);
	pr_hash_init(&h);
	pr_hash_update(&h, "x", 0);
	pr_hash_final_hex(&h, c);
	assert_hex32(a);
	assert_string_equal(a, b);
	assert_string_equal(a, c);
	hash_whole("", 0, b);
	assert_string_equal(a, b);
	hash_whole("\0", 1, b);
	assert_string_not_equal(a, b);
}

/*
 * Stores keep run.content_hash: if these values change, files ingested by
 * an older build are no longer recognised as duplicates. Change them only
 * together with a store schema version bump.
 */
static void test_values_are_pinned(void **state)
{
	char got[33];
	(void)state;
	hash_whole("", 0, got);
	assert_string_equal(got, PINNED_EMPTY);
	hash_whole("hello, profreport", 17, got);
	assert_string_equal(got, PINNED_HELLO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunking_does_not_matter),
		cmocka_unit_test(test_final_does_not_consume),
		cmocka_unit_test(test_different_content_differs),
		cmocka_unit_test(test_empty_input_stable),
		cmocka_unit_test(test_values_are_pinned),
	};
	fill_big();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
