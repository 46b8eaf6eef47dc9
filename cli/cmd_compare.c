/* cmd_compare.c - profreport compare BASE NEW: the CI regression gate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "analyze/multi/compare.h"
#include "analyze/multi/gate.h"
#include "analyze/model.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/meta.h"
#include "render/termsafe.h"
#include "render/compare_panel.h"
#include "render/compare_text.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "store/store.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* The options, as the table binds them (pr_opt_fill); --fail-on, --ignore, --where and --meta
 * repeat and are read with pr_opt_nth. */
struct compare_opts {
	const char *to, *output, *config, *alpha, *min_us, *html, *png, *svg, *format, *baseline;
	const char *jobs;
	int64_t base_run, new_run;
	int strict;
};

#define O struct compare_opts
static const struct pr_option opts[] = {
	PR_OPT_STRING("to", 0, "text|md|json|junit", "the output's form (default text)", 0, O, to),
	PR_OPT_STRING("output", 'o', "FILE", "write the output to FILE instead of standard output",
		      0, O, output),
	PR_OPT("fail-on", 0, "SPEC",
	       "threshold METRIC:+N%|+SIZE|+TIME (repeatable), e.g. step_time:+3%", PR_OPT_REPEAT),
	PR_OPT("ignore", 0, "GLOB", "do not compare metrics whose name matches (repeatable)",
	       PR_OPT_REPEAT),
	PR_OPT_STRING("config", 0, "FILE",
		      "gate settings from a JSON file (alpha, min_us, fail_on, ignore)", 0, O,
		      config),
	PR_OPT_STRING("alpha", 0, "P", "significance level of the Mann-Whitney test (default 0.01)",
		      0, O, alpha),
	PR_OPT_STRING("min-us", 0, "N", "spans under N microseconds are not gated (default 10)", 0,
		      O, min_us),
	PR_OPT_FLAG("strict", 0,
		    "warnings (a --fail-on or --ignore that selects nothing) are errors", 0, O,
		    strict),
	PR_OPT_STRING("html", 0, "FILE", "also one HTML page: verdict, diff chart, metrics", 0, O,
		      html),
	PR_OPT_STRING("png", 0, "DIR", "also the panels as PNG files in DIR (made if missing)", 0,
		      O, png),
	PR_OPT_STRING("svg", 0, "DIR", "also the panels as SVG files in DIR (made if missing)", 0,
		      O, svg),
	PR_OPT_STRING("format", 0, "NAME", "force the input format of BASE and NEW (traces)", 0, O,
		      format),
	PR_OPT_UINT("base-run", 0, "ID", "only this run of BASE (a store of many runs)", 0, O,
		    base_run, INT32_MAX),
	PR_OPT_UINT("new-run", 0, "ID", "only this run of NEW (a store of many runs)", 0, O,
		    new_run, INT32_MAX),
	PR_OPT_STRING("baseline", 0, "last:N", "BASE is the last N runs of a store, pooled", 0, O,
		      baseline),
	PR_OPT("where", 0, "KEY=VALUE", "--baseline's runs: those whose metadata has KEY=VALUE",
	       PR_OPT_REPEAT),
	PR_CLI_META_OPTS,
	PR_OPT_STRING("jobs", 'j', "N",
		      "the files of a directory BASE or NEW ingested by N processes "
		      "(default: the CPUs, from 4)",
		      0, O, jobs),
	PR_OPT_END,
};
#undef O

static int jobs = 1; /* -j: a directory's files ingested by this many processes */

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/*
 * Companions are not runs: an Inferix session writes its report
 * (profiling_report_<sid>_<ts>.json) and its raw data
 * (raw_profiling_data_<sid>_<ts>.json); in one side's input both are read, and
 * the raw data, whose report carries the session's summary, would count as
 * a second run (3 runs against 6). It is dropped with a note, as aggregate
 * does; raw data without its report stays the run.
 */
