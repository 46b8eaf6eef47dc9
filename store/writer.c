/*
 * writer.c - writing one run into the store: the producer API.
 *
 * The producer (a parser) calls pr_writer_*; rows are appended to a batch;
 * full batches go to the session's inserter thread, which owns the SQLite
 * connection while runs are in flight (writer_batch.c; begin, commit and
 * the runs of a session: writer_session.c). Span nesting (parent, depth,
 * self time) is computed here with one stack per track, so every format
 * gets it for free; a track whose spans come out of order is re-nested at
 * commit (writer_renest.c). Args are stored split (writer_args.c).
 */
#include "store/store.h"

#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "store/writer_impl.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

/* ---- small helpers ---- */

static char *dup_or_null(const char *s)
{
	return s ? pr_xstrdup(s) : NULL;
}

static void note_ts(struct pr_writer *w, int64_t ts, int64_t end)
{
	if (!w->has_ts) {
		w->ts_min = ts;
		w->ts_max = end;
		w->has_ts = 1;
		return;
	}
	if (ts < w->ts_min)
		w->ts_min = ts;
	if (end > w->ts_max)
		w->ts_max = end;
}

/* ---- a run's memory ---- */

void pr_wr_run_free(struct pr_writer *w)
{
	size_t i, j;
	for (i = 0; i < w->ntracks; i++) {
		struct track *t = &w->tracks[i];
		free(t->kind);
		free(t->pid);
		free(t->tid);
		free(t->name);
		for (j = 0; j < t->cap; j++) {
			pr_strbuf_release(&t->pay[j].keys);
			pr_strbuf_release(&t->pay[j].args);
		}
		free(t->stack);
		free(t->pay);
	}
	free(w->tracks);
	for (i = 0; i < w->npnames; i++)
		free(w->pnames[i]);
	free(w->pnames);
	for (i = 0; i < w->nseries; i++) {
		free(w->series[i].name);
		free(w->series[i].device);
		free(w->series[i].unit);
		free(w->series[i].orig_unit);
	}
	free(w->series);
	for (i = 0; i < w->ndiags; i++) {
		free(w->diags[i].code);
		free(w->diags[i].msg);
	}
	free(w->diags);
	pr_strmap_release(&w->track_map);
	pr_strmap_release(&w->process_names);
	pr_strmap_release(&w->series_map);
	pr_strbuf_release(&w->tmp);
	pr_strbuf_release(&w->sk);
	pr_strbuf_release(&w->sv);
	pr_strbuf_release(&w->mk);
	pr_strbuf_release(&w->mv);
	json_decref(w->meta);
	for (i = 0; i < 2 * w->nrmeta; i++)
		free(w->rmeta[i]);
	free(w->rmeta);
	free(w->format);
	free(w->source);
	free(w->label);
	free(w->collector);
	free(w->hash);
	free(w->meta_text);
	free(w);
}

int pr_writer_failed(struct pr_writer *w, struct pr_error *err)
{
	int failed;
	pthread_mutex_lock(&w->s->mu);
	failed = w->failed;
	if (failed && err)
		*err = w->async_err;
	pthread_mutex_unlock(&w->s->mu);
	return failed;
}

/* ---- run attributes ---- */

void pr_writer_at(struct pr_writer *w, int64_t offset)
{
	w->at = offset;
}

void pr_writer_set_collector(struct pr_writer *w, const char *collector)
{
	free(w->collector);
	w->collector = dup_or_null(collector);
}

void pr_writer_set_rank(struct pr_writer *w, int64_t rank, int64_t world_size)
{
	if (rank >= 0) {
		w->rank = rank;
		w->has_rank = 1;
	}
	if (world_size > 0) {
		w->world_size = world_size;
		w->has_world = 1;
	}
}

void pr_writer_set_time_origin(struct pr_writer *w, int64_t epoch_ns)
{
	w->time_origin = epoch_ns;
	w->has_origin = 1;
}

void pr_writer_set_time_synthetic(struct pr_writer *w, int synthetic)
{
	w->synthetic = synthetic;
}

void pr_writer_meta_set(struct pr_writer *w, const char *key, json_t *value)
{
	json_object_set_new(w->meta, key, value);
}

json_t *pr_writer_meta_get(struct pr_writer *w, const char *key)
{
	return json_object_get(w->meta, key);
}

