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
#include "base/strbuf.h"

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
	json_array_foreach (json_object_get(run, "series"), i, s)
		if (!strcmp(pr_mstr(s, "name"), name))
			return pr_mstr(s, "unit");
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
	json_t *m = json_object_get(run, "meta"), *v;
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
	json_array_foreach (json_object_get(run, "reported"), i, m) {
		int w;
		if (strcmp(pr_mstr(m, "name"), "perf.samples") || len >= n)
			continue;
		w = snprintf(buf + len, n - len, "%s%.0f %s samples", k++ ? ", " : "",
			     pr_mnum(m, "value"), pr_mstr(m, "detail"));
		len += w > 0 ? (size_t)w : 0;
	}
	return k > 0;
}

static void header(const json_t *run, FILE *out)
{
	const json_t *clock = json_object_get(run, "clock"), *c = json_object_get(run, "counts");
	char a[64], line[W + 1], ps[200];
	int n;
	n = snprintf(line, sizeof(line), "run %lld: %s", pr_mll(run, "id"), pr_mstr(run, "label"));
	fprintf(out, "%s\n", line);
	if (n > W)
		n = W;
	for (; n > 0; n--)
		fputc('=', out);
	fputc('\n', out);
	if (json_is_integer(json_object_get(run, "rank")) &&
	    json_is_integer(json_object_get(run, "world_size")))
		emit(out, "format %s, collector %s, rank %lld of %lld", pr_mstr(run, "format"),
		     pr_mstr(run, "collector"), pr_mll(run, "rank"), pr_mll(run, "world_size"));
	else if (json_is_integer(json_object_get(run, "rank")))
		emit(out, "format %s, collector %s, rank %lld", pr_mstr(run, "format"),
		     pr_mstr(run, "collector"), pr_mll(run, "rank"));
	else
		emit(out, "format %s, collector %s", pr_mstr(run, "format"),
		     pr_mstr(run, "collector"));
	if (pr_run_x_unit(run) && json_is_number(json_object_get(clock, "duration_ns")))
		emit(out, "x axis %s (%s); %lld spans, %lld samples",
		     (pr_fmt_x(run, pr_mnum(clock, "duration_ns"), a, sizeof(a)), a),
		     !strcmp(pr_mstr(run, "format"), "dhat") ? "sites end to end, not time"
		     : !strcmp(pr_run_x_unit(run), "events")
			     ? "the allocator trace's event index: not time"
			     : "massif's time unit: not time",
		     pr_mll(c, "spans"), pr_mll(c, "samples"));
	else if (json_is_number(json_object_get(clock, "duration_ns")) &&
		 strcmp(pr_run_span_unit(run), "ns") && (profile_samples(run, ps, sizeof(ps)) || 1))
		/* a profile weighed in page faults or sample counts: its extent is no time */
		emit(out, "extent %.0f %s (weights laid end to end, not time); %s%s%lld spans",
		     pr_mnum(clock, "duration_ns"), pr_run_span_unit(run), ps, *ps ? ", " : "",
		     pr_mll(c, "spans"));
	else if (json_is_number(json_object_get(clock, "duration_ns")) &&
		 profile_samples(run, ps, sizeof(ps)))
		emit(out, "duration %s%s; %s, %lld spans",
		     secs(pr_mnum(clock, "duration_ns"), a, sizeof(a)),
		     json_is_true(json_object_get(clock, "synthetic")) ? " (synthetic clock)" : "",
		     ps, pr_mll(c, "spans"));
	else if (json_is_number(json_object_get(clock, "duration_ns")))
		emit(out, "duration %s%s; %lld spans, %lld samples, %lld instants",
		     secs(pr_mnum(clock, "duration_ns"), a, sizeof(a)),
		     json_is_true(json_object_get(clock, "synthetic")) ? " (synthetic clock)" : "",
		     pr_mll(c, "spans"), pr_mll(c, "samples"), pr_mll(c, "instants"));
	else
		emit(out, "%lld spans, %lld samples, %lld instants", pr_mll(c, "spans"),
		     pr_mll(c, "samples"), pr_mll(c, "instants"));
	run_meta(run, out);
}

