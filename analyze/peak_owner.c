/*
 * peak_owner.c - what holds a memory peak: the user-level frame that holds
 * the most of it (peaks[].held_by).
 *
 * The user-level frame of a moment on a thread is the innermost user span
 * open there: a user annotation or phase (kinds phase, section, stage), a
 * model layer (layer), an nn.Module (python spans named "nn.Module: ..."),
 * else the outermost op (the op directly below the step); never an
 * allocator call such as aten::empty, which every tensor goes through.
 *
 * Rule "live bytes by address" (torch.profiler's [memory] events, which
 * carry Addr and Bytes): the events of the series' device are replayed up
 * to the peak, an allocation (Bytes > 0) live until a free (Bytes < 0) of
 * its Addr; each live allocation counts for the frame open at its own time
 * on its own thread; the frame name with the most live bytes holds the
 * peak (ties: the name first in byte order). bytes, allocations and share
 * (of the peak value) say how much; untracked_bytes is what the peak holds
 * that no allocation of the trace explains (allocated before it began).
 *
 * Rule "enclosing user-level span" (no such events): the user-level frame
 * open at the peak's time on any host thread (the deepest, then the
 * latest to start, then the lowest id); bytes and share are null.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "base/imap.h"
#include "analyze/peak_owner.h"
#include "base/xalloc.h"

#define USER_KINDS "'phase', 'section', 'stage', 'layer'"
#define MODULE_PREFIX "nn.Module:"

static int user_level(const char *kind, const char *name)
{
	return !strcmp(kind, "phase") || !strcmp(kind, "section") || !strcmp(kind, "stage") ||
	       !strcmp(kind, "layer") ||
	       (!strcmp(kind, "python") && !strncmp(name, MODULE_PREFIX, strlen(MODULE_PREFIX)));
}

struct live {
	int64_t ts, track, addr;
	double bytes;
	size_t frame; /* index in frames, set by the sweep */
};

struct frame {
	char *name, *kind;
	double bytes;
	int64_t allocations;
};

struct open_span {
	int64_t end;
	char *name, *kind;
};

/* Positions of the keys in an argkeys list: Addr, Bytes, Device Type, Device Id (-1: none). */
struct keypos {
	int64_t id;
	int pos[4];
};

static void key_positions(const char *keys, struct keypos *kp)
{
	static const char *const want[4] = { "Addr", "Bytes", "Device Type", "Device Id" };
	json_t *a = json_loads(keys, 0, NULL), *v;
	size_t i, k;
	for (k = 0; k < 4; k++)
		kp->pos[k] = -1;
	json_array_foreach (a, i, v)
		for (k = 0; k < 4; k++)
			if (json_is_string(v) && !strcmp(json_string_value(v), want[k]))
				kp->pos[k] = (int)i;
	json_decref(a);
}

/* The device name fmt_chrome.c gives a [memory] event's Device Type and Id. */
static void device_name(int64_t type, int64_t id, char *buf, size_t n)
{
	if (type == 1)
		snprintf(buf, n, "cuda:%lld", (long long)id);
	else if (type == 0)
		snprintf(buf, n, "cpu");
	else
		snprintf(buf, n, "device%lld:%lld", (long long)type, (long long)id);
}

/* Item pos of the args array as an integer; dflt when there is none (as fmt_chrome.c reads). */
static int64_t jint(const json_t *a, int pos, int64_t dflt)
{
	const json_t *v = pos >= 0 ? json_array_get(a, (size_t)pos) : NULL;
	double d = json_number_value(v);
	if (json_is_integer(v))
		return json_integer_value(v);
	return json_is_real(v) && d > -9.2e18 && d < 9.2e18 ? (int64_t)d : dflt;
}

/*
 * The allocations of device live at t (events at t count when they
 * allocate): *out, *n. 0 with *n == 0 when the run has no [memory] events
 * with Addr and Bytes for the device.
 */
