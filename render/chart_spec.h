/*
 * chart_spec.h - the types of a chart spec (struct pr_chart and its lines,
 * bands, bars, ...): plain data, described in render/chart.h, which draws
 * one. Apart from chart.h so that the layout (render/layout.c and its
 * pieces), which reads a spec, and chart.c, which drives the layout, do not
 * include each other's headers: chart -> layout -> chart_spec.
 */
#ifndef PR_CHART_SPEC_H
#define PR_CHART_SPEC_H

#include <stddef.h>
#include <stdint.h>

/*
 * How a line joins its points: straight segments, or steps (step-after: a
 * value holds until the next sample, then jumps; for sampled gauges such
 * as memory or utilisation, whose value between two samples is the last
 * one read).
 */
enum pr_line_style {
	PR_LINE_LINEAR = 0,
	PR_LINE_STEP
};

/*
 * A data series. width 0 = 2 px; fill_alpha > 0 fills down to y = 0.
 *
 * stack > 0 puts the line in stack group `stack`: the group's lines are
 * drawn as a stacked area, in spec order from the bottom, each filled
 * from the top of the one below to its own top (fill_alpha, 0 = 0.7; no
 * fill to zero), its top edge stroked `width` px (0 = 1 px). The group is
 * evaluated on a common x grid, the sorted union of its lines' usable x
 * values; at a grid x a line contributes: PR_LINE_STEP, its last sample
 * at or before x (0 before its first sample, its last value after its
 * last sample); PR_LINE_LINEAR, its linear interpolation (0 outside its
 * first..last x). Non-finite samples are left out. The group is drawn in
 * the style of its first line. Stacked lines are never reduced.
 */
struct pr_chart_line {
	const char *label; /* legend text; NULL/"" = not in the legend */
	uint32_t rgb;
	const double *x, *y; /* x NULL = 0, 1, 2, ... */
	size_t n;
	double width;
	double fill_alpha;
	int dashed;
	enum pr_line_style style;
	int stack;
};

/* A vertical background band (a phase); label drawn at its top if it fits. */
struct pr_chart_band {
	double x0, x1;
	const char *label; /* also a legend entry (once per label) unless NULL/"" */
	uint32_t rgb;
	double alpha; /* 0 = 0.15 */
};

/* A vertical line across the plot (a phase boundary). */
struct pr_chart_vline {
	double x;
	uint32_t rgb;
	int dashed;
};

/* A horizontal background band (a zone such as CPU 0-25%). */
struct pr_chart_zone {
	double y0, y1;
	const char *label; /* legend entry unless NULL/"" */
	uint32_t rgb;
	double alpha; /* 0 = 0.08 */
};

/* A horizontal line (an average, a limit). */
struct pr_chart_hline {
	double y;
	const char *label; /* legend entry unless NULL/"" */
	uint32_t rgb;
	int dashed;
};

/* An annotated point: a dot and a callout box kept inside the plot. */
struct pr_chart_mark {
	double x, y;
	const char *text; /* may contain '\n' */
	uint32_t rgb;
};

/*
 * A filled rectangle in data coordinates (line charts): a span timeline
 * draws each lane's busy intervals as rects between y0 and y1.
 */
struct pr_chart_rect {
	double x0, x1, y0, y1;
	uint32_t rgb;
	const char *label; /* legend entry (once per label) unless NULL/"" */
};

/* A named position on the y axis (a timeline lane's name at its centre). */
struct pr_chart_ylabel {
	double y;
	const char *text;
};

/* One series of a grouped bar chart: values[ncategories]. */
struct pr_chart_bar_group {
	const char *label; /* legend entry unless NULL/"" */
	uint32_t rgb;
	const double *values;
	const uint32_t *colors; /* optional per-category colors */
	const char *const
		*value_text; /* optional per-category value labels (NULL entries = auto) */
};

struct pr_chart_bars {
	const char *const *categories;
	size_t ncategories;
	const struct pr_chart_bar_group *groups;
	size_t ngroups;
	int horizontal;	  /* categories top to bottom, values along x (x_unit) */
	int value_labels; /* label each bar with its value */
	/*
	 * Stacked: one bar per category, the groups' values (> 0; others are
	 * skipped) laid end to end in group order (a share breakdown). Value
	 * labels are then drawn inside their segment, in white or dark text
	 * by the segment's colour, and only where they fit.
	 */
	int stacked;
	/*
	 * On a log value axis, the value bars grow from (> 0; 0 = the axis' low
	 * end): 1 for ratios, so that 2x and 0.5x are bars of one length on
	 * either side of 1.
	 */
	double log_base;
};

/*
 * The value axis' scale (y for line charts and vertical bars, x for
 * horizontal bars). PR_SCALE_AUTO and PR_SCALE_LINEAR: linear, and a bar
 * runs from zero, so its length is proportional to its value. PR_SCALE_LOG
 * (only when asked; the axis title then says "log scale", and the chart's
 * title should too): values <= 0 are not drawn (they break lines; such bars
 * are left out); stacked lines and stacked bars stay linear.
 */
enum pr_scale {
	PR_SCALE_AUTO = 0,
	PR_SCALE_LINEAR,
	PR_SCALE_LOG
};

enum pr_legend_pos {
	PR_LEGEND_RIGHT = 0, /* outside the plot, right (default) */
	PR_LEGEND_INSIDE,    /* inside the plot, top right */
	PR_LEGEND_NONE,
};

struct pr_chart {
	const char *title;
	const char *x_label, *y_label; /* without the unit; the unit is appended */
	const char *x_unit, *y_unit;
	int width, height; /* px, 200..8000; 0 = the default, 1200 wide, 420 high */
	int y_fixed;	   /* use y_min..y_max instead of the data range */
	double y_min, y_max;
	enum pr_scale value_scale;
	/* Line charts only: PR_SCALE_LOG puts x on a log axis (exactly the data's range, decade
	 * ticks, "log scale" in its title; points, rects, bands, vlines and marks at x <= 0 are
	 * not drawn): a roofline. */
	enum pr_scale x_scale;
	/*
	 * x_date: x values are seconds after x_epoch (Unix time, seconds, UTC):
	 * the x axis shows UTC clock times (x_unit is ignored), see render/layout.h.
	 */
	int x_date;
	double x_epoch;

	const struct pr_chart_line *lines;
	size_t nlines;
	const struct pr_chart_band *bands;
	size_t nbands;
	const struct pr_chart_vline *vlines;
	size_t nvlines;
	const struct pr_chart_zone *zones;
	size_t nzones;
	const struct pr_chart_hline *hlines;
	size_t nhlines;
	const struct pr_chart_mark *marks;
	size_t nmarks;
	const struct pr_chart_rect *rects;
	size_t nrects;
	int y_no_ticks; /* no numbers on the y axis */
	/* Named y positions instead of numbers (a timeline's lanes), in order along the axis;
	 * elided to 28 % of the width; a label closer than 1.3 lines to the last one shown is
	 * left out (its tick stays). */
	const struct pr_chart_ylabel *y_labels;
	size_t ny_labels;
	const struct pr_chart_bars *bars; /* non-NULL: a bar chart */

	enum pr_legend_pos legend;
	const char *legend_title; /* optional, bold, above the entries */
	const char *note;	  /* optional text box, top left inside the plot ('\n' ok) */
	const char *empty_text;	  /* shown when there is nothing to draw; NULL = "No data" */
	int no_reduce;		  /* draw every point (tests only: slow for huge lines) */
};

#endif
