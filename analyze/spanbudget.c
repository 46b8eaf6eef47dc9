/*
 * spanbudget.c - the shared span pass's budgets (spanbudget.h): apart from
 * spanstat.c so that the modules the pass feeds (flame's tree) read them
 * without calling back into the pass.
 */
#include "analyze/spanbudget.h"

#include "base/env.h"

size_t pr_spanstat_keep_max = (size_t)4 << 20;
size_t pr_spanstat_groups_max = PR_MAX_NAMES_DEFAULT;
size_t pr_spanstat_sp_max = PR_MAX_STEPS_DEFAULT;

int pr_spanstat_budgets(struct pr_error *err)
{
	if (pr_env_number(PR_MAX_NAMES_ENV, PR_MAX_NAMES_DEFAULT, 1, PR_MAX_COUNT_MAX, 0,
			  &pr_spanstat_groups_max, err))
		return -1;
	return pr_env_number(PR_MAX_STEPS_ENV, PR_MAX_STEPS_DEFAULT, 1, PR_MAX_COUNT_MAX, 0,
			     &pr_spanstat_sp_max, err);
}
size_t pr_spanstat_rec_mem = (size_t)1 << 20;
size_t pr_spanstat_dev_mem = (size_t)2 << 20;
