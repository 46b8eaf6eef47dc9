/*
 * store.h - the SQLite event store (schema: store/schema.sql, docs/store.md).
 *
 * USAGE
 *   struct pr_store *st; pr_store_open(&st, "runs.db", PR_STORE_CREATE, &err);
 *   struct pr_writer *w; pr_writer_begin(st, &info, &w, &err);
 *   ... pr_writer_span / pr_writer_sample / pr_writer_diag ...
 *   pr_writer_commit(w, hash, bytes, &run_id, &err);   (or pr_writer_abort(w))
 *   pr_store_close(st);
 *
 * A writer is one ingested source = one SQLite transaction (or, in a group,
 * one savepoint): commit makes the whole run visible, abort (or any failure)
 * leaves nothing behind. Rows are batched and inserted by a background
 * thread, so a parser and SQLite use both cores; the writer's own memory is
 * bounded by the open spans, tracks, series and distinct strings, never by
 * the number of events. Many runs in a row go through a writer session
 * (below), which keeps that thread and its set-up from run to run.
 *
 * Spans are nested by the writer: per track it keeps the stack of open spans
 * and fills parent_id, depth and self (duration minus direct children). Spans
 * must arrive in start order per track for that; a track whose spans do not
 * is marked and re-nested from the stored rows at commit.
 *
 * Several processes may use one store at once (docs/store.md, "The event store"):
 * creating a new store is one exclusive transaction, so concurrent creators
 * agree; writers queue (a writer waits for the one holding the store, with
 * no time limit, and the notice callback hears once after 5 s of waiting);
 * a read-only store is read in one read transaction held until close, so a
 * command sees the same runs throughout. A store left with a hot journal by
 * a process that died inside a write (killed, disk full) is rolled back on
 * open, also by read-only opens (which open it read-write for that alone;
 * the notice callback hears about it).
 *
 * OWNERSHIP: strings passed in are copied; json_t values passed to
 * pr_writer_meta_set are stolen.
 * LIMITATIONS: one writer (or writer session) per store handle at a time;
 * not thread-safe beyond that.
 */
#ifndef PR_STORE_H
#define PR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "base/error.h"

#define PR_STORE_SCHEMA_VERSION 5
/* The oldest version still read: version 4 lacks only run_meta (store/schema.sql). */
#define PR_STORE_SCHEMA_OLDEST 4

struct sqlite3;
struct pr_store;
struct pr_writer;

enum {
	PR_STORE_READONLY = 1, /* open an existing store read-only */
	PR_STORE_CREATE = 2,   /* create when missing */
	/* A scratch store: pr_store_close() removes it (and its journal), and so
	 * does a fatal signal before that (base/output.h, pr_output_remove_temps). */
	PR_STORE_TEMPORARY = 4,
	/* Keep SQLite's allocator statistics, which sqlite3_hard_heap_limit64 needs
	 * (query's --max-memory); off otherwise: they take a global mutex on every
	 * malloc. Only the first store opened in a process decides. */
	PR_STORE_MEMSTATUS = 8,
};

extern const char pr_store_schema_sql[];

int pr_store_open(struct pr_store **out, const char *path, int flags,
		  struct pr_error *err) PR_MUST_CHECK;
void pr_store_close(struct pr_store *st);
/* Borrowed SQLite handle, for read-side code (analyze/, dump, query). */
struct sqlite3 *pr_store_db(struct pr_store *st);
/*
 * Shrinks the connection's page cache to PR_STORE_READ_CACHE_KIB (the store
 * opens with 32 MiB, which the writer's index B-trees use; the analyses
 * read in passes and lose nothing with less: on a 1 GB trace's store the
 * summary takes the same time and 29 MB less memory). 0 or -1.
 */
#define PR_STORE_READ_CACHE_KIB 8192
int pr_store_read_cache(struct pr_store *st);
/* The path the store was opened with (borrowed). */
const char *pr_store_path(const struct pr_store *st);
/* Number of runs in the store (0 on error). */
int64_t pr_store_run_count(struct pr_store *st);
/*
 * Removes the store's file when it holds no run, under an exclusive lock
 * (for an ingest that created the store and stored nothing). Returns 1 when
 * removed. Another process that has the store open and waits for it opens
 * the path again when it gets the lock (see pr_writer_begin). The store
 * must still be closed with pr_store_close().
 */
