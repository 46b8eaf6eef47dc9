/*
 * fmt_diffulex_txt.c - the summary text of the Diffulex profiler,
 * `<base>.txt` (diffulex_profiler SummaryExporter; FORMATS.md section 003).
 *
 * "=" * 80, "Diffulex Profiling Summary", "=" * 80, totals (Total Sections,
 * Total Duration %.2f seconds, Total Tokens, Average Throughput %.2f
 * tokens/sec), "-" * 80 "Section Details:" "-" * 80, then per section
 * "Section: NAME" with indented lines (Duration %.4f seconds; Tokens and
 * Throughput only when tokens > 0; GPU Utilization %.2f%% and Memory Delta
 * %.2f MB only when non-zero; Custom Metrics and Metadata as Python dict
 * reprs; VizTracer Output or the three PyTorch file lines), an empty line and
 * the closing "=" * 80, with no trailing newline.
 *
 * Mapping as the JSON export (fmt_diffulex.c), from the rounded printed
 * values: spans of kind "section" laid end to end (synthetic time), args
 * {"metadata", "custom_metrics", "backend_data"} with the dict reprs turned
 * into JSON; reported metrics duration (ns), total_tokens, throughput
 * (tokens/s), gpu_utilization_delta (percent), memory_delta (bytes),
 * custom.<key>, summary.*; backend side files in meta.
 *
 * Diagnostics: diffulex_throughput_not_recorded,
 * diffulex_throughput_other_duration, diffulex_avg_throughput_diluted,
 * diffulex_gpu_util_negative, diffulex_summary_mismatch,
 * diffulex_txt_truncated, diffulex_txt_bad_line, diffulex_txt_bad_value,
 * diffulex_txt_unparsed_repr, diffulex_txt_invalid_text.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/csv.h"
#include "ingest/diffulex.h"
#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/strbuf.h"

#define DXT_RULE_EQ                                                                                \
	"================================================================================"
#define DXT_RULE_DASH                                                                              \
	"--------------------------------------------------------------------------------"
#define DXT_TITLE "Diffulex Profiling Summary"
#define DXT_TIME_BASE                                                                              \
	"synthetic: Diffulex writes no timestamps; sections are laid end to end in file "          \
	"order (completion order), each as long as its printed Duration (0.1 ms resolution)"
#define DXT_GPU_NOTE                                                                               \
	"GPU Utilization is NVML utilization.gpu at stop minus at start (percentage points; "      \
	"can be negative; not an average)"
#define DXT_MEM_NOTE                                                                               \
	"Memory Delta is psutil virtual_memory().used at stop minus at start: system-wide "        \
	"RAM, not the process, not GPU memory (MiB, stored as bytes)"
#define DXT_MAX_DEPTH 64

struct dxt_sec {
	int open;
	long line;
	struct pr_strbuf name;
	double dur, tokens, tps, gpu, mem;
	int has_dur;
	json_t *args; /* metadata, custom_metrics, backend_data */
};

struct dxt {
	struct pr_writer *w;
	int64_t track, ts, sections;
	double tokens, tok_duration;
	int64_t tok_sections, no_tok_dur;
	int have_total_sections, have_avg;
	double total_sections, avg;
	json_t *files;
	struct dxt_sec s;
};

static int dxt_sniff(const unsigned char *head, size_t n, const char *path)
{
	static const char sig[] = DXT_RULE_EQ "\n" DXT_TITLE "\n" DXT_RULE_EQ;
	size_t off = 0;
	PR_UNUSED(path);
	if (n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3))
		off = 3;
	if (n - off >= sizeof(sig) - 1 && !memcmp(head + off, sig, sizeof(sig) - 1))
		return 95;
	return 0;
}

/* ---- Python literal reprs (dict/list/tuple/str/int/float/bool/None) -> JSON ---- */

struct pyr {
	const char *p, *end;
	int depth;
};

static void pyr_ws(struct pyr *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
		r->p++;
}

static void pyr_utf8(struct pr_strbuf *sb, uint32_t c)
{
	char b[4];
	size_t n;
	if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		c = 0xFFFD;
	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xC0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3F));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xE0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
		b[2] = (char)(0x80 | (c & 0x3F));
		n = 3;
	} else {
		b[0] = (char)(0xF0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
		b[3] = (char)(0x80 | (c & 0x3F));
		n = 4;
	}
	pr_strbuf_add(sb, b, n);
}

