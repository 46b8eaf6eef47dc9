/*
 * flame_impl.h - flame's tree of host spans, shared by the pieces of flame:
 * the builder (flame_tree.c, fed by the shared span pass) and the analyzer
 * that reads it (an_flame.c). Internal to analyze/.
 */
#ifndef PR_FLAME_IMPL_H
#define PR_FLAME_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/actx.h"
#include "base/imap.h"

#define FLAME_MAX_SPANS 2000000
#define FLAME_MAX_NODES 1500
#define FLAME_SPLIT_NODES 800
#define FLAME_SPLIT_STEPS 8
#define FLAME_MAX_DEPTH 40
#define FLAME_MIN_SHARE 0.001
/* The tree's nodes: past pr_flame_max_tree (131072: 7 MiB of nodes, about as much of maps),
 * a span on a new path goes to its parent's "(other paths)" node. */
extern size_t pr_flame_max_tree;

/* Name codes of the nodes: a string id (>= 0), or one of these, or SYN0 - k: syn[k]. */
#define CODE_FOLD (-1)	 /* "(other paths)" */
#define CODE_NOCALL (-2) /* "(no launching call)" */
#define CODE_SYN0 (-3)

struct node {
	int64_t name_id; /* the name's code */
	long parent;	 /* -1: under the root */
	int depth;
	int dev; /* a device activity (the gpu trees' leaves) */
	double total, child;
	long first_child, next; /* children lists, filled after the pass */
};

struct fl {
	struct node *n;
	size_t nn, cap;
	struct pr_imap by_key; /* (parent + 1) << 33 | dev << 32 | code -> node */
	/* span id -> node: dense (dense[id - base], -1 = none; 4 bytes a span, where
	 * the ids come in id order and close together, as a store's do) or else a map */
	int32_t *dense;
	int64_t base;
	size_t ndense, nset; /* nset: spans mapped */
	int sparse;
	struct pr_imap by_span;
	double root;
	int64_t folded;	   /* spans that went to an "(other paths)" node */
	int roots_by_code; /* roots in the order of their (step) codes, not by total */
};

/* A span waiting for its parent; code: its name in the merged tree, sel: in by_step (a
 * selected step's code, or 0: its own name) */
struct pending {
	int64_t id, parent, name_id, code, sel, dur;
};

/* A step span: its group's code (the merged name) and by_step's (0: not selected). */
struct step {
	int64_t id, ts, dur, name_id, code, sel;
};

/* The spans read so far: the trees, and the spans whose parent comes later. */
struct pr_flame {
	struct fl f, split;
	struct pending *pend;
	size_t npend, cappend, nspans;
	struct step *steps; /* id order */
	size_t nsteps, stepi, nmerged, nsel;
	char **syn; /* names of the codes CODE_SYN0 - k */
	size_t nsyn;
};

/* Flame's tree of host spans (an_flame.c), fed in id order by the shared span
 * pass: NULL when the run has too many spans for a flame graph; the kinds it
 * takes; one span; free (NULL is fine). */
struct pr_flame *pr_flame_new(struct pr_actx *ctx);
int pr_flame_kind(const char *kind);
void pr_flame_row(struct pr_flame *fl, int64_t id, int64_t parent, int has_parent, int64_t name_id,
		  int64_t dur);
/* The pass is over: only the tree is kept until flame reads it (the maps that built it go). */
void pr_flame_done(struct pr_flame *fl);
void pr_flame_free(struct pr_flame *fl);

/* The builder's pieces flame reads the tree with (flame_tree.c). */
int pr_fl_span_node(const struct fl *f, int64_t id, int64_t *node);
void pr_fl_release_spans(struct fl *f);
void pr_fl_release(struct fl *f);
long pr_fl_node_of(struct fl *f, long parent, int64_t code, int dev);
int pr_fl_add_span(struct fl *f, int64_t id, int64_t parent, int has_parent, int64_t code,
		   int64_t dur);
void pr_fl_add_split(struct fl *s, int64_t id, int64_t parent, int has_parent, int64_t name_id,
		     int64_t sel, int64_t dur);
struct pr_flame *pr_flame_new_steps(struct pr_actx *ctx, int steps);

#endif
