/*
 * fmt_inferix.c - the JSON files of Inferix's profiling module
 * (FORMATS.md section 001): the report profiling_report_<sid>_<ts>.json and
 * the raw data raw_profiling_data_<sid>_<ts>.json, told apart by their keys
 * ("session_info" vs "session_id" + "gpu_data"/"cpu_data").
 *
 * Time: every timestamp is absolute epoch seconds (float). The report's
 * time origin is session_info.start_time, the raw file's its earliest
 * sample; values are stored as ns relative to it, rounded to whole us (a
 * double holds epoch seconds to ~0.24 us). Durations in ms are exact ns.
 *
 * Report:
 *   session_info          span kind "session" (0 .. duration) on the
 *                         "pipeline" track; tags -> meta "tags", tags.rank /
 *                         tags.world_size -> rank (else a rank_<R>/ dir)
 *   gpu_metrics.timeline  gpu.mem.used, gpu.mem.total (MiB -> bytes),
 *                         gpu.util (%), gpu.temp (C), gpu.power (W), device
 *                         "all" (the monitor's sums / maxima over GPUs)
 *   cpu_metrics.timeline  cpu.util (%), sys.mem.used, sys.mem.total (bytes)
 *   events[]              diffusion_step -> span kind "step", block_computation
 *                         -> span kind "block" (pipeline track; they end at
 *                         their timestamp and last computation_time_ms, so
 *                         steps nest in their block), layer_computation ->
 *                         span kind "op" on the "layers" track; the block's
 *                         memory_usage_mb -> series inferix.block.memory_usage
 *                         (named after what the collector recorded: whatever
 *                         the caller passed; the self_forcing pipeline passes
 *                         torch.cuda.max_memory_allocated, a running peak);
 *                         every other event -> an instant with its data as args
 *   every numeric leaf of summary / *_analysis / stage_analysis /
 *   gpu_metrics / cpu_metrics (timelines, steps and blocks lists excepted)
 *                         -> metric origin "reported", named by its key path
 *                         with _mb/_ms dropped, in canonical units (bytes, ns,
 *                         stage seconds -> ns, percent, celsius, watts, Wh)
 *   recommendations[]     -> metric "recommendation" (value 3/2/1 = High/
 *                         Medium/Low, detail "[prio] category: issue -- suggestion")
 *                         and meta "recommendations" (the array as written)
 * Stages carry no per-call times in either file (only totals/min/max/count),
 * so they are reported metrics, not spans.
 *
 * Raw data: per device gpu_<id> -> device "cuda:<id>": memory_used/total/free
 * -> gpu.mem.*, utilization_percent -> gpu.util, memory_util_percent ->
 * gpu.mem.util, temperature_celsius -> gpu.temp, power_watts -> gpu.power,
 * graphics/memory_clock_mhz -> gpu.clock.sm/mem, torch_memory_allocated/
 * reserved_mb -> dev.mem.allocated/reserved; the snapshot totals -> device
 * "all"; cpu_usage_percent -> cpu.util, cpu_per_core_percent[i] -> cpu.util
 * "cpu<i>", memory_*_mb -> sys.mem.*; other numeric keys keep their names.
 *
 * All-zero GPU snapshots (no NVML) are not stored: inferix_gpu_data_zero.
 * Streaming and allocator events are not in the files (only their analyses,
 * which become reported metrics like every other section).
 *
 * Collector quirks as diagnostics: inferix_energy_overcounted,
 * inferix_diffusion_fps_per_step, inferix_gpu_data_zero,
 * inferix_stage_share_double_counted, inferix_samples_capped,
 * inferix_block_memory_is_peak, inferix_first_block_delay_unconditional,
 * inferix_model_total_overcounted; bad input: inferix_bad_value,
 * inferix_bad_event, inferix_nonfinite. The aggregator's output is not read.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/strbuf.h"

#define IX_MAX_POINTS 10000 /* ProfilingConfig.max_data_points */
#define MIB 1048576.0

struct ix_span {
	int64_t track, ts, dur;
	const char *kind;
	char *name, *args;
	size_t seq;
};

struct ix {
	struct pr_writer *w;
	double t0;
	int64_t pipeline, layers, events;
	struct ix_span *spans;
	size_t nspans, aspans;
};

/* ---- helpers ---- */

/*
 * Epoch seconds in a double resolve ~0.24 us today, so relative times are
 * rounded to whole microseconds: the sub-us digits are float noise that
 * would make back-to-back steps overlap.
 */
static int64_t rel_ns(const struct ix *x, double t)
{
	double d = (t - x->t0) * 1e6;
	if (d > 9e15)
		d = 9e15;
	if (d < -9e15)
		d = -9e15;
	return (int64_t)llround(d) * 1000;
}

static int64_t dur_ns(double v, double scale)
{
	double d = v * scale;
	if (!(d >= 0))
		return 0;
	if (d > 9e18)
		d = 9e18;
	return (int64_t)llround(d);
}

/* A number at obj[key]: 0 ok, -1 absent (silent), -2 present but not a number (diag). */
static int get_num(struct ix *x, const json_t *obj, const char *key, const char *path, double *out)
{
	json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v))
		return -1;
	if (json_is_number(v) && isfinite(json_number_value(v))) {
		*out = json_number_value(v);
		return 0;
	}
	pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0, "'%s.%s': expected a number", path,
		       key);
	return -2;
}

