/*
 * fmt_torch_snapshot.c - PyTorch CUDA memory snapshots:
 * torch.cuda.memory._dump_snapshot("snap.pickle") after
 * torch.cuda.memory._record_memory_history() (the pickles memory_viz reads),
 * decoded by ingest/pickle.c (plain data only: nothing is executed).
 *
 * Read: segments[] (device, address, total_size, allocated_size,
 * active_size, requested_size, stream, segment_type, segment_pool_id,
 * is_expandable, blocks[] with size, requested_size, state, frames) and
 * device_traces[device][] (action alloc, free_requested, free_completed,
 * segment_alloc, segment_free, segment_map, segment_unmap, oom, snapshot;
 * addr, size, stream, frames, time_us when torch wrote it, device_free for
 * an oom). The fields are torch 2.1 to 2.6's (torch/cuda/memory.py's
 * _snapshot() TypedDicts).
 *
 * Stored (device "cuda:N"):
 * - series dev.mem.allocated (alloc +size, free_requested -size, as the
 *   allocator's allocated_bytes counts), dev.mem.active (alloc +,
 *   free_completed -: memory_viz's active timeline) and dev.mem.reserved
 *   (segment_alloc/segment_map +, segment_free/segment_unmap -), each rebuilt
 *   over the history and anchored so that it ends at the snapshot's own
 *   allocated / active / reserved bytes (the history is a ring buffer: what
 *   was there before it is the start value). Time is time_us when every
 *   event has it (epoch: the earliest event is the time origin), else the
 *   event's index (time_synthetic, meta x_unit "events").
 * - reported metrics torch_snapshot.cuda:N.* (docs/formats.md) and
 *   meta torch_snapshot, the same numbers as one object for the analysis
 *   (analyze/an_cuda_snapshot.c).
 * Diagnostics: torch_snapshot_bad_segment, torch_snapshot_bad_block,
 * torch_snapshot_bad_event, torch_snapshot_block_sum,
 * torch_snapshot_history_short, torch_snapshot_time_backwards,
 * torch_snapshot_no_history.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "ingest/pickle.h"
#include "base/pr_common.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"
#include "base/jsonx.h"

#define TOP_SITES 10
#define MAX_POOLS 64
#define MAX_OOMS 8
#define MAX_DEVICES 1024
#define TL_POINTS 1000 /* points of the by-site timeline per device */
#define MAX_FRAMES 512 /* frames of one stack looked at for its site */
/* Elements visited: shared references (the memo) can make a small pickle
 * name a huge tree; past this many the file is refused. */
#define VISIT_MAX 50000000L

enum {
	ST_ALLOC,
	ST_INACTIVE,
	ST_PENDING,
	ST_OTHER,
	NSTATE
};
static const char *const state_names[NSTATE] = { "active_allocated", "inactive",
						 "active_pending_free", "other" };

struct pool {
	char name[64];
	double reserved, allocated, active, requested;
	int64_t segments;
};

struct dev {
	int64_t id;
	char name[32];
	double reserved, allocated, active, requested;
	int64_t segs, segs_large, segs_small, segs_expandable;
	int64_t nblk[NSTATE];
	double bblk[NSTATE];
	double free_bytes, largest_free;
	struct pool pools[MAX_POOLS];
	int npools;
};

struct snap {
	struct pr_writer *w;
	struct dev *devs;
	size_t ndevs, adevs;
	long visits;
	json_t *meta_devs;
};

static int visit(struct snap *s, size_t n, struct pr_error *err)
{
	if ((long)n > VISIT_MAX - s->visits)
		return pr_error_set(err, PR_E_LIMIT,
				    "the snapshot's shared references expand past %ld elements: "
				    "not read",
				    VISIT_MAX);
	s->visits += (long)n;
	return 0;
}

/* The device's record, or NULL past MAX_DEVICES (err set). */
static struct dev *dev_get(struct snap *s, int64_t id, struct pr_error *err)
{
	size_t k;
	for (k = 0; k < s->ndevs; k++)
		if (s->devs[k].id == id)
			return &s->devs[k];
	if (s->ndevs == MAX_DEVICES) {
		pr_error_set(err, PR_E_LIMIT, "more than %d devices in the snapshot: not read",
			     MAX_DEVICES);
		return NULL;
	}
	if (s->ndevs == s->adevs) {
		s->adevs = s->adevs ? s->adevs * 2 : 4;
		s->devs = pr_xreallocarray(s->devs, s->adevs, sizeof(*s->devs));
	}
	memset(&s->devs[s->ndevs], 0, sizeof(s->devs[0]));
	s->devs[s->ndevs].id = id;
	snprintf(s->devs[s->ndevs].name, sizeof(s->devs[0].name), "cuda:%" PRId64, id);
	return &s->devs[s->ndevs++];
}

