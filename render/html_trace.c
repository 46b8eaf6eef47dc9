/*
 * html_trace.c - the trace view of a run's page; see html_views.h.
 *
 * The model's "trace" section (analyze/an_trace.c: named slices of the
 * windows that explain the run, lanes, links between launches and their
 * device work) goes to the page as it is, inside a JSON script element that
 * templates/trace.js draws on a canvas; the names' display forms ride along
 * so the script never has to shorten a C++ name itself. Without a script
 * the section says what it would show.
 */
#include "render/html_util.h"
#include "render/html_views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "base/escape.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* The step a window is named after ("slowest step ProfilerStep#6"), in the throughput's list. */
static const json_t *window_step(const json_t *run, const char *label)
{
	const json_t *o;
	const char *p = strstr(label, "step ");
	size_t i;
	if (!p)
		return NULL;
	p += 5;
	json_array_foreach (json_object_get(json_object_get(json_object_get(run, PRK_THROUGHPUT),
							    PRK_THROUGHPUT_STEPS),
					    PRK_THROUGHPUT_STEPS_LIST),
			    i, o)
		if (!strcmp(pr_mstr(o, PRK_THROUGHPUT_STEPS_LIST_NAME), p))
			return o;
	return NULL;
}

/*
 * What the page says about the windows: "slowest step X (164.450 ms; shown
 * from 315.500 ms to the end of its GPU work, 167.067 ms)". A step window
 * says the step's time as the rest of the page does (the throughput's, the
 * step chart's) and what the window adds to it, so one step has one time.
 */
static void windows_text(struct pr_strbuf *sb, const json_t *run, const json_t *wins)
{
	const json_t *w, *st;
	size_t i;
	char a[48], b[48], c[48];
	json_array_foreach (wins, i, w) {
		if (i)
			pr_strbuf_addstr(sb, i + 1 == json_array_size(wins) ? " and " : ", ");
		pr_html_esc(sb, pr_mstr(w, PRK_TRACE_WINDOWS_LABEL));
		pr_html_fmt_val(pr_mnum(w, PRK_TRACE_WINDOWS_T0_NS) * 1e-9, "s", a, sizeof(a));
		pr_html_fmt_val((pr_mnum(w, PRK_TRACE_WINDOWS_T1_NS) -
				 pr_mnum(w, PRK_TRACE_WINDOWS_T0_NS)) *
					1e-9,
				"s", b, sizeof(b));
		st = window_step(run, pr_mstr(w, PRK_TRACE_WINDOWS_LABEL));
		if (st && pr_mnum(st, PRK_THROUGHPUT_STEPS_LIST_DUR_NS) !=
				  pr_mnum(w, PRK_TRACE_WINDOWS_T1_NS) -
					  pr_mnum(w, PRK_TRACE_WINDOWS_T0_NS)) {
			pr_html_fmt_val(pr_mnum(st, PRK_THROUGHPUT_STEPS_LIST_DUR_NS) * 1e-9, "s",
					c, sizeof(c));
			pr_strbuf_addf(sb, " (%s; shown from %s to the end of its GPU work, %s)", c,
				       a, b);
		} else {
			pr_strbuf_addf(sb, " (from %s, %s long)", a, b);
		}
	}
}

/* Args without the keys every slice has its own value of (the links carry the correlations):
 * what is left repeats (shapes, launch configurations), so the page keeps one copy of each. */
static json_t *page_args(const json_t *args, json_t *slices_args)
{
	json_t *out = json_array(), *seen = json_object(), *a;
	size_t i;
	json_array_foreach (slices_args, i, a) {
		const json_t *o = json_array_get(args, (size_t)json_integer_value(a));
		json_t *c, *idx;
		char *key;
		if (json_integer_value(a) < 0 || !json_is_object(o))
			continue;
		c = json_deep_copy(o);
		json_object_del(c, "correlation");
		json_object_del(c, "External id");
		key = json_object_size(c) ? json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
		if (!key) {
			json_array_set_new(slices_args, i, json_integer(-1));
		} else if ((idx = json_object_get(seen, key))) {
			json_array_set(slices_args, i, idx);
		} else {
			idx = json_integer((json_int_t)json_array_size(out));
			json_object_set_new(seen, key, idx);
			json_array_set(slices_args, i, idx);
			json_array_append(out, c);
		}
		json_decref(c);
		free(key);
	}
	json_decref(seen);
	return out;
}

/*
 * The section as the page's script reads it: the model's keys with the slices
 * as columns (trace.js decodes them): lanes as runs [lane, count] (the slices
 * come sorted by lane), starts as differences from the slice before, "ch" the
 * time in children (duration - self, -1 when self is unknown: 0 for a leaf),
 * args deduplicated once the per-slice keys are gone, and "display" the
 * names as the page prints them where that differs ({"index": "shown"}).
 */