static void sample(struct ix *x, const char *name, const char *dev, const char *unit,
		   const char *orig, int64_t ts, double v)
{
	int64_t s = pr_writer_series(x->w, name, dev, unit, orig);
	pr_writer_sample(x->w, s, ts, v);
}

static void add_span(struct ix *x, int64_t track, const char *kind, const char *name, int64_t ts,
		     int64_t dur, const json_t *args)
{
	struct ix_span *s;
	if (x->nspans == x->aspans) {
		size_t n = x->aspans ? x->aspans * 2 : 64;
		struct ix_span *p = realloc(x->spans, n * sizeof(*p));
		if (!p)
			return;
		x->spans = p;
		x->aspans = n;
	}
	s = &x->spans[x->nspans];
	s->track = track;
	s->kind = kind;
	s->ts = ts;
	s->dur = dur;
	s->name = strdup(name);
	s->args = args ? json_dumps(args, JSON_COMPACT) : NULL;
	s->seq = x->nspans;
	if (!s->name) {
		free(s->args);
		return;
	}
	x->nspans++;
}

static int span_cmp(const void *a, const void *b)
{
	const struct ix_span *p = a, *q = b;
	if (p->track != q->track)
		return p->track < q->track ? -1 : 1;
	if (p->ts != q->ts)
		return p->ts < q->ts ? -1 : 1;
	if (p->dur != q->dur)
		return p->dur > q->dur ? -1 : 1;
	return p->seq < q->seq ? -1 : p->seq > q->seq;
}

/* Writes the collected spans in start order per track (longest first at a tie). */
static void flush_spans(struct ix *x)
{
	size_t i;
	qsort(x->spans, x->nspans, sizeof(*x->spans), span_cmp);
	for (i = 0; i < x->nspans; i++) {
		struct ix_span *s = &x->spans[i];
		struct pr_span_in in = { 0 };
		in.track = s->track;
		in.kind = s->kind;
		in.name = pr_writer_intern(x->w, s->name, strlen(s->name));
		in.ts = s->ts;
		in.dur = s->dur;
		in.args = s->args;
		in.args_len = s->args ? strlen(s->args) : 0;
		pr_writer_span(x->w, &in);
	}
}

static void free_spans(struct ix *x)
{
	size_t i;
	for (i = 0; i < x->nspans; i++) {
		free(x->spans[i].name);
		free(x->spans[i].args);
	}
	free(x->spans);
	x->spans = NULL;
	x->nspans = x->aspans = 0;
}