static double num(const json_t *o, const char *key, int *ok)
{
	double v;
	if (pr_jget_num(o, key, &v) || !isfinite(v)) {
		*ok = 0;
		return 0;
	}
	return v;
}

/* ---- sniff ---- */

static size_t le_len(const unsigned char *b, size_t k)
{
	size_t v = 0;
	while (k--)
		v = (v << 8) | b[k];
	return v;
}

/* key as a pickled str (SHORT_BINUNICODE, BINUNICODE, SHORT_BINSTRING) in h */
static int has_key(const unsigned char *h, size_t n, const char *key)
{
	size_t k = strlen(key), i, at;
	for (i = 0; i + 1 < n; i++) {
		if (h[i] == 0x8c || h[i] == 'U')
			at = i + 2;
		else if (h[i] == 'X')
			at = i + 5;
		else
			continue;
		if (at + k <= n && le_len(h + i + 1, h[i] == 'X' ? 4 : 1) == k &&
		    !memcmp(h + at, key, k))
			return 1;
	}
	return 0;
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && !strcmp(s + a - b, suf);
}

static int snap_sniff(const unsigned char *h, size_t n, const char *path)
{
	if (n < 3 || h[0] != 0x80 || h[1] < 2 || h[1] > 5)
		return 0;
	if (has_key(h, n < 4096 ? n : 4096, "segments"))
		return has_key(h, n, "device_traces") || n >= PR_SOURCE_HEAD ? 90 : 80;
	/* another pickle: read (and refused with a reason) only when named so */
	if (path && (ends_with(path, ".pickle") || ends_with(path, ".pkl")))
		return 25;
	return 0;
}

/* ---- the segments ---- */

static struct pool *pool_get(struct dev *d, const json_t *seg)
{
	const char *type = pr_jget_str(seg, "segment_type");
	const json_t *pid = json_object_get(seg, "segment_pool_id");
	char name[64];
	int k;
	int64_t a = 0, b = 0;
	if (json_is_array(pid) && json_array_size(pid) == 2 &&
	    json_is_integer(json_array_get(pid, 0)) && json_is_integer(json_array_get(pid, 1))) {
		a = json_integer_value(json_array_get(pid, 0));
		b = json_integer_value(json_array_get(pid, 1));
	}
	if (a || b)
		snprintf(name, sizeof(name), "%.16s (%" PRId64 ",%" PRId64 ")", type ? type : "?",
			 a, b);
	else
		snprintf(name, sizeof(name), "%.16s", type ? type : "?");
	for (k = 0; k < d->npools; k++)
		if (!strcmp(d->pools[k].name, name))
			return &d->pools[k];
	if (d->npools == MAX_POOLS)
		return &d->pools[MAX_POOLS - 1];
	memset(&d->pools[d->npools], 0, sizeof(d->pools[0]));
	snprintf(d->pools[d->npools].name, sizeof(d->pools[0].name), "%s", name);
	return &d->pools[d->npools++];
}

static int read_segments(struct snap *s, const json_t *segs, struct pr_error *err)
{
	size_t i, j;
	const json_t *seg;
	if (visit(s, json_array_size(segs), err))
		return -1;
	json_array_foreach (segs, i, seg) {
		int ok = 1;
		double dv = num(seg, "device", &ok), total, alloc, active, req;
		const char *type = pr_jget_str(seg, "segment_type");
		const json_t *blocks = json_object_get(seg, "blocks"), *b;
		struct dev *d;
		struct pool *p;
		double bsum = 0;
		if (!ok)
			dv = 0, ok = 1;
		total = num(seg, "total_size", &ok);
		alloc = num(seg, "allocated_size", &ok);
		active = num(seg, "active_size", &ok);
		req = num(seg, "requested_size", &ok);
		if (!json_is_object(seg) || !ok || dv < 0 || dv > 1e6 || total < 0) {
			pr_writer_diag(s->w, "torch_snapshot_bad_segment", -1, 0, 0,
				       "segments[%zu]: expected device, total_size, "
				       "allocated_size, active_size and requested_size; skipped",
				       i);
			continue;
		}
		d = dev_get(s, (int64_t)dv, err);
		if (!d)
			return -1;
		d->reserved += total;
		d->allocated += alloc;
		d->active += active;
		d->requested += req;
		d->segs++;
		if (type && !strcmp(type, "large"))
			d->segs_large++;
		else if (type && !strcmp(type, "small"))
			d->segs_small++;
		if (json_is_true(json_object_get(seg, "is_expandable")))
			d->segs_expandable++;
		p = pool_get(d, seg);
		p->reserved += total;
		p->allocated += alloc;
		p->active += active;
		p->requested += req;
		p->segments++;
		if (visit(s, json_array_size(blocks), err))
			return -1;
		json_array_foreach (blocks, j, b) {
			int bok = 1, st;
			double size = num(b, "size", &bok);
			const char *state = pr_jget_str(b, "state");
			if (!bok || size < 0 || !state) {
				pr_writer_diag(s->w, "torch_snapshot_bad_block", -1, 0, 0,
					       "segments[%zu].blocks[%zu]: expected size and "
					       "state; skipped",
					       i, j);
				continue;
			}
			st = !strcmp(state, "active_allocated") ? ST_ALLOC
			     : !strcmp(state, "inactive")	? ST_INACTIVE
			     : !strcmp(state, "active_pending_free") ||
					     !strcmp(state, "active_awaiting_free")
				     ? ST_PENDING
				     : ST_OTHER;
			d->nblk[st]++;
			d->bblk[st] += size;
			bsum += size;
			if (st == ST_INACTIVE) {
				d->free_bytes += size;
				if (size > d->largest_free)
					d->largest_free = size;
			}
		}
		if (json_array_size(blocks) && bsum != total)
			pr_writer_diag(s->w, "torch_snapshot_block_sum", -1, 0, 0,
				       "segments[%zu]: its blocks add up to %.0f bytes, its "
				       "total_size is %.0f",
				       i, bsum, total);
	}
	return 0;
}

