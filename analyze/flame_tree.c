/*
 * flame_tree.c - flame's tree of host spans (flame_impl.h), built while the
 * shared span pass (spanstat.c) reads the spans in id order; flame
 * (an_flame.c) reads it. Calls neither of them: both call it.
 */
#include "analyze/flame_impl.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/spanbudget.h"
#include "base/xalloc.h"
#include "base/xsort.h"

size_t pr_flame_max_tree = 131072;

int pr_fl_span_node(const struct fl *f, int64_t id, int64_t *node)
{
	if (f->sparse)
		return pr_imap_get(&f->by_span, id, node);
	if (!f->ndense || id < f->base || (uint64_t)(id - f->base) >= f->ndense ||
	    f->dense[id - f->base] < 0)
		return 0;
	*node = f->dense[id - f->base];
	return 1;
}

static void set_span_node(struct fl *f, int64_t id, int64_t node)
{
	size_t i, old;
	if (!f->sparse && !f->ndense) {
		f->base = id;
		f->ndense = 4096;
		f->dense = pr_xreallocarray(NULL, f->ndense, sizeof(*f->dense));
		for (i = 0; i < f->ndense; i++)
			f->dense[i] = -1;
	}
	/* ids below the first, far apart, or more nodes than an int32: the map */
	f->nset++;
	if (!f->sparse &&
	    (id < f->base || (uint64_t)(id - f->base) > 4 * (uint64_t)f->nset + 65536 ||
	     node > INT32_MAX)) {
		for (i = 0; i < f->ndense; i++)
			if (f->dense[i] >= 0)
				pr_imap_put(&f->by_span, f->base + (int64_t)i, f->dense[i]);
		free(f->dense);
		f->dense = NULL;
		f->ndense = 0;
		f->sparse = 1;
	}
	if (f->sparse) {
		pr_imap_put(&f->by_span, id, node);
		return;
	}
	if ((uint64_t)(id - f->base) >= f->ndense) {
		old = f->ndense;
		while ((uint64_t)(id - f->base) >= f->ndense)
			f->ndense *= 2;
		f->dense = pr_xreallocarray(f->dense, f->ndense, sizeof(*f->dense));
		for (i = old; i < f->ndense; i++)
			f->dense[i] = -1;
	}
	f->dense[id - f->base] = (int32_t)node;
}

void pr_fl_release_spans(struct fl *f)
{
	pr_imap_release(&f->by_span);
	free(f->dense);
	f->dense = NULL;
	f->ndense = 0;
}

void pr_fl_release(struct fl *f)
{
	pr_imap_release(&f->by_key);
	pr_fl_release_spans(f);
	free(f->n);
	memset(f, 0, sizeof(*f));
}

long pr_fl_node_of(struct fl *f, long parent, int64_t code, int dev)
{
	int64_t key = ((int64_t)(parent + 1) << 33) | ((int64_t)(dev != 0) << 32) |
		      (int64_t)(uint32_t)(int32_t)code,
		v;
	if (pr_imap_get(&f->by_key, key, &v))
		return (long)v;
	if (f->nn >= pr_flame_max_tree && code != CODE_FOLD) {
		f->folded++;
		return pr_fl_node_of(f, parent, CODE_FOLD, 0);
	}
	if (f->nn == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 256;
		f->n = pr_xreallocarray(f->n, f->cap, sizeof(*f->n));
	}
	memset(&f->n[f->nn], 0, sizeof(f->n[f->nn]));
	f->n[f->nn].name_id = code;
	f->n[f->nn].parent = parent;
	f->n[f->nn].depth = parent < 0 ? 0 : f->n[parent].depth + 1;
	f->n[f->nn].dev = dev != 0;
	f->n[f->nn].first_child = f->n[f->nn].next = -1;
	pr_imap_put(&f->by_key, key, (int64_t)f->nn);
	return (long)f->nn++;
}

static void add_at(struct fl *f, int64_t id, int64_t pn, int64_t code, int64_t dur)
{
	long nd = pr_fl_node_of(f, (long)pn, code, 0);
	double d = (double)(dur > 0 ? dur : 0);
	f->n[nd].total += d;
	if (pn >= 0)
		f->n[pn].child += d;
	else
		f->root += d;
	set_span_node(f, id, (int64_t)nd);
}

