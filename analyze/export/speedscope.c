/* speedscope.c - the store as a speedscope file, built from analyze/export/spanwalk.h callbacks. */
#include "analyze/export/speedscope.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/export/spanwalk.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

#define JSON_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))
/* Beyond this, JavaScript numbers (doubles) no longer hold every integer. */
#define EXACT_LIMIT 9007199254740992.0 /* 2^53 */
#define SHIFT_LIMIT ((int64_t)1 << 52)

/* One memory series of the current run: its samples until the run ends. */
struct ss_series {
	int have_prev;
	double prev, sum;
	int64_t *stack; /* stack id per sample */
	double *weight;
	size_t n, cap;
};

struct ss_ctx {
	FILE *prof; /* the profiles, comma-separated, until the header can be written */
	struct pr_speedscope_stats *stats;
	int io_failed;

	json_t *frames; /* shared.frames */
	struct pr_strmap frame_ids;
	struct pr_strbuf key;

	struct pr_strbuf labels; /* for "name" */
	int64_t nruns;
	const char *x_unit;	 /* the run being written: meta x_unit, "" for time */
	const char *weight_unit; /* its synthetic weights' unit ("" when none) */
	json_t *perf_events;	 /* its perf events' units (perf.events), NULL when none */
	const char *perf_first;	 /* its first perf event ("" when none) */

	/* the current run */
	int64_t base; /* subtracted from every time of the run */
	struct pr_strbuf prefix;
	struct ss_series *series;
	size_t nseries;

	/* the current evented profile */
	int64_t *fstack;
	size_t fn, fcap;
	int first_event;
	json_t *ev[2];	  /* {"type": "O"|"C", "at": 0, "frame": 0}, reused */
	json_t *ev_at[2]; /* borrowed from ev */
	json_t *ev_frame[2];

	/* distinct sample stacks: frame ids (int64) -> id; their JSON text */
	struct pr_strmap stack_ids;
	char **stack_text;
	size_t nstacks, capstacks;
	struct pr_strbuf skey;
	int64_t *sframes;
	size_t sframes_cap;
};

/* ---- output ---- */

static void put(struct ss_ctx *c, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, c->prof) != n)
		c->io_failed = 1;
}

static void puts_(struct ss_ctx *c, const char *s)
{
	put(c, s, strlen(s));
}

/* Dumps v (stolen) to the profiles file. */
static void put_json(struct ss_ctx *c, json_t *v)
{
	char small[128];
	size_t n = json_dumpb(v, small, sizeof(small), JSON_FLAGS | JSON_ENCODE_ANY);
	if (n && n <= sizeof(small)) {
		put(c, small, n);
	} else if (json_dumpf(v, c->prof, JSON_FLAGS | JSON_ENCODE_ANY)) {
		c->io_failed = 1;
	}
	json_decref(v);
}

/* An object v (stolen) without its closing brace, so that keys can follow. */
static void put_open_object(struct ss_ctx *c, json_t *v)
{
	char *text = json_dumps(v, JSON_FLAGS);
	size_t n;
	json_decref(v);
	if (!text) {
		c->io_failed = 1;
		return;
	}
	n = strlen(text);
	put(c, text, n ? n - 1 : 0);
	free(text);
}

/* A number: an integer when the value is integral and exact in JavaScript. */
static json_t *num(double v)
{
	if (isfinite(v) && v == floor(v) && fabs(v) <= EXACT_LIMIT)
		return json_integer((json_int_t)v);
	return json_real(isfinite(v) ? v : 0.0);
}