/* ---- the history ---- */

enum {
	A_ALLOC,
	A_FREE_REQ,
	A_FREE_DONE,
	A_SEG_ALLOC,
	A_SEG_FREE,
	A_SEG_MAP,
	A_SEG_UNMAP,
	A_OOM,
	A_SNAPSHOT,
	A_OTHER,
	NACT
};
static const char *const act_names[NACT] = { "alloc",	       "free_requested",
					     "free_completed", "segment_alloc",
					     "segment_free",   "segment_map",
					     "segment_unmap",  "oom",
					     "snapshot",       "other" };

static int action_of(const char *a)
{
	int k;
	for (k = 0; k < A_OTHER; k++)
		if (a && !strcmp(a, act_names[k]))
			return k;
	return A_OTHER;
}

/* torch's frames (innermost first) -> "file.py:line:function", the first
 * Python frame outside torch itself (else the first Python frame). */
static int is_py(const char *f)
{
	return f && ends_with(f, ".py");
}

static int is_torch(const char *f)
{
	return strstr(f, "/torch/") != NULL || !strncmp(f, "torch/", 6);
}

#define GENERATED "torch::autograd::generated::"

static void site_of(const json_t *frames, struct pr_strbuf *out)
{
	const json_t *f, *pick = NULL;
	size_t k;
	int64_t line = 0;
	const char *file, *base, *fn;
	json_array_foreach (frames, k, f) {
		file = pr_jget_str(f, "filename");
		if (!is_py(file))
			continue;
		if (!pick)
			pick = f;
		if (!is_torch(file)) {
			pick = f;
			break;
		}
		if (k >= MAX_FRAMES)
			break;
	}
	pr_strbuf_reset(out);
	if (!pick) {
		/* the autograd engine's thread: the backward node that allocated */
		json_array_foreach (frames, k, f) {
			const char *nm = pr_jget_str(f, "name"), *a, *b;
			if (k >= MAX_FRAMES)
				break;
			if (!nm || strncmp(nm, GENERATED, strlen(GENERATED)))
				continue;
			a = nm + strlen(GENERATED);
			b = strstr(a, "::apply(");
			if (b && !memchr(a, ':', (size_t)(b - a))) {
				pr_strbuf_addstr(out, "backward:");
				pr_strbuf_add(out, a, (size_t)(b - a));
				return;
			}
		}
		pr_strbuf_addstr(out, "(no Python frame)");
		return;
	}
	file = pr_jget_str(pick, "filename");
	fn = pr_jget_str(pick, "name");
	pr_jget_int(pick, "line", &line);
	base = strrchr(file, '/');
	base = base ? base + 1 : file;
	pr_strbuf_addf(out, "%s:%" PRId64 ":%s", base, line, fn ? fn : "?");
}

struct site {
	char *name;
	double bytes;
	int64_t blocks;
};

