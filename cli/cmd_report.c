/* cmd_report.c - profreport report INPUT... --json FILE: the analysis model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/model.h"
#include "render/html_report.h"
#include "render/panels.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "base/decimal.h"

static const struct pr_option opts[] = {
	{ "output", 'o', "report.html|DIR", "the HTML report: FILE.html (one page), or a directory (one page per run + index.html)", 0 },
	{ "json", 0, "FILE", "write the analysis model (JSON; '-' = stdout)", 0 },
	{ "png", 0, "DIR", "write the panels as PNG files into DIR", 0 },
	{ "svg", 0, "DIR", "write the panels as SVG files into DIR", 0 },
	{ "top", 0, "N", "rows in the top-spans tables (default " PR_STR(PR_MODEL_TOP_N) ")", 0 },
	{ "run", 0, "ID", "only this run of the store", 0 },
	{ "timeline-points", 0, "N", "points per series timeline in the model (default " PR_STR(PR_MODEL_TIMELINE_POINTS) ", 0 = none)", 0 },
	{ "format", 0, "NAME", "force the input format", 0 },
	{ "phases", 0, "FILE", "attach a phase log (TIME NAME lines, ...; README) to the one run", 0 },
	{ "comm-kernels", 0, "REGEX", "kernels whose name matches this extended regular expression are communication (besides NCCL/RCCL, gloo, MSCCL, NVSHMEM, DeepEP)", 0 },
	{ "quiet", 'q', NULL, "print nothing on success (not even what was written)", 0 },
	{ NULL, 0, NULL, NULL, 0 },
};

/* Parses a non-negative integer option into *out (unchanged when absent). */
int pr_cli_uint_opt(const struct pr_command *cmd, struct pr_args *a, const char *name,
		    int64_t max, int64_t *out, struct pr_error *err);

int pr_cli_uint_opt(const struct pr_command *cmd, struct pr_args *a, const char *name,
		    int64_t max, int64_t *out, struct pr_error *err)
{
	const char *v = pr_arg(cmd, a, name);
	int64_t n;
	if (!v)
		return 0;
	if (pr_decimal_scaled(v, strlen(v), 0, &n) || n < 0 || n > max)
		return pr_error_set(err, PR_E_USAGE, "--%s needs a whole number from 0 to %lld", name,
				    (long long)max);
	*out = n;
	return 0;
}

/* Writes every panel of every run into dir as <name>.<ext> (run<ID>-<name> when several runs). */
static int write_panels(const json_t *model, const char *dir, enum pr_gfx_format fmt,
			size_t *files, struct pr_error *err)
{
	json_t *runs = json_object_get(model, "runs"), *run;
	size_t i;
	*files = 0;
	json_array_foreach(runs, i, run)
	{
		struct pr_panelset *ps = pr_panels_build(run);
		char prefix[64] = "";
		int rc;
		if (json_array_size(runs) > 1)
			snprintf(prefix, sizeof(prefix), "run%lld-",
				 (long long)json_integer_value(json_object_get(run, "id")));
		rc = pr_panelset_write_files(ps, dir, prefix, fmt, err);
		*files += pr_panelset_count(ps);
		pr_panelset_free(ps);
		if (rc)
			return -1;
	}
	return 0;
}

static int write_html(const json_t *model, json_t *const *runs, size_t n, const char *path,
		      struct pr_error *err)
{
	struct pr_output out;
	if (pr_output_open_file(&out, path, err))
		return -1;
	if (pr_html_report(model, runs, n, &out, err) || pr_output_close(&out, err)) {
		pr_output_release(&out);
		return -1;
	}
	pr_output_release(&out);
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct pr_html_index_row *x = a, *y = b;
	json_t *cx = json_object_get(x->run, "clock"), *cy = json_object_get(y->run, "clock");
	json_t *ex = json_object_get(cx, "epoch_start_ns"), *ey = json_object_get(cy, "epoch_start_ns");
	json_int_t ix = json_integer_value(json_object_get(x->run, "id"));
	json_int_t iy = json_integer_value(json_object_get(y->run, "id"));
	if (json_is_integer(ex) && json_is_integer(ey) && json_integer_value(ex) != json_integer_value(ey))
		return json_integer_value(ex) < json_integer_value(ey) ? -1 : 1;
	if (json_is_integer(ex) != json_is_integer(ey))
		return json_is_integer(ex) ? -1 : 1;
	return ix < iy ? -1 : ix > iy;
}

/*
 * An archive: one report per run, named <label>-<hash prefix>.html (a run
 * already reported, same content hash, is skipped), and index.html.
 */
