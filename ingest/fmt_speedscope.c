/*
 * fmt_speedscope.c - speedscope JSON (REFERENCE.md section 7; py-spy
 * `record -f speedscope`, speedscope's own exporter, MemoryTracer's
 * export_flame_graph).
 *
 * shared.frames are indexed, never assumed in any order. Each profile is
 * one track (kind "thread", pid "speedscope", tid = the profile index, name =
 * the profile name); its spans have kind "frame" and args file/line/col when
 * the frame has them.
 *   evented  O/C events -> nested spans. Time units -> ns; the file's
 *            smallest time startValue is time 0, so profiles stay aligned.
 *   sampled  samples laid end to end from startValue, each lasting its
 *            weight, adjacent samples sharing a stack prefix sharing those
 *            spans (speedscope's time-order view): the time order stays and
 *            per-frame totals are SUM(self)/SUM(dur) in SQL, which an
 *            aggregated per-stack table would not give back.
 *   unit "bytes"/"none" (and invalid units): the values are not times; they
 *            are stored as synthetic time, 1 unit = 1 ns (run.time_synthetic,
 *            diagnostic speedscope_synthetic_time).
 * MemoryTracer's export (unit "megabytes", exporter
 * "gpu_optimizer.memory_tracer"): a weight is the device's current allocated
 * MiB at a hook, not a cost. Each sample gets 1 synthetic ns, its span kind
 * "layer", and its weight goes to dev.mem.allocated (bytes, "cuda:0").
 *
 * Diagnostics: speedscope_schema, speedscope_invalid_unit,
 * speedscope_synthetic_time, speedscope_bad_frame, speedscope_bad_event,
 * speedscope_time_backwards, speedscope_unbalanced, speedscope_unmatched_close,
 * speedscope_unclosed, speedscope_length_mismatch, speedscope_bad_weight,
 * speedscope_bad_profile, speedscope_end_value, speedscope_flat_stacks,
 * nonfinite_number.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define SS_SCHEMA "https://www.speedscope.app/file-format-schema.json"
#define MT_EXPORTER "gpu_optimizer.memory_tracer"
#define MIB 1048576.0
#define NS_MAX 9.0e18

struct ss_frame {
	int64_t name;
	char *args; /* {"file":..,"line":..,"col":..} or NULL */
};

struct ss_open {
	int64_t frame, ts;
};

struct ss {
	struct pr_writer *w;
	struct ss_frame *frames;
	size_t nframes;
	struct ss_open *stack;
	size_t depth, cap;
	int64_t track;
	const char *kind;
	double origin_ns; /* smallest time-unit startValue, in ns */
	int synthetic;
	struct pr_strbuf tmp;
};

static int ss_sniff(const unsigned char *head, size_t n, const char *path)
{
	static const char *const schema[] = { "$schema", NULL };
	static const char *const shape[] = { "shared", "frames", "profiles", NULL };
	size_t k = sizeof(SS_SCHEMA) - 1, i;
	PR_UNUSED(path);
	if (pr_jdoc_head_has(head, n, schema))
		for (i = 0; i + k <= n; i++)
			if (head[i] == 'h' && !memcmp(head + i, SS_SCHEMA, k))
				return 95;
	if (pr_jdoc_head_has(head, n, shape))
		return 70;
	return 0;
}

/* ns per unit; 0 for a non-time unit; -1 for an invalid one. */
static double unit_scale(const char *u)
{
	if (!u)
		return -1;
	if (!strcmp(u, "nanoseconds"))
		return 1;
	if (!strcmp(u, "microseconds"))
		return 1e3;
	if (!strcmp(u, "milliseconds"))
		return 1e6;
	if (!strcmp(u, "seconds"))
		return 1e9;
	if (!strcmp(u, "bytes") || !strcmp(u, "none"))
		return 0;
	return -1;
}

