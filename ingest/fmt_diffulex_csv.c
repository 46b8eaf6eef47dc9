/*
 * fmt_diffulex_csv.c - the CSV export of the Diffulex profiler, `<base>.csv`
 * (diffulex_profiler CSVExporter, opt-in with export_formats=[..., "csv"];
 * FORMATS.md section 003).
 *
 * csv.DictWriter output: CRLF, a header that is the sorted union of
 * name, duration_sec, total_tokens, throughput_tokens_per_sec, every custom
 * metric key and "metadata_" + every metadata key; one row per section;
 * cells are Python str(): float reprs (0.1, 2000.0, 1e-05, inf, nan),
 * True/False, None and absent keys as "", lists/dicts as Python reprs.
 *
 * No timestamps: each row is a span of kind "section" on one track, laid
 * end to end in row order (synthetic time). Span args: {"metadata": {...},
 * "custom_metrics": {...}} with numbers, booleans and strings typed back
 * from their reprs (lists/dicts stay as their repr text).
 * Reported metrics per section: duration (ns), total_tokens and throughput
 * (tokens/s) when tokens > 0, custom.<key> for numeric custom cells; a
 * derived throughput when the collector's was not tokens / the section's
 * duration. The CSV has no gpu_utilization, memory_delta_mb or
 * backend_data (use the .json for those).
 *
 * Diagnostics: diffulex_throughput_not_recorded, diffulex_throughput_zero,
 * diffulex_throughput_other_duration, diffulex_csv_bad_value,
 * diffulex_csv_bad_field_count, diffulex_csv_nonfinite,
 * diffulex_csv_invalid_text, diffulex_csv_header_unsorted.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/csv.h"
#include "ingest/diffulex.h"
#include "ingest/format.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define DXC_TIME_BASE                                                                              \
	"synthetic: Diffulex writes no timestamps; sections are laid end to end in row "           \
	"order (completion order), each as long as its duration_sec"

enum {
	B_NAME,
	B_DUR,
	B_TOKENS,
	B_TPS,
	NBASE
};
static const char *const dxc_base[NBASE] = { "name", "duration_sec", "total_tokens",
					     "throughput_tokens_per_sec" };

struct dxc {
	struct pr_writer *w;
	int64_t track, ts, rows, skipped;
	size_t ncols;
	char **cols;	 /* header names (cleaned text) */
	int base[NBASE]; /* column index of each base column */
};

static int dxc_sniff(const unsigned char *head, size_t n, const char *path)
{
	struct pr_csv *c = pr_csv_new_mem(head, n, NULL);
	struct pr_error err = PR_ERROR_INIT;
	const struct pr_csv_field *f;
	size_t nf, i, k;
	int found = 0, sorted = 1, score = 0;
	PR_UNUSED(path);
	if (pr_csv_next(c, &err) > 0) {
		f = pr_csv_fields(c, &nf);
		for (i = 0; i < nf; i++) {
			for (k = 0; k < NBASE; k++)
				if (f[i].n == strlen(dxc_base[k]) &&
				    !memcmp(f[i].p, dxc_base[k], f[i].n))
					found++;
			if (i && strcmp(f[i - 1].p, f[i].p) >= 0)
				sorted = 0;
		}
		if (found == NBASE)
			score = sorted ? 90 : 80;
	}
	pr_csv_free(c);
	return score;
}

/* A Python float/int repr: 0 ok, 1 empty, 2 inf/nan, -1 not a number. */
static int dxc_number(const char *p, size_t n, double *out)
{
	char *end;
	size_t i;
	if (n == 0)
		return 1;
	if ((n == 3 && (!memcmp(p, "inf", 3) || !memcmp(p, "nan", 3))) ||
	    (n == 4 && !memcmp(p, "-inf", 4)))
		return 2;
	for (i = 0; i < n; i++)
		if (!strchr("0123456789.eE+-", p[i]))
			return -1;
	*out = strtod(p, &end);
	if (end != p + n || !isfinite(*out))
		return -1;
	return 0;
}

