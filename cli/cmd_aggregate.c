/* cmd_aggregate.c - profreport aggregate INPUT... -o agg.json: multi-rank aggregation. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/multi/aggregate.h"
#include "analyze/model.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/par.h"
#include "ingest/ingest.h"
#include "render/agg_panel.h"
#include "render/agg_text.h"
#include "analyze/export/chrome_merge.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* The options, as the table binds them (pr_opt_fill). */
struct aggregate_opts {
	const char *output, *to, *html, *png, *svg, *trace, *format, *rank_from, *ranks, *jobs;
	int quiet;
};

#define O struct aggregate_opts
static const struct pr_option opts[] = {
	PR_OPT_STRING("output", 'o', "agg.json",
		      "write the aggregate (JSON; '-' = stdout, then no table)", 0, O, output),
	PR_OPT_STRING("to", 0, "json|inferix",
		      "the output's form: agg.json (default) or Inferix's aggregate keys", 0, O,
		      to),
	PR_OPT_STRING("html", 0, "FILE", "one HTML page: stragglers, panels, tables", 0, O, html),
	PR_OPT_STRING("png", 0, "DIR", "the panels as PNG files in DIR (made if missing)", 0, O,
		      png),
	PR_OPT_STRING("svg", 0, "DIR", "the panels as SVG files in DIR (made if missing)", 0, O,
		      svg),
	PR_OPT_STRING("trace", 0, "FILE",
		      "also merge the ranks' spans and memory into one Chrome trace", 0, O, trace),
	PR_OPT_STRING("format", 0, "NAME", "force the input format of the trace files", 0, O,
		      format),
	PR_OPT_STRING("rank-from", 0, "REGEX",
		      "the rank is the digits REGEX's first group matches in the path", 0, O,
		      rank_from),
	PR_OPT_STRING("ranks", 0, "LIST",
		      "ranks of the inputs in the order read, e.g. 0,1,2,3 or 0-3", PR_OPT_OR, O,
		      ranks),
	PR_OPT_STRING("jobs", 'j', "N",
		      "files ingested and analysed by N processes (default: the CPUs)", 0, O, jobs),
	PR_OPT_FLAG("quiet", 'q', "no console table", 0, O, quiet),
	PR_OPT_END,
};
#undef O

