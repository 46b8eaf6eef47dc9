/* layout.c - chart layout: ticks, units, margins, legend, text placement. */
#include "render/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/chart.h"
#include "base/escape.h"
#include "base/xalloc.h"

/* ---- text measuring ---- */

/*
 * Advance widths in font units (2048 per em) of DejaVu Sans 2.37 and DejaVu
 * Sans Bold for U+0020..U+007E followed by U+00A0..U+00FF, as Cairo reports
 * them with unhinted metrics.
 */
static const uint16_t adv_regular[191] = {
	651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716,
	651, 739, 651, 690, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303,
	1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430,
	1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612,
	1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,
	690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300,
	1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300, 1300, 842, 1067,
	803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716, 651,
	821, 1303, 1303, 1303, 1303, 690, 1024, 1024, 2048, 965, 1253, 1716,
	739, 2048, 1024, 1024, 1716, 821, 821, 1024, 1303, 1303, 651, 1024,
	821, 965, 1253, 1985, 1985, 1985, 1087, 1401, 1401, 1401, 1401, 1401,
	1401, 1995, 1430, 1294, 1294, 1294, 1294, 604, 604, 604, 604, 1587,
	1532, 1612, 1612, 1612, 1612, 1612, 1716, 1612, 1499, 1499, 1499, 1499,
	1251, 1239, 1290, 1255, 1255, 1255, 1255, 1255, 1255, 2011, 1126, 1260,
	1260, 1260, 1260, 569, 569, 569, 569, 1253, 1298, 1253, 1253, 1253,
	1253, 1253, 1716, 1253, 1298, 1298, 1298, 1298, 1212, 1300, 1212,
};
static const uint16_t adv_bold[191] = {
	713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716,
	778, 850, 778, 748, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425,
	1425, 1425, 819, 819, 1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503,
	1700, 1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741,
	1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483, 1485, 936,
	748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466,
	1458, 702, 702, 1362, 702, 2134, 1458, 1407, 1466, 1466, 1010, 1219,
	979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716, 713,
	934, 1425, 1425, 1303, 1425, 748, 1024, 1024, 2048, 1155, 1323, 1716,
	850, 2048, 1024, 1024, 1716, 897, 897, 1024, 1507, 1303, 778, 1024,
	897, 1155, 1323, 2120, 2120, 2120, 1188, 1585, 1585, 1585, 1585, 1585,
	1585, 2222, 1503, 1399, 1399, 1399, 1399, 762, 762, 762, 762, 1716,
	1714, 1741, 1741, 1741, 1741, 1741, 1716, 1741, 1663, 1663, 1663, 1663,
	1483, 1511, 1473, 1382, 1382, 1382, 1382, 1382, 1382, 2146, 1214, 1389,
	1389, 1389, 1389, 702, 702, 702, 702, 1407, 1458, 1407, 1407, 1407,
	1407, 1407, 1716, 1407, 1458, 1458, 1458, 1458, 1335, 1466, 1335,
};

#define UNITS_PER_EM 2048.0
#define ADV_ELLIPSIS 2048
#define ADV_REPLACEMENT_REGULAR 2100
#define ADV_REPLACEMENT_BOLD 2280
#define ADV_OTHER 1229 /* 0.6 em: an estimate for characters outside the table */

static unsigned advance(long cp, int bold)
{
	const uint16_t *t = bold ? adv_bold : adv_regular;
	if (cp >= 0x20 && cp <= 0x7E)
		return t[cp - 0x20];
	if (cp >= 0xA0 && cp <= 0xFF)
		return t[95 + (cp - 0xA0)];
	if (cp == 0x2026)
		return ADV_ELLIPSIS;
	if (cp == 0xFFFD || cp < 0)
		return bold ? ADV_REPLACEMENT_BOLD : ADV_REPLACEMENT_REGULAR;
	if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
		return t[0]; /* drawn as a space by pr_text_clean */
	return ADV_OTHER;
}

double pr_text_width_dejavu(void *ctx, const char *text, double size, int bold)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = text ? strlen(text) : 0, i = 0;
	unsigned long units = 0;
	(void)ctx;
	while (i < n) {
		long cp;
		i += pr_utf8_decode(p + i, n - i, &cp);
		units += advance(cp, bold);
	}
	return (double)units * size / UNITS_PER_EM;
}

const struct pr_text_metrics pr_text_metrics_dejavu = { pr_text_width_dejavu, NULL };

static double text_w(const struct pr_text_metrics *m, const char *s, double size, int bold)
{
	return m->width(m->ctx, s, size, bold);
}

char *pr_text_clean(const char *text)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)text;
	size_t n = text ? strlen(text) : 0, i = 0;
	while (i < n) {
		long cp;
		size_t len = pr_utf8_decode(p + i, n - i, &cp);
		if (cp < 0)
			pr_strbuf_addstr(&sb, "\xEF\xBF\xBD");
		else if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
			pr_strbuf_addch(&sb, ' ');
		else
			pr_strbuf_add(&sb, p + i, len);
		i += len;
	}
	return pr_strbuf_detach(&sb, NULL);
}

char *pr_text_elide(const struct pr_text_metrics *m, const char *text, double size, int bold,
		    double max_w)
{
	static const char ellipsis[] = "\xE2\x80\xA6";
	struct pr_strbuf sb = PR_STRBUF_INIT;
	size_t n = strlen(text), *cuts, ncuts = 0, lo, hi, i;
	const unsigned char *p = (const unsigned char *)text;

	if (text_w(m, text, size, bold) <= max_w)
		return pr_xstrdup(text);
	if (text_w(m, ellipsis, size, bold) > max_w)
		return pr_xstrdup("");
	/* Candidate prefix lengths: every code point boundary. */
	cuts = pr_xreallocarray(NULL, n + 1, sizeof(size_t));
	for (i = 0; i < n;) {
		long cp;
		cuts[ncuts++] = i;
		i += pr_utf8_decode(p + i, n - i, &cp);
	}
	/* Longest prefix k (index into cuts) whose elided form fits; 0 always does. */
	lo = 0;
	hi = ncuts - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2, len = cuts[mid];
		pr_strbuf_reset(&sb);
		pr_strbuf_add(&sb, text, len);
		pr_strbuf_addstr(&sb, ellipsis);
		if (text_w(m, sb.buf, size, bold) <= max_w)
			lo = mid;
		else
			hi = mid - 1;
	}
	i = cuts[lo];
	while (i > 0 && text[i - 1] == ' ')
		i--;
	pr_strbuf_reset(&sb);
	pr_strbuf_add(&sb, text, i);
	pr_strbuf_addstr(&sb, ellipsis);
	free(cuts);
	return pr_strbuf_detach(&sb, NULL);
}

/* ---- ticks ---- */

/* 10^e by exact repeated multiplication (no libm: same bits everywhere). */
static double pow10i(int e)
{
	double r = 1;
	int k = e < 0 ? -e : e;
	while (k-- > 0)
		r *= 10;
	return e < 0 ? 1 / r : r;
}

int pr_nice_ticks(double lo, double hi, size_t max_intervals, struct pr_ticks *t)
{
	static const int mult[] = { 1, 2, 5, 10 };
	double span = hi - lo, raw, p, k0, k1;
	int e = 0;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (!isfinite(lo) || !isfinite(hi) || !isfinite(span) || !(span > 0))
		return -1;
	if (max_intervals < 1)
		max_intervals = 1;
	raw = span / (double)max_intervals;
	/* e with 10^e <= raw < 10^(e+1) */
	p = 1;
	while (p > raw && e > -320) {
		e--;
		p = pow10i(e);
	}
	while (pow10i(e + 1) <= raw && e < 310) {
		e++;
		p = pow10i(e);
	}
	for (i = 0; i < PR_ARRAY_SIZE(mult); i++) {
		double step = mult[i] * p;
		if (step >= raw * (1 - 1e-9) || i + 1 == PR_ARRAY_SIZE(mult)) {
			int ee = mult[i] == 10 ? e + 1 : e;
			t->step = mult[i] == 10 ? pow10i(e + 1) : step;
			t->decimals = ee < 0 ? -ee : 0;
			break;
		}
	}
	if (!isfinite(t->step) || !(t->step > 0))
		return -1;
	k0 = ceil(lo / t->step - 1e-9);
	k1 = floor(hi / t->step + 1e-9);
	t->first = k0 * t->step + 0.0;
	if (!(k1 >= k0))
		t->count = 0;
	else if (k1 - k0 >= (double)max_intervals) /* only from rounding at the ends */
		t->count = max_intervals + 1;
	else
		t->count = (size_t)(k1 - k0) + 1;
	return 0;
}

