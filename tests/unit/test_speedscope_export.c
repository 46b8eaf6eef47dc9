/*
 * test_speedscope_export.c - render/speedscope (and analyze/spanwalk under it):
 * small traces in, speedscope JSON out. (test_speedscope.c tests the reader.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>
#include <jansson.h>
#include <sqlite3.h>

#include "analyze/export/spanwalk.h"
#include "ingest/ingest.h"
#include "analyze/export/speedscope.h"
#include "base/strbuf.h"
#include "tests/unit/helpers.h"

struct fx {
	char dir[512];
	struct pr_store *st;
	struct pr_strbuf files; /* NUL-separated paths to remove */
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");
	snprintf(f->dir, sizeof(f->dir), "%s/pr-test-ssx-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	f->st = open_store();
	pr_strbuf_init(&f->files);
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	size_t i = 0;
	pr_store_close(f->st);
	while (i < f->files.len) {
		unlink(f->files.buf + i);
		i += strlen(f->files.buf + i) + 1;
	}
	pr_strbuf_release(&f->files);
	assert_int_equal(rmdir(f->dir), 0); /* nothing else left behind */
	free(f);
	return 0;
}

static const char *fx_path(struct fx *f, const char *name)
{
	static char path[700];
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	return path;
}

/* Ingests text as the file `name` (its run label) into the fixture's store. */
static void ingest_named(struct fx *f, const char *name, const char *text, const char *format)
{
	const char *path = fx_path(f, name);
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, strlen(text), fp), strlen(text));
	assert_int_equal(fclose(fp), 0);
	pr_strbuf_add(&f->files, path, strlen(path) + 1);
	ingest_ok(f->st, path, format);
}

/* Exports to memory and parses; fails the test on errors. */
static json_t *export_json(struct pr_store *st, const struct pr_speedscope_opts *o,
			   struct pr_speedscope_stats *stats, char **text_out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	struct pr_error err = PR_ERROR_INIT;
	json_error_t jerr;
	json_t *doc;
	assert_non_null(mem);
	if (pr_speedscope_write(st, mem, o, stats, &err))
		fail_msg("pr_speedscope_write: %s", err.text);
	assert_int_equal(fclose(mem), 0);
	doc = json_loads(buf, 0, &jerr);
	if (!doc)
		fail_msg("not JSON: %s (line %d)", jerr.text, jerr.line);
	if (text_out)
		*text_out = buf;
	else
		free(buf);
	return doc;
}

static json_t *profile(json_t *doc, size_t i)
{
	json_t *p = json_array_get(json_object_get(doc, "profiles"), i);
	assert_non_null(p);
	return p;
}

static const char *pstr(json_t *p, const char *key)
{
	const char *s = json_string_value(json_object_get(p, key));
	assert_non_null(s);
	return s;
}