static int site_cmp(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct ev {
	int act;
	int64_t addr;
	double size;
	int64_t ts;
};

static void metric(struct snap *s, const struct dev *d, const char *what, double v,
		   const char *unit, const char *detail)
{
	struct pr_strbuf name = PR_STRBUF_INIT;
	pr_strbuf_addf(&name, "torch_snapshot.%s.%s", d->name, what);
	pr_writer_metric(s->w, name.buf, v, unit, 0, "reported", detail);
	pr_strbuf_release(&name);
}

/* The blocks live at event index peak (alloc ... free_requested by address), by site. */
static json_t *peak_sites(struct snap *s, const struct dev *d, const json_t *trace,
			  const struct ev *ev, size_t peak, double peak_bytes, struct pr_error *err)
{
	struct pr_strmap live = PR_STRMAP_INIT, idx = PR_STRMAP_INIT;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	struct site *sites = NULL;
	size_t nsites = 0, k, i;
	double tracked = 0, other = 0;
	int64_t other_blocks = 0;
	json_t *arr = json_array(), *res = NULL;
	for (k = 0; k <= peak; k++) {
		if (ev[k].act == A_ALLOC)
			pr_strmap_put(&live, &ev[k].addr, sizeof(ev[k].addr), (int64_t)k);
		else if (ev[k].act == A_FREE_REQ)
			pr_strmap_del(&live, &ev[k].addr, sizeof(ev[k].addr), NULL);
	}
	/* in event order, for a stable first-seen order before the sort */
	for (k = 0; k <= peak; k++) {
		int64_t at, si;
		const json_t *fr;
		size_t nf;
		if (ev[k].act != A_ALLOC ||
		    !pr_strmap_get(&live, &ev[k].addr, sizeof(ev[k].addr), &at) || at != (int64_t)k)
			continue;
		fr = json_object_get(json_array_get(trace, k), "frames");
		nf = json_array_size(fr) < MAX_FRAMES ? json_array_size(fr) : MAX_FRAMES;
		if (visit(s, 2 * nf, err)) {
			json_decref(arr);
			arr = NULL;
			break;
		}
		site_of(fr, &sb);
		if (!pr_strmap_get(&idx, sb.buf, sb.len, &si)) {
			sites = pr_xreallocarray(sites, nsites + 1, sizeof(*sites));
			sites[nsites] = (struct site){ pr_xstrdup(sb.buf), 0, 0 };
			si = (int64_t)nsites++;
			pr_strmap_put(&idx, sb.buf, sb.len, si);
		}
		sites[si].bytes += ev[k].size;
		sites[si].blocks++;
		tracked += ev[k].size;
	}
	if (!arr)
		goto done;
	if (nsites)
		qsort(sites, nsites, sizeof(*sites), site_cmp);
	for (i = 0; i < nsites; i++) {
		char what[300];
		if (i >= TOP_SITES) {
			other += sites[i].bytes;
			other_blocks += sites[i].blocks;
			continue;
		}
		json_array_append_new(arr, pr_jobj("site", json_string(sites[i].name), "bytes",
						   pr_jnum(sites[i].bytes), "blocks",
						   pr_jint(sites[i].blocks), NULL));
		snprintf(what, sizeof(what), "peak.site.%s", sites[i].name);
		metric(s, d, what, sites[i].bytes, "bytes", "live at the allocated peak, by site");
	}
	if (nsites > TOP_SITES)
		metric(s, d, "peak.site.(other sites)", other, "bytes",
		       "live at the allocated peak, the sites past the first 10");
	res = pr_jobj("sites", arr, "sites_more",
		      pr_jint((int64_t)(nsites > TOP_SITES ? nsites - TOP_SITES : 0)),
		      "other_bytes", pr_jnum(other), "other_blocks", pr_jint(other_blocks),
		      "tracked_bytes", pr_jnum(tracked), "untracked_bytes",
		      pr_jnum(peak_bytes - tracked), NULL);
done:
	for (i = 0; i < nsites; i++)
		free(sites[i].name);
	free(sites);
	pr_strmap_release(&live);
	pr_strmap_release(&idx);
	pr_strbuf_release(&sb);
	return res;
}

/*
 * The allocated timeline split by site: the peak's sites (pk.sites, in
 * their order) and "other" (the other sites and what was allocated before
 * the history), live bytes after each alloc / free_requested, at most
 * TL_POINTS of those events (every k-th, the peak's and the last kept).
 */
static json_t *site_timeline(struct snap *s, const json_t *trace, const struct ev *ev, size_t n,
			     size_t peak, const json_t *pk, double start, struct pr_error *err)
{
	const json_t *sites = json_object_get(pk, "sites"), *v;
	size_t ns = json_array_size(sites), k, j, nev = 0, stride;
	struct pr_strmap idx = PR_STRMAP_INIT, live = PR_STRMAP_INIT;
	struct pr_strbuf sb = PR_STRBUF_INIT;
	double *cur = pr_xcalloc(ns + 1, sizeof(double));
	int64_t *owner = pr_xcalloc(n ? n : 1, sizeof(int64_t));
	json_t **vals = pr_xcalloc(ns + 1, sizeof(json_t *));
	json_t *t = json_array(), *res = NULL, *arr;
	json_array_foreach (sites, j, v) {
		const char *nm = pr_mstr(v, "site");
		pr_strmap_put(&idx, nm, strlen(nm), (int64_t)j);
	}
	for (j = 0; j <= ns; j++)
		vals[j] = json_array();
	for (k = 0; k < n; k++)
		nev += ev[k].act == A_ALLOC || ev[k].act == A_FREE_REQ;
	stride = nev > TL_POINTS ? (nev + TL_POINTS - 1) / TL_POINTS : 1;
	cur[ns] = start;
	for (k = 0, nev = 0; k < n; k++) {
		int64_t si = (int64_t)ns, at;
		if (ev[k].act == A_ALLOC) {
			const json_t *fr = json_object_get(json_array_get(trace, k), "frames");
			size_t nf = json_array_size(fr);
			if (visit(s, 2 * (nf < MAX_FRAMES ? nf : MAX_FRAMES), err))
				goto done;
			site_of(fr, &sb);
			if (!pr_strmap_get(&idx, sb.buf, sb.len, &si))
				si = (int64_t)ns;
			owner[k] = si;
			pr_strmap_put(&live, &ev[k].addr, sizeof(ev[k].addr), (int64_t)k);
			cur[si] += ev[k].size;
		} else if (ev[k].act == A_FREE_REQ) {
			if (pr_strmap_del(&live, &ev[k].addr, sizeof(ev[k].addr), &at))
				si = owner[at];
			cur[si] -= ev[k].size;
		} else {
			continue;
		}
		if (nev++ % stride && k != peak && k + 1 < n)
			continue;
		json_array_append_new(t, pr_jint(ev[k].ts));
		for (j = 0; j <= ns; j++)
			json_array_append_new(vals[j], pr_jnum(cur[j]));
	}
	res = json_object();
	json_object_set(res, "t", t);
	arr = json_array();
	for (j = 0; j <= ns; j++) {
		const char *nm = j < ns ? pr_mstr(json_array_get(sites, j), "site")
					: "(other sites, before the history)";
		json_array_append_new(arr, pr_jobj("site", json_string(nm), "v",
						   json_incref(vals[j]), NULL));
	}
	json_object_set_new(res, "sites", arr);
done:
	for (j = 0; j <= ns; j++)
		json_decref(vals[j]);
	json_decref(t);
	free(vals);
	free(cur);
	free(owner);
	pr_strmap_release(&idx);
	pr_strmap_release(&live);
	pr_strbuf_release(&sb);
	return res;
}

/* time_us in ns; integers exactly (epoch us * 1000 is past a double's 2^53) */
static int64_t time_ns(const json_t *tu)
{
	double t = json_number_value(tu);
	if (json_is_integer(tu) && llabs((long long)json_integer_value(tu)) < 9000000000000000LL)
		return (int64_t)json_integer_value(tu) * 1000;
	return fabs(t) < 9e15 ? (int64_t)llround(t * 1000.0) : 0;
}

static int read_trace(struct snap *s, struct dev *d, const json_t *trace, json_t *md,
		      int64_t origin, int synthetic, struct pr_error *err)
{
	size_t n = json_array_size(trace), k, peak = 0;
	struct ev *ev;
	double sum_alloc = 0, sum_active = 0, sum_res = 0, off_alloc, off_active, off_res;
	double va, vc, vr, peak_v = -INFINITY;
	int64_t counts[NACT] = { 0 }, prev = INT64_MIN, sa, sc, sr;
	json_t *acts, *ooms = json_array(), *hist, *tl;
	int any = 0;
	if (visit(s, n, err)) {
		json_decref(ooms);
		return -1;
	}
	ev = pr_xcalloc(n ? n : 1, sizeof(*ev));
	for (k = 0; k < n; k++) {
		const json_t *e = json_array_get(trace, k);
		int ok = 1;
		ev[k].act = action_of(pr_jget_str(e, "action"));
		ev[k].size = num(e, "size", &ok);
		if (!json_is_object(e) || !pr_jget_str(e, "action") ||
		    (!ok && ev[k].act != A_SNAPSHOT) || ev[k].size < 0) {
			pr_writer_diag(s->w, "torch_snapshot_bad_event", -1, 0, 0,
				       "device_traces[%" PRId64 "][%zu]: expected action and "
				       "size; skipped",
				       d->id, k);
			ev[k].act = A_OTHER;
			ev[k].size = 0;
		}
		if (pr_jget_int(e, "addr", &ev[k].addr))
			ev[k].addr = 0;
		if (synthetic) {
			ev[k].ts = (int64_t)k;
		} else {
			ev[k].ts = time_ns(json_object_get(e, "time_us")) - origin;
			if (k && ev[k].ts < prev) {
				pr_writer_diag(s->w, "torch_snapshot_time_backwards", -1, 0, 0,
					       "device_traces[%" PRId64 "][%zu]: time_us earlier "
					       "than the event before; placed at that event's time",
					       d->id, k);
				ev[k].ts = prev;
			}
			prev = ev[k].ts;
		}
		counts[ev[k].act]++;
		switch (ev[k].act) {
		case A_ALLOC:
			sum_alloc += ev[k].size;
			sum_active += ev[k].size;
			break;
		case A_FREE_REQ:
			sum_alloc -= ev[k].size;
			break;
		case A_FREE_DONE:
			sum_active -= ev[k].size;
			break;
		case A_SEG_ALLOC:
		case A_SEG_MAP:
			sum_res += ev[k].size;
			break;
		case A_SEG_FREE:
		case A_SEG_UNMAP:
			sum_res -= ev[k].size;
			break;
		case A_OOM:
			if (json_array_size(ooms) < MAX_OOMS) {
				double df;
				if (pr_jget_num(e, "device_free", &df))
					df = (double)ev[k].addr;
				json_array_append_new(ooms,
						      pr_jobj("requested", pr_jnum(ev[k].size),
							      "device_free", pr_jnum(df), "t",
							      pr_jint(ev[k].ts), "event",
							      pr_jint((int64_t)k), NULL));
			}
			break;
		default:
			break;
		}
	}
	/* anchored: the history ends at the snapshot's own numbers */
	off_alloc = d->allocated - sum_alloc;
	off_active = d->active - sum_active;
	off_res = d->reserved - sum_res;
	if (off_alloc < 0 || off_active < 0 || off_res < 0)
		pr_writer_diag(s->w, "torch_snapshot_history_short", -1, 0, 0,
			       "%s: replayed back from the snapshot, the history would start "
			       "below zero (allocated %.0f, active %.0f, reserved %.0f bytes): "
			       "events are missing",
			       d->name, off_alloc, off_active, off_res);
	sa = pr_writer_series(s->w, "dev.mem.allocated", d->name, "bytes", "B");
	sc = pr_writer_series(s->w, "dev.mem.active", d->name, "bytes", "B");
	sr = pr_writer_series(s->w, "dev.mem.reserved", d->name, "bytes", "B");
	va = off_alloc;
	vc = off_active;
	vr = off_res;
	for (k = 0; k < n; k++) {
		int a = ev[k].act;
		if (!any) {
			pr_writer_sample(s->w, sa, ev[k].ts, va);
			pr_writer_sample(s->w, sc, ev[k].ts, vc);
			pr_writer_sample(s->w, sr, ev[k].ts, vr);
			any = 1;
			peak_v = va;
			peak = k;
		}
		if (a == A_ALLOC || a == A_FREE_REQ) {
			va += a == A_ALLOC ? ev[k].size : -ev[k].size;
			pr_writer_sample(s->w, sa, ev[k].ts, va);
			if (va > peak_v) {
				peak_v = va;
				peak = k;
			}
		}
		if (a == A_ALLOC || a == A_FREE_DONE) {
			vc += a == A_ALLOC ? ev[k].size : -ev[k].size;
			pr_writer_sample(s->w, sc, ev[k].ts, vc);
		}
		if (a == A_SEG_ALLOC || a == A_SEG_MAP || a == A_SEG_FREE || a == A_SEG_UNMAP) {
			vr += a == A_SEG_ALLOC || a == A_SEG_MAP ? ev[k].size : -ev[k].size;
			pr_writer_sample(s->w, sr, ev[k].ts, vr);
		}
	}
	acts = json_object();
	for (k = 0; k < NACT; k++)
		if (counts[k])
			json_object_set_new(acts, act_names[k], pr_jint(counts[k]));
	hist = pr_jobj("events", pr_jint((int64_t)n), "actions", acts, "start_allocated",
		       pr_jnum(off_alloc), "start_active", pr_jnum(off_active), "start_reserved",
		       pr_jnum(off_res), NULL);
	json_object_set_new(md, "history", hist);
	metric(s, d, "history.events", (double)n, "count", "trace entries recorded");
	metric(s, d, "history.start_allocated", off_alloc, "bytes",
	       "allocated before the history's first event (the anchor)");
	if (any) {
		json_t *pk = peak_sites(s, d, trace, ev, peak, peak_v, err);
		if (!pk) {
			json_decref(ooms);
			free(ev);
			return -1;
		}
		json_object_set_new(pk, "allocated", pr_jnum(peak_v));
		json_object_set_new(pk, "t", pr_jint(ev[peak].ts));
		json_object_set_new(pk, "event", pr_jint((int64_t)peak));
		json_object_set_new(md, "peak", pk);
		tl = site_timeline(s, trace, ev, n, peak, pk, off_alloc, err);
		if (!tl) {
			json_decref(ooms);
			free(ev);
			return -1;
		}
		json_object_set_new(md, "timeline", tl);
		metric(s, d, "peak.allocated", peak_v, "bytes",
		       "the rebuilt allocated timeline's maximum");
		metric(s, d, "peak.untracked", pr_mnum(pk, "untracked_bytes"), "bytes",
		       "live at the peak, allocated before the history began");
	}
	if (json_array_size(ooms)) {
		const json_t *last = json_array_get(ooms, json_array_size(ooms) - 1);
		metric(s, d, "oom.count", (double)counts[A_OOM], "count", "oom events");
		metric(s, d, "oom.requested", pr_mnum(last, "requested"), "bytes",
		       "the last oom's request");
		metric(s, d, "oom.device_free", pr_mnum(last, "device_free"), "bytes",
		       "free device memory at the last oom (cudaMemGetInfo)");
		metric(s, d, "oom.largest_free_block", d->largest_free, "bytes",
		       "the snapshot's largest inactive block, for the last oom's request");
	}
	json_object_set_new(md, "ooms", ooms);
	free(ev);
	return 0;
}

/* ---- the document ---- */

static int dev_cmp(const void *a, const void *b)
{
	const struct dev *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static json_t *dev_json(struct snap *s, struct dev *d)
{
	json_t *md, *blocks = json_array(), *pools = json_array();
	double frag = d->free_bytes > 0 ? 1.0 - d->largest_free / d->free_bytes : 0;
	int k;
	char what[128];
	metric(s, d, "reserved", d->reserved, "bytes", "sum of segments' total_size");
	metric(s, d, "allocated", d->allocated, "bytes", "sum of segments' allocated_size");
	metric(s, d, "active", d->active, "bytes", "sum of segments' active_size");
	metric(s, d, "requested", d->requested, "bytes", "sum of segments' requested_size");
	metric(s, d, "segments", (double)d->segs, "count", "segments");
	metric(s, d, "segments.large", (double)d->segs_large, "count", "segment_type large");
	metric(s, d, "segments.small", (double)d->segs_small, "count", "segment_type small");
	for (k = 0; k < NSTATE; k++) {
		if (!d->nblk[k] && k >= ST_PENDING)
			continue;
		snprintf(what, sizeof(what), "blocks.%s", state_names[k]);
		metric(s, d, what, (double)d->nblk[k], "count", "blocks in this state");
		snprintf(what, sizeof(what), "blocks.%s.bytes", state_names[k]);
		metric(s, d, what, d->bblk[k], "bytes", "bytes of the blocks in this state");
		json_array_append_new(blocks, pr_jobj("state", json_string(state_names[k]), "count",
						      pr_jint(d->nblk[k]), "bytes",
						      pr_jnum(d->bblk[k]), NULL));
	}
	metric(s, d, "free_in_segments", d->free_bytes, "bytes",
	       "inactive blocks inside reserved segments");
	metric(s, d, "largest_free_block", d->largest_free, "bytes", "the largest inactive block");
	metric(s, d, "external_fragmentation", frag, "ratio",
	       "1 - largest free block / free bytes in segments");
	for (k = 0; k < d->npools; k++) {
		const struct pool *p = &d->pools[k];
		snprintf(what, sizeof(what), "pool.%s.reserved", p->name);
		metric(s, d, what, p->reserved, "bytes", "segments of this pool");
		snprintf(what, sizeof(what), "pool.%s.allocated", p->name);
		metric(s, d, what, p->allocated, "bytes", "segments of this pool");
		json_array_append_new(pools,
				      pr_jobj("pool", json_string(p->name), "reserved",
					      pr_jnum(p->reserved), "allocated",
					      pr_jnum(p->allocated), "active", pr_jnum(p->active),
					      "requested", pr_jnum(p->requested), "segments",
					      pr_jint(p->segments), NULL));
	}
	md = pr_jobj("device", json_string(d->name), "reserved", pr_jnum(d->reserved), "allocated",
		     pr_jnum(d->allocated), "active", pr_jnum(d->active), "requested",
		     pr_jnum(d->requested), "segments",
		     pr_jobj("count", pr_jint(d->segs), "large", pr_jint(d->segs_large), "small",
			     pr_jint(d->segs_small), "expandable", pr_jint(d->segs_expandable),
			     NULL),
		     "blocks", blocks, "free_in_segments", pr_jnum(d->free_bytes),
		     "largest_free_block", pr_jnum(d->largest_free), "external_fragmentation",
		     pr_jnum(frag), "pools", pools, NULL);
	return md;
}

static int pool_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pool *)a)->name, ((const struct pool *)b)->name);
}

