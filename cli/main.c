/*
 * main.c - profreport entry point: dispatch through pr_commands[], print at
 * most one error line, map errors to exit codes (0 ok, 1 regression,
 * 2 usage or input error), and fail loudly if stdout cannot be written.
 */
#include <errno.h>
#include <jansson.h>
#include <locale.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli/commands.h"
#include "cli/par.h"
#include "ingest/ingest.h"
#include "ingest/source.h"
#include "render/version.h"
#include "base/env.h"
#include "base/xalloc.h"
#include "base/output.h"
#include "store/store.h"

/* The store's notices (recovered from an interrupted write, waiting for a
 * lock) and ingest's (a symbolic link loop skipped in an input directory):
 * one line on stderr, "profreport: CMD: 'PATH': note: ...", control
 * characters in the path or the message escaped (base/error.h). */
static void store_notice(void *ctx, const char *path, const char *msg)
{
	char p[2048], m[2048];
	pr_error_escape(pr_path_shown(path), p, sizeof(p));
	pr_error_escape(msg, m, sizeof(m));
	fprintf(stderr, "profreport: %s: '%s': note: %s\n", (const char *)ctx, p, m);
}

/* One line "profreport: CMD: TEXT" on stderr, TEXT escaped as errors are. */
static void print_line(const char *cmd, const char *text)
{
	char t[2048];
	pr_error_escape(text, t, sizeof(t));
	fprintf(stderr, "profreport: %s: %s\n", cmd, t);
}

/*
 * INPUT arguments: every positional argument of these commands. '-' there
 * is standard input, and it or a FIFO (a shell's <(...) is /dev/fd/N of a
 * pipe) is read once into a temporary file that every reader then opens
 * (ingest/source.h, pr_source_spool): sniffing a model, an agg.json, a
 * store or a trace format each reads the file's head again.
 */
static int takes_inputs(const char *name)
{
	static const char *const cmds[] = { "ingest",	  "summary",   "report",
					    "speedscope", "aggregate", "compare" };
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(cmds); i++)
		if (!strcmp(name, cmds[i]))
			return 1;
	return 0;
}

/*
 * A STORE is a file SQLite opens, reads and writes in place: never '-'
 * (standard input or output cannot be one). The positional STORE of query
 * and dump, and every option whose value is a STORE (ingest -o).
 */
static int refuse_dash_store(const struct pr_command *cmd, const struct pr_args *a,
			     struct pr_error *err)
{
	int i, pos = !strcmp(cmd->name, "query") ? 0 : !strcmp(cmd->name, "dump") ? 1 : -1;
	const char *bad = pos >= 0 && pos < a->npos && !strcmp(a->pos[pos], "-") ? "STORE" : NULL;
	for (i = 0; !bad && cmd->opts && cmd->opts[i].lname; i++)
		if (cmd->opts[i].arg && !strcmp(cmd->opts[i].arg, "STORE") && a->val[i] &&
		    !strcmp(a->val[i], "-"))
			bad = cmd->opts[i].lname;
	if (!bad)
		return 0;
	return pr_error_set(err, PR_E_USAGE,
			    "a store is a file: '-' (standard input or output) cannot be one%s%s; "
			    "name the file (./- for one called '-')",
			    strcmp(bad, "STORE") ? " (--" : "",
			    strcmp(bad, "STORE") ? "output)" : "");
}

/*
 * Standard input can be read once: '-' as more than one input (compare - -,
 * summary - --phases -) would read it against itself, or read nothing the
 * second time. Inputs are the positional arguments and the options that read
 * a file (--phases, --config).
 */
static int refuse_dash_twice(const struct pr_command *cmd, const struct pr_args *a,
			     struct pr_error *err)
{
	int i, n = 0;
	for (i = 0; i < a->npos; i++)
		n += !strcmp(a->pos[i], "-");
	for (i = 0; cmd->opts && cmd->opts[i].lname; i++) {
		const char *ln = cmd->opts[i].lname;
		if ((!strcmp(ln, "phases") || !strcmp(ln, "config")) && a->val[i] &&
		    !strcmp(a->val[i], "-"))
			n++;
	}
	if (n < 2)
		return 0;
	return pr_error_set(err, PR_E_USAGE,
			    "'-' (standard input) is given %d times; it can be read once: "
			    "name the files (./- for one called '-')",
			    n);
}

static void usage(FILE *out)
{
	size_t i;
	fputs("usage: profreport <command> [options] [args]\n\ncommands:\n", out);
	for (i = 0; pr_commands[i]; i++)
		fprintf(out, "  %-10s %s\n", pr_commands[i]->name, pr_commands[i]->summary);
	fputs("\n'profreport <command> --help' describes a command; 'profreport --version' prints "
	      "versions.\n",
	      out);
}

static void command_help(const struct pr_command *cmd, FILE *out)
{
	char u[1024];
	pr_command_usage(cmd, u, sizeof(u));
	fprintf(out, "usage: profreport %s\n\n%s\n", u, cmd->summary);
	if (cmd->help)
		fprintf(out, "\n%s\n", cmd->help);
	pr_opt_help(cmd->opts, out);
}

/* Edit distance, for "did you mean" (commands are short). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[64];
	if (lb >= 64 || la >= 64)
		return 64;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

static void unknown_command(const char *name)
{
	char shown[512];
	size_t i;
	int any = 0;
	pr_error_escape(name, shown, sizeof(shown));
	fprintf(stderr, "profreport: '%s' is not a command; see 'profreport --help'", shown);
	for (i = 0; pr_commands[i]; i++) {
		if (distance(name, pr_commands[i]->name) <= 2) {
			fprintf(stderr, "%s'%s'", any ? ", " : " (did you mean ",
				pr_commands[i]->name);
			any = 1;
		}
	}
	fputs(any ? "?)\n" : "\n", stderr);
}

/* The command being run, for messages printed outside it. */
static const char *cmd_name;

