/* spanstat.c - per (name, kind) statistics of a run's spans in one pass (spanstat.h). */
#include "analyze/spanstat.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/at_batch.h"
#include "analyze/flame_impl.h"
#include "analyze/gpuscan.h"
#include "base/imap.h"
#include "analyze/kclass.h"
#include "analyze/perfev.h"
#include "analyze/tlanes.h"
#include "analyze/trace_impl.h"
#include "base/spill.h"
#include "base/timecheck.h"
#include "base/xsort.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Sorts v ascending: an LSD radix sort of the values with their sign bit flipped. */
static void sort_i64(int64_t *v, size_t n)
{
	uint64_t *u = (uint64_t *)(void *)v;
	size_t i;
	if (n < 64) {
		qsort(v, n, sizeof(*v), cmp_i64);
		return;
	}
	for (i = 0; i < n; i++)
		u[i] = (uint64_t)v[i] ^ ((uint64_t)1 << 63);
	pr_gpuscan_sort_u64(u, n);
	for (i = 0; i < n; i++)
		v[i] = (int64_t)(u[i] ^ ((uint64_t)1 << 63));
}

/* A counted span as the second pass reads it (spanstat.h): 20 bytes. */
#define REC_SIZE (sizeof(uint32_t) + 2 * sizeof(int64_t))

static int rec_put(struct pr_spill *rec, uint32_t gi, int64_t ts, int64_t dur)
{
	unsigned char b[REC_SIZE];
	memcpy(b, &gi, sizeof(gi));
	memcpy(b + sizeof(gi), &ts, sizeof(ts));
	memcpy(b + sizeof(gi) + sizeof(ts), &dur, sizeof(dur));
	return pr_spill_put(rec, b, sizeof(b));
}

static const struct {
	const char *like[2];  /* OR; NULL ends */
	const char *kinds[4]; /* NULL ends */
} captures[PR_CAP_N] = {
	[PR_CAP_DATALOADER] = { { "enumerate(DataLoader)%", NULL },
				{ "op", "phase", "slice", NULL } },
	[PR_CAP_NCCL] = { { NULL, NULL }, { "kernel", NULL } }, /* kclass.h's communication */
	[PR_CAP_SYNC_COPY] = { { "%Memcpy%", "%Synchronize" }, { "runtime", NULL } },
};

struct pass {
	struct pr_spanstat *ss;
	struct pr_imap *by_name;  /* per kind: name id -> group index */
	unsigned char *device;	  /* per kind: kernel, memcpy or memset */
	unsigned char *counted;	  /* per kind: not session or profiler */
	uint8_t *gk;		  /* per kind: enum pr_gk */
	unsigned char *host;	  /* per kind: a span pr_actx_spans_at may answer */
	unsigned char *flame;	  /* per kind: a span of flame's tree */
	unsigned char *stepphase; /* per kind: 1 step, 2 phase, section or stage */
	int64_t *over;		  /* per kind: the group past the name budget, or -1 */
	size_t nsp_class[2];	  /* steps and phases kept in sp */
	unsigned *capmask;	  /* per kind: the captures that take it (bit per capture) */
	struct pr_imap capnames[PR_CAP_N]; /* name ids each capture takes */
	size_t spcap;
	struct pr_gpuscan *gs; /* the GPU analyses' rows, collected on the way (gpuscan.h) */
};

