/*
 * text_report.c - the console report (`profreport summary`) from the
 * analysis model: per run the peaks (value, time, phase), memory
 * statistics (current with delta, average, min/max, range), disk I/O,
 * the operations timeline (durations, memory deltas), throughput,
 * bottlenecks, pressure, fragmentation, leaks, cross-checks against what
 * the collector reported, recommendations and diagnostics. Fits 80
 * columns: long names are cut with "...".
 */
#include "render/text_report.h"

#include <math.h>
#include <string.h>

#include "render/units.h"

#define W 80

static double num(const json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

/* Copies s into buf, cut to at most w bytes (UTF-8 safe) with "..." when cut. */
static const char *fit(const char *s, size_t w, char *buf, size_t n)
{
	size_t len = strlen(s), k;
	if (len <= w || w < 4) {
		snprintf(buf, n, "%s", s);
		return buf;
	}
	k = w - 3;
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	snprintf(buf, n, "%.*s...", (int)k, s);
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
	json_array_foreach(json_object_get(run, "series"), i, s)
		if (!strcmp(str(s, "name"), name))
			return str(s, "unit");
	return "";
}

static void heading(FILE *out, const char *title)
{
	fprintf(out, "\n%s\n", title);
}

static void header(const json_t *run, FILE *out)
{
	const json_t *clock = json_object_get(run, "clock"), *c = json_object_get(run, "counts");
	char a[64], line[W + 1];
	int n;
	n = snprintf(line, sizeof(line), "run %lld: %s", (long long)num(run, "id"), str(run, "label"));
	fprintf(out, "%s\n", line);
	if (n > W)
		n = W;
	for (; n > 0; n--)
		fputc('=', out);
	fprintf(out, "\nformat %s, collector %s", str(run, "format"), str(run, "collector"));
	if (json_is_integer(json_object_get(run, "rank"))) {
		fprintf(out, ", rank %lld", (long long)num(run, "rank"));
		if (json_is_integer(json_object_get(run, "world_size")))
			fprintf(out, " of %lld", (long long)num(run, "world_size"));
	}
	fputc('\n', out);
	if (json_is_number(json_object_get(clock, "duration_ns")))
		fprintf(out, "duration %s%s; ", secs(num(clock, "duration_ns"), a, sizeof(a)),
			json_is_true(json_object_get(clock, "synthetic")) ? " (synthetic clock)" : "");
	fprintf(out, "%lld spans, %lld samples, %lld instants\n", (long long)num(c, "spans"),
		(long long)num(c, "samples"), (long long)num(c, "instants"));
}

static void peaks(const json_t *run, FILE *out)
{
	json_t *arr = json_object_get(run, "peaks"), *p;
	char a[40], b[40], c[64], d[64];
	size_t i;
	heading(out, "Peak memory");
	if (!json_array_size(arr)) {
		fputs("  no memory series in this run\n", out);
		return;
	}
	json_array_foreach(arr, i, p)
	{
		json_t *ph = json_object_get(p, "phase"), *sp = json_object_get(p, "span");
		char name[64];
		snprintf(name, sizeof(name), "%s%s%s", str(p, "series"), *str(p, "device") ? " " : "",
			 str(p, "device"));
		fprintf(out, "  %-26s %12s at %-11s", fit(name, 26, c, sizeof(c)),
			val(num(p, "value"), str(p, "unit"), a, sizeof(a)),
			secs(num(p, "t_ns"), b, sizeof(b)));
		if (json_is_object(ph))
			fprintf(out, " in %s", fit(str(ph, "name"), 22, d, sizeof(d)));
		fputc('\n', out);
		if (json_is_object(sp))
			fprintf(out, "  %-26s held by %s (%s)\n", "", fit(str(sp, "name"), 36, d, sizeof(d)),
				str(sp, "kind"));
	}
}

static void memstats(const json_t *run, FILE *out)
{
	json_t *s;
	size_t i;
	int any = 0;
	char a[32], b[40], c[32], d[32], e[32], f[48], g[32], h[40];
	json_array_foreach(json_object_get(run, "series"), i, s)
	{
		double first = num(s, "first"), last = num(s, "last"), n = num(s, "count");
		if (!json_is_true(json_object_get(s, "memory")) || !(n > 0))
			continue;
		if (!any++) {
			heading(out, "Memory statistics");
			fprintf(out, "  %-16s %10s %10s %10s %10s %10s %10s\n", "series", "current",
				"delta", "average", "min", "max", "range");
		}
		snprintf(f, sizeof(f), "%s%s%s", str(s, "name"), *str(s, "device") ? " " : "",
			 str(s, "device"));
		val(last - first, "bytes", g, sizeof(g));
		snprintf(b, sizeof(b), "%s%s", last - first >= 0 ? "+" : "", g);
		fprintf(out, "  %-16s %10s %10s %10s %10s %10s %10s\n", fit(f, 16, h, sizeof(h)),
			val(last, "bytes", a, sizeof(a)), b, val(num(s, "mean"), "bytes", c, sizeof(c)),
			val(num(s, "min"), "bytes", d, sizeof(d)),
			val(num(s, "max"), "bytes", e, sizeof(e)),
			val(num(s, "max") - num(s, "min"), "bytes", g, sizeof(g)));
		if (n > 1)
			fprintf(out, "  %-16s %.0f samples, one every %s on average\n", "",
				n, secs((num(s, "t_last_ns") - num(s, "t_first_ns")) / (n - 1), a, sizeof(a)));
	}
}

static void disk(const json_t *run, FILE *out)
{
	json_t *s;
	size_t i;
	char a[32], b[32];
	int any = 0;
	json_array_foreach(json_object_get(run, "series"), i, s)
	{
		const char *n = str(s, "name");
		if (strncmp(n, "disk.", 5))
			continue;
		if (!any++)
			heading(out, "Disk I/O");
		if (!strcmp(n, "disk.read") || !strcmp(n, "disk.write"))
			fprintf(out, "  total %-5s %s (last - first of the cumulative counter)\n", n + 5,
				val(num(s, "last") - num(s, "first"), "bytes", a, sizeof(a)));
		else
			fprintf(out, "  %-11s peak %s/s, average %s/s\n", n + 5,
				val(num(s, "max"), "bytes", a, sizeof(a)),
				val(num(s, "mean"), "bytes", b, sizeof(b)));
	}
}

static void phases(const json_t *run, FILE *out)
{
	json_t *ph = json_object_get(run, "phases"), *occ = json_object_get(ph, "occurrences"), *o;
	json_t *stages = json_object_get(ph, "stages");
	char a[32], b[32], c[40], d[40];
	size_t i;
	if (json_array_size(occ)) {
		heading(out, "Phases (timeline)");
		fprintf(out, "  %3s %9s  %-28s %10s %6s  %s\n", "#", "start", "phase", "duration",
			"share", "memory delta");
		json_array_foreach(occ, i, o)
		{
			json_t *m = json_array_get(json_object_get(o, "memory"), 0);
			char name[64];
			snprintf(name, sizeof(name), "%*s%s", 2 * (int)num(o, "depth"), "", str(o, "name"));
			fprintf(out, "  %3zu %9s  %-28s %10s %5.1f%%", i + 1, secs(num(o, "t_ns"), a, sizeof(a)),
				fit(name, 28, c, sizeof(c)), secs(num(o, "dur_ns"), b, sizeof(b)),
				num(o, "share") * 100);
			if (m) {
				double dl = num(m, "delta");
				val(dl, "bytes", d, sizeof(d));
				fprintf(out, "  %s%s %s", dl >= 0 ? "+" : "", d, str(m, "series"));
			}
			fputc('\n', out);
		}
		if (json_is_number(json_object_get(ph, "occurrences_more")))
			fprintf(out, "  ... %lld more\n", (long long)num(ph, "occurrences_more"));
		if (json_is_number(json_object_get(ph, "coverage")))
			fprintf(out, "  top-level phases cover %.1f%% of the run\n",
				num(ph, "coverage") * 100);
	}
	if (json_array_size(stages)) {
		heading(out, "Stages (reported aggregates)");
		fprintf(out, "  %-28s %6s %10s %10s %8s %9s\n", "stage", "calls", "total", "mean",
			"of wall", "reported");
		json_array_foreach(stages, i, o)
			fprintf(out, "  %-28s %6.0f %10s %10s %7.1f%% %8.1f%%\n",
				fit(str(o, "name"), 28, c, sizeof(c)), num(o, "count"),
				secs(num(o, "total_ns"), a, sizeof(a)), secs(num(o, "mean_ns"), b, sizeof(b)),
				num(o, "share_of_wall") * 100, num(o, "reported_percentage"));
	}
}

static void throughput(const json_t *run, FILE *out)
{
	json_t *t = json_object_get(run, "throughput"), *s = json_object_get(t, "steps");
	json_t *tok = json_object_get(t, "tokens"), *bl = json_object_get(t, "blocks");
	json_t *df = json_object_get(t, "diffusion"), *v;
	char a[32], b[32], c[32], d[32], e[40];
	size_t i;
	if (!json_is_object(s) && !tok && !bl && !df)
		return;
	heading(out, "Throughput");
	if (json_is_object(s)) {
		pr_fmt_duration(num(s, "mean_ns"), a, sizeof(a));
		pr_fmt_duration(num(s, "p50_ns"), b, sizeof(b));
		pr_fmt_duration(num(s, "p95_ns"), c, sizeof(c));
		pr_fmt_duration(num(s, "p99_ns"), d, sizeof(d));
		fprintf(out, "  %s: %lld steps, %.2f steps/s, mean %s\n", fit(str(s, "name"), 30, e, sizeof(e)),
			(long long)num(s, "count"), num(s, "per_s"), a);
		fprintf(out, "    p50 %s  p95 %s  p99 %s  jitter (std/mean) %.1f%%\n", b, c, d,
			num(s, "jitter") * 100);
		json_array_foreach(json_object_get(s, "stragglers"), i, v)
		{
			pr_fmt_duration(num(v, "dur_ns"), a, sizeof(a));
			fprintf(out, "    straggling step %s: %s, %.1fx the median (robust z %.1f)\n",
				str(v, "name"), a, num(v, "x_median"), num(v, "robust_z"));
		}
	}
	if (tok) {
		fprintf(out, "  tokens: %.0f, %.2f tokens/s over the sections with tokens", num(tok, "total_tokens"),
			num(tok, "tokens_per_s"));
		if (json_is_number(json_object_get(tok, "reported_tokens_per_s")))
			fprintf(out, " (collector: %.2f)", num(tok, "reported_tokens_per_s"));
		fputc('\n', out);
		json_array_foreach(json_object_get(tok, "sections"), i, v)
		{
			if (!json_is_number(json_object_get(v, "tokens_per_s")))
				continue;
			fprintf(out, "    %-24s %8.0f tokens %12.2f tokens/s", fit(str(v, "section"), 24, e, sizeof(e)),
				num(v, "tokens"), num(v, "tokens_per_s"));
			if (json_is_number(json_object_get(v, "reported_tokens_per_s")))
				fprintf(out, " (collector %.2f)", num(v, "reported_tokens_per_s"));
			fputc('\n', out);
		}
	}
	if (bl)
		fprintf(out, "  blocks: %.0f blocks, %.0f frames: FPS %.2f, BPS %.2f, first block %s\n",
			num(bl, "count"), num(bl, "frames"), num(bl, "fps"), num(bl, "bps"),
			secs(num(bl, "first_block_ns"), a, sizeof(a)));
	if (df)
		fprintf(out, "  diffusion: %.0f steps, %.2f steps/s, frames/s %.2f (Inferix's fps %.2f counts frames per step)\n",
			num(df, "steps"), num(df, "steps_per_s"), num(df, "frames_per_s"),
			num(df, "frame_steps_per_s"));
}

static void bottlenecks(const json_t *run, FILE *out)
{
	json_t *b = json_object_get(run, "bottlenecks"), *v;
	json_t *stages = json_object_get(json_object_get(b, "stages"), "items");
	json_t *top = json_object_get(b, "top_self"), *pr = json_object_get(json_object_get(b, "memory_pressure"), "items");
	json_t *gk = json_object_get(b, "gpu_kernels");
	char a[32], c[32], d[32], e[64];
	size_t i;
	if (json_array_size(stages)) {
		heading(out, "Bottlenecks (phases or stages over 30% of the run)");
		json_array_foreach(stages, i, v)
			fprintf(out, "  %-40s %6.1f%%  %s\n", fit(str(v, "name"), 40, e, sizeof(e)),
				num(v, "share") * 100, secs(num(v, "total_ns"), a, sizeof(a)));
	}
	if (json_array_size(top)) {
		heading(out, "Top spans by self time");
		fprintf(out, "  %-34s %6s %10s %10s %10s %6s\n", "name", "count", "self", "total", "mean",
			"kind");
		json_array_foreach(top, i, v)
		{
			pr_fmt_duration(num(v, "self_ns"), a, sizeof(a));
			pr_fmt_duration(num(v, "total_ns"), c, sizeof(c));
			pr_fmt_duration(num(v, "mean_ns"), d, sizeof(d));
			fprintf(out, "  %-34s %6.0f %10s %10s %10s %6.6s\n", fit(str(v, "name"), 34, e, sizeof(e)),
				num(v, "count"), a, c, d, str(v, "kind"));
		}
	}
	if (json_array_size(pr)) {
		heading(out, "Memory pressure (low < 70%, medium 70-85%, high >= 85%)");
		json_array_foreach(pr, i, v)
		{
			json_t *z = json_object_get(v, "zones");
			snprintf(e, sizeof(e), "%s%s%s", str(v, "series"), *str(v, "device") ? " " : "",
				 str(v, "device"));
			fprintf(out, "  %-26s peak %5.1f%% mean %5.1f%%  low %3.0f%% med %3.0f%% high %3.0f%%\n",
				fit(e, 26, a, sizeof(a)), num(v, "peak_pct"), num(v, "mean_pct"),
				num(z, "low") * 100, num(z, "medium") * 100, num(z, "high") * 100);
		}
	}
	json_array_foreach(json_object_get(b, "gpu_util"), i, v)
	{
		if (!i)
			heading(out, "GPU utilisation");
		fprintf(out, "  %-10s mean %5.1f%%  max %5.1f%%  idle (0%%) in %.0f%% of samples\n",
			str(v, "device"), num(v, "mean_pct"), num(v, "max_pct"), num(v, "idle_share") * 100);
	}
	if (json_is_object(gk)) {
		heading(out, "GPU kernels");
		fprintf(out, "  busy %.1f%% of the active range %s; %lld gaps > 500 ms; %lld of 30 chunks < 50%% busy\n",
			(1 - num(gk, "idle_share")) * 100, secs(num(gk, "active_ns"), a, sizeof(a)),
			(long long)num(gk, "gaps_over_500ms"), (long long)num(gk, "chunks_under_50pct"));
	}
}

static void fragmentation_and_leaks(const json_t *run, FILE *out)
{
	json_t *v, *l;
	size_t i, j;
	char a[32], b[32];
	json_array_foreach(json_object_get(run, "fragmentation"), i, v)
	{
		if (!i)
			heading(out, "Fragmentation ((reserved - allocated) / reserved)");
		fprintf(out, "  %-8s mean %5.1f%%  p95 %5.1f%%  max %5.1f%%  largest gap %s\n",
			str(v, "device"), num(v, "mean_ratio") * 100, num(v, "p95_ratio") * 100,
			num(v, "max_ratio") * 100, val(num(v, "max_gap"), "bytes", a, sizeof(a)));
		json_array_foreach(json_object_get(v, "layers"), j, l)
			fprintf(out, "    layer %-24s mean %5.1f%%  (collector: %s)\n",
				str(l, "layer"), num(l, "mean_ratio") * 100,
				json_is_number(json_object_get(l, "reported_avg_ratio"))
					? (snprintf(b, sizeof(b), "%.1f%%", num(l, "reported_avg_ratio") * 100), b)
					: "-");
	}
	j = 0;
	json_array_foreach(json_object_get(json_object_get(run, "leaks"), "items"), i, v)
	{
		if (!json_is_true(json_object_get(v, "leak")))
			continue;
		if (!j++)
			heading(out, "Leaks");
		fprintf(out, "  %s grows %s per %s occurrence (R^2 %.2f, %lld occurrences)\n",
			str(v, "series"), val(num(v, "slope_per_occurrence"), "bytes", a, sizeof(a)),
			str(v, "basis"), num(v, "r2"), (long long)num(v, "occurrences"));
	}
}

/* Prints text wrapped at W with the given indent. */
static void wrap(FILE *out, const char *text, int indent)
{
	int col = indent;
	fprintf(out, "%*s", indent, "");
	while (*text) {
		size_t w = strcspn(text, " ");
		if (col > indent && col + 1 + (int)w > W) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, text);
		col += (int)w;
		text += w;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

static void crosscheck(const json_t *run, FILE *out)
{
	json_t *v;
	size_t i;
	char a[48], b[48], e[64];
	json_array_foreach(json_object_get(run, "crosscheck"), i, v)
	{
		const char *u = str(v, "unit");
		if (!i)
			heading(out, "Collector's numbers vs recomputed");
		if (!strcmp(u, "bytes")) {
			val(num(v, "reported"), u, a, sizeof(a));
			val(num(v, "recomputed"), u, b, sizeof(b));
		} else {
			snprintf(a, sizeof(a), "%.4g %s", num(v, "reported"), u);
			snprintf(b, sizeof(b), "%.4g %s", num(v, "recomputed"), u);
		}
		if (isnan(num(v, "recomputed")))
			snprintf(b, sizeof(b), "absent");
		fprintf(out, "  %s %-40s %14s %14s\n", json_is_true(json_object_get(v, "agree")) ? "ok  " : "DIFF",
			fit(str(v, "topic"), 40, e, sizeof(e)), a, b);
		if (!json_is_true(json_object_get(v, "agree")))
			wrap(out, str(v, "reason"), 7);
	}
	(void)series_unit;
}

static void recommendations(const json_t *run, FILE *out)
{
	json_t *v;
	size_t i;
	char line[700];
	json_array_foreach(json_object_get(run, "recommendations"), i, v)
	{
		if (!i)
			heading(out, "Recommendations");
		snprintf(line, sizeof(line), "[%s] %s: %s (%s)", str(v, "severity"), str(v, "category"),
			 str(v, "message"), str(v, "id"));
		wrap(out, line, 2);
		wrap(out, str(v, "suggestion"), 6);
	}
}

static void diagnostics(const json_t *run, FILE *out)
{
	json_t *v;
	size_t i;
	char line[900];
	json_array_foreach(json_object_get(run, "diagnostics"), i, v)
	{
		if (!i)
			heading(out, "Diagnostics");
		snprintf(line, sizeof(line), "%s (x%lld): %s", str(v, "code"), (long long)num(v, "count"),
			 str(v, "message"));
		wrap(out, line, 2);
	}
}

void pr_render_text_report(const json_t *model, FILE *out)
{
	json_t *run;
	size_t i;
	json_array_foreach(json_object_get(model, "runs"), i, run)
	{
		if (i)
			fputc('\n', out);
		header(run, out);
		peaks(run, out);
		memstats(run, out);
		disk(run, out);
		phases(run, out);
		throughput(run, out);
		bottlenecks(run, out);
		fragmentation_and_leaks(run, out);
		crosscheck(run, out);
		recommendations(run, out);
		diagnostics(run, out);
	}
	if (!json_array_size(json_object_get(model, "runs")))
		fputs("no runs\n", out);
}
