/*
 * test_html_pages.c - the pieces of the HTML pages that scale and can be
 * explored (issue 15): JSON inside a <script> element (base/escape.c), the
 * data a line chart carries for hover and zoom (render/panel_data.c), and
 * what a page calls runs that share a label (render/html_report.c).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/escape.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "render/chart.h"
#include "render/html_report.h"
#include "render/layout.h"
#include "render/panel_data.h"
#include "render/units.h"

static char *script_escaped(const char *json)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	pr_json_script_escape(&sb, json);
	return pr_strbuf_detach(&sb, NULL);
}

static void test_json_script_escape(void **state)
{
	/* the escapes by hand: '<' U+003C, '>' U+003E, '&' U+0026, U+2028 = E2 80 A8 */
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "{\"a\":1}", "{\"a\":1}" },
		{ "[\"</script><script>alert(1)</script>\"]",
		  "[\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\"]" },
		{ "[\"<!-- x & y -->\"]", "[\"\\u003c!-- x \\u0026 y --\\u003e\"]" },
		{ "[\"a\xE2\x80\xA8"
		  "b\xE2\x80\xA9"
		  "c\"]",
		  "[\"a\\u2028b\\u2029c\"]" },
		{ "[\"\xE2\x80\xA6\"]", "[\"\xE2\x80\xA6\"]" }, /* U+2026 stays */
		{ "", "" },
	};
	size_t i;
	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = script_escaped(cases[i].in);
		json_t *a, *b;
		assert_string_equal(got, cases[i].want);
		assert_null(strstr(got, "</"));
		/* the same value once parsed */
		a = json_loads(cases[i].in, JSON_DECODE_ANY, NULL);
		b = json_loads(got, JSON_DECODE_ANY, NULL);
		assert_true((!a && !b) || json_equal(a, b));
		json_decref(a);
		json_decref(b);
		free(got);
	}
}

/* The JSON inside the <script class="pz-data"> that pr_panel_data appended (NULL: none). */
static json_t *panel_json(const struct pr_chart *c, int *rc)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_error err = PR_ERROR_INIT;
	const char *open = "<script type=\"application/json\" class=\"pz-data\">";
	json_t *j = NULL;
	*rc = pr_panel_data(c, &sb, &err);
	if (*rc == 1) {
		char *end;
		assert_true(!strncmp(sb.buf, open, strlen(open)));
		end = strstr(sb.buf, "</script>");
		assert_non_null(end);
		assert_string_equal(end, "</script>"); /* nothing in the data ends the element */
		*end = 0;
		j = json_loads(sb.buf + strlen(open), 0, NULL);
		assert_non_null(j);
	} else {
		assert_int_equal(sb.len, 0);
	}
	pr_strbuf_release(&sb);
	return j;
}

