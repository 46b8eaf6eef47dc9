/*
 * test_elide.c - labels cut to a column (render/elide.c): never wider than
 * the column, never a split UTF-8 sequence, and two different names never
 * print alike (the console's "two rows that look identical", issue 15).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include "render/elide.h"

/* 1 when s is valid UTF-8 (no sequence cut). */
static int utf8_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = *p < 0x80	      ? 0
			: (*p & 0xE0) == 0xC0 ? 1
			: (*p & 0xF0) == 0xE0 ? 2
			: (*p & 0xF8) == 0xF0 ? 3
					      : -1;
		if (n < 0)
			return 0;
		for (p++; n > 0; n--, p++)
			if ((*p & 0xC0) != 0x80)
				return 0;
	}
	return 1;
}

static void test_end_and_mid(void **state)
{
	char b[PR_LABEL];
	(void)state;
	assert_string_equal(pr_elide_end("short", 10, b, sizeof(b)), "short");
	assert_string_equal(pr_elide_end("DistributedDataParallel.forward", 14, b, sizeof(b)),
			    "Distributed...");
	assert_string_equal(pr_elide_mid("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)", 20,
					 b, sizeof(b)),
			    "ncclKern...DevComm*)"); /* 8 head + 9 tail bytes */
	/* "é" is two bytes: a cut never splits it */
	pr_elide_end("ééééééééé", 8, b, sizeof(b));
	assert_true(strlen(b) <= 8);
	assert_true(utf8_ok(b));
	pr_elide_mid("aéééééééééééééb", 9, b, sizeof(b));
	assert_true(strlen(b) <= 9);
	assert_true(utf8_ok(b));
}

/*
 * Two real kernels of the nccl_data trace (HTA's test data) that a middle cut
 * at 42 bytes printed alike ("void at::native::ve...il::Array<char*, 3>)"):
 * the column shows where they differ.
 */
static void test_column_lookalikes(void **state)
{
	static const char *const k[] = {
		"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
		"at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
		"void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
		"at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, "
		"at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, "
		"at::detail::Array<char*, 3>)",
		"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
		"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
	};
	pr_label_t out[4];
	char a[PR_LABEL], b[PR_LABEL];
	size_t i;
	(void)state;
	/* the plain middle cut makes the first two alike: what the column must avoid */
	assert_string_equal(pr_elide_mid(k[0], 42, a, sizeof(a)),
			    pr_elide_mid(k[1], 42, b, sizeof(b)));
	pr_elide_column(out, k, 4, 42, 1);
	for (i = 0; i < 4; i++)
		assert_true(strlen(out[i]) <= 42);
	assert_true(strcmp(out[0], out[1]) != 0);
	assert_non_null(strstr(out[0], "CUDAFunctor_add"));
	assert_non_null(strstr(out[1], "BinaryFunctor"));
	/* equal names keep equal labels, and an unclashing one keeps the plain cut */
	assert_string_equal(out[2], out[3]);
	assert_string_equal(out[2], pr_elide_mid(k[2], 42, a, sizeof(a)));
}

/* Many columns of random look-alike names: widths hold, distinct names stay distinct. */
static void test_column_property(void **state)
{
	enum {
		N = 12
	};
	static const char alpha[] = "ab:_<>é";
	char names[N][120];
	const char *ptr[N];
	pr_label_t out[N];
	uint32_t seed = 12345;
	size_t w, i, j, trial;
	(void)state;
	for (trial = 0; trial < 3000; trial++) {
		w = 8 + trial % 40;
		for (i = 0; i < N; i++) {
			size_t len = 0, target;
			seed = seed * 1103515245u + 12345u;
			target = 20 + (seed >> 16) % 90;
			/* a shared head and tail, a random middle */
			len += (size_t)snprintf(names[i], sizeof(names[i]),
						"void at::native::kernel<");
			while (len + 4 < target) {
				seed = seed * 1103515245u + 12345u;
				if (alpha[(seed >> 16) % 7] == (char)0xC3 ||
				    (seed >> 16) % 7 >= 6) {
					names[i][len++] = (char)0xC3; /* é */
					names[i][len++] = (char)0xA9;
				} else {
					names[i][len++] = alpha[(seed >> 16) % 6];
				}
			}
			names[i][len++] = '>';
			names[i][len] = 0;
			ptr[i] = names[i];
		}
		pr_elide_column(out, ptr, N, w, (int)(trial & 1));
		for (i = 0; i < N; i++) {
			assert_true(strlen(out[i]) <= w);
			assert_true(utf8_ok(out[i]));
			for (j = i + 1; j < N; j++)
				if (strcmp(names[i], names[j]))
					assert_true(strcmp(out[i], out[j]) != 0);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_end_and_mid),
		cmocka_unit_test(test_column_lookalikes),
		cmocka_unit_test(test_column_property),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
