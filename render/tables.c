/*
 * tables.c - the model's tables as data (tables.h): one description per
 * table, read by the page (html_util.c) and the console (text_report.c).
 */
#include "render/tables.h"

#include <math.h>
#include <string.h>

#include "base/jsonx.h"
#include "base/pr_common.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

const json_t *pr_table_obj(const struct pr_table_col *c, const json_t *item)
{
	const json_t *o;
	if (!c->in)
		return item;
	o = json_object_get(item, c->in);
	return json_is_array(o) ? json_array_get(o, 0) : o;
}

const char *pr_table_key(const struct pr_table_col *c, const json_t *item)
{
	return c->alt && json_object_get(pr_table_obj(c, item), c->alt) ? c->alt : c->key;
}

double pr_table_num(const struct pr_table_col *c, const json_t *item)
{
	const json_t *o = pr_table_obj(c, item);
	double whole;
	if (c->shown && !c->shown(item))
		return NAN;
	if (c->kind != PR_COL_OF)
		return pr_mnum(o, pr_table_key(c, item));
	whole = pr_mnum(o, c->of);
	return whole > 0 ? 100 * pr_mnum(o, c->key) / whole : NAN;
}

const char *pr_table_str(const struct pr_table_col *c, const json_t *item)
{
	return pr_mstr(pr_table_obj(c, item), pr_table_key(c, item));
}

const char *pr_table_unit(const struct pr_table_col *c, const json_t *item, const char *unit)
{
	if (c->unit)
		return c->unit;
	if (c->unit_key)
		return pr_mstr(item, c->unit_key);
	return unit ? unit : "";
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
	{ .key = PRK_BOTTLENECKS_TOP_SELF_NAME,
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "name",
	  .con_pos = 1,
	  .con_width = 29,
	  .con_cut = 1 },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_KIND,
	  .head = "Kind",
	  .kind = PR_COL_LABEL,
	  .con_head = "kind",
	  .con_pos = 6,
	  .con_width = 8,
	  .con_cut = 1,
	  .con_label = kind_label },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_COUNT,
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 2,
	  .con_width = 6 },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_SELF_NS,
	  .head = "#Self",
	  .kind = PR_COL_VALUE,
	  .con_head = "self",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_TOTAL_NS,
	  .head = "#Total",
	  .kind = PR_COL_VALUE,
	  .con_head = "total",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_MEAN_NS,
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .con_head = "mean",
	  .con_pos = 5,
	  .con_width = 10 },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_MEDIAN_NS, .head = "#Median", .kind = PR_COL_VALUE },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_MIN_NS, .head = "#Min", .kind = PR_COL_VALUE },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_MAX_NS, .head = "#Max", .kind = PR_COL_VALUE },
	{ .key = PRK_BOTTLENECKS_TOP_SELF_STD_NS, .head = "#StdDev", .kind = PR_COL_VALUE },
};
const struct pr_table pr_table_spans = { "spans", spans_cols, PR_ARRAY_SIZE(spans_cols), 0, 0 };

static const struct pr_table_col gpu_ops_cols[] = {
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_NAME,
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "top GPU ops",
	  .con_pos = 1,
	  .con_width = 42,
	  .con_cut = 1 },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_TYPE, .head = "Type", .kind = PR_COL_TEXT },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_COUNT,
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 2,
	  .con_width = 6 },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_TOTAL_NS,
	  .head = "#Total",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "total",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_MEAN_NS,
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "mean",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_MEDIAN_NS,
	  .head = "#Median",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_MIN_NS,
	  .head = "#Min",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_MAX_NS,
	  .head = "#Max",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_TOP_SHARE,
	  .head = "#Share %",
	  .kind = PR_COL_SHARE,
	  .prec = 1,
	  .con_head = "share",
	  .con_pos = 5,
	  .con_width = 6 },
};
const struct pr_table pr_table_gpu_ops = { "gpu_ops", gpu_ops_cols, PR_ARRAY_SIZE(gpu_ops_cols), 5,
					   0 };

/* memory_ops.bytes: only ops that carry a size count (sized_count) */
static int memory_sized(const json_t *item)
{
	return pr_mnum(item, PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS_SIZED_COUNT) > 0;
}