/* ---- units ---- */

struct unit_name {
	const char *name;
	enum pr_unit_kind kind;
	double factor;
};

static const struct unit_name unit_names[] = {
	{ "bytes", PR_UNIT_BYTES, 1 },
	{ "byte", PR_UNIT_BYTES, 1 },
	{ "B", PR_UNIT_BYTES, 1 },
	{ "KiB", PR_UNIT_BYTES, 1024.0 },
	{ "MiB", PR_UNIT_BYTES, 1024.0 * 1024 },
	{ "GiB", PR_UNIT_BYTES, 1024.0 * 1024 * 1024 },
	{ "TiB", PR_UNIT_BYTES, 1024.0 * 1024 * 1024 * 1024 },
	{ "ns", PR_UNIT_TIME, 1e-9 },
	{ "us", PR_UNIT_TIME, 1e-6 },
	{ "ms", PR_UNIT_TIME, 1e-3 },
	{ "s", PR_UNIT_TIME, 1 },
	{ "min", PR_UNIT_TIME, 60 },
	{ "h", PR_UNIT_TIME, 3600 },
	{ "percent", PR_UNIT_PERCENT, 1 },
	{ "%", PR_UNIT_PERCENT, 1 },
};

void pr_axis_unit_choose(struct pr_axis_unit *u, const char *unit, double maxabs)
{
	static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	size_t i;
	double base;

	memset(u, 0, sizeof(*u));
	u->kind = PR_UNIT_PLAIN;
	u->factor = 1;
	u->scale = 1;
	if (!unit)
		unit = "";
	for (i = 0; i < PR_ARRAY_SIZE(unit_names); i++) {
		if (!strcmp(unit, unit_names[i].name)) {
			u->kind = unit_names[i].kind;
			u->factor = unit_names[i].factor;
			break;
		}
	}
	if (!isfinite(maxabs) || maxabs < 0)
		maxabs = 0;
	base = maxabs * u->factor;
	switch (u->kind) {
	case PR_UNIT_BYTES: {
		double s = 1;
		for (i = 0; i + 1 < PR_ARRAY_SIZE(iec) && base >= s * 1024; i++)
			s *= 1024;
		u->scale = s;
		snprintf(u->name, sizeof(u->name), "%s", iec[i]);
		break;
	}
	case PR_UNIT_TIME: {
		const char *name = "s";
		double s = 1;
		if (base >= 36000) {
			name = "h";
			s = 3600;
		} else if (base >= 600) {
			name = "min";
			s = 60;
		} else if (base >= 1 || base == 0) {
			name = "s";
			s = 1;
		} else if (base >= 1e-3) {
			name = "ms";
			s = 1e-3;
		} else if (base >= 1e-6) {
			name = "us";
			s = 1e-6;
		} else {
			name = "ns";
			s = 1e-9;
		}
		u->scale = s;
		snprintf(u->name, sizeof(u->name), "%s", name);
		break;
	}
	case PR_UNIT_PERCENT:
		snprintf(u->name, sizeof(u->name), "%%");
		break;
	case PR_UNIT_PLAIN: {
		double s = 1;
		size_t k = 0;
		if (base >= 1e4) {
			while (k + 1 < PR_ARRAY_SIZE(si) && base >= s * 1000) {
				s *= 1000;
				k++;
			}
		}
		u->scale = s;
		snprintf(u->suffix, sizeof(u->suffix), "%s", si[k]);
		snprintf(u->name, sizeof(u->name), "%s", unit);
		break;
	}
	}
}

void pr_axis_unit_format(const struct pr_axis_unit *u, double v, int decimals, char *buf,
			 size_t n)
{
	double shown = v * u->factor / u->scale;
	if (decimals < 0)
		decimals = 0;
	if (decimals > 12)
		decimals = 12;
	if (shown == 0 || !isfinite(shown)) {
		snprintf(buf, n, "%s", isfinite(shown) ? "0" : "?");
		return;
	}
	if (fabs(shown) >= 1e15)
		snprintf(buf, n, "%.4g%s", shown, u->suffix);
	else
		snprintf(buf, n, "%.*f%s", decimals, shown, u->suffix);
	if (!strncmp(buf, "-0", 2) && strspn(buf + 2, ".0") == strlen(buf + 2) - strlen(u->suffix))
		snprintf(buf, n, "0%s", u->suffix); /* "-0.0" after rounding */
}

/* ---- layout helpers ---- */

#define PAD 12.0
#define TICK_LEN 5.0
#define TICK_GAP 4.0
#define LEGEND_PAD 8.0
#define LEGEND_ROW 18.0
#define SWATCH_W 22.0
#define SWATCH_GAP 6.0
#define BOX_PAD 6.0

#define RGB_TITLE 0x222222u
#define RGB_LABEL 0x333333u
#define RGB_TICK 0x444444u
#define RGB_BAND 0x555555u
#define RGB_EMPTY 0x888888u
#define RGB_WHITE 0xFFFFFFu

void pr_layout_init(struct pr_layout *lo)
{
	memset(lo, 0, sizeof(*lo));
}

void pr_layout_release(struct pr_layout *lo)
{
	size_t i;
	for (i = 0; i < lo->ntexts; i++)
		free(lo->texts[i].text);
	free(lo->texts);
	free(lo->x.ticks);
	free(lo->y.ticks);
	free(lo->legend.entries);
	free(lo->marks);
	free(lo->bars);
	free(lo->lines);
	pr_layout_init(lo);
}

