/* gpuscan.c - one pass over a run's spans shared by the GPU analyses (gpuscan.h). */
#include "analyze/gpuscan.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/xalloc.h"

uint8_t pr_gpuscan_kind(const char *k)
{
	if (!k)
		return PR_GK_NONE;
	switch (k[0]) {
	case 'o':
		return !strcmp(k, "op") ? PR_GK_OP : PR_GK_OTHER;
	case 'k':
		return !strcmp(k, "kernel") ? PR_GK_KERNEL : PR_GK_OTHER;
	case 'r':
		return !strcmp(k, "runtime") ? PR_GK_RUNTIME : PR_GK_OTHER;
	case 'p':
		return !strcmp(k, "phase") ? PR_GK_PHASE : PR_GK_OTHER;
	case 'm':
		return !strcmp(k, "memcpy") ? PR_GK_MEMCPY
		       : !strcmp(k, "memset") ? PR_GK_MEMSET
					      : PR_GK_OTHER;
	case 's':
		return !strcmp(k, "step") ? PR_GK_STEP : PR_GK_OTHER;
	case 'g':
		return !strcmp(k, "gpu_annotation") ? PR_GK_GPU_ANN
		       : !strcmp(k, "gpu_step")	    ? PR_GK_GPU_STEP
						    : PR_GK_OTHER;
	default:
		return PR_GK_OTHER;
	}
}

void pr_gpuscan_free(struct pr_gpuscan *gs)
{
	if (!gs)
		return;
	free(gs->r);
	free(gs->ids);
	free(gs->dl);
	free(gs->text);
	free(gs);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

int pr_gpuscan_is_dataloader(const struct pr_gpuscan *gs, int64_t name_id)
{
	return gs->ndl && bsearch(&name_id, gs->dl, gs->ndl, sizeof(*gs->dl), cmp_i64);
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

/* TensorBoard's DataLoader names: "enumerate(DataLoader)#....__next__". */
static int load_dataloader(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT id, value FROM string WHERE value LIKE 'enumerate(DataLoader)#%' "
			 "AND ?1 IS NOT NULL ORDER BY id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (ends_with(pr_actx_text(st, 1), ".__next__")) {
			gs->dl = pr_xreallocarray(gs->dl, gs->ndl + 1, sizeof(*gs->dl));
			gs->dl[gs->ndl++] = sqlite3_column_int64(st, 0);
		}
	return pr_actx_done(ctx, st, rc, err);
}

/* NULL columns read as 0: no parent */
static uint8_t anc(sqlite3_stmt *st, int col, struct pr_gpuanc *a)
{
	a->name = sqlite3_column_int64(st, col + 1);
	a->parent = sqlite3_column_int64(st, col + 2);
	return pr_gpuscan_kind((const char *)sqlite3_column_text(st, col));
}

/*
 * The ancestors from span_up (schema.sql; the writer's nesting), merged in
 * by span id: both statements go in id order, rows without a span_up row
 * keep PR_GK_NONE (no parent, or not a device activity or runtime call).
 */
static int load_up(struct pr_actx *ctx, struct pr_gpuscan *gs, const int64_t *ids,
		   struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t i = 0;
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT span_id, p_kind, p_name_id, p_parent_id, p_ts, q_kind, q_name_id, "
			 "q_parent_id FROM span_up WHERE run_id = ?1 ORDER BY span_id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		struct pr_gpurow *r;
		while (i < gs->n && ids[i] < id)
			i++;
		if (i == gs->n)
			break;
		if (ids[i] != id)
			continue;
		r = &gs->r[i];
		r->pkind = anc(st, 1, &r->p);
		r->pts = sqlite3_column_int64(st, 4);
		r->qkind = anc(st, 5, &r->q);
	}
	return pr_actx_done(ctx, st, rc, err);
}

struct pr_gpuscan *pr_gpuscan_start(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_gpuscan *gs = pr_xcalloc(1, sizeof(*gs));
	if (load_dataloader(ctx, gs, err)) {
		pr_gpuscan_free(gs);
		return NULL;
	}
	return gs;
}

int pr_gpuscan_wants(const struct pr_gpuscan *gs, uint8_t kind, int64_t name_id)
{
	switch (kind) {
	case PR_GK_KERNEL:
	case PR_GK_MEMCPY:
	case PR_GK_MEMSET:
	case PR_GK_RUNTIME:
	case PR_GK_PHASE:
	case PR_GK_STEP:
	case PR_GK_GPU_ANN:
	case PR_GK_GPU_STEP:
		return 1;
	case PR_GK_OP:
		return pr_gpuscan_is_dataloader(gs, name_id);
	default:
		return 0;
	}
}

void pr_gpuscan_add(struct pr_gpuscan *gs, int64_t id, uint8_t kind, int64_t track, int64_t ts,
		    int64_t dur, int64_t name, int has_keys, int64_t akeys, const char *args,
		    size_t alen)
{
	struct pr_gpurow *r;
	if (gs->n == gs->cap) {
		gs->cap = gs->cap ? gs->cap * 2 : 4096;
		gs->r = pr_xreallocarray(gs->r, gs->cap, sizeof(*gs->r));
		gs->ids = pr_xreallocarray(gs->ids, gs->cap, sizeof(*gs->ids));
	}
	gs->ids[gs->n] = id;
	r = &gs->r[gs->n++];
	r->kind = kind;
	r->track = track;
	r->ts = ts;
	r->dur = dur;
	r->name = name;
	r->akeys = akeys;
	r->aflags = (uint8_t)((args ? 0 : PR_GA_NULL) | (has_keys ? 0 : PR_GA_NOKEYS));
	if (!args)
		alen = 0;
	if (gs->ntext + alen + 1 > gs->tcap) {
		while (gs->ntext + alen + 1 > gs->tcap)
			gs->tcap = gs->tcap ? gs->tcap * 2 : 65536;
		gs->text = pr_xrealloc(gs->text, gs->tcap);
	}
	if (alen)
		memcpy(gs->text + gs->ntext, args, alen);
	gs->text[gs->ntext + alen] = 0;
	r->aoff = gs->ntext;
	r->alen = (uint32_t)alen;
	gs->ntext += alen + 1;
	r->pkind = r->qkind = PR_GK_NONE;
	r->p.name = r->p.parent = r->q.name = r->q.parent = r->pts = 0;
}

