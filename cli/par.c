/* par.c - items done by forked workers, replayed in order by the parent (par.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT, MAP_ANONYMOUS */
#include "cli/par.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/decimal.h"
#include "base/output.h"
#include "base/xalloc.h"

/* -j's ceiling: more workers than this only cost memory. */
#define MAX_JOBS 256

/* Slot states: what the parent reads of an item. */
enum {
	SLOT_FREE,
	SLOT_STARTED,
	SLOT_DONE
};

struct slot {
	atomic_int state;
	int worker;  /* who started it */
	int64_t off; /* its record in that worker's file */
};

/* Shared by the parent and the workers (MAP_SHARED, anonymous). */
struct shared {
	atomic_size_t next;    /* the next item to start */
	atomic_size_t fail_at; /* the lowest failed item, or n */
	/* the parent waits until items want_lo and want_hi are done (want_hi: n
	 * or more when it does not wait): the workers wake it then, not before */
	atomic_size_t want_lo, want_hi;
	struct slot slots[];
};

/* A record's head in a worker's file; a failed item's pr_error follows, then
 * the record, then what it wrote to stderr. */
struct rec_head {
	int32_t status;
	uint32_t pad;
	uint64_t reclen, errlen;
};

struct pr_par {
	size_t n;
	int jobs, serial;
	pr_par_fn *fn;
	void *ctx;
	struct shared *sh;
	size_t shsize;
	int *fds;		/* one result file per worker (unlinked) */
	int *status;		/* each worker's wait status, once reaped */
	int nkids;		/* workers started */
	int note[2];		/* a byte from a worker when what the parent waits for is done;
				 * EOF once all have ended */
	size_t batch;		/* pr_par_batch's */
	void (*end)(void *ctx); /* pr_par_worker_end's */
};

static void (*next_end)(void *ctx); /* for the next pr_par_run */

void pr_par_worker_end(void (*fn)(void *ctx))
{
	next_end = fn;
}

/* The live workers, for pr_par_kill from a signal handler. */
static volatile pid_t kids[MAX_JOBS];

int pr_par_jobs(const char *arg, int *jobs, struct pr_error *err)
{
	int64_t n;
	if (!arg) {
		cpu_set_t set;
		long c = 0;
		if (sched_getaffinity(0, sizeof(set), &set) == 0)
			c = CPU_COUNT(&set);
		if (c <= 0)
			c = sysconf(_SC_NPROCESSORS_ONLN);
		*jobs = c <= 0 ? 1 : c > MAX_JOBS ? MAX_JOBS : (int)c;
		return 0;
	}
	if (pr_decimal_scaled(arg, strlen(arg), 0, &n) || n < 1 || n > MAX_JOBS)
		return pr_error_set(err, PR_E_USAGE,
				    "-j needs a whole number from 1 to %d, not "
				    "'%s'",
				    MAX_JOBS, arg);
	*jobs = (int)n;
	return 0;
}