/* Takes `text`. */
static struct pr_text *add_text(struct pr_layout *lo, const char *role, char *text, double x,
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

static double clampd(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int usable(double v)
{
	return isfinite(v) && fabs(v) < 1e300;
}

double pr_layout_x(const struct pr_layout *lo, double v)
{
	return lo->plot.x + (v - lo->x.lo) / (lo->x.hi - lo->x.lo) * lo->plot.w;
}

double pr_layout_y(const struct pr_layout *lo, double v)
{
	return lo->plot.y + lo->plot.h - (v - lo->y.lo) / (lo->y.hi - lo->y.lo) * lo->plot.h;
}

/* ---- validation ---- */

static int validate(const struct pr_chart *c, struct pr_error *err)
{
	size_t i;
	if (!c)
		return pr_error_set(err, PR_E_USAGE, "no chart");
	if ((c->width && (c->width < 200 || c->width > 8000)) ||
	    (c->height && (c->height < 200 || c->height > 8000)))
		return pr_error_set(err, PR_E_USAGE, "chart size %dx%d out of range (200..8000 px)",
				    c->width, c->height);
	if (c->y_fixed && !(usable(c->y_min) && usable(c->y_max) && c->y_max > c->y_min))
		return pr_error_set(err, PR_E_USAGE, "fixed y range %g..%g is empty or not finite",
				    c->y_min, c->y_max);
#define NEED(arr, cnt, what)                                                               \
	if ((cnt) && !(arr))                                                               \
		return pr_error_set(err, PR_E_USAGE, "%zu %s but no array", (size_t)(cnt), what);
	NEED(c->lines, c->nlines, "lines")
	NEED(c->bands, c->nbands, "bands")
	NEED(c->vlines, c->nvlines, "vlines")
	NEED(c->zones, c->nzones, "zones")
	NEED(c->hlines, c->nhlines, "hlines")
	NEED(c->marks, c->nmarks, "marks")
	for (i = 0; i < c->nlines; i++) {
		if (c->lines[i].n && !c->lines[i].y)
			return pr_error_set(err, PR_E_USAGE, "line %zu has %zu points but no y values",
					    i, c->lines[i].n);
	}
	if (c->bars) {
		const struct pr_chart_bars *b = c->bars;
		NEED(b->categories, b->ncategories, "bar categories")
		NEED(b->groups, b->ngroups, "bar groups")
		if (b->ncategories > 100000 || b->ngroups > 1000 ||
		    b->ncategories * b->ngroups > 1000000)
			return pr_error_set(err, PR_E_LIMIT,
					    "%zu bar categories x %zu groups is too many",
					    b->ncategories, b->ngroups);
		for (i = 0; i < b->ngroups; i++) {
			if (b->ncategories && !b->groups[i].values)
				return pr_error_set(err, PR_E_USAGE, "bar group %zu has no values", i);
		}
	}
#undef NEED
	return 0;
}

/* ---- data ranges ---- */

struct range {
	double lo, hi;
	int any;
};

static void grow(struct range *r, double v)
{
	if (!usable(v))
		return;
	if (!r->any || v < r->lo)
		r->lo = v;
	if (!r->any || v > r->hi)
		r->hi = v;
	r->any = 1;
}

/* A zero-width range gets room around it. */
static void pad_flat(struct range *r)
{
	if (r->hi > r->lo)
		return;
	if (r->lo == 0) {
		r->lo = -1;
		r->hi = 1;
	} else {
		double d = fabs(r->lo) * 0.05;
		r->lo -= d;
		r->hi += d;
	}
}

/* The value range of a line chart's y axis (see render/chart.h). */
static void y_range_lines(const struct pr_chart *c, struct range *yr, int fill, double *lo,
			  double *hi)
{
	double dmin = yr->lo, dmax = yr->hi, head = c->nmarks ? 0.15 : 0.10;
	if (!yr->any) {
		*lo = 0;
		*hi = 1;
		return;
	}
	if (dmin == dmax) {
		if (dmin == 0) {
			*lo = 0;
			*hi = 1;
		} else if (fill) {
			*lo = dmin < 0 ? dmin * (1 + head) : 0;
			*hi = dmin < 0 ? 0 : dmax * (1 + head);
		} else {
			*lo = dmin - fabs(dmin) * 0.1;
			*hi = dmax + fabs(dmax) * 0.1;
		}
		return;
	}
	if (fill || (dmin >= 0 && dmin < 0.5 * dmax)) {
		if (dmin > 0)
			dmin = 0;
	}
	if (fill || (dmax <= 0 && dmax > 0.5 * dmin)) {
		if (dmax < 0)
			dmax = 0;
	}
	{
		double span = dmax - dmin;
		*lo = dmin == 0 ? 0 : dmin - span * (dmax == 0 ? head : 0.05);
		*hi = dmax == 0 ? 0 : dmax + span * head;
	}
}

/* ---- legend entries ---- */

struct entry_src {
	const char *label;
	enum pr_swatch_kind kind;
	uint32_t rgb;
	double alpha, line_width;
	int dashed;
};

struct entries {
	struct entry_src *v;
	size_t n, alloc, extra; /* extra: not collected (beyond the cap) */
};

#define MAX_LEGEND_SOURCES 1000

static void add_entry(struct entries *e, const char *label, enum pr_swatch_kind kind, uint32_t rgb,
		      double alpha, double lw, int dashed, int dedupe)
{
	size_t i;
	if (!label || !label[0])
		return;
	if (e->n >= MAX_LEGEND_SOURCES) {
		e->extra++;
		return;
	}
	if (dedupe) {
		for (i = 0; i < e->n; i++) {
			if (e->v[i].kind == kind && e->v[i].rgb == rgb && !strcmp(e->v[i].label, label))
				return;
		}
	}
	if (e->n == e->alloc) {
		e->alloc = e->alloc ? 2 * e->alloc : 16;
		e->v = pr_xreallocarray(e->v, e->alloc, sizeof(*e->v));
	}
	e->v[e->n].label = label;
	e->v[e->n].kind = kind;
	e->v[e->n].rgb = rgb;
	e->v[e->n].alpha = alpha;
	e->v[e->n].line_width = lw;
	e->v[e->n].dashed = dashed;
	e->n++;
}

static double swatch_alpha(double a, double dflt)
{
	if (!(a > 0))
		a = dflt;
	a *= 3;
	return a > 1 ? 1 : a;
}

static void collect_entries(const struct pr_chart *c, struct entries *e)
{
	size_t i;
	if (c->bars) {
		for (i = 0; i < c->bars->ngroups; i++)
			add_entry(e, c->bars->groups[i].label, PR_SWATCH_PATCH, c->bars->groups[i].rgb,
				  1, 0, 0, 0);
	} else {
		for (i = 0; i < c->nlines; i++) {
			const struct pr_chart_line *l = &c->lines[i];
			add_entry(e, l->label, PR_SWATCH_LINE, l->rgb, 1, l->width > 0 ? l->width : 2,
				  l->dashed, 0);
		}
	}
	for (i = 0; i < c->nhlines; i++)
		add_entry(e, c->hlines[i].label, PR_SWATCH_LINE, c->hlines[i].rgb, 1, 1.5,
			  c->hlines[i].dashed, 0);
	if (!c->bars) {
		for (i = 0; i < c->nbands; i++)
			add_entry(e, c->bands[i].label, PR_SWATCH_PATCH, c->bands[i].rgb,
				  swatch_alpha(c->bands[i].alpha, 0.15), 0, 0, 1);
		for (i = 0; i < c->nrects; i++)
			add_entry(e, c->rects[i].label, PR_SWATCH_PATCH, c->rects[i].rgb, 0.85, 0, 0, 1);
	}
	for (i = 0; i < c->nzones; i++)
		add_entry(e, c->zones[i].label, PR_SWATCH_PATCH, c->zones[i].rgb,
			  swatch_alpha(c->zones[i].alpha, 0.08), 0, 0, 1);
}

/* ---- axes ---- */

static void set_ticks(struct pr_axis *a, size_t n)
{
	free(a->ticks);
	a->ticks = n ? pr_xcalloc(n, sizeof(*a->ticks)) : NULL;
	a->nticks = n;
}

/* Numeric ticks for axis a over [a->lo, a->hi], at most max_int intervals. */
static void numeric_ticks(struct pr_axis *a, size_t max_int)
{
	struct pr_ticks t;
	size_t i;
	if (pr_nice_ticks(a->lo * a->unit.factor / a->unit.scale,
			  a->hi * a->unit.factor / a->unit.scale, max_int, &t)) {
		set_ticks(a, 0);
		return;
	}
	set_ticks(a, t.count);
	a->decimals = t.decimals;
	for (i = 0; i < t.count; i++) {
		double shown = (round(t.first / t.step) + (double)i) * t.step + 0.0;
		a->ticks[i].value = shown * a->unit.scale / a->unit.factor;
		a->ticks[i].grid = 1;
	}
}

static char *tick_label(const struct pr_axis *a, size_t i)
{
	char buf[64];
	pr_axis_unit_format(&a->unit, a->ticks[i].value, a->decimals, buf, sizeof(buf));
	return pr_xstrdup(buf);
}

static char *axis_title(const char *label, const struct pr_axis_unit *u)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	char *clean;
	pr_strbuf_addstr(&sb, label ? label : "");
	if (u && u->name[0]) {
		if (sb.len)
			pr_strbuf_addch(&sb, ' ');
		pr_strbuf_addf(&sb, "(%s)", u->name);
	}
	clean = pr_text_clean(sb.buf);
	pr_strbuf_release(&sb);
	return clean;
}

/* Text block geometry for boxes (marks, the note). */
static double block_height(size_t nlines, double size)
{
	return (double)(nlines - 1) * PR_TEXT_LINE * size + (PR_TEXT_CAP + PR_TEXT_DESCENT) * size;
}

/* Split text at '\n' into clean, elided lines. Returns the count; *out owned by caller. */
static size_t split_lines(const struct pr_text_metrics *m, const char *text, double size,
			  double max_w, char ***out)
{
	size_t n = 0, alloc = 0;
	char **v = NULL;
	const char *p = text ? text : "";
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *raw = pr_xstrndup(p, len), *clean = pr_text_clean(raw);
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 4;
			v = pr_xreallocarray(v, alloc, sizeof(*v));
		}
		v[n++] = pr_text_elide(m, clean, size, 0, max_w);
		free(raw);
		free(clean);
		if (!nl || n >= 64)
			break;
		p = nl + 1;
	}
	*out = v;
	return n;
}

static double max_text_w(const struct pr_text_metrics *m, char **lines, size_t n, double size)
{
	double w = 0;
	size_t i;
	for (i = 0; i < n; i++) {
		double t = text_w(m, lines[i], size, 0);
		if (t > w)
			w = t;
	}
	return w;
}

/* Add a boxed multi-line text whose box is already placed; takes lines. */
static void add_block(struct pr_layout *lo, const char *role, char **lines, size_t n,
		      const struct pr_rect *box, double size)
{
	size_t i;
	for (i = 0; i < n; i++)
		add_text(lo, role, lines[i], box->x + BOX_PAD,
			 box->y + BOX_PAD + PR_TEXT_CAP * size + (double)i * PR_TEXT_LINE * size,
			 size, 0, PR_ALIGN_LEFT, RGB_LABEL);
	free(lines);
}

/* ---- the chart layout ---- */

struct ctx {
	const struct pr_chart *c;
	const struct pr_text_metrics *m;
	struct pr_layout *lo;
	int W, H;
	struct entries ent;
	int legend_pos;
	double legend_w; /* content width incl. padding */
	int band_labels; /* some band label is drawn at the top */
	double strip;    /* px at the top of the plot kept free of data (band labels) */
	double inset;    /* px from the plot top to the note and the inside legend */
};

