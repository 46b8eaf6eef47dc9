/*
 * fmt_diffulex.c - the JSON export of the Diffulex profiler, `<base>.json`
 * (diffulex_profiler JSONExporter; FORMATS.md section 003).
 *
 * {"metrics": [{name, metadata, duration_sec, total_tokens,
 *   throughput_tokens_per_sec, gpu_utilization, memory_delta_mb,
 *   custom_metrics, backend_data}, ...], "summary": {...}}
 *
 * There are no timestamps in any Diffulex output: each section becomes a
 * span of kind "section" on one track ("phases", pid "diffulex", tid
 * "sections"), laid end to end in file order (completion order), each as
 * long as its duration_sec; the run is marked synthetic. Span args: the
 * section's metadata, custom_metrics and backend_data objects.
 *
 * Reported metrics per section (span_id = the span): duration (ns),
 * total_tokens and throughput (tokens/s) when tokens > 0,
 * gpu_utilization_delta (percent, stop minus start) and memory_delta
 * (bytes; system RAM, MiB in the file) when non-zero, custom.<key> for
 * numeric custom metrics, backend.duration (simple backend, ns) and
 * pytorch.* (pytorch backend summary). The summary block: summary.*.
 * Derived: throughput over the section's own duration when the collector's
 * differs, and summary.avg_throughput over the sections with tokens.
 *
 * Diagnostics: diffulex_json_truncated (json.dump failed midway; complete
 * sections kept), diffulex_throughput_not_recorded,
 * diffulex_throughput_zero, diffulex_throughput_other_duration,
 * diffulex_avg_throughput_diluted, diffulex_gpu_util_negative,
 * diffulex_gpu_util_no_nvml, diffulex_summary_mismatch, diffulex_bad_value,
 * diffulex_bad_section, diffulex_nonfinite.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ingest/diffulex.h"
#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/strbuf.h"

#define DX_TIME_BASE                                                                               \
	"synthetic: Diffulex writes no timestamps; sections are laid end to end in file "          \
	"order (completion order), each as long as its duration_sec"
#define DX_GPU_NOTE                                                                                \
	"gpu_utilization is NVML utilization.gpu at stop minus at start (percentage points; "      \
	"can be negative; not an average)"
#define DX_MEM_NOTE                                                                                \
	"memory_delta_mb is psutil virtual_memory().used at stop minus at start: system-wide "     \
	"RAM, not the process, not GPU memory (MiB, stored as bytes)"
#define DX_NEST_NOTE                                                                               \
	"the collector does not support nesting: of nested sections only the innermost is "        \
	"recorded, outer ones are lost without a trace in the files"
#define DX_MAX_SECTIONS 1000000

struct dx {
	struct pr_writer *w;
	int64_t track, ts;
	int64_t sections, skipped;
	int64_t tok_sections; /* sections with tokens > 0 */
	int64_t tokens;	      /* sum over sections */
	double duration;      /* sum of duration_sec */
	double tok_duration;  /* sum over sections with tokens */
	int64_t no_tok_dur;   /* sections without tokens but with a duration */
	json_t *files;	      /* backend side files, for meta */
	const char *backend;  /* backend_data.backend of the first section that has one */
};

static int dx_sniff(const unsigned char *head, size_t n, const char *path)
{
	static const char *const keys[] = { "metrics", "duration_sec", "throughput_tokens_per_sec",
					    NULL };
	static const char *const more[] = { "memory_delta_mb", NULL };
	static const char *const summ[] = { "avg_throughput_tokens_per_sec", "total_sections",
					    NULL };
	PR_UNUSED(path);
	if (!pr_jdoc_head_has(head, n, keys))
		return 0;
	if (pr_jdoc_head_has(head, n, more) || pr_jdoc_head_has(head, n, summ))
		return 90;
	return 60;
}

/*
 * json.dump() streams: a value it cannot serialize stops it midway and the
 * file ends there. When the text opens with {"metrics": [ and ends inside
 * the array, keep the complete section objects and close the document.
 * Returns the repaired document or NULL; *kept gets the byte length kept.
 */
