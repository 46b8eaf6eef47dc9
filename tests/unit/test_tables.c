/*
 * test_tables.c - the tables described as data (render/tables.h, issue 31):
 * every description is well formed (its console columns numbered 1..k, one
 * name column at most, a console row within 80 columns), and the page's loop
 * (pr_html_table) draws the cells the description says, checked against a
 * table written by hand.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/strbuf.h"
#include "render/html_util.h"
#include "render/names.h"
#include "render/tables.h"
#include "render/text_report.h"
#include "tests/unit/text_of.h"

static const struct pr_table *const all[] = {
	&pr_table_spans,	&pr_table_gpu_ops,
	&pr_table_memory_ops,	&pr_table_collectives,
	&pr_table_critpath_ops, &pr_table_critpath_kernels,
	&pr_table_phase_totals, &pr_table_phase_occurrences,
	&pr_table_phase_stages, &pr_table_series,
	&pr_table_steps,	&pr_table_launches,
	&pr_table_launch_ops,	&pr_table_launch_outliers,
	&pr_table_cupti_ops,
};

static void test_descriptions(void **state)
{
	size_t t, c;
	(void)state;
	for (t = 0; t < sizeof(all) / sizeof(all[0]); t++) {
		const struct pr_table *tb = all[t];
		size_t names = 0, oncon = 0, width = 1; /* a row starts with two blanks */
		int seen[PR_TABLE_COLS + 1] = { 0 };
		assert_true(tb->ncols > 0 && tb->ncols <= PR_TABLE_COLS);
		for (c = 0; c < tb->ncols; c++) {
			const struct pr_table_col *k = &tb->cols[c];
			/* every column reads a key but the row number; a share of a whole names it */
			assert_int_equal(k->key == NULL, k->kind == PR_COL_INDEX);
			assert_int_equal(k->of != NULL, k->kind == PR_COL_OF);
			assert_non_null(k->head);
			assert_int_not_equal(k->kind, PR_COL_SAME);
			/* a numeric column says so in its page heading ('#') */
			assert_int_equal(k->head[0] == '#', k->kind > PR_COL_TEXT);
			/* on the console exactly when it has a heading there */
			assert_int_equal(k->con_head != NULL, k->con_pos > 0);
			if (!k->con_pos)
				continue;
			/* the console fits one name column */
			names += PR_TABLE_CON_KIND(k) == PR_COL_NAME;
			assert_true(k->con_pos <= (int)tb->ncols);
			assert_int_equal(seen[k->con_pos], 0);
			seen[k->con_pos] = 1;
			assert_true(k->con_width >= (int)strlen(k->con_head));
			width += 1 + (size_t)k->con_width;
			oncon++;
		}
		assert_true(names <= 1);
		for (c = 1; c <= oncon; c++) /* places 1..k, no gap */
			assert_int_equal(seen[c], 1);
		assert_true(width <= 80);
	}
}

static void test_html_memory_ops(void **state)
{
	/* written by hand from the cells: bytes shown only when sized_count > 0 (tables.c);
	 * 1500 ns = 1.500 us, 2048 B = 2.00 KiB, 1e9 B/s = 1.0 GB/s (render/units.c) */
	static const char want[] =
		"<div class=\"scroll\"><table class=\"sortable\"><thead><tr><th>Direction</th>"
		"<th class=\"n\">Count</th><th class=\"n\">Time</th><th class=\"n\">Bytes</th>"
		"<th class=\"n\">Bandwidth</th></tr></thead><tbody>\n"
		"<tr><td>H&lt;D</td><td class=\"n\" data-v=\"2\">2</td>"
		"<td class=\"n\" data-v=\"1500\" data-u=\"ns\">1.500 us</td>"
		"<td class=\"n\" data-v=\"2048\" data-u=\"bytes\">2.00 KiB</td>"
		"<td class=\"n\" data-v=\"1000000000\" data-u=\"bytes_per_s\">1.0 GB/s</td></tr>\n"
		"<tr><td>Memset</td><td class=\"n\" data-v=\"1\">1</td>"
		"<td class=\"n\" data-v=\"500\" data-u=\"ns\">500 ns</td>"
		"<td class=\"n\" data-v=\"\">-</td><td class=\"n\" data-v=\"\">-</td></tr>\n"
		"</tbody></table></div>\n";
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *items = json_loads("[{\"direction\": \"H<D\", \"count\": 2, \"time_ns\": 1500, "
				   "\"sized_count\": 2, \"bytes\": 2048, \"bandwidth_Bps\": 1e9},"
				   "{\"direction\": \"Memset\", \"count\": 1, \"time_ns\": 500, "
				   "\"sized_count\": 0, \"bytes\": 0}]",
				   0, NULL);
	(void)state;
	assert_non_null(items);
	pr_html_table(&sb, &pr_table_memory_ops, items, NULL);
	assert_string_equal(sb.buf, want);
	pr_strbuf_release(&sb);
	json_decref(items);
}

