/*
 * an_ops.c - "op_view": TensorBoard's operator view. Every op (span kind
 * "op") grouped by (name, "Input Dims", "Input type"): calls, host total
 * (sum of durations) and host self (sum of the store's self time: the
 * duration minus the direct children's), one row per distinct triple.
 * The device columns (device self and total, TensorBoard's) are added to
 * the same rows by the gpu analysis (an_gpulink.c), which links each
 * activity to its runtime call and the call to the op spans above it: it
 * reads the rows' keys back from this section (pr_opview_key), so the two
 * agree on what a shape is. A run without GPU activities keeps its rows
 * without device columns.
 *
 * The shapes are the args' JSON texts as stored (json_extract of the
 * array element at the key's position in its argkeys list), cut to
 * OPV_SHAPE_MAX_S bytes; an op without the arg has null there. SQLite groups
 * the rows (its own sorter, spilling to a temporary file beyond its cache):
 * this file holds only the rows kept, at most OPV_ROWS; beyond, the rows
 * with the smallest host total (ties: name, shapes) are summed into one
 * "(other ops)" row and their number is stated ("folded").
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/opview.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* The positions of "Input Dims" and "Input type" in each argkeys list. */
#define OPV_KEYS_CTE                                                                           \
	"WITH k AS (SELECT a.id AS id, "                                                       \
	"(SELECT min(CAST(j.key AS INTEGER)) FROM json_each(a.keys) j "                        \
	" WHERE j.value = 'Input Dims') AS d, "                                               \
	"(SELECT min(CAST(j.key AS INTEGER)) FROM json_each(a.keys) j "                        \
	" WHERE j.value = 'Input type') AS t "                                                \
	"FROM argkeys a WHERE json_valid(a.keys)) "

static double sat(double v)
{
	return v >= 9.2e18 ? 9.2e18 : v < 0 ? 0 : v;
}

void pr_opview_key(struct pr_strbuf *sb, const char *name, const char *dims, const char *types)
{
	/* \x1f cannot be in a shape's text (JSON escapes control characters); a null
	 * shape is \x1e, distinct from any text */
	pr_strbuf_reset(sb);
	pr_strbuf_addstr(sb, name);
	pr_strbuf_addstr(sb, "\x1f");
	pr_strbuf_addstr(sb, dims ? dims : "\x1e");
	pr_strbuf_addstr(sb, "\x1f");
	pr_strbuf_addstr(sb, types ? types : "\x1e");
}

static json_t *text_or_null(sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return json_null();
	return json_string(pr_actx_text(st, col));
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *rows, *o;
	int rc;
	int64_t n = 0, folded = 0;
	double calls_all = 0, self_all = 0, total_all = 0;
	double f_calls = 0, f_self = 0, f_total = 0;
	static const char sql[] =
		OPV_KEYS_CTE
		"SELECT n.value, g.dims, g.types, g.calls, g.tot, g.slf FROM ("
		" SELECT s.name_id AS name_id, "
		" CASE WHEN k.d IS NOT NULL AND json_valid(s.args) THEN "
		"  substr(json_extract(s.args, '$[' || k.d || ']'), 1, " OPV_SHAPE_MAX_S ") END AS dims, "
		" CASE WHEN k.t IS NOT NULL AND json_valid(s.args) THEN "
		"  substr(json_extract(s.args, '$[' || k.t || ']'), 1, " OPV_SHAPE_MAX_S ") END AS types, "
		" count(*) AS calls, total(s.dur) AS tot, total(s.self) AS slf "
		" FROM span s LEFT JOIN k ON k.id = s.args_keys "
		" WHERE s.run_id = ?1 AND s.kind = 'op' GROUP BY 1, 2, 3) g "
		"JOIN string n ON n.id = g.name_id "
		"ORDER BY g.tot DESC, n.value, g.dims, g.types";
	if (pr_actx_prep(ctx, sql, &st, err))
		return -1;
	rows = json_array();
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double calls = sqlite3_column_double(st, 3), tot = sat(sqlite3_column_double(st, 4)),
		       slf = sat(sqlite3_column_double(st, 5));
		calls_all += calls;
		total_all += tot;
		self_all += slf;
		n++;
		if (n >= OPV_ROWS) { /* the last slot holds the fold when there is one */
			if (n == OPV_ROWS) {
				/* keep it for now: folded only if another row follows */
				o = pr_jobj("name", json_string(pr_actx_text(st, 0)), "input_dims",
					    text_or_null(st, 1), "input_type", text_or_null(st, 2),
					    "calls", pr_jint((int64_t)calls), "host_total_ns",
					    pr_jint((int64_t)tot), "host_self_ns", pr_jint((int64_t)slf),
					    NULL);
				json_array_append_new(rows, o);
			}
			folded++;
			f_calls += calls;
			f_total += tot;
			f_self += slf;
			continue;
		}
		o = pr_jobj("name", json_string(pr_actx_text(st, 0)), "input_dims",
			    text_or_null(st, 1), "input_type", text_or_null(st, 2), "calls",
			    pr_jint((int64_t)calls), "host_total_ns", pr_jint((int64_t)tot),
			    "host_self_ns", pr_jint((int64_t)slf), NULL);
		json_array_append_new(rows, o);
	}
	if (pr_actx_done(ctx, st, rc, err)) {
		json_decref(rows);
		return -1;
	}
	if (!n) {
		json_decref(rows);
		return 0;
	}
	if (folded > 1) { /* the row at OPV_ROWS - 1 and the rest become "(other ops)" */
		json_array_remove(rows, json_array_size(rows) - 1);
		json_array_append_new(rows, pr_jobj("name", json_string(PR_OPVIEW_OTHER), "input_dims",
						    json_null(), "input_type", json_null(), "calls",
						    pr_jint((int64_t)f_calls), "host_total_ns",
						    pr_jint((int64_t)sat(f_total)), "host_self_ns",
						    pr_jint((int64_t)sat(f_self)), "other", json_true(),
						    NULL));
	} else {
		folded = 0;
	}
	o = pr_jobj("rows", rows, "distinct", pr_jint(n), "folded", pr_jint(folded), "calls",
		    pr_jint((int64_t)calls_all), "host_total_ns", pr_jint((int64_t)sat(total_all)),
		    "host_self_ns", pr_jint((int64_t)sat(self_all)), "has_device", json_false(),
		    NULL);
	json_object_set_new(
		o, "rule",
		json_string("every op span grouped by (name, \"Input Dims\", \"Input type\" args as "
			    "JSON text, cut to 512 bytes; null: no such arg): calls, host total = sum "
			    "of durations, host self = sum of (duration - direct children); device "
			    "self = activities launched by runtime calls whose nearest op ancestor is "
			    "the op, device total = by the op or any op below it (TensorBoard's "
			    "operator view); at most 5000 rows, the smallest by host total folded "
			    "into \"(other ops)\""));
	json_object_set_new(ctx->out, "op_view", o);
	return 0;
}

const struct pr_analyzer pr_an_ops = {
	.name = "op_view",
	.summary = "operator view: every op by name and input shapes, host and device times",
	.run = run,
};
