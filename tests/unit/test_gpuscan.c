/*
 * test_gpuscan.c - analyze/gpuscan's sort, analyze/imap's reserve, and the GPU analyses with
 * their rows in scratch files (issue 16's memory work).
 */
#include "tests/unit/helpers.h"
#include "tests/unit/traces.h"
#include "tests/unit/jpath.h"

#include <sys/stat.h>

#include "analyze/gpuscan.h"
#include "base/imap.h"
#include "analyze/model.h"
#include "analyze/spanstat.h"
#include "base/xsort.h"

/* Packed keys, (start - earliest) << bits | row, as gpu_breakdown sorted them before base/xsort. */
static void test_sort_u64(void **state)
{
	uint64_t k[1000];
	size_t i;
	(void)state;
	for (i = 0; i < 1000; i++) /* starts 0..99 repeated, rows 0..999 in 10 bits */
		k[i] = (uint64_t)((i * 37) % 100) << 10 | i;
	pr_gpuscan_sort_u64(k, 1000);
	for (i = 1; i < 1000; i++)
		assert_true(k[i - 1] < k[i]);
	/* each start holds its 10 rows in row order: start 0 = rows 0, 100, ..., 900 */
	for (i = 0; i < 10; i++)
		assert_int_equal(k[i], (uint64_t)(i * 100));
	k[0] = UINT64_MAX;
	k[1] = 0;
	pr_gpuscan_sort_u64(k, 2);
	assert_true(k[0] == 0 && k[1] == UINT64_MAX);
}

/* After pr_imap_reserve(n), n puts do not grow the table, and every key reads back. */
static void test_imap_reserve(void **state)
{
	struct pr_imap m = { 0 };
	size_t cap, i;
	int64_t v;
	(void)state;
	pr_imap_put(&m, 42, 1);
	pr_imap_reserve(&m, 100000);
	cap = m.cap;
	assert_true(cap * 3 >= (size_t)100000 * 4);
	for (i = 0; i < 100000; i++)
		pr_imap_put(&m, (int64_t)(i * 7919) - 50000, (int64_t)i);
	assert_int_equal(m.cap, cap);
	assert_true(pr_imap_get(&m, 42, &v)); /* 42 = 7919 * i - 50000 for no i: still 1 */
	assert_int_equal(v, 1);
	for (i = 0; i < 100000; i += 997) {
		assert_true(pr_imap_get(&m, (int64_t)(i * 7919) - 50000, &v));
		assert_int_equal(v, (int64_t)i);
	}
	pr_imap_reserve(&m, 10); /* never shrinks */
	assert_int_equal(m.cap, cap);
	pr_imap_release(&m);
}

/*
 * Rows of one start keep their id order through gpu_breakdown's sort when
 * they fall in different runs: 30 launches R0..R29 (cudaLaunchKernel at
 * 1000 + 10 i us, correlation i + 1), then 30 kernels K0..K29, each at its
 * launch's start. With 1 KiB runs (12 rows of 80 bytes) the main stream's
 * runs are R0-R11, R12-R23, R24-R29 K0-K5, K6-K17, K18-K29: every K_i ties
 * with R_i in an earlier run. In id order each launch comes before its
 * kernel, which then finds it (launch_linked_share 30 / 30 = 1); a kernel
 * put first would find none (0).
 */
static void test_tie_order(void **state)
{
	struct pr_strbuf t = PR_STRBUF_INIT;
	size_t keep = pr_xsort_mem, round;
	int i;
	(void)state;
	pr_strbuf_addstr(&t, "{\"traceEvents\": [");
	for (i = 0; i < 30; i++)
		pr_strbuf_addf(
			&t,
			"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
			"\"pid\":100,\"tid\":100,\"ts\":%d,\"dur\":2,\"args\":{\"correlation\":%d}},",
			1000 + 10 * i, i + 1);
	for (i = 0; i < 30; i++)
		pr_strbuf_addf(
			&t,
			"%s{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
			"\"ts\":%d,\"dur\":5,\"args\":{\"device\":0,\"stream\":7,"
			"\"correlation\":%d}}",
			i ? "," : "", 1000 + 10 * i, i + 1);
	pr_strbuf_addstr(&t, "]}");
	for (round = 0; round < 2; round++) {
		struct pr_model_opts o = PR_MODEL_OPTS_INIT;
		struct pr_error err = PR_ERROR_INIT;
		struct pr_store *st = open_store();
		json_t *m, *g;
		ingest_text(st, t.buf, "chrome");
		pr_xsort_mem = round ? 1024 : keep;
		m = pr_model_build(st, &o, &err);
		pr_xsort_mem = keep;
		if (!m)
			fail_msg("model: %s", err.text);
		g = at(m, "runs/0/gpu_breakdown");
		assert_int_equal((int)d(g, "ops"), 30);
		near(d(g, "idle/launch_linked_share"), 1, 0);
		json_decref(m);
		pr_store_close(st);
	}
	pr_strbuf_release(&t);
}

static char traces[1024]; /* tests/data/traces/hta; "" in a tree without it */

static json_t *model_of(const char *path, struct pr_error *err)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_store *st = open_store();
	json_t *m;
	ingest_ok(st, path, "chrome");
	m = pr_model_build(st, &o, err);
	pr_store_close(st);
	return m;
}

static char *dump(json_t *m)
{
	char *t = json_dumps(m, JSON_COMPACT);
	assert_non_null(t);
	return t;
}