static int temp_fd(void)
{
	const char *tmpdir = getenv("TMPDIR");
	struct pr_strbuf sb = PR_STRBUF_INIT;
	int fd;
	pr_strbuf_addf(&sb, "%s/profreport-par-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = pr_output_temp_mkstemp(sb.buf);
	if (fd >= 0) {
		unlink(sb.buf); /* nothing of it on disk from now on */
		pr_output_temp_forget(sb.buf);
	}
	pr_strbuf_release(&sb);
	return fd;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n, int64_t off)
{
	char *c = p;
	while (n) {
		ssize_t r = pread(fd, c, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
		off += r;
	}
	return 0;
}

/* Copies n bytes of from (from its start) to the end of to. */
static int copy_out(int to, int from, uint64_t n)
{
	char buf[65536];
	int64_t off = 0;
	while (n) {
		size_t k = n < sizeof(buf) ? (size_t)n : sizeof(buf);
		if (read_all(from, buf, k, off) || write_all(to, buf, k))
			return -1;
		off += (int64_t)k;
		n -= k;
	}
	return 0;
}

static void lower_fail_at(struct shared *sh, size_t i)
{
	size_t cur = atomic_load(&sh->fail_at);
	while (i < cur && !atomic_compare_exchange_weak(&sh->fail_at, &cur, i))
		;
}

/* In a worker, after an item: 1 when the parent waits and what it waits for is done. */
static int wanted(const struct pr_par *p)
{
	size_t hi = atomic_load(&p->sh->want_hi), lo = atomic_load(&p->sh->want_lo);
	return hi < p->n && lo < p->n && atomic_load(&p->sh->slots[hi].state) == SLOT_DONE &&
	       atomic_load(&p->sh->slots[lo].state) == SLOT_DONE;
}

/* A worker: items from the shared counter until none is left. Never returns. */
static void worker(struct pr_par *p, int w)
{
	struct pr_strbuf rec = PR_STRBUF_INIT;
	int out = p->fds[w], cap = temp_fd();
	int64_t pos = 0;
	close(p->note[0]);
	if (cap < 0 || dup2(cap, 2) < 0)
		_exit(3);
	for (;;) {
		size_t i = atomic_fetch_add(&p->sh->next, 1);
		struct slot *s = &p->sh->slots[i < p->n ? i : 0];
		struct pr_error err = PR_ERROR_INIT;
		struct rec_head h;
		struct stat sb;
		if (i >= p->n || i > atomic_load(&p->sh->fail_at))
			break;
		s->worker = w;
		atomic_store(&s->state, SLOT_STARTED);
		if (ftruncate(2, 0) || lseek(2, 0, SEEK_SET) < 0)
			_exit(3);
		pr_strbuf_reset(&rec);
		memset(&h, 0, sizeof(h));
		h.status = p->fn(p->ctx, i, &rec, &err);
		fflush(stderr);
		if (fstat(2, &sb))
			_exit(3);
		h.reclen = rec.len;
		h.errlen = (uint64_t)sb.st_size;
		if (write_all(out, &h, sizeof(h)) ||
		    (h.status < 0 && write_all(out, &err, sizeof(err))) ||
		    write_all(out, rec.buf, rec.len) || copy_out(out, 2, h.errlen))
			_exit(3); /* a full disk: the parent says so at this item */
		s->off = pos;
		pos += (int64_t)(sizeof(h) + (h.status < 0 ? sizeof(err) : 0));
		pos += (int64_t)(h.reclen + h.errlen);
		atomic_store(&s->state, SLOT_DONE);
		if (h.status < 0)
			lower_fail_at(p->sh, i);
		if (wanted(p) && write_all(p->note[1], "", 1))
			_exit(3);
	}
	pr_strbuf_release(&rec);
	if (p->end)
		p->end(p->ctx);
	_exit(0);
}

void pr_par_kill(void)
{
	int k;
	for (k = 0; k < MAX_JOBS; k++)
		if (kids[k] > 0)
			kill(kids[k], SIGTERM);
	for (k = 0; k < MAX_JOBS; k++)
		if (kids[k] > 0)
			waitpid(kids[k], NULL, 0);
}

struct pr_par *pr_par_run(size_t n, int jobs, pr_par_fn *fn, void *ctx, struct pr_error *err)
{
	struct pr_par *p = pr_xcalloc(1, sizeof(*p));
	pid_t parent = getpid();
	int w, started = 0;
	p->note[0] = p->note[1] = -1;
	p->n = n;
	p->fn = fn;
	p->ctx = ctx;
	p->end = next_end;
	next_end = NULL;
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	if ((size_t)jobs > n)
		jobs = (int)n;
	if (jobs <= 1) {
		p->serial = 1;
		return p;
	}
	p->jobs = jobs;
	p->shsize = sizeof(struct shared) + n * sizeof(struct slot);
	p->sh = mmap(NULL, p->shsize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->sh == MAP_FAILED) {
		p->sh = NULL;
		pr_error_set(err, PR_E_IO, "cannot map the workers' shared table: %s",
			     strerror(errno));
		pr_par_free(p);
		return NULL;
	}
	atomic_init(&p->sh->next, 0);
	atomic_init(&p->sh->fail_at, n);
	atomic_init(&p->sh->want_lo, n);
	atomic_init(&p->sh->want_hi, n);
	p->fds = pr_xcalloc((size_t)jobs, sizeof(*p->fds));
	p->status = pr_xcalloc((size_t)jobs, sizeof(*p->status));
	for (w = 0; w < jobs; w++)
		p->fds[w] = -1;
	for (w = 0; w < jobs; w++)
		if ((p->fds[w] = temp_fd()) < 0) {
			pr_error_set(err, PR_E_IO, "cannot create a temporary file: %s",
				     strerror(errno));
			pr_par_free(p);
			return NULL;
		}
	if (pipe(p->note)) {
		p->note[0] = p->note[1] = -1;
		pr_error_set(err, PR_E_IO, "cannot make a pipe: %s", strerror(errno));
		pr_par_free(p);
		return NULL;
	}
	fflush(NULL); /* nothing buffered is written twice */
	for (w = 0; w < jobs; w++) {
		sigset_t old;
		pid_t pid;
		pr_block_fatal_signals(&old);
		pid = fork();
		if (pid == 0) {
			int k;
			for (k = 0; k < MAX_JOBS; k++)
				kids[k] = 0;
#ifdef __linux__
			prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
			if (getppid() != parent)
				_exit(3);
			sigprocmask(SIG_SETMASK, &old, NULL);
			worker(p, w);
		}
		if (pid > 0)
			kids[w] = pid;
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (pid < 0) {
			pr_error_set(err, PR_E_IO, "cannot start a worker process: %s",
				     strerror(errno));
			/* the started ones finish nothing more */
			atomic_store(&p->sh->fail_at, 0);
			break;
		}
		started++;
	}
	p->nkids = started;
	close(p->note[1]); /* the workers hold it: EOF once every one has ended */
	p->note[1] = -1;
	if (started < jobs) {
		pr_par_free(p);
		return NULL;
	}
	return p;
}

/* Reaps every worker (they have ended, or end at their next item). */
static void reap(struct pr_par *p)
{
	int w;
	for (w = 0; w < p->nkids; w++) {
		if (kids[w] <= 0)
			continue;
		while (waitpid(kids[w], &p->status[w], 0) < 0 && errno == EINTR)
			;
		kids[w] = 0;
	}
}

void pr_par_batch(struct pr_par *p, size_t k)
{
	if (p)
		p->batch = k;
}

/*
 * Waits until item i is done or every worker has ended; when item i is not
 * done yet, until item i + batch is done too (pr_par_batch). The workers
 * write to the pipe only when what the parent waits for is done (want_lo,
 * want_hi), so that it wakes once, not at every item a worker finishes
 * (each wake is a context switch: 11-17 % of aggregate -j 2's parent's CPU
 * time when it woke at every item). The items after a failed one are never
 * done: then every worker ends, and the wait with them.
 */
static void wait_item(struct pr_par *p, size_t i)
{
	char buf[256];
	size_t t = i + p->batch;
	if (atomic_load(&p->sh->slots[i].state) == SLOT_DONE)
		return;
	if (t >= p->n)
		t = p->n - 1;
	atomic_store(&p->sh->want_lo, i);
	atomic_store(&p->sh->want_hi, t);
	while (atomic_load(&p->sh->slots[i].state) != SLOT_DONE ||
	       atomic_load(&p->sh->slots[t].state) != SLOT_DONE) {
		ssize_t r = read(p->note[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			reap(p);
			break;
		}
	}
	atomic_store(&p->sh->want_hi, p->n);
}

static int worker_lost(const struct pr_par *p, int w, struct pr_error *err)
{
	int st = p->status[w];
	if (WIFSIGNALED(st))
		return pr_error_set(err, PR_E_IO, "worker process %d was killed by signal %d",
				    w + 1, WTERMSIG(st));
	return pr_error_set(err, PR_E_IO,
			    "worker process %d could not write its results (a full disk?)", w + 1);
}

static int get(struct pr_par *p, size_t i, struct pr_strbuf *rec, int tell, struct pr_error *err)
{
	struct slot *s;
	struct rec_head h;
	int64_t off;
	int fd;
	pr_strbuf_reset(rec);
	if (p->serial)
		return p->fn(p->ctx, i, rec, err);
	s = &p->sh->slots[i];
	wait_item(p, i);
	if (atomic_load(&s->state) != SLOT_DONE) {
		if (atomic_load(&s->state) == SLOT_STARTED)
			return worker_lost(p, s->worker, err);
		return pr_error_set(err, PR_E_IO, "item %zu was never started", i + 1);
	}
	fd = p->fds[s->worker];
	off = s->off;
	if (read_all(fd, &h, sizeof(h), off))
		goto lost;
	off += (int64_t)sizeof(h);
	if (h.status < 0) {
		if (read_all(fd, err, sizeof(*err), off))
			goto lost;
		off += (int64_t)sizeof(*err);
	}
	pr_strbuf_grow(rec, (size_t)h.reclen);
	if (read_all(fd, rec->buf, (size_t)h.reclen, off))
		goto lost;
	rec->len = (size_t)h.reclen;
	rec->buf[rec->len] = '\0';
	off += (int64_t)h.reclen;
	if (h.errlen && tell) {
		char buf[65536];
		uint64_t left = h.errlen;
		fflush(stderr);
		while (left) {
			size_t k = left < sizeof(buf) ? (size_t)left : sizeof(buf);
			if (read_all(fd, buf, k, off))
				goto lost;
			if (write_all(2, buf, k))
				break; /* stderr gone: nothing to tell */
			off += (int64_t)k;
			left -= k;
		}
	}
	return h.status;
lost:
	return pr_error_set(err, PR_E_IO, "cannot read back the result of item %zu: %s", i + 1,
			    strerror(errno));
}

int pr_par_get(struct pr_par *p, size_t i, struct pr_strbuf *rec, struct pr_error *err)
{
	return get(p, i, rec, 1, err);
}

void pr_par_end(struct pr_par *p)
{
	if (p && p->sh) {
		atomic_store(&p->sh->fail_at, 0); /* no item more: the parent stopped here */
		reap(p);
	}
}

int pr_par_reread(struct pr_par *p, size_t i, struct pr_strbuf *rec, struct pr_error *err)
{
	if (p->serial)
		return pr_error_set(err, PR_E_IO, "no records kept in one process");
	return get(p, i, rec, 0, err);
}

void pr_par_free(struct pr_par *p)
{
	int w;
	if (!p)
		return;
	pr_par_end(p);
	for (w = 0; w < 2; w++)
		if (p->note[w] >= 0)
			close(p->note[w]);
	if (p->fds)
		for (w = 0; w < p->jobs; w++)
			if (p->fds[w] >= 0)
				close(p->fds[w]);
	free(p->fds);
	free(p->status);
	if (p->sh)
		munmap(p->sh, p->shsize);
	free(p);
}
