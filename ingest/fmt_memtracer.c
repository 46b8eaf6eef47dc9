/*
 * fmt_memtracer.c - gpu_optimizer MemoryTracer's timeline JSON
 * (export_timeline; FORMATS.md section 002). Its speedscope export is read
 * by fmt_speedscope.c.
 *
 * events[] (seconds since start_tracing) ->
 *   layer_enter/layer_exit  spans kind "layer" on one track (kind "thread",
 *                           pid "memtracer", tid "layers"), nested by the
 *                           enter/exit order; args: allocated/reserved bytes
 *                           at enter and at exit
 *   snapshot                instants "__start__"/"__end__" (cat "snapshot")
 *   every event             samples dev.mem.allocated, dev.mem.reserved
 *                           (bytes, device "cuda:0": the file does not say),
 *                           dev.mem.frag = (reserved - allocated) / reserved
 *                           (percent, recomputed, the README formula) and
 *                           fragmentation_ratio (percent, as written)
 * layer_stats -> reported metrics "layer.<key>" with detail = layer name
 * summary     -> reported metrics "summary.<key>" (MiB -> bytes, ratios ->
 *                percent); derived metric "peak_allocated" whose detail is
 *                the layer whose hook saw the global peak (first on ties)
 *
 * Diagnostics: memtracer_frag_formula (the file's fragmentation is not the
 * README formula: the 6176cc5 inactive_split/reserved version),
 * memtracer_size_bytes_zero, memtracer_no_layer_events (ce0af65's broken
 * pre-hook), memtracer_alloc_event, memtracer_oldest_dropped (deque full),
 * memtracer_unmatched_exit, memtracer_unclosed_layer, memtracer_time_backwards,
 * memtracer_bad_event, memtracer_bad_value, memtracer_unknown_event_type,
 * memtracer_summary_mismatch, memtracer_bad_section, nonfinite_number.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define MT_DEVICE "cuda:0"
#define MIB 1048576.0
#define FRAG_TOL 1e-9

enum {
	S_ALLOC,
	S_RES,
	S_FRAG,
	S_FRAG_REP,
	NSERIES
};

static const struct {
	const char *name, *unit, *orig_unit;
} mt_series[NSERIES] = {
	[S_ALLOC] = { "dev.mem.allocated", "bytes", "B" },
	[S_RES] = { "dev.mem.reserved", "bytes", "B" },
	[S_FRAG] = { "dev.mem.frag", "percent",
		     "(reserved_bytes - allocated_bytes) / reserved_bytes" },
	[S_FRAG_REP] = { "fragmentation_ratio", "percent", "ratio 0..1 (as written)" },
};

struct mt_open {
	char *name;
	int64_t ts, span;
};

struct mt {
	struct pr_writer *w;
	int64_t track;
	int64_t sid[NSERIES]; /* 0 = not created yet */
	struct mt_open *stack;
	size_t depth, cap;
	int64_t prev_ts;
	int have_prev;
	int64_t layer_events, size_nonzero, frag_disagree, frag_nonzero_agree, counted;
	double frag_max_diff;
	double peak_alloc;
	char *peak_layer;
	struct pr_strbuf args, path;
};

static int mt_sniff(const unsigned char *head, size_t n, const char *path)
{
	static const char *const ev_keys[] = { "events", "event_type", "layer_name",
					       "allocated_bytes", NULL };
	static const char *const frag_keys[] = { "events", "fragmentation_ratio", NULL };
	static const char *const sum_keys[] = { "events", "layer_stats", "peak_allocated_mb",
						NULL };
	PR_UNUSED(path);
	if (pr_jdoc_head_has(head, n, ev_keys) || pr_jdoc_head_has(head, n, sum_keys))
		return 95;
	if (pr_jdoc_head_has(head, n, frag_keys))
		return 80;
	return 0;
}

static int64_t sec_to_ns(double s)
{
	double ns = s * 1e9;
	if (!isfinite(ns) || fabs(ns) > 9.0e18)
		return INT64_MIN;
	return (int64_t)llround(ns);
}

static int64_t series(struct mt *m, int s)
{
	if (!m->sid[s])
		m->sid[s] = pr_writer_series(m->w, mt_series[s].name, MT_DEVICE, mt_series[s].unit,
					     mt_series[s].orig_unit);
	return m->sid[s];
}