static int read_doc(struct snap *s, json_t *doc, struct pr_error *err)
{
	const json_t *segs = json_object_get(doc, "segments");
	const json_t *traces = json_object_get(doc, "device_traces");
	json_t *top;
	size_t k;
	int64_t origin = 0;
	int have_origin = 0, synthetic = 0;
	if (!json_is_object(doc) || !json_is_array(segs))
		return pr_error_set(err, PR_E_PARSE,
				    "not a torch CUDA memory snapshot: no 'segments' list at the "
				    "top (torch.cuda.memory._dump_snapshot writes one)");
	pr_writer_set_collector(s->w, "torch-cuda-snapshot");
	if (read_segments(s, segs, err))
		return -1;
	/* devices named by the history too */
	if (json_is_array(traces)) {
		const json_t *tr, *e;
		size_t j;
		json_array_foreach (traces, k, tr) {
			if (json_array_size(tr) && !dev_get(s, (int64_t)k, err))
				return -1;
			if (visit(s, json_array_size(tr), err))
				return -1;
			json_array_foreach (tr, j, e) {
				const json_t *tu = json_object_get(e, "time_us");
				if (!json_is_number(tu)) {
					synthetic = 1;
				} else if (!have_origin || time_ns(tu) < origin) {
					/* the earliest event of any device */
					origin = time_ns(tu);
					have_origin = 1;
				}
			}
		}
	}
	if (!json_array_size(traces))
		pr_writer_diag(s->w, "torch_snapshot_no_history", -1, 0, 0,
			       "no device_traces: the snapshot was taken without "
			       "torch.cuda.memory._record_memory_history(); no timeline");
	if (synthetic) {
		pr_writer_set_time_synthetic(s->w, 1);
		pr_writer_meta_set(s->w, "x_unit", json_string("events"));
		pr_writer_meta_set(s->w, "time_base",
				   json_string("no time_us on every event: the x axis counts "
					       "trace events, not time"));
	} else {
		pr_writer_meta_set(s->w, "time_base",
				   json_string("time_us (epoch): the earliest event is the time "
					       "origin"));
	}
	if (s->ndevs) /* qsort's array may not be NULL */
		qsort(s->devs, s->ndevs, sizeof(*s->devs), dev_cmp);
	top = json_array();
	for (k = 0; k < s->ndevs; k++) {
		struct dev *d = &s->devs[k];
		json_t *md;
		qsort(d->pools, (size_t)d->npools, sizeof(d->pools[0]), pool_cmp);
		md = dev_json(s, d);
		json_array_append_new(top, md);
		if (d->id >= 0 && (size_t)d->id < json_array_size(traces) &&
		    json_array_size(json_array_get(traces, (size_t)d->id)) &&
		    read_trace(s, d, json_array_get(traces, (size_t)d->id), md, origin, synthetic,
			       err)) {
			json_decref(top);
			return -1;
		}
	}
	if (have_origin && !synthetic)
		pr_writer_set_time_origin(s->w, origin);
	pr_writer_meta_set(s->w, "torch_snapshot",
			   pr_jobj("devices", top, "time",
				   json_string(synthetic ? "event index" : "time_us"), NULL));
	return 0;
}