static void drop_companions(json_t *m, const char *side)
{
	static const char raw[] = "raw_profiling_data_", rep[] = "profiling_report_";
	json_t *runs = json_object_get(m, PRK_RUNS), *r, *o;
	size_t i, j;
	for (i = json_array_size(runs); i-- > 0;) {
		const char *b;
		r = json_array_get(runs, i);
		b = base_name(pr_mstr(r, PRK_SOURCE));
		if (strcmp(pr_mstr(r, PRK_FORMAT), "inferix") || strncmp(b, raw, sizeof(raw) - 1))
			continue;
		json_array_foreach (runs, j, o) {
			const char *ob = base_name(pr_mstr(o, PRK_SOURCE));
			if (j != i && !strcmp(pr_mstr(o, PRK_FORMAT), "inferix") &&
			    !strncmp(ob, rep, sizeof(rep) - 1) &&
			    !strcmp(ob + sizeof(rep) - 1, b + sizeof(raw) - 1))
				break;
		}
		if (j == json_array_size(runs))
			continue;
		{
			char shown[1024], rshown[1024];
			const char *rs = pr_mstr(json_array_get(runs, j), PRK_SOURCE);
			pr_error_escape(pr_mstr(r, PRK_SOURCE), shown, sizeof(shown));
			pr_error_escape(base_name(rs), rshown, sizeof(rshown));
			fprintf(stderr,
				"profreport: compare: %s: '%s': skipped, Inferix raw data: a "
				"companion of its report '%s', not a run\n",
				side, shown, rshown);
		}
		json_array_remove(runs, i);
	}
}

/*
 * A model from a path: a model JSON is loaded, anything else analyzed. Then
 * the input checks (compare.h): a side the gate cannot judge is an error
 * naming the path and side ("'new.json': NEW has no metrics ...").
 */
static json_t *side_model(const struct pr_command *cmd, char *path, const char *side,
			  const char *format, int64_t run, const struct pr_cli_meta *meta,
			  struct pr_error *err)
{
	struct pr_model_opts mo = PR_MODEL_OPTS_INIT;
	struct pr_cli_input in;
	struct pr_cli_inopts io = { format, NULL, 0, NULL, 0, jobs };
	const char *name = path;
	json_t *m;
	if (meta && meta->n && (pr_model_sniff(path) || pr_cli_is_store(path))) {
		pr_error_set(err, PR_E_USAGE,
			     "--meta labels the run of NEW this command ingests; a store's or a "
			     "model's runs keep their own labels");
		pr_error_set_source(err, name);
		return NULL;
	}
	if (meta) {
		io.meta = (const char *const *)meta->kv;
		io.nmeta = meta->n;
	}
	if (pr_model_sniff(path)) {
		if (run) {
			pr_error_set(err, PR_E_USAGE,
				     "--%s-run picks a run of a store, and %s is a model",
				     !strcmp(side, "BASE") ? "base" : "new", side);
			pr_error_set_source(err, name);
			return NULL;
		}
		m = pr_model_load(path, err);
	} else {
		if (pr_cli_input_open_opts(&in, cmd->name, &path, 1, &io, err))
			return NULL;
		mo.timeline_points = 0;
		mo.run = (long)run;
		m = pr_model_build(in.store, &mo, err);
		pr_cli_input_close(&in);
		if (m)
			drop_companions(m, side);
	}
	if (m && pr_compare_check_side(m, side, err)) {
		pr_error_set_source(err, name);
		json_decref(m);
		m = NULL;
	}
	return m;
}

/* --baseline last:N: N >= 1, or a usage error. */
static int parse_baseline(const char *v, int64_t *n, struct pr_error *err)
{
	char *end;
	long long x;
	if (strncmp(v, "last:", 5) || !v[5] || v[5] == '-' || v[5] == '+')
		return pr_error_set(err, PR_E_USAGE,
				    "--baseline needs last:N (e.g. last:10), not '%s'", v);
	errno = 0;
	x = strtoll(v + 5, &end, 10);
	if (*end || errno || x < 1 || x > INT32_MAX)
		return pr_error_set(err, PR_E_USAGE,
				    "--baseline last:N needs N from 1 to %d, not '%s'", INT32_MAX,
				    v + 5);
	*n = x;
	return 0;
}

