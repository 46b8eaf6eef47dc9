/*
 * test_chart.c - render/chart with render/gfx, render/output and
 * render/escape: PNG and SVG to memory and to files, determinism, hostile
 * specs, atomic file output, XML escaping.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "tests/unit/gotwant.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "render/chart.h"
#include "base/escape.h"
#include "render/gfx.h"
#include "render/layout.h"
#include "base/output.h"
#include "render/reduce.h"
#include "base/strbuf.h"

/* LeakSanitizer: fontconfig (under Cairo's toy fonts) keeps its caches for the process. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

static double xs[500], ys[500];

static void fill(size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		xs[i] = (double)i * 0.1;
		ys[i] = 1e8 + 3e7 * (double)(i % 23) - 1e6 * (double)(i % 5);
	}
}

static struct pr_chart_line base_line = { .label = "RSS <&>",
					  .rgb = 0x2E86AB,
					  .x = xs,
					  .y = ys,
					  .n = 500,
					  .width = 2,
					  .fill_alpha = 0.15 };
static struct pr_chart_band base_band = { 5, 20, "Loading", 0xFF6B6B, 0 };
static struct pr_chart_vline base_vline = { 20, 0x666666, 1 };
static struct pr_chart_zone base_zone = { 0, 1e8, "Low", 0x4CAF50, 0 };
static struct pr_chart_hline base_hline = { 2e8, "Average", 0xE74C3C, 1 };
static struct pr_chart_mark base_mark = { 10, 3e8, "Peak\nhere", 0xE74C3C };

static void base_chart(struct pr_chart *c)
{
	memset(c, 0, sizeof(*c));
	fill(500);
	c->title = "Memory";
	c->x_label = "Time";
	c->x_unit = "s";
	c->y_label = "RSS";
	c->y_unit = "bytes";
	c->lines = &base_line;
	c->nlines = 1;
	c->bands = &base_band;
	c->nbands = 1;
	c->vlines = &base_vline;
	c->nvlines = 1;
	c->zones = &base_zone;
	c->nzones = 1;
	c->hlines = &base_hline;
	c->nhlines = 1;
	c->marks = &base_mark;
	c->nmarks = 1;
	c->note = "Note";
}

/* Render to memory; returns the bytes (caller frees). */
static char *render_mem(const struct pr_chart *c, enum pr_gfx_format f, size_t *len)
{
	struct pr_output out;
	struct pr_error err = PR_ERROR_INIT;
	char *p;
	pr_output_init_memory(&out);
	if (pr_chart_render(c, f, &out, &err))
		fail_msg("pr_chart_render: %s", err.text);
	assert_int_equal(pr_output_close(&out, &err), 0);
	p = pr_output_detach(&out, len);
	pr_output_release(&out);
	return p;
}

static int is_png(const char *p, size_t n)
{
	return n > 8 && !memcmp(p, "\x89PNG\r\n\x1a\n", 8);
}

