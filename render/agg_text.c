/* agg_text.c - console table of an aggregate (see agg_text.h). */
#include "render/termsafe.h"
#include "render/agg_text.h"
#include "render/text_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "render/names.h"
#include "render/units.h"
#include "base/jsonx.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

#define MAX_RANK_ROWS 64

static void dur(double ns, char *b, size_t n)
{
	if (isfinite(ns))
		pr_fmt_duration(ns, b, n);
	else
		snprintf(b, n, "-");
}

static void val(double v, const char *unit, char *b, size_t n)
{
	if (!isfinite(v))
		snprintf(b, n, "-");
	else if (!strcmp(unit, "count"))
		snprintf(b, n, "%.0f", v);
	else if (!strcmp(unit, "per_s"))
		snprintf(b, n, "%.4g/s", v);
	else if (!strcmp(unit, "share"))
		snprintf(b, n, "%.1f%%", v * 100);
	else
		pr_fmt_value(v, unit, b, n);
}

/* A name as shown in w bytes (render/names.h: demangled, no return type or arguments);
 * b holds w + 1. */
static const char *cut(const char *s, char *b, size_t w)
{
	return pr_name_display(s, b, w + 1);
}

static void ranks_table(const json_t *doc, FILE *out)
{
	const json_t *ranks = json_object_get(doc, PRA_RANKS), *r;
	size_t i;
	fprintf(out, "\nPer rank\n");
	fprintf(out, "%5s  %-10s %6s %10s %10s %11s  %s\n", "rank", "duration", "steps",
		"step mean", "step p50", "collective", "largest stage");
	json_array_foreach (ranks, i, r) {
		char d[32], m[32], p[32], c[32], big[80], nb[24], sc[16];
		const json_t *st = json_object_get(r, PRA_RANKS_STEPS), *sv;
		const char *k, *bk = NULL;
		double bv = -1;
		if (i == MAX_RANK_ROWS) {
			fprintf(out, "  ... and %zu more ranks (see agg.json)\n",
				json_array_size(ranks) - i);
			break;
		}
		json_object_foreach (json_object_get(r, PRA_RANKS_STAGES), k, sv)
			if (json_number_value(sv) > bv) {
				bv = json_number_value(sv);
				bk = k;
			}
		dur(pr_mnum(r, PRA_RANKS_DURATION_NS), d, sizeof(d));
		dur(pr_mnum(st, PRA_RANKS_STEPS_MEAN_NS), m, sizeof(m));
		dur(pr_mnum(st, PRA_RANKS_STEPS_P50_NS), p, sizeof(p));
		dur(pr_mnum(r, PRA_RANKS_COLLECTIVE_NS), c, sizeof(c));
		if (bk) {
			char t[32];
			dur(bv, t, sizeof(t));
			snprintf(big, sizeof(big), "%s %s", cut(bk, nb, 9), t);
		} else {
			snprintf(big, sizeof(big), "-");
		}
		if (isfinite(pr_mnum(st, PRA_RANKS_STEPS_COUNT)))
			snprintf(sc, sizeof(sc), "%.0f", pr_mnum(st, PRA_RANKS_STEPS_COUNT));
		else
			snprintf(sc, sizeof(sc), "-");
		fprintf(out, "%5lld  %-10s %6s %10s %10s %11s  %s\n",
			(long long)json_integer_value(json_object_get(r, PRA_RANKS_RANK)), d, sc, m,
			p, c, big);
	}
}

static void pct(double v, char *b, size_t n)
{
	if (isfinite(v))
		snprintf(b, n, "%.1f%%", v * 100);
	else
		snprintf(b, n, "-");
}