/*
 * The --where pairs as the JSON array [[KEY, VALUE], ...] that the run query
 * binds (no SQL is formatted at run time); each key must be one some run of
 * the store has, as `changes --where` checks.
 */
static int where_pairs(const struct pr_command *cmd, const struct pr_args *a, sqlite3 *db,
		       char **json, struct pr_error *err)
{
	int k, nw = a->count[pr_opt_index(cmd->opts, "where")];
	json_t *pairs = json_array();
	sqlite3_stmt *st = NULL;
	int rc = 0;
	if (nw && sqlite3_prepare_v2(db, "SELECT 1 FROM run_meta WHERE key = ?1 LIMIT 1", -1, &st,
				     NULL) != SQLITE_OK)
		st = NULL; /* a store of version 4: no metadata at all */
	for (k = 0; k < nw && !rc; k++) {
		const char *w = pr_opt_nth(cmd->opts, a, "where", k), *eq = strchr(w, '=');
		if (!eq || eq == w) {
			rc = pr_error_set(err, PR_E_USAGE, "--where '%s': give KEY=VALUE", w);
			break;
		}
		if (st) {
			sqlite3_reset(st);
			sqlite3_bind_text(st, 1, w, (int)(eq - w), SQLITE_TRANSIENT);
		}
		if (!st || sqlite3_step(st) != SQLITE_ROW)
			rc = pr_error_set(
				err, PR_E_USAGE,
				"--where: no run of the store has the metadata key '%.*s' "
				"(ingest --meta %.*s=...)",
				(int)(eq - w), w, (int)(eq - w), w);
		json_array_append_new(pairs, json_pack("[s#s]", w, (int)(eq - w), eq + 1));
	}
	sqlite3_finalize(st);
	*json = rc ? NULL : json_dumps(pairs, JSON_COMPACT);
	json_decref(pairs);
	return rc;
}

/*
 * BASE for --baseline last:N: the last N runs of the input (ingest order, the
 * store's run ids), each analyzed as with --base-run, their run objects in one
 * model: compare pools their samples (more steps, more power).
 */
static json_t *baseline_model(const struct pr_command *cmd, const struct pr_args *a, char *path,
			      const char *newpath, const char *format, int64_t last,
			      struct pr_error *err)
{
	struct pr_model_opts mo = PR_MODEL_OPTS_INIT;
	struct pr_cli_input in;
	struct stat sb;
	sqlite3_stmt *q = NULL;
	int64_t *ids = NULL, self = 0;
	size_t n = 0, cap = 0, i;
	json_t *m = NULL;
	char *where = NULL;
	if (pr_model_sniff(path)) {
		pr_error_set(err, PR_E_USAGE,
			     "--baseline takes runs of a store, and BASE is a model");
		pr_error_set_source(err, path);
		return NULL;
	}
	if (pr_cli_input_open(&in, cmd->name, &path, 1, format, err))
		return NULL;
	if (where_pairs(cmd, a, pr_store_db(in.store), &where, err))
		goto out;
	/* the last runs whose metadata has every --where pair */
	if (sqlite3_prepare_v2(pr_store_db(in.store),
			       where ? "SELECT id FROM run r WHERE NOT EXISTS (SELECT 1 FROM "
				       "json_each(?2) w WHERE NOT EXISTS (SELECT 1 FROM run_meta m "
				       "WHERE m.run_id = r.id AND m.key = w.value ->> 0 AND "
				       "m.value = w.value ->> 1)) ORDER BY id DESC LIMIT ?1"
				     : "SELECT id FROM run ORDER BY id DESC LIMIT ?1",
			       -1, &q, NULL) != SQLITE_OK) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(pr_store_db(in.store)));
		goto out;
	}
	sqlite3_bind_int64(q, 1, last);
	if (where)
		sqlite3_bind_text(q, 2, where, -1, SQLITE_STATIC);
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (n == cap) { /* as many as there are, not N (last:2147483647 is allowed) */
			cap = cap ? cap * 2 : 16;
			ids = pr_xreallocarray(ids, cap, sizeof(*ids));
		}
		ids[n++] = sqlite3_column_int64(q, 0);
	}
	if (!n) {
		if (where)
			pr_error_set(err, PR_E_USAGE, "--where %s: no run of BASE matches",
				     a->count[pr_opt_index(cmd->opts, "where")] == 1
					     ? pr_opt_nth(cmd->opts, a, "where", 0)
					     : "(every pair)");
		else
			pr_error_set(err, PR_E_FORMAT, "BASE has no run for --baseline last:%lld",
				     (long long)last);
		pr_error_set_source(err, path);
		goto out;
	}
	/* NEW already among the runs pooled: it would be compared with itself */
	if (!stat(newpath, &sb) && S_ISREG(sb.st_mode) &&
	    pr_cli_input_known_run(in.store, newpath, &self)) {
		for (i = 0; i < n; i++) {
			if (ids[i] != self)
				continue;
			pr_error_set(err, PR_E_USAGE,
				     "NEW is run %lld of BASE, one of the last %zu runs --baseline "
				     "pools: it would be compared with itself (compare it before "
				     "ingesting it)",
				     (long long)self, n);
			pr_error_set_source(err, newpath);
			goto out;
		}
	}
	mo.timeline_points = 0;
	for (i = n; i-- > 0;) { /* oldest first */
		json_t *one;
		mo.run = (long)ids[i];
		if (!(one = pr_model_build(in.store, &mo, err))) {
			json_decref(m);
			m = NULL;
			goto out;
		}
		if (!m)
			m = one;
		else {
			json_array_extend(json_object_get(m, PRK_RUNS),
					  json_object_get(one, PRK_RUNS));
			json_decref(one);
		}
	}
	if (pr_compare_check_side(m, "BASE", err)) {
		pr_error_set_source(err, path);
		json_decref(m);
		m = NULL;
	}