static void test_html_share_and_unit(void **state)
{
	/* a share is a percent with the column's decimals; a VALUE column without a unit of its
	 * own takes the caller's (the spans' unit: bytes for DHAT) */
	struct pr_strbuf sb = PR_STRBUF_INIT;
	json_t *ops = json_loads("[{\"name\": \"k\", \"type\": \"compute\", \"count\": 3, "
				 "\"total_ns\": 30, \"mean_ns\": 10, \"share\": 0.25}]",
				 0, NULL);
	json_t *spans = json_loads("[{\"name\": \"f\", \"kind\": \"frame\", \"count\": 1, "
				   "\"self_ns\": 1024}]",
				   0, NULL);
	(void)state;
	pr_html_table(&sb, &pr_table_gpu_ops, ops, NULL);
	assert_non_null(strstr(sb.buf, "<td class=\"n\" data-v=\"25\">25.0</td></tr>"));
	assert_non_null(strstr(sb.buf, "<td>compute</td>"));
	pr_strbuf_reset(&sb);
	pr_html_table(&sb, &pr_table_spans, spans, "bytes");
	assert_non_null(strstr(sb.buf, "data-v=\"1024\" data-u=\"bytes\">1.00 KiB</td>"));
	/* absent keys read as "-" */
	assert_non_null(strstr(sb.buf, "<td class=\"n\" data-v=\"\">-</td></tr>"));
	pr_strbuf_release(&sb);
	json_decref(ops);
	json_decref(spans);
}

static void test_html_ctx(void **state)
{
	/* the row number; a value inside the item's first memory entry; at most cap rows of a
	 * total the page names with where all rows are */
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct pr_table_ctx x = { 0 };
	json_t *occ = json_loads("[{\"name\": \"a\", \"kind\": \"log\", \"t_ns\": 0, "
				 "\"dur_ns\": 2000, \"share\": 0.5, \"memory\": [{\"series\": "
				 "\"rss\", \"delta\": 2048, \"peak\": 4096}]}, {\"name\": \"b\"}]",
				 0, NULL);
	json_t *series = json_loads("[{\"name\": \"cpu\", \"unit\": \"percent\", \"mean\": 1, "
				    "\"mean_weighted\": 7}]",
				    0, NULL);
	json_t *steps = json_loads("[{\"name\": \"s\", \"dur_ns\": 8, \"kernel_ns\": 2}, "
				   "{\"name\": \"z\", \"dur_ns\": 0, \"kernel_ns\": 2}]",
				   0, NULL);
	(void)state;
	x.unit = "ns";
	x.cap = 1;
	x.total = 5;
	x.all_in = "the store";
	pr_html_table_ctx(&sb, &pr_table_phase_occurrences, occ, &x);
	assert_non_null(strstr(sb.buf, "<tr><td class=\"n\" data-v=\"1\">1</td>"));
	assert_non_null(strstr(sb.buf, "data-v=\"2048\" data-u=\"bytes\">2.00 KiB</td>"));
	assert_non_null(strstr(sb.buf, "<td class=\"name\">rss</td>"));
	assert_null(strstr(sb.buf, "<td class=\"name\">b</td>"));
	assert_non_null(strstr(sb.buf, "Showing 1 of 5 rows (capped at 200; the store has all"));
	/* the item's alternative key where it has one; each row's unit from its own key */
	pr_strbuf_reset(&sb);
	pr_html_table(&sb, &pr_table_series, series, NULL);
	assert_non_null(strstr(sb.buf, "data-v=\"7\" data-u=\"percent\""));
	assert_null(strstr(sb.buf, "data-v=\"1\" data-u=\"percent\""));
	/* a part as a percent of its whole; "-" where the whole is 0 */
	pr_strbuf_reset(&sb);
	pr_html_table(&sb, &pr_table_steps, steps, NULL);
	assert_non_null(strstr(sb.buf, "<td class=\"n\" data-v=\"25\">25.0</td>"));
	assert_non_null(strstr(sb.buf,
			       "<td class=\"name\">z</td><td class=\"n\" data-v=\"0\" "
			       "data-u=\"ns\">0 ns</td><td class=\"n\" data-v=\"\">-</td>"));
	pr_strbuf_release(&sb);
	json_decref(occ);
	json_decref(series);
	json_decref(steps);
}

