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
 * The shapes are the args' JSON texts as stored (the element of the
 * args array at the key's position in its argkeys list, pr_opview_elem),
 * cut to OPV_SHAPE_MAX bytes; an op without the arg has null there. SQLite groups
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

/* Where the JSON value at s[i] ends (depth 0 ',' or closing bracket), n when it does not. */
static size_t elem_end(const char *s, size_t i, size_t n)
{
	int depth = 0;
	for (; i < n; i++) {
		char c = s[i];
		if (c == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\' && i + 1 < n)
					i++;
			if (i >= n)
				return n;
		} else if (c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			if (!depth)
				return i;
			depth--;
		} else if (c == ',' && !depth) {
			return i;
		}
	}
	return n;
}

int pr_opview_elem(const char *s, size_t n, int64_t pos, struct pr_strbuf *sb)
{
	size_t i = 1, e;
	int64_t idx = 0;
	pr_strbuf_reset(sb);
	if (!s || n < 2 || s[0] != '[' || pos < 0)
		return 0;
	for (;;) {
		e = elem_end(s, i, n);
		if (e >= n || e == i)
			return 0; /* unterminated, or an empty element */
		if (idx == pos)
			break;
		if (s[e] != ',')
			return 0; /* the array ends before pos */
		i = e + 1;
		idx++;
	}
	n = e - i;
	if (n > OPV_SHAPE_MAX) { /* cut on a UTF-8 character's first byte */
		n = OPV_SHAPE_MAX;
		while (n && ((unsigned char)s[i + n] & 0xC0) == 0x80)
			n--;
	}
	pr_strbuf_add(sb, s + i, n);
	return 1;
}

/* SQL pr_opv_elem(args, pos): pr_opview_elem's text, NULL when none. */
static void sql_elem(sqlite3_context *c, int argc, sqlite3_value **v)
{
	struct pr_strbuf sb;
	(void)argc;
	if (sqlite3_value_type(v[0]) != SQLITE_TEXT || sqlite3_value_type(v[1]) != SQLITE_INTEGER) {
		sqlite3_result_null(c);
		return;
	}
	pr_strbuf_init(&sb);
	if (pr_opview_elem((const char *)sqlite3_value_text(v[0]), (size_t)sqlite3_value_bytes(v[0]),
			   sqlite3_value_int64(v[1]), &sb))
		sqlite3_result_text(c, sb.buf, (int)sb.len, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(c);
	pr_strbuf_release(&sb);
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
		" pr_opv_elem(s.args, k.d) AS dims, pr_opv_elem(s.args, k.t) AS types, "
		" count(*) AS calls, total(s.dur) AS tot, total(s.self) AS slf "
		" FROM span s LEFT JOIN k ON k.id = s.args_keys "
		" WHERE s.run_id = ?1 AND s.kind = 'op' GROUP BY 1, 2, 3) g "
		"JOIN string n ON n.id = g.name_id "
		"ORDER BY g.tot DESC, n.value, g.dims, g.types";
	/* once per connection (another run's statements may be active: sqlite then refuses to
	 * register it again) */
	if (sqlite3_prepare_v2(ctx->db, "SELECT pr_opv_elem('[1]', 0)", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
	} else if (sqlite3_create_function(ctx->db, "pr_opv_elem", 2,
					   SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_elem, NULL,
					   NULL) != SQLITE_OK) {
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
	}
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
