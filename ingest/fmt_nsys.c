/*
 * fmt_nsys.c - Nsight Systems' SQLite export (`nsys export --type sqlite`),
 * export schema 3.x (EXPORT_SCHEMA_VERSION in META_DATA_EXPORT, or
 * EXPORT_META_DATA in 2023 versions), read into the same kinds, tracks,
 * categories and args that the chrome reader gives a Kineto trace, so the
 * GPU analyses (gpu, gpu_breakdown, step_breakdown, collectives) run on it
 * unchanged:
 *
 *   CUPTI_ACTIVITY_KIND_KERNEL   kind kernel, cat "kernel", name demangledName
 *   CUPTI_ACTIVITY_KIND_MEMCPY   kind memcpy, cat "gpu_memcpy", Kineto's name
 *                                "Memcpy HtoD (Pageable -> Device)", "bytes"
 *   CUPTI_ACTIVITY_KIND_MEMSET   kind memset, cat "gpu_memset", "Memset (Device)"
 *     on track (thread, deviceId, streamId) of kind gpu_stream, args device,
 *     context, stream, correlation (the link an_gpulink.c and an_gpubreak.c
 *     follow) and the kernel's launch configuration;
 *   CUPTI_ACTIVITY_KIND_RUNTIME  kind runtime, cat "cuda_runtime" (cuda*) or
 *                                "cuda_driver" (cu*), name nameId without
 *                                nsys' "_v7000" version suffix, arg correlation
 *   NVTX_EVENTS                  push/pop (59) and start/end (60) ranges: kind
 *                                phase, cat "user_annotation" ("ProfilerStep#N":
 *                                kind step); marks (34): instants
 *   OSRT_API                     kind slice, cat "os_runtime"
 *     on track (thread, pid, tid) with pid = globalTid >> 24 & 0xFFFFFF and
 *     tid = globalTid & 0xFFFFFF (NVIDIA's serialized GlobalId);
 *   GPU_METRICS                  one series per metric and GPU: name the
 *                                metricName of TARGET_INFO_GPU_METRICS without
 *                                its "[unit]", device its typeName
 *
 * Names are resolved through StringIds (NVTX text or textId). Times are the
 * export's integer nanoseconds, as they are; TARGET_INFO_SESSION_START_TIME's
 * utcEpochNs is the run's time origin. ThreadNames and PROCESSES name tracks.
 *
 * The file is an SQLite database: it is read whole into memory (gzip and
 * standard input work as for every format) and opened from there, read-only,
 * with SQLite's defensive settings; a damaged database is a clean error.
 * Errors (PR_E_FORMAT): an SQLite database without a StringIds table (not an
 * export), an export schema version other than 3.x, a table without a column
 * this reader needs. Row quirks are diagnostics (nsys_*), the row skipped or
 * repaired as each says.
 */
#include <sqlite3.h>
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

/* An export is read whole into memory: at most this many MiB (after gunzip)
 * unless PROFREPORT_NSYS_MAX_MB raises it (up to 64 GiB). */
#define NSYS_MAX_MB_DEFAULT 128
#define NSYS_MAX_ENV "PROFREPORT_NSYS_MAX_MB"
#define NSYS_MAX_MB_MAX 65536
#define SQLITE_MAGIC "SQLite format 3"

/* NVIDIA's ENUM_NSYS_EVENT_TYPE values for NVTX rows. */
#define NVTX_MARK 34
#define NVTX_PUSHPOP 59
#define NVTX_STARTEND 60

struct nsys {
	sqlite3 *db;
	struct pr_writer *w;
	struct pr_error *err;
	struct pr_strbuf args, name, a, b;
	int device_activity;
};

static int has_marker(const unsigned char *h, size_t n, const char *m)
{
	size_t k = strlen(m), i;
	if (n < k)
		return 0;
	for (i = 0; i + k <= n; i++)
		if (h[i] == (unsigned char)m[0] && !memcmp(h + i, m, k))
			return 1;
	return 0;
}

/*
 * Does the database at path have a StringIds table? For an export whose
 * schema pages lie beyond the head (SQLite may put them anywhere): SQLite's
 * own reader on the file, opened as an immutable URI, so that nothing is
 * ever written beside an input (a WAL-mode file opened read-only would get
 * its -wal and -shm files created next to it); any failure (a gzip file, a
 * damaged database) is a no.
 */
static int file_has_stringids(const char *path)
{
	static const char hex[] = "0123456789abcdef";
	struct pr_strbuf uri = PR_STRBUF_INIT;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	const unsigned char *p;
	int yes = 0;
	if (!path)
		return 0;
	pr_strbuf_addstr(&uri, "file:");
	for (p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("/._-~", *p)) {
			pr_strbuf_addch(&uri, (char)*p);
		} else {
			pr_strbuf_addch(&uri, '%');
			pr_strbuf_addch(&uri, hex[*p >> 4]);
			pr_strbuf_addch(&uri, hex[*p & 15]);
		}
	}
	pr_strbuf_addstr(&uri, "?immutable=1");
	if (sqlite3_open_v2(uri.buf, &db,
			    SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI,
			    NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db,
			       "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
			       "'StringIds'",
			       -1, &st, NULL) == SQLITE_OK)
		yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	sqlite3_close(db);
	pr_strbuf_release(&uri);
	return yes;
}