/* An integer from a number or a numeric string (tags pass through default=str). */
static int tag_int(const json_t *v, int64_t *out)
{
	char *end;
	long long n;
	if (json_is_integer(v)) {
		*out = (int64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_real(v) && json_real_value(v) == floor(json_real_value(v)) &&
	    fabs(json_real_value(v)) < 1e15) {
		*out = (int64_t)json_real_value(v);
		return 0;
	}
	if (!json_is_string(v) || !*json_string_value(v))
		return -1;
	n = strtoll(json_string_value(v), &end, 10);
	if (*end)
		return -1;
	*out = (int64_t)n;
	return 0;
}

/* The R of the last "rank_<R>" directory in path, or -1. */
static int64_t rank_from_path(const char *path)
{
	int64_t rank = -1;
	const char *p = path;
	while (p && (p = strstr(p, "rank_")) != NULL) {
		const char *q = p + 5;
		int64_t r = 0;
		int digits = 0;
		if (p == path || p[-1] == '/') {
			while (*q >= '0' && *q <= '9' && digits < 9) {
				r = r * 10 + (*q - '0');
				q++;
				digits++;
			}
			if (digits && *q == '/')
				rank = r;
		}
		p += 5;
	}
	return rank;
}

/* ---- reported metrics ---- */

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

/* Unit and scale of a reported number by its key; *strip = suffix length to drop. */
static const char *metric_unit(const char *path, const char *key, double *scale, size_t *strip)
{
	*scale = 1;
	*strip = 0;
	if (ends_with(key, "_mb")) {
		*scale = MIB;
		*strip = 3;
		return "bytes";
	}
	if (ends_with(key, "_ms")) {
		*scale = 1e6;
		*strip = 3;
		return "ns";
	}
	if ((!strncmp(path, "stage_analysis", 14) &&
	     (!strcmp(key, "total_time") || !strcmp(key, "avg_time") || !strcmp(key, "min_time") ||
	      !strcmp(key, "max_time"))) ||
	    !strcmp(key, "duration")) {
		*scale = 1e9;
		return "ns";
	}
	if (strstr(key, "bytes"))
		return "bytes";
	if (strstr(key, "temperature"))
		return "celsius";
	if (ends_with(key, "_watts"))
		return "watts";
	if (ends_with(key, "_wh"))
		return "Wh";
	if (strstr(key, "percent") || strstr(key, "utilization") || strstr(key, "usage") ||
	    strstr(key, "efficiency"))
		return "percent";
	if (ends_with(key, "_rate") || ends_with(key, "_ratio"))
		return "ratio";
	if (ends_with(key, "fps"))
		return "frames/s";
	if (!strcmp(key, "bps"))
		return "1/s";
	if (strstr(key, "block_size") || ends_with(key, "_frames"))
		return "frames";
	if (strstr(key, "timestep"))
		return "";
	return "count";
}

static void walk(struct ix *x, const json_t *v, struct pr_strbuf *path, const char *key);

static void walk_leaf(struct ix *x, const json_t *v, struct pr_strbuf *path, const char *key)
{
	double scale, d;
	size_t strip;
	const char *unit;
	if (json_is_boolean(v)) {
		pr_writer_metric(x->w, path->buf, json_is_true(v) ? 1 : 0, "bool", 0, "reported",
				 NULL);
		return;
	}
	if (!json_is_number(v) || !isfinite(json_number_value(v)))
		return;
	d = json_number_value(v);
	unit = metric_unit(path->buf, key, &scale, &strip);
	path->len -= strip;
	path->buf[path->len] = '\0';
	pr_writer_metric(x->w, path->buf, d * scale, unit, 0, "reported", NULL);
}

static void walk(struct ix *x, const json_t *v, struct pr_strbuf *path, const char *key)
{
	size_t mark = path->len;
	if (json_is_object(v)) {
		const char *k;
		json_t *c;
		json_object_foreach ((json_t *)v, k, c) {
			if (!strcmp(k, "timeline") || !strcmp(k, "steps") || !strcmp(k, "blocks"))
				continue;
			pr_strbuf_addf(path, "%s%s", path->len ? "." : "", k);
			walk(x, c, path, k);
			path->len = mark;
			path->buf[mark] = '\0';
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *c;
		json_array_foreach (v, i, c) {
			const char *label = pr_jget_str(c, "stage");
			if (!label)
				label = pr_jget_str(c, "layer");
			if (label)
				pr_strbuf_addf(path, ".%s", label);
			else
				pr_strbuf_addf(path, ".%zu", i);
			walk(x, c, path, key);
			path->len = mark;
			path->buf[mark] = '\0';
		}
	} else {
		walk_leaf(x, v, path, key);
	}
}

static void report_metrics(struct ix *x, const json_t *doc)
{
	struct pr_strbuf path = PR_STRBUF_INIT;
	const char *k;
	json_t *v;
	json_object_foreach ((json_t *)doc, k, v) {
		if (!strcmp(k, "session_info") || !strcmp(k, "events") ||
		    !strcmp(k, "recommendations") || !json_is_object(v))
			continue;
		pr_strbuf_addf(&path, "%s", k);
		walk(x, v, &path, k);
		path.len = 0;
		path.buf[0] = '\0';
	}
	pr_strbuf_release(&path);
}

static void recommendations(struct ix *x, const json_t *recs)
{
	size_t i;
	json_t *r;
	if (!recs)
		return;
	if (!json_is_array(recs)) {
		pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
			       "'recommendations': expected an array");
		return;
	}
	json_array_foreach (recs, i, r) {
		const char *cat = pr_jget_str(r, "category"), *prio = pr_jget_str(r, "priority");
		const char *issue = pr_jget_str(r, "issue"), *sug = pr_jget_str(r, "suggestion");
		struct pr_strbuf d = PR_STRBUF_INIT;
		double p = 0;
		if (!cat || !prio || !issue || !sug) {
			pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
				       "'recommendations[%zu]': expected category, priority, issue "
				       "and suggestion strings",
				       i);
			continue;
		}
		if (!strcmp(prio, "High"))
			p = 3;
		else if (!strcmp(prio, "Medium"))
			p = 2;
		else if (!strcmp(prio, "Low"))
			p = 1;
		pr_strbuf_addf(&d, "[%s] %s: %s -- %s", prio, cat, issue, sug);
		pr_writer_metric(x->w, "recommendation", p, "priority", 0, "reported", d.buf);
		pr_strbuf_release(&d);
		if (!strcmp(cat, "Latency Optimization") &&
		    !strncmp(issue, "First-block delay", 17))
			pr_writer_diag(x->w, "inferix_first_block_delay_unconditional", -1, 0, 0,
				       "the reporter recommends reducing the first-block delay "
				       "whenever it is non-zero (no threshold): %s",
				       issue);
	}
	pr_writer_meta_set(x->w, "recommendations", json_deep_copy(recs));
}

/* ---- report: timelines ---- */

