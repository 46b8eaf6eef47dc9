/* test_chrome.c - ingest/fmt_chrome through pr_ingest_file: traces in, rows out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>
#include <zlib.h>

#include "ingest/ingest.h"
#include "base/strbuf.h"
#include "tests/unit/helpers.h"

#define q1(f, sql) db_int((f)->db, (sql))
#define rows(f, sql, out) db_rows((f)->db, (sql), '|', (out))
#define assert_rows(f, sql, want) db_assert_rows((f)->db, (sql), '|', (want))

struct fx {
	char dir[512];
	char path[600];
	struct pr_store *st;
	sqlite3 *db;
	struct pr_strbuf files; /* NUL-separated paths to remove */
};

static int fx_setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	const char *tmp = getenv("TMPDIR");
	struct pr_error err = PR_ERROR_INIT;
	snprintf(f->dir, sizeof(f->dir), "%s/pr-test-chrome-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/store.db", f->dir);
	if (pr_store_open(&f->st, f->path, PR_STORE_CREATE, &err)) {
		print_error("pr_store_open: %s\n", err.text);
		return -1;
	}
	f->db = pr_store_db(f->st);
	pr_strbuf_init(&f->files);
	*state = f;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *f = *state;
	char p[700];
	size_t i = 0;
	pr_store_close(f->st);
	while (i < f->files.len) {
		unlink(f->files.buf + i);
		i += strlen(f->files.buf + i) + 1;
	}
	pr_strbuf_release(&f->files);
	unlink(f->path);
	snprintf(p, sizeof(p), "%s-journal", f->path);
	unlink(p);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* Writes a file in the fixture's folder; returns its path (static buffer). */
static const char *write_file(struct fx *f, const char *name, const char *text, size_t n)
{
	static char path[700];
	FILE *fp;
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
	pr_strbuf_add(&f->files, path, strlen(path) + 1);
	return path;
}

static const char *write_gzip(struct fx *f, const char *name, const char *text, size_t n)
{
	static char path[700];
	gzFile gz;
	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, text, (unsigned)n), (int)n);
	assert_int_equal(gzclose(gz), Z_OK);
	pr_strbuf_add(&f->files, path, strlen(path) + 1);
	return path;
}

/* Ingests text as file `name`; returns pr_ingest_file's result. */
static int ch_ingest_text(struct fx *f, const char *name, const char *text, size_t n,
			  const char *format, struct pr_ingest_result *res, struct pr_error *err)
{
	const char *path = write_file(f, name, text, n);
	pr_error_init(err);
	return pr_ingest_file(f->st, path, format, res, err);
}

/* Ingests text that must load; returns the run id. */
static int64_t ch_ingest_ok(struct fx *f, const char *name, const char *text)
{
	struct pr_ingest_result res;
	struct pr_error err;
	if (ch_ingest_text(f, name, text, strlen(text), NULL, &res, &err)) {
		print_error("%s: %s (line %ld col %ld)\n", name, err.text, err.line, err.column);
		fail();
	}
	assert_string_equal(res.format, "chrome");
	assert_int_equal(res.duplicate, 0);
	return res.run_id;
}

static int64_t ch_diag_count(struct fx *f, int64_t run, const char *code)
{
	char sql[200];
	snprintf(sql, sizeof(sql),
		 "SELECT ifnull(sum(count), 0) FROM diag WHERE run_id = %lld AND code = '%s'",
		 (long long)run, code);
	return q1(f, sql);
}

/* ---- object form, metadata, kinds, exact times ---- */

static const char torch_trace[] =
	"{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"H100\"}],\n"
	" \"baseTimeNanoseconds\": 1700000000000000000,\n"
	" \"traceEvents\": [\n"
	"  {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"python\"}},\n"
	"  {\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 7,"
	" \"args\": {\"name\": \"main\"}},\n"
	"  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#3\", \"pid\": 1,"
	" \"tid\": 7, \"ts\": 1669329643132548.123, \"dur\": 100},\n"
	"  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"forward\", \"pid\": 1,"
	" \"tid\": 7, \"ts\": 1669329643132548.125, \"dur\": 50.5},\n"
	"  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 7,"
	" \"ts\": \"1669329643132558.5\", \"dur\": 10,"
	" \"args\": {\"Input Dims\": [[2, 3], [3, 4]], \"External id\": 5}},\n"
	"  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": \"stream 7\","
	" \"ts\": 1669329643132560, \"dur\": 3},\n"
	"  {\"ph\": \"X\", \"name\": \"tagged\", \"pid\": \"host-a:12\", \"tid\": \"worker 3\","
	" \"ts\": 1669329643132700, \"dur\": 1e0}\n"
	" ],\n"
	" \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 8},\n"
	" \"traceName\": \"t.json\"\n"
	"}\n";