static void test_panel_data_line(void **state)
{
	double x[] = { 0, 1, 2, 3 }, y[] = { 1048576, 2097152, NAN, 3145728 };
	struct pr_chart_line l = {
		"rss </script>", 0x2E86AB, x, y, 4, 3, 0.15, 0, PR_LINE_LINEAR, 0
	};
	struct pr_chart_band band = { 1, 2, "load", 0xFF0000, 0 };
	struct pr_chart c;
	struct pr_layout lo;
	struct pr_error err = PR_ERROR_INIT;
	json_t *j, *ln, *xs, *ys;
	int rc;
	(void)state;
	memset(&c, 0, sizeof(c));
	c.title = "Memory";
	c.x_label = "Time";
	c.x_unit = "s";
	c.y_label = "Memory";
	c.y_unit = "bytes";
	c.lines = &l;
	c.nlines = 1;
	c.bands = &band;
	c.nbands = 1;
	j = panel_json(&c, &rc);
	assert_int_equal(rc, 1);
	/* the geometry is the layout's: what the SVG was drawn with */
	pr_layout_init(&lo);
	assert_int_equal(pr_layout_chart(&lo, &c, NULL, &err), 0);
	assert_int_equal(json_integer_value(json_object_get(j, "w")), lo.width);
	assert_true(json_real_value(json_array_get(json_object_get(j, "plot"), 0)) == lo.plot.x);
	assert_true(json_real_value(json_array_get(json_object_get(j, "plot"), 2)) == lo.plot.w);
	assert_true(json_real_value(json_object_get(json_object_get(j, "x"), "hi")) == lo.x.hi);
	assert_true(json_real_value(json_object_get(json_object_get(j, "y"), "lo")) == lo.y.lo);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "y"), "k")),
			    "bytes");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "y"), "name")),
			    "MiB");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "x"), "k")),
			    "time");
	pr_layout_release(&lo);
	/* the points as given (4 points: nothing to reduce), the NaN a null gap */
	ln = json_array_get(json_object_get(j, "lines"), 0);
	assert_string_equal(json_string_value(json_object_get(ln, "l")), "rss </script>");
	assert_string_equal(json_string_value(json_object_get(ln, "c")), "#2e86ab");
	xs = json_object_get(ln, "x");
	ys = json_object_get(ln, "y");
	assert_int_equal(json_array_size(xs), 4);
	assert_true(json_real_value(json_array_get(ys, 0)) == 1048576);
	assert_true(json_is_null(json_array_get(ys, 2)));
	assert_true(json_real_value(json_array_get(xs, 3)) == 3);
	/* the band, its default alpha 0.15 (render/chart.h) */
	assert_true(json_real_value(json_array_get(json_array_get(json_object_get(j, "bands"), 0),
						   3)) == 0.15);
	json_decref(j);
}

static void test_panel_data_reduced_and_rects(void **state)
{
	enum {
		N = 100000
	};
	double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
	struct pr_chart_line l = { "", 0x1F77B4, x, y, N, 0, 0, 0, PR_LINE_LINEAR, 0 };
	struct pr_chart_rect r[3] = { { 0, 1, 0.15, 0.85, 0x1F77B4, "a" },
				      { 2, 3, 0.15, 0.85, 0x1F77B4, "a" },
				      { 1, 2, 1.15, 1.85, 0xFF7F0E, "b" } };
	struct pr_chart c;
	json_t *j, *rs;
	size_t i;
	int rc;
	double ymax = 0;
	(void)state;
	for (i = 0; i < N; i++) {
		x[i] = (double)i;
		y[i] = (double)((i * 7919) % 1000);
		ymax = fmax(ymax, y[i]);
	}
	memset(&c, 0, sizeof(c));
	c.lines = &l;
	c.nlines = 1;
	j = panel_json(&c, &rc);
	assert_int_equal(rc, 1);
	{
		json_t *ys = json_object_get(json_array_get(json_object_get(j, "lines"), 0), "y"),
		       *v;
		double got = 0;
		/* at most 4 points per column, and the maximum kept (min/max reduction) */
		assert_true(json_array_size(ys) <= 4 * PR_PANEL_DATA_COLUMNS);
		json_array_foreach (ys, i, v)
			got = fmax(got, json_real_value(v));
		assert_true(got == ymax);
	}
	json_decref(j);
	/* a timeline: rects of one lane in one entry */
	c.lines = NULL;
	c.nlines = 0;
	c.rects = r;
	c.nrects = 3;
	c.y_fixed = 1;
	c.y_min = 0;
	c.y_max = 2;
	j = panel_json(&c, &rc);
	assert_int_equal(rc, 1);
	rs = json_object_get(j, "rects");
	assert_int_equal(json_array_size(rs), 2);
	assert_int_equal(json_array_size(json_object_get(json_array_get(rs, 0), "x")), 4);
	assert_string_equal(json_string_value(json_object_get(json_array_get(rs, 1), "l")), "b");
	json_decref(j);
	free(x);
	free(y);
}

