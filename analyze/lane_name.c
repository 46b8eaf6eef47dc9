/*
 * lane_name.c - a track's name as the timeline and the trace view name their
 * lanes (lane_name.h).
 */
#include "analyze/lane_name.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/gpuscan.h"
#include "base/xalloc.h"

/* s without its leading and trailing blanks (Kineto writes "stream 7 ") into buf. */
static const char *trimmed(const char *s, char *buf, size_t n)
{
	size_t len;
	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), s);
	return buf;
}

/* A GPU track's stream as Kineto names it (its activities' "stream" arg, gpuscan.h), else tid. */
static const char *kineto_stream(struct pr_actx *ctx, int64_t track, const char *tid, char *buf,
				 size_t n)
{
	const struct pr_gpuscan *gs = ctx->gpuscan;
	size_t i;
	for (i = 0; gs && i < gs->ntracks; i++)
		if (gs->tracks[i] == track)
			return pr_gpuscan_stream_label(gs->tstream[i], tid, buf, n);
	return tid;
}

/*
 * A lane as the trace names it (analyze/actx.h): a GPU stream "GPU 0 stream 7"
 * (its numeric device, then its thread_name, else "stream <id>": Kineto's
 * stream id from the activities' "stream" arg, else the tid; a device that
 * is no number: "<process name> / <thread_name>"); a thread its thread_name
 * ("thread 2910249 (pt_main_thread)"), else "thread <tid>" with the tid as the
 * trace prints it (-549452224: Kineto's pid/tid packing; an async track "async
 * <id>"); the process name before a thread ("python3.10 / ...") only when the
 * run's tracks of its kind belong to more than one process name.
 */
json_t *pr_timeline_lane_name(struct pr_actx *ctx, int64_t track, const char **kind,
			      struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *name = NULL;
	int rc;
	if (pr_actx_prep(
		    ctx,
		    "SELECT kind, ifnull(process_name, ''), ifnull(name, ''), ifnull(pid, ''), "
		    "ifnull(tid, ''), (SELECT count(DISTINCT ifnull(t2.process_name, '')) "
		    "FROM track t2 WHERE t2.run_id = track.run_id AND t2.kind = track.kind) "
		    "FROM track WHERE id = ?2",
		    &st, err))
		return NULL;
	sqlite3_bind_int64(st, 2, track);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char buf[700], tn[300], proc[300], sid[24];
		const char *pid = pr_actx_text(st, 3), *tid = pr_actx_text(st, 4);
		const char *tk = pr_actx_text(st, 0);
		int gpu = !strcmp(tk, "gpu_stream");
		int device = gpu && *pid && !pid[strspn(pid, "0123456789")];
		trimmed(pr_actx_text(st, 1), proc, sizeof(proc));
		trimmed(pr_actx_text(st, 2), tn, sizeof(tn));
		*kind = gpu ? "gpu_stream" : "thread";
		if (!tn[0])
			snprintf(tn, sizeof(tn), "%.20s %.200s", gpu ? "stream" : tk,
				 gpu ? kineto_stream(ctx, track, tid, sid, sizeof(sid)) : tid);
		if (device && !strstr(tn, "GPU") && !strstr(tn, "device"))
			snprintf(buf, sizeof(buf), "GPU %.100s %s", pid, tn);
		else if (proc[0] && (gpu || sqlite3_column_int64(st, 5) > 1))
			snprintf(buf, sizeof(buf), "%s / %s", proc, tn);
		else
			snprintf(buf, sizeof(buf), "%s", tn);
		name = json_string(buf);
	}
	if (pr_actx_done(ctx, st, rc, err) || !name) {
		json_decref(name);
		return name ? NULL : json_string("?");
	}
	return name;
}