static void peaks(const json_t *run, FILE *out)
{
	json_t *arr = json_object_get(run, "peaks"), *p;
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
		const char *l = pr_mstr(p, "label");
		series_label(*l ? l : pr_mstr(p, "series"), pr_mstr(p, "device"), full[i],
			     PR_LABEL);
		names[i] = full[i];
	}
	pr_elide_column(lab, names, n, 26, 0);
	json_array_foreach (arr, i, p) {
		json_t *ph = json_object_get(p, "phase"), *sp = json_object_get(p, "span");
		json_t *hb = json_object_get(p, "held_by");
		pr_fmt_x(run, pr_mnum(p, "t_ns"), b, sizeof(b));
		if (json_is_object(ph))
			emit(out, "  %-26s %12s at %-11s in %s", lab[i],
			     val(pr_mnum(p, "value"), pr_mstr(p, "unit"), a, sizeof(a)), b,
			     name_fit(pr_mstr(ph, "name"), 20, d, sizeof(d)));
		else
			emit(out, "  %-26s %12s at %s", lab[i],
			     val(pr_mnum(p, "value"), pr_mstr(p, "unit"), a, sizeof(a)), b);
		/* the series' own name under its label, then what holds the peak, by which rule */
		if (!json_is_object(hb))
			hb = json_is_object(sp) ? sp : NULL;
		fprintf(out, "    %s", pr_mstr(p, "series"));
		if (hb)
			fprintf(out, "; held by %s (%s)",
				name_fit(pr_mstr(hb, "name"), 30, d, sizeof(d)),
				pr_mstr(hb, "kind"));
		fputc('\n', out);
		if (json_is_object(hb) && isfinite(pr_mnum(hb, "share"))) {
			pr_fmt_bytes(pr_mnum(hb, "untracked_bytes"), a, sizeof(a));
			fprintf(out, "      %s: %.1f%% of the peak; %s untracked\n",
				pr_mstr(hb, "rule"), pr_mnum(hb, "share") * 100, a);
		} else if (*pr_mstr(hb, "rule")) {
			fprintf(out, "      by the %s at the peak\n", pr_mstr(hb, "rule"));
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
	const json_t *h = json_object_get(run, "heap_totals");
	const char *u = pr_mstr(h, "unit"), *tu = pr_mstr(h, "t_unit"), *mode = pr_mstr(h, "mode");
	char a[40], b[40];
	if (!json_is_object(h))
		return;
	heading(out, !strcmp(mode, "heap") ? "Heap totals (valgrind DHAT)"
					   : "Program totals (valgrind DHAT)");
	val(pr_mnum(h, "total_bytes"), u, a, sizeof(a));
	emit(out, "  %-16s %12s (%.0f %s) in %.0f %s",
	     !strcmp(mode, "copy")   ? "copied in all"
	     : !strcmp(mode, "heap") ? "allocated in all"
				     : "counted in all",
	     a, pr_mnum(h, "total_bytes"), !strcmp(u, "bytes") ? "bytes" : "units",
	     pr_mnum(h, "total_blocks"), !strcmp(mode, "heap") ? "blocks" : "events");
	if (json_is_number(json_object_get(h, "peak_bytes"))) {
		val(pr_mnum(h, "peak_bytes"), u, a, sizeof(a));
		emit(out, "  peak at t-gmax   %12s (%.0f %s) in %.0f blocks", a,
		     pr_mnum(h, "peak_bytes"), !strcmp(u, "bytes") ? "bytes" : "units",
		     pr_mnum(h, "peak_blocks"));
	}
	if (json_is_number(json_object_get(h, "end_bytes"))) {
		val(pr_mnum(h, "end_bytes"), u, a, sizeof(a));
		emit(out, "  live at t-end    %12s (%.0f %s)", a, pr_mnum(h, "end_bytes"),
		     !strcmp(u, "bytes") ? "bytes" : "units");
	}
	val(pr_mnum(h, "end_t"), *tu ? tu : "count", b, sizeof(b));
	if (json_is_number(json_object_get(h, "peak_t"))) {
		val(pr_mnum(h, "peak_t"), *tu ? tu : "count", a, sizeof(a));
		emit(out, "  t-gmax at %s; t-end at %s", a, b);
	} else if (json_is_number(json_object_get(h, "end_t"))) {
		emit(out, "  t-end at %s", b);
	}
}

/*
 * perf stat's counters (model "counters"): a totals file's counts as perf
 * printed them, or an interval file's sums over the intervals.
 */
static void counters(const json_t *run, FILE *out)
{
	const json_t *c = json_object_get(run, "counters"), *v;
	int iv = json_is_number(
		json_object_get(json_array_get(json_object_get(c, "items"), 0), "intervals"));
	char a[40], b[40], d[40], e[40], name[64];
	size_t i;
	if (!json_array_size(json_object_get(c, "items")))
		return;
	heading(out, iv ? "Counters (perf stat -I: sums over the intervals)"
			: "Counters (perf stat totals)");
	if (iv)
		fprintf(out, "  %-22s %12s %11s %11s %11s %5s\n", "event", "total", "mean", "max",
			"max at", "n");
	else
		fprintf(out, "  %-24s %12s %8s  %s\n", "event", "total", "counted",
			"perf's metric");
	json_array_foreach (json_object_get(c, "items"), i, v) {
		const char *u = pr_mstr(v, "unit");
		snprintf(name, sizeof(name), "%s%s%s", pr_mstr(v, "event"),
			 *pr_mstr(v, "device") ? " " : "", pr_mstr(v, "device"));
		val(pr_mnum(v, "total"), u, a, sizeof(a));
		if (iv) {
			val(pr_mnum(v, "mean"), u, b, sizeof(b));
			val(pr_mnum(v, "max"), u, d, sizeof(d));
			pr_fmt_x(run, pr_mnum(v, "t_max_ns"), e, sizeof(e));
			emit(out, "  %-22s %12s %11s %11s %11s %5lld", name, a, b, d, e,
			     pr_mll(v, "intervals"));
		} else {
			val(pr_mnum(v, "metric"), pr_mstr(v, "metric_unit"), d, sizeof(d));
			snprintf(b, sizeof(b), "%.1f%%", pr_mnum(v, "counted_pct"));
			emit(out, "  %-24s %12s %8s  %s", name, a, b,
			     json_is_number(json_object_get(v, "metric")) ? d : "-");
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
	const json_t *t = json_object_get(run, "alloc_tree"), *v;
	size_t i, rows = 0, cut = 0;
	char a[40], b[48], c[96];
	if (!json_is_object(t))
		return;
	pr_fmt_x(run, pr_mnum(t, "t_ns"), b, sizeof(b));
	fputc('\n', out);
	emit(out, "Peak allocation tree (massif snapshot %lld at %s)", pr_mll(t, "snapshot"), b);
	val(pr_mnum(t, "heap"), "bytes", a, sizeof(a));
	val(pr_mnum(t, "heap_extra"), "bytes", b, sizeof(b));
	emit(out, "  heap %s (+%s allocator overhead), depth first:", a, b);
	json_array_foreach (json_object_get(t, "nodes"), i, v) {
		long long depth = pr_mll(v, "depth");
		int ind = 2 * (int)(depth > 1 ? depth - 1 : 0);
		if (depth > TREE_DEPTH || rows >= TREE_ROWS) {
			cut++;
			continue;
		}
		rows++;
		fprintf(out, "  %10s %5.1f%%  %*s%s\n",
			val(pr_mnum(v, "bytes"), "bytes", a, sizeof(a)), pr_mnum(v, "share") * 100,
			ind, "",
			pr_elide_end(pr_mstr(v, "label"), (size_t)(W - 21 - ind), c, sizeof(c)));
	}
	cut += (size_t)(pr_mll(t, "nodes_more") > 0 ? pr_mll(t, "nodes_more") : 0);
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
	const json_t *cs = json_object_get(run, "cuda_snapshot"), *d, *v;
	size_t i, j;
	char a[40], b[40], c[40], e[40], f[96];
	if (!json_is_object(cs))
		return;
	json_array_foreach (json_object_get(cs, "devices"), i, d) {
		const json_t *seg = json_object_get(d, "segments"),
			     *pk = json_object_get(d, "peak");
		const json_t *hist = json_object_get(d, "history");
		const json_t *ooms = json_object_get(d, "ooms");
		fputc('\n', out);
		emit(out, "CUDA memory snapshot, %s (torch allocator)", pr_mstr(d, "device"));
		emit(out, "  reserved %s, allocated %s, active %s, requested %s",
		     val(pr_mnum(d, "reserved"), "bytes", a, sizeof(a)),
		     val(pr_mnum(d, "allocated"), "bytes", b, sizeof(b)),
		     val(pr_mnum(d, "active"), "bytes", c, sizeof(c)),
		     val(pr_mnum(d, "requested"), "bytes", e, sizeof(e)));
		emit(out,
		     "  %lld segment(s) (%lld large, %lld small); blocks:", pr_mll(seg, "count"),
		     pr_mll(seg, "large"), pr_mll(seg, "small"));
		json_array_foreach (json_object_get(d, "blocks"), j, v)
			emit(out, "    %-20s %6lld %10s", pr_mstr(v, "state"), pr_mll(v, "count"),
			     val(pr_mnum(v, "bytes"), "bytes", a, sizeof(a)));
		emit(out,
		     "  free inside segments %s, largest free block %s: external "
		     "fragmentation %.1f%%",
		     val(pr_mnum(d, "free_in_segments"), "bytes", a, sizeof(a)),
		     val(pr_mnum(d, "largest_free_block"), "bytes", b, sizeof(b)),
		     pr_mnum(d, "external_fragmentation") * 100);
		json_array_foreach (json_object_get(d, "pools"), j, v)
			emit(out, "  pool %-14s %lld segment(s), reserved %s, allocated %s",
			     pr_mstr(v, "pool"), pr_mll(v, "segments"),
			     val(pr_mnum(v, "reserved"), "bytes", a, sizeof(a)),
			     val(pr_mnum(v, "allocated"), "bytes", b, sizeof(b)));
		if (json_is_object(pk)) {
			if (!strcmp(pr_mstr(cs, "time"), "time_us"))
				pr_fmt_x(run, pr_mnum(pk, "t_ns"), b, sizeof(b));
			else
				snprintf(b, sizeof(b), "trace event %lld", pr_mll(pk, "event"));
			emit(out,
			     "  allocated peak %s at %s (history of %lld events; %s allocated "
			     "before it began)",
			     val(pr_mnum(pk, "allocated"), "bytes", a, sizeof(a)), b,
			     pr_mll(hist, "events"),
			     val(pr_mnum(hist, "start_allocated"), "bytes", c, sizeof(c)));
			emit(out, "    %10s %6s %6s  %s", "live", "share", "blocks",
			     "allocation site (first user frame)");
			json_array_foreach (json_object_get(pk, "sites"), j, v) {
				if (j >= SNAP_SITES)
					break;
				emit(out, "    %10s %5.1f%% %6lld  %s",
				     val(pr_mnum(v, "bytes"), "bytes", a, sizeof(a)),
				     pr_mnum(v, "share") * 100, pr_mll(v, "blocks"),
				     pr_elide_end(pr_mstr(v, "site"), (size_t)(W - 31), f,
						  sizeof(f)));
			}
			if (pr_mll(pk, "sites_more") > 0)
				emit(out, "    %10s %6s %6lld  %lld more site(s)",
				     val(pr_mnum(pk, "other_bytes"), "bytes", a, sizeof(a)), "",
				     pr_mll(pk, "other_blocks"), pr_mll(pk, "sites_more"));
			if (pr_mnum(pk, "untracked_bytes") > 0)
				emit(out, "    %10s %6s %6s  allocated before the history began",
				     val(pr_mnum(pk, "untracked_bytes"), "bytes", a, sizeof(a)), "",
				     "");
		}
		if (json_array_size(ooms)) {
			v = json_array_get(ooms, json_array_size(ooms) - 1);
			emit(out,
			     "  OOM (%zu): requested %s, largest free block %s (%s), %s free "
			     "on the device",
			     json_array_size(ooms),
			     val(pr_mnum(v, "requested"), "bytes", a, sizeof(a)),
			     val(pr_mnum(v, "largest_free_block"), "bytes", b, sizeof(b)),
			     json_is_true(json_object_get(v, "fits")) ? "it fits"
								      : "it does not fit",
			     val(pr_mnum(v, "device_free"), "bytes", c, sizeof(c)));
		}
	}
}

static void memstats(const json_t *run, FILE *out)
{
	json_t *s;
	size_t i;
	int any = 0;
	char a[32], b[40], c[32], d[32], e[32], f[300], g[32];
	json_array_foreach (json_object_get(run, "series"), i, s) {
		double first = pr_mnum(s, "first"), last = pr_mnum(s, "last"),
		       n = pr_mnum(s, "count");
		if (!json_is_true(json_object_get(s, "memory")) || !(n > 0))
			continue;
		if (!any++) {
			heading(out, "Memory statistics");
			fprintf(out, "  %-20s %10s %11s %10s %10s %10s\n", "series", "current",
				"delta", "average", "min", "max");
		}
		series_label(pr_mstr(s, "name"), pr_mstr(s, "device"), f, sizeof(f));
		if (strlen(f) > 20) {
			emit(out, "  %s", f);
			f[0] = '\0';
		}
		val(last - first, "bytes", g, sizeof(g));
		snprintf(b, sizeof(b), "%s%s", last - first >= 0 ? "+" : "", g);
		fprintf(out, "  %-20s %10s %11s %10s %10s %10s\n", f,
			val(last, "bytes", a, sizeof(a)), b,
			val(pr_mnum(s, "mean"), "bytes", c, sizeof(c)),
			val(pr_mnum(s, "min"), "bytes", d, sizeof(d)),
			val(pr_mnum(s, "max"), "bytes", e, sizeof(e)));
		val(pr_mnum(s, "max") - pr_mnum(s, "min"), "bytes", g, sizeof(g));
		if (n > 1)
			emit(out, "    range %s; %.0f samples, one every %s on average", g, n,
			     (pr_fmt_x(run,
				       (pr_mnum(s, "t_last_ns") - pr_mnum(s, "t_first_ns")) /
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
	json_array_foreach (json_object_get(run, "series"), i, s) {
		const char *n = pr_mstr(s, "name");
		if (!strcmp(n, "disk.read") || !strcmp(n, "disk.write")) {
			if (!any++)
				heading(out, "Disk I/O");
			emit(out, "  total %-5s %s%s%s (last - first of the cumulative counter)",
			     n + 5,
			     val(pr_mnum(s, "last") - pr_mnum(s, "first"), "bytes", a, sizeof(a)),
			     *pr_mstr(s, "device") ? " on " : "", pr_mstr(s, "device"));
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
	json_t *arr = json_object_get(run, "series"), *s;
	size_t n = 0, i, k = 0;
	const json_t **rows;
	const char **names;
	pr_label_t *full, *lab;
	char a[32], b[32], c[32], d[48];
	json_array_foreach (arr, i, s)
		n += !json_is_true(json_object_get(s, "memory")) && pr_mnum(s, "count") > 0 &&
		     strcmp(pr_mstr(s, "name"), "disk.read") &&
		     strcmp(pr_mstr(s, "name"), "disk.write");
	if (!n)
		return;
	rows = calloc(n, sizeof(*rows));
	names = calloc(n, sizeof(*names));
	full = calloc(n, sizeof(*full));
	lab = calloc(n, sizeof(*lab));
	if (!rows || !names || !full || !lab)
		abort();
	json_array_foreach (arr, i, s) {
		if (json_is_true(json_object_get(s, "memory")) || !(pr_mnum(s, "count") > 0) ||
		    !strcmp(pr_mstr(s, "name"), "disk.read") ||
		    !strcmp(pr_mstr(s, "name"), "disk.write"))
			continue;
		rows[k] = s;
		series_label(pr_mstr(s, "name"), pr_mstr(s, "device"), full[k], PR_LABEL);
		names[k] = full[k];
		k++;
	}
	pr_elide_column(lab, names, n, 26, 0);
	heading(out, "Series");
	/* max at: series.t_max_ns, the time of the maximum (a rate or a utilisation has no peak) */
	fprintf(out, "  %-26s %10s %10s %10s %10s %7s\n", "series", "mean", "min", "max", "max at",
		"samples");
	for (i = 0; i < n && i < SERIES_ROWS; i++) {
		const char *u = pr_mstr(rows[i], "unit");
		pr_fmt_x(run, pr_mnum(rows[i], "t_max_ns"), d, sizeof(d));
		/* sadf: sar's interval-weighted mean (its Average: line), else the samples' */
		double mean = json_is_number(json_object_get(rows[i], "mean_weighted"))
				      ? pr_mnum(rows[i], "mean_weighted")
				      : pr_mnum(rows[i], "mean");
		emit(out, "  %-26s %10s %10s %10s %10s %7lld", lab[i], val(mean, u, a, sizeof(a)),
		     val(pr_mnum(rows[i], "min"), u, b, sizeof(b)),
		     val(pr_mnum(rows[i], "max"), u, c, sizeof(c)), d, pr_mll(rows[i], "count"));
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
	double x = pr_mnum(*(json_t *const *)a, "total_ns"),
	       y = pr_mnum(*(json_t *const *)b, "total_ns");
	return x > y ? -1 : x < y;
}

/* CPU per phase (phases.occurrences[].cpu: cpu.util's samples inside each phase), if any. */
static void phases_cpu(const json_t *run, const json_t *occ, size_t nocc, FILE *out)
{
	const json_t *o;
	char c[64], name[64], shown[64];
	size_t i, any = 0;
	json_array_foreach (occ, i, o)
		any += json_is_object(json_object_get(o, "cpu"));
	if (!any)
		return;
	heading(out, "CPU per phase (cpu.util: mean and max of the samples inside each phase)");
	fprintf(out, "  %3s  %-24s %8s %8s %7s\n", "#", "phase", "mean", "max", "samples");
	json_array_foreach (occ, i, o) {
		const json_t *cpu = json_object_get(o, "cpu");
		if (nocc > PHASE_ROWS && i >= PHASE_SHOWN)
			break;
		if (!json_is_object(cpu))
			continue;
		snprintf(name, sizeof(name), "%s",
			 pr_name_display(pr_mstr(o, "name"), shown, sizeof(shown)));
		emit(out, "  %3zu  %-24s %7.1f%% %7.1f%% %7lld", i + 1,
		     pr_elide_end(name, 24, c, sizeof(c)), pr_mnum(cpu, "mean"),
		     pr_mnum(cpu, "max"), pr_mll(cpu, "samples"));
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
	json_t *tot = json_object_get(ph, "totals"), **v, *rows;
	size_t n = json_array_size(tot), i;
	long long more = pr_mll(json_object_get(ph, "totals_more"), "names");
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
	json_t *ph = json_object_get(run, "phases"), *occ = json_object_get(ph, "occurrences"), *o;
	json_t *stages = json_object_get(ph, "stages");
	char a[32], b[32], c[64], d[40];
	size_t i, nocc;
	if (json_array_size(occ)) {
		/* the memory delta is of each phase's first memory series: named once when they agree */
		const char *common = NULL;
		char hd[400];
		json_array_foreach (occ, i, o) {
			json_t *m = json_array_get(json_object_get(o, "memory"), 0);
			if (!m)
				continue;
			if (!common)
				common = pr_mstr(m, "series");
			else if (strcmp(common, pr_mstr(m, "series")))
				common = "";
		}
		nocc = json_array_size(occ) + (size_t)(pr_mll(ph, "occurrences_more") > 0
							       ? pr_mll(ph, "occurrences_more")
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
			json_t *m = json_array_get(json_object_get(o, "memory"), 0);
			char name[64], mem[96] = "";
			if (nocc > PHASE_ROWS && i >= PHASE_SHOWN)
				break;
			long long depth = pr_mll(o, "depth");
			char shown[64];
			snprintf(name, sizeof(name), "%*s%s",
				 2 * (int)(depth < 0   ? 0
					   : depth > 8 ? 8
						       : depth),
				 "", pr_name_display(pr_mstr(o, "name"), shown, sizeof(shown)));
			if (m) {
				double dl = pr_mnum(m, "delta");
				val(dl, "bytes", d, sizeof(d));
				snprintf(mem, sizeof(mem), "  %s%s%s%s", dl >= 0 ? "+" : "", d,
					 common && *common ? "" : " ",
					 common && *common ? "" : pr_mstr(m, "series"));
			}
			pr_fmt_x(run, pr_mnum(o, "t_ns"), a, sizeof(a));
			pr_fmt_x(run, pr_mnum(o, "dur_ns"), b, sizeof(b));
			emit(out, "  %3zu %10s  %-24s %10s %5.1f%%%s", i + 1, a,
			     pr_elide_end(name, 24, c, sizeof(c)), b, pr_mnum(o, "share") * 100,
			     mem);
		}
		if (nocc > PHASE_ROWS)
			fprintf(out,
				"  ... %zu more occurrences (the HTML report and report --json list them)\n",
				nocc - PHASE_SHOWN);
		if (json_is_number(json_object_get(ph, "coverage")))
			fprintf(out, "  top-level phases cover %.1f%% of the run\n",
				pr_mnum(ph, "coverage") * 100);
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
	const json_t *list = json_object_get(s, "list");
	char kind[200], k2[200];
	long long first, last;
	size_t nl = json_array_size(list);
	const char *lastname = json_is_string(json_object_get(s, "last_name"))
				       ? pr_mstr(s, "last_name") /* the list is cut */
				       : pr_mstr(json_array_get(list, nl ? nl - 1 : 0), "name");
	if (!pr_step_split(pr_mstr(s, "name"), kind, sizeof(kind), &first))
		return pr_mstr(s, "name");
	if (nl > 1 && pr_step_split(lastname, k2, sizeof(k2), &last) && !strcmp(kind, k2) &&
	    last != first)
		snprintf(buf, n, "%s #%lld-#%lld", kind, first, last);
	else
		snprintf(buf, n, "%s #%lld", kind, first);
	return buf;
}

static void throughput(const json_t *run, FILE *out)
{
	json_t *t = json_object_get(run, "throughput"), *s = json_object_get(t, "steps");
	json_t *tok = json_object_get(t, "tokens"), *bl = json_object_get(t, "blocks");
	json_t *df = json_object_get(t, "diffusion"), *v;
	char a[32], b[32], c[32], d[32], e[40], f[240];
	size_t i;
	if (!json_is_object(s) && !tok && !bl && !df)
		return;
	heading(out, "Throughput");
	if (json_is_object(s)) {
		pr_fmt_duration(pr_mnum(s, "mean_ns"), a, sizeof(a));
		pr_fmt_duration(pr_mnum(s, "p50_ns"), b, sizeof(b));
		pr_fmt_duration(pr_mnum(s, "p95_ns"), c, sizeof(c));
		pr_fmt_duration(pr_mnum(s, "p99_ns"), d, sizeof(d));
		emit(out, "  %s: %lld steps, %.2f steps/s, mean %s",
		     name_fit(steps_name(s, f, sizeof(f)), 30, e, sizeof(e)), pr_mll(s, "count"),
		     pr_mnum(s, "per_s"), a);
		fprintf(out, "    p50 %s  p95 %s  p99 %s  jitter (std/mean) %.1f%%\n", b, c, d,
			pr_mnum(s, "jitter") * 100);
		if (json_is_object(json_object_get(s, "host")) &&
		    pr_mnum(json_object_get(s, "host"), "mean_ns") != pr_mnum(s, "mean_ns")) {
			json_t *h = json_object_get(s, "host");
			pr_fmt_duration(pr_mnum(h, "mean_ns"), a, sizeof(a));
			pr_fmt_duration(pr_mnum(h, "p50_ns"), b, sizeof(b));
			emit(out, "    step time (host): mean %s, p50 %s (above: TensorBoard's)", a,
			     b);
		}
		json_array_foreach (json_object_get(s, "stragglers"), i, v) {
			pr_fmt_duration(pr_mnum(v, "dur_ns"), a, sizeof(a));
			emit(out, "    straggling step %s: %s, %.1fx the median (robust z %.1f)",
			     pr_mstr(v, "name"), a, pr_mnum(v, "x_median"), pr_mnum(v, "robust_z"));
		}
	}
	if (tok) {
		char rep[64] = "";
		if (json_is_number(json_object_get(tok, "reported_tokens_per_s")))
			snprintf(rep, sizeof(rep), " (collector: %.2f)",
				 pr_mnum(tok, "reported_tokens_per_s"));
		emit(out, "  tokens: %.0f, %.2f tokens/s over sections with tokens%s",
		     pr_mnum(tok, "total_tokens"), pr_mnum(tok, "tokens_per_s"), rep);
		json_array_foreach (json_object_get(tok, "sections"), i, v) {
			if (!json_is_number(json_object_get(v, "tokens_per_s")))
				continue;
			rep[0] = '\0';
			if (json_is_number(json_object_get(v, "reported_tokens_per_s")))
				snprintf(rep, sizeof(rep), " (collector %.2f)",
					 pr_mnum(v, "reported_tokens_per_s"));
			emit(out, "    %-20s %8.0f tokens %10.2f tokens/s%s",
			     pr_elide_end(pr_mstr(v, "section"), 20, e, sizeof(e)),
			     pr_mnum(v, "tokens"), pr_mnum(v, "tokens_per_s"), rep);
		}
	}
	if (bl)
		emit(out, "  blocks: %.0f blocks, %.0f frames: FPS %.2f, BPS %.2f, first block %s",
		     pr_mnum(bl, "count"), pr_mnum(bl, "frames"), pr_mnum(bl, "fps"),
		     pr_mnum(bl, "bps"), secs(pr_mnum(bl, "first_block_ns"), a, sizeof(a)));
	if (df)
		emit(out,
		     "  diffusion: %.0f steps, %.2f steps/s, %.2f frames/s (Inferix: %.2f, per step)",
		     pr_mnum(df, "steps"), pr_mnum(df, "steps_per_s"), pr_mnum(df, "frames_per_s"),
		     pr_mnum(df, "frame_steps_per_s"));
}

static double pct(const json_t *o, const char *key)
{
	return pr_mnum(o, key) * 100;
}

/* A stream's queue length ranks before another's: higher mean, then higher max, then model order. */
static int queue_before(const json_t *x, const json_t *y)
{
	const json_t *qx = json_object_get(x, "queue"), *qy = json_object_get(y, "queue");
	if (!json_is_object(qy))
		return json_is_object(qx);
	if (!json_is_object(qx))
		return 0;
	if (pr_mnum(qx, "mean") != pr_mnum(qy, "mean"))
		return pr_mnum(qx, "mean") > pr_mnum(qy, "mean");
	return pr_mnum(qx, "max") > pr_mnum(qy, "max");
}

/* The 3 streams with the longest mean queue (launched, not finished): mean and max. */
static void queues(const json_t *items, FILE *out)
{
	const json_t *top[3] = { NULL, NULL, NULL }, *v;
	char a[64], b[40], e[64];
	size_t i, j, k;
	json_array_foreach (items, i, v) {
		if (!json_is_object(json_object_get(v, "queue")))
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
		const json_t *q = json_object_get(top[j], "queue");
		if (!j)
			fprintf(out, "  %-30s %8s %8s %6s %12s\n", "queue length per stream",
				"mean", "HTA mean", "max", "at max");
		pr_stream_label(pr_mstr(top[j], "device"), pr_mstr(top[j], "stream"), a, sizeof(a));
		pr_fmt_duration(pr_mnum(q, "at_max_ns"), b, sizeof(b));
		emit(out, "  %-30s %8.2f %8.2f %6.0f %12s", pr_elide_end(a, 30, e, sizeof(e)),
		     pr_mnum(q, "mean"), pr_mnum(q, "sample_mean"), pr_mnum(q, "max"), b);
	}
}

/* HTA's kernel launch statistics: delay (start - call end), outliers, the op with most delay. */
static void launch_delays(const json_t *ld, FILE *out)
{
	const json_t *op = json_array_get(json_object_get(ld, "by_op"), 0);
	char a[40], b[40], e[64];
	if (!json_is_object(ld))
		return;
	emit(out, "  launch delay     mean %9s  max %10s  (HTA: start - call end)",
	     secs(pr_mnum(ld, "delay_mean_ns"), a, sizeof(a)),
	     secs(pr_mnum(ld, "delay_max_ns"), b, sizeof(b)));
	emit(out, "    %lld delays > %s, %lld calls > %s, %lld short kernels of %lld",
	     pr_mll(ld, "delay_outliers"), secs(pr_mnum(ld, "delay_cutoff_ns"), a, sizeof(a)),
	     pr_mll(ld, "runtime_outliers"), secs(pr_mnum(ld, "runtime_cutoff_ns"), b, sizeof(b)),
	     pr_mll(ld, "short_kernels"), pr_mll(ld, "launches"));
	if (json_is_object(op))
		emit(out, "    most delayed op %s: %lld launches, mean %s",
		     pr_elide_end(pr_mstr(op, "name"), 30, e, sizeof(e)), pr_mll(op, "activities"),
		     secs(pr_mnum(op, "delay_mean_ns"), a, sizeof(a)));
}

/* gpu.kernel_sequences: the repeated runs of activities worth fusing (issue 28). */
static void kernel_sequences(const json_t *ks, FILE *out)
{
	const json_t *items = json_object_get(ks, "items");
	if (!json_array_size(items))
		return;
	emit(out,
	     "  frequent kernel sequences: %lld patterns of %lld-%lld activities repeated on a stream",
	     pr_mll(ks, "patterns"), pr_mll(ks, "min_length"), pr_mll(ks, "max_length"));
	text_table(out, &pr_table_kernel_seqs, items, NULL, NULL);
}

/* gpu_breakdown.scopes: TraceLens's gpu_timeline per scope, one row each (issue 28). */
static void gpu_scopes(const json_t *sc, FILE *out)
{
	static const char *const names[] = { "all", "linked", "steps" };
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
		emit(out, "  %-6s %5lld %10s %10s %10s %10s %10s %10s", names[i], pr_mll(v, "ops"),
		     secs(pr_mnum(v, "total_ns"), t[0], sizeof(t[0])),
		     secs(pr_mnum(v, "busy_ns"), t[1], sizeof(t[1])),
		     secs(pr_mnum(v, "computation_ns"), t[2], sizeof(t[2])),
		     secs(pr_mnum(v, "exposed_memcpy_ns"), t[3], sizeof(t[3])),
		     secs(pr_mnum(v, "exposed_comm_ns"), t[4], sizeof(t[4])),
		     secs(pr_mnum(v, "idle_ns"), t[5], sizeof(t[5])));
	}
	emit(out, "    (TraceLens's gpu_timeline; linked: launched by a traced runtime call;");
	emit(out, "    steps: launched inside a ProfilerStep; *: exposed, not under compute)");
}

/* The GPU block: HTA's breakdowns, the CPU-GPU link and TensorBoard's step breakdown. */
static void gpu(const json_t *run, FILE *out)
{
	const json_t *g = json_object_get(run, "gpu"), *gb = json_object_get(run, "gpu_breakdown");
	const json_t *sb = json_object_get(run, "step_breakdown");
	const json_t *r = json_object_get(gb, "rank"), *idle = json_object_get(gb, "idle");
	const json_t *ov = json_object_get(gb, "overlap"), *k = json_object_get(gb, "kernels");
	const json_t *l = json_object_get(g, "launches");
	char a[40], b[40], c[40], d[40], e[64];
	if (!json_is_object(g) && !json_is_object(gb) && !json_is_object(sb))
		return;
	if (json_is_string(json_object_get(g, "device_type")))
		snprintf(e, sizeof(e), "GPU (%s)", pr_mstr(g, "device_type"));
	else
		snprintf(e, sizeof(e), "GPU");
	heading(out, e);
	if (json_is_object(r)) {
		emit(out, "  GPU busy %.2f%% of %s (scope all: first to last GPU op; HTA)",
		     pct(r, "busy_share"), secs(pr_mnum(r, "span_ns"), a, sizeof(a)));
		emit(out, "  compute %.1f%%  communication %.1f%%  memory %.1f%%  idle %.1f%%",
		     pct(r, "compute_share"), pct(r, "communication_share"), pct(r, "memory_share"),
		     pct(r, "idle_share"));
	}
	if (json_is_number(json_object_get(idle, "host_wait_share")))
		emit(out, "  idle: host wait %.1f%%  kernel wait %.1f%%  other %.1f%%",
		     pct(idle, "host_wait_share"), pct(idle, "kernel_wait_share"),
		     pct(idle, "other_share"));
	if (json_is_object(ov)) {
		if (json_is_number(json_object_get(ov, "share")))
			emit(out, "  comm/compute overlap %.1f%% of %s of communication kernels",
			     pct(ov, "share"), secs(pr_mnum(ov, "communication_ns"), a, sizeof(a)));
		else
			emit(out, "  comm/compute overlap: no communication kernels");
	}
	gpu_scopes(json_object_get(gb, "scopes"), out);
	if (json_array_size(json_object_get(k, "top")))
		text_table(out, &pr_table_gpu_ops, json_object_get(k, "top"), NULL, NULL);
	if (json_array_size(json_object_get(k, "memory_ops")))
		text_table(out, &pr_table_memory_ops, json_object_get(k, "memory_ops"), NULL, NULL);
	if (json_is_object(l)) {
		const json_t *lat = json_object_get(l, "latency"),
			     *oh = json_object_get(l, "overhead");
		if (json_is_object(lat))
			emit(out, "  launch latency   p50 %10s  p95 %10s  (%lld of %lld linked)",
			     secs(pr_mnum(lat, "p50_ns"), a, sizeof(a)),
			     secs(pr_mnum(lat, "p95_ns"), b, sizeof(b)), pr_mll(l, "linked"),
			     pr_mll(l, "activities"));
		if (json_is_object(oh))
			emit(out,
			     "  launch overhead  p50 %10s  p95 %10s  (CPU time per runtime call)",
			     secs(pr_mnum(oh, "p50_ns"), c, sizeof(c)),
			     secs(pr_mnum(oh, "p95_ns"), d, sizeof(d)));
	}
	launch_delays(json_object_get(g, "launch_delays"), out);
	kernel_sequences(json_object_get(g, "kernel_sequences"), out);
	queues(json_object_get(json_object_get(g, "streams"), "items"), out);
	if (json_is_object(sb)) {
		const json_t *av = json_object_get(sb, "average");
		double dur = pr_mnum(av, "dur_ns");
		size_t steps =
			json_array_size(json_object_get(sb, "steps")) +
			(size_t)(pr_mll(sb, "steps_more") > 0 ? pr_mll(sb, "steps_more") : 0);
		emit(out, "  step breakdown (TensorBoard): mean of %zu step%s, %s per step", steps,
		     steps == 1 ? "" : "s", secs(dur, a, sizeof(a)));
		if (dur > 0) {
			emit(out,
			     "    Kernel %.1f%%  Memcpy %.1f%%  Memset %.1f%%  Communication %.1f%%",
			     100 * pr_mnum(av, "kernel_ns") / dur,
			     100 * pr_mnum(av, "memcpy_ns") / dur,
			     100 * pr_mnum(av, "memset_ns") / dur,
			     100 * pr_mnum(av, "communication_ns") / dur);
			emit(out,
			     "    Runtime %.1f%%  DataLoader %.1f%%  CPU Exec %.1f%%  Other %.1f%%",
			     100 * pr_mnum(av, "runtime_ns") / dur,
			     100 * pr_mnum(av, "dataloader_ns") / dur,
			     100 * pr_mnum(av, "cpu_exec_ns") / dur,
			     100 * pr_mnum(av, "other_ns") / dur);
		}
		if (json_is_number(json_object_get(sb, "gpu_utilization")))
			emit(out, "    GPU utilisation %.1f%%", pct(sb, "gpu_utilization"));
	}
}

/* Where the trace records its waits between streams (cuda_sync): how many, and how many the
 * paths took, by method (an inferred run says nothing: the docs name the inference). */
static void critpath_waits(const json_t *cp, FILE *out)
{
	const json_t *w = json_object_get(cp, "stream_waits"), *p = json_object_get(w, "on_path");
	if (strcmp(pr_mstr(w, "rule"), "handles"))
		return;
	emit(out,
	     "  waits between streams from the trace's records: %lld by event record, %lld by "
	     "stream, %lld unmatched; on the paths %lld and %lld",
	     pr_mll(w, "event_record"), pr_mll(w, "wait_on_stream"), pr_mll(w, "unmatched"),
	     pr_mll(p, "event_record"), pr_mll(p, "wait_on_stream"));
}

/* The critical path (an_critpath.c): its length, what it is made of, what is on it most. */
static void critical_path(const json_t *run, FILE *out)
{
	const json_t *cp = json_object_get(run, "critical_path"), *c;
	static const char *const lists[2] = { "top_ops", "top_kernels" };
	char a[40];
	double len;
	size_t k;
	if (!json_is_object(cp))
		return;
	c = json_object_get(cp, "composition_ns");
	len = pr_mnum(cp, "length_ns");
	heading(out, "Critical path");
	if (!strcmp(pr_mstr(cp, "scope"), "steps"))
		emit(out, "  %lld step%s analysed, %s on %s", pr_mll(cp, "steps_analysed"),
		     pr_mll(cp, "steps_analysed") == 1 ? "" : "s", secs(len, a, sizeof(a)),
		     pr_mll(cp, "steps_analysed") == 1 ? "its path" : "their paths in all");
	else if (!strcmp(pr_mstr(cp, "scope"), "annotation"))
		emit(out,
		     "  the window of %s (instance %lld, --critpath-annotation), %s on the path",
		     pr_mstr(json_object_get(cp, "window"), "name"),
		     pr_mll(json_object_get(cp, "window"), "instance"), secs(len, a, sizeof(a)));
	else
		emit(out, "  the whole trace (no steps), %s on the path", secs(len, a, sizeof(a)));
	critpath_waits(cp, out);
	if (pr_mll(cp, "steps_over_budget") > 0 && strcmp(pr_mstr(cp, "scope"), "steps"))
		emit(out, "  no path: the trace is past the budget of %lld events",
		     pr_mll(cp, "events_budget"));
	else if (pr_mll(cp, "steps_over_budget") > 0)
		emit(out, "  %lld step%s left out: over the budget of %lld events",
		     pr_mll(cp, "steps_over_budget"),
		     pr_mll(cp, "steps_over_budget") == 1 ? "" : "s", pr_mll(cp, "events_budget"));
	if (len <= 0)
		return;
	emit(out, "  CPU ops %.1f%%  launch %.1f%%  sync %.1f%%  idle %.1f%%",
	     100 * pr_mnum(c, "cpu_op") / len, 100 * pr_mnum(c, "launch") / len,
	     100 * pr_mnum(c, "sync") / len, 100 * pr_mnum(c, "idle") / len);
	emit(out, "  kernels: compute %.1f%%  communication %.1f%%  memory %.1f%%",
	     100 * pr_mnum(c, "kernel_compute") / len,
	     100 * pr_mnum(c, "kernel_communication") / len,
	     100 * pr_mnum(c, "kernel_memory") / len);
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
	const json_t *pm = json_object_get(run, "perf_model"), *dev, *roof, *v;
	const json_t *groups;
	char a[40], b[40], c[40], d[40], e[40];
	size_t i;
	pr_label_t *lab;
	if (!json_is_object(pm))
		return;
	dev = json_object_get(pm, "device");
	roof = json_object_get(pm, "roofline");
	heading(out, "Perf model (device time of the ops that launched it)");
	if (json_is_object(roof))
		emit(out, "  %s: %s %.1f TFLOP/s, %.2f TB/s, ridge %.1f FLOP/byte",
		     pr_mstr(dev, "model"), pr_mstr(roof, "dtype"), pr_mnum(roof, "peak_tflops"),
		     pr_mnum(roof, "hbm_tbps"), pr_mnum(roof, "ridge_flop_per_byte"));
	else
		emit(out, "  device %s: not in the table of peaks",
		     *pr_mstr(dev, "name") ? pr_mstr(dev, "name") : "unknown");
	fprintf(out, "  %-14s %6s %10s %6s %9s %7s\n", "category", "ops", "time", "share",
		"TFLOP/s", "TB/s");
	json_array_foreach (json_object_get(pm, "categories"), i, v) {
		emit(out, "  %-14s %6lld %10s %5.1f%% %9s %7s", pr_mstr(v, "category"),
		     pr_mll(v, "ops"), secs(pr_mnum(v, "device_ns"), a, sizeof(a)),
		     pr_mnum(v, "pct"), pm_num(v, "tflops", 0, b, sizeof(b)),
		     pm_num(v, "tbps", 0, c, sizeof(c)));
	}
	groups = json_object_get(pm, "groups");
	if (!json_array_size(groups))
		return;
	lab = column_of(groups, "name", 30, 5);
	fprintf(out, "  %-30s %10s %8s %6s %6s %6s\n", "top ops", "time", "TFLOP/s", "%peak",
		"TB/s", "%bw");
	json_array_foreach (groups, i, v) {
		if (i == 5)
			break;
		emit(out, "  %-30s %10s %8s %6s %6s %6s", lab[i],
		     secs(pr_mnum(v, "device_ns"), a, sizeof(a)),
		     pm_num(v, "tflops", 0, b, sizeof(b)),
		     pm_num(v, "pct_peak_flops", 1, c, sizeof(c)),
		     pm_num(v, "tbps", 0, d, sizeof(d)), pm_num(v, "pct_peak_bw", 1, e, sizeof(e)));
	}
	free(lab);
}

/* Under a collective's row: its op, dtype and group (nccl-tests' bus bandwidth factor). */
static void collective_op(FILE *out, const json_t *v)
{
	if (json_is_string(json_object_get(v, "op")))
		emit(out, "    %s, %s, group of %.0f; busbw = algbw x %s", pr_mstr(v, "op"),
		     pr_mstr(v, "dtype"), pr_mnum(v, "group_size"), pr_mstr(v, "busbw_factor"));
}

/* Collectives: time, bytes per call and nccl-tests' algbw/busbw where the spans carry sizes. */
static void collectives(const json_t *run, FILE *out)
{
	json_t *items = json_object_get(json_object_get(run, "collectives"), "items");
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
	const json_t *cr = json_object_get(run, "cupti_ranges");
	json_t *cs = json_object_get(cr, "counters"), *ops = json_object_get(cr, "by_op"), *v;
	char a[32];
	size_t i;
	if (!cr)
		return;
	heading(out, "CUPTI range profiler (counters per kernel range, not time)");
	pr_fmt_duration(pr_mnum(cr, "replay_ns"), a, sizeof(a));
	emit(out, "  %.0f ranges, %.0f of them linked to their cudaLaunchKernel call (of %.0f)",
	     pr_mnum(cr, "ranges"), pr_mnum(cr, "linked"), pr_mnum(cr, "launches"));
	emit(out, "  replay %s: kept out of GPU time and utilisation", a);
	if (json_is_number(json_object_get(cr, "flops")))
		emit(out, "  FLOPs (HTA's SASS instruction counters, FMA x 2) %.6g",
		     pr_mnum(cr, "flops"));
	json_array_foreach (cs, i, v) {
		if (i == RANGE_COUNTERS_SHOWN) {
			emit(out, "  ... %zu more counters", json_array_size(cs) - i);
			break;
		}
		emit(out, "  %-56s %14.6g", pr_mstr(v, "name"), pr_mnum(v, "total"));
	}
	if (json_array_size(ops))
		text_table(out, &pr_table_cupti_ops, ops, NULL, NULL);
}

static void top_spans(const json_t *run, FILE *out)
{
	json_t *top = json_object_get(json_object_get(run, "bottlenecks"), "top_self");
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
	if (*pr_mstr(json_object_get(run, "spans"), "event"))
		emit(out, "  (perf event %s only: each event weighs its own unit, never summed)",
		     pr_mstr(json_object_get(run, "spans"), "event"));
	text_table(out, &pr_table_spans, top, u, NULL);
}

static void bottlenecks(const json_t *run, FILE *out)
{
	json_t *b = json_object_get(run, "bottlenecks"), *v;
	json_t *stages = json_object_get(json_object_get(b, "stages"), "items");
	json_t *pr = json_object_get(json_object_get(b, "memory_pressure"), "items");
	json_t *gk = json_object_get(b, "gpu_kernels");
	char a[32], e[64];
	size_t i;
	if (json_array_size(stages)) {
		int step = !strcmp(pr_mstr(json_object_get(b, "stages"), "basis"), "step");
		json_array_foreach (stages, i, v) /* Inferix's stages are shares of the run */
			step = step && strcmp(pr_mstr(v, "source"), "inferix stages");
		heading(out, step ? "Bottlenecks (phases over 30% of the step, its structure "
				    "aside)"
				  : "Bottlenecks (phases or stages over 30% of the run)");
		json_array_foreach (stages, i, v)
			emit(out, "  %-40s %6.1f%%  %s",
			     name_fit(pr_mstr(v, "name"), 40, e, sizeof(e)),
			     pr_mnum(v, "share") * 100, secs(pr_mnum(v, "total_ns"), a, sizeof(a)));
	}
	json_array_foreach (json_object_get(json_object_get(b, "stages"), "structure"), i, v) {
		if (!i)
			heading(out, "Step structure (phases of the step, not bottlenecks)");
		emit(out, "  %-40s %6.1f%%", name_fit(pr_mstr(v, "name"), 40, e, sizeof(e)),
		     pr_mnum(v, "share") * 100);
	}
	if (json_array_size(pr)) {
		heading(out, "Memory pressure (low < 70%, medium 70-85%, high >= 85%)");
		json_array_foreach (pr, i, v) {
			json_t *z = json_object_get(v, "zones");
			series_label(pr_mstr(v, "series"), pr_mstr(v, "device"), e, sizeof(e));
			emit(out,
			     "  %-25s peak %5.1f%% mean %5.1f%%  low %3.0f%% med %3.0f%% high %3.0f%%",
			     pr_elide_end(e, 25, a, sizeof(a)), pr_mnum(v, "peak_pct"),
			     pr_mnum(v, "mean_pct"), pr_mnum(z, "low") * 100,
			     pr_mnum(z, "medium") * 100, pr_mnum(z, "high") * 100);
		}
	}
	json_array_foreach (json_object_get(b, "gpu_util"), i, v) {
		if (!i)
			heading(out, "GPU utilisation");
		emit(out, "  %-10s mean %5.1f%%  max %5.1f%%  idle (0%%) in %.0f%% of samples",
		     pr_mstr(v, "device"), pr_mnum(v, "mean_pct"), pr_mnum(v, "max_pct"),
		     pr_mnum(v, "idle_share") * 100);
	}
	if (json_is_object(gk)) {
		heading(out, "GPU kernels");
		emit(out, "  busy %.1f%% of the active range %s",
		     (1 - pr_mnum(gk, "idle_share")) * 100,
		     secs(pr_mnum(gk, "active_ns"), a, sizeof(a)));
		emit(out, "  %lld gaps > 500 ms; %lld of %lld chunks < 50%% busy",
		     pr_mll(gk, "gaps_over_500ms"), pr_mll(gk, "chunks_under_50pct"),
		     pr_mll(gk, "chunks"));
	}
}

/* 1 when an earlier leaking item of items has the same series and device as items[i]. */
static int leak_seen(const json_t *items, size_t i)
{
	const json_t *v = json_array_get(items, i), *w;
	size_t j;
	for (j = 0; j < i; j++) {
		w = json_array_get(items, j);
		if (json_is_true(json_object_get(w, "leak")) &&
		    !strcmp(pr_mstr(w, "series"), pr_mstr(v, "series")) &&
		    !strcmp(pr_mstr(w, "device"), pr_mstr(v, "device")))
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
	const json_t *lk = json_object_get(run, "leaks"), *items = json_object_get(lk, "items"), *v,
		     *w;
	const json_t *ex = json_object_get(lk, "excluded");
	struct pr_strbuf sb = PR_STRBUF_INIT;
	size_t i, j, shown = 0;
	char a[32];
	json_array_foreach (items, i, v) {
		size_t more = 0;
		if (!json_is_true(json_object_get(v, "leak")) || leak_seen(items, i))
			continue;
		if (!shown++)
			heading(out,
				"Leaks (memory the run owns, growing per step or repeated phase)");
		pr_strbuf_reset(&sb);
		pr_strbuf_addf(&sb, "%s%s%s grows %s per %s (R^2 %.2f, %lld occurrences)",
			       pr_mstr(v, "series"), *pr_mstr(v, "device") ? " " : "",
			       pr_mstr(v, "device"),
			       val(pr_mnum(v, "slope_per_occurrence"), "bytes", a, sizeof(a)),
			       strcmp(pr_mstr(v, "basis"), "steps") ? pr_mstr(v, "basis") : "step",
			       pr_mnum(v, "r2"), pr_mll(v, "occurrences"));
		for (j = i + 1; j < json_array_size(items); j++) {
			w = json_array_get(items, j);
			if (!json_is_true(json_object_get(w, "leak")) ||
			    strcmp(pr_mstr(w, "series"), pr_mstr(v, "series")) ||
			    strcmp(pr_mstr(w, "device"), pr_mstr(v, "device")))
				continue;
			if (more++ < 4)
				pr_strbuf_addf(&sb, "%s%s", more == 1 ? "; also per " : ", ",
					       pr_mstr(w, "basis"));
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
		json_array_foreach (ex, i, v)
			pr_strbuf_addf(&sb, "%s %s%s%s (%s)", i ? "," : "", pr_mstr(v, "series"),
				       *pr_mstr(v, "device") ? " " : "", pr_mstr(v, "device"),
				       pr_mstr(v, "scope"));
		pr_text_wrap(out, sb.buf, 2);
	}
	pr_strbuf_release(&sb);
}

static void fragmentation_and_leaks(const json_t *run, FILE *out)
{
	json_t *v, *l;
	size_t i, j;
	char a[32], b[32];
	json_array_foreach (json_object_get(run, "fragmentation"), i, v) {
		if (!i)
			heading(out, "Fragmentation ((reserved - allocated) / reserved)");
		emit(out, "  %-8s mean %5.1f%%  p95 %5.1f%%  max %5.1f%%  largest gap %s",
		     pr_mstr(v, "device"), pr_mnum(v, "mean_ratio") * 100,
		     pr_mnum(v, "p95_ratio") * 100, pr_mnum(v, "max_ratio") * 100,
		     val(pr_mnum(v, "max_gap"), "bytes", a, sizeof(a)));
		json_array_foreach (json_object_get(v, "layers"), j, l)
			emit(out, "    layer %-24s mean %5.1f%%  (collector: %s)",
			     pr_mstr(l, "layer"), pr_mnum(l, "mean_ratio") * 100,
			     json_is_number(json_object_get(l, "reported_avg_ratio"))
				     ? (snprintf(b, sizeof(b), "%.1f%%",
						 pr_mnum(l, "reported_avg_ratio") * 100),
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
	json_array_foreach (json_object_get(run, "crosscheck"), i, v) {
		const char *u = pr_mstr(v, "unit");
		if (!i)
			heading(out, "Collector's numbers vs recomputed");
		if (!strcmp(u, "bytes")) {
			val(pr_mnum(v, "reported"), u, a, sizeof(a));
			val(pr_mnum(v, "recomputed"), u, b, sizeof(b));
		} else {
			num(pr_mnum(v, "reported"), u, a, sizeof(a));
			num(pr_mnum(v, "recomputed"), u, b, sizeof(b));
		}
		if (isnan(pr_mnum(v, "recomputed")))
			snprintf(b, sizeof(b), "absent");
		emit(out, "  %s %-40s %14s %14s",
		     json_is_true(json_object_get(v, "agree")) ? "ok  " : "DIFF",
		     pr_elide_end(pr_mstr(v, "topic"), 40, e, sizeof(e)), a, b);
		if (!json_is_true(json_object_get(v, "agree")))
			pr_text_wrap(out, pr_mstr(v, "reason"), 7);
	}
	(void)series_unit;
}

static void recommendations(const json_t *run, FILE *out)
{
	json_t *v;
	size_t i;
	char line[700];
	json_array_foreach (json_object_get(run, "recommendations"), i, v) {
		if (!i)
			heading(out, "Recommendations");
		snprintf(line, sizeof(line), "[%s] %s: %s (%s)", pr_mstr(v, "severity"),
			 pr_mstr(v, "category"), pr_mstr(v, "message"), pr_mstr(v, "id"));
		pr_text_wrap(out, line, 2);
		pr_text_wrap(out, pr_mstr(v, "suggestion"), 6);
	}
}

static void diagnostics(const json_t *run, FILE *out)
{
	json_t *v;
	size_t i;
	char line[900];
	json_array_foreach (json_object_get(run, "diagnostics"), i, v) {
		if (!i)
			heading(out, "Diagnostics");
		snprintf(line, sizeof(line), "%s (x%lld): %s", pr_mstr(v, "code"),
			 pr_mll(v, "count"), pr_mstr(v, "message"));
		pr_text_wrap(out, line, 2);
	}
}

/* A run with steps or GPU work is a trace: what it is read for is its step time and GPU time. */
static int trace_like(const json_t *run)
{
	const json_t *steps = json_object_get(json_object_get(run, "throughput"), "steps");
	return json_is_object(json_object_get(run, "gpu_breakdown")) ||
	       (json_is_object(steps) && pr_mnum(steps, "count") > 0);
}

static void render_text_report(const json_t *model, FILE *out)
{
	json_t *run;
	size_t i;
	json_array_foreach (json_object_get(model, "runs"), i, run) {
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
	if (!json_array_size(json_object_get(model, "runs")))
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
