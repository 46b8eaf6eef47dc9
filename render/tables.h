/*
 * tables.h - the model's tables as data (issue 31): each table drawn both on
 * the HTML page (html_util.c: pr_html_table) and on the console (text_report.c)
 * is described once here, column by column: the item's key, its heading on
 * either output, its kind (how a value is read and shown), its unit and its
 * console width. Each output draws every described table with one loop.
 *
 * USAGE
 *   pr_html_table(sb, &pr_table_memory_ops, items, NULL);   (html_util.h)
 *   text_table(out, &pr_table_memory_ops, items, NULL, NULL);  (text_report.c)
 *   a cut page table, times on the run's x axis: struct pr_table_ctx x = { 0 }; x.run = run;
 *   x.cap = PR_HTML_ROWS; pr_html_table_ctx(sb, &pr_table_series, items, &x);
 * A table whose columns have no con_head is on the page only (the console has lines of its
 * own there, not yet described).
 *
 * What is around a table (its heading, when it is drawn at all, notes under
 * it) stays with each renderer: the two outputs say different things there.
 */
#ifndef PR_TABLES_H
#define PR_TABLES_H

#include <stddef.h>

#include <jansson.h>

enum pr_col_kind {
	PR_COL_SAME,  /* con_kind only: the console's kind is the page's */
	PR_COL_NAME,  /* a trace's name: one fitted column of display names (names.h) */
	PR_COL_LABEL, /* a word shown as a name cell on the page; console: con_label, cut */
	PR_COL_TEXT,  /* a short text: a plain cell; console: elided at its end (cut) or not */
	PR_COL_COUNT, /* a number without decimals */
	PR_COL_VALUE, /* a number in the column's unit (NULL: the table's unit argument) */
	PR_COL_SHARE, /* a share 0..1 shown as a percent with prec decimals; absent "-" */
	/* (the page only, so far: a table whose columns have no con_head) */
	PR_COL_INDEX,  /* the row's number, from 1 (no key) */
	PR_COL_NUMBER, /* a number with prec decimals (prec < 0: 6 significant digits) */
	PR_COL_XTIME,  /* a time on the run's x axis (panels.h: pr_fmt_x) */
	PR_COL_OF,     /* the value as a percent of the item's key `of` (prec decimals; "-" at 0) */
	PR_COL_PERCENT, /* a number that is a percent already, prec decimals */
	/* (a console kind only) */
	PR_COL_DISPLAY /* a trace's name alone, its display form cut to the width (names.h) */
};

/* Whether a column of kind k is a word (left-aligned on the console) rather than a number. */
#define PR_COL_IS_TEXT(k) ((k) <= PR_COL_TEXT || (k) == PR_COL_DISPLAY)

struct pr_table_col {
	const char *key;  /* the item's key */
	const char *head; /* the page's heading ('#': a numeric column) */
	enum pr_col_kind kind;
	const char *unit; /* PR_COL_VALUE: "ns", "bytes", "bytes_per_s"; NULL: the argument's */
	int prec;	  /* PR_COL_SHARE: the decimals */
	/* 0: the value is shown; else "-" (on both outputs) where shown(item) is 0 */
	int (*shown)(const json_t *item);
	/* the console: the heading (NULL: the column is not on the console), its place
	 * (1 = first), its width (names and texts left-aligned, numbers right-aligned),
	 * whether a longer text is cut to the width, and a label for a word (NULL: as is) */
	const char *con_head;
	int con_pos;
	int con_width;
	int con_cut;
	const char *(*con_label)(const char *word);
	/* where the value is: in the item's object `in` (an array: its first element) rather
	 * than the item; the item's key `alt` instead of key where the item has it; the unit
	 * the item's key `unit_key` names (VALUE); the key of the whole for PR_COL_OF */
	const char *in, *alt, *unit_key, *of;
	/* the console's kind where it differs from the page's (PR_COL_SAME: the page's), and its
	 * decimals for a PR_COL_NUMBER (< 0: 6 significant digits) */
	enum pr_col_kind con_kind;
	int con_prec;
};