/* Per rank GPU temporal breakdown (shares of the GPU span) and overlap; nothing without GPU ops. */
static void gpu_table(const json_t *doc, FILE *out)
{
	const json_t *ranks = json_object_get(doc, PRA_RANKS), *r;
	size_t i, shown = 0;
	json_array_foreach (ranks, i, r) {
		const json_t *g = json_object_get(r, PRA_RANKS_GPU);
		char c[16], x[16], m[16], id[16], hw[16], ov[16], sp[32];
		if (!json_is_object(g))
			continue;
		if (!shown)
			fprintf(out,
				"\nGPU per rank (HTA temporal breakdown, shares of the GPU span; idle "
				"host wait\nas a share of idle; overlap: communication overlapped by "
				"compute)\n%5s %10s %8s %8s %7s %7s %10s %8s\n",
				"rank", "gpu span", "compute", "comm", "memory", "idle",
				"host wait", "overlap");
		if (shown == MAX_RANK_ROWS) {
			fprintf(out, "  ... more ranks (see agg.json)\n");
			break;
		}
		shown++;
		dur(pr_mnum(g, PRA_RANKS_GPU_SPAN_NS), sp, sizeof(sp));
		pct(pr_mnum(g, PRA_RANKS_GPU_COMPUTE_SHARE), c, sizeof(c));
		pct(pr_mnum(g, PRA_RANKS_GPU_COMMUNICATION_SHARE), x, sizeof(x));
		pct(pr_mnum(g, PRA_RANKS_GPU_MEMORY_SHARE), m, sizeof(m));
		pct(pr_mnum(g, PRA_RANKS_GPU_IDLE_SHARE), id, sizeof(id));
		/* no launch linked to a runtime call: host wait cannot be told from other idle */
		if (pr_mnum(g, PRA_RANKS_GPU_LAUNCH_LINKED_SHARE) == 0)
			snprintf(hw, sizeof(hw), "n/a");
		else
			pct(pr_mnum(g, PRA_RANKS_GPU_IDLE_HOST_WAIT_SHARE), hw, sizeof(hw));
		pct(pr_mnum(g, PRA_RANKS_GPU_OVERLAP_SHARE), ov, sizeof(ov));
		fprintf(out, "%5lld %10s %8s %8s %7s %7s %10s %8s\n",
			(long long)json_integer_value(json_object_get(r, PRA_RANKS_RANK)), sp, c, x,
			m, id, hw, ov);
	}
}

/* Per collective: who arrived last (spent the least time in the call) in how many steps. */
static void arrivals(const json_t *doc, FILE *out)
{
	const json_t *arr = json_object_get(doc, PRA_COLLECTIVE_ARRIVALS), *a, *t;
	size_t i, j;
	if (!json_array_size(arr))
		return;
	fprintf(out,
		"\nLast to arrive per step (least time in the collective; the others waited)\n");
	json_array_foreach (arr, i, a) {
		char nb[64];
		const json_t *p = json_object_get(a, PRA_COLLECTIVE_ARRIVALS_P_VALUE);
		fprintf(out, "  %s (%s), %lld steps:\n   ",
			cut(json_string_value(json_object_get(a, PRA_COLLECTIVE_ARRIVALS_NAME)), nb,
			    50),
			json_string_value(json_object_get(a, PRA_COLLECTIVE_ARRIVALS_KIND)),
			(long long)json_integer_value(
				json_object_get(a, PRA_COLLECTIVE_ARRIVALS_DECIDED)));
		json_array_foreach (json_object_get(a, PRA_COLLECTIVE_ARRIVALS_LAST_TO_ARRIVE), j,
				    t) {
			if (j == 3)
				break;
			fprintf(out, "%s rank %lld in %lld", j ? "," : " last:",
				(long long)json_integer_value(json_object_get(
					t, PRA_COLLECTIVE_ARRIVALS_LAST_TO_ARRIVE_RANK)),
				(long long)json_integer_value(json_object_get(
					t, PRA_COLLECTIVE_ARRIVALS_LAST_TO_ARRIVE_STEPS)));
		}
		if (json_is_number(p))
			fprintf(out, " (p = %.2g)", json_number_value(p));
		fputc('\n', out);
	}
}