static void test_panel_data_not_interactive(void **state)
{
	static const char *const cats[] = { "a", "b" };
	double v[] = { 1, 2 };
	struct pr_chart_bar_group g = { "g", 0x1F77B4, v, NULL, NULL };
	struct pr_chart_bars bars = { cats, 2, &g, 1, 0, 0, 0, 0 };
	struct pr_chart c;
	int rc;
	(void)state;
	memset(&c, 0, sizeof(c));
	c.bars = &bars;
	assert_null(panel_json(&c, &rc)); /* a bar chart */
	assert_int_equal(rc, 0);
	memset(&c, 0, sizeof(c));
	assert_null(panel_json(&c, &rc)); /* nothing to draw */
	assert_int_equal(rc, 0);
}

static json_t *run(long long id, const char *label, const char *source)
{
	return json_pack("{s:I, s:s, s:s}", "id", (json_int_t)id, "label", label, "source", source);
}

static void test_run_names(void **state)
{
	json_t *r[6];
	const json_t *cr[6];
	char **n;
	size_t i;
	(void)state;
	r[0] = run(1, "trace.json", "runs/a/trace.json");
	r[1] = run(2, "trace.json", "runs/b/trace.json");
	r[2] = run(3, "other.json", "runs/a/other.json");
	r[3] = run(4, "deep.json", "x/one/same/deep.json"); /* the parent alike: two dirs tell */
	r[4] = run(5, "deep.json", "x/two/same/deep.json");
	r[5] = run(6, "trace.json", "runs/b/trace.json"); /* the same path again (new content) */
	for (i = 0; i < 6; i++)
		cr[i] = r[i];
	n = pr_html_run_names(cr, 6);
	assert_string_equal(n[0], "a/trace.json");
	assert_string_equal(n[1], "b/trace.json (run 2)");
	assert_string_equal(n[2], "other.json");
	assert_string_equal(n[3], "one/\xe2\x80\xa6/deep.json"); /* the alike middle left out */
	assert_string_equal(n[4], "two/\xe2\x80\xa6/deep.json");
	assert_string_equal(n[5], "b/trace.json (run 6)");
	pr_html_run_names_free(n, 6);
	/* without the twin, a and b need one directory each */
	n = pr_html_run_names(cr, 2);
	assert_string_equal(n[0], "a/trace.json");
	assert_string_equal(n[1], "b/trace.json");
	pr_html_run_names_free(n, 2);
	for (i = 0; i < 6; i++)
		json_decref(r[i]);
	/* TensorBoard's layout: the directory that differs shows, the alike ones do not */
	r[0] = run(1, "worker0.pt.trace.json",
		   "/data/log/resnet50_num_workers_0/plugins/profile/worker0.pt.trace.json");
	r[1] = run(2, "worker0.pt.trace.json",
		   "/data/log/resnet50_num_workers_4/plugins/profile/worker0.pt.trace.json");
	r[2] = run(3, "worker0.pt.trace.json", /* differs from 1 in its own directory */
		   "/data/log/resnet50_num_workers_0/plugins/other/worker0.pt.trace.json");
	r[3] = run(4, "w.json", "w.json"); /* no directory at all */
	r[4] = run(5, "w.json", "d/w.json");
	for (i = 0; i < 5; i++)
		cr[i] = r[i];
	n = pr_html_run_names(cr, 2);
	assert_string_equal(n[0], "resnet50_num_workers_0/\xe2\x80\xa6/worker0.pt.trace.json");
	assert_string_equal(n[1], "resnet50_num_workers_4/\xe2\x80\xa6/worker0.pt.trace.json");
	pr_html_run_names_free(n, 2);
	n = pr_html_run_names(cr, 5);
	assert_string_equal(n[0],
			    "resnet50_num_workers_0/\xe2\x80\xa6/profile/worker0.pt.trace.json");
	assert_string_equal(n[1],
			    "resnet50_num_workers_4/\xe2\x80\xa6/profile/worker0.pt.trace.json");
	assert_string_equal(n[2], "other/worker0.pt.trace.json");
	assert_string_equal(n[3], "w.json");
	assert_string_equal(n[4], "d/w.json");
	pr_html_run_names_free(n, 5);
	for (i = 0; i < 5; i++)
		json_decref(r[i]);
}