static void test_object_form(void **state)
{
	struct fx *f = *state;
	int64_t run = ch_ingest_ok(f, "trace.json", torch_trace);
	assert_int_equal(run, 1);
	/* distributedInfo comes after the event array and still counts. */
	assert_rows(f,
		    "SELECT format, collector, rank, world_size, time_origin_ns, span_count, "
		    "json_extract(meta, '$.traceName'), json_extract(meta, '$.schemaVersion'), "
		    "json_extract(meta, '$.distributedInfo.backend'), "
		    "json_extract(meta, '$.deviceProperties[0].name') FROM run",
		    "chrome|torch.profiler|3|8|1700000000000000000|5|t.json|1|nccl|H100\n");
	/* Exact nanoseconds from microsecond text; kinds from cat and name. */
	assert_rows(f,
		    "SELECT a.kind, a.name, a.ts, a.dur, a.depth, ifnull(b.name, '-'), a.self "
		    "FROM span_v a LEFT JOIN span_v b ON b.id = a.parent_id ORDER BY a.ts",
		    "step|ProfilerStep#3|1669329643132548123|100000|0|-|49500\n"
		    "phase|forward|1669329643132548125|50500|1|ProfilerStep#3|40500\n"
		    "op|aten::mm|1669329643132558500|10000|2|forward|10000\n"
		    "kernel|gemm|1669329643132560000|3000|0|-|3000\n"
		    "slice|tagged|1669329643132700000|1000|0|-|1000\n");
	assert_int_equal(q1(f, "SELECT json_extract(args, '$.\"External id\"') FROM span_v "
			       "WHERE name = 'aten::mm'"),
			 5);
	assert_int_equal(q1(f, "SELECT json_extract(args, '$.\"Input Dims\"[1][1]') FROM span_v "
			       "WHERE name = 'aten::mm'"),
			 4);
	assert_rows(f, "SELECT cat FROM span_v WHERE name = 'aten::mm'", "cpu_op\n");
	/* String and numeric pid/tid are kept as text; names from M events. */
	assert_rows(
		f,
		"SELECT kind, pid, tid, ifnull(name, '-'), ifnull(process_name, '-') FROM track "
		"ORDER BY pid, tid",
		"gpu_stream|0|stream 7|-|-\n"
		"thread|1|7|main|python\n"
		"thread|host-a:12|worker 3|-|-\n");
	assert_int_equal(q1(f, "SELECT count(*) FROM diag"), 0);
}

/* ---- memory, counters, async slices, flows ---- */

static const char series_trace[] =
	"[\n"
	"{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":10,\"args\":"
	"{\"Device Type\":1,\"Device Id\":0,\"Addr\":1,\"Bytes\":1024,\"Total Allocated\":1024,"
	"\"Total Reserved\":2097152}},\n"
	"{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":20,\"args\":"
	"{\"Device Type\":1,\"Device Id\":0,\"Bytes\":-512,\"Total Allocated\":512,"
	"\"Total Reserved\":2097152}},\n"
	"{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":30,\"args\":"
	"{\"Device Type\":0,\"Device Id\":-1,\"Bytes\":64,\"Total Allocated\":64,"
	"\"Total Reserved\":0}},\n"
	"{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":40,\"args\":"
	"{\"Device Type\":1,\"Device Id\":1,\"Total Allocated\":7,\"Total Reserved\":8}},\n"
	"{\"ph\":\"C\",\"name\":\"ctr\",\"pid\":1,\"ts\":5,\"args\":{\"cats\":3,\"dogs\":4.5}},\n"
	"{\"ph\":\"C\",\"name\":\"ctr\",\"pid\":1,\"ts\":6,\"id\":7,\"args\":{\"cats\":1}},\n"
	"{\"ph\":\"b\",\"cat\":\"rq\",\"name\":\"req\",\"id\":\"0x1\",\"pid\":1,\"tid\":1,\"ts\":0},\n"
	"{\"ph\":\"b\",\"cat\":\"rq\",\"name\":\"req\",\"id\":\"0x2\",\"pid\":1,\"tid\":1,\"ts\":5},\n"
	"{\"ph\":\"e\",\"cat\":\"rq\",\"name\":\"req\",\"id\":\"0x1\",\"pid\":1,\"tid\":1,\"ts\":10},\n"
	"{\"ph\":\"e\",\"cat\":\"rq\",\"name\":\"req\",\"id\":\"0x2\",\"pid\":1,\"tid\":1,\"ts\":30},\n"
	"{\"ph\":\"s\",\"id\":42,\"pid\":1,\"tid\":1,\"ts\":1,\"name\":\"fl\",\"cat\":\"ac2g\"},\n"
	"{\"ph\":\"f\",\"id\":42,\"bp\":\"e\",\"pid\":1,\"tid\":2,\"ts\":2,\"name\":\"fl\","
	"\"cat\":\"ac2g\"}\n"
	"]\n";

