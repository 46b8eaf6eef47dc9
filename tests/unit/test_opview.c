/*
 * test_opview.c - the operator and kernel views' readers (analyze/an_ops.c,
 * analyze/opkern.c): an args array's element as the op view keys its
 * shapes (nested arrays, strings holding commas and brackets, escapes, the
 * 512-byte cut on a UTF-8 character, missing or malformed elements), and
 * TensorBoard's Tensor Core rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze/opkern.h"
#include "analyze/opview.h"
#include "base/strbuf.h"

static const char *elem(const char *s, int64_t pos, struct pr_strbuf *sb)
{
	if (!pr_opview_elem(s, strlen(s), pos, sb))
		return NULL;
	pr_strbuf_addch(sb, '\0');
	return sb->buf;
}

static void test_elem(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const char *args = "[18434,0,[\"\",\"-1\",\"a,]b\\\"c\"],[\"c10::BFloat16\",\"long int\"],"
			   "[[1024,1],[559,1],[]],{\"k\":[1,2]},\"x\"]";
	(void)state;
	assert_string_equal(elem(args, 0, &sb), "18434");
	assert_string_equal(elem(args, 1, &sb), "0");
	assert_string_equal(elem(args, 2, &sb), "[\"\",\"-1\",\"a,]b\\\"c\"]");
	assert_string_equal(elem(args, 3, &sb), "[\"c10::BFloat16\",\"long int\"]");
	assert_string_equal(elem(args, 4, &sb), "[[1024,1],[559,1],[]]");
	assert_string_equal(elem(args, 5, &sb), "{\"k\":[1,2]}");
	assert_string_equal(elem(args, 6, &sb), "\"x\"");
	assert_null(elem(args, 7, &sb));	/* past the end */
	assert_null(elem(args, -1, &sb));	/* no position */
	assert_null(elem("[1,,2]", 1, &sb));	/* an empty element */
	assert_null(elem("[1,[2,3", 1, &sb));	/* unterminated */
	assert_null(elem("{\"a\":1}", 0, &sb)); /* not an array */
	assert_null(elem("", 0, &sb));
	assert_int_equal(pr_opview_elem(NULL, 0, 0, &sb), 0);
	pr_strbuf_release(&sb);
}

/* A shape longer than 512 bytes is cut to 512, back to the start of a UTF-8 character. */
static void test_cut(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT, in = PR_STRBUF_INIT;
	size_t i;
	(void)state;
	pr_strbuf_addstr(&in, "[\"");
	for (i = 0; i < 510; i++)
		pr_strbuf_addch(&in, 'a');
	pr_strbuf_addstr(&in,
			 "\xc3\xa9\xc3\xa9\"]"); /* byte 512 of the element is inside an e-acute */
	assert_int_equal(pr_opview_elem(in.buf, in.len, 0, &sb), 1);
	assert_int_equal(sb.len,
			 511); /* '"' and 510 'a': bytes 511-512 are one character, left out */
	assert_int_equal((unsigned char)sb.buf[sb.len - 1], 'a');
	pr_strbuf_reset(&in);
	pr_strbuf_addstr(&in, "[[");
	for (i = 0; i < 300; i++)
		pr_strbuf_addstr(&in, i ? ",1" : "1");
	pr_strbuf_addstr(&in, "]]");
	assert_int_equal(pr_opview_elem(in.buf, in.len, 0, &sb), 1);
	assert_int_equal(sb.len, OPV_SHAPE_MAX);
	pr_strbuf_release(&sb);
	pr_strbuf_release(&in);
}

/* tb_plugin profiler/tensor_core.py: kernel names by substring, op names exactly. */
static void test_tensor_cores(void **state)
{
	(void)state;
	assert_true(pr_tc_kernel("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"));
	assert_true(pr_tc_kernel("volta_h884gemm_64x64_ldg8_nn"));
	assert_true(pr_tc_kernel("ampere_fp16_s16816gemm_fp16_128x128"));
	assert_false(pr_tc_kernel("void at::native::elementwise_kernel<128, 4>"));
	assert_false(pr_tc_kernel("cutlass_80_simt_sgemm_128x32_8x5_nn_align1"));
	assert_true(pr_tc_op("aten::mm"));
	assert_true(pr_tc_op("aten::cudnn_convolution"));
	assert_true(pr_tc_op("AddmmBackward"));
	assert_false(pr_tc_op("aten::mm_")); /* exact names */
	assert_false(pr_tc_op("aten::add"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elem),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_tensor_cores),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