void pr_writer_run_meta(struct pr_writer *w, const char *key, const char *value)
{
	size_t i;
	for (i = 0; i < w->nrmeta; i++) {
		if (!strcmp(w->rmeta[2 * i], key)) {
			free(w->rmeta[2 * i + 1]);
			w->rmeta[2 * i + 1] = pr_xstrdup(value);
			return;
		}
	}
	w->rmeta = pr_xreallocarray(w->rmeta, 2 * (w->nrmeta + 1), sizeof(*w->rmeta));
	w->rmeta[2 * w->nrmeta] = pr_xstrdup(key);
	w->rmeta[2 * w->nrmeta + 1] = pr_xstrdup(value);
	w->nrmeta++;
}

/* ---- strings ---- */

int64_t pr_writer_intern(struct pr_writer *w, const char *s, size_t n)
{
	int64_t id;
	struct rec *r;
	if (pr_strmap_get(&w->s->strings, s, n, &id))
		return id;
	id = w->next_string++;
	pr_strmap_put(&w->s->strings, s, n, id);
	r = pr_wr_new_rec(w, REC_STRING, n);
	r->id = id;
	r->off = pr_wr_arena_add(w, s, n, &r->len);
	return id;
}

/* ---- tracks ---- */

static void track_key(struct pr_strbuf *sb, const char *kind, const char *pid, const char *tid)
{
	pr_strbuf_reset(sb);
	pr_strbuf_addstr(sb, kind);
	pr_strbuf_addch(sb, '\0');
	pr_strbuf_addstr(sb, pid ? pid : "");
	pr_strbuf_addch(sb, '\0');
	pr_strbuf_addstr(sb, tid ? tid : "");
}

static struct track *track_get(struct pr_writer *w, int64_t id)
{
	int64_t i = id - w->track_base;
	if (i < 0 || (size_t)i >= w->ntracks)
		return NULL;
	return &w->tracks[i];
}

/* A new track under the key in w->tmp (track_key). */
static struct track *track_new(struct pr_writer *w, const char *kind, const char *pid,
			       const char *tid)
{
	int64_t idx;
	struct track *t;
	if (w->ntracks == w->cap_tracks) {
		w->cap_tracks = w->cap_tracks ? w->cap_tracks * 2 : 16;
		w->tracks = pr_xreallocarray(w->tracks, w->cap_tracks, sizeof(*w->tracks));
	}
	idx = (int64_t)w->ntracks++;
	pr_strmap_put(&w->track_map, w->tmp.buf, w->tmp.len, idx);
	t = &w->tracks[idx];
	memset(t, 0, sizeof(*t));
	t->id = w->next_track++;
	t->kind = pr_xstrdup(kind);
	t->no_extent = !strcmp(kind, "profiler");
	t->pid = dup_or_null(pid);
	t->tid = dup_or_null(tid);
	return t;
}

#define OVERFLOW_TID "(over the track limit) "

/* The tracks of a kind past PR_WRITER_MAX_TRACKS share one track, of kind
 * "async" (spans stored flat, overlapping freely: their nesting is unknown),
 * named for what it holds. */
static int64_t overflow_track(struct pr_writer *w, const char *kind)
{
	struct pr_strbuf tid = PR_STRBUF_INIT;
	int64_t idx;
	struct track *t;
	if (!w->overflowed)
		pr_writer_diag(
			w, "too_many_tracks", w->at, 0, 0,
			"more than %d tracks (distinct pid/tid, async ids, ...); the events of "
			"the others are stored on one track per kind, '" OVERFLOW_TID
			"<kind>', without nesting (count: events stored there)",
			PR_WRITER_MAX_TRACKS);
	w->overflowed = 1;
	pr_strbuf_addstr(&tid, OVERFLOW_TID);
	pr_strbuf_addstr(&tid, kind);
	/* pid "\001": no input's pid, so no input's track has this key */
	track_key(&w->tmp, "async", "\001", tid.buf);
	if (pr_strmap_get(&w->track_map, w->tmp.buf, w->tmp.len, &idx)) {
		pr_strbuf_release(&tid);
		return w->tracks[idx].id;
	}
	t = track_new(w, "async", "", tid.buf);
	t->overflow = 1;
	t->name = pr_strbuf_detach(&tid, NULL);
	return t->id;
}

int64_t pr_writer_track(struct pr_writer *w, const char *kind, const char *pid, const char *tid)
{
	int64_t idx;
	track_key(&w->tmp, kind, pid, tid);
	if (pr_strmap_get(&w->track_map, w->tmp.buf, w->tmp.len, &idx))
		return w->tracks[idx].id;
	if (w->ntracks >= PR_WRITER_MAX_TRACKS)
		return overflow_track(w, kind);
	return track_new(w, kind, pid, tid)->id;
}