static void check_series_run(struct fx *f, int64_t run)
{
	char sql[600];
	struct pr_strbuf got = PR_STRBUF_INIT;
	snprintf(sql, sizeof(sql),
		 "SELECT name, device, unit, count, min, max, ts_min, ts_max FROM series "
		 "WHERE run_id = %lld ORDER BY name, device",
		 (long long)run);
	rows(f, sql, &got);
	assert_string_equal(got.buf,
			    "ctr cats|pid 1||1|3.0|3.0|5000|5000\n"
			    "ctr dogs|pid 1||1|4.5|4.5|5000|5000\n"
			    "ctr id: 7 cats|pid 1||1|1.0|1.0|6000|6000\n"
			    "dev.mem.allocated|cpu|bytes|1|64.0|64.0|30000|30000\n"
			    "dev.mem.allocated|cuda:0|bytes|2|512.0|1024.0|10000|20000\n"
			    "dev.mem.allocated|cuda:1|bytes|1|7.0|7.0|40000|40000\n"
			    "dev.mem.reserved|cpu|bytes|1|0.0|0.0|30000|30000\n"
			    "dev.mem.reserved|cuda:0|bytes|2|2097152.0|2097152.0|10000|20000\n"
			    "dev.mem.reserved|cuda:1|bytes|1|8.0|8.0|40000|40000\n");
	pr_strbuf_release(&got);
}

static void test_memory_counters_async_flows(void **state)
{
	struct fx *f = *state;
	int64_t run = ch_ingest_ok(f, "series.json", series_trace);
	/* C events with an id keep it in the series name. */
	assert_rows(f, "SELECT name, ts, value FROM sample_v WHERE name LIKE 'ctr%' ORDER BY ts",
		    "ctr cats|5000|3.0\nctr dogs|5000|4.5\nctr id: 7 cats|6000|1.0\n");
	/* [memory]: one allocated and one reserved series per device. */
	check_series_run(f, run);
	assert_rows(f,
		    "SELECT ts, value FROM sample_v WHERE name = 'dev.mem.allocated' "
		    "AND device = 'cuda:0' ORDER BY ts",
		    "10000|1024.0\n20000|512.0\n");
	/* The [memory] events are also kept as instants. */
	assert_int_equal(q1(f, "SELECT count(*) FROM instant_v WHERE name = '[memory]'"), 4);
	/* b/e: overlapping async slices on one async track, stored flat. */
	assert_rows(
		f,
		"SELECT t.kind, t.pid, t.tid, s.kind, n.value, s.ts, s.dur, ifnull(s.depth, '-'), "
		"ifnull(s.parent_id, '-') FROM span s JOIN track t ON t.id = s.track_id "
		"JOIN string n ON n.id = s.name_id ORDER BY s.ts",
		"async|1|rq|async|req|0|10000|-|-\n"
		"async|1|rq|async|req|5000|25000|-|-\n");
	/* s/f flows with their id, phase, thread and binding point. */
	assert_rows(f,
		    "SELECT fl.flow_id, fl.phase, fl.ts, t.tid, ifnull(fl.bind, '-') FROM flow fl "
		    "JOIN track t ON t.id = fl.track_id ORDER BY fl.ts",
		    "42|s|1000|1|-\n42|f|2000|2|e\n");
	assert_int_equal(q1(f, "SELECT count(*) FROM diag"), 0);
	assert_int_equal(run, 1);
}

/* ---- every vintage of Kineto output (issue 13) ---- */

/* PyTorch 1.8-1.10 wrote capitalized categories (the TensorBoard plugin lowercases them);
 * every one of them gives today's span kind, and GPU activity a gpu_stream track. */
static void test_legacy_categories(void **state)
{
	static const char text[] =
		"[\n"
		"{\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 100},\n"
		"{\"ph\": \"X\", \"cat\": \"Operator\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 20},\n"
		"{\"ph\": \"X\", \"cat\": \"Runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 2, \"dur\": 5},\n"
		"{\"ph\": \"X\", \"cat\": \"Python\", \"name\": \"train.py(3): step\", \"pid\": 1, \"tid\": 2, \"ts\": 0, \"dur\": 9},\n"
		"{\"ph\": \"X\", \"cat\": \"Kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": \"stream 7\", \"ts\": 10, \"dur\": 4},\n"
		"{\"ph\": \"X\", \"cat\": \"Memcpy\", \"name\": \"Memcpy HtoD\", \"pid\": 0, \"tid\": \"stream 8\", \"ts\": 10, \"dur\": 2},\n"
		"{\"ph\": \"X\", \"cat\": \"Memset\", \"name\": \"Memset (Device)\", \"pid\": 0, \"tid\": \"stream 9\", \"ts\": 10, \"dur\": 1},\n"
		"{\"ph\": \"X\", \"cat\": \"USER_ANNOTATION\", \"name\": \"fwd\", \"pid\": 1, \"tid\": 3, \"ts\": 0, \"dur\": 9},\n"
		"{\"ph\": \"X\", \"cat\": \"Other\", \"name\": \"x\", \"pid\": 1, \"tid\": 3, \"ts\": 20, \"dur\": 1}\n"
		"]\n";
	struct fx *f = *state;
	ch_ingest_ok(f, "legacy.json", text);
	assert_rows(
		f,
		"SELECT n.value, s.kind, t.kind FROM span s JOIN string n ON n.id = s.name_id "
		"JOIN track t ON t.id = s.track_id ORDER BY s.id",
		"ProfilerStep#1|step|thread\naten::mm|op|thread\ncudaLaunchKernel|runtime|thread\n"
		"train.py(3): step|python|thread\ngemm|kernel|gpu_stream\n"
		"Memcpy HtoD|memcpy|gpu_stream\nMemset (Device)|memset|gpu_stream\n"
		"fwd|phase|thread\nx|slice|thread\n");
	assert_rows(f, "SELECT collector, json_extract(meta, '$.device_type') FROM run",
		    "torch.profiler|cuda\n");
}

