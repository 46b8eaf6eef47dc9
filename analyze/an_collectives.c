/*
 * an_collectives.c - "collectives": per collective span (names as in
 * pr_kclass_is_collective: nccl, c10d, allreduce, all_gather, ...) the calls,
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
 * One item per (name, kind): the CPU annotation "nccl:all_reduce", its GPU
 * projection (gpu_user_annotation of the same name), the c10d operator and
 * the NCCL kernel are separate items with their layer, so one call is never
 * counted twice. Each item names its process group (Kineto's "Process Group
 * Name/Description/Ranks") and its longest call with its element counts.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/analyzers.h"
#include "analyze/kclass.h"
#include "base/xalloc.h"

#define MAX_NAMES 64

/* One item: the spans of one collective name and kind (one layer of the call). */
struct coll {
	int64_t name_id;
	char *name, *kind, *op, *dtype, *pg_name, *pg_desc, *pg_ranks;
	int64_t group; /* 0: unknown */
	double calls, time_ns, sized_calls, sized_ns, bytes;
	int64_t long_ts, long_dur; /* the longest call */
	double long_in, long_out;
	int mixed; /* calls differ in op, dtype, group size or process group */
};

/* Bytes per element of a c10 ScalarType name as Kineto writes it; 0 = unknown. */
static double dtype_size(const char *t)
{
	static const struct {
		const char *name;
		double size;
	} sizes[] = {
		{ "Float", 4 },
		{ "Half", 2 },
		{ "BFloat16", 2 },
		{ "Double", 8 },
		{ "Int", 4 },
		{ "Long", 8 },
		{ "Short", 2 },
		{ "Byte", 1 },
		{ "Char", 1 },
		{ "Bool", 1 },
		{ "ComplexHalf", 4 },
		{ "ComplexFloat", 8 },
		{ "ComplexDouble", 16 },
		{ "Float8_e4m3fn", 1 },
		{ "Float8_e5m2", 1 },
		{ "Float8_e4m3fnuz", 1 },
		{ "Float8_e5m2fnuz", 1 },
		{ "UInt16", 2 },
		{ "UInt32", 4 },
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
	if (strstr(low, "allgather") || strstr(low, "all_gather") ||
	    strstr(low, "reduce_scatter") || strstr(low, "reducescatter") ||
	    strstr(low, "alltoall") || strstr(low, "all_to_all")) {
		*rule = "(n-1)/n";
		return (double)(n - 1) / (double)n;
	}
	*rule = "1";
	return 1;
}

/*
 * Which layer of a collective call a span is: the record_function annotation
 * on the CPU ("nccl:all_reduce", kind phase/slice), the c10d operator
 * (cpu_op "c10d::allreduce_"), its projection on the GPU stream
 * (gpu_user_annotation) or the kernel itself.
 */
static const char *layer_of(const char *kind)
{
	if (!strcmp(kind, "op"))
		return "cpu_op";
	if (!strcmp(kind, "kernel"))
		return "gpu_kernel";
	if (!strcmp(kind, "gpu_annotation"))
		return "gpu_annotation";
	if (!strcmp(kind, "phase") || !strcmp(kind, "slice") || !strcmp(kind, "section"))
		return "cpu_annotation";
	return kind;
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

static double opt_num(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL ? NAN : sqlite3_column_double(st, col);
}

/* The item of (name_id, kind), created on first sight. */
static struct coll *item(struct coll **c, size_t *nc, int64_t name_id, const char *name,
			 const char *kind)
{
	size_t i;
	for (i = 0; i < *nc; i++)
		if ((*c)[i].name_id == name_id && !strcmp((*c)[i].kind, kind))
			return &(*c)[i];
	*c = pr_xreallocarray(*c, *nc + 1, sizeof(**c));
	memset(&(*c)[*nc], 0, sizeof(**c));
	(*c)[*nc].name_id = name_id;
	(*c)[*nc].name = pr_xstrdup(name);
	(*c)[*nc].kind = pr_xstrdup(kind);
	(*c)[*nc].long_dur = -1;
	return &(*c)[(*nc)++];
}

static int collect(struct pr_actx *ctx, const int64_t *ids, char *const *names, size_t nids,
		   struct coll **c, size_t *nc, struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t i;
	int rc;
	if (pr_actx_prep_ids(
		    ctx,
		    "SELECT s.name_id, s.dur, json_extract(a.args, '$.\"Collective name\"'), "
		    "json_extract(a.args, '$.dtype'), "
		    "json_extract(a.args, '$.\"In msg nelems\"'), "
		    "json_extract(a.args, '$.\"Out msg nelems\"'), "
		    "json_extract(a.args, '$.\"Group size\"'), s.kind, s.ts, "
		    "json_extract(a.args, '$.\"Process Group Name\"'), "
		    "json_extract(a.args, '$.\"Process Group Description\"'), "
		    "json_extract(a.args, '$.\"Process Group Ranks\"') "
		    "FROM span s JOIN span_v a ON a.id = s.id WHERE s.run_id = ?1 "
		    "AND s.kind <> 'session' AND s.name_id IN "
		    "(SELECT value FROM json_each(?2)) ORDER BY s.ts, s.id",
		    ids, nids, &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0), ts = sqlite3_column_int64(st, 8);
		int64_t idur = sqlite3_column_int64(st, 1);
		double dur = (double)idur, in, out, size;
		const char *name = NULL;
		struct coll *k;
		for (i = 0; i < nids && !name; i++)
			if (ids[i] == id)
				name = names[i];
		if (!name)
			continue;
		k = item(c, nc, id, name, pr_actx_text(st, 7));
		k->calls++;
		k->time_ns += dur;
		set_text(&k->op, &k->mixed, (const char *)sqlite3_column_text(st, 2));
		set_text(&k->dtype, &k->mixed, (const char *)sqlite3_column_text(st, 3));
		set_text(&k->pg_name, &k->mixed, (const char *)sqlite3_column_text(st, 9));
		set_text(&k->pg_desc, &k->mixed, (const char *)sqlite3_column_text(st, 10));
		set_text(&k->pg_ranks, &k->mixed, (const char *)sqlite3_column_text(st, 11));
		if (sqlite3_column_type(st, 6) == SQLITE_INTEGER) {
			int64_t g = sqlite3_column_int64(st, 6);
			if (k->group && k->group != g)
				k->mixed = 1;
			k->group = g;
		}
		in = opt_num(st, 4);
		out = opt_num(st, 5);
		if (idur > k->long_dur) {
			k->long_dur = idur;
			k->long_ts = ts;
			k->long_in = in;
			k->long_out = out;
		}
		size = dtype_size((const char *)sqlite3_column_text(st, 3));
		if (size > 0 && (in >= 0 || out >= 0) && dur > 0) {
			k->sized_calls++;
			k->sized_ns += dur;
			k->bytes += size * fmax(in >= 0 ? in : 0, out >= 0 ? out : 0);
		}
	}
	return pr_actx_done(ctx, st, rc, err);
}

static int by_name_kind(const void *a, const void *b)
{
	const struct coll *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->kind, y->kind);
}

static json_t *opt_str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *opt_jnum(double v)
{
	return v == v ? pr_jnum(v) : json_null();
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	sqlite3_stmt *st;
	struct coll *c = NULL;
	int64_t ids[MAX_NAMES];
	char *names[MAX_NAMES];
	size_t nids = 0, nc = 0, i;
	json_t *arr;
	int rc;
	/* Candidate names from the string table (small: names and categories, not args), so a
	 * run without collective names costs no scan of its spans. ?1 is unused here. */
	if (pr_actx_prep(ctx,
			 "SELECT id, value FROM string WHERE ?1 IS NOT NULL ORDER BY value, id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = pr_actx_text(st, 1);
		if (nids == MAX_NAMES || !pr_kclass_is_collective(name))
			continue;
		ids[nids] = sqlite3_column_int64(st, 0);
		names[nids++] = pr_xstrdup(name);
	}
	if (pr_actx_done(ctx, st, rc, err) ||
	    (nids && collect(ctx, ids, names, nids, &c, &nc, err))) {
		rc = -1;
		goto out;
	}
	rc = 0;
	if (!nc)
		goto out;
	qsort(c, nc, sizeof(*c), by_name_kind);
	arr = json_array();
	for (i = 0; i < nc; i++) {
		const char *rule = "";
		double f = bus_factor(c[i].op ? c[i].op : c[i].name, c[i].group, &rule);
		json_t *o =
			pr_jobj("name", json_string(c[i].name), "kind", json_string(c[i].kind),
				"layer", json_string(layer_of(c[i].kind)), "op", opt_str(c[i].op),
				"dtype", opt_str(c[i].dtype), "group_size",
				c[i].group ? pr_jint(c[i].group) : json_null(), "calls",
				pr_jnum(c[i].calls), "time_ns", pr_jnum(c[i].time_ns), "mean_ns",
				pr_jnum(c[i].calls ? c[i].time_ns / c[i].calls : NAN), NULL);
		if (c[i].pg_name || c[i].pg_desc || c[i].pg_ranks)
			json_object_set_new(o, "process_group",
					    pr_jobj("name", opt_str(c[i].pg_name), "description",
						    opt_str(c[i].pg_desc), "ranks",
						    opt_str(c[i].pg_ranks), NULL));
		if (c[i].sized_calls) {
			double algbw = c[i].bytes / (c[i].sized_ns / 1e9);
			json_object_set_new(o, "sized_calls", pr_jnum(c[i].sized_calls));
			json_object_set_new(o, "bytes", pr_jnum(c[i].bytes));
			json_object_set_new(o, "bytes_per_call",
					    pr_jnum(c[i].bytes / c[i].sized_calls));
			json_object_set_new(o, "algbw_Bps", pr_jnum(algbw));
			json_object_set_new(o, "busbw_Bps", pr_jnum(algbw * f));
			json_object_set_new(o, "busbw_factor", json_string(rule));
		}
		json_object_set_new(o, "longest",
				    pr_jobj("t_ns", pr_actx_t(ctx, c[i].long_ts), "dur_ns",
					    pr_jint(c[i].long_dur), "in_nelems",
					    opt_jnum(c[i].long_in), "out_nelems",
					    opt_jnum(c[i].long_out), NULL));
		if (c[i].mixed)
			json_object_set_new(o, "mixed", json_true());
		json_array_append_new(arr, o);
	}
	json_object_set_new(
		ctx->out, "collectives",
		pr_jobj("items", arr, "rule",
			json_string(
				"one item per name and layer (cpu_annotation: the record_function "
				"nccl:*, cpu_op: c10d::*, gpu_annotation, gpu_kernel), so a call is "
				"counted once per layer; bytes = max(In, Out msg nelems) x dtype size; "
				"algbw = bytes / time in the call (sized calls only); busbw = algbw x "
				"factor (nccl-tests: allreduce 2(n-1)/n, all_gather/reduce_scatter/"
				"all_to_all (n-1)/n, others 1); the time includes waiting for the "
				"other ranks"),
			NULL));
out:
	for (i = 0; i < nids; i++)
		free(names[i]);
	for (i = 0; i < nc; i++) {
		free(c[i].name);
		free(c[i].kind);
		free(c[i].op);
		free(c[i].dtype);
		free(c[i].pg_name);
		free(c[i].pg_desc);
		free(c[i].pg_ranks);
	}
	free(c);
	return rc;
}

const struct pr_analyzer pr_an_collectives = {
	"collectives",
	"time, bytes and bus bandwidth per collective (Kineto's collective args)",
	run,
	PR_STAGE_CONTEXT,
};