static double legend_width(struct ctx *x, double cap)
{
	double w = 0;
	size_t i;
	for (i = 0; i < x->ent.n; i++) {
		double t = text_w(x->m, x->ent.v[i].label, PR_SIZE_LEGEND, 0);
		if (t > cap)
			t = cap;
		if (t > w)
			w = t;
	}
	w += SWATCH_W + SWATCH_GAP;
	if (x->c->legend_title && x->c->legend_title[0]) {
		double t = text_w(x->m, x->c->legend_title, PR_SIZE_LEGEND, 1);
		if (t > cap + SWATCH_W + SWATCH_GAP)
			t = cap + SWATCH_W + SWATCH_GAP;
		if (t > w)
			w = t;
	}
	return ceil(w + 2 * LEGEND_PAD);
}

static void place_legend(struct ctx *x, double bx, double by, double cap, double max_h)
{
	struct pr_layout *lo = x->lo;
	struct pr_legend *L = &lo->legend;
	const char *title = x->c->legend_title;
	size_t total = x->ent.n + x->ent.extra, rows_max, shown, i;
	int has_title = title && title[0];
	double y, w = x->legend_w;

	rows_max = max_h > 2 * LEGEND_PAD + LEGEND_ROW
			   ? (size_t)((max_h - 2 * LEGEND_PAD) / LEGEND_ROW)
			   : 1;
	if (rows_max < 1 + (size_t)has_title)
		rows_max = 1 + (size_t)has_title;
	shown = total;
	if ((size_t)has_title + total > rows_max)
		shown = rows_max - (size_t)has_title - 1; /* one row for "+N more" */
	if (shown > x->ent.n)
		shown = x->ent.n;
	L->shown = 1;
	L->hidden = total - shown;
	L->entries = shown ? pr_xcalloc(shown, sizeof(*L->entries)) : NULL;
	L->nentries = shown;
	L->box.x = bx;
	L->box.y = by;
	L->box.w = w;
	L->box.h = 2 * LEGEND_PAD - (LEGEND_ROW - PR_SIZE_LEGEND) +
		   LEGEND_ROW * (double)((size_t)has_title + shown + (L->hidden ? 1 : 0));
	y = by + LEGEND_PAD - (LEGEND_ROW - PR_SIZE_LEGEND) / 2;
	if (has_title) {
		char *clean = pr_text_clean(title);
		add_text(lo, "legend-title",
			 pr_text_elide(x->m, clean, PR_SIZE_LEGEND, 1, w - 2 * LEGEND_PAD),
			 bx + LEGEND_PAD, y + LEGEND_ROW / 2 + PR_TEXT_CAP * PR_SIZE_LEGEND / 2,
			 PR_SIZE_LEGEND, 1, PR_ALIGN_LEFT, RGB_TITLE);
		free(clean);
		y += LEGEND_ROW;
	}
	for (i = 0; i < shown; i++) {
		const struct entry_src *s = &x->ent.v[i];
		struct pr_legend_entry *e = &L->entries[i];
		double cy = y + LEGEND_ROW / 2;
		char *clean = pr_text_clean(s->label);
		e->kind = s->kind;
		e->rgb = s->rgb;
		e->alpha = s->alpha;
		e->line_width = s->line_width > 4 ? 4 : s->line_width;
		e->dashed = s->dashed;
		e->swatch.x = bx + LEGEND_PAD;
		e->swatch.w = SWATCH_W;
		if (s->kind == PR_SWATCH_LINE) {
			e->swatch.y = cy;
			e->swatch.h = 0;
		} else {
			e->swatch.y = cy - 5;
			e->swatch.h = 10;
		}
		add_text(lo, "legend", pr_text_elide(x->m, clean, PR_SIZE_LEGEND, 0, cap),
			 bx + LEGEND_PAD + SWATCH_W + SWATCH_GAP,
			 cy + PR_TEXT_CAP * PR_SIZE_LEGEND / 2, PR_SIZE_LEGEND, 0, PR_ALIGN_LEFT,
			 RGB_LABEL);
		free(clean);
		y += LEGEND_ROW;
	}
	if (L->hidden) {
		char buf[64];
		snprintf(buf, sizeof(buf), "+%zu more", L->hidden);
		add_text(lo, "legend-more", pr_xstrdup(buf), bx + LEGEND_PAD + SWATCH_W + SWATCH_GAP,
			 y + LEGEND_ROW / 2 + PR_TEXT_CAP * PR_SIZE_LEGEND / 2, PR_SIZE_LEGEND, 0,
			 PR_ALIGN_LEFT, RGB_TICK);
	}
}

/* Labels of a numeric x axis fit without overlapping? */
static int x_labels_fit(struct ctx *x, const struct pr_axis *a, double left_limit,
			double right_limit)
{
	double prev_right = -1e300;
	size_t i;
	for (i = 0; i < a->nticks; i++) {
		char *s = tick_label(a, i);
		double w = text_w(x->m, s, PR_SIZE_TICK, 0);
		double l = a->ticks[i].pos - w / 2, r = a->ticks[i].pos + w / 2;
		free(s);
		if (l < prev_right + 10 || l < left_limit || r > right_limit)
			return 0;
		prev_right = r;
	}
	return 1;
}

static void position_x_ticks(struct pr_layout *lo)
{
	size_t i;
	for (i = 0; i < lo->x.nticks; i++)
		lo->x.ticks[i].pos = pr_layout_x(lo, lo->x.ticks[i].value);
}

/* Numeric x ticks: as many as fit without overlapping (at least the first). */
static void layout_x_numeric(struct ctx *x, double right_limit)
{
	struct pr_layout *lo = x->lo;
	size_t max_int = (size_t)(lo->plot.w / 70);
	if (max_int < 1)
		max_int = 1;
	if (max_int > 20)
		max_int = 20;
	for (;;) {
		numeric_ticks(&lo->x, max_int);
		position_x_ticks(lo);
		if (x_labels_fit(x, &lo->x, 2, right_limit) || max_int == 1)
			break;
		max_int--;
	}
	if (!x_labels_fit(x, &lo->x, 2, right_limit) && lo->x.nticks > 1)
		lo->x.nticks = 1; /* even two labels collide: keep the first */
}

static void category_label_text(struct ctx *x, size_t i, double max_w, char **out)
{
	const char *raw = x->c->bars->categories[i];
	char *clean = pr_text_clean(raw ? raw : "");
	*out = pr_text_elide(x->m, clean, PR_SIZE_TICK, 0, max_w);
	free(clean);
}

static void value_label(struct ctx *x, const struct pr_axis *va, size_t g, size_t i, char *buf,
			size_t n)
{
	const struct pr_chart_bar_group *grp = &x->c->bars->groups[g];
	if (grp->value_text && grp->value_text[i]) {
		char *clean = pr_text_clean(grp->value_text[i]);
		snprintf(buf, n, "%s", clean);
		free(clean);
	} else if (grp->values[i] == 0 && !va->unit.suffix[0]) {
		snprintf(buf, n, "0.0"); /* like its neighbours, not like a tick */
	} else {
		pr_axis_unit_format(&va->unit, grp->values[i], 1, buf, n);
	}
}

/* Whether dark text reads better than white on rgb (relative luminance above 0.5). */
static int dark_on(uint32_t rgb)
{
	double r = (double)((rgb >> 16) & 0xFF) / 255, g = (double)((rgb >> 8) & 0xFF) / 255,
	       b = (double)(rgb & 0xFF) / 255;
	return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5;
}

/*
 * One segment of a stacked bar: category i, group g, from `base` to
 * base + value on the value axis; its value label centred inside it when
 * the text fits the segment (and the bar's thickness).
 */