/* Index of a kind text, added when new (a run has a handful). */
static uint32_t kind_index(struct pass *p, const char *k)
{
	struct pr_spanstat *ss = p->ss;
	size_t i;
	for (i = 0; i < ss->nkinds; i++)
		if (!strcmp(ss->kinds[i], k))
			return (uint32_t)i;
	ss->kinds = pr_xreallocarray(ss->kinds, ss->nkinds + 1, sizeof(*ss->kinds));
	p->by_name = pr_xreallocarray(p->by_name, ss->nkinds + 1, sizeof(*p->by_name));
	memset(&p->by_name[ss->nkinds], 0, sizeof(*p->by_name));
	p->device = pr_xreallocarray(p->device, ss->nkinds + 1, sizeof(*p->device));
	p->device[ss->nkinds] =
		!strcmp(k, "kernel") || !strcmp(k, "memcpy") || !strcmp(k, "memset");
	p->counted = pr_xreallocarray(p->counted, ss->nkinds + 1, sizeof(*p->counted));
	/* the profiler's own spans, and the CUPTI ranges' replay (an_cuptirange.c), are no work */
	p->counted[ss->nkinds] =
		strcmp(k, "session") && strcmp(k, "profiler") && strcmp(k, "profiler_range");
	p->gk = pr_xreallocarray(p->gk, ss->nkinds + 1, sizeof(*p->gk));
	p->gk[ss->nkinds] = pr_gpuscan_kind(k);
	p->host = pr_xreallocarray(p->host, ss->nkinds + 1, sizeof(*p->host));
	p->host[ss->nkinds] = (unsigned char)pr_at_batch_kind(k);
	p->flame = pr_xreallocarray(p->flame, ss->nkinds + 1, sizeof(*p->flame));
	p->flame[ss->nkinds] = (unsigned char)pr_flame_kind(k);
	p->stepphase = pr_xreallocarray(p->stepphase, ss->nkinds + 1, sizeof(*p->stepphase));
	if (!strcmp(k, "step"))
		p->stepphase[ss->nkinds] = 1;
	else if (!strcmp(k, "phase") || !strcmp(k, "section") || !strcmp(k, "stage"))
		p->stepphase[ss->nkinds] = 2;
	else
		p->stepphase[ss->nkinds] = 0;
	p->over = pr_xreallocarray(p->over, ss->nkinds + 1, sizeof(*p->over));
	p->over[ss->nkinds] = -1;
	p->capmask = pr_xreallocarray(p->capmask, ss->nkinds + 1, sizeof(*p->capmask));
	p->capmask[ss->nkinds] = 0;
	for (i = 0; i < PR_CAP_N; i++) {
		size_t j;
		for (j = 0; captures[i].kinds[j]; j++)
			if (!strcmp(k, captures[i].kinds[j]))
				p->capmask[ss->nkinds] |= 1u << i;
	}
	ss->kinds[ss->nkinds] = pr_xstrdup(k);
	return (uint32_t)ss->nkinds++;
}

static void sums_add(struct pr_spanstat_sums *s, int64_t dur)
{
	if (!s->count || dur < s->min)
		s->min = dur;
	if (!s->count || dur > s->max)
		s->max = dur;
	s->count++;
	/* as SQLite's total(dur) and sum(CAST(dur AS REAL) * dur): doubles, row by row */
	s->total += (double)dur;
	s->sumsq += (double)dur * (double)dur;
}

