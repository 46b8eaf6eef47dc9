/*
 * merge.c - a run written into a store of its own, copied into the store
 * (store.h, "A run copied from another store"; ingest -j).
 *
 * A worker process ingests one file into a store of its own, empty before
 * it, so that the run's ids all start at 1; pr_store_take_run() writes the
 * run's rows into a compact stream (and empties that store for the next
 * file), and pr_store_merge_run() copies them into the store: every id is
 * the store's next id of its table plus the worker's id minus one (the
 * writer numbers a run's rows from the store's max(id) + 1 on, the same way
 * whatever that base), and the strings and argkeys lists are interned in
 * the store's own maps in the order of their ids in the worker's store,
 * which is the order the run first used them. So the rows are the ones
 * ingesting the file here would have written (ids, values, and, for the
 * tables without ids, their order).
 *
 * The stream: the run's content hash (u32 length, bytes), then per table
 * (string, argkeys, then tables[] in order) a u32 count of rows and the
 * rows, each column a type byte (SQLITE_INTEGER, _FLOAT, _TEXT, _BLOB,
 * _NULL) and its value (8 bytes; or a u32 length and the bytes; or none).
 */
#include "store/store.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

/* How a column's value is carried over, one letter per column: k as it is,
 * r the run's id, s a span id, t a track id, e a series id, m a metric id
 * (each: the store's next id of its table + the worker's - 1), n a string
 * id, a an argkeys id (interned). */
struct table {
	const char *sel; /* the rows in the worker's store, in the order inserted */
	const char *ins; /* into the store */
	const char *how; /* per column, as above */
};