/* The kind of column c on the console. */
#define PR_TABLE_CON_KIND(c) ((c)->con_kind ? (c)->con_kind : (c)->kind)

#define PR_TABLE_COLS 16 /* columns of a table at most */

struct pr_table {
	const char *name; /* for messages and docs: "spans", "gpu_ops", ... */
	const struct pr_table_col *cols;
	size_t ncols;
	size_t con_rows; /* rows on the console at most (0: every row); the page shows all */
	int con_fit_all; /* the console's name column fitted over every item, not the rows shown */
};

/* How a table is drawn besides its items (zero: every row, the unit of each column its own). */
struct pr_table_ctx {
	const char *unit;   /* the unit of VALUE columns without their own */
	const json_t *run;  /* XTIME columns: the run whose x axis they are on */
	size_t cap;	    /* rows shown at most (0: every row) */
	size_t total;	    /* rows there are, when more than the items (a cut list) */
	const char *all_in; /* where a cut table has all rows (NULL: "the JSON model") */
};

/* The object column c reads of item: item, or its `in` (the first element of an array). */
const json_t *pr_table_obj(const struct pr_table_col *c, const json_t *item);
/* The key column c reads of item: `alt` where the item has it, else key. */
const char *pr_table_key(const struct pr_table_col *c, const json_t *item);
/* The value of column c of item as a number (NaN where not shown or absent). */
double pr_table_num(const struct pr_table_col *c, const json_t *item);
/* The text of column c of item ("" where absent). */
const char *pr_table_str(const struct pr_table_col *c, const json_t *item);
/* The unit of column c: its own, else the one its unit_key names, else the unit argument. */
const char *pr_table_unit(const struct pr_table_col *c, const json_t *item, const char *unit);

/* bottlenecks.top_self: the spans (or DHAT's frames) by self time, in the run's span unit. */
extern const struct pr_table pr_table_spans;
/* gpu_breakdown.kernels.top: the GPU ops by total time. */
extern const struct pr_table pr_table_gpu_ops;
/* gpu_breakdown.kernels.memory_ops: memcpy and memset by direction. */
extern const struct pr_table pr_table_memory_ops;
/* collectives.items: time, bytes per call and nccl-tests' bandwidths. */
extern const struct pr_table pr_table_collectives;
/* critical_path.top_ops and top_kernels: time on the analysed steps' paths and its share. */
extern const struct pr_table pr_table_critpath_ops;
extern const struct pr_table pr_table_critpath_kernels;
/* gpu.kernel_sequences.items: the repeated runs of activities on a stream, by device time. */
extern const struct pr_table pr_table_kernel_seqs;
/* phases.totals: the phases by name; phases.occurrences: each in time order (times on the
 * run's x axis: the ctx's unit), with its first memory series' delta and peak inside;
 * phases.stages: the collector's aggregates (Inferix). */
extern const struct pr_table pr_table_phase_totals;
extern const struct pr_table pr_table_phase_occurrences;
extern const struct pr_table pr_table_phase_stages; /* also on the console */
/* series: each sampled series, values in its own unit (the time of its max on the x axis). */
extern const struct pr_table pr_table_series;
/* step_breakdown: a step's time by TensorBoard's categories, as percents of its duration
 * (rows: the average, then the steps; each with "name" and "gpu_util" set). */
extern const struct pr_table pr_table_steps;
/* gpu.launches: latency and overhead (rows: those objects, each with "name" set). */
extern const struct pr_table pr_table_launches;
/* gpu.launch_delays.by_op and .outliers (HTA's kernel launch statistics). */
extern const struct pr_table pr_table_launch_ops;
extern const struct pr_table pr_table_launch_outliers;
/* cupti_ranges.by_op: ranges and FLOPs per op; the counters' columns follow on the page
 * (html_gpu.c); the console: the first 10 ops, their names fitted, FLOPs to 6 digits. */
extern const struct pr_table pr_table_cupti_ops;

#endif