/* Absolute times read as UTC dates. Expected by python3's
 * datetime.fromtimestamp(T, timezone.utc): 1732000000 -> 2024-11-19 07:06:40,
 * 1617870343 -> 2021-04-08 08:25:43, -2 -> 1969-12-31 23:59:58. */
/* Count of non-overlapping occurrences of needle in hay. */
static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;
	for (; (hay = strstr(hay, needle)) != NULL; hay += strlen(needle))
		n++;
	return n;
}

/*
 * A full page's run names, Source column and Labels column are its own runs': run 1 (x.json,
 * like run 3) is plain "x.json" on page 1, which must not change when run 3 comes (2 a page).
 */
static void test_index_page_names(void **state)
{
	static const char *const files[2] = { "index-1.html", "index.html" };
	struct pr_html_index_row rows[3];
	json_t *r[3];
	size_t k, keep = pr_html_index_rows;
	(void)state;
	r[0] = run(1, "x.json", "/data/a/x.json");
	r[1] = run(2, "y.json", "/data/a/y.json");
	r[2] = run(3, "x.json", "/other/b/x.json");
	json_object_set_new(r[2], "meta", json_pack("{s:s}", "commit", "c3"));
	for (k = 0; k < 3; k++) {
		rows[k].run = r[k];
		rows[k].href = "p.html";
	}
	pr_html_index_rows = 2;
	for (k = 0; k < 2; k++) {
		struct pr_output out;
		struct pr_error err = PR_ERROR_INIT;
		struct pr_html_index_page p = {
			rows,	   3,	 k * 2,
			k ? 3 : 2, 1,	 1,
			files,	   NULL, k ? NULL : "00000000000000000000000000000000"
		};
		const char *page;
		size_t len;
		pr_output_init_memory(&out);
		assert_int_equal(pr_html_index_page(&p, &out, &err), 0);
		page = pr_output_data(&out, &len);
		if (k) {
			/* the newest page: run 3 alone on its table, the trends of runs 2-3 */
			assert_non_null(strstr(page, "<a href=\"p.html\">x.json</a>"));
			assert_non_null(strstr(page, "commit=c3"));
			assert_non_null(strstr(page, ">Labels<"));
			assert_non_null(strstr(page, "The trends of the last 2 of 3 runs (#2-3)"));
		} else {
			/* page 1: x.json plainly (unique among its runs), the shared /data/a/ left
			 * out of its Source column, no Labels column (its runs have none) */
			assert_non_null(strstr(page, "<a href=\"p.html\">x.json</a>"));
			assert_null(strstr(page, "a/x.json</a>"));
			assert_non_null(strstr(page, "\xe2\x80\xa6/x.json"));
			assert_null(strstr(page, ">Labels<"));
		}
		pr_output_release(&out);
	}
	pr_html_index_rows = keep;
	for (k = 0; k < 3; k++)
		json_decref(r[k]);
}

/*
 * An index of 1001 runs is two pages: a full page of the first 1000 (no total, stamped, linking
 * the newest) and the newest of 1 (the total, linking the full page, the trends of the last 1000).
 */
