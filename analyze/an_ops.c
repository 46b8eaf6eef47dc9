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
#include "analyze/analyzers.h"
#include "base/imap.h"
#include "analyze/opmerge.h"
#include "analyze/opview.h"
#include "analyze/spanstat.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/strmap.h"
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

int pr_opview_elem(const char *s, size_t n, int64_t pos, struct pr_strbuf *sb)
{
	size_t i = 1, e;
	int64_t idx = 0;
	pr_strbuf_reset(sb);
	if (!s || n < 2 || s[0] != '[' || pos < 0)
		return 0;
	for (;;) {
		e = pr_json_elem_end(s, i, n);
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
	if (pr_opview_elem((const char *)sqlite3_value_text(v[0]),
			   (size_t)sqlite3_value_bytes(v[0]), sqlite3_value_int64(v[1]), &sb))
		sqlite3_result_text(c, sb.buf, (int)sb.len, SQLITE_TRANSIENT);
	else
		sqlite3_result_null(c);
	pr_strbuf_release(&sb);
}

/* The rows as they come, largest host total first: the first OPV_ROWS - 1 kept, the rest
 * summed into "(other ops)" (a single row past them is kept as it is). */
struct acc {
	json_t *rows;
	int64_t n, folded;
	double calls_all, self_all, total_all, f_calls, f_self, f_total;
};

/* One row of the view (dims and types: new references or NULL, taken). */
static json_t *op_row(const char *name, json_t *dims, json_t *types, double calls, double tot,
		      double slf)
{
	return pr_jobj("name", json_string(name), "input_dims", dims ? dims : json_null(),
		       "input_type", types ? types : json_null(), "calls", pr_jint((int64_t)calls),
		       "host_total_ns", pr_jint((int64_t)tot), "host_self_ns",
		       pr_jint((int64_t)slf), NULL);
}

static void acc_row(struct acc *a, const char *name, json_t *dims, json_t *types, double calls,
		    double tot, double slf)
{
	tot = sat(tot);
	slf = sat(slf);
	a->calls_all += calls;
	a->total_all += tot;
	a->self_all += slf;
	a->n++;
	if (a->n > OPV_ROWS) { /* folded: the shapes are not kept */
		json_decref(dims);
		json_decref(types);
	}
	if (a->n >= OPV_ROWS) { /* the last slot holds the fold when there is one */
		if (a->n == OPV_ROWS)
			/* kept for now: folded only if another row follows */
			json_array_append_new(a->rows, op_row(name, dims, types, calls, tot, slf));
		a->folded++;
		a->f_calls += calls;
		a->f_total += tot;
		a->f_self += slf;
		return;
	}
	json_array_append_new(a->rows, op_row(name, dims, types, calls, tot, slf));
}

/* Does any span of the store carry an "Input Dims" or "Input type" arg? (argkeys: one row per
 * distinct list of keys, a few hundred) */
static int has_shapes(struct pr_actx *ctx, int *yes, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT 1 FROM argkeys WHERE (instr(keys, '\"Input Dims\"') OR "
			 "instr(keys, '\"Input type\"')) AND ?1 IS NOT NULL LIMIT 1",
			 &st, err))
		return -1;
	rc = sqlite3_step(st);
	*yes = rc == SQLITE_ROW;
	return pr_actx_done(ctx, st, rc == SQLITE_ROW ? SQLITE_DONE : rc, err);
}

/* One (name, Input Dims, Input type) group of the in-memory paths. */
struct sgroup {
	int64_t name_id;
	char *name, *dims, *types; /* dims, types NULL: no such arg */
	double calls, tot, slf;
};

static int cmp_opt(const char *x, const char *y) /* SQLite's order: NULL first, then memcmp */
{
	if (!x || !y)
		return x ? 1 : y ? -1 : 0;
	return strcmp(x, y);
}

static int cmp_sgroup(const void *pa, const void *pb)
{
	const struct sgroup *a = pa, *b = pb;
	int c;
	if (a->tot != b->tot)
		return a->tot > b->tot ? -1 : 1;
	if ((c = strcmp(a->name, b->name)))
		return c;
	if ((c = cmp_opt(a->dims, b->dims)))
		return c;
	return cmp_opt(a->types, b->types);
}

