/*
 * tables.c - the model's tables as data (tables.h): one description per
 * table, read by the page (html_util.c) and the console (text_report.c).
 */
#include "render/tables.h"

#include <math.h>
#include <string.h>

#include "base/jsonx.h"
#include "base/pr_common.h"

double pr_table_num(const struct pr_table_col *c, const json_t *item)
{
	if (c->shown && !c->shown(item))
		return NAN;
	return pr_mnum(item, c->key);
}

const char *pr_table_unit(const struct pr_table_col *c, const char *unit)
{
	return c->unit ? c->unit : unit ? unit : "";
}

/* A span kind in at most 8 columns. */
static const char *kind_label(const char *kind)
{
	if (!strcmp(kind, "gpu_annotation"))
		return "gpu ann";
	if (!strcmp(kind, "cpu_annotation"))
		return "cpu ann";
	return kind;
}

static const struct pr_table_col spans_cols[] = {
	{ "name", "Name", PR_COL_NAME, NULL, 0, NULL, "name", 1, 29, 1, NULL },
	{ "kind", "Kind", PR_COL_LABEL, NULL, 0, NULL, "kind", 6, 8, 1, kind_label },
	{ "count", "#Count", PR_COL_COUNT, NULL, 0, NULL, "count", 2, 6, 0, NULL },
	{ "self_ns", "#Self", PR_COL_VALUE, NULL, 0, NULL, "self", 3, 10, 0, NULL },
	{ "total_ns", "#Total", PR_COL_VALUE, NULL, 0, NULL, "total", 4, 10, 0, NULL },
	{ "mean_ns", "#Mean", PR_COL_VALUE, NULL, 0, NULL, "mean", 5, 10, 0, NULL },
	{ "median_ns", "#Median", PR_COL_VALUE, NULL, 0, NULL, NULL, 0, 0, 0, NULL },
	{ "min_ns", "#Min", PR_COL_VALUE, NULL, 0, NULL, NULL, 0, 0, 0, NULL },
	{ "max_ns", "#Max", PR_COL_VALUE, NULL, 0, NULL, NULL, 0, 0, 0, NULL },
	{ "std_ns", "#StdDev", PR_COL_VALUE, NULL, 0, NULL, NULL, 0, 0, 0, NULL },
};
const struct pr_table pr_table_spans = { "spans", spans_cols, PR_ARRAY_SIZE(spans_cols), 0 };

static const struct pr_table_col gpu_ops_cols[] = {
	{ "name", "Name", PR_COL_NAME, NULL, 0, NULL, "top GPU ops", 1, 42, 1, NULL },
	{ "type", "Type", PR_COL_TEXT, NULL, 0, NULL, NULL, 0, 0, 0, NULL },
	{ "count", "#Count", PR_COL_COUNT, NULL, 0, NULL, "count", 2, 6, 0, NULL },
	{ "total_ns", "#Total", PR_COL_VALUE, "ns", 0, NULL, "total", 3, 10, 0, NULL },
	{ "mean_ns", "#Mean", PR_COL_VALUE, "ns", 0, NULL, "mean", 4, 10, 0, NULL },
	{ "median_ns", "#Median", PR_COL_VALUE, "ns", 0, NULL, NULL, 0, 0, 0, NULL },
	{ "min_ns", "#Min", PR_COL_VALUE, "ns", 0, NULL, NULL, 0, 0, 0, NULL },
	{ "max_ns", "#Max", PR_COL_VALUE, "ns", 0, NULL, NULL, 0, 0, 0, NULL },
	{ "share", "#Share %", PR_COL_SHARE, NULL, 1, NULL, "share", 5, 6, 0, NULL },
};
const struct pr_table pr_table_gpu_ops = { "gpu_ops", gpu_ops_cols, PR_ARRAY_SIZE(gpu_ops_cols),
					   5 };

/* memory_ops.bytes: only ops that carry a size count (sized_count) */
static int memory_sized(const json_t *item)
{
	return pr_mnum(item, "sized_count") > 0;
}

static const struct pr_table_col memory_ops_cols[] = {
	{ "direction", "Direction", PR_COL_TEXT, NULL, 0, NULL, "memcpy/memset", 1, 20, 1, NULL },
	{ "count", "#Count", PR_COL_COUNT, NULL, 0, NULL, "count", 2, 6, 0, NULL },
	{ "time_ns", "#Time", PR_COL_VALUE, "ns", 0, NULL, "time", 3, 10, 0, NULL },
	{ "bytes", "#Bytes", PR_COL_VALUE, "bytes", 0, memory_sized, "bytes", 4, 12, 0, NULL },
	{ "bandwidth_Bps", "#Bandwidth", PR_COL_VALUE, "bytes_per_s", 0, NULL, "bandwidth", 5, 12,
	  0, NULL },
};
const struct pr_table pr_table_memory_ops = { "memory_ops", memory_ops_cols,
					      PR_ARRAY_SIZE(memory_ops_cols), 0 };