static void test_index_parts(void **state)
{
	enum {
		N = PR_HTML_INDEX_ROWS_DEFAULT + 1
	};
	static const char *const files[2] = { "idx-1.html", "idx.html" };
	struct pr_html_index_row *rows = calloc(N, sizeof(*rows));
	json_t **r = calloc(N, sizeof(*r));
	size_t i, k;
	(void)state;
	for (i = 0; i < N; i++) {
		char label[32], src[64];
		snprintf(label, sizeof(label), "r%zu.csv", i);
		snprintf(src, sizeof(src), "/data/runs/r%zu.csv", i);
		r[i] = run((long long)i + 1, label, src);
		rows[i].run = r[i];
		rows[i].href = "x.html";
	}
	for (k = 0; k < 2; k++) {
		struct pr_output out;
		struct pr_error err = PR_ERROR_INIT;
		struct pr_html_index_page p = { rows,
						N,
						k * PR_HTML_INDEX_ROWS,
						k ? N : PR_HTML_INDEX_ROWS,
						1,
						1,
						files,
						NULL,
						k ? NULL : "0123456789abcdef0123456789abcdef" };
		const char *page;
		size_t len;
		pr_output_init_memory(&out);
		assert_int_equal(pr_html_index_page(&p, &out, &err), 0);
		page = pr_output_data(&out, &len);
		assert_int_equal(count_of(page, "<tr id=\"row-"), k ? 1 : PR_HTML_INDEX_ROWS);
		if (k) {
			assert_non_null(strstr(page, "<tr id=\"row-1001\">"));
			assert_non_null(strstr(page, "Runs 1001-1001 of 1001 (1000 a page): "
						     "<a href=\"idx-1.html\">1-1000</a> "
						     "<strong>1001-1001</strong>"));
			assert_non_null(strstr(page,
					       "The trends of the last 1000 of 1001 runs "
					       "(#2-1001); older runs: <a href=\"idx-1.html\">"));
			assert_null(strstr(page, PR_HTML_INDEX_STAMP));
		} else {
			/* a full page names no total and does not change with later runs */
			assert_non_null(strstr(page, "<tr id=\"row-1\">"));
			assert_null(strstr(page, "<tr id=\"row-1001\">"));
			assert_null(strstr(page, "1001"));
			assert_null(strstr(page, "Trends across runs"));
			assert_non_null(strstr(page, "Runs 1-1000 (1000 a page; the newest: <a "
						     "href=\"idx.html\">idx.html</a>): "
						     "<strong>1-1000</strong>"));
			assert_true(strstr(page,
					   "<meta name=\"" PR_HTML_INDEX_STAMP
					   "\" content=\"0123456789abcdef0123456789abcdef\">") -
					    page <
				    1024);
		}
		pr_output_release(&out);
	}
	for (i = 0; i < N; i++)
		json_decref(r[i]);
	free(r);
	free(rows);
}

static void test_utc_dates(void **state)
{
	char b[64];
	(void)state;
	pr_fmt_utc(1732000000.001e9, b, sizeof(b));
	assert_string_equal(b, "2024-11-19 07:06:40.001 UTC");
	pr_fmt_utc(1617870343.4e9, b, sizeof(b));
	assert_string_equal(b, "2021-04-08 08:25:43.400 UTC");
	pr_fmt_utc(-1.5e9, b, sizeof(b)); /* before the epoch: floor, then the 500 ms after it */
	assert_string_equal(b, "1969-12-31 23:59:58.500 UTC");
	pr_fmt_utc(1.9996e9, b, sizeof(b)); /* the milliseconds round up into the next second */
	assert_string_equal(b, "1970-01-01 00:00:02.000 UTC");
	pr_fmt_utc(NAN, b, sizeof(b));
	assert_string_equal(b, "-");
	pr_fmt_utc(1e30, b, sizeof(b));
	assert_string_equal(b, "-");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_script_escape),
		cmocka_unit_test(test_panel_data_line),
		cmocka_unit_test(test_panel_data_reduced_and_rects),
		cmocka_unit_test(test_panel_data_not_interactive),
		cmocka_unit_test(test_run_names),
		cmocka_unit_test(test_utc_dates),
		cmocka_unit_test(test_index_parts),
		cmocka_unit_test(test_index_page_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
