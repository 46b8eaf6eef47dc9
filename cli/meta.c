/* meta.c - --meta KEY=VALUE and --meta-from-env (cli/meta.h). */
#include "cli/args.h"
#include "cli/meta.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "ingest/datetime.h"
#include "store/store.h"

/* The CI variables --meta-from-env reads, per key, in this order (the first set one wins):
 * GitHub Actions, GitLab CI, Jenkins (docs/store.md). */
static const char *const env_map[][4] = {
	{ "commit", "GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT" },
	{ "branch", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "GIT_BRANCH" },
	{ "build", "GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILD_NUMBER" },
};

static void put(struct pr_cli_meta *m, const char *key, size_t klen, const char *value)
{
	size_t i;
	for (i = 0; i < m->n; i++) {
		if (strlen(m->kv[2 * i]) == klen && !memcmp(m->kv[2 * i], key, klen)) {
			free(m->kv[2 * i + 1]);
			m->kv[2 * i + 1] = pr_xstrdup(value);
			return;
		}
	}
	m->kv = pr_xreallocarray(m->kv, 2 * (m->n + 1), sizeof(*m->kv));
	m->kv[2 * m->n] = pr_xstrndup(key, klen);
	m->kv[2 * m->n + 1] = pr_xstrdup(value);
	m->n++;
}

int pr_cli_meta_time(const char *value, int64_t *ns)
{
	char *end;
	long long s;
	int naive;
	if (!*value)
		return -1;
	errno = 0;
	s = strtoll(value, &end, 10);
	if (!*end && !errno && value[0] != ' ') {
		if (s < -9000000000LL || s > 9000000000LL)
			return -1;
		*ns = (int64_t)s * 1000000000;
		return 0;
	}
	return pr_parse_datetime(value, strlen(value), ns, &naive);
}

int pr_cli_meta_parse(const struct pr_command *cmd, const struct pr_args *a, struct pr_cli_meta *m,
		      struct pr_error *err)
{
	int i, n = a->count[pr_opt_index(cmd->opts, "meta")];
	size_t k, v;
	memset(m, 0, sizeof(*m));
	if (pr_arg(cmd, a, "meta-from-env")) {
		for (k = 0; k < sizeof(env_map) / sizeof(env_map[0]); k++) {
			for (v = 1; v < 4; v++) {
				const char *e = getenv(env_map[k][v]), *key = env_map[k][0];
				if (!e || !*e)
					continue;
				if (pr_run_meta_check(key, strlen(key), e, err)) {
					pr_error_set(err, PR_E_USAGE,
						     "--meta-from-env: %s is not printable text of "
						     "at most %d bytes",
						     env_map[k][v], PR_RUN_META_VALUE_MAX);
					pr_cli_meta_release(m);
					return -1;
				}
				put(m, env_map[k][0], strlen(env_map[k][0]), e);
				break;
			}
		}
	}
	for (i = 0; i < n; i++) {
		const char *s = pr_opt_nth(cmd->opts, a, "meta", i), *eq = strchr(s, '=');
		int64_t ns;
		if (!eq) {
			pr_error_set(err, PR_E_USAGE, "--meta '%s': give KEY=VALUE", s);
			pr_cli_meta_release(m);
			return -1;
		}
		if (pr_run_meta_check(s, (size_t)(eq - s), eq + 1, err)) {
			pr_cli_meta_release(m);
			return -1;
		}
		if ((size_t)(eq - s) == 4 && !memcmp(s, "time", 4) &&
		    pr_cli_meta_time(eq + 1, &ns)) {
			pr_error_set(err, PR_E_USAGE,
				     "--meta time='%s': give seconds since 1970 or an ISO 8601 "
				     "date-time (2026-01-15T10:23:45Z)",
				     eq + 1);
			pr_cli_meta_release(m);
			return -1;
		}
		put(m, s, (size_t)(eq - s), eq + 1);
	}
	return 0;
}

void pr_cli_meta_release(struct pr_cli_meta *m)
{
	size_t i;
	for (i = 0; i < 2 * m->n; i++)
		free(m->kv[i]);
	free(m->kv);
	m->kv = NULL;
	m->n = 0;
}