/* Other accelerators: device activity on device tracks, the device type in run.meta. */
static void test_device_types(void **state)
{
	static const char rocm[] =
		"{\"deviceProperties\": [{\"id\": 0, \"name\": \"AMD Instinct MI250X\"}], \"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"hipLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 5},\n"
		"{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"Cijk_Alik\", \"pid\": 2, \"tid\": 0, \"ts\": 6, \"dur\": 5}]}\n";
	static const char mtia[] =
		"[{\"ph\": \"X\", \"cat\": \"mtia_runtime\", \"name\": \"launchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 5},\n"
		"{\"ph\": \"X\", \"cat\": \"mtia_ccp_events\", \"name\": \"fba_mul\", \"pid\": 3, \"tid\": 1, \"ts\": 6, \"dur\": 5}]\n";
	static const char range[] =
		"[{\"ph\": \"X\", \"cat\": \"cuda_profiler_range\", \"name\": \"fft2d_r2c\", \"pid\": 0, \"tid\": 1, \"ts\": 6, \"dur\": 5}]\n";
	static const char cpu_only[] =
		"[{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 5},\n"
		"{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaGetDevice\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}]\n";
	struct fx *f = *state;
	ch_ingest_ok(f, "rocm.json", rocm);
	ch_ingest_ok(f, "mtia.json", mtia);
	ch_ingest_ok(f, "range.json", range);
	ch_ingest_ok(f, "cpu.json", cpu_only);
	assert_rows(
		f,
		"SELECT id, ifnull(json_extract(meta, '$.device_type'), '-') FROM run ORDER BY id",
		"1|rocm\n2|mtia\n3|cuda\n4|-\n");
	assert_rows(f,
		    "SELECT s.run_id, s.kind, t.kind FROM span s JOIN track t ON t.id = s.track_id "
		    "WHERE s.kind NOT IN ('runtime', 'op') ORDER BY s.run_id",
		    "1|kernel|gpu_stream\n2|kernel|gpu_stream\n3|profiler_range|thread\n");
}

/* The profiler's window: kind profiler on a profiler track, outside the run's extent. */
static void test_profiler_window(void **state)
{
	static const char text[] =
		"{\"baseTimeNanoseconds\": 1000000000, \"traceEvents\": [\n"
		"{\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": 100, \"dur\": 900, \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\","
		" \"name\": \"PyTorch Profiler (0)\", \"args\": {\"Op count\": 0}},\n"
		"{\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\", \"pid\": \"Traces\","
		" \"tid\": \"Trace PyTorch Profiler\", \"ts\": 100},\n"
		"{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"pid\": 1, \"tid\": 1, \"ts\": 300, \"dur\": 50},\n"
		"{\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": 310, \"dur\": 10, \"pid\": \"Spans\", \"tid\": \"__cupti_profiler__\","
		" \"name\": \"__cupti_profiler__ (0)\"},\n"
		"{\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"not a window\", \"pid\": 1, \"tid\": 2, \"ts\": 320, \"dur\": 5},\n"
		/* a window named on a workload thread: its own track, the thread's spans still count */
		"{\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"PyTorch Profiler (1)\", \"pid\": 1, \"tid\": 1, \"ts\": 50, \"dur\": 500},\n"
		"{\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", \"pid\": \"\", \"tid\": \"\", \"ts\": 400}\n"
		"]}\n";
	struct fx *f = *state;
	ch_ingest_ok(f, "window.json", text);
	/* start: the first workload event (300 us), not the window's 100 us */
	assert_rows(f, "SELECT ts_min, ts_max FROM run", "300000|400000\n");
	assert_rows(f,
		    "SELECT n.value, s.kind, t.kind FROM span s JOIN string n ON n.id = s.name_id "
		    "JOIN track t ON t.id = s.track_id ORDER BY s.id",
		    "PyTorch Profiler (0)|profiler|profiler\naten::add|op|thread\n"
		    "__cupti_profiler__ (0)|profiler|profiler\nnot a window|slice|thread\n"
		    "PyTorch Profiler (1)|profiler|profiler\n");
	assert_rows(f,
		    "SELECT i.name, t.kind, i.scope FROM instant_v i JOIN instant r ON r.id = i.id "
		    "JOIN track t ON t.id = r.track_id ORDER BY i.ts",
		    "Iteration Start: PyTorch Profiler|profiler|g\nRecord Window End|global|g\n");
}

/* [memory] events with only Bytes (PyTorch 1.8-1.10): the allocated series is their running
 * total in time order, raised so that it never goes below 0, with a diagnostic. */
