/* cmd_changes.c - profreport changes STORE: change points along a store's history of runs
 * (E-Divisive means, base/changes.h; docs/compare.md, "History"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/changes.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "cli/commands.h"
#include "cli/history.h"
#include "cli/input.h"
#include "render/termsafe.h"
#include "render/units.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

#define SPAN_PREFIX "span:"
#define TOP_SPANS 5

/* The options, as the table binds them (pr_opt_fill); --metric and --where repeat and are
 * read with pr_opt_nth. */
struct changes_cli_opts {
	const char *to, *output, *alpha, *min_change;
	int64_t spans;
};

#define O struct changes_cli_opts
static const struct pr_option opts[] = {
	PR_OPT("metric", 0, "NAME",
	       "a headline metric (step_time, ...) or span:NAME (repeatable; default: every "
	       "headline metric and the top spans)",
	       PR_OPT_REPEAT),
	PR_OPT("where", 0, "KEY=VALUE", "only the runs whose metadata has KEY=VALUE (repeatable)",
	       PR_OPT_REPEAT),
	PR_OPT_STRING("to", 0, "text|md|json", "the output's form (default text)", 0, O, to),
	PR_OPT_STRING("output", 'o', "FILE", "write to FILE instead of standard output", 0, O,
		      output),
	PR_OPT_STRING("alpha", 0, "P", "significance level of the permutation test (default 0.01)",
		      0, O, alpha),
	PR_OPT_STRING("min-change", 0, "PCT", "smallest change of the medians reported (default 1)",
		      0, O, min_change),
	PR_OPT_UINT("spans", 0, "N", "top spans followed by default (default 5)", 0, O, spans,
		    1000),
	PR_OPT_END,
};
#undef O

/* One followed series: a headline metric or a span's mean time per call. */
struct follow {
	char *name;	  /* step_time, span:NAME */
	const char *unit; /* s, bytes, ... */
	int better;	  /* -1 lower, +1 higher */
	double *v;	  /* values of the runs that have it */
	size_t *run;	  /* their index in the history */
	size_t n;
	struct pr_change *c;
	size_t nc;
};

static int value_of(const struct pr_hist_run *r, const char *name, double *v)
{
	json_t *x;
	if (strncmp(name, SPAN_PREFIX, strlen(SPAN_PREFIX)))
		return pr_hist_value(r, name, v);
	x = json_object_get(r->spans, name + strlen(SPAN_PREFIX));
	if (!json_is_number(x))
		return 0;
	*v = json_number_value(x) / 1e9;
	return 1;
}

/* The runs matching every --where, in place. */
static int filter(const struct pr_command *cmd, struct pr_args *a, struct pr_history *h,
		  struct pr_error *err)
{
	int k, nw = a->count[pr_opt_index(cmd->opts, "where")];
	for (k = 0; k < nw; k++) {
		const char *w = pr_opt_nth(cmd->opts, a, "where", k), *eq = strchr(w, '=');
		struct pr_strbuf key = PR_STRBUF_INIT;
		size_t i, j, known = 0;
		if (!eq || eq == w)
			return pr_error_set(err, PR_E_USAGE, "--where '%s': give KEY=VALUE", w);
		pr_strbuf_add(&key, w, (size_t)(eq - w));
		for (i = 0; i < h->n; i++)
			known += json_object_get(h->runs[i].meta, key.buf) != NULL;
		if (!known) {
			pr_error_set(err, PR_E_USAGE,
				     "--where: no run of the store has the metadata key '%s' "
				     "(ingest --meta %s=...)",
				     key.buf, key.buf);
			pr_strbuf_release(&key);
			return -1;
		}
		for (i = j = 0; i < h->n; i++) {
			const json_t *mv = json_object_get(h->runs[i].meta, key.buf);
			const char *s = json_string_value(mv);
			if (s && !strcmp(s, eq + 1)) {
				h->runs[j++] = h->runs[i];
				continue;
			}
			free(h->runs[i].label);
			free(h->runs[i].series);
			json_decref(h->runs[i].meta);
			json_decref(h->runs[i].spans);
			json_decref(h->runs[i].span_total);
		}
		h->n = j;
		pr_strbuf_release(&key);
		if (!h->n)
			return pr_error_set(err, PR_E_USAGE, "--where %s: no run matches", w);
	}
	return 0;
}

