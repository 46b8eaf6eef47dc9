/* spanwalk.c - nested open/close events and memory samples from the store. */
#include "analyze/export/spanwalk.h"

#include <jansson.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

/* ---- small helpers ---- */

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return pr_xstrdup(t ? (const char *)t : "");
}

static int64_t col_i64_or(sqlite3_stmt *st, int i, int64_t dflt)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? dflt : sqlite3_column_int64(st, i);
}

static int prep(sqlite3 *db, const char *sql, sqlite3_stmt **st, struct pr_error *err)
{
	*st = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	return 0;
}

static int step_error(sqlite3 *db, struct pr_error *err)
{
	return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
}

int pr_spanwalk_is_memory_series(const char *name, const char *unit)
{
	static const char *const not_in_use[] = { "free", "available", "read", "write",
						  "sent", "recv",      "total" };
	size_t i;
	if (!name || !unit || strcmp(unit, "bytes"))
		return 0;
	if (!strcmp(name, "dev.mem.total"))
		return 1;
	if (!strncmp(name, "disk.", 5) || !strncmp(name, "net", 3))
		return 0;
	for (i = 0; i < PR_ARRAY_SIZE(not_in_use); i++)
		if (strstr(name, not_in_use[i]))
			return 0;
	return 1;
}

/* ---- frames: names, plus file/line/col from the args of spans that have them ---- */

/* The args column only where the keys include "file", so that the sorts of
 * the span queries do not carry every span's args. */
#define FILE_KEYS "(SELECT id FROM argkeys WHERE keys LIKE '%\"file\"%')"
#define FILE_ARGS "CASE WHEN s.args_keys IN " FILE_KEYS " THEN s.args END"

struct keypos {
	int file, line, col; /* index in the args array, -1 = absent */
};

struct sw_walk {
	sqlite3 *db;
	const struct pr_spanwalk_ops *ops;
	void *ctx;
	struct pr_spanwalk_stats *stats;
	struct pr_strmap argkeys; /* args_keys id (8 bytes) -> index in keypos */
	struct keypos *keypos;
	size_t nkeypos;
};