static void test_png_and_svg(void **state)
{
	struct pr_chart c;
	size_t n1, n2;
	char *a, *b;
	(void)state;
	base_chart(&c);
	a = render_mem(&c, PR_GFX_PNG, &n1);
	assert_true(is_png(a, n1));
	/* IHDR: width and height */
	assert_int_equal(((unsigned char)a[18] << 8) | (unsigned char)a[19], 1200);
	assert_int_equal(((unsigned char)a[22] << 8) | (unsigned char)a[23], 420);
	b = render_mem(&c, PR_GFX_PNG, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(a, b, n1); /* deterministic */
	free(a);
	free(b);

	a = render_mem(&c, PR_GFX_SVG, &n1);
	assert_int_equal(strncmp(a, "<?xml", 5), 0);
	assert_non_null(strstr(a, "<svg"));
	assert_non_null(strstr(a, "version=\"1.1\""));
	assert_non_null(strstr(a, "width=\"1200\""));
	assert_non_null(strstr(a, "height=\"420\""));
	assert_non_null(strstr(a, "</svg>"));
	assert_null(strstr(a, "<&>")); /* text is <text>, escaped */
	assert_non_null(strstr(a, ">RSS &lt;&amp;&gt;</text>"));
	assert_null(strstr(a, "glyph")); /* no glyph outlines */
	b = render_mem(&c, PR_GFX_SVG, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(a, b, n1);
	free(a);
	free(b);
}

static void test_hostile_specs_render(void **state)
{
	static const char *cats[3] = { "a\xff", NULL, "<c>" };
	double nan3[3] = { NAN, INFINITY, 1e300 }, one = 4, huge[2] = { 1e18, -1e18 };
	double vals[3] = { NAN, -3, 1e18 };
	struct pr_chart_line l[3] = {
		{ .label = "nan", .y = nan3, .n = 3 },
		{ .label = "\x01\xc0\xaf", .x = &one, .y = &one, .n = 1, .dashed = 1 },
		{ .label = "huge", .y = huge, .n = 2, .fill_alpha = 2 },
	};
	struct pr_chart_bar_group g = { .label = "g", .values = vals };
	struct pr_chart_bars b = {
		.categories = cats, .ncategories = 3, .groups = &g, .ngroups = 1, .value_labels = 1
	};
	struct pr_chart c;
	enum pr_gfx_format f;
	size_t n, k;
	char *p;
	(void)state;
	for (f = PR_GFX_PNG; f <= PR_GFX_SVG; f++) {
		for (k = 0; k <= 3; k++) {
			memset(&c, 0, sizeof(c));
			c.title = "\xed\xa0\x80 bad";
			c.lines = l;
			c.nlines = k;
			c.width = 200;
			c.height = 200;
			p = render_mem(&c, f, &n); /* empty, one point, huge: all render */
			assert_true(n > 100);
			free(p);
		}
		memset(&c, 0, sizeof(c));
		c.bars = &b;
		b.horizontal = (int)f;
		p = render_mem(&c, f, &n);
		assert_true(n > 100);
		free(p);
	}
}

static void test_invalid_spec(void **state)
{
	struct pr_chart c;
	struct pr_output out;
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	base_chart(&c);
	c.width = 50;
	pr_output_init_memory(&out);
	assert_int_equal(pr_chart_render(&c, PR_GFX_PNG, &out, &err), -1);
	assert_int_equal(err.code, PR_E_USAGE);
	assert_int_equal(out.written, 0);
	pr_output_release(&out);
	{
		struct pr_strbuf sb = PR_STRBUF_INIT;
		assert_int_equal(pr_chart_layout(&c, &sb, &err), -1);
		assert_int_equal(sb.len, 0);
		c.width = 0;
		assert_int_equal(pr_chart_layout(&c, &sb, &err), 0);
		assert_int_equal(strncmp(sb.buf, "layout 1200x420", 15), 0);
		pr_strbuf_release(&sb);
	}
}

/* The chart reduces a huge line; drawing the reduction yourself gives the same image. */
static void test_reduction_is_invisible(void **state)
{
	enum {
		N = 100000
	};
	double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double)), *rx, *ry;
	struct pr_chart_line l = { .label = "dense", .rgb = 0x1F77B4, .width = 1.5 };
	struct pr_chart c = { .title = "Dense", .x_unit = "s", .lines = &l, .nlines = 1 };
	struct pr_layout lo;
	struct pr_error err = PR_ERROR_INIT;
	size_t i, rn, n1, n2;
	unsigned r = 7;
	char *a, *b;
	(void)state;
	for (i = 0; i < N; i++) {
		r = r * 1664525u + 1013904223u;
		x[i] = (double)i * 1e-3;
		y[i] = (double)(i % 9000) + (double)(r >> 20);
	}
	l.x = x;
	l.y = y;
	l.n = N;
	a = render_mem(&c, PR_GFX_PNG, &n1);

	pr_layout_init(&lo);
	assert_int_equal(pr_layout_chart(&lo, &c, NULL, &err), 0);
	assert_true(lo.lines[0].reduce);
	pr_reduce_minmax(x, y, N, lo.x.lo, lo.x.hi, (size_t)ceil(lo.plot.w), &rx, &ry, &rn);
	pr_layout_release(&lo);
	assert_true(rn <= 4 * 1200);
	l.x = rx;
	l.y = ry;
	l.n = rn;
	c.no_reduce = 1;
	b = render_mem(&c, PR_GFX_PNG, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(a, b, n1);
	free(a);
	free(b);
	free(rx);
	free(ry);
	free(x);
	free(y);
}

/* ---- output ---- */

static char tmpdir[64];

static int setup_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/pr_test_chart_XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char path[512];
	(void)state;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' &&
		    (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	return rmdir(tmpdir);
}

static size_t dir_entries(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	size_t n = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || (e->d_name[1] && (e->d_name[1] != '.' || e->d_name[2]));
	closedir(d);
	return n;
}

static void test_output_file_atomic(void **state)
{
	struct pr_output out;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_chart c;
	char path[128], bad[160];
	struct stat st;
	(void)state;
	snprintf(path, sizeof(path), "%s/chart.png", tmpdir);
	base_chart(&c);
	assert_int_equal(pr_output_open_file(&out, path, &err), 0);
	assert_int_equal(stat(path, &st), -1); /* nothing at the path until the close */
	assert_int_equal(dir_entries(), 1);    /* just the temporary file */
	assert_int_equal(pr_chart_render(&c, PR_GFX_PNG, &out, &err), 0);
	assert_int_equal(pr_output_close(&out, &err), 0);
	pr_output_release(&out);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 1000);
	assert_int_equal(dir_entries(), 1); /* renamed, no leftovers */

	/* a failed render leaves the old file alone and removes its temporary file */
	assert_int_equal(pr_output_open_file(&out, path, &err), 0);
	c.width = 1;
	assert_int_equal(pr_chart_render(&c, PR_GFX_SVG, &out, &err), -1);
	pr_output_fail(&out, ECANCELED);
	pr_error_init(&err);
	assert_int_equal(pr_output_close(&out, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	assert_string_equal(err.source, path);
	pr_output_release(&out);
	assert_int_equal(dir_entries(), 1);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 1000);

	/* released without a close: the temporary file goes, nothing appears */
	snprintf(bad, sizeof(bad), "%s/never.svg", tmpdir);
	assert_int_equal(pr_output_open_file(&out, bad, &err), 0);
	assert_int_equal(pr_output_write(&out, "x", 1), 0);
	pr_output_release(&out);
	assert_int_equal(stat(bad, &st), -1);
	assert_int_equal(dir_entries(), 1);

	/* a missing directory: PR_E_IO with the path */
	snprintf(bad, sizeof(bad), "%s/no/such/dir.png", tmpdir);
	pr_error_init(&err);
	assert_int_equal(pr_output_open_file(&out, bad, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	assert_string_equal(err.source, bad);
	pr_output_release(&out);
	assert_int_equal(pr_output_open_file(&out, "", &err), -1);
	pr_output_release(&out);
}

static void test_output_memory(void **state)
{
	struct pr_output out = PR_OUTPUT_INIT;
	struct pr_error err = PR_ERROR_INIT;
	const char *p;
	size_t n;
	char *d;
	(void)state;
	pr_output_release(&out); /* fine on an unopened output */
	pr_output_init_memory(&out);
	assert_int_equal(pr_output_write(&out, "ab", 2), 0);
	assert_int_equal(pr_output_write(&out, "", 0), 0);
	assert_int_equal(pr_output_write(&out, "c", 1), 0);
	p = pr_output_data(&out, &n);
	assert_int_equal(n, 3);
	assert_string_equal(p, "abc");
	assert_int_equal(pr_output_close(&out, &err), 0);
	assert_int_equal(pr_output_close(&out, &err), -1);   /* twice */
	assert_int_equal(pr_output_write(&out, "d", 1), -1); /* after close */
	d = pr_output_detach(&out, &n);
	assert_string_equal(d, "abc");
	free(d);
	pr_output_release(&out);

	/* failures are sticky and reported at the close */
	pr_output_init_memory(&out);
	pr_output_fail(&out, ENOSPC);
	assert_int_equal(pr_output_write(&out, "x", 1), -1);
	assert_int_equal(pr_output_close(&out, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	assert_non_null(strstr(err.text, strerror(ENOSPC)));
	pr_output_release(&out);
	assert_int_equal(out.kind, PR_OUTPUT_NONE);
}

/* ---- gfx ---- */

static void test_gfx_primitives(void **state)
{
	enum {
		N = 70000
	}; /* above the size where polylines are stroked in pieces */
	double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
	double gx[5] = { 10, 20, NAN, 40, 50 }, gy[5] = { 10, 50, 10, 50, 10 };
	enum pr_gfx_format f;
	size_t i;
	(void)state;
	for (i = 0; i < N; i++) {
		x[i] = 10 + (double)i * 280.0 / N;
		y[i] = 100 + (double)(i % 97);
	}
	x[N / 2] = NAN;
	for (f = PR_GFX_PNG; f <= PR_GFX_SVG; f++) {
		struct pr_output out;
		struct pr_error err = PR_ERROR_INIT;
		struct pr_gfx *g;
		pr_output_init_memory(&out);
		g = pr_gfx_new(f, 300, 200, &out, &err);
		assert_non_null(g);
		pr_gfx_fill_rect(g, 0, 0, 300, 200, 0xFFFFFF, 1);
		pr_gfx_fill_rect(g, NAN, 0, 10, 10, 0, 1);
		pr_gfx_fill_rect(g, 5, 5, 0.2, 0.2, 0xFF0000, 1);
		pr_gfx_stroke_rect(g, 10.3, 10.7, 100, 50, 0x333333, 1, 1);
		pr_gfx_stroke_rect(g, 10, 10, 100, 50, 0x333333, 0.5, 3);
		pr_gfx_clip(g, 10, 10, 280, 180);
		pr_gfx_clip(g, 20, 20, 200, 100); /* replaces the first */
		pr_gfx_line(g, 0, 30.2, 300, 30.2, 0xE6E6E6, 1, 1, 0);
		pr_gfx_line(g, 0, 0, 300, 200, 0x666666, 0.7, 1.5, 1);
		pr_gfx_line(g, NAN, 0, 1, 1, 0, 1, 1, 0);
		pr_gfx_area(g, gx, gy, 5, 60, 0x2CA02C, 0.3);
		pr_gfx_area(g, gx, gy, 5, NAN, 0x2CA02C, 0.3);
		pr_gfx_polyline(g, gx, gy, 5, 0x1F77B4, 1, 2, 1);
		pr_gfx_polyline(g, x, y, N, 0xD62728, 0.5, 1.5, 0);
		pr_gfx_polyline(g, gx, gy, 0, 0, 1, 1, 0);
		pr_gfx_unclip(g);
		pr_gfx_unclip(g); /* twice is fine */
		pr_gfx_circle(g, 100, 100, 5, 0xE74C3C, 1, 0xFFFFFF, 1.5);
		pr_gfx_circle(g, 100, 100, -1, 0, 1, 0, 0);
		pr_gfx_text(g, "Title <&> \xff\x01", 150, 20, 15, 1, 0x222222, PR_GFX_CENTER, 0);
		pr_gfx_text(g, "y label", 12, 100, 12, 0, 0x333333, PR_GFX_CENTER, 90);
		pr_gfx_text(g, "right", 290, 190, 11, 0, 0x444444, PR_GFX_RIGHT, 0);
		pr_gfx_text(g, "", 0, 0, 11, 0, 0, PR_GFX_LEFT, 0);
		pr_gfx_text(g, NULL, 0, 0, 11, 0, 0, PR_GFX_LEFT, 0);
		pr_gfx_clip(g, 0, 0, 10, 10); /* left open: finish closes it */
		assert_int_equal(pr_gfx_finish(g, &err), 0);
		assert_int_equal(pr_output_close(&out, &err), 0);
		assert_true(out.mem.len > 500);
		if (f == PR_GFX_PNG) {
			assert_true(is_png(out.mem.buf, out.mem.len));
		} else { /* the lean writer: elements, escaped text, 2 decimals */
			const char *d = out.mem.buf;
			assert_non_null(strstr(d, "font-weight=\"bold\" text-anchor=\"middle\""));
			assert_non_null(strstr(d, ">Title &lt;&amp;&gt; \xef\xbf\xbd </text>"));
			assert_non_null(strstr(d, "transform=\"rotate(-90 12 100)\">y label<"));
			assert_non_null(strstr(d, "text-anchor=\"end\" fill=\"#444444\">right<"));
			assert_non_null(strstr(d, "<path d=\"M0 30.2L300 30.2\""));
			assert_non_null(strstr(d, "stroke-dasharray=\"7 4.25\""));
			assert_non_null(strstr(d, "<clipPath id=\"c2\"><rect x=\"20\" y=\"20\""));
			assert_non_null(strstr(d, "<clipPath id=\"c3\">"));
			assert_non_null(strstr(d, "</g>\n</svg>\n"));
			assert_null(strstr(d, "nan"));
			assert_int_equal(memcmp(d + out.mem.len - 7, "</svg>\n", 7), 0);
		}
		pr_output_release(&out);
	}
	{
		struct pr_output out;
		struct pr_error err = PR_ERROR_INIT;
		pr_output_init_memory(&out);
		assert_null(pr_gfx_new(PR_GFX_PNG, 0, 10, &out, &err));
		assert_int_equal(err.code, PR_E_USAGE);
		pr_gfx_free(pr_gfx_new(PR_GFX_SVG, 10, 10, &out, &err)); /* abandoned */
		pr_gfx_free(NULL);
		assert_int_equal(out.mem.len, 0);
		assert_int_equal(pr_output_close(&out, &err), -1); /* the abandon failed it */
		pr_output_release(&out);
	}
	free(x);
	free(y);
}

/* A write error while Cairo streams the image comes back as PR_E_IO. */
static void test_gfx_write_error(void **state)
{
	struct pr_output out;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_gfx *g;
	(void)state;
	pr_output_init_memory(&out);
	g = pr_gfx_new(PR_GFX_PNG, 50, 50, &out, &err);
	assert_non_null(g);
	pr_gfx_fill_rect(g, 0, 0, 50, 50, 0xFFFFFF, 1);
	pr_output_fail(&out, ENOSPC);
	assert_int_equal(pr_gfx_finish(g, &err), -1);
	assert_int_equal(err.code, PR_E_IO);
	assert_non_null(strstr(err.text, strerror(ENOSPC)));
	pr_output_release(&out);
}

/* The built-in width table is what Cairo measures with the pinned font. */
static void test_width_table_matches_cairo(void **state)
{
	static const char *const probes[] = {
		"The quick brown fox jumps over the lazy dog 0123456789",
		"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ABCDEFGHIJKLMNOPQRSTUVWXYZ",
		"\xc3\xa9\xc3\xa8\xc3\xbc\xc3\x9f\xc2\xb5\xc2\xb0\xc3\x97 \xe2\x80\xa6",
		"Memory Usage (GiB) | Peak: 6.8 GiB",
	};
	size_t i;
	int bold;
	FILE *p = popen("fc-match 'DejaVu Sans' 2>/dev/null", "r");
	char line[256] = "";
	(void)state;
	if (p) {
		if (!fgets(line, sizeof(line), p))
			line[0] = '\0';
		pclose(p);
	}
	if (strncmp(line, "DejaVuSans.ttf:", 15))
		skip(); /* the pinned font is not installed: widths come from another font */
	for (i = 0; i < PR_ARRAY_SIZE(probes); i++) {
		for (bold = 0; bold <= 1; bold++) {
			double est = pr_text_width_dejavu(NULL, probes[i], 11, bold);
			double real = pr_gfx_text_width(probes[i], 11, bold);
			if (fabs(est - real) > 0.01)
				fail_msg("'%s' bold=%d: table %.4f, cairo %.4f", probes[i], bold,
					 est, real);
		}
	}
}

/* ---- escape ---- */

static void check_escape(const char *in, size_t n, const char *want)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	pr_xml_escape_n(&sb, in, n);
	assert_string_equal(sb.buf, want);
	pr_strbuf_release(&sb);
}

#define FFFD "\xEF\xBF\xBD"

static void test_xml_escape(void **state)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	(void)state;
	pr_xml_escape(&sb, "<a href=\"x\">Tom & Jerry's</a>");
	assert_string_equal(sb.buf, "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
	pr_xml_escape(&sb, NULL);
	pr_strbuf_release(&sb);
	check_escape("plain", 5, "plain");
	check_escape("", 0, "");
	check_escape("tab\tnl\ncr\r", 10, "tab\tnl\ncr\r");
	check_escape("\x01\x1f\x7f", 3, FFFD FFFD FFFD);
	check_escape("a\0b", 3, "a" FFFD "b");
	/* valid UTF-8 is copied: e-acute, euro, U+10FFFF, an emoji */
	check_escape("\xc3\xa9\xe2\x82\xac\xf4\x8f\xbf\xbd\xf0\x9f\x98\x80", 13,
		     "\xc3\xa9\xe2\x82\xac\xf4\x8f\xbf\xbd\xf0\x9f\x98\x80");
	/* one U+FFFD per maximal ill-formed subsequence */
	check_escape("\xff", 1, FFFD);
	check_escape("\x80\x80", 2, FFFD FFFD);
	check_escape("\xe2\x82", 2, FFFD); /* truncated */
	check_escape("\xe2\x82x", 3, FFFD "x");
	check_escape("\xc0\xaf", 2, FFFD FFFD); /* overlong lead byte */
	check_escape("\xe0\x80\xaf", 3, FFFD FFFD FFFD);
	check_escape("\xed\xa0\x80", 3, FFFD FFFD FFFD);	  /* a surrogate */
	check_escape("\xf4\x90\x80\x80", 4, FFFD FFFD FFFD FFFD); /* above U+10FFFF */
	check_escape("\xef\xbf\xbe\xef\xbf\xbf", 6, FFFD FFFD);	  /* noncharacters */
	check_escape("\xf0\x9f\x98", 3, FFFD);
	check_escape("<\xff&", 3, "&lt;" FFFD "&amp;");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_png_and_svg),
		cmocka_unit_test(test_hostile_specs_render),
		cmocka_unit_test(test_invalid_spec),
		cmocka_unit_test(test_reduction_is_invisible),
		cmocka_unit_test_setup_teardown(test_output_file_atomic, setup_dir, teardown_dir),
		cmocka_unit_test(test_output_memory),
		cmocka_unit_test(test_gfx_primitives),
		cmocka_unit_test(test_gfx_write_error),
		cmocka_unit_test(test_width_table_matches_cairo),
		cmocka_unit_test(test_xml_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
