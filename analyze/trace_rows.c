/*
 * trace_rows.c - the trace view's windows and candidates (trace_impl.h),
 * fed by the shared span pass (spanstat.c); the trace view (an_trace.c)
 * reads them. Calls neither: the pass and the view call it.
 */
#include "analyze/trace_impl.h"

#include <ctype.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "analyze/spanstat.h"
#include "base/spill.h"
#include "base/strbuf.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

size_t pr_trace_bound = PR_TRACE_BOUND;

/* ---- --window SPEC ---- */

static int parse_time(const char *s, size_t n, int64_t *out)
{
	char buf[64], *end;
	double v, mult = 1e6;
	size_t i = 0;
	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (!isdigit((unsigned char)buf[0]) && buf[0] != '.')
		return -1;
	errno = 0;
	v = strtod(buf, &end);
	if (errno || end == buf || !isfinite(v) || v < 0)
		return -1;
	i = (size_t)(end - buf);
	if (!strcmp(buf + i, "") || !strcmp(buf + i, "ms"))
		mult = 1e6;
	else if (!strcmp(buf + i, "s"))
		mult = 1e9;
	else if (!strcmp(buf + i, "us"))
		mult = 1e3;
	else if (!strcmp(buf + i, "ns"))
		mult = 1;
	else
		return -1;
	v *= mult;
	if (v > (double)PR_TIME_LIMIT_NS)
		return -1;
	*out = (int64_t)llround(v);
	return 0;
}

int pr_trace_window_parse(const char *spec, struct pr_trace_window *w, struct pr_error *err)
{
	const char *colon;
	memset(w, 0, sizeof(*w));
	if (!spec || !*spec)
		return pr_error_set(err, PR_E_USAGE, "--window needs a step name, #N or START:END");
	colon = strchr(spec, ':');
	if (colon) {
		size_t a = (size_t)(colon - spec), b = strlen(colon + 1);
		w->kind = PR_TW_TIME;
		if ((a && parse_time(spec, a, &w->t0)) || (b && parse_time(colon + 1, b, &w->t1)) ||
		    (!a && !b) || strchr(colon + 1, ':'))
			goto bad;
		w->open_end = !b;
		if (!w->open_end && w->t1 <= w->t0)
			goto bad;
		return 0;
	}
	if (spec[0] == '#' && spec[1]) {
		const char *p;
		for (p = spec + 1; *p; p++)
			if (!isdigit((unsigned char)*p))
				goto bad;
		errno = 0;
		w->index = strtoul(spec + 1, NULL, 10);
		if (errno || !w->index || strlen(spec) > 10)
			goto bad;
		w->kind = PR_TW_INDEX;
		return 0;
	}
	if (isdigit((unsigned char)spec[0]) || spec[0] == '.' || spec[0] == '#')
		goto bad;
	w->kind = PR_TW_NAME;
	w->name = spec;
	return 0;
bad:
	return pr_error_set(err, PR_E_USAGE,
			    "bad --window '%s': a step name, #N (1-based) or START:END (units ns, "
			    "us, ms, s; bare numbers are ms; END may be left open)",
			    spec);
}

/* ---- the windows, before the pass ---- */

struct step {
	int64_t ts, dur;
	char *name;
};

