/*
 * fmt_massif.c - valgrind massif output (massif.out.<pid>; heaptrack_print
 * --print-massif writes the same). REFERENCE.md section 8.
 *
 *   desc: ... / cmd: ... / time_unit: i|ms|B      -> meta
 *   snapshot=N, time=, mem_heap_B=, mem_heap_extra_B=, mem_stacks_B=,
 *   heap_tree=empty|detailed|peak                -> one sample each in
 *     heap.used, heap.extra, stack.used (bytes) at ts = time, and massif.total
 *     = their sum, the total ms_print's graph and table lead with
 * time_unit ms: ts = time * 1e6 ns. time_unit i (instructions) or B (bytes
 * allocated): the x axis is not time; ts = the value as is, and the run is
 * marked time_synthetic (meta "time_unit" says what ts counts in words,
 * meta "x_unit" is "instructions" or "bytes" for the renderers).
 * The peak snapshot's allocation tree becomes reported metrics
 * "massif.peak.tree" (bytes), one per node in file order (depth first),
 * detail = the call path from the allocation function outwards ("fn
 * (file:line) <- caller ..."; its depth is the number of entries), plus
 * massif.peak.heap / .heap_extra / .stacks / .snapshot / .time (ns for ms,
 * else the time= value as written).
 *
 * Diagnostics: massif_bad_line, massif_bad_value, massif_incomplete_snapshot,
 * massif_time_backwards, massif_peak_not_max (the marked peak is not the
 * largest heap+extra: massif's --peak-inaccuracy), massif_tree_sum (a node's
 * children do not add up to it), massif_no_peak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/lines.h"
#include "base/pr_common.h"
#include "base/timecheck.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define MS_MAX_DEPTH 256
#define MS_MAX_LINE (1 << 20) /* bytes; massif writes lines of at most a few KiB */

static int ms_sniff(const unsigned char *h, size_t n, const char *path)
{
	size_t i = 0;
	PR_UNUSED(path);
	if (n >= 3 && !memcmp(h, "\xEF\xBB\xBF", 3))
		i = 3;
	if (n - i < 6 || memcmp(h + i, "desc: ", 5) != 0)
		return 0;
	/* desc:, then cmd:, then time_unit: on the next lines */
	while (i < n && h[i] != '\n')
		i++;
	if (n - i < 6 || memcmp(h + i + 1, "cmd: ", 4) != 0)
		return i >= n ? 30 : 0;
	for (i++; i < n && h[i] != '\n'; i++)
		;
	if (i >= n)
		return 40;
	if (n - i > 11 && !memcmp(h + i + 1, "time_unit: ", 11))
		return 95;
	return 0;
}

enum {
	F_TIME,
	F_HEAP,
	F_EXTRA,
	F_STACKS,
	NF
};

struct ms {
	struct pr_writer *w;
	int unit_ms;
	int64_t sid[4]; /* heap.used, heap.extra, stack.used, massif.total */
	int64_t snap;	/* current snapshot number, -1 none */
	long snap_line;
	int64_t f[NF];
	int have[NF];
	int tree; /* 0 empty/none, 1 detailed, 2 peak */
	int64_t prev_ts;
	int started;
	/* peak */
	int peak_seen;
	int64_t peak_heap, peak_extra, peak_stacks, peak_snap, peak_ts, max_total, max_snap;
	/* tree */
	int in_tree, tree_is_peak;
	int depth;
	int64_t bytes[MS_MAX_DEPTH], sum[MS_MAX_DEPTH];
	char *label[MS_MAX_DEPTH];
};

static void tree_close_to(struct ms *m, int depth, long line)
{
	while (m->depth > depth) {
		int d = m->depth - 1;
		if (m->sum[d] != m->bytes[d] && m->sum[d] != 0)
			pr_writer_diag(m->w, "massif_tree_sum", -1, line, 0,
				       "a tree node's children add up to %s%lld bytes, not "
				       "its %lld",
				       m->sum[d] == INT64_MAX ? "at least " : "",
				       (long long)m->sum[d], (long long)m->bytes[d]);
		free(m->label[d]);
		m->label[d] = NULL;
		m->depth = d;
	}
}

