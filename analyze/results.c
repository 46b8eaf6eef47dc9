/*
 * results.c - the analyzers' published results (results.h): made absent on
 * first use, released with the analysis context.
 */
#include <math.h>
#include <stdlib.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "base/xalloc.h"

static void absent(struct pr_results *r)
{
	struct pr_res_throughput *t = &r->throughput;
	struct pr_res_bottlenecks *b = &r->bottlenecks;
	struct pr_res_gpubreak *g = &r->gpubreak;
	struct pr_res_gpulink *l = &r->gpulink;
	t->blocks_count = t->blocks_frames = t->blocks_first_ns = t->blocks_fps = t->blocks_bps =
		NAN;
	t->diffusion_steps = t->diffusion_steps_per_s = t->diffusion_frames_per_s = NAN;
	t->tokens_per_s = t->steps_p50_ns = NAN;
	t->steps_rule = "";
	b->pressure_zones = b->stages_rule = b->stages_basis = b->gpu_kernels_rule = "";
	b->idle_share = b->gaps_over_500ms = b->max_gap_ns = b->chunks = b->chunks_under_50pct =
		NAN;
	g->rank_communication_share = g->rank_idle_share = NAN;
	g->overlap_share = g->overlap_communication_ns = g->overlap_overlapped_ns = NAN;
	g->idle_host_wait_share = g->idle_host_wait_ns = g->idle_kernel_wait_share = NAN;
	g->step_dur_ns = g->step_kernel_ns = g->step_memcpy_ns = g->step_dataloader_ns =
		g->step_communication_ns = NAN;
	g->overlap_rule = g->idle_rule = "";
	l->short_rule = "";
	l->short_kernels = l->short_of_linked = l->short_device_ns = l->short_launch_ns = NAN;
	r->leaks.rule = "";
}

struct pr_results *pr_results(struct pr_actx *ctx)
{
	if (!ctx->res) {
		ctx->res = pr_xcalloc(1, sizeof(*ctx->res));
		absent(ctx->res);
	}
	return ctx->res;
}

void *pr_res_array(size_t n, size_t size)
{
	return pr_xcalloc(n + 1, size);
}

void pr_results_free(struct pr_results *r)
{
	if (!r)
		return;
	free(r->phases.occ);
	free(r->phases.stages);
	free(r->phases.totals);
	free(r->peaks.v);
	free(r->fragmentation.v);
	free(r->throughput.sections);
	free(r->throughput.x_median);
	free(r->bottlenecks.pressure);
	free(r->bottlenecks.gpu_util);
	free(r->bottlenecks.stages);
	free(r->leaks.v);
	free(r);
}