int pr_store_remove_if_empty(struct pr_store *st);

/*
 * Things worth telling the user that are not errors: that the store was
 * recovered from an interrupted write, or that this process waits for
 * another one holding the store. Library code never prints; the CLI installs
 * a callback (one per process; NULL = silent). path is the store's.
 */
typedef void pr_store_notice_fn(void *ctx, const char *path, const char *msg);
void pr_store_set_notice(pr_store_notice_fn *fn, void *ctx);

/* ---- the run metadata (table run_meta) ---- */

/* Longest key and value (bytes) of the run metadata. */
#define PR_RUN_META_KEY_MAX 64
#define PR_RUN_META_VALUE_MAX 256
/*
 * Checks one key and value: a key of 1..PR_RUN_META_KEY_MAX characters of
 * [A-Za-z0-9_.-], a value of at most PR_RUN_META_VALUE_MAX bytes of
 * printable text (UTF-8, no control characters). 0, or -1 with a usage
 * error in err that names the problem.
 */
int pr_run_meta_check(const char *key, size_t klen, const char *value,
		      struct pr_error *err) PR_MUST_CHECK;
/*
 * The metadata of run as a JSON object of strings, keys sorted (a new
 * reference; empty when the run has none, or the store is of version 4).
 * NULL on an SQLite error (err set).
 */
json_t *pr_store_run_meta(struct sqlite3 *db, int64_t run, struct pr_error *err);

/* ---- the model cache (table model_cache; store/model_cache.c) ---- */

enum {
	PR_CACHE_MODEL = 0,
	PR_CACHE_DIGEST = 1
};
/*
 * The cached model (what = PR_CACHE_MODEL) or digest (PR_CACHE_DIGEST) of
 * run, built by analyzer with options, when there is one and the run's
 * content hash is still the one it was built from. Returns 1 with *text
 * (the caller frees it), 0 when there is none, -1 on error.
 */
int pr_store_cache_get(struct pr_store *st, int64_t run, const char *analyzer, const char *options,
		       int what, char **text, struct pr_error *err);
/* Queues a row (texts copied) for pr_store_cache_flush(); hash is the run's content hash. */
void pr_store_cache_put(struct pr_store *st, int64_t run, const char *hash, const char *analyzer,
			const char *options, const char *model, const char *digest);
/* Bytes of text queued. */
size_t pr_store_cache_pending(const struct pr_store *st);
/*
 * Hands each queued row, in the order queued, to fn (texts borrowed) and
 * drops the queue: for a process that reads the store beside others (-j's
 * workers) and leaves the write to one writer, which pr_store_cache_put()s
 * what fn passed on.
 */
typedef void pr_store_cache_fn(void *ctx, int64_t run, const char *hash, const char *analyzer,
			       const char *options, const char *model, const char *digest);
void pr_store_cache_take(struct pr_store *st, pr_store_cache_fn *fn, void *ctx);
/*
 * Writes the queued rows in one transaction of a read-write connection of
 * its own, waiting at most 2 s for another process's lock; on a read-only
 * handle the read transaction is ended first and begun again after, so no
 * statement may be active on the handle. Returns the rows written, or -1
 * when they could not be (a read-only file, a store held by a writer): the
 * queue is dropped either way, the cache being only a cache.
 */
int pr_store_cache_flush(struct pr_store *st);

/*
 * Groups the runs written from now on into few transactions (an ingest of
 * many small files: one commit per file cost two fsyncs each): each run is a
 * savepoint of the group's transaction, so a run that fails is undone alone,
 * and pr_store_group_commit() commits every run written since the last
 * commit (0, or -1 when the commit failed: those runs are not stored). When
 * an I/O error made SQLite roll back the whole group (seen at the failed
 * run's abort), pr_store_group_lost() is non-zero until the next
 * pr_store_group_commit(), which then fails too.
 */
void pr_store_group_begin(struct pr_store *st);
int pr_store_group_commit(struct pr_store *st, struct pr_error *err) PR_MUST_CHECK;
int pr_store_group_lost(const struct pr_store *st);