/* A JSON string; bytes that are not UTF-8 (the store holds UTF-8) become '?'. */
static json_t *str(const char *s)
{
	json_t *j = json_string(s ? s : "");
	char *copy, *p;
	if (j)
		return j;
	copy = pr_xstrdup(s);
	for (p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80 || (unsigned char)*p < 0x20)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static void set(json_t *obj, const char *key, json_t *v)
{
	json_object_set_new(obj, key, v);
}

/* ---- frames ---- */

static int64_t frame_id(struct ss_ctx *c, const struct pr_sw_frame *f)
{
	int64_t id;
	json_t *obj;
	pr_strbuf_reset(&c->key);
	if (f->file) {
		pr_strbuf_addch(&c->key, 'f');
		pr_strbuf_add(&c->key, f->name, strlen(f->name) + 1);
		pr_strbuf_add(&c->key, f->file, strlen(f->file) + 1);
		pr_strbuf_addf(&c->key, "%lld:%lld", (long long)f->line, (long long)f->col);
	} else {
		pr_strbuf_addch(&c->key, 'n');
		pr_strbuf_addstr(&c->key, f->name);
	}
	if (pr_strmap_get(&c->frame_ids, c->key.buf, c->key.len, &id))
		return id;
	id = (int64_t)json_array_size(c->frames);
	obj = json_object();
	set(obj, "name", str(f->name));
	if (f->file) {
		set(obj, "file", str(f->file));
		if (f->line >= 0)
			set(obj, "line", json_integer(f->line));
		if (f->col >= 0)
			set(obj, "col", json_integer(f->col));
	}
	json_array_append_new(c->frames, obj);
	pr_strmap_put(&c->frame_ids, c->key.buf, c->key.len, id);
	c->stats->frames = id + 1;
	return id;
}

/* ---- profiles ---- */

static void profile_sep(struct ss_ctx *c)
{
	if (c->stats->profiles++)
		puts_(c, ",");
}

static int ss_run_begin(void *ctx, const struct pr_sw_run *run, struct pr_error *err)
{
	struct ss_ctx *c = ctx;
	(void)err;
	c->base = 0;
	if (run->has_extent && (run->ts_max > SHIFT_LIMIT || run->ts_min < -SHIFT_LIMIT))
		c->base = run->ts_min;
	pr_strbuf_reset(&c->prefix);
	pr_strbuf_addstr(&c->prefix, run->label[0] ? run->label : run->format);
	if (run->rank >= 0)
		pr_strbuf_addf(&c->prefix, " rank %lld", (long long)run->rank);
	if (c->nruns < 3)
		pr_strbuf_addf(&c->labels, "%s%s", c->nruns ? ", " : "", c->prefix.buf);
	c->nruns++;
	c->nseries = run->nseries;
	c->x_unit = run->x_unit ? run->x_unit : "";
	c->weight_unit = run->weight_unit ? run->weight_unit : "";
	c->perf_first = run->perf_first ? run->perf_first : "";
	json_decref(c->perf_events);
	c->perf_events = run->perf_events && *run->perf_events
				 ? json_loads(run->perf_events, 0, NULL)
				 : NULL;
	c->series = run->nseries ? pr_xcalloc(run->nseries, sizeof(*c->series)) : NULL;
	return 0;
}

/*
 * speedscope's unit of a lane: a run whose positions are not time says so
 * (DHAT's bytes); a synthetic profile's lane says what its weights count
 * ("none": page faults, samples): each perf event's own (the first event's
 * tracks have a bare tid, another's "TID EVENT", fmt_perf_script.c).
 * *event: the first perf event on its bare-tid lanes when the run has several
 * (the others' track names say theirs), else NULL.
 */
static const char *lane_unit(const struct ss_ctx *c, const struct pr_sw_track *t,
			     const char **event)
{
	const char *sp = strrchr(t->tid, ' '), *u = c->weight_unit;
	*event = NULL;
	if (*c->x_unit)
		return !strcmp(c->x_unit, "bytes") ? "bytes" : "none";
	if (json_object_size(c->perf_events) > 1) {
		if (sp && json_is_string(json_object_get(c->perf_events, sp + 1)))
			u = json_string_value(json_object_get(c->perf_events, sp + 1));
		else if (*c->perf_first)
			*event = c->perf_first; /* a bare tid: the first event's; named for it */
	}
	return !*u || !strcmp(u, "ns") || !strcmp(u, "us") ? "nanoseconds" : "none";
}

static int ss_lane_begin(void *ctx, const struct pr_sw_lane *l, struct pr_error *err)
{
	struct ss_ctx *c = ctx;
	const struct pr_sw_track *t = l->track;
	struct pr_strbuf name = PR_STRBUF_INIT, proc = PR_STRBUF_INIT;
	json_t *h = json_object();
	const char *event, *unit = lane_unit(c, t, &event);
	(void)err;

	pr_strbuf_addstr(&name, c->prefix.buf);
	if (t->process_name[0])
		pr_strbuf_addstr(&proc, t->process_name);
	else if (t->pid[0])
		pr_strbuf_addf(&proc, "pid %s", t->pid);
	pr_strbuf_addpart(&name, " / ", proc.buf);
	pr_strbuf_addpart(&name, " / ", t->name[0] ? t->name : t->tid[0] ? t->tid : t->kind);
	if (event)
		pr_strbuf_addf(&name, " (%s)", event);
	if (l->lane > 1)
		pr_strbuf_addf(&name, " (lane %d)", l->lane);

	profile_sep(c);
	c->stats->evented++;
	set(h, "type", json_string("evented"));
	set(h, "name", str(name.buf));
	set(h, "unit", json_string(unit));
	/* spanwalk clamps times to +-PR_TIME_LIMIT_NS, so these cannot saturate */
	set(h, "startValue", json_integer(pr_sub_sat(l->start, c->base)));
	set(h, "endValue", json_integer(pr_sub_sat(l->end, c->base)));
	put_open_object(c, h);
	puts_(c, ",\"events\":[");
	c->first_event = 1;
	c->fn = 0;
	pr_strbuf_release(&name);
	pr_strbuf_release(&proc);
	return 0;
}

static void put_event(struct ss_ctx *c, int close, int64_t frame, int64_t at)
{
	char buf[128];
	size_t n;
	json_integer_set(c->ev_at[close], pr_sub_sat(at, c->base));
	json_integer_set(c->ev_frame[close], frame);
	n = json_dumpb(c->ev[close], buf, sizeof(buf), JSON_FLAGS);
	if (!c->first_event)
		puts_(c, ",");
	c->first_event = 0;
	if (n && n <= sizeof(buf))
		put(c, buf, n);
	else
		c->io_failed = 1;
	c->stats->events++;
}

static int ss_open(void *ctx, const struct pr_sw_frame *f, int64_t at, struct pr_error *err)
{
	struct ss_ctx *c = ctx;
	int64_t id = frame_id(c, f);
	(void)err;
	if (c->fn == c->fcap) {
		c->fcap = c->fcap ? c->fcap * 2 : 64;
		c->fstack = pr_xreallocarray(c->fstack, c->fcap, sizeof(*c->fstack));
	}
	c->fstack[c->fn++] = id;
	put_event(c, 0, id, at);
	return 0;
}

static int ss_close(void *ctx, int64_t at, struct pr_error *err)
{
	struct ss_ctx *c = ctx;
	if (!c->fn)
		return pr_error_set(err, PR_E_STORE, "speedscope: close without an open span");
	put_event(c, 1, c->fstack[--c->fn], at);
	return 0;
}

static int ss_lane_end(void *ctx, const struct pr_sw_lane *l, struct pr_error *err)
{
	struct ss_ctx *c = ctx;
	(void)l;
	if (c->fn)
		return pr_error_set(err, PR_E_STORE, "speedscope: a lane ended with open spans");
	puts_(c, "]}");
	return c->io_failed ? pr_error_set(err, PR_E_IO, "cannot write a temporary file: %s",
					   strerror(errno))
			    : 0;
}

/* The id of the stack of frame ids f[0..n). */
static int64_t stack_id(struct ss_ctx *c, const int64_t *f, size_t n)
{
	int64_t id;
	json_t *arr;
	size_t i;
	pr_strbuf_reset(&c->skey);
	pr_strbuf_add(&c->skey, f, n * sizeof(*f));
	if (pr_strmap_get(&c->stack_ids, c->skey.buf, c->skey.len, &id))
		return id;
	arr = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_integer(f[i]));
	if (c->nstacks == c->capstacks) {
		c->capstacks = c->capstacks ? c->capstacks * 2 : 64;
		c->stack_text = pr_xreallocarray(c->stack_text, c->capstacks, sizeof(char *));
	}
	c->stack_text[c->nstacks] = json_dumps(arr, JSON_FLAGS);
	json_decref(arr);
	if (!c->stack_text[c->nstacks])
		c->stack_text[c->nstacks] = pr_xstrdup("[]");
	id = (int64_t)c->nstacks++;
	pr_strmap_put(&c->stack_ids, c->skey.buf, c->skey.len, id);
	return id;
}