static void gpu_timeline(struct ix *x, const json_t *gm)
{
	const json_t *tl = json_object_get(gm, "timeline");
	double psum = 0, tfirst = 0, tlast = 0, energy;
	int64_t n = 0, nonzero = 0;
	size_t i;
	json_t *e;
	if (!json_is_object(gm))
		return;
	if (!json_is_array(tl)) {
		if (tl)
			pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
				       "'gpu_metrics.timeline': expected an array");
		return;
	}
	/* without NVML every snapshot is zeros: nothing worth storing */
	json_array_foreach (tl, i, e) {
		double v;
		if ((!pr_jget_num(e, "memory_used_mb", &v) && v != 0) ||
		    (!pr_jget_num(e, "memory_total_mb", &v) && v != 0) ||
		    (!pr_jget_num(e, "utilization", &v) && v != 0))
			nonzero++;
	}
	if (json_array_size(tl) && !nonzero) {
		pr_writer_diag(x->w, "inferix_gpu_data_zero", -1, 0, 0,
			       "all %zu GPU snapshots are zeros (no NVML device was seen): not "
			       "stored; the report's GPU numbers are meaningless and its 'Average "
			       "GPU utilization is only 0.0%%' recommendation is spurious",
			       json_array_size(tl));
		return;
	}
	json_array_foreach (tl, i, e) {
		char p[64];
		double t, v;
		int64_t ts;
		snprintf(p, sizeof(p), "gpu_metrics.timeline[%zu]", i);
		if (pr_jget_num(e, "timestamp", &t)) {
			pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
				       "'%s.timestamp': expected a number; sample skipped", p);
			continue;
		}
		ts = rel_ns(x, t);
		if (!n)
			tfirst = t;
		tlast = t;
		n++;
		if (!get_num(x, e, "memory_used_mb", p, &v))
			sample(x, "gpu.mem.used", "all", "bytes", "MiB", ts, v * MIB);
		if (!get_num(x, e, "memory_total_mb", p, &v))
			sample(x, "gpu.mem.total", "all", "bytes", "MiB", ts, v * MIB);
		if (!get_num(x, e, "utilization", p, &v))
			sample(x, "gpu.util", "all", "percent", "% (max over GPUs)", ts, v);
		if (!get_num(x, e, "temperature", p, &v))
			sample(x, "gpu.temp", "all", "celsius", "C (max over GPUs)", ts, v);
		if (!get_num(x, e, "power", p, &v)) {
			sample(x, "gpu.power", "all", "watts", "W (sum over GPUs)", ts, v);
			psum += v;
		}
	}
	if (n >= IX_MAX_POINTS)
		pr_writer_diag(x->w, "inferix_samples_capped", -1, 0, 0,
			       "gpu_metrics has %lld samples = max_data_points: the oldest samples "
			       "were dropped and the summary covers only the tail of the session",
			       (long long)n);
	if (json_object_get(json_object_get(gm, "power_analysis"), "total_energy_wh") && n) {
		double interval = n >= 2 ? (tlast - tfirst) / (double)(n - 1) : 0.5;
		energy = psum * interval / 3600.0;
		pr_writer_diag(x->w, "inferix_energy_overcounted", -1, 0, 0,
			       "power_analysis.total_energy_wh is sum(power) * N * 0.5 s / 3600 "
			       "(the sample count N multiplies again, the interval is hardcoded); "
			       "the corrected value is the derived metric "
			       "gpu_metrics.power_analysis.total_energy");
		pr_writer_metric(x->w, "gpu_metrics.power_analysis.total_energy", energy, "Wh", 0,
				 "derived", "sum(power) * mean sample interval / 3600");
	}
}

static void cpu_timeline(struct ix *x, const json_t *cm)
{
	const json_t *tl = json_object_get(cm, "timeline");
	size_t i;
	json_t *e;
	if (!json_is_object(cm))
		return;
	if (!json_is_array(tl)) {
		if (tl)
			pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
				       "'cpu_metrics.timeline': expected an array");
		return;
	}
	json_array_foreach (tl, i, e) {
		char p[64];
		double t, v;
		int64_t ts;
		snprintf(p, sizeof(p), "cpu_metrics.timeline[%zu]", i);
		if (pr_jget_num(e, "timestamp", &t)) {
			pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
				       "'%s.timestamp': expected a number; sample skipped", p);
			continue;
		}
		ts = rel_ns(x, t);
		if (!get_num(x, e, "cpu_usage", p, &v))
			sample(x, "cpu.util", "", "percent", "%", ts, v);
		if (!get_num(x, e, "memory_used_mb", p, &v))
			sample(x, "sys.mem.used", "", "bytes", "MiB", ts, v * MIB);
		if (!get_num(x, e, "memory_total_mb", p, &v))
			sample(x, "sys.mem.total", "", "bytes", "MiB", ts, v * MIB);
	}
	if (json_array_size(tl) >= IX_MAX_POINTS)
		pr_writer_diag(x->w, "inferix_samples_capped", -1, 0, 0,
			       "cpu_metrics has %zu samples = max_data_points: the oldest samples "
			       "were dropped and the summary covers only the tail of the session",
			       json_array_size(tl));
}

/* ---- report: events ---- */

static void event_span(struct ix *x, const json_t *data, const char *p, int64_t end, int64_t track,
		       const char *kind, const char *name)
{
	double ms;
	int64_t d;
	if (get_num(x, data, "computation_time_ms", p, &ms) != 0 || ms < 0) {
		pr_writer_diag(x->w, "inferix_bad_event", -1, 0, 0,
			       "'%s.data.computation_time_ms': expected a number >= 0; kept as an "
			       "instant",
			       p);
		pr_writer_instant(x->w, x->events, pr_writer_intern(x->w, name, strlen(name)), 0,
				  end, "t", NULL, 0);
		return;
	}
	d = dur_ns(ms, 1e6);
	add_span(x, track, kind, name, end - d, d, data);
}