/* Adds span (id, parent span, name, dur); 0 when its parent span is not read yet. */
int pr_fl_add_span(struct fl *f, int64_t id, int64_t parent, int has_parent, int64_t code,
		   int64_t dur)
{
	int64_t pn = -1;
	if (has_parent && !pr_fl_span_node(f, parent, &pn)) {
		if (parent > id)
			return 0; /* a parent with a larger id (a re-nested track): later */
		pn = -1;	  /* a parent left out (device, profiler window): a root */
	}
	add_at(f, id, pn, code, dur);
	return 1;
}

/* by_step: a selected step (sel != 0) under a span of the tree or as a root; another
 * span only under a span of the tree. */
void pr_fl_add_split(struct fl *s, int64_t id, int64_t parent, int has_parent, int64_t name_id,
		     int64_t sel, int64_t dur)
{
	int64_t pn = -1;
	int in = has_parent && pr_fl_span_node(s, parent, &pn);
	if (!sel && !in)
		return;
	add_at(s, id, in ? pn : -1, sel ? sel : name_id, dur);
}

static int64_t add_syn(struct pr_flame *fl, const char *name)
{
	fl->syn = pr_xreallocarray(fl->syn, fl->nsyn + 1, sizeof(*fl->syn));
	fl->syn[fl->nsyn] = pr_xstrdup(name);
	return CODE_SYN0 - (int64_t)fl->nsyn++;
}

static int by_slow(const void *a, const void *b)
{
	const struct step *x = *(const struct step *const *)a, *y = *(const struct step *const *)b;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_start(const void *a, const void *b)
{
	const struct step *x = *(const struct step *const *)a, *y = *(const struct step *const *)b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The run's steps (few: one a step), in id order: each its group's code (a
 * numbered name's group has a code of its own, named NAME-without-number*,
 * shared by the names of that group) and, for the FLAME_SPLIT_STEPS slowest,
 * a code of its own for by_step, numbered in start order.
 */
static void load_steps(struct pr_actx *ctx, struct pr_flame *fl)
{
	sqlite3_stmt *st;
	struct pr_error ignore = PR_ERROR_INIT;
	struct step **sel;
	size_t cap = 0, i, j, nsel;
	char **gname = NULL;
	int64_t *gcode = NULL;
	size_t ng = 0;
	if (pr_actx_prep(
		    ctx,
		    "SELECT s.id, s.ts, s.dur, s.name_id, t.value FROM span s LEFT JOIN string t "
		    "ON t.id = s.name_id WHERE s.run_id = ?1 AND s.kind = 'step' ORDER BY s.id "
		    "LIMIT ?2",
		    &st, &ignore))
		return;
	/* the steps the context has (the budget of spanstat.h) */
	sqlite3_bind_int64(st, 2, (int64_t)pr_spanstat_sp_max);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = pr_actx_text(st, 4);
		size_t n = strlen(name), k = n;
		struct step *s;
		if (fl->nsteps == cap) {
			cap = cap ? cap * 2 : 64;
			fl->steps = pr_xreallocarray(fl->steps, cap, sizeof(*fl->steps));
		}
		s = &fl->steps[fl->nsteps++];
		memset(s, 0, sizeof(*s));
		s->id = sqlite3_column_int64(st, 0);
		s->ts = sqlite3_column_int64(st, 1);
		s->dur = sqlite3_column_int64(st, 2);
		s->name_id = s->code = sqlite3_column_int64(st, 3);
		while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
			k--;
		if (k == n)
			continue; /* no number: the name is its group */
		fl->nmerged++;
		for (j = 0; j < ng; j++)
			if (strlen(gname[j]) == k + 1 && !strncmp(gname[j], name, k))
				break;
		if (j == ng) {
			char *g = pr_xmalloc(k + 2);
			memcpy(g, name, k);
			g[k] = '*';
			g[k + 1] = '\0';
			gname = pr_xreallocarray(gname, ng + 1, sizeof(*gname));
			gcode = pr_xreallocarray(gcode, ng + 1, sizeof(*gcode));
			gname[ng] = g;
			gcode[ng++] = add_syn(fl, g);
		}
		s->code = gcode[j];
	}
	sqlite3_finalize(st);
	for (j = 0; j < ng; j++)
		free(gname[j]);
	free(gname);
	free(gcode);
	if (!fl->nsteps)
		return;
	/* the slowest steps (longest first, then the first in id order), numbered by start */
	sel = pr_xreallocarray(NULL, fl->nsteps, sizeof(*sel));
	for (i = 0; i < fl->nsteps; i++)
		sel[i] = &fl->steps[i];
	if (fl->nsteps)
		qsort(sel, fl->nsteps, sizeof(*sel), by_slow);
	nsel = fl->nsteps < FLAME_SPLIT_STEPS ? fl->nsteps : FLAME_SPLIT_STEPS;
	if (nsel)
		qsort(sel, nsel, sizeof(*sel), by_start);
	for (i = 0; i < nsel; i++) {
		char *name = NULL;
		sqlite3_stmt *ns;
		if (!pr_actx_prep(ctx, "SELECT value FROM string WHERE id = ?2 AND ?1 IS NOT NULL",
				  &ns, &ignore)) {
			sqlite3_bind_int64(ns, 2, sel[i]->name_id);
			if (sqlite3_step(ns) == SQLITE_ROW)
				name = pr_xstrdup(pr_actx_text(ns, 0));
			sqlite3_finalize(ns);
		}
		sel[i]->sel = add_syn(fl, name ? name : "?");
		free(name);
	}
	fl->nsel = nsel;
	free(sel);
	fl->split.roots_by_code = 1;
}

struct pr_flame *pr_flame_new_steps(struct pr_actx *ctx, int steps)
{
	struct pr_flame *fl = pr_xcalloc(1, sizeof(struct pr_flame));
	if (steps)
		load_steps(ctx, fl);
	return fl;
}

struct pr_flame *pr_flame_new(struct pr_actx *ctx)
{
	if (pr_mnum(json_object_get(ctx->out, "counts"), "spans") > FLAME_MAX_SPANS)
		return NULL;
	return pr_flame_new_steps(ctx, 1);
}

int pr_flame_kind(const char *kind)
{
	static const char *const out[] = { "kernel",   "memcpy",   "memset", "gpu_annotation",
					   "gpu_step", "profiler", "async",  "profiler_range" };
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(out); i++)
		if (!strcmp(kind, out[i]))
			return 0;
	return 1;
}