/*
 * An SQLite file that is not a profreport store (whose schema, always in
 * the first page, creates the table argkeys): 95 when its schema names the
 * export's tables, else 25, so that an SQLite file given explicitly reaches
 * parse, which then says what it is not, while a directory walk skips it.
 * cli/input.c calls any SQLite file this sniff scores 0 a store.
 */
static int nsys_sniff(const unsigned char *h, size_t n, const char *path)
{
	if (n < 16 || memcmp(h, SQLITE_MAGIC, 16))
		return 0;
	if (has_marker(h, n, "CREATE TABLE argkeys(")) /* profreport's own store */
		return 0;
	if (has_marker(h, n, "TABLE StringIds") || has_marker(h, n, "TABLE CUPTI_ACTIVITY_KIND_") ||
	    has_marker(h, n, "TABLE TARGET_INFO_") || has_marker(h, n, "TABLE NVTX_EVENTS") ||
	    file_has_stringids(path))
		return 95;
	return 25;
}

/* ---- SQLite helpers ---- */

static int db_fail(struct nsys *ns, const char *what)
{
	return pr_error_set(ns->err, PR_E_PARSE, "not a readable SQLite database (%s): %s", what,
			    sqlite3_errmsg(ns->db));
}

/* Is there an ordinary table of this name (not a view, not virtual)? */
static int has_table(struct nsys *ns, const char *name)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;
	if (sqlite3_prepare_v2(ns->db,
			       "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *sql = (const char *)sqlite3_column_text(st, 0);
		yes = sql && strncmp(sql, "CREATE VIRTUAL", 14) != 0;
	}
	sqlite3_finalize(st);
	return yes;
}

