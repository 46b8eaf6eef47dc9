/*
 * kclass.c - the one classification of device kernels: one table of name
 * rules per device family (kclass.h says what each rule is and why).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/kclass.h"

const char *const pr_kclass_names[PR_KC_N] = { "compute", "communication", "memory" };
const char *const pr_klib_names[PR_KL_N] = { "",      "nccl",	 "rccl",   "gloo",
					     "msccl", "nvshmem", "deepep", "user" };

enum match {
	M_PREFIX, /* the name, after an optional "void ", starts with pat */
	M_SUB,	  /* contains pat */
	M_SUBCI,  /* contains pat, any case (pat in lower case) */
	M_DEEPEP, /* DeepEP's communication kernels (kclass.h) */
	M_USER	  /* --comm-kernels */
};

#define F_ALL (PR_KF_UNKNOWN | PR_KF_CUDA | PR_KF_ROCM | PR_KF_MTIA)

/* The table: the first row whose families include the run's and whose pattern matches wins. */
static const struct rule {
	unsigned char match;
	const char *pat;
	unsigned char cls, lib;
	int families;
} rules[] = {
	{ M_PREFIX, "nccl", PR_KC_COMM, PR_KL_NCCL, F_ALL }, /* HTA; RCCL keeps NCCL's names */
	{ M_PREFIX, "rccl", PR_KC_COMM, PR_KL_RCCL, F_ALL },
	{ M_SUB, "gloo:", PR_KC_COMM, PR_KL_GLOO, F_ALL }, /* HTA */
	{ M_SUBCI, "msccl", PR_KC_COMM, PR_KL_MSCCL, F_ALL },
	{ M_SUBCI, "nvshmem", PR_KC_COMM, PR_KL_NVSHMEM, F_ALL },
	{ M_DEEPEP, NULL, PR_KC_COMM, PR_KL_DEEPEP, F_ALL },
	{ M_USER, NULL, PR_KC_COMM, PR_KL_USER, F_ALL },
	{ M_SUB, "Memcpy", PR_KC_MEMORY, PR_KL_NONE, F_ALL }, /* HTA */
	{ M_SUB, "Memset", PR_KC_MEMORY, PR_KL_NONE, F_ALL },
	{ M_PREFIX, "dma", PR_KC_MEMORY, PR_KL_NONE, PR_KF_MTIA | PR_KF_UNKNOWN }, /* HTA ^dma */
};

int pr_kclass_has_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle);
	for (; *s; s++) {
		size_t i;
		for (i = 0; i < n; i++) {
			char c = s[i];
			if (!c || (c >= 'A' && c <= 'Z' ? c + 32 : c) != needle[i])
				break;
		}
		if (i == n)
			return 1;
	}
	return 0;
}

static int matches(const struct rule *r, const struct pr_kclassify *kc, const char *name)
{
	const char *b = !strncmp(name, "void ", 5) ? name + 5 : name;
	switch (r->match) {
	case M_PREFIX:
		return !strncmp(b, r->pat, strlen(r->pat));
	case M_SUB:
		return strstr(name, r->pat) != NULL;
	case M_SUBCI:
		return pr_kclass_has_ci(name, r->pat);
	case M_DEEPEP:
		return (strstr(name, "deep_ep::") || strstr(name, "dpsk::ep::")) &&
		       !strstr(name, "layout") &&
		       (strstr(name, "dispatch") || strstr(name, "combine") ||
			strstr(name, "notify"));
	default:
		return kc && kc->has_re && regexec(&kc->re, name, 0, NULL, 0) == 0;
	}
}

int pr_kclass_of(const struct pr_kclassify *kc, const char *name, int *lib)
{
	int family = kc ? kc->family : PR_KF_UNKNOWN;
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(rules); i++)
		if ((rules[i].families & family) && matches(&rules[i], kc, name)) {
			if (lib)
				*lib = rules[i].lib;
			return rules[i].cls;
		}
	if (lib)
		*lib = PR_KL_NONE;
	return PR_KC_COMPUTE;
}

int pr_kclass_is_collective(const char *name)
{
	static const char *const pats[] = { "nccl",	      "c10d",	       "allreduce",
					    "all_reduce",     "all_gather",    "allgather",
					    "reduce_scatter", "reducescatter", "broadcast",
					    "alltoall",	      "all_to_all" };
	size_t i;
	int lib;
	const char *py = strstr(name, ".py(");
	/* a Python frame, "FILE.py(LINE): FUNC", by its function alone: distributed_c10d.py's
	 * is_initialized or default_pg are not collectives, its all_reduce is */
	if (py && (py = strstr(py, "): ")))
		name = py + 3;
	if (pr_kclass_of(NULL, name, &lib) == PR_KC_COMM)
		return 1;
	for (i = 0; i < PR_ARRAY_SIZE(pats); i++)
		if (pr_kclass_has_ci(name, pats[i]))
			return 1;
	return 0;
}

const char *pr_kfamily_name(int family)
{
	switch (family) {
	case PR_KF_CUDA:
		return "cuda";
	case PR_KF_ROCM:
		return "rocm";
	case PR_KF_MTIA:
		return "mtia";
	default:
		return "unknown";
	}
}

static int family_of(const json_t *meta)
{
	const json_t *props = meta ? json_object_get(meta, "deviceProperties") : NULL;
	const json_t *di = meta ? json_object_get(meta, "distributedInfo") : NULL;
	const char *backend = json_string_value(json_object_get(di, "backend"));
	const char *dt = meta ? json_string_value(json_object_get(meta, "device_type")) : NULL;
	int family = PR_KF_UNKNOWN;
	size_t i;
	json_t *d;
	/* the ingest's device_type (docs/formats.md: mtia from mtia_runtime/mtia_ccp_events) */
	if ((dt && strstr(dt, "mtia")) || (backend && pr_kclass_has_ci(backend, "mtia")))
		return PR_KF_MTIA;
	if (dt && strstr(dt, "rocm"))
		return PR_KF_ROCM;
	if (dt && strstr(dt, "cuda"))
		family = PR_KF_CUDA;
	json_array_foreach (props, i, d) {
		const char *name = json_string_value(json_object_get(d, "name"));
		if (!name)
			continue;
		if (pr_kclass_has_ci(name, "mtia"))
			return PR_KF_MTIA;
		if (strstr(name, "AMD") || strstr(name, "Radeon") || strstr(name, "Instinct"))
			family = PR_KF_ROCM;
		else if (family == PR_KF_UNKNOWN)
			family = PR_KF_CUDA;
	}
	return family;
}

int pr_kclassify_init(struct pr_kclassify *kc, const json_t *meta, const char *comm_re,
		      struct pr_error *err)
{
	memset(kc, 0, sizeof(*kc));
	kc->family = family_of(meta);
	if (comm_re && *comm_re) {
		int e = regcomp(&kc->re, comm_re, REG_EXTENDED | REG_NOSUB);
		if (e) {
			char msg[256];
			regerror(e, &kc->re, msg, sizeof(msg));
			return pr_error_set(err, PR_E_USAGE, "--comm-kernels '%s': %s", comm_re,
					    msg);
		}
		kc->has_re = 1;
	}
	return 0;
}

void pr_kclassify_release(struct pr_kclassify *kc)
{
	if (kc->has_re)
		regfree(&kc->re);
	kc->has_re = 0;
}