static int scan(struct pr_actx *ctx, struct pass *p, struct pr_error *err)
{
	struct pr_spanstat *ss = p->ss;
	sqlite3_stmt *st;
	size_t cap = 0;
	uint32_t last_kind = 0;
	int rc, have_last = 0;
	char last_text[32] = "";
	/* every row (SQLite reads a column only when asked for it) */
	if (pr_actx_prep(
		    ctx,
		    "SELECT name_id, kind, dur, self, ts, id, track_id, args_keys, args, depth, "
		    "parent_id FROM span "
		    "WHERE run_id = ?1 ORDER BY id",
		    &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t name = sqlite3_column_int64(st, 0), dur = sqlite3_column_int64(st, 2), gi;
		const char *k = pr_actx_text(st, 1);
		struct pr_spanstat_group *g;
		uint32_t kind;
		/* another perf event's samples weigh another unit (perfev.c) */
		if (ctx->perf_event && pr_actx_perf_other(ctx, sqlite3_column_int64(st, 6)))
			continue;
		/* rows come in runs of one kind (ops, then a kernel, ...): remember the last */
		if (have_last && !strcmp(k, last_text)) {
			kind = last_kind;
		} else {
			kind = kind_index(p, k);
			have_last = strlen(k) < sizeof(last_text);
			if (have_last)
				memcpy(last_text, k, strlen(k) + 1);
			last_kind = kind;
		}
		if (p->gs && pr_gpuscan_wants(p->gs, p->gk[kind], name)) {
			const char *args = (const char *)sqlite3_column_text(st, 8);
			if (pr_gpuscan_add(p->gs, sqlite3_column_int64(st, 5),
					   sqlite3_column_int64(st, 10), /* parent_id, NULL: 0 */
					   p->gk[kind], sqlite3_column_int64(st, 6),
					   sqlite3_column_int64(st, 4), dur, name,
					   sqlite3_column_type(st, 7) == SQLITE_INTEGER,
					   sqlite3_column_int64(st, 7), args,
					   args ? (size_t)sqlite3_column_bytes(st, 8) : 0, err)) {
				sqlite3_finalize(st);
				return -1;
			}
		} else if (p->gs && p->gs->host_on && p->gk[kind] == PR_GK_OP) {
			/* critical_path's CPU events and the launching ops (gpuscan.h) */
			const char *args = (const char *)sqlite3_column_text(st, 8);
			pr_gpuscan_add_host(p->gs, sqlite3_column_int64(st, 5),
					    sqlite3_column_int64(st, 10), PR_GK_OP,
					    sqlite3_column_int64(st, 6),
					    sqlite3_column_int64(st, 4), dur, name,
					    sqlite3_column_type(st, 7) == SQLITE_INTEGER,
					    sqlite3_column_int64(st, 7), args,
					    args ? (size_t)sqlite3_column_bytes(st, 8) : 0);
		}
		/* the spans at peaks and fragmentation's points (actx.h) */
		if (ctx->at && !ctx->at_done && p->host[kind])
			pr_at_batch_row(ctx->at, st, sqlite3_column_int64(st, 4), dur, 5, 6, 9, 0,
					1);
		if (ctx->flame && !ctx->flame_done && p->flame[kind])
			pr_flame_row(ctx->flame, sqlite3_column_int64(st, 5),
				     sqlite3_column_int64(st, 10),
				     sqlite3_column_type(st, 10) != SQLITE_NULL, name, dur);
		if (p->capmask[kind]) {
			size_t c;
			int64_t one;
			for (c = 0; c < PR_CAP_N; c++) {
				struct pr_capture *cp = &ss->capture[c];
				if (!(p->capmask[kind] & (1u << c)) ||
				    !pr_imap_get(&p->capnames[c], name, &one))
					continue;
				if (cp->n == cp->cap) {
					cp->cap = cp->cap ? cp->cap * 2 : 64;
					cp->rows = pr_xreallocarray(cp->rows, cp->cap,
								    sizeof(*cp->rows));
				}
				cp->rows[cp->n++] =
					(struct pr_capture_row){ sqlite3_column_int64(st, 5),
								 sqlite3_column_int64(st, 6),
								 sqlite3_column_int64(st, 4),
								 dur,
								 name,
								 sqlite3_column_int64(st, 10),
								 sqlite3_column_type(st, 10) !=
									 SQLITE_NULL };
			}
		}
		if (p->stepphase[kind] &&
		    p->nsp_class[p->stepphase[kind] - 1]++ >= pr_spanstat_sp_max) {
			ss->sp_over[p->stepphase[kind] - 1]++;
		} else if (p->stepphase[kind]) {
			if (ss->nsp == p->spcap) {
				p->spcap = p->spcap ? p->spcap * 2 : 256;
				ss->sp = pr_xreallocarray(ss->sp, p->spcap, sizeof(*ss->sp));
			}
			ss->sp[ss->nsp++] = (struct pr_spanstat_sp){ sqlite3_column_int64(st, 5),
								     sqlite3_column_int64(st, 4),
								     dur, name, kind };
		}
		if (!p->counted[kind])
			continue;
		if (ctx->trace) /* the trace view's candidates (an_trace.c) */
			pr_trace_row(ctx->trace, st, sqlite3_column_int64(st, 4), dur, name, kind,
				     5, 6, 3);
		/* timeline's top-level spans: ifnull(depth, 0) = 0 */
		if (ss->tl &&
		    (sqlite3_column_type(st, 9) == SQLITE_NULL || sqlite3_column_int64(st, 9) == 0))
			pr_tlanes_row(ss->tl, sqlite3_column_int64(st, 6),
				      sqlite3_column_int64(st, 4), dur);
		if (!pr_imap_get(&p->by_name[kind], name, &gi)) {
			int over = ss->n >= pr_spanstat_groups_max;
			if (over && p->over[kind] >= 0) {
				gi = p->over[kind];
			} else {
				if (ss->n == cap) {
					cap = cap ? cap * 2 : 256;
					ss->g = pr_xreallocarray(ss->g, cap, sizeof(*ss->g));
				}
				gi = (int64_t)ss->n++;
				g = &ss->g[gi];
				memset(g, 0, sizeof(*g));
				g->name_id = over ? -1 : name;
				g->kind = kind;
				if (over) {
					g->name = pr_xstrdup(PR_SPANSTAT_OVER_NAME);
					p->over[kind] = gi;
				} else {
					pr_imap_put(&p->by_name[kind], name, gi);
				}
			}
		}
		if (ss->g[gi].name_id < 0)
			ss->over_spans++;
		g = &ss->g[gi];
		sums_add(&g->all, dur);
		rec_put(ss->rec, (uint32_t)gi, sqlite3_column_int64(st, 4), dur);
		if (p->device[kind]) {
			int64_t rec[2] = { sqlite3_column_int64(st, 4), dur }, a = rec[0], b = dur;
			pr_xsort_put(ss->dev, rec); /* a failure is told where it is read */
			/* the active range, as bottlenecks reads the activities (clamped) */
			pr_span_clamp(&a, &b);
			b += a;
			if (!ss->ndev || a < ss->dev_first)
				ss->dev_first = a;
			if (!ss->ndev || b > ss->dev_last)
				ss->dev_last = b;
			ss->ndev++;
		}
		if (sqlite3_column_type(st, 3) != SQLITE_NULL) {
			double self = (double)sqlite3_column_int64(st, 3);
			sums_add(&g->known, dur);
			g->all.self += self;
			g->known.self += self;
		}
	}
	return pr_actx_done(ctx, st, rc, err);
}

/* Group names, looked up in name id order (SQLite's join with string). */
static int names(struct pr_actx *ctx, struct pr_spanstat *ss, struct pr_error *err)
{
	sqlite3_stmt *st;
	int64_t *ids;
	size_t i;
	int rc = SQLITE_DONE;
	if (!ss->n)
		return 0;
	if (pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL", &st,
			 err))
		return -1;
	ids = pr_xreallocarray(NULL, ss->n, sizeof(*ids) * 2);
	for (i = 0; i < ss->n; i++) {
		ids[2 * i] = ss->g[i].name_id;
		ids[2 * i + 1] = (int64_t)i;
	}
	qsort(ids, ss->n, sizeof(*ids) * 2, cmp_i64);
	for (i = 0; i < ss->n; i++) {
		struct pr_spanstat_group *g = &ss->g[ids[2 * i + 1]];
		if (g->name_id < 0)
			continue; /* named at its making */
		if (i && ids[2 * (i - 1)] == ids[2 * i]) {
			const char *prev = ss->g[ids[2 * (i - 1) + 1]].name;
			g->name = prev ? pr_xstrdup(prev) : NULL;
			continue;
		}
		sqlite3_bind_int64(st, 2, g->name_id);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			g->name = pr_xstrdup(pr_actx_text(st, 0));
		else if (rc != SQLITE_DONE)
			break;
		rc = SQLITE_DONE;
		sqlite3_reset(st);
	}
	free(ids);
	return pr_actx_done(ctx, st, rc, err);
}

