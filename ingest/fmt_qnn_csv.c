/*
 * fmt_qnn_csv.c - the CSV that llama_hexagon's monitor_memory.sh writes
 * (FORMATS.md section 004).
 *
 * Columns -> series (unit "bytes"; kB in the file are KiB):
 *   total_memory_kb -> sys.mem.total      free_memory_kb -> sys.mem.free
 *   available_memory_kb -> sys.mem.available  buffers_kb -> sys.mem.buffers
 *   cached_kb -> sys.mem.cached (see below)
 *   swap_total_kb -> sys.swap.total       swap_free_kb -> sys.swap.free
 *   derived: sys.swap.used = total - free, sys.mem.used = MemTotal - MemFree
 *   (MemFree-based like plot_memory_usage.py, so page cache counts as used)
 *   proc_rss_kb -> mem.rss, proc_vss_kb -> mem.vms (only values > 0)
 * Timestamps are device epoch seconds with 3 decimals: the first one is the
 * run's time origin and samples are stored relative to it, exactly.
 *
 * The script's bugs are reported as diagnostics instead of being stored:
 *   qnn_proc_columns_zero   proc_rss_kb/proc_vss_kb are 0 in every row (the
 *                           sampler never sees the PID): no mem.rss/mem.vms
 *   qnn_proc_value_zero     some rows have 0 there while others do not
 *   qnn_cached_concatenated cached_kb is Cached||SwapCached (grep matches
 *                           both lines). Proven when cached_kb exceeds
 *                           MemTotal - MemFree (page cache is never free
 *                           memory); from the first proven row on, every
 *                           row is treated as concatenated (the bug is in
 *                           the script, not the data). Where SwapTotal is 0,
 *                           SwapCached is 0 too and Cached = cached_kb / 10
 *                           exactly, which is stored; otherwise the row's
 *                           cached value is not stored.
 *   qnn_timestamp_non_numeric  date without %3N: time = row index * 0.1 s,
 *                           like plot_memory_usage_simple.py; synthetic time
 *   qnn_bad_timestamp, qnn_bad_field_count, qnn_bad_value,
 *   qnn_value_missing (MemTotal/MemAvailable written as the default 0),
 *   qnn_time_backwards (device clock stepped back; samples kept),
 *   time_out_of_range (a timestamp, or its distance from the first one,
 *   beyond +-PR_TIME_LIMIT_NS, 146 years: row skipped)
 */
#include <stdint.h>
#include <string.h>

#include "ingest/csv.h"
#include "ingest/format.h"
#include "base/decimal.h"
#include "base/timecheck.h"

#define QNN_HEADER                                                                                 \
	"timestamp,total_memory_kb,free_memory_kb,available_memory_kb,buffers_kb,cached_kb,"       \
	"swap_total_kb,swap_free_kb,proc_rss_kb,proc_vss_kb"
#define QNN_SYNTHETIC_STEP_NS 100000000 /* 0.1 s, the script's nominal sleep */

enum qnn_col {
	C_TS,
	C_TOTAL,
	C_FREE,
	C_AVAIL,
	C_BUFFERS,
	C_CACHED,
	C_SWAP_TOTAL,
	C_SWAP_FREE,
	C_RSS,
	C_VSS,
	NCOLS
};

enum qnn_series {
	S_TOTAL,
	S_FREE,
	S_AVAIL,
	S_BUFFERS,
	S_CACHED,
	S_CACHED_DECODED,
	S_SWAP_TOTAL,
	S_SWAP_FREE,
	S_SWAP_USED,
	S_USED,
	S_RSS,
	S_VMS,
	NSERIES
};

static const struct {
	const char *name, *orig_unit;
} qnn_series[NSERIES] = {
	[S_TOTAL] = { "sys.mem.total", "kB" },
	[S_FREE] = { "sys.mem.free", "kB" },
	[S_AVAIL] = { "sys.mem.available", "kB" },
	[S_BUFFERS] = { "sys.mem.buffers", "kB" },
	[S_CACHED] = { "sys.mem.cached", "kB" },
	[S_CACHED_DECODED] = { "sys.mem.cached",
			       "kB (cached_kb/10: Cached||SwapCached, SwapCached=0)" },
	[S_SWAP_TOTAL] = { "sys.swap.total", "kB" },
	[S_SWAP_FREE] = { "sys.swap.free", "kB" },
	[S_SWAP_USED] = { "sys.swap.used", "kB (swap_total_kb - swap_free_kb)" },
	[S_USED] = { "sys.mem.used", "kB (MemTotal - MemFree)" },
	[S_RSS] = { "mem.rss", "kB" },
	[S_VMS] = { "mem.vms", "kB" },
};