static const char *path_at(struct mt *m, size_t i, const char *key)
{
	pr_strbuf_reset(&m->path);
	pr_strbuf_addf(&m->path, "events[%zu].%s", i, key);
	return m->path.buf;
}

/* A number member; diagnostics for absent/wrong types. 0 ok, -1 not usable. */
static int ev_num(struct mt *m, const json_t *ev, size_t i, const char *key, double *out)
{
	json_t *v = json_object_get(ev, key);
	if (json_is_number(v)) {
		*out = json_number_value(v);
		if (isfinite(*out))
			return 0;
	}
	if (!v)
		pr_writer_diag(m->w, "memtracer_bad_event", -1, 0, 0, "'%s': missing",
			       path_at(m, i, key));
	else
		pr_writer_diag(m->w, "memtracer_bad_value", -1, 0, 0, "'%s': expected a number",
			       path_at(m, i, key));
	return -1;
}

static void push(struct mt *m, const char *name, int64_t ts, int64_t span)
{
	if (m->depth == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 16;
		m->stack = pr_xrealloc(m->stack, m->cap * sizeof(*m->stack));
	}
	m->stack[m->depth].name = pr_xstrdup(name);
	m->stack[m->depth].ts = ts;
	m->stack[m->depth].span = span;
	m->depth++;
}

/* Closes the top open layer at ts (never before its start), merging args. */
static void pop(struct mt *m, int64_t ts, const char *args)
{
	struct mt_open *o = &m->stack[--m->depth];
	if (ts < o->ts)
		ts = o->ts;
	pr_writer_span_end(m->w, m->track, ts, args, args ? strlen(args) : 0);
	free(o->name);
}

static void layer_enter(struct mt *m, const char *name, int64_t ts, double alloc, double res,
			int have_mem)
{
	struct pr_span_in s;
	memset(&s, 0, sizeof(s));
	s.track = m->track;
	s.kind = "layer";
	s.name = pr_writer_intern(m->w, name, strlen(name));
	s.ts = ts;
	pr_strbuf_reset(&m->args);
	if (have_mem) {
		pr_strbuf_addf(&m->args,
			       "{\"allocated_bytes_enter\":%.17g,\"reserved_bytes_enter\":%.17g}",
			       alloc, res);
		s.args = m->args.buf;
		s.args_len = m->args.len;
	}
	push(m, name, ts, pr_writer_span_begin(m->w, &s));
}

static void layer_exit(struct mt *m, const char *name, int64_t ts, double alloc, double res,
		       int have_mem)
{
	size_t k;
	const char *args = NULL;
	for (k = m->depth; k > 0; k--)
		if (!strcmp(m->stack[k - 1].name, name))
			break;
	if (k == 0) {
		pr_writer_diag(
			m->w, "memtracer_unmatched_exit", -1, 0, 0,
			"layer_exit of '%s' at %.9g s without a matching layer_enter; skipped",
			name, (double)ts / 1e9);
		return;
	}
	while (m->depth > k) {
		pr_writer_diag(m->w, "memtracer_unclosed_layer", -1, 0, 0,
			       "layer '%s' has no layer_exit (its forward raised?); closed when "
			       "'%s' exited",
			       m->stack[m->depth - 1].name, name);
		pop(m, ts, NULL);
	}
	if (have_mem) {
		pr_strbuf_reset(&m->args);
		pr_strbuf_addf(&m->args,
			       "{\"allocated_bytes_exit\":%.17g,\"reserved_bytes_exit\":%.17g}",
			       alloc, res);
		args = m->args.buf;
	}
	pop(m, ts, args);
}

