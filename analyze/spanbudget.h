/*
 * spanbudget.h - the budgets of the shared span pass (spanstat.h), in a
 * module of their own: the pass and the modules it feeds read them, and
 * none of those calls back (internal to analyze/).
 */
#ifndef PR_SPANBUDGET_H
#define PR_SPANBUDGET_H

#include <stddef.h>

#include "base/error.h"

/* The device activities' sort buffer (default 2 MiB: 128 Ki activities; tests lower it). */
extern size_t pr_spanstat_dev_mem;
/*
 * The budgets that keep the pass's memory bounded whatever the run (issue 30):
 * distinct (name, kind) groups (about 200 bytes each), and steps and phases
 * handed to the context (about 300 bytes each with what the analyses keep
 * per step). Past the first, a span of a new name counts in one group per
 * kind named PR_SPANSTAT_OVER_NAME (name id -1); past the second, later
 * steps or phases (in id order) are left out of the context. Defaults
 * 131 072 names and 65 536 steps and phases; PROFREPORT_MAX_NAMES and
 * PROFREPORT_MAX_STEPS raise them
 * (pr_spanstat_budgets, read by the model for each build).
 */
#define PR_SPANSTAT_OVER_NAME "(other names)"
extern size_t pr_spanstat_groups_max, pr_spanstat_sp_max;
int pr_spanstat_budgets(struct pr_error *err) PR_MUST_CHECK;
/* Durations the second pass keeps for medians (default 4 Mi); beyond it no
 * group gets durs and bottlenecks sorts in SQLite (tests lower it). */
extern size_t pr_spanstat_keep_max;
/* Bytes of the second pass's stream held in memory before it goes to a scratch file
 * (default 1 MiB: about 50 000 spans; tests lower it). */
extern size_t pr_spanstat_rec_mem;

#endif