/* ---- a run copied from another store (store/merge.c; ingest -j) ---- */

/*
 * A worker process ingests a file into a store of its own that is empty
 * before it (a temporary one), so the run's ids all start at 1;
 * pr_store_take_run() appends that one run's rows to out (a compact
 * stream, store/merge.c) and empties the store for the next file (0, or -1
 * with err). pr_store_merge_run() copies such a run into st with the ids,
 * strings and rows ingesting the same file into st would have given it: 0
 * and *run_id; 1 when st has a run of the same content (nothing written,
 * *run_id = that run); -1 with err (nothing written). Each run is a
 * transaction, or in a group (pr_store_group_begin) a savepoint of the
 * group's, as a writer's. One merge per store handle, and no writer beside
 * it; rows are borrowed for the call.
 */
struct pr_strbuf;
int pr_store_take_run(struct pr_store *st, struct pr_strbuf *out,
		      struct pr_error *err) PR_MUST_CHECK;
struct pr_store_merge;
int pr_store_merge_open(struct pr_store *st, struct pr_store_merge **out,
			struct pr_error *err) PR_MUST_CHECK;
int pr_store_merge_run(struct pr_store_merge *m, const void *rows, size_t len, int64_t *run_id,
		       struct pr_error *err) PR_MUST_CHECK;
void pr_store_merge_close(struct pr_store_merge *m);

/* ---- writing one run ---- */

struct pr_run_info {
	const char *format; /* registry name of the ingester */
	const char *source; /* path as given by the user */
	const char *label;  /* NULL: basename of source */
};

/* Counters, for progress and tests. */
struct pr_writer_stats {
	int64_t spans, samples, instants, flows, metrics, diags;
};

int pr_writer_begin(struct pr_store *st, const struct pr_run_info *info, struct pr_writer **out,
		    struct pr_error *err) PR_MUST_CHECK;
/*
 * Finishes the run: closes open spans, re-nests unsorted tracks, writes
 * tracks/series/diagnostics/run row, builds indexes, commits. Returns 0 and
 * *run_id; or 1 when a run with the same content hash exists (nothing is
 * written, *run_id = the existing run); or -1 on error (rolled back).
 * stats (may be NULL) receives the final counters.
 * The writer is freed in every case.
 */
int pr_writer_commit(struct pr_writer *w, const char *content_hash, int64_t bytes, int64_t *run_id,
		     struct pr_writer_stats *stats, struct pr_error *err) PR_MUST_CHECK;
/* The source is fully read: closes spans still open (with diagnostics).
 * Commit does it too; call it first to locate those diagnostics. */
void pr_writer_end_input(struct pr_writer *w);
/* Rolls back and frees. NULL-safe. */
void pr_writer_abort(struct pr_writer *w);
/* Non-zero (and fills err) when the background inserter failed. */
int pr_writer_failed(struct pr_writer *w, struct pr_error *err);

/*
 * A writer session: the runs of one ingest of many files, written one after
 * another by one inserter thread that keeps its prepared statements, the
 * string and argkeys maps and the next ids from run to run (a run then
 * costs no set-up of its own), and inserts a run while the producer reads
 * the next one:
 *   pr_writer_session_open(st, &s, &err);
 *   pr_writer_begin_in(s, &info, &w, &err); ... pr_writer_span(w, ...) ...
 *   pr_writer_hand_over(w, hash, bytes); (or pr_writer_discard(w))
 *   ... the next run is read while this one is inserted and committed ...
 *   pr_writer_outcome(w, &run_id, &stats, &err);
 *   pr_writer_session_close(s);
 * Runs are written in the order begun and get the ids they would get one at
 * a time. A run begins on the next ids the store will have once the runs
 * handed over before it are committed; when one of those is a duplicate or
 * fails, the run is stale: nothing of it is written, its outcome (or, before
 * the hand-over, pr_writer_check) says PR_WRITER_STALE, and the caller
 * writes it again (pr_writer_begin_in then starts from the store's ids). In
 * a group (pr_store_group_begin) each run is a savepoint of the group's
 * transaction, begun by the session when none is open; without one each
 * run is a transaction of its own (and waits for the previous one's
 * commit). The store's connection belongs to the session's thread while a
 * run is in flight: use the store (a group's commit) only after
 * pr_writer_session_wait(). Not thread-safe: one producer thread.
 */