static void events(struct ix *x, const json_t *evs)
{
	json_t *models = json_object(), *e;
	size_t i;
	int mem_seen = 0;
	if (!evs) {
		json_decref(models);
		return;
	}
	if (!json_is_array(evs)) {
		pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0, "'events': expected an array");
		json_decref(models);
		return;
	}
	json_array_foreach (evs, i, e) {
		char p[48];
		const char *name = pr_jget_str(e, "name");
		json_t *data = json_object_get(e, "data");
		double t;
		int64_t ts;
		snprintf(p, sizeof(p), "events[%zu]", i);
		if (!name || pr_jget_num(e, "timestamp", &t)) {
			pr_writer_diag(x->w, "inferix_bad_event", -1, 0, 0,
				       "'%s': expected a name string and a numeric timestamp; "
				       "event skipped",
				       p);
			continue;
		}
		if (data && !json_is_object(data))
			data = NULL;
		ts = rel_ns(x, t);
		if (!strcmp(name, "diffusion_step") && data) {
			event_span(x, data, p, ts, x->pipeline, "step", name);
		} else if (!strcmp(name, "block_computation") && data) {
			double mb;
			event_span(x, data, p, ts, x->pipeline, "block", name);
			if (!get_num(x, data, "memory_usage_mb", p, &mb)) {
				sample(x, "inferix.block.memory_usage", "", "bytes",
				       "MiB (block_computation memory_usage_mb, as the caller "
				       "passed it)",
				       ts, mb * MIB);
				mem_seen = 1;
			}
		} else if (!strcmp(name, "layer_computation") && data) {
			const char *layer = pr_jget_str(data, "layer_name");
			event_span(x, data, p, ts, x->layers, "op", layer ? layer : name);
		} else {
			char *args = data ? json_dumps(data, JSON_COMPACT) : NULL;
			pr_writer_instant(x->w, x->events,
					  pr_writer_intern(x->w, name, strlen(name)), 0, ts, "t",
					  args, args ? strlen(args) : 0);
			free(args);
			if (!strcmp(name, "model_parameters") && data) {
				const char *m = pr_jget_str(data, "model_name");
				if (m && json_object_get(models, m))
					pr_writer_diag(
						x->w, "inferix_model_total_overcounted", -1, 0, 0,
						"model '%s' is recorded twice: the reporter's "
						"total_parameters adds it again although the "
						"models table keeps one entry",
						m);
				if (m)
					json_object_set_new(models, m, json_true());
			}
		}
	}
	json_decref(models);
	if (mem_seen)
		pr_writer_diag(
			x->w, "inferix_block_memory_is_peak", -1, 0, 0,
			"block_computation memory_usage_mb is whatever the caller passes; "
			"the self_forcing pipeline passes torch.cuda.max_memory_allocated(), "
			"a process-lifetime peak, not the block's own usage");
}

/* ---- report: quirks on the analysis sections ---- */

static void analysis_quirks(struct ix *x, const json_t *doc, double duration)
{
	const json_t *da = json_object_get(doc, "diffusion_analysis");
	const json_t *ba = json_object_get(doc, "block_analysis");
	const json_t *sa = json_object_get(doc, "stage_analysis");
	double fps, bfps, tot;
	if (json_is_object(da) && !pr_jget_num(da, "fps", &fps)) {
		if (json_is_object(ba) && !pr_jget_num(ba, "fps", &bfps))
			pr_writer_diag(x->w, "inferix_diffusion_fps_per_step", -1, 0, 0,
				       "diffusion_analysis.fps (%g) counts a block's frames once "
				       "per denoising step and bps counts steps; "
				       "block_analysis.fps (%g) is the real frame rate",
				       fps, bfps);
		else
			pr_writer_diag(x->w, "inferix_diffusion_fps_per_step", -1, 0, 0,
				       "diffusion_analysis.fps (%g) counts a block's frames once "
				       "per denoising step and bps counts steps, not blocks",
				       fps);
	}
	if (json_is_object(sa) && !pr_jget_num(sa, "total_time", &tot) && duration > 0 &&
	    tot > duration * 1.001)
		pr_writer_diag(x->w, "inferix_stage_share_double_counted", -1, 0, 0,
			       "stage totals add up to %.6g s in a %.6g s session: nested stages "
			       "are counted twice in percentage_of_total",
			       tot, duration);
}

/* ---- the two files ---- */

static void set_rank(struct ix *x, const json_t *tags, const char *path)
{
	int64_t rank = -1, ws = -1, dir = rank_from_path(path);
	if (json_is_object(tags)) {
		if (tag_int(json_object_get(tags, "rank"), &rank))
			rank = -1;
		if (tag_int(json_object_get(tags, "world_size"), &ws))
			ws = -1;
	}
	if (rank < 0)
		rank = dir;
	if (rank >= 0 || ws > 0)
		pr_writer_set_rank(x->w, rank, ws);
}