void pr_flame_row(struct pr_flame *fl, int64_t id, int64_t parent, int has_parent, int64_t name_id,
		  int64_t dur)
{
	int64_t code = name_id, sel = 0;
	if (++fl->nspans > FLAME_MAX_SPANS)
		return;
	/* the rows come in id order, as the steps */
	while (fl->stepi < fl->nsteps && fl->steps[fl->stepi].id < id)
		fl->stepi++;
	if (fl->stepi < fl->nsteps && fl->steps[fl->stepi].id == id) {
		code = fl->steps[fl->stepi].code;
		sel = fl->steps[fl->stepi].sel;
	}
	if (!pr_fl_add_span(&fl->f, id, parent, has_parent, code, dur)) {
		if (fl->npend == fl->cappend) {
			fl->cappend = fl->cappend ? fl->cappend * 2 : 64;
			fl->pend = pr_xreallocarray(fl->pend, fl->cappend, sizeof(*fl->pend));
		}
		fl->pend[fl->npend++] = (struct pending){ id, parent, name_id, code, sel, dur };
		return;
	}
	if (fl->nsel)
		pr_fl_add_split(&fl->split, id, parent, has_parent, name_id, sel, dur);
}

void pr_flame_done(struct pr_flame *fl)
{
	if (fl->npend)
		return; /* the maps place the spans still waiting for their parent */
	/* the span maps stay: the device activities' calls are placed by them (run) */
	pr_imap_release(&fl->f.by_key);
	pr_imap_release(&fl->split.by_key);
	if (fl->f.nn && fl->f.nn < fl->f.cap) {
		fl->f.n = pr_xreallocarray(fl->f.n, fl->f.nn, sizeof(*fl->f.n));
		fl->f.cap = fl->f.nn;
	}
}

void pr_flame_free(struct pr_flame *fl)
{
	size_t i;
	if (!fl)
		return;
	free(fl->pend);
	pr_fl_release(&fl->f);
	pr_fl_release(&fl->split);
	free(fl->steps);
	for (i = 0; i < fl->nsyn; i++)
		free(fl->syn[i]);
	free(fl->syn);
	free(fl);
}
