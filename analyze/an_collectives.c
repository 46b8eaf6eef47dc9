/*
 * an_collectives.c - "collectives": per collective span (names as in
 * pr_agg_is_collective: nccl, c10d, allreduce, all_gather, ...) the calls,
 * the time in them and, where the spans carry Kineto's collective args
 * ("Collective name", "dtype", "In msg nelems", "Out msg nelems", "Group
 * size"), the bytes moved and the bandwidth nccl-tests would print:
 *   bytes  = max(in, out) elements x the dtype's size (allreduce: the
 *            buffer; all_gather: the gathered output; reduce_scatter: the
 *            input; broadcast, reduce, all_to_all, send/recv: the input)
 *   algbw  = bytes / time in the call
 *   busbw  = algbw x factor: allreduce 2(n-1)/n; all_gather,
 *            reduce_scatter, all_to_all (n-1)/n; others 1 (n = group size)
 * The time in a call includes waiting for the other ranks, so a rank that
 * arrives early shows a lower bandwidth: the rank that arrives last (see
 * aggregate's arrival order) shows the transfer's. The section is absent
 * when the run has no collective span.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/aggregate.h"
#include "store/xalloc.h"

#define MAX_NAMES 64

struct coll {
	int64_t name_id;
	char *name, *kind, *op, *dtype;
	int64_t group; /* 0: unknown */
	double calls, time_ns, sized_calls, sized_ns, bytes;
	int mixed; /* calls differ in op, dtype or group size */
};

