/* test_reduce.c - render/reduce: per-pixel-column min/max decimation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/reduce.h"

struct out {
	double *x, *y;
	size_t n;
};

static void reduce(const double *x, const double *y, size_t n, double x0, double x1, size_t cols,
		   struct out *o)
{
	pr_reduce_minmax(x, y, n, x0, x1, cols, &o->x, &o->y, &o->n);
	assert_non_null(o->x);
	assert_non_null(o->y);
}

static void release(struct out *o)
{
	free(o->x);
	free(o->y);
	memset(o, 0, sizeof(*o));
}

static void test_empty_and_single(void **state)
{
	struct out o;
	double x = 3, y = 4;
	(void)state;
	reduce(NULL, NULL, 0, 0, 1, 100, &o);
	assert_int_equal(o.n, 0);
	release(&o);

	reduce(&x, &y, 1, 0, 10, 100, &o);
	assert_int_equal(o.n, 1);
	assert_true(o.x[0] == 3 && o.y[0] == 4);
	release(&o);
}

static void test_sparse_kept(void **state)
{
	/* Fewer points than columns: every point is its own run and kept as is. */
	double x[5] = { 0, 1, 2, 3, 4 }, y[5] = { 5, -1, 7, 7, 2 };
	struct out o;
	size_t i;
	(void)state;
	reduce(x, y, 5, 0, 4, 1000, &o);
	assert_int_equal(o.n, 5);
	for (i = 0; i < 5; i++)
		assert_true(o.x[i] == x[i] && o.y[i] == y[i]);
	release(&o);
}

/* Dense sorted data: <= 4 points per column, each column's min/max kept, order kept. */
static void test_dense_minmax_per_column(void **state)
{
	enum {
		N = 100000,
		COLS = 37
	};
	double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
	double cmin[COLS], cmax[COLS], omin[COLS], omax[COLS];
	struct out o;
	size_t i;
	unsigned r = 1;
	(void)state;
	for (i = 0; i < COLS; i++) {
		cmin[i] = omin[i] = INFINITY;
		cmax[i] = omax[i] = -INFINITY;
	}
	for (i = 0; i < N; i++) {
		size_t c;
		r = r * 1103515245u + 12345u;
		x[i] = (double)i / N * 50.0;
		y[i] = (double)(r >> 16) - 32768.0;
		c = (size_t)(x[i] / 50.0 * COLS);
		cmin[c] = fmin(cmin[c], y[i]);
		cmax[c] = fmax(cmax[c], y[i]);
	}
	reduce(x, y, N, 0, 50, COLS, &o);
	assert_true(o.n <= 4 * COLS);
	assert_true(o.n >= 2 * COLS);
	assert_true(o.x[0] == x[0] && o.y[0] == y[0]);			   /* first kept */
	assert_true(o.x[o.n - 1] == x[N - 1] && o.y[o.n - 1] == y[N - 1]); /* last kept */
	for (i = 0; i < o.n; i++) {
		size_t c = (size_t)(o.x[i] / 50.0 * COLS);
		if (c >= COLS)
			c = COLS - 1;
		assert_false(isnan(o.y[i]));
		if (i)
			assert_true(o.x[i] >= o.x[i - 1]); /* sorted stays sorted */
		omin[c] = fmin(omin[c], o.y[i]);
		omax[c] = fmax(omax[c], o.y[i]);
	}
	for (i = 0; i < COLS; i++) {
		assert_true(omin[i] == cmin[i]);
		assert_true(omax[i] == cmax[i]);
	}
	release(&o);
	free(x);
	free(y);
}

/* The extremes of a run keep their time order (max before min here). */
static void test_time_order(void **state)
{
	double x[6] = { 0.0, 0.1, 0.2, 0.3, 0.4, 0.5 }, y[6] = { 5, 9, 6, 1, 4, 3 };
	struct out o;
	(void)state;
	reduce(x, y, 6, 0, 1, 1, &o);
	assert_int_equal(o.n, 4);
	assert_true(o.y[0] == 5 && o.y[1] == 9 && o.y[2] == 1 && o.y[3] == 3);
	/* a dense run: the extremes sit at the column centre, clamped into the run */
	assert_true(o.x[0] == 0.0 && o.x[3] == 0.5);
	assert_true(o.x[1] == 0.5 && o.x[2] == 0.5);
	release(&o);
}