static void one_event(struct mt *m, const json_t *ev, size_t i)
{
	double t, alloc = 0, res = 0, frag, size;
	int have_alloc, have_res, have_mem, have_frag;
	const char *type, *name;
	int64_t ts;

	if (!json_is_object(ev)) {
		pr_writer_diag(m->w, "memtracer_bad_event", -1, 0, 0,
			       "'events[%zu]': expected an object; skipped", i);
		return;
	}
	if (ev_num(m, ev, i, "timestamp", &t))
		return;
	ts = sec_to_ns(t);
	if (ts == INT64_MIN) {
		pr_writer_diag(m->w, "memtracer_bad_value", -1, 0, 0,
			       "'%s': out of range; event skipped", path_at(m, i, "timestamp"));
		return;
	}
	if (m->have_prev && ts < m->prev_ts)
		pr_writer_diag(m->w, "memtracer_time_backwards", -1, 0, 0,
			       "'%s' (%.9g s) is earlier than the event before it",
			       path_at(m, i, "timestamp"), t);
	m->prev_ts = ts;
	m->have_prev = 1;
	m->counted++;

	have_alloc = !ev_num(m, ev, i, "allocated_bytes", &alloc);
	have_res = !ev_num(m, ev, i, "reserved_bytes", &res);
	have_frag = json_object_get(ev, "fragmentation_ratio") &&
		    !ev_num(m, ev, i, "fragmentation_ratio", &frag);
	have_mem = have_alloc && have_res;
	if (have_alloc)
		pr_writer_sample(m->w, series(m, S_ALLOC), ts, alloc);
	if (have_res)
		pr_writer_sample(m->w, series(m, S_RES), ts, res);
	if (have_mem) {
		double re = res > 0 ? (res - alloc) / res : 0.0;
		pr_writer_sample(m->w, series(m, S_FRAG), ts, re * 100.0);
		if (have_frag) {
			double d = fabs(frag - re);
			if (d > FRAG_TOL) {
				m->frag_disagree++;
				if (d > m->frag_max_diff)
					m->frag_max_diff = d;
			} else if (re != 0.0) {
				m->frag_nonzero_agree++;
			}
		}
	}
	if (have_frag) {
		if (frag < 0 || frag > 1)
			pr_writer_diag(m->w, "memtracer_bad_value", -1, 0, 0,
				       "'%s' = %.17g is outside 0..1",
				       path_at(m, i, "fragmentation_ratio"), frag);
		pr_writer_sample(m->w, series(m, S_FRAG_REP), ts, frag * 100.0);
	}
	if (json_is_number(json_object_get(ev, "size_bytes"))) {
		size = json_number_value(json_object_get(ev, "size_bytes"));
		if (size != 0)
			m->size_nonzero++;
	}

	type = pr_jget_str(ev, "event_type");
	name = pr_jget_str(ev, "layer_name");
	if (!type) {
		pr_writer_diag(m->w, "memtracer_bad_event", -1, 0, 0,
			       "'%s': expected a string; memory samples kept",
			       path_at(m, i, "event_type"));
		return;
	}
	if (!name && json_is_null(json_object_get(ev, "layer_name")))
		name = "(none)";
	if (!name) {
		pr_writer_diag(m->w, "memtracer_bad_event", -1, 0, 0,
			       "'%s': expected a string; memory samples kept",
			       path_at(m, i, "layer_name"));
		return;
	}
	if (have_alloc && alloc > m->peak_alloc && strncmp(name, "__", 2)) {
		m->peak_alloc = alloc;
		free(m->peak_layer);
		m->peak_layer = pr_xstrdup(name);
	}
	if (!strcmp(type, "layer_enter")) {
		m->layer_events++;
		layer_enter(m, name, ts, alloc, res, have_mem);
	} else if (!strcmp(type, "layer_exit")) {
		m->layer_events++;
		layer_exit(m, name, ts, alloc, res, have_mem);
	} else if (!strcmp(type, "snapshot") || !strcmp(type, "alloc") || !strcmp(type, "free")) {
		const char *cat = type;
		pr_strbuf_reset(&m->args);
		if (strcmp(type, "snapshot")) {
			pr_writer_diag(m->w, "memtracer_alloc_event", -1, 0, 0,
				       "'%s' is \"%s\": documented, but no known MemoryTracer "
				       "version emits it; kept as an instant",
				       path_at(m, i, "event_type"), type);
			size = 0;
			if (json_is_number(json_object_get(ev, "size_bytes")))
				size = json_number_value(json_object_get(ev, "size_bytes"));
			pr_strbuf_addf(&m->args, "{\"size_bytes\":%.17g}", size);
		}
		pr_writer_instant(m->w, m->track, pr_writer_intern(m->w, name, strlen(name)),
				  pr_writer_intern(m->w, cat, strlen(cat)), ts, "t",
				  m->args.len ? m->args.buf : NULL, m->args.len);
	} else {
		pr_writer_diag(m->w, "memtracer_unknown_event_type", -1, 0, 0,
			       "'%s' is \"%s\", not a MemoryTracer event type; memory samples kept",
			       path_at(m, i, "event_type"), type);
	}
}