/* Bytes per element of a c10 ScalarType name as Kineto writes it; 0 = unknown. */
static double dtype_size(const char *t)
{
	static const struct {
		const char *name;
		double size;
	} sizes[] = {
		{ "Float", 4 },	       { "Half", 2 },	       { "BFloat16", 2 },     { "Double", 8 },
		{ "Int", 4 },	       { "Long", 8 },	       { "Short", 2 },	      { "Byte", 1 },
		{ "Char", 1 },	       { "Bool", 1 },	       { "ComplexHalf", 4 },  { "ComplexFloat", 8 },
		{ "ComplexDouble", 16 }, { "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 },
		{ "Float8_e4m3fnuz", 1 }, { "Float8_e5m2fnuz", 1 }, { "UInt16", 2 },   { "UInt32", 4 },
		{ "UInt64", 8 },
	};
	size_t i;
	for (i = 0; t && i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (!strcmp(t, sizes[i].name))
			return sizes[i].size;
	return 0;
}

/* nccl-tests' bus bandwidth factor for the op on n ranks. */
static double bus_factor(const char *op, int64_t n, const char **rule)
{
	char low[64];
	size_t i;
	if (n < 1) {
		*rule = "1 (group size unknown)";
		return 1;
	}
	for (i = 0; op[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)(op[i] >= 'A' && op[i] <= 'Z' ? op[i] + 32 : op[i]);
	low[i] = 0;
	if (strstr(low, "allreduce") || strstr(low, "all_reduce")) {
		*rule = "2(n-1)/n";
		return 2.0 * (double)(n - 1) / (double)n;
	}
	if (strstr(low, "allgather") || strstr(low, "all_gather") || strstr(low, "reduce_scatter") ||
	    strstr(low, "reducescatter") || strstr(low, "alltoall") || strstr(low, "all_to_all")) {
		*rule = "(n-1)/n";
		return (double)(n - 1) / (double)n;
	}
	*rule = "1";
	return 1;
}

static void set_text(char **dst, int *mixed, const char *v)
{
	if (!v || !*v)
		return;
	if (!*dst)
		*dst = pr_xstrdup(v);
	else if (strcmp(*dst, v))
		*mixed = 1;
}

static int collect(struct pr_actx *ctx, struct coll *c, size_t nc, struct pr_error *err)
{
	sqlite3_stmt *st;
	int64_t ids[MAX_NAMES];
	size_t i;
	int rc;
	for (i = 0; i < nc; i++)
		ids[i] = c[i].name_id;
	if (pr_actx_prep_ids(ctx,
			     "SELECT s.name_id, s.dur, json_extract(a.args, '$.\"Collective name\"'), "
			     "json_extract(a.args, '$.dtype'), "
			     "json_extract(a.args, '$.\"In msg nelems\"'), "
			     "json_extract(a.args, '$.\"Out msg nelems\"'), "
			     "json_extract(a.args, '$.\"Group size\"'), s.kind "
			     "FROM span s JOIN span_v a ON a.id = s.id WHERE s.run_id = ?1 "
			     "AND s.kind <> 'session' AND s.name_id IN (",
			     ids, nc, ")", &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		double dur = (double)sqlite3_column_int64(st, 1), in, out, size;
		struct coll *k = NULL;
		for (i = 0; i < nc && !k; i++)
			if (c[i].name_id == id)
				k = &c[i];
		if (!k)
			continue;
		k->calls++;
		k->time_ns += dur;
		set_text(&k->kind, &k->mixed, (const char *)sqlite3_column_text(st, 7));
		set_text(&k->op, &k->mixed, (const char *)sqlite3_column_text(st, 2));
		set_text(&k->dtype, &k->mixed, (const char *)sqlite3_column_text(st, 3));
		if (sqlite3_column_type(st, 6) == SQLITE_INTEGER) {
			int64_t g = sqlite3_column_int64(st, 6);
			if (k->group && k->group != g)
				k->mixed = 1;
			k->group = g;
		}
		in = sqlite3_column_type(st, 4) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 4);
		out = sqlite3_column_type(st, 5) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 5);
		size = dtype_size((const char *)sqlite3_column_text(st, 3));
		if (size > 0 && (in >= 0 || out >= 0) && dur > 0) {
			k->sized_calls++;
			k->sized_ns += dur;
			k->bytes += size * fmax(in >= 0 ? in : 0, out >= 0 ? out : 0);
		}
	}
	return pr_actx_done(ctx, st, rc, err);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	sqlite3_stmt *st;
	struct coll c[MAX_NAMES];
	size_t nc = 0, i;
	json_t *arr;
	int rc;
	/* Candidate names from the string table (small: names and categories, not args), so a
	 * run without collective names costs no scan of its spans. ?1 is unused here. */
	if (pr_actx_prep(ctx, "SELECT id, value FROM string WHERE ?1 IS NOT NULL ORDER BY value, id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = pr_actx_text(st, 1);
		if (nc == MAX_NAMES || !pr_agg_is_collective(name))
			continue;
		memset(&c[nc], 0, sizeof(c[nc]));
		c[nc].name_id = sqlite3_column_int64(st, 0);
		c[nc].name = pr_xstrdup(name);
		nc++;
	}
	if (pr_actx_done(ctx, st, rc, err) || (nc && collect(ctx, c, nc, err))) {
		rc = -1;
		goto out;
	}
	rc = 0;
	arr = NULL;
	for (i = 0; i < nc; i++) {
		if (!c[i].calls)
			continue; /* a category or another run's name */
		if (!arr)
			arr = json_array();
		const char *rule = "";
		double f = bus_factor(c[i].op ? c[i].op : c[i].name, c[i].group, &rule);
		json_t *o = pr_jobj("name", json_string(c[i].name), "kind", json_string(c[i].kind),
				    "op", c[i].op ? json_string(c[i].op) : json_null(), "dtype",
				    c[i].dtype ? json_string(c[i].dtype) : json_null(), "group_size",
				    c[i].group ? pr_jint(c[i].group) : json_null(), "calls",
				    pr_jnum(c[i].calls), "time_ns", pr_jnum(c[i].time_ns), "mean_ns",
				    pr_jnum(c[i].calls ? c[i].time_ns / c[i].calls : NAN), NULL);
		if (c[i].sized_calls) {
			double algbw = c[i].bytes / (c[i].sized_ns / 1e9);
			json_object_set_new(o, "sized_calls", pr_jnum(c[i].sized_calls));
			json_object_set_new(o, "bytes", pr_jnum(c[i].bytes));
			json_object_set_new(o, "bytes_per_call", pr_jnum(c[i].bytes / c[i].sized_calls));
			json_object_set_new(o, "algbw_Bps", pr_jnum(algbw));
			json_object_set_new(o, "busbw_Bps", pr_jnum(algbw * f));
			json_object_set_new(o, "busbw_factor", json_string(rule));
		}
		if (c[i].mixed)
			json_object_set_new(o, "mixed", json_true());
		json_array_append_new(arr, o);
	}
	if (!arr)
		goto out;
	json_object_set_new(
		ctx->out, "collectives",
		pr_jobj("items", arr, "rule",
			json_string("bytes = max(In, Out msg nelems) x dtype size; algbw = bytes / time in "
				    "the call (sized calls only); busbw = algbw x factor (nccl-tests: "
				    "allreduce 2(n-1)/n, all_gather/reduce_scatter/all_to_all (n-1)/n, "
				    "others 1); the time includes waiting for the other ranks"),
			NULL));
out:
	for (i = 0; i < nc; i++) {
		free(c[i].name);
		free(c[i].kind);
		free(c[i].op);
		free(c[i].dtype);
	}
	return rc;
}

const struct pr_analyzer pr_an_collectives = {
	"collectives",
	"time, bytes and bus bandwidth per collective (Kineto's collective args)",
	run,
};
