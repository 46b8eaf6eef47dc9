/*
 * reduce.h - min/max decimation of a line for drawing.
 *
 * A line with far more points than the plot has pixel columns draws the
 * same as, and much faster than, its reduction: per pixel column, keep the
 * first, the minimum, the maximum and the last point of each run of
 * consecutive points that fall into that column, in their original order
 * (duplicates removed, so 1 to 4 points per run, 4 for a dense series).
 * The kept points keep their y and, except for the extremes of a dense run
 * (more than 4 points), their x; those extremes move to the column centre
 * (at most half a pixel). The stroke of the reduction covers the pixels the
 * stroke of the whole series covers: inside a column the vertical extent
 * min..max across the column (strokes of neighbouring columns, 1 px apart,
 * overlap), between columns the same last-to-first segment; edges may
 * differ by a fraction of a pixel.
 *
 * Non-finite values (NaN, +-Inf in x or y) break the line: the run before
 * is flushed and one (NaN, NaN) gap marker is emitted between the points
 * on either side; no marker is emitted at the start or the end, and
 * consecutive gaps give one marker.
 *
 * Points outside [x0, x1] are kept and counted in the first/last column,
 * so segments that leave the plot keep their direction. x need not be
 * sorted (each change of column starts a new run; then the output can be
 * as long as the input). x1 <= x0, non-finite bounds or columns == 0 put
 * every point into one column.
 *
 * USAGE:
 *   double *rx, *ry; size_t rn;
 *   pr_reduce_minmax(x, y, n, xlo, xhi, plot_width_px, &rx, &ry, &rn);
 *   ... draw rn points, NaN = gap ...
 *   free(rx); free(ry);
 *
 * OWNERSHIP: *out_x and *out_y are allocated here (pr_xmalloc, never NULL,
 * even when *nout is 0) and are the caller's to free(). x == NULL means
 * x[i] = i.
 *
 * LIMITATIONS: made for strokes at least about 1 px wide on linear axes;
 * markers drawn at every point would need every point.
 */
#ifndef PR_REDUCE_H
#define PR_REDUCE_H

#include <stddef.h>

void pr_reduce_minmax(const double *x, const double *y, size_t n, double x0, double x1,
		      size_t columns, double **out_x, double **out_y, size_t *nout);

#endif
