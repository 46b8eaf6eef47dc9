/*
 * writer.c - writing one run into the store: the producer API.
 *
 * The producer (a parser) calls pr_writer_*; rows are appended to a batch;
 * full batches go to a background thread that owns the SQLite connection
 * until commit (writer_batch.c). Span nesting (parent, depth, self time) is
 * computed with one stack per track, so every format gets it for free
 * (writer_nest.c); args are stored split into keys and values
 * (writer_args.c). store/writer_impl.h lists the pieces.
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

void note_ts(struct pr_writer *w, int64_t ts, int64_t end)
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

/* ---- begin / abort ---- */

static const char *const insert_sql[] = {
	[REC_STRING] = "INSERT INTO string(id, value) VALUES(?1, ?2)",
	[REC_SPAN] = "INSERT INTO span(id, run_id, track_id, kind, name_id, cat_id, ts, dur, self, "
		     "depth, parent_id, args, args_keys) "
		     "VALUES(?1, ?12, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?13)",
	[REC_SAMPLE] = "INSERT INTO sample(series_id, ts, value, seq) VALUES(?1, ?2, ?3, ?4)",
	[REC_INSTANT] = "INSERT INTO instant(run_id, track_id, name_id, cat_id, ts, scope, args, "
			"args_keys) VALUES(?8, ?2, ?3, ?4, ?5, ?6, ?7, ?9)",
	[REC_FLOW] = "INSERT INTO flow(run_id, flow_id, phase, track_id, ts, name_id, cat_id, bind) "
		     "VALUES(?8, ?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[REC_METRIC] = "INSERT INTO metric(id, run_id, name, value, unit, span_id, origin, detail) "
		       "VALUES(?1, ?8, ?2, ?3, ?4, ?5, ?6, ?7)",
	[REC_ARGKEYS] = "INSERT INTO argkeys(id, keys) VALUES(?1, ?2)",
	[REC_COVER] = "INSERT INTO op_cover(run_id, ts, end_ts) VALUES(?8, ?1, ?2)",
	[REC_UP] = "INSERT INTO span_up(span_id, run_id, p_kind, p_name_id, p_ts, p_parent_id, "
		   "q_kind, q_name_id, q_parent_id) VALUES(?1, ?8, ?2, ?3, ?4, ?5, ?6, ?7, ?9)",
};

static int64_t max_id(struct pr_store *st, const char *sql)
{
	sqlite3_stmt *stmt = NULL;
	int64_t v = 0;
	if (sqlite3_prepare_v2(st->db, sql, -1, &stmt, NULL) == SQLITE_OK &&
	    sqlite3_step(stmt) == SQLITE_ROW)
		v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return v;
}

/* Loads (id, text) rows into an interning map, so later runs reuse the ids. */
static int load_map(struct pr_writer *w, const char *sql, struct pr_strmap *map,
		    struct pr_error *err)
{
	sqlite3_stmt *stmt = NULL;
	int rc;
	if (sqlite3_prepare_v2(w->st->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(w->st->db));
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		const void *v = sqlite3_column_text(stmt, 1);
		int n = sqlite3_column_bytes(stmt, 1);
		pr_strmap_put(map, v ? v : "", (size_t)n, sqlite3_column_int64(stmt, 0));
	}
	sqlite3_finalize(stmt);
	if (rc != SQLITE_DONE)
		return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(w->st->db));
	return 0;
}

static void writer_free(struct pr_writer *w)
{
	size_t i, j;
	for (i = 0; i < PR_ARRAY_SIZE(w->ins); i++)
		sqlite3_finalize(w->ins[i]);
	for (i = 0; i < NBATCHES; i++) {
		free(w->batches[i].recs);
		pr_strbuf_release(&w->batches[i].arena);
	}
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
	pr_strmap_release(&w->strings);
	pr_strmap_release(&w->track_map);
	pr_strmap_release(&w->process_names);
	pr_strmap_release(&w->series_map);
	pr_strbuf_release(&w->tmp);
	pr_strmap_release(&w->argkeys);
	pr_strbuf_release(&w->sk);
	pr_strbuf_release(&w->sv);
	pr_strbuf_release(&w->mk);
	pr_strbuf_release(&w->mv);
	json_decref(w->meta);
	free(w->format);
	free(w->source);
	free(w->label);
	free(w->collector);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
	free(w);
}