static int replay(struct pr_actx *ctx, const char *device, int64_t t, struct live **out, size_t *n,
		  struct pr_error *err)
{
	sqlite3_stmt *st;
	struct keypos *kp = NULL;
	size_t nkp = 0, k, cap = 0;
	struct pr_imap at = { 0 };
	struct live *v = NULL;
	int rc;
	char dev[64];
	*n = 0;
	if (pr_actx_prep(ctx,
			 "SELECT i.ts, i.track_id, i.args_keys, i.args, a.keys FROM instant i "
			 "JOIN string s ON s.id = i.name_id "
			 "LEFT JOIN argkeys a ON a.id = i.args_keys "
			 "WHERE i.run_id = ?1 AND s.value = '[memory]' AND i.ts <= ?2 "
			 "ORDER BY i.ts, i.id",
			 &st, err))
		return -1;
	sqlite3_bind_int64(st, 2, t);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t kid = sqlite3_column_int64(st, 2), ts = sqlite3_column_int64(st, 0);
		int64_t addr, slot;
		json_t *a;
		double bytes;
		if (sqlite3_column_type(st, 2) == SQLITE_NULL)
			continue;
		for (k = 0; k < nkp && kp[k].id != kid; k++)
			;
		if (k == nkp) {
			kp = pr_xreallocarray(kp, nkp + 1, sizeof(*kp));
			kp[nkp].id = kid;
			key_positions(pr_actx_text(st, 4), &kp[nkp]);
			nkp++;
		}
		if (kp[k].pos[0] < 0 || kp[k].pos[1] < 0)
			continue;
		a = json_loads(pr_actx_text(st, 3), JSON_DECODE_ANY, NULL);
		device_name(jint(a, kp[k].pos[2], -1), jint(a, kp[k].pos[3], 0), dev, sizeof(dev));
		addr = jint(a, kp[k].pos[0], INT64_MIN);
		bytes = json_number_value(json_array_get(a, (size_t)kp[k].pos[1]));
		json_decref(a);
		if (strcmp(dev, device) || addr == INT64_MIN)
			continue;
		if (bytes > 0) {
			if (*n == cap) {
				cap = cap ? cap * 2 : 256;
				v = pr_xreallocarray(v, cap, sizeof(*v));
			}
			v[*n] = (struct live){ ts, sqlite3_column_int64(st, 1), addr, bytes, 0 };
			pr_imap_put(&at, addr, (int64_t)(*n)++);
		} else if (bytes < 0 && ts < t && pr_imap_get(&at, addr, &slot) && slot >= 0) {
			v[slot].bytes = 0; /* freed */
			pr_imap_put(&at, addr, -1);
		}
	}
	pr_imap_release(&at);
	free(kp);
	if (pr_actx_done(ctx, st, rc, err)) {
		free(v);
		*n = 0;
		return -1;
	}
	/* keep the live ones */
	for (k = 0, cap = 0; k < *n; k++)
		if (v[k].bytes > 0)
			v[cap++] = v[k];
	*n = cap;
	*out = v;
	return 0;
}