void pr_writer_track_set_kind(struct pr_writer *w, int64_t track, const char *kind)
{
	struct track *t = track_get(w, track);
	if (t && !t->overflow && strcmp(t->kind, kind)) {
		free(t->kind);
		t->kind = pr_xstrdup(kind);
		t->no_extent = !strcmp(kind, "profiler");
	}
}

void pr_writer_track_set_name(struct pr_writer *w, int64_t track, const char *name)
{
	struct track *t = track_get(w, track);
	if (t && !t->overflow) {
		free(t->name);
		t->name = dup_or_null(name);
	}
}

void pr_writer_track_set_sort(struct pr_writer *w, int64_t track, int64_t sort_index)
{
	struct track *t = track_get(w, track);
	if (t && !t->overflow) {
		t->sort_index = sort_index;
		t->has_sort = 1;
	}
}

void pr_writer_process_set_name(struct pr_writer *w, const char *pid, const char *name)
{
	int64_t idx;
	if (pr_strmap_get(&w->process_names, pid, strlen(pid), &idx)) {
		free(w->pnames[idx]);
		w->pnames[idx] = pr_xstrdup(name);
		return;
	}
	/* a name matters only to a track, and there are at most PR_WRITER_MAX_TRACKS */
	if (w->npnames >= PR_WRITER_MAX_TRACKS) {
		pr_writer_diag(w, "metadata_skipped", w->at, 0, 0,
			       "more than %d process names; the others are ignored",
			       PR_WRITER_MAX_TRACKS);
		return;
	}
	if (w->npnames == w->cap_pnames) {
		w->cap_pnames = w->cap_pnames ? w->cap_pnames * 2 : 16;
		w->pnames = pr_xreallocarray(w->pnames, w->cap_pnames, sizeof(*w->pnames));
	}
	w->pnames[w->npnames] = pr_xstrdup(name);
	pr_strmap_put(&w->process_names, pid, strlen(pid), (int64_t)w->npnames);
	w->npnames++;
}

/* ---- spans and nesting ---- */

/*
 * op_cover (schema.sql): intervals whose union is the union of the run's
 * ops [ts, end], for analyses that need only where CPU ops ran (the step
 * breakdown's CPU Exec) and should not read every op. Per track, one
 * interval grows while ops start inside it (pre-order: a child never adds
 * a row) or contain it; any other op writes it out and starts the next.
 * Every op goes in once its end is known, so the union is exact in any
 * order, sorted or not.
 */
static void cover_flush(struct pr_writer *w, struct track *t)
{
	struct rec *r;
	if (!t->has_cov)
		return;
	r = pr_wr_new_rec(w, REC_COVER, 0);
	r->ts = t->cov_s;
	r->dur = t->cov_e;
	t->has_cov = 0;
}

static void cover_add(struct pr_writer *w, struct track *t, int64_t s, int64_t e)
{
	if (t->has_cov && s >= t->cov_s && s <= t->cov_e) {
		if (e > t->cov_e)
			t->cov_e = e;
		return;
	}
	if (t->has_cov && s <= t->cov_s && e >= t->cov_e) {
		t->cov_s = s;
		t->cov_e = e;
		return;
	}
	cover_flush(w, t);
	t->cov_s = s;
	t->cov_e = e;
	t->has_cov = 1;
}

static int is_op(const char *kind)
{
	return kind[0] == 'o' && kind[1] == 'p' && !kind[2];
}

static void emit_span_row(struct pr_writer *w, struct track *t, const struct nest_ent *e,
			  const struct payload *p, int64_t parent, int nested)
{
	struct rec *r;
	int64_t dur = e->end - e->ts;
	if (e->late_cover)
		cover_add(w, t, e->ts, e->end);
	r = pr_wr_new_rec(w, REC_SPAN, p->args.len);
	r->id = e->id;
	if (e->id >= w->span_hi)
		w->span_hi = e->id + 1;
	r->track = t->id;
	r->kind = p->kind;
	r->name = p->name;
	r->cat = p->cat;
	r->ts = e->ts;
	r->dur = dur;
	if (nested) {
		r->self = dur - e->child > 0 ? dur - e->child : 0;
		r->depth = e->depth;
		r->parent = parent ? parent : NULL_I64;
	} else {
		r->self = r->depth = r->parent = NULL_I64;
	}
	w->stats.spans++;
	w->overflow_events += t->overflow;
	if (!t->no_extent)
		note_ts(w, e->ts, e->end);
	pr_wr_put_args(w, r, p->keys.buf, p->keys.len, p->args.buf, p->args.len);
}