/* A temporary store path: one rank at a time lives there. */
static char *tmp_store_path(struct pr_error *err)
{
	const char *tmpdir = getenv("TMPDIR");
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int fd;
	pr_strbuf_addf(&sb, "%s/profreport-agg-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = pr_output_temp_mkstemp(sb.buf); /* removed on a signal from now on */
	if (fd < 0) {
		pr_strbuf_release(&sb);
		pr_error_set(err, PR_E_IO, "cannot create a temporary store");
		return NULL;
	}
	close(fd);
	return pr_strbuf_detach(&sb, NULL);
}

static void drop_store(const char *path)
{
	struct pr_strbuf j = PR_STRBUF_INIT;
	unlink(path);
	pr_strbuf_addf(&j, "%s-journal", path);
	unlink(j.buf);
	pr_strbuf_reset(&j);
	pr_strbuf_addf(&j, "%s-wal", path);
	unlink(j.buf);
	pr_strbuf_reset(&j);
	pr_strbuf_addf(&j, "%s-shm", path);
	unlink(j.buf);
	pr_strbuf_release(&j);
}

static void note(const char *path, const char *what)
{
	char shown[2048];
	pr_error_escape(pr_path_shown(path), shown, sizeof(shown)); /* one line, the name given */
	fprintf(stderr, "profreport: aggregate: '%s': %s\n", shown, what);
}

/* One file: an agg.json, a store, or a trace (ingested alone, folded, deleted).
 * 1 = a file in a directory that is not a trace (the caller notes it), 2 = a
 * companion of a rank's trace, skipped with its note. */
static int add_file(struct pr_agg *agg, const char *path, int in_dir, const char *fmt,
		    const char *tmp, struct pr_error *err)
{
	struct pr_store *st = NULL;
	struct pr_ingest_result r;
	int n;
	if (pr_agg_sniff(path)) {
		/* streamed: a row at a time in memory, however many ranks the file has */
		int rc = pr_agg_merge_file(agg, path, err);
		if (rc)
			pr_error_set_source(err, path);
		return rc;
	}
	if (pr_cli_is_store(path)) {
		if (pr_store_open(&st, path, PR_STORE_READONLY, err))
			return -1;
		n = pr_agg_add_store(agg, st, 0, NULL, err);
		pr_store_close(st);
		return n < 0 ? -1 : 0;
	}
	drop_store(tmp);
	if (pr_store_open(&st, tmp, PR_STORE_CREATE | PR_STORE_TEMPORARY, err))
		return -1;
	if (pr_ingest_file_sniffed(st, path, fmt, in_dir ? PR_SNIFF_DIR : PR_SNIFF_MIN, &r, err)) {
		pr_store_close(st);
		drop_store(tmp);
		if (err->code == PR_E_FORMAT && !fmt && in_dir) {
			pr_error_init(err);
			return 1;
		}
		return -1;
	}
	/* a rank's companion in its directory: torch.profiler's export_stacks (folded
	 * stacks) beside the trace is the same rank's profile, not another rank */
	if (in_dir && r.format && !strcmp(r.format, "folded")) {
		pr_store_close(st);
		drop_store(tmp);
		note(path, "skipped, stacks (export_stacks and the like): a rank's companion, not "
			   "a rank");
		return 2;
	}
	/* the name given ('-'), not a temporary copy of standard input (ingest/source.h) */
	n = pr_agg_add_store(agg, st, r.run_id, pr_path_shown(path), err);
	pr_store_close(st);
	drop_store(tmp);
	if (n == 0 && r.format && !strcmp(r.format, "inferix"))
		note(path, "skipped, Inferix raw data (its report carries the summary)");
	return n < 0 ? -1 : 0;
}

/* ---- -j N: the files ingested and analysed by worker processes ---------- */

/*
 * The inputs as items: every file of every INPUT, in the order the one
 * process reads them. An INPUT whose listing failed keeps its error, told
 * when the replay reaches it (after the files before it, as -j 1 would).
 */
struct agg_item {
	char *path;
	int in_dir, arg;
};

struct agg_items {
	struct agg_item *v;
	size_t n, cap;
	const char *fmt;
};

/* Item outcomes (the worker's status): as add_file's, and the agg.json kind. */
enum {
	ITEM_RUNS = 0,
	ITEM_NOT_TRACE = 1,
	ITEM_COMPANION = 2,
	ITEM_AGG = 3
};

struct runs_rec {
	struct pr_strbuf *rec;
};

/* In a worker: a run's model and meta into the record, NUL-ended texts. */
static int rec_run(void *ctx, struct pr_store *st, long id, const json_t *run, const json_t *meta,
		   struct pr_error *err)
{
	struct runs_rec *c = ctx;
	json_t *slim = pr_agg_run_slim(run); /* the paths the fold reads: 3 of 18 KB */
	json_t *mslim = pr_agg_meta_slim(meta);
	char *r = json_dumps(slim, JSON_COMPACT | JSON_PRESERVE_ORDER);
	char *m = json_dumps(mslim, JSON_COMPACT | JSON_PRESERVE_ORDER);
	(void)st;
	(void)id;
	json_decref(slim);
	json_decref(mslim);
	if (!r || !m) {
		free(r);
		free(m);
		return pr_error_set(err, PR_E_IO, "cannot write a run's model for the aggregate");
	}
	pr_strbuf_add(c->rec, r, strlen(r) + 1);
	pr_strbuf_add(c->rec, m, strlen(m) + 1);
	free(r);
	free(m);
	return 0;
}

/*
 * In a worker: add_file but the fold. The record: one byte 'P' (fold with
 * the path shown) or 'S' (a store: the runs' own sources), one byte 'I'
 * when the input was Inferix (its raw data's note) else '-', then each
 * run's model and meta.
 */
static int work_item(void *ctx, size_t i, struct pr_strbuf *rec, struct pr_error *err)
{
	const struct agg_items *it = ctx;
	const struct agg_item *x = &it->v[i];
	struct runs_rec rr = { rec };
	struct pr_store *st = NULL;
	struct pr_ingest_result r;
	char *tmp;
	int n;
	if (pr_agg_sniff(x->path))
		return ITEM_AGG;
	if (pr_cli_is_store(x->path)) {
		if (pr_store_open(&st, x->path, PR_STORE_READONLY, err))
			return -1;
		pr_strbuf_addstr(rec, "S-");
		n = pr_agg_store_models(st, 0, rec_run, &rr, err);
		pr_store_close(st);
		return n < 0 ? -1 : ITEM_RUNS;
	}
	tmp = tmp_store_path(err);
	if (!tmp)
		return -1;
	n = ITEM_RUNS;
	drop_store(tmp);
	if (pr_store_open(&st, tmp, PR_STORE_CREATE | PR_STORE_TEMPORARY, err)) {
		n = -1;
	} else if (pr_ingest_file_sniffed(st, x->path, it->fmt,
					  x->in_dir ? PR_SNIFF_DIR : PR_SNIFF_MIN, &r, err)) {
		n = -1;
		if (err->code == PR_E_FORMAT && !it->fmt && x->in_dir) {
			pr_error_init(err);
			n = ITEM_NOT_TRACE;
		}
	} else if (x->in_dir && r.format && !strcmp(r.format, "folded")) {
		note(x->path, "skipped, stacks (export_stacks and the like): a rank's companion, "
			      "not a rank");
		n = ITEM_COMPANION;
	} else {
		pr_strbuf_addstr(rec, "P");
		pr_strbuf_addstr(rec, r.format && !strcmp(r.format, "inferix") ? "I" : "-");
		if (pr_agg_store_models(st, r.run_id, rec_run, &rr, err) < 0)
			n = -1;
	}
	pr_store_close(st);
	drop_store(tmp);
	pr_output_temp_forget(tmp);
	free(tmp);
	return n;
}

/* In the parent: a worker's record folded, as add_file folds. */
static int fold_item(struct pr_agg *agg, const struct agg_item *x, const struct pr_strbuf *rec,
		     struct pr_error *err)
{
	const char *p = rec->buf + 2, *end = rec->buf + rec->len;
	const char *path = rec->buf[0] == 'P' ? pr_path_shown(x->path) : NULL;
	int n = 0;
	if (rec->len < 2)
		return pr_error_set(err, PR_E_IO, "a worker's record is cut short");
	while (p < end) {
		const char *m = p + strlen(p) + 1;
		json_error_t je;
		json_t *run, *meta;
		int r;
		if (m >= end)
			return pr_error_set(err, PR_E_IO, "a worker's record is cut short");
		run = json_loads(p, JSON_ALLOW_NUL, &je);
		meta = json_loads(m, JSON_ALLOW_NUL, &je);
		if (run && meta)
			r = pr_agg_add_model_run(agg, run, meta, path, err);
		else
			r = pr_error_set(err, PR_E_IO, "a worker's record does not read back");
		json_decref(run);
		json_decref(meta);
		if (r < 0)
			return -1;
		n += r;
		p = m + strlen(m) + 1;
	}
	if (n == 0 && rec->buf[1] == 'I')
		note(x->path, "skipped, Inferix raw data (its report carries the summary)");
	return 0;
}

static void items_add(struct agg_items *it, const char *path, int in_dir, int arg)
{
	if (it->n == it->cap) {
		it->cap = it->cap ? it->cap * 2 : 64;
		it->v = pr_xreallocarray(it->v, it->cap, sizeof(*it->v));
	}
	it->v[it->n].path = pr_xstrdup(path);
	it->v[it->n].in_dir = in_dir;
	it->v[it->n++].arg = arg;
}

/*
 * The inputs' loop of cmd_aggregate with the files' ingest and models in
 * jobs worker processes, folded here in input order: the same aggregate,
 * notes and first error as one process.
 */
static int add_parallel(struct pr_agg *agg, char **pos, int npos, const char *fmt, int jobs,
			struct pr_error *err)
{
	struct agg_items it = { NULL, 0, 0, fmt };
	struct pr_error *lerr = pr_xcalloc((size_t)npos, sizeof(*lerr));
	char *listed = pr_xcalloc((size_t)npos, 1); /* a directory or a trace: its files checked */
	struct pr_strbuf rec = PR_STRBUF_INIT;
	struct pr_par *par = NULL;
	size_t k = 0, first, used, j;
	int i, rc = -1;
	for (i = 0; i < npos; i++) {
		struct pr_pathlist pl = PR_PATHLIST_INIT;
		int in_dir;
		pr_error_init(&lerr[i]);
		if (pr_agg_sniff(pos[i]) || pr_cli_is_store(pos[i])) {
			items_add(&it, pos[i], 0, i);
			continue;
		}
		listed[i] = 1;
		if (pr_ingest_list(pos[i], &pl, &lerr[i])) {
			pr_pathlist_release(&pl);
			continue;
		}
		in_dir = pl.n != 1 || strcmp(pl.v[0], pos[i]);
		for (j = 0; j < pl.n; j++)
			items_add(&it, pl.v[j], in_dir, i);
		pr_pathlist_release(&pl);
	}
	par = pr_par_run(it.n, jobs, work_item, &it, err);
	if (!par)
		goto out;
	/* a fold is ~0.15 ms, a worker's file ~5 ms: wake for several files, not each */
	pr_par_batch(par, 4 * (size_t)jobs);
	for (i = 0; i < npos; i++) {
		if (lerr[i].code != PR_OK) {
			*err = lerr[i];
			goto out;
		}
		for (first = k, used = 0; k < it.n && it.v[k].arg == i; k++) {
			struct agg_item *x = &it.v[k];
			int st = pr_par_get(par, k, &rec, err);
			if (st < 0)
				goto out;
			if (st == ITEM_AGG) {
				if (pr_agg_merge_file(agg, x->path, err)) {
					pr_error_set_source(err, x->path);
					goto out;
				}
			} else if (st == ITEM_RUNS && fold_item(agg, x, &rec, err)) {
				goto out;
			}
			if (st != ITEM_NOT_TRACE) {
				used += st != ITEM_COMPANION;
				x->path[0] = '\0'; /* the names left are the skipped files */
			}
		}
		if (!listed[i])
			continue;
		for (j = first; j < k && used; j++)
			if (*it.v[j].path)
				note(it.v[j].path, "skipped, not a trace");
		if (!used) {
			pr_error_set(err, PR_E_FORMAT, "no recognized inputs in the directory");
			pr_error_set_source(err, pos[i]);
			goto out;
		}
	}
	rc = 0;
out:
	pr_par_free(par);
	pr_strbuf_release(&rec);
	for (j = 0; j < it.n; j++)
		free(it.v[j].path);
	free(it.v);
	free(lerr);
	free(listed);
	return rc;
}

/* The panels as DIR/<name>.png|svg; DIR is created when missing. */
static int write_panels(const json_t *doc, const char *dir, enum pr_gfx_format fmt,
			struct pr_error *err)
{
	struct pr_panelset *ps = pr_agg_panels_build(doc);
	int rc = pr_panelset_write_files(ps, dir, "", fmt, err);
	pr_panelset_free(ps);
	return rc;
}

/* agg.json to path ('-' = stdout), the rows streamed from the aggregate's scratch file. */
static int write_agg(const struct pr_agg *agg, const json_t *head, const char *path,
		     struct pr_error *err)
{
	struct pr_output out;
	if (pr_output_open_file(&out, path, err) || pr_agg_write(agg, head, &out, err) ||
	    pr_output_close(&out, err)) {
		pr_output_release(&out);
		return -1;
	}
	pr_output_release(&out);
	return 0;
}

/* The console table shows at most this many rows per table (render/agg_text.h). */
#define TEXT_ROWS 64

static int write_html(const json_t *doc, const char *path, struct pr_error *err)
{
	struct pr_output out;
	if (pr_output_open_file(&out, path, err) || pr_agg_html(doc, &out, err) ||
	    pr_output_close(&out, err)) {
		pr_output_release(&out);
		return -1;
	}
	pr_output_release(&out);
	return 0;
}

/* pr_agg_on_run hook: the run's events into the merged trace, as process = rank. */
static int merge_run(void *ctx, struct pr_store *st, long run_id, long rank, struct pr_error *err)
{
	return pr_chrome_merge_add(ctx, st, run_id, rank, err);
}

/* --to, --format and -j: *inferix when --to inferix, *jobs the worker count (1 with --trace:
 * the merged trace reads each rank's store while it is open). */
static int check_opts(const struct aggregate_opts *op, int *inferix, int *jobs,
		      struct pr_error *err)
{
	*inferix = 0;
	if (op->to && !strcmp(op->to, "inferix"))
		*inferix = 1;
	else if (op->to && strcmp(op->to, "json"))
		return pr_error_set(err, PR_E_USAGE, "--to must be 'json' or 'inferix', not '%s'",
				    op->to);
	if (op->format && pr_cli_output_form_misused(op->format, "json, inferix", err))
		return -1;
	if (pr_par_jobs(op->jobs, jobs, err))
		return -1;
	if (op->trace)
		*jobs = 1;
	return 0;
}

/* A new aggregate whose ranks come as --rank-from or --ranks say; NULL on error. */
static struct pr_agg *new_agg(const struct aggregate_opts *op, struct pr_error *err)
{
	struct pr_agg *agg = pr_agg_new();
	if ((op->rank_from && pr_agg_rank_from(agg, op->rank_from, err)) ||
	    (op->ranks && pr_agg_set_ranks(agg, op->ranks, err))) {
		pr_agg_free(agg);
		return NULL;
	}
	if (op->rank_from && op->ranks) {
		pr_agg_free(agg);
		pr_error_set(err, PR_E_USAGE, "--rank-from and --ranks exclude each other");
		return NULL;
	}
	return agg;
}

/* One INPUT in this process: an agg.json or store, or a trace file or directory of them
 * (the files of a directory that are no trace are skipped with a note). */
static int add_input(struct pr_agg *agg, const char *path, const char *fmt, const char *tmp,
		     struct pr_error *err)
{
	struct pr_pathlist pl = PR_PATHLIST_INIT;
	size_t k, used = 0;
	int in_dir;
	if (pr_agg_sniff(path) || pr_cli_is_store(path))
		return add_file(agg, path, 0, fmt, tmp, err) ? -1 : 0;
	if (pr_ingest_list(path, &pl, err))
		return -1;
	in_dir = pl.n != 1 || strcmp(pl.v[0], path);
	for (k = 0; k < pl.n; k++) {
		int r = add_file(agg, pl.v[k], in_dir, fmt, tmp, err);
		if (r < 0) {
			pr_pathlist_release(&pl);
			return -1;
		}
		if (r == 0)
			used++;
		if (r == 0 || r == 2)
			pl.v[k][0] = '\0'; /* the names left are the skipped files */
	}
	for (k = 0; k < pl.n && used; k++)
		if (*pl.v[k])
			note(pl.v[k], "skipped, not a trace");
	pr_pathlist_release(&pl);
	if (!used) {
		pr_error_set(err, PR_E_FORMAT, "no recognized inputs in the directory");
		pr_error_set_source(err, path);
		return -1;
	}
	return 0;
}

/* Closes the merged trace of --trace, saying what it could not merge as it should. */
static int close_merged(struct pr_chrome_merge *merged, const struct pr_agg *agg, const char *trace,
			struct pr_error *err)
{
	const struct pr_spanwalk_stats *ms = pr_chrome_merge_stats(merged);
	if (ms->clamped)
		fprintf(stderr,
			"profreport: aggregate: %s: %" PRId64 " span(s) ended after their "
			"parent and were clamped to its end\n",
			trace, ms->clamped);
	if (ms->runs < (int64_t)pr_agg_rank_count(agg))
		fprintf(stderr,
			"profreport: aggregate: %s: %zu rank(s) came from agg.json files and "
			"have no events to merge\n",
			trace, pr_agg_rank_count(agg) - (size_t)ms->runs);
	return pr_chrome_merge_close(merged, err);
}

/* What the options ask for of the aggregate whose head is doc: agg.json (or Inferix's keys),
 * the page, the panels and the console table. */
static int write_outputs(struct pr_agg *agg, json_t *doc, const struct aggregate_opts *op,
			 int inferix, struct pr_error *err)
{
	const char *out = op->output;
	int console, whole = op->html || op->png || op->svg;
	if (out && inferix) {
		json_t *o = pr_agg_to_inferix(agg);
		int bad = o ? pr_model_write(o, out, err) : pr_agg_failed(agg, err);
		json_decref(o);
		if (bad)
			return -1;
	} else if (out && write_agg(agg, doc, out, err)) {
		return -1;
	}
	console = !op->quiet && !(out && !strcmp(out, "-"));
	/* the page and the panels show every rank: the whole document; the console its first rows */
	if ((whole || console) && pr_agg_ranks_into(agg, doc, whole ? 0 : TEXT_ROWS, err))
		return -1;
	if ((op->html && write_html(doc, op->html, err)) ||
	    (op->png && write_panels(doc, op->png, PR_GFX_PNG, err)) ||
	    (op->svg && write_panels(doc, op->svg, PR_GFX_SVG, err)))
		return -1;
	if (console)
		pr_render_agg_text(doc, stdout);
	return 0;
}

static int cmd_aggregate(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct aggregate_opts op = { 0 };
	struct pr_chrome_merge *merged = NULL;
	struct pr_agg *agg = NULL;
	char *tmp = NULL;
	json_t *doc = NULL, *w;
	int rc = -1, i, inferix, jobs;
	size_t k;

	if (pr_opt_fill(cmd->opts, a, &op, err)) /* strings and a flag: cannot fail */
		return -1;
	if (check_opts(&op, &inferix, &jobs, err))
		return -1;
	for (i = 0; i < a->npos; i++)
		if (access(a->pos[i], R_OK)) {
			pr_error_set(err, PR_E_IO, "no such file or directory");
			pr_error_set_source(err, a->pos[i]);
			return -1;
		}
	agg = new_agg(&op, err);
	if (!agg)
		return -1;
	tmp = tmp_store_path(err);
	if (!tmp)
		goto out;
	if (op.trace) {
		if (pr_chrome_merge_open(&merged, op.trace, err))
			goto out;
		pr_agg_on_run(agg, merge_run, merged);
	}
	if (jobs > 1 && add_parallel(agg, a->pos, a->npos, op.format, jobs, err))
		goto out;
	for (i = 0; i < a->npos && jobs == 1; i++)
		if (add_input(agg, a->pos[i], op.format, tmp, err))
			goto out;
	if (pr_agg_check_ranks(agg, err))
		goto out;
	if (pr_agg_rank_count(agg) == 0) {
		pr_error_set(err, PR_E_FORMAT, "no rank found in the inputs");
		goto out;
	}
	if (merged) {
		int bad = close_merged(merged, agg, op.trace, err);
		merged = NULL;
		if (bad)
			goto out;
	}
	/* the document but its rows; the rows are added below only for what reads them */
	doc = pr_agg_head_json(agg);
	if (!doc) {
		pr_agg_failed(agg, err);
		goto out;
	}
	json_array_foreach (json_object_get(doc, PRA_WARNINGS), k, w)
		fprintf(stderr, "profreport: aggregate: warning: %s\n", json_string_value(w));
	rc = write_outputs(agg, doc, &op, inferix, err);
out:
	pr_chrome_merge_free(merged);
	json_decref(doc);
	pr_agg_free(agg);
	if (tmp) {
		drop_store(tmp);
		pr_output_temp_forget(tmp);
	}
	free(tmp);
	return rc;
}

const struct pr_command pr_cmd_aggregate = {
	.name = "aggregate",
	.fn = cmd_aggregate,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "aggregate INPUT...",
	.summary = "aggregate per-rank traces or reports: cross-rank statistics and stragglers",
	.help = "INPUT is a directory (recursive), trace files, stores or earlier agg.json files;\n"
		"each trace is ingested alone into a temporary store, folded and deleted, and its\n"
		"row goes to a scratch file, so memory stays flat in the number of ranks (--html,\n"
		"--png and --svg hold every row). Files in a directory that are not traces are\n"
		"skipped with a note. Aggregating agg.json files equals aggregating all their ranks\n"
		"(map/reduce). -j N ingests and analyses N files at once in worker processes\n"
		"(default: the CPUs), folded in input order: the same agg.json for any N.\n"
		"The console table goes to stdout; agg.json is documented in docs/aggregate.md.\n"
		"--html writes one page (stragglers with evidence, panels, sortable tables);\n"
		"--png/--svg write the panels rank_comparison, step_time and peak_memory\n"
		"(those whose data exists) into DIR. --trace writes one Chrome trace with a\n"
		"process per rank (spans and memory counters) for Perfetto or chrome://tracing.\n"
		"Ranks come from the trace (distributedInfo), else rank<N>/worker<N> in the path,\n"
		"else input order (a warning). --rank-from '_([0-9]+)\\.json' or --ranks 3,0,1,2\n"
		"state them and beat every other source. Byte-identical inputs count once; two\n"
		"inputs with one rank, or different world sizes, are an error (different jobs).",
};