static const struct table tables[] = {
	{ "SELECT id, value FROM string ORDER BY id",
	  "INSERT INTO main.string(id, value) VALUES(?1, ?2)", "kk" },
	{ "SELECT id, keys FROM argkeys ORDER BY id",
	  "INSERT INTO main.argkeys(id, keys) VALUES(?1, ?2)", "kk" },
	{ "SELECT id, run_id, kind, pid, tid, name, process_name, sort_index FROM track "
	  "ORDER BY rowid",
	  "INSERT INTO main.track(id, run_id, kind, pid, tid, name, process_name, "
	  "sort_index) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	  "trkkkkkk" },
	{ "SELECT id, run_id, track_id, kind, name_id, cat_id, ts, dur, self, depth, "
	  "parent_id, args_keys, args FROM span ORDER BY rowid",
	  "INSERT INTO main.span(id, run_id, track_id, kind, name_id, cat_id, ts, dur, "
	  "self, depth, parent_id, args_keys, args) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, "
	  "?8, ?9, ?10, ?11, ?12, ?13)",
	  "srtknnkkkksak" },
	{ "SELECT id, run_id, name, device, unit, orig_unit, count, min, max, ts_min, "
	  "ts_max FROM series ORDER BY rowid",
	  "INSERT INTO main.series(id, run_id, name, device, unit, orig_unit, count, min, "
	  "max, ts_min, ts_max) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	  "erkkkkkkkkk" },
	{ "SELECT series_id, ts, seq, value FROM sample",
	  "INSERT INTO main.sample(series_id, ts, seq, value) VALUES(?1, ?2, ?3, ?4)", "ekkk" },
	{ "SELECT run_id, track_id, name_id, cat_id, ts, scope, args_keys, args FROM "
	  "instant ORDER BY rowid",
	  "INSERT INTO main.instant(run_id, track_id, name_id, cat_id, ts, scope, "
	  "args_keys, args) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	  "rtnnkkak" },
	{ "SELECT run_id, flow_id, phase, track_id, ts, name_id, cat_id, bind FROM flow "
	  "ORDER BY rowid",
	  "INSERT INTO main.flow(run_id, flow_id, phase, track_id, ts, name_id, cat_id, "
	  "bind) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	  "rkktknnk" },
	{ "SELECT run_id, ts, end_ts FROM op_cover ORDER BY rowid",
	  "INSERT INTO main.op_cover(run_id, ts, end_ts) VALUES(?1, ?2, ?3)", "rkk" },
	{ "SELECT span_id, run_id, p_kind, p_name_id, p_ts, p_parent_id, q_kind, "
	  "q_name_id, q_parent_id FROM span_up ORDER BY rowid",
	  "INSERT INTO main.span_up(span_id, run_id, p_kind, p_name_id, p_ts, "
	  "p_parent_id, q_kind, q_name_id, q_parent_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, "
	  "?7, ?8, ?9)",
	  "srknkskns" },
	{ "SELECT id, run_id, name, value, unit, span_id, origin, detail FROM metric "
	  "ORDER BY rowid",
	  "INSERT INTO main.metric(id, run_id, name, value, unit, span_id, origin, "
	  "detail) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	  "mrkkkskk" },
	{ "SELECT run_id, code, count, line, col, offset, message FROM diag ORDER BY "
	  "rowid",
	  "INSERT INTO main.diag(run_id, code, count, line, col, offset, message) "
	  "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	  "rkkkkkk" },
	{ "SELECT id, format, collector, label, source, content_hash, bytes, rank, "
	  "world_size, time_origin_ns, time_synthetic, ts_min, ts_max, span_count, "
	  "sample_count, instant_count, meta FROM run ORDER BY rowid",
	  "INSERT INTO main.run(id, format, collector, label, source, content_hash, "
	  "bytes, rank, world_size, time_origin_ns, time_synthetic, ts_min, ts_max, "
	  "span_count, sample_count, instant_count, meta) VALUES(?1, ?2, ?3, ?4, ?5, ?6, "
	  "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
	  "rkkkkkkkkkkkkkkkk" },
	{ "SELECT run_id, key, value FROM run_meta",
	  "INSERT INTO main.run_meta(run_id, key, value) VALUES(?1, ?2, ?3)", "rkk" },
};

#define NTABLES (sizeof(tables) / sizeof(tables[0]))
enum {
	T_STRING,
	T_ARGKEYS,
	T_ROWS
}; /* tables[]: the two interned ones first */

/* The next ids read from the store, in this order. */
enum {
	ID_RUN,
	ID_SPAN,
	ID_STRING,
	ID_TRACK,
	ID_SERIES,
	ID_METRIC,
	ID_ARGKEYS,
	ID_N
};

static const char *const next_sql[ID_N] = {
	"SELECT ifnull(max(id), 0) + 1 FROM run",     "SELECT ifnull(max(id), 0) + 1 FROM span",
	"SELECT ifnull(max(id), 0) + 1 FROM string",  "SELECT ifnull(max(id), 0) + 1 FROM track",
	"SELECT ifnull(max(id), 0) + 1 FROM series",  "SELECT ifnull(max(id), 0) + 1 FROM metric",
	"SELECT ifnull(max(id), 0) + 1 FROM argkeys",
};

struct pr_store_merge {
	struct pr_store *st;
	sqlite3_stmt *ins[NTABLES], *next[ID_N], *find, *count;
	int ready;			 /* statements and maps of the open transaction */
	int indexed_runs, indexed_kinds; /* made (or found) in this transaction */
	struct pr_strmap strings, argkeys;
	int64_t *map[2]; /* the worker's string / argkeys id -> the store's */
	size_t nmap[2];
};

static void finalize_all(struct pr_store_merge *m)
{
	size_t i;
	for (i = 0; i < NTABLES; i++) {
		sqlite3_finalize(m->ins[i]);
		m->ins[i] = NULL;
	}
	for (i = 0; i < ID_N; i++) {
		sqlite3_finalize(m->next[i]);
		m->next[i] = NULL;
	}
	sqlite3_finalize(m->find);
	sqlite3_finalize(m->count);
	m->find = m->count = NULL;
	m->ready = 0;
}

static int sqlerr(sqlite3 *db, struct pr_error *err)
{
	return pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
}

static int prep(sqlite3 *db, const char *sql, sqlite3_stmt **out, struct pr_error *err)
{
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL) == SQLITE_OK)
		return 0;
	return sqlerr(db, err);
}

static int load_map(sqlite3 *db, const char *sql, struct pr_strmap *map, struct pr_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;
	pr_strmap_release(map);
	if (prep(db, sql, &q, err))
		return -1;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const void *v = sqlite3_column_text(q, 1);
		int n = sqlite3_column_bytes(q, 1);
		pr_strmap_put(map, v ? v : "", (size_t)n, sqlite3_column_int64(q, 0));
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : sqlerr(db, err);
}

/* The statements and maps of a transaction just begun. */
static int setup(struct pr_store_merge *m, struct pr_error *err)
{
	sqlite3 *db = m->st->db;
	size_t i;
	int rc = 0;
	for (i = 0; i < NTABLES && !rc; i++)
		rc = prep(db, tables[i].ins, &m->ins[i], err);
	for (i = 0; i < ID_N && !rc; i++)
		rc = prep(db, next_sql[i], &m->next[i], err);
	if (rc || prep(db, "SELECT id FROM run WHERE content_hash = ?1", &m->find, err) ||
	    prep(db, "SELECT count(*) FROM (SELECT 1 FROM run LIMIT 2)", &m->count, err) ||
	    load_map(db, "SELECT id, value FROM string", &m->strings, err) ||
	    load_map(db, "SELECT id, keys FROM argkeys", &m->argkeys, err)) {
		finalize_all(m);
		return -1;
	}
	m->indexed_runs = m->indexed_kinds = 0;
	m->ready = 1;
	return 0;
}

int pr_store_merge_open(struct pr_store *st, struct pr_store_merge **out, struct pr_error *err)
{
	struct pr_store_merge *m;
	*out = NULL;
	if (st->readonly)
		return pr_error_set(err, PR_E_STORE, "store is read-only");
	m = pr_xcalloc(1, sizeof(*m));
	m->st = st;
	*out = m;
	return 0;
}

void pr_store_merge_close(struct pr_store_merge *m)
{
	if (!m)
		return;
	finalize_all(m);
	pr_strmap_release(&m->strings);
	pr_strmap_release(&m->argkeys);
	free(m->map[0]);
	free(m->map[1]);
	free(m);
}

static int64_t step_int(sqlite3_stmt *q)
{
	int64_t v = 0;
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_reset(q);
	return v;
}

/* Forgets the entries interned with an id from `from` on (a run not stored). */
static void forget_from(struct pr_strmap *map, int64_t from)
{
	size_t i;
	for (i = 0; i < map->cap; i++) {
		const struct pr_strmap_slot *sl = &map->slots[i];
		if (sl->hash > 1 && sl->value >= from)
			pr_strmap_del(map, map->arena + sl->off, sl->len, NULL);
	}
}

/* ---- the stream ---- */

static void put_u32(struct pr_strbuf *out, uint32_t v)
{
	pr_strbuf_add(out, &v, sizeof(v));
}

static void put_value(struct pr_strbuf *out, sqlite3_stmt *q, int k)
{
	int type = sqlite3_column_type(q, k);
	char t = (char)type;
	pr_strbuf_addch(out, t);
	if (type == SQLITE_INTEGER) {
		int64_t v = sqlite3_column_int64(q, k);
		pr_strbuf_add(out, &v, sizeof(v));
	} else if (type == SQLITE_FLOAT) {
		double v = sqlite3_column_double(q, k);
		pr_strbuf_add(out, &v, sizeof(v));
	} else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
		const void *v = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(q, k)
						    : sqlite3_column_blob(q, k);
		uint32_t n = (uint32_t)sqlite3_column_bytes(q, k);
		put_u32(out, n);
		if (n)
			pr_strbuf_add(out, v, n);
	}
}

/* What pr_store_take_run empties, after reading: every table of a run. */
static const char *const empty_sql[] = {
	"DELETE FROM string",	"DELETE FROM argkeys",	   "DELETE FROM track",
	"DELETE FROM span",	"DELETE FROM series",	   "DELETE FROM sample",
	"DELETE FROM instant",	"DELETE FROM flow",	   "DELETE FROM op_cover",
	"DELETE FROM span_up",	"DELETE FROM metric",	   "DELETE FROM diag",
	"DELETE FROM run_meta", "DELETE FROM model_cache", "DELETE FROM run",
};

#define NEMPTY (sizeof(empty_sql) / sizeof(empty_sql[0]))
/* st->take: the head's query, tables[]'s reads, then the deletes */
#define TAKE_HEAD 0
#define TAKE_SEL 1
#define TAKE_DEL (TAKE_SEL + NTABLES)

/* Statement k of st->take, prepared once (its SQL: sql). NULL with err. */
static sqlite3_stmt *take_stmt(struct pr_store *st, size_t k, const char *sql, struct pr_error *err)
{
	sqlite3_stmt *q = st->take[k];
	if (q && sqlite3_db_handle(q) != st->db) { /* the connection was opened again */
		pr_store_take_drop(st);
		q = NULL;
	}
	if (!q && prep(st->db, sql, &st->take[k], err))
		return NULL;
	return st->take[k];
}

int pr_store_take_run(struct pr_store *st, struct pr_strbuf *out, struct pr_error *err)
{
	sqlite3_stmt *q;
	size_t t;
	int rc = -1;
	(void)sizeof(char[TAKE_DEL + NEMPTY <= sizeof(st->take) / sizeof(st->take[0]) ? 1 : -1]);
	if (pr_store_begin_write(st, err))
		return -1;
	q = take_stmt(st, TAKE_HEAD, "SELECT content_hash, (SELECT count(*) FROM run) FROM run",
		      err);
	if (!q)
		goto out;
	if (sqlite3_step(q) != SQLITE_ROW || sqlite3_column_int64(q, 1) != 1) {
		sqlite3_reset(q);
		pr_error_set(err, PR_E_STORE, "the store does not hold one run");
		goto out;
	}
	put_value(out, q, 0);
	sqlite3_reset(q);
	for (t = 0; t < NTABLES; t++) {
		size_t at = out->len;
		uint32_t n = 0;
		int k, ncols = (int)strlen(tables[t].how);
		put_u32(out, 0);
		if (!(q = take_stmt(st, TAKE_SEL + t, tables[t].sel, err)))
			goto out;
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			for (k = 0; k < ncols; k++)
				put_value(out, q, k);
			n++;
		}
		sqlite3_reset(q);
		if (rc != SQLITE_DONE) {
			rc = sqlerr(st->db, err);
			goto out;
		}
		memcpy(out->buf + at, &n, sizeof(n));
	}
	for (t = 0; t < NEMPTY; t++) {
		if (!(q = take_stmt(st, TAKE_DEL + t, empty_sql[t], err)))
			goto out;
		rc = sqlite3_step(q);
		sqlite3_reset(q);
		if (rc != SQLITE_DONE) {
			rc = sqlerr(st->db, err);
			goto out;
		}
	}
	rc = 0;
out:
	if (rc) {
		pr_store_abort_write(st);
		return -1;
	}
	return pr_store_end_write(st, err);
}

/* A reader of the stream; a stream cut short or malformed sets bad. */
struct rd {
	const unsigned char *p, *end;
	int bad;
};

static uint32_t get_u32(struct rd *r)
{
	uint32_t v = 0;
	if ((size_t)(r->end - r->p) < sizeof(v)) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, sizeof(v));
	r->p += sizeof(v);
	return v;
}

/* Binds the next value to column k of ins (how: the column's mapping). */
static int64_t get_value(struct rd *r, sqlite3_stmt *ins, int k, char how,
			 const struct pr_store_merge *m, const int64_t next[ID_N])
{
	int type;
	int64_t v = 0;
	double d;
	uint32_t n;
	if (r->p >= r->end) {
		r->bad = 1;
		return 0;
	}
	type = *r->p++;
	switch (type) {
	case SQLITE_INTEGER:
		if ((size_t)(r->end - r->p) < sizeof(v)) {
			r->bad = 1;
			return 0;
		}
		memcpy(&v, r->p, sizeof(v));
		r->p += sizeof(v);
		switch (how) {
		case 'r':
			v = next[ID_RUN];
			break;
		case 's':
			v += next[ID_SPAN] - 1;
			break;
		case 't':
			v += next[ID_TRACK] - 1;
			break;
		case 'e':
			v += next[ID_SERIES] - 1;
			break;
		case 'm':
			v += next[ID_METRIC] - 1;
			break;
		case 'n':
		case 'a': {
			int w = how == 'a';
			v = v >= 0 && (size_t)v < m->nmap[w] ? m->map[w][v] : 0;
			break;
		}
		default:
			break;
		}
		if (ins)
			sqlite3_bind_int64(ins, k + 1, v);
		return v;
	case SQLITE_FLOAT:
		if ((size_t)(r->end - r->p) < sizeof(d)) {
			r->bad = 1;
			return 0;
		}
		memcpy(&d, r->p, sizeof(d));
		r->p += sizeof(d);
		if (ins)
			sqlite3_bind_double(ins, k + 1, d);
		return 0;
	case SQLITE_TEXT:
	case SQLITE_BLOB:
		n = get_u32(r);
		if (r->bad || (size_t)(r->end - r->p) < n) {
			r->bad = 1;
			return 0;
		}
		if (ins && type == SQLITE_TEXT)
			sqlite3_bind_text(ins, k + 1, (const char *)r->p, (int)n, SQLITE_STATIC);
		else if (ins)
			sqlite3_bind_blob(ins, k + 1, r->p, (int)n, SQLITE_STATIC);
		r->p += n;
		return 0;
	case SQLITE_NULL:
		if (ins)
			sqlite3_bind_null(ins, k + 1);
		return 0;
	default:
		r->bad = 1;
		return 0;
	}
}

/* The rows (id, text) of the string or argkeys table: interned in the
 * store's map, new ones inserted with the next ids. */
static int intern(struct pr_store_merge *m, struct rd *r, int w, int64_t next, struct pr_error *err)
{
	struct pr_strmap *map = w ? &m->argkeys : &m->strings;
	sqlite3_stmt *ins = m->ins[w ? T_ARGKEYS : T_STRING];
	uint32_t i, n = get_u32(r);
	for (i = 0; i < n && !r->bad; i++) {
		const unsigned char *at;
		int64_t wid, id;
		uint32_t len;
		if (r->end - r->p < 10 || r->p[0] != SQLITE_INTEGER) {
			r->bad = 1;
			break;
		}
		memcpy(&wid, r->p + 1, sizeof(wid));
		r->p += 9;
		if (*r->p++ != SQLITE_TEXT || (len = get_u32(r), r->bad) ||
		    (size_t)(r->end - r->p) < len || wid < 1 || wid > (int64_t)1 << 40) {
			r->bad = 1;
			break;
		}
		at = r->p;
		r->p += len;
		if ((size_t)wid >= m->nmap[w]) {
			size_t cap = m->nmap[w] ? m->nmap[w] : 256;
			while (cap <= (size_t)wid)
				cap *= 2;
			m->map[w] = pr_xreallocarray(m->map[w], cap, sizeof(*m->map[w]));
			memset(m->map[w] + m->nmap[w], 0, (cap - m->nmap[w]) * sizeof(*m->map[w]));
			m->nmap[w] = cap;
		}
		if (!pr_strmap_get(map, at, len, &id)) {
			int rc;
			id = next++;
			pr_strmap_put(map, at, len, id);
			sqlite3_bind_int64(ins, 1, id);
			sqlite3_bind_text(ins, 2, (const char *)at, (int)len, SQLITE_STATIC);
			rc = sqlite3_step(ins);
			sqlite3_reset(ins);
			if (rc != SQLITE_DONE)
				return sqlerr(m->st->db, err);
		}
		m->map[w][wid] = id;
	}
	return 0;
}

/* One table's rows from the stream. */
static int copy_table(struct pr_store_merge *m, struct rd *r, size_t t, const int64_t next[ID_N],
		      struct pr_error *err)
{
	const struct table *tb = &tables[t];
	sqlite3_stmt *ins = m->ins[t];
	uint32_t i, n = get_u32(r);
	int k, ncols = (int)strlen(tb->how);
	for (i = 0; i < n && !r->bad; i++) {
		int rc;
		for (k = 0; k < ncols; k++)
			get_value(r, ins, k, tb->how[k], m, next);
		if (r->bad)
			break;
		rc = sqlite3_step(ins);
		sqlite3_reset(ins);
		if (rc != SQLITE_DONE)
			return sqlerr(m->st->db, err);
	}
	return 0;
}

/* The run's indexes, as the writer's commit makes them (writer_session.c). */
static int make_indexes(struct pr_store_merge *m, struct pr_error *err)
{
	if (!m->indexed_runs && step_int(m->count) > 1) {
		if (pr_store_exec(m->st, pr_store_run_index_sql, err))
			return -1;
		m->indexed_runs = 1;
	}
	if (!m->indexed_kinds) {
		if (pr_store_exec(m->st, pr_store_kind_index_sql, err))
			return -1;
		m->indexed_kinds = 1;
	}
	return 0;
}

/* The stream's run into the store, in the open transaction (savepoint). */
static int copy_run(struct pr_store_merge *m, struct rd *r, int64_t *run_id, struct pr_error *err)
{
	int64_t next[ID_N];
	size_t i;
	int rc;
	uint32_t n;
	if (r->end - r->p < 5 || *r->p++ != SQLITE_TEXT || (n = get_u32(r), r->bad) ||
	    (size_t)(r->end - r->p) < n)
		goto bad;
	sqlite3_bind_text(m->find, 1, (const char *)r->p, (int)n, SQLITE_STATIC);
	r->p += n;
	rc = sqlite3_step(m->find);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(m->find, 0);
	sqlite3_reset(m->find);
	sqlite3_clear_bindings(m->find);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		return sqlerr(m->st->db, err);
	for (i = 0; i < ID_N; i++)
		next[i] = step_int(m->next[i]);
	if (intern(m, r, 0, next[ID_STRING], err) || intern(m, r, 1, next[ID_ARGKEYS], err))
		goto fail;
	for (i = T_ROWS; i < NTABLES && !r->bad; i++)
		if (copy_table(m, r, i, next, err))
			goto fail;
	for (i = 0; i < NTABLES; i++)
		sqlite3_clear_bindings(m->ins[i]);
	if (r->bad || r->p != r->end) {
		forget_from(&m->strings, next[ID_STRING]);
		forget_from(&m->argkeys, next[ID_ARGKEYS]);
		goto bad;
	}
	if (make_indexes(m, err))
		goto fail;
	*run_id = next[ID_RUN];
	return 0;
fail:
	for (i = 0; i < NTABLES; i++)
		sqlite3_clear_bindings(m->ins[i]);
	forget_from(&m->strings, next[ID_STRING]);
	forget_from(&m->argkeys, next[ID_ARGKEYS]);
	return -1;
bad:
	return pr_error_set(err, PR_E_STORE, "a run's rows from a worker are cut short or damaged");
}

int pr_store_merge_run(struct pr_store_merge *m, const void *rows, size_t len, int64_t *run_id,
		       struct pr_error *err)
{
	struct pr_store *st = m->st;
	struct rd r = { rows, (const unsigned char *)rows + len, 0 };
	int rc;
	*run_id = 0;
	/* a new transaction may reopen the connection: nothing prepared across it */
	if (!st->group_txn)
		finalize_all(m);
	if (pr_store_begin_write(st, err))
		return -1;
	if (!m->ready && setup(m, err)) {
		pr_store_abort_write(st);
		return -1;
	}
	rc = copy_run(m, &r, run_id, err);
	if (rc) {
		pr_store_abort_write(st);
		if (!st->group_txn)
			finalize_all(m);
		return rc;
	}
	if (pr_store_end_write(st, err)) {
		pr_store_abort_write(st);
		finalize_all(m);
		return -1;
	}
	if (!st->group_txn)
		finalize_all(m);
	return 0;
}
