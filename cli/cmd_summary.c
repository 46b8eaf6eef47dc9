/* cmd_summary.c - profreport summary INPUT...: the console report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "base/output.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "render/text_report.h"

/* The options, as the table binds them (pr_opt_fill). */
struct summary_opts {
	const char *json, *format, *phases, *comm_kernels, *window, *jobs;
	const char *critpath_annotation;
	int64_t top, run;
};

#define O struct summary_opts
static const struct pr_option opts[] = {
	PR_OPT_UINT("top", 0, "N", "rows in the top-spans table (default 10)", 0, O, top, 100000),
	PR_OPT_STRING("json", 0, "FILE",
		      "also write the analysis model (JSON; '-' = stdout, replacing the text)", 0,
		      O, json),
	PR_OPT_UINT("run", 0, "ID", "only this run of the store", 0, O, run, INT32_MAX),
	PR_CLI_ANALYSIS_OPTS(O),
	PR_OPT_STRING("jobs", 'j', "N",
		      "the files of the INPUTs ingested by N processes (default: the CPUs, from 4)",
		      0, O, jobs),
	PR_OPT_END,
};
#undef O

/*
 * The console report goes to memory first, then out through pr_output, so a
 * failed write is reported with its own errno ("No space left on device") in
 * one line, as every other command's output is; stdio would lose the errno of
 * a write that failed while the report was still being printed.
 */
static int print_report(const json_t *model, struct pr_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	struct pr_output out;
	int rc;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return pr_error_set(err, PR_E_IO, "out of memory for the report");
	pr_render_text_report(model, f);
	if (fclose(f)) {
		free(buf);
		return pr_error_set(err, PR_E_IO, "out of memory for the report");
	}
	rc = pr_output_open_file(&out, "-", err);
	if (!rc) {
		pr_output_write(&out, buf, len); /* failures are sticky: close reports them */
		rc = pr_output_close(&out, err);
	}
	pr_output_release(&out);
	if (rc)
		clearerr(stdout); /* reported here: main's last check must not say it again */
	free(buf);
	return rc;
}

static int cmd_summary(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_model_opts mo = PR_MODEL_OPTS_INIT;
	struct pr_trace_window tw;
	struct pr_cli_input in;
	struct summary_opts o = { .top = 10 };
	struct pr_cli_inopts io;
	const char *json;
	json_t *model;
	int rc = 0;
	struct pr_error oerr = PR_ERROR_INIT;
	int obad = pr_opt_fill(cmd->opts, a, &o, &oerr); /* said after -j's, as before */
	io = (struct pr_cli_inopts){ o.format, o.phases, 0, NULL, 0, 1 };
	json = o.json;
	if (pr_cli_ingest_jobs(o.jobs, &io.jobs, err))
		return -1;
	if (obad) {
		*err = oerr;
		return -1;
	}
	mo.top_n = (size_t)o.top;
	mo.run = (long)o.run;
	mo.comm_kernels = o.comm_kernels;
	mo.critpath_annotation = o.critpath_annotation;
	mo.window = o.window;
	if (mo.window && pr_trace_window_parse(mo.window, &tw, err))
		return -1;
	if (pr_cli_input_open_opts(&in, cmd->name, a->pos, a->npos, &io, err))
		return -1;
	model = pr_model_build(in.store, &mo, err);
	pr_cli_input_close(&in);
	if (!model)
		return -1;
	if (json)
		rc = pr_model_write(model, json, err);
	if (!rc && (!json || strcmp(json, "-")))
		rc = print_report(model, err);
	json_decref(model);
	return rc;
}

const struct pr_command pr_cmd_summary = {
	.name = "summary",
	.fn = cmd_summary,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "summary INPUT...",
	.summary =
		"print the console report: peaks, memory, phases, throughput, bottlenecks, advice",
	.help = "INPUT is a store, trace files or directories (ingested into a temporary store).\n"
		"--phases FILE attaches a phase log to the run of the one trace file.",
};
