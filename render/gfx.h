/*
 * gfx.h - the drawing layer: the only code that talks to Cairo
 * (render/gfx.c is the only file that includes cairo.h; STYLE.md rule 16).
 *
 * USAGE:
 *   struct pr_gfx *g = pr_gfx_new(PR_GFX_PNG, 1200, 420, &out, err);
 *   if (!g) return -1;
 *   pr_gfx_fill_rect(g, 0, 0, 1200, 420, 0xFFFFFF, 1);
 *   pr_gfx_polyline(g, xs, ys, n, 0x1F77B4, 1, 2, 0);
 *   pr_gfx_text(g, "Title", 600, 20, 15, 1, 0x222222, PR_GFX_CENTER, 0);
 *   if (pr_gfx_finish(g, err)) return -1;     writes into `out`, frees g
 *
 * One function creates the surface per format (pr_gfx_new: PNG = an ARGB32
 * image surface written with cairo_surface_write_to_png_stream at the end;
 * SVG = a lean SVG 1.1 document written by hand, no Cairo), and one
 * finishes it and checks every status (pr_gfx_finish). Both write through
 * pr_output_write(). SVG: one element per drawing call (<rect>, <path>,
 * <circle>, <text> with the font family, size, weight, anchor, rotation and
 * colour of the PNG; escaped), coordinates rounded to 2 decimals, a clip as
 * a <clipPath> (ids c1, c2, ... per document, so the same drawing gives the
 * same bytes). The viewer lays the text out with its own DejaVu Sans (or a
 * fallback): about 8 KB a panel where Cairo's glyph outlines took 80-180 KB.
 *
 * Determinism: text uses the toy font API with the family pinned to
 * "DejaVu Sans" (regular or bold), grey antialiasing, no hinting and
 * unhinted metrics, so glyph advances are the font's own (the table in
 * render/layout.c) and output does not depend on screen settings. Strokes
 * of at most 1.5 px along the pixel grid, and rectangles, are snapped to
 * whole/half pixels in PNG only (crisp 1 px lines); SVG keeps the
 * coordinates (to 2 decimals).
 *
 * Colors are 0xRRGGBB with a separate alpha in [0, 1]. Coordinates are px,
 * origin top left. NaN coordinates break polylines and areas. Drawing
 * calls on a surface in an error state do nothing; pr_gfx_finish reports.
 *
 * OWNERSHIP: the gfx borrows `out` until pr_gfx_finish/pr_gfx_free; the
 * caller still closes the output. pr_gfx_free marks `out` failed (its
 * close then fails and removes a temporary file).
 *
 * LIMITATIONS: one clip at a time; no images, gradients or PDF. Characters
 * DejaVu Sans lacks come from whatever font fontconfig substitutes (their
 * widths then differ from the layout's estimate). Fontconfig keeps caches
 * for the life of the process: LeakSanitizer reports them unless the
 * program suppresses "leak:libfontconfig.so" (the render tests do, with
 * __lsan_default_suppressions).
 */
#ifndef PR_GFX_H
#define PR_GFX_H

#include <stddef.h>
#include <stdint.h>

#include "base/output.h"
#include "base/error.h"
#include "base/pr_common.h"

enum pr_gfx_format {
	PR_GFX_PNG,
	PR_GFX_SVG
};

enum pr_gfx_align {
	PR_GFX_LEFT,
	PR_GFX_CENTER,
	PR_GFX_RIGHT
};

#define PR_GFX_FONT "DejaVu Sans"

struct pr_gfx;

/* A surface of width x height px. NULL with PR_E_IO when Cairo fails. */
struct pr_gfx *pr_gfx_new(enum pr_gfx_format format, int width, int height, struct pr_output *out,
			  struct pr_error *err);

/*
 * Finish the drawing: PNG is encoded into the output, SVG is closed; every
 * Cairo status is checked. Frees g (also on failure). Returns 0, or -1 with
 * PR_E_IO ("cannot write: ..." with the output path when writing failed,
 * "cairo: ..." otherwise).
 */
int pr_gfx_finish(struct pr_gfx *g, struct pr_error *err) PR_MUST_CHECK;

/* Abandon a drawing (nothing more is written). NULL is fine. */
void pr_gfx_free(struct pr_gfx *g);

/* Restrict drawing to a rectangle until pr_gfx_unclip (not nested). */
void pr_gfx_clip(struct pr_gfx *g, double x, double y, double w, double h);
void pr_gfx_unclip(struct pr_gfx *g);

void pr_gfx_fill_rect(struct pr_gfx *g, double x, double y, double w, double h, uint32_t rgb,
		      double alpha);
/* A rectangle outline of the given stroke width. */
void pr_gfx_stroke_rect(struct pr_gfx *g, double x, double y, double w, double h, uint32_t rgb,
			double alpha, double width);
/* One segment; dashed = a 6-4 pattern scaled with the width. */
void pr_gfx_line(struct pr_gfx *g, double x0, double y0, double x1, double y1, uint32_t rgb,
		 double alpha, double width, int dashed);
/*
 * A polyline through n points (round joins); a NaN coordinate ends one
 * piece and starts the next; a piece of one point draws a dot.
 */
void pr_gfx_polyline(struct pr_gfx *g, const double *x, const double *y, size_t n, uint32_t rgb,
		     double alpha, double width, int dashed);
/* The area between the polyline and the horizontal line y = base (NaN-separated pieces). */
void pr_gfx_area(struct pr_gfx *g, const double *x, const double *y, size_t n, double base,
		 uint32_t rgb, double alpha);
/*
 * The area between two polylines over the same x (a stacked band): from
 * ylo up to yhi; a NaN in either ends one piece.
 */
void pr_gfx_fill_between(struct pr_gfx *g, const double *x, const double *ylo, const double *yhi,
			 size_t n, uint32_t rgb, double alpha);
/* A disc with an optional outline (stroke_width 0 = none). */
void pr_gfx_circle(struct pr_gfx *g, double x, double y, double r, uint32_t fill, double fill_alpha,
		   uint32_t stroke, double stroke_width);

/*
 * Text (UTF-8; invalid bytes are drawn as U+FFFD, controls as spaces) with
 * its baseline anchor at (x, y), aligned left/center/right along the
 * baseline, rotated by angle_deg counter-clockwise about the anchor.
 */
void pr_gfx_text(struct pr_gfx *g, const char *text, double x, double y, double size, int bold,
		 uint32_t rgb, enum pr_gfx_align align, double angle_deg);

/*
 * The advance width Cairo gives the text with the pinned font settings
 * (no surface needed). For tests that check the built-in width table.
 */
double pr_gfx_text_width(const char *text, double size, int bold);

#endif
