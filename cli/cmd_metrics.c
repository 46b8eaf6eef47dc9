/* cmd_metrics.c - profreport metrics INPUT...: headline metrics for dashboards (CSV as Apache
 * Otava reads it, JSON rows, Bencher Metric Format, OpenMetrics text). docs/compare.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/output.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cli/commands.h"
#include "cli/history.h"
#include "cli/input.h"
#include "render/units.h"

/* The options, as the table binds them (pr_opt_fill). */
struct metrics_opts {
	const char *to, *output, *format;
};

#define O struct metrics_opts
static const struct pr_option opts[] = {
	PR_OPT_STRING("to", 0, "csv|json|bmf|openmetrics", "the output's form (default csv)", 0, O,
		      to),
	PR_OPT_STRING("output", 'o', "FILE", "write to FILE instead of standard output", 0, O,
		      output),
	PR_OPT_STRING("format", 0, "NAME", "force the input format (traces)", 0, O, format),
	PR_OPT_END,
};
#undef O

/* A number as the outputs write it: the shortest of %.12g. */
static void fmt_num(struct pr_strbuf *sb, double v)
{
	pr_strbuf_addf(sb, "%.12g", v);
}

/*
 * The time written for a run: its `time` metadata, else its clock's epoch start, else
 * 1970-01-01 plus its position in seconds (so that the rows keep their order). Otava's
 * format: "2026-01-15 10:23:45 +0000".
 */