static json_t *pyr_string(struct pyr *r)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	char q = *r->p++;
	json_t *v = NULL;
	while (r->p < r->end && *r->p != q) {
		char c = *r->p++;
		uint32_t u = 0;
		int digits = 0, k;
		if (c != '\\') {
			pr_strbuf_add(&sb, &c, 1);
			continue;
		}
		if (r->p >= r->end)
			goto out;
		c = *r->p++;
		switch (c) {
		case 'n':
			pr_strbuf_add(&sb, "\n", 1);
			continue;
		case 't':
			pr_strbuf_add(&sb, "\t", 1);
			continue;
		case 'r':
			pr_strbuf_add(&sb, "\r", 1);
			continue;
		case '\\':
		case '\'':
		case '"':
			pr_strbuf_add(&sb, &c, 1);
			continue;
		case 'x':
			digits = 2;
			break;
		case 'u':
			digits = 4;
			break;
		case 'U':
			digits = 8;
			break;
		default:
			goto out;
		}
		for (k = 0; k < digits; k++) {
			char h = r->p < r->end ? *r->p++ : 0;
			int d = h >= '0' && h <= '9'   ? h - '0'
				: h >= 'a' && h <= 'f' ? h - 'a' + 10
				: h >= 'A' && h <= 'F' ? h - 'A' + 10
						       : -1;
			if (d < 0)
				goto out;
			u = u * 16 + (uint32_t)d;
		}
		pyr_utf8(&sb, u);
	}
	if (r->p >= r->end)
		goto out;
	r->p++;
	v = json_stringn(sb.buf ? sb.buf : "", sb.len); /* NULL when not valid UTF-8 */
out:
	pr_strbuf_release(&sb);
	return v;
}

static json_t *pyr_value(struct pyr *r);

static json_t *pyr_seq(struct pyr *r, char close, int dict)
{
	json_t *out = dict ? json_object() : json_array();
	r->p++;
	pyr_ws(r);
	while (r->p < r->end && *r->p != close) {
		json_t *k = pyr_value(r), *v;
		if (!k)
			goto fail;
		pyr_ws(r);
		if (dict) {
			char *ktext;
			if (r->p >= r->end || *r->p != ':') {
				json_decref(k);
				goto fail;
			}
			r->p++;
			v = pyr_value(r);
			if (!v) {
				json_decref(k);
				goto fail;
			}
			ktext = json_is_string(k) ? NULL : json_dumps(k, JSON_ENCODE_ANY);
			json_object_set_new(out, ktext ? ktext : json_string_value(k), v);
			free(ktext);
			json_decref(k);
			pyr_ws(r);
		} else {
			json_array_append_new(out, k);
		}
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			pyr_ws(r);
		} else if (r->p >= r->end || *r->p != close) {
			goto fail;
		}
	}
	if (r->p >= r->end)
		goto fail;
	r->p++;
	return out;
fail:
	json_decref(out);
	return NULL;
}

static json_t *pyr_value(struct pyr *r)
{
	static const struct {
		const char *word;
		int kind;
	} words[] = { { "True", 1 }, { "False", 2 }, { "None", 3 } };
	json_t *v = NULL;
	size_t k;
	pyr_ws(r);
	if (r->p >= r->end || ++r->depth > DXT_MAX_DEPTH)
		return NULL;
	if (*r->p == '{')
		v = pyr_seq(r, '}', 1);
	else if (*r->p == '[')
		v = pyr_seq(r, ']', 0);
	else if (*r->p == '(')
		v = pyr_seq(r, ')', 0);
	else if (*r->p == '\'' || *r->p == '"')
		v = pyr_string(r);
	for (k = 0; !v && k < PR_ARRAY_SIZE(words); k++) {
		size_t l = strlen(words[k].word);
		if ((size_t)(r->end - r->p) >= l && !memcmp(r->p, words[k].word, l)) {
			r->p += l;
			v = words[k].kind == 1	 ? json_true()
			    : words[k].kind == 2 ? json_false()
						 : json_null();
		}
	}
	if (!v && r->p < r->end && strchr("-+0123456789.", *r->p)) {
		const char *s = r->p;
		char buf[64], *end;
		int real = 0;
		size_t n;
		while (r->p < r->end && strchr("-+0123456789.eE", *r->p)) {
			real |= *r->p == '.' || *r->p == 'e' || *r->p == 'E';
			r->p++;
		}
		n = (size_t)(r->p - s);
		if (n && n < sizeof(buf)) {
			double x;
			memcpy(buf, s, n);
			buf[n] = '\0';
			x = strtod(buf, &end);
			if (end == buf + n && isfinite(x))
				v = !real && fabs(x) < 9e15 ? json_integer((json_int_t)x)
							    : json_real(x);
		}
	}
	r->depth--;
	return v;
}