static int load_argkeys(struct sw_walk *w, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	size_t cap = 0;
	if (prep(w->db, "SELECT id, keys FROM argkeys WHERE id IN " FILE_KEYS " ORDER BY id", &st,
		 err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *text = (const char *)sqlite3_column_text(st, 1);
		json_t *keys = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
		struct keypos kp = { -1, -1, -1 };
		size_t i;
		json_t *k;
		json_array_foreach (keys, i, k) {
			const char *s = json_string_value(k);
			if (!s)
				continue;
			if (!strcmp(s, "file"))
				kp.file = (int)i;
			else if (!strcmp(s, "line"))
				kp.line = (int)i;
			else if (!strcmp(s, "col"))
				kp.col = (int)i;
		}
		json_decref(keys);
		if (kp.file < 0)
			continue;
		if (w->nkeypos == cap) {
			cap = cap ? cap * 2 : 8;
			w->keypos = pr_xreallocarray(w->keypos, cap, sizeof(*w->keypos));
		}
		w->keypos[w->nkeypos] = kp;
		pr_strmap_put(&w->argkeys, &id, sizeof(id), (int64_t)w->nkeypos);
		w->nkeypos++;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : step_error(w->db, err);
}

/* An integer args value: a JSON integer, or a real with an integral value. */
static int64_t arg_int(json_t *v)
{
	double d;
	if (json_is_integer(v))
		return json_integer_value(v);
	if (!json_is_real(v))
		return -1;
	d = json_real_value(v);
	return d >= 0 && d < 9e15 && d == floor(d) ? (int64_t)d : -1;
}

/*
 * An open span: its times and its frame. Strings are owned (name, file)
 * only when the walk keeps them beyond the current row.
 */
struct sw_span {
	int64_t ts, end, id;
	int lane;
	struct pr_sw_frame f;
	char *name, *file;
};

static void span_free_strings(struct sw_span *s)
{
	free(s->name);
	free(s->file);
	s->name = s->file = NULL;
}

/*
 * Reads the span at the current row: columns (track_id, ts, dur, name,
 * args_keys, args, id). With own, the strings are copied into the span.
 */
static void read_span(struct sw_walk *w, sqlite3_stmt *st, int own, struct sw_span *s)
{
	const char *name = (const char *)sqlite3_column_text(st, 3);
	int64_t dur = sqlite3_column_int64(st, 2), kidx, ak;
	memset(s, 0, sizeof(*s));
	s->ts = sqlite3_column_int64(st, 1);
	pr_span_clamp(&s->ts, &dur); /* ends and differences fit (base/timecheck.h) */
	s->end = s->ts + dur;
	s->id = sqlite3_column_int64(st, 6);
	s->f.name = name ? name : "";
	s->f.line = s->f.col = -1;
	if (w->nkeypos && sqlite3_column_type(st, 4) != SQLITE_NULL) {
		ak = sqlite3_column_int64(st, 4);
		if (pr_strmap_get(&w->argkeys, &ak, sizeof(ak), &kidx)) {
			const struct keypos *kp = &w->keypos[kidx];
			const char *text = (const char *)sqlite3_column_text(st, 5);
			json_t *vals = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
			const char *file =
				json_string_value(json_array_get(vals, (size_t)kp->file));
			if (file) {
				s->file = pr_xstrdup(file);
				s->f.file = s->file;
				if (kp->line >= 0)
					s->f.line = arg_int(json_array_get(vals, (size_t)kp->line));
				if (kp->col >= 0)
					s->f.col = arg_int(json_array_get(vals, (size_t)kp->col));
			}
			json_decref(vals);
		}
	}
	if (own) {
		s->name = pr_xstrdup(s->f.name);
		s->f.name = s->name;
	}
}

/* ---- the nesting stack ---- */

struct sw_stack {
	struct sw_span *v;
	size_t n, cap;
};

static void stack_push(struct sw_stack *k, const struct sw_span *s)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 16;
		k->v = pr_xreallocarray(k->v, k->cap, sizeof(*k->v));
	}
	k->v[k->n++] = *s;
}