static void stacked_bar(struct ctx *x, struct pr_layout *lo, const struct pr_axis *va,
			struct pr_bar *b, size_t i, size_t g, size_t ncat, double slot, double group,
			double base)
{
	const struct pr_chart_bars *bs = x->c->bars;
	const struct pr_chart_bar_group *grp = &bs->groups[g];
	double v = grp->values[i], a0, a1, len, thick, tw, cx, cy;
	char buf[256];
	b->category = i;
	b->group = g;
	b->value = v;
	b->rgb = grp->colors ? grp->colors[i] : grp->rgb;
	if (lo->horizontal) {
		a0 = pr_layout_x(lo, base);
		a1 = pr_layout_x(lo, base + v);
		b->r.x = fmin(a0, a1);
		b->r.w = fabs(a1 - a0);
		b->r.y = pr_layout_y(lo, (double)(ncat - i)) + (slot - group) / 2;
		b->r.h = group;
		len = b->r.w;
		thick = b->r.h;
	} else {
		a0 = pr_layout_y(lo, base);
		a1 = pr_layout_y(lo, base + v);
		b->r.y = fmin(a0, a1);
		b->r.h = fabs(a1 - a0);
		b->r.x = lo->plot.x + slot * (double)i + (slot - group) / 2;
		b->r.w = group;
		len = b->r.h;
		thick = b->r.w;
	}
	if (!bs->value_labels)
		return;
	value_label(x, va, g, i, buf, sizeof(buf));
	tw = text_w(x->m, buf, PR_SIZE_SMALL, 0);
	if (lo->horizontal ? (tw + 6 > len || thick < PR_SIZE_SMALL * 1.3)
			   : (tw + 6 > thick || len < PR_SIZE_SMALL * 1.3))
		return; /* does not fit inside: the legend and the tables have it */
	cx = b->r.x + b->r.w / 2;
	cy = b->r.y + b->r.h / 2 + PR_SIZE_SMALL * PR_TEXT_CAP / 2;
	add_text(lo, "value", pr_xstrdup(buf), cx, cy, PR_SIZE_SMALL, 0, PR_ALIGN_CENTER,
		 dark_on(b->rgb) ? RGB_TITLE : RGB_WHITE);
}

/* Room on the value axis of a bar chart for the value labels. */
static void bar_headroom(struct ctx *x, struct pr_axis *va, int horiz, size_t ncat, double len)
{
	const struct pr_chart *c = x->c;
	double span = va->hi - va->lo, f = 0.05;
	size_t g, i;
	if (c->y_fixed)
		return;
	if (c->bars->value_labels && !c->bars->stacked) { /* stacked: labels inside the segments */
		if (horiz) {
			double w = 0;
			char buf[256];
			for (g = 0; g < c->bars->ngroups; g++) {
				for (i = 0; i < ncat; i++) {
					double t;
					if (!usable(c->bars->groups[g].values[i]))
						continue;
					value_label(x, va, g, i, buf, sizeof(buf));
					t = text_w(x->m, buf, PR_SIZE_SMALL, 0);
					if (t > w)
						w = t;
				}
			}
			f = (w + 10) / len;
		} else {
			f = (PR_SIZE_SMALL + 8) / len;
		}
		if (f > 0.45)
			f = 0.45;
		f = f / (1 - f);
	}
	if (va->hi > 0)
		va->hi += span * f;
	if (va->lo < 0)
		va->lo -= span * f;
}

/*
 * Px at the top of the plot that data must leave free: the band label row
 * and the boxes inside the plot (the note top left, the legend top right).
 */
