/*
 * opkern.h - the gpu analysis' (an_gpulink.c) share of the operator and
 * kernel views (internal to analyze/).
 *
 * USAGE (in the gpu analysis, after the links are made)
 *   struct pr_opk *k = pr_opk_new(ctx, &err);
 *   row = pr_opk_op_row(k, name, akeys, args, n);  per op span met (-1: no op view)
 *   pr_opk_op_dev(k, row, self, dur);            per activity and op above its call
 *   pr_opk_kernel(k, name_id, op_name_id, &lp, dur, bps, occ);   per kernel
 *   pr_opk_finish(k, &err);   device columns into "op_view", "kernel_view" into the run
 *   pr_opk_free(k);
 *
 * Operator view: the rows are op_view's (an_ops.c), looked up by key; an op
 * span whose key is not among them (the view folded it) is charged to its
 * "(other ops)" row. Kernel view: rows per (kernel name, launching op =
 * nearest op ancestor of its runtime call, grid, block, registers per
 * thread, shared memory), TensorBoard's "Kernel Properties + Op Name".
 *
 * MEMORY: per op_view row 24 bytes and its key; per distinct kernel row
 * about 150 bytes, at most KV_KEEP rows (past it, kernels of new rows are
 * summed into one row, stated as "folded").
 */
#ifndef PR_OPKERN_H
#define PR_OPKERN_H

#include <stdint.h>

#include "analyze/actx.h"
#include "analyze/gpuscan.h"

struct pr_opk;

struct pr_opk *pr_opk_new(struct pr_actx *ctx, struct pr_error *err); /* NULL on error */
/* The row of an op span: its name, args_keys (< 0: none) and args text. */
int32_t pr_opk_op_row(struct pr_opk *k, const char *name, int64_t akeys, const char *args,
		      size_t alen);
/* An activity of duration dur under op row `row` (>= 0): self (nearest op) or total. */
void pr_opk_op_dev(struct pr_opk *k, int32_t row, int self, int64_t dur);
void pr_opk_kernel(struct pr_opk *k, int64_t name_id, int64_t op_name_id,
		   const struct pr_launch *lp, int64_t dur, double bps, double occ);
int pr_opk_finish(struct pr_opk *k, struct pr_error *err) PR_MUST_CHECK;
void pr_opk_free(struct pr_opk *k);

/* TensorBoard's rules (tb_plugin profiler/tensor_core.py): a kernel name using Tensor Cores,
 * an op name eligible for them. */
int pr_tc_kernel(const char *name);
int pr_tc_op(const char *name);

#endif