static int write_archive(const json_t *model, const char *dir, struct pr_error *err)
{
	json_t *runs = json_object_get(model, "runs"), *run;
	size_t n = json_array_size(runs), i, skipped = 0, written = 0;
	struct pr_html_index_row *rows = calloc(n + 1, sizeof(*rows));
	char **names = calloc(n + 1, sizeof(char *));
	struct pr_output out;
	char path[4096];
	const char *sep = *dir && dir[strlen(dir) - 1] == '/' ? "" : "/";
	int rc = -1;
	if (!rows || !names)
		abort();
	if (mkdir(dir, 0777) && errno != EEXIST) {
		pr_error_set(err, PR_E_IO, "cannot create the directory '%s': %s", dir, strerror(errno));
		goto out;
	}
	json_array_foreach(runs, i, run)
	{
		const char *label = json_string_value(json_object_get(run, "label"));
		const char *hash = json_string_value(json_object_get(run, "content_hash"));
		char name[200], *p;
		snprintf(name, sizeof(name), "%.60s-%.12s.html", label ? label : "run", hash ? hash : "");
		for (p = name; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			      *p == '-' || *p == '_' || *p == '.'))
				*p = '_';
		names[i] = strdup(name);
		rows[i].run = run;
		rows[i].href = names[i];
		snprintf(path, sizeof(path), "%s%s%s", dir, sep, name);
		if (access(path, F_OK) == 0) {
			skipped++;
			continue;
		}
		if (write_html(model, &run, 1, path, err))
			goto out;
		written++;
	}
	qsort(rows, n, sizeof(*rows), by_time);
	snprintf(path, sizeof(path), "%s%sindex.html", dir, sep);
	if (pr_output_open_file(&out, path, err))
		goto out;
	if (pr_html_index(rows, n, &out, err) || pr_output_close(&out, err)) {
		pr_output_release(&out);
		goto out;
	}
	pr_output_release(&out);
	fprintf(stderr, "profreport: report: %zu report(s) written, %zu already there (same content hash), index '%s'\n",
		written, skipped, path);
	rc = 0;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(rows);
	return rc;
}

/*
 * -o PATH: FILE.html or FILE.htm (any case) is one page; a path ending in
 * '/', an existing directory or a name without an extension is an archive
 * directory; another extension (report.txt, report.pdf) is refused rather
 * than silently made a directory.
 */
static int is_page(const char *path)
{
	size_t n = strlen(path);
	return (n > 5 && !strcasecmp(path + n - 5, ".html")) || (n > 4 && !strcasecmp(path + n - 4, ".htm"));
}

static int check_output(const char *path, struct pr_error *err)
{
	const char *base = strrchr(path, '/'), *dot;
	struct stat sb;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!*path || (!is_page(path) && *base && dot && dot != base && stat(path, &sb) != 0))
		return pr_error_set(err, PR_E_USAGE,
				    "'-o %s': the report is FILE.html (one page) or a directory (a name "
				    "without an extension, or ending in '/')",
				    path);
	return 0;
}

static int write_report(const json_t *model, const char *path, struct pr_error *err)
{
	if (is_page(path))
		return write_html(model, NULL, 0, path, err);
	return write_archive(model, path, err);
}

static int cmd_report(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_model_opts mo = PR_MODEL_OPTS_INIT;
	struct pr_cli_input in;
	struct pr_cli_inopts io = { pr_arg(cmd, a, "format"), pr_arg(cmd, a, "phases") };
	const char *json = pr_arg(cmd, a, "json");
	int64_t top = (int64_t)mo.top_n, run = 0, tl = (int64_t)mo.timeline_points;
	json_t *model;
	int rc;
	size_t nruns, npng = 0, nsvg = 0;
	const char *png = pr_arg(cmd, a, "png"), *svg = pr_arg(cmd, a, "svg"), *html = pr_arg(cmd, a, "output");
	if (!json && !png && !svg && !html)
		return pr_error_set(err, PR_E_USAGE,
				    "nothing to write: give -o report.html (or a directory), --json FILE, --png DIR or --svg DIR");
	if (html && check_output(html, err))
		return -1;
	if (pr_cli_uint_opt(cmd, a, "top", 100000, &top, err) ||
	    pr_cli_uint_opt(cmd, a, "run", INT32_MAX, &run, err) ||
	    pr_cli_uint_opt(cmd, a, "timeline-points", 10000000, &tl, err))
		return -1;
	mo.top_n = (size_t)top;
	mo.run = (long)run;
	mo.timeline_points = (size_t)tl;
	mo.comm_kernels = pr_arg(cmd, a, "comm-kernels");
	if (pr_cli_input_open_opts(&in, cmd->name, a->pos, a->npos, &io, err))
		return -1;
	model = pr_model_build(in.store, &mo, err);
	pr_cli_input_close(&in);
	if (!model)
		return -1;
	nruns = json_array_size(json_object_get(model, "runs"));
	rc = (json && pr_model_write(model, json, err)) || (html && write_report(model, html, err)) ||
	     (png && write_panels(model, png, PR_GFX_PNG, &npng, err)) ||
	     (svg && write_panels(model, svg, PR_GFX_SVG, &nsvg, err)) ? -1 : 0;
	json_decref(model);
	/* what was written, on stderr (an archive says it itself) */
	if (!rc && !pr_arg(cmd, a, "quiet")) {
		if (json && strcmp(json, "-"))
			fprintf(stderr, "profreport: report: wrote the model '%s' (%zu run%s)\n", json, nruns,
				nruns == 1 ? "" : "s");
		if (html && is_page(html))
			fprintf(stderr, "profreport: report: wrote '%s' (%zu run%s)\n", html, nruns,
				nruns == 1 ? "" : "s");
		if (png)
			fprintf(stderr, "profreport: report: wrote %zu PNG panel%s into '%s'\n", npng,
				npng == 1 ? "" : "s", png);
		if (svg)
			fprintf(stderr, "profreport: report: wrote %zu SVG panel%s into '%s'\n", nsvg,
				nsvg == 1 ? "" : "s", svg);
	}
	return rc;
}

const struct pr_command pr_cmd_report = {
	.name = "report",
	.fn = cmd_report,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "report INPUT...",
	.summary = "analyze runs: peaks, phases, fragmentation, throughput, bottlenecks, leaks, recommendations",
	.help = "INPUT is a store, trace files or directories (ingested into a temporary store).\n"
		"The model's schema is documented in README (\"The analysis model\").\n"
		"--phases FILE attaches a phase log to the run of the one trace file.",
};