out:
	sqlite3_finalize(q);
	free(ids);
	free(where);
	pr_cli_input_close(&in);
	return m;
}

static int write_out(const char *path, const char *buf, size_t len, struct pr_error *err)
{
	struct pr_output out;
	int rc = pr_output_open_file(&out, path ? path : "-", err);
	if (!rc) {
		pr_output_write(&out, buf, len); /* failures are sticky: close reports them */
		rc = pr_output_close(&out, err);
	}
	pr_output_release(&out);
	/* standard output's failure is reported here with its errno; with the error flag
	 * left set, main's final check of stdout would print a second line */
	if (rc && (!path || !strcmp(path, "-")))
		clearerr(stdout);
	return rc;
}

/* The panels as DIR/<name>.png|svg; DIR is created when missing. */
static int write_panels(const json_t *cmp, const json_t *base, const json_t *newm, const char *dir,
			enum pr_gfx_format fmt, struct pr_error *err)
{
	struct pr_panelset *ps = pr_compare_panels_build(cmp, base, newm);
	int rc = pr_panelset_write_files(ps, dir, "", fmt, err);
	pr_panelset_free(ps);
	return rc;
}

static int write_html(const json_t *cmp, const json_t *base, const json_t *newm, const char *path,
		      struct pr_error *err)
{
	struct pr_output out;
	int rc;
	if (pr_output_open_file(&out, path, err))
		return -1;
	rc = pr_compare_html(cmp, base, newm, &out, err);
	/* a failed write is sticky: close reports it with the path and errno's text */
	if (!rc || out.failed_errno)
		rc = pr_output_close(&out, err);
	pr_output_release(&out);
	return rc;
}

/*
 * With --to junit, an error (exit 2) still writes the report: one
 * testcase with an <error>, so a CI that reads the report shows why the gate
 * could not judge instead of finding no report (or a pass). A failure to
 * write it is added to the error's text.
 */
static void junit_on_error(const char *path, struct pr_error *err)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_error werr = PR_ERROR_INIT;
	char msg[1100], wmsg[1100];
	pr_error_format(err, msg, sizeof(msg));
	pr_compare_render_junit_error(msg, &sb);
	if (write_out(path, sb.buf, sb.len, &werr)) {
		struct pr_strbuf t = PR_STRBUF_INIT;
		pr_error_format(&werr, wmsg, sizeof(wmsg));
		pr_strbuf_addf(&t, "%s; the JUnit report: %s", err->text, wmsg);
		pr_error_set(err, err->code, "%s", t.buf);
		pr_strbuf_release(&t);
	}
	pr_strbuf_release(&sb);
}

