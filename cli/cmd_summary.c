/* cmd_summary.c - profreport summary INPUT...: the console report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "base/output.h"
#include "cli/args.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "render/text_report.h"

static const struct pr_option opts[] = {
	{ "top", 0, "N", "rows in the top-spans table (default 10)", 0 },
	{ "json", 0, "FILE", "also write the analysis model (JSON; '-' = stdout, replacing the text)", 0 },
	{ "run", 0, "ID", "only this run of the store", 0 },
	{ "format", 0, "NAME", "force the input format", 0 },
	{ "phases", 0, "FILE",
	  "attach a phase log (TIME NAME lines, ...: docs/formats.md) to the one run", 0 },
	{ "comm-kernels", 0, "REGEX", "kernels whose name matches this extended regular expression are communication (besides NCCL/RCCL, gloo, MSCCL, NVSHMEM, DeepEP)", 0 },
	{ "window", 0, "SPEC",
	  "the trace view's window: a step name, #N (the N-th step) or START:END since the run's "
	  "start (120ms:180ms, 1.5s:2s, 500us:; bare numbers are ms); default: the slowest and the "
	  "median step", 0 },
	{ "jobs", 'j', "N",
	  "the files of the INPUTs ingested by N processes (default: the CPUs, from 4)", 0 },
	{ NULL, 0, NULL, NULL, 0 },
};

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
	struct pr_cli_inopts io = { pr_arg(cmd, a, "format"), pr_arg(cmd, a, "phases"), 0, NULL,
				    0, 1 };
	const char *json = pr_arg(cmd, a, "json");
	int64_t top = 10, run = 0;
	json_t *model;
	int rc = 0;
	if (pr_cli_ingest_jobs(pr_arg(cmd, a, "jobs"), &io.jobs, err) ||
	    pr_cli_uint_opt(cmd, a, "top", 100000, &top, err) ||
	    pr_cli_uint_opt(cmd, a, "run", INT32_MAX, &run, err))
		return -1;
	mo.top_n = (size_t)top;
	mo.run = (long)run;
	mo.comm_kernels = pr_arg(cmd, a, "comm-kernels");
	mo.window = pr_arg(cmd, a, "window");
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
	.summary = "print the console report: peaks, memory, phases, throughput, bottlenecks, advice",
	.help = "INPUT is a store, trace files or directories (ingested into a temporary store).\n"
		"--phases FILE attaches a phase log to the run of the one trace file.",
};