static int ss_sample(void *ctx, const struct pr_sw_run *run, size_t si, int64_t ts, double value,
		     const struct pr_sw_frame *stack, size_t depth, struct pr_error *err)
{
	struct ss_ctx *c = ctx;
	struct ss_series *s;
	double w;
	size_t i;
	(void)ts;
	(void)err;
	if (si >= c->nseries || !isfinite(value))
		return 0;
	s = &c->series[si];
	if (!s->have_prev) {
		s->have_prev = 1;
		s->prev = value;
		return 0;
	}
	w = value - s->prev;
	s->prev = value;
	if (!(w > 0))
		return 0;
	if (depth + 1 > c->sframes_cap) {
		c->sframes_cap = depth + 16;
		c->sframes = pr_xreallocarray(c->sframes, c->sframes_cap, sizeof(*c->sframes));
	}
	if (!depth) {
		struct pr_strbuf nm = PR_STRBUF_INIT;
		struct pr_sw_frame f = { NULL, NULL, -1, -1 };
		pr_strbuf_addf(&nm, "[no span] %s", run->series[si].name);
		f.name = nm.buf;
		c->sframes[0] = frame_id(c, &f);
		pr_strbuf_release(&nm);
		depth = 1;
	} else {
		for (i = 0; i < depth; i++)
			c->sframes[i] = frame_id(c, &stack[i]);
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->stack = pr_xreallocarray(s->stack, s->cap, sizeof(*s->stack));
		s->weight = pr_xreallocarray(s->weight, s->cap, sizeof(*s->weight));
	}
	s->stack[s->n] = stack_id(c, c->sframes, depth);
	s->weight[s->n] = w;
	s->n++;
	s->sum += w;
	return 0;
}