static void follow_add(struct follow **f, size_t *nf, const char *name, const char *unit,
		       int better)
{
	*f = pr_xreallocarray(*f, *nf + 1, sizeof(**f));
	memset(&(*f)[*nf], 0, sizeof(**f));
	(*f)[*nf].name = pr_xstrdup(name);
	(*f)[*nf].unit = unit;
	(*f)[*nf].better = better;
	(*nf)++;
}

struct span_tot {
	const char *name;
	double total;
};

static int by_total(const void *a, const void *b)
{
	const struct span_tot *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The default series: every headline metric some run has, then the top spans by total time. */
static void defaults(const struct pr_history *h, size_t nspans, struct follow **f, size_t *nf)
{
	size_t nd, d, i;
	const struct pr_headline_def *defs = pr_headline_defs(&nd);
	json_t *tot = json_object(), *x;
	struct span_tot *st;
	const char *k;
	double v;
	for (d = 0; d < nd; d++) {
		int any = 0;
		for (i = 0; i < h->n; i++)
			any |= pr_hist_value(&h->runs[i], defs[d].name, &v);
		if (any)
			follow_add(f, nf, defs[d].name, defs[d].unit, defs[d].better);
	}
	for (i = 0; i < h->n; i++)
		json_object_foreach (h->runs[i].span_total, k, x) {
			double sum = json_number_value(json_object_get(tot, k));
			sum += json_number_value(x);
			json_object_set_new(tot, k, json_real(sum));
		}
	st = pr_xcalloc(json_object_size(tot) + 1, sizeof(*st));
	i = 0;
	json_object_foreach (tot, k, x) {
		st[i].name = k;
		st[i++].total = json_number_value(x);
	}
	qsort(st, i, sizeof(*st), by_total);
	for (d = 0; d < i && d < nspans; d++) {
		struct pr_strbuf n = PR_STRBUF_INIT;
		pr_strbuf_addf(&n, SPAN_PREFIX "%s", st[d].name);
		follow_add(f, nf, n.buf, "s", -1);
		pr_strbuf_release(&n);
	}
	free(st);
	json_decref(tot);
}

static int named(const struct pr_command *cmd, struct pr_args *a, const struct pr_history *h,
		 struct follow **f, size_t *nf, struct pr_error *err)
{
	int k, nm = a->count[pr_opt_index(cmd->opts, "metric")];
	for (k = 0; k < nm; k++) {
		const char *m = pr_opt_nth(cmd->opts, a, "metric", k);
		const struct pr_headline_def *d = pr_headline_def_find(m);
		size_t i, have = 0;
		double v;
		if (!d && strncmp(m, SPAN_PREFIX, strlen(SPAN_PREFIX)))
			return pr_error_set(err, PR_E_USAGE,
					    "--metric '%s': not a headline metric (step_time, "
					    "steps_per_s, tokens_per_s, fps, gpu_busy, "
					    "peak_memory, duration) or span:NAME",
					    m);
		for (i = 0; i < h->n; i++)
			have += value_of(&h->runs[i], m, &v);
		if (!have)
			return pr_error_set(err, PR_E_USAGE,
					    "--metric '%s': absent from the history (none of its "
					    "%zu run(s) has it)",
					    m, h->n);
		follow_add(f, nf, m, d ? d->unit : "s", d ? d->better : -1);
	}
	return 0;
}

static void fmt_val(char *buf, size_t n, double v, const char *unit)
{
	if (!strcmp(unit, "s"))
		pr_fmt_duration(v * 1e9, buf, n);
	else if (!strcmp(unit, "bytes"))
		pr_fmt_bytes(v, buf, n);
	else if (!strcmp(unit, "ratio"))
		snprintf(buf, n, "%.1f %%", v * 100);
	else
		snprintf(buf, n, "%.4g %s", v, unit);
}

/* "run 23 (label, commit abc)" */
static void run_ref(struct pr_strbuf *sb, const struct pr_hist_run *r)
{
	const char *c = json_string_value(json_object_get(r->meta, PRK_META_COMMIT));
	pr_strbuf_addf(sb, "run %lld (%s%s%s)", (long long)r->id, r->label, c ? ", commit " : "",
		       c ? c : "");
}

/* A name in a markdown table cell: `|` escaped, backquotes dropped (the cell quotes it). */
static void md_name(struct pr_strbuf *sb, const char *s)
{
	pr_strbuf_addstr(sb, "| `");
	for (; *s; s++) {
		if (*s == '`' || *s == '\n' || *s == '\r')
			continue;
		if (*s == '|')
			pr_strbuf_addch(sb, '\\');
		pr_strbuf_addch(sb, *s);
	}
	pr_strbuf_addstr(sb, "` ");
}

static int regression(const struct follow *f, const struct pr_change *c)
{
	return c->kind == PR_CHANGE_SHIFT &&
	       (f->better < 0 ? c->after > c->before : c->after < c->before);
}

static void to_text(const struct pr_history *h, const struct follow *f, size_t nf,
		    const struct pr_changes_opts *o, int md, struct pr_strbuf *sb)
{
	size_t i, k;
	char b[64], a[64];
	if (md)
		pr_strbuf_addf(sb, "### Change points: %zu runs\n\n", h->n);
	pr_strbuf_addf(sb,
		       "%zu runs, ordered by %s; E-Divisive means, alpha %g, %d "
		       "permutations\n\n",
		       h->n, h->by_time ? "their time metadata" : "run id (ingest order)", o->alpha,
		       o->permutations);
	if (md)
		pr_strbuf_addstr(sb, "| metric | runs | at | between | before | after | change | "
				     "p | kind |\n|---|---:|---|---|---:|---:|---:|---:|---|\n");
	for (i = 0; i < nf; i++) {
		if (!md)
			pr_strbuf_addf(sb, "%s (%s, %s is better): ", f[i].name, f[i].unit,
				       f[i].better < 0 ? "lower" : "higher");
		if (f[i].n < 2 * o->min_size) {
			if (md) {
				md_name(sb, f[i].name);
				pr_strbuf_addf(sb, "| %zu | too few runs | | | | | | |\n", f[i].n);
			} else
				pr_strbuf_addf(sb, "too few runs (%zu)\n", f[i].n);
			continue;
		}
		if (!f[i].nc) {
			if (md) {
				md_name(sb, f[i].name);
				pr_strbuf_addf(sb, "| %zu | no change | | | | | | |\n", f[i].n);
			} else
				pr_strbuf_addf(sb, "no change (%zu runs)\n", f[i].n);
			continue;
		}
		if (!md)
			pr_strbuf_addf(sb, "%zu change%s\n", f[i].nc, f[i].nc == 1 ? "" : "s");
		for (k = 0; k < f[i].nc; k++) {
			const struct pr_change *c = &f[i].c[k];
			const struct pr_hist_run *at = &h->runs[f[i].run[c->at]];
			const struct pr_hist_run *pv = &h->runs[f[i].run[c->at - 1]];
			fmt_val(b, sizeof(b), c->before, f[i].unit);
			fmt_val(a, sizeof(a), c->after, f[i].unit);
			if (md) {
				md_name(sb, f[i].name);
				pr_strbuf_addf(sb, "| %zu | run %lld | %lld, %lld | %s | %s | ",
					       f[i].n, (long long)at->id, (long long)pv->id,
					       (long long)at->id, b, a);
				if (isnan(c->change))
					pr_strbuf_addstr(sb, "- | ");
				else
					pr_strbuf_addf(sb, "%+.1f %% | ", c->change * 100);
				pr_strbuf_addf(sb, "%.3f | %s%s |\n", c->p,
					       c->kind == PR_CHANGE_SHIFT ? "shift" : "spread",
					       regression(&f[i], c) ? " (regression)" : "");
				continue;
			}
			pr_strbuf_addstr(sb, "  at ");
			run_ref(sb, at);
			pr_strbuf_addf(sb, ", after run %lld: ", (long long)pv->id);
			if (c->kind == PR_CHANGE_SHIFT) {
				pr_strbuf_addf(sb, "median %s -> %s", b, a);
				if (!isnan(c->change))
					pr_strbuf_addf(sb, " (%+.1f %%)", c->change * 100);
				if (regression(&f[i], c))
					pr_strbuf_addstr(sb, ", a regression");
			} else {
				fmt_val(b, sizeof(b), c->mad_before, f[i].unit);
				fmt_val(a, sizeof(a), c->mad_after, f[i].unit);
				pr_strbuf_addf(sb, "spread (median absolute deviation) %s -> %s", b,
					       a);
			}
			pr_strbuf_addf(sb, ", p = %.3f\n", c->p);
		}
	}
}

static void to_json(const char *store, const struct pr_history *h, const struct follow *f,
		    size_t nf, const struct pr_changes_opts *o, struct pr_strbuf *sb)
{
	json_t *doc = json_object(), *runs = json_array(), *ms = json_array();
	size_t i, k;
	char *text;
	for (i = 0; i < h->n; i++)
		json_array_append_new(runs, json_pack("{s:I, s:s, s:O}", "id",
						      (json_int_t)h->runs[i].id, "label",
						      h->runs[i].label, "meta", h->runs[i].meta));
	for (i = 0; i < nf; i++) {
		json_t *m = json_object(), *cs = json_array();
		json_object_set_new(m, "name", json_string(f[i].name));
		json_object_set_new(m, "unit", json_string(f[i].unit));
		json_object_set_new(m, "better", json_string(f[i].better < 0 ? "lower" : "higher"));
		json_object_set_new(m, "runs", json_integer((json_int_t)f[i].n));
		for (k = 0; k < f[i].nc; k++) {
			const struct pr_change *c = &f[i].c[k];
			json_t *o1 = json_object();
			json_object_set_new(o1, "run", json_integer(h->runs[f[i].run[c->at]].id));
			json_object_set_new(o1, "after_run",
					    json_integer(h->runs[f[i].run[c->at - 1]].id));
			json_object_set_new(o1, "index", json_integer((json_int_t)c->at));
			json_object_set_new(o1, "kind",
					    json_string(c->kind == PR_CHANGE_SHIFT ? "shift"
										   : "spread"));
			json_object_set_new(o1, "before", json_real(c->before));
			json_object_set_new(o1, "after", json_real(c->after));
			json_object_set_new(o1, "mad_before", json_real(c->mad_before));
			json_object_set_new(o1, "mad_after", json_real(c->mad_after));
			json_object_set_new(o1, "change",
					    isnan(c->change) ? json_null() : json_real(c->change));
			json_object_set_new(o1, "p", json_real(c->p));
			json_object_set_new(o1, "regression", json_boolean(regression(&f[i], c)));
			json_array_append_new(cs, o1);
		}
		json_object_set_new(m, "changes", cs);
		json_array_append_new(ms, m);
	}
	json_object_set_new(doc, "schema", json_string("profreport-changes"));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "store", json_string(store));
	json_object_set_new(doc, "order", json_string(h->by_time ? "time" : "run"));
	json_object_set_new(doc, "method",
			    json_pack("{s:s, s:f, s:i, s:I, s:f}", "name", "e-divisive means",
				      "alpha", o->alpha, "permutations", o->permutations,
				      "min_size", (json_int_t)o->min_size, "min_change",
				      o->min_change));
	json_object_set_new(doc, "runs", runs);
	json_object_set_new(doc, "metrics", ms);
	text = json_dumps(doc, JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	pr_strbuf_addstr(sb, text);
	pr_strbuf_addch(sb, '\n');
	free(text);
	json_decref(doc);
}

static int parse_frac(const char *s, const char *opt, double lo, double hi, double *out,
		      struct pr_error *err)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v >= lo && v <= hi))
		return pr_error_set(err, PR_E_USAGE, "--%s '%s': give a number in [%g, %g]", opt, s,
				    lo, hi);
	*out = v;
	return 0;
}

