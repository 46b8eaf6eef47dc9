/*
 * html_opkern.c - the operator and kernel views of a run's page; see
 * html_views.h. Each is a section whose rows (every row the model keeps,
 * op_view / kernel_view) travel as JSON in a <script type="application/json"
 * class="tv-data"> (pr_json_script_escape); templates/views.js draws the
 * table from them (sortable, searchable, paged, grouped by name or split by
 * shapes / launch properties, CSV download). Without a script the section
 * says what it holds and where the rows are.
 */
#include "render/html_util.h"
#include "render/html_views.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "base/escape.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "render/names.h"
#include "render/tables.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* op_view and kernel_view have one shape, read by one function under op_view's key names: the
 * kernel view's names must exist too, so either view losing a key fails to compile. */
_Static_assert(sizeof(PRK_KERNEL_VIEW_ROWS) == sizeof(PRK_OP_VIEW_ROWS), "kernel_view.rows");
_Static_assert(sizeof(PRK_KERNEL_VIEW_DISTINCT) == sizeof(PRK_OP_VIEW_DISTINCT),
	       "kernel_view.distinct");
_Static_assert(sizeof(PRK_KERNEL_VIEW_ROWS_NAME) == sizeof(PRK_OP_VIEW_ROWS_NAME),
	       "kernel_view.rows[].name");

/* The display names of the rows' "name" and "op", 72 bytes at most as the page's other name
 * columns (pr_html_td): {"full": "shown"} where they differ. */
static json_t *display_names(const json_t *rows)
{
	static const char *const keys[] = { PRK_OP_VIEW_ROWS_NAME,
					    PRK_KERNEL_VIEW_ROWS_OP /* kernel rows only */ };
	json_t *seen = json_object(), *out, *r;
	size_t i, k;
	json_array_foreach (rows, i, r)
		for (k = 0; k < 2; k++)
			if (json_is_string(json_object_get(r, keys[k])))
				json_object_set_new(seen,
						    json_string_value(json_object_get(r, keys[k])),
						    json_true());
	out = pr_html_display_map(seen, 72);
	json_decref(seen);
	return out;
}

static void view(struct pr_strbuf *sb, const json_t *run, size_t runi, const char *key,
		 const char *kind, const char *title, const char *what)
{
	const json_t *v = json_object_get(run, key);
	char *s;
	if (!json_array_size(json_object_get(v, PRK_OP_VIEW_ROWS)))
		return;
	v = json_copy((json_t *)v);
	json_object_set_new((json_t *)v, "display",
			    display_names(json_object_get(v, PRK_OP_VIEW_ROWS)));
	s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII |
				  JSON_REAL_PRECISION(10));
	if (!s)
		abort(); /* only out of memory */
	pr_strbuf_addf(sb, "<h3>%s</h3>\n<div class=\"tv\" id=\"r%zu-%s\" data-kind=\"%s\">", title,
		       runi, kind, kind);
	pr_strbuf_addf(sb,
		       "<p class=\"capped tv-nojs\">%s: %lld rows, drawn by the page's script "
		       "(the JSON model's <code>%s</code> has them).</p>",
		       what, pr_mll(v, PRK_OP_VIEW_DISTINCT), key);
	pr_strbuf_addstr(sb, "<script type=\"application/json\" class=\"tv-data\">");
	pr_json_script_escape(sb, s);
	pr_strbuf_addstr(sb, "</script></div>\n");
	json_decref((json_t *)v);
	free(s);
}

void pr_html_op_view(struct pr_strbuf *sb, const json_t *run, size_t runi)
{
	view(sb, run, runi, PRK_OP_VIEW, "ops", "Operator view",
	     "Every op by name (or by name and input shapes)");
}

/* gpu.kernel_sequences (issue 28): the repeated runs of activities on a stream. */
static void kernel_sequences(struct pr_strbuf *sb, const json_t *run)
{
	const json_t *ks = json_object_get(json_object_get(run, PRK_GPU), PRK_GPU_KERNEL_SEQUENCES);
	const json_t *items = json_object_get(ks, PRK_GPU_KERNEL_SEQUENCES_ITEMS);
	if (!json_array_size(items))
		return;
	pr_strbuf_addf(sb,
		       "<h4>Frequent kernel sequences</h4>\n<p>%lld patterns of %lld to %lld "
		       "activities repeat on a stream (HTA's frequent CUDA kernel sequences: "
		       "candidates for fusion); the %zu with the most device time, one per "
		       "stretch of the stream. A run is one occurrence; its gaps are the idle "
		       "time between its activities, which fusing them would save.</p>\n",
		       pr_mll(ks, PRK_GPU_KERNEL_SEQUENCES_PATTERNS),
		       pr_mll(ks, PRK_GPU_KERNEL_SEQUENCES_MIN_LENGTH),
		       pr_mll(ks, PRK_GPU_KERNEL_SEQUENCES_MAX_LENGTH), json_array_size(items));
	pr_html_table(sb, &pr_table_kernel_seqs, items, NULL);
}

void pr_html_kernel_view(struct pr_strbuf *sb, const json_t *run, size_t runi)
{
	view(sb, run, runi, PRK_KERNEL_VIEW, "kernels", "Kernel view",
	     "Every kernel by name (or by launching op and launch properties)");
	kernel_sequences(sb, run);
}
