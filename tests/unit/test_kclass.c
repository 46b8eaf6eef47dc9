/*
 * test_kclass.c - analyze/kclass: the one classification of device kernels
 * (the table's rules, the device families, --comm-kernels, the collective
 * names of the aggregate and the collectives section).
 */
#include "tests/unit/helpers.h"

#include "analyze/kclass.h"

static int cls(const char *meta_text, const char *re, const char *name, int *lib)
{
	struct pr_kclassify kc;
	struct pr_error err = PR_ERROR_INIT;
	json_error_t jerr;
	json_t *meta = meta_text ? json_loads(meta_text, 0, &jerr) : NULL;
	int c;
	if (pr_kclassify_init(&kc, meta, re, &err))
		fail_msg("init: %s", err.text);
	c = pr_kclass_of(&kc, name, lib);
	pr_kclassify_release(&kc);
	json_decref(meta);
	return c;
}

/* Communication by library, the names as HTA and the field write them. */
static void test_comm(void **state)
{
	int lib;
	(void)state;
	assert_int_equal(cls(NULL, NULL, "ncclKernel_AllReduce_RING_LL_Sum_float(x)", &lib),
			 PR_KC_COMM);
	assert_int_equal(lib, PR_KL_NCCL);
	assert_int_equal(cls(NULL, NULL, "void ncclDevKernel_AllGather_RING_LL(x)", &lib),
			 PR_KC_COMM);
	assert_int_equal(cls(NULL, NULL, "rcclKernel_x", &lib), PR_KC_COMM);
	assert_int_equal(lib, PR_KL_RCCL);
	assert_int_equal(cls(NULL, NULL, "gloo:all_reduce", &lib), PR_KC_COMM);
	assert_int_equal(lib, PR_KL_GLOO);
	assert_int_equal(cls(NULL, NULL, "void mscclKernel_Sum(x)", &lib), PR_KC_COMM);
	assert_int_equal(lib, PR_KL_MSCCL);
	assert_int_equal(cls(NULL, NULL, "NVSHMEM_put_kernel", &lib), PR_KC_COMM);
	assert_int_equal(lib, PR_KL_NVSHMEM);
	assert_int_equal(cls(NULL, NULL, "void deep_ep::intranode::combine<8>(x)", &lib),
			 PR_KC_COMM);
	assert_int_equal(lib, PR_KL_DEEPEP);
	/* DeepEP's layout kernel computes */
	assert_int_equal(cls(NULL, NULL, "void deep_ep::get_dispatch_layout<1>(x)", &lib),
			 PR_KC_COMPUTE);
	assert_int_equal(lib, PR_KL_NONE);
	/* "nccl" not at the start: compute, as HTA */
	assert_int_equal(cls(NULL, NULL, "my_nccl_helper", &lib), PR_KC_COMPUTE);
}

/* Memory: Memcpy/Memset anywhere; dma* on MTIA and on an unknown device, not on NVIDIA/AMD. */
static void test_memory_families(void **state)
{
	static const char mtia[] = "{\"device_type\": \"mtia\"}";
	static const char nv[] = "{\"deviceProperties\": [{\"name\": \"NVIDIA H100\"}]}";
	static const char amd[] = "{\"deviceProperties\": [{\"name\": \"AMD Instinct MI300X\"}]}";
	static const char backend[] = "{\"distributedInfo\": {\"backend\": \"MTIA\"}}";
	(void)state;
	assert_int_equal(cls(NULL, NULL, "Memcpy DtoD (Device -> Device)", NULL), PR_KC_MEMORY);
	assert_int_equal(cls(nv, NULL, "Memset (Device)", NULL), PR_KC_MEMORY);
	assert_int_equal(cls(mtia, NULL, "dma_request", NULL), PR_KC_MEMORY);
	assert_int_equal(cls(backend, NULL, "dma_request", NULL), PR_KC_MEMORY);
	assert_int_equal(cls(NULL, NULL, "dma_request", NULL), PR_KC_MEMORY);
	assert_int_equal(cls("{}", NULL, "void dma_copy<1>(x)", NULL), PR_KC_MEMORY);
	assert_int_equal(cls(nv, NULL, "dma_request", NULL), PR_KC_COMPUTE);
	assert_int_equal(cls(amd, NULL, "dma_request", NULL), PR_KC_COMPUTE);
	assert_int_equal(cls("{\"device_type\": \"cuda\"}", NULL, "dma_request", NULL),
			 PR_KC_COMPUTE);
	/* not a prefix */
	assert_int_equal(cls(mtia, NULL, "fused_dma_gemm", NULL), PR_KC_COMPUTE);
}

static void test_family_names(void **state)
{
	struct pr_kclassify kc;
	struct pr_error err = PR_ERROR_INIT;
	json_t *m = json_pack("{s:s}", "device_type", "rocm");
	(void)state;
	assert_int_equal(pr_kclassify_init(&kc, m, NULL, &err), 0);
	assert_string_equal(pr_kfamily_name(kc.family), "rocm");
	pr_kclassify_release(&kc);
	json_decref(m);
	assert_int_equal(pr_kclassify_init(&kc, NULL, NULL, &err), 0);
	assert_string_equal(pr_kfamily_name(kc.family), "unknown");
	pr_kclassify_release(&kc);
}

/* --comm-kernels: communication before the memory rules; a bad pattern is a usage error. */
static void test_user_pattern(void **state)
{
	struct pr_kclassify kc;
	struct pr_error err = PR_ERROR_INIT;
	int lib;
	(void)state;
	assert_int_equal(cls(NULL, "^dma_c", "dma_copy", &lib), PR_KC_COMM);
	assert_int_equal(lib, PR_KL_USER);
	assert_int_equal(cls(NULL, "^dma_c", "dma_request", &lib), PR_KC_MEMORY);
	assert_int_equal(pr_kclassify_init(&kc, NULL, "(", &err), -1);
	assert_int_equal(err.code, PR_E_USAGE);
	assert_non_null(strstr(err.text, "--comm-kernels '('"));
	pr_kclassify_release(&kc);
}

/* The collective names: CPU annotations and ops, and every communication kernel. */
static void test_collective_names(void **state)
{
	(void)state;
	assert_true(pr_kclass_is_collective("nccl:all_reduce"));
	assert_true(pr_kclass_is_collective("c10d::allreduce_"));
	/* Python frames by their function: TraceLens's H100 trace has distributed_c10d.py's
	 * is_initialized, default_pg and WORLD, none a collective */
	assert_false(pr_kclass_is_collective(
		"torch/distributed/distributed_c10d.py(1273): is_initialized"));
	assert_false(pr_kclass_is_collective("torch/distributed/distributed_c10d.py(725): WORLD"));
	assert_true(
		pr_kclass_is_collective("torch/distributed/distributed_c10d.py(2050): all_reduce"));
	assert_true(pr_kclass_is_collective("record_param_comms all_to_all"));
	assert_true(pr_kclass_is_collective("rcclKernel_x"));
	assert_true(pr_kclass_is_collective("void dpsk::ep::intranode::dispatch<8>(int*)"));
	assert_true(pr_kclass_is_collective("gloo:broadcast"));
	assert_false(pr_kclass_is_collective("aten::mm"));
	assert_false(pr_kclass_is_collective("dma_request"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comm),
		cmocka_unit_test(test_memory_families),
		cmocka_unit_test(test_family_names),
		cmocka_unit_test(test_user_pattern),
		cmocka_unit_test(test_collective_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
