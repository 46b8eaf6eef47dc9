/*
 * writer_renest.c - at commit, the tracks whose spans did not arrive in start
 * order are nested again from their stored rows.
 */
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_impl.h"
#include "store/writer_impl.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

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
	return pr_wr_step_done(upd);
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
		rc = pr_wr_step_done(st);
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
int pr_wr_renest_unsorted(struct pr_writer *w, struct pr_error *err)
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
	if (pr_store_exec(w->st,
			  "CREATE TEMP TABLE IF NOT EXISTS pr_renest(id INTEGER PRIMARY KEY);"
			  "DELETE FROM temp.pr_renest",
			  err))
		return -1;
	if (sqlite3_prepare_v2(w->st->db, "INSERT INTO temp.pr_renest(id) VALUES(?1)", -1, &ins,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		    w->st->db,
		    "SELECT id, track_id, ts, dur FROM span WHERE id >= ?1 AND track_id IN "
		    "(SELECT id FROM temp.pr_renest) ORDER BY track_id, ts, dur DESC, id",
		    -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
		    w->st->db,
		    "UPDATE span SET parent_id = ?2, depth = ?3, self = ?4 WHERE id = ?1", -1, &upd,
		    NULL) != SQLITE_OK)
		goto out;
	for (i = 0; i < w->ntracks; i++) {
		if (!w->tracks[i].unsorted)
			continue;
		sqlite3_bind_int64(ins, 1, w->tracks[i].id);
		if (pr_wr_step_done(ins))
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