static void test_memory_bytes_only(void **state)
{
	static const char text[] =
		"[\n"
		/* file order is not time order: ts 3 comes first */
		"{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 3,"
		" \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Bytes\": -300, \"Addr\": 1}},\n"
		"{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 1,"
		" \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Bytes\": 100, \"Addr\": 2}},\n"
		"{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 2,"
		" \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Bytes\": 50, \"Addr\": 3}},\n"
		"{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 4,"
		" \"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Bytes\": 1000, \"Addr\": 4}},\n"
		"{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 1,"
		" \"args\": {\"Device Type\": 0, \"Device Id\": -1, \"Bytes\": 64}},\n"
		/* a device whose events carry the total keeps it */
		"{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": 1, \"tid\": 1, \"ts\": 5,"
		" \"args\": {\"Device Type\": 1, \"Device Id\": 1, \"Bytes\": 8, \"Total Allocated\": 4096}}\n"
		"]\n";
	struct fx *f = *state;
	int64_t run = ch_ingest_ok(f, "bytes.json", text);
	/* cuda:0 in time order: +100, +50, -300, +1000; cumulative 100, 150, -150, 850;
	 * the least start keeping it >= 0 is 150: 250, 300, 0, 1000 */
	assert_rows(f,
		    "SELECT device, ts, value FROM sample_v WHERE name = 'dev.mem.allocated' "
		    "ORDER BY device, ts",
		    "cpu|1000|64.0\ncuda:0|1000|250.0\ncuda:0|2000|300.0\ncuda:0|3000|0.0\n"
		    "cuda:0|4000|1000.0\ncuda:1|5000|4096.0\n");
	assert_int_equal(ch_diag_count(f, run, "memory_reconstructed"), 2);
	assert_int_equal(q1(f, "SELECT instr(message, 'starting at 150 B') > 0 FROM diag "
			       "WHERE code = 'memory_reconstructed'"),
			 1);
}

/* Events without "name" are kept with an empty one, never with a dangling id. */
static void test_nameless_events(void **state)
{
	struct fx *f = *state;
	int64_t run = ch_ingest_ok(f, "nameless.json",
				   "[{\"ph\":\"b\",\"cat\":\"rq\",\"id\":1,\"pid\":1,\"ts\":0},"
				   "{\"ph\":\"n\",\"cat\":\"rq\",\"id\":1,\"pid\":1,\"ts\":3},"
				   "{\"ph\":\"e\",\"cat\":\"rq\",\"id\":1,\"pid\":1,\"ts\":5},"
				   "{\"ph\":\"b\",\"cat\":\"rq\",\"id\":2,\"pid\":1,\"ts\":6},"
				   "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":7,\"dur\":1},"
				   "{\"ph\":\"i\",\"pid\":1,\"tid\":1,\"ts\":8}]");
	assert_int_equal(q1(f, "SELECT count(*) FROM span WHERE name_id NOT IN "
			       "(SELECT id FROM string)"),
			 0);
	assert_int_equal(q1(f, "SELECT count(*) FROM instant WHERE name_id NOT IN "
			       "(SELECT id FROM string)"),
			 0);
	assert_rows(f, "SELECT kind, '[' || name || ']', ts, dur FROM span_v ORDER BY ts",
		    "async|[]|0|5000\n"
		    "async|[]|6000|0\n"
		    "slice|[]|7000|1000\n");
	assert_rows(f, "SELECT '[' || name || ']', ts, scope FROM instant_v ORDER BY ts",
		    "[]|3000|async\n[]|8000|t\n");
	assert_int_equal(ch_diag_count(f, run, "async_unclosed"), 1);
}

/* ---- leniency: truncation, trailing comma, bad strings ---- */

static const char three_events[] =
	"[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n"
	"{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1},\n"
	"{\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1,\"args\":"
	"{\"k\":[1,{\"a\":\"b\\u00e9\"}],\"z\":true,\"n\":null,\"x\":-1.5e3}}\n"
	"]\n";

/*
 * A file cut anywhere after the second event keeps the complete events and
 * says "truncated"; it never fails and never keeps a half event.
 */
static void test_truncated_at_every_byte(void **state)
{
	struct fx *f = *state;
	const char *second_end = strstr(three_events, "\"dur\":1},\n{\"ph\":\"X\",\"name\":\"c\"");
	const char *third_end = strstr(three_events, "-1.5e3}}") + 8;
	size_t from = (size_t)(second_end - three_events) + 8, to = strlen(three_events) - 1, k;
	char name[64];
	for (k = from; k < to; k++) {
		struct pr_ingest_result res;
		struct pr_error err;
		int64_t want = k < (size_t)(third_end - three_events) ? 2 : 3;
		snprintf(name, sizeof(name), "cut%zu.json", k);
		if (ch_ingest_text(f, name, three_events, k, "chrome", &res, &err) ||
		    res.stats.spans != want || ch_diag_count(f, res.run_id, "truncated") != 1)
			print_error(
				"cut at %zu ('%.10s'): rc %s, %lld spans, want %lld + truncated\n",
				k, three_events + k, err.text, (long long)res.stats.spans,
				(long long)want);
		assert_int_equal(err.code, PR_OK);
		assert_int_equal(res.stats.spans, want);
		assert_int_equal(ch_diag_count(f, res.run_id, "truncated"), 1);
	}
	/* The whole file: three events, nothing to say. */
	assert_int_equal(ch_ingest_ok(f, "whole.json", three_events), (int64_t)(to - from) + 1);
	assert_int_equal(q1(f,
			    "SELECT count(*) FROM diag WHERE run_id = (SELECT max(id) FROM run)"),
			 0);
	assert_rows(f,
		    "SELECT json_extract(args, '$.k[1].a'), json_extract(args, '$.x') FROM span_v "
		    "WHERE name = 'c' AND run_id = (SELECT max(id) FROM run)",
		    "b\xc3\xa9|-1500.0\n");
}

