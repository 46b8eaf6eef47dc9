/*
 * kclass.h - the one classification of device kernels (internal to analyze/).
 *
 * Every analysis that splits GPU time into compute, communication and
 * memory (gpu_breakdown, the step breakdown's Communication role, the
 * recommendations' NCCL share, the aggregate's and collectives' names)
 * asks here, so that a kernel has one class everywhere. The class comes
 * from one table of name rules (kclass.c), each valid for a set of device
 * families; the first rule that matches wins, compute when none does:
 *
 *   communication  nccl... / rccl... (after "void "), "gloo:", msccl,
 *                  nvshmem (any case), DeepEP's dispatch/combine/notify
 *                  (not its layout kernel), then --comm-kernels REGEX;
 *   memory         names containing Memcpy or Memset; names starting with
 *                  "dma" on MTIA (HTA's MEMORY_KERNEL_RE ^dma) and on a
 *                  run whose device is unknown (HTA applies it to every
 *                  trace; a known NVIDIA or AMD device keeps it compute).
 *
 * The device family is read once from the run's metadata: device_type
 * (the ingest's, docs/formats.md: mtia from mtia_runtime/mtia_ccp_events
 * categories, rocm, cuda), a deviceProperties entry or distributedInfo
 * "backend" naming MTIA: mtia; device_type rocm or an AMD/Radeon/Instinct
 * device: rocm; device_type cuda or any other deviceProperties entry:
 * cuda; none of these: unknown.
 *
 * USAGE
 *   struct pr_kclassify kc;
 *   if (pr_kclassify_init(&kc, ctx->meta, ctx->opts->comm_kernels, &err)) ...
 *   int lib, cls = pr_kclass_of(&kc, name, &lib);
 *   pr_kclassify_release(&kc);
 */
#ifndef PR_KCLASS_H
#define PR_KCLASS_H

#include <jansson.h>
#include <regex.h>

#include "base/error.h"
#include "base/pr_common.h"

enum pr_kclass {
	PR_KC_COMPUTE,
	PR_KC_COMM,
	PR_KC_MEMORY,
	PR_KC_N
};
extern const char *const pr_kclass_names[PR_KC_N]; /* compute, communication, memory */

/* The collective library of a communication kernel (PR_KL_NONE: not one). */
enum pr_klib {
	PR_KL_NONE,
	PR_KL_NCCL,
	PR_KL_RCCL,
	PR_KL_GLOO,
	PR_KL_MSCCL,
	PR_KL_NVSHMEM,
	PR_KL_DEEPEP,
	PR_KL_USER, /* --comm-kernels */
	PR_KL_N
};
extern const char *const pr_klib_names[PR_KL_N]; /* "", nccl, rccl, ..., user */

enum pr_kfamily {
	PR_KF_UNKNOWN = 1,
	PR_KF_CUDA = 2,
	PR_KF_ROCM = 4,
	PR_KF_MTIA = 8
};

struct pr_kclassify {
	int family; /* enum pr_kfamily */
	regex_t re;
	int has_re;
};

/* The family from meta (NULL: unknown) and the user's pattern (NULL or "": none). A bad
 * pattern is a PR_E_USAGE error "--comm-kernels 'RE': why". */
int pr_kclassify_init(struct pr_kclassify *kc, const json_t *meta, const char *comm_re,
		      struct pr_error *err) PR_MUST_CHECK;
void pr_kclassify_release(struct pr_kclassify *kc);
/* "cuda", "rocm", "mtia" or "unknown". */
const char *pr_kfamily_name(int family);
/* The class of a kernel's name, and its library in *lib (may be NULL). */
int pr_kclass_of(const struct pr_kclassify *kc, const char *name, int *lib);
/*
 * A span name (CPU or GPU) that looks like a collective: a communication
 * kernel by the table's built-in rules, or a name containing (any case)
 * nccl, c10d, allreduce, all_reduce, all_gather, allgather, reduce_scatter,
 * reducescatter, broadcast, alltoall or all_to_all.
 */
int pr_kclass_is_collective(const char *name);

/* 1 when s contains needle (lower case) in any case: the rules' substring match. */
int pr_kclass_has_ci(const char *s, const char *needle);

#endif