static int has_column(struct nsys *ns, const char *table, const char *col)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;
	if (sqlite3_prepare_v2(ns->db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1,
			       &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/* Every column in the NULL-terminated list, or an error naming the first missing one. */
static int need_columns(struct nsys *ns, const char *table, const char *const *cols)
{
	for (; *cols; cols++)
		if (!has_column(ns, table, *cols))
			return pr_error_set(ns->err, PR_E_FORMAT,
					    "Nsight Systems export: table %s has no column '%s' "
					    "(an export schema this reader does not know)",
					    table, *cols);
	return 0;
}

static int is_int(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_INTEGER;
}

static int64_t col_i64(sqlite3_stmt *st, int col)
{
	return sqlite3_column_int64(st, col);
}

/* ---- version ---- */

/* The export schema version: 3.x is understood, anything else is an error. */
static int check_version(struct nsys *ns)
{
	static const char *const tables[] = { "META_DATA_EXPORT", "EXPORT_META_DATA" };
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc = 0, found = 0;
	for (i = 0; i < PR_ARRAY_SIZE(tables) && !found; i++) {
		struct pr_strbuf q = PR_STRBUF_INIT;
		if (!has_table(ns, tables[i]) || !has_column(ns, tables[i], "name") ||
		    !has_column(ns, tables[i], "value"))
			continue;
		pr_strbuf_addf(&q, "SELECT value FROM %s WHERE name = 'EXPORT_SCHEMA_VERSION'",
			       tables[i]);
		if (sqlite3_prepare_v2(ns->db, q.buf, -1, &st, NULL) != SQLITE_OK) {
			pr_strbuf_release(&q);
			return db_fail(ns, "export metadata");
		}
		pr_strbuf_release(&q);
		if (sqlite3_step(st) == SQLITE_ROW) {
			const char *v = (const char *)sqlite3_column_text(st, 0);
			char *end = NULL;
			long major = v ? strtol(v, &end, 10) : -1;
			found = 1;
			if (!v || end == v || major != 3 || (*end && *end != '.'))
				rc = pr_error_set(ns->err, PR_E_FORMAT,
						  "Nsight Systems export schema version '%.40s' is "
						  "not understood (this reader knows 3.x)",
						  v ? v : "NULL");
			else
				pr_writer_meta_set(ns->w, "nsys_export_schema_version",
						   json_string(v));
		}
		sqlite3_finalize(st);
		st = NULL;
	}
	if (!found)
		pr_writer_diag(ns->w, "nsys_schema_version_missing", -1, 0, 0,
			       "the export names no EXPORT_SCHEMA_VERSION; read as schema 3.x");
	return rc;
}

/* ---- names ---- */

static const char *memcpy_kind(int64_t k)
{
	static const char *const names[] = { "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
					     "AtoD",	"DtoA", "DtoD", "HtoH", "PtoP" };
	return k >= 0 && k < (int64_t)PR_ARRAY_SIZE(names) ? names[k] : NULL;
}

static const char *memory_kind(int64_t k)
{
	static const char *const names[] = { "Unknown",	      "Pageable",      "Pinned",
					     "Device",	      "Array",	       "Managed",
					     "Device Static", "Managed Static" };
	return k >= 0 && k < (int64_t)PR_ARRAY_SIZE(names) ? names[k] : NULL;
}

/* A string column resolved through StringIds (col NULL: the id at id_col was not found). */
static const char *name_or_missing(struct nsys *ns, sqlite3_stmt *st, int col, int id_col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	if (s)
		return s;
	pr_strbuf_reset(&ns->name);
	if (sqlite3_column_type(st, id_col) == SQLITE_NULL)
		pr_strbuf_addstr(&ns->name, "(no name)");
	else
		pr_strbuf_addf(&ns->name, "(string %lld)", (long long)col_i64(st, id_col));
	pr_writer_diag(ns->w, "nsys_missing_string", -1, 0, 0,
		       "a row names a string id that is not in the export's string table; "
		       "named '%s'",
		       ns->name.buf);
	return ns->name.buf;
}

/* cudaLaunchKernel_v7000 -> cudaLaunchKernel (nsys appends the API version). */
static size_t api_name_len(const char *s)
{
	size_t n = strlen(s), i = n;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (i < n && i >= 3 && s[i - 1] == 'v' && s[i - 2] == '_')
		return i - 2;
	return n;
}

/* The shortest of %.15g and %.17g that reads back as v (finite v). */
static void add_double(struct pr_strbuf *sb, const char *key, double v)
{
	char buf[40];
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	pr_strbuf_addstr(sb, key);
	pr_strbuf_addstr(sb, buf);
}

/* Times of a row: start and end INTEGER, end >= start, within the store's range. */
static int row_times(struct nsys *ns, sqlite3_stmt *st, int c_start, int c_end, int64_t *ts,
		     int64_t *dur)
{
	int64_t s, e;
	if (!is_int(st, c_start) || !is_int(st, c_end)) {
		pr_writer_diag(ns->w, "nsys_bad_value", -1, 0, 0,
			       "a row whose start or end is not an integer (ns); skipped");
		return -1;
	}
	s = col_i64(st, c_start);
	e = col_i64(st, c_end);
	if (!pr_time_ok(s)) {
		pr_writer_diag(ns->w, "time_out_of_range", -1, 0, 0,
			       "a row starts more than 2^62 ns (146 years) from the clock's zero; "
			       "skipped");
		return -1;
	}
	if (e < s) {
		pr_writer_diag(ns->w, "nsys_negative_duration", -1, 0, 0,
			       "a row ends before it starts; taken as lasting 0");
		e = s;
	}
	if (e > PR_TIME_LIMIT_NS) {
		pr_writer_diag(ns->w, "time_out_of_range", -1, 0, 0,
			       "a row ends more than 2^62 ns (146 years) after the clock's zero; "
			       "cut there");
		e = PR_TIME_LIMIT_NS;
	}
	*ts = s;
	*dur = e - s;
	return 0;
}

static int64_t thread_track(struct nsys *ns, int64_t gtid)
{
	char pid[24], tid[24];
	uint64_t g = (uint64_t)gtid;
	snprintf(pid, sizeof(pid), "%llu", (unsigned long long)((g >> 24) & 0xFFFFFF));
	snprintf(tid, sizeof(tid), "%llu", (unsigned long long)(g & 0xFFFFFF));
	return pr_writer_track(ns->w, "thread", pid, tid);
}

/* ---- GPU activity: kernels, memcpys, memsets in one start-ordered pass ---- */

static const char *const kernel_cols[] = { "start",
					   "end",
					   "deviceId",
					   "contextId",
					   "streamId",
					   "correlationId",
					   "demangledName",
					   "registersPerThread",
					   "gridX",
					   "gridY",
					   "gridZ",
					   "blockX",
					   "blockY",
					   "blockZ",
					   "staticSharedMemory",
					   "dynamicSharedMemory",
					   NULL };
static const char *const memcpy_cols[] = { "start",    "end",		"deviceId", "contextId",
					   "streamId", "correlationId", "bytes",    "copyKind",
					   "srcKind",  "dstKind",	NULL };
static const char *const memset_cols[] = { "start",	"end",	    "deviceId",
					   "contextId", "streamId", "correlationId",
					   "bytes",	"memKind",  NULL };

/* Columns of the union: 0 type, 1 start, 2 end, 3 device, 4 context, 5 stream,
 * 6 correlation, 7 name text, 8 name id, 9..16 type-specific. */
static int read_gpu(struct nsys *ns)
{
	struct pr_strbuf q = PR_STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t last_track = 0;
	int parts = 0, rc;

	if (has_table(ns, "CUPTI_ACTIVITY_KIND_KERNEL")) {
		if (need_columns(ns, "CUPTI_ACTIVITY_KIND_KERNEL", kernel_cols))
			return -1;
		pr_strbuf_addstr(&q, "SELECT 0, k.start, k.\"end\", k.deviceId, k.contextId, "
				     "k.streamId, k.correlationId, s.value, k.demangledName, "
				     "k.registersPerThread, k.gridX, k.gridY, k.gridZ, k.blockX, "
				     "k.blockY, k.blockZ, k.staticSharedMemory + "
				     "k.dynamicSharedMemory FROM CUPTI_ACTIVITY_KIND_KERNEL k "
				     "LEFT JOIN StringIds s ON s.id = k.demangledName");
		parts++;
	}
	if (has_table(ns, "CUPTI_ACTIVITY_KIND_MEMCPY")) {
		if (need_columns(ns, "CUPTI_ACTIVITY_KIND_MEMCPY", memcpy_cols)) {
			pr_strbuf_release(&q);
			return -1;
		}
		pr_strbuf_addf(&q,
			       "%sSELECT 1, start, \"end\", deviceId, contextId, streamId, "
			       "correlationId, NULL, NULL, bytes, copyKind, srcKind, dstKind, "
			       "NULL, NULL, NULL, NULL FROM CUPTI_ACTIVITY_KIND_MEMCPY",
			       parts ? " UNION ALL " : "");
		parts++;
	}
	if (has_table(ns, "CUPTI_ACTIVITY_KIND_MEMSET")) {
		if (need_columns(ns, "CUPTI_ACTIVITY_KIND_MEMSET", memset_cols)) {
			pr_strbuf_release(&q);
			return -1;
		}
		pr_strbuf_addf(&q,
			       "%sSELECT 2, start, \"end\", deviceId, contextId, streamId, "
			       "correlationId, NULL, NULL, bytes, memKind, NULL, NULL, NULL, "
			       "NULL, NULL, NULL FROM CUPTI_ACTIVITY_KIND_MEMSET",
			       parts ? " UNION ALL " : "");
		parts++;
	}
	if (!parts)
		return 0;
	/* start order, the longer first, then a stable tie-break */
	pr_strbuf_addstr(&q, " ORDER BY 2, 3 DESC, 1, 4, 6");
	if (sqlite3_prepare_v2(ns->db, q.buf, -1, &st, NULL) != SQLITE_OK) {
		pr_strbuf_release(&q);
		return db_fail(ns, "GPU activity tables");
	}
	pr_strbuf_release(&q);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pr_span_in s;
		char dev[24], stream[24];
		int type = sqlite3_column_int(st, 0);
		int64_t ts, dur, track;
		const char *name;
		int k;
		if (row_times(ns, st, 1, 2, &ts, &dur))
			continue;
		if (!is_int(st, 3) || !is_int(st, 5)) {
			pr_writer_diag(ns->w, "nsys_bad_value", -1, 0, 0,
				       "a GPU activity row whose deviceId or streamId is not an "
				       "integer; skipped");
			continue;
		}
		snprintf(dev, sizeof(dev), "%lld", (long long)col_i64(st, 3));
		snprintf(stream, sizeof(stream), "%lld", (long long)col_i64(st, 5));
		track = pr_writer_track(ns->w, "thread", dev, stream);
		if (track != last_track) {
			pr_strbuf_reset(&ns->a);
			pr_strbuf_addf(&ns->a, "stream %s", stream);
			pr_writer_track_set_kind(ns->w, track, "gpu_stream");
			pr_writer_track_set_name(ns->w, track, ns->a.buf);
			pr_strbuf_reset(&ns->a);
			pr_strbuf_addf(&ns->a, "GPU %s", dev);
			pr_writer_process_set_name(ns->w, dev, ns->a.buf);
			last_track = track;
		}
		ns->device_activity = 1;
		pr_strbuf_reset(&ns->args);
		pr_strbuf_addf(&ns->args, "{\"device\":%s,\"context\":%lld,\"stream\":%s", dev,
			       (long long)col_i64(st, 4), stream);
		if (is_int(st, 6))
			pr_strbuf_addf(&ns->args, ",\"correlation\":%lld",
				       (long long)col_i64(st, 6));
		for (k = 9; k <= 16; k++)
			if (sqlite3_column_type(st, k) != SQLITE_NULL && !is_int(st, k))
				break;
		if (k <= 16) {
			pr_writer_diag(ns->w, "nsys_bad_value", -1, 0, 0,
				       "a GPU activity row with a non-integer size, kind or launch "
				       "configuration; skipped");
			continue;
		}
		if (type == 0) {
			name = name_or_missing(ns, st, 7, 8);
			pr_strbuf_addf(&ns->args,
				       ",\"registers per thread\":%lld,\"shared memory\":%lld,"
				       "\"grid\":[%lld,%lld,%lld],\"block\":[%lld,%lld,%lld]",
				       (long long)col_i64(st, 9), (long long)col_i64(st, 16),
				       (long long)col_i64(st, 10), (long long)col_i64(st, 11),
				       (long long)col_i64(st, 12), (long long)col_i64(st, 13),
				       (long long)col_i64(st, 14), (long long)col_i64(st, 15));
			s.kind = "kernel";
			s.cat = pr_writer_intern(ns->w, "kernel", 6);
		} else {
			const char *ck = type == 1 ? memcpy_kind(col_i64(st, 10)) : "";
			const char *src = memory_kind(col_i64(st, type == 1 ? 11 : 10));
			const char *dst = type == 1 ? memory_kind(col_i64(st, 12)) : "";
			if (!ck || !src || !dst) {
				pr_writer_diag(ns->w, "nsys_unknown_enum", -1, 0, 0,
					       "a memcpy/memset row with a copy or memory kind "
					       "outside CUPTI's list; named Unknown");
				ck = ck ? ck : "Unknown";
				src = src ? src : "Unknown";
				dst = dst ? dst : "Unknown";
			}
			pr_strbuf_reset(&ns->b);
			if (type == 1)
				pr_strbuf_addf(&ns->b, "Memcpy %s (%s -> %s)", ck, src, dst);
			else
				pr_strbuf_addf(&ns->b, "Memset (%s)", src);
			name = ns->b.buf;
			pr_strbuf_addf(&ns->args, ",\"bytes\":%lld", (long long)col_i64(st, 9));
			if (dur > 0)
				add_double(&ns->args, ",\"memory bandwidth (GB/s)\":",
					   (double)col_i64(st, 9) / (double)dur);
			s.kind = type == 1 ? "memcpy" : "memset";
			s.cat = type == 1 ? pr_writer_intern(ns->w, "gpu_memcpy", 10)
					  : pr_writer_intern(ns->w, "gpu_memset", 10);
		}
		pr_strbuf_addch(&ns->args, '}');
		s.track = track;
		s.name = pr_writer_intern(ns->w, name, strlen(name));
		s.ts = ts;
		s.dur = dur;
		s.args = ns->args.buf;
		s.args_len = ns->args.len;
		s.args_keys = NULL;
		s.args_keys_len = 0;
		pr_writer_span(ns->w, &s);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(ns, "GPU activity rows");
}

/* ---- CPU: runtime calls, NVTX, OS runtime, per thread in start order ---- */

static const char *const runtime_cols[] = { "start",	     "end",    "globalTid",
					    "correlationId", "nameId", NULL };
static const char *const osrt_cols[] = { "start", "end", "globalTid", "nameId", NULL };
static const char *const nvtx_cols[] = { "start", "end", "eventType", "text", "globalTid", NULL };

/* Columns: 0 source (0 runtime, 1 nvtx, 2 osrt), 1 start, 2 end, 3 globalTid,
 * 4 correlation, 5 name, 6 name id, 7 NVTX event type. */
static int read_cpu(struct nsys *ns)
{
	struct pr_strbuf q = PR_STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int parts = 0, rc;

	if (has_table(ns, "CUPTI_ACTIVITY_KIND_RUNTIME")) {
		if (need_columns(ns, "CUPTI_ACTIVITY_KIND_RUNTIME", runtime_cols))
			return -1;
		pr_strbuf_addstr(&q, "SELECT 0, r.start, r.\"end\", r.globalTid, r.correlationId, "
				     "s.value, r.nameId, NULL FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
				     "LEFT JOIN StringIds s ON s.id = r.nameId");
		parts++;
	}
	if (has_table(ns, "NVTX_EVENTS")) {
		int text_id;
		if (need_columns(ns, "NVTX_EVENTS", nvtx_cols)) {
			pr_strbuf_release(&q);
			return -1;
		}
		text_id = has_column(ns, "NVTX_EVENTS", "textId");
		/* marks (no end) sort as lasting 0 */
		pr_strbuf_addf(&q,
			       "%sSELECT 1, n.start, coalesce(n.\"end\", n.start), n.globalTid, "
			       "n.\"end\" IS NULL, %s, %s, n.eventType FROM NVTX_EVENTS n%s "
			       "WHERE n.eventType IN (%d, %d, %d)",
			       parts ? " UNION ALL " : "",
			       text_id ? "coalesce(n.text, s.value)" : "n.text",
			       text_id ? "n.textId" : "NULL",
			       text_id ? " LEFT JOIN StringIds s ON s.id = n.textId" : "",
			       NVTX_MARK, NVTX_PUSHPOP, NVTX_STARTEND);
		parts++;
	}
	if (has_table(ns, "OSRT_API")) {
		if (need_columns(ns, "OSRT_API", osrt_cols)) {
			pr_strbuf_release(&q);
			return -1;
		}
		pr_strbuf_addf(&q,
			       "%sSELECT 2, o.start, o.\"end\", o.globalTid, NULL, s.value, "
			       "o.nameId, NULL FROM OSRT_API o LEFT JOIN StringIds s ON s.id "
			       "= o.nameId",
			       parts ? " UNION ALL " : "");
		parts++;
	}
	if (!parts)
		return 0;
	pr_strbuf_addstr(&q, " ORDER BY 4, 2, 3 DESC, 1");
	if (sqlite3_prepare_v2(ns->db, q.buf, -1, &st, NULL) != SQLITE_OK) {
		pr_strbuf_release(&q);
		return db_fail(ns, "CPU event tables");
	}
	pr_strbuf_release(&q);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pr_span_in s;
		int src = sqlite3_column_int(st, 0);
		int64_t ts, dur, track;
		const char *name;
		size_t nlen;
		if (row_times(ns, st, 1, 2, &ts, &dur))
			continue;
		if (!is_int(st, 3)) {
			pr_writer_diag(
				ns->w, "nsys_bad_value", -1, 0, 0,
				"a CPU event row whose globalTid is not an integer; skipped");
			continue;
		}
		track = thread_track(ns, col_i64(st, 3));
		name = name_or_missing(ns, st, 5, 6);
		nlen = strlen(name);
		pr_strbuf_reset(&ns->args);
		memset(&s, 0, sizeof(s));
		if (src == 0) {
			nlen = api_name_len(name);
			s.kind = "runtime";
			s.cat = !strncmp(name, "cuda", 4)
					? pr_writer_intern(ns->w, "cuda_runtime", 12)
					: pr_writer_intern(ns->w, "cuda_driver", 11);
			if (is_int(st, 4)) {
				pr_strbuf_addf(&ns->args, "{\"correlation\":%lld}",
					       (long long)col_i64(st, 4));
			}
		} else if (src == 1) {
			int64_t type = col_i64(st, 7);
			if (type == NVTX_MARK) {
				pr_writer_instant(ns->w, track, pr_writer_intern(ns->w, name, nlen),
						  pr_writer_intern(ns->w, "user_annotation", 15),
						  ts, "t", NULL, 0);
				continue;
			}
			if (sqlite3_column_int(st, 4)) {
				pr_writer_diag(ns->w, "nsys_unclosed_range", -1, 0, 0,
					       "an NVTX range without an end (the process ended "
					       "inside it?); kept lasting 0");
			}
			s.kind =
				!strncmp(name, "ProfilerStep#", 13) && nlen > 13 ? "step" : "phase";
			s.cat = pr_writer_intern(ns->w, "user_annotation", 15);
		} else {
			s.kind = "slice";
			s.cat = pr_writer_intern(ns->w, "os_runtime", 10);
		}
		s.track = track;
		s.name = pr_writer_intern(ns->w, name, nlen);
		s.ts = ts;
		s.dur = dur;
		s.args = ns->args.len ? ns->args.buf : NULL;
		s.args_len = ns->args.len;
		pr_writer_span(ns->w, &s);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(ns, "CPU event rows");
}

/* ---- names of threads and processes ---- */

static int read_names(struct nsys *ns)
{
	sqlite3_stmt *st = NULL;
	int rc;
	if (has_table(ns, "PROCESSES") && has_column(ns, "PROCESSES", "globalPid") &&
	    has_column(ns, "PROCESSES", "name")) {
		if (sqlite3_prepare_v2(ns->db,
				       "SELECT globalPid, name FROM PROCESSES ORDER BY globalPid",
				       -1, &st, NULL) != SQLITE_OK)
			return db_fail(ns, "PROCESSES");
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 1);
			char pid[24];
			if (!is_int(st, 0) || !name)
				continue;
			snprintf(pid, sizeof(pid), "%llu",
				 (unsigned long long)(((uint64_t)col_i64(st, 0) >> 24) & 0xFFFFFF));
			pr_writer_process_set_name(ns->w, pid, name);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return db_fail(ns, "PROCESSES");
	}
	if (has_table(ns, "ThreadNames") && has_column(ns, "ThreadNames", "globalTid") &&
	    has_column(ns, "ThreadNames", "nameId")) {
		if (sqlite3_prepare_v2(
			    ns->db,
			    "SELECT t.globalTid, s.value FROM ThreadNames t JOIN "
			    "StringIds s ON s.id = t.nameId ORDER BY t.globalTid, t.rowid",
			    -1, &st, NULL) != SQLITE_OK)
			return db_fail(ns, "ThreadNames");
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 1);
			if (!is_int(st, 0) || !name)
				continue;
			pr_writer_track_set_name(ns->w, thread_track(ns, col_i64(st, 0)), name);
		}
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return db_fail(ns, "ThreadNames");
	}
	return 0;
}