static json_t *page_data(const json_t *tr)
{
	static const char *const keep[] = { PRK_TRACE_WINDOWS,	  PRK_TRACE_BOUND,
					    PRK_TRACE_IN_WINDOWS, PRK_TRACE_SHOWN,
					    PRK_TRACE_LEFT_OUT,	  PRK_TRACE_LEFT_OUT_BELOW_NS,
					    PRK_TRACE_LANES,	  PRK_TRACE_KINDS,
					    PRK_TRACE_NAMES,	  PRK_TRACE_LINKS };
	const json_t *slices = json_object_get(tr, PRK_TRACE_SLICES),
		     *names = json_object_get(tr, PRK_TRACE_NAMES), *s;
	json_t *d = json_object(), *runs = json_array(), *depth = json_array(), *dt = json_array(),
	       *dur = json_array(), *name = json_array(), *kind = json_array(), *ch = json_array(),
	       *args = json_array(), *disp = json_object(), *cols = json_object();
	json_int_t prev = 0, lane = -1, count = 0;
	size_t i;
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (json_object_get(tr, keep[i]))
			json_object_set(d, keep[i], json_object_get(tr, keep[i]));
	json_array_foreach (slices, i, s) {
		json_int_t l = json_integer_value(json_array_get(s, 0)),
			   t = json_integer_value(json_array_get(s, 2)),
			   du = json_integer_value(json_array_get(s, 3)),
			   self = json_is_integer(json_array_get(s, 6))
					  ? json_integer_value(json_array_get(s, 6))
					  : -1;
		if (l != lane) {
			if (count)
				json_array_append_new(runs, json_pack("[II]", lane, count));
			lane = l;
			count = 0;
		}
		count++;
		json_array_append_new(depth,
				      json_integer(json_integer_value(json_array_get(s, 1))));
		json_array_append_new(dt, json_integer(t - prev));
		prev = t;
		json_array_append_new(dur, json_integer(du));
		json_array_append_new(name, json_integer(json_integer_value(json_array_get(s, 4))));
		json_array_append_new(kind, json_integer(json_integer_value(json_array_get(s, 5))));
		json_array_append_new(ch, json_integer(self < 0 ? -1 : du - self));
		json_array_append_new(args, json_integer(json_is_integer(json_array_get(s, 7))
								 ? json_integer_value(
									   json_array_get(s, 7))
								 : -1));
	}
	if (count)
		json_array_append_new(runs, json_pack("[II]", lane, count));
	json_object_set_new(d, "args", page_args(json_object_get(tr, PRK_TRACE_ARGS), args));
	json_object_set_new(cols, "lanes", runs);
	json_object_set_new(cols, "depth", depth);
	json_object_set_new(cols, "dt", dt);
	json_object_set_new(cols, "dur", dur);
	json_object_set_new(cols, "name", name);
	json_object_set_new(cols, "kind", kind);
	json_object_set_new(cols, "ch", ch);
	json_object_set_new(cols, "args", args);
	json_object_set_new(d, "cols", cols);
	/* the names as one column (render/names.h): two different names never print alike */
	if (json_array_size(names)) {
		size_t n = json_array_size(names);
		const char **full = pr_xcalloc(n, sizeof(*full));
		pr_label_t *shown = pr_xcalloc(n, sizeof(*shown));
		for (i = 0; i < n; i++) {
			full[i] = json_string_value(json_array_get(names, i));
			if (!full[i])
				full[i] = "";
		}
		pr_name_column(shown, full, n, sizeof(shown[0]) - 1);
		for (i = 0; i < n; i++) {
			char k[24];
			if (!strcmp(shown[i], full[i]))
				continue;
			snprintf(k, sizeof(k), "%zu", i);
			json_object_set_new(disp, k, json_string(shown[i]));
		}
		free(shown);
		free(full);
	}
	json_object_set_new(d, "display", disp);
	return d;
}

void pr_html_trace_view(struct pr_strbuf *sb, const json_t *run, size_t runi)
{
	const json_t *tr = json_object_get(run, PRK_TRACE);
	json_t *data;
	char *text, a[48];
	if (!json_is_object(tr) || !json_array_size(json_object_get(tr, PRK_TRACE_SLICES)))
		return;
	/* positions that are not time (DHAT's bytes allocated): no time line; the flame graph
	 * weighs the same frames in their own unit */
	if (*pr_mstr(json_object_get(run, PRK_CLOCK), PRK_CLOCK_X_UNIT))
		return;
	pr_strbuf_addf(sb, "<h3 id=\"r%zu-trace\">Trace view</h3>\n<p class=\"trv-about\">", runi);
	pr_strbuf_addf(sb, "%lld named slices of ", pr_mll(tr, PRK_TRACE_SHOWN));
	windows_text(sb, run, json_object_get(tr, PRK_TRACE_WINDOWS));
	pr_strbuf_addstr(sb, ", one lane per CPU thread and GPU stream");
	if (pr_mll(tr, PRK_TRACE_LEFT_OUT) > 0) {
		pr_html_fmt_val(pr_mnum(tr, PRK_TRACE_LEFT_OUT_BELOW_NS) * 1e-9, "s", a, sizeof(a));
		pr_strbuf_addf(
			sb,
			"; %lld of the %lld slices in the window%s are left out (at most %lld are "
			"shown, the longest first: every slice left out is shorter than %s)",
			pr_mll(tr, PRK_TRACE_LEFT_OUT), pr_mll(tr, PRK_TRACE_IN_WINDOWS),
			json_array_size(json_object_get(tr, PRK_TRACE_WINDOWS)) > 1 ? "s" : "",
			pr_mll(tr, PRK_TRACE_BOUND), a);
	}
	pr_strbuf_addstr(
		sb, ". Wheel or W/S zooms, drag or A/D pans, a double click shows the whole "
		    "window again; click a slice to select it and see its launch or kernel. "
		    "<code>report --window STEP|START:END</code> chooses another window; the whole "
		    "trace opens in Perfetto (<code>ui.perfetto.dev</code>, Open trace file: read "
		    "in your browser, not uploaded).</p>\n");
	pr_strbuf_addf(
		sb,
		"<div class=\"trv\" id=\"r%zu-trv\" tabindex=\"0\"><noscript><p class=\"capped\">"
		"The trace view needs JavaScript.</p></noscript></div>\n",
		runi);
	data = page_data(tr);
	text = json_dumps(data, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(data);
	pr_strbuf_addstr(sb, "<script type=\"application/json\" class=\"trv-data\">");
	if (text)
		pr_json_script_escape(sb, text);
	pr_strbuf_addstr(sb, "</script>\n");
	free(text);
}