/* The whole text as one Python dict repr, or NULL. */
static json_t *pyr_dict(const char *p, size_t n)
{
	struct pyr r = { p, p + n, 0 };
	json_t *v;
	if (!n || *p != '{')
		return NULL;
	v = pyr_value(&r);
	pyr_ws(&r);
	if (v && (r.p != r.end || !json_is_object(v))) {
		json_decref(v);
		v = NULL;
	}
	return v;
}

/* ---- the text ---- */

/* "<number><suffix>" exactly: 0 ok, -1 not. */
static int dxt_num(const char *p, size_t n, const char *suffix, double *out)
{
	size_t sl = strlen(suffix);
	char buf[64], *end;
	if (n <= sl || memcmp(p + n - sl, suffix, sl) || n - sl >= sizeof(buf))
		return -1;
	n -= sl;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (!strchr("-+0123456789", buf[0]))
		return -1;
	*out = strtod(buf, &end);
	if (end != buf + n || !isfinite(*out))
		return -1;
	return 0;
}

static void dxt_bad(struct dxt *d, long line, const char *what)
{
	pr_writer_diag(d->w, "diffulex_txt_bad_value", -1, line, 1,
		       "%s: not the number the summary prints; ignored", what);
}

static void dxt_flush(struct dxt *d)
{
	struct dxt_sec *s = &d->s;
	struct pr_span_in in;
	const char *name = s->name.buf ? s->name.buf : "";
	char *text;
	int64_t span, dns;
	if (!s->open)
		return;
	s->open = 0;
	if (!s->has_dur) {
		pr_writer_diag(d->w, "diffulex_txt_bad_value", -1, s->line, 1,
			       "section '%s' has no Duration line; section skipped", name);
		goto out;
	}
	dns = (int64_t)llround(s->dur * 1e9);
	memset(&in, 0, sizeof(in));
	in.track = d->track;
	in.kind = "section";
	in.name = pr_writer_intern(d->w, name, s->name.len);
	in.ts = d->ts;
	in.dur = dns;
	text = json_object_size(s->args) ? json_dumps(s->args, JSON_COMPACT) : NULL;
	in.args = text;
	in.args_len = text ? strlen(text) : 0;
	span = pr_writer_span(d->w, &in);
	free(text);
	d->ts += dns;
	d->sections++;
	pr_dfx_metric(d->w, "duration", s->dur * 1e9, "ns", span, "reported",
		      "Duration, rounded to 0.1 ms in the summary text");
	if (s->tokens > 0) {
		double lo, hi;
		pr_dfx_metric(d->w, "total_tokens", s->tokens, "count", span, "reported", NULL);
		pr_dfx_metric(d->w, "throughput", s->tps, "tokens/s", span, "reported",
			      "Throughput (2 decimals): tokens / the duration given to "
			      "record_throughput()");
		d->tok_sections++;
		d->tokens += s->tokens;
		d->tok_duration += s->dur;
		if (s->dur > 5e-5) {
			/* the printed values are rounded: compare with their ranges */
			lo = s->tokens / (s->dur + 5e-5) - 5e-3;
			hi = s->tokens / (s->dur - 5e-5) + 5e-3;
			if (s->tps < lo || s->tps > hi) {
				pr_writer_diag(d->w, "diffulex_throughput_other_duration", -1,
					       s->line, 1,
					       "section '%s': Throughput = tokens / the duration "
					       "passed to record_throughput(), not the section's "
					       "Duration; a derived throughput is stored",
					       name);
				pr_dfx_metric(d->w, "throughput", s->tokens / s->dur, "tokens/s",
					      span, "derived", "Tokens / the section's Duration");
			}
		}
	} else if (s->dur > 0) {
		d->no_tok_dur++;
		pr_dfx_not_recorded(d->w, s->line, 1, name);
	}
	if (s->gpu != 0) {
		pr_dfx_metric(d->w, "gpu_utilization_delta", s->gpu, "percent", span, "reported",
			      DXT_GPU_NOTE);
		if (s->gpu < 0)
			pr_writer_diag(d->w, "diffulex_gpu_util_negative", -1, s->line, 1,
				       "section '%s': GPU Utilization %.2f%% is a stop-minus-start "
				       "delta of NVML utilization, not an average",
				       name, s->gpu);
	}
	if (s->mem != 0)
		pr_dfx_metric(d->w, "memory_delta", s->mem * 1048576.0, "bytes", span, "reported",
			      DXT_MEM_NOTE);
	pr_dfx_custom_metrics(d->w, json_object_get(s->args, "custom_metrics"), span);
	{
		json_t *bd = json_object_get(s->args, "backend_data");
		if (bd) {
			json_t *f = json_deep_copy(bd);
			json_object_set_new(f, "section", json_string(name));
			json_array_append_new(d->files, f);
		}
	}
out:
	json_decref(s->args);
	s->args = NULL;
	pr_strbuf_release(&s->name);
}