static void test_nan_gaps(void **state)
{
	double y[9] = { NAN, 1, 2, NAN, NAN, 3, INFINITY, 4, NAN };
	struct out o;
	(void)state;
	reduce(NULL, y, 9, 0, 8, 100, &o); /* x = index */
	/* no marker at the ends, one per gap */
	assert_int_equal(o.n, 6);
	assert_true(o.x[0] == 1 && o.y[0] == 1);
	assert_true(o.x[1] == 2 && o.y[1] == 2);
	assert_true(isnan(o.x[2]) && isnan(o.y[2]));
	assert_true(o.x[3] == 5 && o.y[3] == 3);
	assert_true(isnan(o.y[4]));
	assert_true(o.x[5] == 7 && o.y[5] == 4);
	release(&o);

	/* NaN x breaks too; all-NaN gives nothing */
	{
		double xs[4] = { 0, NAN, 2, 3 }, ys[4] = { 1, 1, 1, 1 }, nn[3] = { NAN, NAN, NAN };
		reduce(xs, ys, 4, 0, 3, 10, &o);
		assert_int_equal(o.n, 4);
		assert_true(isnan(o.y[1]));
		release(&o);
		reduce(NULL, nn, 3, 0, 2, 10, &o);
		assert_int_equal(o.n, 0);
		release(&o);
	}
}

static void test_degenerate_columns(void **state)
{
	double y[7] = { 3, 1, 4, 1, 5, 9, 2 };
	struct out o;
	(void)state;
	/* no columns, an empty or reversed range, non-finite bounds: one column */
	reduce(NULL, y, 7, 0, 6, 0, &o);
	assert_int_equal(o.n, 4);
	assert_true(o.y[0] == 3 && o.y[1] == 1 && o.y[2] == 9 && o.y[3] == 2);
	release(&o);
	reduce(NULL, y, 7, 5, 5, 100, &o);
	assert_int_equal(o.n, 4);
	release(&o);
	reduce(NULL, y, 7, NAN, 5, 100, &o);
	assert_int_equal(o.n, 4);
	release(&o);
	reduce(NULL, y, 7, -INFINITY, INFINITY, 100, &o);
	assert_int_equal(o.n, 4);
	release(&o);
}

static void test_outside_and_unsorted(void **state)
{
	/*
	 * Points left and right of the range land in the edge columns and keep x:
	 * column 0 holds -100, -50 and 0.5 (-50 is neither an end nor an extreme).
	 */
	double x[6] = { -100, -50, 0.5, 1.5, 50, 100 }, y[6] = { 1, 2, 3, 4, 5, 6 };
	double ux[6] = { 0.5, 5.5, 1.5, 7.5, 0.2, 9.9 };
	struct out o;
	size_t i;
	(void)state;
	reduce(x, y, 6, 0, 10, 10, &o);
	assert_int_equal(o.n, 5);
	assert_true(o.x[0] == -100 && o.x[1] == 0.5 && o.x[4] == 100);
	release(&o);
	/* unsorted x: every change of column starts a run, nothing is lost */
	reduce(ux, y, 6, 0, 10, 10, &o);
	assert_int_equal(o.n, 6);
	for (i = 0; i < 6; i++)
		assert_true(o.x[i] == ux[i] && o.y[i] == y[i]);
	release(&o);
}

/* A single-sample spike in a dense series survives. */
static void test_spike_survives(void **state)
{
	enum {
		N = 1000000
	};
	double *y = malloc(N * sizeof(double));
	struct out o;
	size_t i, found = 0;
	(void)state;
	for (i = 0; i < N; i++)
		y[i] = (double)(i % 3);
	y[777777] = 1000;
	reduce(NULL, y, N, 0, N - 1, 500, &o);
	assert_true(o.n <= 4 * 500);
	for (i = 0; i < o.n; i++)
		found += o.y[i] == 1000;
	assert_int_equal(found, 1);
	release(&o);
	free(y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_single),
		cmocka_unit_test(test_sparse_kept),
		cmocka_unit_test(test_dense_minmax_per_column),
		cmocka_unit_test(test_time_order),
		cmocka_unit_test(test_nan_gaps),
		cmocka_unit_test(test_degenerate_columns),
		cmocka_unit_test(test_outside_and_unsorted),
		cmocka_unit_test(test_spike_survives),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