/* Without shapes the rows are the shared pass's groups of kind op (spanstat.h), which sum
 * count, duration and self as the SQL below does: no scan of its own. An absorbed op
 * (opmerge.h) has its parent's name, so its name's row loses its call and duration and keeps
 * its self time; the rows are sorted again (host total, name) as the changed totals ask. */
static int rows_by_name(struct pr_actx *ctx, const struct pr_opmerge *m, struct acc *a,
			struct pr_error *err)
{
	const struct pr_spanstat *ss = pr_spanstat_get(ctx, err);
	struct sgroup *v;
	size_t i, n = 0;
	if (!ss)
		return -1;
	v = pr_xreallocarray(NULL, ss->nby_total ? ss->nby_total : 1, sizeof(*v));
	for (i = 0; i < ss->nby_total; i++) {
		const struct pr_spanstat_group *g = &ss->g[ss->by_total[i]];
		int64_t dur, k;
		if (!g->name || strcmp(ss->kinds[g->kind], "op"))
			continue;
		k = pr_opmerge_name(m, g->name_id, &dur);
		v[n++] = (struct sgroup){ g->name_id,
					  g->name,
					  NULL,
					  NULL,
					  (double)(g->all.count - k),
					  g->all.total - (double)dur,
					  g->all.self };
	}
	if (m->n && n)
		qsort(v, n, sizeof(*v), cmp_sgroup);
	for (i = 0; i < n; i++)
		acc_row(a, v[i].name, json_null(), json_null(), v[i].calls, v[i].tot, v[i].slf);
	free(v);
	return 0;
}