#define PR_WRITER_STALE 2
struct pr_writer_session;
int pr_writer_session_open(struct pr_store *st, struct pr_writer_session **out,
			   struct pr_error *err) PR_MUST_CHECK;
/* Waits for the runs in flight (their outcomes stay to be taken), then frees. NULL-safe. */
void pr_writer_session_close(struct pr_writer_session *s);
/* Waits until no run is in flight: the store may be used. */
void pr_writer_session_wait(struct pr_writer_session *s);
/* Waits, then forgets the next ids and the strings and argkeys past the
 * store's: for a store whose rows were deleted beside the session (ingest
 * -j's workers empty theirs after each run, pr_store_take_run). */
void pr_writer_session_forget(struct pr_writer_session *s);
/* Begins a run; fails when the transaction cannot be begun (the store is busy, ...). */
int pr_writer_begin_in(struct pr_writer_session *s, const struct pr_run_info *info,
		       struct pr_writer **out, struct pr_error *err) PR_MUST_CHECK;
/* Waits until the session's thread has begun the run (and so has ended the
 * runs before it): 0 when its ids are the store's, PR_WRITER_STALE when not. */
int pr_writer_check(struct pr_writer *w);
/* Ends the input (pr_writer_end_input) and hands the run over for commit;
 * the producer must not use w again but for pr_writer_outcome. */
void pr_writer_hand_over(struct pr_writer *w, const char *content_hash, int64_t bytes);
/* Hands the run over to be rolled back and freed (the producer forgets w). */
void pr_writer_discard(struct pr_writer *w);
/* Waits for a handed-over run's commit and frees it: 0 and *run_id (stored),
 * 1 and the run of the same content (a duplicate), -1 with err, or
 * PR_WRITER_STALE (err says so). stats (may be NULL) receives the final counters. */
int pr_writer_outcome(struct pr_writer *w, int64_t *run_id, struct pr_writer_stats *stats,
		      struct pr_error *err);

/* The source offset of the event about to be written: diagnostics the writer
 * raises itself (nesting, unclosed spans) point there. -1 = unknown. */
void pr_writer_at(struct pr_writer *w, int64_t offset);

/* Run attributes (any time before commit; later calls win). */
void pr_writer_set_collector(struct pr_writer *w, const char *collector);
void pr_writer_set_rank(struct pr_writer *w, int64_t rank, int64_t world_size);
void pr_writer_set_time_origin(struct pr_writer *w, int64_t epoch_ns);
void pr_writer_set_time_synthetic(struct pr_writer *w, int synthetic);
/* Sets meta[key] = value (stolen). */
void pr_writer_meta_set(struct pr_writer *w, const char *key, json_t *value);
/* Returns the value of meta[key] (borrowed) or NULL. */
json_t *pr_writer_meta_get(struct pr_writer *w, const char *key);

/*
 * The user's metadata of the run (table run_meta): key and value are
 * copied; a key set twice keeps the last value. The caller checks them
 * (pr_run_meta_check).
 */
void pr_writer_run_meta(struct pr_writer *w, const char *key, const char *value);

/* Interned string id (names, categories). n bytes, need not be NUL-terminated. */
int64_t pr_writer_intern(struct pr_writer *w, const char *s, size_t n);

/*
 * Tracks: found or created by (kind, pid, tid); pid/tid are text (numbers
 * as their decimal text). Names and sort order may be set later. Spans and
 * instants on a track of kind "profiler" (a profiler's own recording
 * window) are stored but not counted in the run's extent (ts_min/ts_max).
 * At most PR_WRITER_MAX_TRACKS per run: past it, a new key gets the overflow
 * track of its kind (kind "async": spans flat, no nesting; its kind, name
 * and sort order cannot be changed), with the diagnostic too_many_tracks
 * counting the events stored there.
 */
#define PR_WRITER_MAX_TRACKS 65536
int64_t pr_writer_track(struct pr_writer *w, const char *kind, const char *pid, const char *tid);
void pr_writer_track_set_kind(struct pr_writer *w, int64_t track, const char *kind);
void pr_writer_track_set_name(struct pr_writer *w, int64_t track, const char *name);
void pr_writer_track_set_sort(struct pr_writer *w, int64_t track, int64_t sort_index);
/* Process attributes apply to every track with this pid. */
void pr_writer_process_set_name(struct pr_writer *w, const char *pid, const char *name);