/*
 * The GPU analyses (gpu_breakdown, step_breakdown, gpu) with the rows'
 * streams and gpu_breakdown's sorts in scratch files (pr_gpuscan_mem: one row
 * in memory; pr_xsort_mem: 1 KiB runs, 12 rows each, so hundreds of runs
 * merged, and the CPU op cover's 256 B runs of 16 rows) give the very model of the defaults (everything in memory), on
 * real Kineto traces: HTA's ns_resolution trace (6095 GPU ops, 5 steps, the
 * step breakdown's DataLoader and CPU merge) and nccl_data (flows, NCCL
 * kernels, two streams). That the files are used is shown by a scratch
 * directory that does not exist: each setting alone then fails the model
 * with the error of its stream (the span durations' stream kept in memory,
 * so that its own file does not fail first).
 */
static void test_gpu_scratch_files(void **state)
{
	static const char *const rel[] = {
		"ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
		"nccl_parser_config/nccl_data.json.gz",
	};
	size_t keep_rows = pr_gpuscan_mem, keep_sort = pr_xsort_mem, keep_rec = pr_spanstat_rec_mem;
	size_t i;
	(void)state;
	if (!*traces)
		skip();
	for (i = 0; i < PR_ARRAY_SIZE(rel); i++) {
		struct pr_error err = PR_ERROR_INIT;
		char path[1200];
		json_t *def, *tiny;
		char *a, *b, *keep_tmp;
		snprintf(path, sizeof(path), "%s/%s", traces, rel[i]);
		def = model_of(path, &err);
		if (!def)
			fail_msg("model of %s: %s", rel[i], err.text);
		assert_non_null(
			json_object_get(json_array_get(json_object_get(def, "runs"), 0), "gpu"));
		pr_gpuscan_mem = 1;
		pr_xsort_mem = 1024;
		tiny = model_of(path, &err);
		pr_gpuscan_mem = keep_rows;
		pr_xsort_mem = keep_sort;
		if (!tiny)
			fail_msg("model of %s with scratch files: %s", rel[i], err.text);
		a = dump(def);
		b = dump(tiny);
		assert_true(json_equal(def, tiny));
		assert_string_equal(a, b);
		free(a);
		free(b);
		json_decref(def);
		json_decref(tiny);

		keep_tmp = tmpdir_set("/nonexistent/profreport-test");
		pr_spanstat_rec_mem = (size_t)1 << 30;
		pr_gpuscan_mem = 1;
		assert_null(model_of(path, &err));
		assert_string_equal(err.text,
				    "cannot create a scratch file for the GPU rows in "
				    "'/nonexistent/profreport-test': No such file or directory");
		pr_gpuscan_mem = (size_t)1 << 30; /* the rows in memory, the sort's runs on disk */
		pr_xsort_mem = 1024;
		assert_null(model_of(path, &err));
		/* flame runs before the GPU analyses: its sort of the runtime calls by correlation
		 * (an_flame.c, device time) is the first sort of the rows made */
		assert_string_equal(err.text,
				    "cannot create a scratch file for flame's runtime calls "
				    "by correlation in '/nonexistent/profreport-test': No such "
				    "file or directory");
		pr_gpuscan_mem = keep_rows;
		pr_xsort_mem = keep_sort;
		pr_spanstat_rec_mem = keep_rec;
		tmpdir_restore(keep_tmp);
	}
}

/*
 * critical_path's CPU events and the launching ops' rows kept by the shared pass (gpuscan.h:
 * pr_gpuscan_hosts, pr_gpuanc) give the very model of the analyses' own reads of the store
 * (pr_gpuscan_hosts_on 0), in memory and in scratch files (pr_gpuscan_mem 1), on HTA's
 * ns_resolution trace (perf_model's ops, gpu's op view), nccl_data and the critical path's
 * simple_add.
 */
static void test_hosts_same_model(void **state)
{
	static const char *const rel[] = {
		"ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
		"nccl_parser_config/nccl_data.json.gz",
		"critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz",
	};
	size_t keep_rows = pr_gpuscan_mem, i, k;
	(void)state;
	if (!*traces)
		skip();
	for (i = 0; i < PR_ARRAY_SIZE(rel); i++) {
		struct pr_error err = PR_ERROR_INIT;
		char path[1200];
		json_t *m[3];
		char *a, *b;
		snprintf(path, sizeof(path), "%s/%s", traces, rel[i]);
		for (k = 0; k < 3; k++) {
			pr_gpuscan_hosts_on = k != 0;
			pr_gpuscan_mem = k == 2 ? 1 : keep_rows;
			m[k] = model_of(path, &err);
			pr_gpuscan_hosts_on = 1;
			pr_gpuscan_mem = keep_rows;
			if (!m[k])
				fail_msg("model of %s (%zu): %s", rel[i], k, err.text);
		}
		assert_non_null(at(m[0], "runs/0/critical_path"));
		a = dump(m[0]);
		for (k = 1; k < 3; k++) {
			b = dump(m[k]);
			assert_string_equal(a, b);
			free(b);
		}
		free(a);
		for (k = 0; k < 3; k++)
			json_decref(m[k]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_u64),	 cmocka_unit_test(test_imap_reserve),
		cmocka_unit_test(test_tie_order),	 cmocka_unit_test(test_gpu_scratch_files),
		cmocka_unit_test(test_hosts_same_model),
	};
	int rc;
	if (!pr_test_trace(traces, sizeof(traces), "hta"))
		traces[0] = '\0'; /* the traces' test skipped */
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	return rc == 0 && !*traces ? 77 : rc; /* skipped (77) only when the rest passed */
}