/* The span kinds with a span_up row (schema.sql): device activities and runtime calls. */
static int wants_up(const char *kind)
{
	switch (kind[0]) {
	case 'k':
		return !strcmp(kind, "kernel");
	case 'r':
		return !strcmp(kind, "runtime");
	case 'm':
		return !strcmp(kind, "memcpy") || !strcmp(kind, "memset");
	default:
		return 0;
	}
}

/*
 * span_up row of the top of a sorted track's stack (it has a parent): the
 * parent and grandparent are the entries below it, as they will be stored
 * (a re-nested track's rows are rewritten after re-nesting). The record's
 * fields: id the span, kind/name/ts/parent the parent's, kind2/cat/depth
 * the grandparent's kind, name and parent.
 */
static void emit_up(struct pr_writer *w, const struct track *t)
{
	size_t n = t->n;
	struct rec *r = pr_wr_new_rec(w, REC_UP, 0);
	r->id = t->stack[n - 1].id;
	r->kind = t->pay[n - 2].kind;
	r->name = t->pay[n - 2].name;
	r->ts = t->stack[n - 2].ts;
	r->parent = n > 2 ? t->stack[n - 3].id : NULL_I64;
	r->kind2 = NULL;
	if (n > 2) {
		r->kind2 = t->pay[n - 3].kind;
		r->cat = t->pay[n - 3].name;
		r->depth = n > 3 ? t->stack[n - 4].id : NULL_I64;
	}
}

/* Pops the top entry: charges its time to the entry below, emits the row. */
static void track_pop(struct pr_writer *w, struct track *t)
{
	struct nest_ent *e = &t->stack[t->n - 1];
	int64_t parent = 0;
	if (t->n > 1) {
		struct nest_ent *pe = &t->stack[t->n - 2];
		int64_t end = e->end < pe->end ? e->end : pe->end;
		if (end > e->ts)
			pe->child += end - e->ts;
		parent = pe->id;
	}
	emit_span_row(w, t, e, &t->pay[t->n - 1], parent, !t->unsorted && !t->overflow);
	if (parent && !t->unsorted && !t->overflow && wants_up(t->pay[t->n - 1].kind))
		emit_up(w, t);
	t->n--;
}

static void pop_finished(struct pr_writer *w, struct track *t, int64_t ts)
{
	while (t->n && !t->stack[t->n - 1].open && t->stack[t->n - 1].end <= ts)
		track_pop(w, t);
}

static void set_payload(struct pr_writer *w, struct payload *p, const struct pr_span_in *s)
{
	p->at = w->at;
	p->kind = s->kind;
	p->name = s->name;
	p->cat = s->cat;
	pr_strbuf_reset(&p->keys);
	pr_strbuf_reset(&p->args);
	if (s->args_keys && s->args_keys_len) {
		pr_strbuf_add(&p->keys, s->args_keys, s->args_keys_len);
		pr_strbuf_add(&p->args, s->args, s->args_len);
	} else if (s->args && s->args_len) {
		pr_wr_split_or_keep(w, s->args, s->args_len);
		pr_strbuf_add(&p->keys, w->sk.buf, w->sk.len);
		pr_strbuf_add(&p->args, w->sv.buf, w->sv.len);
	}
}

static void push(struct pr_writer *w, struct track *t, const struct nest_ent *e,
		 const struct pr_span_in *s)
{
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : NEST_INIT, i;
		t->stack = pr_xreallocarray(t->stack, ncap, sizeof(*t->stack));
		t->pay = pr_xreallocarray(t->pay, ncap, sizeof(*t->pay));
		for (i = t->cap; i < ncap; i++) {
			pr_strbuf_init(&t->pay[i].keys);
			pr_strbuf_init(&t->pay[i].args);
		}
		t->cap = ncap;
	}
	t->stack[t->n] = *e;
	set_payload(w, &t->pay[t->n], s);
	t->n++;
}

/* Out-of-order span on a sorted track: emit closed spans, keep open ones. */
static void make_unsorted(struct pr_writer *w, struct track *t)
{
	size_t i, keep = 0;
	pr_writer_diag(
		w, "unsorted_track", w->at, 0, 0,
		"spans on track pid '%s' tid '%s' are not in start order; nesting recomputed "
		"after load",
		t->pid ? t->pid : "", t->tid ? t->tid : "");
	t->unsorted = 1;
	for (i = 0; i < t->n; i++) {
		if (t->stack[i].open) {
			struct payload tmp;
			if (i != keep) {
				tmp = t->pay[keep];
				t->pay[keep] = t->pay[i];
				t->pay[i] = tmp;
				t->stack[keep] = t->stack[i];
			}
			keep++;
		} else {
			emit_span_row(w, t, &t->stack[i], &t->pay[i], 0, 0);
		}
	}
	t->n = keep;
}

