/*
 * primary.c - which memory series speaks first, and what a person calls it.
 *
 * One table decides, for every kind of run, the order of the memory series
 * on the cards, in the peaks list, in each phase's memory deltas and in the
 * console report: a torch/GPU run's device allocated then reserved, a GPU
 * sampler's used memory, a process sampler's RSS, a heap profiler's heap
 * used, a system sampler's used memory, then their companions; then a torch
 * memory timeline's categories, then the names the table lacks, each group
 * by peak (highest first, then by name); a series that stays at 0 (the
 * store's max) after all of them. Within one name the device with the
 * highest peak comes first (the busiest GPU), then by device. The primary
 * series is the first of that order that ever rises above zero: a series
 * that stays at 0 B says nothing and is never a peak.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/primary.h"
#include "base/xalloc.h"

static const struct {
	const char *name, *label;
} table[] = {
	/* the primary quantity of each kind of run, most specific first */
	{ "dev.mem.allocated", "GPU allocated" },
	{ "dev.mem.reserved", "GPU reserved" },
	{ "dev.mem.total", "Total (all categories)" },
	{ "gpu.mem.used", "GPU memory used" },
	{ "mem.rss", "Process RSS" },
	{ "heap.used", "Heap used" },
	{ "sys.mem.used", "Used memory" },
	/* their companions */
	{ "dev.mem.active", "GPU active" },
	{ "gpu.mem.reserved", "GPU memory reserved" },
	{ "mem.vms", "Process virtual memory" },
	{ "heap.extra", "Heap overhead" },
	{ "massif.total", "Heap + overhead + stacks" },
	{ "stack.used", "Stack used" },
	{ "sys.mem.cached", "Page cache" },
	{ "sys.mem.buffers", "Buffers" },
	{ "sys.mem.active", "Active memory" },
	{ "sys.mem.inactive", "Inactive memory" },
	{ "sys.mem.anon", "Anonymous memory" },
	{ "sys.mem.commit", "Committed memory" },
	{ "sys.mem.dirty", "Dirty pages" },
	{ "sys.mem.slab", "Kernel slab" },
	{ "sys.mem.kstack", "Kernel stacks" },
	{ "sys.mem.pagetables", "Page tables" },
	{ "sys.mem.vmalloc", "vmalloc" },
	{ "sys.swap.used", "Swap used" },
	{ "sys.swap.cached", "Swap cached" },
	/* not memory held, labelled for the cards and tables that show them */
	{ "sys.mem.total", "Total memory" },
	{ "sys.mem.free", "Free memory" },
	{ "sys.mem.available", "Available memory" },
	{ "sys.swap.total", "Swap total" },
	{ "sys.swap.free", "Swap free" },
	{ "gpu.mem.total", "GPU memory total" },
	{ "gpu.mem.free", "GPU memory free" },
	{ "cpu.util", "CPU utilization" },
	{ "gpu.util", "GPU utilization" },
	{ "gpu.power", "GPU power" },
	{ "gpu.temp", "GPU temperature" },
};

#define CATEGORY "dev.mem.category."

static size_t table_index(const char *name)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(table); i++)
		if (!strcmp(table[i].name, name))
			return i;
	return PR_ARRAY_SIZE(table);
}

char *pr_series_label(const char *name, const char *device)
{
	size_t i = table_index(name), k;
	char *s;
	if (i < PR_ARRAY_SIZE(table)) {
		s = pr_xstrdup(table[i].label);
		/* torch's allocator counts host memory on device "cpu" under the same names */
		if (!strncmp(name, "dev.mem.", 8) && !strncmp(s, "GPU", 3) && device &&
		    !strncmp(device, "cpu", 3))
			memcpy(s, "CPU", 3);
		return s;
	}
	if (strncmp(name, CATEGORY, strlen(CATEGORY)) || !name[strlen(CATEGORY)])
		return pr_xstrdup(name);
	/* a torch memory timeline's category: "autograd_detail" -> "Autograd detail" */
	s = pr_xstrdup(name + strlen(CATEGORY));
	for (k = 0; s[k]; k++)
		if (s[k] == '_')
			s[k] = ' ';
	s[0] = (char)toupper((unsigned char)s[0]);
	return s;
}

json_t *pr_series_label_json(const char *name, const char *device)
{
	char *s = pr_series_label(name, device);
	json_t *j = json_string(s);
	free(s);
	return j;
}

/* Sort key: the table's position (categories after the table, unknown names last). */
static size_t rank(const char *name)
{
	size_t i = table_index(name);
	if (i < PR_ARRAY_SIZE(table))
		return i;
	return PR_ARRAY_SIZE(table) + (strncmp(name, CATEGORY, strlen(CATEGORY)) != 0);
}

struct item {
	const struct pr_aseries *s;
	size_t i;
};

static int cmp_series(const void *pa, const void *pb)
{
	const struct pr_aseries *a = ((const struct item *)pa)->s;
	const struct pr_aseries *b = ((const struct item *)pb)->s;
	size_t ra = rank(a->name), rb = rank(b->name);
	int za = !(a->count > 0 && a->max > 0), zb = !(b->count > 0 && b->max > 0), c;
	if (za != zb)
		return za - zb; /* a series that stays at 0 after those that do not */
	if (ra != rb)
		return ra < rb ? -1 : 1;
	/* one name's devices, and the categories or unknown names among them: by peak */
	if (a->max != b->max && (ra >= PR_ARRAY_SIZE(table) || !strcmp(a->name, b->name)))
		return a->max > b->max ? -1 : 1;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c;
	return strcmp(a->device, b->device);
}

size_t pr_series_order(const struct pr_actx *ctx, size_t **out)
{
	size_t i, n = 0, *v = pr_xcalloc(ctx->nseries + 1, sizeof(*v));
	struct item *it = pr_xcalloc(ctx->nseries + 1, sizeof(*it));
	for (i = 0; i < ctx->nseries; i++)
		if (ctx->series[i].memory)
			it[n++] = (struct item){ &ctx->series[i], i };
	qsort(it, n, sizeof(*it), cmp_series);
	for (i = 0; i < n; i++)
		v[i] = it[i].i;
	free(it);
	*out = v;
	return n;
}

const char *const pr_series_order_rule =
	"memory series in this order: device allocated, reserved, a torch memory timeline's "
	"total, a GPU sampler's used memory, process RSS, heap used, system used memory, then "
	"their companions (virtual memory, heap overhead, stack, cache, buffers, swap, ...), then "
	"memory categories, then other names, each by peak, highest first; one name's devices by "
	"peak, highest first; the primary series is the first that rises above 0; a series that "
	"never does comes last and has no peak";
