/*
 * text_report.c - the console report (`profreport summary`) from the
 * analysis model: per run the peaks (value, time, phase), memory
 * statistics (current with delta, average, min/max, range), disk I/O,
 * the operations timeline (durations, memory deltas), throughput,
 * bottlenecks, pressure, fragmentation, leaks, cross-checks against what
 * the collector reported, recommendations and diagnostics. Fits 80
 * columns: long names are cut with "..." or get a line of their own, and a
 * line that would still be longer is wrapped at spaces (emit).
 */
#include "analyze/model.h"
#include "render/termsafe.h"
#include "render/text_report.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "render/panels.h"
#include "render/elide.h"
#include "render/names.h"
#include "render/tables.h"
#include "render/units.h"
#include "render/scope_keys.h"
#include "base/strbuf.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

#define W 80

/* A trace's name shown in at most w bytes (names.h: demangled, no return type or arguments). */
static const char *name_fit(const char *full, size_t w, char *buf, size_t n)
{
	return pr_name_display(full, buf, w + 1 < n ? w + 1 : n);
}

/* Fills labels[i] with the name at key of items[i], fitted as one column (names.h). */
static pr_label_t *column_of(const json_t *items, const char *key, size_t w, size_t max)
{
	size_t n = json_array_size(items), i;
	const char **names;
	pr_label_t *lab;
	if (n > max)
		n = max;
	names = calloc(n ? n : 1, sizeof(*names));
	lab = calloc(n ? n : 1, sizeof(*lab));
	if (!names || !lab)
		abort();
	for (i = 0; i < n; i++)
		names[i] = pr_mstr(json_array_get(items, i), key);
	pr_name_column(lab, names, n, w);
	free(names);
	return lab;
}

/* A per-device series label: the device first, so a cut label keeps what tells rows apart. */
static const char *series_label(const char *series, const char *device, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s", device, *device ? " " : "", series);
	return buf;
}

static const char *val(double v, const char *unit, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		pr_fmt_value(v, unit, buf, n);
	return buf;
}

static const char *secs(double ns, char *buf, size_t n)
{
	if (isnan(ns))
		snprintf(buf, n, "-");
	else
		pr_fmt_duration(ns, buf, n);
	return buf;
}

static const char *series_unit(const json_t *run, const char *name)
{
	json_t *s;
	size_t i;
	json_array_foreach (json_object_get(run, PRK_SERIES), i, s)
		if (!strcmp(pr_mstr(s, PRK_SERIES_NAME), name))
			return pr_mstr(s, PRK_SERIES_UNIT);
	return "";
}

static void heading(FILE *out, const char *title)
{
	fprintf(out, "\n%s\n", title);
}

static void wrap(FILE *out, const char *text, int indent, int cont);

/*
 * One line of output: printed as is when it fits W columns, else wrapped at
 * spaces with the continuation indented 4 more than the line (table rows
 * whose values are unusually long stay readable instead of overflowing).
 */
static void emit(FILE *out, const char *fmt, ...) PR_PRINTF_LIKE(2, 3);

static void emit(FILE *out, const char *fmt, ...)
{
	char buf[1200];
	va_list ap;
	int lead = 0;
	size_t n;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ') /* no trailing blanks: padded last columns */
		buf[--n] = '\0';
	if (n <= W) {
		fprintf(out, "%s\n", buf);
		return;
	}
	while (buf[lead] == ' ')
		lead++;
	wrap(out, buf + lead, lead, lead + 4);
}

/*
 * A table described in render/tables.h: its console columns (con_pos order) under a heading
 * line, one row per item (the first con_rows), VALUE columns without a unit of their own in
 * unit; after(out, item), when not NULL, prints what follows a row.
 */
static void text_table(FILE *out, const struct pr_table *t, const json_t *items, const char *unit,
		       void (*after)(FILE *, const json_t *))
{
	const struct pr_table_col *col[PR_TABLE_COLS];
	size_t n = json_array_size(items), nc = 0, i, c;
	struct pr_strbuf line = PR_STRBUF_INIT;
	pr_label_t *lab = NULL;
	const json_t *v;
	int pos;
	char a[64];
	if (t->con_rows && t->con_rows < n)
		n = t->con_rows;
	for (pos = 1; nc < PR_TABLE_COLS; pos++) {
		for (c = 0; c < t->ncols && t->cols[c].con_pos != pos; c++)
			;
		if (c == t->ncols)
			break;
		col[nc++] = &t->cols[c];
		if (PR_TABLE_CON_KIND(&t->cols[c]) == PR_COL_NAME && !lab)
			lab = column_of(items, t->cols[c].key, (size_t)t->cols[c].con_width,
					t->con_fit_all ? json_array_size(items) : n);
	}
	pr_strbuf_addstr(&line, " ");
	for (c = 0; c < nc; c++) /* names and texts left-aligned, numbers right-aligned */
		pr_strbuf_addf(&line, PR_COL_IS_TEXT(PR_TABLE_CON_KIND(col[c])) ? " %-*s" : " %*s",
			       col[c]->con_width, col[c]->con_head);
	while (line.len && line.buf[line.len - 1] == ' ') /* no trailing blanks */
		line.buf[--line.len] = '\0';
	fprintf(out, "%s\n", line.buf);
	for (i = 0; i < n; i++) {
		v = json_array_get(items, i);
		pr_strbuf_reset(&line);
		pr_strbuf_addstr(&line, " ");
		for (c = 0; c < nc; c++) {
			const struct pr_table_col *k = col[c];
			const char *s = pr_table_str(k, v);
			int w = k->con_width;
			enum pr_col_kind kind = PR_TABLE_CON_KIND(k);
			double x;
			if (k->con_label && (kind == PR_COL_LABEL || kind == PR_COL_TEXT))
				s = k->con_label(s);
			switch (kind) {
			case PR_COL_SAME: /* (PR_TABLE_CON_KIND never is) */
				break;
			case PR_COL_NAME:
				pr_strbuf_addf(&line, " %-*s", w, lab[i]);
				break;
			case PR_COL_LABEL: /* cut: at most w bytes */
				if (k->con_cut)
					pr_strbuf_addf(&line, " %-*.*s", w, w, s);
				else
					pr_strbuf_addf(&line, " %-*s", w, s);
				break;
			case PR_COL_TEXT: /* cut: elided at its end */
				if (k->con_cut)
					s = pr_elide_end(s, (size_t)w, a, sizeof(a));
				pr_strbuf_addf(&line, " %-*s", w, s);
				break;
			case PR_COL_COUNT:
				pr_strbuf_addf(&line, " %*.0f", w, pr_table_num(k, v));
				break;
			case PR_COL_VALUE:
				val(pr_table_num(k, v), pr_table_unit(k, v, unit), a, sizeof(a));
				pr_strbuf_addf(&line, " %*s", w, a);
				break;
			case PR_COL_SHARE:
				pr_strbuf_addf(&line, " %*.*f%%", w - 1, k->prec,
					       pr_table_num(k, v) * 100);
				break;
			case PR_COL_INDEX:
				pr_strbuf_addf(&line, " %*zu", w, i + 1);
				break;
			case PR_COL_NUMBER: /* "-" where absent */
				x = pr_table_num(k, v);
				if (isnan(x))
					snprintf(a, sizeof(a), "-");
				else if (k->con_prec < 0)
					snprintf(a, sizeof(a), "%.6g", x);
				else
					snprintf(a, sizeof(a), "%.*f", k->con_prec, x);
				pr_strbuf_addf(&line, " %*s", w, a);
				break;
			case PR_COL_XTIME: /* (no run here: the time in ns) */
				val(pr_table_num(k, v), "ns", a, sizeof(a));
				pr_strbuf_addf(&line, " %*s", w, a);
				break;
			case PR_COL_OF:
			case PR_COL_PERCENT:
				pr_strbuf_addf(&line, " %*.*f%%", w - 1, k->prec,
					       pr_table_num(k, v));
				break;
			case PR_COL_DISPLAY:
				pr_strbuf_addf(&line, " %-*s", w,
					       name_fit(s, (size_t)w, a, sizeof(a)));
				break;
			}
		}
		emit(out, "%s", line.buf);
		if (after)
			after(out, v);
	}
	pr_strbuf_release(&line);
	free(lab);
}

/* The user's labels of the run (--meta), keys sorted: "meta commit=abc, branch=main". */
static void run_meta(const json_t *run, FILE *out)
{
	json_t *m = json_object_get(run, PRK_META), *v;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const char *k;
	if (!json_is_object(m) || !json_object_size(m))
		return;
	json_object_foreach (m, k, v)
		if (json_is_string(v))
			pr_strbuf_addf(&sb, "%s%s=%s", sb.len ? ", " : "", k, json_string_value(v));
	if (sb.len)
		emit(out, "meta %s", sb.buf);
	pr_strbuf_release(&sb);
}

/* A sampled profile's records per event (reported perf.samples): "878 cpu-clock samples" */
static int profile_samples(const json_t *run, char *buf, size_t n)
{
	const json_t *m;
	size_t i, k = 0, len = 0;
	buf[0] = '\0';
	json_array_foreach (json_object_get(run, PRK_REPORTED), i, m) {
		int w;
		if (strcmp(pr_mstr(m, PRK_REPORTED_NAME), "perf.samples") || len >= n)
			continue;
		w = snprintf(buf + len, n - len, "%s%.0f %s samples", k++ ? ", " : "",
			     pr_mnum(m, PRK_REPORTED_VALUE), pr_mstr(m, PRK_REPORTED_DETAIL));
		len += w > 0 ? (size_t)w : 0;
	}
	return k > 0;
}

static void header(const json_t *run, FILE *out)
{
	const json_t *clock = json_object_get(run, PRK_CLOCK),
		     *c = json_object_get(run, PRK_COUNTS);
	char a[64], line[W + 1], ps[200];
	int n;
	n = snprintf(line, sizeof(line), "run %lld: %s", pr_mll(run, PRK_ID),
		     pr_mstr(run, PRK_LABEL));
	fprintf(out, "%s\n", line);
	if (n > W)
		n = W;
	for (; n > 0; n--)
		fputc('=', out);
	fputc('\n', out);
	if (json_is_integer(json_object_get(run, PRK_RANK)) &&
	    json_is_integer(json_object_get(run, PRK_WORLD_SIZE)))
		emit(out, "format %s, collector %s, rank %lld of %lld", pr_mstr(run, PRK_FORMAT),
		     pr_mstr(run, PRK_COLLECTOR), pr_mll(run, PRK_RANK),
		     pr_mll(run, PRK_WORLD_SIZE));
	else if (json_is_integer(json_object_get(run, PRK_RANK)))
		emit(out, "format %s, collector %s, rank %lld", pr_mstr(run, PRK_FORMAT),
		     pr_mstr(run, PRK_COLLECTOR), pr_mll(run, PRK_RANK));
	else
		emit(out, "format %s, collector %s", pr_mstr(run, PRK_FORMAT),
		     pr_mstr(run, PRK_COLLECTOR));
	if (pr_run_x_unit(run) && json_is_number(json_object_get(clock, PRK_CLOCK_DURATION_NS)))
		emit(out, "x axis %s (%s); %lld spans, %lld samples",
		     (pr_fmt_x(run, pr_mnum(clock, PRK_CLOCK_DURATION_NS), a, sizeof(a)), a),
		     !strcmp(pr_mstr(run, PRK_FORMAT), "dhat") ? "sites end to end, not time"
		     : !strcmp(pr_run_x_unit(run), "events")
			     ? "the allocator trace's event index: not time"
			     : "massif's time unit: not time",
		     pr_mll(c, PRK_COUNTS_SPANS), pr_mll(c, PRK_COUNTS_SAMPLES));
	else if (json_is_number(json_object_get(clock, PRK_CLOCK_DURATION_NS)) &&
		 strcmp(pr_run_span_unit(run), "ns") && (profile_samples(run, ps, sizeof(ps)) || 1))
		/* a profile weighed in page faults or sample counts: its extent is no time */
		emit(out, "extent %.0f %s (weights laid end to end, not time); %s%s%lld spans",
		     pr_mnum(clock, PRK_CLOCK_DURATION_NS), pr_run_span_unit(run), ps,
		     *ps ? ", " : "", pr_mll(c, PRK_COUNTS_SPANS));
	else if (json_is_number(json_object_get(clock, PRK_CLOCK_DURATION_NS)) &&
		 profile_samples(run, ps, sizeof(ps)))
		emit(out, "duration %s%s; %s, %lld spans",
		     secs(pr_mnum(clock, PRK_CLOCK_DURATION_NS), a, sizeof(a)),
		     json_is_true(json_object_get(clock, PRK_CLOCK_SYNTHETIC))
			     ? " (synthetic clock)"
			     : "",
		     ps, pr_mll(c, PRK_COUNTS_SPANS));
	else if (json_is_number(json_object_get(clock, PRK_CLOCK_DURATION_NS)))
		emit(out, "duration %s%s; %lld spans, %lld samples, %lld instants",
		     secs(pr_mnum(clock, PRK_CLOCK_DURATION_NS), a, sizeof(a)),
		     json_is_true(json_object_get(clock, PRK_CLOCK_SYNTHETIC))
			     ? " (synthetic clock)"
			     : "",
		     pr_mll(c, PRK_COUNTS_SPANS), pr_mll(c, PRK_COUNTS_SAMPLES),
		     pr_mll(c, PRK_COUNTS_INSTANTS));
	else
		emit(out, "%lld spans, %lld samples, %lld instants", pr_mll(c, PRK_COUNTS_SPANS),
		     pr_mll(c, PRK_COUNTS_SAMPLES), pr_mll(c, PRK_COUNTS_INSTANTS));
	run_meta(run, out);
}