static const struct pr_spanstat *sort_ss;

static int cmp_names(const struct pr_spanstat_group *x, const struct pr_spanstat_group *y);

/* spans' order: total DESC, name, kind (as SQLite's ORDER BY with BINARY text) */
static int cmp_total(const void *a, const void *b)
{
	const struct pr_spanstat_group *x = &sort_ss->g[*(const size_t *)a],
				       *y = &sort_ss->g[*(const size_t *)b];
	if (x->all.total != y->all.total)
		return x->all.total > y->all.total ? -1 : 1;
	return cmp_names(x, y);
}

/* Ties: name, kind, then name id (the order SQLite's groups come in). */
static int cmp_names(const struct pr_spanstat_group *x, const struct pr_spanstat_group *y)
{
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	c = strcmp(sort_ss->kinds[x->kind], sort_ss->kinds[y->kind]);
	if (c)
		return c;
	return x->name_id < y->name_id ? -1 : x->name_id > y->name_id;
}

/* bottlenecks' orders: known.self or known.total DESC, then as cmp_names */
static int cmp_self(const void *a, const void *b)
{
	const struct pr_spanstat_group *x = &sort_ss->g[*(const size_t *)a],
				       *y = &sort_ss->g[*(const size_t *)b];
	if (x->known.self != y->known.self)
		return x->known.self > y->known.self ? -1 : 1;
	return cmp_names(x, y);
}