static const struct pr_table_col memory_ops_cols[] = {
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS_DIRECTION,
	  .head = "Direction",
	  .kind = PR_COL_TEXT,
	  .con_head = "memcpy/memset",
	  .con_pos = 1,
	  .con_width = 20,
	  .con_cut = 1 },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS_COUNT,
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 2,
	  .con_width = 6 },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS_TIME_NS,
	  .head = "#Time",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS_BYTES,
	  .head = "#Bytes",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes",
	  .shown = memory_sized,
	  .con_head = "bytes",
	  .con_pos = 4,
	  .con_width = 12 },
	{ .key = PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS_BANDWIDTH_BPS,
	  .head = "#Bandwidth",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes_per_s",
	  .con_head = "bandwidth",
	  .con_pos = 5,
	  .con_width = 12 },
};
const struct pr_table pr_table_memory_ops = { "memory_ops", memory_ops_cols,
					      PR_ARRAY_SIZE(memory_ops_cols), 0, 0 };

/* A collective's sizes and bandwidths: only where its spans carry sizes (busbw_Bps). */
static int coll_sized(const json_t *item)
{
	return json_is_number(json_object_get(item, PRK_COLLECTIVES_ITEMS_BUSBW_BPS));
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
	{ .key = PRK_CRITICAL_PATH_TOP_OPS_NAME,
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "ops on the path",
	  .con_pos = 1,
	  .con_width = 50,
	  .con_cut = 1 },
	{ .key = PRK_CRITICAL_PATH_TOP_OPS_NS,
	  .head = "#On the path",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 2,
	  .con_width = 10 },
	{ .key = PRK_CRITICAL_PATH_TOP_OPS_SHARE,
	  .head = "#Share %",
	  .kind = PR_COL_SHARE,
	  .prec = 1,
	  .con_head = "share",
	  .con_pos = 3,
	  .con_width = 6 },
};
const struct pr_table pr_table_critpath_ops = { "critpath_ops", critpath_ops_cols,
						PR_ARRAY_SIZE(critpath_ops_cols), 5, 0 };

static const struct pr_table_col critpath_kernels_cols[] = {
	{ .key = PRK_CRITICAL_PATH_TOP_KERNELS_NAME,
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "kernels on the path",
	  .con_pos = 1,
	  .con_width = 50,
	  .con_cut = 1 },
	{ .key = PRK_CRITICAL_PATH_TOP_KERNELS_CLASS, .head = "Class", .kind = PR_COL_TEXT },
	{ .key = PRK_CRITICAL_PATH_TOP_KERNELS_NS,
	  .head = "#On the path",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 2,
	  .con_width = 10 },
	{ .key = PRK_CRITICAL_PATH_TOP_KERNELS_SHARE,
	  .head = "#Share %",
	  .kind = PR_COL_SHARE,
	  .prec = 1,
	  .con_head = "share",
	  .con_pos = 3,
	  .con_width = 6 },
};
const struct pr_table pr_table_critpath_kernels = { "critpath_kernels", critpath_kernels_cols,
						    PR_ARRAY_SIZE(critpath_kernels_cols), 5, 0 };

static const struct pr_table_col collectives_cols[] = {
	{ .key = PRK_COLLECTIVES_ITEMS_NAME,
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "name",
	  .con_pos = 1,
	  .con_width = 19,
	  .con_cut = 1 },
	{ .key = PRK_COLLECTIVES_ITEMS_LAYER,
	  .head = "Layer",
	  .kind = PR_COL_TEXT,
	  .con_head = "layer",
	  .con_pos = 2,
	  .con_width = 7,
	  .con_label = layer_label },
	{ .key = PRK_COLLECTIVES_ITEMS_CALLS,
	  .head = "#Calls",
	  .kind = PR_COL_COUNT,
	  .con_head = "calls",
	  .con_pos = 3,
	  .con_width = 5 },
	{ .key = PRK_COLLECTIVES_ITEMS_TIME_NS,
	  .head = "#Time",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = PRK_COLLECTIVES_ITEMS_BYTES_PER_CALL,
	  .head = "#Bytes per call",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes",
	  .shown = coll_sized,
	  .con_head = "per call",
	  .con_pos = 5,
	  .con_width = 10 },
	{ .key = PRK_COLLECTIVES_ITEMS_ALGBW_BPS,
	  .head = "#algbw",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes_per_s",
	  .shown = coll_sized,
	  .con_head = "algbw",
	  .con_pos = 6,
	  .con_width = 10 },
	{ .key = PRK_COLLECTIVES_ITEMS_BUSBW_BPS,
	  .head = "#busbw",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes_per_s",
	  .shown = coll_sized,
	  .con_head = "busbw",
	  .con_pos = 7,
	  .con_width = 10 },
};
const struct pr_table pr_table_collectives = { "collectives", collectives_cols,
					       PR_ARRAY_SIZE(collectives_cols), 0, 0 };