static int rows_by_shape(struct pr_actx *ctx, struct acc *a, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	static const char sql[] = OPV_KEYS_CTE
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
	if (sqlite3_prepare_v2(ctx->db, "SELECT pr_opv_elem('[1]', 0)", -1, &st, NULL) ==
	    SQLITE_OK) {
		sqlite3_finalize(st);
	} else if (sqlite3_create_function(ctx->db, "pr_opv_elem", 2,
					   SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_elem, NULL,
					   NULL) != SQLITE_OK) {
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(ctx->db));
	}
	if (pr_actx_prep(ctx, sql, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		acc_row(a, pr_actx_text(st, 0), text_or_null(st, 1), text_or_null(st, 2),
			sqlite3_column_double(st, 3), sqlite3_column_double(st, 4),
			sqlite3_column_double(st, 5));
	return pr_actx_done(ctx, st, rc, err);
}

/* the element at pos of the args text as a new string, NULL when none */
static char *elem_dup(const char *args, size_t n, int64_t pos, struct pr_strbuf *sb)
{
	if (!args || pos < 0 || !pr_opview_elem(args, n, pos, sb))
		return NULL;
	return pr_xstrndup(sb->buf, sb->len);
}

/*
 * rows_by_shape's groups made here, in one pass over the run's op spans in id order (the order
 * in which SQLite's GROUP BY adds a group's rows, so the sums are the same to the bit): the
 * key is (name id, dims, types) in a hash map. The SQL costs a sort of every op span by its
 * text keys (2.1 s of a 1 GB trace's 5.5 s analysis); this about a third of that. At most
 * OPV_MEM_GROUPS groups: past them (hostile shapes, a new one per call) *fallback is set and
 * the SQL, which spills its sort to disk, does it. An absorbed op (opmerge.h) is no row's
 * call: its self time goes to the group of the op it merges into (the top of its chain), as
 * TensorBoard keeps the parent's shapes.
 */
#define OPV_MEM_GROUPS 200000
struct pend {
	int64_t top;
	double self;
};

static int rows_by_shape_mem(struct pr_actx *ctx, const struct pr_opmerge *m, struct acc *a,
			     int *fallback, struct pr_error *err)
{
	sqlite3_stmt *st, *nst = NULL;
	struct pr_imap pos = { 0 }, top_gi = { 0 };
	struct pend *pend = NULL;
	size_t npend = 0;
	struct pr_strmap map = PR_STRMAP_INIT;
	struct pr_strbuf key = PR_STRBUF_INIT, el = PR_STRBUF_INIT;
	struct sgroup *g = NULL;
	size_t ng = 0, cap = 0, i, kept = 0;
	int rc, ret = -1;
	*fallback = 0;
	if (pr_actx_prep(ctx, OPV_KEYS_CTE "SELECT id, d, t FROM k WHERE ?1 IS NOT NULL", &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t d = -1, t = -1;
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			d = sqlite3_column_int64(st, 1);
		if (sqlite3_column_type(st, 2) != SQLITE_NULL)
			t = sqlite3_column_int64(st, 2);
		if (d >= 0x7fffffff || t >= 0x7fffffff)
			d = t = -1;
		pr_imap_put(&pos, sqlite3_column_int64(st, 0), ((d + 1) << 32) | (t + 1));
	}
	if (pr_actx_done(ctx, st, rc, err))
		goto out;
	if (pr_actx_prep(ctx,
			 "SELECT name_id, args_keys, args, dur, self, id FROM span "
			 "WHERE run_id = ?1 AND kind = 'op' ORDER BY id",
			 &st, err))
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t name = sqlite3_column_int64(st, 0), pk = 0, gi;
		const char *args = NULL;
		size_t alen = 0;
		char *dims = NULL, *types = NULL;
		uint32_t len;
		int64_t id = sqlite3_column_int64(st, 5);
		if (pr_opmerge_absorbed(m, id)) {
			pend = pr_xreallocarray(pend, npend + 1, sizeof(*pend));
			pend[npend].top = pr_opmerge_top(m, id);
			pend[npend++].self = sqlite3_column_type(st, 4) == SQLITE_NULL
						     ? 0
						     : (double)sqlite3_column_int64(st, 4);
			continue;
		}
		if (sqlite3_column_type(st, 1) == SQLITE_INTEGER &&
		    pr_imap_get(&pos, sqlite3_column_int64(st, 1), &pk) && pk) {
			args = (const char *)sqlite3_column_text(st, 2);
			alen = args ? (size_t)sqlite3_column_bytes(st, 2) : 0;
			dims = elem_dup(args, alen, (pk >> 32) - 1, &el);
			types = elem_dup(args, alen, (pk & 0xffffffff) - 1, &el);
		}
		/* key: name id, then each text with its length (~0 for none) */
		pr_strbuf_reset(&key);
		pr_strbuf_add(&key, &name, sizeof(name));
		len = dims ? (uint32_t)strlen(dims) : ~0u;
		pr_strbuf_add(&key, &len, sizeof(len));
		if (dims)
			pr_strbuf_addstr(&key, dims);
		len = types ? (uint32_t)strlen(types) : ~0u;
		pr_strbuf_add(&key, &len, sizeof(len));
		if (types)
			pr_strbuf_addstr(&key, types);
		if (!pr_strmap_get(&map, key.buf, key.len, &gi)) {
			if (ng == OPV_MEM_GROUPS) {
				free(dims);
				free(types);
				*fallback = 1;
				sqlite3_finalize(st);
				ret = 0;
				goto out;
			}
			if (ng == cap) {
				cap = cap ? cap * 2 : 256;
				g = pr_xreallocarray(g, cap, sizeof(*g));
			}
			gi = (int64_t)ng;
			g[ng++] = (struct sgroup){ name, NULL, dims, types, 0, 0, 0 };
			pr_strmap_put(&map, key.buf, key.len, gi);
		} else {
			free(dims);
			free(types);
		}
		if (pr_opmerge_absorber(m, id))
			pr_imap_put(&top_gi, id, gi);
		g[gi].calls += 1;
		g[gi].tot += (double)sqlite3_column_int64(st, 3);
		if (sqlite3_column_type(st, 4) != SQLITE_NULL)
			g[gi].slf += (double)sqlite3_column_int64(st, 4);
	}
	if (pr_actx_done(ctx, st, rc, err))
		goto out;
	for (i = 0; i < npend; i++) {
		int64_t gi;
		if (pr_imap_get(&top_gi, pend[i].top, &gi))
			g[gi].slf += pend[i].self;
	}
	/* names (a group whose name id has no string is dropped, as SQLite's join drops it) */
	if (pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &nst,
			 err))
		goto out;
	for (i = 0; i < ng; i++) {
		sqlite3_reset(nst);
		sqlite3_bind_int64(nst, 2, g[i].name_id);
		if (sqlite3_step(nst) == SQLITE_ROW && sqlite3_column_type(nst, 0) != SQLITE_NULL) {
			g[i].name = pr_xstrdup(pr_actx_text(nst, 0));
			g[kept++] = g[i];
		} else {
			free(g[i].dims);
			free(g[i].types);
		}
	}
	ng = kept;
	if (ng)
		qsort(g, ng, sizeof(*g), cmp_sgroup);
	for (i = 0; i < ng; i++)
		acc_row(a, g[i].name, g[i].dims ? json_string(g[i].dims) : json_null(),
			g[i].types ? json_string(g[i].types) : json_null(), g[i].calls, g[i].tot,
			g[i].slf);
	ret = 0;
out:
	if (nst)
		sqlite3_finalize(nst);
	for (i = 0; i < ng; i++) {
		free(g[i].name);
		free(g[i].dims);
		free(g[i].types);
	}
	free(g);
	free(pend);
	pr_imap_release(&pos);
	pr_imap_release(&top_gi);
	pr_strmap_release(&map);
	pr_strbuf_release(&key);
	pr_strbuf_release(&el);
	return ret;
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	struct acc a;
	json_t *o;
	int shapes = 0, fallback = 0;
	const struct pr_opmerge *m = pr_opmerge_get(ctx, err);
	if (!m)
		return -1;
	memset(&a, 0, sizeof(a));
	a.rows = json_array();
	if (has_shapes(ctx, &shapes, err) || (!shapes && rows_by_name(ctx, m, &a, err)) ||
	    (shapes && rows_by_shape_mem(ctx, m, &a, &fallback, err))) {
		json_decref(a.rows);
		return -1;
	}
	if (fallback) { /* too many groups to keep: SQLite's GROUP BY */
		json_decref(a.rows);
		memset(&a, 0, sizeof(a));
		a.rows = json_array();
		if (rows_by_shape(ctx, &a, err)) {
			json_decref(a.rows);
			return -1;
		}
	}
	if (!a.n) {
		json_decref(a.rows);
		return 0;
	}
	if (a.folded > 1) { /* the row at OPV_ROWS - 1 and the rest become "(other ops)" */
		json_array_remove(a.rows, json_array_size(a.rows) - 1);
		json_t *other = op_row(PR_OPVIEW_OTHER, NULL, NULL, a.f_calls, sat(a.f_total),
				       sat(a.f_self));
		json_object_set_new(other, "other", json_true());
		json_array_append_new(a.rows, other);
	} else {
		a.folded = 0;
	}
	o = pr_jobj("rows", a.rows, "distinct", pr_jint(a.n), "folded", pr_jint(a.folded), "calls",
		    pr_jint((int64_t)a.calls_all), "host_total_ns",
		    pr_jint((int64_t)sat(a.total_all)), "host_self_ns",
		    pr_jint((int64_t)sat(a.self_all)), "has_device", json_false(), "merged",
		    pr_jint(fallback ? 0 : m->n), NULL);
	json_object_set_new(
		o, "rule",
		json_string(
			"every op span grouped by (name, \"Input Dims\", \"Input type\" args as "
			"JSON text, cut to 512 bytes; null: no such arg): an op whose parent "
			"is an op of the same name and which is its only child (runtime calls "
			"aside) is merged into it, as TensorBoard's op tree does (one call: "
			"the parent's duration and shapes, both self times); calls, host "
			"total = sum "
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
