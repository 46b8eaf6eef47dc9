/* layout_axis.c - axes: 1-2-5 ticks, unit scaling, tick labels, axis titles. */
#include "render/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/layout_impl.h"
#include "render/units.h"

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

void pr_axis_unit_format(const struct pr_axis_unit *u, double v, int decimals, char *buf, size_t n)
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

/* ---- axes of a chart ---- */

void pr_lo_set_ticks(struct pr_axis *a, size_t n)
{
	free(a->ticks);
	a->ticks = n ? pr_xcalloc(n, sizeof(*a->ticks)) : NULL;
	a->nticks = n;
}

/* Numeric ticks for axis a over [a->lo, a->hi], at most max_int intervals. */
/* Linear ticks: 1-2-5 steps of the shown unit. */
static void linear_ticks(struct pr_axis *a, size_t max_int)
{
	struct pr_ticks t;
	size_t i;
	if (pr_nice_ticks(a->lo * a->unit.factor / a->unit.scale,
			  a->hi * a->unit.factor / a->unit.scale, max_int, &t)) {
		pr_lo_set_ticks(a, 0);
		return;
	}
	pr_lo_set_ticks(a, t.count);
	a->decimals = t.decimals;
	for (i = 0; i < t.count; i++) {
		double shown = (round(t.first / t.step) + (double)i) * t.step + 0.0;
		a->ticks[i].value = shown * a->unit.scale / a->unit.factor;
		a->ticks[i].grid = 1;
	}
}

/* ---- log axes ---- */

void pr_lo_log_range(struct pr_axis *a, double min, double max, double head)
{
	double l0 = floor(log10(min)), l1 = log10(max), span;
	span = fmax(l1 - l0, 1);
	l1 = ceil(l1 + head * span);
	if (l1 <= l0)
		l1 = l0 + 1;
	a->log = 1;
	a->lo = pow10i((int)l0);
	a->hi = pow10i((int)l1);
}

/* Append tick value v to a (a's ticks have room for `cap`). */
static void push_tick(struct pr_axis *a, size_t cap, double v)
{
	if (a->nticks < cap && v >= a->lo * (1 - 1e-12) && v <= a->hi * (1 + 1e-12)) {
		a->ticks[a->nticks].value = v;
		a->ticks[a->nticks].grid = 1;
		a->nticks++;
	}
}

/*
 * Bytes: ticks at powers of 2 whose exponents are multiples of a step (1,
 * 2, 5, 10, 20, 30...), so that labels are whole numbers of KiB, MiB...
 */
static void log_ticks_bytes(struct pr_axis *a, size_t max_ticks)
{
	static const int steps[] = { 1, 2, 5, 10, 20, 30, 40, 50, 60 };
	double lo = a->lo * a->unit.factor, hi = a->hi * a->unit.factor;
	int e0 = (int)ceil(log2(lo) - 1e-9), e1 = (int)floor(log2(hi) + 1e-9), s = 60, e;
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(steps); i++) {
		int first = (int)ceil((double)e0 / steps[i]) * steps[i];
		if (first > e1 || (size_t)((e1 - first) / steps[i] + 1) <= max_ticks) {
			s = steps[i];
			break;
		}
	}
	pr_lo_set_ticks(a, max_ticks);
	a->nticks = 0;
	for (e = (int)ceil((double)e0 / s) * s; e <= e1; e += s)
		push_tick(a, max_ticks, ldexp(1, e) / a->unit.factor);
}

/* Decades (every k-th when there are many), or 1-2-5 within fewer than 3 decades. */
static void log_ticks_decimal(struct pr_axis *a, size_t max_ticks)
{
	static const int mult[] = { 1, 2, 5 };
	double lo = a->lo * a->unit.factor, hi = a->hi * a->unit.factor;
	int d0 = (int)ceil(log10(lo) - 1e-9), d1 = (int)floor(log10(hi) + 1e-9), every = 1, d;
	size_t i;
	pr_lo_set_ticks(a, max_ticks);
	a->nticks = 0;
	if (d1 - d0 + 1 >= 3) {
		while ((size_t)((d1 - d0) / every + 1) > max_ticks)
			every++;
		for (d = d0; d <= d1; d += every)
			push_tick(a, max_ticks, pow10i(d) / a->unit.factor);
		return;
	}
	for (d = d0 - 1; d <= d1; d++)
		for (i = 0; i < PR_ARRAY_SIZE(mult); i++)
			push_tick(a, max_ticks, mult[i] * pow10i(d) / a->unit.factor);
}

/* ---- clock-time (date) axes ---- */