static void snap_flush(struct ms *m)
{
	int64_t ts;
	int k;
	static const char *const names[3] = { "heap.used", "heap.extra", "stack.used" };
	if (m->snap < 0)
		return;
	tree_close_to(m, 0, m->snap_line);
	m->in_tree = 0;
	for (k = 0; k < NF; k++)
		if (!m->have[k])
			break;
	if (k < NF) {
		pr_writer_diag(m->w, "massif_incomplete_snapshot", -1, m->snap_line, 1,
			       "snapshot=%lld lacks time=, mem_heap_B=, mem_heap_extra_B= or "
			       "mem_stacks_B=; skipped",
			       (long long)m->snap);
		m->snap = -1;
		return;
	}
	ts = m->unit_ms ? m->f[F_TIME] * 1000000 : m->f[F_TIME];
	if (m->started && ts < m->prev_ts)
		pr_writer_diag(m->w, "massif_time_backwards", -1, m->snap_line, 1,
			       "snapshot=%lld has an earlier time than the previous one",
			       (long long)m->snap);
	m->started = 1;
	m->prev_ts = ts;
	for (k = 0; k < 3; k++) {
		if (!m->sid[k])
			m->sid[k] = pr_writer_series(m->w, names[k], "", "bytes", "B");
		pr_writer_sample(m->w, m->sid[k], ts, (double)m->f[F_HEAP + k]);
	}
	/* the total ms_print leads with (its graph's y axis): heap + extra + stacks */
	if (!m->sid[3])
		m->sid[3] = pr_writer_series(m->w, "massif.total", "", "bytes",
					     "mem_heap_B + mem_heap_extra_B + mem_stacks_B");
	pr_writer_sample(m->w, m->sid[3], ts,
			 (double)m->f[F_HEAP] + (double)m->f[F_EXTRA] + (double)m->f[F_STACKS]);
	if (m->f[F_HEAP] + m->f[F_EXTRA] > m->max_total || m->max_snap < 0) {
		m->max_total = m->f[F_HEAP] + m->f[F_EXTRA];
		m->max_snap = m->snap;
	}
	if (m->tree == 2) {
		m->peak_seen = 1;
		m->peak_ts = ts;
		m->peak_heap = m->f[F_HEAP];
		m->peak_extra = m->f[F_EXTRA];
		m->peak_stacks = m->f[F_STACKS];
		m->peak_snap = m->snap;
	}
	m->snap = -1;
}

static int parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtoll(s, &end, 10);
	if (*end || v < 0 || v > (long long)1 << 62)
		return -1;
	*out = v;
	return 0;
}

/* "nN: BYTES rest" at indentation depth d. */
static void tree_line(struct ms *m, const char *s, long line)
{
	int d = 0;
	char *end;
	long long nch, b;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const char *label;
	while (s[d] == ' ')
		d++;
	if (s[d] != 'n' || d >= MS_MAX_DEPTH) {
		pr_writer_diag(m->w, "massif_bad_line", -1, line, 1,
			       "not a tree line ('nN: bytes ...'); ignored");
		return;
	}
	nch = strtoll(s + d + 1, &end, 10);
	if (end == s + d + 1 || *end != ':' || nch < 0) {
		pr_writer_diag(m->w, "massif_bad_line", -1, line, 1, "bad tree line; ignored");
		return;
	}
	b = strtoll(end + 1, &end, 10);
	if (b < 0 || (*end != ' ' && *end != '\0') || d > m->depth) {
		pr_writer_diag(m->w, "massif_bad_line", -1, line, 1,
			       "bad tree line (bytes or indentation); ignored");
		return;
	}
	label = *end ? end + 1 : "";
	tree_close_to(m, d, line);
	if (d > 0 && b > m->bytes[d - 1]) {
		pr_writer_diag(m->w, "massif_tree_sum", -1, line, 0,
			       "a tree node of %lld bytes is larger than its parent's %lld; taken "
			       "as %lld",
			       (long long)b, (long long)m->bytes[d - 1],
			       (long long)m->bytes[d - 1]);
		b = m->bytes[d - 1];
	}
	if (d > 0) /* saturated past 2^63: massif_tree_sum says they do not add up */
		m->sum[d - 1] = pr_add_sat(m->sum[d - 1], b);
	m->bytes[d] = b;
	m->sum[d] = 0;
	m->label[d] = strdup(label);
	m->depth = d + 1;
	if (!m->tree_is_peak || d == 0)
		return;
	/* the call path from the allocation function's caller (depth 1) out */
	{
		int k;
		for (k = 1; k <= d; k++) {
			const char *l = m->label[k] ? m->label[k] : "";
			if (!strncmp(l, "0x", 2) && strstr(l, ": ")) /* drop "0xADDR: " */
				l = strstr(l, ": ") + 2;
			if (k > 1)
				pr_strbuf_addstr(&sb, " <- ");
			pr_strbuf_addstr(&sb, l);
		}
	}
	pr_writer_metric(m->w, "massif.peak.tree", (double)b, "bytes", 0, "reported",
			 sb.len ? sb.buf : "");
	pr_strbuf_release(&sb);
}