/* Emits a complete span without nesting information. */
static void emit_flat(struct pr_writer *w, struct track *t, const struct nest_ent *e,
		      const struct pr_span_in *s)
{
	struct payload p;
	p.kind = s->kind;
	p.name = s->name;
	p.cat = s->cat;
	if (!(s->args_keys && s->args_keys_len))
		pr_wr_split_or_keep(w, s->args, s->args ? s->args_len : 0);
	p.keys.buf = (char *)(s->args_keys && s->args_keys_len ? s->args_keys : w->sk.buf);
	p.keys.len = s->args_keys && s->args_keys_len ? s->args_keys_len : w->sk.len;
	p.args.buf = (char *)(s->args_keys && s->args_keys_len ? s->args : w->sv.buf);
	p.args.len = s->args_keys && s->args_keys_len ? s->args_len : w->sv.len;
	p.keys.alloc = p.args.alloc = 0;
	emit_span_row(w, t, e, &p, 0, 0);
}

/*
 * Every format's times go through here: a span, sample, instant or flow
 * more than PR_TIME_LIMIT_NS (2^62 ns, 146 years) from the clock's zero is
 * skipped, a span ending beyond it is cut there (base/timecheck.h: then
 * every difference of two times fits in an int64). One diagnostic code,
 * time_out_of_range, counted per event. (The Chrome and QNN readers check
 * first, with their own wording, as their time bases depend on it.)
 */
static int time_skip(struct pr_writer *w, int64_t ts, const char *what)
{
	if (pr_time_ok(ts))
		return 0;
	pr_writer_diag(w, "time_out_of_range", w->at, 0, 0,
		       "%s more than 2^62 ns (146 years) from the clock's zero; skipped", what);
	return 1;
}

static int64_t end_cut(struct pr_writer *w, int64_t ts, int64_t dur)
{
	if (dur <= PR_TIME_LIMIT_NS - ts)
		return dur;
	pr_writer_diag(
		w, "time_out_of_range", w->at, 0, 0,
		"a span ends more than 2^62 ns (146 years) after the clock's zero; cut there");
	return PR_TIME_LIMIT_NS - ts;
}

static int64_t span_add(struct pr_writer *w, const struct pr_span_in *s, int open)
{
	struct track *t = track_get(w, s->track);
	struct nest_ent e;
	int64_t dur = s->dur < 0 ? 0 : s->dur;

	if (!open && s->dur < 0)
		pr_writer_diag(w, "negative_duration", w->at, 0, 0,
			       "a span's duration is negative; stored as 0 (count: spans)");
	if (time_skip(w, s->ts, open ? "a span begins" : "a span starts")) {
		if (open && t)
			t->dropped_open++;
		return 0;
	}
	if (!open)
		dur = end_cut(w, s->ts, dur);

	e.id = w->next_span++;
	e.ts = s->ts;
	e.end = open ? INT64_MAX : (s->ts > INT64_MAX - dur ? INT64_MAX : s->ts + dur);
	e.child = 0;
	e.open = (uint8_t)open;
	e.late_cover = 0;
	if (!t) { /* a reader's bug: say so rather than lose the span unseen */
		pr_writer_diag(
			w, "unknown_track", w->at, 0, 0,
			"a span names a track that was never created; dropped (count: spans)");
		return e.id;
	}
	if (is_op(s->kind)) {
		if (open)
			e.late_cover = 1;
		else
			cover_add(w, t, e.ts, e.end);
	}
	if (!strcmp(t->kind, "async") && !open) {
		/* Async slices overlap freely: stored flat, never nested. */
		emit_flat(w, t, &e, s);
		return e.id;
	}
	/* an overflow track is flat whatever the order: nothing to re-nest */
	if (!t->unsorted && !t->overflow && t->has_last &&
	    (s->ts < t->last_ts || (!open && s->ts == t->last_ts && dur > t->last_dur)))
		make_unsorted(w, t);
	t->last_ts = s->ts;
	t->last_dur = open ? INT64_MAX : dur;
	t->has_last = 1;
	if (t->unsorted) {
		e.depth = 0;
		if (open)
			push(w, t, &e, s);
		else
			emit_flat(w, t, &e, s);
		return e.id;
	}
	pop_finished(w, t, s->ts);
	if (t->n && !open && e.end > t->stack[t->n - 1].end)
		pr_writer_diag(w, "overlapping_spans", w->at, 0, 0,
			       "a span on track pid '%s' tid '%s' ends after its enclosing span",
			       t->pid ? t->pid : "", t->tid ? t->tid : "");
	e.depth = (int32_t)t->n;
	push(w, t, &e, s);
	return e.id;
}