struct stat_key {
	const char *key, *metric, *unit;
	double scale;
};

static void reported(struct mt *m, const json_t *obj, const char *where,
		     const struct stat_key *keys, size_t nkeys, const char *detail)
{
	size_t k;
	double d;
	for (k = 0; k < nkeys; k++) {
		json_t *v = json_object_get(obj, keys[k].key);
		if (!v)
			continue;
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			pr_writer_diag(m->w, "memtracer_bad_value", -1, 0, 0,
				       "'%s.%s': expected a number", where, keys[k].key);
			continue;
		}
		d = json_number_value(v) * keys[k].scale;
		if (!strcmp(keys[k].unit, "ns"))
			d = round(d); /* whole ns: no float noise from ms * 1e6 */
		pr_writer_metric(m->w, keys[k].metric, d, keys[k].unit, 0, "reported", detail);
	}
}

static void layer_stats(struct mt *m, const json_t *ls)
{
	static const struct stat_key keys[] = {
		{ "peak_allocated", "layer.peak_allocated", "bytes", 1 },
		{ "peak_reserved", "layer.peak_reserved", "bytes", 1 },
		{ "total_allocations", "layer.total_allocations", "count", 1 },
		{ "total_deallocations", "layer.total_deallocations", "count", 1 },
		{ "avg_fragmentation", "layer.avg_fragmentation", "percent", 100 },
		{ "duration_ms", "layer.duration", "ns", 1e6 },
	};
	const char *key;
	json_t *v;
	struct pr_strbuf where = PR_STRBUF_INIT;
	if (!ls)
		return;
	if (!json_is_object(ls)) {
		pr_writer_diag(m->w, "memtracer_bad_section", -1, 0, 0,
			       "'layer_stats': expected an object; ignored");
		return;
	}
	json_object_foreach ((json_t *)ls, key, v) {
		pr_strbuf_reset(&where);
		pr_strbuf_addf(&where, "layer_stats.%s", key);
		if (!json_is_object(v)) {
			pr_writer_diag(m->w, "memtracer_bad_section", -1, 0, 0,
				       "'%s': expected an object; ignored", where.buf);
			continue;
		}
		reported(m, v, where.buf, keys, PR_ARRAY_SIZE(keys), key);
	}
	pr_strbuf_release(&where);
}

static void summary(struct mt *m, const json_t *sum, size_t nevents)
{
	static const struct stat_key keys[] = {
		{ "total_events", "summary.total_events", "count", 1 },
		{ "total_layers", "summary.total_layers", "count", 1 },
		{ "peak_allocated_mb", "summary.peak_allocated", "bytes", MIB },
		{ "peak_reserved_mb", "summary.peak_reserved", "bytes", MIB },
		{ "avg_fragmentation", "summary.avg_fragmentation", "percent", 100 },
	};
	int64_t n;
	if (!sum)
		return;
	if (!json_is_object(sum)) {
		pr_writer_diag(m->w, "memtracer_bad_section", -1, 0, 0,
			       "'summary': expected an object; ignored");
		return;
	}
	reported(m, sum, "summary", keys, PR_ARRAY_SIZE(keys), NULL);
	if (!pr_jget_int(sum, "total_events", &n) && n != (int64_t)nevents)
		pr_writer_diag(m->w, "memtracer_summary_mismatch", -1, 0, 0,
			       "'summary.total_events' is %lld but the file has %zu events",
			       (long long)n, nevents);
}

