/*
 * writer_nest.c - the writer's span nesting (see writer_impl.h): one stack
 * per track gives each span its parent, depth and self time as spans come
 * (sorted tracks); a track found out of start order is stored flat and
 * re-nested at commit in one sorted pass over its rows. Beside the span
 * rows: op_cover (where ops ran) and span_up (a device activity's or
 * runtime call's parent and grandparent).
 */
#include "store/store.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "store/writer_impl.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

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
void cover_flush(struct pr_writer *w, struct track *t)
{
	struct rec *r;
	if (!t->has_cov)
		return;
	r = new_rec(w, REC_COVER, 0);
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
	r = new_rec(w, REC_SPAN, p->args.len);
	r->id = e->id;
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
	put_args(w, r, p->keys.buf, p->keys.len, p->args.buf, p->args.len);
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
	struct rec *r = new_rec(w, REC_UP, 0);
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
void track_pop(struct pr_writer *w, struct track *t)
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
		split_or_keep(w, s->args, s->args_len);
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
	pr_writer_diag(w, "unsorted_track", w->at, 0, 0,
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
		split_or_keep(w, s->args, s->args ? s->args_len : 0);
	p.keys.buf = (char *)(s->args_keys && s->args_keys_len ? s->args_keys : w->sk.buf);
	p.keys.len = s->args_keys && s->args_keys_len ? s->args_keys_len : w->sk.len;
	p.args.buf = (char *)(s->args_keys && s->args_keys_len ? s->args : w->sv.buf);
	p.args.len = s->args_keys && s->args_keys_len ? s->args_len : w->sv.len;
	p.keys.alloc = p.args.alloc = 0;
	emit_span_row(w, t, e, &p, 0, 0);
}

int64_t span_add(struct pr_writer *w, const struct pr_span_in *s, int open)
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
		pr_writer_diag(w, "unknown_track", w->at, 0, 0,
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

/* ---- re-nesting at commit ---- */

/* Writes parent/depth/self of the top of a re-nesting stack and pops it. */
static int renest_pop(sqlite3_stmt *upd, struct nest_ent *stack, size_t *n)
{
	struct nest_ent *c = &stack[*n - 1];
	int64_t dur = c->end - c->ts;
	if (*n > 1) {
		struct nest_ent *p = &stack[*n - 2];
		int64_t end = c->end < p->end ? c->end : p->end;
		if (end > c->ts)
			p->child += end - c->ts;
	}
	sqlite3_bind_int64(upd, 1, c->id);
	if (*n > 1)
		sqlite3_bind_int64(upd, 2, stack[*n - 2].id);
	else
		sqlite3_bind_null(upd, 2);
	sqlite3_bind_int64(upd, 3, (int64_t)(*n - 1));
	sqlite3_bind_int64(upd, 4, dur - c->child > 0 ? dur - c->child : 0);
	(*n)--;
	return step_done(upd);
}

/*
 * span_up of the re-nested tracks: the rows written from the stacks
 * (spans nested before their track turned out unsorted) may be stale and
 * the others are missing; both are made again from the parents just stored.
 */
static int renest_up(struct pr_writer *w)
{
	static const char *const sql[] = {
		"DELETE FROM span_up WHERE span_id IN (SELECT id FROM span WHERE id >= ?1 AND "
		"track_id IN (SELECT id FROM temp.pr_renest))",
		"INSERT INTO span_up(span_id, run_id, p_kind, p_name_id, p_ts, p_parent_id, q_kind, "
		"q_name_id, q_parent_id) "
		"SELECT s.id, ?2, p.kind, p.name_id, p.ts, p.parent_id, q.kind, q.name_id, q.parent_id "
		"FROM span s JOIN span p ON p.id = s.parent_id LEFT JOIN span q ON q.id = p.parent_id "
		"WHERE s.id >= ?1 AND s.track_id IN (SELECT id FROM temp.pr_renest) "
		"AND s.kind IN ('kernel', 'memcpy', 'memset', 'runtime') ORDER BY s.id",
	};
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(sql); i++) {
		sqlite3_stmt *st;
		int rc;
		if (sqlite3_prepare_v2(w->st->db, sql[i], -1, &st, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_int64(st, 1, w->span_base);
		if (sqlite3_bind_parameter_count(st) > 1)
			sqlite3_bind_int64(st, 2, w->run_id);
		rc = step_done(st);
		sqlite3_finalize(st);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * Recomputes parent/depth/self for the spans of every unsorted track in one
 * sorted pass (SQLite's sorter spills to disk, so memory stays bounded).
 */
int renest_unsorted(struct pr_writer *w, struct pr_error *err)
{
	sqlite3_stmt *ins = NULL, *sel = NULL, *upd = NULL;
	struct nest_ent *stack = NULL;
	size_t n = 0, cap = 0, i;
	int64_t track = 0;
	int rc = -1, step, any = 0;

	for (i = 0; i < w->ntracks; i++)
		any |= w->tracks[i].unsorted;
	if (!any)
		return 0;
	if (pr_store_exec(w->st, "CREATE TEMP TABLE IF NOT EXISTS pr_renest(id INTEGER PRIMARY KEY);"
				 "DELETE FROM temp.pr_renest", err))
		return -1;
	if (sqlite3_prepare_v2(w->st->db, "INSERT INTO temp.pr_renest(id) VALUES(?1)", -1, &ins,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(w->st->db,
			       "SELECT id, track_id, ts, dur FROM span WHERE id >= ?1 AND track_id IN "
			       "(SELECT id FROM temp.pr_renest) ORDER BY track_id, ts, dur DESC, id",
			       -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(w->st->db,
			       "UPDATE span SET parent_id = ?2, depth = ?3, self = ?4 WHERE id = ?1",
			       -1, &upd, NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < w->ntracks; i++) {
		if (!w->tracks[i].unsorted)
			continue;
		sqlite3_bind_int64(ins, 1, w->tracks[i].id);
		if (step_done(ins))
			goto out;
	}
	sqlite3_bind_int64(sel, 1, w->span_base);
	for (;;) {
		struct nest_ent e;
		int last;
		step = sqlite3_step(sel);
		last = step != SQLITE_ROW;
		if (!last) {
			e.id = sqlite3_column_int64(sel, 0);
			e.ts = sqlite3_column_int64(sel, 2);
			e.end = e.ts + sqlite3_column_int64(sel, 3);
			e.child = 0;
			if (sqlite3_column_int64(sel, 1) != track) {
				while (n) /* a new track: the previous one is complete */
					if (renest_pop(upd, stack, &n))
						goto out;
				track = sqlite3_column_int64(sel, 1);
			}
		}
		while (n && (last || stack[n - 1].end <= e.ts))
			if (renest_pop(upd, stack, &n))
				goto out;
		if (last)
			break;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			stack = pr_xreallocarray(stack, cap, sizeof(*stack));
		}
		stack[n++] = e;
	}
	if (step == SQLITE_DONE)
		rc = 0;
	if (!rc)
		rc = renest_up(w);
out:
	if (rc)
		pr_error_set(err, PR_E_STORE, "re-nesting spans: %s", sqlite3_errmsg(w->st->db));
	free(stack);
	sqlite3_finalize(ins);
	sqlite3_finalize(sel);
	sqlite3_finalize(upd);
	return rc;
}