static int parse_report(struct ix *x, const json_t *doc, const char *path, struct pr_error *err)
{
	const json_t *si = json_object_get(doc, "session_info");
	const char *sid;
	double end, duration = 0;
	int64_t sdur = 0;
	if (!json_is_object(si))
		return pr_error_set(err, PR_E_PARSE, "'session_info': expected an object");
	if (pr_jget_num(si, "start_time", &x->t0))
		return pr_error_set(err, PR_E_PARSE,
				    "'session_info.start_time': expected a number");
	sid = pr_jget_str(si, "id");
	pr_writer_set_time_origin(x->w, (int64_t)llround(x->t0 * 1e9));
	pr_writer_meta_set(x->w, "time_base",
			   json_string("epoch seconds; origin = "
				       "session_info.start_time"));
	pr_writer_meta_set(x->w, "inferix_file", json_string("report"));
	if (sid)
		pr_writer_meta_set(x->w, "session_id", json_string(sid));
	else
		pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
			       "'session_info.id': expected a string");
	if (json_object_get(si, "tags"))
		pr_writer_meta_set(x->w, "tags", json_deep_copy(json_object_get(si, "tags")));
	set_rank(x, json_object_get(si, "tags"), path);
	x->pipeline = pr_writer_track(x->w, "thread", "inferix", "pipeline");
	pr_writer_track_set_name(x->w, x->pipeline, "pipeline");
	x->layers = pr_writer_track(x->w, "thread", "inferix", "layers");
	pr_writer_track_set_name(x->w, x->layers, "layers");
	x->events = pr_writer_track(x->w, "thread", "inferix", "events");
	pr_writer_track_set_name(x->w, x->events, "events");
	pr_writer_process_set_name(x->w, "inferix", sid ? sid : "inferix");
	if (!get_num(x, si, "end_time", "session_info", &end) && end >= x->t0) {
		duration = end - x->t0;
		sdur = rel_ns(x, end);
	} else if (!get_num(x, si, "duration", "session_info", &duration) && duration >= 0) {
		sdur = dur_ns(duration, 1e9);
	} else {
		duration = 0;
	}
	add_span(x, x->pipeline, "session", sid ? sid : "session", 0, sdur, NULL);
	if (!get_num(x, si, "duration", "session_info", &end))
		pr_writer_metric(x->w, "session_info.duration", end * 1e9, "ns", 0, "reported",
				 NULL);
	gpu_timeline(x, json_object_get(doc, "gpu_metrics"));
	cpu_timeline(x, json_object_get(doc, "cpu_metrics"));
	events(x, json_object_get(doc, "events"));
	flush_spans(x);
	report_metrics(x, doc);
	recommendations(x, json_object_get(doc, "recommendations"));
	analysis_quirks(x, doc, duration);
	return 0;
}

/* Raw GPU device keys -> series. */
static const struct {
	const char *key, *name, *unit, *orig;
	double scale;
} raw_gpu_keys[] = {
	{ "memory_used_mb", "gpu.mem.used", "bytes", "MiB", MIB },
	{ "memory_total_mb", "gpu.mem.total", "bytes", "MiB", MIB },
	{ "memory_free_mb", "gpu.mem.free", "bytes", "MiB", MIB },
	{ "utilization_percent", "gpu.util", "percent", "%", 1 },
	{ "memory_util_percent", "gpu.mem.util", "percent", "%", 1 },
	{ "memory_utilization_percent", "memory_utilization_percent", "percent", "%", 1 },
	{ "temperature_celsius", "gpu.temp", "celsius", "C", 1 },
	{ "power_watts", "gpu.power", "watts", "W", 1 },
	{ "graphics_clock_mhz", "gpu.clock.sm", "MHz", "MHz", 1 },
	{ "memory_clock_mhz", "gpu.clock.mem", "MHz", "MHz", 1 },
	{ "torch_memory_allocated_mb", "dev.mem.allocated", "bytes", "MiB", MIB },
	{ "torch_memory_reserved_mb", "dev.mem.reserved", "bytes", "MiB", MIB },
	{ "torch_total_memory_mb", "torch_total_memory", "bytes", "MiB", MIB },
	{ "total_gpu_memory_used_mb", "gpu.mem.used", "bytes", "MiB (sum over GPUs)", MIB },
	{ "total_gpu_memory_total_mb", "gpu.mem.total", "bytes", "MiB (sum over GPUs)", MIB },
	{ "max_gpu_utilization", "gpu.util", "percent", "% (max over GPUs)", 1 },
	{ "max_gpu_temperature", "gpu.temp", "celsius", "C (max over GPUs)", 1 },
	{ "total_gpu_power_watts", "gpu.power", "watts", "W (sum over GPUs)", 1 },
};

static const struct {
	const char *key, *name, *unit, *orig;
	double scale;
} raw_cpu_keys[] = {
	{ "cpu_usage_percent", "cpu.util", "percent", "%", 1 },
	{ "memory_total_mb", "sys.mem.total", "bytes", "MiB", MIB },
	{ "memory_used_mb", "sys.mem.used", "bytes", "MiB", MIB },
	{ "memory_available_mb", "sys.mem.available", "bytes", "MiB", MIB },
	{ "memory_usage_percent", "memory_usage_percent", "percent", "%", 1 },
	{ "cpu_core_count", "cpu_core_count", "count", "", 1 },
	{ "cpu_freq_current_mhz", "cpu_freq_current_mhz", "MHz", "MHz", 1 },
	{ "cpu_freq_max_mhz", "cpu_freq_max_mhz", "MHz", "MHz", 1 },
	{ "load_average_1min", "load_average_1min", "", "", 1 },
	{ "load_average_5min", "load_average_5min", "", "", 1 },
	{ "load_average_15min", "load_average_15min", "", "", 1 },
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* Earliest numeric timestamp of a raw list, or +inf. */
static double first_ts(const json_t *list)
{
	double best = INFINITY, t;
	size_t i;
	json_t *e;
	if (!json_is_array(list))
		return best;
	json_array_foreach (list, i, e)
		if (!pr_jget_num(e, "timestamp", &t) && t < best)
			best = t;
	return best;
}

/* A raw entry's timestamp and metrics object, or -1 (diag). */
static int raw_entry(struct ix *x, const json_t *e, const char *p, int64_t *ts, const json_t **m)
{
	double t;
	if (pr_jget_num(e, "timestamp", &t)) {
		pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
			       "'%s.timestamp': expected a number; sample skipped", p);
		return -1;
	}
	*m = json_object_get(e, "metrics");
	if (!json_is_object(*m)) {
		pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
			       "'%s.metrics': expected an object; sample skipped", p);
		return -1;
	}
	*ts = rel_ns(x, t);
	return 0;
}

