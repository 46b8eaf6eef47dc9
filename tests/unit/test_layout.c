/* test_layout.c - render/layout: ticks, units, text fitting and chart layout (no Cairo). */
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

#include "render/chart.h"
#include "render/compare_panel.h"
#include "render/layout.h"
#include "base/strbuf.h"

#define ELLIPSIS "\xE2\x80\xA6"

/* ---- ticks ---- */

static void check_ticks(double lo, double hi, size_t max_int, double step, double first,
			size_t count, int decimals)
{
	struct pr_ticks t;
	assert_int_equal(pr_nice_ticks(lo, hi, max_int, &t), 0);
	assert_true(fabs(t.step - step) <= step * 1e-12);
	assert_true(fabs(t.first - first) <= step * 1e-9);
	assert_int_equal(t.count, count);
	assert_int_equal(t.decimals, decimals);
}

static void test_nice_ticks(void **state)
{
	struct pr_ticks t;
	(void)state;
	check_ticks(0, 10, 5, 2, 0, 6, 0);
	check_ticks(0, 1, 5, 0.2, 0, 6, 1);
	check_ticks(0, 7.8, 7, 2, 0, 4, 0);	 /* raw 1.11 -> 2 */
	check_ticks(0, 100, 10, 10, 0, 11, 0);	 /* exactly 10 intervals */
	check_ticks(-3.7, 12.1, 6, 5, 0, 3, 0);	 /* raw 2.63 -> 5: 0, 5, 10 */
	check_ticks(-0.83, 1.99, 5, 1, 0, 2, 0); /* ticks only inside the range */
	check_ticks(0.001, 0.0042, 4, 0.001, 0.001, 4, 3);
	check_ticks(-50, -10, 4, 10, -50, 5, 0);
	check_ticks(1e15, 1e15 + 1000, 5, 200, 1e15, 6, 0);
	check_ticks(0, 3e-9, 3, 1e-9, 0, 4, 9);
	/* every step is 1, 2 or 5 times a power of ten, and the count is bounded */
	{
		double lo, span;
		for (lo = -1e6; lo < 1e6; lo += 333333.3) {
			for (span = 1e-6; span < 1e12; span *= 7.3) {
				size_t k;
				for (k = 1; k <= 12; k++) {
					double m, eps;
					assert_int_equal(pr_nice_ticks(lo, lo + span, k, &t), 0);
					assert_true(t.count >= 1 || span < t.step);
					assert_true(t.count <= k + 1);
					if (!t.count)
						continue;
					m = t.step / pow(10, floor(log10(t.step) + 1e-9));
					assert_true(fabs(m - 1) < 1e-6 || fabs(m - 2) < 1e-6 ||
						    fabs(m - 5) < 1e-6);
					/* within rounding: a step and an ulp of lo */
					eps = t.step * 1e-6 + fabs(lo) * 1e-15;
					assert_true(t.first >= lo - eps);
					assert_true(t.first + (double)(t.count - 1) * t.step <=
						    lo + span + eps);
				}
			}
		}
	}
	/* invalid ranges */
	assert_int_equal(pr_nice_ticks(1, 1, 5, &t), -1);
	assert_int_equal(t.count, 0);
	assert_int_equal(pr_nice_ticks(2, 1, 5, &t), -1);
	assert_int_equal(pr_nice_ticks(NAN, 1, 5, &t), -1);
	assert_int_equal(pr_nice_ticks(0, INFINITY, 5, &t), -1);
	assert_int_equal(pr_nice_ticks(-1e308, 1e308, 5, &t), -1); /* span overflows */
	assert_int_equal(pr_nice_ticks(0, 1, 0, &t), 0);	   /* 0 intervals = 1 */
	assert_int_equal(t.count, 2);
}

/* ---- units ---- */

static void check_unit(const char *unit, double maxabs, enum pr_unit_kind kind, const char *name,
		       const char *suffix, double scale)
{
	struct pr_axis_unit u;
	pr_axis_unit_choose(&u, unit, maxabs);
	assert_int_equal(u.kind, kind);
	assert_string_equal(u.name, name);
	assert_string_equal(u.suffix, suffix);
	assert_true(fabs(u.scale - scale) <= scale * 1e-12);
}

static void test_units(void **state)
{
	(void)state;
	check_unit("bytes", 500, PR_UNIT_BYTES, "B", "", 1);
	check_unit("bytes", 1024, PR_UNIT_BYTES, "KiB", "", 1024);
	check_unit("B", 5e9, PR_UNIT_BYTES, "GiB", "", 1073741824.0);
	check_unit("bytes", 1e18, PR_UNIT_BYTES, "PiB", "", 1125899906842624.0);
	check_unit("bytes", 5e18, PR_UNIT_BYTES, "EiB", "", 1152921504606846976.0);
	check_unit("bytes", 1e300, PR_UNIT_BYTES, "EiB", "", 1152921504606846976.0);
	check_unit("MiB", 3000, PR_UNIT_BYTES, "GiB", "", 1073741824.0); /* 3000 MiB */
	check_unit("s", 0.002, PR_UNIT_TIME, "ms", "", 1e-3);
	check_unit("s", 137, PR_UNIT_TIME, "s", "", 1);
	check_unit("s", 700, PR_UNIT_TIME, "min", "", 60);
	check_unit("s", 40000, PR_UNIT_TIME, "h", "", 3600);
	check_unit("ms", 500000, PR_UNIT_TIME, "s", "", 1);
	check_unit("ns", 1500, PR_UNIT_TIME, "us", "", 1e-6);
	check_unit("ns", 15, PR_UNIT_TIME, "ns", "", 1e-9);
	check_unit("s", 0, PR_UNIT_TIME, "s", "", 1);
	check_unit("percent", 84, PR_UNIT_PERCENT, "%", "", 1);
	check_unit("%", 1e6, PR_UNIT_PERCENT, "%", "", 1);
	check_unit("", 1500, PR_UNIT_PLAIN, "", "", 1);
	check_unit(NULL, 12000, PR_UNIT_PLAIN, "", "k", 1e3);
	check_unit("tokens/s", 2e6, PR_UNIT_PLAIN, "tokens/s", "M", 1e6);
	check_unit("MB", 3310.5, PR_UNIT_PLAIN, "MB", "", 1);
	check_unit("", 7e18, PR_UNIT_PLAIN, "", "E", 1e18);
	check_unit("", NAN, PR_UNIT_PLAIN, "", "", 1);
	check_unit("", -5, PR_UNIT_PLAIN, "", "", 1);
}

