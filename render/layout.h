/*
 * layout.h - chart layout as plain data: pure arithmetic, no Cairo
 * (STYLE.md rule 15). render/chart.c lays a chart out here, then paints
 * the result through render/gfx.h; pr_layout_dump() prints the same layout
 * as stable text for golden tests. The code is split along its seams
 * (render/layout_impl.h lists the files: text, axes, legend, bars, dump).
 *
 * USAGE:
 *   struct pr_layout lo;
 *   pr_layout_init(&lo);
 *   if (pr_layout_chart(&lo, &chart, &pr_text_metrics_dejavu, err)) ...
 *   ... lo.plot, lo.x.ticks[i].pos, lo.texts[i] ...
 *   pr_layout_dump(&sb, &lo);
 *   pr_layout_release(&lo);
 *
 * Building blocks, public so they can be tested on their own:
 *   pr_nice_ticks()        1-2-5 tick steps
 *   pr_axis_unit_choose()  the display unit of an axis by magnitude
 *   pr_axis_unit_format()  one tick label
 *   pr_text_width_dejavu() the built-in text width estimate
 *   pr_text_clean(), pr_text_elide()
 *
 * Coordinates are pixels, origin top left, y down. Text positions are
 * baseline anchors: (x, y) is the point on the baseline at the left,
 * centre or right end of the text; vertical text (the y axis title) is
 * rotated 90 degrees counter-clockwise about its anchor.
 *
 * Text widths come from a callback (struct pr_text_metrics), so the layout
 * needs no font machinery: pr_text_metrics_dejavu uses a table of the
 * advance widths of DejaVu Sans and DejaVu Sans Bold (U+0020..U+007E,
 * U+00A0..U+00FF, U+2026, U+FFFD; 0.6 em for other characters), which is
 * exactly what Cairo's toy font API draws for those characters with
 * unhinted metrics (render/gfx.c pins that). Tests may pass their own.
 *
 * OWNERSHIP: every string in a struct pr_layout is owned by it and freed by
 * pr_layout_release(). `role` strings are static. pr_text_clean() and
 * pr_text_elide() return new strings (free()).
 * Scales: an axis is linear, logarithmic (pr_axis.log: decade ticks, or
 * 1-2-5 ones within a decade or two; bytes at powers of 2: 1 KiB, 32 KiB,
 * 1 MiB; each label carries its own unit, "100 us", "1 ms", and the axis
 * title says "(log scale)") or, for x, a UTC clock (pr_axis.date: ticks at
 * round clock times, 1 ms .. 1 day apart, labelled HH:MM, HH:MM:SS or
 * HH:MM:SS.fff by the step and MM-DD at midnight; the axis title gets
 * "(UTC, YYYY-MM-DD)" or "(UTC, YYYY-MM-DD to YYYY-MM-DD)"). Dates are
 * computed with gmtime_r: no time zone, no locale.
 *
 * LIMITATIONS: fixed font sizes (below), one y axis; a log x axis only for
 * horizontal bars.
 */
#ifndef PR_LAYOUT_H
#define PR_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/pr_common.h"
#include "base/strbuf.h"

struct pr_chart;

/* Font sizes in px and text geometry as fractions of the size (DejaVu Sans). */
#define PR_SIZE_TITLE 15.0
#define PR_SIZE_LABEL 12.0
#define PR_SIZE_TICK 11.0
#define PR_SIZE_LEGEND 11.0
#define PR_SIZE_SMALL 10.0
#define PR_SIZE_EMPTY 14.0
#define PR_TEXT_CAP 0.729     /* cap height (1493/2048) */
#define PR_TEXT_ASCENT 0.928  /* font ascent (1901/2048) */
#define PR_TEXT_DESCENT 0.236 /* font descent (483/2048) */
#define PR_TEXT_LINE 1.25     /* line spacing of multi-line text */

/* ---- text measuring ---- */

/* Width in px of `text` (clean UTF-8, no newline) at `size` px. */
typedef double pr_text_width_fn(void *ctx, const char *text, double size, int bold);

struct pr_text_metrics {
	pr_text_width_fn *width;
	void *ctx;
};

double pr_text_width_dejavu(void *ctx, const char *text, double size, int bold);
extern const struct pr_text_metrics pr_text_metrics_dejavu;

/*
 * A copy of text that is safe to measure and draw: invalid UTF-8 becomes
 * U+FFFD, control characters (and newlines) become spaces. NULL -> "".
 */
char *pr_text_clean(const char *text);

/*
 * A copy of (clean) text that fits max_w px: the text itself, or its
 * longest prefix (trailing spaces dropped) followed by U+2026, or "" when
 * not even the ellipsis fits.
 */
char *pr_text_elide(const struct pr_text_metrics *m, const char *text, double size, int bold,
		    double max_w);

/* ---- ticks and units ---- */

struct pr_ticks {
	double first; /* first tick value, a multiple of step */
	double step;  /* 1, 2 or 5 times a power of ten */
	size_t count; /* ticks in [lo, hi] */
	int decimals; /* digits after the point the step needs */
};

/*
 * Ticks for [lo, hi] with at most max_intervals steps between the ends
 * (so at most max_intervals + 1 ticks). Returns 0, or -1 when lo/hi are not
 * finite or hi <= lo (t then holds no ticks).
 */
int pr_nice_ticks(double lo, double hi, size_t max_intervals, struct pr_ticks *t);