/* A cell as JSON: number, bool, or string (None/absent = NULL). */
static json_t *dxc_value(struct dxc *d, const struct pr_csv_field *f, long line)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *v;
	double x;
	int rc = dxc_number(f->p, f->n, &x);
	if (rc == 1)
		return NULL;
	if (rc == 0) {
		int integral = !memchr(f->p, '.', f->n) && !memchr(f->p, 'e', f->n) &&
			       !memchr(f->p, 'E', f->n) && fabs(x) < 9e15;
		return integral ? json_integer((json_int_t)x) : json_real(x);
	}
	if (rc == 2) {
		pr_writer_diag(d->w, "diffulex_csv_nonfinite", -1, line, f->col,
			       "inf/nan value (Python float repr); kept as text");
	}
	if (f->n == 4 && !memcmp(f->p, "True", 4))
		return json_true();
	if (f->n == 5 && !memcmp(f->p, "False", 5))
		return json_false();
	if (pr_csv_text_ok(f->p, f->n))
		return json_stringn(f->p, f->n);
	pr_csv_text_clean(&sb, f->p, f->n);
	pr_writer_diag(d->w, "diffulex_csv_invalid_text", -1, line, f->col,
		       "invalid UTF-8 or control characters in a cell; replaced by '?'");
	v = json_stringn(sb.buf ? sb.buf : "", sb.len);
	pr_strbuf_release(&sb);
	return v;
}

static int dxc_header(struct dxc *d, struct pr_csv *c, struct pr_error *err)
{
	const struct pr_csv_field *f;
	size_t n, i, k;
	int rc = pr_csv_next(c, err);
	if (rc < 0)
		return -1;
	if (rc == 0)
		return pr_error_at(err, PR_E_FORMAT, -1, 1, 1,
				   "empty file: no Diffulex CSV header");
	f = pr_csv_fields(c, &n);
	d->ncols = n;
	d->cols = pr_xcalloc(n ? n : 1, sizeof(*d->cols));
	for (k = 0; k < NBASE; k++)
		d->base[k] = -1;
	for (i = 0; i < n; i++) {
		struct pr_strbuf sb = PR_STRBUF_INIT;
		pr_csv_text_clean(&sb, f[i].p, f[i].n);
		d->cols[i] = pr_strbuf_detach(&sb, NULL);
		for (k = 0; k < NBASE; k++)
			if (!strcmp(d->cols[i], dxc_base[k]) && d->base[k] < 0)
				d->base[k] = (int)i;
		if (i && strcmp(f[i - 1].p, f[i].p) >= 0)
			pr_writer_diag(d->w, "diffulex_csv_header_unsorted", -1, 1, f[i].col,
				       "header column '%s' out of sorted order (the exporter sorts "
				       "it); the file was edited or written by something else",
				       d->cols[i]);
	}
	for (k = 0; k < NBASE; k++)
		if (d->base[k] < 0)
			return pr_error_at(err, PR_E_FORMAT, -1, 1, 1,
					   "not a Diffulex CSV header: no '%s' column",
					   dxc_base[k]);
	return 0;
}

/* A base numeric cell: 0 ok (or empty: *out = 0), -1 bad (diagnosed). */
static int dxc_base_num(struct dxc *d, const struct pr_csv_field *f, long line, int col,
			double *out)
{
	int rc = dxc_number(f->p, f->n, out);
	if (rc == 0)
		return 0;
	*out = 0;
	if (rc == 1)
		return 0;
	pr_writer_diag(d->w, "diffulex_csv_bad_value", -1, line, f->col, "'%s': expected a number",
		       dxc_base[col]);
	return -1;
}

