/*
 * perfev.c - a perf script run that sampled several events (fmt_perf_script.c:
 * the first event's samples on the (pid, tid) tracks, each other event's on
 * tracks whose tid is "TID EVENT"). Each event weighs its own unit (ns of
 * cpu-clock, page faults, cycles), so no analysis adds one to another: the
 * span analyses (spans, flame graph, timeline, trace view) read one event,
 * the run's "perf event", and leave out the others' tracks. The perf event is
 * the first time-weighted one in file order (cpu-clock, task-clock: unit
 * "ns"), else the first; the others keep their sample counts (perf.samples)
 * and their own profiles in `profreport speedscope`.
 */
#include "analyze/perfev.h"

#include <jansson.h>
#include <sqlite3.h>
#include <string.h>

#include "analyze/actx.h"

int pr_actx_perf_events(struct pr_actx *ctx, struct pr_error *err)
{
	const json_t *units = json_object_get(ctx->meta, "perf.events");
	const json_t *order = json_object_get(ctx->meta, "perf.event_order");
	const char *ev;
	sqlite3_stmt *st;
	size_t i, pick = 0;
	int rc;
	if (!json_is_object(units) || json_array_size(order) < 2)
		return 0;
	for (i = 0; i < json_array_size(order); i++) {
		const char *u = json_string_value(
			json_object_get(units, json_string_value(json_array_get(order, i))));
		if (u && !strcmp(u, "ns")) {
			pick = i;
			break;
		}
	}
	ev = json_string_value(json_array_get(order, pick));
	if (!ev)
		return 0;
	ctx->perf_event = ev;
	ctx->perf_unit = json_string_value(json_object_get(units, ev));
	/* the other events' tracks: the first event's have a tid without a space */
	if (pr_actx_prep(ctx, "SELECT id, ifnull(tid, '') FROM track WHERE run_id = ?1", &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *tid = pr_actx_text(st, 1), *sp = strrchr(tid, ' ');
		int mine = pick ? sp && !strcmp(sp + 1, ev) : !sp;
		if (!mine)
			pr_imap_put(&ctx->perf_other, sqlite3_column_int64(st, 0), 1);
	}
	return pr_actx_done(ctx, st, rc, err);
}

int pr_actx_perf_other(const struct pr_actx *ctx, int64_t track)
{
	int64_t one;
	return ctx->perf_event && pr_imap_get(&ctx->perf_other, track, &one);
}

const char *pr_actx_weight_unit(const struct pr_actx *ctx)
{
	const char *u = json_string_value(json_object_get(ctx->meta, "x_unit"));
	if (u && *u)
		return u;
	if (!ctx->synthetic)
		return NULL;
	u = ctx->perf_event ? ctx->perf_unit
			    : json_string_value(json_object_get(ctx->meta, "weight_unit"));
	return u && strcmp(u, "ns") && strcmp(u, "us") ? u : NULL;
}