void pr_writer_abort(struct pr_writer *w)
{
	if (!w)
		return;
	drain(w);
	pr_store_exec(w->st, "ROLLBACK", NULL);
	/* After an I/O error (a full disk) SQLite leaves the journal in place and
	 * rolls it back on the next read: read now, so that the store is back to
	 * its size and state before this run, not left for the next process to
	 * recover. */
	pr_store_exec(w->st, "SELECT count(*) FROM sqlite_master", NULL);
	writer_free(w);
}

int pr_writer_begin(struct pr_store *st, const struct pr_run_info *info, struct pr_writer **out,
		    struct pr_error *err)
{
	struct pr_writer *w;
	size_t i;
	const char *base;

	*out = NULL;
	if (st->readonly)
		return pr_error_set(err, PR_E_STORE, "store is read-only");
	w = pr_xcalloc(1, sizeof(*w));
	w->st = st;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	pr_strbuf_init(&w->tmp);
	pr_strbuf_init(&w->sk);
	pr_strbuf_init(&w->sv);
	pr_strbuf_init(&w->mk);
	pr_strbuf_init(&w->mv);
	pr_error_init(&w->async_err);
	w->format = pr_xstrdup(info->format);
	w->source = pr_xstrdup(info->source);
	base = strrchr(info->source, '/');
	w->label = pr_xstrdup(info->label ? info->label : base ? base + 1 : info->source);
	w->meta = json_object();
	w->at = -1;
	/* Batches start empty and grow (recs by doubling, the arena as a strbuf):
	 * a tiny input (one rank of many, a fuzz case) does not pay for 15 MB. */
	for (i = 0; i < NBATCHES; i++)
		pr_strbuf_init(&w->batches[i].arena);
	if (pr_store_begin_write(st, err)) {
		writer_free(w);
		return -1;
	}
	for (i = 0; i < PR_ARRAY_SIZE(insert_sql); i++) {
		if (sqlite3_prepare_v3(st->db, insert_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &w->ins[i],
				       NULL) != SQLITE_OK) {
			pr_error_set(err, PR_E_STORE, "sqlite prepare: %s", sqlite3_errmsg(st->db));
			goto fail;
		}
	}
	w->run_id = max_id(st, "SELECT ifnull(max(id), 0) + 1 FROM run");
	w->span_base = w->next_span = max_id(st, "SELECT ifnull(max(id), 0) + 1 FROM span");
	w->next_string = max_id(st, "SELECT ifnull(max(id), 0) + 1 FROM string");
	w->track_base = w->next_track = max_id(st, "SELECT ifnull(max(id), 0) + 1 FROM track");
	w->series_base = w->next_series = max_id(st, "SELECT ifnull(max(id), 0) + 1 FROM series");
	w->next_metric = max_id(st, "SELECT ifnull(max(id), 0) + 1 FROM metric");
	w->next_argkeys = max_id(st, "SELECT ifnull(max(id), 0) + 1 FROM argkeys");
	if (load_map(w, "SELECT id, value FROM string", &w->strings, err) ||
	    load_map(w, "SELECT id, keys FROM argkeys", &w->argkeys, err))
		goto fail;

	for (i = 0; i < PR_ARRAY_SIZE(insert_sql); i++) {
		int col = i == REC_SPAN ? 12 : 8;
		if (i == REC_STRING || i == REC_SAMPLE || i == REC_ARGKEYS)
			continue;
		sqlite3_bind_int64(w->ins[i], col, w->run_id);
	}
	w->cur = &w->batches[0];
	w->free_list = NULL;
	for (i = NBATCHES - 1; i >= 1; i--) {
		w->batches[i].next = w->free_list;
		w->free_list = &w->batches[i];
	}
	if (pthread_create(&w->thread, NULL, inserter_main, w)) {
		pr_error_set(err, PR_E_STORE, "cannot start the inserter thread");
		goto fail;
	}
	w->thread_started = 1;
	*out = w;
	return 0;
fail:
	pr_writer_abort(w);
	return -1;
}