static void line_kv(struct ms *m, char *s, long line)
{
	static const char *const keys[NF] = { "time=", "mem_heap_B=", "mem_heap_extra_B=",
					      "mem_stacks_B=" };
	int k;
	if (!strncmp(s, "snapshot=", 9)) {
		int64_t v;
		snap_flush(m);
		if (parse_i64(s + 9, &v)) {
			pr_writer_diag(m->w, "massif_bad_value", -1, line, 10,
				       "snapshot= is not a number");
			v = 0;
		}
		m->snap = v;
		m->snap_line = line;
		memset(m->have, 0, sizeof(m->have));
		m->tree = 0;
		m->in_tree = 0;
		m->tree_is_peak = 0;
		return;
	}
	for (k = 0; k < NF; k++) {
		size_t kl = strlen(keys[k]);
		if (strncmp(s, keys[k], kl))
			continue;
		if (m->snap < 0) {
			pr_writer_diag(m->w, "massif_bad_line", -1, line, 1,
				       "field outside a snapshot; ignored");
			return;
		}
		if (parse_i64(s + kl, &m->f[k])) {
			pr_writer_diag(m->w, "massif_bad_value", -1, line, (long)kl + 1,
				       "'%.*s' is not a whole number", (int)(kl - 1), keys[k]);
			return;
		}
		m->have[k] = 1;
		return;
	}
	if (!strncmp(s, "heap_tree=", 10)) {
		if (!strcmp(s + 10, "peak"))
			m->tree = 2;
		else if (!strcmp(s + 10, "detailed"))
			m->tree = 1;
		else if (strcmp(s + 10, "empty"))
			pr_writer_diag(m->w, "massif_bad_value", -1, line, 11,
				       "heap_tree= is not empty, detailed or peak");
		m->in_tree = m->tree != 0;
		m->tree_is_peak = m->tree == 2;
		tree_close_to(m, 0, line);
		return;
	}
	if (m->in_tree && (s[0] == 'n' || s[0] == ' ')) {
		tree_line(m, s, line);
		return;
	}
	if (s[0] == '#' || s[0] == '\0')
		return;
	pr_writer_diag(m->w, "massif_bad_line", -1, line, 1, "unrecognized line; ignored");
}

static int header(struct ms *m, char *s, long line, int *seen, struct pr_error *err)
{
	static const char *const keys[3] = { "desc: ", "cmd: ", "time_unit: " };
	const char *val = s + strlen(keys[*seen]);
	if (strncmp(s, keys[*seen], strlen(keys[*seen])) &&
	    !(strlen(s) + 1 == strlen(keys[*seen]) && !strncmp(s, keys[*seen], strlen(s))))
		return pr_error_at(err, PR_E_PARSE, -1, line, 1, "massif header: expected '%.*s'",
				   (int)strlen(keys[*seen]) - 1, keys[*seen]);
	if (strlen(s) < strlen(keys[*seen]))
		val = "";
	if (*seen == 0) {
		pr_writer_meta_set(m->w, "massif.desc", json_string(val));
	} else if (*seen == 1) {
		pr_writer_meta_set(m->w, "massif.cmd", json_string(val));
	} else {
		if (!strcmp(val, "ms")) {
			m->unit_ms = 1;
			pr_writer_meta_set(m->w, "time_unit",
					   json_string("ms (massif --time-unit=ms); ts in ns"));
		} else if (!strcmp(val, "i") || !strcmp(val, "B")) {
			pr_writer_set_time_synthetic(m->w, 1);
			pr_writer_meta_set(
				m->w, "time_unit",
				json_string(
					val[0] == 'i'
						? "i: ts counts instructions executed, not ns"
						: "B: ts counts bytes allocated/freed, not ns"));
			/* what the x axis counts, for the renderers: never shown as time */
			pr_writer_meta_set(m->w, "x_unit",
					   json_string(val[0] == 'i' ? "instructions" : "bytes"));
		} else {
			return pr_error_at(err, PR_E_PARSE, -1, line, 12,
					   "'time_unit': expected i, ms or B");
		}
	}
	(*seen)++;
	return 0;
}

