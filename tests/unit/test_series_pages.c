/*
 * test_series_pages.c - the analyses of memory series read their samples
 * from scratch files (analyze/actx.c, base/parray.h) and give the very
 * model they give with every series in memory: on a real Kineto trace with
 * 56 k memory samples (HTA's df_index_resolver: fragmentation, leaks,
 * peaks per phase) and on the samples whose series feed each analysis
 * (MemoryTracer's per-layer fragmentation, sysstat's total - available,
 * nvidia-smi's used / total, Inferix, a leak, a torch trace's allocator).
 * With no budget and blocks of 4 samples (64 bytes), every series is in a
 * file and every lookup crosses blocks; that the files are used is shown
 * by a scratch directory that does not exist, which then fails the model.
 */
#include "tests/unit/helpers.h"
#include "tests/unit/traces.h"

#include <sys/stat.h>

#include "analyze/actx.h"
#include "analyze/model.h"
#include "base/xsort.h"
#include "ingest/ingest.h"

static json_t *model_of(const char *path, struct pr_error *err)
{
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	struct pr_store *st = open_store();
	struct pr_ingest_result res;
	json_t *m;
	if (pr_ingest_file(st, path, NULL, &res, err))
		fail_msg("ingest '%s': %s", path, err->text);
	m = pr_model_build(st, &o, err);
	pr_store_close(st);
	return m;
}

/* The model of path with the defaults, then with every series paged (and, second, in a
 * sort of 256 B runs for fragmentation's p95): the same bytes. */
static void same_paged(const char *path)
{
	struct pr_error err = PR_ERROR_INIT;
	size_t keep_mem = pr_series_mem, keep_blk = pr_series_block, keep_sort = pr_xsort_mem;
	json_t *def = model_of(path, &err), *paged;
	char *a, *b;
	if (!def)
		fail_msg("model of %s: %s", path, err.text);
	pr_series_mem = 0;
	pr_series_block = 64;
	pr_xsort_mem = 1024;
	paged = model_of(path, &err);
	pr_series_mem = keep_mem;
	pr_series_block = keep_blk;
	pr_xsort_mem = keep_sort;
	if (!paged)
		fail_msg("model of %s with paged series: %s", path, err.text);
	a = json_dumps(def, JSON_COMPACT);
	b = json_dumps(paged, JSON_COMPACT);
	if (strcmp(a, b))
		fail_msg("%s: the model with paged series differs", path);
	free(a);
	free(b);
	json_decref(def);
	json_decref(paged);
}

static const char *const samples[] = {
	"memtracer/memory_timeline.json",
	"sysstat/sadf-mem.csv",
	"nvidia-smi/gpu_log.csv",
	"inferix/raw_profiling_data_t2v_generation_20231114_221332.json",
	"compare/memory/new.pt.trace.json",
	"torch/trace_rank0.pt.trace.json",
	"torch-memory-timeline/memory_timeline.raw.json.gz",
	"qnn/memory_20241219_143000.csv",
};

static void test_samples(void **state)
{
	size_t i;
	(void)state;
	for (i = 0; i < PR_ARRAY_SIZE(samples); i++) {
		char *p = sample_path(samples[i]);
		same_paged(p);
		free(p);
	}
}

static char trace[1024]; /* the HTA trace; "" in a tree without tests/data/traces */

static void test_real_trace(void **state)
{
	size_t keep_mem = pr_series_mem;
	char *keep_tmp;
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	if (!*trace)
		skip();
	same_paged(trace);
	keep_tmp = tmpdir_set("/nonexistent/profreport-test");
	pr_series_mem = 0;
	assert_null(model_of(trace, &err));
	pr_series_mem = keep_mem;
	assert_string_equal(err.text, "cannot create a scratch file for a series' samples in "
				      "'/nonexistent/profreport-test': No such file or directory");
	tmpdir_restore(keep_tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_real_trace),
	};
	int rc;
	if (!pr_test_trace(trace, sizeof(trace), "hta/df_index_resolver/df_index_resolver.json.gz"))
		trace[0] = '\0'; /* the trace's test skipped */
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	return rc == 0 && !*trace ? 77 : rc; /* skipped (77) only when the rest passed */
}