static void write_sampled(struct ss_ctx *c, const struct pr_sw_series *se, struct ss_series *s)
{
	struct pr_strbuf name = PR_STRBUF_INIT;
	json_t *h = json_object();
	size_t i;

	pr_strbuf_addf(&name, "%s / %s%s%s growth", c->prefix.buf, se->name,
		       se->device[0] ? " " : "", se->device);
	profile_sep(c);
	c->stats->sampled++;
	set(h, "type", json_string("sampled"));
	set(h, "name", str(name.buf));
	set(h, "unit", json_string("bytes"));
	set(h, "startValue", json_integer(0));
	set(h, "endValue", num(s->sum));
	put_open_object(c, h);
	puts_(c, ",\"samples\":[");
	for (i = 0; i < s->n; i++) {
		if (i)
			puts_(c, ",");
		puts_(c, c->stack_text[s->stack[i]]);
	}
	puts_(c, "],\"weights\":[");
	for (i = 0; i < s->n; i++) {
		if (i)
			puts_(c, ",");
		put_json(c, num(s->weight[i]));
	}
	puts_(c, "]}");
	c->stats->samples += (int64_t)s->n;
	pr_strbuf_release(&name);
}

static void free_series(struct ss_ctx *c)
{
	size_t i;
	for (i = 0; i < c->nseries; i++) {
		free(c->series[i].stack);
		free(c->series[i].weight);
	}
	free(c->series);
	c->series = NULL;
	c->nseries = 0;
}

static int ss_run_end(void *ctx, const struct pr_sw_run *run, struct pr_error *err)
{
	struct ss_ctx *c = ctx;
	size_t i;
	for (i = 0; i < c->nseries; i++) {
		if (c->series[i].n)
			write_sampled(c, &run->series[i], &c->series[i]);
		else
			c->stats->flat_series++;
	}
	free_series(c);
	return c->io_failed ? pr_error_set(err, PR_E_IO, "cannot write a temporary file: %s",
					   strerror(errno))
			    : 0;
}

static const struct pr_spanwalk_ops ss_ops = {
	.run_begin = ss_run_begin,
	.lane_begin = ss_lane_begin,
	.open = ss_open,
	.close = ss_close,
	.lane_end = ss_lane_end,
	.sample = ss_sample,
	.run_end = ss_run_end,
};

/* ---- the file ---- */

