/*
 * fmt_qeff.c - QEfficient memory profiler data (FORMATS.md section 000).
 *
 * QEff writes no data file; profreport defines one (docs/formats.md "qeff"): the dict
 * from QEffMemoryProfiler.get_synchronized_data() dumped as JSON, plus
 * "operations": [[t, name], ...] (t = seconds on the timestamps clock, or an
 * ISO-8601 datetime string, which then needs "start_time", the datetime of
 * the first sample), optional "sampling_interval" (default 0.05 s).
 *
 * Lists -> series (MiB are bytes / 2^20 and become bytes):
 *   rss_memory -> mem.rss, vms_memory -> mem.vms           (bytes)
 *   cpu_usage -> cpu.util (percent; EMA-smoothed, normalized to all cores)
 *   disk_read_bytes/disk_write_bytes -> disk.read/disk.write (cumulative MiB
 *   despite the names -> bytes); disk_read_rate/disk_write_rate ->
 *   disk.read_rate/disk.write_rate (MiB/s -> bytes/s)
 * operations -> spans kind "phase" on one track, each from its mark to the
 * next; the last ends at "Completion" or at the last sample. "Completion"
 * has no span (an instant). Repeated names are separate spans.
 * Reported metrics, computed exactly as mark_operation() does (keyed by name,
 * the start sample estimated as duration/sampling_interval samples back):
 *   qeff.phase_duration_s.<name> (s), qeff.phase_delta_mb.<name> (MiB),
 *   qeff.peak_rss_mb / qeff.peak_vms_mb (MiB; detail = the peak operation).
 *
 * Diagnostics: qeff_repeated_phase_name, qeff_delta_start_estimated,
 * qeff_disk_counter_decreased, qeff_naive_datetime, qeff_missing_start_time,
 * qeff_bad_value, qeff_bad_operation, qeff_length_mismatch,
 * qeff_missing_series, qeff_time_backwards, qeff_nonfinite, qeff_no_samples.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ingest/datetime.h"
#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/pr_common.h"
#include "base/strbuf.h"

#define QEFF_MIB 1048576.0
#define QEFF_DEFAULT_INTERVAL 0.05
#define QEFF_MAX_S 1e9 /* seconds; beyond that a time is not a time */

enum {
	L_RSS,
	L_VMS,
	L_CPU,
	L_DREAD,
	L_DWRITE,
	L_RREAD,
	L_RWRITE,
	NLISTS
};

static const struct {
	const char *key, *series, *unit, *orig_unit;
	double scale;
} qeff_lists[NLISTS] = {
	[L_RSS] = { "rss_memory", "mem.rss", "bytes", "MiB", QEFF_MIB },
	[L_VMS] = { "vms_memory", "mem.vms", "bytes", "MiB", QEFF_MIB },
	[L_CPU] = { "cpu_usage", "cpu.util", "percent",
		    "percent (EMA-smoothed 0.3*x+0.7*prev, normalized to all cores, capped at 100)",
		    1.0 },
	[L_DREAD] = { "disk_read_bytes", "disk.read", "bytes", "MiB cumulative (key says bytes)",
		      QEFF_MIB },
	[L_DWRITE] = { "disk_write_bytes", "disk.write", "bytes", "MiB cumulative (key says bytes)",
		       QEFF_MIB },
	[L_RREAD] = { "disk_read_rate", "disk.read_rate", "bytes/s", "MiB/s", QEFF_MIB },
	[L_RWRITE] = { "disk_write_rate", "disk.write_rate", "bytes/s", "MiB/s", QEFF_MIB },
};

struct qop {
	double t; /* seconds relative to the first sample */
	const char *name;
};