int pr_gpuscan_finish(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err)
{
	int rc = load_up(ctx, gs, gs->ids, err);
	free(gs->ids);
	gs->ids = NULL;
	/* held until the gpu analysis is done: give back the growth's slack (up to half) */
	if (gs->n && gs->n < gs->cap) {
		gs->r = pr_xreallocarray(gs->r, gs->n, sizeof(*gs->r));
		gs->cap = gs->n;
	}
	if (gs->ntext && gs->ntext < gs->tcap) {
		gs->text = pr_xrealloc(gs->text, gs->ntext);
		gs->tcap = gs->ntext;
	}
	if (rc) {
		pr_gpuscan_free(gs);
		return -1;
	}
	pr_gpuscan_free(ctx->gpuscan);
	ctx->gpuscan = gs;
	return 0;
}

/* The pass on its own, for a run whose shared span pass (spanstat.c) has not run. */
static int load(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err)
{
	struct pr_strbuf sql = PR_STRBUF_INIT;
	sqlite3_stmt *st;
	size_t i;
	int rc;
	/* rowid order: no sort; the kind test is all an op row costs (<> first:
	 * SQLite tests IN by a lookup in a temporary index, dearer than one
	 * comparison, and most spans are ops) */
	pr_strbuf_addstr(&sql,
			 "SELECT s.id, s.kind, s.track_id, s.ts, s.dur, s.name_id, s.args_keys, s.args "
			 "FROM span s "
			 "WHERE s.run_id = ?1 AND ((s.kind <> 'op' AND s.kind IN ('kernel', 'memcpy', "
			 "'memset', 'runtime', 'phase', 'step', 'gpu_annotation', 'gpu_step'))");
	if (gs->ndl) {
		pr_strbuf_addstr(&sql, " OR (s.kind = 'op' AND s.name_id IN (");
		for (i = 0; i < gs->ndl; i++)
			pr_strbuf_addf(&sql, "%s%lld", i ? "," : "", (long long)gs->dl[i]);
		pr_strbuf_addstr(&sql, "))");
	}
	pr_strbuf_addstr(&sql, ") ORDER BY s.id");
	rc = pr_actx_prep(ctx, sql.buf, &st, err);
	pr_strbuf_release(&sql);
	if (rc)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 7);
		pr_gpuscan_add(gs, sqlite3_column_int64(st, 0), pr_gpuscan_kind(pr_actx_text(st, 1)),
			       sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
			       sqlite3_column_int64(st, 4), sqlite3_column_int64(st, 5),
			       sqlite3_column_type(st, 6) == SQLITE_INTEGER,
			       sqlite3_column_int64(st, 6), text,
			       text ? (size_t)sqlite3_column_bytes(st, 7) : 0);
	}
	return pr_actx_done(ctx, st, rc, err);
}

const struct pr_gpuscan *pr_gpuscan_get(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_gpuscan *gs;
	if (ctx->gpuscan)
		return ctx->gpuscan;
	if (!(gs = pr_gpuscan_start(ctx, err)))
		return NULL;
	if (load(ctx, gs, err)) {
		free(gs->ids);
		gs->ids = NULL;
		pr_gpuscan_free(gs);
		return NULL;
	}
	if (pr_gpuscan_finish(ctx, gs, err))
		return NULL;
	return ctx->gpuscan;
}

void pr_gpuscan_sort(uint32_t *idx, int64_t *keys, size_t n)
{
	uint64_t *k = (uint64_t *)keys, *k2, all_or = 0, all_and = ~(uint64_t)0;
	uint32_t *i2;
	size_t i;
	int shift;
	if (n < 2)
		return;
	k2 = pr_xreallocarray(NULL, n, sizeof(*k2));
	i2 = pr_xreallocarray(NULL, n, sizeof(*i2));
	for (i = 0; i < n; i++) {
		k[i] ^= (uint64_t)1 << 63; /* signed order as unsigned */
		all_or |= k[i];
		all_and &= k[i];
	}
	for (shift = 0; shift < 64; shift += 8) {
		size_t count[256] = { 0 }, pos = 0;
		int b;
		if (!(((all_or ^ all_and) >> shift) & 0xff))
			continue; /* this byte is the same in every key */
		for (i = 0; i < n; i++)
			count[(k[i] >> shift) & 0xff]++;
		for (b = 0; b < 256; b++) {
			size_t c = count[b];
			count[b] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++) {
			size_t d = count[(k[i] >> shift) & 0xff]++;
			k2[d] = k[i];
			i2[d] = idx[i];
		}
		memcpy(k, k2, n * sizeof(*k));
		memcpy(idx, i2, n * sizeof(*idx));
	}
	for (i = 0; i < n; i++)
		k[i] ^= (uint64_t)1 << 63;
	free(k2);
	free(i2);
}