static FILE *scratch_file(struct pr_error *err)
{
	const char *dir = getenv("TMPDIR");
	struct pr_strbuf path = PR_STRBUF_INIT;
	FILE *f = NULL;
	int fd;
	pr_strbuf_addf(&path, "%s/profreport-speedscope-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path.buf);
	if (fd < 0) {
		pr_error_set(err, PR_E_IO, "cannot create a temporary file in '%s': %s",
			     dir && *dir ? dir : "/tmp", strerror(errno));
		pr_strbuf_release(&path);
		return NULL;
	}
	unlink(path.buf);
	f = fdopen(fd, "w+");
	if (!f) {
		close(fd);
		pr_error_set(err, PR_E_IO, "cannot open a temporary file: %s", strerror(errno));
	}
	pr_strbuf_release(&path);
	return f;
}

static int copy_file(FILE *from, FILE *to)
{
	char buf[1 << 16];
	size_t n;
	if (fflush(from) || fseek(from, 0, SEEK_SET))
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(from) ? -1 : 0;
}

static void ctx_init(struct ss_ctx *c)
{
	int i;
	memset(c, 0, sizeof(*c));
	c->frames = json_array();
	pr_strbuf_init(&c->key);
	pr_strbuf_init(&c->labels);
	pr_strbuf_init(&c->prefix);
	pr_strbuf_init(&c->skey);
	for (i = 0; i < 2; i++) {
		c->ev[i] = json_object();
		set(c->ev[i], "type", json_string(i ? "C" : "O"));
		set(c->ev[i], "at", json_integer(0));
		set(c->ev[i], "frame", json_integer(0));
		c->ev_at[i] = json_object_get(c->ev[i], "at");
		c->ev_frame[i] = json_object_get(c->ev[i], "frame");
	}
}

static void ctx_release(struct ss_ctx *c)
{
	size_t i;
	if (c->prof)
		fclose(c->prof);
	json_decref(c->frames);
	json_decref(c->perf_events);
	json_decref(c->ev[0]);
	json_decref(c->ev[1]);
	pr_strmap_release(&c->frame_ids);
	pr_strmap_release(&c->stack_ids);
	for (i = 0; i < c->nstacks; i++)
		free(c->stack_text[i]);
	free(c->stack_text);
	pr_strbuf_release(&c->key);
	pr_strbuf_release(&c->labels);
	pr_strbuf_release(&c->prefix);
	pr_strbuf_release(&c->skey);
	free(c->fstack);
	free(c->sframes);
	free_series(c);
}

int pr_speedscope_write(struct pr_store *st, FILE *out, const struct pr_speedscope_opts *opts,
			struct pr_speedscope_stats *stats, struct pr_error *err)
{
	static const struct pr_speedscope_opts dflt = PR_SPEEDSCOPE_OPTS_INIT;
	struct pr_speedscope_stats dummy;
	struct pr_spanwalk_opts wo;
	struct pr_spanwalk_stats ws;
	struct ss_ctx c;
	struct pr_strbuf name = PR_STRBUF_INIT;
	json_t *head;
	int ret = -1;

	if (!opts)
		opts = &dflt;
	if (!stats)
		stats = &dummy;
	memset(stats, 0, sizeof(*stats));
	ctx_init(&c);
	c.stats = stats;
	c.prof = scratch_file(err);
	if (!c.prof)
		goto out;

	memset(&wo, 0, sizeof(wo));
	wo.run_id = opts->run_id;
	wo.spans = opts->spans;
	wo.memory = opts->memory;
	if (pr_spanwalk(st, &wo, &ss_ops, &c, &ws, err)) {
		stats->clamped = ws.clamped;
		goto out;
	}
	stats->clamped = ws.clamped;
	stats->extra_lanes = ws.extra_lanes;
	if (!stats->profiles) {
		pr_error_set(err, PR_E_USAGE,
			     "nothing to export: no spans and no memory series that grow%s",
			     opts->run_id ? " in this run" : "");
		goto out;
	}

	if (c.nruns > 3)
		pr_strbuf_addf(&name, "%s and %lld more runs", c.labels.buf,
			       (long long)(c.nruns - 3));
	else
		pr_strbuf_addstr(&name, c.labels.buf);
	head = json_object();
	set(head, "$schema", json_string(PR_SPEEDSCOPE_SCHEMA));
	set(head, "exporter", json_string("profreport@" PR_VERSION));
	set(head, "name", str(name.buf));
	set(head, "activeProfileIndex", json_integer(0));
	set(head, "shared", json_pack("{s:O}", "frames", c.frames));
	{
		char *text = json_dumps(head, JSON_FLAGS);
		size_t n = text ? strlen(text) : 0;
		json_decref(head);
		if (!n || fwrite(text, 1, n - 1, out) != n - 1 ||
		    fputs(",\"profiles\":[", out) < 0 || copy_file(c.prof, out) ||
		    fputs("]}\n", out) < 0 || fflush(out)) {
			free(text);
			pr_error_set(err, PR_E_IO, "write failed: %s", strerror(errno));
			goto out;
		}
		free(text);
	}
	ret = 0;
out:
	pr_strbuf_release(&name);
	ctx_release(&c);
	return ret;
}

int pr_speedscope_export(struct pr_store *st, const char *path,
			 const struct pr_speedscope_opts *opts, struct pr_speedscope_stats *stats,
			 struct pr_error *err)
{
	struct pr_output out;
	int ret = -1;

	/* base/output.c: a temporary file renamed onto the path (or onto the file
	 * a link names); a device or a pipe written in place. */
	if (pr_output_open_file(&out, path, err))
		return -1;
	if (pr_speedscope_write(st, out.fp, opts, stats, err)) {
		int e = errno;
		/* A failed write is reported with the path, like every output's. */
		if (ferror(out.fp)) {
			pr_output_fail(&out, e);
			if (pr_output_close(&out, err))
				goto out;
		}
		goto out;
	}
	if (pr_output_close(&out, err))
		goto out;
	ret = 0;
out:
	pr_output_release(&out);
	return ret;
}
