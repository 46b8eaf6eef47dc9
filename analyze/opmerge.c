/*
 * opmerge.c - TensorBoard's merge of an op into a same-name parent (see
 * opmerge.h). TensorBoard builds each thread's op tree by time nesting,
 * then, from the root down, replaces an OPERATOR node whose only child is
 * an OPERATOR of the same name by that node holding the child's children
 * and runtime calls (again, until its only child has another name): the
 * child is no longer a call of its own. Runtime calls are not children
 * there (they hang off their op by external id), so they are not counted
 * here either, nor device activities; every other host span is (ops,
 * annotations, Python functions, steps).
 *
 * HOW: two scans of the run's spans, memory in the candidates only. First
 * the op spans whose parent is an op of the same name and holds them whole
 * (the parent found by its primary key; TensorBoard nests a span only
 * inside one that outlasts it, where the store also takes a span that
 * overlaps its predecessor's end as its child): the candidate pairs,
 * usually few. Then, when there are
 * any, every counted span with a parent: its parent's children are counted
 * where the parent is a candidate's. A candidate whose parent has one
 * counted child is absorbed.
 */
#include <sqlite3.h>
#include <stdlib.h>

#include "analyze/actx.h"
#include "analyze/opmerge.h"
#include "base/xalloc.h"

int pr_opmerge_absorbed(const struct pr_opmerge *m, int64_t id)
{
	int64_t v;
	return m && m->n && pr_imap_get(&m->child, id, &v);
}

int pr_opmerge_absorber(const struct pr_opmerge *m, int64_t id)
{
	int64_t v;
	return m && m->n && pr_imap_get(&m->parent, id, &v);
}

int64_t pr_opmerge_top(const struct pr_opmerge *m, int64_t id)
{
	int64_t top;
	return m && m->n && pr_imap_get(&m->top, id, &top) ? top : id;
}

/*
 * Each absorbed op's top, once: up from it to the first op not absorbed or whose top is
 * known, then that top to every op on the way (a chain of n costs O(n), not O(n^2)). The
 * path is bounded by the absorbed ops (a store's nesting has no cycle; bounded anyway).
 */
static void tops(struct pr_opmerge *m)
{
	int64_t *path = pr_xreallocarray(NULL, (size_t)m->n + 1, sizeof(int64_t));
	size_t i;
	for (i = 0; i < m->child.cap; i++) {
		int64_t id = m->child.slots[i].key, up, t;
		size_t n = 0, k;
		if (id == INT64_MIN || pr_imap_get(&m->top, id, &t))
			continue;
		t = id;
		while (n <= (size_t)m->n && pr_imap_get(&m->child, t, &up)) {
			path[n++] = t;
			if (pr_imap_get(&m->top, up, &t))
				break;
			t = up;
		}
		for (k = 0; k < n; k++)
			pr_imap_put(&m->top, path[k], t);
	}
	free(path);
}

int64_t pr_opmerge_name(const struct pr_opmerge *m, int64_t name_id, int64_t *dur)
{
	int64_t k;
	*dur = 0;
	if (!m || !m->n || !pr_imap_get(&m->by_name, name_id, &k))
		return 0;
	*dur = m->name_dur[k];
	return m->name_calls[k];
}

void pr_opmerge_free(struct pr_opmerge *m)
{
	if (!m)
		return;
	pr_imap_release(&m->by_name);
	free(m->name_calls);
	free(m->name_dur);
	pr_imap_release(&m->child);
	pr_imap_release(&m->parent);
	pr_imap_release(&m->top);
	free(m);
}