static void peaks(const json_t *run, FILE *out)
{
	json_t *arr = json_object_get(run, PRK_PEAKS), *p;
	char a[40], b[40], d[64];
	pr_label_t *full, *lab;
	const char **names;
	size_t i, n;
	if (!json_array_size(arr))
		return; /* no memory series: the header's counts and the series table say what there is */
	heading(out, "Peak memory");
	n = json_array_size(arr);
	full = calloc(n, sizeof(*full));
	names = calloc(n, sizeof(*names));
	lab = calloc(n, sizeof(*lab));
	if (!full || !names || !lab)
		abort();
	json_array_foreach (arr, i, p) {
		const char *l = pr_mstr(p, PRK_PEAKS_LABEL);
		series_label(*l ? l : pr_mstr(p, PRK_PEAKS_SERIES), pr_mstr(p, PRK_PEAKS_DEVICE),
			     full[i], PR_LABEL);
		names[i] = full[i];
	}
	pr_elide_column(lab, names, n, 26, 0);
	json_array_foreach (arr, i, p) {
		json_t *ph = json_object_get(p, PRK_PEAKS_PHASE),
		       *sp = json_object_get(p, PRK_PEAKS_SPAN);
		json_t *hb = json_object_get(p, PRK_PEAKS_HELD_BY);
		pr_fmt_x(run, pr_mnum(p, PRK_PEAKS_T_NS), b, sizeof(b));
		if (json_is_object(ph))
			emit(out, "  %-26s %12s at %-11s in %s", lab[i],
			     val(pr_mnum(p, PRK_PEAKS_VALUE), pr_mstr(p, PRK_PEAKS_UNIT), a,
				 sizeof(a)),
			     b, name_fit(pr_mstr(ph, PRK_PEAKS_PHASE_NAME), 20, d, sizeof(d)));
		else
			emit(out, "  %-26s %12s at %s", lab[i],
			     val(pr_mnum(p, PRK_PEAKS_VALUE), pr_mstr(p, PRK_PEAKS_UNIT), a,
				 sizeof(a)),
			     b);
		/* the series' own name under its label, then what holds the peak, by which rule */
		if (!json_is_object(hb))
			hb = json_is_object(sp) ? sp : NULL;
		fprintf(out, "    %s", pr_mstr(p, PRK_PEAKS_SERIES));
		if (hb)
			fprintf(out, "; held by %s (%s)",
				name_fit(pr_mstr(hb, PRK_PEAKS_HELD_BY_NAME), 30, d, sizeof(d)),
				pr_mstr(hb, PRK_PEAKS_HELD_BY_KIND));
		fputc('\n', out);
		if (json_is_object(hb) && isfinite(pr_mnum(hb, PRK_PEAKS_HELD_BY_SHARE))) {
			pr_fmt_bytes(pr_mnum(hb, PRK_PEAKS_HELD_BY_UNTRACKED_BYTES), a, sizeof(a));
			fprintf(out, "      %s: %.1f%% of the peak; %s untracked\n",
				pr_mstr(hb, PRK_PEAKS_HELD_BY_RULE),
				pr_mnum(hb, PRK_PEAKS_HELD_BY_SHARE) * 100, a);
		} else if (*pr_mstr(hb, PRK_PEAKS_HELD_BY_RULE)) {
			fprintf(out, "      by the %s at the peak\n",
				pr_mstr(hb, PRK_PEAKS_HELD_BY_RULE));
		}
	}
	free(full);
	free(names);
	free(lab);
}

/*
 * A heap profiler's program totals (heap_totals: valgrind DHAT): everything
 * allocated, and what was live at the global peak (t-gmax) and at the end.
 */
static void heap_totals(const json_t *run, FILE *out)
{
	const json_t *h = json_object_get(run, PRK_HEAP_TOTALS);
	const char *u = pr_mstr(h, PRK_HEAP_TOTALS_UNIT), *tu = pr_mstr(h, PRK_HEAP_TOTALS_T_UNIT),
		   *mode = pr_mstr(h, PRK_HEAP_TOTALS_MODE);
	char a[40], b[40];
	if (!json_is_object(h))
		return;
	heading(out, !strcmp(mode, "heap") ? "Heap totals (valgrind DHAT)"
					   : "Program totals (valgrind DHAT)");
	val(pr_mnum(h, PRK_HEAP_TOTALS_TOTAL_BYTES), u, a, sizeof(a));
	emit(out, "  %-16s %12s (%.0f %s) in %.0f %s",
	     !strcmp(mode, "copy")   ? "copied in all"
	     : !strcmp(mode, "heap") ? "allocated in all"
				     : "counted in all",
	     a, pr_mnum(h, PRK_HEAP_TOTALS_TOTAL_BYTES), !strcmp(u, "bytes") ? "bytes" : "units",
	     pr_mnum(h, PRK_HEAP_TOTALS_TOTAL_BLOCKS), !strcmp(mode, "heap") ? "blocks" : "events");
	if (json_is_number(json_object_get(h, PRK_HEAP_TOTALS_PEAK_BYTES))) {
		val(pr_mnum(h, PRK_HEAP_TOTALS_PEAK_BYTES), u, a, sizeof(a));
		emit(out, "  peak at t-gmax   %12s (%.0f %s) in %.0f blocks", a,
		     pr_mnum(h, PRK_HEAP_TOTALS_PEAK_BYTES),
		     !strcmp(u, "bytes") ? "bytes" : "units",
		     pr_mnum(h, PRK_HEAP_TOTALS_PEAK_BLOCKS));
	}
	if (json_is_number(json_object_get(h, PRK_HEAP_TOTALS_END_BYTES))) {
		val(pr_mnum(h, PRK_HEAP_TOTALS_END_BYTES), u, a, sizeof(a));
		emit(out, "  live at t-end    %12s (%.0f %s)", a,
		     pr_mnum(h, PRK_HEAP_TOTALS_END_BYTES),
		     !strcmp(u, "bytes") ? "bytes" : "units");
	}
	val(pr_mnum(h, PRK_HEAP_TOTALS_END_T), *tu ? tu : "count", b, sizeof(b));
	if (json_is_number(json_object_get(h, PRK_HEAP_TOTALS_PEAK_T))) {
		val(pr_mnum(h, PRK_HEAP_TOTALS_PEAK_T), *tu ? tu : "count", a, sizeof(a));
		emit(out, "  t-gmax at %s; t-end at %s", a, b);
	} else if (json_is_number(json_object_get(h, PRK_HEAP_TOTALS_END_T))) {
		emit(out, "  t-end at %s", b);
	}
}

/*
 * perf stat's counters (model "counters"): a totals file's counts as perf
 * printed them, or an interval file's sums over the intervals.
 */
static void counters(const json_t *run, FILE *out)
{
	const json_t *c = json_object_get(run, PRK_COUNTERS), *v;
	int iv = json_is_number(
		json_object_get(json_array_get(json_object_get(c, PRK_COUNTERS_ITEMS), 0),
				PRK_COUNTERS_ITEMS_INTERVALS));
	char a[40], b[40], d[40], e[40], name[64];
	size_t i;
	if (!json_array_size(json_object_get(c, PRK_COUNTERS_ITEMS)))
		return;
	heading(out, iv ? "Counters (perf stat -I: sums over the intervals)"
			: "Counters (perf stat totals)");
	if (iv)
		fprintf(out, "  %-22s %12s %11s %11s %11s %5s\n", "event", "total", "mean", "max",
			"max at", "n");
	else
		fprintf(out, "  %-24s %12s %8s  %s\n", "event", "total", "counted",
			"perf's metric");
	json_array_foreach (json_object_get(c, PRK_COUNTERS_ITEMS), i, v) {
		const char *u = pr_mstr(v, PRK_COUNTERS_ITEMS_UNIT);
		snprintf(name, sizeof(name), "%s%s%s", pr_mstr(v, PRK_COUNTERS_ITEMS_EVENT),
			 *pr_mstr(v, PRK_COUNTERS_ITEMS_DEVICE) ? " " : "",
			 pr_mstr(v, PRK_COUNTERS_ITEMS_DEVICE));
		val(pr_mnum(v, PRK_COUNTERS_ITEMS_TOTAL), u, a, sizeof(a));
		if (iv) {
			val(pr_mnum(v, PRK_COUNTERS_ITEMS_MEAN), u, b, sizeof(b));
			val(pr_mnum(v, PRK_COUNTERS_ITEMS_MAX), u, d, sizeof(d));
			pr_fmt_x(run, pr_mnum(v, PRK_COUNTERS_ITEMS_T_MAX_NS), e, sizeof(e));
			emit(out, "  %-22s %12s %11s %11s %11s %5lld", name, a, b, d, e,
			     pr_mll(v, PRK_COUNTERS_ITEMS_INTERVALS));
		} else {
			val(pr_mnum(v, PRK_COUNTERS_ITEMS_METRIC),
			    pr_mstr(v, PRK_COUNTERS_ITEMS_METRIC_UNIT), d, sizeof(d));
			snprintf(b, sizeof(b), "%.1f%%",
				 pr_mnum(v, PRK_COUNTERS_ITEMS_COUNTED_PCT));
			emit(out, "  %-24s %12s %8s  %s", name, a, b,
			     json_is_number(json_object_get(v, PRK_COUNTERS_ITEMS_METRIC)) ? d
											   : "-");
		}
	}
}

/*
 * Memory statistics: current (last), delta (last - first), average, min,
 * max; then the range (max - min) and the sampling. A name longer than its
 * column gets a line of its own, so the numbers stay in their columns.
 */
#define TREE_DEPTH 6 /* levels of the peak allocation tree shown */
#define TREE_ROWS 20 /* rows of it shown */

/*
 * The peak snapshot's allocation tree (massif), depth first, indented by
 * depth: at most TREE_DEPTH levels and TREE_ROWS rows; what is left out is
 * counted (the JSON model has PR_MODEL_ALLOC_NODES nodes, the store all of them).
 */
static void alloc_tree(const json_t *run, FILE *out)
{
	const json_t *t = json_object_get(run, PRK_ALLOC_TREE), *v;
	size_t i, rows = 0, cut = 0;
	char a[40], b[48], c[96];
	if (!json_is_object(t))
		return;
	pr_fmt_x(run, pr_mnum(t, PRK_ALLOC_TREE_T_NS), b, sizeof(b));
	fputc('\n', out);
	emit(out, "Peak allocation tree (massif snapshot %lld at %s)",
	     pr_mll(t, PRK_ALLOC_TREE_SNAPSHOT), b);
	val(pr_mnum(t, PRK_ALLOC_TREE_HEAP), "bytes", a, sizeof(a));
	val(pr_mnum(t, PRK_ALLOC_TREE_HEAP_EXTRA), "bytes", b, sizeof(b));
	emit(out, "  heap %s (+%s allocator overhead), depth first:", a, b);
	json_array_foreach (json_object_get(t, PRK_ALLOC_TREE_NODES), i, v) {
		long long depth = pr_mll(v, PRK_ALLOC_TREE_NODES_DEPTH);
		int ind = 2 * (int)(depth > 1 ? depth - 1 : 0);
		if (depth > TREE_DEPTH || rows >= TREE_ROWS) {
			cut++;
			continue;
		}
		rows++;
		fprintf(out, "  %10s %5.1f%%  %*s%s\n",
			val(pr_mnum(v, PRK_ALLOC_TREE_NODES_BYTES), "bytes", a, sizeof(a)),
			pr_mnum(v, PRK_ALLOC_TREE_NODES_SHARE) * 100, ind, "",
			pr_elide_end(pr_mstr(v, PRK_ALLOC_TREE_NODES_LABEL), (size_t)(W - 21 - ind),
				     c, sizeof(c)));
	}
	cut += (size_t)(pr_mll(t, PRK_ALLOC_TREE_NODES_MORE) > 0
				? pr_mll(t, PRK_ALLOC_TREE_NODES_MORE)
				: 0);
	if (cut)
		emit(out,
		     "  %zu more node(s) not shown (deeper than %d levels or past %d rows); "
		     "report --json has them",
		     cut, TREE_DEPTH, TREE_ROWS);
}

