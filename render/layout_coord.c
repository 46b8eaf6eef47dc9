/*
 * layout_coord.c - the layout's leaves, which every layout pass uses: the
 * data-to-pixel transforms and the text list. Split out of layout.c so the
 * passes (layout.c, layout_axis.c, layout_bars.c, layout_legend.c) call
 * down into it and never back into each other (issue 31: no file cycles).
 */
#include "render/layout.h"

#include <math.h>
#include <string.h>

#include "base/xalloc.h"
#include "render/layout_impl.h"

/* Takes `text`. */
struct pr_text *pr_lo_add_text(struct pr_layout *lo, const char *role, char *text, double x,
			       double y, double size, int bold, enum pr_align align, uint32_t rgb)
{
	struct pr_text *t;
	if (lo->ntexts == lo->atexts) {
		lo->atexts = lo->atexts ? 2 * lo->atexts : 32;
		lo->texts = pr_xreallocarray(lo->texts, lo->atexts, sizeof(*lo->texts));
	}
	t = &lo->texts[lo->ntexts++];
	memset(t, 0, sizeof(*t));
	t->role = role;
	t->text = text;
	t->x = x;
	t->y = y;
	t->size = size;
	t->bold = bold;
	t->align = align;
	t->rgb = rgb;
	return t;
}

/* Where v lies along the axis, 0 at lo and 1 at hi (log axes: NaN for v <= 0). */
static double axis_frac(const struct pr_axis *a, double v)
{
	if (a->log)
		return v > 0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : NAN;
	return (v - a->lo) / (a->hi - a->lo);
}

double pr_layout_x(const struct pr_layout *lo, double v)
{
	return lo->plot.x + axis_frac(&lo->x, v) * lo->plot.w;
}

double pr_layout_y(const struct pr_layout *lo, double v)
{
	return lo->plot.y + lo->plot.h - axis_frac(&lo->y, v) * lo->plot.h;
}