static json_int_t pint(json_t *p, const char *key)
{
	json_t *v = json_object_get(p, key);
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static const char *frame_name(json_t *doc, json_int_t i)
{
	json_t *frames = json_object_get(json_object_get(doc, "shared"), "frames");
	return json_string_value(json_object_get(json_array_get(frames, (size_t)i), "name"));
}

/* "O a 0,O b 1000,C b 4000,..." */
static const char *events_str(json_t *doc, json_t *p)
{
	static char out[4096];
	struct pr_strbuf sb = PR_STRBUF_INIT;
	size_t i;
	json_t *e;
	json_array_foreach (json_object_get(p, "events"), i, e) {
		pr_strbuf_addf(&sb, "%s%s %s %lld", i ? "," : "", pstr(e, "type"),
			       frame_name(doc, pint(e, "frame")), (long long)pint(e, "at"));
	}
	snprintf(out, sizeof(out), "%s", sb.buf);
	pr_strbuf_release(&sb);
	return out;
}

/* "a>b 500,c 100" */
static const char *samples_str(json_t *doc, json_t *p)
{
	static char out[4096];
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *samples = json_object_get(p, "samples"), *weights = json_object_get(p, "weights");
	size_t i, j;
	json_t *s, *fr;
	assert_int_equal(json_array_size(samples), json_array_size(weights));
	json_array_foreach (samples, i, s) {
		if (i)
			pr_strbuf_addch(&sb, ',');
		json_array_foreach (s, j, fr) {
			pr_strbuf_addf(&sb, "%s%s", j ? ">" : "",
				       frame_name(doc, json_integer_value(fr)));
		}
		pr_strbuf_addf(&sb, " %g", json_number_value(json_array_get(weights, i)));
	}
	snprintf(out, sizeof(out), "%s", sb.buf);
	pr_strbuf_release(&sb);
	return out;
}

/* Every evented profile: balanced, closes name the top frame, `at` non-decreasing. */
static void assert_well_formed(json_t *doc)
{
	size_t i, j, nframes;
	json_t *p, *e;
	nframes = json_array_size(json_object_get(json_object_get(doc, "shared"), "frames"));
	assert_string_equal(pstr(doc, "$schema"), PR_SPEEDSCOPE_SCHEMA);
	assert_string_equal(pstr(doc, "exporter"), "profreport@" PR_VERSION);
	assert_int_equal(pint(doc, "activeProfileIndex"), 0);
	json_array_foreach (json_object_get(doc, "profiles"), i, p) {
		json_int_t stack[256], last = INT64_MIN;
		size_t n = 0;
		if (strcmp(pstr(p, "type"), "evented"))
			continue;
		assert_string_equal(pstr(p, "unit"), "nanoseconds");
		json_array_foreach (json_object_get(p, "events"), j, e) {
			json_int_t at = pint(e, "at"), fr = pint(e, "frame");
			assert_true(at >= last);
			assert_true(at >= pint(p, "startValue") && at <= pint(p, "endValue"));
			assert_true(fr >= 0 && (size_t)fr < nframes);
			last = at;
			if (!strcmp(pstr(e, "type"), "O")) {
				assert_true(n < 256);
				stack[n++] = fr;
			} else {
				assert_true(n > 0);
				assert_int_equal(stack[--n], fr);
			}
		}
		assert_int_equal(n, 0);
	}
}

/* ---- tests ---- */

static const char *const NESTED =
	"[\n"
	"{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"proc\"}},\n"
	"{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": "
	"\"main\"}},\n"
	"{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 10},\n"
	"{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 3},\n"
	"{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 2},\n"
	"{\"ph\": \"X\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": 20, \"dur\": 0},\n"
	"{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 2, \"ts\": 2, \"dur\": 4},\n"
	"{\"ph\": \"X\", \"name\": \"d\", \"pid\": 1, \"tid\": 2, \"ts\": 3, \"dur\": 1}\n"
	"]\n";

static void test_frames_dedup_order_and_nesting(void **state)
{
	struct fx *f = *state;
	struct pr_speedscope_stats s;
	json_t *doc, *frames, *p;
	ingest_named(f, "trace.json", NESTED, "chrome");
	doc = export_json(f->st, NULL, &s, NULL);
	assert_well_formed(doc);

	/* one frame per name, in first-use order */
	frames = json_object_get(json_object_get(doc, "shared"), "frames");
	assert_int_equal(json_array_size(frames), 4);
	assert_string_equal(frame_name(doc, 0), "a");
	assert_string_equal(frame_name(doc, 1), "b");
	assert_string_equal(frame_name(doc, 2), "c");
	assert_string_equal(frame_name(doc, 3), "d");
	assert_int_equal(json_object_size(json_array_get(frames, 0)), 1); /* name only */

	assert_string_equal(pstr(doc, "name"), "trace.json");
	assert_int_equal(json_array_size(json_object_get(doc, "profiles")), 2);
	p = profile(doc, 0);
	assert_string_equal(pstr(p, "type"), "evented");
	assert_string_equal(pstr(p, "name"), "trace.json / proc / main");
	assert_int_equal(pint(p, "startValue"), 0);
	assert_int_equal(pint(p, "endValue"), 20000);
	/* recursion (a in a) and a zero-duration span (open and close at one time) */
	assert_string_equal(events_str(doc, p), "O a 0,O b 1000,C b 4000,O a 5000,C a 7000,"
						"C a 10000,O c 20000,C c 20000");
	p = profile(doc, 1);
	assert_string_equal(pstr(p, "name"), "trace.json / proc / 2"); /* no thread name: tid */
	assert_int_equal(pint(p, "startValue"), 2000);
	assert_int_equal(pint(p, "endValue"), 6000);
	assert_string_equal(events_str(doc, p), "O b 2000,O d 3000,C d 4000,C b 6000");

	assert_int_equal(s.profiles, 2);
	assert_int_equal(s.evented, 2);
	assert_int_equal(s.sampled, 0);
	assert_int_equal(s.frames, 4);
	assert_int_equal(s.events, 12);
	assert_int_equal(s.clamped, 0);
	json_decref(doc);
}

static void test_key_order_and_determinism(void **state)
{
	struct fx *f = *state;
	char *a = NULL, *b = NULL;
	const char *want = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
			   "\"exporter\":\"profreport@" PR_VERSION "\",\"name\":\"trace.json\","
			   "\"activeProfileIndex\":0,\"shared\":{\"frames\":[{\"name\":\"a\"},";
	ingest_named(f, "trace.json", NESTED, "chrome");
	json_decref(export_json(f->st, NULL, NULL, &a));
	json_decref(export_json(f->st, NULL, NULL, &b));
	assert_string_equal(a, b);
	assert_memory_equal(a, want, strlen(want));
	assert_non_null(strstr(a, "]},\"profiles\":[{\"type\":\"evented\",\"name\":"));
	assert_non_null(strstr(a, "\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":20000,"
				  "\"events\":[{\"type\":\"O\",\"at\":0,\"frame\":0},"));
	assert_int_equal(a[strlen(a) - 1], '\n');
	free(a);
	free(b);
}

static void test_overlap_is_clamped(void **state)
{
	struct fx *f = *state;
	struct pr_speedscope_stats s;
	json_t *doc, *p;
	ingest_named(f, "overlap.json",
		     "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 0, "
		     "\"dur\": 10},\n"
		     " {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 5, "
		     "\"dur\": 10},\n"
		     " {\"ph\": \"X\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": 6, "
		     "\"dur\": 2},\n"
		     " {\"ph\": \"X\", \"name\": \"d\", \"pid\": 1, \"tid\": 1, \"ts\": 9, "
		     "\"dur\": 3},\n"
		     " {\"ph\": \"X\", \"name\": \"e\", \"pid\": 1, \"tid\": 1, \"ts\": 12, "
		     "\"dur\": 1}]\n",
		     "chrome");
	doc = export_json(f->st, NULL, &s, NULL);
	assert_well_formed(doc);
	p = profile(doc, 0);
	/* b ends after a: clamped to a's end; d (inside b) then to b's clamped end */
	assert_string_equal(events_str(doc, p),
			    "O a 0,O b 5000,O c 6000,C c 8000,O d 9000,"
			    "C d 10000,C b 10000,C a 10000,O e 12000,C e 13000");
	assert_int_equal(s.clamped, 2);
	assert_int_equal(pint(p, "endValue"), 15000); /* the latest span end */
	json_decref(doc);
}

static void test_async_lanes(void **state)
{
	struct fx *f = *state;
	struct pr_speedscope_stats s;
	json_t *doc, *p;
	ingest_named(f, "async.json",
		     "[{\"ph\": \"b\", \"name\": \"r1\", \"cat\": \"req\", \"id\": 1, \"pid\": 1, "
		     "\"tid\": 1, "
		     "\"ts\": 0},\n"
		     " {\"ph\": \"b\", \"name\": \"r2\", \"cat\": \"req\", \"id\": 2, \"pid\": 1, "
		     "\"tid\": 1, "
		     "\"ts\": 5},\n"
		     " {\"ph\": \"e\", \"name\": \"r1\", \"cat\": \"req\", \"id\": 1, \"pid\": 1, "
		     "\"tid\": 1, "
		     "\"ts\": 10},\n"
		     " {\"ph\": \"b\", \"name\": \"r3\", \"cat\": \"req\", \"id\": 3, \"pid\": 1, "
		     "\"tid\": 1, "
		     "\"ts\": 11},\n"
		     " {\"ph\": \"e\", \"name\": \"r3\", \"cat\": \"req\", \"id\": 3, \"pid\": 1, "
		     "\"tid\": 1, "
		     "\"ts\": 12},\n"
		     " {\"ph\": \"e\", \"name\": \"r2\", \"cat\": \"req\", \"id\": 2, \"pid\": 1, "
		     "\"tid\": 1, "
		     "\"ts\": 15}]\n",
		     "chrome");
	assert_int_equal(qi(f->st, "SELECT count(*) FROM track WHERE kind = 'async'", NULL), 1);
	doc = export_json(f->st, NULL, &s, NULL);
	assert_well_formed(doc);
	assert_int_equal(json_array_size(json_object_get(doc, "profiles")), 2);
	p = profile(doc, 0);
	assert_string_equal(pstr(p, "name"), "async.json / pid 1 / req");
	assert_string_equal(events_str(doc, p), "O r1 0,C r1 10000,O r3 11000,C r3 12000");
	assert_int_equal(pint(p, "startValue"), 0);
	assert_int_equal(pint(p, "endValue"), 12000);
	p = profile(doc, 1);
	assert_string_equal(pstr(p, "name"), "async.json / pid 1 / req (lane 2)");
	assert_string_equal(events_str(doc, p), "O r2 5000,C r2 15000");
	assert_int_equal(pint(p, "startValue"), 5000);
	assert_int_equal(pint(p, "endValue"), 15000);
	assert_int_equal(s.extra_lanes, 1);
	assert_int_equal(s.clamped, 0);
	json_decref(doc);
}

#define MEM(ts, alloc, tid)                                                                        \
	"{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": " #tid         \
	", \"ts\": " #ts ", \"args\": {\"Total Allocated\": " #alloc                               \
	", \"Total Reserved\": 4096, "                                                             \
	"\"Device Id\": 0, \"Device Type\": 1}}"

static void test_memory_growth_weights(void **state)
{
	struct fx *f = *state;
	struct pr_speedscope_stats s;
	json_t *doc, *p;
	ingest_named(f, "mem.json",
		     "[{\"ph\": \"X\", \"name\": \"step\", \"pid\": 1, \"tid\": 1, \"ts\": 0, "
		     "\"dur\": 100},\n"
		     " {\"ph\": \"X\", \"name\": \"op1\", \"pid\": 1, \"tid\": 1, \"ts\": 10, "
		     "\"dur\": 10},\n"
		     " {\"ph\": \"X\", \"name\": \"bg\", \"pid\": 1, \"tid\": 2, \"ts\": 55, "
		     "\"dur\": 15},\n" MEM(5, 1000, 1) ",\n" MEM(15, 1500, 1) ",\n" MEM(
			     20, 1700, 1) ",\n" MEM(50, 1200, 1) ",\n" MEM(60, 2200,
									   2) ",\n" MEM(200, 2300,
											1) "]\n",
		     "chrome");
	doc = export_json(f->st, NULL, &s, NULL);
	assert_well_formed(doc);
	/* two evented profiles, then the allocated series; reserved never grows */
	assert_int_equal(s.evented, 2);
	assert_int_equal(s.sampled, 1);
	assert_int_equal(s.flat_series, 1);
	p = profile(doc, 2);
	assert_string_equal(pstr(p, "type"), "sampled");
	assert_string_equal(pstr(p, "name"), "mem.json / dev.mem.allocated cuda:0 growth");
	assert_string_equal(pstr(p, "unit"), "bytes");
	/* the first sample is the baseline; the drop at 50 is left out; at 60 the
	 * most recently entered span is bg on thread 2; at 20 op1 ends (still open);
	 * at 200 nothing is open */
	assert_string_equal(samples_str(doc, p), "step>op1 500,step>op1 200,bg 1000,"
						 "[no span] dev.mem.allocated 100");
	assert_int_equal(pint(p, "startValue"), 0);
	assert_int_equal(pint(p, "endValue"), 1800);
	assert_int_equal(s.samples, 4);
	json_decref(doc);
}

static void test_frames_with_file_and_line(void **state)
{
	struct fx *f = *state;
	json_t *doc, *frames, *fr;
	ingest_named(
		f, "in.speedscope.json",
		"{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\",\n"
		" \"shared\": {\"frames\": [{\"name\": \"f\", \"file\": \"a.py\", \"line\": 1},\n"
		"  {\"name\": \"f\", \"file\": \"b.py\", \"line\": 2, \"col\": 7}, {\"name\": "
		"\"g\"}]},\n"
		" \"profiles\": [{\"type\": \"evented\", \"name\": \"t\", \"unit\": "
		"\"nanoseconds\", \"startValue\": 0, \"endValue\": 10, \"events\": [\n"
		"  {\"type\": \"O\", \"frame\": 0, \"at\": 0}, {\"type\": \"C\", \"frame\": 0, "
		"\"at\": 2},\n"
		"  {\"type\": \"O\", \"frame\": 1, \"at\": 3}, {\"type\": \"O\", \"frame\": 2, "
		"\"at\": 4},\n"
		"  {\"type\": \"C\", \"frame\": 2, \"at\": 5}, {\"type\": \"C\", \"frame\": 1, "
		"\"at\": 6},\n"
		"  {\"type\": \"O\", \"frame\": 0, \"at\": 7}, {\"type\": \"C\", \"frame\": 0, "
		"\"at\": 8}]}]}\n",
		"speedscope");
	doc = export_json(f->st, NULL, NULL, NULL);
	assert_well_formed(doc);
	frames = json_object_get(json_object_get(doc, "shared"), "frames");
	assert_int_equal(json_array_size(frames), 3); /* f@a.py twice is one frame */
	fr = json_array_get(frames, 0);
	assert_string_equal(pstr(fr, "name"), "f");
	assert_string_equal(pstr(fr, "file"), "a.py");
	assert_int_equal(pint(fr, "line"), 1);
	assert_null(json_object_get(fr, "col"));
	fr = json_array_get(frames, 1);
	assert_string_equal(pstr(fr, "file"), "b.py");
	assert_int_equal(pint(fr, "line"), 2);
	assert_int_equal(pint(fr, "col"), 7);
	fr = json_array_get(frames, 2);
	assert_string_equal(pstr(fr, "name"), "g");
	assert_int_equal(json_object_size(fr), 1);
	json_decref(doc);
}

static void test_epoch_times_are_shifted(void **state)
{
	struct fx *f = *state;
	json_t *doc, *p;
	ingest_named(f, "epoch.json",
		     "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": "
		     "1700000000000000.5, \"dur\": 10},\n"
		     " {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": "
		     "1700000000000002, \"dur\": 1}]\n",
		     "chrome");
	assert_true(qi(f->st, "SELECT ts_min FROM run", NULL) > ((int64_t)1 << 53));
	doc = export_json(f->st, NULL, NULL, NULL);
	assert_well_formed(doc);
	p = profile(doc, 0);
	assert_string_equal(events_str(doc, p), "O a 0,O b 1500,C b 2500,C a 10000");
	assert_int_equal(pint(p, "startValue"), 0);
	assert_int_equal(pint(p, "endValue"), 10000);
	json_decref(doc);
}

static void test_run_filter_and_errors(void **state)
{
	struct fx *f = *state;
	struct pr_speedscope_opts o = PR_SPEEDSCOPE_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_speedscope_stats s;
	json_t *doc;
	FILE *null = fopen("/dev/null", "w");

	ingest_named(f, "trace.json", NESTED, "chrome");
	ingest_named(f, "counters.json",
		     "[{\"ph\": \"C\", \"name\": \"load\", \"pid\": 1, \"ts\": 0, \"args\": "
		     "{\"cpu\": 5}}]\n",
		     "chrome");
	o.run_id = 1;
	doc = export_json(f->st, &o, &s, NULL);
	assert_int_equal(s.profiles, 2);
	json_decref(doc);

	/* a run without spans or memory series: nothing to export */
	o.run_id = 2;
	assert_int_equal(pr_speedscope_write(f->st, null, &o, &s, &err), -1);
	assert_int_equal(err.code, PR_E_USAGE);
	assert_non_null(strstr(err.text, "nothing to export"));

	o.run_id = 99;
	pr_error_init(&err);
	assert_int_equal(pr_speedscope_write(f->st, null, &o, &s, &err), -1);
	assert_int_equal(err.code, PR_E_USAGE);
	assert_string_equal(err.text, "no run 99 in the store");
	fclose(null);
}

static void test_export_is_atomic(void **state)
{
	struct fx *f = *state;
	struct pr_speedscope_opts o = PR_SPEEDSCOPE_OPTS_INIT;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_speedscope_stats s;
	char path[700], buf[64] = "";
	FILE *fp;
	DIR *d;
	struct dirent *de;
	int entries = 0;

	ingest_named(f, "trace.json", NESTED, "chrome");
	snprintf(path, sizeof(path), "%s", fx_path(f, "out.speedscope.json"));
	fp = fopen(path, "w");
	fputs("old", fp);
	fclose(fp);
	pr_strbuf_add(&f->files, path, strlen(path) + 1);

	/* a failed export leaves the old file and no temporary file */
	o.run_id = 42;
	assert_int_equal(pr_speedscope_export(f->st, path, &o, &s, &err), -1);
	fp = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "old");
	d = opendir(f->dir);
	while ((de = readdir(d)))
		entries += de->d_name[0] != '.' ||
			   (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."));
	closedir(d);
	assert_int_equal(entries, 2); /* trace.json, out.speedscope.json */

	o.run_id = 0;
	assert_int_equal(pr_speedscope_export(f->st, path, &o, &s, &err), 0);
	fp = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_memory_equal(buf, "{\"$schema\":", 11);

	pr_error_init(&err);
	assert_int_equal(pr_speedscope_export(f->st, "/nonexistent-dir/x.json", &o, &s, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	assert_string_equal(err.source, "/nonexistent-dir/x.json");
}

/* The file reads back through profreport's own speedscope reader, span for span. */
static void test_round_trip(void **state)
{
	struct fx *f = *state;
	struct pr_store *back = open_store();
	struct pr_error err = PR_ERROR_INIT;
	char path[700];

	ingest_named(f, "trace.json", NESTED, "chrome");
	snprintf(path, sizeof(path), "%s", fx_path(f, "rt.speedscope.json"));
	assert_int_equal(pr_speedscope_export(f->st, path, NULL, NULL, &err), 0);
	pr_strbuf_add(&f->files, path, strlen(path) + 1);
	ingest_ok(back, path, "speedscope");
	assert_int_equal(qi(back, "SELECT count(*) FROM diag", NULL), 0);
	assert_int_equal(qi(back, "SELECT count(*) FROM span", NULL),
			 qi(f->st, "SELECT count(*) FROM span", NULL));
	db_assert_rows(pr_store_db(back),
		       "SELECT t.name, s.name, s.ts, s.dur, s.depth FROM span_v s "
		       "JOIN track t ON t.id = s.track_id ORDER BY t.id, s.ts, s.depth",
		       '|',
		       "trace.json / proc / main|a|0|10000|0\n"
		       "trace.json / proc / main|b|1000|3000|1\n"
		       "trace.json / proc / main|a|5000|2000|1\n"
		       "trace.json / proc / main|c|20000|0|0\n"
		       "trace.json / proc / 2|b|2000|4000|0\n"
		       "trace.json / proc / 2|d|3000|1000|1\n");
	pr_store_close(back);
}

/* Random spans, overlapping or not, on threads and async tracks: the output
 * stays balanced and ordered and keeps every span. */
static void test_random_spans_stay_well_formed(void **state)
{
	struct fx *f = *state;
	struct pr_strbuf t = PR_STRBUF_INIT;
	struct pr_speedscope_stats s;
	uint32_t x = 12345;
	json_t *doc, *p;
	size_t i, j, opens = 0;
	int k;

	pr_strbuf_addstr(&t, "[");
	for (k = 0; k < 400; k++) {
		unsigned ts, dur, tid;
		x = x * 1103515245u + 12345u;
		ts = (x >> 8) % 1000;
		x = x * 1103515245u + 12345u;
		dur = (x >> 8) % 5 == 0 ? 0 : (x >> 12) % 200;
		tid = (x >> 20) % 4;
		if (tid < 3)
			pr_strbuf_addf(&t,
				       "%s{\"ph\": \"X\", \"name\": \"s%u\", \"pid\": 1, "
				       "\"tid\": %u, \"ts\": %u, \"dur\": %u}",
				       k ? ",\n" : "", ts % 17, tid, ts, dur);
		else /* async slices with their own ids overlap freely */
			pr_strbuf_addf(&t,
				       "%s{\"ph\": \"b\", \"name\": \"a%u\", \"cat\": \"c\", "
				       "\"id\": %d, \"pid\": 1, \"tid\": 1, \"ts\": %u},\n"
				       "{\"ph\": \"e\", \"name\": \"a%u\", \"cat\": \"c\", "
				       "\"id\": %d, \"pid\": 1, \"tid\": 1, \"ts\": %u}",
				       k ? ",\n" : "", ts % 5, k, ts, ts % 5, k, ts + dur);
	}
	pr_strbuf_addstr(&t, "]\n");
	ingest_named(f, "random.json", t.buf, "chrome");
	pr_strbuf_release(&t);

	doc = export_json(f->st, NULL, &s, NULL);
	assert_well_formed(doc);
	json_array_foreach (json_object_get(doc, "profiles"), i, p) {
		json_t *e;
		json_array_foreach (json_object_get(p, "events"), j, e) {
			opens += !strcmp(pstr(e, "type"), "O");
		}
	}
	assert_int_equal(opens, qi(f->st, "SELECT count(*) FROM span", NULL));
	assert_true(s.clamped > 0);
	assert_true(s.extra_lanes > 0);
	json_decref(doc);
}

static void test_memory_series_predicate(void **state)
{
	(void)state;
	assert_true(pr_spanwalk_is_memory_series("dev.mem.allocated", "bytes"));
	assert_true(pr_spanwalk_is_memory_series("dev.mem.category.activation", "bytes"));
	assert_true(pr_spanwalk_is_memory_series("dev.mem.total", "bytes"));
	assert_true(pr_spanwalk_is_memory_series("mem.rss", "bytes"));
	assert_true(pr_spanwalk_is_memory_series("heap.used", "bytes"));
	assert_true(pr_spanwalk_is_memory_series("gpu.mem.used", "bytes"));
	assert_false(pr_spanwalk_is_memory_series("gpu.mem.used", "percent"));
	assert_false(pr_spanwalk_is_memory_series("gpu.mem.total", "bytes"));
	assert_false(pr_spanwalk_is_memory_series("sys.mem.free", "bytes"));
	assert_false(pr_spanwalk_is_memory_series("sys.mem.available", "bytes"));
	assert_false(pr_spanwalk_is_memory_series("disk.read", "bytes"));
	assert_false(pr_spanwalk_is_memory_series("net_sent_bytes", "bytes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_frames_dedup_order_and_nesting, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_key_order_and_determinism, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_overlap_is_clamped, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_async_lanes, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_memory_growth_weights, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_frames_with_file_and_line, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_epoch_times_are_shifted, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_run_filter_and_errors, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_export_is_atomic, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_random_spans_stay_well_formed, fx_setup,
						fx_teardown),
		cmocka_unit_test(test_memory_series_predicate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