enum pr_unit_kind {
	PR_UNIT_PLAIN,
	PR_UNIT_BYTES,
	PR_UNIT_TIME,
	PR_UNIT_PERCENT
};

struct pr_axis_unit {
	enum pr_unit_kind kind;
	double factor;	/* data value * factor = value in the base unit (bytes, s) */
	double scale;	/* base value / scale = value shown */
	char name[32];	/* shown in the axis title: "GiB", "ms", "%", a plain unit, "" */
	char suffix[4]; /* PR_UNIT_PLAIN: SI suffix on every tick ("k", "M"...), else "" */
};

/*
 * Choose how to show values whose largest magnitude is maxabs (data units)
 * for the data unit `unit` (see render/chart.h for the names).
 */
void pr_axis_unit_choose(struct pr_axis_unit *u, const char *unit, double maxabs);

/* One label: v (data units) shown with `decimals` digits and the SI suffix. */
void pr_axis_unit_format(const struct pr_axis_unit *u, double v, int decimals, char *buf, size_t n);

/* ---- the layout ---- */

struct pr_rect {
	double x, y, w, h;
};

struct pr_tick {
	double value; /* data units (category index + 0.5 on category axes) */
	double pos;   /* px along the axis (x for the x axis, y for the y axis) */
	int grid;     /* draw a grid line */
};

struct pr_axis {
	double lo, hi; /* data range */
	struct pr_axis_unit unit;
	int categorical; /* categories at 0.5, 1.5, ... of lo = 0, hi = n */
	int log;	 /* logarithmic: lo > 0; ticks label themselves with their unit */
	int date;	 /* values are seconds after `epoch` (Unix, UTC): clock-time ticks */
	double epoch;
	int decimals;
	struct pr_tick *ticks;
	size_t nticks;
};

enum pr_align {
	PR_ALIGN_LEFT,
	PR_ALIGN_CENTER,
	PR_ALIGN_RIGHT
};

struct pr_text {
	const char *role; /* "title", "xtick", "legend", ... (static) */
	char *text;	  /* clean, elided UTF-8 */
	double x, y;	  /* baseline anchor */
	double size;
	int bold;
	enum pr_align align;
	int vertical; /* rotated 90 degrees counter-clockwise */
	uint32_t rgb;
};

enum pr_swatch_kind {
	PR_SWATCH_LINE,
	PR_SWATCH_PATCH
};

struct pr_legend_entry {
	enum pr_swatch_kind kind;
	struct pr_rect swatch;
	uint32_t rgb;
	double alpha;
	double line_width;
	int dashed;
};

struct pr_legend {
	int shown;
	struct pr_rect box;
	struct pr_legend_entry *entries; /* the shown entries */
	size_t nentries;
	size_t hidden; /* entries left out for lack of room ("+N more") */
};

struct pr_mark_box {
	int visible;   /* the point lies inside the plot */
	double px, py; /* the point */
	struct pr_rect box;
	double cx, cy; /* where the connector meets the box */
	uint32_t rgb;
};

struct pr_bar {
	size_t category, group;
	struct pr_rect r;
	uint32_t rgb;
	double value;
};

struct pr_line_info {
	size_t n, finite; /* points, and points with finite x and y */
	int reduce;	  /* drawn through pr_reduce_minmax */
	int step;	  /* drawn as steps (its own style, or its stack's) */
	size_t stack;	  /* 1 + index into the layout's stacks; 0 = not stacked */
};

/*
 * A stack group (render/chart.h) on its common x grid: top[k * n + j] is
 * the top of its k-th line (bottom first) at x[j]; the bottom of line k is
 * line k - 1's top (0 for the first).
 */
struct pr_stack {
	int group;     /* the lines' `stack` value */
	size_t *lines; /* chart line indices, bottom first */
	size_t nlines;
	double *x; /* the grid */
	size_t n;
	double *top;
};

struct pr_layout {
	int width, height;
	struct pr_rect plot;
	struct pr_axis x, y;
	int bar_chart, horizontal;
	int empty; /* nothing to draw: frame and the empty text only */
	struct pr_legend legend;
	int has_note;
	struct pr_rect note;
	struct pr_mark_box *marks; /* one per chart mark */
	size_t nmarks;
	struct pr_bar *bars;
	size_t nbars;
	struct pr_line_info *lines; /* one per chart line */
	size_t nlines;
	struct pr_stack *stacks; /* in order of their first line */
	size_t nstacks;
	struct pr_text *texts; /* drawn last, in this order */
	size_t ntexts, atexts;
};

void pr_layout_init(struct pr_layout *lo);
void pr_layout_release(struct pr_layout *lo);

/*
 * Lay out a chart into lo (initialised with pr_layout_init, or released;
 * whatever it held is released first). Returns 0, or -1 with PR_E_USAGE
 * (PR_E_LIMIT) for an invalid spec, see render/chart.h; lo is then empty.
 * m NULL = pr_text_metrics_dejavu.
 */
int pr_layout_chart(struct pr_layout *lo, const struct pr_chart *chart,
		    const struct pr_text_metrics *m, struct pr_error *err) PR_MUST_CHECK;

/* Data value -> px. */
double pr_layout_x(const struct pr_layout *lo, double v);
double pr_layout_y(const struct pr_layout *lo, double v);

/* Append the layout as stable text, one item a line, numbers with fixed precision. */
void pr_layout_dump(struct pr_strbuf *sb, const struct pr_layout *lo);

#endif