static int cmp_known_total(const void *a, const void *b)
{
	const struct pr_spanstat_group *x = &sort_ss->g[*(const size_t *)a],
				       *y = &sort_ss->g[*(const size_t *)b];
	if (x->known.total != y->known.total)
		return x->known.total > y->known.total ? -1 : 1;
	return cmp_names(x, y);
}

/* The first n by cmp of the named groups with a known self time. */
static size_t *top(const struct pr_spanstat *ss, int (*cmp)(const void *, const void *), size_t n,
		   size_t *nout)
{
	size_t *v = pr_xreallocarray(NULL, ss->nby_total ? ss->nby_total : 1, sizeof(*v)), i, m = 0;
	for (i = 0; i < ss->nby_total; i++)
		if (ss->g[ss->by_total[i]].known.count)
			v[m++] = ss->by_total[i];
	qsort(v, m, sizeof(*v), cmp);
	*nout = m < n ? m : n;
	return v;
}

void pr_spanstat_free(struct pr_spanstat *ss)
{
	size_t i;
	if (!ss)
		return;
	for (i = 0; i < ss->n; i++) {
		free(ss->g[i].name);
		free(ss->g[i].durs);
		free(ss->g[i].per_step);
	}
	for (i = 0; i < ss->nkinds; i++)
		free(ss->kinds[i]);
	free(ss->kinds);
	pr_spill_free(ss->rec);
	free(ss->g);
	free(ss->by_total);
	free(ss->top_self);
	free(ss->top_total);
	pr_xsort_free(ss->dev);
	free(ss->sp);
	pr_tlanes_free(ss->tl);
	for (i = 0; i < PR_CAP_N; i++)
		free(ss->capture[i].rows);
	free(ss);
}