static void fmt_time(struct pr_strbuf *sb, const struct pr_hist_run *r, size_t pos)
{
	double ns = r->has_time	   ? (double)r->time_ns
		    : r->has_epoch ? (double)r->epoch_ns
				   : (double)pos * 1e9;
	struct tm tm;
	long ms;
	if (pr_utc_split(ns / 1e9, &tm, &ms)) {
		pr_strbuf_addstr(sb, "1970-01-01 00:00:00 +0000");
		return;
	}
	pr_strbuf_addf(sb, "%04d-%02d-%02d %02d:%02d:%02d +0000", tm.tm_year + 1900, tm.tm_mon + 1,
		       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* One CSV field (RFC 4180: quoted when it holds a comma, a quote or a line break). */
static void csv_field(struct pr_strbuf *sb, const char *s)
{
	const char *p;
	if (!strpbrk(s, ",\"\r\n")) {
		pr_strbuf_addstr(sb, s);
		return;
	}
	pr_strbuf_addch(sb, '"');
	for (p = s; *p; p++) {
		if (*p == '"')
			pr_strbuf_addch(sb, '"');
		pr_strbuf_addch(sb, *p);
	}
	pr_strbuf_addch(sb, '"');
}

/* The metadata keys of every run, sorted, without `time` (the time column). */
static json_t *meta_keys(const struct pr_history *h)
{
	json_t *keys = json_object(), *arr = json_array(), *v;
	const char *k;
	size_t i;
	for (i = 0; i < h->n; i++)
		json_object_foreach (h->runs[i].meta, k, v)
			if (strcmp(k, "time"))
				json_object_set_new(keys, k, json_true());
	/* jansson iterates in insertion order: sort the keys */
	{
		const char **ks = pr_xcalloc(json_object_size(keys) + 1, sizeof(*ks));
		size_t n = 0, a, b;
		json_object_foreach (keys, k, v)
			ks[n++] = k;
		for (a = 1; a < n; a++)
			for (b = a; b > 0 && strcmp(ks[b - 1], ks[b]) > 0; b--) {
				const char *t = ks[b];
				ks[b] = ks[b - 1];
				ks[b - 1] = t;
			}
		for (a = 0; a < n; a++)
			json_array_append_new(arr, json_string(ks[a]));
		free(ks);
	}
	json_decref(keys);
	return arr;
}

static void to_csv(const struct pr_history *h, struct pr_strbuf *sb)
{
	size_t nd, d, i, k;
	const struct pr_headline_def *defs = pr_headline_defs(&nd);
	json_t *keys = meta_keys(h), *key;
	int *all = pr_xcalloc(nd, sizeof(*all));
	double v;
	/* Otava reads every metric column as a number: only metrics every run has */
	for (d = 0; d < nd; d++) {
		all[d] = h->n > 0;
		for (i = 0; i < h->n; i++)
			all[d] &= pr_hist_value(&h->runs[i], defs[d].name, &v);
	}
	pr_strbuf_addstr(sb, "time,run,label");
	json_array_foreach (keys, k, key) {
		pr_strbuf_addch(sb, ',');
		csv_field(sb, json_string_value(key));
	}
	for (d = 0; d < nd; d++)
		if (all[d])
			pr_strbuf_addf(sb, ",%s", defs[d].name);
	pr_strbuf_addch(sb, '\n');
	for (i = 0; i < h->n; i++) {
		const struct pr_hist_run *r = &h->runs[i];
		fmt_time(sb, r, i);
		pr_strbuf_addf(sb, ",%lld,", (long long)r->id);
		csv_field(sb, r->label);
		json_array_foreach (keys, k, key) {
			const char *s =
				json_string_value(json_object_get(r->meta, json_string_value(key)));
			pr_strbuf_addch(sb, ',');
			csv_field(sb, s ? s : "");
		}
		for (d = 0; d < nd; d++) {
			if (!all[d])
				continue;
			pr_hist_value(r, defs[d].name, &v);
			pr_strbuf_addch(sb, ',');
			fmt_num(sb, v);
		}
		pr_strbuf_addch(sb, '\n');
	}
	free(all);
	json_decref(keys);
}

static json_t *jnum(double v)
{
	return json_real(v);
}

static void to_json(const struct pr_history *h, struct pr_strbuf *sb)
{
	json_t *doc = json_object(), *rows = json_array();
	size_t i, k;
	char *text;
	for (i = 0; i < h->n; i++) {
		const struct pr_hist_run *r = &h->runs[i];
		for (k = 0; k < r->nh; k++) {
			const struct pr_headline *m = &r->h[k];
			json_t *row = json_object();
			json_object_set_new(row, "run", json_integer(r->id));
			json_object_set_new(row, "label", json_string(r->label));
			json_object_set_new(row, "metric", json_string(m->def->name));
			json_object_set_new(row, "value", jnum(m->value));
			json_object_set_new(row, "unit", json_string(m->def->unit));
			if (m->has_bounds) {
				json_object_set_new(row, "lower", jnum(m->lower));
				json_object_set_new(row, "upper", jnum(m->upper));
			}
			if (m->series)
				json_object_set_new(row, "series", json_string(m->series));
			json_object_set_new(row, "better",
					    json_string(m->def->better < 0 ? "lower" : "higher"));
			json_object_set(row, "meta", r->meta);
			json_array_append_new(rows, row);
		}
	}
	json_object_set_new(doc, "schema", json_string("profreport-metrics"));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "order", json_string(h->by_time ? "time" : "run"));
	json_object_set_new(doc, "rows", rows);
	text = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	pr_strbuf_addstr(sb, text);
	pr_strbuf_addch(sb, '\n');
	free(text);
	json_decref(doc);
}

/* Bencher Metric Format: {"benchmark": {"measure": {"value", "lower_value", "upper_value"}}}.
 * The benchmark is the run's label (with " (run N)" when two runs share it). */
static void to_bmf(const struct pr_history *h, struct pr_strbuf *sb)
{
	json_t *doc = json_object();
	size_t i, j, k;
	char *text;
	for (i = 0; i < h->n; i++) {
		const struct pr_hist_run *r = &h->runs[i];
		json_t *bench = json_object();
		struct pr_strbuf name = PR_STRBUF_INIT;
		int dup = 0;
		for (j = 0; j < h->n; j++)
			dup |= j != i && !strcmp(h->runs[j].label, r->label);
		pr_strbuf_addstr(&name, r->label);
		if (dup || !*r->label)
			pr_strbuf_addf(&name, "%s(run %lld)", *r->label ? " " : "",
				       (long long)r->id);
		for (k = 0; k < r->nh; k++) {
			const struct pr_headline *m = &r->h[k];
			json_t *o = json_object();
			json_object_set_new(o, "value", jnum(m->value));
			if (m->has_bounds) {
				json_object_set_new(o, "lower_value", jnum(m->lower));
				json_object_set_new(o, "upper_value", jnum(m->upper));
			}
			json_object_set_new(bench, m->def->name, o);
		}
		json_object_set_new(doc, name.buf, bench);
		pr_strbuf_release(&name);
	}
	text = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	pr_strbuf_addstr(sb, text);
	pr_strbuf_addch(sb, '\n');
	free(text);
	json_decref(doc);
}

/* An OpenMetrics label value: backslash, double quote and line feed escaped. */
static void om_value(struct pr_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			pr_strbuf_addch(sb, '\\');
		if (*s == '\n') {
			pr_strbuf_addstr(sb, "\\n");
			continue;
		}
		pr_strbuf_addch(sb, *s);
	}
}