static void raw_gpu(struct ix *x, const json_t *list, json_t *names)
{
	size_t i, k;
	json_t *e;
	int nonzero = 0;
	/* the totals use NVML keys only: without NVML they are all zeros */
	json_array_foreach (list, i, e) {
		const json_t *m = json_object_get(e, "metrics");
		double v;
		for (k = NELEM(raw_gpu_keys) - 5; k < NELEM(raw_gpu_keys) && !nonzero; k++)
			nonzero = !pr_jget_num(m, raw_gpu_keys[k].key, &v) && v != 0;
	}
	if (json_array_size(list) && !nonzero)
		pr_writer_diag(x->w, "inferix_gpu_data_zero", -1, 0, 0,
			       "all %zu GPU snapshots have zero totals (no NVML device; the totals "
			       "use only NVML keys): totals not stored, and the report's GPU "
			       "numbers are meaningless",
			       json_array_size(list));
	json_array_foreach (list, i, e) {
		char p[64];
		int64_t ts;
		const json_t *m, *devs, *dv;
		const char *dk;
		double v;
		snprintf(p, sizeof(p), "gpu_data[%zu]", i);
		if (raw_entry(x, e, p, &ts, &m))
			continue;
		for (k = NELEM(raw_gpu_keys) - 5; k < NELEM(raw_gpu_keys) && nonzero; k++)
			if (!get_num(x, m, raw_gpu_keys[k].key, p, &v))
				sample(x, raw_gpu_keys[k].name, "all", raw_gpu_keys[k].unit,
				       raw_gpu_keys[k].orig, ts, v * raw_gpu_keys[k].scale);
		devs = json_object_get(m, "gpu_devices");
		if (!json_is_object(devs))
			continue;
		json_object_foreach ((json_t *)devs, dk, dv) {
			char dev[48], dp[128];
			int64_t id;
			const char *dn;
			if (!json_is_object(dv))
				continue;
			if (pr_jget_int(dv, "device_id", &id))
				snprintf(dev, sizeof(dev), "%.40s", dk);
			else
				snprintf(dev, sizeof(dev), "cuda:%lld", (long long)id);
			snprintf(dp, sizeof(dp), "%s.metrics.gpu_devices.%.40s", p, dk);
			for (k = 0; k < NELEM(raw_gpu_keys) - 5; k++)
				if (!get_num(x, dv, raw_gpu_keys[k].key, dp, &v))
					sample(x, raw_gpu_keys[k].name, dev, raw_gpu_keys[k].unit,
					       raw_gpu_keys[k].orig, ts, v * raw_gpu_keys[k].scale);
			dn = pr_jget_str(dv, "device_name");
			if (!dn)
				dn = pr_jget_str(dv, "torch_device_name");
			if (dn && !json_object_get(names, dev))
				json_object_set_new(names, dev, json_string(dn));
		}
	}
	if (json_array_size(list) >= IX_MAX_POINTS)
		pr_writer_diag(x->w, "inferix_samples_capped", -1, 0, 0,
			       "gpu_data has %zu samples = max_data_points: the oldest were "
			       "dropped",
			       json_array_size(list));
}

static void raw_cpu(struct ix *x, const json_t *list)
{
	size_t i, k;
	json_t *e;
	json_array_foreach (list, i, e) {
		char p[64];
		int64_t ts;
		const json_t *m, *cores;
		double v;
		snprintf(p, sizeof(p), "cpu_data[%zu]", i);
		if (raw_entry(x, e, p, &ts, &m))
			continue;
		for (k = 0; k < NELEM(raw_cpu_keys); k++)
			if (!get_num(x, m, raw_cpu_keys[k].key, p, &v))
				sample(x, raw_cpu_keys[k].name, "", raw_cpu_keys[k].unit,
				       raw_cpu_keys[k].orig, ts, v * raw_cpu_keys[k].scale);
		cores = json_object_get(m, "cpu_per_core_percent");
		if (json_is_array(cores)) {
			size_t c;
			json_t *cv;
			json_array_foreach (cores, c, cv) {
				char dev[32];
				if (!json_is_number(cv) || !isfinite(json_number_value(cv)))
					continue;
				snprintf(dev, sizeof(dev), "cpu%zu", c);
				sample(x, "cpu.util", dev, "percent", "%", ts,
				       json_number_value(cv));
			}
		}
	}
	if (json_array_size(list) >= IX_MAX_POINTS)
		pr_writer_diag(x->w, "inferix_samples_capped", -1, 0, 0,
			       "cpu_data has %zu samples = max_data_points: the oldest were "
			       "dropped",
			       json_array_size(list));
}