static int snap_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_strbuf buf = PR_STRBUF_INIT;
	struct snap s;
	size_t max;
	json_t *doc;
	int rc;
	char chunk[65536];
	long got;
	if (pr_jdoc_limit(&max, err))
		return -1;
	while ((got = pr_source_read(src, chunk, sizeof(chunk), err)) > 0) {
		if (buf.len + (size_t)got > max) {
			pr_strbuf_release(&buf);
			return pr_error_set(err, PR_E_LIMIT,
					    "pickle larger than %zu MiB (after gunzip): not "
					    "loaded, it is held whole in memory; set %s=N (MiB) "
					    "to raise the limit",
					    max >> 20, PR_JDOC_MAX_ENV);
		}
		pr_strbuf_add(&buf, chunk, (size_t)got);
	}
	if (got < 0) {
		pr_strbuf_release(&buf);
		return -1;
	}
	if (!buf.len || (unsigned char)buf.buf[0] != 0x80) {
		pr_strbuf_release(&buf);
		return pr_error_at(err, PR_E_PARSE, 0, 0, 0,
				   "not a pickle of protocol 2 or later (byte 0 is not PROTO, "
				   "0x80; torch.cuda.memory._dump_snapshot writes protocol 4)");
	}
	doc = pr_pickle_load((const unsigned char *)buf.buf, buf.len, err);
	pr_strbuf_release(&buf);
	if (!doc)
		return -1;
	memset(&s, 0, sizeof(s));
	s.w = w;
	rc = read_doc(&s, doc, err);
	free(s.devs);
	json_decref(doc);
	return rc;
}

static const char *const torch_snapshot_tokens[] = { "segments",
						     "device_traces",
						     "device",
						     "address",
						     "total_size",
						     "allocated_size",
						     "active_size",
						     "requested_size",
						     "stream",
						     "segment_type",
						     "segment_pool_id",
						     "is_expandable",
						     "blocks",
						     "size",
						     "state",
						     "frames",
						     "filename",
						     "line",
						     "name",
						     "action",
						     "addr",
						     "time_us",
						     "device_free",
						     "alloc",
						     "free_requested",
						     "free_completed",
						     "segment_alloc",
						     "segment_free",
						     "segment_map",
						     "segment_unmap",
						     "oom",
						     "snapshot",
						     "active_allocated",
						     "active_pending_free",
						     "inactive",
						     "large",
						     "small",
						     NULL };

const struct pr_format pr_format_torch_snapshot = {
	.name = "torch-snapshot",
	.summary = "PyTorch CUDA memory snapshot pickle (torch.cuda.memory._dump_snapshot)",
	.sniff = snap_sniff,
	.parse = snap_parse,
	.flags = 0,
	.tokens = torch_snapshot_tokens,
};