/* The communication kernels' names by the one classification (kclass.h). */
static int comm_names(struct pr_actx *ctx, struct pr_imap *names, struct pr_error *err)
{
	struct pr_kclassify kc;
	sqlite3_stmt *st;
	int rc;
	if (pr_kclassify_init(&kc, ctx->meta, ctx->opts ? ctx->opts->comm_kernels : NULL, err) ||
	    pr_actx_prep(ctx, "SELECT id, value FROM string WHERE ?1 IS NOT NULL", &st, err)) {
		pr_kclassify_release(&kc);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (pr_kclass_of(&kc, pr_actx_text(st, 1), NULL) == PR_KC_COMM)
			pr_imap_put(names, sqlite3_column_int64(st, 0), 1);
	pr_kclassify_release(&kc);
	return pr_actx_done(ctx, st, rc, err);
}

static int capture_names(struct pr_actx *ctx, size_t c, struct pr_imap *names, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	if (!captures[c].like[0])
		return comm_names(ctx, names, err);
	if (pr_actx_prep(
		    ctx,
		    "SELECT id FROM string WHERE (value LIKE ?2 OR value LIKE ?3) AND ?1 IS NOT NULL",
		    &st, err))
		return -1;
	sqlite3_bind_text(st, 2, captures[c].like[0], -1, SQLITE_STATIC);
	if (captures[c].like[1])
		sqlite3_bind_text(st, 3, captures[c].like[1], -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		pr_imap_put(names, sqlite3_column_int64(st, 0), 1);
	return pr_actx_done(ctx, st, rc, err);
}

const struct pr_spanstat *pr_spanstat_get(struct pr_actx *ctx, struct pr_error *err)
{
	struct pass p = { 0 };
	struct pr_spanstat *ss;
	size_t i;
	int rc = 0;
	if (ctx->spanstat)
		return ctx->spanstat;
	ss = pr_xcalloc(1, sizeof(*ss));
	ss->rec = pr_spill_new("the spans' durations", pr_spanstat_rec_mem);
	ss->tl = pr_tlanes_new(ctx->dur > 0 ? ctx->dur / 4000 : 0);
	ss->dev = pr_xsort_new("the device activities by start", 2 * sizeof(int64_t),
			       pr_spanstat_dev_mem, PR_XSORT_SIGNED);
	p.ss = ss;
	/* the GPU analyses' pass rides along, unless done (gpuscan.h) */
	if (!ctx->gpuscan && !(p.gs = pr_gpuscan_start(ctx, err))) {
		pr_spanstat_free(ss);
		return NULL;
	}
	if (p.gs && pr_gpuscan_host(ctx, p.gs, err)) {
		pr_gpuscan_free(p.gs);
		pr_spanstat_free(ss);
		return NULL;
	}
	/* the captures' names, matched by SQLite's LIKE */
	for (i = 0; !rc && i < PR_CAP_N; i++)
		rc = capture_names(ctx, i, &p.capnames[i], err);
	/* and flame's tree of host spans (an_flame.c) */
	if (!ctx->flame && !ctx->flame_done)
		ctx->flame = pr_flame_new(ctx);
	/* and the trace view's windows (an_trace.c) */
	if (!rc)
		rc = pr_trace_new(ctx, &ctx->trace, err);
	if (!rc)
		rc = scan(ctx, &p, err);
	if (!rc) {
		ctx->flame_done = 1;
		if (ctx->flame)
			pr_flame_done(ctx->flame);
	}
	if (p.gs) {
		if (rc) {
			pr_gpuscan_free(p.gs);
		} else if (pr_gpuscan_finish(ctx, p.gs, err)) {
			rc = -1;
		}
	}
	for (i = 0; i < ss->nkinds; i++)
		pr_imap_release(&p.by_name[i]);
	free(p.by_name);
	free(p.device);
	free(p.counted);
	free(p.gk);
	free(p.host);
	free(p.flame);
	free(p.stepphase);
	free(p.over);
	free(p.capmask);
	for (i = 0; i < PR_CAP_N; i++)
		pr_imap_release(&p.capnames[i]);
	if (!rc && ctx->at)
		ctx->at_done = 1;
	if (rc || names(ctx, ss, err)) {
		pr_spanstat_free(ss);
		return NULL;
	}
	ss->by_total = pr_xreallocarray(NULL, ss->n ? ss->n : 1, sizeof(*ss->by_total));
	for (i = 0; i < ss->n; i++)
		if (ss->g[i].name)
			ss->by_total[ss->nby_total++] = i;
	sort_ss = ss;
	qsort(ss->by_total, ss->nby_total, sizeof(*ss->by_total), cmp_total);
	ss->top_self = top(ss, cmp_self, ctx->opts->top_n, &ss->ntop_self);
	ss->top_total = top(ss, cmp_known_total, ctx->opts->top_n, &ss->ntop_total);
	sort_ss = NULL;
	ctx->spanstat = ss;
	return ss;
}

void pr_spanstat_release(struct pr_actx *ctx)
{
	struct pr_spanstat *ss = ctx->spanstat;
	size_t i;
	if (!ss)
		return;
	for (i = 0; i < ss->n; i++) {
		free(ss->g[i].durs);
		ss->g[i].durs = NULL;
		ss->g[i].ndurs = 0;
	}
	pr_xsort_free(ss->dev);
	ss->dev = NULL;
	ss->ndev = 0;
	pr_spill_free(ss->rec);
	ss->rec = NULL;
}

size_t pr_spanstat_count(const struct pr_spanstat *ss, const char *kind, const char *name)
{
	size_t i, n = 0;
	for (i = 0; i < ss->n; i++)
		if (!strcmp(ss->kinds[ss->g[i].kind], kind) && ss->g[i].name &&
		    !strcmp(ss->g[i].name, name))
			n += (size_t)ss->g[i].all.count;
	return n;
}

size_t pr_spanstat_kind_count(const struct pr_spanstat *ss, const char *kind)
{
	size_t i, n = 0;
	for (i = 0; i < ss->n; i++)
		if (!strcmp(ss->kinds[ss->g[i].kind], kind))
			n += (size_t)ss->g[i].all.count;
	return n;
}

size_t pr_spanstat_per_step_groups(size_t nsteps)
{
	size_t n = nsteps ? PR_SPANSTAT_STEP_VALUES / nsteps : 0;
	if (!nsteps)
		return 0;
	return n < 1 ? 1 : n > PR_SPANSTAT_PER_STEP ? PR_SPANSTAT_PER_STEP : n;
}

int pr_spanstat_detail(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_spanstat *ss = ctx->spanstat;
	unsigned char *want; /* per group: 1 durations, 2 per step */
	const unsigned char *b;
	int64_t step_lo = 0, step_hi = 0;
	size_t i, ntr, keep = 0, nwant = 0, step_kind = SIZE_MAX;
	int rc, durations;
	if (!ss || ss->detailed)
		return 0;
	ss->detailed = 1;
	ntr = pr_spanstat_per_step_groups(ctx->nsteps);
	if (ntr > ss->nby_total)
		ntr = ss->nby_total;
	for (i = 0; i < ss->ntop_self + ss->ntop_total; i++) {
		size_t gi = i < ss->ntop_self ? ss->top_self[i] : ss->top_total[i - ss->ntop_self];
		keep += (size_t)ss->g[gi].all.count;
	}
	durations = keep <= pr_spanstat_keep_max;
	want = pr_xcalloc(ss->n ? ss->n : 1, sizeof(*want));
	for (i = 0; i < ss->ntop_self + ss->ntop_total + ntr; i++) {
		size_t gi = i < ss->ntop_self ? ss->top_self[i]
			    : i < ss->ntop_self + ss->ntop_total
				    ? ss->top_total[i - ss->ntop_self]
				    : ss->by_total[i - ss->ntop_self - ss->ntop_total];
		struct pr_spanstat_group *g = &ss->g[gi];
		unsigned char flags = i < ss->ntop_self + ss->ntop_total ? 1 : 2;
		if (flags == 1 && !durations)
			continue;
		nwant += !want[gi];
		want[gi] |= flags;
		if ((flags & 1) && !g->durs)
			g->durs =
				pr_xreallocarray(NULL, g->all.count > 0 ? (size_t)g->all.count : 1,
						 sizeof(*g->durs));
		if ((flags & 2) && !g->per_step)
			g->per_step = pr_xcalloc(ctx->nsteps, sizeof(double));
	}
	if (ctx->nsteps) {
		step_lo = ctx->steps[0].ts;
		step_hi = ctx->steps[ctx->nsteps - 1].ts + ctx->steps[ctx->nsteps - 1].dur;
	}
	for (i = 0; i < ss->nkinds; i++)
		if (!strcmp(ss->kinds[i], "step"))
			step_kind = i;
	rc = 0;
	/* the counted spans in id order, as the first pass left them (no second scan of the
	 * span table: it cost 0.35 s of the 2 s of a 1 GB trace's analysis) */
	if (nwant && !(rc = pr_spill_rewind(ss->rec, err))) {
		while ((b = pr_spill_next(ss->rec, REC_SIZE))) {
			uint32_t gi;
			int64_t ts, dur;
			struct pr_spanstat_group *g;
			memcpy(&gi, b, sizeof(gi));
			if (!want[gi])
				continue;
			memcpy(&ts, b + sizeof(gi), sizeof(ts));
			memcpy(&dur, b + sizeof(gi) + sizeof(ts), sizeof(dur));
			g = &ss->g[gi];
			if ((want[gi] & 1) && g->ndurs < (size_t)g->all.count)
				g->durs[g->ndurs++] = dur;
			/* as spans' per-step query did: steps' own spans left out, by start */
			if ((want[gi] & 2) && g->kind != step_kind && ts >= step_lo &&
			    ts < step_hi) {
				long si = pr_actx_step_index(ctx, ts);
				if (si >= 0)
					g->per_step[si] += (double)dur;
			}
		}
		rc = pr_spill_failed(ss->rec, err);
	}
	pr_spill_free(ss->rec);
	ss->rec = NULL;
	free(want);
	for (i = 0; i < ss->n; i++)
		if (ss->g[i].durs)
			sort_i64(ss->g[i].durs, ss->g[i].ndurs);
	return rc;
}