static void load_frames(struct ss *s, const json_t *frames)
{
	size_t i;
	s->nframes = json_array_size(frames);
	s->frames = pr_xcalloc(s->nframes ? s->nframes : 1, sizeof(*s->frames));
	for (i = 0; i < s->nframes; i++) {
		const json_t *f = json_array_get(frames, i);
		const char *name = json_is_object(f) ? pr_jget_str(f, "name") : NULL;
		json_t *args;
		if (!name) {
			pr_writer_diag(s->w, "speedscope_bad_frame", -1, 0, 0,
				       "'shared.frames[%zu]': expected an object with a string "
				       "\"name\"; named \"(frame %zu)\"",
				       i, i);
			pr_strbuf_reset(&s->tmp);
			pr_strbuf_addf(&s->tmp, "(frame %zu)", i);
			s->frames[i].name = pr_writer_intern(s->w, s->tmp.buf, s->tmp.len);
			continue;
		}
		s->frames[i].name = pr_writer_intern(s->w, name, strlen(name));
		args = json_object();
		if (pr_jget_str(f, "file"))
			json_object_set_new(args, "file", json_string(pr_jget_str(f, "file")));
		if (json_is_number(json_object_get(f, "line")))
			json_object_set(args, "line", json_object_get(f, "line"));
		if (json_is_number(json_object_get(f, "col")))
			json_object_set(args, "col", json_object_get(f, "col"));
		if (json_object_size(args) > 0)
			s->frames[i].args = json_dumps(args, JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(args);
	}
}

/* A frame index from a JSON value; -1 (with a diagnostic) when unusable. */
static int64_t frame_index(struct ss *s, const json_t *v, const char *where, size_t pi, size_t i)
{
	double d;
	if (json_is_number(v)) {
		d = json_number_value(v);
		if (d == floor(d) && d >= 0 && d < (double)s->nframes)
			return (int64_t)d;
	}
	pr_writer_diag(s->w, "speedscope_bad_frame", -1, 0, 0,
		       "'profiles[%zu].%s[%zu]': not an index into shared.frames (%zu frames); "
		       "skipped",
		       pi, where, i, s->nframes);
	return -1;
}

static void open_frame(struct ss *s, int64_t frame, int64_t ts)
{
	struct pr_span_in in;
	memset(&in, 0, sizeof(in));
	in.track = s->track;
	in.kind = s->kind;
	in.name = s->frames[frame].name;
	in.ts = ts;
	in.args = s->frames[frame].args;
	in.args_len = in.args ? strlen(in.args) : 0;
	pr_writer_span_begin(s->w, &in);
	if (s->depth == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 32;
		s->stack = pr_xrealloc(s->stack, s->cap * sizeof(*s->stack));
	}
	s->stack[s->depth].frame = frame;
	s->stack[s->depth].ts = ts;
	s->depth++;
}

static void close_top(struct ss *s, int64_t ts)
{
	struct ss_open *o = &s->stack[--s->depth];
	pr_writer_span_end(s->w, s->track, ts < o->ts ? o->ts : ts, NULL, 0);
}

/* Value -> ns on the run's clock; INT64_MIN when out of range. */
static int64_t to_ns(const struct ss *s, double v, double scale, double base)
{
	double ns = scale > 0 ? v * scale - s->origin_ns : v - base;
	if (!isfinite(ns) || fabs(ns) > NS_MAX)
		return INT64_MIN;
	return (int64_t)llround(ns);
}

static void close_all(struct ss *s, size_t pi, int64_t ts)
{
	if (s->depth > 0)
		pr_writer_diag(s->w, "speedscope_unclosed", -1, 0, 0,
			       "'profiles[%zu]': %zu frames opened and never closed; closed at the "
			       "profile's end",
			       pi, s->depth);
	while (s->depth > 0)
		close_top(s, ts);
}

static void evented(struct ss *s, const json_t *p, size_t pi, double scale, double start,
		    double end)
{
	const json_t *events = json_object_get(p, "events");
	int64_t prev = INT64_MIN, last = 0;
	size_t i;
	if (!json_is_array(events)) {
		pr_writer_diag(s->w, "speedscope_bad_profile", -1, 0, 0,
			       "'profiles[%zu].events': expected an array; profile skipped", pi);
		return;
	}
	for (i = 0; i < json_array_size(events); i++) {
		const json_t *e = json_array_get(events, i);
		const char *type = json_is_object(e) ? pr_jget_str(e, "type") : NULL;
		double at;
		int64_t ts, frame;
		if (!type || (strcmp(type, "O") && strcmp(type, "C")) ||
		    pr_jget_num(e, "at", &at)) {
			pr_writer_diag(
				s->w, "speedscope_bad_event", -1, 0, 0,
				"'profiles[%zu].events[%zu]': expected {\"type\": \"O\"|\"C\", "
				"\"at\": number, \"frame\": index}; skipped",
				pi, i);
			continue;
		}
		frame = frame_index(s, json_object_get(e, "frame"), "events", pi, i);
		if (frame < 0)
			continue;
		ts = to_ns(s, at, scale, start);
		if (ts == INT64_MIN) {
			pr_writer_diag(s->w, "speedscope_bad_event", -1, 0, 0,
				       "'profiles[%zu].events[%zu].at': out of range; skipped", pi,
				       i);
			continue;
		}
		if (ts < prev) {
			pr_writer_diag(
				s->w, "speedscope_time_backwards", -1, 0, 0,
				"'profiles[%zu].events[%zu].at' decreases (speedscope refuses "
				"this file); taken as the previous time",
				pi, i);
			ts = prev;
		}
		prev = last = ts;
		if (type[0] == 'O') {
			open_frame(s, frame, ts);
			continue;
		}
		if (s->depth > 0 && s->stack[s->depth - 1].frame == frame) {
			close_top(s, ts);
			continue;
		}
		{
			size_t k;
			for (k = s->depth; k > 0 && s->stack[k - 1].frame != frame; k--)
				;
			if (k == 0) {
				pr_writer_diag(
					s->w, "speedscope_unmatched_close", -1, 0, 0,
					"'profiles[%zu].events[%zu]': closes frame %lld, which "
					"is not open; skipped",
					pi, i, (long long)frame);
				continue;
			}
			pr_writer_diag(s->w, "speedscope_unbalanced", -1, 0, 0,
				       "'profiles[%zu].events[%zu]': closes frame %lld while frame "
				       "%lld is on top; the frames above it are closed too",
				       pi, i, (long long)frame,
				       (long long)s->stack[s->depth - 1].frame);
			while (s->depth >= k)
				close_top(s, ts);
		}
	}
	if (s->depth > 0) {
		int64_t e = to_ns(s, end, scale, start);
		close_all(s, pi, e != INT64_MIN && e > last ? e : last);
	}
}

static void sampled(struct ss *s, const json_t *p, size_t pi, double scale, double start,
		    int memtracer)
{
	const json_t *samples = json_object_get(p, "samples"),
		     *weights = json_object_get(p, "weights");
	size_t n, i, k;
	int64_t t, series = 0;
	int flat = 1;
	double sum = 0, endv;
	if (!json_is_array(samples) || !json_is_array(weights)) {
		pr_writer_diag(
			s->w, "speedscope_bad_profile", -1, 0, 0,
			"'profiles[%zu]': \"samples\" and \"weights\" must be arrays; profile "
			"skipped",
			pi);
		return;
	}
	n = json_array_size(samples);
	if (json_array_size(weights) != n) {
		pr_writer_diag(s->w, "speedscope_length_mismatch", -1, 0, 0,
			       "'profiles[%zu]': %zu samples but %zu weights (speedscope refuses "
			       "this file); the first %zu are read",
			       pi, n, json_array_size(weights),
			       n < json_array_size(weights) ? n : json_array_size(weights));
		if (json_array_size(weights) < n)
			n = json_array_size(weights);
	}
	t = memtracer ? 0 : to_ns(s, start, scale, start);
	if (t == INT64_MIN)
		t = 0;
	if (memtracer)
		series = pr_writer_series(s->w, "dev.mem.allocated", "cuda:0", "bytes",
					  "MiB (speedscope weight, unit \"megabytes\")");
	for (i = 0; i < n; i++) {
		const json_t *stack = json_array_get(samples, i), *wv = json_array_get(weights, i);
		double wt = json_is_number(wv) ? json_number_value(wv) : NAN;
		int64_t dur;
		size_t len, common = 0;
		if (!isfinite(wt) || wt < 0) {
			pr_writer_diag(
				s->w, "speedscope_bad_weight", -1, 0, 0,
				"'profiles[%zu].weights[%zu]': not a number >= 0; taken as 0", pi,
				i);
			wt = 0;
		}
		sum += wt;
		if (memtracer) {
			dur = 1;
			pr_writer_sample(s->w, series, t, wt * MIB);
		} else {
			double d = wt * (scale > 0 ? scale : 1);
			dur = d > NS_MAX ? 0 : (int64_t)llround(d);
			if (d > NS_MAX || (double)t + (double)dur > NS_MAX) {
				pr_writer_diag(
					s->w, "speedscope_bad_weight", -1, 0, 0,
					"'profiles[%zu].weights[%zu]': too large; taken as 0", pi,
					i);
				dur = 0;
			}
		}
		if (!json_is_array(stack)) {
			pr_writer_diag(s->w, "speedscope_bad_event", -1, 0, 0,
				       "'profiles[%zu].samples[%zu]': expected an array of frame "
				       "indexes; an empty stack is used",
				       pi, i);
			stack = NULL;
		}
		len = json_array_size(stack);
		if (len != 1)
			flat = 0;
		/* the valid prefix of the stack */
		for (k = 0; k < len; k++)
			if (frame_index(s, json_array_get(stack, k), "samples", pi, i) < 0)
				break;
		len = k;
		while (common < len && common < s->depth &&
		       s->stack[common].frame ==
			       (int64_t)json_number_value(json_array_get(stack, common)))
			common++;
		while (s->depth > common)
			close_top(s, t);
		for (k = common; k < len; k++)
			open_frame(s, (int64_t)json_number_value(json_array_get(stack, k)), t);
		t += dur;
	}
	while (s->depth > 0)
		close_top(s, t);
	if (memtracer) {
		if (flat && n > 0)
			pr_writer_diag(s->w, "speedscope_flat_stacks", -1, 0, 0,
				       "MemoryTracer export: every sample is a single-frame stack "
				       "(one per hook event), so there is no call nesting");
		if (!pr_jget_num(p, "endValue", &endv) && endv == (double)n && endv != sum)
			pr_writer_diag(
				s->w, "speedscope_end_value", -1, 0, 0,
				"'profiles[%zu].endValue' is the number of samples (%zu), not "
				"the sum of the weights (%.17g)",
				pi, n, sum);
	}
}

static void profile(struct ss *s, const json_t *p, size_t pi, int mt_file)
{
	const char *type = json_is_object(p) ? pr_jget_str(p, "type") : NULL;
	const char *name = json_is_object(p) ? pr_jget_str(p, "name") : NULL;
	const char *unit = json_is_object(p) ? pr_jget_str(p, "unit") : NULL;
	double scale = unit_scale(unit), start = 0, end = 0;
	int memtracer = 0;
	char tid[32];
	if (!type || (strcmp(type, "evented") && strcmp(type, "sampled"))) {
		pr_writer_diag(s->w, "speedscope_bad_profile", -1, 0, 0,
			       "'profiles[%zu].type': expected \"evented\" or \"sampled\"; profile "
			       "skipped",
			       pi);
		return;
	}
	if (pr_jget_num(p, "startValue", &start))
		start = 0;
	if (pr_jget_num(p, "endValue", &end))
		end = start;
	if (scale < 0) {
		memtracer = unit && !strcmp(unit, "megabytes") && !strcmp(type, "sampled");
		pr_writer_diag(s->w, "speedscope_invalid_unit", -1, 0, 0,
			       "'profiles[%zu].unit' is %s%s%s, not a speedscope unit%s", pi,
			       unit ? "\"" : "", unit ? unit : "missing", unit ? "\"" : "",
			       memtracer ? (mt_file ? " (MemoryTracer's export: weights are the "
						      "current allocated MiB per hook event)"
						    : " (read as MemoryTracer's allocated MiB)")
					 : "; values read as synthetic time");
		scale = 0;
	}
	if (scale == 0 && !s->synthetic) {
		s->synthetic = 1;
		pr_writer_set_time_synthetic(s->w, 1);
		pr_writer_diag(s->w, "speedscope_synthetic_time", -1, 0, 0,
			       "'profiles[%zu]' has unit %s%s%s: its values are not times; stored "
			       "as synthetic time (%s)",
			       pi, unit ? "\"" : "", unit ? unit : "(none)", unit ? "\"" : "",
			       memtracer ? "1 ns per sample" : "1 unit = 1 ns");
	}
	snprintf(tid, sizeof(tid), "%zu", pi);
	s->track = pr_writer_track(s->w, "thread", "speedscope", tid);
	pr_writer_track_set_name(s->w, s->track, name ? name : tid);
	pr_writer_track_set_sort(s->w, s->track, (int64_t)pi);
	s->kind = memtracer ? "layer" : "frame";
	if (!strcmp(type, "evented"))
		evented(s, p, pi, scale, start, end);
	else
		sampled(s, p, pi, scale, start, memtracer);
}

static int ss_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct ss s;
	long nonfinite = 0;
	json_t *doc = pr_jdoc_load(src, &nonfinite, err), *shared, *frames, *profiles;
	const char *schema, *exporter;
	size_t i;
	int rc = -1, mt_file, first = 1;

	if (!doc)
		return -1;
	memset(&s, 0, sizeof(s));
	s.w = w;
	pr_strbuf_init(&s.tmp);
	if (!json_is_object(doc)) {
		pr_error_set(err, PR_E_PARSE, "expected a JSON object (a speedscope file)");
		goto out;
	}
	shared = json_object_get(doc, "shared");
	frames = json_is_object(shared) ? json_object_get(shared, "frames") : NULL;
	profiles = json_object_get(doc, "profiles");
	if (!json_is_array(frames)) {
		pr_error_set(err, PR_E_PARSE, "'shared.frames': %s",
			     frames ? "expected an array" : "missing");
		goto out;
	}
	if (!json_is_array(profiles)) {
		pr_error_set(err, PR_E_PARSE, "'profiles': %s",
			     profiles ? "expected an array" : "missing");
		goto out;
	}
	schema = pr_jget_str(doc, "$schema");
	exporter = pr_jget_str(doc, "exporter");
	mt_file = exporter && !strcmp(exporter, MT_EXPORTER);
	if (!schema || strcmp(schema, SS_SCHEMA))
		pr_writer_diag(w, "speedscope_schema", -1, 0, 0,
			       "'$schema' is not \"%s\"; read as speedscope anyway", SS_SCHEMA);
	if (nonfinite > 0)
		pr_writer_diag(w, "nonfinite_number", -1, 0, 0,
			       "%ld NaN/Infinity values were read as null (not usable)", nonfinite);
	if (mt_file) {
		pr_writer_set_collector(w, "gpu_optimizer.MemoryTracer");
	} else if (exporter) {
		const char *at = strchr(exporter, '@');
		pr_strbuf_reset(&s.tmp);
		pr_strbuf_add(&s.tmp, exporter, at ? (size_t)(at - exporter) : strlen(exporter));
		pr_writer_set_collector(w, s.tmp.len ? s.tmp.buf : "speedscope");
	} else {
		pr_writer_set_collector(w, "speedscope");
	}
	{
		static const char *const keys[] = { "name", "exporter", "activeProfileIndex",
						    "version" };
		size_t k;
		for (k = 0; k < PR_ARRAY_SIZE(keys); k++) {
			json_t *v = json_object_get(doc, keys[k]);
			if (v && (json_is_string(v) || json_is_number(v)))
				pr_writer_meta_set(w, keys[k], json_deep_copy(v));
		}
	}
	/* time 0 = the smallest startValue among time-unit profiles */
	for (i = 0; i < json_array_size(profiles); i++) {
		const json_t *p = json_array_get(profiles, i);
		double sc = json_is_object(p) ? unit_scale(pr_jget_str(p, "unit")) : -1, sv;
		if (sc <= 0 || pr_jget_num(p, "startValue", &sv) || !isfinite(sv * sc) ||
		    fabs(sv * sc) > NS_MAX)
			continue;
		if (first || sv * sc < s.origin_ns)
			s.origin_ns = sv * sc;
		first = 0;
	}
	load_frames(&s, frames);
	for (i = 0; i < json_array_size(profiles); i++)
		profile(&s, json_array_get(profiles, i), i, mt_file);
	rc = 0;
out:
	for (i = 0; i < s.nframes; i++)
		free(s.frames[i].args);
	free(s.frames);
	free(s.stack);
	pr_strbuf_release(&s.tmp);
	json_decref(doc);
	return rc;
}

static const char *const speedscope_tokens[] = {
	"$schema",  "https://www.speedscope.app/file-format-schema.json",
	"shared",   "frames",
	"profiles", "type",
	"evented",  "sampled",
	"unit",	    "startValue",
	"endValue", "events",
	"at",	    "frame",
	"O",	    "C",
	"samples",  "weights",
	NULL
};

const struct pr_format pr_format_speedscope = {
	.name = "speedscope",
	.summary = "speedscope JSON, evented and sampled (py-spy, MemoryTracer, speedscope)",
	.sniff = ss_sniff,
	.parse = ss_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = speedscope_tokens,
};