/* Seconds between ticks of a UTC clock axis, smallest first. */
static const double date_steps[] = {
	0.001, 0.002, 0.005, 0.01,  0.02,  0.05,      0.1,	 0.2,	     0.5,	 1,    2,
	5,     10,    15,    30,    60,	   120,	      300,	 600,	     900,	 1800, 3600,
	7200,  10800, 21600, 43200, 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400,
};

static void date_ticks(struct pr_axis *a, size_t max_int)
{
	double lo = a->epoch + a->lo, hi = a->epoch + a->hi, step = date_steps[0], k0 = 0, k1 = -1;
	size_t i, n = 0;
	for (i = 0; i < PR_ARRAY_SIZE(date_steps); i++) {
		step = date_steps[i];
		k0 = ceil(lo / step - 1e-9);
		k1 = floor(hi / step + 1e-9);
		if (k1 - k0 <= (double)max_int)
			break;
	}
	a->decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
	if (k1 >= k0)
		n = (size_t)(k1 - k0) + 1;
	if (n > max_int + 1)
		n = max_int + 1;
	pr_lo_set_ticks(a, n);
	for (i = 0; i < n; i++) {
		a->ticks[i].value = (k0 + (double)i) * step - a->epoch;
		a->ticks[i].grid = 1;
	}
	a->unit.scale = step; /* the labels' precision (pr_lo_tick_label) */
}

static void date_label(const struct pr_axis *a, double v, char *buf, size_t n)
{
	double step = a->unit.scale, t = a->epoch + v;
	struct tm tm;
	long ms;
	pr_utc_split(t, &tm, &ms);
	if (step >= 86400 || (!tm.tm_hour && !tm.tm_min && !tm.tm_sec && !ms))
		snprintf(buf, n, "%02d-%02d", tm.tm_mon + 1, tm.tm_mday);
	else if (step >= 60)
		snprintf(buf, n, "%02d:%02d", tm.tm_hour, tm.tm_min);
	else if (step >= 1)
		snprintf(buf, n, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
	else
		snprintf(buf, n, "%02d:%02d:%02d.%0*ld", tm.tm_hour, tm.tm_min, tm.tm_sec,
			 a->decimals,
			 ms / (a->decimals == 1	  ? 100
			       : a->decimals == 2 ? 10
						  : 1));
}

/* The ticks of a value axis: at most max_int intervals (linear, date) or max_int + 1 ticks (log). */
static void numeric_ticks(struct pr_axis *a, size_t max_int)
{
	if (a->date)
		date_ticks(a, max_int);
	else if (a->log && a->unit.kind == PR_UNIT_BYTES)
		log_ticks_bytes(a, max_int + 1);
	else if (a->log)
		log_ticks_decimal(a, max_int + 1);
	else
		linear_ticks(a, max_int);
}

void pr_lo_log_format(const struct pr_axis_unit *u, double v, int sig, char *buf, size_t n)
{
	static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	double base = v * u->factor, shown = base;
	const char *name = "", *sep = "";
	int d = 0;
	size_t k = 0;
	switch (u->kind) {
	case PR_UNIT_BYTES:
		while (k + 1 < PR_ARRAY_SIZE(iec) && shown >= 1024) {
			shown /= 1024;
			k++;
		}
		name = iec[k];
		sep = " ";
		break;
	case PR_UNIT_TIME:
		name = base >= 1 ? "s" : base >= 1e-3 ? "ms" : base >= 1e-6 ? "us" : "ns";
		shown = base >= 1      ? base
			: base >= 1e-3 ? base * 1e3
			: base >= 1e-6 ? base * 1e6
				       : base * 1e9;
		sep = " ";
		break;
	case PR_UNIT_PERCENT:
		name = "%";
		break;
	case PR_UNIT_PLAIN:
		while (k + 1 < PR_ARRAY_SIZE(si) && shown >= 1000) {
			shown /= 1000;
			k++;
		}
		name = si[k];
		break;
	}
	if (sig) { /* `sig` significant digits */
		double m = 1;
		for (d = sig - 1; d > 0 && shown >= m * 10; d--)
			m *= 10;
	} else { /* as many decimals as the value needs (a tick), at most 9 */
		while (d < 9 && fabs(shown * pow10i(d) - round(shown * pow10i(d))) >
					1e-6 * shown * pow10i(d))
			d++;
	}
	snprintf(buf, n, "%.*f%s%s", d, shown, name[0] ? sep : "", name);
}

char *pr_lo_tick_label(const struct pr_axis *a, size_t i)
{
	char buf[64];
	if (a->date)
		date_label(a, a->ticks[i].value, buf, sizeof(buf));
	else if (a->log)
		pr_lo_log_format(&a->unit, a->ticks[i].value, 0, buf, sizeof(buf));
	else
		pr_axis_unit_format(&a->unit, a->ticks[i].value, a->decimals, buf, sizeof(buf));
	return pr_xstrdup(buf);
}

char *pr_lo_axis_title(const char *label, const struct pr_axis *a)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const struct pr_axis_unit *u = a ? &a->unit : NULL;
	char *clean;
	pr_strbuf_addstr(&sb, label ? label : "");
	if (sb.len && a && (a->date || a->log || u->name[0]))
		pr_strbuf_addch(&sb, ' ');
	if (a && a->date) {
		struct tm t0, t1;
		long ms;
		pr_utc_split(a->epoch + a->lo, &t0, &ms);
		pr_utc_split(a->epoch + a->hi, &t1, &ms);
		pr_strbuf_addf(&sb, "(UTC, %04d-%02d-%02d", t0.tm_year + 1900, t0.tm_mon + 1,
			       t0.tm_mday);
		if (t0.tm_year != t1.tm_year || t0.tm_yday != t1.tm_yday)
			pr_strbuf_addf(&sb, " to %04d-%02d-%02d", t1.tm_year + 1900, t1.tm_mon + 1,
				       t1.tm_mday);
		pr_strbuf_addch(&sb, ')');
	} else if (a && a->log) {
		if (u->kind == PR_UNIT_PLAIN && u->name[0])
			pr_strbuf_addf(&sb, "(%s, log scale)", u->name);
		else
			pr_strbuf_addstr(&sb, "(log scale)");
	} else if (u && u->name[0]) {
		pr_strbuf_addf(&sb, "(%s)", u->name);
	}
	clean = pr_text_clean(sb.buf);
	pr_strbuf_release(&sb);
	return clean;
}