static void test_text_cupti_ops(void **state)
{
	/* the console's kind and decimals of its own: the op a fitted name (a text on the page),
	 * FLOPs to 6 significant digits ("-" where absent); the first 10 ops */
	json_t *m = json_loads("{\"schema\": \"profreport-model\", \"runs\": [{\"id\": 1, "
			       "\"cupti_ranges\": {\"ranges\": 12, \"linked\": 12, \"launches\": "
			       "12, \"replay_ns\": 1000, \"counters\": [], \"by_op\": []}}]}",
			       0, NULL);
	json_t *ops = json_object_get(json_object_get(json_array_get(json_object_get(m, "runs"), 0),
						      "cupti_ranges"),
				      "by_op");
	char name[16], *txt;
	int i;
	(void)state;
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "op_%c", 'a' + i);
		json_array_append_new(ops, json_pack("{s:s, s:i}", "op", name, "ranges", 1));
	}
	json_object_set_new(json_array_get(ops, 0), "flops", json_real(12345678901.0));
	json_object_set_new(json_array_get(ops, 2), "flops", json_integer(8040));
	txt = text_of(m);
	assert_non_null(
		strstr(txt, "\n  op (nearest above the launch)         ranges          FLOPs\n"));
	assert_non_null(
		strstr(txt, "\n  op_a                                       1    1.23457e+10\n"));
	assert_non_null(
		strstr(txt, "\n  op_b                                       1              -\n"));
	assert_non_null(
		strstr(txt, "\n  op_c                                       1           8040\n"));
	assert_non_null(strstr(txt, "\n  op_j "));
	assert_null(strstr(txt, "\n  op_k "));
	free(txt);
	json_decref(m);
}

static void test_text_stages(void **state)
{
	/* the stages on the console: a name cut to 28 bytes as names.h displays it, a share of
	 * the wall and the collector's own percent */
	static const char long_name[] = "a_stage_name_longer_than_twenty_eight_bytes";
	json_t *m = json_pack("{s:s, s:[{s:i, s:{s:[{s:s, s:i, s:I, s:I, s:f, s:f}]}}]}", "schema",
			      "profreport-model", "runs", "id", 1, "phases", "stages", "name",
			      long_name, "count", 2, "total_ns", (json_int_t)3000000000LL,
			      "mean_ns", (json_int_t)1500000000LL, "share_of_wall", 0.25,
			      "reported_percentage", 26.75);
	char shown[29], want[160], *txt;
	(void)state;
	pr_name_display(long_name, shown, sizeof(shown));
	assert_true(strlen(shown) <= 28);
	snprintf(want, sizeof(want), "\n  %-28s %6s %10s %10s %7s%% %8s%%\n", shown, "2", "3.000 s",
		 "1.500 s", "25.0", "26.8");
	txt = text_of(m);
	assert_non_null(strstr(txt,
			       "\n  stage                         calls      total       mean  of "
			       "wall  reported\n"));
	assert_non_null(strstr(txt, want));
	free(txt);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptions),	    cmocka_unit_test(test_html_memory_ops),
		cmocka_unit_test(test_html_share_and_unit), cmocka_unit_test(test_html_ctx),
		cmocka_unit_test(test_text_cupti_ops),	    cmocka_unit_test(test_text_stages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
