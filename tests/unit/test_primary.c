/*
 * test_primary.c - analyze/primary.c: the labels of series names and the order of a run's
 * memory series (the primary series first), checked against the table written out by hand
 * in docs/analysis.md ("primary series and labels").
 */
#include "tests/unit/helpers.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/primary.h"

static void label_is(const char *name, const char *device, const char *want)
{
	char *l = pr_series_label(name, device);
	assert_string_equal(l, want);
	free(l);
}

static void test_labels(void **state)
{
	(void)state;
	label_is("sys.mem.used", "", "Used memory");
	label_is("mem.rss", "", "Process RSS");
	label_is("heap.used", "", "Heap used");
	label_is("dev.mem.allocated", "cuda:0", "GPU allocated");
	label_is("dev.mem.reserved", "cuda:1", "GPU reserved");
	/* torch's allocator on the host: the same names on device "cpu" */
	label_is("dev.mem.allocated", "cpu", "CPU allocated");
	label_is("dev.mem.category.autograd_detail", "", "Autograd detail");
	label_is("dev.mem.category.x", "", "X");
	/* the prefix alone, and names the table lacks, stay as they are */
	label_is("dev.mem.category.", "", "dev.mem.category.");
	label_is("inferix.block.memory_usage", "", "inferix.block.memory_usage");
	label_is("", "", "");
}

static void test_order(void **state)
{
	/* names in byte order, as the driver loads them; one name on two devices */
	static const struct {
		const char *name, *device;
		double max;
		int memory;
	} in[] = {
		{ "dev.mem.allocated", "cpu", 8, 1 },
		{ "dev.mem.allocated", "cuda:1", 6e9, 1 },
		{ "dev.mem.category.gradient", "", 5, 1 },
		{ "heap.extra", "", 616, 1 },
		{ "mem.rss", "", 1, 1 },
		{ "sys.mem.buffers", "", 4e7, 1 },
		{ "sys.mem.total", "", 2e10, 0 },
		{ "sys.mem.used", "", 2e10, 1 },
		{ "zzz", "", 1, 1 },
		{ "mem.vms", "", 0, 1 },
		{ "dev.mem.category.activation", "", 2, 1 },
		{ "aaa", "", 0.5, 1 },
	};
	struct pr_aseries s[PR_ARRAY_SIZE(in)];
	static const char *const want[] = {
		"dev.mem.allocated cuda:1", "dev.mem.allocated cpu", "mem.rss ", "sys.mem.used ",
		"heap.extra ", "sys.mem.buffers ",
		/* categories, then unknown names, by peak */
		"dev.mem.category.gradient ", "dev.mem.category.activation ", "zzz ", "aaa ",
		"mem.vms " /* 0 B throughout: last */
	};
	struct pr_actx ctx;
	size_t *order, n, i;
	char buf[80];
	(void)state;
	memset(s, 0, sizeof(s));
	for (i = 0; i < PR_ARRAY_SIZE(in); i++) {
		s[i].name = strdup(in[i].name);
		s[i].device = strdup(in[i].device);
		s[i].max = in[i].max;
		s[i].count = 1;
		s[i].memory = in[i].memory;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.series = s;
	ctx.nseries = PR_ARRAY_SIZE(s);
	n = pr_series_order(&ctx, &order);
	assert_int_equal(n, PR_ARRAY_SIZE(want)); /* sys.mem.total is no memory held */
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%s %s", s[order[i]].name, s[order[i]].device);
		assert_string_equal(buf, want[i]);
	}
	free(order);
	for (i = 0; i < PR_ARRAY_SIZE(in); i++) {
		free(s[i].name);
		free(s[i].device);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