static void stack_release(struct sw_stack *k)
{
	size_t i;
	for (i = 0; i < k->n; i++)
		span_free_strings(&k->v[i]);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* 1 when s (next in (ts, -dur) order) does not nest in top, so top closes first. */
static int ends_before(const struct sw_span *top, const struct sw_span *s)
{
	if (top->end != s->ts)
		return top->end < s->ts;
	/* s starts where top ends: only a zero-duration s nests, and never in a
	 * zero-duration top */
	return top->end == top->ts || s->end > s->ts;
}

/* ---- the spans of a run, track by track ---- */

struct sw_track_row {
	struct pr_sw_track t;
	int64_t start, end;
	char *kind, *pid, *tid, *name, *process_name;
};

struct sw_run {
	struct pr_sw_run r;
	char *label, *format, *x_unit, *weight_unit, *perf_events, *perf_first;
	struct pr_sw_series *series;
	size_t nseries;
	struct sw_track_row *tracks;
	size_t ntracks;
};

static void run_release(struct sw_run *run)
{
	size_t i;
	free(run->label);
	free(run->format);
	free(run->x_unit);
	free(run->weight_unit);
	free(run->perf_events);
	free(run->perf_first);
	for (i = 0; i < run->nseries; i++) {
		free((char *)run->series[i].name);
		free((char *)run->series[i].device);
		free((char *)run->series[i].unit);
	}
	free(run->series);
	for (i = 0; i < run->ntracks; i++) {
		struct sw_track_row *t = &run->tracks[i];
		free(t->kind);
		free(t->pid);
		free(t->tid);
		free(t->name);
		free(t->process_name);
	}
	free(run->tracks);
	memset(run, 0, sizeof(*run));
}

static int load_tracks(struct sw_walk *w, struct sw_run *run, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	size_t cap = 0;
	if (prep(w->db,
		 "SELECT t.id, t.kind, ifnull(t.pid, ''), ifnull(t.tid, ''), ifnull(t.name, ''), "
		 "ifnull(t.process_name, ''), count(*), min(s.ts), max(s.ts + max(s.dur, 0)) "
		 "FROM span s JOIN track t ON t.id = s.track_id WHERE s.run_id = ?1 "
		 "GROUP BY t.id ORDER BY t.id",
		 &st, err))
		return -1;
	sqlite3_bind_int64(st, 1, run->r.id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sw_track_row *t;
		if (run->ntracks == cap) {
			cap = cap ? cap * 2 : 8;
			run->tracks = pr_xreallocarray(run->tracks, cap, sizeof(*run->tracks));
		}
		t = &run->tracks[run->ntracks++];
		memset(t, 0, sizeof(*t));
		t->t.id = sqlite3_column_int64(st, 0);
		t->kind = col_dup(st, 1);
		t->pid = col_dup(st, 2);
		t->tid = col_dup(st, 3);
		t->name = col_dup(st, 4);
		t->process_name = col_dup(st, 5);
		t->t.nspans = sqlite3_column_int64(st, 6);
		t->start = pr_time_clamp(sqlite3_column_int64(st, 7));
		t->end = pr_time_clamp(sqlite3_column_int64(st, 8));
		t->t.kind = t->kind;
		t->t.pid = t->pid;
		t->t.tid = t->tid;
		t->t.name = t->name;
		t->t.process_name = t->process_name;
		t->t.async = !strcmp(t->kind, "async");
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : step_error(w->db, err);
}

static int load_series(struct sw_walk *w, struct sw_run *run, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc;
	size_t cap = 0;
	if (prep(w->db,
		 "SELECT id, name, device, unit, count FROM series WHERE run_id = ?1 "
		 "ORDER BY name, device, id",
		 &st, err))
		return -1;
	sqlite3_bind_int64(st, 1, run->r.id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *unit = (const char *)sqlite3_column_text(st, 3);
		struct pr_sw_series *s;
		if (!pr_spanwalk_is_memory_series(name, unit) || sqlite3_column_int64(st, 4) <= 0)
			continue;
		if (run->nseries == cap) {
			cap = cap ? cap * 2 : 8;
			run->series = pr_xreallocarray(run->series, cap, sizeof(*run->series));
		}
		s = &run->series[run->nseries++];
		s->id = sqlite3_column_int64(st, 0);
		s->name = col_dup(st, 1);
		s->device = col_dup(st, 2);
		s->unit = col_dup(st, 3);
		s->count = sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	run->r.series = run->series;
	run->r.nseries = run->nseries;
	return rc == SQLITE_DONE ? 0 : step_error(w->db, err);
}

static int emit_open(struct sw_walk *w, const struct pr_sw_frame *f, int64_t at,
		     struct pr_error *err)
{
	w->stats->spans++;
	return w->ops->open ? w->ops->open(w->ctx, f, at, err) : 0;
}

static int emit_close(struct sw_walk *w, int64_t at, struct pr_error *err)
{
	return w->ops->close ? w->ops->close(w->ctx, at, err) : 0;
}

static int lane_begin(struct sw_walk *w, const struct pr_sw_lane *l, struct pr_error *err)
{
	w->stats->lanes++;
	if (l->lane > 1)
		w->stats->extra_lanes++;
	return w->ops->lane_begin ? w->ops->lane_begin(w->ctx, l, err) : 0;
}

static int lane_end(struct sw_walk *w, const struct pr_sw_lane *l, struct pr_error *err)
{
	return w->ops->lane_end ? w->ops->lane_end(w->ctx, l, err) : 0;
}

/* Closes what is open on k down to `keep` entries. */
static int close_down_to(struct sw_walk *w, struct sw_stack *k, size_t keep, struct pr_error *err)
{
	while (k->n > keep) {
		k->n--;
		if (emit_close(w, k->v[k->n].end, err))
			return -1;
	}
	return 0;
}

/* Nests s on k (closing what ended first, clamping s to its parent) and opens it. */
static int nest_and_open(struct sw_walk *w, struct sw_stack *k, struct sw_span *s, int clamp,
			 struct pr_error *err)
{
	size_t keep = k->n;
	while (keep && ends_before(&k->v[keep - 1], s))
		keep--;
	if (close_down_to(w, k, keep, err))
		return -1;
	if (k->n && s->end > k->v[k->n - 1].end) {
		s->end = k->v[k->n - 1].end;
		if (clamp)
			w->stats->clamped++;
	}
	if (emit_open(w, &s->f, s->ts, err))
		return -1;
	stack_push(k, s);
	k->v[k->n - 1].name = k->v[k->n - 1].file = NULL; /* strings stay with the caller */
	return 0;
}

/* An async track: lanes from the buffered spans, then one event list per lane. */
static int async_track(struct sw_walk *w, struct sw_run *run, struct sw_track_row *t,
		       struct sw_span *v, size_t n, struct pr_error *err)
{
	struct sw_stack *lanes = NULL, k = { NULL, 0, 0 };
	size_t nlanes = 0, i, j, *first = NULL, *order = NULL;
	int rc = -1;

	/* first fit: the first lane whose open spans s nests in */
	for (i = 0; i < n; i++) {
		for (j = 0; j < nlanes; j++) {
			struct sw_stack *l = &lanes[j];
			while (l->n && ends_before(&l->v[l->n - 1], &v[i]))
				l->n--;
			if (!l->n || v[i].end <= l->v[l->n - 1].end)
				break;
		}
		if (j == nlanes) {
			lanes = pr_xreallocarray(lanes, ++nlanes, sizeof(*lanes));
			memset(&lanes[j], 0, sizeof(lanes[j]));
		}
		v[i].lane = (int)j;
		stack_push(&lanes[j], &v[i]);
	}
	/* the spans of each lane, in their (ts, -dur, id) order */
	first = pr_xcalloc(nlanes + 1, sizeof(*first));
	order = pr_xcalloc(n ? n : 1, sizeof(*order));
	for (i = 0; i < n; i++)
		first[v[i].lane + 1]++;
	for (j = 0; j < nlanes; j++)
		first[j + 1] += first[j];
	for (i = 0; i < n; i++)
		order[first[v[i].lane]++] = i;
	for (j = nlanes; j > 0; j--)
		first[j] = first[j - 1];
	first[0] = 0;

	for (j = 0; j < nlanes; j++) {
		struct pr_sw_lane lane = { &run->r, &t->t, (int)j + 1, (int)nlanes, 0, 0, 0 };
		lane.start = v[order[first[j]]].ts;
		lane.end = lane.start;
		for (i = first[j]; i < first[j + 1]; i++)
			if (v[order[i]].end > lane.end)
				lane.end = v[order[i]].end;
		lane.nspans = (int64_t)(first[j + 1] - first[j]);
		if (lane_begin(w, &lane, err))
			goto out;
		k.n = 0;
		for (i = first[j]; i < first[j + 1]; i++)
			if (nest_and_open(w, &k, &v[order[i]], 0, err))
				goto out;
		if (close_down_to(w, &k, 0, err) || lane_end(w, &lane, err))
			goto out;
	}
	rc = 0;
out:
	for (j = 0; j < nlanes; j++)
		free(lanes[j].v);
	free(lanes);
	free(first);
	free(order);
	free(k.v);
	return rc;
}

static struct sw_track_row *find_track(struct sw_run *run, int64_t id)
{
	size_t lo = 0, hi = run->ntracks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (run->tracks[mid].t.id < id)
			lo = mid + 1;
		else if (run->tracks[mid].t.id > id)
			hi = mid;
		else
			return &run->tracks[mid];
	}
	return NULL;
}

static int walk_tracks(struct sw_walk *w, struct sw_run *run, struct pr_error *err)
{
	sqlite3_stmt *st = NULL;
	struct sw_stack k = { NULL, 0, 0 };
	struct sw_span *buf = NULL;
	size_t nbuf = 0, capbuf = 0, i;
	struct sw_track_row *cur = NULL;
	struct pr_sw_lane lane;
	int rc, ret = -1;

	if (prep(w->db,
		 "SELECT s.track_id, s.ts, s.dur, n.value, s.args_keys, " FILE_ARGS ", s.id "
		 "FROM span s JOIN string n ON n.id = s.name_id WHERE s.run_id = ?1 "
		 "ORDER BY s.track_id, s.ts, s.dur DESC, s.id",
		 &st, err))
		return -1;
	sqlite3_bind_int64(st, 1, run->r.id);
	memset(&lane, 0, sizeof(lane));
	for (;;) {
		struct sw_track_row *t = NULL;
		struct sw_span s;
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			t = find_track(run, sqlite3_column_int64(st, 0));
			if (!t) {
				pr_error_set(err, PR_E_STORE,
					     "span of run %lld on unknown track %lld",
					     (long long)run->r.id,
					     (long long)sqlite3_column_int64(st, 0));
				goto out;
			}
		} else if (rc != SQLITE_DONE) {
			step_error(w->db, err);
			goto out;
		}
		if (cur && t != cur) { /* the previous track is complete */
			if (cur->t.async) {
				if (async_track(w, run, cur, buf, nbuf, err))
					goto out;
				for (i = 0; i < nbuf; i++)
					span_free_strings(&buf[i]);
				nbuf = 0;
			} else if (close_down_to(w, &k, 0, err) || lane_end(w, &lane, err)) {
				goto out;
			}
			cur = NULL;
		}
		if (!t)
			break;
		if (!cur) {
			cur = t;
			w->stats->tracks++;
			if (!t->t.async) {
				lane.run = &run->r;
				lane.track = &t->t;
				lane.lane = lane.nlanes = 1;
				lane.start = t->start;
				lane.end = t->end;
				lane.nspans = t->t.nspans;
				if (lane_begin(w, &lane, err))
					goto out;
			}
		}
		if (t->t.async) {
			if (nbuf == capbuf) {
				capbuf = capbuf ? capbuf * 2 : 64;
				buf = pr_xreallocarray(buf, capbuf, sizeof(*buf));
			}
			read_span(w, st, 1, &buf[nbuf++]);
			continue;
		}
		read_span(w, st, 0, &s);
		if (nest_and_open(w, &k, &s, 1, err)) {
			free(s.file);
			goto out;
		}
		free(s.file);
	}
	ret = 0;
out:
	sqlite3_finalize(st);
	for (i = 0; i < nbuf; i++)
		span_free_strings(&buf[i]);
	free(buf);
	free(k.v);
	return ret;
}

/* ---- memory samples with the spans open at their time ---- */

struct sw_lanestack {
	struct sw_stack k;
	int64_t track_id;
};

/* Nests s (strings owned) on a thread-like track's stack, clamping silently. */
static void sweep_push(struct sw_stack *k, struct sw_span *s)
{
	while (k->n && ends_before(&k->v[k->n - 1], s))
		span_free_strings(&k->v[--k->n]);
	if (k->n && s->end > k->v[k->n - 1].end)
		s->end = k->v[k->n - 1].end;
	stack_push(k, s);
}

/* The sweep of a run's memory samples: the samples in time order and, beside them, the spans
 * of its thread-like tracks on a stack per track (stacks in track id order). */
struct sw_sweep {
	sqlite3_stmt *ss, *sp; /* the samples; the spans (NULL when none or all read) */
	struct sw_lanestack *stacks;
	size_t nstacks;
	struct pr_sw_frame *frames; /* the open frames handed to the sample hook */
	size_t nframes_cap;
	int have_span; /* pending holds the next span, read but not yet open */
	struct sw_span pending;
};

static void sweep_release(struct sw_sweep *sw)
{
	size_t i;
	if (sw->have_span)
		span_free_strings(&sw->pending);
	for (i = 0; i < sw->nstacks; i++)
		stack_release(&sw->stacks[i].k);
	free(sw->stacks);
	free(sw->frames);
	sqlite3_finalize(sw->ss);
	sqlite3_finalize(sw->sp);
}

/* Prepares the statements of the sweep and a stack per thread-like track. */
static int sweep_open(struct sw_walk *w, const struct sw_run *run, struct sw_sweep *sw,
		      struct pr_error *err)
{
	struct pr_strbuf ids = PR_STRBUF_INIT;
	size_t i, j = 0;
	int rc = -1;
	/* the series ids are bound (?1, a JSON array read by json_each), never pasted into SQL */
	pr_strbuf_addch(&ids, '[');
	for (i = 0; i < run->nseries; i++)
		pr_strbuf_addf(&ids, "%s%lld", i ? "," : "", (long long)run->series[i].id);
	pr_strbuf_addch(&ids, ']');
	if (prep(w->db,
		 "SELECT series_id, ts, value FROM sample WHERE series_id IN "
		 "(SELECT value FROM json_each(?1)) ORDER BY ts, series_id, seq",
		 &sw->ss, err))
		goto out;
	if (sqlite3_bind_text(sw->ss, 1, ids.buf, (int)ids.len, SQLITE_TRANSIENT) != SQLITE_OK) {
		step_error(w->db, err);
		goto out;
	}
	for (i = 0; i < run->ntracks; i++)
		if (!run->tracks[i].t.async)
			sw->nstacks++;
	rc = 0;
	if (!sw->nstacks)
		goto out;
	sw->stacks = pr_xcalloc(sw->nstacks, sizeof(*sw->stacks));
	for (i = 0; i < run->ntracks; i++)
		if (!run->tracks[i].t.async)
			sw->stacks[j++].track_id = run->tracks[i].t.id;
	if (prep(w->db,
		 "SELECT s.track_id, s.ts, s.dur, n.value, s.args_keys, " FILE_ARGS ", s.id "
		 "FROM span s JOIN string n ON n.id = s.name_id "
		 "JOIN track t ON t.id = s.track_id "
		 "WHERE s.run_id = ?1 AND t.kind <> 'async' "
		 "ORDER BY s.ts, s.dur DESC, s.track_id, s.id",
		 &sw->sp, err))
		rc = -1;
	else
		sqlite3_bind_int64(sw->sp, 1, run->r.id);
out:
	pr_strbuf_release(&ids);
	return rc;
}

/* The stack of track tid, or -1 for a track without one. */
static int lane_of(const struct sw_sweep *sw, int64_t tid)
{
	size_t lo = 0, hi = sw->nstacks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sw->stacks[mid].track_id < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sw->nstacks && sw->stacks[lo].track_id == tid ? (int)lo : -1;
}

/* Opens every span that starts at or before ts on its track's stack. */
static int open_spans_until(struct sw_walk *w, struct sw_sweep *sw, int64_t ts,
			    struct pr_error *err)
{
	while (sw->sp) {
		if (!sw->have_span) {
			int rc = sqlite3_step(sw->sp);
			if (rc == SQLITE_DONE) {
				sqlite3_finalize(sw->sp);
				sw->sp = NULL;
				break;
			}
			if (rc != SQLITE_ROW)
				return step_error(w->db, err);
			read_span(w, sw->sp, 1, &sw->pending);
			sw->pending.lane = lane_of(sw, sqlite3_column_int64(sw->sp, 0));
			sw->have_span = 1;
		}
		if (sw->pending.ts > ts)
			break;
		if (sw->pending.lane >= 0)
			sweep_push(&sw->stacks[sw->pending.lane].k, &sw->pending);
		else
			span_free_strings(&sw->pending);
		sw->have_span = 0;
	}
	return 0;
}

/* The frames of the most recently entered activity at ts (the spans ended before it closed);
 * returns their count, 0 when no span is open. */
static size_t open_frames(struct sw_sweep *sw, int64_t ts)
{
	size_t i, best = (size_t)-1, depth;
	struct sw_stack *k;
	for (i = 0; i < sw->nstacks; i++) {
		const struct sw_span *top, *bt;
		k = &sw->stacks[i].k;
		while (k->n && k->v[k->n - 1].end < ts)
			span_free_strings(&k->v[--k->n]);
		if (!k->n)
			continue;
		if (best == (size_t)-1) {
			best = i;
			continue;
		}
		top = &k->v[k->n - 1];
		bt = &sw->stacks[best].k.v[sw->stacks[best].k.n - 1];
		if (top->ts > bt->ts || (top->ts == bt->ts && k->n > sw->stacks[best].k.n))
			best = i;
	}
	if (best == (size_t)-1)
		return 0;
	k = &sw->stacks[best].k;
	depth = k->n;
	if (depth > sw->nframes_cap) {
		sw->nframes_cap = depth * 2;
		sw->frames = pr_xreallocarray(sw->frames, sw->nframes_cap, sizeof(*sw->frames));
	}
	for (i = 0; i < depth; i++)
		sw->frames[i] = k->v[i].f;
	return depth;
}

static int walk_samples(struct sw_walk *w, struct sw_run *run, struct pr_error *err)
{
	struct sw_sweep sw;
	int rc, ret = -1;
	memset(&sw, 0, sizeof(sw));
	if (sweep_open(w, run, &sw, err))
		goto out;
	for (;;) {
		int64_t sid, ts;
		double value;
		size_t si, depth;
		rc = sqlite3_step(sw.ss);
		if (rc == SQLITE_DONE)
			break;
		if (rc != SQLITE_ROW) {
			step_error(w->db, err);
			goto out;
		}
		sid = sqlite3_column_int64(sw.ss, 0);
		ts = pr_time_clamp(sqlite3_column_int64(sw.ss, 1));
		value = sqlite3_column_double(sw.ss, 2);
		for (si = 0; si < run->nseries && run->series[si].id != sid; si++)
			;
		if (open_spans_until(w, &sw, ts, err))
			goto out;
		depth = open_frames(&sw, ts);
		w->stats->samples++;
		if (w->ops->sample &&
		    w->ops->sample(w->ctx, &run->r, si, ts, value, sw.frames, depth, err))
			goto out;
	}
	ret = 0;
out:
	sweep_release(&sw);
	return ret;
}

/* ---- runs ---- */

static int walk_run(struct sw_walk *w, const struct pr_spanwalk_opts *o, struct sw_run *run,
		    struct pr_error *err)
{
	if ((o->spans || o->memory) && run->r.span_count > 0 && load_tracks(w, run, err))
		return -1;
	if (o->memory && load_series(w, run, err))
		return -1;
	w->stats->runs++;
	if (w->ops->run_begin && w->ops->run_begin(w->ctx, &run->r, err))
		return -1;
	if (o->spans && run->ntracks && walk_tracks(w, run, err))
		return -1;
	if (o->memory && run->nseries && walk_samples(w, run, err))
		return -1;
	return w->ops->run_end ? w->ops->run_end(w->ctx, &run->r, err) : 0;
}

int pr_spanwalk(struct pr_store *store, const struct pr_spanwalk_opts *opts,
		const struct pr_spanwalk_ops *ops, void *ctx, struct pr_spanwalk_stats *stats,
		struct pr_error *err)
{
	static const struct pr_spanwalk_ops no_ops;
	struct pr_spanwalk_stats dummy;
	struct sw_walk w;
	sqlite3_stmt *st = NULL;
	struct sw_run *runs = NULL;
	size_t nruns = 0, cap = 0, i;
	int rc, ret = -1;

	memset(&w, 0, sizeof(w));
	w.db = pr_store_db(store);
	w.ops = ops ? ops : &no_ops;
	w.ctx = ctx;
	w.stats = stats ? stats : &dummy;
	memset(w.stats, 0, sizeof(*w.stats));

	if (load_argkeys(&w, err))
		goto out;
	if (prep(w.db,
		 "SELECT id, ifnull(label, ''), format, rank, ts_min, ts_max, span_count, "
		 "CASE WHEN json_valid(meta) THEN ifnull(json_extract(meta, '$.x_unit'), '') "
		 "ELSE '' END, "
		 "CASE WHEN json_valid(meta) AND time_synthetic THEN "
		 "ifnull(json_extract(meta, '$.weight_unit'), '') ELSE '' END, "
		 "CASE WHEN json_valid(meta) THEN "
		 "ifnull(json_extract(meta, '$.\"perf.events\"'), '') ELSE '' END, "
		 "CASE WHEN json_valid(meta) THEN "
		 "ifnull(json_extract(meta, '$.\"perf.event_order\"[0]'), '') ELSE '' END FROM run "
		 "WHERE id BETWEEN ?1 AND ?2 ORDER BY id",
		 &st, err))
		goto out;
	/* one run, or (0) all: a range on the rowid, which a store of 10 000 runs
	 * reads by its key, where "?1 = 0 OR id = ?1" scanned the whole table */
	sqlite3_bind_int64(st, 1, opts->run_id ? (int64_t)opts->run_id : INT64_MIN);
	sqlite3_bind_int64(st, 2, opts->run_id ? (int64_t)opts->run_id : INT64_MAX);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sw_run *r;
		if (nruns == cap) {
			cap = cap ? cap * 2 : 4;
			runs = pr_xreallocarray(runs, cap, sizeof(*runs));
		}
		r = &runs[nruns++];
		memset(r, 0, sizeof(*r));
		r->r.id = sqlite3_column_int64(st, 0);
		r->label = col_dup(st, 1);
		r->format = col_dup(st, 2);
		r->r.label = r->label;
		r->r.format = r->format;
		r->r.rank = col_i64_or(st, 3, -1);
		r->r.has_extent = sqlite3_column_type(st, 4) != SQLITE_NULL &&
				  sqlite3_column_type(st, 5) != SQLITE_NULL;
		r->r.ts_min = pr_time_clamp(col_i64_or(st, 4, 0));
		r->r.ts_max = pr_time_clamp(col_i64_or(st, 5, 0));
		r->r.span_count = sqlite3_column_int64(st, 6);
		r->x_unit = col_dup(st, 7);
		r->r.x_unit = r->x_unit;
		r->weight_unit = col_dup(st, 8);
		r->r.weight_unit = r->weight_unit;
		r->perf_events = col_dup(st, 9);
		r->r.perf_events = r->perf_events;
		r->perf_first = col_dup(st, 10);
		r->r.perf_first = r->perf_first;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		step_error(w.db, err);
		goto out;
	}
	if (opts->run_id && !nruns) {
		pr_error_set(err, PR_E_USAGE, "no run %lld in the store", (long long)opts->run_id);
		goto out;
	}
	/* runs are walked one at a time; only their small header rows are kept */
	for (i = 0; i < nruns; i++)
		if (walk_run(&w, opts, &runs[i], err))
			goto out;
	ret = 0;
out:
	for (i = 0; i < nruns; i++)
		run_release(&runs[i]);
	free(runs);
	pr_strmap_release(&w.argkeys);
	free(w.keypos);
	return ret;
}