static const struct pr_table_col kernel_seqs_cols[] = {
	{ .key = PRK_GPU_KERNEL_SEQUENCES_ITEMS_LABEL,
	  .head = "Ops (else first activity)",
	  .kind = PR_COL_NAME,
	  .con_head = "kernel sequences (ops)",
	  .con_pos = 1,
	  .con_width = 36,
	  .con_cut = 1 },
	{ .key = PRK_GPU_KERNEL_SEQUENCES_ITEMS_STREAM,
	  .head = "Stream",
	  .kind = PR_COL_TEXT,
	  .con_head = "stream",
	  .con_pos = 2,
	  .con_width = 6,
	  .con_cut = 1 },
	{ .key = PRK_GPU_KERNEL_SEQUENCES_ITEMS_COUNT,
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 3,
	  .con_width = 5 },
	{ .key = PRK_GPU_KERNEL_SEQUENCES_ITEMS_LENGTH,
	  .head = "#Length",
	  .kind = PR_COL_COUNT,
	  .con_head = "len",
	  .con_pos = 4,
	  .con_width = 3 },
	{ .key = PRK_GPU_KERNEL_SEQUENCES_ITEMS_KERNEL_NS,
	  .head = "#Device time",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 5,
	  .con_width = 10 },
	{ .key = PRK_GPU_KERNEL_SEQUENCES_ITEMS_MEAN_NS,
	  .head = "#Per run",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_KERNEL_SEQUENCES_ITEMS_GAP_MEAN_NS,
	  .head = "#Gaps per run",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "gaps/run",
	  .con_pos = 6,
	  .con_width = 10 },
};
const struct pr_table pr_table_kernel_seqs = { "kernel_seqs", kernel_seqs_cols,
					       PR_ARRAY_SIZE(kernel_seqs_cols), 5, 0 };

/* ---- the tables of the page only (their columns have no con_head) ---- */

/* the console: the first 15 names (PHASE_NAMES), fitted as one column with the rest */
static const struct pr_table_col phase_totals_cols[] = {
	{ .key = PRK_PHASES_TOTALS_NAME,
	  .head = "Phase",
	  .kind = PR_COL_LABEL,
	  .con_head = "phase",
	  .con_pos = 1,
	  .con_width = 21,
	  .con_kind = PR_COL_NAME },
	{ .key = PRK_PHASES_TOTALS_COUNT,
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 2,
	  .con_width = 5 },
	{ .key = PRK_PHASES_TOTALS_TOTAL_NS,
	  .head = "#Total",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "total",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = PRK_PHASES_TOTALS_MEAN_NS,
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "mean",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = PRK_PHASES_TOTALS_P50_NS,
	  .head = "#P50",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "p50",
	  .con_pos = 5,
	  .con_width = 10 },
	{ .key = PRK_PHASES_TOTALS_P95_NS,
	  .head = "#P95",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "p95",
	  .con_pos = 6,
	  .con_width = 10 },
	{ .key = PRK_PHASES_TOTALS_MIN_NS, .head = "#Min", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = PRK_PHASES_TOTALS_MAX_NS, .head = "#Max", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = PRK_PHASES_TOTALS_SHARE,
	  .head = "#Share %",
	  .kind = PR_COL_SHARE,
	  .prec = 1,
	  .con_head = "share",
	  .con_pos = 7,
	  .con_width = 6 },
};
const struct pr_table pr_table_phase_totals = { "phase_totals", phase_totals_cols,
						PR_ARRAY_SIZE(phase_totals_cols), 15, 1 };