static void dxc_row(struct dxc *d, const struct pr_csv_field *f, long line)
{
	const struct pr_csv_field *nf = &f[d->base[B_NAME]], *df = &f[d->base[B_DUR]];
	json_t *args = json_object(), *meta = json_object(), *custom = json_object();
	struct pr_strbuf name = PR_STRBUF_INIT;
	struct pr_span_in s;
	double dur, tokens, tps;
	int64_t span, dns;
	char *text;
	size_t i;

	if (dxc_number(df->p, df->n, &dur) != 0 || dur < 0 || dur > 1e9) {
		pr_writer_diag(d->w, "diffulex_csv_bad_value", -1, line, df->col,
			       "'duration_sec': expected a number of seconds; row skipped");
		d->skipped++;
		goto out;
	}
	if (dxc_base_num(d, &f[d->base[B_TOKENS]], line, B_TOKENS, &tokens) || tokens < 0)
		tokens = 0;
	if (dxc_base_num(d, &f[d->base[B_TPS]], line, B_TPS, &tps))
		tps = 0;
	pr_csv_text_clean(&name, nf->p, nf->n);
	if (!pr_csv_text_ok(nf->p, nf->n))
		pr_writer_diag(d->w, "diffulex_csv_invalid_text", -1, line, nf->col,
			       "invalid UTF-8 or control characters in a cell; replaced by '?'");
	for (i = 0; i < d->ncols; i++) {
		const char *col = d->cols[i];
		json_t *v;
		int k, is_base = 0;
		for (k = 0; k < NBASE; k++)
			is_base |= d->base[k] == (int)i;
		if (is_base || !(v = dxc_value(d, &f[i], line)))
			continue;
		if (!strncmp(col, "metadata_", 9)) {
			json_object_set_new(meta, col + 9, v);
			continue;
		}
		json_object_set_new(custom, col, v);
	}
	if (json_object_size(meta))
		json_object_set(args, "metadata", meta);
	if (json_object_size(custom))
		json_object_set(args, "custom_metrics", custom);
	dns = (int64_t)llround(dur * 1e9);
	memset(&s, 0, sizeof(s));
	s.track = d->track;
	s.kind = "section";
	s.name = pr_writer_intern(d->w, name.buf ? name.buf : "", name.len);
	s.ts = d->ts;
	s.dur = dns;
	text = json_object_size(args) ? json_dumps(args, JSON_COMPACT) : NULL;
	s.args = text;
	s.args_len = text ? strlen(text) : 0;
	span = pr_writer_span(d->w, &s);
	free(text);
	d->ts += dns;
	d->rows++;
	pr_dfx_metric(d->w, "duration", dur * 1e9, "ns", span, "reported", "duration_sec");
	{
		char where[300];
		snprintf(where, sizeof(where), "section '%s'", name.buf ? name.buf : "");
		pr_dfx_throughput(d->w, line, 0, where, name.buf ? name.buf : "", dur, tokens, tps,
				  span);
	}
	pr_dfx_custom_metrics(d->w, custom, span);
out:
	pr_strbuf_release(&name);
	json_decref(meta);
	json_decref(custom);
	json_decref(args);
}

static int dxc_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_csv *c = pr_csv_new_source(src, NULL);
	json_t *hdr;
	struct dxc d;
	size_t i;
	int rc;

	memset(&d, 0, sizeof(d));
	d.w = w;
	pr_writer_set_collector(w, "diffulex");
	pr_writer_set_time_synthetic(w, 1);
	if (dxc_header(&d, c, err)) {
		rc = -1;
		goto out;
	}
	d.track = pr_writer_track(w, "phases", "diffulex", "sections");
	pr_writer_track_set_name(w, d.track, "sections");
	pr_writer_process_set_name(w, "diffulex", "Diffulex profiler");
	while ((rc = pr_csv_next(c, err)) > 0) {
		size_t n;
		const struct pr_csv_field *f = pr_csv_fields(c, &n);
		if (n != d.ncols) {
			pr_writer_diag(w, "diffulex_csv_bad_field_count", -1, pr_csv_line(c), 1,
				       "row has %zu fields, the header %zu; row skipped", n,
				       d.ncols);
			d.skipped++;
			continue;
		}
		dxc_row(&d, f, pr_csv_line(c));
	}
	if (rc < 0)
		goto out;
	hdr = json_array();
	for (i = 0; i < d.ncols; i++)
		json_array_append_new(hdr, json_string(d.cols[i]));
	pr_writer_meta_set(w, "csv_header", hdr);
	pr_writer_meta_set(w, "rows", json_integer(d.rows));
	pr_writer_meta_set(w, "rows_skipped", json_integer(d.skipped));
	pr_writer_meta_set(w, "time_base", json_string(DXC_TIME_BASE));
	pr_writer_meta_set(w, "not_in_csv",
			   json_string("gpu_utilization, memory_delta_mb and backend_data are "
				       "not exported to the CSV (see the .json); a custom metric "
				       "named like a base column overwrites it; None and absent "
				       "keys are both empty cells"));
	rc = 0;
out:
	for (i = 0; i < d.ncols; i++)
		free(d.cols[i]);
	free(d.cols);
	pr_csv_free(c);
	return rc;
}

const struct pr_format pr_format_diffulex_csv = {
	.name = "diffulex-csv",
	.summary = "Diffulex profiler CSV export (diffulex_profiler <base>.csv)",
	.sniff = dxc_sniff,
	.parse = dxc_parse,
};