/* Labels of a numeric x axis fit without overlapping? */
static int x_labels_fit(struct pr_lo_ctx *x, const struct pr_axis *a, double left_limit,
			double right_limit)
{
	double prev_right = -1e300;
	size_t i;
	for (i = 0; i < a->nticks; i++) {
		char *s = pr_lo_tick_label(a, i);
		double w = pr_lo_text_w(x->m, s, PR_SIZE_TICK, 0);
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
static void layout_x_numeric(struct pr_lo_ctx *x, double right_limit)
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

void pr_lo_category_label(struct pr_lo_ctx *x, size_t i, double max_w, char **out)
{
	const char *raw = x->c->bars->categories[i];
	char *clean = pr_text_clean(raw ? raw : "");
	*out = pr_text_elide(x->m, clean, PR_SIZE_TICK, 0, max_w);
	free(clean);
}

/* Named y positions (a timeline's lanes): a label closer than 1.3 lines to the last one shown is left out. */
static void y_named(struct pr_lo_ctx *x)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	double last = -1e300;
	size_t i;
	x->ycat = pr_xcalloc(c->ny_labels, sizeof(*x->ycat));
	pr_lo_set_ticks(&lo->y, c->ny_labels);
	for (i = 0; i < c->ny_labels; i++) {
		char *clean;
		double pos;
		lo->y.ticks[i].value =
			pr_lo_usable(c->y_labels[i].y)
				? pr_lo_clamp(c->y_labels[i].y, fmin(lo->y.lo, lo->y.hi),
					      fmax(lo->y.lo, lo->y.hi))
				: lo->y.lo;
		pos = pr_layout_y(lo, lo->y.ticks[i].value);
		if (fabs(pos - last) < PR_SIZE_TICK * 1.3)
			continue; /* too close to the last label shown: a tick only */
		last = pos;
		clean = pr_text_clean(c->y_labels[i].text ? c->y_labels[i].text : "");
		x->ycat[i] = pr_text_elide(x->m, clean, PR_SIZE_TICK, 0, 0.28 * x->W);
		free(clean);
		if (pr_lo_text_w(x->m, x->ycat[i], PR_SIZE_TICK, 0) > x->ylw)
			x->ylw = pr_lo_text_w(x->m, x->ycat[i], PR_SIZE_TICK, 0);
	}
}

/* Bar categories top to bottom (a horizontal bar chart), every `every`-th labelled. */
static void y_categories(struct pr_lo_ctx *x)
{
	struct pr_layout *lo = x->lo;
	double slot = lo->plot.h / (lo->y.hi - lo->y.lo);
	size_t every = 1, i, ncat = x->ncat;
	while (slot * (double)every < PR_SIZE_TICK * 1.3)
		every++;
	x->ycat = pr_xcalloc(ncat, sizeof(*x->ycat));
	pr_lo_set_ticks(&lo->y, ncat);
	for (i = 0; i < ncat; i++) {
		lo->y.ticks[i].value = (double)(ncat - i) - 0.5;
		if (i % every)
			continue;
		pr_lo_category_label(x, i, 0.28 * x->W, &x->ycat[i]);
		if (pr_lo_text_w(x->m, x->ycat[i], PR_SIZE_TICK, 0) > x->ylw)
			x->ylw = pr_lo_text_w(x->m, x->ycat[i], PR_SIZE_TICK, 0);
	}
}

void pr_lo_axis_y(struct pr_lo_ctx *x)
{
	const struct pr_chart *c = x->c;
	struct pr_layout *lo = x->lo;
	size_t i;
	if (lo->empty)
		return;
	if (!lo->y.categorical && c->ny_labels) {
		y_named(x);
	} else if (!lo->y.categorical && !c->y_no_ticks) {
		size_t max_int = (size_t)(lo->plot.h / 40);
		numeric_ticks(&lo->y, max_int < 2 ? 2 : max_int);
		for (i = 0; i < lo->y.nticks; i++) {
			char *s = pr_lo_tick_label(&lo->y, i);
			double w = pr_lo_text_w(x->m, s, PR_SIZE_TICK, 0);
			if (w > x->ylw)
				x->ylw = w;
			free(s);
		}
	} else {
		y_categories(x);
	}
}

void pr_lo_position_y(struct pr_layout *lo)
{
	size_t i;
	for (i = 0; i < lo->y.nticks; i++)
		lo->y.ticks[i].pos = pr_layout_y(lo, lo->y.ticks[i].value);
}

void pr_lo_axis_x(struct pr_lo_ctx *x)
{
	struct pr_layout *lo = x->lo;
	size_t i;
	if (lo->empty)
		return;
	if (!lo->x.categorical) {
		double limit =
			x->legend_pos == PR_LEGEND_RIGHT ? lo->plot.x + lo->plot.w + 8 : x->W - 2.0;
		layout_x_numeric(x, limit + 1e6); /* first without the right limit */
		if (lo->x.nticks) {
			char *s = pr_lo_tick_label(&lo->x, lo->x.nticks - 1);
			double over = lo->x.ticks[lo->x.nticks - 1].pos +
				      pr_lo_text_w(x->m, s, PR_SIZE_TICK, 0) / 2 - limit;
			free(s);
			if (over > 0) { /* the last label sticks out: narrow the plot */
				lo->plot.w -= ceil(over);
				limit -= ceil(over) * (x->legend_pos == PR_LEGEND_RIGHT);
				pr_lo_position_y(lo);
			}
		}
		layout_x_numeric(x, limit);
	} else {
		pr_lo_set_ticks(&lo->x, x->ncat);
		for (i = 0; i < x->ncat; i++) {
			lo->x.ticks[i].value = (double)i + 0.5;
			lo->x.ticks[i].pos = pr_layout_x(lo, lo->x.ticks[i].value);
		}
	}
}

void pr_lo_tick_texts(struct pr_lo_ctx *x)
{
	struct pr_layout *lo = x->lo;
	char **ycat = x->ycat;
	size_t i, ncat = x->ncat;
	if (!lo->empty) {
		double by =
			lo->plot.y + lo->plot.h + TICK_LEN + TICK_GAP + PR_SIZE_TICK * PR_TEXT_CAP;
		double rx = lo->plot.x - TICK_LEN - TICK_GAP;
		if (lo->x.categorical) {
			double slot = lo->plot.w / (double)ncat;
			size_t every = 1;
			while (slot * (double)every < 28)
				every++;
			for (i = 0; i < ncat; i += every) {
				char *t;
				pr_lo_category_label(x, i, slot * (double)every - 6, &t);
				pr_lo_add_text(lo, "xtick", t, lo->x.ticks[i].pos, by, PR_SIZE_TICK,
					       0, PR_ALIGN_CENTER, RGB_TICK);
			}
		} else {
			for (i = 0; i < lo->x.nticks; i++)
				pr_lo_add_text(lo, "xtick", pr_lo_tick_label(&lo->x, i),
					       lo->x.ticks[i].pos, by, PR_SIZE_TICK, 0,
					       PR_ALIGN_CENTER, RGB_TICK);
		}
		for (i = 0; i < lo->y.nticks; i++) {
			char *t = ycat ? ycat[i] : pr_lo_tick_label(&lo->y, i);
			if (!t)
				continue;
			if (ycat)
				ycat[i] = NULL;
			pr_lo_add_text(lo, "ytick", t, rx,
				       lo->y.ticks[i].pos + PR_SIZE_TICK * PR_TEXT_CAP / 2,
				       PR_SIZE_TICK, 0, PR_ALIGN_RIGHT, RGB_TICK);
		}
	}
	if (ycat) {
		for (i = 0; i < lo->y.nticks; i++)
			free(ycat[i]);
		free(ycat);
		x->ycat = NULL;
	}
}