static const struct pr_table_col phase_occurrences_cols[] = {
	{ .head = "#", .kind = PR_COL_INDEX },
	{ .key = PRK_PHASES_OCCURRENCES_NAME, .head = "Phase", .kind = PR_COL_LABEL },
	{ .key = PRK_PHASES_OCCURRENCES_KIND, .head = "Kind", .kind = PR_COL_LABEL },
	{ .key = PRK_PHASES_OCCURRENCES_T_NS, .head = "#Start", .kind = PR_COL_VALUE },
	{ .key = PRK_PHASES_OCCURRENCES_DUR_NS, .head = "#Duration", .kind = PR_COL_VALUE },
	{ .key = PRK_PHASES_OCCURRENCES_SHARE,
	  .head = "#Share %",
	  .kind = PR_COL_SHARE,
	  .prec = 1 },
	{ .key = PRK_PHASES_OCCURRENCES_MEMORY_DELTA,
	  .head = "#Memory delta",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes",
	  .in = PRK_PHASES_OCCURRENCES_MEMORY },
	{ .key = PRK_PHASES_OCCURRENCES_MEMORY_SERIES,
	  .head = "Series",
	  .kind = PR_COL_LABEL,
	  .in = PRK_PHASES_OCCURRENCES_MEMORY },
	{ .key = PRK_PHASES_OCCURRENCES_MEMORY_PEAK,
	  .head = "#Peak inside",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes",
	  .in = PRK_PHASES_OCCURRENCES_MEMORY },
};
const struct pr_table pr_table_phase_occurrences = { "phase_occurrences", phase_occurrences_cols,
						     PR_ARRAY_SIZE(phase_occurrences_cols), 0, 0 };

/* the console: names cut to 28 bytes (the collector's stage names are short) */
static const struct pr_table_col phase_stages_cols[] = {
	{ .key = PRK_PHASES_STAGES_NAME,
	  .head = "Stage",
	  .kind = PR_COL_LABEL,
	  .con_head = "stage",
	  .con_pos = 1,
	  .con_width = 28,
	  .con_kind = PR_COL_DISPLAY },
	{ .key = PRK_PHASES_STAGES_COUNT,
	  .head = "#Calls",
	  .kind = PR_COL_COUNT,
	  .con_head = "calls",
	  .con_pos = 2,
	  .con_width = 6 },
	{ .key = PRK_PHASES_STAGES_TOTAL_NS,
	  .head = "#Total",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "total",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = PRK_PHASES_STAGES_MEAN_NS,
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "mean",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = PRK_PHASES_STAGES_SHARE_OF_WALL,
	  .head = "#Of wall %",
	  .kind = PR_COL_SHARE,
	  .prec = 1,
	  .con_head = "of wall",
	  .con_pos = 5,
	  .con_width = 8 },
	{ .key = PRK_PHASES_STAGES_REPORTED_PERCENTAGE,
	  .head = "#Inferix %",
	  .kind = PR_COL_PERCENT,
	  .prec = 1,
	  .con_head = "reported",
	  .con_pos = 6,
	  .con_width = 9 },
};
const struct pr_table pr_table_phase_stages = { "phase_stages", phase_stages_cols,
						PR_ARRAY_SIZE(phase_stages_cols), 0, 0 };

/* sadf: sar's interval-weighted mean (its Average: line) where there is one */
static const struct pr_table_col series_cols[] = {
	{ .key = PRK_SERIES_NAME, .head = "Series", .kind = PR_COL_LABEL },
	{ .key = PRK_SERIES_DEVICE, .head = "Device", .kind = PR_COL_LABEL },
	{ .key = PRK_SERIES_UNIT, .head = "Unit", .kind = PR_COL_LABEL },
	{ .key = PRK_SERIES_COUNT, .head = "#Samples", .kind = PR_COL_COUNT },
	{ .key = PRK_SERIES_MIN,
	  .head = "#Min",
	  .kind = PR_COL_VALUE,
	  .unit_key = PRK_SERIES_UNIT },
	{ .key = PRK_SERIES_MEAN,
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit_key = PRK_SERIES_UNIT,
	  .alt = PRK_SERIES_MEAN_WEIGHTED },
	{ .key = PRK_SERIES_MAX,
	  .head = "#Max",
	  .kind = PR_COL_VALUE,
	  .unit_key = PRK_SERIES_UNIT },
	{ .key = PRK_SERIES_T_MAX_NS, .head = "#Max at", .kind = PR_COL_XTIME },
	{ .key = PRK_SERIES_LAST,
	  .head = "#Last",
	  .kind = PR_COL_VALUE,
	  .unit_key = PRK_SERIES_UNIT },
};
const struct pr_table pr_table_series = { "series", series_cols, PR_ARRAY_SIZE(series_cols), 0, 0 };