int pr_writer_failed(struct pr_writer *w, struct pr_error *err)
{
	int failed;
	pthread_mutex_lock(&w->mu);
	failed = w->failed;
	if (failed && err)
		*err = w->async_err;
	pthread_mutex_unlock(&w->mu);
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

/* ---- strings ---- */

int64_t pr_writer_intern(struct pr_writer *w, const char *s, size_t n)
{
	int64_t id;
	struct rec *r;
	if (pr_strmap_get(&w->strings, s, n, &id))
		return id;
	id = w->next_string++;
	pr_strmap_put(&w->strings, s, n, id);
	r = new_rec(w, REC_STRING, n);
	r->id = id;
	r->off = arena_add(w, s, n, &r->len);
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

struct track *track_get(struct pr_writer *w, int64_t id)
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
		pr_writer_diag(w, "too_many_tracks", w->at, 0, 0,
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

/* ---- spans ---- */

/*
 * Every format's times go through here: a span, sample, instant or flow
 * more than PR_TIME_LIMIT_NS (2^62 ns, 146 years) from the clock's zero is
 * skipped, a span ending beyond it is cut there (store/timecheck.h: then
 * every difference of two times fits in an int64). One diagnostic code,
 * time_out_of_range, counted per event. (The Chrome and QNN readers check
 * first, with their own wording, as their time bases depend on it.)
 */
int time_skip(struct pr_writer *w, int64_t ts, const char *what)
{
	if (pr_time_ok(ts))
		return 0;
	pr_writer_diag(w, "time_out_of_range", w->at, 0, 0,
		       "%s more than 2^62 ns (146 years) from the clock's zero; skipped", what);
	return 1;
}

int64_t end_cut(struct pr_writer *w, int64_t ts, int64_t dur)
{
	if (dur <= PR_TIME_LIMIT_NS - ts)
		return dur;
	pr_writer_diag(w, "time_out_of_range", w->at, 0, 0,
		       "a span ends more than 2^62 ns (146 years) after the clock's zero; cut there");
	return PR_TIME_LIMIT_NS - ts;
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
	split_or_keep(w, args, args ? args_len : 0);
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
			pr_writer_diag(w, "overlapping_spans", w->at, 0, 0,
				       "a span on track pid '%s' tid '%s' ends after its enclosing span",
				       t->pid ? t->pid : "", t->tid ? t->tid : "");
		track_pop(w, t);
	}
	t->stack[i - 1].open = 0;
	if (keys && keys_len)
		merge_split(w, &t->pay[i - 1], keys, keys_len, vals, vals_len);
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
			pr_writer_diag(w, "too_many_series", w->at, 0, 0,
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
		pr_writer_diag(w, "unknown_series", w->at, 0, 0,
			       "a sample names a series that was never created; dropped (count: samples)");
		return;
	}
	if (!isfinite(value)) {
		pr_writer_diag(w, "non_finite_sample", w->at, 0, 0,
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
	r = new_rec(w, REC_SAMPLE, 0);
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
	split_or_keep(w, args, args ? args_len : 0);
	pr_writer_instant_kv(w, track, name, cat, ts, scope, w->sk.buf, w->sk.len, w->sv.buf,
			     w->sv.len);
}

void pr_writer_instant_kv(struct pr_writer *w, int64_t track, int64_t name, int64_t cat,
			  int64_t ts, const char *scope, const char *keys, size_t keys_len,
			  const char *vals, size_t vals_len)
{
	size_t sl = scope ? strlen(scope) : 0;
	struct rec *r;
	struct track *t;
	if (time_skip(w, ts, "an instant's time is"))
		return;
	r = new_rec(w, REC_INSTANT, vals_len + sl);
	r->track = track;
	r->name = name;
	r->cat = cat;
	r->ts = ts;
	if (sl)
		r->off2 = arena_add(w, scope, sl, &r->len2);
	w->stats.instants++;
	t = track_get(w, track);
	if (w->overflowed && t && t->overflow)
		w->overflow_events++;
	if (!t || !t->no_extent)
		note_ts(w, ts, ts);
	put_args(w, r, keys, keys_len, vals, vals_len);
}

void pr_writer_flow(struct pr_writer *w, const char *flow_id, char phase, int64_t track,
		    int64_t ts, int64_t name, int64_t cat, const char *bind)
{
	size_t fl = strlen(flow_id), bl = bind ? strlen(bind) : 0;
	struct rec *r;
	if (time_skip(w, ts, "a flow event's time is"))
		return;
	r = new_rec(w, REC_FLOW, fl + bl);
	r->ph = phase;
	r->track = track;
	r->ts = ts;
	r->name = name;
	r->cat = cat;
	r->off2 = arena_add(w, flow_id, fl, &r->len2);
	if (bl)
		r->off = arena_add(w, bind, bl, &r->len);
	w->stats.flows++;
	if (w->overflowed && track_get(w, track) && track_get(w, track)->overflow)
		w->overflow_events++;
}

void pr_writer_metric(struct pr_writer *w, const char *name, double value, const char *unit,
		      int64_t span_id, const char *origin, const char *detail)
{
	size_t nl = strlen(name), ul = unit ? strlen(unit) : 0, ol = strlen(origin),
	       dl = detail ? strlen(detail) : 0;
	struct rec *r = new_rec(w, REC_METRIC, nl + ul + ol + dl);
	r->id = w->next_metric++;
	r->value = value;
	r->parent = span_id;
	r->off = arena_add(w, name, nl, &r->len);
	if (ul)
		r->off2 = arena_add(w, unit, ul, &r->len2);
	r->off3 = arena_add(w, origin, ol, &r->len3);
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

int step_done(sqlite3_stmt *st)
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
static void finish_input(struct pr_writer *w)
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
	finish_input(w);
}
static int find_hash(struct pr_writer *w, const char *hash, int64_t *run_id)
{
	sqlite3_stmt *stmt = NULL;
	int found = 0;
	if (sqlite3_prepare_v2(w->st->db, "SELECT id FROM run WHERE content_hash = ?1", -1, &stmt,
			       NULL) == SQLITE_OK) {
		sqlite3_bind_text(stmt, 1, hash, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) == SQLITE_ROW) {
			*run_id = sqlite3_column_int64(stmt, 0);
			found = 1;
		}
	}
	sqlite3_finalize(stmt);
	return found;
}

static int write_tables(struct pr_writer *w, const char *hash, int64_t bytes,
			struct pr_error *err)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *db = w->st->db;
	size_t i;
	char *meta = NULL;
	int rc = -1;

#define PREP(sql)                                                                  \
	do {                                                                       \
		sqlite3_finalize(st);                                              \
		st = NULL;                                                         \
		if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)       \
			goto out;                                                  \
	} while (0)

	PREP("INSERT INTO track(id, run_id, kind, pid, tid, name, process_name, sort_index) "
	     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
	for (i = 0; i < w->ntracks; i++) {
		struct track *t = &w->tracks[i];
		int64_t pidx;
		sqlite3_bind_int64(st, 1, t->id);
		sqlite3_bind_int64(st, 2, w->run_id);
		sqlite3_bind_text(st, 3, t->kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, t->pid, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, t->tid, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, t->name, -1, SQLITE_STATIC);
		if (t->pid && pr_strmap_get(&w->process_names, t->pid, strlen(t->pid), &pidx))
			sqlite3_bind_text(st, 7, w->pnames[pidx], -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 7);
		if (t->has_sort)
			sqlite3_bind_int64(st, 8, t->sort_index);
		else
			sqlite3_bind_null(st, 8);
		if (step_done(st))
			goto out;
	}
	PREP("INSERT INTO series(id, run_id, name, device, unit, orig_unit, count, min, max, "
	     "ts_min, ts_max) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
	for (i = 0; i < w->nseries; i++) {
		struct series *s = &w->series[i];
		sqlite3_bind_int64(st, 1, s->id);
		sqlite3_bind_int64(st, 2, w->run_id);
		sqlite3_bind_text(st, 3, s->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, s->device, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 5, s->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 6, s->orig_unit, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 7, s->count);
		if (s->count) {
			sqlite3_bind_double(st, 8, s->min);
			sqlite3_bind_double(st, 9, s->max);
			sqlite3_bind_int64(st, 10, s->ts_min);
			sqlite3_bind_int64(st, 11, s->ts_max);
		} else {
			sqlite3_bind_null(st, 8);
			sqlite3_bind_null(st, 9);
			sqlite3_bind_null(st, 10);
			sqlite3_bind_null(st, 11);
		}
		if (step_done(st))
			goto out;
	}
	PREP("INSERT INTO diag(run_id, code, count, line, col, offset, message) "
	     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)");
	for (i = 0; i < w->ndiags; i++) {
		struct diag *d = &w->diags[i];
		sqlite3_bind_int64(st, 1, w->run_id);
		sqlite3_bind_text(st, 2, d->code, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, d->count);
		bind_i64(st, 4, d->line > 0 ? d->line : NULL_I64);
		bind_i64(st, 5, d->col > 0 ? d->col : NULL_I64);
		bind_i64(st, 6, d->offset >= 0 ? d->offset : NULL_I64);
		sqlite3_bind_text(st, 7, d->msg, -1, SQLITE_STATIC);
		if (step_done(st))
			goto out;
	}
	meta = json_dumps(w->meta, JSON_COMPACT | JSON_SORT_KEYS);
	PREP("INSERT INTO run(id, format, collector, label, source, content_hash, bytes, rank, "
	     "world_size, time_origin_ns, time_synthetic, ts_min, ts_max, span_count, "
	     "sample_count, instant_count, meta) "
	     "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
	sqlite3_bind_int64(st, 1, w->run_id);
	sqlite3_bind_text(st, 2, w->format, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, w->collector, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, w->label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, w->source, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, hash, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, bytes);
	bind_i64(st, 8, w->has_rank ? w->rank : NULL_I64);
	bind_i64(st, 9, w->has_world ? w->world_size : NULL_I64);
	bind_i64(st, 10, w->has_origin ? w->time_origin : NULL_I64);
	sqlite3_bind_int(st, 11, w->synthetic);
	bind_i64(st, 12, w->has_ts ? w->ts_min : NULL_I64);
	bind_i64(st, 13, w->has_ts ? w->ts_max : NULL_I64);
	sqlite3_bind_int64(st, 14, w->stats.spans);
	sqlite3_bind_int64(st, 15, w->stats.samples);
	sqlite3_bind_int64(st, 16, w->stats.instants);
	sqlite3_bind_text(st, 17, meta ? meta : "{}", -1, SQLITE_STATIC);
	if (step_done(st))
		goto out;
	rc = 0;
out:
#undef PREP
	if (rc)
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
	sqlite3_finalize(st);
	free(meta);
	return rc;
}

int pr_writer_commit(struct pr_writer *w, const char *content_hash, int64_t bytes,
		     int64_t *run_id, struct pr_writer_stats *stats, struct pr_error *err)
{
	finish_input(w);
	drain(w);
	if (stats)
		*stats = w->stats;
	if (pr_writer_failed(w, err))
		goto fail;
	if (find_hash(w, content_hash, run_id)) {
		pr_writer_abort(w);
		return 1;
	}
	if (renest_unsorted(w, err))
		goto fail;
	if (write_tables(w, content_hash, bytes, err))
		goto fail;
	/* Analyses query each run by run_id: without these indexes a store of N
	 * runs took O(N^2) (issue 12: summary of 8000 runs, 26 s). One run needs
	 * none (its rows are the whole table); from the second on they are built
	 * once and kept (about +25% on the SQLite side of a later ingest). */
	if (max_id(w->st, "SELECT count(*) FROM (SELECT 1 FROM run LIMIT 2)") > 1 &&
	    pr_store_exec(w->st,
			  "CREATE INDEX IF NOT EXISTS span_run ON span(run_id);"
			  "CREATE INDEX IF NOT EXISTS track_run ON track(run_id);"
			  "CREATE INDEX IF NOT EXISTS series_run ON series(run_id);"
			  "CREATE INDEX IF NOT EXISTS metric_run ON metric(run_id);"
			  "CREATE INDEX IF NOT EXISTS op_cover_run ON op_cover(run_id);"
			  "CREATE INDEX IF NOT EXISTS span_up_run ON span_up(run_id);"
			  "CREATE INDEX IF NOT EXISTS diag_run ON diag(run_id);",
			  err))
		goto fail;
	if (pr_store_exec(w->st,
			  "CREATE INDEX IF NOT EXISTS span_step ON span(run_id, ts) WHERE kind = 'step';"
			  "CREATE INDEX IF NOT EXISTS span_phase ON span(run_id, ts) WHERE kind = 'phase';"
			  "COMMIT",
			  err))
		goto fail;
	*run_id = w->run_id;
	writer_free(w);
	return 0;
fail:
	pr_writer_abort(w);
	return -1;
}
