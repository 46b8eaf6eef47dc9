/*
 * fuzz_analyze.c - libFuzzer harness for the analyses on hostile stores: the
 * input is read as a Chrome trace (the format the most analyses read: spans,
 * GPU rows, flows, counters, [memory] events) into a fresh in-memory store,
 * and a run that ingests is analysed whole (pr_model_build) and its console
 * report written. The analyses' scratch streams and sorts get buffers of a
 * few records, so that every one of them goes through its scratch file
 * (base/spill.h, base/xsort.h, base/parray.h), and the merges of many runs
 * are exercised.
 *
 * Properties checked (abort() = a finding), besides ASan/UBSan/leaks: the
 * model builds (an analysis error must fill err with a message), it is a
 * JSON object with one run, and the console report renders it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "analyze/actx.h"
#include "analyze/gpuscan.h"
#include "analyze/model.h"
#include "analyze/spanstat.h"
#include "base/xsort.h"
#include "ingest/ingest.h"
#include "render/text_report.h"
#include "tests/fuzz/dict.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz analyze: %s:%d: check failed: %s\n", __FILE__,       \
				__LINE__, #cond);                                                  \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

static char dir[512], path[600];

static void cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	(void)argc;
	(void)argv;
	pr_fuzz_dict_maybe_print(pr_fuzz_json_tokens, NULL);
	snprintf(dir, sizeof(dir), "%s/pr-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/input", dir);
	atexit(cleanup);
	/* every stream and sort of the analyses through its scratch file */
	pr_spanstat_rec_mem = 64;
	pr_spanstat_dev_mem = 48;
	pr_xsort_mem = 256;
	pr_gpuscan_mem = 64;
	pr_series_mem = 0; /* every memory series paged, 3 samples a block */
	pr_series_block = 48;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pr_store *st = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_ingest_result res;
	struct pr_model_opts o = PR_MODEL_OPTS_INIT;
	json_t *m;
	FILE *f = fopen(path, "wb");

	CHECK(f != NULL);
	CHECK(fwrite(data, 1, size, f) == size);
	CHECK(fclose(f) == 0);
	if (pr_store_open(&st, ":memory:", PR_STORE_CREATE, &err)) {
		fprintf(stderr, "fuzz analyze: cannot open a store: %s\n", err.text);
		abort();
	}
	if (pr_ingest_file(st, path, "chrome", &res, &err)) {
		pr_store_close(st);
		return 0; /* the ingest's own properties are fuzz_chrome's */
	}
	m = pr_model_build(st, &o, &err);
	if (!m) {
		CHECK(err.code != PR_OK);
		CHECK(err.text[0] != '\0');
	} else {
		CHECK(json_is_object(m));
		CHECK(json_array_size(json_object_get(m, "runs")) == 1);
		{
			FILE *devnull = fopen("/dev/null", "w");
			CHECK(devnull != NULL);
			pr_render_text_report(m, devnull);
			fclose(devnull);
		}
		json_decref(m);
	}
	pr_store_close(st);
	return 0;
}