/* the parts: percents of the step's dur_ns. The first row is step_breakdown.average, of the
 * steps' shape (html_gpu.c adds its name and gpu_util). */
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_DUR_NS) == sizeof(PRK_STEP_BREAKDOWN_STEPS_DUR_NS),
	       "step_breakdown.average.dur_ns");
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_KERNEL_NS) ==
		       sizeof(PRK_STEP_BREAKDOWN_STEPS_KERNEL_NS),
	       "step_breakdown.average.kernel_ns");
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_MEMCPY_NS) ==
		       sizeof(PRK_STEP_BREAKDOWN_STEPS_MEMCPY_NS),
	       "step_breakdown.average.memcpy_ns");
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_MEMSET_NS) ==
		       sizeof(PRK_STEP_BREAKDOWN_STEPS_MEMSET_NS),
	       "step_breakdown.average.memset_ns");
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_COMMUNICATION_NS) ==
		       sizeof(PRK_STEP_BREAKDOWN_STEPS_COMMUNICATION_NS),
	       "step_breakdown.average.communication_ns");
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_RUNTIME_NS) ==
		       sizeof(PRK_STEP_BREAKDOWN_STEPS_RUNTIME_NS),
	       "step_breakdown.average.runtime_ns");
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_DATALOADER_NS) ==
		       sizeof(PRK_STEP_BREAKDOWN_STEPS_DATALOADER_NS),
	       "step_breakdown.average.dataloader_ns");
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_CPU_EXEC_NS) ==
		       sizeof(PRK_STEP_BREAKDOWN_STEPS_CPU_EXEC_NS),
	       "step_breakdown.average.cpu_exec_ns");
_Static_assert(sizeof(PRK_STEP_BREAKDOWN_AVERAGE_OTHER_NS) ==
		       sizeof(PRK_STEP_BREAKDOWN_STEPS_OTHER_NS),
	       "step_breakdown.average.other_ns");

static const struct pr_table_col steps_cols[] = {
	{ .key = PRK_STEP_BREAKDOWN_STEPS_NAME, .head = "Step", .kind = PR_COL_LABEL },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_DUR_NS,
	  .head = "#Duration",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_KERNEL_NS,
	  .head = "#Kernel %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = PRK_STEP_BREAKDOWN_STEPS_DUR_NS },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_MEMCPY_NS,
	  .head = "#Memcpy %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = PRK_STEP_BREAKDOWN_STEPS_DUR_NS },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_MEMSET_NS,
	  .head = "#Memset %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = PRK_STEP_BREAKDOWN_STEPS_DUR_NS },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_COMMUNICATION_NS,
	  .head = "#Communication %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = PRK_STEP_BREAKDOWN_STEPS_DUR_NS },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_RUNTIME_NS,
	  .head = "#Runtime %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = PRK_STEP_BREAKDOWN_STEPS_DUR_NS },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_DATALOADER_NS,
	  .head = "#DataLoader %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = PRK_STEP_BREAKDOWN_STEPS_DUR_NS },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_CPU_EXEC_NS,
	  .head = "#CPU Exec %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = PRK_STEP_BREAKDOWN_STEPS_DUR_NS },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_OTHER_NS,
	  .head = "#Other %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = PRK_STEP_BREAKDOWN_STEPS_DUR_NS },
	{ .key = PRK_STEP_BREAKDOWN_STEPS_GPU_UTIL,
	  .head = "#GPU util %",
	  .kind = PR_COL_SHARE,
	  .prec = 1 },
};
const struct pr_table pr_table_steps = { "steps", steps_cols, PR_ARRAY_SIZE(steps_cols), 0, 0 };

/* the rows: gpu.launches.latency and .overhead, one shape (read by latency's names), each with
 * the "name" html_gpu.c gives it */
_Static_assert(sizeof(PRK_GPU_LAUNCHES_OVERHEAD_P50_NS) == sizeof(PRK_GPU_LAUNCHES_LATENCY_P50_NS),
	       "launches.overhead.p50_ns");
_Static_assert(sizeof(PRK_GPU_LAUNCHES_OVERHEAD_P95_NS) == sizeof(PRK_GPU_LAUNCHES_LATENCY_P95_NS),
	       "launches.overhead.p95_ns");
_Static_assert(sizeof(PRK_GPU_LAUNCHES_OVERHEAD_MEAN_NS) ==
		       sizeof(PRK_GPU_LAUNCHES_LATENCY_MEAN_NS),
	       "launches.overhead.mean_ns");
_Static_assert(sizeof(PRK_GPU_LAUNCHES_OVERHEAD_MIN_NS) == sizeof(PRK_GPU_LAUNCHES_LATENCY_MIN_NS),
	       "launches.overhead.min_ns");
_Static_assert(sizeof(PRK_GPU_LAUNCHES_OVERHEAD_MAX_NS) == sizeof(PRK_GPU_LAUNCHES_LATENCY_MAX_NS),
	       "launches.overhead.max_ns");