int64_t pr_writer_span(struct pr_writer *w, const struct pr_span_in *s)
{
	return span_add(w, s, 0);
}

int64_t pr_writer_span_begin(struct pr_writer *w, const struct pr_span_in *s)
{
	return span_add(w, s, 1);
}

int pr_writer_span_end(struct pr_writer *w, int64_t track, int64_t ts, const char *args,
		       size_t args_len)
{
	pr_wr_split_or_keep(w, args, args ? args_len : 0);
	return pr_writer_span_end_kv(w, track, ts, w->sk.buf, w->sk.len, w->sv.buf, w->sv.len);
}

int pr_writer_span_end_kv(struct pr_writer *w, int64_t track, int64_t ts, const char *keys,
			  size_t keys_len, const char *vals, size_t vals_len)
{
	struct track *t = track_get(w, track);
	size_t i;
	if (!t)
		return -1;
	if (t->dropped_open) {
		/* the innermost begin was skipped for its time (span_add) */
		t->dropped_open--;
		return 0;
	}
	for (i = t->n; i > 0 && !t->stack[i - 1].open; i--)
		;
	if (i == 0)
		return -1;
	if (ts > PR_TIME_LIMIT_NS) {
		pr_writer_diag(w, "time_out_of_range", w->at, 0, 0,
			       "a span ends more than 2^62 ns (146 years) after the clock's zero; "
			       "cut there");
		ts = PR_TIME_LIMIT_NS;
	}
	if (ts < t->stack[i - 1].ts) {
		pr_writer_diag(w, "negative_duration", w->at, 0, 0,
			       "an end event precedes its begin; duration set to 0");
		ts = t->stack[i - 1].ts;
	}
	/* The end is known before the children are popped: they are charged only up to it. */
	t->stack[i - 1].end = ts;
	/* Pop closed spans above the open one; any still running overlap its end. */
	while (t->n > i) {
		if (t->stack[t->n - 1].end > ts)
			pr_writer_diag(
				w, "overlapping_spans", w->at, 0, 0,
				"a span on track pid '%s' tid '%s' ends after its enclosing span",
				t->pid ? t->pid : "", t->tid ? t->tid : "");
		track_pop(w, t);
	}
	t->stack[i - 1].open = 0;
	if (keys && keys_len)
		pr_wr_merge_split(w, &t->pay[i - 1], keys, keys_len, vals, vals_len);
	track_pop(w, t);
	return 0;
}

/* ---- series, samples, instants, flows, metrics ---- */

int64_t pr_writer_series(struct pr_writer *w, const char *name, const char *device,
			 const char *unit, const char *orig_unit)
{
	int64_t idx;
	struct series *s;
	pr_strbuf_reset(&w->tmp);
	pr_strbuf_addstr(&w->tmp, name);
	pr_strbuf_addch(&w->tmp, '\0');
	pr_strbuf_addstr(&w->tmp, device ? device : "");
	if (pr_strmap_get(&w->series_map, w->tmp.buf, w->tmp.len, &idx))
		return w->series[idx].id;
	if (w->nseries >= PR_WRITER_MAX_SERIES) {
		if (!w->dropped_samples)
			pr_writer_diag(
				w, "too_many_series", w->at, 0, 0,
				"more than %d series (distinct name and device); the samples "
				"of the others are dropped (count: samples dropped)",
				PR_WRITER_MAX_SERIES);
		return 0; /* pr_writer_sample counts and drops what comes with it */
	}
	if (w->nseries == w->cap_series) {
		w->cap_series = w->cap_series ? w->cap_series * 2 : 16;
		w->series = pr_xreallocarray(w->series, w->cap_series, sizeof(*w->series));
	}
	idx = (int64_t)w->nseries++;
	pr_strmap_put(&w->series_map, w->tmp.buf, w->tmp.len, idx);
	s = &w->series[idx];
	memset(s, 0, sizeof(*s));
	s->id = w->next_series++;
	s->name = pr_xstrdup(name);
	s->device = pr_xstrdup(device ? device : "");
	s->unit = pr_xstrdup(unit);
	s->orig_unit = dup_or_null(orig_unit);
	return s->id;
}