static void free_steps(struct step *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

static const struct step *cmp_base;
/* slowest first: dur DESC, then start */
static int by_slow(const void *a, const void *b)
{
	const struct step *x = &cmp_base[*(const size_t *)a], *y = &cmp_base[*(const size_t *)b];
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* shortest first: dur, then start */
static int by_fast(const void *a, const void *b)
{
	const struct step *x = &cmp_base[*(const size_t *)a], *y = &cmp_base[*(const size_t *)b];
	if (x->dur != y->dur)
		return x->dur < y->dur ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void add_step_window(struct pr_trace *tr, const struct step *s, size_t n, size_t i,
			    const char *label)
{
	struct trwin *w = &tr->w[tr->nw++];
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int64_t next = i + 1 < n ? s[i + 1].ts : s[i].ts + s[i].dur;
	w->t0 = s[i].ts;
	w->base_end = w->end = s[i].ts + s[i].dur;
	w->hi = pr_add_sat(next, s[i].dur);
	if (w->hi < w->base_end)
		w->hi = w->base_end;
	pr_strbuf_addf(&sb, "%s %s", label, s[i].name);
	w->label = pr_strbuf_detach(&sb, NULL);
}

/* "ProfilerStep#4, ProfilerStep#5, ... (N steps)" for an error */
static void step_list(struct pr_strbuf *sb, const struct step *s, size_t n)
{
	size_t i;
	if (!n) {
		pr_strbuf_addstr(sb, "the run has no steps");
		return;
	}
	pr_strbuf_addstr(sb, "the run's steps: ");
	for (i = 0; i < n && i < 5; i++)
		pr_strbuf_addf(sb, "%s#%zu %s", i ? ", " : "", i + 1, s[i].name);
	if (n > 5)
		pr_strbuf_addf(sb, ", ... (%zu steps)", n);
}

static int read_steps(struct pr_actx *ctx, struct step **out, size_t *n, struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	/* the steps as model.c orders them (ts, dur DESC, id), through the span_step index */
	if (pr_actx_prep(
		    ctx,
		    "SELECT s.ts, s.dur, n.value FROM span s JOIN string n ON n.id = s.name_id "
		    "WHERE s.run_id = ?1 AND s.kind = 'step' ORDER BY s.ts, s.dur DESC, s.id",
		    &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct step *s;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			*out = pr_xreallocarray(*out, cap, sizeof(**out));
		}
		s = &(*out)[(*n)++];
		s->ts = sqlite3_column_int64(st, 0);
		s->dur = sqlite3_column_int64(st, 1);
		pr_span_clamp(&s->ts, &s->dur);
		s->name = pr_xstrdup(pr_actx_text(st, 2));
	}
	return pr_actx_done(ctx, st, rc, err);
}

static int pick_windows(struct pr_actx *ctx, struct pr_trace *tr, struct pr_error *err)
{
	struct pr_trace_window spec;
	struct step *s = NULL;
	size_t n = 0, i;
	int rc = 0;
	if (ctx->opts->window && pr_trace_window_parse(ctx->opts->window, &spec, err))
		return -1;
	if (ctx->opts->window && spec.kind == PR_TW_TIME) {
		struct trwin *w = &tr->w[tr->nw++];
		w->t0 = pr_add_sat(ctx->ts_min, spec.t0);
		w->base_end = w->end = w->hi =
			spec.open_end ? ctx->ts_max : pr_add_sat(ctx->ts_min, spec.t1);
		w->closed = spec.open_end;
		{
			struct pr_strbuf sb = PR_STRBUF_INIT;
			pr_strbuf_addf(&sb, "time %s", ctx->opts->window);
			w->label = pr_strbuf_detach(&sb, NULL);
		}
		return 0;
	}
	if (read_steps(ctx, &s, &n, err))
		return -1;
	if (ctx->opts->window) {
		size_t k = SIZE_MAX;
		if (spec.kind == PR_TW_INDEX && spec.index <= n)
			k = spec.index - 1;
		for (i = 0; spec.kind == PR_TW_NAME && i < n && k == SIZE_MAX; i++)
			if (!strcmp(s[i].name, spec.name))
				k = i;
		if (k == SIZE_MAX) {
			struct pr_strbuf sb = PR_STRBUF_INIT;
			step_list(&sb, s, n);
			pr_error_set(err, PR_E_USAGE, "--window %s: no such step in run %lld (%s)",
				     ctx->opts->window, (long long)ctx->run, sb.buf);
			pr_strbuf_release(&sb);
			rc = -1;
		} else {
			add_step_window(tr, s, n, k, "step");
			tr->steps = 1;
		}
	} else if (n) {
		size_t *ix = pr_xreallocarray(NULL, n, sizeof(*ix)), slow, med;
		for (i = 0; i < n; i++)
			ix[i] = i;
		cmp_base = s;
		qsort(ix, n, sizeof(*ix), by_slow);
		slow = ix[0];
		qsort(ix, n, sizeof(*ix), by_fast);
		med = ix[(n - 1) / 2];
		cmp_base = NULL;
		free(ix);
		if (slow == med) {
			add_step_window(tr, s, n, slow, "slowest and median step");
		} else {
			/* in start order (the steps are) */
			add_step_window(tr, s, n, slow < med ? slow : med,
					slow < med ? "slowest step" : "median step");
			add_step_window(tr, s, n, slow < med ? med : slow,
					slow < med ? "median step" : "slowest step");
		}
		tr->steps = 1;
	} else {
		struct trwin *w = &tr->w[tr->nw++];
		w->t0 = ctx->ts_min;
		w->base_end = w->end = w->hi = ctx->ts_max;
		w->closed = 1;
		w->label = pr_xstrdup("whole run");
	}
	free_steps(s, n);
	return rc;
}

void pr_trace_free(struct pr_trace *tr)
{
	size_t i;
	if (!tr)
		return;
	for (i = 0; i < tr->nw; i++)
		free(tr->w[i].label);
	free(tr->heap);
	pr_spill_free(tr->ext);
	free(tr);
}

int pr_trace_new(struct pr_actx *ctx, struct pr_trace **out, struct pr_error *err)
{
	struct pr_trace *tr = pr_xcalloc(1, sizeof(*tr));
	*out = NULL;
	if (pick_windows(ctx, tr, err)) {
		pr_trace_free(tr);
		return -1;
	}
	tr->bound = pr_trace_bound ? pr_trace_bound : 1;
	tr->heap = pr_xreallocarray(NULL, tr->bound < 1024 ? tr->bound : 1024, sizeof(*tr->heap));
	tr->ext = pr_spill_new("the trace view's spans past a step's end", (size_t)1 << 20);
	*out = tr;
	return 0;
}

/* ---- the pass ---- */

/* span [ts, ts + dur) meets [a, b) (closed: [a, b] for a zero-length span) */
static int meets(int64_t ts, int64_t dur, int64_t a, int64_t b, int closed)
{
	if (dur > 0)
		return ts < b && ts + dur > a;
	return ts >= a && (ts < b || (closed && ts == b));
}

/* x is kept before y: longer, then the earlier id */
static int keeps(const struct cand *x, const struct cand *y)
{
	if (x->dur != y->dur)
		return x->dur > y->dur;
	return x->id < y->id;
}

/* min-heap on keeps: the root is the first to go */
static void sift_down(struct cand *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct cand t;
		if (l < n && keeps(&h[m], &h[l]))
			m = l;
		if (r < n && keeps(&h[m], &h[r]))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(struct cand *h, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		struct cand t;
		if (!keeps(&h[p], &h[i]))
			return;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

static void evict(struct pr_trace *tr, int64_t dur)
{
	if (!tr->evicted || dur > tr->max_evicted)
		tr->max_evicted = dur;
	tr->evicted++;
}

/* A span of the windows for the heap: kept when among the bound longest so far. */
void pr_trace_offer(struct pr_trace *tr, const struct cand *c)
{
	if (tr->nheap < tr->bound) {
		if (tr->nheap >= 1024 && !(tr->nheap & (tr->nheap - 1)))
			tr->heap = pr_xreallocarray(tr->heap,
						    tr->nheap * 2 < tr->bound ? tr->nheap * 2
									      : tr->bound,
						    sizeof(*tr->heap));
		tr->heap[tr->nheap] = *c;
		sift_up(tr->heap, tr->nheap++);
		return;
	}
	if (!keeps(c, &tr->heap[0])) {
		evict(tr, c->dur);
		return;
	}
	evict(tr, tr->heap[0].dur);
	tr->heap[0] = *c;
	sift_down(tr->heap, tr->nheap, 0);
}

void pr_trace_row(struct pr_trace *tr, struct sqlite3_stmt *st, int64_t ts, int64_t dur,
		  int64_t name_id, uint32_t kind, int col_id, int col_track, int col_self)
{
	unsigned base = 0, reach = 0;
	size_t i;
	struct cand c;
	pr_span_clamp(&ts, &dur);
	tr->seen++;
	for (i = 0; i < tr->nw; i++) {
		const struct trwin *w = &tr->w[i];
		if (meets(ts, dur, w->t0, w->base_end, w->closed))
			base |= 1u << i;
		else if (meets(ts, dur, w->t0, w->hi, w->closed))
			reach |= 1u << i;
	}
	if (!base && !reach)
		return;
	/* the other columns only now (SQLite reads a column when asked for it) */
	c = (struct cand){ sqlite3_column_int64(st, col_id),
			   ts,
			   dur,
			   sqlite3_column_int64(st, col_track),
			   name_id,
			   sqlite3_column_int64(st, col_self),
			   kind,
			   sqlite3_column_type(st, col_self) != SQLITE_NULL };
	if (!base) {
		/* past the CPU end of every step it reaches: in once the windows' ends are known */
		unsigned char rec[EXT_REC];
		memcpy(rec, &c, sizeof(c));
		rec[sizeof(c)] = (unsigned char)reach;
		pr_spill_put(tr->ext, rec, sizeof(rec)); /* a failure is told where it is read */
		tr->ext_n++;
		return;
	}
	tr->sure++;
	pr_trace_offer(tr, &c);
}
