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
 *
 * What is around a table (its heading, when it is drawn at all, notes under
 * it) stays with each renderer: the two outputs say different things there.
 */
#ifndef PR_TABLES_H
#define PR_TABLES_H

#include <stddef.h>

#include <jansson.h>

enum pr_col_kind {
	PR_COL_NAME,  /* a trace's name: one fitted column of display names (names.h) */
	PR_COL_LABEL, /* a word shown as a name cell on the page; console: con_label, cut */
	PR_COL_TEXT,  /* a short text: a plain cell; console: elided at its end (cut) or not */
	PR_COL_COUNT, /* a number without decimals */
	PR_COL_VALUE, /* a number in the column's unit (NULL: the table's unit argument) */
	PR_COL_SHARE  /* a share 0..1 shown as a percent with prec decimals; absent "-" */
};

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
};

#define PR_TABLE_COLS 16 /* columns of a table at most */

struct pr_table {
	const char *name; /* for messages and docs: "spans", "gpu_ops", ... */
	const struct pr_table_col *cols;
	size_t ncols;
	size_t con_rows; /* rows on the console at most (0: every row); the page shows all */
};

/* The value of column c of item as a number (NaN where not shown or absent). */
double pr_table_num(const struct pr_table_col *c, const json_t *item);
/* The unit of column c: its own, else the table's unit argument. */
const char *pr_table_unit(const struct pr_table_col *c, const char *unit);

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

#endif