/* ---- GPU metrics ---- */

/* "SM Active [Throughput %]" -> name "SM Active", unit percent, orig "Throughput %". */
static const char *metric_unit(const char *metric, size_t *name_len, struct pr_strbuf *orig)
{
	const char *lb = strrchr(metric, '[');
	size_t n = strlen(metric);
	pr_strbuf_reset(orig);
	*name_len = n;
	if (!lb || n < 2 || metric[n - 1] != ']')
		return "";
	pr_strbuf_add(orig, lb + 1, (size_t)(metric + n - 1 - (lb + 1)));
	*name_len = (size_t)(lb - metric);
	while (*name_len > 0 && metric[*name_len - 1] == ' ')
		(*name_len)--;
	if (strchr(orig->buf, '%'))
		return "percent";
	if (!strcmp(orig->buf, "MHz"))
		return "MHz";
	return "";
}

/*
 * The names of GPU metrics, read once from TARGET_INFO_GPU_METRICS (which has
 * no index): (typeId, metricId) -> metricName and typeId -> typeName, the
 * first row of each winning as the LIMIT 1 lookups it replaces did. Two
 * correlated subqueries per GPU_METRICS row were quadratic: 10 000
 * definitions took 2.1 s, 100 000 more than 300 s.
 */
struct metric_names {
	struct pr_strmap map; /* 'm' type metric / 't' type -> offset in text */
	struct pr_strbuf text;
};