/* A metadata key as a label name: [a-zA-Z_][a-zA-Z0-9_]*, not run, label, series or __*. */
static void om_label_name(struct pr_strbuf *sb, const char *k)
{
	size_t start = sb->len;
	const char *p;
	for (p = k; *p; p++) {
		char c = *p;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			 (c >= '0' && c <= '9');
		pr_strbuf_addch(sb, ok ? c : '_');
	}
	if (!strcmp(sb->buf + start, "run") || !strcmp(sb->buf + start, "label") ||
	    !strcmp(sb->buf + start, "series") || !strncmp(sb->buf + start, "__", 2) ||
	    (sb->buf[start] >= '0' && sb->buf[start] <= '9')) {
		struct pr_strbuf t = PR_STRBUF_INIT;
		pr_strbuf_addf(&t, "meta_%s", sb->buf + start);
		sb->len = start;
		sb->buf[start] = '\0';
		pr_strbuf_addstr(sb, t.buf);
		pr_strbuf_release(&t);
	}
}

static void to_openmetrics(const struct pr_history *h, struct pr_strbuf *sb)
{
	size_t nd, d, i;
	const struct pr_headline_def *defs = pr_headline_defs(&nd);
	for (d = 0; d < nd; d++) {
		int any = 0;
		double v;
		for (i = 0; i < h->n; i++)
			any |= pr_hist_value(&h->runs[i], defs[d].name, &v);
		if (!any)
			continue;
		pr_strbuf_addf(sb, "# TYPE %s gauge\n", defs[d].om_name);
		if (defs[d].om_unit)
			pr_strbuf_addf(sb, "# UNIT %s %s\n", defs[d].om_name, defs[d].om_unit);
		pr_strbuf_addf(sb, "# HELP %s %s\n", defs[d].om_name, defs[d].help);
		for (i = 0; i < h->n; i++) {
			const struct pr_hist_run *r = &h->runs[i];
			/* the label names so far, each framed by "\n" */
			struct pr_strbuf seen = PR_STRBUF_INIT;
			const char *k;
			json_t *mv;
			size_t j;
			if (!pr_hist_value(r, defs[d].name, &v))
				continue;
			pr_strbuf_addf(sb, "%s{run=\"%lld\",label=\"", defs[d].om_name,
				       (long long)r->id);
			om_value(sb, r->label);
			pr_strbuf_addch(sb, '"');
			for (j = 0; j < r->nh; j++)
				if (r->h[j].def == &defs[d] && r->h[j].series) {
					pr_strbuf_addstr(sb, ",series=\"");
					om_value(sb, r->h[j].series);
					pr_strbuf_addch(sb, '"');
				}
			pr_strbuf_addch(&seen, '\n');
			json_object_foreach (r->meta, k, mv) {
				struct pr_strbuf ln = PR_STRBUF_INIT, framed = PR_STRBUF_INIT;
				om_label_name(&ln, k);
				pr_strbuf_addf(&framed, "\n%s\n", ln.buf);
				/* two keys that read alike as label names (a.b, a-b): the first */
				if (!strstr(seen.buf, framed.buf)) {
					pr_strbuf_addf(&seen, "%s\n", ln.buf);
					pr_strbuf_addf(sb, ",%s=\"", ln.buf);
					om_value(sb, json_string_value(mv));
					pr_strbuf_addch(sb, '"');
				}
				pr_strbuf_release(&ln);
				pr_strbuf_release(&framed);
			}
			pr_strbuf_release(&seen);
			pr_strbuf_addstr(sb, "} ");
			fmt_num(sb, v);
			pr_strbuf_addch(sb, '\n');
		}
	}
	pr_strbuf_addstr(sb, "# EOF\n");
}