/*
 * A PyTorch CUDA memory snapshot (cuda_snapshot): per device the allocator's
 * numbers, its fragmentation, the allocated peak with the sites live there
 * (at most SNAP_SITES rows) and the last OOM against the largest free block.
 */
#define SNAP_SITES 10
static void cuda_snapshot(const json_t *run, FILE *out)
{
	const json_t *cs = json_object_get(run, PRK_CUDA_SNAPSHOT), *d, *v;
	size_t i, j;
	char a[40], b[40], c[40], e[40], f[96];
	if (!json_is_object(cs))
		return;
	json_array_foreach (json_object_get(cs, PRK_CUDA_SNAPSHOT_DEVICES), i, d) {
		const json_t *seg = json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_SEGMENTS),
			     *pk = json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_PEAK);
		const json_t *hist = json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_HISTORY);
		const json_t *ooms = json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_OOMS);
		fputc('\n', out);
		emit(out, "CUDA memory snapshot, %s (torch allocator)",
		     pr_mstr(d, PRK_CUDA_SNAPSHOT_DEVICES_DEVICE));
		emit(out, "  reserved %s, allocated %s, active %s, requested %s",
		     val(pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_RESERVED), "bytes", a, sizeof(a)),
		     val(pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_ALLOCATED), "bytes", b, sizeof(b)),
		     val(pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_ACTIVE), "bytes", c, sizeof(c)),
		     val(pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_REQUESTED), "bytes", e, sizeof(e)));
		emit(out, "  %lld segment(s) (%lld large, %lld small); blocks:",
		     pr_mll(seg, PRK_CUDA_SNAPSHOT_DEVICES_SEGMENTS_COUNT),
		     pr_mll(seg, PRK_CUDA_SNAPSHOT_DEVICES_SEGMENTS_LARGE),
		     pr_mll(seg, PRK_CUDA_SNAPSHOT_DEVICES_SEGMENTS_SMALL));
		json_array_foreach (json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_BLOCKS), j, v)
			emit(out, "    %-20s %6lld %10s",
			     pr_mstr(v, PRK_CUDA_SNAPSHOT_DEVICES_BLOCKS_STATE),
			     pr_mll(v, PRK_CUDA_SNAPSHOT_DEVICES_BLOCKS_COUNT),
			     val(pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_BLOCKS_BYTES), "bytes", a,
				 sizeof(a)));
		emit(out,
		     "  free inside segments %s, largest free block %s: external "
		     "fragmentation %.1f%%",
		     val(pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_FREE_IN_SEGMENTS), "bytes", a,
			 sizeof(a)),
		     val(pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_LARGEST_FREE_BLOCK), "bytes", b,
			 sizeof(b)),
		     pr_mnum(d, PRK_CUDA_SNAPSHOT_DEVICES_EXTERNAL_FRAGMENTATION) * 100);
		json_array_foreach (json_object_get(d, PRK_CUDA_SNAPSHOT_DEVICES_POOLS), j, v)
			emit(out, "  pool %-14s %lld segment(s), reserved %s, allocated %s",
			     pr_mstr(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_POOL),
			     pr_mll(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_SEGMENTS),
			     val(pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_RESERVED), "bytes", a,
				 sizeof(a)),
			     val(pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_POOLS_ALLOCATED), "bytes", b,
				 sizeof(b)));
		if (json_is_object(pk)) {
			if (!strcmp(pr_mstr(cs, PRK_CUDA_SNAPSHOT_TIME), "time_us"))
				pr_fmt_x(run, pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_T_NS), b,
					 sizeof(b));
			else
				snprintf(b, sizeof(b), "trace event %lld",
					 pr_mll(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_EVENT));
			emit(out,
			     "  allocated peak %s at %s (history of %lld events; %s allocated "
			     "before it began)",
			     val(pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_ALLOCATED), "bytes", a,
				 sizeof(a)),
			     b, pr_mll(hist, PRK_CUDA_SNAPSHOT_DEVICES_HISTORY_EVENTS),
			     val(pr_mnum(hist, PRK_CUDA_SNAPSHOT_DEVICES_HISTORY_START_ALLOCATED),
				 "bytes", c, sizeof(c)));
			emit(out, "    %10s %6s %6s  %s", "live", "share", "blocks",
			     "allocation site (first user frame)");
			json_array_foreach (json_object_get(pk,
							    PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES),
					    j, v) {
				if (j >= SNAP_SITES)
					break;
				emit(out, "    %10s %5.1f%% %6lld  %s",
				     val(pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_BYTES),
					 "bytes", a, sizeof(a)),
				     pr_mnum(v, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_SHARE) * 100,
				     pr_mll(v, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_BLOCKS),
				     pr_elide_end(
					     pr_mstr(v, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_SITE),
					     (size_t)(W - 31), f, sizeof(f)));
			}
			if (pr_mll(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_MORE) > 0)
				emit(out, "    %10s %6s %6lld  %lld more site(s)",
				     val(pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_OTHER_BYTES),
					 "bytes", a, sizeof(a)),
				     "", pr_mll(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_OTHER_BLOCKS),
				     pr_mll(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_SITES_MORE));
			if (pr_mnum(pk, PRK_CUDA_SNAPSHOT_DEVICES_PEAK_UNTRACKED_BYTES) > 0)
				emit(out, "    %10s %6s %6s  allocated before the history began",
				     val(pr_mnum(pk,
						 PRK_CUDA_SNAPSHOT_DEVICES_PEAK_UNTRACKED_BYTES),
					 "bytes", a, sizeof(a)),
				     "", "");
		}
		if (json_array_size(ooms)) {
			const json_t *oom = json_array_get(ooms, json_array_size(ooms) - 1);
			emit(out,
			     "  OOM (%zu): requested %s, largest free block %s (%s), %s free "
			     "on the device",
			     json_array_size(ooms),
			     val(pr_mnum(oom, PRK_CUDA_SNAPSHOT_DEVICES_OOMS_REQUESTED), "bytes", a,
				 sizeof(a)),
			     val(pr_mnum(oom, PRK_CUDA_SNAPSHOT_DEVICES_OOMS_LARGEST_FREE_BLOCK),
				 "bytes", b, sizeof(b)),
			     json_is_true(json_object_get(oom, PRK_CUDA_SNAPSHOT_DEVICES_OOMS_FITS))
				     ? "it fits"
				     : "it does not fit",
			     val(pr_mnum(oom, PRK_CUDA_SNAPSHOT_DEVICES_OOMS_DEVICE_FREE), "bytes",
				 c, sizeof(c)));
		}
	}
}

static void memstats(const json_t *run, FILE *out)
{
	json_t *s;
	size_t i;
	int any = 0;
	char a[32], b[40], c[32], d[32], e[32], f[300], g[32];
	json_array_foreach (json_object_get(run, PRK_SERIES), i, s) {
		double first = pr_mnum(s, PRK_SERIES_FIRST), last = pr_mnum(s, PRK_SERIES_LAST),
		       n = pr_mnum(s, PRK_SERIES_COUNT);
		if (!json_is_true(json_object_get(s, PRK_SERIES_MEMORY)) || !(n > 0))
			continue;
		if (!any++) {
			heading(out, "Memory statistics");
			fprintf(out, "  %-20s %10s %11s %10s %10s %10s\n", "series", "current",
				"delta", "average", "min", "max");
		}
		series_label(pr_mstr(s, PRK_SERIES_NAME), pr_mstr(s, PRK_SERIES_DEVICE), f,
			     sizeof(f));
		if (strlen(f) > 20) {
			emit(out, "  %s", f);
			f[0] = '\0';
		}
		val(last - first, "bytes", g, sizeof(g));
		snprintf(b, sizeof(b), "%s%s", last - first >= 0 ? "+" : "", g);
		fprintf(out, "  %-20s %10s %11s %10s %10s %10s\n", f,
			val(last, "bytes", a, sizeof(a)), b,
			val(pr_mnum(s, PRK_SERIES_MEAN), "bytes", c, sizeof(c)),
			val(pr_mnum(s, PRK_SERIES_MIN), "bytes", d, sizeof(d)),
			val(pr_mnum(s, PRK_SERIES_MAX), "bytes", e, sizeof(e)));
		val(pr_mnum(s, PRK_SERIES_MAX) - pr_mnum(s, PRK_SERIES_MIN), "bytes", g, sizeof(g));
		if (n > 1)
			emit(out, "    range %s; %.0f samples, one every %s on average", g, n,
			     (pr_fmt_x(run,
				       (pr_mnum(s, PRK_SERIES_T_LAST_NS) -
					pr_mnum(s, PRK_SERIES_T_FIRST_NS)) /
					       (n - 1),
				       a, sizeof(a)),
			      a));
		else
			emit(out, "    range %s; 1 sample", g);
	}
}

static void disk(const json_t *run, FILE *out)
{
	json_t *s;
	size_t i;
	char a[32];
	int any = 0;
	json_array_foreach (json_object_get(run, PRK_SERIES), i, s) {
		const char *n = pr_mstr(s, PRK_SERIES_NAME);
		if (!strcmp(n, "disk.read") || !strcmp(n, "disk.write")) {
			if (!any++)
				heading(out, "Disk I/O");
			emit(out, "  total %-5s %s%s%s (last - first of the cumulative counter)",
			     n + 5,
			     val(pr_mnum(s, PRK_SERIES_LAST) - pr_mnum(s, PRK_SERIES_FIRST),
				 "bytes", a, sizeof(a)),
			     *pr_mstr(s, PRK_SERIES_DEVICE) ? " on " : "",
			     pr_mstr(s, PRK_SERIES_DEVICE));
		}
	}
}

#define SERIES_ROWS 30 /* rows of the other series' table */

/*
 * Every series that is not memory (CPU, GPU utilisation, temperatures,
 * rates, load, counters): mean, min and max in its own unit, per device,
 * at most SERIES_ROWS rows (the rest counted).
 */
static void other_series(const json_t *run, FILE *out)
{
	json_t *arr = json_object_get(run, PRK_SERIES), *s;
	size_t n = 0, i, k = 0;
	const json_t **rows;
	const char **names;
	pr_label_t *full, *lab;
	char a[32], b[32], c[32], d[48];
	json_array_foreach (arr, i, s)
		n += !json_is_true(json_object_get(s, PRK_SERIES_MEMORY)) &&
		     pr_mnum(s, PRK_SERIES_COUNT) > 0 &&
		     strcmp(pr_mstr(s, PRK_SERIES_NAME), "disk.read") &&
		     strcmp(pr_mstr(s, PRK_SERIES_NAME), "disk.write");
	if (!n)
		return;
	rows = calloc(n, sizeof(*rows));
	names = calloc(n, sizeof(*names));
	full = calloc(n, sizeof(*full));
	lab = calloc(n, sizeof(*lab));
	if (!rows || !names || !full || !lab)
		abort();
	json_array_foreach (arr, i, s) {
		if (json_is_true(json_object_get(s, PRK_SERIES_MEMORY)) ||
		    !(pr_mnum(s, PRK_SERIES_COUNT) > 0) ||
		    !strcmp(pr_mstr(s, PRK_SERIES_NAME), "disk.read") ||
		    !strcmp(pr_mstr(s, PRK_SERIES_NAME), "disk.write"))
			continue;
		rows[k] = s;
		series_label(pr_mstr(s, PRK_SERIES_NAME), pr_mstr(s, PRK_SERIES_DEVICE), full[k],
			     PR_LABEL);
		names[k] = full[k];
		k++;
	}
	pr_elide_column(lab, names, n, 26, 0);
	heading(out, "Series");
	/* max at: series.t_max_ns, the time of the maximum (a rate or a utilisation has no peak) */
	fprintf(out, "  %-26s %10s %10s %10s %10s %7s\n", "series", "mean", "min", "max", "max at",
		"samples");
	for (i = 0; i < n && i < SERIES_ROWS; i++) {
		const char *u = pr_mstr(rows[i], PRK_SERIES_UNIT);
		pr_fmt_x(run, pr_mnum(rows[i], PRK_SERIES_T_MAX_NS), d, sizeof(d));
		/* sadf: sar's interval-weighted mean (its Average: line), else the samples' */
		double mean = json_is_number(json_object_get(rows[i], PRK_SERIES_MEAN_WEIGHTED))
				      ? pr_mnum(rows[i], PRK_SERIES_MEAN_WEIGHTED)
				      : pr_mnum(rows[i], PRK_SERIES_MEAN);
		emit(out, "  %-26s %10s %10s %10s %10s %7lld", lab[i], val(mean, u, a, sizeof(a)),
		     val(pr_mnum(rows[i], PRK_SERIES_MIN), u, b, sizeof(b)),
		     val(pr_mnum(rows[i], PRK_SERIES_MAX), u, c, sizeof(c)), d,
		     pr_mll(rows[i], PRK_SERIES_COUNT));
	}
	if (n > SERIES_ROWS)
		emit(out, "  ... %zu more series (report --json lists them)", n - SERIES_ROWS);
	free(rows);
	free(names);
	free(full);
	free(lab);
}