static void dxt_backend(struct dxt *d, const char *backend, const char *key, const char *v,
			size_t n)
{
	json_t *bd = json_object_get(d->s.args, "backend_data");
	if (!bd) {
		bd = json_object();
		json_object_set_new(bd, "backend", json_string(backend));
		json_object_set_new(d->s.args, "backend_data", bd);
	}
	if (n == 4 && !memcmp(v, "None", 4))
		json_object_set_new(bd, key, json_null());
	else
		json_object_set_new(bd, key, json_stringn(v, n));
}

/* One "  Key: value" line of a section. */
static void dxt_field(struct dxt *d, const char *p, size_t n, long line)
{
	static const struct {
		const char *key;
		int id;
	} keys[] = { { "Duration: ", 1 },	   { "Tokens: ", 2 },
		     { "Throughput: ", 3 },	   { "GPU Utilization: ", 4 },
		     { "Memory Delta: ", 5 },	   { "Custom Metrics: ", 6 },
		     { "Metadata: ", 7 },	   { "VizTracer Output: ", 8 },
		     { "PyTorch Trace: ", 9 },	   { "PyTorch Stacks: ", 10 },
		     { "PyTorch Top Table: ", 11 } };
	struct dxt_sec *s = &d->s;
	size_t k, kl = 0;
	int id = 0;
	double x;
	for (k = 0; k < PR_ARRAY_SIZE(keys) && !id; k++) {
		kl = strlen(keys[k].key);
		if (n >= kl && !memcmp(p, keys[k].key, kl))
			id = keys[k].id;
	}
	if (!id) {
		pr_writer_diag(d->w, "diffulex_txt_bad_line", -1, line, 1,
			       "unknown line in a section; ignored");
		return;
	}
	p += kl;
	n -= kl;
	switch (id) {
	case 1:
		if (dxt_num(p, n, " seconds", &x) || x < 0 || x > 1e9) {
			dxt_bad(d, line, "Duration");
			return;
		}
		s->dur = x;
		s->has_dur = 1;
		return;
	case 2:
		if (dxt_num(p, n, "", &x) || x < 0) {
			dxt_bad(d, line, "Tokens");
			return;
		}
		s->tokens = x;
		return;
	case 3:
		if (dxt_num(p, n, " tokens/sec", &x)) {
			dxt_bad(d, line, "Throughput");
			return;
		}
		s->tps = x;
		return;
	case 4:
		if (dxt_num(p, n, "%", &x)) {
			dxt_bad(d, line, "GPU Utilization");
			return;
		}
		s->gpu = x;
		return;
	case 5:
		if (dxt_num(p, n, " MB", &x)) {
			dxt_bad(d, line, "Memory Delta");
			return;
		}
		s->mem = x;
		return;
	case 6:
	case 7: {
		const char *key = id == 6 ? "custom_metrics" : "metadata";
		json_t *v = pyr_dict(p, n);
		if (!v) {
			pr_writer_diag(d->w, "diffulex_txt_unparsed_repr", -1, line, (long)kl + 1,
				       "a Python dict repr that is not made of plain literals (an "
				       "object's repr?); kept as text");
			v = json_stringn(p, n);
		}
		if (v)
			json_object_set_new(s->args, key, v);
		return;
	}
	case 8:
		dxt_backend(d, "viztracer", "output_file", p, n);
		return;
	default:
		dxt_backend(d, "pytorch",
			    id == 9    ? "trace_file"
			    : id == 10 ? "stacks_file"
				       : "top_table_file",
			    p, n);
		return;
	}
}

