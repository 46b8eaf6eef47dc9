/*
 * scope_keys.h - the three scopes of gpu_breakdown.scopes (all, linked, steps) are one shape:
 * html_gpu.c and text_report.c read them by the names of "all", and the linked and steps
 * scopes' names must exist too, so a scope losing a key fails to compile (internal to render/).
 */
#ifndef PR_RENDER_SCOPE_KEYS_H
#define PR_RENDER_SCOPE_KEYS_H

#include "schema/model_keys.h"

#define PR_SCOPE_SAME(S, K)                                                                        \
	_Static_assert(sizeof(PRK_GPU_BREAKDOWN_SCOPES_##S##_##K) ==                               \
			       sizeof(PRK_GPU_BREAKDOWN_SCOPES_ALL_##K),                           \
		       "gpu_breakdown.scopes: " #S " has " #K)
PR_SCOPE_SAME(LINKED, OPS);
PR_SCOPE_SAME(LINKED, TOTAL_NS);
PR_SCOPE_SAME(LINKED, BUSY_NS);
PR_SCOPE_SAME(LINKED, BUSY_SHARE);
PR_SCOPE_SAME(LINKED, COMPUTATION_NS);
PR_SCOPE_SAME(LINKED, EXPOSED_MEMCPY_NS);
PR_SCOPE_SAME(LINKED, EXPOSED_COMM_NS);
PR_SCOPE_SAME(LINKED, IDLE_NS);
PR_SCOPE_SAME(STEPS, OPS);
PR_SCOPE_SAME(STEPS, TOTAL_NS);
PR_SCOPE_SAME(STEPS, BUSY_NS);
PR_SCOPE_SAME(STEPS, BUSY_SHARE);
PR_SCOPE_SAME(STEPS, COMPUTATION_NS);
PR_SCOPE_SAME(STEPS, EXPOSED_MEMCPY_NS);
PR_SCOPE_SAME(STEPS, EXPOSED_COMM_NS);
PR_SCOPE_SAME(STEPS, IDLE_NS);

#endif
