/*
 * fuzz_outputs.c - libFuzzer harness for what reads our own JSON back:
 * PR_FUZZ_MODE "model" (a model file: the console report, the HTML report,
 * compare of the model with itself, its markdown/JUnit/text), "agg" (an
 * agg.json merged into an aggregate, as a document and as a file read a row
 * at a time, and written back whole, streamed and brief) and "gate" (compare's
 * --fail-on / --ignore specs, one per line, and a --config object).
 * Hostile documents of the right schema must never crash a renderer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tests/fuzz/dict.h"
#include "analyze/multi/aggregate.h"
#include "analyze/multi/compare.h"
#include "analyze/multi/gate.h"
#include "analyze/model.h"
#include "render/compare_text.h"
#include "render/html_report.h"
#include "base/output.h"
#include "render/text_report.h"
#include "base/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	pr_fuzz_dict_maybe_print(pr_fuzz_json_tokens, NULL);
	return 0;
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static void model(json_t *m)
{
	struct pr_error err = PR_ERROR_INIT;
	struct pr_gate g;
	struct pr_output out;
	json_t *cmp;
	FILE *devnull = fopen("/dev/null", "w");
	if (!json_is_object(m) || !json_is_array(json_object_get(m, "runs")))
		return;
	if (devnull) {
		pr_render_text_report(m, devnull);
		fclose(devnull);
	}
	if (json_array_size(json_object_get(m, "runs")) <=
	    4) { /* the HTML renders charts: keep it quick */
		pr_output_init_memory(&out);
		if (!pr_html_report(m, NULL, 0, &out, &err))
			(void)pr_output_close(&out, &err);
		pr_output_release(&out);
	}
	pr_gate_init(&g);
	cmp = pr_compare(m, m, &g, &err);
	if (cmp) {
		struct pr_strbuf sb = PR_STRBUF_INIT;
		pr_compare_render_text(cmp, &sb);
		pr_compare_render_md(cmp, &sb);
		pr_compare_render_junit(cmp, &sb);
		pr_strbuf_release(&sb);
		json_decref(cmp);
	}
	pr_gate_release(&g);
}

/* The aggregate written every way: whole, streamed (agg.json), brief (the console's), Inferix's. */
static void agg_out(const struct pr_agg *a)
{
	struct pr_error err = PR_ERROR_INIT;
	struct pr_output out;
	json_t *o = pr_agg_to_json(a), *i = pr_agg_to_inferix(a), *h = pr_agg_head_json(a);
	json_decref(o);
	json_decref(i);
	if (h) {
		pr_output_init_memory(&out);
		(void)pr_agg_write(a, h, &out, &err);
		pr_output_release(&out);
		(void)pr_agg_ranks_into(a, h, 2, &err);
		json_decref(h);
	}
}

static void agg(json_t *doc)
{
	struct pr_error err = PR_ERROR_INIT;
	struct pr_agg *a = pr_agg_new();
	if (!pr_agg_merge_json(a, doc, &err))
		agg_out(a);
	pr_agg_free(a);
}

/* The same bytes as an agg.json file, read by pr_agg_merge_file (JSON or not). */
static void agg_file(const uint8_t *data, size_t size)
{
	struct pr_error err = PR_ERROR_INIT;
	struct pr_agg *a;
	char path[64];
	FILE *f = tmpfile();
	if (!f)
		return;
	if (fwrite(data, 1, size, f) != size || fflush(f)) {
		fclose(f);
		return;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fileno(f));
	a = pr_agg_new();
	if (!pr_agg_merge_file(a, path, &err))
		agg_out(a);
	pr_agg_free(a);
	fclose(f);
}

static void gate(const uint8_t *data, size_t size)
{
	struct pr_error err = PR_ERROR_INIT;
	struct pr_gate g;
	char *text = malloc(size + 1), *line, *next;
	json_t *cfg;
	json_error_t jerr;
	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = 0;
	pr_gate_init(&g);
	cfg = json_loadb((const char *)data, size, 0, &jerr);
	if (cfg) {
		(void)pr_gate_config(&g, cfg, "fuzz", &err);
		json_decref(cfg);
	}
	for (line = text; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (line[0] == '!')
			(void)pr_gate_add_ignore(&g, line + 1, &err);
		else if (line[0] == 'a')
			(void)pr_gate_set_alpha(&g, line + 1, &err);
		else if (line[0] == 'u')
			(void)pr_gate_set_min_us(&g, line + 1, &err);
		else
			(void)pr_gate_add_fail_on(&g, line, &err);
	}
	pr_gate_release(&g);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	json_t *doc;
	if (!strcmp(PR_FUZZ_MODE, "gate")) {
		gate(data, size);
		return 0;
	}
	if (!strcmp(PR_FUZZ_MODE, "agg"))
		agg_file(data, size);
	doc = json_loadb((const char *)data, size, JSON_DECODE_ANY, &jerr);
	if (!doc)
		return 0;
	if (!strcmp(PR_FUZZ_MODE, "model"))
		model(doc);
	else
		agg(doc);
	json_decref(doc);
	return 0;
}