static int cmd_changes(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct changes_cli_opts co = { .to = "text", .spans = TOP_SPANS };
	struct pr_error oerr = PR_ERROR_INIT;
	int obad = pr_opt_fill(cmd->opts, a, &co, &oerr); /* said after --min-change's, as before */
	const char *to = co.to, *v;
	struct pr_changes_opts o = PR_CHANGES_OPTS_INIT;
	struct pr_cli_input in;
	struct pr_history h;
	struct follow *f = NULL;
	size_t nf = 0, i, r;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_output out;
	int64_t nspans = co.spans;
	int rc = -1;
	if (strcmp(to, "text") && strcmp(to, "md") && strcmp(to, "json"))
		return pr_error_set(err, PR_E_USAGE, "unknown --to '%s' (text, md, json)", to);
	if ((v = co.alpha) && parse_frac(v, "alpha", 0.001, 0.5, &o.alpha, err))
		return -1;
	if ((v = co.min_change)) {
		if (parse_frac(v, "min-change", 0, 1000, &o.min_change, err))
			return -1;
		o.min_change /= 100;
	}
	if (obad) {
		*err = oerr;
		return -1;
	}
	if (!pr_cli_is_store(a->pos[0])) {
		pr_error_set(err, PR_E_USAGE,
			     "changes reads the history of a store: give one (profreport ingest "
			     "TRACE... -o runs.db --meta time=...)");
		pr_error_set_source(err, a->pos[0]);
		return -1;
	}
	if (pr_cli_input_open(&in, cmd->name, a->pos, 1, NULL, err))
		return -1;
	rc = pr_history_load(in.store, 1, &h, err); /* a store, never a temporary one */
	pr_cli_input_close(&in);
	if (rc)
		return -1;
	rc = -1;
	if (!h.n) {
		pr_error_set(err, PR_E_USAGE, "the store has no run");
		goto out;
	}
	if (filter(cmd, a, &h, err))
		goto out;
	if (a->count[pr_opt_index(cmd->opts, "metric")]) {
		if (named(cmd, a, &h, &f, &nf, err))
			goto out;
	} else {
		defaults(&h, (size_t)nspans, &f, &nf);
	}
	for (i = 0; i < nf; i++) {
		f[i].v = pr_xcalloc(h.n + 1, sizeof(*f[i].v));
		f[i].run = pr_xcalloc(h.n + 1, sizeof(*f[i].run));
		for (r = 0; r < h.n; r++) {
			double x;
			if (value_of(&h.runs[r], f[i].name, &x) && isfinite(x)) {
				f[i].v[f[i].n] = x;
				f[i].run[f[i].n++] = r;
			}
		}
		f[i].nc = pr_changes_detect(f[i].v, f[i].n, &o, &f[i].c);
	}
	if (!strcmp(to, "json"))
		to_json(a->pos[0], &h, f, nf, &o, &sb);
	else {
		to_text(&h, f, nf, &o, !strcmp(to, "md"), &sb);
		/* span names come from traces: no terminal control sequence gets through */
		pr_term_safe_inplace(&sb);
	}
	if (!pr_output_open_file(&out, co.output ? co.output : "-", err)) {
		pr_output_write(&out, sb.buf ? sb.buf : "", sb.len);
		rc = pr_output_close(&out, err);
		pr_output_release(&out);
	}
out:
	for (i = 0; i < nf; i++) {
		free(f[i].name);
		free(f[i].v);
		free(f[i].run);
		free(f[i].c);
	}
	free(f);
	pr_strbuf_release(&sb);
	pr_history_release(&h);
	return rc;
}

const struct pr_command pr_cmd_changes = {
	.name = "changes",
	.fn = cmd_changes,
	.min_pos = 1,
	.max_pos = 1,
	.opts = opts,
	.usage = "changes STORE",
	.summary = "change points along a store's runs: where step time, throughput, memory or a "
		   "span shifted",
	.help = "Orders the store's runs by their --meta time (ingest order when a run has none)\n"
		"and finds, for every headline metric and the top spans, the runs where the\n"
		"values shifted: E-Divisive means with a permutation test (seeded), each change\n"
		"with the medians before and after, the change in % and its p-value. A slow\n"
		"drift is not a step and is not reported (docs/compare.md, \"History\").",
};