struct qnn {
	struct pr_writer *w;
	int64_t sid[NSERIES]; /* 0 = not created yet */
	int timed;	      /* first row decided the time base */
	int synthetic;	      /* timestamps were not numeric */
	int64_t origin, prev_ts, index;
	int64_t rows, skipped;
	int cached_bug; /* cached_kb proven concatenated */
	int64_t cached_decoded, cached_dropped;
	int proc_seen;			   /* a proc value > 0 was seen */
	int64_t proc_zero, proc_zero_line; /* zero rows before that, first line */
};

static int qnn_sniff(const unsigned char *head, size_t n, const char *path)
{
	size_t hl = sizeof(QNN_HEADER) - 1, off = 0;
	PR_UNUSED(path);
	if (n >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
		off = 3;
	if (n - off < hl || memcmp(head + off, QNN_HEADER, hl) != 0)
		return 0;
	off += hl;
	if (off == n || head[off] == '\n' || head[off] == '\r')
		return 95;
	return 0;
}

static void sample(struct qnn *q, enum qnn_series s, int64_t ts, int64_t kb)
{
	/* decoded and raw cached values are one series; the first names its orig_unit */
	int64_t *id = &q->sid[s == S_CACHED_DECODED ? S_CACHED : s];
	if (!*id)
		*id = pr_writer_series(q->w, qnn_series[s].name, "", "bytes",
				       qnn_series[s].orig_unit);
	pr_writer_sample(q->w, *id, ts, (double)kb * 1024.0);
}

/* A kB value: decimal digits only, as the script writes them. */
static int parse_kb(const struct pr_csv_field *f, int64_t *kb)
{
	int64_t v = 0;
	size_t i;
	if (f->n == 0 || f->n > 15)
		return -1;
	for (i = 0; i < f->n; i++) {
		if (f->p[i] < '0' || f->p[i] > '9')
			return -1;
		v = v * 10 + (f->p[i] - '0');
	}
	*kb = v;
	return 0;
}

/* Row time in ns relative to the origin; -1 when the row is to be skipped. */
static int row_time(struct qnn *q, const struct pr_csv_field *f, long line, int64_t *ts)
{
	int64_t ns;
	int ok = pr_decimal_scaled(f->p, f->n, 9, &ns) == PR_DEC_OK, far = ok && !pr_time_ok(ns);
	if (far && !q->synthetic) {
		/* Before the time base is decided too: such a row is no origin. */
		pr_writer_diag(q->w, "time_out_of_range", -1, line, f->col,
			       "timestamp more than 2^62 ns (146 years) from the epoch; row "
			       "skipped");
		return -1;
	}
	if (!q->timed) {
		q->timed = 1;
		if (ok) {
			q->origin = ns;
			pr_writer_set_time_origin(q->w, ns);
			pr_writer_meta_set(q->w, "time_base",
					   json_string("device epoch seconds (date +%s.%3N)"));
		} else {
			q->synthetic = 1;
			pr_writer_set_time_synthetic(q->w, 1);
			pr_writer_meta_set(q->w, "time_base",
					   json_string("synthetic: row index * 0.1 s"));
			pr_writer_diag(q->w, "qnn_timestamp_non_numeric", -1, line, f->col,
				       "timestamp is not a number (date without %%3N?); time is "
				       "row index * 0.1 s, the script's nominal interval");
		}
	}
	if (q->synthetic) {
		*ts = q->index * QNN_SYNTHETIC_STEP_NS;
		return 0;
	}
	if (!ok) {
		pr_writer_diag(q->w, "qnn_bad_timestamp", -1, line, f->col,
			       "timestamp is not a number; row skipped");
		return -1;
	}
	/* both within +-PR_TIME_LIMIT_NS: the difference fits, but may not be a time */
	*ts = ns - q->origin;
	if (!pr_time_ok(*ts)) {
		pr_writer_diag(q->w, "time_out_of_range", -1, line, f->col,
			       "timestamp more than 2^62 ns (146 years) from the first row's; row "
			       "skipped");
		return -1;
	}
	return 0;
}

static void row_cached(struct qnn *q, const struct pr_csv_field *f, int64_t ts, const int64_t *v,
		       const int *ok, long line)
{
	int64_t cached = v[C_CACHED];
	if (!q->cached_bug && ok[C_TOTAL] && v[C_TOTAL] > 0 &&
	    (cached > v[C_TOTAL] || (ok[C_FREE] && cached > v[C_TOTAL] - v[C_FREE])))
		q->cached_bug = 1;
	if (!q->cached_bug) {
		sample(q, S_CACHED, ts, cached);
		return;
	}
	pr_writer_diag(q->w, "qnn_cached_concatenated", -1, line, f->col,
		       "cached_kb is the digit concatenation Cached||SwapCached (grep "
		       "\"Cached:\" matches both); decoded as cached_kb/10 where "
		       "swap_total_kb is 0, otherwise not stored");
	if (ok[C_SWAP_TOTAL] && v[C_SWAP_TOTAL] == 0 && f->p[f->n - 1] == '0') {
		sample(q, S_CACHED_DECODED, ts, cached / 10);
		q->cached_decoded++;
	} else {
		q->cached_dropped++;
	}
}

static void row_proc(struct qnn *q, int64_t ts, const int64_t *v, const int *ok, long line)
{
	int64_t i;
	int any = (ok[C_RSS] && v[C_RSS] > 0) || (ok[C_VSS] && v[C_VSS] > 0);
	if (ok[C_RSS] && v[C_RSS] > 0)
		sample(q, S_RSS, ts, v[C_RSS]);
	if (ok[C_VSS] && v[C_VSS] > 0)
		sample(q, S_VMS, ts, v[C_VSS]);
	if (any && !q->proc_seen) {
		q->proc_seen = 1;
		for (i = 0; i < q->proc_zero; i++)
			pr_writer_diag(q->w, "qnn_proc_value_zero", -1, q->proc_zero_line, 0,
				       "proc_rss_kb and proc_vss_kb are 0 in some rows (process "
				       "not found); those rows have no mem.rss/mem.vms");
	}
	if (any)
		return;
	if (q->proc_seen) {
		pr_writer_diag(q->w, "qnn_proc_value_zero", -1, line, 0,
			       "proc_rss_kb and proc_vss_kb are 0 in some rows (process not "
			       "found); those rows have no mem.rss/mem.vms");
	} else if (!q->proc_zero++) {
		q->proc_zero_line = line;
	}
}

static void qnn_row(struct qnn *q, const struct pr_csv_field *f, long line)
{
	int64_t v[NCOLS], ts;
	int ok[NCOLS], i;

	if (row_time(q, &f[C_TS], line, &ts)) {
		q->skipped++;
		return;
	}
	q->index++;
	if (ts < q->prev_ts)
		pr_writer_diag(q->w, "qnn_time_backwards", -1, line, f[C_TS].col,
			       "timestamp earlier than the previous row's (device clock "
			       "stepped back); samples kept");
	q->prev_ts = ts;
	for (i = C_TOTAL; i < NCOLS; i++) {
		ok[i] = parse_kb(&f[i], &v[i]) == 0;
		if (!ok[i])
			pr_writer_diag(q->w, "qnn_bad_value", -1, line, f[i].col,
				       "value is not a whole number of kB; cell skipped");
	}
	for (i = C_TOTAL; i <= C_AVAIL; i++) {
		if (i != C_FREE && ok[i] && v[i] == 0) {
			ok[i] = 0;
			pr_writer_diag(q->w, "qnn_value_missing", -1, line, f[i].col,
				       "MemTotal or MemAvailable is 0 (the script's default "
				       "for a missing value); cell skipped");
		}
	}
	if (ok[C_TOTAL])
		sample(q, S_TOTAL, ts, v[C_TOTAL]);
	if (ok[C_FREE])
		sample(q, S_FREE, ts, v[C_FREE]);
	if (ok[C_TOTAL] && ok[C_FREE])
		sample(q, S_USED, ts, v[C_TOTAL] - v[C_FREE]);
	if (ok[C_AVAIL])
		sample(q, S_AVAIL, ts, v[C_AVAIL]);
	if (ok[C_BUFFERS])
		sample(q, S_BUFFERS, ts, v[C_BUFFERS]);
	if (ok[C_CACHED])
		row_cached(q, &f[C_CACHED], ts, v, ok, line);
	if (ok[C_SWAP_TOTAL])
		sample(q, S_SWAP_TOTAL, ts, v[C_SWAP_TOTAL]);
	if (ok[C_SWAP_FREE])
		sample(q, S_SWAP_FREE, ts, v[C_SWAP_FREE]);
	if (ok[C_SWAP_TOTAL] && ok[C_SWAP_FREE])
		sample(q, S_SWAP_USED, ts, v[C_SWAP_TOTAL] - v[C_SWAP_FREE]);
	row_proc(q, ts, v, ok, line);
	q->rows++;
}

static int check_header(struct pr_csv *c, struct pr_error *err)
{
	const char *h = QNN_HEADER;
	const struct pr_csv_field *f;
	size_t n, i;
	int rc = pr_csv_next(c, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return pr_error_at(err, PR_E_FORMAT, -1, 1, 1, "empty file: no QNN memory header");
	f = pr_csv_fields(c, &n);
	for (i = 0; i < n && *h; i++) {
		size_t len = strcspn(h, ",");
		if (f[i].n != len || memcmp(f[i].p, h, len) != 0)
			return pr_error_at(err, PR_E_FORMAT, -1, pr_csv_line(c), f[i].col,
					   "not a QNN memory CSV header: expected '%.*s'", (int)len,
					   h);
		h += len + (h[len] == ',');
	}
	if (n != NCOLS)
		return pr_error_at(err, PR_E_FORMAT, -1, pr_csv_line(c), 1,
				   "not a QNN memory CSV header: %zu columns, expected %d", n,
				   NCOLS);
	return 0;
}

static int qnn_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_csv *c = pr_csv_new_source(src, NULL);
	struct qnn q;
	int64_t i;
	int rc;

	memset(&q, 0, sizeof(q));
	q.w = w;
	pr_writer_set_collector(w, "qnn-memory-monitor");
	if (check_header(c, err)) {
		pr_csv_free(c);
		return -1;
	}
	while ((rc = pr_csv_next(c, err)) > 0) {
		size_t n;
		const struct pr_csv_field *f = pr_csv_fields(c, &n);
		if (n != NCOLS) {
			pr_writer_diag(w, "qnn_bad_field_count", -1, pr_csv_line(c), 1,
				       "row has %zu fields, expected %d; row skipped", n, NCOLS);
			q.skipped++;
			continue;
		}
		qnn_row(&q, f, pr_csv_line(c));
	}
	pr_csv_free(c);
	if (rc < 0)
		return -1;
	if (q.rows && !q.proc_seen)
		for (i = 0; i < q.proc_zero; i++)
			pr_writer_diag(w, "qnn_proc_columns_zero", -1, q.proc_zero_line, 0,
				       "proc_rss_kb and proc_vss_kb are 0 in every row (the "
				       "sampler never saw the inference PID); mem.rss and mem.vms "
				       "not stored");
	pr_writer_meta_set(w, "csv_header", json_string(QNN_HEADER));
	pr_writer_meta_set(w, "rows", json_integer(q.rows));
	pr_writer_meta_set(w, "rows_skipped", json_integer(q.skipped));
	pr_writer_meta_set(w, "sys.mem.used",
			   json_string("MemTotal - MemFree, as plot_memory_usage.py computes "
				       "it (page cache counts as used)"));
	if (q.cached_bug) {
		pr_writer_meta_set(w, "qnn.cached_decoded_rows", json_integer(q.cached_decoded));
		pr_writer_meta_set(w, "qnn.cached_dropped_rows", json_integer(q.cached_dropped));
	}
	return 0;
}

static const char *const qnn_csv_tokens[] = { "Timestamp", "PSS", "RSS", NULL };

const struct pr_format pr_format_qnn_csv = {
	.name = "qnn-csv",
	.summary = "QNN memory monitor CSV (llama_hexagon monitor_memory.sh)",
	.sniff = qnn_sniff,
	.parse = qnn_parse,
	.tokens = qnn_csv_tokens,
};