static int cmd_compare(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct compare_opts o = { 0 };
	struct pr_error oerr = PR_ERROR_INIT;
	int obad = pr_opt_fill(cmd->opts, a, &o, &oerr); /* said where the run ids were read */
	const char *fmt = o.to, *informat = o.format, *v;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_gate g;
	json_t *base = NULL, *newm = NULL, *cmp = NULL;
	size_t i, regressions, missing;
	const json_t *w;
	int j, rc = -1, junit = 0, out_failed = 0;
	int64_t base_run = o.base_run, new_run = o.new_run, last = 0;
	struct pr_cli_meta meta = { NULL, 0 };
	pr_gate_init(&g);
	if (!fmt)
		fmt = "text";
	if (strcmp(fmt, "text") && strcmp(fmt, "md") && strcmp(fmt, "json") &&
	    strcmp(fmt, "junit")) {
		pr_error_set(err, PR_E_USAGE, "unknown --to '%s' (text, md, json, junit)", fmt);
		goto out;
	}
	if (informat && pr_cli_output_form_misused(informat, "text, md, json, junit", err))
		goto out;
	junit = !strcmp(fmt, "junit");
	if (pr_cli_ingest_jobs(o.jobs, &jobs, err))
		goto out;
	if ((v = o.config) && pr_gate_load_config(&g, v, err))
		goto out;
	for (j = 0; (v = pr_opt_nth(cmd->opts, a, "fail-on", j)); j++)
		if (pr_gate_add_fail_on(&g, v, err))
			goto out;
	for (j = 0; (v = pr_opt_nth(cmd->opts, a, "ignore", j)); j++)
		if (pr_gate_add_ignore(&g, v, err))
			goto out;
	if (o.strict)
		g.strict = 1;
	if ((v = o.alpha) && pr_gate_set_alpha(&g, v, err))
		goto out;
	if ((v = o.min_us) && pr_gate_set_min_us(&g, v, err))
		goto out;
	if (obad) {
		*err = oerr;
		goto out;
	}
	if ((v = o.baseline) && parse_baseline(v, &last, err))
		goto out;
	if (last && base_run) {
		pr_error_set(err, PR_E_USAGE, "--baseline and --base-run exclude each other");
		goto out;
	}
	if (pr_cli_meta_parse(cmd, a, &meta, err))
		goto out;
	if (a->count[pr_opt_index(cmd->opts, "where")] && !last) {
		pr_error_set(err, PR_E_USAGE, "--where selects the runs of --baseline: give both");
		goto out;
	}
	if (!(base = last ? baseline_model(cmd, a, a->pos[0], a->pos[1], informat, last, err)
			  : side_model(cmd, a->pos[0], "BASE", informat, base_run, NULL, err)) ||
	    !(newm = side_model(cmd, a->pos[1], "NEW", informat, new_run, &meta, err)))
		goto out;
	if (!(cmp = pr_compare(base, newm, &g, err)))
		goto out;
	/* a rule or glob that selects nothing is likely a typo: said before any output */
	json_array_foreach (json_object_get(cmp, PRC_WARNINGS), i, w) {
		if (g.strict) {
			pr_error_set(err, PR_E_USAGE, "%s (--strict)", json_string_value(w));
			goto out;
		}
		char line[4096];
		pr_error_escape(json_string_value(w), line, sizeof(line)); /* a glob of ESC, BEL */
		fprintf(stderr, "profreport: compare: warning: %s\n", line);
	}
	if (!strcmp(fmt, "json")) {
		char *s = json_dumps(cmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
						  JSON_REAL_PRECISION(12));
		pr_strbuf_addstr(&sb, s);
		pr_strbuf_addch(&sb, '\n');
		free(s);
	} else if (!strcmp(fmt, "md")) {
		pr_compare_render_md(cmp, &sb);
		pr_term_safe_inplace(&sb);
	} else if (!strcmp(fmt, "junit")) {
		pr_compare_render_junit(cmp, &sb);
	} else {
		pr_compare_render_text(cmp, &sb);
		pr_term_safe_inplace(&sb);
	}
	/* the page and panels are written before a regression exits 1, and before the
	 * report, so that a report written says what the exit status says */
	if (((v = o.html) && write_html(cmp, base, newm, v, err)) ||
	    ((v = o.png) && write_panels(cmp, base, newm, v, PR_GFX_PNG, err)) ||
	    ((v = o.svg) && write_panels(cmp, base, newm, v, PR_GFX_SVG, err)))
		goto out;
	if (write_out(o.output, sb.buf, sb.len, err)) {
		out_failed = 1;
		goto out;
	}
	regressions = pr_compare_regressions(cmp);
	missing = pr_compare_failures(cmp) - regressions;
	if (missing)
		rc = pr_error_set(err, PR_E_REGRESSION,
				  "%zu regression(s), %zu key metric(s) of BASE missing in NEW",
				  regressions, missing);
	else
		rc = regressions
			     ? pr_error_set(err, PR_E_REGRESSION, "%zu regression(s)", regressions)
			     : 0;
out:
	if (rc && junit && !out_failed && err->code != PR_E_REGRESSION)
		junit_on_error(o.output, err);
	json_decref(cmp);
	json_decref(base);
	json_decref(newm);
	pr_gate_release(&g);
	pr_strbuf_release(&sb);
	pr_cli_meta_release(&meta);
	return rc;
}

