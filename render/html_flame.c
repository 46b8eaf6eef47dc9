/* html_flame.c - the flame graph of a run's page; see html_views.h. */
#include "render/html_views.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analyze/model.h"
#include "base/strbuf.h"
#include "render/elide.h"

#define esc pr_html_esc
#define fmt_val pr_html_fmt_val

#define FLAME_W 1200.0 /* the flame graph's width in SVG units */
#define FLAME_ROW 18.0  /* and one level's height */

/* A warm colour from the name, so one function has one colour wherever it is. */
static void flame_color(const char *name, char *buf, size_t n)
{
	uint32_t h = 2166136261u;
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	snprintf(buf, n, "hsl(%u,%u%%,%u%%)", 10 + h % 40, 70 + (h >> 8) % 25, 55 + (h >> 16) % 15);
}

/*
 * The flame graph (an icicle: the root on top, callees below), time or the
 * profile's weight by call stack, from the model's flame nodes (depth-first,
 * children largest first): x is the running offset at each depth. Each box
 * says its name, total, share and self on hover; names are cut to the box.
 */
void pr_html_flame(struct pr_strbuf *sb, const json_t *run, size_t runi)
{
	const json_t *fl = json_object_get(run, "flame"), *nodes = json_object_get(fl, "nodes"), *v;
	const char *unit = pr_mstr(fl, "unit");
	double total = pr_mnum(fl, "total"), off[64], end[64];
	size_t i, depth = 0;
	(void)runi;
	char a[48], b[48], col[40], cut[PR_LABEL];
	if (json_is_string(json_object_get(fl, "skipped"))) {
		pr_strbuf_addstr(sb, "<h3>Flame graph</h3>\n<p class=\"capped\">No flame graph: ");
		esc(sb, pr_mstr(fl, "skipped"));
		pr_strbuf_addstr(sb, ".</p>\n");
		return;
	}
	if (!json_array_size(nodes) || !(total > 0) || !isfinite(total))
		return;
	json_array_foreach(nodes, i, v)
		if ((size_t)pr_mll(v, "depth") + 1 > depth)
			depth = (size_t)pr_mll(v, "depth") + 1;
	if (depth > 64)
		depth = 64;
	fmt_val(total, unit, a, sizeof(a));
	pr_strbuf_addf(sb, "<h3>Flame graph (%s by call stack, from the %s)</h3>\n",
		       strcmp(unit, "ns") ? "weight" : "time", pr_mstr(fl, "source"));
	pr_strbuf_addf(sb,
		       "<figure class=\"flame\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
		       "role=\"img\" aria-label=\"flame graph, %s in all\">\n",
		       FLAME_W, FLAME_ROW * (double)depth, a);
	memset(off, 0, sizeof(off));
	end[0] = total;
	json_array_foreach(nodes, i, v)
	{
		size_t d = (size_t)pr_mll(v, "depth");
		double t = pr_mnum(v, "total"), x, w;
		const char *name = pr_mstr(v, "name");
		size_t chars;
		if (d >= 64)
			continue;
		if (!(t > 0) || !isfinite(t)) /* a hostile model: nothing to draw, children under it get 0 */
			t = 0;
		x = off[d];
		/* spans that outlast their parent (overlapping input) can sum past it: a box is
		 * drawn within its parent's */
		if (x + t > end[d])
			t = end[d] > x ? end[d] - x : 0;
		off[d] += t;
		if (d + 1 < 64) {
			off[d + 1] = x; /* children start under their parent */
			end[d + 1] = x + t;
		}
		if (t <= 0)
			continue;
		w = t / total * FLAME_W;
		flame_color(name, col, sizeof(col));
		fmt_val(t, unit, a, sizeof(a));
		fmt_val(pr_mnum(v, "self"), unit, b, sizeof(b));
		pr_strbuf_addf(sb, "<g class=\"fn\"><title>");
		esc(sb, name);
		pr_strbuf_addf(sb, " - %s (%.1f%%), self %s</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
				   "height=\"%.1f\" fill=\"%s\"/>",
			       a, t / total * 100, b, x / total * FLAME_W, FLAME_ROW * (double)d, w,
			       FLAME_ROW - 1, col);
		chars = (size_t)((w - 4) / 6.5);
		if (chars >= 3) {
			pr_elide_end(name, chars, cut, sizeof(cut));
			pr_strbuf_addf(sb, "<text x=\"%.2f\" y=\"%.1f\">", x / total * FLAME_W + 2,
				       FLAME_ROW * (double)d + 12.5);
			esc(sb, cut);
			pr_strbuf_addstr(sb, "</text>");
		}
		pr_strbuf_addstr(sb, "</g>\n");
	}
	pr_strbuf_addstr(sb, "</svg></figure>\n");
	if (pr_mll(fl, "nodes_more") > 0)
		pr_strbuf_addf(sb,
			       "<p class=\"capped\">%lld smaller or deeper node(s) are left out (under "
			       "0.1 %% of the total, deeper than 40 levels or past 1500 boxes): they show "
			       "as their parent's self; <code>profreport speedscope</code> has every stack.</p>\n",
			       pr_mll(fl, "nodes_more"));
}

