/*
 * par.h - items of a command done by forked worker processes (-j N), their
 * results replayed by the parent in item order.
 *
 * USAGE
 *   int jobs;
 *   if (pr_par_jobs(pr_arg(cmd, a, "jobs"), &jobs, &err)) ...   (-j N, default: the CPUs)
 *   struct pr_par *p = pr_par_run(n, jobs, work, ctx, &err);     (forks the workers)
 *   for (i = 0; i < n; i++) {
 *       int st = pr_par_get(p, i, &rec, &err);                   (item i's record, in order)
 *       ...   st < 0: the item failed (err, as work set it); stop there
 *   }
 *   pr_par_free(p);                                              (stops and reaps the workers)
 *
 * work(ctx, i, rec, err) runs in a worker (a child of fork(): it sees the
 * parent's memory as it was at pr_par_run, and must open its own files and
 * SQLite connections) and returns a status: >= 0, with what the parent needs
 * appended to rec; < 0 with err set. Items go to the workers one at a time
 * from a shared counter (the next free item), so a slow item does not hold
 * up a whole slice; pr_par_get of item i returns as soon as item i is done
 * (a byte on a pipe from the worker that finished it, when the parent
 * waits for it), so the parent folds while the workers work. A parent
 * whose work per item is much less than a worker's can ask to wake once
 * for several items (pr_par_batch). A worker must never wait for the
 * parent. A failed item stops the workers from starting any item
 * after it (the parent stops there too). What an item writes to stderr is
 * kept with its record and written by pr_par_get, so stderr reads as with
 * one process. The records lie in one unlinked temporary file per worker
 * ($TMPDIR or /tmp): nothing of them stays on disk whatever ends the
 * process. The parent's memory is 16 bytes an item (the shared table)
 * besides the record read.
 *
 * Signals: a fatal signal to the parent (cli/main.c) kills the workers and
 * waits for them (pr_par_kill, async-signal-safe); a worker dies with its
 * parent (PR_SET_PDEATHSIG), each removing its own temporary files.
 *
 * With jobs <= 1 or n <= 1 nothing is forked: work runs in the parent, item
 * by item, and pr_par_get of item i runs it then (the old one-process path).
 */
#ifndef PR_CLI_PAR_H
#define PR_CLI_PAR_H

#include <stddef.h>

#include "base/error.h"
#include "base/strbuf.h"

struct pr_par;

typedef int pr_par_fn(void *ctx, size_t i, struct pr_strbuf *rec, struct pr_error *err);

/* -j's value (NULL: the CPUs this process may run on, sched_getaffinity). */
int pr_par_jobs(const char *arg, int *jobs, struct pr_error *err) PR_MUST_CHECK;
/* NULL with err when the workers could not be started (fork, temporary files). */
struct pr_par *pr_par_run(size_t n, int jobs, pr_par_fn *fn, void *ctx, struct pr_error *err);
/*
 * When pr_par_get must wait for item i, it waits for item i + k too (the
 * last item at most): for a parent that would otherwise wake at every item
 * (aggregate: k = 4 x jobs). Default 0: item i alone. No effect in one
 * process; p NULL is fine.
 */
void pr_par_batch(struct pr_par *p, size_t k);
/*
 * Item i's status (what work returned); rec gets its record (replaced), err
 * the item's error when the status is < 0. A worker that died before it
 * finished item i (killed, out of memory), or a record that cannot be read
 * back, is an error of item i: -1 (PR_E_IO).
 */
int pr_par_get(struct pr_par *p, size_t i, struct pr_strbuf *rec, struct pr_error *err);
/* Stops the workers (none starts another item) and reaps them. */
void pr_par_end(struct pr_par *p);
/* Item i's record again, its stderr not written again, after pr_par_end
 * (a record stays until pr_par_free); -1 with err when jobs came to one. */
int pr_par_reread(struct pr_par *p, size_t i, struct pr_strbuf *rec, struct pr_error *err);
/* pr_par_end, then frees the records. */
void pr_par_free(struct pr_par *p);
/* A function each worker calls when it has no item left, before it exits
 * (a worker's own cleanup: a store it kept from item to item); for the
 * next pr_par_run only. NULL: none. */
void pr_par_worker_end(void (*fn)(void *ctx));
/* Kills and reaps the live workers (from a signal handler). */
void pr_par_kill(void);

#endif