#define PHASE_ROWS 20  /* phase occurrences listed one per line before they are grouped by name */
#define PHASE_SHOWN 12 /* occurrences still listed under the grouped table */
#define PHASE_NAMES 15 /* names in the grouped table (the largest total time first) */

static int by_total_desc(const void *a, const void *b)
{
	double x = pr_mnum(*(json_t *const *)a, PRK_PHASES_TOTALS_TOTAL_NS),
	       y = pr_mnum(*(json_t *const *)b, PRK_PHASES_TOTALS_TOTAL_NS);
	return x > y ? -1 : x < y;
}

/* CPU per phase (phases.occurrences[].cpu: cpu.util's samples inside each phase), if any. */
static void phases_cpu(const json_t *run, const json_t *occ, size_t nocc, FILE *out)
{
	const json_t *o;
	char c[64], name[64], shown[64];
	size_t i, any = 0;
	json_array_foreach (occ, i, o)
		any += json_is_object(json_object_get(o, PRK_PHASES_OCCURRENCES_CPU));
	if (!any)
		return;
	heading(out, "CPU per phase (cpu.util: mean and max of the samples inside each phase)");
	fprintf(out, "  %3s  %-24s %8s %8s %7s\n", "#", "phase", "mean", "max", "samples");
	json_array_foreach (occ, i, o) {
		const json_t *cpu = json_object_get(o, PRK_PHASES_OCCURRENCES_CPU);
		if (nocc > PHASE_ROWS && i >= PHASE_SHOWN)
			break;
		if (!json_is_object(cpu))
			continue;
		snprintf(name, sizeof(name), "%s",
			 pr_name_display(pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME), shown,
					 sizeof(shown)));
		emit(out, "  %3zu  %-24s %7.1f%% %7.1f%% %7lld", i + 1,
		     pr_elide_end(name, 24, c, sizeof(c)),
		     pr_mnum(cpu, PRK_PHASES_OCCURRENCES_CPU_MEAN),
		     pr_mnum(cpu, PRK_PHASES_OCCURRENCES_CPU_MAX),
		     pr_mll(cpu, PRK_PHASES_OCCURRENCES_CPU_SAMPLES));
	}
	(void)run;
}

/*
 * Many phase occurrences (a long run: 1000 steps of forward/backward) are
 * shown grouped by name: count, total, p50, p95, share of the run, the
 * largest totals first; then the first occurrences and how many more.
 */
static void phases_by_name(const json_t *ph, size_t nocc, FILE *out)
{
	json_t *tot = json_object_get(ph, PRK_PHASES_TOTALS), **v, *rows;
	size_t n = json_array_size(tot), i;
	long long more =
		pr_mll(json_object_get(ph, PRK_PHASES_TOTALS_MORE), PRK_PHASES_TOTALS_MORE_NAMES);
	if (!n)
		return;
	v = calloc(n, sizeof(*v));
	if (!v)
		abort();
	for (i = 0; i < n; i++)
		v[i] = json_array_get(tot, i);
	qsort(v, n, sizeof(*v), by_total_desc);
	rows = json_array();
	for (i = 0; i < n; i++)
		json_array_append(rows, v[i]);
	heading(out, "Phases by name");
	emit(out, "  %zu occurrences of %lld names; the largest totals first", nocc,
	     (long long)n + (more > 0 ? more : 0));
	text_table(out, &pr_table_phase_totals, rows, NULL, NULL);
	if (n + (size_t)(more > 0 ? more : 0) > PHASE_NAMES)
		emit(out, "  ... %lld more names (report --json lists them)",
		     (long long)n + (more > 0 ? more : 0) -
			     (long long)(n < PHASE_NAMES ? n : PHASE_NAMES));
	json_decref(rows);
	free(v);
}

static void phases(const json_t *run, FILE *out)
{
	json_t *ph = json_object_get(run, PRK_PHASES),
	       *occ = json_object_get(ph, PRK_PHASES_OCCURRENCES), *o;
	json_t *stages = json_object_get(ph, PRK_PHASES_STAGES);
	char a[32], b[32], c[64], d[40];
	size_t i, nocc;
	if (json_array_size(occ)) {
		/* the memory delta is of each phase's first memory series: named once when they agree */
		const char *common = NULL;
		char hd[400];
		json_array_foreach (occ, i, o) {
			json_t *m =
				json_array_get(json_object_get(o, PRK_PHASES_OCCURRENCES_MEMORY),
					       0);
			if (!m)
				continue;
			if (!common)
				common = pr_mstr(m, PRK_PHASES_OCCURRENCES_MEMORY_SERIES);
			else if (strcmp(common, pr_mstr(m, PRK_PHASES_OCCURRENCES_MEMORY_SERIES)))
				common = "";
		}
		nocc = json_array_size(occ) +
		       (size_t)(pr_mll(ph, PRK_PHASES_OCCURRENCES_MORE) > 0
					? pr_mll(ph, PRK_PHASES_OCCURRENCES_MORE)
					: 0);
		if (nocc > PHASE_ROWS)
			phases_by_name(ph, nocc, out);
		heading(out, "Phases (timeline)");
		if (common && *common) {
			snprintf(hd, sizeof(hd),
				 "  memory delta: %s, its last sample - the last before the phase",
				 common);
			emit(out, "%s", hd);
		}
		fprintf(out, "  %3s %10s  %-24s %10s %6s  %s\n", "#", "start", "phase", "duration",
			"share", "memory delta");
		json_array_foreach (occ, i, o) {
			json_t *m =
				json_array_get(json_object_get(o, PRK_PHASES_OCCURRENCES_MEMORY),
					       0);
			char name[64], mem[96] = "";
			if (nocc > PHASE_ROWS && i >= PHASE_SHOWN)
				break;
			long long depth = pr_mll(o, PRK_PHASES_OCCURRENCES_DEPTH);
			char shown[64];
			snprintf(name, sizeof(name), "%*s%s",
				 2 * (int)(depth < 0   ? 0
					   : depth > 8 ? 8
						       : depth),
				 "",
				 pr_name_display(pr_mstr(o, PRK_PHASES_OCCURRENCES_NAME), shown,
						 sizeof(shown)));
			if (m) {
				double dl = pr_mnum(m, PRK_PHASES_OCCURRENCES_MEMORY_DELTA);
				val(dl, "bytes", d, sizeof(d));
				snprintf(mem, sizeof(mem), "  %s%s%s%s", dl >= 0 ? "+" : "", d,
					 common && *common ? "" : " ",
					 common && *common
						 ? ""
						 : pr_mstr(m,
							   PRK_PHASES_OCCURRENCES_MEMORY_SERIES));
			}
			pr_fmt_x(run, pr_mnum(o, PRK_PHASES_OCCURRENCES_T_NS), a, sizeof(a));
			pr_fmt_x(run, pr_mnum(o, PRK_PHASES_OCCURRENCES_DUR_NS), b, sizeof(b));
			emit(out, "  %3zu %10s  %-24s %10s %5.1f%%%s", i + 1, a,
			     pr_elide_end(name, 24, c, sizeof(c)), b,
			     pr_mnum(o, PRK_PHASES_OCCURRENCES_SHARE) * 100, mem);
		}
		if (nocc > PHASE_ROWS)
			fprintf(out,
				"  ... %zu more occurrences (the HTML report and report --json list them)\n",
				nocc - PHASE_SHOWN);
		if (json_is_number(json_object_get(ph, PRK_PHASES_COVERAGE)))
			fprintf(out, "  top-level phases cover %.1f%% of the run\n",
				pr_mnum(ph, PRK_PHASES_COVERAGE) * 100);
		phases_cpu(run, occ, nocc, out);
	}
	if (json_array_size(stages)) {
		heading(out, "Stages (reported aggregates)");
		text_table(out, &pr_table_phase_stages, stages, NULL, NULL);
	}
}

/*
 * The steps as the trace numbers them, as the charts do: "ProfilerStep
 * #4-#6" from the first and last steps' names ("ProfilerStep#4" alone used to
 * read as if it were one step's name); a name without a number as it is.
 */
static const char *steps_name(const json_t *s, char *buf, size_t n)
{
	const json_t *list = json_object_get(s, PRK_THROUGHPUT_STEPS_LIST);
	char kind[200], k2[200];
	long long first, last;
	size_t nl = json_array_size(list);
	const char *lastname =
		json_is_string(json_object_get(s, PRK_THROUGHPUT_STEPS_LAST_NAME))
			? pr_mstr(s, PRK_THROUGHPUT_STEPS_LAST_NAME) /* the list is cut */
			: pr_mstr(json_array_get(list, nl ? nl - 1 : 0),
				  PRK_THROUGHPUT_STEPS_LIST_NAME);
	if (!pr_step_split(pr_mstr(s, PRK_THROUGHPUT_STEPS_NAME), kind, sizeof(kind), &first))
		return pr_mstr(s, PRK_THROUGHPUT_STEPS_NAME);
	if (nl > 1 && pr_step_split(lastname, k2, sizeof(k2), &last) && !strcmp(kind, k2) &&
	    last != first)
		snprintf(buf, n, "%s #%lld-#%lld", kind, first, last);
	else
		snprintf(buf, n, "%s #%lld", kind, first);
	return buf;
}