static int write_out(const char *path, const char *buf, size_t len, struct pr_error *err)
{
	struct pr_output out;
	int rc = pr_output_open_file(&out, path ? path : "-", err);
	if (!rc) {
		pr_output_write(&out, buf, len);
		rc = pr_output_close(&out, err);
	}
	pr_output_release(&out);
	if (rc && (!path || !strcmp(path, "-")))
		clearerr(stdout);
	return rc;
}

static int cmd_metrics(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct metrics_opts o = { .to = "csv" };
	const char *to;
	struct pr_cli_inopts io;
	struct pr_cli_input in;
	struct pr_history h;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int rc;
	if (pr_opt_fill(cmd->opts, a, &o, err)) /* strings: cannot fail */
		return -1;
	to = o.to;
	io = (struct pr_cli_inopts){ o.format, NULL, 0, NULL, 0, 0 };
	if (strcmp(to, "csv") && strcmp(to, "json") && strcmp(to, "bmf") &&
	    strcmp(to, "openmetrics"))
		return pr_error_set(err, PR_E_USAGE,
				    "unknown --to '%s' (csv, json, bmf, openmetrics)", to);
	if (io.format && pr_cli_output_form_misused(io.format, "csv, json, bmf, openmetrics", err))
		return -1;
	if (pr_cli_input_open_opts(&in, cmd->name, a->pos, a->npos, &io, err))
		return -1;
	rc = pr_history_load(in.store, !in.tmp_path, &h, err);
	pr_cli_input_close(&in);
	if (rc)
		return -1;
	if (!h.n) {
		pr_history_release(&h);
		return pr_error_set(err, PR_E_USAGE, "no run in the input");
	}
	if (!strcmp(to, "csv"))
		to_csv(&h, &sb);
	else if (!strcmp(to, "json"))
		to_json(&h, &sb);
	else if (!strcmp(to, "bmf"))
		to_bmf(&h, &sb);
	else
		to_openmetrics(&h, &sb);
	rc = write_out(o.output, sb.buf ? sb.buf : "", sb.len, err);
	pr_strbuf_release(&sb);
	pr_history_release(&h);
	return rc;
}

const struct pr_command pr_cmd_metrics = {
	.name = "metrics",
	.fn = cmd_metrics,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "metrics INPUT...",
	.summary = "headline metrics per run for dashboards: CSV (Otava), JSON, Bencher BMF, "
		   "OpenMetrics",
	.help = "One value per run and headline metric (step_time, steps_per_s, tokens_per_s,\n"
		"fps, gpu_busy, peak_memory, duration), with the run's id, label and --meta\n"
		"labels.\n"
		"--to csv: one row per run (time, run, label, the metadata keys, then the metrics\n"
		"every run has), as Apache Otava's CSV importer reads it; json: one row per run\n"
		"and metric; bmf: Bencher Metric Format; openmetrics: Prometheus/OpenMetrics text.",
};