static json_t *dx_repair(const char *p, size_t n, size_t *kept)
{
	static const char lead[] = "\"metrics\"";
	struct pr_strbuf sb = PR_STRBUF_INIT;
	size_t i = 0, last = 0;
	int depth = 0, in_str = 0, esc = 0;
	json_t *doc;
	while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
		i++;
	if (i >= n || p[i] != '{')
		return NULL;
	for (i++; i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'); i++)
		;
	if (n - i < sizeof(lead) - 1 || memcmp(p + i, lead, sizeof(lead) - 1))
		return NULL;
	i += sizeof(lead) - 1;
	while (i < n &&
	       (p[i] == ' ' || p[i] == ':' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
		i++;
	if (i >= n || p[i] != '[')
		return NULL;
	depth = 2;
	for (i++; i < n; i++) {
		char c = p[i];
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"') {
			in_str = 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			depth--;
			if (depth == 2)
				last = i + 1;
			if (depth < 2)
				return NULL; /* the array is complete: not this kind of cut */
		}
	}
	if (!last)
		return NULL;
	pr_strbuf_add(&sb, p, last);
	pr_strbuf_addstr(&sb, "]}");
	doc = pr_jdoc_loadb(sb.buf, sb.len, JSON_ALLOW_NUL, NULL);
	pr_strbuf_release(&sb);
	*kept = last;
	return doc;
}

/* A number member: 0 ok, 1 absent or null, -1 wrong type (diagnosed). */
static int dx_num(struct dx *d, const json_t *sec, size_t idx, const char *key, double *out)
{
	json_t *v = json_object_get(sec, key);
	if (!v || json_is_null(v))
		return 1;
	if (json_is_number(v)) {
		*out = json_number_value(v);
		if (isfinite(*out))
			return 0;
	}
	pr_writer_diag(d->w, "diffulex_bad_value", -1, 0, 0,
		       "'metrics[%zu].%s': expected a number; ignored", idx, key);
	return -1;
}

static void dx_backend(struct dx *d, const json_t *bd, const char *section, int64_t span)
{
	const char *backend = pr_jget_str(bd, "backend");
	json_t *sum, *file;
	double x;
	if (!backend) {
		if (!pr_jget_num(bd, "duration_sec", &x))
			pr_dfx_metric(d->w, "backend.duration", x * 1e9, "ns", span, "reported",
				      "the simple backend's own timing of the section");
		return;
	}
	if (!d->backend)
		d->backend = backend;
	if (strcmp(backend, "viztracer") && strcmp(backend, "pytorch"))
		return;
	file = json_object();
	json_object_set_new(file, "section", json_string(section));
	json_object_set_new(file, "backend", json_string(backend));
	if (!strcmp(backend, "viztracer")) {
		json_object_set(file, "output_file", json_object_get(bd, "output_file"));
	} else {
		static const char *const keys[] = { "trace_file", "stacks_file", "top_table_file" };
		size_t k;
		for (k = 0; k < PR_ARRAY_SIZE(keys); k++) {
			json_t *v = json_object_get(bd, keys[k]);
			json_object_set_new(file, keys[k], v ? json_incref(v) : json_null());
		}
		sum = json_object_get(bd, "summary");
		if (!pr_jget_num(sum, "total_events", &x))
			pr_dfx_metric(d->w, "pytorch.total_events", x, "count", span, "reported",
				      "torch.profiler events in the section");
		if (!pr_jget_num(sum, "cpu_time_total_ms", &x))
			pr_dfx_metric(d->w, "pytorch.cpu_time_total", x * 1e6, "ns", span,
				      "reported",
				      "torch.profiler key_averages() self CPU time total");
		if (!pr_jget_num(sum, "cuda_time_total_ms", &x))
			pr_dfx_metric(d->w, "pytorch.cuda_time_total", x * 1e6, "ns", span,
				      "reported",
				      "torch.profiler key_averages() self CUDA time total");
	}
	json_array_append_new(d->files, file);
}

static void dx_section(struct dx *d, const json_t *sec, size_t idx)
{
	const char *name = pr_jget_str(sec, "name");
	static const char *const objs[] = { "metadata", "custom_metrics", "backend_data" };
	struct pr_span_in s;
	json_t *args, *gpu;
	char *text;
	double dur = 0, tokens = 0, tps = 0, x;
	int64_t span, dns;
	size_t k;

	if (!json_is_object(sec) || !name) {
		pr_writer_diag(d->w, "diffulex_bad_section", -1, 0, 0,
			       "'metrics[%zu]': %s; section skipped", idx,
			       json_is_object(sec) ? "'name' is not a string"
						   : "expected an object");
		d->skipped++;
		return;
	}
	if (dx_num(d, sec, idx, "duration_sec", &dur) || dur < 0 || dur > 1e9) {
		if (dur < 0 || dur > 1e9)
			pr_writer_diag(d->w, "diffulex_bad_value", -1, 0, 0,
				       "'metrics[%zu].duration_sec': out of range; section skipped",
				       idx);
		else if (!json_object_get(sec, "duration_sec"))
			pr_writer_diag(d->w, "diffulex_bad_section", -1, 0, 0,
				       "'metrics[%zu].duration_sec': missing; section skipped",
				       idx);
		d->skipped++;
		return;
	}
	if (dx_num(d, sec, idx, "total_tokens", &tokens) || tokens < 0)
		tokens = 0;
	if (dx_num(d, sec, idx, "throughput_tokens_per_sec", &tps))
		tps = 0;
	args = json_object();
	for (k = 0; k < PR_ARRAY_SIZE(objs); k++) {
		json_t *v = json_object_get(sec, objs[k]);
		if (json_is_object(v) && json_object_size(v))
			json_object_set(args, objs[k], v);
		else if (v && !json_is_object(v) && !json_is_null(v))
			pr_writer_diag(d->w, "diffulex_bad_value", -1, 0, 0,
				       "'metrics[%zu].%s': expected an object; ignored", idx,
				       objs[k]);
	}
	dns = (int64_t)llround(dur * 1e9);
	memset(&s, 0, sizeof(s));
	s.track = d->track;
	s.kind = "section";
	s.name = pr_writer_intern(d->w, name, strlen(name));
	s.ts = d->ts;
	s.dur = dns;
	text = json_object_size(args) ? json_dumps(args, JSON_COMPACT) : NULL;
	s.args = text;
	s.args_len = text ? strlen(text) : 0;
	span = pr_writer_span(d->w, &s);
	free(text);
	json_decref(args);
	d->ts += dns;
	d->sections++;
	d->duration += dur;

	pr_dfx_metric(d->w, "duration", dur * 1e9, "ns", span, "reported", "duration_sec");
	{
		char where[300];
		snprintf(where, sizeof(where), "'metrics[%zu]' ('%s')", idx, name);
		pr_dfx_throughput(d->w, 0, 0, where, name, dur, tokens, tps, span);
	}
	if (tokens > 0) {
		d->tok_sections++;
		d->tokens += (int64_t)tokens;
		d->tok_duration += dur;
	} else if (dur > 0) {
		d->no_tok_dur++;
	}
	gpu = json_object_get(sec, "gpu_utilization");
	if (json_is_integer(gpu) && json_integer_value(gpu) == 0)
		pr_writer_diag(d->w, "diffulex_gpu_util_no_nvml", -1, 0, 0,
			       "'metrics[%zu].gpu_utilization' is the integer 0: CUDA was present "
			       "but pynvml was not, so no utilization was measured",
			       idx);
	if (!dx_num(d, sec, idx, "gpu_utilization", &x) && x != 0) {
		pr_dfx_metric(d->w, "gpu_utilization_delta", x, "percent", span, "reported",
			      DX_GPU_NOTE);
		if (x < 0)
			pr_writer_diag(d->w, "diffulex_gpu_util_negative", -1, 0, 0,
				       "'metrics[%zu].gpu_utilization' is %g: it is a stop-minus-"
				       "start delta of NVML utilization, not an average",
				       idx, x);
	}
	if (!dx_num(d, sec, idx, "memory_delta_mb", &x) && x != 0)
		pr_dfx_metric(d->w, "memory_delta", x * 1048576.0, "bytes", span, "reported",
			      DX_MEM_NOTE);
	if (json_is_object(json_object_get(sec, "custom_metrics")))
		pr_dfx_custom_metrics(d->w, json_object_get(sec, "custom_metrics"), span);
	if (json_is_object(json_object_get(sec, "backend_data")))
		dx_backend(d, json_object_get(sec, "backend_data"), name, span);
}

static void dx_summary(struct dx *d, const json_t *sum)
{
	double x;
	if (!json_is_object(sum))
		return;
	if (!pr_jget_num(sum, "total_sections", &x)) {
		pr_dfx_metric(d->w, "summary.total_sections", x, "count", 0, "reported", NULL);
		if (x != (double)(d->sections + d->skipped))
			pr_writer_diag(d->w, "diffulex_summary_mismatch", -1, 0, 0,
				       "summary.total_sections is %g but 'metrics' has %lld "
				       "sections",
				       x, (long long)(d->sections + d->skipped));
	}
	if (!pr_jget_num(sum, "total_duration_sec", &x))
		pr_dfx_metric(d->w, "summary.total_duration", x * 1e9, "ns", 0, "reported",
			      "total_duration_sec: the sum of all section durations");
	if (!pr_jget_num(sum, "total_tokens", &x)) {
		pr_dfx_metric(d->w, "summary.total_tokens", x, "count", 0, "reported", NULL);
		if (x != (double)d->tokens && !d->skipped)
			pr_writer_diag(d->w, "diffulex_summary_mismatch", -1, 0, 0,
				       "summary.total_tokens is %g but the sections add up to %lld",
				       x, (long long)d->tokens);
	}
	if (!pr_jget_num(sum, "avg_throughput_tokens_per_sec", &x))
		pr_dfx_metric(d->w, "summary.avg_throughput", x, "tokens/s", 0, "reported",
			      "avg_throughput_tokens_per_sec: total_tokens / the duration of ALL "
			      "sections (including sections without tokens)");
}

static void dx_derived(struct dx *d)
{
	if (!d->tok_sections || !d->no_tok_dur || d->tok_duration <= 0)
		return;
	pr_writer_diag(d->w, "diffulex_avg_throughput_diluted", -1, 0, 0,
		       "the reported average throughput divides the tokens of %lld section(s) by "
		       "the duration of all %lld; a derived summary.avg_throughput over the "
		       "sections with tokens is stored",
		       (long long)d->tok_sections, (long long)d->sections);
	pr_dfx_metric(d->w, "summary.avg_throughput", (double)d->tokens / d->tok_duration,
		      "tokens/s", 0, "derived",
		      "total_tokens / the duration of the sections that have tokens");
}

static int dx_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_error_t jerr;
	json_t *doc, *metrics, *sec;
	struct dx d;
	long nonfinite = 0;
	size_t i, kept = 0;
	int truncated = 0;

	if (pr_jdoc_read_text(src, &sb, &nonfinite, err)) {
		pr_strbuf_release(&sb);
		return -1;
	}
	doc = pr_jdoc_loadb(sb.buf ? sb.buf : "", sb.len, JSON_ALLOW_NUL, &jerr);
	if (!doc) {
		int at = jerr.line > 0 && jerr.column > 0;
		doc = dx_repair(sb.buf ? sb.buf : "", sb.len, &kept);
		if (!doc) {
			size_t k = 0, len = sb.len;
			while (k < len && (sb.buf[k] == ' ' || sb.buf[k] == '\t' ||
					   sb.buf[k] == '\r' || sb.buf[k] == '\n'))
				k++;
			pr_strbuf_release(&sb);
			if (k == len)
				return pr_error_set(err, PR_E_PARSE, "empty file");
			if (!jerr.text[0]) /* jansson out of memory: no text of its own */
				return pr_jdoc_error(&jerr, len, err);
			return pr_error_at(err, PR_E_PARSE, -1, at ? jerr.line : 0,
					   at ? jerr.column : 0, "%s", jerr.text);
		}
		truncated = 1;
	}
	pr_strbuf_release(&sb);
	metrics = json_object_get(doc, "metrics");
	if (!json_is_object(doc) || !json_is_array(metrics)) {
		json_decref(doc);
		return pr_error_set(err, PR_E_FORMAT, "'metrics': expected an array of sections");
	}
	if (json_array_size(metrics) > DX_MAX_SECTIONS) {
		json_decref(doc);
		return pr_error_set(err, PR_E_LIMIT, "'metrics': more than %d sections",
				    DX_MAX_SECTIONS);
	}
	memset(&d, 0, sizeof(d));
	d.w = w;
	d.files = json_array();
	pr_writer_set_collector(w, "diffulex");
	pr_writer_set_time_synthetic(w, 1);
	d.track = pr_writer_track(w, "phases", "diffulex", "sections");
	pr_writer_track_set_name(w, d.track, "sections");
	pr_writer_process_set_name(w, "diffulex", "Diffulex profiler");
	if (truncated)
		pr_writer_diag(w, "diffulex_json_truncated", -1,
			       jerr.line > 0 && jerr.column > 0 ? jerr.line : 0,
			       jerr.line > 0 && jerr.column > 0 ? jerr.column : 0,
			       "the JSON ends early (json.dump failed midway, "
			       "e.g. on a metadata or custom metric value that is not JSON-"
			       "serializable): %zu complete section(s) kept; the section being "
			       "written, any after it and the summary are lost",
			       json_array_size(metrics));
	if (nonfinite)
		pr_writer_diag(w, "diffulex_nonfinite", -1, 0, 0,
			       "%ld NaN/Infinity value(s) (Python json.dump) read as null",
			       nonfinite);
	json_array_foreach (metrics, i, sec)
		dx_section(&d, sec, i);
	dx_summary(&d, json_object_get(doc, "summary"));
	dx_derived(&d);
	pr_writer_meta_set(w, "time_base", json_string(DX_TIME_BASE));
	pr_writer_meta_set(w, "gpu_utilization", json_string(DX_GPU_NOTE));
	pr_writer_meta_set(w, "memory_delta", json_string(DX_MEM_NOTE));
	pr_writer_meta_set(w, "nesting", json_string(DX_NEST_NOTE));
	pr_writer_meta_set(w, "sections", json_integer(d.sections));
	pr_writer_meta_set(w, "sections_skipped", json_integer(d.skipped));
	pr_writer_meta_set(w, "backend", json_string(d.backend ? d.backend : "simple"));
	if (json_array_size(d.files))
		pr_writer_meta_set(w, "backend_files", json_incref(d.files));
	if (json_is_object(json_object_get(doc, "summary")))
		pr_writer_meta_set(w, "summary", json_incref(json_object_get(doc, "summary")));
	if (truncated)
		pr_writer_meta_set(w, "truncated_after_bytes", json_integer((json_int_t)kept));
	json_decref(d.files);
	json_decref(doc);
	return 0;
}

static const char *const diffulex_tokens[] = { "backend",
					       "backend_data",
					       "metrics",
					       "summary",
					       "name",
					       "duration_sec",
					       "total_duration_sec",
					       "total_events",
					       "total_sections",
					       "total_tokens",
					       "avg_throughput_tokens_per_sec",
					       "gpu_utilization",
					       "custom_metrics",
					       "cpu_time_total_ms",
					       "cuda_time_total_ms",
					       NULL };

const struct pr_format pr_format_diffulex = {
	.name = "diffulex",
	.summary = "Diffulex profiler JSON export (diffulex_profiler <base>.json)",
	.sniff = dx_sniff,
	.parse = dx_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = diffulex_tokens,
};
