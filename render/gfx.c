/* gfx.c - Cairo surfaces, pinned fonts and drawing primitives. */
#include "render/gfx.h"

#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/layout.h"

#define PR_PI 3.14159265358979323846
/*
 * Cairo's rasteriser slows down badly when one path has hundreds of
 * thousands of overlapping segments; in PNG, huge polylines (only drawn
 * unreduced, for tests) are stroked a few points at a time, with round caps
 * so the pieces join. SVG just writes the path.
 */
#define HUGE_LINE 65536
#define HUGE_CHUNK 8

struct pr_gfx {
	enum pr_gfx_format format;
	int width, height;
	cairo_surface_t *surface;
	cairo_t *cr;
	struct pr_output *out;
	struct pr_strbuf doc; /* SVG: the document, written to out by pr_gfx_finish */
	int nclip;	      /* SVG: clip paths so far (ids c1, c2, ...) */
	int snap;	      /* raster output: snap thin grid-aligned strokes */
	int clipped;	      /* a pr_gfx_clip is active */
};

/* ---- the lean SVG writer: one element per drawing call ---- */

/* A coordinate with at most 2 decimals, no trailing zeros ("12.5", "-3", "0"). */
static void svg_num(struct pr_strbuf *sb, double v)
{
	char buf[48];
	size_t n;
	double r = round(v * 100) / 100;
	if (r == 0)
		r = 0; /* no "-0" */
	n = (size_t)snprintf(buf, sizeof(buf), "%.2f", r);
	while (n > 0 && buf[n - 1] == '0')
		n--;
	if (n > 0 && buf[n - 1] == '.')
		n--;
	pr_strbuf_add(sb, buf, n);
}

/* ` NAME="V"` with V as svg_num. */
static void svg_attr(struct pr_strbuf *sb, const char *name, double v)
{
	pr_strbuf_addf(sb, " %s=\"", name);
	svg_num(sb, v);
	pr_strbuf_addch(sb, '"');
}

/* ` fill="#rrggbb"` (and its opacity below 1); KIND is "fill" or "stroke". */
static void svg_paint(struct pr_strbuf *sb, const char *kind, uint32_t rgb, double alpha)
{
	pr_strbuf_addf(sb, " %s=\"#%06X\"", kind, (unsigned)(rgb & 0xFFFFFF));
	if (alpha < 1) {
		pr_strbuf_addf(sb, " %s-opacity=\"", kind);
		svg_num(sb, alpha < 0 ? 0 : alpha);
		pr_strbuf_addch(sb, '"');
	}
}

static void svg_stroke(struct pr_strbuf *sb, uint32_t rgb, double alpha, double width, int dashed)
{
	svg_paint(sb, "stroke", rgb, alpha);
	svg_attr(sb, "stroke-width", width);
	if (dashed) { /* the PNG's pattern (set_dash) */
		pr_strbuf_addstr(sb, " stroke-dasharray=\"");
		svg_num(sb, 4 + 2 * width);
		pr_strbuf_addch(sb, ' ');
		svg_num(sb, 2 + 1.5 * width);
		pr_strbuf_addch(sb, '"');
	}
}

/* "M x y" or "L x y" (the L left out after another L). */
static void svg_pt(struct pr_strbuf *sb, char cmd, double x, double y)
{
	if (cmd)
		pr_strbuf_addch(sb, cmd);
	else
		pr_strbuf_addch(sb, ' ');
	svg_num(sb, x);
	pr_strbuf_addch(sb, ' ');
	svg_num(sb, y);
}

/* Text for an XML text node or attribute. */
static void svg_esc(struct pr_strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			pr_strbuf_addstr(sb, "&amp;");
			break;
		case '<':
			pr_strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			pr_strbuf_addstr(sb, "&gt;");
			break;
		case '"':
			pr_strbuf_addstr(sb, "&quot;");
			break;
		default:
			pr_strbuf_addch(sb, *s);
		}
	}
}

