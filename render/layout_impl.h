/*
 * layout_impl.h - what the pieces of the chart layout share (private to
 * render/layout*.c; callers use render/layout.h).
 *
 * The layout is one pass over a chart spec, split along its seams:
 *   layout_text.c    text measuring and elision (public: pr_text_*)
 *   layout_axis.c    ticks, unit scaling, tick labels, axis titles
 *   layout_legend.c  legend entries and their placement
 *   layout_bars.c    bar charts: value range, headroom, bars and value labels
 *   layout_stack.c   stacked lines on a common x grid
 *   layout_dump.c    the layout as stable text (pr_layout_dump)
 *   layout.c         the pass itself (pr_layout_chart): ranges, margins,
 *                    titles, band labels, the note and marks
 * They share one struct pr_lo_ctx for the chart being laid out.
 *
 * OWNERSHIP: as render/layout.h; pr_lo_add_text takes its text.
 */
#ifndef PR_LAYOUT_IMPL_H
#define PR_LAYOUT_IMPL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "render/chart_spec.h"
#include "render/layout.h"

#define PAD 12.0
#define TICK_LEN 5.0
#define TICK_GAP 4.0
#define LEGEND_PAD 8.0
#define LEGEND_ROW 18.0
#define SWATCH_W 22.0
#define SWATCH_GAP 6.0
#define BOX_PAD 6.0
/* Room beyond the data on a value axis, a share of its range, where no
 * value label or mark asks for more (bar charts; the low end of a line chart). */
#define VALUE_MARGIN 0.05

#define RGB_TITLE 0x222222u
#define RGB_LABEL 0x333333u
#define RGB_TICK 0x444444u
#define RGB_BAND 0x555555u
#define RGB_EMPTY 0x888888u
#define RGB_WHITE 0xFFFFFFu

static inline double pr_lo_text_w(const struct pr_text_metrics *m, const char *s, double size,
				  int bold)
{
	return m->width(m->ctx, s, size, bold);
}

static inline double pr_lo_clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* A value the layout can place: finite and not absurdly large. */
static inline int pr_lo_usable(double v)
{
	return isfinite(v) && fabs(v) < 1e300;
}

/* A data range: lo..hi of the usable values grown into it (any: one was). */
struct pr_lo_range {
	double lo, hi;
	int any;
};

static inline void pr_lo_grow(struct pr_lo_range *r, double v)
{
	if (!pr_lo_usable(v))
		return;
	if (!r->any || v < r->lo)
		r->lo = v;
	if (!r->any || v > r->hi)
		r->hi = v;
	r->any = 1;
}

/* ---- legend entries (layout_legend.c) ---- */

struct pr_lo_entry {
	const char *label;
	enum pr_swatch_kind kind;
	uint32_t rgb;
	double alpha, line_width;
	int dashed;
};

struct pr_lo_entries {
	struct pr_lo_entry *v;
	size_t n, alloc, extra; /* extra: not collected (beyond the cap) */
};

/* ---- the chart being laid out ---- */

struct pr_lo_ctx {
	const struct pr_chart *c;
	const struct pr_text_metrics *m;
	struct pr_layout *lo;
	int W, H;
	struct pr_lo_entries ent;
	int legend_pos;
	double legend_w; /* content width incl. padding */
	int band_labels; /* some band label is drawn at the top */
	double strip;	 /* px at the top of the plot kept free of data (band labels) */
	double inset;	 /* px from the plot top to the note and the inside legend */
	/* Set while laying out. */
	int horiz;	    /* a horizontal bar chart */
	size_t ncat;	    /* bar categories */
	double dmax;	    /* the largest data value (keep_below) */
	struct pr_axis *va; /* the value axis of a bar chart */
	char **ycat;	    /* category or named labels on the y axis (NULL entries: none) */
	double ylw;	    /* the widest y tick label */
};

/* layout.c */
struct pr_text *pr_lo_add_text(struct pr_layout *lo, const char *role, char *text, double x,
			       double y, double size, int bold, enum pr_align align, uint32_t rgb);

/* layout_axis.c */
void pr_lo_set_ticks(struct pr_axis *a, size_t n);
char *pr_lo_tick_label(const struct pr_axis *a, size_t i);
/* The axis title: the label and, for a (non-categorical) axis a, its unit, "(log scale)" or the UTC date. */
char *pr_lo_axis_title(const char *label, const struct pr_axis *a);
/* v shown with its own unit ("32 KiB", "100 us", "10k"): sig significant digits, or (0) as a tick, exactly. */
void pr_lo_log_format(const struct pr_axis_unit *u, double v, int sig, char *buf, size_t n);
void pr_lo_category_label(struct pr_lo_ctx *x, size_t i, double max_w, char **out);
/* The y axis ticks and labels (x->ycat, x->ylw); positions follow pr_lo_position_y. */
void pr_lo_axis_y(struct pr_lo_ctx *x);
void pr_lo_position_y(struct pr_layout *lo);
/* The x axis ticks; may narrow the plot so that the last label fits. */
void pr_lo_axis_x(struct pr_lo_ctx *x);
/* The tick label texts of both axes; frees x->ycat. */
void pr_lo_tick_texts(struct pr_lo_ctx *x);

/* layout_stack.c: the stack groups (lo->stacks); grows the ranges with their grids and tops. */
void pr_lo_stacks(struct pr_lo_ctx *x, struct pr_lo_range *xr, struct pr_lo_range *yr);

/* layout_axis.c: a log axis over whole decades around min..max (> 0), max kept
 * at least `head` of the span (in decades) below the top. */
void pr_lo_log_range(struct pr_axis *a, double min, double max, double head);

/* layout_legend.c */
void pr_lo_collect_entries(const struct pr_chart *c, struct pr_lo_entries *e);
double pr_lo_legend_width(struct pr_lo_ctx *x, double cap);
void pr_lo_place_legend(struct pr_lo_ctx *x, double bx, double by, double cap, double max_h);

/* layout_bars.c */
/* The value axis of a bar chart and its category axis (ranges, units). */
void pr_lo_bar_ranges(struct pr_lo_ctx *x);
/* Room on the value axis for the value labels (len: the axis length in px). */
void pr_lo_bar_headroom(struct pr_lo_ctx *x, struct pr_axis *va, int horiz, size_t ncat,
			double len);
void pr_lo_bars(struct pr_lo_ctx *x);

#endif