static void stats_table(const json_t *doc, const char *cat, const char *title, FILE *out)
{
	const json_t *stats = json_object_get(doc, PRA_STATS), *s;
	size_t i, k = 0;
	int header = 0;
	const char **names = pr_xcalloc(json_array_size(stats) + 1, sizeof(*names));
	pr_label_t *lab = pr_xcalloc(json_array_size(stats) + 1, sizeof(*lab));
	/* the name column of this category's rows: never two alike (names.h) */
	json_array_foreach (stats, i, s) {
		const char *c = json_string_value(json_object_get(s, PRA_STATS_CATEGORY));
		if (c && !strcmp(c, cat))
			names[k++] = pr_mstr(s, PRA_STATS_NAME);
	}
	pr_name_column(lab, names, k, 18);
	k = 0;
	json_array_foreach (stats, i, s) {
		const char *c = json_string_value(json_object_get(s, PRA_STATS_CATEGORY));
		const char *unit = json_string_value(json_object_get(s, PRA_STATS_UNIT));
		char mn[24], md[24], mx[24], sd[24], im[12], am[16];
		const json_t *amx = json_object_get(s, PRA_STATS_ARGMAX);
		if (!c || strcmp(c, cat))
			continue;
		if (!header) {
			fprintf(out, "\n%s\n%-18s %4s %10s %10s %10s %10s %5s %5s\n", title, "name",
				"n", "min", "median", "max", "std", "imb", "@max");
			header = 1;
		}
		val(pr_mnum(s, PRA_STATS_MIN), unit, mn, sizeof(mn));
		val(pr_mnum(s, PRA_STATS_MEDIAN), unit, md, sizeof(md));
		val(pr_mnum(s, PRA_STATS_MAX), unit, mx, sizeof(mx));
		val(pr_mnum(s, PRA_STATS_STD), unit, sd, sizeof(sd));
		if (isfinite(pr_mnum(s, PRA_STATS_IMBALANCE)))
			snprintf(im, sizeof(im), "%.2f", pr_mnum(s, PRA_STATS_IMBALANCE));
		else
			snprintf(im, sizeof(im), "-");
		if (json_is_integer(amx))
			snprintf(am, sizeof(am), "%lld", (long long)json_integer_value(amx));
		else
			snprintf(am, sizeof(am), "-");
		fprintf(out, "%-18s %4lld %10s %10s %10s %10s %5s %5s\n", lab[k++],
			(long long)json_integer_value(json_object_get(s, PRA_STATS_RANKS)), mn, md,
			mx, sd, im, am);
	}
	free(names);
	free(lab);
}

