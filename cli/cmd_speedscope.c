/* cmd_speedscope.c - profreport speedscope INPUT... -o FILE: a speedscope file. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/input.h"
#include "analyze/export/speedscope.h"
#include "base/decimal.h"

/* The options, as the table binds them (pr_opt_fill); --run keeps its own message. */
struct speedscope_cli_opts {
	const char *output, *run, *format, *phases;
	int quiet;
};

#define O struct speedscope_cli_opts
static const struct pr_option opts[] = {
	PR_OPT_STRING("output", 'o', "FILE",
		      "the speedscope file to write (required), e.g. out.speedscope.json; '-' = "
		      "stdout",
		      PR_OPT_REQUIRED, O, output),
	PR_OPT_STRING("run", 0, "ID", "only this run", 0, O, run),
	PR_OPT_STRING("format", 0, "NAME", "force the input format", 0, O, format),
	PR_OPT_STRING("phases", 0, "FILE",
		      "attach a phase log (TIME NAME lines, ...: docs/formats.md) to the one "
		      "run",
		      0, O, phases),
	PR_OPT_FLAG("quiet", 'q', "print nothing on success", 0, O, quiet),
	PR_OPT_END,
};
#undef O

static int cmd_speedscope(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct pr_speedscope_opts o = PR_SPEEDSCOPE_OPTS_INIT;
	struct pr_speedscope_stats s;
	struct pr_cli_input in;
	struct speedscope_cli_opts co = { 0 };
	struct pr_cli_inopts io;
	const char *out, *run;
	int rc;

	if (pr_opt_fill(cmd->opts, a, &co, err)) /* strings and a flag: cannot fail */
		return -1;
	io = (struct pr_cli_inopts){ co.format, co.phases, co.quiet, NULL, 0, 0 };
	out = co.output;
	run = co.run;

	if (!out || !*out)
		return pr_error_set(err, PR_E_USAGE, "give the output file with -o FILE");
	if (run && (pr_decimal_scaled(run, strlen(run), 0, &o.run_id) || o.run_id <= 0))
		return pr_error_set(err, PR_E_USAGE, "--run needs a positive run id");
	if (pr_cli_input_open_opts(&in, cmd->name, a->pos, a->npos, &io, err))
		return -1;
	rc = pr_speedscope_export(in.store, out, &o, &s, err);
	pr_cli_input_close(&in);
	if (rc)
		return -1;
	if (s.clamped)
		fprintf(stderr,
			"profreport: %s: warning: %lld spans ended after their parent span; "
			"clamped to the parent's end\n",
			cmd->name, (long long)s.clamped);
	/* With -o - the file is standard output: the line goes to stderr. */
	if (!co.quiet) {
		int to_stdout = !strcmp(out, "-");
		fprintf(to_stdout ? stderr : stdout,
			"'%s': %lld profiles (%lld evented, %lld sampled), %lld frames, %lld events, "
			"%lld samples\n",
			to_stdout ? "standard output" : out, (long long)s.profiles,
			(long long)s.evented, (long long)s.sampled, (long long)s.frames,
			(long long)s.events, (long long)s.samples);
	}
	return 0;
}

const struct pr_command pr_cmd_speedscope = {
	.name = "speedscope",
	.fn = cmd_speedscope,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "speedscope INPUT...",
	.summary = "write a speedscope file: span timelines and byte-weighted memory growth",
	.help = "INPUT is a store, trace files or directories (ingested into a temporary store).\n"
		"One evented profile (ns) per thread, GPU stream or async lane, with the spans\n"
		"as nested frames; one sampled profile (bytes) per memory series, each sample\n"
		"the stack of spans open when memory grew, weighted by the growth. Open the\n"
		"file at https://www.speedscope.app or with the speedscope CLI.",
};