static void finish_checks(struct mt *m, const json_t *events)
{
	size_t n = json_array_size(events);
	const json_t *first = json_array_get(events, 0);
	if (n > 0 && m->size_nonzero == 0)
		pr_writer_diag(
			m->w, "memtracer_size_bytes_zero", -1, 0, 0,
			"size_bytes is 0 in every event: MemoryTracer has no allocator hook, "
			"so there is no per-allocation data (memory is device-wide totals)");
	if (n > 0 && m->layer_events == 0)
		pr_writer_diag(
			m->w, "memtracer_no_layer_events", -1, 0, 0,
			"no layer_enter/layer_exit events: no leaf module ran while tracing, "
			"or the tracer is commit ce0af65, whose forward pre-hook raises "
			"TypeError on the first forward");
	if (n > 0 && json_is_object(first) &&
	    (!pr_jget_str(first, "layer_name") ||
	     strcmp(pr_jget_str(first, "layer_name"), "__start__")))
		pr_writer_diag(m->w, "memtracer_oldest_dropped", -1, 0, 0,
			       "the first event is not the '__start__' snapshot: the event deque "
			       "(max_events) overflowed and the oldest events were dropped");
	if (m->frag_disagree > 0) {
		pr_writer_diag(
			m->w, "memtracer_frag_formula", -1, 0, 0,
			"fragmentation_ratio differs from (reserved - allocated) / reserved "
			"in %lld events (by up to %.6g): this MemoryTracer (6176cc5+) writes "
			"inactive_split / reserved; both series are stored "
			"(fragmentation_ratio as written, dev.mem.frag recomputed)",
			(long long)m->frag_disagree, m->frag_max_diff);
		pr_writer_meta_set(m->w, "fragmentation_formula",
				   json_string("inactive_split/reserved (6176cc5)"));
	} else if (m->frag_nonzero_agree > 0) {
		pr_writer_meta_set(m->w, "fragmentation_formula",
				   json_string("(reserved-allocated)/reserved (ce0af65, README)"));
	}
	if (m->peak_layer)
		pr_writer_metric(m->w, "peak_allocated", m->peak_alloc, "bytes", 0, "derived",
				 m->peak_layer);
}

static int mt_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct mt m;
	long nonfinite = 0;
	json_t *doc = pr_jdoc_load(src, &nonfinite, err), *events;
	size_t i;
	int rc = -1;

	if (!doc)
		return -1;
	memset(&m, 0, sizeof(m));
	m.w = w;
	pr_strbuf_init(&m.args);
	pr_strbuf_init(&m.path);
	if (!json_is_object(doc)) {
		pr_error_set(err, PR_E_PARSE, "expected a JSON object with \"events\"");
		goto out;
	}
	events = json_object_get(doc, "events");
	if (!json_is_array(events)) {
		pr_error_set(err, PR_E_PARSE, "'events': %s",
			     events ? "expected an array" : "missing");
		goto out;
	}
	pr_writer_set_collector(w, "gpu_optimizer.MemoryTracer");
	if (nonfinite > 0)
		pr_writer_diag(w, "nonfinite_number", -1, 0, 0,
			       "%ld NaN/Infinity values were read as null (not usable)", nonfinite);
	m.track = pr_writer_track(w, "thread", "memtracer", "layers");
	pr_writer_track_set_name(w, m.track, "layers (forward hooks)");
	for (i = 0; i < json_array_size(events); i++)
		one_event(&m, json_array_get(events, i), i);
	while (m.depth > 0) {
		pr_writer_diag(w, "memtracer_unclosed_layer", -1, 0, 0,
			       "layer '%s' has no layer_exit; closed at the last event",
			       m.stack[m.depth - 1].name);
		pop(&m, m.prev_ts, NULL);
	}
	layer_stats(&m, json_object_get(doc, "layer_stats"));
	summary(&m, json_object_get(doc, "summary"), json_array_size(events));
	finish_checks(&m, events);
	rc = 0;
out:
	while (m.depth > 0)
		free(m.stack[--m.depth].name);
	free(m.stack);
	free(m.peak_layer);
	pr_strbuf_release(&m.args);
	pr_strbuf_release(&m.path);
	json_decref(doc);
	return rc;
}

static const char *const memtracer_tokens[] = {
	"events",      "event_type", "size_bytes",   "layer_name",
	"layer_stats", "summary",    "total_events", "fragmentation_ratio",
	"enter",       "exit",	     "alloc",	     "free",
	NULL
};

const struct pr_format pr_format_memtracer = {
	.name = "memtracer",
	.summary = "gpu_optimizer MemoryTracer timeline JSON (export_timeline)",
	.sniff = mt_sniff,
	.parse = mt_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = memtracer_tokens,
};
