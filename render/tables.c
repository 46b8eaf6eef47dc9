/*
 * tables.c - the model's tables as data (tables.h): one description per
 * table, read by the page (html_util.c) and the console (text_report.c).
 */
#include "render/tables.h"

#include <math.h>
#include <string.h>

#include "base/jsonx.h"
#include "base/pr_common.h"

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
	{ .key = "name",
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "name",
	  .con_pos = 1,
	  .con_width = 29,
	  .con_cut = 1 },
	{ .key = "kind",
	  .head = "Kind",
	  .kind = PR_COL_LABEL,
	  .con_head = "kind",
	  .con_pos = 6,
	  .con_width = 8,
	  .con_cut = 1,
	  .con_label = kind_label },
	{ .key = "count",
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 2,
	  .con_width = 6 },
	{ .key = "self_ns",
	  .head = "#Self",
	  .kind = PR_COL_VALUE,
	  .con_head = "self",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = "total_ns",
	  .head = "#Total",
	  .kind = PR_COL_VALUE,
	  .con_head = "total",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = "mean_ns",
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .con_head = "mean",
	  .con_pos = 5,
	  .con_width = 10 },
	{ .key = "median_ns", .head = "#Median", .kind = PR_COL_VALUE },
	{ .key = "min_ns", .head = "#Min", .kind = PR_COL_VALUE },
	{ .key = "max_ns", .head = "#Max", .kind = PR_COL_VALUE },
	{ .key = "std_ns", .head = "#StdDev", .kind = PR_COL_VALUE },
};
const struct pr_table pr_table_spans = { "spans", spans_cols, PR_ARRAY_SIZE(spans_cols), 0, 0 };