struct pr_span_in {
	int64_t track;
	const char *kind;  /* static string: op, step, phase, kernel, ... */
	int64_t name, cat; /* interned ids; cat 0 = none */
	int64_t ts, dur;   /* ns; dur >= 0 */
	const char *args;  /* JSON object text or NULL; see args_keys */
	size_t args_len;
	/* When set, args is pre-split: args_keys is a JSON array of names and
	 * args the JSON array of their values (as base/jscan.h produces). */
	const char *args_keys;
	size_t args_keys_len;
};

/* A complete span. Returns its id. */
int64_t pr_writer_span(struct pr_writer *w, const struct pr_span_in *s);
/* Opens a span (dur is ignored); returns its id. */
int64_t pr_writer_span_begin(struct pr_writer *w, const struct pr_span_in *s);
/*
 * Closes the most recent open span on the track at ts; args (JSON object
 * text or NULL) are merged into the span's args. Returns 0, or -1 when the
 * track has no open span.
 */
int pr_writer_span_end(struct pr_writer *w, int64_t track, int64_t ts, const char *args,
		       size_t args_len);
/* The same with pre-split args (keys/vals JSON arrays). */
int pr_writer_span_end_kv(struct pr_writer *w, int64_t track, int64_t ts, const char *keys,
			  size_t keys_len, const char *vals, size_t vals_len);

/* Series found or created by (name, device). unit: canonical unit
 * (bytes, ns, percent, celsius, watts, MHz, count, bytes/s); orig_unit as
 * the source wrote it. At most PR_WRITER_MAX_SERIES per run: past it 0 is
 * returned, and the samples given for it are dropped and counted in the
 * diagnostic too_many_series. */
#define PR_WRITER_MAX_SERIES 65536
int64_t pr_writer_series(struct pr_writer *w, const char *name, const char *device,
			 const char *unit, const char *orig_unit);
void pr_writer_sample(struct pr_writer *w, int64_t series, int64_t ts, double value);

void pr_writer_instant(struct pr_writer *w, int64_t track, int64_t name, int64_t cat, int64_t ts,
		       const char *scope, const char *args, size_t args_len);
void pr_writer_instant_kv(struct pr_writer *w, int64_t track, int64_t name, int64_t cat, int64_t ts,
			  const char *scope, const char *keys, size_t keys_len, const char *vals,
			  size_t vals_len);
void pr_writer_flow(struct pr_writer *w, const char *flow_id, char phase, int64_t track, int64_t ts,
		    int64_t name, int64_t cat, const char *bind);
/* origin: "reported" (the collector's own number) or "derived". span_id 0 = none. */
void pr_writer_metric(struct pr_writer *w, const char *name, double value, const char *unit,
		      int64_t span_id, const char *origin, const char *detail);

/*
 * Diagnostics are counted per code; the first occurrence keeps its
 * position and message. Give offset (>= 0) or line/col (> 0) or neither.
 */
void pr_writer_diag(struct pr_writer *w, const char *code, int64_t offset, long line, long col,
		    const char *fmt, ...) PR_PRINTF_LIKE(6, 7);

/*
 * Lets the ingest driver turn byte offsets into line/column: calls fn for
 * every diagnostic that has an offset and no line, in increasing offset order.
 */
typedef void pr_writer_locate_fn(void *ctx, int64_t offset, long *line, long *col);
void pr_writer_locate_diags(struct pr_writer *w, pr_writer_locate_fn *fn, void *ctx);

void pr_writer_get_stats(const struct pr_writer *w, struct pr_writer_stats *out);

/* The run's clock as written so far, for placing a side file (a phase log)
 * on it: the time origin when one was set, whether time is synthetic, and
 * the earliest start and latest end of any event written. */
struct pr_writer_clock {
	int has_origin, synthetic, has_ts;
	int64_t origin_ns, ts_min, ts_max;
};
void pr_writer_get_clock(const struct pr_writer *w, struct pr_writer_clock *out);

#endif