static void throughput(const json_t *run, FILE *out)
{
	json_t *t = json_object_get(run, PRK_THROUGHPUT),
	       *s = json_object_get(t, PRK_THROUGHPUT_STEPS);
	json_t *tok = json_object_get(t, PRK_THROUGHPUT_TOKENS),
	       *bl = json_object_get(t, PRK_THROUGHPUT_BLOCKS);
	json_t *df = json_object_get(t, PRK_THROUGHPUT_DIFFUSION), *v;
	char a[32], b[32], c[32], d[32], e[40], f[240];
	size_t i;
	if (!json_is_object(s) && !tok && !bl && !df)
		return;
	heading(out, "Throughput");
	if (json_is_object(s)) {
		pr_fmt_duration(pr_mnum(s, PRK_THROUGHPUT_STEPS_MEAN_NS), a, sizeof(a));
		pr_fmt_duration(pr_mnum(s, PRK_THROUGHPUT_STEPS_P50_NS), b, sizeof(b));
		pr_fmt_duration(pr_mnum(s, PRK_THROUGHPUT_STEPS_P95_NS), c, sizeof(c));
		pr_fmt_duration(pr_mnum(s, PRK_THROUGHPUT_STEPS_P99_NS), d, sizeof(d));
		emit(out, "  %s: %lld steps, %.2f steps/s, mean %s",
		     name_fit(steps_name(s, f, sizeof(f)), 30, e, sizeof(e)),
		     pr_mll(s, PRK_THROUGHPUT_STEPS_COUNT), pr_mnum(s, PRK_THROUGHPUT_STEPS_PER_S),
		     a);
		fprintf(out, "    p50 %s  p95 %s  p99 %s  jitter (std/mean) %.1f%%\n", b, c, d,
			pr_mnum(s, PRK_THROUGHPUT_STEPS_JITTER) * 100);
		if (json_is_object(json_object_get(s, PRK_THROUGHPUT_STEPS_HOST)) &&
		    pr_mnum(json_object_get(s, PRK_THROUGHPUT_STEPS_HOST),
			    PRK_THROUGHPUT_STEPS_HOST_MEAN_NS) !=
			    pr_mnum(s, PRK_THROUGHPUT_STEPS_MEAN_NS)) {
			json_t *h = json_object_get(s, PRK_THROUGHPUT_STEPS_HOST);
			pr_fmt_duration(pr_mnum(h, PRK_THROUGHPUT_STEPS_HOST_MEAN_NS), a,
					sizeof(a));
			pr_fmt_duration(pr_mnum(h, PRK_THROUGHPUT_STEPS_HOST_P50_NS), b, sizeof(b));
			emit(out, "    step time (host): mean %s, p50 %s (above: TensorBoard's)", a,
			     b);
		}
		json_array_foreach (json_object_get(s, PRK_THROUGHPUT_STEPS_STRAGGLERS), i, v) {
			pr_fmt_duration(pr_mnum(v, PRK_THROUGHPUT_STEPS_STRAGGLERS_DUR_NS), a,
					sizeof(a));
			emit(out, "    straggling step %s: %s, %.1fx the median (robust z %.1f)",
			     pr_mstr(v, PRK_THROUGHPUT_STEPS_STRAGGLERS_NAME), a,
			     pr_mnum(v, PRK_THROUGHPUT_STEPS_STRAGGLERS_X_MEDIAN),
			     pr_mnum(v, PRK_THROUGHPUT_STEPS_STRAGGLERS_ROBUST_Z));
		}
	}
	if (tok) {
		char rep[64] = "";
		if (json_is_number(
			    json_object_get(tok, PRK_THROUGHPUT_TOKENS_REPORTED_TOKENS_PER_S)))
			snprintf(rep, sizeof(rep), " (collector: %.2f)",
				 pr_mnum(tok, PRK_THROUGHPUT_TOKENS_REPORTED_TOKENS_PER_S));
		emit(out, "  tokens: %.0f, %.2f tokens/s over sections with tokens%s",
		     pr_mnum(tok, PRK_THROUGHPUT_TOKENS_TOTAL_TOKENS),
		     pr_mnum(tok, PRK_THROUGHPUT_TOKENS_TOKENS_PER_S), rep);
		json_array_foreach (json_object_get(tok, PRK_THROUGHPUT_TOKENS_SECTIONS), i, v) {
			if (!json_is_number(
				    json_object_get(v,
						    PRK_THROUGHPUT_TOKENS_SECTIONS_TOKENS_PER_S)))
				continue;
			rep[0] = '\0';
			if (json_is_number(json_object_get(
				    v, PRK_THROUGHPUT_TOKENS_SECTIONS_REPORTED_TOKENS_PER_S)))
				snprintf(
					rep, sizeof(rep), " (collector %.2f)",
					pr_mnum(v,
						PRK_THROUGHPUT_TOKENS_SECTIONS_REPORTED_TOKENS_PER_S));
			emit(out, "    %-20s %8.0f tokens %10.2f tokens/s%s",
			     pr_elide_end(pr_mstr(v, PRK_THROUGHPUT_TOKENS_SECTIONS_SECTION), 20, e,
					  sizeof(e)),
			     pr_mnum(v, PRK_THROUGHPUT_TOKENS_SECTIONS_TOKENS),
			     pr_mnum(v, PRK_THROUGHPUT_TOKENS_SECTIONS_TOKENS_PER_S), rep);
		}
	}
	if (bl)
		emit(out, "  blocks: %.0f blocks, %.0f frames: FPS %.2f, BPS %.2f, first block %s",
		     pr_mnum(bl, PRK_THROUGHPUT_BLOCKS_COUNT),
		     pr_mnum(bl, PRK_THROUGHPUT_BLOCKS_FRAMES),
		     pr_mnum(bl, PRK_THROUGHPUT_BLOCKS_FPS), pr_mnum(bl, PRK_THROUGHPUT_BLOCKS_BPS),
		     secs(pr_mnum(bl, PRK_THROUGHPUT_BLOCKS_FIRST_BLOCK_NS), a, sizeof(a)));
	if (df)
		emit(out,
		     "  diffusion: %.0f steps, %.2f steps/s, %.2f frames/s (Inferix: %.2f, per step)",
		     pr_mnum(df, PRK_THROUGHPUT_DIFFUSION_STEPS),
		     pr_mnum(df, PRK_THROUGHPUT_DIFFUSION_STEPS_PER_S),
		     pr_mnum(df, PRK_THROUGHPUT_DIFFUSION_FRAMES_PER_S),
		     pr_mnum(df, PRK_THROUGHPUT_DIFFUSION_FRAME_STEPS_PER_S));
}

static double pct(const json_t *o, const char *key)
{
	return pr_mnum(o, key) * 100;
}

/* A stream's queue length ranks before another's: higher mean, then higher max, then model order. */
static int queue_before(const json_t *x, const json_t *y)
{
	const json_t *qx = json_object_get(x, PRK_GPU_STREAMS_ITEMS_QUEUE),
		     *qy = json_object_get(y, PRK_GPU_STREAMS_ITEMS_QUEUE);
	if (!json_is_object(qy))
		return json_is_object(qx);
	if (!json_is_object(qx))
		return 0;
	if (pr_mnum(qx, PRK_GPU_STREAMS_ITEMS_QUEUE_MEAN) !=
	    pr_mnum(qy, PRK_GPU_STREAMS_ITEMS_QUEUE_MEAN))
		return pr_mnum(qx, PRK_GPU_STREAMS_ITEMS_QUEUE_MEAN) >
		       pr_mnum(qy, PRK_GPU_STREAMS_ITEMS_QUEUE_MEAN);
	return pr_mnum(qx, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX) >
	       pr_mnum(qy, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX);
}

/* The 3 streams with the longest mean queue (launched, not finished): mean and max. */
static void queues(const json_t *items, FILE *out)
{
	const json_t *top[3] = { NULL, NULL, NULL }, *v;
	char a[64], b[40], e[64];
	size_t i, j, k;
	json_array_foreach (items, i, v) {
		if (!json_is_object(json_object_get(v, PRK_GPU_STREAMS_ITEMS_QUEUE)))
			continue;
		for (j = 0; j < 3 && top[j] && !queue_before(v, top[j]); j++)
			;
		if (j == 3)
			continue;
		for (k = 2; k > j; k--)
			top[k] = top[k - 1];
		top[j] = v;
	}
	for (j = 0; j < 3 && top[j]; j++) {
		const json_t *q = json_object_get(top[j], PRK_GPU_STREAMS_ITEMS_QUEUE);
		if (!j)
			fprintf(out, "  %-30s %8s %8s %6s %12s\n", "queue length per stream",
				"mean", "HTA mean", "max", "at max");
		pr_stream_label(pr_mstr(top[j], PRK_GPU_STREAMS_ITEMS_DEVICE),
				pr_mstr(top[j], PRK_GPU_STREAMS_ITEMS_STREAM), a, sizeof(a));
		pr_fmt_duration(pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_AT_MAX_NS), b, sizeof(b));
		emit(out, "  %-30s %8.2f %8.2f %6.0f %12s", pr_elide_end(a, 30, e, sizeof(e)),
		     pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MEAN),
		     pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_SAMPLE_MEAN),
		     pr_mnum(q, PRK_GPU_STREAMS_ITEMS_QUEUE_MAX), b);
	}
}

/* HTA's kernel launch statistics: delay (start - call end), outliers, the op with most delay. */
static void launch_delays(const json_t *ld, FILE *out)
{
	const json_t *op = json_array_get(json_object_get(ld, PRK_GPU_LAUNCH_DELAYS_BY_OP), 0);
	char a[40], b[40], e[64];
	if (!json_is_object(ld))
		return;
	emit(out, "  launch delay     mean %9s  max %10s  (HTA: start - call end)",
	     secs(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_MEAN_NS), a, sizeof(a)),
	     secs(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_MAX_NS), b, sizeof(b)));
	emit(out, "    %lld delays > %s, %lld calls > %s, %lld short kernels of %lld",
	     pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_OUTLIERS),
	     secs(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_DELAY_CUTOFF_NS), a, sizeof(a)),
	     pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_RUNTIME_OUTLIERS),
	     secs(pr_mnum(ld, PRK_GPU_LAUNCH_DELAYS_RUNTIME_CUTOFF_NS), b, sizeof(b)),
	     pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_SHORT_KERNELS),
	     pr_mll(ld, PRK_GPU_LAUNCH_DELAYS_LAUNCHES));
	if (json_is_object(op))
		emit(out, "    most delayed op %s: %lld launches, mean %s",
		     pr_elide_end(pr_mstr(op, PRK_GPU_LAUNCH_DELAYS_BY_OP_NAME), 30, e, sizeof(e)),
		     pr_mll(op, PRK_GPU_LAUNCH_DELAYS_BY_OP_ACTIVITIES),
		     secs(pr_mnum(op, PRK_GPU_LAUNCH_DELAYS_BY_OP_DELAY_MEAN_NS), a, sizeof(a)));
}

/* gpu.kernel_sequences: the repeated runs of activities worth fusing (issue 28). */
static void kernel_sequences(const json_t *ks, FILE *out)
{
	const json_t *items = json_object_get(ks, PRK_GPU_KERNEL_SEQUENCES_ITEMS);
	if (!json_array_size(items))
		return;
	emit(out,
	     "  frequent kernel sequences: %lld patterns of %lld-%lld activities repeated on a stream",
	     pr_mll(ks, PRK_GPU_KERNEL_SEQUENCES_PATTERNS),
	     pr_mll(ks, PRK_GPU_KERNEL_SEQUENCES_MIN_LENGTH),
	     pr_mll(ks, PRK_GPU_KERNEL_SEQUENCES_MAX_LENGTH));
	text_table(out, &pr_table_kernel_seqs, items, NULL, NULL);
}

/* gpu_breakdown.scopes: TraceLens's gpu_timeline per scope, one row each (issue 28). */
/* The three scopes are one shape, read by the names of "all" (scope_keys.h). */
static void gpu_scopes(const json_t *sc, FILE *out)
{
	static const char *const names[] = { PRK_GPU_BREAKDOWN_SCOPES_ALL,
					     PRK_GPU_BREAKDOWN_SCOPES_LINKED,
					     PRK_GPU_BREAKDOWN_SCOPES_STEPS };
	char t[6][24];
	size_t i;
	if (!json_is_object(sc))
		return;
	emit(out, "  %-6s %5s %10s %10s %10s %10s %10s %10s", "scope", "ops", "total", "busy",
	     "compute", "memcpy*", "comm*", "idle");
	for (i = 0; i < PR_ARRAY_SIZE(names); i++) {
		const json_t *v = json_object_get(sc, names[i]);
		if (!json_is_object(v))
			continue;
		emit(out, "  %-6s %5lld %10s %10s %10s %10s %10s %10s", names[i],
		     pr_mll(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_OPS),
		     secs(pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_TOTAL_NS), t[0], sizeof(t[0])),
		     secs(pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_BUSY_NS), t[1], sizeof(t[1])),
		     secs(pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_COMPUTATION_NS), t[2],
			  sizeof(t[2])),
		     secs(pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_EXPOSED_MEMCPY_NS), t[3],
			  sizeof(t[3])),
		     secs(pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_EXPOSED_COMM_NS), t[4],
			  sizeof(t[4])),
		     secs(pr_mnum(v, PRK_GPU_BREAKDOWN_SCOPES_ALL_IDLE_NS), t[5], sizeof(t[5])));
	}
	emit(out, "    (TraceLens's gpu_timeline; linked: launched by a traced runtime call;");
	emit(out, "    steps: launched inside a ProfilerStep; *: exposed, not under compute)");
}