void pr_writer_sample(struct pr_writer *w, int64_t series, int64_t ts, double value)
{
	int64_t i = series - w->series_base;
	struct series *s;
	struct rec *r;
	if (series == 0 && w->nseries >= PR_WRITER_MAX_SERIES) {
		w->dropped_samples++;
		return;
	}
	if (i < 0 || (size_t)i >= w->nseries) { /* a reader's bug */
		pr_writer_diag(
			w, "unknown_series", w->at, 0, 0,
			"a sample names a series that was never created; dropped (count: samples)");
		return;
	}
	if (!isfinite(value)) {
		pr_writer_diag(
			w, "non_finite_sample", w->at, 0, 0,
			"a sample's value is not finite (NaN or infinite); dropped (count: samples)");
		return;
	}
	if (time_skip(w, ts, "a sample's time is"))
		return;
	s = &w->series[i];
	if (!s->count) {
		s->min = s->max = value;
		s->ts_min = s->ts_max = ts;
	} else {
		if (value < s->min)
			s->min = value;
		if (value > s->max)
			s->max = value;
		if (ts < s->ts_min)
			s->ts_min = ts;
		if (ts > s->ts_max)
			s->ts_max = ts;
	}
	s->count++;
	r = pr_wr_new_rec(w, REC_SAMPLE, 0);
	r->id = series;
	r->ts = ts;
	r->value = value;
	r->dur = s->count - 1; /* seq: arrival order within the series */
	w->stats.samples++;
	note_ts(w, ts, ts);
}

void pr_writer_instant(struct pr_writer *w, int64_t track, int64_t name, int64_t cat, int64_t ts,
		       const char *scope, const char *args, size_t args_len)
{
	pr_wr_split_or_keep(w, args, args ? args_len : 0);
	pr_writer_instant_kv(w, track, name, cat, ts, scope, w->sk.buf, w->sk.len, w->sv.buf,
			     w->sv.len);
}

void pr_writer_instant_kv(struct pr_writer *w, int64_t track, int64_t name, int64_t cat, int64_t ts,
			  const char *scope, const char *keys, size_t keys_len, const char *vals,
			  size_t vals_len)
{
	size_t sl = scope ? strlen(scope) : 0;
	struct rec *r;
	struct track *t;
	if (time_skip(w, ts, "an instant's time is"))
		return;
	r = pr_wr_new_rec(w, REC_INSTANT, vals_len + sl);
	r->track = track;
	r->name = name;
	r->cat = cat;
	r->ts = ts;
	if (sl)
		r->off2 = pr_wr_arena_add(w, scope, sl, &r->len2);
	w->stats.instants++;
	t = track_get(w, track);
	if (w->overflowed && t && t->overflow)
		w->overflow_events++;
	if (!t || !t->no_extent)
		note_ts(w, ts, ts);
	pr_wr_put_args(w, r, keys, keys_len, vals, vals_len);
}

void pr_writer_flow(struct pr_writer *w, const char *flow_id, char phase, int64_t track, int64_t ts,
		    int64_t name, int64_t cat, const char *bind)
{
	size_t fl = strlen(flow_id), bl = bind ? strlen(bind) : 0;
	struct rec *r;
	if (time_skip(w, ts, "a flow event's time is"))
		return;
	r = pr_wr_new_rec(w, REC_FLOW, fl + bl);
	r->ph = phase;
	r->track = track;
	r->ts = ts;
	r->name = name;
	r->cat = cat;
	r->off2 = pr_wr_arena_add(w, flow_id, fl, &r->len2);
	if (bl)
		r->off = pr_wr_arena_add(w, bind, bl, &r->len);
	w->stats.flows++;
	if (w->overflowed && track_get(w, track) && track_get(w, track)->overflow)
		w->overflow_events++;
}

void pr_writer_metric(struct pr_writer *w, const char *name, double value, const char *unit,
		      int64_t span_id, const char *origin, const char *detail)
{
	size_t nl = strlen(name), ul = unit ? strlen(unit) : 0, ol = strlen(origin),
	       dl = detail ? strlen(detail) : 0;
	struct rec *r = pr_wr_new_rec(w, REC_METRIC, nl + ul + ol + dl);
	r->id = w->next_metric++;
	r->value = value;
	r->parent = span_id;
	r->off = pr_wr_arena_add(w, name, nl, &r->len);
	if (ul)
		r->off2 = pr_wr_arena_add(w, unit, ul, &r->len2);
	r->off3 = pr_wr_arena_add(w, origin, ol, &r->len3);
	r->dur = (int64_t)dl; /* detail follows origin in the arena */
	if (dl)
		pr_strbuf_add(&w->cur->arena, detail, dl);
	w->stats.metrics++;
}