static int ms_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_lines rd;
	struct ms m;
	char *s = NULL;
	long line = 0;
	int seen = 0, rc = 0, k, got = 0;

	pr_lines_init(&rd, src, MS_MAX_LINE, "massif");
	memset(&m, 0, sizeof(m));
	m.w = w;
	m.snap = -1;
	m.max_snap = -1;
	pr_writer_set_collector(w, "valgrind-massif");
	while (rc == 0 && (got = pr_lines_next(&rd, &s, err)) > 0) {
		line++;
		if (line == 1 && !strncmp(s, "\xEF\xBB\xBF", 3))
			s += 3;
		if (seen < 3)
			rc = header(&m, s, line, &seen, err);
		else
			line_kv(&m, s, line);
	}
	if (rc == 0 && got < 0)
		rc = -1;
	if (rc == 0 && seen < 3)
		rc = pr_error_at(err, PR_E_PARSE, -1, line > 0 ? line : 0, line > 0 ? 1 : 0,
				 "massif header incomplete: expected desc:, cmd: and time_unit:");
	if (rc == 0) {
		snap_flush(&m);
		if (m.peak_seen) {
			pr_writer_metric(w, "massif.peak.snapshot", (double)m.peak_snap, "count", 0,
					 "reported", "heap_tree=peak");
			pr_writer_metric(w, "massif.peak.heap", (double)m.peak_heap, "bytes", 0,
					 "reported", "mem_heap_B");
			pr_writer_metric(w, "massif.peak.heap_extra", (double)m.peak_extra, "bytes",
					 0, "reported", "mem_heap_extra_B");
			pr_writer_metric(w, "massif.peak.stacks", (double)m.peak_stacks, "bytes", 0,
					 "reported", "mem_stacks_B");
			pr_writer_metric(
				w, "massif.peak.time", (double)m.peak_ts,
				m.unit_ms ? "ns" : "count", 0, "reported",
				m.unit_ms ? "time= (ms) in ns"
					  : "time= as written: instructions (i) or bytes (B)");
			if (m.max_total > m.peak_heap + m.peak_extra)
				pr_writer_diag(
					w, "massif_peak_not_max", -1, 0, 0,
					"snapshot=%lld has more heap+extra (%lld B) than the "
					"peak snapshot=%lld (%lld B): massif records the peak "
					"only within --peak-inaccuracy (default 1%%)",
					(long long)m.max_snap, (long long)m.max_total,
					(long long)m.peak_snap,
					(long long)(m.peak_heap + m.peak_extra));
		} else if (m.started) {
			pr_writer_diag(w, "massif_no_peak", -1, 0, 0,
				       "no heap_tree=peak snapshot (the program ended before a "
				       "detailed peak was taken); no peak tree");
		}
	}
	for (k = 0; k < MS_MAX_DEPTH; k++)
		free(m.label[k]);
	pr_lines_release(&rd);
	return rc;
}

static const char *const massif_tokens[] = { "desc:",
					     "cmd:",
					     "time_unit:",
					     "ms",
					     "B",
					     "i",
					     "snapshot=",
					     "mem_heap_B=",
					     "mem_heap_extra_B=",
					     "mem_stacks_B=",
					     "heap_tree=",
					     "peak",
					     "detailed",
					     "empty",
					     "#-----------",
					     NULL };

const struct pr_format pr_format_massif = {
	.name = "massif",
	.summary = "valgrind massif output (massif.out.<pid>, heaptrack --print-massif)",
	.sniff = ms_sniff,
	.parse = ms_parse,
	.tokens = massif_tokens,
};