/* The GPU block: HTA's breakdowns, the CPU-GPU link and TensorBoard's step breakdown. */
static void gpu(const json_t *run, FILE *out)
{
	const json_t *g = json_object_get(run, PRK_GPU),
		     *gb = json_object_get(run, PRK_GPU_BREAKDOWN);
	const json_t *sb = json_object_get(run, PRK_STEP_BREAKDOWN);
	const json_t *r = json_object_get(gb, PRK_GPU_BREAKDOWN_RANK),
		     *idle = json_object_get(gb, PRK_GPU_BREAKDOWN_IDLE);
	const json_t *ov = json_object_get(gb, PRK_GPU_BREAKDOWN_OVERLAP),
		     *k = json_object_get(gb, PRK_GPU_BREAKDOWN_KERNELS);
	const json_t *l = json_object_get(g, PRK_GPU_LAUNCHES);
	char a[40], b[40], c[40], d[40], e[64];
	if (!json_is_object(g) && !json_is_object(gb) && !json_is_object(sb))
		return;
	if (json_is_string(json_object_get(g, PRK_GPU_DEVICE_TYPE)))
		snprintf(e, sizeof(e), "GPU (%s)", pr_mstr(g, PRK_GPU_DEVICE_TYPE));
	else
		snprintf(e, sizeof(e), "GPU");
	heading(out, e);
	if (json_is_object(r)) {
		emit(out, "  GPU busy %.2f%% of %s (scope all: first to last GPU op; HTA)",
		     pct(r, PRK_GPU_BREAKDOWN_RANK_BUSY_SHARE),
		     secs(pr_mnum(r, PRK_GPU_BREAKDOWN_RANK_SPAN_NS), a, sizeof(a)));
		emit(out, "  compute %.1f%%  communication %.1f%%  memory %.1f%%  idle %.1f%%",
		     pct(r, PRK_GPU_BREAKDOWN_RANK_COMPUTE_SHARE),
		     pct(r, PRK_GPU_BREAKDOWN_RANK_COMMUNICATION_SHARE),
		     pct(r, PRK_GPU_BREAKDOWN_RANK_MEMORY_SHARE),
		     pct(r, PRK_GPU_BREAKDOWN_RANK_IDLE_SHARE));
	}
	if (json_is_number(json_object_get(idle, PRK_GPU_BREAKDOWN_IDLE_HOST_WAIT_SHARE)))
		emit(out, "  idle: host wait %.1f%%  kernel wait %.1f%%  other %.1f%%",
		     pct(idle, PRK_GPU_BREAKDOWN_IDLE_HOST_WAIT_SHARE),
		     pct(idle, PRK_GPU_BREAKDOWN_IDLE_KERNEL_WAIT_SHARE),
		     pct(idle, PRK_GPU_BREAKDOWN_IDLE_OTHER_SHARE));
	if (json_is_object(ov)) {
		if (json_is_number(json_object_get(ov, PRK_GPU_BREAKDOWN_OVERLAP_SHARE)))
			emit(out, "  comm/compute overlap %.1f%% of %s of communication kernels",
			     pct(ov, PRK_GPU_BREAKDOWN_OVERLAP_SHARE),
			     secs(pr_mnum(ov, PRK_GPU_BREAKDOWN_OVERLAP_COMMUNICATION_NS), a,
				  sizeof(a)));
		else
			emit(out, "  comm/compute overlap: no communication kernels");
	}
	gpu_scopes(json_object_get(gb, PRK_GPU_BREAKDOWN_SCOPES), out);
	if (json_array_size(json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_TOP)))
		text_table(out, &pr_table_gpu_ops,
			   json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_TOP), NULL, NULL);
	if (json_array_size(json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS)))
		text_table(out, &pr_table_memory_ops,
			   json_object_get(k, PRK_GPU_BREAKDOWN_KERNELS_MEMORY_OPS), NULL, NULL);
	if (json_is_object(l)) {
		const json_t *lat = json_object_get(l, PRK_GPU_LAUNCHES_LATENCY),
			     *oh = json_object_get(l, PRK_GPU_LAUNCHES_OVERHEAD);
		if (json_is_object(lat))
			emit(out, "  launch latency   p50 %10s  p95 %10s  (%lld of %lld linked)",
			     secs(pr_mnum(lat, PRK_GPU_LAUNCHES_LATENCY_P50_NS), a, sizeof(a)),
			     secs(pr_mnum(lat, PRK_GPU_LAUNCHES_LATENCY_P95_NS), b, sizeof(b)),
			     pr_mll(l, PRK_GPU_LAUNCHES_LINKED),
			     pr_mll(l, PRK_GPU_LAUNCHES_ACTIVITIES));
		if (json_is_object(oh))
			emit(out,
			     "  launch overhead  p50 %10s  p95 %10s  (CPU time per runtime call)",
			     secs(pr_mnum(oh, PRK_GPU_LAUNCHES_OVERHEAD_P50_NS), c, sizeof(c)),
			     secs(pr_mnum(oh, PRK_GPU_LAUNCHES_OVERHEAD_P95_NS), d, sizeof(d)));
	}
	launch_delays(json_object_get(g, PRK_GPU_LAUNCH_DELAYS), out);
	kernel_sequences(json_object_get(g, PRK_GPU_KERNEL_SEQUENCES), out);
	queues(json_object_get(json_object_get(g, PRK_GPU_STREAMS), PRK_GPU_STREAMS_ITEMS), out);
	if (json_is_object(sb)) {
		const json_t *av = json_object_get(sb, PRK_STEP_BREAKDOWN_AVERAGE);
		double dur = pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_DUR_NS);
		size_t steps = json_array_size(json_object_get(sb, PRK_STEP_BREAKDOWN_STEPS)) +
			       (size_t)(pr_mll(sb, PRK_STEP_BREAKDOWN_STEPS_MORE) > 0
						? pr_mll(sb, PRK_STEP_BREAKDOWN_STEPS_MORE)
						: 0);
		emit(out, "  step breakdown (TensorBoard): mean of %zu step%s, %s per step", steps,
		     steps == 1 ? "" : "s", secs(dur, a, sizeof(a)));
		if (dur > 0) {
			emit(out,
			     "    Kernel %.1f%%  Memcpy %.1f%%  Memset %.1f%%  Communication %.1f%%",
			     100 * pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_KERNEL_NS) / dur,
			     100 * pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_MEMCPY_NS) / dur,
			     100 * pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_MEMSET_NS) / dur,
			     100 * pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_COMMUNICATION_NS) / dur);
			emit(out,
			     "    Runtime %.1f%%  DataLoader %.1f%%  CPU Exec %.1f%%  Other %.1f%%",
			     100 * pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_RUNTIME_NS) / dur,
			     100 * pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_DATALOADER_NS) / dur,
			     100 * pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_CPU_EXEC_NS) / dur,
			     100 * pr_mnum(av, PRK_STEP_BREAKDOWN_AVERAGE_OTHER_NS) / dur);
		}
		if (json_is_number(json_object_get(sb, PRK_STEP_BREAKDOWN_GPU_UTILIZATION)))
			emit(out, "    GPU utilisation %.1f%%",
			     pct(sb, PRK_STEP_BREAKDOWN_GPU_UTILIZATION));
	}
}

/* Where the trace records its waits between streams (cuda_sync): how many, and how many the
 * paths took, by method (an inferred run says nothing: the docs name the inference). */
static void critpath_waits(const json_t *cp, FILE *out)
{
	const json_t *w = json_object_get(cp, PRK_CRITICAL_PATH_STREAM_WAITS),
		     *p = json_object_get(w, PRK_CRITICAL_PATH_STREAM_WAITS_ON_PATH);
	if (strcmp(pr_mstr(w, PRK_CRITICAL_PATH_STREAM_WAITS_RULE), "handles"))
		return;
	emit(out,
	     "  waits between streams from the trace's records: %lld by event record, %lld by "
	     "stream, %lld unmatched; on the paths %lld and %lld",
	     pr_mll(w, PRK_CRITICAL_PATH_STREAM_WAITS_EVENT_RECORD),
	     pr_mll(w, PRK_CRITICAL_PATH_STREAM_WAITS_WAIT_ON_STREAM),
	     pr_mll(w, PRK_CRITICAL_PATH_STREAM_WAITS_UNMATCHED),
	     pr_mll(p, PRK_CRITICAL_PATH_STREAM_WAITS_ON_PATH_EVENT_RECORD),
	     pr_mll(p, PRK_CRITICAL_PATH_STREAM_WAITS_ON_PATH_WAIT_ON_STREAM));
}

/* The critical path (an_critpath.c): its length, what it is made of, what is on it most. */
static void critical_path(const json_t *run, FILE *out)
{
	const json_t *cp = json_object_get(run, PRK_CRITICAL_PATH), *c;
	static const char *const lists[2] = { PRK_CRITICAL_PATH_TOP_OPS,
					      PRK_CRITICAL_PATH_TOP_KERNELS };
	char a[40];
	double len;
	size_t k;
	if (!json_is_object(cp))
		return;
	c = json_object_get(cp, PRK_CRITICAL_PATH_COMPOSITION_NS);
	len = pr_mnum(cp, PRK_CRITICAL_PATH_LENGTH_NS);
	heading(out, "Critical path");
	if (!strcmp(pr_mstr(cp, PRK_CRITICAL_PATH_SCOPE), "steps"))
		emit(out, "  %lld step%s analysed, %s on %s",
		     pr_mll(cp, PRK_CRITICAL_PATH_STEPS_ANALYSED),
		     pr_mll(cp, PRK_CRITICAL_PATH_STEPS_ANALYSED) == 1 ? "" : "s",
		     secs(len, a, sizeof(a)),
		     pr_mll(cp, PRK_CRITICAL_PATH_STEPS_ANALYSED) == 1 ? "its path"
								       : "their paths in all");
	else if (!strcmp(pr_mstr(cp, PRK_CRITICAL_PATH_SCOPE), "annotation"))
		emit(out,
		     "  the window of %s (instance %lld, --critpath-annotation), %s on the path",
		     pr_mstr(json_object_get(cp, PRK_CRITICAL_PATH_WINDOW),
			     PRK_CRITICAL_PATH_WINDOW_NAME),
		     pr_mll(json_object_get(cp, PRK_CRITICAL_PATH_WINDOW),
			    PRK_CRITICAL_PATH_WINDOW_INSTANCE),
		     secs(len, a, sizeof(a)));
	else
		emit(out, "  the whole trace (no steps), %s on the path", secs(len, a, sizeof(a)));
	critpath_waits(cp, out);
	if (pr_mll(cp, PRK_CRITICAL_PATH_STEPS_OVER_BUDGET) > 0 &&
	    strcmp(pr_mstr(cp, PRK_CRITICAL_PATH_SCOPE), "steps"))
		emit(out, "  no path: the trace is past the budget of %lld events",
		     pr_mll(cp, PRK_CRITICAL_PATH_EVENTS_BUDGET));
	else if (pr_mll(cp, PRK_CRITICAL_PATH_STEPS_OVER_BUDGET) > 0)
		emit(out, "  %lld step%s left out: over the budget of %lld events",
		     pr_mll(cp, PRK_CRITICAL_PATH_STEPS_OVER_BUDGET),
		     pr_mll(cp, PRK_CRITICAL_PATH_STEPS_OVER_BUDGET) == 1 ? "" : "s",
		     pr_mll(cp, PRK_CRITICAL_PATH_EVENTS_BUDGET));
	if (len <= 0)
		return;
	emit(out, "  CPU ops %.1f%%  launch %.1f%%  sync %.1f%%  idle %.1f%%",
	     100 * pr_mnum(c, PRK_CRITICAL_PATH_COMPOSITION_NS_CPU_OP) / len,
	     100 * pr_mnum(c, PRK_CRITICAL_PATH_COMPOSITION_NS_LAUNCH) / len,
	     100 * pr_mnum(c, PRK_CRITICAL_PATH_COMPOSITION_NS_SYNC) / len,
	     100 * pr_mnum(c, PRK_CRITICAL_PATH_COMPOSITION_NS_IDLE) / len);
	emit(out, "  kernels: compute %.1f%%  communication %.1f%%  memory %.1f%%",
	     100 * pr_mnum(c, PRK_CRITICAL_PATH_COMPOSITION_NS_KERNEL_COMPUTE) / len,
	     100 * pr_mnum(c, PRK_CRITICAL_PATH_COMPOSITION_NS_KERNEL_COMMUNICATION) / len,
	     100 * pr_mnum(c, PRK_CRITICAL_PATH_COMPOSITION_NS_KERNEL_MEMORY) / len);
	for (k = 0; k < 2; k++) {
		const json_t *l = json_object_get(cp, lists[k]);
		if (json_array_size(l))
			text_table(out, k ? &pr_table_critpath_kernels : &pr_table_critpath_ops, l,
				   NULL, NULL);
	}
}

/* A number of the perf model with 2 decimals, or a share with 1 and "%" (is_pct); "-" when
 * null. */
static const char *pm_num(const json_t *o, const char *key, int is_pct, char *buf, size_t n)
{
	double v = pr_mnum(o, key);
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (is_pct)
		snprintf(buf, n, "%.1f%%", v);
	else
		snprintf(buf, n, "%.2f", v);
	return buf;
}