/* ---- diagnostics ---- */

void pr_writer_diag(struct pr_writer *w, const char *code, int64_t offset, long line, long col,
		    const char *fmt, ...)
{
	size_t i;
	struct diag *d;
	va_list ap;
	for (i = 0; i < w->ndiags; i++) {
		if (!strcmp(w->diags[i].code, code)) {
			w->diags[i].count++;
			return;
		}
	}
	w->diags = pr_xreallocarray(w->diags, w->ndiags + 1, sizeof(*w->diags));
	d = &w->diags[w->ndiags++];
	d->code = pr_xstrdup(code);
	d->count = 1;
	d->offset = offset;
	d->line = line;
	d->col = col;
	pr_strbuf_reset(&w->tmp);
	va_start(ap, fmt);
	pr_strbuf_vaddf(&w->tmp, fmt, ap);
	va_end(ap);
	d->msg = pr_xstrdup(w->tmp.buf);
	w->stats.diags++;
}

static int cmp_diag_offset(const void *a, const void *b)
{
	const struct diag *const *x = a, *const *y = b;
	return (*x)->offset < (*y)->offset ? -1 : (*x)->offset > (*y)->offset;
}

void pr_writer_locate_diags(struct pr_writer *w, pr_writer_locate_fn *fn, void *ctx)
{
	struct diag **v = pr_xcalloc(w->ndiags + 1, sizeof(*v));
	size_t i, n = 0;
	for (i = 0; i < w->ndiags; i++)
		if (w->diags[i].offset >= 0 && w->diags[i].line <= 0)
			v[n++] = &w->diags[i];
	qsort(v, n, sizeof(*v), cmp_diag_offset);
	for (i = 0; i < n; i++)
		fn(ctx, v[i]->offset, &v[i]->line, &v[i]->col);
	free(v);
}

void pr_writer_get_stats(const struct pr_writer *w, struct pr_writer_stats *out)
{
	*out = w->stats;
}

void pr_writer_get_clock(const struct pr_writer *w, struct pr_writer_clock *out)
{
	out->has_origin = w->has_origin;
	out->synthetic = w->synthetic;
	out->has_ts = w->has_ts;
	out->origin_ns = w->has_origin ? w->time_origin : 0;
	out->ts_min = w->has_ts ? w->ts_min : 0;
	out->ts_max = w->has_ts ? w->ts_max : 0;
}

/* ---- commit ---- */

int pr_wr_step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Closes whatever is still open on every track (end of input). */
static void close_all(struct pr_writer *w)
{
	size_t i, j;
	int64_t last = w->has_ts ? w->ts_max : INT64_MIN;
	/* The trace ends at its last timestamp, including spans not yet written. */
	for (i = 0; i < w->ntracks; i++) {
		struct track *t = &w->tracks[i];
		for (j = 0; j < t->n; j++) {
			int64_t e = t->stack[j].open ? t->stack[j].ts : t->stack[j].end;
			if (e > last)
				last = e;
		}
	}
	for (i = 0; i < w->ntracks; i++) {
		struct track *t = &w->tracks[i];
		while (t->n) {
			struct nest_ent *e = &t->stack[t->n - 1];
			if (e->open) {
				e->open = 0;
				e->end = last > e->ts ? last : e->ts;
				pr_writer_diag(w, "unclosed_span", t->pay[t->n - 1].at, 0, 0,
					       "a begin event has no end; closed at the end of the "
					       "trace");
			}
			track_pop(w, t);
		}
	}
}

/* The count of a diagnostic raised once (the first position and message kept). */
static void diag_set_count(struct pr_writer *w, const char *code, int64_t count)
{
	size_t i;
	for (i = 0; i < w->ndiags; i++)
		if (!strcmp(w->diags[i].code, code))
			w->diags[i].count = count;
}

/* Closes the open spans; the caps' diagnostics get their counts. */
void pr_wr_finish_input(struct pr_writer *w)
{
	size_t i;
	close_all(w);
	for (i = 0; i < w->ntracks; i++)
		cover_flush(w, &w->tracks[i]);
	if (w->overflowed)
		diag_set_count(w, "too_many_tracks", w->overflow_events);
	if (w->dropped_samples)
		diag_set_count(w, "too_many_series", w->dropped_samples);
}

void pr_writer_end_input(struct pr_writer *w)
{
	pr_wr_finish_input(w);
}