/* Cairo stream callback: every byte goes through pr_output_write. */
static cairo_status_t write_cb(void *closure, const unsigned char *data, unsigned int length)
{
	struct pr_output *out = closure;
	return pr_output_write(out, data, length) ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static void set_font(cairo_t *cr, double size, int bold)
{
	cairo_select_font_face(cr, PR_GFX_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

static void pin_font_options(cairo_t *cr)
{
	cairo_font_options_t *fo = cairo_font_options_create();
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_subpixel_order(fo, CAIRO_SUBPIXEL_ORDER_DEFAULT);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
}

struct pr_gfx *pr_gfx_new(enum pr_gfx_format format, int width, int height, struct pr_output *out,
			  struct pr_error *err)
{
	struct pr_gfx *g = NULL;
	cairo_surface_t *s = NULL;
	cairo_status_t st;

	if (width <= 0 || height <= 0 || width > 32767 || height > 32767) {
		pr_error_set(err, PR_E_USAGE, "surface size %dx%d out of range", width, height);
		return NULL;
	}
	switch (format) {
	case PR_GFX_PNG:
		s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
		break;
	case PR_GFX_SVG: /* written by hand (svg_*), no Cairo surface */
		g = pr_xcalloc(1, sizeof(*g));
		g->format = format;
		g->width = width;
		g->height = height;
		g->out = out;
		pr_strbuf_init(&g->doc);
		pr_strbuf_addf(&g->doc,
			       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			       "<svg xmlns=\"http://www.w3.org/2000/svg\""
			       " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" version=\"1.1\""
			       " font-family=\"%s\""
			       " stroke-linejoin=\"round\" xml:space=\"preserve\">\n",
			       width, height, width, height, PR_GFX_FONT);
		return g;
	default:
		pr_error_set(err, PR_E_USAGE, "unknown image format %d", (int)format);
		return NULL;
	}
	st = cairo_surface_status(s);
	if (st != CAIRO_STATUS_SUCCESS) {
		pr_error_set(err, PR_E_IO, "cairo: %s", cairo_status_to_string(st));
		cairo_surface_destroy(s);
		return NULL;
	}
	g = pr_xcalloc(1, sizeof(*g));
	g->format = format;
	g->width = width;
	g->height = height;
	g->surface = s;
	g->cr = cairo_create(s);
	g->out = out;
	g->snap = format == PR_GFX_PNG;
	pin_font_options(g->cr);
	cairo_set_line_join(g->cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_line_cap(g->cr, CAIRO_LINE_CAP_BUTT);
	cairo_set_antialias(g->cr, CAIRO_ANTIALIAS_DEFAULT);
	return g;
}

static int fail(struct pr_gfx *g, cairo_status_t st, struct pr_error *err)
{
	if (st == CAIRO_STATUS_WRITE_ERROR && g->out->failed_errno) {
		pr_error_set(err, PR_E_IO, "cannot write: %s", strerror(g->out->failed_errno));
		pr_error_set_source(err, g->out->path ? g->out->path : "memory");
	} else {
		pr_error_set(err, PR_E_IO, "cairo: %s", cairo_status_to_string(st));
		pr_output_fail(g->out, EIO);
	}
	return -1;
}

int pr_gfx_finish(struct pr_gfx *g, struct pr_error *err)
{
	cairo_status_t st;
	int ret = 0;

	if (!g)
		return pr_error_set(err, PR_E_IO, "cairo: no surface");
	if (g->clipped)
		pr_gfx_unclip(g);
	if (g->format == PR_GFX_SVG) {
		pr_strbuf_addstr(&g->doc, "</svg>\n");
		if (pr_output_write(g->out, g->doc.buf, g->doc.len)) {
			int e = g->out->failed_errno ? g->out->failed_errno : EIO;
			pr_error_set(err, PR_E_IO, "cannot write: %s", strerror(e));
			pr_error_set_source(err, g->out->path ? g->out->path : "memory");
			ret = -1;
		}
		pr_strbuf_release(&g->doc);
		free(g);
		return ret;
	}
	st = cairo_status(g->cr);
	cairo_destroy(g->cr);
	g->cr = NULL;
	if (st != CAIRO_STATUS_SUCCESS) {
		ret = fail(g, st, err);
		goto out;
	}
	if (g->format == PR_GFX_PNG) {
		cairo_surface_flush(g->surface);
		st = cairo_surface_write_to_png_stream(g->surface, write_cb, g->out);
		if (st == CAIRO_STATUS_SUCCESS)
			st = cairo_surface_status(g->surface);
	}
	if (st != CAIRO_STATUS_SUCCESS)
		ret = fail(g, st, err);
out:
	cairo_surface_destroy(g->surface);
	free(g);
	return ret;
}

void pr_gfx_free(struct pr_gfx *g)
{
	if (!g)
		return;
	if (g->cr)
		cairo_destroy(g->cr);
	pr_output_fail(g->out, ECANCELED);
	if (g->surface)
		cairo_surface_destroy(g->surface);
	pr_strbuf_release(&g->doc);
	free(g);
}

static void source(struct pr_gfx *g, uint32_t rgb, double alpha)
{
	cairo_set_source_rgba(g->cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0,
			      (rgb & 0xFF) / 255.0, alpha);
}

void pr_gfx_clip(struct pr_gfx *g, double x, double y, double w, double h)
{
	if (g->clipped)
		pr_gfx_unclip(g);
	if (g->format == PR_GFX_SVG) {
		struct pr_strbuf *sb = &g->doc;
		pr_strbuf_addf(sb, "<clipPath id=\"c%d\"><rect", ++g->nclip);
		svg_attr(sb, "x", x);
		svg_attr(sb, "y", y);
		svg_attr(sb, "width", w);
		svg_attr(sb, "height", h);
		pr_strbuf_addf(sb, "/></clipPath>\n<g clip-path=\"url(#c%d)\">\n", g->nclip);
		g->clipped = 1;
		return;
	}
	cairo_save(g->cr);
	if (g->snap) {
		double x1 = round(x + w), y1 = round(y + h);
		x = round(x);
		y = round(y);
		w = x1 - x;
		h = y1 - y;
	}
	cairo_rectangle(g->cr, x, y, w, h);
	cairo_clip(g->cr);
	g->clipped = 1;
}

void pr_gfx_unclip(struct pr_gfx *g)
{
	if (!g->clipped)
		return;
	if (g->format == PR_GFX_SVG)
		pr_strbuf_addstr(&g->doc, "</g>\n");
	else
		cairo_restore(g->cr);
	g->clipped = 0;
}

/* `<rect x y width height` (the caller adds paint and closes it). */
static void svg_rect(struct pr_gfx *g, double x, double y, double w, double h)
{
	pr_strbuf_addstr(&g->doc, "<rect");
	svg_attr(&g->doc, "x", x);
	svg_attr(&g->doc, "y", y);
	svg_attr(&g->doc, "width", w);
	svg_attr(&g->doc, "height", h);
}

void pr_gfx_fill_rect(struct pr_gfx *g, double x, double y, double w, double h, uint32_t rgb,
		      double alpha)
{
	if (!(w > 0) || !(h > 0) || !isfinite(x + y + w + h))
		return;
	if (g->snap) {
		double x1 = round(x + w), y1 = round(y + h);
		x = round(x);
		y = round(y);
		w = x1 - x;
		h = y1 - y;
		if (w < 1)
			w = 1; /* a thin bar stays visible */
		if (h < 1)
			h = 1;
	}
	if (g->format == PR_GFX_SVG) {
		svg_rect(g, x, y, w, h);
		svg_paint(&g->doc, "fill", rgb, alpha);
		pr_strbuf_addstr(&g->doc, "/>\n");
		return;
	}
	source(g, rgb, alpha);
	cairo_rectangle(g->cr, x, y, w, h);
	cairo_fill(g->cr);
}

/* Half-pixel position for an odd-width stroke along the grid (PNG only). */
static double snap_half(double v)
{
	return floor(v) + 0.5;
}

void pr_gfx_stroke_rect(struct pr_gfx *g, double x, double y, double w, double h, uint32_t rgb,
			double alpha, double width)
{
	if (!(w > 0) || !(h > 0) || !isfinite(x + y + w + h))
		return;
	if (g->snap && width <= 1.5) {
		double x1 = snap_half(x + w), y1 = snap_half(y + h);
		x = snap_half(x);
		y = snap_half(y);
		w = x1 - x;
		h = y1 - y;
		width = 1;
	}
	if (g->format == PR_GFX_SVG) {
		svg_rect(g, x, y, w, h);
		pr_strbuf_addstr(&g->doc, " fill=\"none\"");
		svg_stroke(&g->doc, rgb, alpha, width, 0);
		pr_strbuf_addstr(&g->doc, "/>\n");
		return;
	}
	source(g, rgb, alpha);
	cairo_set_line_width(g->cr, width);
	cairo_rectangle(g->cr, x, y, w, h);
	cairo_stroke(g->cr);
}

static void set_dash(struct pr_gfx *g, int dashed, double width)
{
	if (dashed) {
		double d[2] = { 4 + 2 * width, 2 + 1.5 * width };
		cairo_set_dash(g->cr, d, 2, 0);
	} else {
		cairo_set_dash(g->cr, NULL, 0, 0);
	}
}

void pr_gfx_line(struct pr_gfx *g, double x0, double y0, double x1, double y1, uint32_t rgb,
		 double alpha, double width, int dashed)
{
	if (!isfinite(x0 + y0 + x1 + y1))
		return;
	if (g->snap && width <= 1.5) {
		if (x0 == x1)
			x0 = x1 = snap_half(x0);
		if (y0 == y1)
			y0 = y1 = snap_half(y0);
		if (x0 == x1 || y0 == y1)
			width = 1;
	}
	if (g->format == PR_GFX_SVG) {
		pr_strbuf_addstr(&g->doc, "<path d=\"");
		svg_pt(&g->doc, 'M', x0, y0);
		svg_pt(&g->doc, 'L', x1, y1);
		pr_strbuf_addstr(&g->doc, "\" fill=\"none\"");
		svg_stroke(&g->doc, rgb, alpha, width, dashed);
		pr_strbuf_addstr(&g->doc, "/>\n");
		return;
	}
	source(g, rgb, alpha);
	cairo_set_line_width(g->cr, width);
	set_dash(g, dashed, width);
	cairo_move_to(g->cr, x0, y0);
	cairo_line_to(g->cr, x1, y1);
	cairo_stroke(g->cr);
	set_dash(g, 0, 0);
}

static int ok(double x, double y)
{
	return isfinite(x) && isfinite(y);
}

/*
 * The next piece of consecutive points whose x and y (and y2, when given) are
 * finite, from *i on: 1 with the piece [*start, *start + *len) and *i past
 * it, or 0 when there is none. A NaN coordinate ends a piece.
 */
static int next_piece(const double *x, const double *y, const double *y2, size_t n, size_t *i,
		      size_t *start, size_t *len)
{
	while (*i < n && !(ok(x[*i], y[*i]) && (!y2 || ok(x[*i], y2[*i]))))
		(*i)++;
	if (*i >= n)
		return 0;
	*start = *i;
	while (*i < n && ok(x[*i], y[*i]) && (!y2 || ok(x[*i], y2[*i])))
		(*i)++;
	*len = *i - *start;
	return 1;
}

/*
 * SVG polyline: every piece of two or more points in one path, a lone
 * point as a dot a little wider than the line (as in PNG).
 */
static void svg_polyline(struct pr_gfx *g, const double *x, const double *y, size_t n, uint32_t rgb,
			 double alpha, double width, int dashed)
{
	struct pr_strbuf *sb = &g->doc, dots = PR_STRBUF_INIT;
	size_t i = 0, start = 0, len = 0, ncmd = 0;
	pr_strbuf_addstr(sb, "<path d=\"");
	while (next_piece(x, y, NULL, n, &i, &start, &len)) {
		if (len == 1) {
			pr_strbuf_addstr(&dots, "<circle");
			svg_attr(&dots, "cx", x[start]);
			svg_attr(&dots, "cy", y[start]);
			svg_attr(&dots, "r", width + 1);
			svg_paint(&dots, "fill", rgb, alpha);
			pr_strbuf_addstr(&dots, "/>\n");
		} else if (len > 1) {
			size_t k;
			svg_pt(sb, 'M', x[start], y[start]);
			svg_pt(sb, 'L', x[start + 1], y[start + 1]);
			for (k = start + 2; k < start + len; k++)
				svg_pt(sb, 0, x[k], y[k]);
			ncmd++;
		}
	}
	if (ncmd) {
		pr_strbuf_addstr(sb, "\" fill=\"none\"");
		svg_stroke(sb, rgb, alpha, width, dashed);
		pr_strbuf_addstr(sb, "/>\n");
	} else {
		sb->len -= strlen("<path d=\"");
		sb->buf[sb->len] = '\0';
	}
	pr_strbuf_add(sb, dots.buf, dots.len);
	pr_strbuf_release(&dots);
}

/* Closes an SVG fill path begun with "<path d=\"" (or drops it when empty). */
static void svg_fill_end(struct pr_gfx *g, size_t mark, int any, uint32_t rgb, double alpha)
{
	struct pr_strbuf *sb = &g->doc;
	if (!any) {
		sb->len = mark;
		sb->buf[sb->len] = '\0';
		return;
	}
	pr_strbuf_addch(sb, '"');
	svg_paint(sb, "fill", rgb, alpha);
	pr_strbuf_addstr(sb, "/>\n");
}

void pr_gfx_polyline(struct pr_gfx *g, const double *x, const double *y, size_t n, uint32_t rgb,
		     double alpha, double width, int dashed)
{
	int huge = n > HUGE_LINE && g->format == PR_GFX_PNG;
	size_t i, in_path = 0, piece = 0, chunk = huge ? HUGE_CHUNK : (size_t)-1;
	double lx = 0, ly = 0;
	int group = alpha < 1 && huge;

	if (!n)
		return;
	if (g->format == PR_GFX_SVG) {
		svg_polyline(g, x, y, n, rgb, alpha, width, dashed);
		return;
	}
	if (group) /* chunks must not darken where they overlap */
		cairo_push_group(g->cr);
	source(g, rgb, group ? 1 : alpha);
	cairo_set_line_width(g->cr, width);
	if (huge)
		cairo_set_line_cap(g->cr, CAIRO_LINE_CAP_ROUND);
	set_dash(g, dashed, width);
	for (i = 0; i <= n; i++) {
		int good = i < n && ok(x[i], y[i]);
		if (good && in_path < chunk) {
			if (!in_path)
				cairo_move_to(g->cr, x[i], y[i]);
			else
				cairo_line_to(g->cr, x[i], y[i]);
			lx = x[i];
			ly = y[i];
			in_path++;
			piece++;
			continue;
		}
		if (in_path) {
			if (piece == 1) { /* a lone point: a dot a little wider than the line */
				cairo_new_path(g->cr);
				cairo_arc(g->cr, lx, ly, width + 1, 0, 2 * PR_PI);
				cairo_fill(g->cr);
			} else {
				cairo_stroke(g->cr);
			}
			in_path = 0;
		}
		if (good) { /* chunk boundary: continue from the last point */
			cairo_move_to(g->cr, lx, ly);
			cairo_line_to(g->cr, x[i], y[i]);
			lx = x[i];
			ly = y[i];
			in_path = 2;
			piece++;
		} else {
			piece = 0;
		}
	}
	set_dash(g, 0, 0);
	cairo_set_line_cap(g->cr, CAIRO_LINE_CAP_BUTT);
	if (group) {
		cairo_pop_group_to_source(g->cr);
		cairo_paint_with_alpha(g->cr, alpha);
	}
}

void pr_gfx_area(struct pr_gfx *g, const double *x, const double *y, size_t n, double base,
		 uint32_t rgb, double alpha)
{
	size_t i = 0, start = 0, len = 0, mark = g->doc.len;
	int svg = g->format == PR_GFX_SVG, any = 0;
	if (!n || !isfinite(base))
		return;
	if (svg)
		pr_strbuf_addstr(&g->doc, "<path d=\"");
	else
		source(g, rgb, alpha);
	while (next_piece(x, y, NULL, n, &i, &start, &len)) {
		if (len >= 2 && svg) {
			size_t k;
			svg_pt(&g->doc, 'M', x[start], base);
			svg_pt(&g->doc, 'L', x[start], y[start]);
			for (k = start + 1; k < start + len; k++)
				svg_pt(&g->doc, 0, x[k], y[k]);
			svg_pt(&g->doc, 0, x[start + len - 1], base);
			pr_strbuf_addch(&g->doc, 'Z');
			any = 1;
		} else if (len >= 2) {
			size_t k;
			cairo_move_to(g->cr, x[start], base);
			for (k = start; k < start + len; k++)
				cairo_line_to(g->cr, x[k], y[k]);
			cairo_line_to(g->cr, x[start + len - 1], base);
			cairo_close_path(g->cr);
		}
	}
	if (svg)
		svg_fill_end(g, mark, any, rgb, alpha);
	else
		cairo_fill(g->cr); /* one fill: pieces never double-blend */
}

void pr_gfx_fill_between(struct pr_gfx *g, const double *x, const double *ylo, const double *yhi,
			 size_t n, uint32_t rgb, double alpha)
{
	size_t i = 0, start = 0, len = 0, mark = g->doc.len;
	int svg = g->format == PR_GFX_SVG, any = 0;
	if (!n)
		return;
	if (svg)
		pr_strbuf_addstr(&g->doc, "<path d=\"");
	else
		source(g, rgb, alpha);
	while (next_piece(x, yhi, ylo, n, &i, &start, &len)) {
		if (len >= 2 && svg) {
			size_t k;
			svg_pt(&g->doc, 'M', x[start], yhi[start]);
			svg_pt(&g->doc, 'L', x[start + 1], yhi[start + 1]);
			for (k = start + 2; k < start + len; k++)
				svg_pt(&g->doc, 0, x[k], yhi[k]);
			for (k = start + len; k-- > start;)
				svg_pt(&g->doc, 0, x[k], ylo[k]);
			pr_strbuf_addch(&g->doc, 'Z');
			any = 1;
		} else if (len >= 2) {
			size_t k;
			cairo_move_to(g->cr, x[start], yhi[start]);
			for (k = start + 1; k < start + len; k++)
				cairo_line_to(g->cr, x[k], yhi[k]);
			for (k = start + len; k-- > start;)
				cairo_line_to(g->cr, x[k], ylo[k]);
			cairo_close_path(g->cr);
		}
	}
	if (svg)
		svg_fill_end(g, mark, any, rgb, alpha);
	else
		cairo_fill(g->cr);
}

void pr_gfx_circle(struct pr_gfx *g, double x, double y, double r, uint32_t fill, double fill_alpha,
		   uint32_t stroke, double stroke_width)
{
	if (!ok(x, y) || !(r > 0))
		return;
	if (g->format == PR_GFX_SVG) {
		pr_strbuf_addstr(&g->doc, "<circle");
		svg_attr(&g->doc, "cx", x);
		svg_attr(&g->doc, "cy", y);
		svg_attr(&g->doc, "r", r);
		svg_paint(&g->doc, "fill", fill, fill_alpha);
		if (stroke_width > 0)
			svg_stroke(&g->doc, stroke, 1, stroke_width, 0);
		pr_strbuf_addstr(&g->doc, "/>\n");
		return;
	}
	cairo_new_path(g->cr);
	cairo_arc(g->cr, x, y, r, 0, 2 * PR_PI);
	source(g, fill, fill_alpha);
	if (stroke_width > 0) {
		cairo_fill_preserve(g->cr);
		source(g, stroke, 1);
		cairo_set_line_width(g->cr, stroke_width);
		cairo_stroke(g->cr);
	} else {
		cairo_fill(g->cr);
	}
}

/* <text>: the anchor by text-anchor, the rotation about it, the font from the root. */
static void svg_text(struct pr_gfx *g, const char *s, double x, double y, double size, int bold,
		     uint32_t rgb, enum pr_gfx_align align, double angle_deg)
{
	struct pr_strbuf *sb = &g->doc;
	pr_strbuf_addstr(sb, "<text");
	svg_attr(sb, "x", x);
	svg_attr(sb, "y", y);
	svg_attr(sb, "font-size", size);
	if (bold)
		pr_strbuf_addstr(sb, " font-weight=\"bold\"");
	if (align == PR_GFX_CENTER)
		pr_strbuf_addstr(sb, " text-anchor=\"middle\"");
	else if (align == PR_GFX_RIGHT)
		pr_strbuf_addstr(sb, " text-anchor=\"end\"");
	svg_paint(sb, "fill", rgb, 1);
	if (angle_deg != 0) {
		pr_strbuf_addstr(sb, " transform=\"rotate(");
		svg_num(sb, -angle_deg);
		pr_strbuf_addch(sb, ' ');
		svg_num(sb, x);
		pr_strbuf_addch(sb, ' ');
		svg_num(sb, y);
		pr_strbuf_addstr(sb, ")\"");
	}
	pr_strbuf_addch(sb, '>');
	svg_esc(sb, s);
	pr_strbuf_addstr(sb, "</text>\n");
}

void pr_gfx_text(struct pr_gfx *g, const char *text, double x, double y, double size, int bold,
		 uint32_t rgb, enum pr_gfx_align align, double angle_deg)
{
	cairo_text_extents_t te;
	char *s;
	double dx = 0;

	if (!text || !text[0] || !ok(x, y) || !(size > 0))
		return;
	s = pr_text_clean(text); /* Cairo rejects invalid UTF-8 (and the context stays broken) */
	if (g->format == PR_GFX_SVG) {
		svg_text(g, s, x, y, size, bold, rgb, align, angle_deg);
		free(s);
		return;
	}
	set_font(g->cr, size, bold);
	cairo_text_extents(g->cr, s, &te);
	if (align == PR_GFX_CENTER)
		dx = -te.x_advance / 2;
	else if (align == PR_GFX_RIGHT)
		dx = -te.x_advance;
	cairo_save(g->cr);
	cairo_translate(g->cr, x, y);
	if (angle_deg != 0)
		cairo_rotate(g->cr, -angle_deg * PR_PI / 180);
	source(g, rgb, 1);
	cairo_move_to(g->cr, dx, 0);
	cairo_show_text(g->cr, s);
	cairo_new_path(g->cr);
	cairo_restore(g->cr);
	free(s);
}

double pr_gfx_text_width(const char *text, double size, int bold)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
	cairo_t *cr = cairo_create(s);
	cairo_text_extents_t te;
	char *c = pr_text_clean(text);
	double w;
	pin_font_options(cr);
	set_font(cr, size, bold);
	cairo_text_extents(cr, c, &te);
	w = cairo_status(cr) == CAIRO_STATUS_SUCCESS ? te.x_advance : -1;
	free(c);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	return w;
}
