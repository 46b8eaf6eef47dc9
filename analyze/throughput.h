/*
 * throughput.h - the step-time statistics of an_throughput.c, shared with
 * an_gpubreak.c so that a run has one step time: where TensorBoard's step
 * breakdown extends the steps to the GPU work they launched, throughput.steps
 * is recomputed over those steps (an_gpubreak.c) and the host spans' figures
 * are kept beside them as throughput.steps.host.
 */
#ifndef PR_ANALYZE_THROUGHPUT_H
#define PR_ANALYZE_THROUGHPUT_H

#include <jansson.h>
#include <stddef.h>

struct pr_actx;
struct pr_aspan;

/*
 * {"name", "basis", "count", "total_ns", "mean_ns", ..., "stragglers", "list"}
 * of steps[0..n) (json null when n is 0); basis says how the steps were
 * measured. The caller owns the result.
 */
json_t *pr_throughput_steps(struct pr_actx *ctx, const struct pr_aspan *steps, size_t n,
			    const char *basis);
/* Publishes throughput.steps as it now is in the run's model (results.h): throughput's
 * run, then gpu_breakdown's after it replaced them. */
void pr_throughput_publish_steps(struct pr_actx *ctx);

#endif
