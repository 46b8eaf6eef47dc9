/*
 * chart_demo.c - renders a fixed set of named demo charts for the render
 * golden tests (tests/render.cmake) and for looking at them.
 *
 *   chart_demo [-f KIND] OUTDIR [CASE...]
 *                                 write CASE.layout.txt, CASE.svg, CASE.png
 *                                 for the named cases (default: all); -f
 *                                 layout|svg|png writes only that one
 *   chart_demo --list             the case names, one a line
 *   chart_demo --cairo-version    the version of the cairo library linked
 *   chart_demo --big-full OUTDIR  the 10 M-point series twice: as the chart
 *                                 draws it (reduced) and with every point
 *                                 stroked (no_reduce), to big.png and
 *                                 big-full.png; prints both times
 *
 * The data is generated with integer arithmetic and + - * / only, so it is
 * the same on every machine (no libm transcendental functions).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/chart.h"
#include "base/output.h"
#include "render/version.h"
#include "base/error.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define MIB (1024.0 * 1024.0)
#define BIG_N 10000000

/*
 * LeakSanitizer: fontconfig (below Cairo's toy font API) keeps its
 * configuration and font cache for the life of the process.
 */
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

static uint32_t rng_state = 12345;

static void rng_seed(uint32_t s)
{
	rng_state = s;
}