/* The absorbed ops' names and durations, one lookup by id each (saturated sums). */
static int by_name(struct pr_actx *ctx, struct pr_opmerge *m, struct pr_error *err)
{
	sqlite3_stmt *st;
	size_t i;
	if (pr_actx_prep(ctx, "SELECT name_id, dur FROM span WHERE id = ?2 AND ?1 IS NOT NULL", &st,
			 err))
		return -1;
	for (i = 0; i < m->child.cap; i++) {
		int64_t id = m->child.slots[i].key, k, name, dur;
		if (id == INT64_MIN)
			continue;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 2, id);
		if (sqlite3_step(st) != SQLITE_ROW)
			continue;
		name = sqlite3_column_int64(st, 0);
		dur = sqlite3_column_int64(st, 1);
		if (!pr_imap_get(&m->by_name, name, &k)) {
			k = (int64_t)m->nnames++;
			m->name_calls = pr_xreallocarray(m->name_calls, m->nnames, sizeof(int64_t));
			m->name_dur = pr_xreallocarray(m->name_dur, m->nnames, sizeof(int64_t));
			m->name_calls[k] = 0;
			m->name_dur[k] = 0;
			pr_imap_put(&m->by_name, name, k);
		}
		m->name_calls[k]++;
		if (dur > INT64_MAX - m->name_dur[k]) /* durations are >= 0 (store/writer.c) */
			m->name_dur[k] = INT64_MAX;
		else
			m->name_dur[k] += dur;
	}
	sqlite3_finalize(st);
	return 0;
}

static int find(struct pr_actx *ctx, struct pr_opmerge *m, struct pr_error *err)
{
	sqlite3_stmt *st;
	struct pr_imap cand = { 0 }; /* candidate parent -> its same-name op child (-1: two) */
	struct pr_imap kids = { 0 }; /* candidate parent -> counted children */
	int rc, ret = -1;
	size_t i;
	if (pr_actx_prep(ctx,
			 "SELECT s.id, s.parent_id FROM span s JOIN span p ON p.id = s.parent_id "
			 "WHERE s.run_id = ?1 AND s.kind = 'op' AND p.kind = 'op' "
			 "AND p.name_id = s.name_id AND s.ts + s.dur <= p.ts + p.dur",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t c = sqlite3_column_int64(st, 0), p = sqlite3_column_int64(st, 1), v;
		pr_imap_put(&cand, p, pr_imap_get(&cand, p, &v) ? -1 : c);
		pr_imap_put(&kids, p, 0);
	}
	if (pr_actx_done(ctx, st, rc, err))
		goto out;
	if (!cand.n) {
		ret = 0;
		goto out;
	}
	if (pr_actx_prep(ctx,
			 "SELECT parent_id FROM span WHERE run_id = ?1 AND parent_id IS NOT NULL "
			 "AND kind NOT IN ('runtime', 'kernel', 'memcpy', 'memset', "
			 "'gpu_annotation', 'gpu_step')",
			 &st, err))
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t p = sqlite3_column_int64(st, 0), n;
		if (pr_imap_get(&kids, p, &n))
			pr_imap_put(&kids, p, n + 1);
	}
	if (pr_actx_done(ctx, st, rc, err))
		goto out;
	for (i = 0; i < cand.cap; i++) {
		const struct pr_imap_slot *s = &cand.slots[i];
		int64_t n;
		if (s->key == INT64_MIN || s->val < 0 || !pr_imap_get(&kids, s->key, &n) || n != 1)
			continue;
		pr_imap_put(&m->child, s->val, s->key);
		pr_imap_put(&m->parent, s->key, s->val);
		m->n++;
	}
	if (m->n)
		tops(m);
	ret = m->n ? by_name(ctx, m, err) : 0;
out:
	pr_imap_release(&cand);
	pr_imap_release(&kids);
	return ret;
}

const struct pr_opmerge *pr_opmerge_get(struct pr_actx *ctx, struct pr_error *err)
{
	struct pr_opmerge *m;
	if (ctx->opmerge)
		return ctx->opmerge;
	m = pr_xcalloc(1, sizeof(*m));
	if (find(ctx, m, err)) {
		pr_opmerge_free(m);
		return NULL;
	}
	ctx->opmerge = m;
	return m;
}