static void names_key(char key[17], char kind, int64_t type, int64_t metric)
{
	key[0] = kind;
	memcpy(key + 1, &type, 8);
	memcpy(key + 9, &metric, 8);
}

static void names_put(struct metric_names *mn, char kind, int64_t type, int64_t metric,
		      const unsigned char *text)
{
	char key[17];
	int64_t off;
	names_key(key, kind, type, metric);
	if (!text || pr_strmap_get(&mn->map, key, kind == 'm' ? 17 : 9, &off))
		return;
	pr_strmap_put(&mn->map, key, kind == 'm' ? 17 : 9, (int64_t)mn->text.len);
	pr_strbuf_addstr(&mn->text, (const char *)text);
	pr_strbuf_addch(&mn->text, '\0');
}

static const char *names_get(const struct metric_names *mn, char kind, int64_t type, int64_t metric)
{
	char key[17];
	int64_t off;
	names_key(key, kind, type, metric);
	return pr_strmap_get(&mn->map, key, kind == 'm' ? 17 : 9, &off) ? mn->text.buf + off : NULL;
}

static int names_load(struct nsys *ns, struct metric_names *mn)
{
	sqlite3_stmt *st = NULL;
	int rc;
	if (sqlite3_prepare_v2(ns->db,
			       "SELECT typeId, metricId, metricName, typeName FROM "
			       "TARGET_INFO_GPU_METRICS ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(ns, "TARGET_INFO_GPU_METRICS");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t type = sqlite3_column_int64(st, 0), metric = sqlite3_column_int64(st, 1);
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER)
			continue; /* a typeId = g.typeId comparison never matched it */
		if (sqlite3_column_type(st, 1) == SQLITE_INTEGER)
			names_put(mn, 'm', type, metric, sqlite3_column_text(st, 2));
		names_put(mn, 't', type, 0, sqlite3_column_text(st, 3));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(ns, "TARGET_INFO_GPU_METRICS rows");
}

static int read_metrics(struct nsys *ns)
{
	sqlite3_stmt *st = NULL;
	int64_t series = 0, last_type = INT64_MIN, last_metric = INT64_MIN;
	struct metric_names mn = { PR_STRMAP_INIT, PR_STRBUF_INIT };
	int info, rc;
	if (!has_table(ns, "GPU_METRICS"))
		return 0;
	{
		static const char *const cols[] = { "timestamp", "typeId", "metricId", "value",
						    NULL };
		if (need_columns(ns, "GPU_METRICS", cols))
			return -1;
	}
	info = has_table(ns, "TARGET_INFO_GPU_METRICS") &&
	       has_column(ns, "TARGET_INFO_GPU_METRICS", "typeId") &&
	       has_column(ns, "TARGET_INFO_GPU_METRICS", "metricId") &&
	       has_column(ns, "TARGET_INFO_GPU_METRICS", "metricName") &&
	       has_column(ns, "TARGET_INFO_GPU_METRICS", "typeName");
	if (info && names_load(ns, &mn))
		goto fail;
	if (sqlite3_prepare_v2(ns->db,
			       "SELECT typeId, metricId, timestamp, value FROM GPU_METRICS "
			       "ORDER BY 1, 2, 3",
			       -1, &st, NULL) != SQLITE_OK) {
		db_fail(ns, "GPU_METRICS");
		goto fail;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t type, metric, ts;
		int vt = sqlite3_column_type(st, 3);
		if (!is_int(st, 0) || !is_int(st, 1) || !is_int(st, 2) ||
		    (vt != SQLITE_INTEGER && vt != SQLITE_FLOAT)) {
			pr_writer_diag(ns->w, "nsys_bad_value", -1, 0, 0,
				       "a GPU metrics row with a non-numeric field; skipped");
			continue;
		}
		type = col_i64(st, 0);
		metric = col_i64(st, 1);
		ts = col_i64(st, 2);
		if (!pr_time_ok(ts)) {
			pr_writer_diag(
				ns->w, "time_out_of_range", -1, 0, 0,
				"a GPU metrics sample more than 2^62 ns (146 years) from the "
				"clock's zero; skipped");
			continue;
		}
		if (type != last_type || metric != last_metric) {
			const char *mname = names_get(&mn, 'm', type, metric);
			const char *tname = names_get(&mn, 't', type, 0);
			const char *unit;
			size_t nlen;
			pr_strbuf_reset(&ns->a);
			pr_strbuf_reset(&ns->name);
			if (mname) {
				unit = metric_unit(mname, &nlen, &ns->b);
				pr_strbuf_add(&ns->a, mname, nlen);
			} else {
				unit = "";
				pr_strbuf_reset(&ns->b);
				pr_strbuf_addf(&ns->a, "gpu metric %lld", (long long)metric);
			}
			if (tname)
				pr_strbuf_addstr(&ns->name, tname);
			else
				pr_strbuf_addf(&ns->name, "gpu metrics type %lld", (long long)type);
			series = pr_writer_series(ns->w, ns->a.buf, ns->name.buf, unit,
						  ns->b.len ? ns->b.buf : NULL);
			last_type = type;
			last_metric = metric;
		}
		pr_writer_sample(ns->w, series, ts, sqlite3_column_double(st, 3));
	}
	sqlite3_finalize(st);
	pr_strmap_release(&mn.map);
	pr_strbuf_release(&mn.text);
	return rc == SQLITE_DONE ? 0 : db_fail(ns, "GPU_METRICS rows");
fail:
	pr_strmap_release(&mn.map);
	pr_strbuf_release(&mn.text);
	return -1;
}

/* ---- driver ---- */

static void session_origin(struct nsys *ns)
{
	sqlite3_stmt *st = NULL;
	if (!has_table(ns, "TARGET_INFO_SESSION_START_TIME") ||
	    !has_column(ns, "TARGET_INFO_SESSION_START_TIME", "utcEpochNs"))
		return;
	if (sqlite3_prepare_v2(ns->db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME", -1,
			       &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW && is_int(st, 0) && pr_time_ok(col_i64(st, 0)))
		pr_writer_set_time_origin(ns->w, col_i64(st, 0));
	sqlite3_finalize(st);
}

static int nsys_limit(size_t *max, struct pr_error *err)
{
	return pr_env_limit(NSYS_MAX_ENV, (size_t)NSYS_MAX_MB_DEFAULT << 20, NSYS_MAX_MB_MAX, max,
			    err);
}

/*
 * The whole source in memory (an SQLite file is not read as a stream), at
 * most nsys_limit() bytes; what does not start with SQLite's magic is refused
 * after its first read, not after the limit (--format nsys /dev/zero).
 */
static int slurp(struct pr_source *src, unsigned char **out, size_t *n, struct pr_error *err)
{
	size_t cap = 1 << 20, len = 0, max;
	unsigned char *buf;
	long got;
	if (nsys_limit(&max, err))
		return -1;
	buf = pr_xmalloc(cap);
	for (;;) {
		if (len == cap) {
			if (cap >= max) {
				free(buf);
				return pr_error_set(err, PR_E_LIMIT,
						    "Nsight Systems export larger than %zu "
						    "MiB (after gunzip): not loaded (it is "
						    "read whole into memory; %s=N raises "
						    "the limit)",
						    max >> 20, NSYS_MAX_ENV);
			}
			cap = cap * 2 > max ? max : cap * 2;
			buf = pr_xrealloc(buf, cap);
		}
		got = pr_source_read(src, buf + len, cap - len, err);
		if (got < 0) {
			free(buf);
			return -1;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (len >= 16 && len - (size_t)got < 16 && memcmp(buf, SQLITE_MAGIC, 16)) {
			free(buf);
			return pr_error_set(err, PR_E_FORMAT,
					    "not an SQLite database (an Nsight Systems export is "
					    "written by 'nsys export --type sqlite')");
		}
	}
	*out = buf;
	*n = len;
	return 0;
}

static int open_image(struct nsys *ns, unsigned char *img, size_t n)
{
	int on = 1;
	if (n < 100 || memcmp(img, SQLITE_MAGIC, 16))
		return pr_error_set(
			ns->err, PR_E_FORMAT,
			"not an SQLite database (an Nsight Systems export is written by "
			"'nsys export --type sqlite')");
	/* A WAL-mode export (file format bytes 18 and 19 are 2): an in-memory image
	 * cannot be in WAL mode and SQLite refuses to read it ("unable to open
	 * database file"); the image is ours, so it is marked as a rollback-journal
	 * database, which reads the same pages (a WAL not checkpointed into the file
	 * was never part of what the file holds). */
	if (img[18] == 2 && img[19] == 2)
		img[18] = img[19] = 1;
	if (sqlite3_open_v2(":memory:", &ns->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		return pr_error_set(ns->err, PR_E_IO, "cannot open an in-memory database");
	sqlite3_db_config(ns->db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on);
	sqlite3_db_config(ns->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &on);
	sqlite3_db_config(ns->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &on);
	sqlite3_db_config(ns->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &on);
	if (sqlite3_deserialize(ns->db, "main", img, (sqlite3_int64)n, (sqlite3_int64)n,
				SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
		return db_fail(ns, "cannot load it");
	if (sqlite3_exec(ns->db, "PRAGMA cell_size_check = ON; PRAGMA query_only = ON", NULL, NULL,
			 NULL) != SQLITE_OK)
		return db_fail(ns, "settings");
	{
		sqlite3_stmt *st = NULL;
		int rc = sqlite3_prepare_v2(ns->db, "SELECT count(*) FROM sqlite_master", -1, &st,
					    NULL);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_ROW)
			return db_fail(ns, "schema");
	}
	if (!has_table(ns, "StringIds") || !has_column(ns, "StringIds", "id") ||
	    !has_column(ns, "StringIds", "value"))
		return pr_error_set(ns->err, PR_E_FORMAT,
				    "an SQLite database that is not an Nsight Systems export (no "
				    "StringIds table) nor a profreport store");
	return 0;
}

static int nsys_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct nsys ns;
	unsigned char *img = NULL;
	size_t n = 0;
	int rc = -1;

	memset(&ns, 0, sizeof(ns));
	ns.w = w;
	ns.err = err;
	if (slurp(src, &img, &n, err))
		return -1;
	pr_writer_set_collector(w, "nsys");
	if (open_image(&ns, img, n) == 0 && check_version(&ns) == 0 && read_gpu(&ns) == 0 &&
	    read_cpu(&ns) == 0 && read_names(&ns) == 0 && read_metrics(&ns) == 0) {
		session_origin(&ns);
		if (ns.device_activity)
			pr_writer_meta_set(w, "device_type", json_string("cuda"));
		rc = 0;
	}
	sqlite3_close(ns.db);
	free(img);
	pr_strbuf_release(&ns.args);
	pr_strbuf_release(&ns.name);
	pr_strbuf_release(&ns.a);
	pr_strbuf_release(&ns.b);
	return rc;
}

const struct pr_format pr_format_nsys = {
	.name = "nsys",
	.summary = "Nsight Systems SQLite export (nsys export --type sqlite), export schema 3.x",
	.sniff = nsys_sniff,
	.parse = nsys_parse,
};
