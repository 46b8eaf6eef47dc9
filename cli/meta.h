/*
 * meta.h - the run metadata options of ingest, report and compare:
 * --meta KEY=VALUE (repeatable) and --meta-from-env (docs/store.md).
 */
#ifndef PR_CLI_META_H
#define PR_CLI_META_H

#include <stddef.h>

#include "cli/commands.h"

struct pr_cli_meta {
	char **kv; /* key, value, key, value, ... (owned); keys distinct, in order given */
	size_t n;  /* pairs */
};

/* The option table lines, for a command's opts[]. */
#define PR_CLI_META_OPTS                                                                           \
	PR_OPT("meta", 0, "KEY=VALUE",                                                             \
	       "label the runs this command ingests (commit, branch, build, time, ...; "           \
	       "repeatable)",                                                                      \
	       PR_OPT_REPEAT),                                                                     \
		PR_OPT("meta-from-env", 0, NULL,                                                   \
		       "take commit, branch and build from the CI's variables (GITHUB_SHA, "       \
		       "CI_COMMIT_SHA, ...)",                                                      \
		       0)

/*
 * Reads the command's --meta-from-env first, then its --meta options in
 * order (a later key wins). A bad key or value is a usage error naming it.
 * Returns 0 (m filled, possibly empty) or -1.
 */
int pr_cli_meta_parse(const struct pr_command *cmd, const struct pr_args *a, struct pr_cli_meta *m,
		      struct pr_error *err) PR_MUST_CHECK;
void pr_cli_meta_release(struct pr_cli_meta *m);
/* Seconds since the epoch (UTC) of a `time` value: an integer, or an ISO 8601 date-time
 * (ingest/datetime.h; no zone = UTC). 0 with *ns, or -1. */
int pr_cli_meta_time(const char *value, int64_t *ns);

#endif