/*
 * Whatever a command printed must have reached standard output: a full
 * disk, a closed descriptor or a broken file fails the run (exit 2) with one
 * line, unless the command failed already (its line is printed).
 */
static int finish_stdout(int rc)
{
	int e = 0;
	errno = 0;
	if (fflush(stdout))
		e = errno ? errno : EIO;
	if (ferror(stdout) && !e)
		e = EIO; /* an earlier write failed and its errno is gone */
	errno = 0;
	if (fclose(stdout) && !e)
		e = errno ? errno : EIO;
	if (!e)
		return rc;
	if (!rc)
		fprintf(stderr, "profreport: %s%scannot write to standard output: %s\n",
			cmd_name ? cmd_name : "", cmd_name ? ": " : "", strerror(e));
	return rc ? rc : 2;
}

static int run(int argc, char **argv)
{
	const struct pr_command *cmd;
	struct pr_args args;
	struct pr_error err = PR_ERROR_INIT;
	char usage_line[1024];
	int i, rc;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2) {
			cmd = pr_command_find(argv[2]);
			if (!cmd) {
				unknown_command(argv[2]);
				return 2;
			}
			command_help(cmd, stdout);
			return 0;
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("profreport %s (sqlite %s, jansson %s, cairo %s, zlib %s)\n", PR_VERSION,
		       sqlite3_libversion(), jansson_version_str(), pr_render_cairo_version(),
		       pr_source_zlib_version());
		return 0;
	}
	cmd = pr_command_find(argv[1]);
	if (!cmd) {
		unknown_command(argv[1]);
		return 2;
	}
	for (i = 2; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			command_help(cmd, stdout);
			return 0;
		}
	}
	cmd_name = cmd->name;
	pr_store_set_notice(store_notice, (void *)cmd->name);
	pr_ingest_set_notice(store_notice, (void *)cmd->name);
	pr_command_usage(cmd, usage_line, sizeof(usage_line));
	if (pr_opt_parse(argc - 1, argv + 1, cmd->opts, &args, &err)) {
		print_line(cmd->name, err.text);
		fprintf(stderr, "usage: profreport %s\n", usage_line);
		return 2;
	}
	if (args.npos < cmd->min_pos || (cmd->max_pos >= 0 && args.npos > cmd->max_pos)) {
		fprintf(stderr, "profreport: %s: %s arguments\nusage: profreport %s\n", cmd->name,
			args.npos < cmd->min_pos ? "missing" : "too many", usage_line);
		free(args.pos);
		return 2;
	}
	rc = refuse_dash_store(cmd, &args, &err) || refuse_dash_twice(cmd, &args, &err);
	for (i = 0; !rc && takes_inputs(cmd->name) && i < args.npos; i++) {
		const char *p = pr_source_spool(args.pos[i], &err);
		if (!p)
			rc = -1;
		else
			args.pos[i] = (char *)p;
	}
	if (!rc)
		rc = cmd->fn(cmd, &args, &err);
	free(args.pos);
	pr_source_spool_release();
	if (rc && !err.reported) {
		char line[4200];
		pr_error_format(&err, line, sizeof(line));
		fprintf(stderr, "profreport: %s: %s\n", cmd->name, line);
	}
	return rc ? pr_error_exit_code(err.code == PR_OK ? PR_E_USAGE : err.code) : 0;
}

/*
 * Under AddressSanitizer (PR_SANITIZE): fontconfig, which Cairo uses for the
 * pinned font, keeps its caches for the life of the process by design; they
 * are not leaks of ours.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

/*
 * SIGINT, SIGTERM, SIGHUP, SIGPIPE: remove the temporary files of the
 * outputs being written (unlink only: async-signal-safe; the -j workers
 * are killed and reaped first), then die of the
 * same signal with its default action, so the parent sees what killed us.
 * (A store being written needs nothing: SQLite's journal lets the next
 * open roll the unfinished run back.)
 */
static void on_fatal_signal(int sig)
{
	pr_par_kill(); /* -j's workers first: each removes its own temporary files */
	pr_output_remove_temps();
	signal(sig, SIG_DFL);
	raise(sig); /* delivered when the handler returns */
}

static void catch_fatal_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	size_t i;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa, old;
		/* A signal the parent ignores (nohup; SIGINT for a background job)
		 * stays ignored. */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

/*
 * PR_TIMINGS=1: the CPU seconds (user + sys) of this process and of its -j
 * workers, on stderr at the end: the parent's share is the serial part of
 * a -j run (it waits while the workers run), for bench/parallel.sh.
 */
static void cpu_timing(void)
{
	struct rusage self, kids;
	if (!pr_timings_on() || getrusage(RUSAGE_SELF, &self) || getrusage(RUSAGE_CHILDREN, &kids))
		return;
	fprintf(stderr, "profreport: timing: cpu self %.3f workers %.3f\n",
		(double)self.ru_utime.tv_sec + self.ru_utime.tv_usec / 1e6 +
			(double)self.ru_stime.tv_sec + self.ru_stime.tv_usec / 1e6,
		(double)kids.ru_utime.tv_sec + kids.ru_utime.tv_usec / 1e6 +
			(double)kids.ru_stime.tv_sec + kids.ru_stime.tv_usec / 1e6);
}

int main(int argc, char **argv)
{
	int rc;
	setlocale(LC_ALL, "C");
	pr_xalloc_json_init();
	catch_fatal_signals();
	rc = run(argc, argv);
	cpu_timing();
	return finish_stdout(rc);
}