/* Uniform in [0, 1), 24 bits. */
static double rng(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return (double)(rng_state >> 8) / 16777216.0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A triangle wave in [-1, 1] with the given period: a cheap, exact oscillation. */
static double wave(double t, double period)
{
	double ph = t / period;
	ph -= (double)(long long)ph;
	return ph < 0.5 ? 4 * ph - 1 : 3 - 4 * ph;
}

/* QEff phase colours (FORMATS.md "PNG layout"). */
struct phase {
	const char *name;
	uint32_t rgb;
	double t0, t1;
};

static const struct phase phases[] = {
	{ "Initialization", 0xE8E8E8, 0, 4.2 },	      { "Model Loading", 0xFF6B6B, 4.2, 19.7 },
	{ "Model Export", 0xFFEAA7, 19.7, 41.3 },     { "Model Compilation", 0x98D8C8, 41.3, 88.9 },
	{ "Text Generation", 0xF7DC6F, 88.9, 131.5 }, { "Cleanup", 0xAED6F1, 131.5, 137.0 },
};
#define NPHASES (sizeof(phases) / sizeof(phases[0]))

struct demo {
	const char *name;
	void (*build)(struct pr_chart *c);
	void (*done)(void);
};

/* ---- memory: a timeline with phase bands, a peak and a fill ---- */

static double *mem_t, *mem_v;
static struct pr_chart_line mem_line;
static struct pr_chart_band mem_bands[NPHASES];
static struct pr_chart_vline mem_vlines[NPHASES];
static struct pr_chart_mark mem_mark;
static char mem_title[256], mem_mark_text[256], mem_band_labels[NPHASES][64];

static void build_memory(struct pr_chart *c)
{
	size_t n = 1371, i, k, imax = 0;
	const double levels[NPHASES] = { 0.31, 2.4, 3.1, 5.6, 4.2, 0.9 }; /* GiB */
	rng_seed(7);
	mem_t = pr_xmalloc(n * sizeof(double));
	mem_v = pr_xmalloc(n * sizeof(double));
	for (i = 0; i < n; i++) {
		double t = (double)i * 0.1, lvl = levels[0], v;
		for (k = 0; k < NPHASES; k++) {
			if (t >= phases[k].t0) {
				double prev = k ? levels[k - 1] : levels[0];
				double ramp = (t - phases[k].t0) / 3.0;
				lvl = ramp < 1 ? prev + (levels[k] - prev) * ramp : levels[k];
			}
		}
		v = lvl + 0.04 * wave(t, 7.3) + 0.03 * rng();
		if (t > 60 && t < 62)
			v += 1.2 * (1 - (t - 61) * (t - 61)); /* the compile peak */
		mem_t[i] = t;
		mem_v[i] = v * 1024 * MIB;
		if (mem_v[i] > mem_v[imax])
			imax = i;
	}
	mem_line = (struct pr_chart_line){ .label = "RSS",
					   .rgb = 0x2E86AB,
					   .x = mem_t,
					   .y = mem_v,
					   .n = n,
					   .width = 2.5,
					   .fill_alpha = 0.15 };
	for (k = 0; k < NPHASES; k++) {
		snprintf(mem_band_labels[k], sizeof(mem_band_labels[k]), "%s (%.1fs)",
			 phases[k].name, phases[k].t1 - phases[k].t0);
		mem_bands[k] = (struct pr_chart_band){ .x0 = phases[k].t0,
						       .x1 = phases[k].t1,
						       .label = mem_band_labels[k],
						       .rgb = phases[k].rgb,
						       .alpha = 0.15 };
		mem_vlines[k] =
			(struct pr_chart_vline){ .x = phases[k].t1, .rgb = 0x666666, .dashed = 1 };
	}
	snprintf(mem_mark_text, sizeof(mem_mark_text), "Peak: %.1f GiB\nPhase: Model Compilation",
		 mem_v[imax] / (1024 * MIB));
	mem_mark = (struct pr_chart_mark){
		.x = mem_t[imax], .y = mem_v[imax], .text = mem_mark_text, .rgb = 0xE74C3C
	};
	snprintf(mem_title, sizeof(mem_title),
		 "Memory Usage Over Time | Peak: %.1f GiB | Duration: %.1fs",
		 mem_v[imax] / (1024 * MIB), mem_t[n - 1]);
	c->title = mem_title;
	c->x_label = "Time";
	c->x_unit = "s";
	c->y_label = "Memory Usage";
	c->y_unit = "bytes";
	c->lines = &mem_line;
	c->nlines = 1;
	c->bands = mem_bands;
	c->nbands = NPHASES;
	c->vlines = mem_vlines;
	c->nvlines = NPHASES - 1;
	c->marks = &mem_mark;
	c->nmarks = 1;
	c->legend_title = "Phases";
}

static void done_memory(void)
{
	free(mem_t);
	free(mem_v);
}

/* ---- cpu: zones, an average line, phase bands ---- */

static double *cpu_t, *cpu_v;
static struct pr_chart_line cpu_line;
static struct pr_chart_zone cpu_zones[4];
static struct pr_chart_hline cpu_avg;
static char cpu_title[256], cpu_avg_label[64];

static void build_cpu(struct pr_chart *c)
{
	size_t n = 1370, i;
	double sum = 0, max = 0;
	rng_seed(11);
	cpu_t = pr_xmalloc(n * sizeof(double));
	cpu_v = pr_xmalloc(n * sizeof(double));
	for (i = 0; i < n; i++) {
		double t = (double)i * 0.1, v = 18 + 10 * wave(t, 9.0) + 12 * rng();
		if (t > 41.3 && t < 88.9)
			v += 45; /* compilation keeps the cores busy */
		if (v > 100)
			v = 100;
		cpu_t[i] = t;
		cpu_v[i] = v;
		sum += v;
		if (v > max)
			max = v;
	}
	cpu_line = (struct pr_chart_line){ .label = "CPU",
					   .rgb = 0xFF6B35,
					   .x = cpu_t,
					   .y = cpu_v,
					   .n = n,
					   .width = 2,
					   .fill_alpha = 0.2 };
	cpu_zones[0] = (struct pr_chart_zone){ 0, 25, "Low (0-25%)", 0x4CAF50, 0.08 };
	cpu_zones[1] = (struct pr_chart_zone){ 25, 50, "Moderate (25-50%)", 0xFFC107, 0.08 };
	cpu_zones[2] = (struct pr_chart_zone){ 50, 75, "High (50-75%)", 0xFF9800, 0.08 };
	cpu_zones[3] = (struct pr_chart_zone){ 75, 100, "Very high (75-100%)", 0xF44336, 0.08 };
	snprintf(cpu_avg_label, sizeof(cpu_avg_label), "Average: %.1f%%", sum / (double)n);
	cpu_avg = (struct pr_chart_hline){ sum / (double)n, cpu_avg_label, 0xE74C3C, 1 };
	snprintf(cpu_title, sizeof(cpu_title),
		 "CPU Usage Over Time | Peak: %.1f%% | Average: %.1f%%", max, sum / (double)n);
	c->title = cpu_title;
	c->x_label = "Time";
	c->x_unit = "s";
	c->y_label = "CPU Usage";
	c->y_unit = "percent";
	c->lines = &cpu_line;
	c->nlines = 1;
	c->zones = cpu_zones;
	c->nzones = 4;
	c->hlines = &cpu_avg;
	c->nhlines = 1;
	c->y_fixed = 1;
	c->y_min = 0;
	c->y_max = max * 1.1;
}

static void done_cpu(void)
{
	free(cpu_t);
	free(cpu_v);
}

/* ---- disk: grouped bars per phase ---- */

static const char *const disk_cats[] = { "Model Loading", "Model Export", "Model Compilation",
					 "Text Generation", "Cleanup" };
static const double disk_read[] = { 1843.2, 12.4, 96.0, 3.1, 0.0 };
static const double disk_write[] = { 2.1, 3310.5, 512.8, 0.4, 45.0 };
static struct pr_chart_bar_group disk_groups[2];
static struct pr_chart_bars disk_bars;
static char disk_note[128];

static void build_disk(struct pr_chart *c)
{
	double r = 0, w = 0;
	size_t i;
	for (i = 0; i < 5; i++) {
		r += disk_read[i];
		w += disk_write[i];
	}
	disk_groups[0] = (struct pr_chart_bar_group){ .label = "Read",
						      .rgb = 0x2196F3,
						      .values = disk_read };
	disk_groups[1] = (struct pr_chart_bar_group){ .label = "Write",
						      .rgb = 0xFF5722,
						      .values = disk_write };
	disk_bars = (struct pr_chart_bars){ .categories = disk_cats,
					    .ncategories = 5,
					    .groups = disk_groups,
					    .ngroups = 2,
					    .value_labels = 1 };
	snprintf(disk_note, sizeof(disk_note), "Total I/O: %.1f MB read, %.1f MB write", r, w);
	c->title = "Disk I/O per Operation Phase";
	c->x_label = "Phase";
	c->y_label = "Total I/O";
	c->y_unit = "MB";
	c->bars = &disk_bars;
	c->note = disk_note;
	c->legend = PR_LEGEND_INSIDE;
	c->width = 800;
	c->height = 420;
}

/* ---- phases: horizontal duration bars with per-bar colours ---- */

static const char *phase_cats[NPHASES - 1];
static double phase_durs[NPHASES - 1];
static uint32_t phase_colors[NPHASES - 1];
static char phase_text_buf[NPHASES - 1][32];
static const char *phase_texts[NPHASES - 1];
static struct pr_chart_bar_group phase_group;
static struct pr_chart_bars phase_bars;
static char phase_note[64];

static void build_phases(struct pr_chart *c)
{
	size_t i, n = 0;
	double total = 0;
	for (i = 1; i < NPHASES; i++, n++) {
		double d = phases[i].t1 - phases[i].t0;
		if (i == 3)
			d += 60; /* one phase over a minute: "1m 47.6s" */
		phase_cats[n] = phases[i].name;
		phase_durs[n] = d;
		phase_colors[n] = phases[i].rgb;
		if (d >= 60)
			snprintf(phase_text_buf[n], sizeof(phase_text_buf[n]), "%dm %.1fs",
				 (int)(d / 60), d - 60 * (int)(d / 60));
		else
			snprintf(phase_text_buf[n], sizeof(phase_text_buf[n]), "%.1fs", d);
		phase_texts[n] = phase_text_buf[n];
		total += d;
	}
	phase_group = (struct pr_chart_bar_group){ .label = "Duration",
						   .rgb = 0x666666,
						   .values = phase_durs,
						   .colors = phase_colors,
						   .value_text = phase_texts };
	phase_bars = (struct pr_chart_bars){ .categories = phase_cats,
					     .ncategories = n,
					     .groups = &phase_group,
					     .ngroups = 1,
					     .horizontal = 1,
					     .value_labels = 1 };
	snprintf(phase_note, sizeof(phase_note), "Total: %.1fs", total);
	c->title = "Phase Duration Analysis";
	c->x_label = "Duration";
	c->x_unit = "s";
	c->bars = &phase_bars;
	c->note = phase_note;
	c->width = 800;
	c->height = 420;
}

/* ---- big: 10 M points ---- */

static double *big_t, *big_v;
static struct pr_chart_line big_line;

static void make_big(void)
{
	size_t i;
	if (big_t)
		return;
	rng_seed(99);
	big_t = pr_xmalloc(BIG_N * sizeof(double));
	big_v = pr_xmalloc(BIG_N * sizeof(double));
	for (i = 0; i < BIG_N; i++) {
		double t = (double)i * 1e-5; /* 100 s at 100 kHz */
		big_t[i] = t;
		big_v[i] = 40 + 25 * wave(t, 31.0) + 8 * wave(t, 2.3) + 10 * rng();
		if (i % 1000003 == 500000)
			big_v[i] += 30; /* single-sample spikes must stay visible */
	}
}

static void build_big(struct pr_chart *c)
{
	make_big();
	big_line = (struct pr_chart_line){ .label = "10M samples",
					   .rgb = 0x1F77B4,
					   .x = big_t,
					   .y = big_v,
					   .n = BIG_N,
					   .width = 1.5 };
	c->title = "10 000 000 points (min/max reduced per pixel column)";
	c->x_label = "Time";
	c->x_unit = "s";
	c->y_label = "Value";
	c->lines = &big_line;
	c->nlines = 1;
	c->legend = PR_LEGEND_NONE;
}

static void done_big(void)
{
	free(big_t);
	free(big_v);
	big_t = big_v = NULL;
}

/* ---- empty ---- */

static void build_empty(struct pr_chart *c)
{
	static struct pr_chart_line none = { .label = "Read", .rgb = 0x2196F3 };
	c->title = "Disk I/O";
	c->x_label = "Time";
	c->x_unit = "s";
	c->y_label = "Rate";
	c->y_unit = "bytes";
	c->lines = &none;
	c->nlines = 1;
	c->empty_text = "No disk I/O detected";
}

/* ---- hostile: NaN gaps, huge values, negatives, long and odd labels ---- */

static double hx[64], hy[64], hy2[64], hpt_x = 5, hpt_y = 2e18;
static struct pr_chart_line hlines_[3];
static struct pr_chart_band hband;
static struct pr_chart_mark hmark;

static void build_hostile(struct pr_chart *c)
{
	size_t i;
	for (i = 0; i < 64; i++) {
		hx[i] = (double)i * 0.25;
		hy[i] = (double)(i % 7) * 1.5e17 + 1e17;
		hy2[i] = -(double)(i % 5) * 2e17;
	}
	hy[10] = NAN;	   /* NaN: a gap */
	hy[11] = INFINITY; /* Inf: skipped, a gap */
	hy[40] = NAN;
	hx[50] = NAN;
	hlines_[0] = (struct pr_chart_line){ .label = "<script>&amp;\"quoted\" 'label'",
					     .rgb = pr_chart_color(0),
					     .x = hx,
					     .y = hy,
					     .n = 64 };
	hlines_[1] =
		(struct pr_chart_line){ .label = "a very long legend label that will not fit "
						 "in the legend column at all, so it is elided",
					.rgb = pr_chart_color(1),
					.x = hx,
					.y = hy2,
					.n = 64,
					.dashed = 1 };
	hlines_[2] = (struct pr_chart_line){ .label = "one point \xff\xfe bad UTF-8",
					     .rgb = pr_chart_color(2),
					     .x = &hpt_x,
					     .y = &hpt_y,
					     .n = 1 };
	hband = (struct pr_chart_band){ 2, 6, "Band with a label far too long for it", 0x9467BD,
					0.12 };
	hmark = (struct pr_chart_mark){ 15.75, 1e17, "Edge\nmark <&>", 0xD62728 };
	c->title = "Hostile data: NaN gaps, Inf, 1e18 bytes, negatives, one point, "
		   "<&> labels, and a title long enough that it has to be elided somewhere";
	c->x_label = "Time";
	c->x_unit = "s";
	c->y_label = "Bytes";
	c->y_unit = "bytes";
	c->lines = hlines_;
	c->nlines = 3;
	c->bands = &hband;
	c->nbands = 1;
	c->marks = &hmark;
	c->nmarks = 1;
	c->width = 900;
	c->height = 360;
}

/* ---- timeline: busy intervals per lane, the lanes named on the y axis ---- */

#define TL_LANES 4
#define TL_PER_LANE 24
static const char *const tl_names[TL_LANES] = {
	"python3 / thread 12345 (python3)",
	"python3 / thread 12400 (pt_data_worker)",
	"python3 / stream 7 with a lane name long enough that it has to be elided",
	"<lane & \"stream\" 20>",
};
static struct pr_chart_rect tl_rects[TL_LANES * TL_PER_LANE];
static struct pr_chart_ylabel tl_labels[TL_LANES];

static void build_timeline(struct pr_chart *c)
{
	size_t i, j, k = 0;
	rng_seed(7);
	for (i = 0; i < TL_LANES; i++) {
		double t = 0.02 * (double)i, y = (double)(TL_LANES - 1 - i);
		tl_labels[i] = (struct pr_chart_ylabel){ y + 0.5, tl_names[i] };
		for (j = 0; j < TL_PER_LANE; j++) {
			double busy = 0.005 + 0.03 * rng(), idle = 0.002 + 0.01 * rng();
			tl_rects[k++] =
				(struct pr_chart_rect){ t,	  t + busy,	     y + 0.15,
							y + 0.85, pr_chart_color(i), tl_names[i] };
			t += busy + idle;
		}
	}
	c->title = "Timeline: busy time of top-level spans per thread / stream";
	c->x_label = "Time";
	c->x_unit = "s";
	c->rects = tl_rects;
	c->nrects = k;
	c->y_labels = tl_labels;
	c->ny_labels = TL_LANES;
	c->y_fixed = 1;
	c->y_min = 0;
	c->y_max = TL_LANES;
	c->legend = PR_LEGEND_NONE;
	c->height = 270;
}

/*
 * ---- stacked: the torch memory timeline sample (samples/torch-memory-timeline/
 * memory_timeline.json) by category, stacked in torch's order and colours,
 * the total drawn on top as a step line ----
 */
#define ST_N 19
#define ST_CATS 8
static const double st_t[ST_N] = {
	/* us after the first time, 1718000000123457 */
	0, 0, 15, 22, 39, 40, 42, 49, 50, 51, 52, 60, 75, 82, 99, 100, 102, 111, 112,
};
/* sizes[i][1..8] of the sample, bytes: PARAMETER .. unknown */
static const double st_v[ST_N][ST_CATS] = {
	{ 5242880, 0, 0, 0, 0, 0, 0, 0 },
	{ 5242880, 0, 524288, 0, 0, 0, 0, 0 },
	{ 5242880, 0, 524288, 65536, 2097152, 0, 0, 0 },
	{ 5242880, 0, 524288, 0, 2097152, 0, 0, 0 },
	{ 5242880, 0, 524288, 0, 2097152, 4194304, 0, 0 },
	{ 5242880, 0, 524288, 0, 2097152, 5242880, 8192, 0 },
	{ 5242880, 0, 524288, 0, 0, 5242880, 8192, 0 },
	{ 5242880, 5242880, 524288, 0, 0, 5242880, 8192, 0 },
	{ 5242880, 5242880, 524288, 0, 0, 5242880, 8192, 12288 },
	{ 5242880, 5242880, 524288, 0, 0, 0, 8192, 12288 },
	{ 5242880, 5242880, 0, 0, 0, 0, 0, 12288 },
	{ 5242880, 5242880, 524288, 0, 0, 0, 0, 12288 },
	{ 5242880, 5242880, 524288, 65536, 2097152, 0, 0, 12288 },
	{ 5242880, 5242880, 524288, 0, 2097152, 0, 0, 12288 },
	{ 5242880, 5242880, 524288, 0, 2097152, 4194304, 0, 12288 },
	{ 5242880, 5242880, 524288, 0, 2097152, 5242880, 8192, 12288 },
	{ 5242880, 5242880, 524288, 0, 0, 5242880, 8192, 12288 },
	{ 5242880, 5242880, 524288, 0, 0, 0, 8192, 12288 },
	{ 5242880, 5242880, 0, 0, 0, 0, 0, 12288 },
};
static const char *const st_names[ST_CATS] = {
	"PARAMETER",  "OPTIMIZER_STATE", "INPUT",	    "TEMPORARY",
	"ACTIVATION", "GRADIENT",	 "AUTOGRAD_DETAIL", "UNKNOWN",
};
/* torch.profiler._memory_profiler's _CATEGORY_TO_COLORS (CSS named colours) */
static const uint32_t st_rgb[ST_CATS] = {
	0x006400, 0xDAA520, 0x000000, 0x9370DB, 0xFF0000, 0x0000CD, 0x4169E1, 0x808080,
};
static double st_y[ST_CATS][ST_N], st_total[ST_N];
static struct pr_chart_line st_lines[ST_CATS + 1];

static void build_stacked(struct pr_chart *c)
{
	size_t i, k;
	for (i = 0; i < ST_N; i++) {
		st_total[i] = 0;
		for (k = 0; k < ST_CATS; k++) {
			st_y[k][i] = st_v[i][k];
			st_total[i] += st_v[i][k];
		}
	}
	for (k = 0; k < ST_CATS; k++)
		st_lines[k] = (struct pr_chart_line){ .label = st_names[k],
						      .rgb = st_rgb[k],
						      .x = st_t,
						      .y = st_y[k],
						      .n = ST_N,
						      .fill_alpha = 0.7,
						      .style = PR_LINE_STEP,
						      .stack = 1 };
	st_lines[ST_CATS] = (struct pr_chart_line){ .label = "Total",
						    .rgb = 0x222222,
						    .x = st_t,
						    .y = st_total,
						    .n = ST_N,
						    .width = 2,
						    .style = PR_LINE_STEP };
	c->title = "Device memory by category (torch memory timeline)";
	c->x_label = "Time";
	c->x_unit = "us";
	c->y_label = "Memory";
	c->y_unit = "bytes";
	c->lines = st_lines;
	c->nlines = ST_CATS + 1;
}

/* ---- steps: two gauges sampled at different times, drawn as steps ---- */
static const double sp_t1[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
static const double sp_y1[] = { 10, 10, 40, 40, 25, 80, 80, 30, 30 };
static const double sp_t2[] = { 0.5, 2.5, 4.5, 6.5, 8.5 };
static const double sp_y2[] = { 60, 20, 50, NAN, 70 };
static struct pr_chart_line sp_lines[2];

static void build_steps(struct pr_chart *c)
{
	sp_lines[0] = (struct pr_chart_line){ .label = "GPU 0 (1 s samples)",
					      .rgb = 0x1F77B4,
					      .x = sp_t1,
					      .y = sp_y1,
					      .n = 9,
					      .fill_alpha = 0.15,
					      .style = PR_LINE_STEP };
	sp_lines[1] = (struct pr_chart_line){ .label = "GPU 1 (2 s samples, one missing)",
					      .rgb = 0xFF7F0E,
					      .x = sp_t2,
					      .y = sp_y2,
					      .n = 5,
					      .style = PR_LINE_STEP };
	c->title = "Sampled utilisation drawn as steps";
	c->x_label = "Time";
	c->x_unit = "s";
	c->y_label = "Utilisation";
	c->y_unit = "percent";
	c->y_fixed = 1;
	c->y_min = 0;
	c->y_max = 100;
	c->lines = sp_lines;
	c->nlines = 2;
	c->width = 800;
	c->height = 320;
}

/* ---- log_bars: kernel times spanning 5 decades (a log axis, asked for) ---- */
static const char *const lb_cats[] = { "gemm_bf16_128x256", "flash_attn_fwd", "layer_norm",
				       "elementwise_add", "memset_32" };
static const double lb_ns[] = { 8.4e6, 1.25e6, 42000, 3100, 180 };
static struct pr_chart_bar_group lb_group;
static struct pr_chart_bars lb_bars;

static void build_log_bars(struct pr_chart *c)
{
	lb_group = (struct pr_chart_bar_group){ .label = "total time",
						.rgb = 0x2E86AB,
						.values = lb_ns };
	lb_bars = (struct pr_chart_bars){ .categories = lb_cats,
					  .ncategories = 5,
					  .groups = &lb_group,
					  .ngroups = 1,
					  .horizontal = 1,
					  .value_labels = 1 };
	c->title = "Kernel time (5 decades: log scale)";
	c->x_label = "Total time";
	c->x_unit = "ns";
	c->bars = &lb_bars;
	c->value_scale = PR_SCALE_LOG;
	c->width = 900;
	c->height = 300;
}

/* ---- date: a 40-minute sampled log around midnight UTC, on a clock-time axis ---- */
#define DT_N 41
static double dt_t[DT_N], dt_y[DT_N];
static struct pr_chart_line dt_line;

static void build_date(struct pr_chart *c)
{
	size_t i;
	for (i = 0; i < DT_N; i++) { /* one sample a minute */
		dt_t[i] = 60.0 * (double)i;
		dt_y[i] = (double)(1024 + 64 * (long)(i % 7)) * MIB;
	}
	dt_line = (struct pr_chart_line){ .label = "RSS",
					  .rgb = 0x2E86AB,
					  .x = dt_t,
					  .y = dt_y,
					  .n = DT_N,
					  .fill_alpha = 0.15,
					  .style = PR_LINE_STEP };
	c->title = "Memory over wall-clock time (UTC)";
	c->x_label = "Time";
	c->y_label = "Memory";
	c->y_unit = "bytes";
	c->x_date = 1;
	c->x_epoch = 1718063400; /* 2024-06-10 23:50:00 UTC */
	c->lines = &dt_line;
	c->nlines = 1;
	c->legend = PR_LEGEND_NONE;
	c->width = 900;
	c->height = 320;
}

static struct demo demos[] = {
	{ "memory", build_memory, done_memory }, { "cpu", build_cpu, done_cpu },
	{ "disk_bars", build_disk, NULL },	 { "phase_bars", build_phases, NULL },
	{ "big", build_big, done_big },		 { "empty", build_empty, NULL },
	{ "hostile", build_hostile, NULL },	 { "timeline", build_timeline, NULL },
	{ "stacked", build_stacked, NULL },	 { "steps", build_steps, NULL },
	{ "log_bars", build_log_bars, NULL },	 { "date", build_date, NULL },
};

static int render_to(const struct pr_chart *c, enum pr_gfx_format f, const char *path,
		     struct pr_error *err)
{
	struct pr_output out;
	int ret;
	if (pr_output_open_file(&out, path, err))
		return -1;
	ret = pr_chart_render(c, f, &out, err);
	if (!ret)
		ret = pr_output_close(&out, err);
	pr_output_release(&out);
	return ret;
}

static int write_text(const char *path, const char *s, size_t n, struct pr_error *err)
{
	struct pr_output out;
	int ret;
	if (pr_output_open_file(&out, path, err))
		return -1;
	ret = pr_output_write(&out, s, n);
	if (pr_output_close(&out, err))
		ret = -1;
	pr_output_release(&out);
	return ret;
}

static void die(const struct pr_error *err)
{
	char buf[1200];
	pr_error_format(err, buf, sizeof(buf));
	fprintf(stderr, "chart_demo: %s\n", buf);
	exit(1);
}

static const char *only; /* -f KIND */

static void run_demo(struct demo *d, const char *dir)
{
	struct pr_chart c;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_strbuf path = PR_STRBUF_INIT, dump = PR_STRBUF_INIT;
	double t0;

	memset(&c, 0, sizeof(c));
	d->build(&c);
	if (!only || !strcmp(only, "layout")) {
		if (pr_chart_layout(&c, &dump, &err))
			die(&err);
		pr_strbuf_addf(&path, "%s/%s.layout.txt", dir, d->name);
		if (write_text(path.buf, dump.buf, dump.len, &err))
			die(&err);
	}
	if (!only || !strcmp(only, "svg")) {
		pr_strbuf_reset(&path);
		pr_strbuf_addf(&path, "%s/%s.svg", dir, d->name);
		if (render_to(&c, PR_GFX_SVG, path.buf, &err))
			die(&err);
	}
	if (!only || !strcmp(only, "png")) {
		pr_strbuf_reset(&path);
		pr_strbuf_addf(&path, "%s/%s.png", dir, d->name);
		t0 = now();
		if (render_to(&c, PR_GFX_PNG, path.buf, &err))
			die(&err);
		printf("%s: png in %.3f s\n", d->name, now() - t0);
	}
	if (d->done)
		d->done();
	pr_strbuf_release(&path);
	pr_strbuf_release(&dump);
}

static int big_full(const char *dir)
{
	struct pr_chart c;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_strbuf path = PR_STRBUF_INIT;
	double t0, t_reduced, t_full;

	memset(&c, 0, sizeof(c));
	build_big(&c);
	pr_strbuf_addf(&path, "%s/big.png", dir);
	t0 = now();
	if (render_to(&c, PR_GFX_PNG, path.buf, &err))
		die(&err);
	t_reduced = now() - t0;
	c.no_reduce = 1;
	pr_strbuf_reset(&path);
	pr_strbuf_addf(&path, "%s/big-full.png", dir);
	t0 = now();
	if (render_to(&c, PR_GFX_PNG, path.buf, &err))
		die(&err);
	t_full = now() - t0;
	printf("big: %d points, png reduced %.3f s, every point stroked %.3f s\n", BIG_N, t_reduced,
	       t_full);
	done_big();
	pr_strbuf_release(&path);
	return 0;
}

int main(int argc, char **argv)
{
	size_t i;
	int a;
	if (argc >= 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < sizeof(demos) / sizeof(demos[0]); i++)
			printf("%s\n", demos[i].name);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--cairo-version")) {
		printf("%s\n", pr_render_cairo_version());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--big-full"))
		return big_full(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "-f")) {
		only = argv[2];
		if (strcmp(only, "layout") && strcmp(only, "svg") && strcmp(only, "png")) {
			fprintf(stderr, "chart_demo: -f takes layout, svg or png\n");
			return 2;
		}
		argv += 2;
		argc -= 2;
	}
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: chart_demo [-f layout|svg|png] OUTDIR [CASE...] | --list | "
				"--cairo-version | --big-full OUTDIR\n");
		return 2;
	}
	for (a = 2; a < argc; a++) {
		int known = 0;
		for (i = 0; i < sizeof(demos) / sizeof(demos[0]); i++)
			known |= !strcmp(argv[a], demos[i].name);
		if (!known) {
			fprintf(stderr, "chart_demo: unknown case '%s'\n", argv[a]);
			return 2;
		}
	}
	for (i = 0; i < sizeof(demos) / sizeof(demos[0]); i++) {
		int want = argc == 2;
		for (a = 2; a < argc; a++)
			want |= !strcmp(argv[a], demos[i].name);
		if (want)
			run_demo(&demos[i], argv[1]);
	}
	return 0;
}