static void render_agg_text(const json_t *doc, FILE *out)
{
	const json_t *strag = json_object_get(doc, PRA_STRAGGLERS), *r, *w;
	const json_t *ws = json_object_get(doc, PRA_WORLD_SIZE);
	size_t i;
	fprintf(out, "Aggregate: %lld ranks from %lld inputs",
		(long long)json_integer_value(json_object_get(doc, PRA_RANK_COUNT)),
		(long long)json_integer_value(json_object_get(doc, PRA_INPUTS)));
	if (json_is_integer(ws))
		fprintf(out, ", world size %lld", (long long)json_integer_value(ws));
	fputc('\n', out);
	json_array_foreach (json_object_get(doc, PRA_WARNINGS), i, w)
		fprintf(out, "warning: %s\n", json_string_value(w));
	ranks_table(doc, out);
	stats_table(doc, "run", "Across ranks: run", out);
	stats_table(doc, "stage", "Across ranks: stages and phases", out);
	stats_table(doc, "collective", "Across ranks: collectives", out);
	gpu_table(doc, out);
	stats_table(doc, "gpu", "Across ranks: GPU (shares)", out);
	arrivals(doc, out);
	fprintf(out, "\nStragglers (modified z = 0.6745 (x - median) / MAD, |z| > 3.5)\n");
	if (!json_array_size(json_object_get(strag, PRA_STRAGGLERS_RANKS)))
		fprintf(out,
			"  none: no rank stands out in any stage, collective, step time or GPU "
			"idle\n");
	json_array_foreach (json_object_get(strag, PRA_STRAGGLERS_RANKS), i, r) {
		const char *sum =
			json_string_value(json_object_get(r, PRA_STRAGGLERS_RANKS_SUMMARY));
		const json_t *e;
		size_t j;
		if (strlen(sum) <= 76) {
			fprintf(out, "  %s\n", sum);
		} else {
			/* one reason per line */
			const char *colon = strchr(sum, ':');
			fprintf(out, "  %.*s:\n", colon ? (int)(colon - sum) : (int)strlen(sum),
				sum);
			json_array_foreach (json_object_get(r, PRA_STRAGGLERS_RANKS_EVIDENCE), j, e)
				fprintf(out, "    %s\n",
					json_string_value(json_object_get(
						e, PRA_STRAGGLERS_RANKS_EVIDENCE_TEXT)));
		}
		json_array_foreach (json_object_get(r, PRA_STRAGGLERS_RANKS_EVIDENCE), j, e) {
			char v[32], m[32], md[32], nb[80], zb[32];
			const json_t *z = json_object_get(e, PRA_STRAGGLERS_RANKS_EVIDENCE_Z);
			dur(pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_VALUE), v, sizeof(v));
			dur(pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_MEDIAN), m, sizeof(m));
			dur(pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_MAD), md, sizeof(md));
			if (json_is_number(z))
				snprintf(zb, sizeof(zb), "%.1f", json_number_value(z));
			else
				snprintf(zb, sizeof(zb), "%s", json_string_value(z));
			fprintf(out, "    %s: %s\n",
				json_string_value(
					json_object_get(e, PRA_STRAGGLERS_RANKS_EVIDENCE_WHAT)),
				cut(json_string_value(
					    json_object_get(e, PRA_STRAGGLERS_RANKS_EVIDENCE_NAME)),
				    nb, 60));
			if (json_is_string(
				    json_object_get(e, PRA_STRAGGLERS_RANKS_EVIDENCE_DETAIL)))
				pr_text_wrap(out,
					     json_string_value(json_object_get(
						     e, PRA_STRAGGLERS_RANKS_EVIDENCE_DETAIL)),
					     6);
			else if (json_is_number(json_object_get(
					 e, PRA_STRAGGLERS_RANKS_EVIDENCE_HOST_WAIT_SHARE)))
				fprintf(out,
					"      idle %.1f%% of the GPU span vs median %.1f%%, MAD %.1f "
					"points, z = %s;\n      host wait %.1f%% of its idle time\n",
					pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_VALUE) * 100,
					pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_MEDIAN) * 100,
					pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_MAD) * 100, zb,
					pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_HOST_WAIT_SHARE) *
						100);
			else if (!strcmp(pr_mstr(e, PRA_STRAGGLERS_RANKS_EVIDENCE_WHAT),
					 "critical path"))
				fprintf(out,
					"      %.1f%% of its critical path vs median %.1f%%, "
					"MAD %.1f points, z = %s\n",
					pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_VALUE) * 100,
					pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_MEDIAN) * 100,
					pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_MAD) * 100, zb);
			else
				fprintf(out, "      %s vs median %s (%.2fx), MAD %s, z = %s\n", v,
					m, pr_mnum(e, PRA_STRAGGLERS_RANKS_EVIDENCE_RATIO), md, zb);
		}
	}
}

static void render_agg_text_cb(const void *arg, FILE *out)
{
	render_agg_text(arg, out);
}

/* Trace names are escaped for the terminal (termsafe.h). */
void pr_render_agg_text(const json_t *doc, FILE *out)
{
	pr_term_render(out, render_agg_text_cb, doc);
}