static void test_truncated_object_form(void **state)
{
	struct fx *f = *state;
	static const char text[] =
		"{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n"
		"{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur";
	struct pr_ingest_result res;
	struct pr_error err;
	int64_t run = ch_ingest_ok(f, "cut.json", text);
	assert_int_equal(q1(f, "SELECT span_count FROM run"), 1);
	assert_int_equal(ch_diag_count(f, run, "truncated"), 1);
	assert_rows(f, "SELECT line, col FROM diag WHERE code = 'truncated'", "2|1\n");
	/* Cut before any complete event: an error, and no run. */
	assert_int_equal(ch_ingest_text(f, "cut0.json", text, 30, "chrome", &res, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(q1(f, "SELECT count(*) FROM run"), 1);
}

static void test_trailing_comma(void **state)
{
	struct fx *f = *state;
	int64_t run;
	run = ch_ingest_ok(
		f, "tc.json",
		"[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n]");
	assert_int_equal(ch_diag_count(f, run, "trailing_comma"), 1);
	assert_rows(f, "SELECT line, col FROM diag WHERE code = 'trailing_comma'", "2|1\n");
	run = ch_ingest_ok(
		f, "tc2.json",
		"{\"traceEvents\":[{\"ph\":\"i\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1} , ],"
		"\"x\":1}");
	assert_int_equal(ch_diag_count(f, run, "trailing_comma"), 1);
	assert_int_equal(q1(f, "SELECT instant_count FROM run WHERE id = 2"), 1);
}

static void test_control_character_and_bad_utf8(void **state)
{
	struct fx *f = *state;
	static const char text[] =
		"[{\"ph\":\"X\",\"name\":\"a\x01"
		"b\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,"
		"\"args\":{\"k\":\"x\ty\",\"u\":\"\xff\"}},\n"
		"{\"ph\":\"X\",\"name\":\"c\x1f\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1},\n"
		"{\"ph\":\"X\",\"name\":\"d\xc3(\",\"pid\":1,\"tid\":1,\"ts\":7,\"dur\":1}]";
	int64_t run = ch_ingest_ok(f, "ctl.json", text);
	/* One diagnostic per code; the count says how many events needed it. */
	assert_int_equal(ch_diag_count(f, run, "control_character"), 2);
	assert_int_equal(ch_diag_count(f, run, "invalid_utf8"), 2);
	assert_rows(f, "SELECT line FROM diag WHERE code = 'control_character'", "1\n");
	/* Names decode to the raw control character; bad UTF-8 becomes U+FFFD. */
	assert_rows(f, "SELECT hex(name) FROM span_v ORDER BY ts", "610162\n631F\n64EFBFBD28\n");
	/* Args are rewritten as valid JSON. */
	assert_rows(f,
		    "SELECT json_valid(args), hex(json_extract(args, '$.k')), "
		    "hex(json_extract(args, '$.u')) FROM span_v WHERE ts = 1000",
		    "1|780979|EFBFBD\n");
}

/*
 * Times within +-(2^62 - 1) ns = +-4611686018427387903 ns (base/timecheck.h):
 * in microseconds +-4611686018427387.903. One event per line:
 *   1 ts at +limit, dur 0: kept            2 ts 1 ns beyond: skipped
 *   3 ts 1 ns below -limit: skipped        4 ts at -limit, dur 1 us: kept
 *   5 ts 0, dur limit + 1 ns: cut to limit 6 a counter 1 ns beyond: skipped
 *   7, 8 X without "dur": dur 0, missing_duration x2 (first on line 7)
 *   9, 10 a B/E pair: no "dur" needed, no diagnostic
 * time_out_of_range: lines 2, 3, 5, 6 = 4, first on line 2.
 */
static void test_time_range_and_missing_duration(void **state)
{
	struct fx *f = *state;
	static const char text[] =
		"[{\"ph\":\"X\",\"name\":\"hi\",\"pid\":1,\"tid\":1,\"ts\":4611686018427387.903,\"dur\":0},\n"
		"{\"ph\":\"X\",\"name\":\"over\",\"pid\":1,\"tid\":1,\"ts\":4611686018427387.904,\"dur\":0},\n"
		"{\"ph\":\"X\",\"name\":\"under\",\"pid\":1,\"tid\":1,\"ts\":-4611686018427387.904,\"dur\":0},\n"
		"{\"ph\":\"X\",\"name\":\"lo\",\"pid\":1,\"tid\":2,\"ts\":-4611686018427387.903,\"dur\":1},\n"
		"{\"ph\":\"X\",\"name\":\"long\",\"pid\":1,\"tid\":3,\"ts\":0,\"dur\":4611686018427387.904},\n"
		"{\"ph\":\"C\",\"name\":\"c\",\"pid\":1,\"ts\":\"4611686018427387.904\",\"args\":{\"v\":1}},\n"
		"{\"ph\":\"X\",\"name\":\"nodur\",\"pid\":1,\"tid\":4,\"ts\":5},\n"
		"{\"ph\":\"X\",\"name\":\"nodur\",\"pid\":1,\"tid\":4,\"ts\":7},\n"
		"{\"ph\":\"B\",\"name\":\"be\",\"pid\":1,\"tid\":5,\"ts\":10},\n"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":5,\"ts\":12}]";
	int64_t run = ch_ingest_ok(f, "range.json", text);
	assert_rows(f, "SELECT name, ts, dur FROM span_v ORDER BY ts, name",
		    "lo|-4611686018427387903|1000\n"
		    "long|0|4611686018427387903\n"
		    "nodur|5000|0\n"
		    "nodur|7000|0\n"
		    "be|10000|2000\n"
		    "hi|4611686018427387903|0\n");
	assert_int_equal(q1(f, "SELECT count(*) FROM sample"), 0);
	assert_int_equal(ch_diag_count(f, run, "time_out_of_range"), 4);
	assert_rows(f, "SELECT line FROM diag WHERE code = 'time_out_of_range'", "2\n");
	assert_int_equal(ch_diag_count(f, run, "missing_duration"), 2);
	assert_rows(f, "SELECT line, col FROM diag WHERE code = 'missing_duration'", "7|1\n");
	assert_int_equal(ch_diag_count(f, run, "bad_timestamp"), 0);
	assert_rows(f, "SELECT ts_min, ts_max FROM run",
		    "-4611686018427387903|4611686018427387903\n");
}

/* ---- gzip, duplicates, clocks, ranks ---- */

static void test_gzip_and_duplicate(void **state)
{
	struct fx *f = *state;
	struct pr_ingest_result res;
	struct pr_error err = PR_ERROR_INIT;
	const char *gz = write_gzip(f, "series.json.gz", series_trace, strlen(series_trace));
	int64_t run;

	assert_int_equal(pr_ingest_file(f->st, gz, NULL, &res, &err), 0);
	assert_string_equal(res.format, "chrome");
	assert_int_equal(res.duplicate, 0);
	assert_int_equal(res.bytes, (int64_t)strlen(series_trace)); /* decoded bytes */
	run = res.run_id;
	check_series_run(f, run);
	assert_int_equal(q1(f, "SELECT count(*) FROM span"), 2);
	/* The same content, uncompressed: recognised as already there. */
	assert_int_equal(ch_ingest_text(f, "plain.json", series_trace, strlen(series_trace), NULL,
					&res, &err),
			 0);
	assert_int_equal(res.duplicate, 1);
	assert_int_equal(res.run_id, run);
	assert_int_equal(q1(f, "SELECT count(*) FROM run"), 1);
	assert_int_equal(q1(f, "SELECT count(*) FROM span"), 2);
	assert_rows(f, "SELECT source LIKE '%series.json.gz' FROM run", "1\n");
}

static void test_epoch_clock_and_rank_from_name(void **state)
{
	struct fx *f = *state;
	int64_t run = ch_ingest_ok(f, "job_rank12.json",
				   "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
				   "\"ts\":1669329643132548.123,\"dur\":1}]");
	assert_rows(f,
		    "SELECT time_origin_ns, json_extract(meta, '$.clock'), rank, "
		    "json_extract(meta, '$.rank_source'), collector, ts_min FROM run",
		    "0|epoch|12|file name|chrome-trace|1669329643132548123\n");
	assert_int_equal(run, 1);
}

/* ---- hard errors carry the position ---- */

static void expect_error(struct fx *f, const char *name, const char *text, long line, long col)
{
	struct pr_ingest_result res;
	struct pr_error err;
	int64_t runs = q1(f, "SELECT count(*) FROM run");
	int rc = ch_ingest_text(f, name, text, strlen(text), "chrome", &res, &err);
	if (rc != -1 || err.line != line || err.column != col)
		print_error("%s: rc %d, %s at %ld:%ld; want -1 at %ld:%ld\n", name, rc, err.text,
			    err.line, err.column, line, col);
	assert_int_equal(rc, -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(err.line, line);
	assert_int_equal(err.column, col);
	assert_non_null(strstr(err.source, name));
	assert_int_equal(q1(f, "SELECT count(*) FROM run"), runs);
}

static void test_bad_json_positions(void **state)
{
	struct fx *f = *state;
	expect_error(f, "e1.json",
		     "[\n{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1},\n"
		     "{\"ph\":\"X\" \"name\":\"b\"}\n]\n",
		     3, 11);
	expect_error(f, "e2.json", "{\"traceEvents\": [1 2]}", 1, 20);
	expect_error(f, "e3.json", "[{\"name\":\"\xc3\xa9\",\n  \"ph\":X}]", 2, 8);
	expect_error(f, "e4.json", "{\"traceEvents\": []} x", 1, 21);
	expect_error(f, "e5.json", "{\"a\": [1,}", 1, 10);
	expect_error(f, "e6.json", "[{\"ph\":\"X\",\"ts\":01}]", 1, 18);
	expect_error(f, "e7.json", "  \n\n   ", 3, 4);
}

/* ---- JSON that parses but is no trace (issue 11) ---- */

static void expect_not_trace(struct fx *f, const char *name, const char *text, const char *why,
			     long line)
{
	struct pr_ingest_result res;
	struct pr_error err;
	int64_t runs = q1(f, "SELECT count(*) FROM run");
	int rc = ch_ingest_text(f, name, text, strlen(text), NULL, &res, &err);
	if (rc != -1 || err.code != PR_E_FORMAT || !strstr(err.text, why))
		print_error("%s: rc %d, code %d, '%s'; want PR_E_FORMAT '%s'\n", name, rc,
			    (int)err.code, err.text, why);
	assert_int_equal(rc, -1);
	assert_int_equal(err.code, PR_E_FORMAT);
	assert_true(!strncmp(err.text, "not a trace: ", 13));
	assert_non_null(strstr(err.text, why));
	assert_int_equal(err.line, line);
	assert_non_null(strstr(err.source, name));
	assert_int_equal(q1(f, "SELECT count(*) FROM run"), runs);
}

static void test_not_a_trace(void **state)
{
	struct fx *f = *state;
	struct pr_ingest_result res;
	struct pr_error err;
	int64_t run;
	expect_not_trace(f, "config.json", "{\"name\": \"config\", \"lr\": 0.1}",
			 "no \"traceEvents\" array", 0);
	expect_not_trace(f, "te.json", "{\"schemaVersion\": 1,\n \"traceEvents\": 5}",
			 "\"traceEvents\" is not an array", 2);
	expect_not_trace(f, "nums.json", "[1, 2, 3]", "no element of the event array is an event",
			 0);
	expect_not_trace(f, "noph.json", "{\"traceEvents\": [{\"name\": \"a\", \"ts\": 1}]}",
			 "no element of the event array is an event", 0);
	expect_not_trace(f, "bare.json", " [ ] ", "an empty JSON array", 0);
	/* forced: a scalar */
	assert_int_equal(ch_ingest_text(f, "s.json", "\"x\"", 3, "chrome", &res, &err), -1);
	assert_int_equal(err.code, PR_E_FORMAT);
	assert_non_null(strstr(err.text, "neither an event array nor an object"));
	/* a syntax error is reported before any verdict on the content */
	assert_int_equal(ch_ingest_text(f, "g.json", "{\"a\": 1} x", 10, NULL, &res, &err), -1);
	assert_int_equal(err.code, PR_E_PARSE);
	assert_int_equal(err.column, 10);
	/* an empty traceEvents array is a trace that recorded nothing */
	run = ch_ingest_ok(f, "empty.json", "{\"traceEvents\": [], \"displayTimeUnit\": \"ms\"}");
	assert_int_equal(q1(f, "SELECT count(*) FROM span"), 0);
	/* one event among stray elements is a trace */
	run = ch_ingest_ok(
		f, "one.json",
		"[1, {\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 0, "
		"\"dur\": 5}]");
	assert_int_equal(ch_diag_count(f, run, "non_object_event"), 1);
}

/* An error far beyond the first read window still gets the right line. */
static void test_error_position_in_big_file(void **state)
{
	struct fx *f = *state;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int i, n = 120000;
	pr_strbuf_addstr(&sb, "[");
	for (i = 0; i < n; i++)
		pr_strbuf_addf(&sb,
			       "{\"ph\":\"X\",\"name\":\"op%d\",\"pid\":1,\"tid\":1,\"ts\":%d,"
			       "\"dur\":1},\n",
			       i % 100, i * 2);
	pr_strbuf_addstr(&sb, "{\"ph\":\"X\",\"name\":\"bad\",\"ts\":1,,}]");
	assert_true(sb.len > (6u << 20));
	expect_error(f, "big.json", sb.buf, n + 1, 31);
	pr_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_object_form, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_memory_counters_async_flows, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_nameless_events, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_legacy_categories, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_device_types, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_profiler_window, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_memory_bytes_only, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_truncated_at_every_byte, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_truncated_object_form, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_trailing_comma, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_control_character_and_bad_utf8, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_time_range_and_missing_duration, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_gzip_and_duplicate, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_epoch_clock_and_rank_from_name, fx_setup,
						fx_teardown),
		cmocka_unit_test_setup_teardown(test_bad_json_positions, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_not_a_trace, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_error_position_in_big_file, fx_setup,
						fx_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