/* The perf model (perf_model): the device's peaks, the categories, the top op groups. */
static void perf_model(const json_t *run, FILE *out)
{
	const json_t *pm = json_object_get(run, PRK_PERF_MODEL), *dev, *roof, *v;
	const json_t *groups, *g;
	char a[40], b[40], c[40], d[40], e[40];
	size_t i;
	pr_label_t *lab;
	if (!json_is_object(pm))
		return;
	dev = json_object_get(pm, PRK_PERF_MODEL_DEVICE);
	roof = json_object_get(pm, PRK_PERF_MODEL_ROOFLINE);
	heading(out, "Perf model (device time of the ops that launched it)");
	if (json_is_object(roof))
		emit(out, "  %s: %s %.1f TFLOP/s, %.2f TB/s, ridge %.1f FLOP/byte",
		     pr_mstr(dev, PRK_PERF_MODEL_DEVICE_MODEL),
		     pr_mstr(roof, PRK_PERF_MODEL_ROOFLINE_DTYPE),
		     pr_mnum(roof, PRK_PERF_MODEL_ROOFLINE_PEAK_TFLOPS),
		     pr_mnum(roof, PRK_PERF_MODEL_ROOFLINE_HBM_TBPS),
		     pr_mnum(roof, PRK_PERF_MODEL_ROOFLINE_RIDGE_FLOP_PER_BYTE));
	else
		emit(out, "  device %s: not in the table of peaks",
		     *pr_mstr(dev, PRK_PERF_MODEL_DEVICE_NAME)
			     ? pr_mstr(dev, PRK_PERF_MODEL_DEVICE_NAME)
			     : "unknown");
	fprintf(out, "  %-14s %6s %10s %6s %9s %7s\n", "category", "ops", "time", "share",
		"TFLOP/s", "TB/s");
	json_array_foreach (json_object_get(pm, PRK_PERF_MODEL_CATEGORIES), i, v) {
		emit(out, "  %-14s %6lld %10s %5.1f%% %9s %7s",
		     pr_mstr(v, PRK_PERF_MODEL_CATEGORIES_CATEGORY),
		     pr_mll(v, PRK_PERF_MODEL_CATEGORIES_OPS),
		     secs(pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_DEVICE_NS), a, sizeof(a)),
		     pr_mnum(v, PRK_PERF_MODEL_CATEGORIES_PCT),
		     pm_num(v, PRK_PERF_MODEL_CATEGORIES_TFLOPS, 0, b, sizeof(b)),
		     pm_num(v, PRK_PERF_MODEL_CATEGORIES_TBPS, 0, c, sizeof(c)));
	}
	groups = json_object_get(pm, PRK_PERF_MODEL_GROUPS);
	if (!json_array_size(groups))
		return;
	lab = column_of(groups, PRK_PERF_MODEL_GROUPS_NAME, 30, 5);
	fprintf(out, "  %-30s %10s %8s %6s %6s %6s\n", "top ops", "time", "TFLOP/s", "%peak",
		"TB/s", "%bw");
	json_array_foreach (groups, i, g) {
		if (i == 5)
			break;
		emit(out, "  %-30s %10s %8s %6s %6s %6s", lab[i],
		     secs(pr_mnum(g, PRK_PERF_MODEL_GROUPS_DEVICE_NS), a, sizeof(a)),
		     pm_num(g, PRK_PERF_MODEL_GROUPS_TFLOPS, 0, b, sizeof(b)),
		     pm_num(g, PRK_PERF_MODEL_GROUPS_PCT_PEAK_FLOPS, 1, c, sizeof(c)),
		     pm_num(g, PRK_PERF_MODEL_GROUPS_TBPS, 0, d, sizeof(d)),
		     pm_num(g, PRK_PERF_MODEL_GROUPS_PCT_PEAK_BW, 1, e, sizeof(e)));
	}
	free(lab);
}

/* Under a collective's row: its op, dtype and group (nccl-tests' bus bandwidth factor). */
static void collective_op(FILE *out, const json_t *v)
{
	if (json_is_string(json_object_get(v, PRK_COLLECTIVES_ITEMS_OP)))
		emit(out, "    %s, %s, group of %.0f; busbw = algbw x %s",
		     pr_mstr(v, PRK_COLLECTIVES_ITEMS_OP), pr_mstr(v, PRK_COLLECTIVES_ITEMS_DTYPE),
		     pr_mnum(v, PRK_COLLECTIVES_ITEMS_GROUP_SIZE),
		     pr_mstr(v, PRK_COLLECTIVES_ITEMS_BUSBW_FACTOR));
}

/* Collectives: time, bytes per call and nccl-tests' algbw/busbw where the spans carry sizes. */
static void collectives(const json_t *run, FILE *out)
{
	json_t *items =
		json_object_get(json_object_get(run, PRK_COLLECTIVES), PRK_COLLECTIVES_ITEMS);
	if (!json_array_size(items))
		return;
	heading(out, "Collectives (bandwidth includes waiting for the other ranks)");
	text_table(out, &pr_table_collectives, items, NULL, collective_op);
}

/*
 * The CUPTI range profiler's counters (cupti_ranges): ranges, their link to the launches, the
 * replay time kept out of GPU time, the counters' totals (at most 8) and the ops by FLOPs.
 */
#define RANGE_COUNTERS_SHOWN 8
static void cupti_ranges(const json_t *run, FILE *out)
{
	const json_t *cr = json_object_get(run, PRK_CUPTI_RANGES);
	json_t *cs = json_object_get(cr, PRK_CUPTI_RANGES_COUNTERS),
	       *ops = json_object_get(cr, PRK_CUPTI_RANGES_BY_OP), *v;
	char a[32];
	size_t i;
	if (!cr)
		return;
	heading(out, "CUPTI range profiler (counters per kernel range, not time)");
	pr_fmt_duration(pr_mnum(cr, PRK_CUPTI_RANGES_REPLAY_NS), a, sizeof(a));
	emit(out, "  %.0f ranges, %.0f of them linked to their cudaLaunchKernel call (of %.0f)",
	     pr_mnum(cr, PRK_CUPTI_RANGES_RANGES), pr_mnum(cr, PRK_CUPTI_RANGES_LINKED),
	     pr_mnum(cr, PRK_CUPTI_RANGES_LAUNCHES));
	emit(out, "  replay %s: kept out of GPU time and utilisation", a);
	if (json_is_number(json_object_get(cr, PRK_CUPTI_RANGES_FLOPS)))
		emit(out, "  FLOPs (HTA's SASS instruction counters, FMA x 2) %.6g",
		     pr_mnum(cr, PRK_CUPTI_RANGES_FLOPS));
	json_array_foreach (cs, i, v) {
		if (i == RANGE_COUNTERS_SHOWN) {
			emit(out, "  ... %zu more counters", json_array_size(cs) - i);
			break;
		}
		emit(out, "  %-56s %14.6g", pr_mstr(v, PRK_CUPTI_RANGES_COUNTERS_NAME),
		     pr_mnum(v, PRK_CUPTI_RANGES_COUNTERS_TOTAL));
	}
	if (json_array_size(ops))
		text_table(out, &pr_table_cupti_ops, ops, NULL, NULL);
}

static void top_spans(const json_t *run, FILE *out)
{
	json_t *top =
		json_object_get(json_object_get(run, PRK_BOTTLENECKS), PRK_BOTTLENECKS_TOP_SELF);
	const char *u = pr_run_span_unit(run);
	if (!json_array_size(top))
		return;
	/* spans.unit: bytes for DHAT's byte-weighted sites, never printed as a time */
	heading(out, strcmp(u, "ns") ? "Top frames by self weight" : "Top spans by self time");
	if (strcmp(u, "ns") && strcmp(u, "bytes")) {
		/* counts (page faults, samples): bare numbers fit the columns */
		emit(out, "  (weights: %s, not time)", u);
		u = "count";
	}
	if (*pr_mstr(json_object_get(run, PRK_SPANS), PRK_SPANS_EVENT))
		emit(out, "  (perf event %s only: each event weighs its own unit, never summed)",
		     pr_mstr(json_object_get(run, PRK_SPANS), PRK_SPANS_EVENT));
	text_table(out, &pr_table_spans, top, u, NULL);
}

static void bottlenecks(const json_t *run, FILE *out)
{
	json_t *b = json_object_get(run, PRK_BOTTLENECKS), *v, *st, *sr, *mp;
	json_t *stages = json_object_get(json_object_get(b, PRK_BOTTLENECKS_STAGES),
					 PRK_BOTTLENECKS_STAGES_ITEMS);
	json_t *pr = json_object_get(json_object_get(b, PRK_BOTTLENECKS_MEMORY_PRESSURE),
				     PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS);
	json_t *gk = json_object_get(b, PRK_BOTTLENECKS_GPU_KERNELS);
	char a[32], e[64];
	size_t i;
	if (json_array_size(stages)) {
		int step = !strcmp(pr_mstr(json_object_get(b, PRK_BOTTLENECKS_STAGES),
					   PRK_BOTTLENECKS_STAGES_BASIS),
				   "step");
		json_array_foreach (stages, i, st) /* Inferix's stages are shares of the run */
			step = step && strcmp(pr_mstr(st, PRK_BOTTLENECKS_STAGES_ITEMS_SOURCE),
					      "inferix stages");
		heading(out, step ? "Bottlenecks (phases over 30% of the step, its structure "
				    "aside)"
				  : "Bottlenecks (phases or stages over 30% of the run)");
		json_array_foreach (stages, i, st)
			emit(out, "  %-40s %6.1f%%  %s",
			     name_fit(pr_mstr(st, PRK_BOTTLENECKS_STAGES_ITEMS_NAME), 40, e,
				      sizeof(e)),
			     pr_mnum(st, PRK_BOTTLENECKS_STAGES_ITEMS_SHARE) * 100,
			     secs(pr_mnum(st, PRK_BOTTLENECKS_STAGES_ITEMS_TOTAL_NS), a,
				  sizeof(a)));
	}
	json_array_foreach (json_object_get(json_object_get(b, PRK_BOTTLENECKS_STAGES),
					    PRK_BOTTLENECKS_STAGES_STRUCTURE),
			    i, sr) {
		if (!i)
			heading(out, "Step structure (phases of the step, not bottlenecks)");
		emit(out, "  %-40s %6.1f%%",
		     name_fit(pr_mstr(sr, PRK_BOTTLENECKS_STAGES_STRUCTURE_NAME), 40, e, sizeof(e)),
		     pr_mnum(sr, PRK_BOTTLENECKS_STAGES_STRUCTURE_SHARE) * 100);
	}
	if (json_array_size(pr)) {
		heading(out, "Memory pressure (low < 70%, medium 70-85%, high >= 85%)");
		json_array_foreach (pr, i, mp) {
			json_t *z =
				json_object_get(mp, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_ZONES);
			series_label(pr_mstr(mp, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_SERIES),
				     pr_mstr(mp, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_DEVICE), e,
				     sizeof(e));
			emit(out,
			     "  %-25s peak %5.1f%% mean %5.1f%%  low %3.0f%% med %3.0f%% high %3.0f%%",
			     pr_elide_end(e, 25, a, sizeof(a)),
			     pr_mnum(mp, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_PEAK_PCT),
			     pr_mnum(mp, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_MEAN_PCT),
			     pr_mnum(z, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_ZONES_LOW) * 100,
			     pr_mnum(z, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_ZONES_MEDIUM) * 100,
			     pr_mnum(z, PRK_BOTTLENECKS_MEMORY_PRESSURE_ITEMS_ZONES_HIGH) * 100);
		}
	}
	json_array_foreach (json_object_get(b, PRK_BOTTLENECKS_GPU_UTIL), i, v) {
		if (!i)
			heading(out, "GPU utilisation");
		emit(out, "  %-10s mean %5.1f%%  max %5.1f%%  idle (0%%) in %.0f%% of samples",
		     pr_mstr(v, PRK_BOTTLENECKS_GPU_UTIL_DEVICE),
		     pr_mnum(v, PRK_BOTTLENECKS_GPU_UTIL_MEAN_PCT),
		     pr_mnum(v, PRK_BOTTLENECKS_GPU_UTIL_MAX_PCT),
		     pr_mnum(v, PRK_BOTTLENECKS_GPU_UTIL_IDLE_SHARE) * 100);
	}
	if (json_is_object(gk)) {
		heading(out, "GPU kernels");
		emit(out, "  busy %.1f%% of the active range %s",
		     (1 - pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_IDLE_SHARE)) * 100,
		     secs(pr_mnum(gk, PRK_BOTTLENECKS_GPU_KERNELS_ACTIVE_NS), a, sizeof(a)));
		emit(out, "  %lld gaps > 500 ms; %lld of %lld chunks < 50%% busy",
		     pr_mll(gk, PRK_BOTTLENECKS_GPU_KERNELS_GAPS_OVER_500MS),
		     pr_mll(gk, PRK_BOTTLENECKS_GPU_KERNELS_CHUNKS_UNDER_50PCT),
		     pr_mll(gk, PRK_BOTTLENECKS_GPU_KERNELS_CHUNKS));
	}
}

