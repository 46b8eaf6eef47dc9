/* gpuscan.c - one pass over a run's spans shared by the GPU analyses (gpuscan.h). */
#include "analyze/gpuscan.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/decimal.h"
#include "base/spill.h"
#include "base/strbuf.h"
#include "base/timecheck.h"
#include "base/jsonx.h"
#include "base/xalloc.h"
#include "base/xsort.h"

size_t pr_gpuscan_mem = (size_t)1 << 20;
int pr_gpuscan_hosts_on = 1;

/*
 * A row in the stream: what every row has (40 bytes), then for a device
 * activity its three args values, its launch properties (struct
 * pr_launch, for the kernel view) and its "stream" arg (64 bytes more), for a runtime call its
 * parent's span id (8 bytes: the op whose shapes the op view charges, found
 * without a lookup); not the other ancestors (a reader reads them from
 * span_up) nor the rest of the union. The stream
 * is most of the scratch file's bytes: written once, read by each analysis.
 */
struct srow {
	int64_t ts, dur, name, corr;
	uint32_t track;
	uint8_t kind, cflags;
	uint16_t zero;
};
/* bytes, bps, occ, launch, stream */
#define SROW_ACT (3 * sizeof(double) + sizeof(struct pr_launch) + sizeof(int64_t))
#define SROW_CALL sizeof(int64_t) /* a runtime call's parent id */
_Static_assert(sizeof(struct srow) == 40, "struct srow: 40 bytes, no padding");

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
		return !strcmp(k, "memcpy")   ? PR_GK_MEMCPY
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

/* ---- the launching ops (gpuscan.h, pr_gpuanc) ---- */

#define ANC_RING 64	  /* spans kept, by id modulo (a power of two) */
#define ANC_ARGS_MAX 4096 /* longer args are not kept: the analyses look the span up */
#define ANC_DEPTH 4	  /* a call's parent and the spans above it put, at most */
#define ANC_BACK 16	  /* a reader's rows found last */

struct pr_ancslot {
	struct pr_gpuanc_row r; /* r.id 0: empty */
	char *buf;		/* the args' copy */
	size_t cap;
	int has_args;
};

/* A row in the stream: this, then alen bytes of args. */
struct anc_hdr {
	int64_t id, parent, name, akeys;
	uint32_t alen;
	uint8_t kind, has_keys, has_args, zero;
};
_Static_assert(sizeof(struct anc_hdr) == 40, "struct anc_hdr: 40 bytes, no padding");

static void ring_free(struct pr_gpuscan *gs)
{
	size_t i;
	if (!gs->ring)
		return;
	for (i = 0; i < ANC_RING; i++)
		free(gs->ring[i].buf);
	free(gs->ring);
	gs->ring = NULL;
}

static void ring_put(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind, int64_t name,
		     int has_keys, int64_t akeys, const char *args, size_t alen)
{
	struct pr_ancslot *sl = &gs->ring[(uint64_t)id & (ANC_RING - 1)];
	if (id <= 0 || (args && alen > ANC_ARGS_MAX)) {
		sl->r.id = 0;
		return;
	}
	if (args && alen > sl->cap) {
		sl->cap = alen < 256 ? 256 : alen;
		free(sl->buf);
		sl->buf = pr_xmalloc(sl->cap);
	}
	if (args && alen)
		memcpy(sl->buf, args, alen);
	sl->has_args = args != NULL;
	sl->r = (struct pr_gpuanc_row){ id,   parent,	       name, has_keys ? akeys : 0,
					NULL, args ? alen : 0, kind, (uint8_t) !!has_keys };
}

static const struct pr_ancslot *ring_get(const struct pr_gpuscan *gs, int64_t id)
{
	const struct pr_ancslot *sl = &gs->ring[(uint64_t)id & (ANC_RING - 1)];
	return id > 0 && sl->r.id == id ? sl : NULL;
}

/* A runtime call's parent and the spans above it still in the ring, to the stream
 * (ascending ids: those not above the last one put are left to the lookups). */
static void anc_emit(struct pr_gpuscan *gs, int64_t parent)
{
	const struct pr_ancslot *chain[ANC_DEPTH];
	size_t n = 0;
	int64_t id = parent;
	while (n < ANC_DEPTH && id > gs->anc_last) {
		const struct pr_ancslot *sl = ring_get(gs, id);
		if (!sl)
			break;
		chain[n++] = sl;
		id = sl->r.parent;
	}
	while (n--) {
		const struct pr_ancslot *sl = chain[n];
		struct anc_hdr h;
		if (sl->r.id <= gs->anc_last)
			continue;
		memset(&h, 0, sizeof(h));
		h.id = sl->r.id;
		h.parent = sl->r.parent;
		h.name = sl->r.name;
		h.akeys = sl->r.akeys;
		h.alen = (uint32_t)sl->r.alen;
		h.kind = sl->r.kind;
		h.has_keys = sl->r.has_keys;
		h.has_args = (uint8_t)sl->has_args;
		pr_spill_put(gs->anc, &h, sizeof(h)); /* errors are sticky: finish says */
		if (h.alen)
			pr_spill_put(gs->anc, sl->buf, h.alen);
		gs->anc_last = sl->r.id;
	}
}

/* critical_path's events: blocks (a uint32 length, then that many bytes) of four varints an
 * event (zigzag: track - previous track, name, ts - previous ts, dur) */
#define HOST_BLOCK 4096
#define HOST_REC_MAX 40 /* four varints of at most 10 bytes */

