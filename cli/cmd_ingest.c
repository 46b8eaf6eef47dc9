/* cmd_ingest.c - profreport ingest INPUT... -o STORE */
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/input.h"
#include "cli/meta.h"

/* The options, as the table binds them (pr_opt_fill). */
struct ingest_opts {
	const char *output, *format, *phases, *jobs;
	int quiet;
};

#define O struct ingest_opts
static const struct pr_option opts[] = {
	PR_OPT_STRING("output", 'o', "STORE", "the store to create or add to (required)",
		      PR_OPT_REQUIRED, O, output),
	PR_OPT_STRING("format", 0, "NAME", "force an input format (see 'profreport formats')", 0, O,
		      format),
	PR_OPT_STRING("phases", 0, "FILE",
		      "attach a phase log (TIME NAME lines, ...: docs/formats.md) to the one "
		      "run",
		      0, O, phases),
	PR_CLI_META_OPTS,
	PR_OPT_STRING("jobs", 'j', "N",
		      "files parsed by N processes, stored by one (default: the CPUs, from 4)", 0,
		      O, jobs),
	PR_OPT_FLAG("quiet", 'q', "print nothing on success", 0, O, quiet),
	PR_OPT_END,
};
#undef O

static int cmd_ingest(const struct pr_command *cmd, struct pr_args *a, struct pr_error *err)
{
	struct ingest_opts o = { 0 };
	const char *out;
	struct pr_cli_inopts io;
	struct pr_cli_meta meta;
	struct pr_store *st = NULL;
	int rc, existed;
	if (pr_opt_fill(cmd->opts, a, &o, err)) /* strings and a flag: cannot fail */
		return -1;
	out = o.output;
	io = (struct pr_cli_inopts){ o.format, o.phases, 1, NULL, 0, 1 };
	if (!out)
		return pr_error_set(err, PR_E_USAGE, "give the store with -o STORE");
	if (pr_cli_ingest_jobs(o.jobs, &io.jobs, err) || pr_cli_meta_parse(cmd, a, &meta, err))
		return -1;
	io.meta = (const char *const *)meta.kv;
	io.nmeta = meta.n;
	existed = access(out, F_OK) == 0;
	if (pr_store_open(&st, out, PR_STORE_CREATE, err)) {
		/* a store it could not even set up (a full disk) is not left as an empty file */
		struct stat sb;
		if (!existed && lstat(out, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0)
			unlink(out);
		pr_cli_meta_release(&meta);
		return -1;
	}
	rc = pr_cli_ingest_all(st, cmd->name, a->pos, a->npos, &io, o.quiet ? NULL : stdout, err);
	/* A store this command created and filled with nothing is not left behind,
	 * unless another ingest stored a run in it meanwhile (checked under a lock). */
	if (rc && !existed)
		pr_store_remove_if_empty(st);
	pr_store_close(st);
	pr_cli_meta_release(&meta);
	return rc;
}

const struct pr_command pr_cmd_ingest = {
	.name = "ingest",
	.fn = cmd_ingest,
	.min_pos = 1,
	.max_pos = -1,
	.opts = opts,
	.usage = "ingest INPUT...",
	.summary = "read trace files or directories into an event store (SQLite)",
	.help = "Each file becomes one run, in one transaction: a file that fails leaves nothing\n"
		"behind. A file whose content is already in the store is reported, not added\n"
		"twice. Directories are read recursively; files no format recognizes are skipped.\n"
		"--phases FILE attaches a phase log (a run script's or sampler's TIME NAME lines)\n"
		"to the run of the one trace file: its phases become spans of kind 'phase'.\n"
		"--meta KEY=VALUE labels each run stored (commit=..., branch=..., time=...);\n"
		"a file already in the store keeps its own labels.\n"
		"-j N parses the files by N worker processes, each into a store of its own, and\n"
		"copies their runs into STORE in input order: the same rows as with -j 1.",
};
