/*
 * opmerge.h - TensorBoard's merge of an op into a same-name parent
 * (tb_plugin profiler/op_tree.py, remove_dup_nodes, after torch's
 * EventList._remove_dup_nodes): an op span whose parent is an op of the
 * same name, and is that parent's only child (runtime calls and device
 * activities aside), is one call with its parent. The operator views
 * (op_view, gpu.ops, kernel_view's launching op) count the pair once: the
 * parent's call, duration and shapes; the two self times summed; the
 * child's launches as the parent's own.
 */
#ifndef PR_OPMERGE_H
#define PR_OPMERGE_H

#include <stdint.h>

#include "base/imap.h"
#include "base/error.h"

struct pr_actx;

struct pr_opmerge {
	struct pr_imap child;  /* absorbed op's span id -> its parent's (the op it merges into) */
	struct pr_imap parent; /* that parent's span id -> the absorbed op's */
	struct pr_imap top;    /* absorbed op's span id -> the top of its chain (not absorbed) */
	int64_t n;	       /* absorbed ops */
	/* per name: the absorbed ops' number and durations (by_name: name id -> index) */
	struct pr_imap by_name;
	int64_t *name_calls, *name_dur;
	size_t nnames;
};

/* The run's merges (found once, kept in ctx until the run's model is built); NULL with err. */
const struct pr_opmerge *pr_opmerge_get(struct pr_actx *ctx, struct pr_error *err);
/* 1 when span id is an absorbed op. */
int pr_opmerge_absorbed(const struct pr_opmerge *m, int64_t id);
/* 1 when span id has absorbed its only child (so a span of a counted kind below it is that
 * child). */
int pr_opmerge_absorber(const struct pr_opmerge *m, int64_t id);
/* The op an absorbed op's time goes to: its parent, or higher while that is absorbed too;
 * id itself when not absorbed. */
int64_t pr_opmerge_top(const struct pr_opmerge *m, int64_t id);
/* The absorbed ops of name id: their number (0 for none) and *dur their summed durations. */
int64_t pr_opmerge_name(const struct pr_opmerge *m, int64_t name_id, int64_t *dur);
void pr_opmerge_free(struct pr_opmerge *m);

#endif