const struct pr_command pr_cmd_compare = {
	.name = "compare",
	.fn = cmd_compare,
	.min_pos = 2,
	.max_pos = 2,
	.opts = opts,
	.usage = "compare BASE NEW",
	.summary = "compare two runs and fail (exit 1) on a significant regression",
	.help = "BASE and NEW are each a trace, a store, a directory of ranks or a model JSON\n"
		"('report --json'). Exit status: 0 no regression, 1 regression, 2 usage or input error.\n"
		"A regression is a change beyond its threshold that is also significant\n"
		"(Mann-Whitney U, p < alpha) when both sides have repeated samples; when the\n"
		"samples are too few for p < alpha (3 or 4 steps a side), the 95% bootstrap CI of\n"
		"new/base must lie beyond the threshold; with one value per side the thresholds\n"
		"alone decide. A headline metric (step time, throughput, GPU busy, a memory\n"
		"peak) beyond its threshold is never \"not significant\": when the test cannot\n"
		"confirm it, it fails if the change beyond the threshold exceeds 4 x the runs'\n"
		"spread, else it is 'inconclusive' (?, a pass, said in every output). Ops and\n"
		"kernels added or removed, and calls per step changed, are reported whatever\n"
		"their size. Reports lead with the headline metrics, then what failed, then\n"
		"the presence and count changes; --to md stays under 65,536 characters.\n"
		"A key metric of BASE (step time, a phase, a memory peak, a\n"
		"throughput) missing in NEW also fails; inputs with no metric in common are an\n"
		"error, and so is a side the gate cannot judge: no metrics (an empty trace),\n"
		"ingest diagnostics of data dropped or made up (bad_duration, truncated, ...),\n"
		"steps of 0 ns, model values null or negative (named by path), or nothing left\n"
		"to compare after --ignore; --to junit then writes one <error> testcase.\n"
		"A failed write (-o, --html, --png, --svg, standard output) exits 2.\n"
		"--base-run ID and --new-run ID compare single runs of stores of many runs\n"
		"(BASE and NEW may be the same store). --baseline last:N takes BASE as the last\n"
		"N runs of its store (ingest order), their samples pooled.\n"
		"Defaults: time +5%, memory +5% and +64MiB (both), throughput -5%; spans\n"
		"under 1% of run time or --min-us are not gated.\n"
		"--html FILE, --png DIR and --svg DIR also write the diff chart (changes) and,\n"
		"when both sides have steps, the step times (step_time); the exit status is the same.",
};