/* 1 when an earlier leaking item of items has the same series and device as items[i]. */
static int leak_seen(const json_t *items, size_t i)
{
	const json_t *v = json_array_get(items, i), *w;
	size_t j;
	for (j = 0; j < i; j++) {
		w = json_array_get(items, j);
		if (json_is_true(json_object_get(w, PRK_LEAKS_ITEMS_LEAK)) &&
		    !strcmp(pr_mstr(w, PRK_LEAKS_ITEMS_SERIES),
			    pr_mstr(v, PRK_LEAKS_ITEMS_SERIES)) &&
		    !strcmp(pr_mstr(w, PRK_LEAKS_ITEMS_DEVICE), pr_mstr(v, PRK_LEAKS_ITEMS_DEVICE)))
			return 1;
	}
	return 0;
}

/*
 * Leaks: one line per leaking series and device (its first leaking basis,
 * the others named after it), then the memory series not checked because
 * the run does not own them.
 */
static void leaks(const json_t *run, FILE *out)
{
	const json_t *lk = json_object_get(run, PRK_LEAKS),
		     *items = json_object_get(lk, PRK_LEAKS_ITEMS), *v, *w, *x;
	const json_t *ex = json_object_get(lk, PRK_LEAKS_EXCLUDED);
	struct pr_strbuf sb = PR_STRBUF_INIT;
	size_t i, j, shown = 0;
	char a[32];
	json_array_foreach (items, i, v) {
		size_t more = 0;
		if (!json_is_true(json_object_get(v, PRK_LEAKS_ITEMS_LEAK)) || leak_seen(items, i))
			continue;
		if (!shown++)
			heading(out,
				"Leaks (memory the run owns, growing per step or repeated phase)");
		pr_strbuf_reset(&sb);
		pr_strbuf_addf(&sb, "%s%s%s grows %s per %s (R^2 %.2f, %lld occurrences)",
			       pr_mstr(v, PRK_LEAKS_ITEMS_SERIES),
			       *pr_mstr(v, PRK_LEAKS_ITEMS_DEVICE) ? " " : "",
			       pr_mstr(v, PRK_LEAKS_ITEMS_DEVICE),
			       val(pr_mnum(v, PRK_LEAKS_ITEMS_SLOPE_PER_OCCURRENCE), "bytes", a,
				   sizeof(a)),
			       strcmp(pr_mstr(v, PRK_LEAKS_ITEMS_BASIS), "steps")
				       ? pr_mstr(v, PRK_LEAKS_ITEMS_BASIS)
				       : "step",
			       pr_mnum(v, PRK_LEAKS_ITEMS_R2),
			       pr_mll(v, PRK_LEAKS_ITEMS_OCCURRENCES));
		for (j = i + 1; j < json_array_size(items); j++) {
			w = json_array_get(items, j);
			if (!json_is_true(json_object_get(w, PRK_LEAKS_ITEMS_LEAK)) ||
			    strcmp(pr_mstr(w, PRK_LEAKS_ITEMS_SERIES),
				   pr_mstr(v, PRK_LEAKS_ITEMS_SERIES)) ||
			    strcmp(pr_mstr(w, PRK_LEAKS_ITEMS_DEVICE),
				   pr_mstr(v, PRK_LEAKS_ITEMS_DEVICE)))
				continue;
			if (more++ < 4)
				pr_strbuf_addf(&sb, "%s%s", more == 1 ? "; also per " : ", ",
					       pr_mstr(w, PRK_LEAKS_ITEMS_BASIS));
		}
		if (more > 4)
			pr_strbuf_addf(&sb, " and %zu more", more - 4);
		pr_text_wrap(out, sb.buf, 2);
	}
	if (json_array_size(ex)) {
		if (!shown)
			heading(out, "Leaks");
		pr_strbuf_reset(&sb);
		pr_strbuf_addstr(&sb, "not checked (not the run's own memory):");
		json_array_foreach (ex, i, x)
			pr_strbuf_addf(&sb, "%s %s%s%s (%s)", i ? "," : "",
				       pr_mstr(x, PRK_LEAKS_EXCLUDED_SERIES),
				       *pr_mstr(x, PRK_LEAKS_EXCLUDED_DEVICE) ? " " : "",
				       pr_mstr(x, PRK_LEAKS_EXCLUDED_DEVICE),
				       pr_mstr(x, PRK_LEAKS_EXCLUDED_SCOPE));
		pr_text_wrap(out, sb.buf, 2);
	}
	pr_strbuf_release(&sb);
}

static void fragmentation_and_leaks(const json_t *run, FILE *out)
{
	json_t *v, *l;
	size_t i, j;
	char a[32], b[32];
	json_array_foreach (json_object_get(run, PRK_FRAGMENTATION), i, v) {
		if (!i)
			heading(out, "Fragmentation ((reserved - allocated) / reserved)");
		emit(out, "  %-8s mean %5.1f%%  p95 %5.1f%%  max %5.1f%%  largest gap %s",
		     pr_mstr(v, PRK_FRAGMENTATION_DEVICE),
		     pr_mnum(v, PRK_FRAGMENTATION_MEAN_RATIO) * 100,
		     pr_mnum(v, PRK_FRAGMENTATION_P95_RATIO) * 100,
		     pr_mnum(v, PRK_FRAGMENTATION_MAX_RATIO) * 100,
		     val(pr_mnum(v, PRK_FRAGMENTATION_MAX_GAP), "bytes", a, sizeof(a)));
		json_array_foreach (json_object_get(v, PRK_FRAGMENTATION_LAYERS), j, l)
			emit(out, "    layer %-24s mean %5.1f%%  (collector: %s)",
			     pr_mstr(l, PRK_FRAGMENTATION_LAYERS_LAYER),
			     pr_mnum(l, PRK_FRAGMENTATION_LAYERS_MEAN_RATIO) * 100,
			     json_is_number(
				     json_object_get(l,
						     PRK_FRAGMENTATION_LAYERS_REPORTED_AVG_RATIO))
				     ? (snprintf(
						b, sizeof(b), "%.1f%%",
						pr_mnum(l,
							PRK_FRAGMENTATION_LAYERS_REPORTED_AVG_RATIO) *
							100),
					b)
				     : "-");
	}
	leaks(run, out);
}

/* Words of text from column indent, continuation lines from column cont, at most W wide. */
static void wrap(FILE *out, const char *text, int indent, int cont)
{
	int col = indent, room = W - cont > 8 ? W - cont : 8, first = 1;
	fprintf(out, "%*s", indent, "");
	while (*text) {
		size_t w = strcspn(text, " ");
		if (!first && col + 1 + (int)w > W) {
			fprintf(out, "\n%*s", cont, "");
			col = cont;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		first = 0;
		/* a word longer than a line is broken (at a UTF-8 character boundary) */
		while ((int)w > room || col + (int)w > W) {
			size_t k = (size_t)(W - col > 1 ? W - col : 1);
			while (k > 1 && ((unsigned char)text[k] & 0xC0) == 0x80)
				k--;
			fprintf(out, "%.*s\n%*s", (int)k, text, cont, "");
			col = cont;
			text += k;
			w -= k;
		}
		fprintf(out, "%.*s", (int)w, text);
		col += (int)w;
		text += w;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

void pr_text_wrap(FILE *out, const char *text, int indent)
{
	wrap(out, text, indent, indent);
}

/* 4 significant digits, whole numbers from 10^4 up (no exponent below 10^9), then the unit. */
static void num(double v, const char *unit, char *buf, size_t n)
{
	if (fabs(v) >= 1e4 && fabs(v) < 1e9)
		snprintf(buf, n, "%.0f %s", v, unit);
	else
		snprintf(buf, n, "%.4g %s", v, unit);
}

static void crosscheck(const json_t *run, FILE *out)
{
	json_t *v;
	size_t i;
	char a[48], b[48], e[64];
	json_array_foreach (json_object_get(run, PRK_CROSSCHECK), i, v) {
		const char *u = pr_mstr(v, PRK_CROSSCHECK_UNIT);
		if (!i)
			heading(out, "Collector's numbers vs recomputed");
		if (!strcmp(u, "bytes")) {
			val(pr_mnum(v, PRK_CROSSCHECK_REPORTED), u, a, sizeof(a));
			val(pr_mnum(v, PRK_CROSSCHECK_RECOMPUTED), u, b, sizeof(b));
		} else {
			num(pr_mnum(v, PRK_CROSSCHECK_REPORTED), u, a, sizeof(a));
			num(pr_mnum(v, PRK_CROSSCHECK_RECOMPUTED), u, b, sizeof(b));
		}
		if (isnan(pr_mnum(v, PRK_CROSSCHECK_RECOMPUTED)))
			snprintf(b, sizeof(b), "absent");
		emit(out, "  %s %-40s %14s %14s",
		     json_is_true(json_object_get(v, PRK_CROSSCHECK_AGREE)) ? "ok  " : "DIFF",
		     pr_elide_end(pr_mstr(v, PRK_CROSSCHECK_TOPIC), 40, e, sizeof(e)), a, b);
		if (!json_is_true(json_object_get(v, PRK_CROSSCHECK_AGREE)))
			pr_text_wrap(out, pr_mstr(v, PRK_CROSSCHECK_REASON), 7);
	}
	(void)series_unit;
}

static void recommendations(const json_t *run, FILE *out)
{
	json_t *v;
	size_t i;
	char line[700];
	json_array_foreach (json_object_get(run, PRK_RECOMMENDATIONS), i, v) {
		if (!i)
			heading(out, "Recommendations");
		snprintf(line, sizeof(line), "[%s] %s: %s (%s)",
			 pr_mstr(v, PRK_RECOMMENDATIONS_SEVERITY),
			 pr_mstr(v, PRK_RECOMMENDATIONS_CATEGORY),
			 pr_mstr(v, PRK_RECOMMENDATIONS_MESSAGE),
			 pr_mstr(v, PRK_RECOMMENDATIONS_ID));
		pr_text_wrap(out, line, 2);
		pr_text_wrap(out, pr_mstr(v, PRK_RECOMMENDATIONS_SUGGESTION), 6);
	}
}

static void diagnostics(const json_t *run, FILE *out)
{
	json_t *v;
	size_t i;
	char line[900];
	json_array_foreach (json_object_get(run, PRK_DIAGNOSTICS), i, v) {
		if (!i)
			heading(out, "Diagnostics");
		snprintf(line, sizeof(line), "%s (x%lld): %s", pr_mstr(v, PRK_DIAGNOSTICS_CODE),
			 pr_mll(v, PRK_DIAGNOSTICS_COUNT), pr_mstr(v, PRK_DIAGNOSTICS_MESSAGE));
		pr_text_wrap(out, line, 2);
	}
}

/* A run with steps or GPU work is a trace: what it is read for is its step time and GPU time. */
static int trace_like(const json_t *run)
{
	const json_t *steps =
		json_object_get(json_object_get(run, PRK_THROUGHPUT), PRK_THROUGHPUT_STEPS);
	return json_is_object(json_object_get(run, PRK_GPU_BREAKDOWN)) ||
	       (json_is_object(steps) && pr_mnum(steps, PRK_THROUGHPUT_STEPS_COUNT) > 0);
}

static void render_text_report(const json_t *model, FILE *out)
{
	json_t *run;
	size_t i;
	json_array_foreach (json_object_get(model, PRK_RUNS), i, run) {
		if (i)
			fputc('\n', out);
		header(run, out);
		if (trace_like(run)) {
			/* a trace leads with its step time, the GPU, the top spans and the findings */
			throughput(run, out);
			gpu(run, out);
			cupti_ranges(run, out);
			critical_path(run, out);
			perf_model(run, out);
			top_spans(run, out);
			recommendations(run, out);
			phases(run, out);
			peaks(run, out);
			alloc_tree(run, out);
			cuda_snapshot(run, out);
			memstats(run, out);
			disk(run, out);
			other_series(run, out);
		} else {
			/* a memory timeline leads with its peak and the findings */
			peaks(run, out);
			heap_totals(run, out);
			counters(run, out);
			alloc_tree(run, out);
			cuda_snapshot(run, out);
			recommendations(run, out);
			memstats(run, out);
			disk(run, out);
			other_series(run, out);
			phases(run, out);
			throughput(run, out);
			gpu(run, out);
			cupti_ranges(run, out);
			critical_path(run, out);
			perf_model(run, out);
			top_spans(run, out);
		}
		bottlenecks(run, out);
		collectives(run, out);
		fragmentation_and_leaks(run, out);
		crosscheck(run, out);
		diagnostics(run, out);
	}
	if (!json_array_size(json_object_get(model, PRK_RUNS)))
		fputs("no runs\n", out);
}

static void render_text_report_cb(const void *arg, FILE *out)
{
	render_text_report(arg, out);
}

/* Trace names are escaped for the terminal (termsafe.h). */
void pr_render_text_report(const json_t *model, FILE *out)
{
	pr_term_render(out, render_text_report_cb, model);
}