static int cmp_live(const void *pa, const void *pb)
{
	const struct live *a = pa, *b = pb;
	if (a->track != b->track)
		return a->track < b->track ? -1 : 1;
	return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static size_t frame_of(struct frame **fr, size_t *nfr, const char *name, const char *kind)
{
	size_t i;
	for (i = 0; i < *nfr; i++)
		if (!strcmp((*fr)[i].name, name) && !strcmp((*fr)[i].kind, kind))
			return i;
	*fr = pr_xreallocarray(*fr, *nfr + 1, sizeof(**fr));
	(*fr)[*nfr] = (struct frame){ pr_xstrdup(name), pr_xstrdup(kind), 0, 0 };
	return (*nfr)++;
}

/* The user-level frame of the open spans stk[0..n) (outermost first); NULL when none. */
static const struct open_span *pick(const struct open_span *stk, size_t n)
{
	size_t i;
	for (i = n; i-- > 0;)
		if (user_level(stk[i].kind, stk[i].name))
			return &stk[i];
	for (i = 0; i < n; i++)
		if (!strcmp(stk[i].kind, "op"))
			return &stk[i];
	return NULL;
}

/* Credits each live allocation of one track (v[0..n), by ts) to its frame: one sweep. */
static int sweep_track(struct pr_actx *ctx, struct live *v, size_t n, struct frame **fr,
		       size_t *nfr, struct pr_error *err)
{
	sqlite3_stmt *st;
	struct open_span *stk = NULL;
	size_t depth = 0, cap = 0, i = 0, k;
	int rc = SQLITE_DONE, more = 1;
	if (pr_actx_prep(ctx,
			 "SELECT s.ts, s.dur, s.kind, n.value FROM span s "
			 "JOIN string n ON n.id = s.name_id "
			 "WHERE s.run_id = ?1 AND s.track_id = ?2 AND s.ts <= ?3 "
			 "AND s.kind IN ('op', 'python', " USER_KINDS ") "
			 "ORDER BY s.ts, s.dur DESC, s.id",
			 &st, err))
		return -1;
	sqlite3_bind_int64(st, 2, v[0].track);
	sqlite3_bind_int64(st, 3, v[n - 1].ts);
	rc = sqlite3_step(st);
	for (i = 0; i < n; i++) {
		const struct open_span *f;
		/* open every span that starts by this allocation */
		while (more && rc == SQLITE_ROW && sqlite3_column_int64(st, 0) <= v[i].ts) {
			int64_t ts = sqlite3_column_int64(st, 0), end;
			if (__builtin_add_overflow(ts, sqlite3_column_int64(st, 1), &end))
				end = INT64_MAX;
			while (depth && stk[depth - 1].end < ts) {
				depth--;
				free(stk[depth].name);
				free(stk[depth].kind);
			}
			if (depth == cap) {
				cap = cap ? cap * 2 : 64;
				stk = pr_xreallocarray(stk, cap, sizeof(*stk));
			}
			stk[depth++] = (struct open_span){ end, pr_xstrdup(pr_actx_text(st, 3)),
							   pr_xstrdup(pr_actx_text(st, 2)) };
			rc = sqlite3_step(st);
		}
		while (depth && stk[depth - 1].end < v[i].ts) {
			depth--;
			free(stk[depth].name);
			free(stk[depth].kind);
		}
		f = pick(stk, depth);
		v[i].frame = frame_of(fr, nfr, f ? f->name : "(no span)", f ? f->kind : "");
	}
	for (k = 0; k < depth; k++) {
		free(stk[k].name);
		free(stk[k].kind);
	}
	free(stk);
	if (rc == SQLITE_ROW)
		rc = SQLITE_DONE; /* the rest starts after the last allocation */
	return pr_actx_done(ctx, st, rc, err);
}

static json_t *by_address(struct pr_actx *ctx, struct live *v, size_t n, double value,
			  struct pr_error *err, int *failed)
{
	struct frame *fr = NULL;
	size_t nfr = 0, i, j, best = 0;
	double total = 0;
	json_t *o = NULL;
	qsort(v, n, sizeof(*v), cmp_live);
	for (i = 0; i < n && !*failed; i = j) {
		for (j = i; j < n && v[j].track == v[i].track; j++)
			;
		if (sweep_track(ctx, v + i, j - i, &fr, &nfr, err))
			*failed = 1;
	}
	if (!*failed) {
		for (i = 0; i < n; i++) {
			fr[v[i].frame].bytes += v[i].bytes;
			fr[v[i].frame].allocations++;
			total += v[i].bytes;
		}
		for (i = 1; i < nfr; i++)
			if (fr[i].bytes > fr[best].bytes || (fr[i].bytes == fr[best].bytes &&
							     strcmp(fr[i].name, fr[best].name) < 0))
				best = i;
		o = pr_jobj("name", json_string(fr[best].name), "kind", json_string(fr[best].kind),
			    "rule", json_string("live bytes by address"), "bytes",
			    pr_jnum(fr[best].bytes), "allocations", pr_jint(fr[best].allocations),
			    "share", value > 0 ? pr_jnum(fr[best].bytes / value) : json_null(),
			    "untracked_bytes", pr_jnum(value > total ? value - total : 0), NULL);
	}
	for (i = 0; i < nfr; i++) {
		free(fr[i].name);
		free(fr[i].kind);
	}
	free(fr);
	return o;
}

/* The user-level frame open at t on any host thread (rule "enclosing user-level span"). */
static int enclosing(struct pr_actx *ctx, int64_t t, json_t **out, struct pr_error *err)
{
	sqlite3_stmt *st;
	int rc, found = 0;
	/* user spans first, deepest first; else the outermost op */
	if (pr_actx_prep(ctx,
			 "SELECT n.value, s.kind FROM span s JOIN string n ON n.id = s.name_id "
			 "WHERE s.run_id = ?1 AND s.ts <= ?2 AND s.ts + s.dur >= ?2 "
			 "AND (s.kind IN (" USER_KINDS ") OR s.kind = 'op' OR "
			 "(s.kind = 'python' AND n.value LIKE 'nn.Module:%')) "
			 "ORDER BY s.kind = 'op', "
			 "CASE WHEN s.kind = 'op' THEN -ifnull(s.depth, 0) "
			 "ELSE ifnull(s.depth, 0) END DESC, s.ts DESC, s.id LIMIT 1",
			 &st, err))
		return -1;
	sqlite3_bind_int64(st, 2, t);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = pr_jobj("name", json_string(pr_actx_text(st, 0)), "kind",
			       json_string(pr_actx_text(st, 1)), "rule",
			       json_string("enclosing user-level span"), "bytes", json_null(),
			       "allocations", json_null(), "share", json_null(), "untracked_bytes",
			       json_null(), NULL);
		found = 1;
		rc = SQLITE_DONE;
	}
	if (pr_actx_done(ctx, st, rc, err))
		return -1;
	if (!found)
		*out = json_null();
	return 0;
}

int pr_peak_owner(struct pr_actx *ctx, const struct pr_aseries *s, int64_t t, double value,
		  json_t **out, struct pr_error *err)
{
	struct live *v = NULL;
	size_t n = 0;
	int failed = 0;
	*out = NULL;
	if (!strncmp(s->name, "dev.mem.", 8) && replay(ctx, s->device, t, &v, &n, err))
		return -1;
	if (n) {
		*out = by_address(ctx, v, n, value, err, &failed);
		free(v);
		return failed ? -1 : 0;
	}
	free(v);
	return enclosing(ctx, t, out, err);
}
