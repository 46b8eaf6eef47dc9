/*
 * pngcmp.c - compare two PNG images with a tolerance (STYLE.md rule 19).
 *
 *   pngcmp EXPECTED ACTUAL [N [M [R]]]
 *
 * Both files are decoded with cairo_image_surface_create_from_png. A pixel
 * differs when any of its channels (A, R, G, B; premultiplied as Cairo
 * holds them; opaque images count as alpha 255) differs by more than N
 * (default 0). The images match when they have the same size and at most M
 * pixels differ (default 0).
 *
 * R (default 0) allows features to move by up to R pixels: a pixel then
 * differs only when no pixel within R (Chebyshev distance) of the same
 * place in the other image is within N of it, checked both ways, so that
 * something missing from either image still counts. R = 1 compares drawings
 * whose edges may fall a pixel apart (a decimated line against every point
 * stroked).
 *
 * Exit status: 0 match, 1 mismatch (one line on stdout says why), 2 usage
 * or an unreadable file.
 */
#include <cairo.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_count(const char *s, long *out)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		return -1;
	*out = v;
	return 0;
}

static cairo_surface_t *load(const char *path)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(path);
	cairo_status_t st = cairo_surface_status(s);
	cairo_format_t f;
	if (st != CAIRO_STATUS_SUCCESS) {
		printf("pngcmp: cannot read '%s': %s\n", path, cairo_status_to_string(st));
		cairo_surface_destroy(s);
		return NULL;
	}
	f = cairo_image_surface_get_format(s);
	if (f != CAIRO_FORMAT_ARGB32 && f != CAIRO_FORMAT_RGB24) {
		printf("pngcmp: '%s': unsupported pixel format %d\n", path, (int)f);
		cairo_surface_destroy(s);
		return NULL;
	}
	cairo_surface_flush(s);
	return s;
}

static uint32_t pixel(cairo_surface_t *s, int x, int y)
{
	const unsigned char *row = cairo_image_surface_get_data(s) +
				   (size_t)y * (size_t)cairo_image_surface_get_stride(s);
	uint32_t p;
	memcpy(&p, row + 4 * (size_t)x, 4);
	if (cairo_image_surface_get_format(s) == CAIRO_FORMAT_RGB24)
		p |= 0xFF000000u; /* the unused byte of an opaque image */
	return p;
}

/* Largest channel difference of two pixels. */
static int pdiff(uint32_t pa, uint32_t pb)
{
	int c, d = 0;
	for (c = 0; c < 32; c += 8) {
		int ca = (int)((pa >> c) & 0xFF), cb = (int)((pb >> c) & 0xFF);
		int e = ca > cb ? ca - cb : cb - ca;
		if (e > d)
			d = e;
	}
	return d;
}

/* Smallest difference between a's pixel (x, y) and b's pixels within r of it. */
static int near_diff(cairo_surface_t *a, cairo_surface_t *b, int x, int y, int r, int w, int h)
{
	uint32_t pa = pixel(a, x, y);
	int best = 256, dx, dy;
	for (dy = -r; dy <= r; dy++) {
		for (dx = -r; dx <= r; dx++) {
			int d;
			if (x + dx < 0 || y + dy < 0 || x + dx >= w || y + dy >= h)
				continue;
			d = pdiff(pa, pixel(b, x + dx, y + dy));
			if (d < best)
				best = d;
		}
	}
	return best;
}

int main(int argc, char **argv)
{
	cairo_surface_t *a = NULL, *b = NULL;
	long tol = 0, allowed = 0, differ = 0, radius = 0;
	int w, h, x, y, worst = 0, wx = 0, wy = 0, ret = 2;

	if (argc < 3 || argc > 6 || (argc > 3 && parse_count(argv[3], &tol)) ||
	    (argc > 4 && parse_count(argv[4], &allowed)) ||
	    (argc > 5 && (parse_count(argv[5], &radius) || radius > 8))) {
		fprintf(stderr, "usage: pngcmp EXPECTED ACTUAL [MAX_CHANNEL_DIFF [MAX_PIXELS "
				"[RADIUS (0..8)]]]\n");
		return 2;
	}
	a = load(argv[1]);
	b = a ? load(argv[2]) : NULL;
	if (!a || !b)
		goto out;
	w = cairo_image_surface_get_width(a);
	h = cairo_image_surface_get_height(a);
	if (w != cairo_image_surface_get_width(b) || h != cairo_image_surface_get_height(b)) {
		printf("pngcmp: sizes differ: '%s' is %dx%d, '%s' is %dx%d\n", argv[1], w, h,
		       argv[2], cairo_image_surface_get_width(b),
		       cairo_image_surface_get_height(b));
		ret = 1;
		goto out;
	}
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			uint32_t pa = pixel(a, x, y), pb = pixel(b, x, y);
			int d;
			if (pa == pb)
				continue;
			d = pdiff(pa, pb);
			if (radius && d > tol) {
				int d1 = near_diff(a, b, x, y, (int)radius, w, h);
				int d2 = near_diff(b, a, x, y, (int)radius, w, h);
				d = d1 > d2 ? d1 : d2;
			}
			if (d > worst) {
				worst = d;
				wx = x;
				wy = y;
			}
			if (d > tol)
				differ++;
		}
	}
	if (differ > allowed) {
		printf("pngcmp: %ld of %ld pixels differ by more than %ld%s (at most %ld may); "
		       "largest difference %d at %d,%d\n",
		       differ, (long)w * h, tol, radius ? " nearby" : "", allowed, worst, wx, wy);
		ret = 1;
		goto out;
	}
	ret = 0;
out:
	if (a)
		cairo_surface_destroy(a);
	if (b)
		cairo_surface_destroy(b);
	return ret;
}