static void check_format(const char *unit, double maxabs, double v, int decimals, const char *want)
{
	struct pr_axis_unit u;
	char buf[64];
	pr_axis_unit_choose(&u, unit, maxabs);
	pr_axis_unit_format(&u, v, decimals, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

static void test_format(void **state)
{
	(void)state;
	check_format("bytes", 5e9, 1.5 * 1073741824.0, 1, "1.5");
	check_format("bytes", 5e9, 0, 1, "0");
	check_format("", 20000, 2500, 1, "2.5k");
	check_format("", 20000, -5000, 0, "-5k");
	check_format("", 20000, -0.0, 0, "0");
	check_format("", 100, -0.04, 1, "0"); /* rounds to -0.0 */
	check_format("", 100, -0.04, 2, "-0.04");
	check_format("s", 700, 120, 0, "2"); /* minutes */
	check_format("percent", 50, 12.5, 1, "12.5");
	check_format("", 1e300, 1e300, 0, "1e+282E");
	check_format("", 1, NAN, 0, "?");
}

/* ---- text ---- */

static double fixed_w(void *ctx, const char *text, double size, int bold)
{
	(void)ctx;
	(void)bold;
	return (double)strlen(text) * size * 0.5; /* bytes, not characters: fine for ASCII */
}

static void test_text_width_and_elide(void **state)
{
	const struct pr_text_metrics *m = &pr_text_metrics_dejavu;
	char *s;
	(void)state;
	/* DejaVu Sans: H = 1540, i = 569 units of 2048 */
	assert_true(fabs(pr_text_width_dejavu(NULL, "Hi", 2048, 0) - 2109) < 1e-9);
	assert_true(fabs(pr_text_width_dejavu(NULL, "Hi", 11, 0) - 2109 * 11 / 2048.0) < 1e-9);
	assert_true(pr_text_width_dejavu(NULL, "Hi", 11, 1) >
		    pr_text_width_dejavu(NULL, "Hi", 11, 0));
	assert_true(pr_text_width_dejavu(NULL, "", 11, 0) == 0);
	assert_true(pr_text_width_dejavu(NULL, NULL, 11, 0) == 0);
	/* U+00E9 (table), U+2026 (ellipsis), a CJK character (0.6 em), bad UTF-8 (U+FFFD) */
	assert_true(fabs(pr_text_width_dejavu(NULL, "\xC3\xA9", 2048, 0) - 1260) < 1e-9);
	assert_true(fabs(pr_text_width_dejavu(NULL, ELLIPSIS, 2048, 0) - 2048) < 1e-9);
	assert_true(fabs(pr_text_width_dejavu(NULL, "\xE4\xB8\xAD", 2048, 0) - 1229) < 1e-9);
	assert_true(fabs(pr_text_width_dejavu(NULL, "\xFF", 2048, 0) - 2100) < 1e-9);

	s = pr_text_elide(m, "short", 11, 0, 1000);
	assert_string_equal(s, "short");
	free(s);
	s = pr_text_elide(m, "a long label that does not fit", 11, 0, 60);
	assert_true(pr_text_width_dejavu(NULL, s, 11, 0) <= 60);
	assert_true(strlen(s) > strlen(ELLIPSIS));
	assert_string_equal(s + strlen(s) - strlen(ELLIPSIS), ELLIPSIS);
	assert_int_equal(strncmp(s, "a long", 6), 0);
	free(s);
	s = pr_text_elide(m, "word   spaces", 11, 0,
			  pr_text_width_dejavu(NULL, "word   ", 11, 0) + 11);
	assert_string_equal(s, "word" ELLIPSIS); /* trailing spaces dropped before the ellipsis */
	free(s);
	s = pr_text_elide(m, "abc", 11, 0, 3); /* not even the ellipsis fits */
	assert_string_equal(s, "");
	free(s);
	/* multi-byte text is cut on character boundaries */
	s = pr_text_elide(m, "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 11, 0, 30);
	assert_true(strlen(s) % 2 == 1); /* n * 2-byte e-acute + 3-byte ellipsis */
	free(s);

	s = pr_text_clean("a\nb\t\x01"
			  "c\xFF");
	assert_string_equal(s, "a b  c\xEF\xBF\xBD");
	free(s);
	s = pr_text_clean(NULL);
	assert_string_equal(s, "");
	free(s);
}

/* ---- the chart layout ---- */

static const struct pr_text *find_text(const struct pr_layout *lo, const char *role, size_t k)
{
	size_t i;
	for (i = 0; i < lo->ntexts; i++) {
		if (!strcmp(lo->texts[i].role, role) && k-- == 0)
			return &lo->texts[i];
	}
	return NULL;
}

static size_t count_text(const struct pr_layout *lo, const char *role)
{
	size_t i, n = 0;
	for (i = 0; i < lo->ntexts; i++)
		n += !strcmp(lo->texts[i].role, role);
	return n;
}

/* Horizontal extent of a text item. */
static void text_span(const struct pr_text *t, double *l, double *r)
{
	double w = pr_text_width_dejavu(NULL, t->text, t->size, t->bold);
	*l = t->align == PR_ALIGN_LEFT	  ? t->x
	     : t->align == PR_ALIGN_RIGHT ? t->x - w
					  : t->x - w / 2;
	*r = *l + w;
}

static void check_sane(const struct pr_layout *lo)
{
	size_t i;
	double prev_r = -1e9;
	assert_true(lo->plot.x > 0 && lo->plot.y > 0);
	assert_true(lo->plot.w >= 20 && lo->plot.h >= 20);
	assert_true(lo->plot.x + lo->plot.w <= lo->width);
	assert_true(lo->plot.y + lo->plot.h <= lo->height);
	assert_true(isfinite(lo->x.lo) && isfinite(lo->x.hi) && lo->x.hi > lo->x.lo);
	assert_true(isfinite(lo->y.lo) && isfinite(lo->y.hi) && lo->y.hi > lo->y.lo);
	for (i = 0; i < lo->x.nticks; i++) {
		assert_true(lo->x.ticks[i].pos >= lo->plot.x - 0.01);
		assert_true(lo->x.ticks[i].pos <= lo->plot.x + lo->plot.w + 0.01);
	}
	for (i = 0; i < lo->y.nticks; i++) {
		assert_true(lo->y.ticks[i].pos >= lo->plot.y - 0.01);
		assert_true(lo->y.ticks[i].pos <= lo->plot.y + lo->plot.h + 0.01);
	}
	/* x tick labels never overlap and stay in the image */
	for (i = 0; i < lo->ntexts; i++) {
		const struct pr_text *t = &lo->texts[i];
		double l, r;
		text_span(t, &l, &r);
		if (!t->vertical) {
			assert_true(l >= -0.01);
			assert_true(r <= lo->width + 0.01);
		}
		assert_true(t->y >= 0 && t->y <= lo->height);
		if (strcmp(t->role, "xtick"))
			continue;
		assert_true(l >= prev_r + 4);
		prev_r = r;
	}
}

static void layout_ok(const struct pr_chart *c, struct pr_layout *lo)
{
	struct pr_error err = PR_ERROR_INIT;
	pr_layout_init(lo);
	if (pr_layout_chart(lo, c, NULL, &err))
		fail_msg("pr_layout_chart: %s", err.text);
	check_sane(lo);
}

static double xs[200], ys[200];

static void fill_series(size_t n, double x0, double dx, double y0, double dy)
{
	size_t i;
	for (i = 0; i < n; i++) {
		xs[i] = x0 + dx * (double)i;
		ys[i] = y0 + dy * (double)(i % 17);
	}
}

static void test_line_layout(void **state)
{
	struct pr_chart_line l = { .label = "RSS", .rgb = 0x2E86AB, .x = xs, .y = ys, .n = 200 };
	struct pr_chart c = { .title = "Memory",
			      .x_label = "Time",
			      .x_unit = "s",
			      .y_label = "Memory",
			      .y_unit = "bytes",
			      .lines = &l,
			      .nlines = 1 };
	struct pr_layout lo;
	const struct pr_text *t;
	(void)state;
	fill_series(200, 0, 0.5, 1e9, 2e8);
	layout_ok(&c, &lo);
	assert_int_equal(lo.width, 1200);
	assert_int_equal(lo.height, 420);
	assert_false(lo.empty);
	assert_string_equal(lo.y.unit.name, "GiB");
	assert_string_equal(lo.x.unit.name, "s");
	assert_true(lo.y.lo == 0); /* all >= 0 and min < max/2: the axis starts at 0 */
	assert_true(lo.x.lo == 0 && lo.x.hi == 99.5);
	assert_non_null(t = find_text(&lo, "ylabel", 0));
	assert_string_equal(t->text, "Memory (GiB)");
	assert_true(t->vertical);
	assert_non_null(t = find_text(&lo, "xlabel", 0));
	assert_string_equal(t->text, "Time (s)");
	assert_non_null(t = find_text(&lo, "title", 0));
	assert_true(t->bold && t->size == PR_SIZE_TITLE);
	assert_true(lo.legend.shown);
	assert_true(lo.legend.box.x >= lo.plot.x + lo.plot.w); /* right, outside */
	assert_true(lo.legend.box.x + lo.legend.box.w <= 1200);
	assert_int_equal(lo.legend.nentries, 1);
	assert_int_equal(lo.legend.entries[0].kind, PR_SWATCH_LINE);
	assert_true(count_text(&lo, "ytick") >= 4);
	assert_true(count_text(&lo, "xtick") >= 4);
	assert_int_equal(lo.nlines, 1);
	assert_int_equal(lo.lines[0].finite, 200);
	assert_false(lo.lines[0].reduce);
	pr_layout_release(&lo);
	assert_null(lo.texts);
	assert_int_equal(lo.ntexts, 0);

	/* no legend wanted, or nothing to put in it: the plot takes the width */
	c.legend = PR_LEGEND_NONE;
	layout_ok(&c, &lo);
	assert_false(lo.legend.shown);
	assert_true(lo.plot.x + lo.plot.w > 1150);
	pr_layout_release(&lo);
	c.legend = PR_LEGEND_RIGHT;
	l.label = NULL;
	layout_ok(&c, &lo);
	assert_false(lo.legend.shown);
	pr_layout_release(&lo);
}

static void test_hostile_data(void **state)
{
	double nan3[3] = { NAN, INFINITY, -INFINITY }, one_x = 5, one_y = 7;
	double flat[4] = { 3, 3, 3, 3 }, zero[4] = { 0, 0, 0, 0 }, samex[4] = { 2, 2, 2, 2 };
	double neg[4] = { -5, -20, -7, -11 }, huge[3] = { 1e18, 2e18, 5e17 };
	struct pr_chart_line l = { .label = "x", .rgb = 1 };
	struct pr_chart c = { .lines = &l,
			      .nlines = 1,
			      .x_unit = "s",
			      .y_unit = "bytes",
			      .x_label = "T",
			      .y_label = "Y",
			      .title = "<&>\"'" };
	struct pr_layout lo;
	(void)state;

	/* n = 0 and all non-finite: empty, with the empty text in the middle */
	l.n = 0;
	layout_ok(&c, &lo);
	assert_true(lo.empty);
	assert_string_equal(find_text(&lo, "empty", 0)->text, "No data");
	assert_string_equal(find_text(&lo, "ylabel", 0)->text, "Y"); /* no unit without data */
	assert_int_equal(lo.x.nticks + lo.y.nticks, 0);
	assert_string_equal(find_text(&lo, "title", 0)->text, "<&>\"'");
	pr_layout_release(&lo);
	l.y = nan3;
	l.n = 3;
	c.empty_text = "No disk I/O detected";
	layout_ok(&c, &lo);
	assert_true(lo.empty);
	assert_string_equal(find_text(&lo, "empty", 0)->text, "No disk I/O detected");
	assert_int_equal(lo.lines[0].finite, 0);
	pr_layout_release(&lo);

	/* one point: both ranges padded */
	l.x = &one_x;
	l.y = &one_y;
	l.n = 1;
	layout_ok(&c, &lo);
	assert_false(lo.empty);
	assert_true(lo.x.lo < 5 && lo.x.hi > 5);
	assert_true(lo.y.lo < 7 && lo.y.hi > 7);
	pr_layout_release(&lo);

	/* flat, all zero, zero-width x */
	l.x = samex;
	l.y = flat;
	l.n = 4;
	layout_ok(&c, &lo);
	assert_true(lo.y.lo < 3 && lo.y.hi > 3);
	assert_true(lo.x.lo < 2 && lo.x.hi > 2);
	pr_layout_release(&lo);
	l.x = NULL;
	l.y = zero;
	layout_ok(&c, &lo);
	assert_true(lo.y.lo == 0 && lo.y.hi == 1);
	assert_true(lo.x.lo == 0 && lo.x.hi == 3);
	pr_layout_release(&lo);

	/* negative values: 0 taken in when near, else not; the range covers the data */
	l.y = neg;
	layout_ok(&c, &lo);
	assert_true(lo.y.lo < -20 && lo.y.hi == 0);
	pr_layout_release(&lo);
	neg[0] = -50;
	neg[1] = -60;
	neg[2] = -55;
	neg[3] = -52;
	layout_ok(&c, &lo);
	assert_true(lo.y.lo < -60 && lo.y.hi > -50 && lo.y.hi < 0);
	pr_layout_release(&lo);
	l.fill_alpha = 0.2; /* a fill reaches 0 */
	layout_ok(&c, &lo);
	assert_true(lo.y.hi == 0);
	pr_layout_release(&lo);
	l.fill_alpha = 0;

	/* 1e18 bytes */
	l.y = huge;
	l.n = 3;
	layout_ok(&c, &lo);
	assert_string_equal(lo.y.unit.name, "EiB");
	assert_string_equal(find_text(&lo, "ylabel", 0)->text, "Y (EiB)");
	pr_layout_release(&lo);

	/* a fixed y range wins over the data */
	c.y_fixed = 1;
	c.y_min = -1;
	c.y_max = 1;
	layout_ok(&c, &lo);
	assert_true(lo.y.lo == -1 && lo.y.hi == 1);
	pr_layout_release(&lo);
}

static void test_invalid_specs(void **state)
{
	double y[2] = { 1, 2 };
	struct pr_chart_line l = { .y = NULL, .n = 2 };
	struct pr_chart c = { .width = 100, .height = 400 };
	struct pr_layout lo;
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	pr_layout_init(&lo);
	assert_int_equal(pr_layout_chart(&lo, &c, NULL, &err), -1);
	assert_int_equal(err.code, PR_E_USAGE);
	c.width = 9000;
	assert_int_equal(pr_layout_chart(&lo, &c, NULL, &err), -1);
	c.width = 0;
	c.height = 0;
	c.lines = &l;
	c.nlines = 1;
	pr_error_init(&err);
	assert_int_equal(pr_layout_chart(&lo, &c, NULL, &err), -1);
	assert_int_equal(err.code, PR_E_USAGE);
	assert_non_null(strstr(err.text, "no y values"));
	l.y = y;
	c.y_fixed = 1;
	c.y_min = 5;
	c.y_max = 5;
	assert_int_equal(pr_layout_chart(&lo, &c, NULL, &err), -1);
	c.y_fixed = 0;
	c.nbands = 3; /* count without an array */
	assert_int_equal(pr_layout_chart(&lo, &c, NULL, &err), -1);
	c.nbands = 0;
	assert_int_equal(pr_layout_chart(&lo, NULL, NULL, &err), -1);
	{
		const char *cats[2] = { "a", "b" };
		struct pr_chart_bar_group g = { .label = "g", .values = NULL };
		struct pr_chart_bars b = {
			.categories = cats, .ncategories = 2, .groups = &g, .ngroups = 1
		};
		c.bars = &b;
		assert_int_equal(pr_layout_chart(&lo, &c, NULL, &err), -1);
		assert_non_null(strstr(err.text, "no values"));
	}
	pr_layout_release(&lo);
}

/* Across sizes and ranges, tick labels never overlap and text stays inside. */
static void test_ticks_never_overlap(void **state)
{
	static const double spans[] = { 1e-7, 0.37, 9.99, 123456.789, 7.7e9, 1.23e17, 3e21 };
	static const char *const units[] = { "s", "bytes", "", "percent" };
	struct pr_chart_line l = { .label = "series", .x = xs, .y = ys, .n = 200 };
	struct pr_chart c = {
		.title = "t", .x_label = "x", .y_label = "y", .lines = &l, .nlines = 1
	};
	struct pr_layout lo;
	size_t s, u;
	int w;
	(void)state;
	for (w = 200; w <= 2000; w += 113) {
		for (s = 0; s < PR_ARRAY_SIZE(spans); s++) {
			for (u = 0; u < PR_ARRAY_SIZE(units); u++) {
				fill_series(200, -spans[s] / 3, spans[s] / 199, -spans[s] / 7,
					    spans[s] / 16);
				c.width = w;
				c.height = 200 + (w % 400);
				c.x_unit = units[u];
				c.y_unit = units[(u + 1) % PR_ARRAY_SIZE(units)];
				layout_ok(&c, &lo);
				assert_true(lo.x.nticks >= 1);
				pr_layout_release(&lo);
			}
		}
	}
}

static void test_long_labels_elided(void **state)
{
	static const char *const long_label =
		"an extremely long label that goes on and on and on well past any sensible width "
		"for a chart title or an axis label or a legend entry";
	struct pr_chart_line l = { .label = long_label, .x = xs, .y = ys, .n = 50 };
	struct pr_chart c = { .title = long_label,
			      .x_label = long_label,
			      .y_label = long_label,
			      .lines = &l,
			      .nlines = 1,
			      .width = 600,
			      .height = 300 };
	struct pr_layout lo;
	const struct pr_text *t;
	(void)state;
	fill_series(50, 0, 1, 0, 1);
	layout_ok(&c, &lo);
	assert_non_null(t = find_text(&lo, "title", 0));
	assert_true(pr_text_width_dejavu(NULL, t->text, t->size, 1) <= 600 - 24);
	assert_non_null(strstr(t->text, ELLIPSIS));
	assert_non_null(t = find_text(&lo, "legend", 0));
	assert_true(pr_text_width_dejavu(NULL, t->text, t->size, 0) <= 0.2 * 600);
	assert_non_null(t = find_text(&lo, "xlabel", 0));
	assert_true(pr_text_width_dejavu(NULL, t->text, t->size, 0) <= lo.plot.w);
	assert_non_null(t = find_text(&lo, "ylabel", 0));
	assert_true(pr_text_width_dejavu(NULL, t->text, t->size, 0) <= lo.plot.h);
	pr_layout_release(&lo);
}

/* Named y labels (timeline lanes): the left margin holds them, none overlap, long ones are elided. */
static void test_y_labels(void **state)
{
	enum {
		NL = 60
	};
	struct pr_chart_rect r[NL];
	struct pr_chart_ylabel yl[NL];
	char names[NL][96];
	struct pr_chart c = { .title = "lanes",
			      .x_unit = "s",
			      .rects = r,
			      .nrects = NL,
			      .y_labels = yl,
			      .ny_labels = NL,
			      .y_fixed = 1,
			      .y_min = 0,
			      .y_max = NL,
			      .legend = PR_LEGEND_NONE,
			      .width = 800 };
	struct pr_layout lo;
	size_t i, shown;
	double last;
	(void)state;
	for (i = 0; i < NL; i++) {
		snprintf(names[i], sizeof(names[i]), "%s lane %zu",
			 i == 3 ? "a very long lane name that cannot possibly fit in the margin of "
				  "an 800 pixel wide chart"
				: "short",
			 i);
		r[i] = (struct pr_chart_rect){ 0,
					       1 + (double)i,
					       (double)(NL - 1 - i) + 0.15,
					       (double)(NL - 1 - i) + 0.85,
					       0x1F77B4,
					       names[i] };
		yl[i] = (struct pr_chart_ylabel){ (double)(NL - 1 - i) + 0.5, names[i] };
	}
	for (c.height = 1600; c.height >= 200; c.height /= 2) {
		layout_ok(&c, &lo);
		assert_int_equal(lo.y.nticks, NL);
		for (i = 0, shown = 0, last = -1e9; i < lo.ntexts; i++) {
			const struct pr_text *t = &lo.texts[i];
			if (strcmp(t->role, "ytick"))
				continue;
			shown++;
			assert_true(t->y - last >= 11 * 1.3 - 1e-9); /* top to bottom, apart */
			last = t->y;
			assert_true(t->x - pr_text_width_dejavu(NULL, t->text, t->size, 0) >=
				    12 - 1e-9);
			assert_true(pr_text_width_dejavu(NULL, t->text, t->size, 0) <=
				    0.28 * 800 + 1e-9);
			if (strstr(t->text, "very long"))
				assert_non_null(strstr(t->text, ELLIPSIS));
		}
		assert_non_null(find_text(&lo, "ytick", 0));
		assert_string_equal(find_text(&lo, "ytick", 0)->text, "short lane 0");
		if (c.height == 1600)
			assert_int_equal(shown, NL); /* 24 px per lane: every name */
		else
			assert_true(shown < NL && shown >= 4);
		for (i = 0; i < lo.y.nticks; i++)
			assert_false(lo.y.ticks[i].grid);
		pr_layout_release(&lo);
	}
}

static void test_bands_marks_note(void **state)
{
	struct pr_chart_line l = { .label = "RSS", .x = xs, .y = ys, .n = 100, .fill_alpha = 0.2 };
	struct pr_chart_band b[3] = { { 0, 10, "Loading", 0xFF6B6B, 0 },
				      { 10, 11, "Too narrow for its label", 0xFFEAA7, 0 },
				      { 11, 99, "Generation", 0xF7DC6F, 0 } };
	struct pr_chart_mark mk[2] = { { 99, 0, "Corner\nmark", 0xE74C3C },
				       { 0, 0, "other corner", 0xE74C3C } };
	struct pr_chart c = { .lines = &l,
			      .nlines = 1,
			      .bands = b,
			      .nbands = 3,
			      .marks = mk,
			      .nmarks = 2,
			      .note = "Peak: 1.0\nAvg: 0.5",
			      .legend = PR_LEGEND_INSIDE,
			      .legend_title = "Phases" };
	struct pr_layout lo;
	size_t i;
	(void)state;
	fill_series(100, 0, 1, 0, 1);
	mk[0].y = ys[99];
	layout_ok(&c, &lo);
	/* band labels: the narrow band gets none */
	assert_int_equal(count_text(&lo, "band"), 2);
	assert_string_equal(find_text(&lo, "band", 0)->text, "Loading");
	/* legend: one line and three band patches (deduplicated by label), inside the plot */
	assert_true(lo.legend.shown);
	assert_int_equal(lo.legend.nentries, 4);
	assert_int_equal(lo.legend.entries[1].kind, PR_SWATCH_PATCH);
	assert_true(lo.legend.box.x + lo.legend.box.w <= lo.plot.x + lo.plot.w);
	assert_string_equal(find_text(&lo, "legend-title", 0)->text, "Phases");
	/* note and mark boxes stay inside the plot */
	assert_true(lo.has_note);
	assert_int_equal(count_text(&lo, "note"), 2);
	assert_int_equal(lo.nmarks, 2);
	for (i = 0; i < 2; i++) {
		const struct pr_rect *r = &lo.marks[i].box;
		assert_true(lo.marks[i].visible);
		assert_true(r->x >= lo.plot.x && r->x + r->w <= lo.plot.x + lo.plot.w);
		assert_true(r->y >= lo.plot.y && r->y + r->h <= lo.plot.y + lo.plot.h);
	}
	/* the data stays below the note and the inside legend */
	assert_true(pr_layout_y(&lo, 16) >= lo.note.y + lo.note.h);
	assert_true(pr_layout_y(&lo, 16) >= lo.legend.box.y + lo.legend.box.h);
	pr_layout_release(&lo);
}

static void test_bars(void **state)
{
	static const char *const cats[4] = { "Loading", "Export",
					     "A category name far too long for its slot",
					     "Cleanup" };
	double rd[4] = { 1843.2, 12.4, NAN, 0 }, wr[4] = { 2.1, 3310.5, 512.8, -45 };
	uint32_t colors[4] = { 1, 2, 3, 4 };
	struct pr_chart_bar_group g[2] = {
		{ .label = "Read", .rgb = 0x2196F3, .values = rd },
		{ .label = "Write", .rgb = 0xFF5722, .values = wr, .colors = colors }
	};
	struct pr_chart_bars b = {
		.categories = cats, .ncategories = 4, .groups = g, .ngroups = 2, .value_labels = 1
	};
	struct pr_chart c = { .bars = &b,
			      .y_unit = "MB",
			      .y_label = "I/O",
			      .note = "Total",
			      .legend = PR_LEGEND_INSIDE,
			      .width = 800 };
	struct pr_layout lo;
	size_t i;
	(void)state;
	layout_ok(&c, &lo);
	assert_true(lo.bar_chart && !lo.horizontal);
	assert_true(lo.x.categorical);
	assert_int_equal(lo.nbars, 7); /* the NaN bar is skipped */
	assert_true(lo.y.lo < -45 && lo.y.hi > 3310.5);
	for (i = 0; i < lo.nbars; i++) {
		const struct pr_rect *r = &lo.bars[i].r;
		assert_true(r->x >= lo.plot.x && r->x + r->w <= lo.plot.x + lo.plot.w);
		assert_true(r->y >= lo.note.y + lo.note.h); /* below the note */
		assert_true(r->y + r->h <= lo.plot.y + lo.plot.h + 0.01);
	}
	assert_int_equal(lo.bars[1].rgb, 1); /* per-category colour of group 1 */
	assert_int_equal(count_text(&lo, "value"), 7);
	assert_int_equal(count_text(&lo, "xtick"), 4);
	assert_non_null(strstr(find_text(&lo, "xtick", 2)->text, ELLIPSIS));
	assert_int_equal(lo.legend.nentries, 2);
	pr_layout_release(&lo);

	/* horizontal, one group: no legend, categories top to bottom */
	b.horizontal = 1;
	b.ngroups = 1;
	c.x_unit = "s";
	layout_ok(&c, &lo);
	assert_true(lo.y.categorical && lo.horizontal);
	assert_false(lo.legend.shown);
	assert_int_equal(lo.nbars, 3);
	assert_true(lo.bars[0].r.y < lo.bars[1].r.y);
	assert_string_equal(find_text(&lo, "ytick", 0)->text, "Loading");
	for (i = 0; i < lo.ntexts; i++) {
		const struct pr_text *t = &lo.texts[i];
		if (!strcmp(t->role, "value")) {
			double l, r;
			text_span(t, &l, &r);
			assert_true(r <= lo.plot.x + lo.plot.w);
		}
	}
	pr_layout_release(&lo);

	/* no categories, or no finite value: empty */
	b.ncategories = 0;
	layout_ok(&c, &lo);
	assert_true(lo.empty);
	pr_layout_release(&lo);
}

/*
 * Honest scales: bars spanning 5 decades (28 us next to 131 ms, DeepSeek's op
 * types) stay on a linear axis unless a log one is asked for, each bar from
 * the zero pixel and as long as its value; a log axis with log_base 1 draws
 * 2x and 0.5x as bars of one length on either side of 1 (a log-ratio axis).
 */
static void test_bars_honest_scale(void **state)
{
	static const char *const cats[3] = { "kernel", "memcpy", "memset" };
	double ns[3] = { 131e6, 28e3, 1.3e6 }, ratio[3] = { 2, 0.5, 52.74 };
	struct pr_chart_bar_group g = { .label = "", .rgb = 0x2196F3, .values = ns };
	struct pr_chart_bars b = {
		.categories = cats, .ncategories = 3, .groups = &g, .ngroups = 1, .horizontal = 1
	};
	struct pr_chart c = { .bars = &b, .x_unit = "ns", .width = 800 };
	struct pr_layout lo;
	double zero, len0;
	size_t i;
	(void)state;
	layout_ok(&c, &lo);
	assert_false(lo.x.log);
	assert_true(lo.x.lo == 0);
	zero = pr_layout_x(&lo, 0);
	len0 = lo.bars[0].r.w;
	for (i = 0; i < lo.nbars; i++) {
		assert_true(fabs(lo.bars[i].r.x - zero) < 1e-9);
		/* proportional: 28 us is 28e3 / 131e6 of the 131 ms bar (0.05 px) */
		assert_true(fabs(lo.bars[i].r.w - len0 * ns[lo.bars[i].category] / ns[0]) < 1e-6);
	}
	assert_true(lo.bars[1].r.w < 1);
	pr_layout_release(&lo);

	/* a log-ratio axis: 1/5 .. 5 around 1 */
	g.values = ratio;
	b.log_base = 1;
	c.x_unit = "x";
	c.value_scale = PR_SCALE_LOG;
	c.y_fixed = 1;
	c.y_min = 0.2;
	c.y_max = 5;
	layout_ok(&c, &lo);
	assert_true(lo.x.log);
	zero = pr_layout_x(&lo, 1);
	assert_true(fabs(zero - (lo.plot.x + lo.plot.w / 2)) < 1e-6);	  /* 1 at the centre */
	assert_true(fabs(lo.bars[0].r.x - zero) < 1e-6);		  /* 2x: right of 1 */
	assert_true(fabs(lo.bars[1].r.x + lo.bars[1].r.w - zero) < 1e-6); /* 0.5x: left */
	assert_true(fabs(lo.bars[0].r.w - lo.bars[1].r.w) < 1e-6);	  /* one length */
	pr_layout_release(&lo);
}

/*
 * The compare panel's log-ratio axis 1/M .. M: M is the first of 2, 5, 10,
 * 20, ... at least 1.6 x the largest deviation from 1 (by hand: +5174 % is
 * 52.74x, 1.6 x 52.74 = 84.4 -> 100; 0.84x deviates 1/0.84 = 1.19 -> 1.9 -> 2;
 * 0.1x -> 10 x 1.6 = 16 -> 20; a threshold line at 3x -> 4.8 -> 5).
 */
static void test_ratio_axis(void **state)
{
	double r1[3] = { 1.11, 52.74, 0.84 }, r2[1] = { 0.84 }, r3[2] = { 0.1, NAN };
	struct pr_chart_hline h = { .y = 3 };
	(void)state;
	assert_true(pr_ratio_axis_max(r1, 3, NULL, 0) == 100);
	assert_true(pr_ratio_axis_max(r2, 1, NULL, 0) == 2);
	assert_true(pr_ratio_axis_max(r3, 2, NULL, 0) == 20);
	assert_true(pr_ratio_axis_max(r2, 1, &h, 1) == 5);
	assert_true(pr_ratio_axis_max(NULL, 0, NULL, 0) == 2);
}

/*
 * Stacked bars: segments end to end in group order, one bar per category
 * (full slot width), zero / negative / NaN values skipped; labels centred
 * inside the segment, white on dark and dark on light colours, left out
 * where they do not fit. Values by hand: row 0 = 60 + 30 + 10 = 100,
 * row 1 = 0.5 + 99.5 (the 0.5 % segment is too thin for its label).
 */
static void test_stacked_bars(void **state)
{
	static const char *const cats[2] = { "rank", "stream 7" };
	double a[2] = { 60, 0.5 }, b2[2] = { 30, NAN }, c3[2] = { 10, 99.5 }, d4[2] = { 0, -3 };
	static const char *const ta[2] = { "60.0%", "0.5%" }, *const tb[2] = { "30.0%", NULL },
				 *const tc[2] = { "10.0%", "99.5%" };
	struct pr_chart_bar_group g[4] = {
		{ .label = "compute", .rgb = 0x1F77B4, .values = a, .value_text = ta },
		{ .label = "communication", .rgb = 0xFF7F0E, .values = b2, .value_text = tb },
		{ .label = "idle", .rgb = 0xD9D9D9, .values = c3, .value_text = tc },
		{ .label = "none", .rgb = 0x000000, .values = d4 },
	};
	struct pr_chart_bars b = { .categories = cats,
				   .ncategories = 2,
				   .groups = g,
				   .ngroups = 4,
				   .horizontal = 1,
				   .value_labels = 1,
				   .stacked = 1 };
	struct pr_chart c = { .bars = &b, .x_unit = "percent", .width = 900, .height = 300 };
	struct pr_layout lo;
	size_t i, nlabels = 0;
	(void)state;
	layout_ok(&c, &lo);
	assert_true(lo.bar_chart && lo.horizontal);
	assert_int_equal(lo.nbars, 5); /* 3 + 2: zero, negative and NaN are not drawn */
	assert_true(lo.x.lo == 0 && lo.x.hi >= 100); /* the sum, not the largest segment */
	/* row 0: 60 | 30 | 10, touching, same y and height */
	assert_true(fabs(lo.bars[0].r.x - pr_layout_x(&lo, 0)) < 1e-9);
	assert_true(fabs(lo.bars[1].r.x - (lo.bars[0].r.x + lo.bars[0].r.w)) < 1e-9);
	assert_true(fabs(lo.bars[2].r.x + lo.bars[2].r.w - pr_layout_x(&lo, 100)) < 1e-9);
	assert_true(lo.bars[0].r.y == lo.bars[2].r.y && lo.bars[0].r.h == lo.bars[2].r.h);
	assert_true(lo.bars[3].r.y > lo.bars[0].r.y); /* row 1 below */
	assert_true(fabs(lo.bars[4].r.x + lo.bars[4].r.w - pr_layout_x(&lo, 100)) < 1e-9);
	for (i = 0; i < lo.ntexts; i++) {
		const struct pr_text *t = &lo.texts[i];
		if (strcmp(t->role, "value"))
			continue;
		nlabels++;
		assert_string_not_equal(t->text, "0.5%"); /* too thin */
		if (!strcmp(t->text, "60.0%"))
			assert_int_equal(t->rgb, 0xFFFFFF); /* on blue */
		if (!strcmp(t->text, "99.5%"))
			assert_int_equal(t->rgb, 0x222222); /* on light grey */
		assert_true(t->align == PR_ALIGN_CENTER);
	}
	assert_int_equal(nlabels, 4); /* 60, 30, 10, 99.5 */
	assert_int_equal(lo.legend.nentries, 4);
	pr_layout_release(&lo);

	/* vertical: segments stacked upwards from 0 */
	b.horizontal = 0;
	c.y_unit = "percent";
	layout_ok(&c, &lo);
	assert_int_equal(lo.nbars, 5);
	assert_true(fabs(lo.bars[0].r.y + lo.bars[0].r.h - pr_layout_y(&lo, 0)) < 1e-9);
	assert_true(fabs(lo.bars[1].r.y + lo.bars[1].r.h - lo.bars[0].r.y) < 1e-9);
	assert_true(fabs(lo.bars[2].r.y - pr_layout_y(&lo, 100)) < 1e-9);
	pr_layout_release(&lo);
}

static void test_reduce_flag_and_metrics(void **state)
{
	static double big[10000];
	struct pr_chart_line l = { .label = "dense", .y = big, .n = 10000 };
	struct pr_chart c = { .lines = &l, .nlines = 1, .title = "A title" };
	struct pr_text_metrics fixed = { fixed_w, NULL };
	struct pr_layout lo;
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	layout_ok(&c, &lo);
	assert_true(lo.lines[0].reduce); /* 10000 > 4 * plot width */
	pr_layout_release(&lo);
	c.no_reduce = 1;
	layout_ok(&c, &lo);
	assert_false(lo.lines[0].reduce);
	pr_layout_release(&lo);

	/* the text metrics callback decides the margins */
	pr_layout_init(&lo);
	assert_int_equal(pr_layout_chart(&lo, &c, &fixed, &err), 0);
	assert_true(find_text(&lo, "title", 0) != NULL);
	pr_layout_release(&lo);
}

static void test_dump_stable(void **state)
{
	struct pr_chart_line l = { .label = "q\"uote\\", .x = xs, .y = ys, .n = 120 };
	struct pr_chart c = { .title = "Dump", .lines = &l, .nlines = 1, .x_unit = "s" };
	struct pr_strbuf a = PR_STRBUF_INIT, b = PR_STRBUF_INIT;
	struct pr_layout lo;
	(void)state;
	fill_series(120, 0, 0.25, 10, 3);
	layout_ok(&c, &lo);
	pr_layout_dump(&a, &lo);
	pr_layout_release(&lo);
	layout_ok(&c, &lo);
	pr_layout_dump(&b, &lo);
	pr_layout_release(&lo);
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(strncmp(a.buf, "layout 1200x420 lines\nplot ", 27), 0);
	assert_non_null(strstr(a.buf, "\nx range 0 29.75 unit time \"s\" scale 1 suffix \"\""));
	assert_non_null(strstr(a.buf, "\nx tick 0 at "));
	assert_non_null(strstr(a.buf, "\nline 0 n 120 finite 120\n"));
	assert_non_null(strstr(a.buf, "\"q\\\"uote\\\\\"")); /* quotes and backslashes escaped */
	assert_non_null(strstr(a.buf, "\ntext title "));
	pr_strbuf_release(&a);
	pr_strbuf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_ticks),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_text_width_and_elide),
		cmocka_unit_test(test_line_layout),
		cmocka_unit_test(test_hostile_data),
		cmocka_unit_test(test_invalid_specs),
		cmocka_unit_test(test_ticks_never_overlap),
		cmocka_unit_test(test_long_labels_elided),
		cmocka_unit_test(test_y_labels),
		cmocka_unit_test(test_bands_marks_note),
		cmocka_unit_test(test_bars),
		cmocka_unit_test(test_bars_honest_scale),
		cmocka_unit_test(test_ratio_axis),
		cmocka_unit_test(test_stacked_bars),
		cmocka_unit_test(test_reduce_flag_and_metrics),
		cmocka_unit_test(test_dump_stable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