/* A totals line: 1 when it was one. */
static int dxt_total(struct dxt *d, const char *p, size_t n, long line)
{
	static const char *const keys[] = { "Total Sections: ", "Total Duration: ",
					    "Total Tokens: ", "Average Throughput: " };
	static const char *const sfx[] = { "", " seconds", "", " tokens/sec" };
	size_t k, kl;
	double x;
	for (k = 0; k < PR_ARRAY_SIZE(keys); k++) {
		kl = strlen(keys[k]);
		if (n < kl || memcmp(p, keys[k], kl))
			continue;
		if (dxt_num(p + kl, n - kl, sfx[k], &x)) {
			dxt_bad(d, line, keys[k]);
			return 1;
		}
		switch (k) {
		case 0:
			d->have_total_sections = 1;
			d->total_sections = x;
			pr_dfx_metric(d->w, "summary.total_sections", x, "count", 0, "reported",
				      NULL);
			break;
		case 1:
			pr_dfx_metric(
				d->w, "summary.total_duration", x * 1e9, "ns", 0, "reported",
				"Total Duration (2 decimals): the sum of all section durations");
			break;
		case 2:
			pr_dfx_metric(d->w, "summary.total_tokens", x, "count", 0, "reported",
				      NULL);
			break;
		default:
			d->have_avg = 1;
			d->avg = x;
			pr_dfx_metric(
				d->w, "summary.avg_throughput", x, "tokens/s", 0, "reported",
				"Average Throughput (2 decimals): total tokens / the duration of "
				"ALL sections (including sections without tokens)");
			break;
		}
		return 1;
	}
	return 0;
}

static int dxt_slurp(struct pr_source *src, struct pr_strbuf *out, struct pr_error *err)
{
	char buf[65536];
	long n;
	while ((n = pr_source_read(src, buf, sizeof(buf), err)) > 0) {
		pr_strbuf_add(out, buf, (size_t)n);
		if (out->len > PR_JDOC_MAX)
			return pr_error_set(err, PR_E_LIMIT, "summary larger than %zu MiB",
					    PR_JDOC_MAX >> 20);
	}
	return n < 0 ? -1 : 0;
}

