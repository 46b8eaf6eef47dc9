/*
 * input.h - turning command-line INPUTs into a store.
 *
 * An INPUT is a store (.db: an SQLite file), a trace file of any format, or
 * a directory of them. A single store is opened read-only; anything else is
 * ingested into a temporary store that pr_cli_input_close() deletes.
 */
#ifndef PR_CLI_INPUT_H
#define PR_CLI_INPUT_H

#include "store/store.h"

struct pr_cli_input {
	struct pr_store *store;
	char *tmp_path; /* temporary store to delete, or NULL */
	/* a kept store (pr_cli_input_open_kept): the runs of this call's input files */
	int64_t *runs;
	size_t nruns;
	size_t reused, ingested; /* files found in it by content hash / ingested now */
};

/* How INPUTs are read: --format and --phases of the commands. */
struct pr_cli_inopts {
	const char *format; /* force an input format, or NULL */
	const char *phases; /* a phase log to attach to the one run, or NULL */
	/* say nothing of the files of a directory that no format recognizes (ingest,
	 * which lists them itself unless -q, and any command's -q); else one note per
	 * directory on stderr */
	int quiet_skips;
	/* the user's metadata of every run ingested (cli/meta.h): key, value, ...; nmeta pairs */
	const char *const *meta;
	size_t nmeta;
	/* -j: the files of many parsed by this many worker processes, each into a store
	 * of its own whose run is copied into the store in input order (one writer);
	 * 0 or 1: one process. The store's rows are the same whatever the number. */
	int jobs;
};

/*
 * -j of ingest, summary and compare (inopts.jobs): the number given, or by
 * default the CPUs when there are at least PR_CLI_INGEST_MIN_CPUS, else 1:
 * the parent's copy of each run into the store costs about 60 % of a
 * one-process ingest (docs/performance.md), so fewer cores gain nothing.
 */
#ifndef PR_CLI_INGEST_MIN_CPUS /* -DPR_CLI_INGEST_MIN_CPUS=2: the workers by default on 2 cores */
/*
 * The options summary and report share for reading and analysing their inputs, bound to the
 * members format, phases, comm_kernels and window of the command's options struct S (opt.h).
 */
#define PR_CLI_ANALYSIS_OPTS(S)                                                                    \
	PR_OPT_STRING("format", 0, "NAME", "force the input format", 0, S, format),                \
		PR_OPT_STRING(                                                                     \
			"phases", 0, "FILE",                                                       \
			"attach a phase log (TIME NAME lines, ...: docs/formats.md) to the one "   \
			"run",                                                                     \
			0, S, phases),                                                             \
		PR_OPT_STRING("comm-kernels", 0, "REGEX",                                          \
			      "kernels whose name matches this extended regular expression are "   \
			      "communication (besides NCCL/RCCL, gloo, MSCCL, NVSHMEM, DeepEP)",   \
			      0, S, comm_kernels),                                                 \
		PR_OPT_STRING(                                                                     \
			"window", 0, "SPEC",                                                       \
			"the trace view's window: a step name, #N (the N-th step) or START:END "   \
			"since the run's start (120ms:180ms, 1.5s:2s, 500us:; bare numbers are "   \
			"ms); default: the slowest and the median step",                           \
			0, S, window),                                                             \
		PR_OPT_STRING("critpath-annotation", 0, "NAME[:N]",                                \
			      "the critical path over the N-th (from 0; default 0; A-B: a range) " \
			      "span whose name contains NAME, as HTA's annotation and "            \
			      "instance_id; default: per step",                                    \
			      0, S, critpath_annotation)

#define PR_CLI_INGEST_MIN_CPUS 4
#endif
int pr_cli_ingest_jobs(const char *arg, int *jobs, struct pr_error *err) PR_MUST_CHECK;

int pr_cli_input_open(struct pr_cli_input *in, const char *cmd, char **paths, int n,
		      const char *format, struct pr_error *err) PR_MUST_CHECK;
/* The same with every reading option. --phases needs exactly one INPUT that
 * is a trace file (not a directory or a store): a usage error otherwise. */
int pr_cli_input_open_opts(struct pr_cli_input *in, const char *cmd, char **paths, int n,
			   const struct pr_cli_inopts *o, struct pr_error *err) PR_MUST_CHECK;
/*
 * The same, but INPUTs that are not one store go into the store `kept`,
 * which stays for the next call (created when missing, made anew when it
 * cannot be opened): a file whose content hash (read, not parsed) a run of
 * it has is not ingested again. in->runs is then the runs of the input
 * files, sorted (a file changed or gone since leaves its old run in the
 * store, not in in->runs). Not with --phases (a usage error is not made:
 * the call is then pr_cli_input_open_opts).
 */
int pr_cli_input_open_kept(struct pr_cli_input *in, const char *cmd, char **paths, int n,
			   const struct pr_cli_inopts *o, const char *kept,
			   struct pr_error *err) PR_MUST_CHECK;
void pr_cli_input_close(struct pr_cli_input *in);
/*
 * 1 with *id when the store has a run whose content hash is the file's
 * (read through as the ingest reads it, not parsed); 0 when none, or the
 * file cannot be read.
 */
int pr_cli_input_known_run(struct pr_store *st, const char *path, int64_t *id);
/*
 * --format names the input format everywhere; an output form given there
 * (compare --format junit, from before --to) is a usage error that says so.
 * forms: the command's output forms for the message ("json, inferix").
 * 0 when fmt is an input format or not one of forms.
 */
int pr_cli_output_form_misused(const char *fmt, const char *forms, struct pr_error *err);
/* 1 when path is an SQLite database file that the nsys reader does not claim. */
int pr_cli_is_store(const char *path);

/*
 * Ingests every file of every path into st; prints one line per file to
 * `report` (NULL = quiet); errors are printed as "profreport: CMD: ...".
 * A store among the paths is an error (stores are not merged). Files inside a directory that no format
 * recognizes are skipped with a note; explicit files are errors, and so are
 * an empty directory and one in which no file was recognized.
 * Returns 0, or -1 with err describing the first failure (all inputs are
 * still attempted).
 */
int pr_cli_ingest_all(struct pr_store *st, const char *cmd, char **paths, int n,
		      const struct pr_cli_inopts *o, FILE *report, struct pr_error *err);

#endif