static int parse_raw(struct ix *x, const json_t *doc, const char *path, struct pr_error *err)
{
	const json_t *gd = json_object_get(doc, "gpu_data"), *cd = json_object_get(doc, "cpu_data");
	const char *sid = pr_jget_str(doc, "session_id");
	double t0 = fmin(first_ts(gd), first_ts(cd)), saved;
	json_t *names;
	if (gd && !json_is_array(gd))
		return pr_error_set(err, PR_E_PARSE, "'gpu_data': expected an array");
	if (cd && !json_is_array(cd))
		return pr_error_set(err, PR_E_PARSE, "'cpu_data': expected an array");
	if (!sid)
		pr_writer_diag(x->w, "inferix_bad_value", -1, 0, 0,
			       "'session_id': expected a string");
	else
		pr_writer_meta_set(x->w, "session_id", json_string(sid));
	pr_writer_meta_set(x->w, "inferix_file", json_string("raw"));
	if (isfinite(t0)) {
		x->t0 = t0;
		pr_writer_set_time_origin(x->w, (int64_t)llround(t0 * 1e9));
		pr_writer_meta_set(x->w, "time_base",
				   json_string("epoch seconds; origin = the first sample"));
	}
	if (!get_num(x, doc, "saved_at", "", &saved))
		pr_writer_meta_set(x->w, "saved_at", json_real(saved));
	set_rank(x, NULL, path);
	names = json_object();
	if (gd)
		raw_gpu(x, gd, names);
	if (cd)
		raw_cpu(x, cd);
	if (json_object_size(names))
		pr_writer_meta_set(x->w, "gpu_devices", names);
	else
		json_decref(names);
	return 0;
}

/* ---- the descriptor ---- */

static int inferix_sniff(const unsigned char *head, size_t n, const char *path)
{
	static const char *const report[] = { "session_info", "start_time", "generated_at", NULL };
	static const char *const report2[] = { "session_info", "summary", NULL };
	static const char *const raw_gpu[] = { "session_id", "gpu_data", "timestamp", NULL };
	static const char *const raw_cpu[] = { "session_id", "cpu_data", "timestamp", NULL };
	static const char *const raw_empty[] = { "session_id", "gpu_data", "cpu_data", "saved_at",
						 NULL };
	static const char *const chrome[] = { "traceEvents", NULL };
	PR_UNUSED(path);
	if (pr_jdoc_head_has(head, n, chrome))
		return 0;
	if (pr_jdoc_head_has(head, n, report) || pr_jdoc_head_has(head, n, report2))
		return 90;
	if (pr_jdoc_head_has(head, n, raw_gpu) || pr_jdoc_head_has(head, n, raw_cpu) ||
	    pr_jdoc_head_has(head, n, raw_empty))
		return 85;
	return 0;
}

static int inferix_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct ix x = { 0 };
	long nonfinite = 0;
	const char *path = pr_source_path(src);
	json_t *doc = pr_jdoc_load(src, &nonfinite, err);
	int rc;
	if (!doc)
		return -1;
	x.w = w;
	pr_writer_set_collector(w, "inferix");
	if (!json_is_object(doc)) {
		json_decref(doc);
		return pr_error_set(err, PR_E_PARSE, "not an Inferix file: expected a JSON object");
	}
	if (nonfinite)
		pr_writer_diag(w, "inferix_nonfinite", -1, 0, 0,
			       "%ld NaN/Infinity values read as null", nonfinite);
	if (json_object_get(doc, "session_info"))
		rc = parse_report(&x, doc, path ? path : "", err);
	else if (json_object_get(doc, "session_id") &&
		 (json_object_get(doc, "gpu_data") || json_object_get(doc, "cpu_data")))
		rc = parse_raw(&x, doc, path ? path : "", err);
	else if (json_object_get(doc, "reports_summary"))
		rc = pr_error_set(err, PR_E_FORMAT,
				  "Inferix aggregated reports are not supported yet");
	else
		rc = pr_error_set(err, PR_E_PARSE,
				  "not an Inferix file: expected 'session_info' (report) or "
				  "'session_id' with 'gpu_data'/'cpu_data' (raw data)");
	free_spans(&x);
	json_decref(doc);
	return rc;
}

static const char *const inferix_tokens[] = { "session_info",
					      "session_id",
					      "model_name",
					      "start_time",
					      "timeline",
					      "events",
					      "timestamp",
					      "category",
					      "stage",
					      "layer",
					      "layer_name",
					      "metrics",
					      "fps",
					      "gpu_data",
					      "gpu_devices",
					      "gpu_metrics",
					      "cpu_data",
					      "cpu_metrics",
					      "cpu_per_core_percent",
					      "memory_used_mb",
					      "memory_total_mb",
					      "utilization",
					      "device_id",
					      "rank",
					      "world_size",
					      "total_time",
					      "reports_summary",
					      "recommendations",
					      "stage_analysis",
					      "block_analysis",
					      "diffusion_analysis",
					      "power_analysis",
					      NULL };

const struct pr_format pr_format_inferix = {
	.name = "inferix",
	.summary = "Inferix profiler report / raw data JSON (profiling_report_*.json, "
		   "raw_profiling_data_*.json)",
	.sniff = inferix_sniff,
	.parse = inferix_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = inferix_tokens,
};