static const struct pr_table_col launches_cols[] = {
	{ .key = "name", .head = "Measure", .kind = PR_COL_LABEL }, /* keys: page data */
	{ .key = PRK_GPU_LAUNCHES_LATENCY_P50_NS,
	  .head = "#p50",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCHES_LATENCY_P95_NS,
	  .head = "#p95",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCHES_LATENCY_MEAN_NS,
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCHES_LATENCY_MIN_NS,
	  .head = "#Min",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCHES_LATENCY_MAX_NS,
	  .head = "#Max",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
};
const struct pr_table pr_table_launches = { "launches", launches_cols, PR_ARRAY_SIZE(launches_cols),
					    0, 0 };

static const struct pr_table_col launch_ops_cols[] = {
	{ .key = PRK_GPU_LAUNCH_DELAYS_BY_OP_NAME, .head = "Op", .kind = PR_COL_NAME },
	{ .key = PRK_GPU_LAUNCH_DELAYS_BY_OP_ACTIVITIES,
	  .head = "#Launches",
	  .kind = PR_COL_COUNT },
	{ .key = PRK_GPU_LAUNCH_DELAYS_BY_OP_DELAY_TOTAL_NS,
	  .head = "#Delay total",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCH_DELAYS_BY_OP_DELAY_MEAN_NS,
	  .head = "#Delay mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCH_DELAYS_BY_OP_DELAY_MAX_NS,
	  .head = "#Delay max",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCH_DELAYS_BY_OP_LATENCY_MEAN_NS,
	  .head = "#Latency mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCH_DELAYS_BY_OP_KERNELS_NAME,
	  .head = "Activity with most delay",
	  .kind = PR_COL_NAME,
	  .in = PRK_GPU_LAUNCH_DELAYS_BY_OP_KERNELS },
};
const struct pr_table pr_table_launch_ops = { "launch_ops", launch_ops_cols,
					      PR_ARRAY_SIZE(launch_ops_cols), 0, 0 };

static const struct pr_table_col launch_outliers_cols[] = {
	{ .key = PRK_GPU_LAUNCH_DELAYS_OUTLIERS_NAME, .head = "Activity", .kind = PR_COL_NAME },
	{ .key = PRK_GPU_LAUNCH_DELAYS_OUTLIERS_CALL, .head = "Call", .kind = PR_COL_NAME },
	{ .key = PRK_GPU_LAUNCH_DELAYS_OUTLIERS_OP, .head = "Op", .kind = PR_COL_NAME },
	{ .key = PRK_GPU_LAUNCH_DELAYS_OUTLIERS_T_NS,
	  .head = "#Start",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCH_DELAYS_OUTLIERS_CPU_NS,
	  .head = "#CPU",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCH_DELAYS_OUTLIERS_GPU_NS,
	  .head = "#GPU",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
	{ .key = PRK_GPU_LAUNCH_DELAYS_OUTLIERS_DELAY_NS,
	  .head = "#Delay",
	  .kind = PR_COL_VALUE,
	  .unit = "ns" },
};
const struct pr_table pr_table_launch_outliers = { "launch_outliers", launch_outliers_cols,
						   PR_ARRAY_SIZE(launch_outliers_cols), 0, 0 };

static const struct pr_table_col cupti_ops_cols[] = {
	{ .key = PRK_CUPTI_RANGES_BY_OP_OP,
	  .head = "Op (nearest above the launch)",
	  .kind = PR_COL_TEXT,
	  .con_head = "op (nearest above the launch)",
	  .con_pos = 1,
	  .con_width = 36,
	  .con_kind = PR_COL_NAME },
	{ .key = PRK_CUPTI_RANGES_BY_OP_RANGES,
	  .head = "#Ranges",
	  .kind = PR_COL_COUNT,
	  .con_head = "ranges",
	  .con_pos = 2,
	  .con_width = 7 },
	{ .key = PRK_CUPTI_RANGES_BY_OP_FLOPS,
	  .head = "#FLOPs",
	  .kind = PR_COL_NUMBER,
	  .prec = 0,
	  .con_head = "FLOPs",
	  .con_pos = 3,
	  .con_width = 14,
	  .con_prec = -1 },
};
const struct pr_table pr_table_cupti_ops = { "cupti_ops", cupti_ops_cols,
					     PR_ARRAY_SIZE(cupti_ops_cols), 10, 0 };