static int qeff_sniff(const unsigned char *head, size_t n, const char *path)
{
	static const char *const first[] = { "timestamps", NULL };
	static const char *const rss[] = { "timestamps", "rss_memory", NULL };
	static const char *const disk[] = { "timestamps", "disk_read_bytes", NULL };
	static const char *const cpu[] = { "timestamps", "cpu_usage", NULL };
	size_t i = 0;
	PR_UNUSED(path);
	if (pr_jdoc_head_has(head, n, rss) || pr_jdoc_head_has(head, n, disk) ||
	    pr_jdoc_head_has(head, n, cpu))
		return 90;
	if (!pr_jdoc_head_has(head, n, first) || n < PR_SOURCE_HEAD)
		return 0;
	/* A long run: the head is all "timestamps" (the dict's first key). */
	if (n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	i++;
	while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (n - i > 14 && !memcmp(head + i, "\"timestamps\":", 13))
		return 40;
	return 0;
}

static int64_t sec_to_ns(double s)
{
	return (int64_t)llround(s * 1e9);
}

struct qeff {
	struct pr_writer *w;
	json_t *doc;
	size_t n;	   /* samples */
	double *t;	   /* timestamps, seconds */
	double *v[NLISTS]; /* values (NAN = unusable) */
	double interval;
	int has_origin, naive_noted;
	int64_t origin_ns;
	struct qop *ops;
	size_t nops;
};

static void qeff_free(struct qeff *q)
{
	size_t i;
	free(q->t);
	for (i = 0; i < NLISTS; i++)
		free(q->v[i]);
	free(q->ops);
}

/* The timestamps list; its length is the number of samples. */
static int load_times(struct qeff *q, struct pr_error *err)
{
	json_t *a = json_object_get(q->doc, "timestamps"), *e;
	size_t i;
	if (!a) {
		if (json_object_get(q->doc, "operations")) {
			pr_writer_diag(q->w, "qeff_no_samples", -1, 0, 0,
				       "no 'timestamps': the profiler collected no samples "
				       "(get_synchronized_data() returned {})");
			return 0;
		}
		return pr_error_set(err, PR_E_PARSE, "'timestamps': missing (not a QEff file?)");
	}
	if (!json_is_array(a))
		return pr_error_set(err, PR_E_PARSE, "'timestamps': expected an array");
	q->n = json_array_size(a);
	q->t = calloc(q->n ? q->n : 1, sizeof(*q->t));
	if (!q->t)
		return pr_error_set(err, PR_E_LIMIT, "out of memory");
	json_array_foreach (a, i, e) {
		double d = json_is_number(e) ? json_number_value(e) : NAN;
		if (!isfinite(d) || fabs(d) > QEFF_MAX_S) {
			pr_writer_diag(
				q->w, "qeff_bad_value", -1, 0, 0,
				"'timestamps[%zu]': expected a number of seconds; the sample "
				"is skipped",
				i);
			d = NAN;
		} else if (i > 0 && isfinite(q->t[i - 1]) && d < q->t[i - 1]) {
			pr_writer_diag(q->w, "qeff_time_backwards", -1, 0, 0,
				       "'timestamps[%zu]' is earlier than the previous one", i);
		}
		q->t[i] = d;
	}
	return 0;
}

static int load_list(struct qeff *q, int l, struct pr_error *err)
{
	json_t *a = json_object_get(q->doc, qeff_lists[l].key), *e;
	size_t i;
	q->v[l] = malloc((q->n ? q->n : 1) * sizeof(double));
	if (!q->v[l])
		return pr_error_set(err, PR_E_LIMIT, "out of memory");
	for (i = 0; i < q->n; i++)
		q->v[l][i] = NAN;
	if (!a) {
		if (q->n)
			pr_writer_diag(q->w, "qeff_missing_series", -1, 0, 0,
				       "'%s': missing; no %s series", qeff_lists[l].key,
				       qeff_lists[l].series);
		return 0;
	}
	if (!json_is_array(a))
		return pr_error_set(err, PR_E_PARSE, "'%s': expected an array", qeff_lists[l].key);
	if (json_array_size(a) != q->n)
		pr_writer_diag(q->w, "qeff_length_mismatch", -1, 0, 0,
			       "'%s' has %zu values, 'timestamps' has %zu; extra values are "
			       "ignored, missing ones have no sample",
			       qeff_lists[l].key, json_array_size(a), q->n);
	json_array_foreach (a, i, e) {
		if (i >= q->n)
			break;
		if (!json_is_number(e) || !isfinite(json_number_value(e))) {
			pr_writer_diag(q->w, "qeff_bad_value", -1, 0, 0,
				       "'%s[%zu]': expected a number; no sample", qeff_lists[l].key,
				       i);
			continue;
		}
		q->v[l][i] = json_number_value(e);
	}
	return 0;
}

static void write_series(struct qeff *q)
{
	size_t i;
	int l, decreased = 0;
	for (l = 0; l < NLISTS; l++) {
		int64_t sid = 0;
		double prev = NAN;
		for (i = 0; i < q->n; i++) {
			double v = q->v[l][i];
			if (!isfinite(v) || !isfinite(q->t[i]))
				continue;
			if (!sid)
				sid = pr_writer_series(q->w, qeff_lists[l].series, "",
						       qeff_lists[l].unit, qeff_lists[l].orig_unit);
			pr_writer_sample(q->w, sid, sec_to_ns(q->t[i]), v * qeff_lists[l].scale);
			if ((l == L_DREAD || l == L_DWRITE) && isfinite(prev) && v < prev &&
			    !decreased++)
				pr_writer_diag(
					q->w, "qeff_disk_counter_decreased", -1, 0, 0,
					"'%s[%zu]' is lower than the previous value: the "
					"cumulative counter sums live child processes only, so "
					"it drops when a child exits (and the rate goes "
					"negative)",
					qeff_lists[l].key, i);
			prev = v;
		}
	}
}

/* An operation's time in seconds relative to the first sample; -1 if unusable. */
static int op_time(struct qeff *q, json_t *tv, size_t i, double *out)
{
	if (json_is_number(tv)) {
		double d = json_number_value(tv);
		if (!isfinite(d) || fabs(d) > QEFF_MAX_S)
			goto bad;
		*out = d;
		return 0;
	}
	if (json_is_string(tv)) {
		int64_t ns;
		int naive;
		if (pr_parse_datetime(json_string_value(tv), strlen(json_string_value(tv)), &ns,
				      &naive))
			goto bad;
		if (!q->has_origin) {
			pr_writer_diag(q->w, "qeff_missing_start_time", -1, 0, 0,
				       "'operations[%zu][0]' is a datetime but there is no "
				       "'start_time' (the first sample's datetime) to place it; "
				       "operation skipped",
				       i);
			return -1;
		}
		if (naive && !q->naive_noted++)
			pr_writer_diag(q->w, "qeff_naive_datetime", -1, 0, 0,
				       "'operations[%zu][0]' has no UTC offset (QEff uses naive "
				       "local wall-clock datetime.now()); taken as UTC",
				       i);
		*out = (double)(ns - q->origin_ns) / 1e9;
		if (fabs(*out) > QEFF_MAX_S)
			goto bad;
		return 0;
	}
bad:
	pr_writer_diag(q->w, "qeff_bad_operation", -1, 0, 0,
		       "'operations[%zu][0]': expected seconds or an ISO-8601 datetime; "
		       "operation skipped",
		       i);
	return -1;
}

static int load_ops(struct qeff *q, struct pr_error *err)
{
	json_t *a = json_object_get(q->doc, "operations"), *e;
	size_t i;
	if (!a)
		return 0;
	if (!json_is_array(a))
		return pr_error_set(err, PR_E_PARSE, "'operations': expected an array");
	q->ops = calloc(json_array_size(a) + 1, sizeof(*q->ops));
	if (!q->ops)
		return pr_error_set(err, PR_E_LIMIT, "out of memory");
	json_array_foreach (a, i, e) {
		json_t *nm = json_array_get(e, 1);
		double t;
		if (!json_is_array(e) || json_array_size(e) != 2 || !json_is_string(nm)) {
			pr_writer_diag(q->w, "qeff_bad_operation", -1, 0, 0,
				       "'operations[%zu]': expected [time, name]; operation "
				       "skipped",
				       i);
			continue;
		}
		if (op_time(q, json_array_get(e, 0), i, &t))
			continue;
		if (q->nops && t < q->ops[q->nops - 1].t)
			pr_writer_diag(q->w, "qeff_time_backwards", -1, 0, 0,
				       "'operations[%zu]' is earlier than the previous operation",
				       i);
		q->ops[q->nops].t = t;
		q->ops[q->nops].name = json_string_value(nm);
		q->nops++;
	}
	return 0;
}

/* Index of the last usable sample, or -1. */
static ptrdiff_t last_sample(const struct qeff *q)
{
	ptrdiff_t i;
	for (i = (ptrdiff_t)q->n - 1; i >= 0; i--)
		if (isfinite(q->t[i]))
			return i;
	return -1;
}

/* Phase spans; returns the span id of each op (0 = none) in ids[]. */
static void write_phases(struct qeff *q, int64_t *ids)
{
	int64_t track = 0;
	ptrdiff_t last = last_sample(q);
	size_t i;
	for (i = 0; i < q->nops; i++) {
		struct pr_span_in s;
		char args[64];
		double end;
		if (!track) {
			track = pr_writer_track(q->w, "phase", "qeff", "phases");
			pr_writer_track_set_name(q->w, track, "QEff operations");
		}
		if (!strcmp(q->ops[i].name, "Completion")) {
			pr_writer_instant(q->w, track, pr_writer_intern(q->w, "Completion", 10), 0,
					  sec_to_ns(q->ops[i].t), "t", NULL, 0);
			continue;
		}
		if (i + 1 < q->nops)
			end = q->ops[i + 1].t;
		else
			end = last >= 0 ? q->t[last] : q->ops[i].t;
		if (end < q->ops[i].t)
			end = q->ops[i].t;
		memset(&s, 0, sizeof(s));
		s.track = track;
		s.kind = "phase";
		s.name = pr_writer_intern(q->w, q->ops[i].name, strlen(q->ops[i].name));
		s.ts = sec_to_ns(q->ops[i].t);
		s.dur = sec_to_ns(end) - s.ts;
		if (s.dur < 0)
			s.dur = 0;
		snprintf(args, sizeof(args), "{\"mark\":%zu}", i + 1);
		s.args = args;
		s.args_len = strlen(args);
		ids[i] = pr_writer_span(q->w, &s);
	}
}

struct qname {
	const char *name;
	double dur, delta;
	int has_dur, count;
	int64_t span;
};

/*
 * mark_operation() replayed over the samples: durations and RSS deltas keyed
 * by name (repeats overwrite), the start sample estimated as
 * duration/sampling_interval samples back from the mark.
 */
static void write_reported(struct qeff *q, const int64_t *ids)
{
	struct qname *names = calloc(q->nops + 1, sizeof(*names));
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const char *cur = "Initialization";
	double cur_start = 0;
	size_t nn = 0, i, k, early = 0;
	int64_t cur_span = 0;
	if (!names)
		return;
	for (i = 0; i < q->nops; i++) {
		size_t ns = 0; /* samples taken before the mark */
		while (ns < q->n && isfinite(q->t[ns]) && q->t[ns] <= q->ops[i].t)
			ns++;
		for (k = 0; k < nn && strcmp(names[k].name, q->ops[i].name); k++)
			;
		if (k == nn)
			names[nn++].name = q->ops[i].name;
		names[k].count++;
		if (strcmp(cur, "Initialization") && ns > 0) {
			double dur = q->ops[i].t - cur_start, steps = dur / q->interval;
			int64_t back = isfinite(steps) && steps < 1e15 && steps > -1e15
					       ? (int64_t)steps
					       : 1;
			size_t start, truth = 0;
			for (k = 0; strcmp(names[k].name, cur); k++)
				;
			if (back < 1)
				back = 1;
			start = (int64_t)ns > back ? ns - (size_t)back : 0;
			while (truth < q->n && isfinite(q->t[truth]) && q->t[truth] < cur_start)
				truth++;
			if (start < truth)
				early++;
			names[k].dur = dur;
			names[k].has_dur = 1;
			names[k].delta = q->v[L_RSS][ns - 1] - q->v[L_RSS][start];
			names[k].span = cur_span;
		}
		cur = q->ops[i].name;
		cur_start = q->ops[i].t;
		cur_span = ids[i];
	}
	for (k = 0; k < nn; k++) {
		if (names[k].count > 1)
			pr_writer_diag(
				q->w, "qeff_repeated_phase_name", -1, 0, 0,
				"operation '%s' is marked %d times: QEff keys durations and "
				"memory deltas by name, so only the last occurrence's values "
				"are reported (its report shows them on every line); the "
				"phase spans keep every occurrence",
				names[k].name, names[k].count);
		if (!names[k].has_dur)
			continue;
		pr_strbuf_reset(&sb);
		pr_strbuf_addf(&sb, "qeff.phase_duration_s.%s", names[k].name);
		pr_writer_metric(q->w, sb.buf, names[k].dur, "s", names[k].span, "reported",
				 "operation_durations[name]: mark to next mark");
		if (!isfinite(names[k].delta))
			continue;
		pr_strbuf_reset(&sb);
		pr_strbuf_addf(&sb, "qeff.phase_delta_mb.%s", names[k].name);
		pr_writer_metric(q->w, sb.buf, names[k].delta, "MiB", names[k].span, "reported",
				 "operation_memory_deltas[name]: RSS at the next mark minus RSS "
				 "int(duration/sampling_interval) samples back");
	}
	if (early)
		pr_writer_diag(q->w, "qeff_delta_start_estimated", -1, 0, 0,
			       "%zu phase memory delta(s) start before the phase: QEff estimates "
			       "the start sample as duration/sampling_interval samples back, but "
			       "the real sampling period is longer than the interval, so the "
			       "reported delta includes part of the previous phase",
			       early);
	pr_strbuf_release(&sb);
	free(names);
}

/* Peak RSS/VMS as _update_peaks() finds them (first strict maximum). */
static void write_peaks(struct qeff *q)
{
	int l;
	for (l = L_RSS; l <= L_VMS; l++) {
		double peak = 0;
		ptrdiff_t at = -1;
		size_t i, k;
		const char *op = "Initialization";
		char detail[600];
		for (i = 0; i < q->n; i++)
			if (isfinite(q->v[l][i]) && isfinite(q->t[i]) && q->v[l][i] > peak) {
				peak = q->v[l][i];
				at = (ptrdiff_t)i;
			}
		if (at < 0)
			continue;
		/* a mark at the sample's own time counts as after it (sampled first) */
		for (k = 0; k < q->nops && q->ops[k].t < q->t[at]; k++)
			op = q->ops[k].name;
		if (l == L_RSS)
			snprintf(detail, sizeof(detail), "at %.3f s; Peak during: %s", q->t[at],
				 op);
		else
			snprintf(detail, sizeof(detail), "at %.3f s", q->t[at]);
		pr_writer_metric(q->w, l == L_RSS ? "qeff.peak_rss_mb" : "qeff.peak_vms_mb", peak,
				 "MiB", 0, "reported", detail);
	}
}

static int qeff_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct qeff q;
	json_t *st;
	long nonfinite = 0;
	int64_t *ids = NULL;
	int l, rc = -1;

	memset(&q, 0, sizeof(q));
	q.w = w;
	q.doc = pr_jdoc_load(src, &nonfinite, err);
	if (!q.doc)
		return -1;
	if (!json_is_object(q.doc)) {
		pr_error_set(err, PR_E_PARSE, "expected a JSON object (QEff synchronized data)");
		goto out;
	}
	pr_writer_set_collector(w, "qeff-memory-profiler");
	if (nonfinite)
		pr_writer_diag(w, "qeff_nonfinite", -1, 0, 0,
			       "%ld NaN/Infinity value(s) read as null; those samples are skipped",
			       nonfinite);
	q.interval = QEFF_DEFAULT_INTERVAL;
	if (json_object_get(q.doc, "sampling_interval")) {
		if (pr_jget_num(q.doc, "sampling_interval", &q.interval) || q.interval <= 0) {
			pr_error_set(err, PR_E_PARSE,
				     "'sampling_interval': expected a positive number of seconds");
			goto out;
		}
	}
	st = json_object_get(q.doc, "start_time");
	if (st) {
		int naive;
		if (!json_is_string(st) ||
		    pr_parse_datetime(json_string_value(st), strlen(json_string_value(st)),
				      &q.origin_ns, &naive)) {
			pr_error_set(err, PR_E_PARSE,
				     "'start_time': expected an ISO-8601 datetime string");
			goto out;
		}
		q.has_origin = 1;
		pr_writer_set_time_origin(w, q.origin_ns);
		if (naive) {
			q.naive_noted = 1;
			pr_writer_diag(w, "qeff_naive_datetime", -1, 0, 0,
				       "'start_time' has no UTC offset (QEff uses naive local "
				       "wall-clock datetime.now()); taken as UTC");
		}
	}
	if (load_times(&q, err))
		goto out;
	for (l = 0; l < NLISTS; l++)
		if (load_list(&q, l, err))
			goto out;
	if (load_ops(&q, err))
		goto out;
	ids = calloc(q.nops + 1, sizeof(*ids));
	if (!ids) {
		pr_error_set(err, PR_E_LIMIT, "out of memory");
		goto out;
	}
	write_series(&q);
	write_phases(&q, ids);
	write_reported(&q, ids);
	write_peaks(&q);
	pr_writer_meta_set(w, "sampling_interval_s", json_real(q.interval));
	pr_writer_meta_set(w, "samples", json_integer((json_int_t)q.n));
	pr_writer_meta_set(w, "operations", json_integer((json_int_t)q.nops));
	pr_writer_meta_set(w, "time_base",
			   json_string(q.has_origin ? "seconds since start_time (first sample)"
						    : "seconds since the first sample"));
	pr_writer_meta_set(w, "cpu.util",
			   json_string("QEff's cpu_percent: (parent + children) / cpu_count, "
				       "capped at 100, EMA-smoothed 0.3*x + 0.7*prev"));
	rc = 0;
out:
	free(ids);
	qeff_free(&q);
	json_decref(q.doc);
	return rc;
}

static const char *const qeff_tokens[] = { "operations", "timestamps", "rss", "cpu", "disk", NULL };

const struct pr_format pr_format_qeff = {
	.name = "qeff",
	.summary = "QEfficient memory profiler data (get_synchronized_data() + operations, JSON)",
	.sniff = qeff_sniff,
	.parse = qeff_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = qeff_tokens,
};