static double top_reserve(struct ctx *x, double plot_h)
{
	const struct pr_chart *c = x->c;
	double r = 0, boxes = 0;
	size_t i;
	x->strip = 0;
	if (!c->bars) {
		for (i = 0; i < c->nbands; i++) {
			if (c->bands[i].label && c->bands[i].label[0])
				x->strip = 20;
		}
	}
	x->inset = x->strip > 0 ? x->strip + 2 : 8;
	if (c->note && c->note[0]) {
		size_t n = 1;
		const char *p;
		for (p = c->note; *p && n < 64; p++)
			n += *p == '\n';
		boxes = ceil(block_height(n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
	}
	if (x->legend_pos == PR_LEGEND_INSIDE) {
		int has_title = c->legend_title && c->legend_title[0];
		size_t rows = x->ent.n + x->ent.extra + (size_t)has_title;
		double h = 2 * LEGEND_PAD - (LEGEND_ROW - PR_SIZE_LEGEND) + LEGEND_ROW * (double)rows;
		if (h > plot_h - x->inset - 8)
			h = plot_h - x->inset - 8;
		if (h > boxes)
			boxes = h;
	}
	r = boxes > 0 ? x->inset + boxes + 6 : x->strip;
	return r > 0.6 * plot_h ? 0.6 * plot_h : r;
}

/* Raise hi so that dmax maps at least `px` below the plot top. */
static void keep_below(double *hi, double lo, double dmax, double px, double plot_h)
{
	double r = px / plot_h;
	if (!(px > 0) || !(r < 1) || !usable(dmax))
		return;
	if ((*hi - dmax) < r * (*hi - lo))
		*hi = (dmax - r * lo) / (1 - r);
}

int pr_layout_chart(struct pr_layout *lo, const struct pr_chart *c,
		    const struct pr_text_metrics *m, struct pr_error *err)
{
	struct ctx x;
	struct range xr = { 0, 0, 0 }, yr = { 0, 0, 0 };
	int fill = 0, horiz = 0;
	size_t i, g, ncat = 0;
	double top, bottom, left, right, ylw = 0, vmaxabs = 0, dmax = 0, reserve;
	struct pr_axis *va = NULL; /* the value axis of a bar chart */
	char **ycat = NULL;        /* category labels on the y axis */

	pr_layout_release(lo);
	if (validate(c, err))
		return -1;
	memset(&x, 0, sizeof(x));
	x.c = c;
	x.m = m ? m : &pr_text_metrics_dejavu;
	x.lo = lo;
	x.W = c->width ? c->width : 1200;
	x.H = c->height ? c->height : 420;
	lo->width = x.W;
	lo->height = x.H;
	lo->bar_chart = c->bars != NULL;

	/* Data ranges. */
	if (!c->bars) {
		lo->nlines = c->nlines;
		lo->lines = c->nlines ? pr_xcalloc(c->nlines, sizeof(*lo->lines)) : NULL;
		for (i = 0; i < c->nlines; i++) {
			const struct pr_chart_line *l = &c->lines[i];
			size_t k, fin = 0;
			for (k = 0; k < l->n; k++) {
				double xv = l->x ? l->x[k] : (double)k, yv = l->y[k];
				if (!usable(xv) || !usable(yv))
					continue;
				fin++;
				grow(&xr, xv);
				grow(&yr, yv);
			}
			lo->lines[i].n = l->n;
			lo->lines[i].finite = fin;
			if (fin && l->fill_alpha > 0)
				fill = 1;
		}
		for (i = 0; i < c->nrects; i++) {
			const struct pr_chart_rect *r = &c->rects[i];
			if (!usable(r->x0) || !usable(r->x1) || !usable(r->y0) || !usable(r->y1))
				continue;
			grow(&xr, r->x0);
			grow(&xr, r->x1);
			grow(&yr, r->y0);
			grow(&yr, r->y1);
		}
		lo->empty = !yr.any;
		if (!lo->empty) {
			for (i = 0; i < c->nbands; i++) {
				grow(&xr, c->bands[i].x0);
				grow(&xr, c->bands[i].x1);
			}
			for (i = 0; i < c->nvlines; i++)
				grow(&xr, c->vlines[i].x);
			for (i = 0; i < c->nmarks; i++) {
				if (usable(c->marks[i].x) && usable(c->marks[i].y)) {
					grow(&xr, c->marks[i].x);
					grow(&yr, c->marks[i].y);
				}
			}
			for (i = 0; i < c->nhlines; i++)
				grow(&yr, c->hlines[i].y);
		}
		dmax = yr.hi;
		pad_flat(&xr);
		lo->x.lo = xr.any ? xr.lo : 0;
		lo->x.hi = xr.any ? xr.hi : 1;
		if (c->y_fixed) {
			lo->y.lo = c->y_min;
			lo->y.hi = c->y_max;
		} else {
			y_range_lines(c, &yr, fill, &lo->y.lo, &lo->y.hi);
		}
		vmaxabs = fmax(fabs(xr.lo), fabs(xr.hi));
		pr_axis_unit_choose(&lo->x.unit, c->x_unit, lo->empty ? 0 : vmaxabs);
		vmaxabs = yr.any ? fmax(fabs(yr.lo), fabs(yr.hi)) : 0;
		if (c->y_fixed)
			vmaxabs = fmax(fabs(c->y_min), fabs(c->y_max));
		pr_axis_unit_choose(&lo->y.unit, c->y_unit, lo->empty ? 0 : vmaxabs);
	} else {
		const struct pr_chart_bars *b = c->bars;
		struct range vr = { 0, 0, 1 };
		int anyv = 0;
		horiz = b->horizontal != 0;
		lo->horizontal = horiz;
		ncat = b->ncategories;
		for (i = 0; i < ncat && b->stacked; i++) {
			double sum = 0;
			for (g = 0; g < b->ngroups; g++) {
				if (usable(b->groups[g].values[i]) && b->groups[g].values[i] >= 0) {
					sum += b->groups[g].values[i];
					anyv = 1;
				}
			}
			grow(&vr, sum);
		}
		for (g = 0; g < b->ngroups && !b->stacked; g++) {
			for (i = 0; i < ncat; i++) {
				if (usable(b->groups[g].values[i])) {
					grow(&vr, b->groups[g].values[i]);
					anyv = 1;
				}
			}
		}
		for (i = 0; i < c->nhlines; i++)
			grow(&vr, c->hlines[i].y);
		lo->empty = !anyv || !ncat;
		dmax = vr.hi;
		va = horiz ? &lo->x : &lo->y;
		va->lo = vr.lo;
		va->hi = vr.hi;
		if (c->y_fixed) {
			va->lo = c->y_min;
			va->hi = c->y_max;
		} else if (va->hi == va->lo) {
			va->hi = va->lo + 1;
		}
		vmaxabs = fmax(fabs(va->lo), fabs(va->hi));
		pr_axis_unit_choose(&va->unit, horiz ? c->x_unit : c->y_unit, lo->empty ? 0 : vmaxabs);
		if (lo->empty) {
			va->lo = 0;
			va->hi = 1;
		}
		{
			struct pr_axis *ca = horiz ? &lo->y : &lo->x;
			ca->categorical = 1;
			ca->lo = 0;
			ca->hi = ncat ? (double)ncat : 1;
			pr_axis_unit_choose(&ca->unit, "", 0);
		}
	}

	/* Legend entries and the right margin. */
	x.legend_pos = c->legend;
	if (!lo->empty)
		collect_entries(c, &x.ent);
	if (c->bars && c->bars->ngroups < 2)
		x.ent.n = x.ent.extra = 0; /* one series: the title says it */
	if (!x.ent.n || x.legend_pos == PR_LEGEND_NONE)
		x.legend_pos = PR_LEGEND_NONE;
	x.legend_w = x.legend_pos == PR_LEGEND_NONE ? 0 : legend_width(&x, 0.2 * x.W);

	top = PAD + (c->title && c->title[0] ? PR_SIZE_TITLE * 1.2 + 10 : 6);
	bottom = PAD + (c->x_label && c->x_label[0] ? PR_SIZE_LABEL * 1.25 + 4 : 0) + TICK_LEN +
		 TICK_GAP + PR_SIZE_TICK * (PR_TEXT_CAP + PR_TEXT_DESCENT);
	right = x.legend_pos == PR_LEGEND_RIGHT ? PAD + x.legend_w + 12 : PAD + 8;
	top = ceil(top); /* the plot's edges on whole pixels */
	bottom = ceil(bottom);
	lo->plot.y = top;
	lo->plot.h = x.H - top - bottom;
	if (lo->plot.h < 20)
		lo->plot.h = 20;

	if (c->bars && !lo->empty && !horiz)
		bar_headroom(&x, va, 0, ncat, lo->plot.h);
	reserve = lo->empty ? 0 : top_reserve(&x, lo->plot.h);
	if (reserve > 0 && !c->y_fixed) {
		if (!c->bars)
			keep_below(&lo->y.hi, lo->y.lo, dmax, reserve + 4, lo->plot.h);
		else if (!horiz)
			keep_below(&lo->y.hi, lo->y.lo, dmax,
				   reserve + (c->bars->value_labels && !c->bars->stacked ? PR_SIZE_SMALL + 6 : 4),
				   lo->plot.h);
	}
	if (reserve > 0 && c->bars && horiz) /* push the categories down */
		keep_below(&lo->y.hi, 0, (double)ncat, reserve, lo->plot.h);

	/* The y axis: value ticks, category or named labels; their width sets the left margin. */
	if (!lo->empty && !lo->y.categorical && c->ny_labels) {
		double last = -1e300;
		ycat = pr_xcalloc(c->ny_labels, sizeof(*ycat));
		set_ticks(&lo->y, c->ny_labels);
		for (i = 0; i < c->ny_labels; i++) {
			char *clean;
			double pos;
			lo->y.ticks[i].value = usable(c->y_labels[i].y)
						       ? clampd(c->y_labels[i].y, fmin(lo->y.lo, lo->y.hi),
								fmax(lo->y.lo, lo->y.hi))
						       : lo->y.lo;
			pos = pr_layout_y(lo, lo->y.ticks[i].value);
			if (fabs(pos - last) < PR_SIZE_TICK * 1.3)
				continue; /* too close to the last label shown: a tick only */
			last = pos;
			clean = pr_text_clean(c->y_labels[i].text ? c->y_labels[i].text : "");
			ycat[i] = pr_text_elide(x.m, clean, PR_SIZE_TICK, 0, 0.28 * x.W);
			free(clean);
			if (text_w(x.m, ycat[i], PR_SIZE_TICK, 0) > ylw)
				ylw = text_w(x.m, ycat[i], PR_SIZE_TICK, 0);
		}
	} else if (!lo->empty && !lo->y.categorical && !c->y_no_ticks) {
		size_t max_int = (size_t)(lo->plot.h / 40);
		numeric_ticks(&lo->y, max_int < 2 ? 2 : max_int);
		for (i = 0; i < lo->y.nticks; i++) {
			char *s = tick_label(&lo->y, i);
			double w = text_w(x.m, s, PR_SIZE_TICK, 0);
			if (w > ylw)
				ylw = w;
			free(s);
		}
	} else if (!lo->empty) {
		double slot = lo->plot.h / (lo->y.hi - lo->y.lo);
		size_t every = 1;
		while (slot * (double)every < PR_SIZE_TICK * 1.3)
			every++;
		ycat = pr_xcalloc(ncat, sizeof(*ycat));
		set_ticks(&lo->y, ncat);
		for (i = 0; i < ncat; i++) {
			lo->y.ticks[i].value = (double)(ncat - i) - 0.5;
			if (i % every)
				continue;
			category_label_text(&x, i, 0.28 * x.W, &ycat[i]);
			if (text_w(x.m, ycat[i], PR_SIZE_TICK, 0) > ylw)
				ylw = text_w(x.m, ycat[i], PR_SIZE_TICK, 0);
		}
	}
	left = PAD + (c->y_label && c->y_label[0] ? PR_SIZE_LABEL * 1.25 + 4 : 0) + ceil(ylw) +
	       TICK_GAP + TICK_LEN;
	lo->plot.x = left;
	lo->plot.w = x.W - left - right;
	if (lo->plot.w < 120 && x.legend_pos == PR_LEGEND_RIGHT) {
		x.legend_pos = PR_LEGEND_NONE; /* no room: drop the legend */
		right = PAD + 8;
		lo->plot.w = x.W - left - right;
	}
	if (lo->plot.w < 20)
		lo->plot.w = 20;
	for (i = 0; i < lo->y.nticks; i++)
		lo->y.ticks[i].pos = pr_layout_y(lo, lo->y.ticks[i].value);

	if (c->bars && !lo->empty && horiz)
		bar_headroom(&x, va, 1, ncat, lo->plot.w);

	/* The x axis. */
	if (!lo->empty && !lo->x.categorical) {
		double limit = x.legend_pos == PR_LEGEND_RIGHT ? lo->plot.x + lo->plot.w + 8
							       : x.W - 2.0;
		layout_x_numeric(&x, limit + 1e6); /* first without the right limit */
		if (lo->x.nticks) {
			char *s = tick_label(&lo->x, lo->x.nticks - 1);
			double over = lo->x.ticks[lo->x.nticks - 1].pos +
				      text_w(x.m, s, PR_SIZE_TICK, 0) / 2 - limit;
			free(s);
			if (over > 0) { /* the last label sticks out: narrow the plot */
				lo->plot.w -= ceil(over);
				limit -= ceil(over) * (x.legend_pos == PR_LEGEND_RIGHT);
				for (i = 0; i < lo->y.nticks; i++)
					lo->y.ticks[i].pos = pr_layout_y(lo, lo->y.ticks[i].value);
			}
		}
		layout_x_numeric(&x, limit);
	} else if (!lo->empty) {
		set_ticks(&lo->x, ncat);
		for (i = 0; i < ncat; i++) {
			lo->x.ticks[i].value = (double)i + 0.5;
			lo->x.ticks[i].pos = pr_layout_x(lo, lo->x.ticks[i].value);
		}
	}

	/* Title and axis titles. */
	if (c->title && c->title[0]) {
		char *clean = pr_text_clean(c->title);
		char *t = pr_text_elide(x.m, clean, PR_SIZE_TITLE, 1, x.W - 2 * PAD);
		double w = text_w(x.m, t, PR_SIZE_TITLE, 1);
		double cx = clampd(lo->plot.x + lo->plot.w / 2, PAD + w / 2, x.W - PAD - w / 2);
		add_text(lo, "title", t, cx, PAD + PR_SIZE_TITLE * PR_TEXT_ASCENT, PR_SIZE_TITLE, 1,
			 PR_ALIGN_CENTER, RGB_TITLE);
		free(clean);
	}
	if (c->x_label && c->x_label[0]) {
		char *full =
			axis_title(c->x_label, lo->x.categorical || lo->empty ? NULL : &lo->x.unit);
		add_text(lo, "xlabel", pr_text_elide(x.m, full, PR_SIZE_LABEL, 0, lo->plot.w),
			 lo->plot.x + lo->plot.w / 2, x.H - PAD - PR_SIZE_LABEL * PR_TEXT_DESCENT,
			 PR_SIZE_LABEL, 0, PR_ALIGN_CENTER, RGB_LABEL);
		free(full);
	}
	if (c->y_label && c->y_label[0]) {
		char *full =
			axis_title(c->y_label, lo->y.categorical || lo->empty ? NULL : &lo->y.unit);
		struct pr_text *t = add_text(
			lo, "ylabel", pr_text_elide(x.m, full, PR_SIZE_LABEL, 0, lo->plot.h),
			PAD + PR_SIZE_LABEL * PR_TEXT_ASCENT, lo->plot.y + lo->plot.h / 2,
			PR_SIZE_LABEL, 0, PR_ALIGN_CENTER, RGB_LABEL);
		t->vertical = 1;
		free(full);
	}

	/* Tick labels. */
	if (!lo->empty) {
		double by = lo->plot.y + lo->plot.h + TICK_LEN + TICK_GAP + PR_SIZE_TICK * PR_TEXT_CAP;
		double rx = lo->plot.x - TICK_LEN - TICK_GAP;
		if (lo->x.categorical) {
			double slot = lo->plot.w / (double)ncat;
			size_t every = 1;
			while (slot * (double)every < 28)
				every++;
			for (i = 0; i < ncat; i += every) {
				char *t;
				category_label_text(&x, i, slot * (double)every - 6, &t);
				add_text(lo, "xtick", t, lo->x.ticks[i].pos, by, PR_SIZE_TICK, 0,
					 PR_ALIGN_CENTER, RGB_TICK);
			}
		} else {
			for (i = 0; i < lo->x.nticks; i++)
				add_text(lo, "xtick", tick_label(&lo->x, i), lo->x.ticks[i].pos, by,
					 PR_SIZE_TICK, 0, PR_ALIGN_CENTER, RGB_TICK);
		}
		for (i = 0; i < lo->y.nticks; i++) {
			char *t = ycat ? ycat[i] : tick_label(&lo->y, i);
			if (!t)
				continue;
			if (ycat)
				ycat[i] = NULL;
			add_text(lo, "ytick", t, rx,
				 lo->y.ticks[i].pos + PR_SIZE_TICK * PR_TEXT_CAP / 2, PR_SIZE_TICK,
				 0, PR_ALIGN_RIGHT, RGB_TICK);
		}
	}
	if (ycat) {
		for (i = 0; i < lo->y.nticks; i++)
			free(ycat[i]);
		free(ycat);
	}

	if (lo->empty) {
		const char *et = c->empty_text ? c->empty_text : "No data";
		char *clean = pr_text_clean(et);
		add_text(lo, "empty",
			 pr_text_elide(x.m, clean, PR_SIZE_EMPTY, 0, lo->plot.w - 2 * BOX_PAD),
			 lo->plot.x + lo->plot.w / 2,
			 lo->plot.y + lo->plot.h / 2 + PR_SIZE_EMPTY * PR_TEXT_CAP / 2, PR_SIZE_EMPTY,
			 0, PR_ALIGN_CENTER, RGB_EMPTY);
		free(clean);
		free(x.ent.v);
		return 0;
	}

	/* Lines: which ones get reduced. */
	for (i = 0; i < lo->nlines; i++)
		lo->lines[i].reduce = !c->no_reduce && (double)lo->lines[i].n > 4 * lo->plot.w;

	/* Band labels at the top of their band, when they fit. */
	if (!c->bars) {
		for (i = 0; i < c->nbands; i++) {
			const struct pr_chart_band *b = &c->bands[i];
			double a, z, w;
			char *clean, *t;
			if (!b->label || !b->label[0] || !usable(b->x0) || !usable(b->x1))
				continue;
			a = clampd(pr_layout_x(lo, fmin(b->x0, b->x1)), lo->plot.x,
				   lo->plot.x + lo->plot.w);
			z = clampd(pr_layout_x(lo, fmax(b->x0, b->x1)), lo->plot.x,
				   lo->plot.x + lo->plot.w);
			w = z - a;
			if (w < 16)
				continue;
			clean = pr_text_clean(b->label);
			t = pr_text_elide(x.m, clean, PR_SIZE_SMALL, 0, w - 8);
			free(clean);
			if (!t[0] || !strcmp(t, "\xE2\x80\xA6")) {
				free(t);
				continue;
			}
			add_text(lo, "band", t, (a + z) / 2,
				 lo->plot.y + 5 + PR_SIZE_SMALL * PR_TEXT_CAP, PR_SIZE_SMALL, 0,
				 PR_ALIGN_CENTER, RGB_BAND);
			x.band_labels = 1;
		}
	}

	/* Legend. */
	if (x.legend_pos == PR_LEGEND_RIGHT) {
		place_legend(&x, lo->plot.x + lo->plot.w + 12, lo->plot.y, 0.2 * x.W, lo->plot.h);
	} else if (x.legend_pos == PR_LEGEND_INSIDE) {
		double cap = 0.3 * lo->plot.w, inset = x.inset;
		x.legend_w = legend_width(&x, cap);
		place_legend(&x, lo->plot.x + lo->plot.w - 8 - x.legend_w, lo->plot.y + inset, cap,
			     lo->plot.h - inset - 8);
	}

	/* The note box, top left inside the plot. */
	if (c->note && c->note[0]) {
		char **lines;
		size_t n = split_lines(x.m, c->note, PR_SIZE_LEGEND, lo->plot.w * 0.5, &lines);
		lo->has_note = 1;
		lo->note.x = lo->plot.x + 8;
		lo->note.y = lo->plot.y + x.inset;
		lo->note.w = ceil(max_text_w(x.m, lines, n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
		lo->note.h = ceil(block_height(n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
		add_block(lo, "note", lines, n, &lo->note, PR_SIZE_LEGEND);
	}

	/* Marks: a dot and a callout box that stays inside the plot. */
	if (!c->bars && c->nmarks) {
		lo->nmarks = c->nmarks;
		lo->marks = pr_xcalloc(c->nmarks, sizeof(*lo->marks));
		for (i = 0; i < c->nmarks; i++) {
			const struct pr_chart_mark *mk = &c->marks[i];
			struct pr_mark_box *b = &lo->marks[i];
			const struct pr_rect *p = &lo->plot;
			char **lines;
			size_t n;
			b->rgb = mk->rgb;
			if (!usable(mk->x) || !usable(mk->y))
				continue;
			b->px = pr_layout_x(lo, mk->x);
			b->py = pr_layout_y(lo, mk->y);
			if (b->px < p->x - 0.5 || b->px > p->x + p->w + 0.5 || b->py < p->y - 0.5 ||
			    b->py > p->y + p->h + 0.5)
				continue;
			b->visible = 1;
			n = split_lines(x.m, mk->text, PR_SIZE_LEGEND, p->w - 24, &lines);
			b->box.w = ceil(max_text_w(x.m, lines, n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
			b->box.h = ceil(block_height(n, PR_SIZE_LEGEND) + 2 * BOX_PAD);
			b->box.x = b->px + 14;
			b->box.y = b->py - 14 - b->box.h;
			if (b->box.x + b->box.w > p->x + p->w - 4)
				b->box.x = b->px - 14 - b->box.w;
			if (b->box.x < p->x + 4)
				b->box.x = p->x + 4;
			if (b->box.y < p->y + 4 + x.strip) /* no room above: beside it, at the top */
				b->box.y = p->y + 4 + x.strip;
			if (b->box.y + b->box.h > p->y + p->h - 4)
				b->box.y = p->y + p->h - 4 - b->box.h;
			if (b->box.y < p->y + 4)
				b->box.y = p->y + 4;
			b->box.x = floor(b->box.x);
			b->box.y = floor(b->box.y);
			b->cx = clampd(b->px, b->box.x, b->box.x + b->box.w);
			b->cy = clampd(b->py, b->box.y, b->box.y + b->box.h);
			add_block(lo, "mark", lines, n, &b->box, PR_SIZE_LEGEND);
		}
	}

	/* Bars. */
	if (c->bars) {
		const struct pr_chart_bars *bs = c->bars;
		size_t ng = bs->ngroups, k = 0;
		double slot = horiz ? lo->plot.h / (lo->y.hi - lo->y.lo) : lo->plot.w / (double)ncat;
		double group = slot * 0.7, bw = ng && !bs->stacked ? group / (double)ng : group;
		lo->bars = pr_xcalloc(ncat * (ng ? ng : 1), sizeof(*lo->bars));
		for (i = 0; i < ncat; i++) {
			double base = 0; /* stacked: where the next segment starts */
			for (g = 0; g < ng; g++) {
				const struct pr_chart_bar_group *grp = &bs->groups[g];
				double v = grp->values[i], a0, a1, c0;
				struct pr_bar *b = &lo->bars[k];
				char buf[256];
				if (!usable(v) || (bs->stacked && !(v > 0)))
					continue;
				k++;
				if (bs->stacked) {
					stacked_bar(&x, lo, va, b, i, g, ncat, slot, group, base);
					base += v;
					continue;
				}
				b->category = i;
				b->group = g;
				b->value = v;
				b->rgb = grp->colors ? grp->colors[i] : grp->rgb;
				if (horiz) {
					c0 = pr_layout_y(lo, (double)(ncat - i)) + (slot - group) / 2 +
					     bw * (double)g;
					a0 = pr_layout_x(lo, 0);
					a1 = pr_layout_x(lo, v);
					b->r.x = fmin(a0, a1);
					b->r.w = fabs(a1 - a0);
					b->r.y = c0;
					b->r.h = bw;
				} else {
					c0 = lo->plot.x + slot * (double)i + (slot - group) / 2 +
					     bw * (double)g;
					a0 = pr_layout_y(lo, 0);
					a1 = pr_layout_y(lo, v);
					b->r.y = fmin(a0, a1);
					b->r.h = fabs(a1 - a0);
					b->r.x = c0;
					b->r.w = bw;
				}
				if (!bs->value_labels)
					continue;
				value_label(&x, va, g, i, buf, sizeof(buf));
				if (horiz) {
					double tw = text_w(x.m, buf, PR_SIZE_SMALL, 0);
					double ty = b->r.y + b->r.h / 2 + PR_SIZE_SMALL * PR_TEXT_CAP / 2;
					if (bw < PR_SIZE_SMALL * 0.9)
						continue;
					if (v >= 0 && a1 + 4 + tw <= lo->plot.x + lo->plot.w - 2)
						add_text(lo, "value", pr_xstrdup(buf), a1 + 4, ty,
							 PR_SIZE_SMALL, 0, PR_ALIGN_LEFT, RGB_LABEL);
					else if (v < 0 && a1 - 4 - tw >= lo->plot.x + 2)
						add_text(lo, "value", pr_xstrdup(buf), a1 - 4, ty,
							 PR_SIZE_SMALL, 0, PR_ALIGN_RIGHT, RGB_LABEL);
				} else {
					char *t = pr_text_elide(x.m, buf, PR_SIZE_SMALL, 0,
								ng > 1 ? bw + 2 : slot - 4);
					double ty = v >= 0 ? a1 - 4
							   : a1 + 4 + PR_SIZE_SMALL * PR_TEXT_CAP;
					if (!t[0] || !strcmp(t, "\xE2\x80\xA6")) {
						free(t);
						continue;
					}
					add_text(lo, "value", t, c0 + bw / 2, ty, PR_SIZE_SMALL, 0,
						 PR_ALIGN_CENTER, RGB_LABEL);
				}
			}
		}
		lo->nbars = k;
	}
	free(x.ent.v);
	return 0;
}

/* ---- dump ---- */

static void dump_str(struct pr_strbuf *sb, const char *s)
{
	pr_strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			pr_strbuf_addch(sb, '\\');
		pr_strbuf_addch(sb, *s);
	}
	pr_strbuf_addch(sb, '"');
}

static void dump_rect(struct pr_strbuf *sb, const struct pr_rect *r)
{
	pr_strbuf_addf(sb, "%.2f %.2f %.2f %.2f", r->x, r->y, r->w, r->h);
}

static void dump_axis(struct pr_strbuf *sb, const char *name, const struct pr_axis *a)
{
	static const char *const kinds[] = { "plain", "bytes", "time", "percent" };
	size_t i;
	pr_strbuf_addf(sb, "%s range %.9g %.9g", name, a->lo, a->hi);
	if (a->categorical) {
		pr_strbuf_addstr(sb, " categorical\n");
	} else {
		pr_strbuf_addf(sb, " unit %s ", kinds[a->unit.kind]);
		dump_str(sb, a->unit.name);
		pr_strbuf_addf(sb, " scale %.9g suffix ", a->unit.scale);
		dump_str(sb, a->unit.suffix);
		pr_strbuf_addf(sb, " decimals %d\n", a->decimals);
	}
	for (i = 0; i < a->nticks; i++)
		pr_strbuf_addf(sb, "%s tick %.9g at %.2f%s\n", name, a->ticks[i].value,
			       a->ticks[i].pos, a->ticks[i].grid ? " grid" : "");
}

void pr_layout_dump(struct pr_strbuf *sb, const struct pr_layout *lo)
{
	static const char *const aligns[] = { "left", "center", "right" };
	size_t i;
	pr_strbuf_addf(sb, "layout %dx%d%s%s%s\n", lo->width, lo->height,
		       lo->bar_chart ? " bars" : " lines", lo->horizontal ? " horizontal" : "",
		       lo->empty ? " empty" : "");
	pr_strbuf_addstr(sb, "plot ");
	dump_rect(sb, &lo->plot);
	pr_strbuf_addch(sb, '\n');
	dump_axis(sb, "x", &lo->x);
	dump_axis(sb, "y", &lo->y);
	for (i = 0; i < lo->nlines; i++)
		pr_strbuf_addf(sb, "line %zu n %zu finite %zu%s\n", i, lo->lines[i].n,
			       lo->lines[i].finite, lo->lines[i].reduce ? " reduce" : "");
	if (lo->legend.shown) {
		pr_strbuf_addstr(sb, "legend ");
		dump_rect(sb, &lo->legend.box);
		pr_strbuf_addf(sb, " hidden %zu\n", lo->legend.hidden);
		for (i = 0; i < lo->legend.nentries; i++) {
			const struct pr_legend_entry *e = &lo->legend.entries[i];
			pr_strbuf_addf(sb, "legend entry %s #%06x alpha %.2f width %.2f%s swatch ",
				       e->kind == PR_SWATCH_LINE ? "line" : "patch",
				       (unsigned)e->rgb, e->alpha, e->line_width,
				       e->dashed ? " dashed" : "");
			dump_rect(sb, &e->swatch);
			pr_strbuf_addch(sb, '\n');
		}
	}
	if (lo->has_note) {
		pr_strbuf_addstr(sb, "note ");
		dump_rect(sb, &lo->note);
		pr_strbuf_addch(sb, '\n');
	}
	for (i = 0; i < lo->nmarks; i++) {
		const struct pr_mark_box *b = &lo->marks[i];
		if (!b->visible) {
			pr_strbuf_addf(sb, "mark %zu hidden\n", i);
			continue;
		}
		pr_strbuf_addf(sb, "mark %zu point %.2f %.2f box ", i, b->px, b->py);
		dump_rect(sb, &b->box);
		pr_strbuf_addf(sb, " connector %.2f %.2f\n", b->cx, b->cy);
	}
	for (i = 0; i < lo->nbars; i++) {
		const struct pr_bar *b = &lo->bars[i];
		pr_strbuf_addf(sb, "bar %zu %zu #%06x value %.9g rect ", b->category, b->group,
			       (unsigned)b->rgb, b->value);
		dump_rect(sb, &b->r);
		pr_strbuf_addch(sb, '\n');
	}
	for (i = 0; i < lo->ntexts; i++) {
		const struct pr_text *t = &lo->texts[i];
		pr_strbuf_addf(sb, "text %s %.2f %.2f size %.1f%s %s%s #%06x ", t->role, t->x, t->y,
			       t->size, t->bold ? " bold" : "", aligns[t->align],
			       t->vertical ? " vertical" : "", (unsigned)t->rgb);
		dump_str(sb, t->text);
		pr_strbuf_addch(sb, '\n');
	}
}