static uint64_t zigzag(uint64_t v)
{
	return (v << 1) ^ (uint64_t) - (int64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)((v >> 1) ^ (uint64_t) - (int64_t)(v & 1));
}

static unsigned char *put_var(unsigned char *b, uint64_t v)
{
	while (v >= 0x80) {
		*b++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*b++ = (unsigned char)v;
	return b;
}

/* A varint at *p (before end): its value; *p past it; end at a short one. */
static uint64_t get_var(const unsigned char **p, const unsigned char *end)
{
	uint64_t v = 0;
	unsigned sh = 0;
	while (*p < end && sh < 64) {
		unsigned char c = *(*p)++;
		v |= (uint64_t)(c & 0x7f) << sh;
		if (!(c & 0x80))
			return v;
		sh += 7;
	}
	*p = end;
	return v;
}

static void host_flush(struct pr_gpuscan *gs)
{
	uint32_t n = (uint32_t)gs->hlen;
	if (!n)
		return;
	pr_spill_put(gs->host, &n, sizeof(n)); /* errors are sticky: finish says */
	pr_spill_put(gs->host, gs->hbuf, n);
	gs->hlen = 0;
}

int pr_gpuscan_hosts(struct pr_gpuscan *gs, pr_gpuhost_fn *fn, void *arg, struct pr_error *err)
{
	struct pr_gpuhost h = { 0, 0, 0, 0 };
	size_t got = 0;
	const unsigned char *p;
	int stop;
	if (pr_spill_reread(gs->host, err))
		return -1;
	while (got < gs->nhost && (p = pr_spill_next(gs->host, sizeof(uint32_t)))) {
		uint32_t n;
		const unsigned char *end;
		memcpy(&n, p, sizeof(n));
		if (!n || n > HOST_BLOCK || !(p = pr_spill_next(gs->host, n)))
			break;
		for (end = p + n; p < end && got < gs->nhost; got++) {
			h.track =
				(int64_t)((uint64_t)h.track + (uint64_t)unzigzag(get_var(&p, end)));
			h.name = unzigzag(get_var(&p, end));
			h.ts = (int64_t)((uint64_t)h.ts + (uint64_t)unzigzag(get_var(&p, end)));
			h.dur = unzigzag(get_var(&p, end));
			if ((stop = fn(arg, &h)))
				return stop;
		}
	}
	if (pr_spill_failed(gs->host, err))
		return -1;
	if (got < gs->nhost)
		return pr_error_set(err, PR_E_IO,
				    "critical_path's CPU events: %zu of %zu read back", got,
				    gs->nhost);
	return 0;
}

/* ---- PR_TIMINGS=parts (gpuscan.h) ---- */

static _Thread_local struct pr_gpupart pass_part; /* the shared pass's GPU rows (per thread) */

int pr_gpupart_on(void)
{
	static int on = -1;
	if (on < 0) {
		const char *tv = getenv("PR_TIMINGS");
		on = tv && !strcmp(tv, "parts");
	}
	return on;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void pr_gpupart_begin(struct pr_gpupart *p)
{
	p->t0 = cpu_s();
}

void pr_gpupart_end(struct pr_gpupart *p)
{
	p->sum += cpu_s() - p->t0;
	p->calls++;
}

void pr_gpupart_print(const char *name, const struct pr_gpupart *p)
{
	struct pr_gpupart e = { 0, 0, 0 };
	double net;
	int i;
	for (i = 0; i < 100000; i++) { /* the clocks' own cost, counted in each call's time */
		pr_gpupart_begin(&e);
		pr_gpupart_end(&e);
	}
	net = p->sum - (double)p->calls * (e.sum / (double)e.calls);
	fprintf(stderr, "profreport: timing: part %s %.6f calls %llu raw %.6f\n", name,
		net > 0 ? net : 0, (unsigned long long)p->calls, p->sum);
}

static int add_host(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind, int64_t track,
		    int64_t ts, int64_t dur, int64_t name, int has_keys, int64_t akeys,
		    const char *args, size_t alen);

int pr_gpuscan_add_host(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind,
			int64_t track, int64_t ts, int64_t dur, int64_t name, int has_keys,
			int64_t akeys, const char *args, size_t alen)
{
	int rc;
	if (!pr_gpupart_on())
		return add_host(gs, id, parent, kind, track, ts, dur, name, has_keys, akeys, args,
				alen);
	pr_gpupart_begin(&pass_part);
	rc = add_host(gs, id, parent, kind, track, ts, dur, name, has_keys, akeys, args, alen);
	pr_gpupart_end(&pass_part);
	return rc;
}

static int add_host(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind, int64_t track,
		    int64_t ts, int64_t dur, int64_t name, int has_keys, int64_t akeys,
		    const char *args, size_t alen)
{
	if (kind == PR_GK_OP || kind == PR_GK_PHASE) {
		unsigned char *b;
		if (gs->hlen + HOST_REC_MAX > HOST_BLOCK)
			host_flush(gs);
		b = gs->hbuf + gs->hlen;
		b = put_var(b, zigzag((uint64_t)track - (uint64_t)gs->hprev[0]));
		b = put_var(b, zigzag((uint64_t)name));
		b = put_var(b, zigzag((uint64_t)ts - (uint64_t)gs->hprev[1]));
		b = put_var(b, zigzag((uint64_t)dur));
		gs->hlen = (size_t)(b - gs->hbuf);
		gs->hprev[0] = track;
		gs->hprev[1] = ts;
		gs->nhost++;
	}
	if (gs->ring)
		ring_put(gs, id, parent, kind, name, has_keys, akeys, args, alen);
	return 0;
}

int pr_gpuscan_host(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	/* another perf event's spans are not in the shared pass (perfev.c): scanned as before */
	if (ctx->perf_event || !pr_gpuscan_hosts_on)
		return 0;
	if (pr_actx_prep(ctx,
			 "SELECT 1 FROM track WHERE run_id = ?1 AND kind = 'gpu_stream' "
			 "LIMIT 1",
			 &st, err))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		gs->host_on = 1;
		gs->host = pr_spill_new("critical_path's CPU events",
					pr_gpuscan_mem < HOST_BLOCK + sizeof(uint32_t)
						? HOST_BLOCK + sizeof(uint32_t)
						: pr_gpuscan_mem);
		gs->hbuf = pr_xmalloc(HOST_BLOCK);
		gs->hlen = 0;
		gs->hprev[0] = gs->hprev[1] = 0;
		gs->anc = pr_spill_new("the launching ops",
				       pr_gpuscan_mem < sizeof(struct anc_hdr) + ANC_ARGS_MAX
					       ? sizeof(struct anc_hdr) + ANC_ARGS_MAX
					       : pr_gpuscan_mem);
		gs->ring = pr_xcalloc(ANC_RING, sizeof(*gs->ring));
		gs->anc_last = 0;
		rc = SQLITE_DONE;
	}
	return pr_actx_done(ctx, st, rc, err);
}

struct pr_spill *pr_gpuscan_take_anc(struct pr_gpuscan *gs)
{
	struct pr_spill *s = gs->anc;
	gs->anc = NULL;
	return s;
}

struct pr_gpuanc {
	struct pr_spill *s;
	struct pr_gpuanc_row back[ANC_BACK];
	char *buf[ANC_BACK];
	size_t cap[ANC_BACK];
	size_t n, at; /* rows in back; the newest's slot */
	int end;
};

struct pr_gpuanc *pr_gpuanc_open(struct pr_spill *s, struct pr_error *err)
{
	struct pr_gpuanc *a;
	if (s && pr_spill_reread(s, err))
		return NULL;
	a = pr_xcalloc(1, sizeof(*a));
	a->s = s;
	a->end = !s;
	return a;
}

/* The next row of the stream into the ring of rows found: its slot, or -1 at the end. */
static int anc_next(struct pr_gpuanc *a)
{
	const unsigned char *p;
	struct anc_hdr h;
	size_t k;
	if (a->end || !(p = pr_spill_next(a->s, sizeof(h)))) {
		a->end = 1;
		return -1;
	}
	memcpy(&h, p, sizeof(h));
	k = a->n ? (a->at + 1) % ANC_BACK : 0;
	if (h.alen) {
		if (!(p = pr_spill_next(a->s, h.alen))) {
			a->end = 1;
			return -1;
		}
		if (h.alen > a->cap[k]) {
			free(a->buf[k]);
			a->cap[k] = h.alen;
			a->buf[k] = pr_xmalloc(h.alen);
		}
		memcpy(a->buf[k], p, h.alen);
	}
	a->back[k] = (struct pr_gpuanc_row){
		h.id,	h.parent, h.name,    h.akeys, h.has_args ? (h.alen ? a->buf[k] : "") : NULL,
		h.alen, h.kind,	  h.has_keys
	};
	a->at = k;
	if (a->n < ANC_BACK)
		a->n++;
	return (int)k;
}

const struct pr_gpuanc_row *pr_gpuanc_find(struct pr_gpuanc *a, int64_t id)
{
	size_t i;
	int k;
	for (i = 0; i < a->n; i++)
		if (a->back[i].id == id)
			return &a->back[i];
	if (a->n && a->back[a->at].id > id)
		return NULL;
	while ((k = anc_next(a)) >= 0) {
		if (a->back[k].id == id)
			return &a->back[k];
		if (a->back[k].id > id)
			return NULL;
	}
	return NULL;
}

int pr_gpuanc_close(struct pr_gpuanc *a, struct pr_error *err)
{
	size_t i;
	int rc;
	if (!a)
		return 0;
	rc = a->s ? pr_spill_failed(a->s, err) : 0;
	for (i = 0; i < ANC_BACK; i++)
		free(a->buf[i]);
	free(a);
	return rc;
}

void pr_gpuscan_free(struct pr_gpuscan *gs)
{
	if (!gs)
		return;
	pr_spill_free(gs->host);
	free(gs->hbuf);
	pr_spill_free(gs->anc);
	ring_free(gs);
	pr_spill_free(gs->rows);
	pr_spill_free(gs->ids);
	free(gs->dl);
	free(gs->tracks);
	free(gs->tstream);
	free(gs->keys);
	pr_imap_release(&gs->key_idx);
	pr_imap_release(&gs->track_idx);
	if (gs->key_st)
		sqlite3_finalize(gs->key_st);
	free(gs);
}

void pr_gpuscan_drop(struct pr_actx *ctx)
{
	pr_gpuscan_free(ctx->gpuscan);
	ctx->gpuscan = NULL;
}

int64_t pr_gpurow_corr_link(const struct pr_gpurow *r)
{
	return r->cflags & PR_GC_LONG ? PR_GPU_NO_CORR : r->corr;
}

int64_t pr_gpurow_corr_break(const struct pr_gpurow *r)
{
	if (r->cflags & PR_GC_LONG)
		return r->corr;
	return r->corr == PR_GPU_NO_CORR || (r->cflags & PR_GC_QUOTED) ? -1 : r->corr;
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

struct pr_gpuscan *pr_gpuscan_start(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_gpuscan *gs = pr_xcalloc(1, sizeof(*gs));
	gs->ctx = ctx;
	gs->last_key = gs->last_track = INT64_MIN;
	gs->rows = pr_spill_new("the GPU rows", pr_gpuscan_mem < sizeof(struct srow) + SROW_ACT
							? sizeof(struct srow) + SROW_ACT
							: pr_gpuscan_mem);
	gs->ids = pr_spill_new("the GPU rows' span ids", pr_gpuscan_mem / 4);
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

/* Positions of the args the GPU analyses read in one argkeys list, -1 = absent. */
enum {
	A_CORR,
	A_BYTES,
	A_BPS,
	A_OCC,
	A_REGS,
	A_SMEM,
	A_GRID,
	A_BLOCK,
	A_STREAM,
	NARGS
};
static const char *const arg_keys[NARGS] = { "correlation",
					     "bytes",
					     "blocks per SM",
					     "est. achieved occupancy %",
					     "registers per thread",
					     "shared memory",
					     "grid",
					     "block",
					     "stream" };
struct pr_gpukeys {
	int pos[NARGS]; /* gpu_breakdown's: the first within the first million keys */
	int64_t link;	/* the gpu analysis's: the first "correlation" */
};

static int load_keys(struct pr_gpuscan *gs, int64_t id, struct pr_error *err)
{
	struct pr_gpukeys *kp;
	json_t *arr = NULL, *k;
	json_error_t jerr;
	size_t i;
	int j, rc;
	if (!gs->key_st &&
	    pr_actx_prep(gs->ctx, "SELECT keys FROM argkeys WHERE id = ?2 AND ?1 IS NOT NULL",
			 &gs->key_st, err))
		return -1;
	sqlite3_reset(gs->key_st);
	sqlite3_bind_int64(gs->key_st, 2, id);
	rc = sqlite3_step(gs->key_st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(gs->ctx->db));
		return -1;
	}
	if (rc == SQLITE_ROW && sqlite3_column_bytes(gs->key_st, 0))
		arr = json_loads(pr_actx_text(gs->key_st, 0), 0, &jerr);
	if (gs->nkeys == gs->kcap) {
		gs->kcap = gs->kcap ? gs->kcap * 2 : 16;
		gs->keys = pr_xreallocarray(gs->keys, gs->kcap, sizeof(*gs->keys));
	}
	kp = &gs->keys[gs->nkeys];
	for (j = 0; j < NARGS; j++)
		kp->pos[j] = -1;
	kp->link = -1;
	json_array_foreach (arr, i, k) {
		if (!json_is_string(k))
			continue;
		for (j = 0; j < NARGS; j++)
			if (!strcmp(json_string_value(k), arg_keys[j]) && kp->pos[j] < 0 &&
			    i < 1000000)
				kp->pos[j] = (int)i;
		if (kp->link < 0 && !strcmp(json_string_value(k), "correlation"))
			kp->link = (int64_t)i;
	}
	json_decref(arr);
	pr_imap_put(&gs->key_idx, id, (int64_t)gs->nkeys);
	return (int)gs->nkeys++;
}

/*
 * The gpu analysis's reading: the k-th element of a minified JSON array of
 * values as an integer (a number or a numeric string, at most 18 digits).
 * 1: a number, 2: a numeric string, 0: none.
 */
static int array_int(const char *s, size_t n, int64_t k, int64_t *out, int *exact)
{
	size_t i = 1, e;
	int64_t idx = 0;
	*exact = 0;
	if (!s || n < 2 || s[0] != '[')
		return 0;
	while (i < n) {
		if (idx == k) {
			int64_t v = 0;
			int neg = 0, digits = 0, quoted = 0;
			/* perf_model's reading: the element is "-?[0-9]+" (minified: then ',' or
			 * ']'), whatever its length */
			e = i + (s[i] == '-');
			while (e < n && s[e] >= '0' && s[e] <= '9')
				e++;
			*exact = e > i + (s[i] == '-') && e < n && (s[e] == ',' || s[e] == ']');
			if (s[i] == '"')
				i++, quoted = 1;
			if (i < n && s[i] == '-')
				neg = 1, i++;
			while (i < n && s[i] >= '0' && s[i] <= '9' && digits < 18)
				v = v * 10 + (s[i++] - '0'), digits++;
			if (!digits || (i < n && s[i] >= '0' && s[i] <= '9'))
				return 0; /* not a number, or too long for one */
			*out = neg ? -v : v;
			return 1 + quoted;
		}
		e = pr_json_elem_end(s, i, n);
		if (e >= n || s[e] != ',' || e == i)
			return 0; /* the end of the array, or an empty element */
		i = e + 1;
		idx++;
	}
	return 0;
}

/*
 * gpu_breakdown's reading: the elements at the positions of a JSON array
 * text (up to its first NUL) as numbers (val[j], NAN when absent or not a
 * number), and the correlation as an integer (*corr, -1 when absent).
 */
/* A kernel's "grid" or "block" ("[x, y, z]") at start into out[3] (-1 each when not so). */
static void pick_dim3(const char *start, int32_t *out)
{
	const char *p = start + 1;
	int k;
	for (k = 0; k < 3; k++) {
		char *end;
		long v;
		while (*p == ' ')
			p++;
		v = strtol(p, &end, 10);
		if (end == p || v < 0 || v > INT32_MAX)
			break;
		out[k] = (int32_t)v;
		p = end;
		while (*p == ' ')
			p++;
		if (*p != (k < 2 ? ',' : ']'))
			break;
		p++;
	}
	if (k < 3)
		out[0] = out[1] = out[2] = -1;
}

static void args_pick(const char *s, const int *pos, double *val, int32_t *dim3, int64_t *corr)
{
	int j, maxpos = -1, idx = 0;
	size_t i = 1, n, e;
	for (j = 0; j < NARGS; j++) {
		val[j] = NAN;
		if (pos[j] > maxpos)
			maxpos = pos[j];
	}
	for (j = 0; j < 6; j++)
		dim3[j] = -1;
	*corr = -1;
	if (!s || *s != '[' || maxpos < 0)
		return;
	n = strlen(s);
	while (i < n && idx <= maxpos) {
		while (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')
			i++;
		for (j = 0; j < NARGS; j++) {
			const char *start = s + i;
			char *end;
			double d;
			int64_t iv;
			if (pos[j] == idx && (j == A_GRID || j == A_BLOCK) && *start == '[') {
				pick_dim3(start, dim3 + (j == A_GRID ? 0 : 3));
				continue;
			}
			if (pos[j] != idx || !((*start >= '0' && *start <= '9') || *start == '-'))
				continue;
			if (pr_decimal_fast(start, &d, &iv)) {
				val[j] = d;
				if (j == A_CORR)
					*corr = iv != INT64_MIN ? iv : strtoll(start, &end, 10);
				continue;
			}
			d = strtod(start, &end);
			if (end != start)
				val[j] = d;
			if (j == A_CORR && end != start)
				*corr = strtoll(start, &end, 10);
		}
		e = pr_json_elem_end(s, i, n);
		if (e >= n || s[e] != ',')
			return;
		i = e + 1;
		idx++;
	}
}

/* The row's correlation and args values, from its args text (NULL: SQL NULL). */
static int read_args(struct pr_gpuscan *gs, struct pr_gpurow *r, int has_keys, int64_t akeys,
		     const char *args, size_t alen, struct pr_error *err)
{
	static const int none[NARGS] = { -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	const struct pr_gpukeys *kp = NULL;
	double val[NARGS];
	int32_t dim3[6];
	int64_t link = PR_GPU_NO_CORR, brk, v;
	int got, exact = 0;
	if (has_keys) {
		if (akeys != gs->last_key) {
			int64_t ki;
			if (!pr_imap_get(&gs->key_idx, akeys, &ki) &&
			    (ki = load_keys(gs, akeys, err)) < 0)
				return -1;
			gs->last_key = akeys;
			gs->last_key_i = (size_t)ki;
		}
		kp = &gs->keys[gs->last_key_i];
	}
	args_pick(kp ? args : NULL, kp ? kp->pos : none, val, dim3, &brk);
	got = kp && kp->link >= 0 && args ? array_int(args, alen, kp->link, &v, &exact) : 0;
	if (got)
		link = v;
	/* the two readings agree but for a quoted number (gpu_breakdown: none)
	 * and one of 19 digits or more (gpu: none) */
	r->cflags = 0;
	if (got == 2 || (got && brk == -1 && link != -1)) {
		r->corr = link;
		r->cflags = PR_GC_QUOTED;
	} else if (!got && brk != -1) {
		r->corr = brk;
		r->cflags = PR_GC_LONG;
	} else {
		r->corr = link;
	}
	/* an integer text: corr is its value (gpu's, or gpu_breakdown's past 18 digits) */
	if (exact && (got || (r->cflags & PR_GC_LONG)))
		r->cflags |= PR_GC_PMINT;
	if (r->kind == PR_GK_KERNEL || r->kind == PR_GK_MEMCPY || r->kind == PR_GK_MEMSET) {
		r->u.act.bytes = val[A_BYTES];
		r->u.act.bps = val[A_BPS];
		r->u.act.occ = val[A_OCC];
		memcpy(r->u.act.lp.grid, dim3, sizeof(r->u.act.lp.grid));
		memcpy(r->u.act.lp.block, dim3 + 3, sizeof(r->u.act.lp.block));
		r->u.act.lp.regs =
			val[A_REGS] >= 0 && val[A_REGS] <= INT32_MAX ? (int32_t)val[A_REGS] : -1;
		r->u.act.lp.smem =
			val[A_SMEM] >= 0 && val[A_SMEM] <= INT32_MAX ? (int32_t)val[A_SMEM] : -1;
		r->u.act.stream = val[A_STREAM] >= -9e15 && val[A_STREAM] <= 9e15
					  ? (int64_t)val[A_STREAM]
					  : PR_GPU_NO_STREAM;
	}
	return 0;
}

static uint32_t track_index(struct pr_gpuscan *gs, int64_t track)
{
	int64_t ti;
	if (track == gs->last_track)
		return gs->last_track_i;
	if (!pr_imap_get(&gs->track_idx, track, &ti)) {
		if ((gs->ntracks & (gs->ntracks - 1)) == 0)
			gs->tracks = pr_xreallocarray(gs->tracks, gs->ntracks ? gs->ntracks * 2 : 1,
						      sizeof(*gs->tracks));
		if ((gs->ntracks & (gs->ntracks - 1)) == 0)
			gs->tstream =
				pr_xreallocarray(gs->tstream, gs->ntracks ? gs->ntracks * 2 : 1,
						 sizeof(*gs->tstream));
		gs->tracks[gs->ntracks] = track;
		gs->tstream[gs->ntracks] = PR_GPU_NO_STREAM;
		ti = (int64_t)gs->ntracks++;
		pr_imap_put(&gs->track_idx, track, ti);
	}
	gs->last_track = track;
	gs->last_track_i = (uint32_t)ti;
	return gs->last_track_i;
}

static int is_act(uint8_t kind)
{
	return kind == PR_GK_KERNEL || kind == PR_GK_MEMCPY || kind == PR_GK_MEMSET;
}

static int is_act_or_call(uint8_t kind)
{
	return is_act(kind) || kind == PR_GK_RUNTIME;
}

static int add_row(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind, int64_t track,
		   int64_t ts, int64_t dur, int64_t name, int has_keys, int64_t akeys,
		   const char *args, size_t alen, struct pr_error *err);

int pr_gpuscan_add(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind, int64_t track,
		   int64_t ts, int64_t dur, int64_t name, int has_keys, int64_t akeys,
		   const char *args, size_t alen, struct pr_error *err)
{
	int rc;
	if (!pr_gpupart_on())
		return add_row(gs, id, parent, kind, track, ts, dur, name, has_keys, akeys, args,
			       alen, err);
	pr_gpupart_begin(&pass_part);
	rc = add_row(gs, id, parent, kind, track, ts, dur, name, has_keys, akeys, args, alen, err);
	pr_gpupart_end(&pass_part);
	return rc;
}

static int add_row(struct pr_gpuscan *gs, int64_t id, int64_t parent, uint8_t kind, int64_t track,
		   int64_t ts, int64_t dur, int64_t name, int has_keys, int64_t akeys,
		   const char *args, size_t alen, struct pr_error *err)
{
	struct pr_gpurow r;
	unsigned char b[sizeof(struct srow) + SROW_ACT];
	struct srow sr;
	size_t nb = sizeof(sr);
	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.track = track_index(gs, track);
	/* times read as the nearest bound (docs/store.md: another program's store may hold
	 * any int64), so every sum and difference of the GPU analyses fits */
	r.ts = ts;
	r.dur = dur;
	pr_span_clamp(&r.ts, &r.dur);
	r.name = name;
	r.pkind = r.qkind = PR_GK_NONE;
	if (read_args(gs, &r, has_keys, akeys, args, alen, err))
		return -1;
	if (gs->ring && kind == PR_GK_RUNTIME && parent > 0)
		anc_emit(gs, parent);
	else if (gs->host_on && (kind == PR_GK_PHASE || kind == PR_GK_STEP || kind == PR_GK_OP))
		add_host(gs, id, parent, kind, track, ts, dur, name, has_keys, akeys, args, alen);
	memset(&sr, 0, sizeof(sr)); /* the bytes written are all set */
	sr.ts = r.ts;
	sr.dur = r.dur;
	sr.name = r.name;
	sr.corr = r.corr;
	sr.track = r.track;
	sr.kind = r.kind;
	sr.cflags = r.cflags;
	memcpy(b, &sr, sizeof(sr));
	if (is_act(kind)) {
		memcpy(b + nb, &r.u.act.bytes, sizeof(double));
		memcpy(b + nb + sizeof(double), &r.u.act.bps, sizeof(double));
		memcpy(b + nb + 2 * sizeof(double), &r.u.act.occ, sizeof(double));
		memcpy(b + nb + 3 * sizeof(double), &r.u.act.lp, sizeof(r.u.act.lp));
		memcpy(b + nb + 3 * sizeof(double) + sizeof(r.u.act.lp), &r.u.act.stream,
		       sizeof(int64_t));
		nb += SROW_ACT;
	} else if (kind == PR_GK_RUNTIME) {
		memcpy(b + nb, &parent, sizeof(parent));
		nb += SROW_CALL;
	}
	/* a failed write (no scratch directory, a full disk) ends the pass at once */
	if (pr_spill_put(gs->rows, b, nb))
		return pr_spill_failed(gs->rows, err);
	if (is_act_or_call(kind) && pr_spill_put(gs->ids, &id, sizeof(id)))
		return pr_spill_failed(gs->ids, err);
	gs->n++;
	gs->nkind[kind < PR_GK_OTHER ? kind : PR_GK_OTHER]++;
	if (is_act(kind) && r.u.act.stream != PR_GPU_NO_STREAM) {
		gs->nstreamed++;
		if (gs->tstream[r.track] == PR_GPU_NO_STREAM)
			gs->tstream[r.track] = r.u.act.stream;
	}
	return 0;
}

int pr_gpuscan_finish(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err)
{
	if (pr_gpupart_on()) {
		pr_gpupart_print("gpu_rows", &pass_part);
		memset(&pass_part, 0, sizeof(pass_part));
	}
	/* the pass's lookups are done */
	free(gs->keys);
	gs->keys = NULL;
	gs->nkeys = gs->kcap = 0;
	pr_imap_release(&gs->key_idx);
	pr_imap_release(&gs->track_idx);
	if (gs->key_st)
		sqlite3_finalize(gs->key_st);
	gs->key_st = NULL;
	ring_free(gs);
	if (gs->host)
		host_flush(gs);
	free(gs->hbuf);
	gs->hbuf = NULL;
	if (pr_spill_failed(gs->rows, err) || pr_spill_failed(gs->ids, err) ||
	    (gs->host && pr_spill_failed(gs->host, err)) ||
	    (gs->anc && pr_spill_failed(gs->anc, err))) {
		pr_gpuscan_free(gs);
		return -1;
	}
	pr_gpuscan_free(ctx->gpuscan);
	ctx->gpuscan = gs;
	return 0;
}

/* The pass on its own, for a run whose shared span pass (spanstat.c) has not run. */
#define GPUSCAN_SELECT                                                                             \
	"SELECT s.id, s.kind, s.track_id, s.ts, s.dur, s.name_id, s.args_keys, "                   \
	"s.args, ifnull(s.parent_id, 0) FROM span s "                                              \
	"WHERE s.run_id = ?1 AND ((s.kind <> 'op' AND s.kind IN ('kernel', 'memcpy', "             \
	"'memset', 'runtime', 'phase', 'step', 'gpu_annotation', 'gpu_step'))"

static int load(struct pr_actx *ctx, struct pr_gpuscan *gs, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	/* rowid order: no sort; the kind test is all an op row costs (<> first:
	 * SQLite tests IN by a lookup in a temporary index, dearer than one
	 * comparison, and most spans are ops); the DataLoader ops' name ids are bound
	 * (?2, a JSON array), and without any the statement has no op test at all */
	if (gs->ndl)
		rc = pr_actx_prep_ids(ctx,
				      GPUSCAN_SELECT
				      " OR (s.kind = 'op' AND s.name_id IN "
				      "(SELECT value FROM json_each(?2)))) ORDER BY s.id",
				      gs->dl, gs->ndl, &st, err);
	else
		rc = pr_actx_prep(ctx, GPUSCAN_SELECT ") ORDER BY s.id", &st, err);
	if (rc)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(st, 7);
		if (pr_gpuscan_add(gs, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 8),
				   pr_gpuscan_kind(pr_actx_text(st, 1)),
				   sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
				   sqlite3_column_int64(st, 4), sqlite3_column_int64(st, 5),
				   sqlite3_column_type(st, 6) == SQLITE_INTEGER,
				   sqlite3_column_int64(st, 6), text,
				   text ? (size_t)sqlite3_column_bytes(st, 7) : 0, err)) {
			sqlite3_finalize(st);
			return -1;
		}
	}
	return pr_actx_done(ctx, st, rc, err);
}

struct pr_gpuscan *pr_gpuscan_get(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_gpuscan *gs;
	if (ctx->gpuscan)
		return ctx->gpuscan;
	if (!(gs = pr_gpuscan_start(ctx, err)))
		return NULL;
	if (load(ctx, gs, err)) {
		pr_gpuscan_free(gs);
		return NULL;
	}
	if (pr_gpuscan_finish(ctx, gs, err))
		return NULL;
	return ctx->gpuscan;
}

const char *pr_gpuscan_stream_label(int64_t stream, const char *tid, char *buf, size_t n)
{
	if (stream == PR_GPU_NO_STREAM)
		return tid;
	snprintf(buf, n, "%lld", (long long)stream);
	return buf;
}

void pr_gpuscan_sort_u64(uint64_t *keys, size_t n)
{
	pr_radix_u64(keys, NULL, n);
}

/* ---- reading ---- */

struct pr_gpuread {
	struct pr_gpuscan *gs;
	struct pr_actx *ctx;
	struct pr_gpurow row;
	sqlite3_stmt *up; /* span_up in span_id order (with_up), at the row of span up_id */
	int up_rc;	  /* its last step: SQLITE_ROW, SQLITE_DONE, or an error */
	int64_t up_id;
	size_t left; /* rows not yet read */
	int failed;
	struct pr_error err;
};

struct pr_gpuread *pr_gpuscan_open(struct pr_actx *ctx, struct pr_gpuscan *gs, int with_up,
				   struct pr_error *err)
{
	struct pr_gpuread *rd;
	if (gs->reading) {
		pr_error_set(err, PR_E_IO, "the GPU rows: read by two readers at once");
		return NULL;
	}
	if (pr_spill_reread(gs->rows, err) || (with_up && pr_spill_reread(gs->ids, err)))
		return NULL;
	rd = pr_xcalloc(1, sizeof(*rd));
	rd->gs = gs;
	rd->ctx = ctx;
	rd->left = gs->n;
	rd->up_rc = SQLITE_DONE;
	/* NULL columns read as 0: no parent */
	if (with_up && gs->nkind[PR_GK_KERNEL] + gs->nkind[PR_GK_MEMCPY] + gs->nkind[PR_GK_MEMSET] +
			       gs->nkind[PR_GK_RUNTIME]) {
		if (pr_actx_prep(
			    ctx,
			    "SELECT span_id, p_kind, p_name_id, p_parent_id, p_ts, q_kind, "
			    "q_name_id, q_parent_id FROM span_up WHERE run_id = ?1 ORDER BY span_id",
			    &rd->up, err)) {
			free(rd);
			return NULL;
		}
		rd->up_rc = SQLITE_ROW;
		rd->up_id = INT64_MIN;
	}
	gs->reading = 1;
	return rd;
}

/* Steps span_up to the first row of span id >= id: 1 when it is id's, 0 when none, -1 on error. */
static int up_seek(struct pr_gpuread *rd, int64_t id)
{
	while (rd->up_rc == SQLITE_ROW && rd->up_id < id) {
		rd->up_rc = sqlite3_step(rd->up);
		if (rd->up_rc == SQLITE_ROW) {
			rd->up_id = sqlite3_column_int64(rd->up, 0);
		} else if (rd->up_rc != SQLITE_DONE) {
			pr_error_set(&rd->err, PR_E_STORE, "sqlite: %s",
				     sqlite3_errmsg(rd->ctx->db));
			return -1;
		}
	}
	return rd->up_rc == SQLITE_ROW && rd->up_id == id;
}

/*
 * The ancestors of an activity or call from its span_up row (schema.sql;
 * the writer's nesting): rows without one keep PR_GK_NONE (no parent, or
 * not a device activity or runtime call).
 */
static void fill_up(sqlite3_stmt *st, struct pr_gpurow *r)
{
	r->pkind = pr_gpuscan_kind((const char *)sqlite3_column_text(st, 1));
	r->qkind = pr_gpuscan_kind((const char *)sqlite3_column_text(st, 5));
	if (r->kind == PR_GK_RUNTIME) {
		r->u.call.pname = sqlite3_column_int64(st, 2);
		r->u.call.qname = sqlite3_column_int64(st, 6);
		r->u.call.above = r->pkind == PR_GK_NONE   ? 0
				  : r->qkind == PR_GK_NONE ? sqlite3_column_int64(st, 3)
							   : sqlite3_column_int64(st, 7);
	} else {
		r->u.act.pname = sqlite3_column_int64(st, 2);
		r->u.act.pts = sqlite3_column_int64(st, 4);
	}
}

const struct pr_gpurow *pr_gpuread_next(struct pr_gpuread *rd)
{
	struct pr_gpurow *r = &rd->row;
	const unsigned char *p;
	struct srow sr;
	int64_t id;
	int at;
	if (rd->failed || !rd->left)
		return NULL;
	if (!(p = pr_spill_next(rd->gs->rows, sizeof(sr)))) {
		rd->failed = 1; /* rows short of n: the stream says why */
		return NULL;
	}
	memcpy(&sr, p, sizeof(sr));
	memset(r, 0, sizeof(*r));
	r->ts = sr.ts;
	r->dur = sr.dur;
	r->name = sr.name;
	r->corr = sr.corr;
	r->track = sr.track;
	r->kind = sr.kind;
	r->cflags = sr.cflags;
	r->pkind = r->qkind = PR_GK_NONE;
	if (is_act(sr.kind)) {
		if (!(p = pr_spill_next(rd->gs->rows, SROW_ACT))) {
			rd->failed = 1;
			return NULL;
		}
		memcpy(&r->u.act.bytes, p, sizeof(double));
		memcpy(&r->u.act.bps, p + sizeof(double), sizeof(double));
		memcpy(&r->u.act.occ, p + 2 * sizeof(double), sizeof(double));
		memcpy(&r->u.act.lp, p + 3 * sizeof(double), sizeof(r->u.act.lp));
		memcpy(&r->u.act.stream, p + 3 * sizeof(double) + sizeof(r->u.act.lp),
		       sizeof(int64_t));
	} else if (sr.kind == PR_GK_RUNTIME) {
		if (!(p = pr_spill_next(rd->gs->rows, SROW_CALL))) {
			rd->failed = 1;
			return NULL;
		}
		memcpy(&r->u.call.parent, p, sizeof(int64_t));
	}
	rd->left--;
	if (rd->up && is_act_or_call(rd->row.kind)) {
		if (!(p = pr_spill_next(rd->gs->ids, sizeof(id)))) {
			rd->failed = 1;
			return NULL;
		}
		memcpy(&id, p, sizeof(id));
		rd->row.id = id;
		if ((at = up_seek(rd, id)) < 0) {
			rd->failed = 2;
			return NULL;
		}
		if (at)
			fill_up(rd->up, &rd->row);
	}
	return &rd->row;
}

int pr_gpuread_close(struct pr_gpuread *rd, struct pr_error *err)
{
	int rc = 0;
	if (!rd)
		return 0;
	if (rd->failed == 2) {
		rc = pr_error_set(err, rd->err.code, "%s", rd->err.text);
	} else if (pr_spill_failed(rd->gs->rows, err) || pr_spill_failed(rd->gs->ids, err)) {
		rc = -1;
	} else if (rd->failed) {
		rc = pr_error_set(err, PR_E_IO, "the GPU rows: %zu of %zu not read back", rd->left,
				  rd->gs->n);
	}
	if (rd->up)
		sqlite3_finalize(rd->up);
	rd->gs->reading = 0;
	free(rd);
	return rc;
}

/* ---- ac2g flows ---- */

int64_t pr_gpu_flow_key(int64_t track, int64_t ts)
{
	return (int64_t)((uint64_t)ts * 1000003u + (uint64_t)track * 0x9e3779b97f4a7c15ULL);
}

int pr_gpu_flows(struct pr_actx *ctx, pr_gpu_flow_fn *fn, void *arg, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc, stop = 0;
	if (pr_actx_prep(ctx,
			 "SELECT f.flow_id, f.phase, ifnull(f.track_id, 0), f.ts FROM flow f "
			 "JOIN string c ON c.id = f.cat_id "
			 "WHERE f.run_id = ?1 AND c.value = 'ac2g' AND f.phase IN ('s', 'f')",
			 &st, err))
		return -1;
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *fid = pr_actx_text(st, 0);
		char *end;
		long long id;
		errno = 0;
		id = strtoll(fid, &end, 10);
		if (end == fid || *end || errno)
			continue;
		stop = fn(arg, id, pr_actx_text(st, 1)[0] == 's', sqlite3_column_int64(st, 2),
			  sqlite3_column_int64(st, 3));
	}
	if (stop) {
		sqlite3_finalize(st);
		return stop;
	}
	return pr_actx_done(ctx, st, rc, err);
}
