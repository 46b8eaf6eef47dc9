/*
 * html_util.c - the page's small shared pieces: escaped text, values in
 * their unit, the display names of a set of names. Used by the run page
 * (html_report.c) and by its views (html_trace.c, html_opkern.c,
 * html_flame.c), which call down into this file and never into each other.
 */
#include "render/html_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/escape.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "render/units.h"

void pr_html_esc(struct pr_strbuf *sb, const char *s)
{
	pr_xml_escape(sb, s);
}

json_t *pr_html_display_map(const json_t *names, size_t w)
{
	json_t *out = json_object(), *v;
	const char *key, **full = pr_xcalloc(json_object_size(names) + 1, sizeof(*full));
	pr_label_t *shown = pr_xcalloc(json_object_size(names) + 1, sizeof(*shown));
	size_t i, n = 0;
	json_object_foreach((json_t *)names, key, v)
		full[n++] = key;
	pr_name_column(shown, full, n, w < sizeof(shown[0]) ? w : sizeof(shown[0]) - 1);
	for (i = 0; i < n; i++)
		if (strcmp(shown[i], full[i]))
			json_object_set_new(out, full[i], json_string(shown[i]));
	free(shown);
	free(full);
	return out;
}

const char *pr_html_fmt_val(double v, const char *unit, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (!strcmp(unit, "s"))
		pr_fmt_duration(v * 1e9, buf, n);
	else
		pr_fmt_value(v, unit, buf, n);
	return buf;
}