/* A collective's sizes and bandwidths: only where its spans carry sizes (busbw_Bps). */
static int coll_sized(const json_t *item)
{
	return json_is_number(json_object_get(item, "busbw_Bps"));
}

/* A collective's layer in 7 columns: the CPU annotation, c10d op, GPU annotation or NCCL
 * kernel of one call. */
static const char *layer_label(const char *layer)
{
	if (!strcmp(layer, "cpu_annotation"))
		return "cpu ann";
	if (!strcmp(layer, "cpu_op"))
		return "cpu op";
	if (!strcmp(layer, "gpu_annotation"))
		return "gpu ann";
	if (!strcmp(layer, "gpu_kernel"))
		return "kernel";
	return *layer ? layer : "-";
}

static const struct pr_table_col critpath_ops_cols[] = {
	{ "name", "Name", PR_COL_NAME, NULL, 0, NULL, "ops on the path", 1, 50, 1, NULL },
	{ "ns", "#On the path", PR_COL_VALUE, "ns", 0, NULL, "time", 2, 10, 0, NULL },
	{ "share", "#Share %", PR_COL_SHARE, NULL, 1, NULL, "share", 3, 6, 0, NULL },
};
const struct pr_table pr_table_critpath_ops = { "critpath_ops", critpath_ops_cols,
						PR_ARRAY_SIZE(critpath_ops_cols), 5 };

static const struct pr_table_col critpath_kernels_cols[] = {
	{ "name", "Name", PR_COL_NAME, NULL, 0, NULL, "kernels on the path", 1, 50, 1, NULL },
	{ "class", "Class", PR_COL_TEXT, NULL, 0, NULL, NULL, 0, 0, 0, NULL },
	{ "ns", "#On the path", PR_COL_VALUE, "ns", 0, NULL, "time", 2, 10, 0, NULL },
	{ "share", "#Share %", PR_COL_SHARE, NULL, 1, NULL, "share", 3, 6, 0, NULL },
};
const struct pr_table pr_table_critpath_kernels = { "critpath_kernels", critpath_kernels_cols,
						    PR_ARRAY_SIZE(critpath_kernels_cols), 5 };

static const struct pr_table_col collectives_cols[] = {
	{ "name", "Name", PR_COL_NAME, NULL, 0, NULL, "name", 1, 19, 1, NULL },
	{ "layer", "Layer", PR_COL_TEXT, NULL, 0, NULL, "layer", 2, 7, 0, layer_label },
	{ "calls", "#Calls", PR_COL_COUNT, NULL, 0, NULL, "calls", 3, 5, 0, NULL },
	{ "time_ns", "#Time", PR_COL_VALUE, "ns", 0, NULL, "time", 4, 10, 0, NULL },
	{ "bytes_per_call", "#Bytes per call", PR_COL_VALUE, "bytes", 0, coll_sized, "per call", 5,
	  10, 0, NULL },
	{ "algbw_Bps", "#algbw", PR_COL_VALUE, "bytes_per_s", 0, coll_sized, "algbw", 6, 10, 0,
	  NULL },
	{ "busbw_Bps", "#busbw", PR_COL_VALUE, "bytes_per_s", 0, coll_sized, "busbw", 7, 10, 0,
	  NULL },
};
const struct pr_table pr_table_collectives = { "collectives", collectives_cols,
					       PR_ARRAY_SIZE(collectives_cols), 0 };

static const struct pr_table_col kernel_seqs_cols[] = {
	{ "label", "Ops (else first activity)", PR_COL_NAME, NULL, 0, NULL,
	  "kernel sequences (ops)", 1, 36, 1, NULL },
	{ "stream", "Stream", PR_COL_TEXT, NULL, 0, NULL, "stream", 2, 6, 1, NULL },
	{ "count", "#Count", PR_COL_COUNT, NULL, 0, NULL, "count", 3, 5, 0, NULL },
	{ "length", "#Length", PR_COL_COUNT, NULL, 0, NULL, "len", 4, 3, 0, NULL },
	{ "kernel_ns", "#Device time", PR_COL_VALUE, "ns", 0, NULL, "time", 5, 10, 0, NULL },
	{ "mean_ns", "#Per run", PR_COL_VALUE, "ns", 0, NULL, NULL, 0, 0, 0, NULL },
	{ "gap_mean_ns", "#Gaps per run", PR_COL_VALUE, "ns", 0, NULL, "gaps/run", 6, 10, 0, NULL },
};
const struct pr_table pr_table_kernel_seqs = { "kernel_seqs", kernel_seqs_cols,
					       PR_ARRAY_SIZE(kernel_seqs_cols), 5 };