static int dxt_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_strbuf sb = PR_STRBUF_INIT, clean = PR_STRBUF_INIT;
	struct dxt d;
	size_t pos = 0, skip = 0;
	long line = 0;
	int closed = 0, details = 0;

	memset(&d, 0, sizeof(d));
	d.w = w;
	if (dxt_slurp(src, &sb, err)) {
		pr_strbuf_release(&sb);
		return -1;
	}
	if (sb.len >= 3 && !memcmp(sb.buf, "\xEF\xBB\xBF", 3))
		skip = 3;
	if (sb.len - skip < sizeof(DXT_RULE_EQ "\n" DXT_TITLE) - 1 ||
	    memcmp(sb.buf + skip, DXT_RULE_EQ "\n" DXT_TITLE,
		   sizeof(DXT_RULE_EQ "\n" DXT_TITLE) - 1)) {
		pr_strbuf_release(&sb);
		return pr_error_at(err, PR_E_FORMAT, -1, 1, 1,
				   "not a Diffulex summary: expected '=' * 80 and '" DXT_TITLE "'");
	}
	pos = skip;
	pr_writer_set_collector(w, "diffulex");
	pr_writer_set_time_synthetic(w, 1);
	d.files = json_array();
	d.track = pr_writer_track(w, "phases", "diffulex", "sections");
	pr_writer_track_set_name(w, d.track, "sections");
	pr_writer_process_set_name(w, "diffulex", "Diffulex profiler");
	while (pos < sb.len) {
		const char *p = sb.buf + pos, *nl = memchr(p, '\n', sb.len - pos);
		size_t n = nl ? (size_t)(nl - p) : sb.len - pos;
		pos += n + (nl != NULL);
		line++;
		if (n && p[n - 1] == '\r')
			n--;
		if (!pr_csv_text_ok(p, n)) {
			pr_strbuf_reset(&clean);
			pr_csv_text_clean(&clean, p, n);
			pr_writer_diag(w, "diffulex_txt_invalid_text", -1, line, 1,
				       "invalid UTF-8 or control characters; replaced by '?'");
			p = clean.buf;
			n = clean.len;
		}
		if (closed) {
			if (n)
				pr_writer_diag(w, "diffulex_txt_bad_line", -1, line, 1,
					       "text after the closing rule; ignored");
			continue;
		}
		if (n == 0 || line <= 3)
			continue;
		if (n == 80 && !memcmp(p, DXT_RULE_EQ, 80)) {
			closed = 1;
			continue;
		}
		if (!details) {
			if (n == 80 && !memcmp(p, DXT_RULE_DASH, 80))
				continue;
			if (n == 16 && !memcmp(p, "Section Details:", 16)) {
				details = 1;
				continue;
			}
			if (!dxt_total(&d, p, n, line))
				pr_writer_diag(w, "diffulex_txt_bad_line", -1, line, 1,
					       "unknown line in the totals; ignored");
			continue;
		}
		if (n == 80 && !memcmp(p, DXT_RULE_DASH, 80))
			continue;
		if (n >= 9 && !memcmp(p, "Section: ", 9)) {
			dxt_flush(&d);
			d.s.open = 1;
			d.s.line = line;
			d.s.has_dur = 0;
			d.s.dur = d.s.tokens = d.s.tps = d.s.gpu = d.s.mem = 0;
			d.s.args = json_object();
			pr_strbuf_add(&d.s.name, p + 9, n - 9);
			continue;
		}
		if (d.s.open && n > 2 && p[0] == ' ' && p[1] == ' ') {
			dxt_field(&d, p + 2, n - 2, line);
			continue;
		}
		pr_writer_diag(w, "diffulex_txt_bad_line", -1, line, 1,
			       "unknown line in the section details; ignored");
	}
	dxt_flush(&d);
	if (!closed)
		pr_writer_diag(w, "diffulex_txt_truncated", -1, line, 1,
			       "no closing '=' * 80 rule: the summary is cut short; sections "
			       "up to here kept");
	if (d.have_total_sections && d.total_sections != (double)d.sections)
		pr_writer_diag(w, "diffulex_summary_mismatch", -1, 0, 0,
			       "Total Sections is %g but %lld section(s) were read",
			       d.total_sections, (long long)d.sections);
	if (d.tok_sections && d.no_tok_dur && d.tok_duration > 0) {
		pr_writer_diag(
			w, "diffulex_avg_throughput_diluted", -1, 0, 0,
			"the reported Average Throughput divides the tokens of %lld section(s) "
			"by the duration of all %lld; a derived summary.avg_throughput over "
			"the sections with tokens is stored",
			(long long)d.tok_sections, (long long)d.sections);
		pr_dfx_metric(d.w, "summary.avg_throughput", d.tokens / d.tok_duration, "tokens/s",
			      0, "derived",
			      "Tokens / the Duration of the sections that have tokens");
	}
	pr_writer_meta_set(w, "time_base", json_string(DXT_TIME_BASE));
	pr_writer_meta_set(w, "gpu_utilization", json_string(DXT_GPU_NOTE));
	pr_writer_meta_set(w, "memory_delta", json_string(DXT_MEM_NOTE));
	pr_writer_meta_set(w, "rounding",
			   json_string("values as printed: durations to 0.1 ms (sections) or "
				       "10 ms (total), throughputs and deltas to 2 decimals"));
	pr_writer_meta_set(w, "sections", json_integer(d.sections));
	if (json_array_size(d.files))
		pr_writer_meta_set(w, "backend_files", json_incref(d.files));
	json_decref(d.files);
	pr_strbuf_release(&clean);
	pr_strbuf_release(&sb);
	return 0;
}

const struct pr_format pr_format_diffulex_txt = {
	.name = "diffulex-summary",
	.summary = "Diffulex profiler summary text (diffulex_profiler <base>.txt)",
	.sniff = dxt_sniff,
	.parse = dxt_parse,
};