static const struct pr_table_col gpu_ops_cols[] = {
	{ .key = "name",
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "top GPU ops",
	  .con_pos = 1,
	  .con_width = 42,
	  .con_cut = 1 },
	{ .key = "type", .head = "Type", .kind = PR_COL_TEXT },
	{ .key = "count",
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 2,
	  .con_width = 6 },
	{ .key = "total_ns",
	  .head = "#Total",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "total",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = "mean_ns",
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "mean",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = "median_ns", .head = "#Median", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "min_ns", .head = "#Min", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "max_ns", .head = "#Max", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "share",
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
	return pr_mnum(item, "sized_count") > 0;
}

static const struct pr_table_col memory_ops_cols[] = {
	{ .key = "direction",
	  .head = "Direction",
	  .kind = PR_COL_TEXT,
	  .con_head = "memcpy/memset",
	  .con_pos = 1,
	  .con_width = 20,
	  .con_cut = 1 },
	{ .key = "count",
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 2,
	  .con_width = 6 },
	{ .key = "time_ns",
	  .head = "#Time",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = "bytes",
	  .head = "#Bytes",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes",
	  .shown = memory_sized,
	  .con_head = "bytes",
	  .con_pos = 4,
	  .con_width = 12 },
	{ .key = "bandwidth_Bps",
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
	{ .key = "name",
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "ops on the path",
	  .con_pos = 1,
	  .con_width = 50,
	  .con_cut = 1 },
	{ .key = "ns",
	  .head = "#On the path",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 2,
	  .con_width = 10 },
	{ .key = "share",
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
	{ .key = "name",
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "kernels on the path",
	  .con_pos = 1,
	  .con_width = 50,
	  .con_cut = 1 },
	{ .key = "class", .head = "Class", .kind = PR_COL_TEXT },
	{ .key = "ns",
	  .head = "#On the path",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 2,
	  .con_width = 10 },
	{ .key = "share",
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
	{ .key = "name",
	  .head = "Name",
	  .kind = PR_COL_NAME,
	  .con_head = "name",
	  .con_pos = 1,
	  .con_width = 19,
	  .con_cut = 1 },
	{ .key = "layer",
	  .head = "Layer",
	  .kind = PR_COL_TEXT,
	  .con_head = "layer",
	  .con_pos = 2,
	  .con_width = 7,
	  .con_label = layer_label },
	{ .key = "calls",
	  .head = "#Calls",
	  .kind = PR_COL_COUNT,
	  .con_head = "calls",
	  .con_pos = 3,
	  .con_width = 5 },
	{ .key = "time_ns",
	  .head = "#Time",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = "bytes_per_call",
	  .head = "#Bytes per call",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes",
	  .shown = coll_sized,
	  .con_head = "per call",
	  .con_pos = 5,
	  .con_width = 10 },
	{ .key = "algbw_Bps",
	  .head = "#algbw",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes_per_s",
	  .shown = coll_sized,
	  .con_head = "algbw",
	  .con_pos = 6,
	  .con_width = 10 },
	{ .key = "busbw_Bps",
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
	{ .key = "label",
	  .head = "Ops (else first activity)",
	  .kind = PR_COL_NAME,
	  .con_head = "kernel sequences (ops)",
	  .con_pos = 1,
	  .con_width = 36,
	  .con_cut = 1 },
	{ .key = "stream",
	  .head = "Stream",
	  .kind = PR_COL_TEXT,
	  .con_head = "stream",
	  .con_pos = 2,
	  .con_width = 6,
	  .con_cut = 1 },
	{ .key = "count",
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 3,
	  .con_width = 5 },
	{ .key = "length",
	  .head = "#Length",
	  .kind = PR_COL_COUNT,
	  .con_head = "len",
	  .con_pos = 4,
	  .con_width = 3 },
	{ .key = "kernel_ns",
	  .head = "#Device time",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "time",
	  .con_pos = 5,
	  .con_width = 10 },
	{ .key = "mean_ns", .head = "#Per run", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "gap_mean_ns",
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
	{ .key = "name",
	  .head = "Phase",
	  .kind = PR_COL_LABEL,
	  .con_head = "phase",
	  .con_pos = 1,
	  .con_width = 21,
	  .con_kind = PR_COL_NAME },
	{ .key = "count",
	  .head = "#Count",
	  .kind = PR_COL_COUNT,
	  .con_head = "count",
	  .con_pos = 2,
	  .con_width = 5 },
	{ .key = "total_ns",
	  .head = "#Total",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "total",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = "mean_ns",
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "mean",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = "p50_ns",
	  .head = "#P50",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "p50",
	  .con_pos = 5,
	  .con_width = 10 },
	{ .key = "p95_ns",
	  .head = "#P95",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "p95",
	  .con_pos = 6,
	  .con_width = 10 },
	{ .key = "min_ns", .head = "#Min", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "max_ns", .head = "#Max", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "share",
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
	{ .key = "name", .head = "Phase", .kind = PR_COL_LABEL },
	{ .key = "kind", .head = "Kind", .kind = PR_COL_LABEL },
	{ .key = "t_ns", .head = "#Start", .kind = PR_COL_VALUE },
	{ .key = "dur_ns", .head = "#Duration", .kind = PR_COL_VALUE },
	{ .key = "share", .head = "#Share %", .kind = PR_COL_SHARE, .prec = 1 },
	{ .key = "delta",
	  .head = "#Memory delta",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes",
	  .in = "memory" },
	{ .key = "series", .head = "Series", .kind = PR_COL_LABEL, .in = "memory" },
	{ .key = "peak",
	  .head = "#Peak inside",
	  .kind = PR_COL_VALUE,
	  .unit = "bytes",
	  .in = "memory" },
};
const struct pr_table pr_table_phase_occurrences = { "phase_occurrences", phase_occurrences_cols,
						     PR_ARRAY_SIZE(phase_occurrences_cols), 0, 0 };

/* the console: names cut to 28 bytes (the collector's stage names are short) */
static const struct pr_table_col phase_stages_cols[] = {
	{ .key = "name",
	  .head = "Stage",
	  .kind = PR_COL_LABEL,
	  .con_head = "stage",
	  .con_pos = 1,
	  .con_width = 28,
	  .con_kind = PR_COL_DISPLAY },
	{ .key = "count",
	  .head = "#Calls",
	  .kind = PR_COL_COUNT,
	  .con_head = "calls",
	  .con_pos = 2,
	  .con_width = 6 },
	{ .key = "total_ns",
	  .head = "#Total",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "total",
	  .con_pos = 3,
	  .con_width = 10 },
	{ .key = "mean_ns",
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit = "ns",
	  .con_head = "mean",
	  .con_pos = 4,
	  .con_width = 10 },
	{ .key = "share_of_wall",
	  .head = "#Of wall %",
	  .kind = PR_COL_SHARE,
	  .prec = 1,
	  .con_head = "of wall",
	  .con_pos = 5,
	  .con_width = 8 },
	{ .key = "reported_percentage",
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
	{ .key = "name", .head = "Series", .kind = PR_COL_LABEL },
	{ .key = "device", .head = "Device", .kind = PR_COL_LABEL },
	{ .key = "unit", .head = "Unit", .kind = PR_COL_LABEL },
	{ .key = "count", .head = "#Samples", .kind = PR_COL_COUNT },
	{ .key = "min", .head = "#Min", .kind = PR_COL_VALUE, .unit_key = "unit" },
	{ .key = "mean",
	  .head = "#Mean",
	  .kind = PR_COL_VALUE,
	  .unit_key = "unit",
	  .alt = "mean_weighted" },
	{ .key = "max", .head = "#Max", .kind = PR_COL_VALUE, .unit_key = "unit" },
	{ .key = "t_max_ns", .head = "#Max at", .kind = PR_COL_XTIME },
	{ .key = "last", .head = "#Last", .kind = PR_COL_VALUE, .unit_key = "unit" },
};
const struct pr_table pr_table_series = { "series", series_cols, PR_ARRAY_SIZE(series_cols), 0, 0 };

/* the parts: percents of the step's dur_ns */
static const struct pr_table_col steps_cols[] = {
	{ .key = "name", .head = "Step", .kind = PR_COL_LABEL },
	{ .key = "dur_ns", .head = "#Duration", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "kernel_ns", .head = "#Kernel %", .kind = PR_COL_OF, .prec = 1, .of = "dur_ns" },
	{ .key = "memcpy_ns", .head = "#Memcpy %", .kind = PR_COL_OF, .prec = 1, .of = "dur_ns" },
	{ .key = "memset_ns", .head = "#Memset %", .kind = PR_COL_OF, .prec = 1, .of = "dur_ns" },
	{ .key = "communication_ns",
	  .head = "#Communication %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = "dur_ns" },
	{ .key = "runtime_ns", .head = "#Runtime %", .kind = PR_COL_OF, .prec = 1, .of = "dur_ns" },
	{ .key = "dataloader_ns",
	  .head = "#DataLoader %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = "dur_ns" },
	{ .key = "cpu_exec_ns",
	  .head = "#CPU Exec %",
	  .kind = PR_COL_OF,
	  .prec = 1,
	  .of = "dur_ns" },
	{ .key = "other_ns", .head = "#Other %", .kind = PR_COL_OF, .prec = 1, .of = "dur_ns" },
	{ .key = "gpu_util", .head = "#GPU util %", .kind = PR_COL_SHARE, .prec = 1 },
};
const struct pr_table pr_table_steps = { "steps", steps_cols, PR_ARRAY_SIZE(steps_cols), 0, 0 };

static const struct pr_table_col launches_cols[] = {
	{ .key = "name", .head = "Measure", .kind = PR_COL_LABEL },
	{ .key = "p50_ns", .head = "#p50", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "p95_ns", .head = "#p95", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "mean_ns", .head = "#Mean", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "min_ns", .head = "#Min", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "max_ns", .head = "#Max", .kind = PR_COL_VALUE, .unit = "ns" },
};
const struct pr_table pr_table_launches = { "launches", launches_cols, PR_ARRAY_SIZE(launches_cols),
					    0, 0 };

static const struct pr_table_col launch_ops_cols[] = {
	{ .key = "name", .head = "Op", .kind = PR_COL_NAME },
	{ .key = "activities", .head = "#Launches", .kind = PR_COL_COUNT },
	{ .key = "delay_total_ns", .head = "#Delay total", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "delay_mean_ns", .head = "#Delay mean", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "delay_max_ns", .head = "#Delay max", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "latency_mean_ns", .head = "#Latency mean", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "name", .head = "Activity with most delay", .kind = PR_COL_NAME, .in = "kernels" },
};
const struct pr_table pr_table_launch_ops = { "launch_ops", launch_ops_cols,
					      PR_ARRAY_SIZE(launch_ops_cols), 0, 0 };

static const struct pr_table_col launch_outliers_cols[] = {
	{ .key = "name", .head = "Activity", .kind = PR_COL_NAME },
	{ .key = "call", .head = "Call", .kind = PR_COL_NAME },
	{ .key = "op", .head = "Op", .kind = PR_COL_NAME },
	{ .key = "t_ns", .head = "#Start", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "cpu_ns", .head = "#CPU", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "gpu_ns", .head = "#GPU", .kind = PR_COL_VALUE, .unit = "ns" },
	{ .key = "delay_ns", .head = "#Delay", .kind = PR_COL_VALUE, .unit = "ns" },
};
const struct pr_table pr_table_launch_outliers = { "launch_outliers", launch_outliers_cols,
						   PR_ARRAY_SIZE(launch_outliers_cols), 0, 0 };

static const struct pr_table_col cupti_ops_cols[] = {
	{ .key = "op",
	  .head = "Op (nearest above the launch)",
	  .kind = PR_COL_TEXT,
	  .con_head = "op (nearest above the launch)",
	  .con_pos = 1,
	  .con_width = 36,
	  .con_kind = PR_COL_NAME },
	{ .key = "ranges",
	  .head = "#Ranges",
	  .kind = PR_COL_COUNT,
	  .con_head = "ranges",
	  .con_pos = 2,
	  .con_width = 7 },
	{ .key = "flops",
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
