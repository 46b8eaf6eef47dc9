/*
 * fmt_chrome.c - Chrome Trace Event JSON (torch.profiler/Kineto, viztracer,
 * Perfetto/Chrome JSON), object and bare-array forms, plain or gzip.
 *
 * Streaming: the file passes through a window that holds one event (or one
 * top-level metadata value) at a time, so memory does not grow with the
 * trace. Metadata keys may come before or after "traceEvents".
 * Times: ts/dur are microseconds (displayTimeUnit only affects display),
 * parsed exactly from their decimal text into nanoseconds, and kept within
 * +-PR_TIME_LIMIT_NS (base/timecheck.h): an event whose ts is beyond it is
 * skipped, a dur that ends beyond it is cut there (time_out_of_range); an
 * X event without "dur" lasts 0 (missing_duration).
 * Leniency (each repair is a diagnostic): a file cut inside the event array
 * keeps every complete event; a trailing comma before ']' after events;
 * raw control characters and invalid UTF-8 inside event strings.
 * Not a trace (PR_E_FORMAT, so a directory walk skips it): an object with no
 * "traceEvents" array, a "traceEvents" that is not an array, a scalar, an
 * empty bare array, an event array none of whose elements is an object with
 * "ph". An empty "traceEvents" array is a trace that recorded nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/jscan.h"
#include "ingest/stacks.h"
#include "base/decimal.h"
#include "base/strmap.h"
#include "base/timecheck.h"
#include "base/xalloc.h"

#define WINDOW_INIT (4u << 20)
#define WINDOW_MAX ((size_t)1 << 30)
#define META_MAX (1u << 20)

struct tok {
	size_t start, len; /* raw extent (string content without quotes) */
	unsigned char present, is_str, escaped, dirty;
};

struct event {
	struct tok ph, name, cat, ts, dur, pid, tid, id, id2, s, bp, scope;
	int has_args;
};

struct async_open {
	int64_t ts, name, cat, track;
	int64_t prev; /* enclosing open slice with the same key, or -1 */
	int live;
	struct pr_strbuf keys, args;
};

struct mem_delta {
	int64_t ts, seq;
	double bytes;
	size_t dev;
};

struct mem_dev {
	char *name;
	int has_total; /* some event of the device carries "Total Allocated" */
};

struct chrome {
	struct pr_source *src;
	struct pr_writer *w;
	struct pr_error *err;
	char *buf;
	size_t cap, len, pos;
	int64_t base; /* file offset of buf[0] */
	int eof, truncated;
	struct js_ctx js;
	int64_t events, ts_min;
	int64_t elements, ph_objects; /* of the event array; objects with "ph" */
	const char *not_trace;	      /* why the JSON is no trace (said after the syntax check) */
	int64_t not_trace_at;	      /* where, or -1 */
	int has_ts, has_origin, has_rank, torch_hint;
	int device_activity; /* kernels, memcpys or memsets seen */
	unsigned dev_flags;  /* DEV_*: device families the events name */
	/* [memory] events with only "Bytes" (PyTorch 1.8-1.10), for the running total */
	struct mem_delta *deltas;
	size_t ndeltas, cap_deltas;
	struct pr_strmap mem_devs; /* device name -> index into mem_dev */
	struct mem_dev *mem_dev;
	size_t nmem_dev;
	struct pr_strbuf akeys, args, name, cat, pid, tid, key, tmp; /* akeys/args: split args */
	/* one-entry caches */
	struct pr_strbuf last_thread;
	int64_t last_track;
	int64_t last_gpu_track;
	/* open async slices */
	struct pr_strmap async;
	struct async_open *opens;
	size_t nopens, cap_opens;
	int64_t *free_opens;
	size_t nfree;
	/* a sampled profile: "samples" and "stackFrames" (the JSON Object Format's) */
	json_t *samples, *frames;
	int64_t samples_at;
};

/* ---- window ---- */

static int refill(struct chrome *ch)
{
	long n;
	if (ch->eof)
		return 0;
	if (ch->pos > 0) {
		memmove(ch->buf, ch->buf + ch->pos, ch->len - ch->pos);
		ch->base += (int64_t)ch->pos;
		ch->len -= ch->pos;
		ch->pos = 0;
	}
	if (ch->len == ch->cap) {
		if (ch->cap >= WINDOW_MAX)
			return pr_error_at(ch->err, PR_E_LIMIT, ch->base, 0, 0,
					   "a single JSON value is larger than %zu MiB",
					   WINDOW_MAX >> 20);
		ch->cap *= 2;
		ch->buf = pr_xrealloc(ch->buf, ch->cap);
	}
	n = pr_source_read(ch->src, ch->buf + ch->len, ch->cap - ch->len, ch->err);
	if (n < 0)
		return -1;
	if (n == 0)
		ch->eof = 1;
	ch->len += (size_t)n;
	ch->js.buf = ch->buf;
	ch->js.len = ch->len;
	ch->js.eof = ch->eof;
	return 0;
}

static int js_fail(struct chrome *ch)
{
	return pr_error_at(ch->err, PR_E_PARSE, ch->base + (int64_t)ch->js.err_pos, 0, 0, "%s",
			   ch->js.err_msg);
}

/* Skips whitespace, reading more as needed. Returns 0, or -1 on read error. */
static int skip_ws(struct chrome *ch)
{
	for (;;) {
		size_t p = ch->pos;
		int rc = js_ws(&ch->js, &p);
		ch->pos = p;
		if (rc != JS_MORE)
			return 0;
		if (refill(ch))
			return -1;
	}
}

static int at_eof(const struct chrome *ch)
{
	return ch->pos >= ch->len && ch->eof;
}

/* ---- tokens ---- */

static int tok_value(struct js_ctx *c, size_t *p, struct tok *t, int want_str, int want_num)
{
	char ch = c->buf[*p];
	int rc;
	t->present = 0;
	if (ch == '"') {
		struct js_str s;
		rc = js_string(c, p, &s);
		if (rc != JS_OK)
			return rc;
		if (want_str || want_num) {
			t->start = s.start;
			t->len = s.len;
			t->is_str = 1;
			t->escaped = s.escaped;
			t->dirty = s.dirty;
			t->present = 1;
		}
		return JS_OK;
	}
	if (want_num && (ch == '-' || (ch >= '0' && ch <= '9'))) {
		t->start = *p;
		rc = js_number(c, p);
		if (rc != JS_OK)
			return rc;
		t->len = *p - t->start;
		t->is_str = 0;
		t->escaped = t->dirty = 0;
		t->present = 1;
		return JS_OK;
	}
	return js_value(c, p, NULL);
}

static int key_is(const char *buf, const struct js_str *k, const char *lit, size_t n)
{
	return k->len == n && !k->escaped && !memcmp(buf + k->start, lit, n);
}

/* Parses one event object at *p into ev (extents) and ch->args (minified). */
static int parse_event(struct chrome *ch, size_t *p, struct event *ev)
{
	struct js_ctx *c = &ch->js;
	const char *b = ch->buf;
	size_t i = *p + 1;
	int rc;

	ev->ph.present = ev->name.present = ev->cat.present = ev->ts.present = 0;
	ev->dur.present = ev->pid.present = ev->tid.present = ev->id.present = 0;
	ev->id2.present = ev->s.present = ev->bp.present = ev->scope.present = 0;
	ev->has_args = 0;
	pr_strbuf_reset(&ch->akeys);
	pr_strbuf_reset(&ch->args);
	if ((rc = js_ws(c, &i)) != JS_OK)
		return rc;
	if (i < c->len && b[i] == '}') {
		*p = i + 1;
		return JS_OK;
	}
	for (;;) {
		struct js_str k;
		struct tok *t = NULL;
		int want_str = 0, want_num = 0;
		if ((rc = js_key(c, &i, &k)) != JS_OK)
			return rc;
		if (i >= c->len)
			return js_end(c, i);
		switch (k.len) {
		case 2:
			if (key_is(b, &k, "ph", 2))
				t = &ev->ph, want_str = 1;
			else if (key_is(b, &k, "ts", 2))
				t = &ev->ts, want_num = 1;
			else if (key_is(b, &k, "id", 2))
				t = &ev->id, want_num = 1;
			else if (key_is(b, &k, "bp", 2))
				t = &ev->bp, want_str = 1;
			break;
		case 1:
			if (key_is(b, &k, "s", 1))
				t = &ev->s, want_str = 1;
			break;
		case 3:
			if (key_is(b, &k, "cat", 3))
				t = &ev->cat, want_str = 1;
			else if (key_is(b, &k, "dur", 3))
				t = &ev->dur, want_num = 1;
			else if (key_is(b, &k, "pid", 3))
				t = &ev->pid, want_num = 1;
			else if (key_is(b, &k, "tid", 3))
				t = &ev->tid, want_num = 1;
			else if (key_is(b, &k, "id2", 3)) {
				ev->id2.start = i;
				if ((rc = js_value(c, &i, NULL)) != JS_OK)
					return rc;
				ev->id2.len = i - ev->id2.start;
				ev->id2.present = 1;
				goto next;
			}
			break;
		case 4:
			if (key_is(b, &k, "name", 4))
				t = &ev->name, want_str = 1;
			else if (key_is(b, &k, "args", 4)) {
				if (b[i] == '{') {
					pr_strbuf_reset(&ch->akeys);
					pr_strbuf_reset(&ch->args);
					if ((rc = js_object_split(c, &i, &ch->akeys, &ch->args)) !=
					    JS_OK)
						return rc;
					ev->has_args = 1;
				} else if ((rc = js_value(c, &i, NULL)) != JS_OK) {
					return rc;
				}
				goto next;
			}
			break;
		case 5:
			if (key_is(b, &k, "scope", 5))
				t = &ev->scope, want_str = 1;
			break;
		}
		if (t) {
			if ((rc = tok_value(c, &i, t, want_str, want_num)) != JS_OK)
				return rc;
		} else if ((rc = js_value(c, &i, NULL)) != JS_OK) {
			return rc;
		}
	next:
		if ((rc = js_ws(c, &i)) != JS_OK)
			return rc;
		if (i >= c->len)
			return js_end(c, i);
		if (b[i] == '}') {
			*p = i + 1;
			return JS_OK;
		}
		if (b[i] != ',')
			return js_error(c, i, "',' or '}' expected in object");
		i++;
		if ((rc = js_ws(c, &i)) != JS_OK)
			return rc;
	}
}

/* Text of a token (decoded when it is an escaped or repaired string). */
static void tok_text(struct chrome *ch, const struct tok *t, struct pr_strbuf *out)
{
	pr_strbuf_reset(out);
	if (!t->present)
		return;
	if (t->escaped || t->dirty)
		js_decode(ch->buf + t->start, t->len, out);
	else
		pr_strbuf_add(out, ch->buf + t->start, t->len);
}

static int tok_eq(const struct chrome *ch, const struct tok *t, const char *lit)
{
	size_t n = strlen(lit);
	return t->present && t->len == n && !memcmp(ch->buf + t->start, lit, n);
}

/* Microsecond token -> ns. Returns 0, or -1 when absent or not a number. */
static int tok_us(const struct chrome *ch, const struct tok *t, int64_t *ns)
{
	if (!t->present)
		return -1;
	return pr_decimal_scaled(ch->buf + t->start, t->len, 3, ns) == PR_DEC_OK ? 0 : -1;
}

/* ---- args helpers (over the minified args text) ---- */

typedef void args_fn(struct chrome *ch, const char *key, size_t klen, const char *val, size_t vlen,
		     int is_str, void *ctx);

/* Calls fn for each key/value of the event's (split) args. */
static void args_each(struct chrome *ch, args_fn *fn, void *ctx)
{
	struct js_ctx kc, vc;
	size_t ki = 1, vi = 1;
	memset(&kc, 0, sizeof(kc));
	kc.buf = ch->akeys.buf;
	kc.len = ch->akeys.len;
	kc.eof = 1;
	vc = kc;
	vc.buf = ch->args.buf;
	vc.len = ch->args.len;
	if (kc.len < 2 || vc.len < 2)
		return;
	while (ki < kc.len && kc.buf[ki] == '"' && vi < vc.len && vc.buf[vi] != ']') {
		struct js_str k, v;
		size_t vs = vi, klen;
		const char *key;
		if (js_string(&kc, &ki, &k) != JS_OK)
			return;
		if (k.escaped || k.dirty) {
			pr_strbuf_reset(&ch->key);
			js_decode(kc.buf + k.start, k.len, &ch->key);
			key = ch->key.buf;
			klen = ch->key.len;
		} else {
			key = kc.buf + k.start;
			klen = k.len;
		}
		if (vc.buf[vi] == '"') {
			if (js_string(&vc, &vi, &v) != JS_OK)
				return;
			pr_strbuf_reset(&ch->tmp);
			js_decode(vc.buf + v.start, v.len, &ch->tmp);
			fn(ch, key, klen, ch->tmp.buf, ch->tmp.len, 1, ctx);
		} else {
			if (js_value(&vc, &vi, NULL) != JS_OK)
				return;
			fn(ch, key, klen, vc.buf + vs, vi - vs, 0, ctx);
		}
		if (ki < kc.len && kc.buf[ki] == ',')
			ki++;
		if (vi < vc.len && vc.buf[vi] == ',')
			vi++;
	}
}

static int keyeq(const char *k, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(k, lit, n);
}

/* ---- event handling ---- */

/*
 * Category classes. Kineto's ActivityType names (today's lowercase ones,
 * libkineto/include/ActivityType.h) and the capitalized ones PyTorch
 * 1.8-1.10 wrote (Operator, Runtime, Kernel, Memcpy, Memset, Python,
 * Trace; the TensorBoard plugin reads both, lowercased), compared
 * ASCII case-insensitively. Device activity of every accelerator is one
 * class: CUDA/ROCm kernels, MTIA's mtia_ccp_events. CUPTI range-profiler
 * ranges (cuda_profiler_range) are spans of their own kind
 * (profiler_range) on their device's thread track, not a GPU stream:
 * Kineto gives them no real times (its CuptiRangeProfiler.cpp splits the
 * profiling span evenly among the ranges, replayed kernel by kernel), so
 * they are no GPU work in time; the run is a CUDA one all the same.
 */
enum cat_class {
	CC_OTHER,
	CC_OP,
	CC_PHASE,
	CC_GPU_ANN,
	CC_KERNEL,
	CC_MEMCPY,
	CC_MEMSET,
	CC_RUNTIME,
	CC_PYTHON,
	CC_COLLECTIVE,
	CC_TRACE, /* "Trace": the profiler's own spans (see is_window_span) */
	CC_RANGE, /* CUPTI range-profiler ranges: counters, not time */
};

/* Device families named in run.meta.device_type (bit flags). */
enum {
	DEV_CUDA = 1,
	DEV_ROCM = 2,
	DEV_MTIA = 4,
	DEV_XPU = 8,
	DEV_HPU = 16,
	DEV_PRIVATEUSE1 = 32,
};

#define CAT(name, cls, dev)                                                                        \
	{                                                                                          \
		name, sizeof(name) - 1, cls, dev                                                   \
	}
static const struct {
	const char *cat;
	unsigned char len, cls, dev;
} cat_map[] = {
	CAT("cpu_op", CC_OP, 0),
	CAT("operator", CC_OP, 0),
	CAT("user_annotation", CC_PHASE, 0),
	CAT("gpu_user_annotation", CC_GPU_ANN, 0),
	CAT("kernel", CC_KERNEL, 0),
	CAT("mtia_ccp_events", CC_KERNEL, DEV_MTIA),
	CAT("cuda_profiler_range", CC_RANGE, DEV_CUDA),
	CAT("gpu_memcpy", CC_MEMCPY, 0),
	CAT("memcpy", CC_MEMCPY, 0),
	CAT("gpu_memset", CC_MEMSET, 0),
	CAT("memset", CC_MEMSET, 0),
	CAT("cuda_runtime", CC_RUNTIME, 0),
	CAT("cuda_driver", CC_RUNTIME, 0),
	CAT("runtime", CC_RUNTIME, 0),
	CAT("mtia_runtime", CC_RUNTIME, DEV_MTIA),
	CAT("xpu_runtime", CC_RUNTIME, DEV_XPU),
	CAT("xpu_driver", CC_RUNTIME, DEV_XPU),
	CAT("hpu_op", CC_RUNTIME, DEV_HPU),
	CAT("privateuse1_runtime", CC_RUNTIME, DEV_PRIVATEUSE1),
	CAT("privateuse1_driver", CC_RUNTIME, DEV_PRIVATEUSE1),
	CAT("python_function", CC_PYTHON, 0),
	CAT("python", CC_PYTHON, 0),
	CAT("collective_comm", CC_COLLECTIVE, 0),
	CAT("trace", CC_TRACE, 0),
};
#undef CAT

static int ascii_lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Token equals lit (lowercase), ASCII case-insensitively. */
static int tok_ieq(const struct chrome *ch, const struct tok *t, const char *lit, size_t n)
{
	size_t i;
	if (!t->present || t->len != n)
		return 0;
	for (i = 0; i < n; i++)
		if (ascii_lower((unsigned char)ch->buf[t->start + i]) != lit[i])
			return 0;
	return 1;
}

static int tok_starts(const struct chrome *ch, const struct tok *t, const char *lit)
{
	size_t n = strlen(lit);
	return t->present && t->len >= n && !memcmp(ch->buf + t->start, lit, n);
}

/* The event's category class; *dev gets the device family the category names. */
static enum cat_class cat_class(const struct chrome *ch, const struct event *ev, unsigned *dev)
{
	size_t i;
	*dev = 0;
	if (!ev->cat.present || ev->cat.escaped || ev->cat.dirty)
		return CC_OTHER;
	for (i = 0; i < PR_ARRAY_SIZE(cat_map); i++)
		if (ev->cat.len == cat_map[i].len &&
		    tok_ieq(ch, &ev->cat, cat_map[i].cat, cat_map[i].len)) {
			*dev = cat_map[i].dev;
			return (enum cat_class)cat_map[i].cls;
		}
	return CC_OTHER;
}

/*
 * The profiler's own recording window, which is not workload: Kineto's
 * trace spans ("PyTorch Profiler (0)", "__cupti_profiler__ (0)"; category
 * "Trace", pid "Spans") and the "Iteration Start: ..." instant at the
 * window's start (pid "Traces").
 */
static int is_window_span(const struct chrome *ch, const struct event *ev)
{
	return tok_eq(ch, &ev->pid, "Spans") || tok_starts(ch, &ev->name, "PyTorch Profiler") ||
	       tok_starts(ch, &ev->name, "__cupti_profiler__");
}

static int is_window_instant(const struct chrome *ch, const struct event *ev)
{
	return tok_starts(ch, &ev->name, "Iteration Start: ") && tok_eq(ch, &ev->pid, "Traces");
}

static const char *span_kind(const struct chrome *ch, const struct event *ev, enum cat_class cls)
{
	if (ev->name.present && ev->name.len > 13 &&
	    !memcmp(ch->buf + ev->name.start, "ProfilerStep#", 13))
		return cls == CC_GPU_ANN ? "gpu_step" : "step";
	switch (cls) {
	case CC_OP:
		return "op";
	case CC_PHASE:
		return "phase";
	case CC_GPU_ANN:
		return "gpu_annotation";
	case CC_KERNEL:
		return "kernel";
	case CC_MEMCPY:
		return "memcpy";
	case CC_MEMSET:
		return "memset";
	case CC_RUNTIME:
		return "runtime";
	case CC_PYTHON:
		return "python";
	case CC_COLLECTIVE:
		return "collective";
	case CC_TRACE:
		return is_window_span(ch, ev) ? "profiler" : "slice";
	case CC_RANGE:
		return "profiler_range";
	case CC_OTHER:
		break;
	}
	return "slice";
}

static int is_gpu_class(enum cat_class cls)
{
	return cls == CC_KERNEL || cls == CC_MEMCPY || cls == CC_MEMSET || cls == CC_GPU_ANN;
}

/* Device families from categories and runtime API names (hip* is ROCm, cu* CUDA). */
static void note_device(struct chrome *ch, const struct event *ev, enum cat_class cls, unsigned dev)
{
	ch->dev_flags |= dev;
	if (cls == CC_KERNEL || cls == CC_MEMCPY || cls == CC_MEMSET || cls == CC_RANGE)
		ch->device_activity = 1;
	else if (cls == CC_RUNTIME && !dev)
		ch->dev_flags |= tok_starts(ch, &ev->name, "hip")  ? DEV_ROCM
				 : tok_starts(ch, &ev->name, "cu") ? DEV_CUDA
								   : 0;
}

static void id_text(struct chrome *ch, const struct tok *t, struct pr_strbuf *out)
{
	tok_text(ch, t, out);
}

static int64_t thread_track(struct chrome *ch, const struct event *ev)
{
	tok_text(ch, &ev->pid, &ch->pid);
	tok_text(ch, &ev->tid, &ch->tid);
	pr_strbuf_reset(&ch->tmp);
	pr_strbuf_add(&ch->tmp, ch->pid.buf, ch->pid.len + 1);
	pr_strbuf_add(&ch->tmp, ch->tid.buf, ch->tid.len);
	if (ch->last_track && ch->tmp.len == ch->last_thread.len &&
	    !memcmp(ch->tmp.buf, ch->last_thread.buf, ch->tmp.len))
		return ch->last_track;
	pr_strbuf_reset(&ch->last_thread);
	pr_strbuf_add(&ch->last_thread, ch->tmp.buf, ch->tmp.len);
	ch->last_track = pr_writer_track(ch->w, "thread", ch->pid.buf, ch->tid.buf);
	return ch->last_track;
}

static int64_t intern_tok(struct chrome *ch, const struct tok *t, struct pr_strbuf *sb)
{
	if (!t->present)
		return 0;
	if (!t->escaped && !t->dirty)
		return pr_writer_intern(ch->w, ch->buf + t->start, t->len);
	tok_text(ch, t, sb);
	return pr_writer_intern(ch->w, sb->buf, sb->len);
}

struct mem_args {
	double alloc, reserved, bytes;
	int has_alloc, has_reserved, has_bytes;
	long dev_id, dev_type;
};

/* A JSON number's value; integers (the common case) without strtod. */
static int number_value(const char *v, size_t n, double *d)
{
	int64_t i;
	if (n < 19 && !memchr(v, '.', n) && !memchr(v, 'e', n) && !memchr(v, 'E', n) &&
	    pr_decimal_scaled(v, n, 0, &i) == PR_DEC_OK) {
		*d = (double)i;
		return 0;
	}
	return pr_decimal_double(v, n, d) == PR_DEC_OK ? 0 : -1;
}

static void mem_arg(struct chrome *ch, const char *k, size_t kl, const char *v, size_t vl,
		    int is_str, void *ctx)
{
	struct mem_args *m = ctx;
	double d;
	(void)ch;
	if (is_str || number_value(v, vl, &d))
		return;
	if (keyeq(k, kl, "Total Allocated")) {
		m->alloc = d;
		m->has_alloc = 1;
	} else if (keyeq(k, kl, "Total Reserved")) {
		m->reserved = d;
		m->has_reserved = 1;
	} else if (keyeq(k, kl, "Bytes")) {
		m->bytes = d;
		m->has_bytes = 1;
	} else if (keyeq(k, kl, "Device Id")) {
		m->dev_id = (long)d;
	} else if (keyeq(k, kl, "Device Type")) {
		m->dev_type = (long)d;
	}
}

/* Index of a [memory] device in ch->mem_dev, added when new. */
static size_t mem_device(struct chrome *ch, const char *dev)
{
	int64_t idx;
	size_t n = strlen(dev);
	if (pr_strmap_get(&ch->mem_devs, dev, n, &idx))
		return (size_t)idx;
	ch->mem_dev = pr_xreallocarray(ch->mem_dev, ch->nmem_dev + 1, sizeof(*ch->mem_dev));
	ch->mem_dev[ch->nmem_dev].name = pr_xstrdup(dev);
	ch->mem_dev[ch->nmem_dev].has_total = 0;
	pr_strmap_put(&ch->mem_devs, dev, n, (int64_t)ch->nmem_dev);
	return ch->nmem_dev++;
}

static void memory_event(struct chrome *ch, int64_t ts)
{
	struct mem_args m = { 0, 0, 0, 0, 0, 0, 0, -1 };
	char dev[48];
	size_t di;
	args_each(ch, mem_arg, &m);
	if (m.dev_type == 1)
		snprintf(dev, sizeof(dev), "cuda:%ld", m.dev_id);
	else if (m.dev_type == 0)
		snprintf(dev, sizeof(dev), "cpu");
	else
		snprintf(dev, sizeof(dev), "device%ld:%ld", m.dev_type, m.dev_id);
	di = mem_device(ch, dev);
	if (m.has_alloc) {
		ch->mem_dev[di].has_total = 1;
	} else if (m.has_bytes) {
		/* older Kineto: only the change; the total is rebuilt at the end */
		struct mem_delta *d;
		if (ch->ndeltas == ch->cap_deltas) {
			ch->cap_deltas = ch->cap_deltas ? ch->cap_deltas * 2 : 256;
			ch->deltas =
				pr_xreallocarray(ch->deltas, ch->cap_deltas, sizeof(*ch->deltas));
		}
		d = &ch->deltas[ch->ndeltas];
		d->ts = ts;
		d->seq = (int64_t)ch->ndeltas++;
		d->bytes = m.bytes;
		d->dev = di;
	}
	if (m.has_alloc)
		pr_writer_sample(ch->w,
				 pr_writer_series(ch->w, "dev.mem.allocated", dev, "bytes", "B"),
				 ts, m.alloc);
	if (m.has_reserved)
		pr_writer_sample(ch->w,
				 pr_writer_series(ch->w, "dev.mem.reserved", dev, "bytes", "B"), ts,
				 m.reserved);
}

struct counter_ctx {
	int64_t ts;
	const char *prefix, *device;
};

static void counter_arg(struct chrome *ch, const char *k, size_t kl, const char *v, size_t vl,
			int is_str, void *ctx)
{
	struct counter_ctx *cc = ctx;
	double d;
	char *name;
	size_t pl = strlen(cc->prefix);
	if (number_value(v, vl, &d)) {
		if (!is_str)
			pr_writer_diag(ch->w, "counter_not_numeric", -1, 0, 0,
				       "a counter value is not a finite number");
		return;
	}
	name = pr_xmalloc(pl + kl + 2);
	memcpy(name, cc->prefix, pl);
	name[pl] = ' ';
	memcpy(name + pl + 1, k, kl);
	name[pl + 1 + kl] = '\0';
	pr_writer_sample(ch->w, pr_writer_series(ch->w, name, cc->device, "", NULL), cc->ts, d);
	free(name);
}

struct meta_args {
	const char *want;
	struct pr_strbuf *out;
	int found;
};

static void meta_arg(struct chrome *ch, const char *k, size_t kl, const char *v, size_t vl,
		     int is_str, void *ctx)
{
	struct meta_args *ma = ctx;
	(void)ch;
	(void)is_str;
	if (!keyeq(k, kl, ma->want))
		return;
	pr_strbuf_reset(ma->out);
	pr_strbuf_add(ma->out, v, vl);
	ma->found = 1;
}

static int args_get(struct chrome *ch, const char *key, struct pr_strbuf *out)
{
	struct meta_args ma = { key, out, 0 };
	args_each(ch, meta_arg, &ma);
	return ma.found;
}

static void metadata_event(struct chrome *ch, const struct event *ev)
{
	struct pr_strbuf val = PR_STRBUF_INIT;
	tok_text(ch, &ev->name, &ch->name);
	tok_text(ch, &ev->pid, &ch->pid);
	if (!strcmp(ch->name.buf, "process_name")) {
		if (args_get(ch, "name", &val))
			pr_writer_process_set_name(ch->w, ch->pid.buf, val.buf);
	} else if (!strcmp(ch->name.buf, "thread_name")) {
		if (args_get(ch, "name", &val))
			pr_writer_track_set_name(ch->w, thread_track(ch, ev), val.buf);
	} else if (!strcmp(ch->name.buf, "thread_sort_index")) {
		int64_t v;
		if (args_get(ch, "sort_index", &val) &&
		    pr_decimal_scaled(val.buf, val.len, 0, &v) == PR_DEC_OK)
			pr_writer_track_set_sort(ch->w, thread_track(ch, ev), v);
	}
	pr_strbuf_release(&val);
}

static void async_key(struct chrome *ch, const struct event *ev, struct pr_strbuf *key)
{
	pr_strbuf_reset(key);
	tok_text(ch, &ev->cat, &ch->tmp);
	pr_strbuf_add(key, ch->tmp.buf, ch->tmp.len + 1);
	if (ev->id2.present) {
		pr_strbuf_add(key, ch->buf + ev->id2.start, ev->id2.len);
		pr_strbuf_addch(key, '\0');
		tok_text(ch, &ev->pid, &ch->tmp);
		pr_strbuf_add(key, ch->tmp.buf, ch->tmp.len);
	} else {
		id_text(ch, &ev->id, &ch->tmp);
		pr_strbuf_add(key, ch->tmp.buf, ch->tmp.len);
	}
	pr_strbuf_addch(key, '\0');
	tok_text(ch, &ev->scope, &ch->tmp);
	pr_strbuf_add(key, ch->tmp.buf, ch->tmp.len);
}

static int64_t async_track(struct chrome *ch, const struct event *ev)
{
	tok_text(ch, &ev->pid, &ch->pid);
	tok_text(ch, &ev->cat, &ch->cat);
	return pr_writer_track(ch->w, "async", ch->pid.buf, ch->cat.buf);
}

/* Nestable async slices with one key form a stack (Trace Event Format). */
static void async_begin(struct chrome *ch, const struct event *ev, int64_t ts)
{
	struct pr_strbuf key = PR_STRBUF_INIT;
	struct async_open *o;
	int64_t idx, prev;
	async_key(ch, ev, &key);
	if (ch->nfree) {
		idx = ch->free_opens[--ch->nfree];
	} else {
		if (ch->nopens == ch->cap_opens) {
			ch->cap_opens = ch->cap_opens ? ch->cap_opens * 2 : 16;
			ch->opens = pr_xreallocarray(ch->opens, ch->cap_opens, sizeof(*ch->opens));
			ch->free_opens = pr_xreallocarray(ch->free_opens, ch->cap_opens,
							  sizeof(*ch->free_opens));
		}
		idx = (int64_t)ch->nopens++;
		pr_strbuf_init(&ch->opens[idx].keys);
		pr_strbuf_init(&ch->opens[idx].args);
	}
	o = &ch->opens[idx];
	o->ts = ts;
	o->name = intern_tok(ch, &ev->name, &ch->name);
	if (!o->name) /* no "name": an empty one, as for X/B/i (0 is no string id) */
		o->name = pr_writer_intern(ch->w, "", 0);
	o->cat = intern_tok(ch, &ev->cat, &ch->cat);
	o->track = async_track(ch, ev);
	o->live = 1;
	o->prev = pr_strmap_get(&ch->async, key.buf, key.len, &prev) ? prev : -1;
	pr_strbuf_reset(&o->keys);
	pr_strbuf_reset(&o->args);
	pr_strbuf_add(&o->keys, ch->akeys.buf, ch->akeys.len);
	pr_strbuf_add(&o->args, ch->args.buf, ch->args.len);
	pr_strmap_put(&ch->async, key.buf, key.len, idx);
	pr_strbuf_release(&key);
}

/* Appends JSON array b's elements to array a. */
static void array_join(struct pr_strbuf *a, const char *b, size_t n)
{
	if (n <= 2)
		return;
	if (a->len <= 2) {
		pr_strbuf_reset(a);
		pr_strbuf_add(a, b, n);
		return;
	}
	a->len--;
	pr_strbuf_addch(a, ',');
	pr_strbuf_add(a, b + 1, n - 1);
}

static void async_emit(struct chrome *ch, int64_t idx, int64_t end)
{
	struct async_open *o = &ch->opens[idx];
	struct pr_span_in s;
	memset(&s, 0, sizeof(s));
	s.track = o->track;
	s.kind = "async";
	s.name = o->name;
	s.cat = o->cat;
	s.ts = o->ts;
	s.dur = end > o->ts ? end - o->ts : 0;
	s.args = o->args.buf;
	s.args_len = o->args.len;
	s.args_keys = o->keys.buf;
	s.args_keys_len = o->keys.len;
	pr_writer_span(ch->w, &s);
	o->live = 0;
	ch->free_opens[ch->nfree++] = idx;
}

static void async_end(struct chrome *ch, const struct event *ev, int64_t ts, int64_t offset)
{
	struct pr_strbuf key = PR_STRBUF_INIT;
	int64_t idx;
	async_key(ch, ev, &key);
	if (!pr_strmap_get(&ch->async, key.buf, key.len, &idx)) {
		pr_writer_diag(ch->w, "async_unmatched_end", offset, 0, 0,
			       "an async end event has no matching begin");
	} else {
		struct async_open *o = &ch->opens[idx];
		if (o->prev >= 0)
			pr_strmap_put(&ch->async, key.buf, key.len, o->prev);
		else
			pr_strmap_del(&ch->async, key.buf, key.len, NULL);
		/* End args join the begin's, as for B/E. */
		array_join(&o->keys, ch->akeys.buf, ch->akeys.len);
		array_join(&o->args, ch->args.buf, ch->args.len);
		async_emit(ch, idx, ts);
	}
	pr_strbuf_release(&key);
}

/*
 * The events, by phase family (handle_event dispatches on "ph"; see
 * docs/formats.md for what each stores):
 *   complete and begin/end ('X', 'B', 'E')     spans, nested per thread;
 *   instant and counter ('i', 'I', 'R', 'C')   instants, series samples;
 *   async and flow ('b', 'S', 'e', 'F', 'n', 'T', 'p'; 's', 't', 'f');
 *   metadata ('M')                             metadata_event, above.
 */

/* An 'X' event's "dur" in ns (0, with a diagnostic, when missing or bad). */
static int64_t complete_dur(struct chrome *ch, const struct event *ev, int64_t ts, int64_t offset)
{
	struct pr_writer *w = ch->w;
	int64_t dur = 0;
	if (!ev->dur.present) {
		pr_writer_diag(w, "missing_duration", offset, 0, 0,
			       "\"X\" event without \"dur\"; taken as 0");
	} else if (tok_us(ch, &ev->dur, &dur)) {
		pr_writer_diag(w, "bad_duration", offset, 0, 0,
			       "event \"dur\" is not a number in range; taken as 0");
		dur = 0;
	}
	if (dur < 0) {
		pr_writer_diag(w, "negative_duration", offset, 0, 0,
			       "event with negative \"dur\"; taken as 0");
		dur = 0;
	}
	if (dur > PR_TIME_LIMIT_NS - ts) {
		pr_writer_diag(w, "time_out_of_range", offset, 0, 0,
			       "event ends (\"ts\" + \"dur\") more than 2^62 ns (146 years) "
			       "after the clock's zero; cut there");
		dur = PR_TIME_LIMIT_NS - ts;
	}
	return dur;
}

/* 'X' (complete), 'B' (begin) and 'E' (end): a span on its thread's track. */
static void span_event(struct chrome *ch, const struct event *ev, char ph, int64_t ts,
		       int64_t offset)
{
	struct pr_writer *w = ch->w;
	struct pr_span_in s;
	enum cat_class cls;
	unsigned dev;
	int64_t track;

	if (ph == 'E') {
		track = thread_track(ch, ev);
		if (pr_writer_span_end_kv(w, track, ts, ch->akeys.buf, ch->akeys.len, ch->args.buf,
					  ch->args.len))
			pr_writer_diag(w, "unmatched_end", offset, 0, 0,
				       "an \"E\" event has no open \"B\" on its thread");
		return;
	}
	s.dur = ph == 'X' ? complete_dur(ch, ev, ts, offset) : 0;
	cls = cat_class(ch, ev, &dev);
	s.kind = span_kind(ch, ev, cls);
	if (s.kind[0] == 'p' && !strcmp(s.kind, "profiler")) {
		/* a track of its own, which the run's extent does not count */
		tok_text(ch, &ev->pid, &ch->pid);
		tok_text(ch, &ev->tid, &ch->tid);
		track = pr_writer_track(w, "profiler", ch->pid.buf, ch->tid.buf);
	} else {
		track = thread_track(ch, ev);
	}
	if (is_gpu_class(cls) && track != ch->last_gpu_track) {
		pr_writer_track_set_kind(w, track, "gpu_stream");
		ch->last_gpu_track = track;
	}
	if (cls == CC_OP)
		ch->torch_hint = 1;
	note_device(ch, ev, cls, dev);
	s.track = track;
	s.name = intern_tok(ch, &ev->name, &ch->name);
	if (!s.name)
		s.name = pr_writer_intern(w, "", 0);
	s.cat = intern_tok(ch, &ev->cat, &ch->cat);
	s.ts = ts;
	s.args = ch->args.buf;
	s.args_len = ch->args.len;
	s.args_keys = ch->akeys.buf;
	s.args_keys_len = ch->akeys.len;
	if (ph == 'X')
		pr_writer_span(w, &s);
	else
		pr_writer_span_begin(w, &s);
}

/* 'i', 'I', 'R': an instant on the track its scope "s" says. */
static void instant_event(struct chrome *ch, const struct event *ev, int64_t ts)
{
	struct pr_writer *w = ch->w;
	int64_t name, track;
	if (tok_eq(ch, &ev->name, "[memory]"))
		memory_event(ch, ts);
	if (is_window_instant(ch, ev)) {
		/* its own track, which the run's extent does not count */
		tok_text(ch, &ev->pid, &ch->pid);
		tok_text(ch, &ev->tid, &ch->tid);
		track = pr_writer_track(w, "profiler", ch->pid.buf, ch->tid.buf);
	} else if (tok_eq(ch, &ev->s, "g")) {
		track = pr_writer_track(w, "global", "", "");
	} else if (tok_eq(ch, &ev->s, "p")) {
		tok_text(ch, &ev->pid, &ch->pid);
		track = pr_writer_track(w, "process", ch->pid.buf, "");
	} else {
		track = thread_track(ch, ev);
	}
	name = intern_tok(ch, &ev->name, &ch->name);
	tok_text(ch, &ev->s, &ch->tmp);
	pr_writer_instant_kv(w, track, name ? name : pr_writer_intern(w, "", 0),
			     intern_tok(ch, &ev->cat, &ch->cat), ts,
			     ch->tmp.len ? ch->tmp.buf : "t", ch->akeys.buf, ch->akeys.len,
			     ch->args.buf, ch->args.len);
}

/* 'C': one sample per numeric arg, in series of the event's process. */
static void counter_event(struct chrome *ch, const struct event *ev, int64_t ts)
{
	struct counter_ctx cc;
	tok_text(ch, &ev->name, &ch->name);
	if (ev->id.present) {
		id_text(ch, &ev->id, &ch->tmp);
		pr_strbuf_addf(&ch->name, " id: %s", ch->tmp.buf);
	}
	/* Counters belong to their process (device "pid N"), as in Chrome. */
	tok_text(ch, &ev->pid, &ch->pid);
	pr_strbuf_reset(&ch->cat);
	pr_strbuf_addf(&ch->cat, "pid %s", ch->pid.buf);
	cc.ts = ts;
	cc.prefix = ch->name.buf;
	cc.device = ch->cat.buf;
	args_each(ch, counter_arg, &cc);
}

/* 'b'/'S' and 'e'/'F' pair into async spans; 'n', 'T', 'p' are async instants. */
static void async_event(struct chrome *ch, const struct event *ev, char ph, int64_t ts,
			int64_t offset)
{
	struct pr_writer *w = ch->w;
	int64_t name;
	if (ph == 'b' || ph == 'S') {
		async_begin(ch, ev, ts);
		return;
	}
	if (ph == 'e' || ph == 'F') {
		async_end(ch, ev, ts, offset);
		return;
	}
	name = intern_tok(ch, &ev->name, &ch->name);
	if (!name)
		name = pr_writer_intern(w, "", 0);
	pr_writer_instant_kv(w, async_track(ch, ev), name, intern_tok(ch, &ev->cat, &ch->cat), ts,
			     "async", ch->akeys.buf, ch->akeys.len, ch->args.buf, ch->args.len);
}

/* 's', 't', 'f': a flow end, keyed by "id" (or "id2"). */
static void flow_event(struct chrome *ch, const struct event *ev, char ph, int64_t ts,
		       int64_t offset)
{
	struct pr_writer *w = ch->w;
	int64_t track;
	if (!ev->id.present && !ev->id2.present) {
		pr_writer_diag(w, "flow_without_id", offset, 0, 0,
			       "a flow event without \"id\" skipped");
		return;
	}
	if (ev->id.present)
		id_text(ch, &ev->id, &ch->key);
	else {
		pr_strbuf_reset(&ch->key);
		pr_strbuf_add(&ch->key, ch->buf + ev->id2.start, ev->id2.len);
	}
	track = thread_track(ch, ev);
	tok_text(ch, &ev->bp, &ch->tmp);
	pr_writer_flow(w, ch->key.buf, ph, track, ts, intern_tok(ch, &ev->name, &ch->name),
		       intern_tok(ch, &ev->cat, &ch->cat), ch->tmp.len ? ch->tmp.buf : NULL);
}

/* One parsed event: checks "ph" and "ts", then the family of its phase. */
static void handle_event(struct chrome *ch, const struct event *ev, int64_t offset)
{
	struct pr_writer *w = ch->w;
	char ph;
	int64_t ts = 0;

	if (!ev->ph.present || ev->ph.len != 1) {
		pr_writer_diag(w, ev->ph.present ? "unknown_phase" : "missing_phase", offset, 0, 0,
			       ev->ph.present ? "event with an unknown \"ph\" skipped"
					      : "event without \"ph\" skipped");
		return;
	}
	ph = ch->buf[ev->ph.start];
	if (ph == 'M') {
		metadata_event(ch, ev);
		ch->events++;
		return;
	}
	if (tok_us(ch, &ev->ts, &ts)) {
		pr_writer_diag(w, "bad_timestamp", offset, 0, 0,
			       ev->ts.present ? "event \"ts\" is not a number in range; skipped"
					      : "event without \"ts\" skipped");
		return;
	}
	if (!pr_time_ok(ts)) {
		pr_writer_diag(
			w, "time_out_of_range", offset, 0, 0,
			"event \"ts\" is more than 2^62 ns (146 years) from the clock's zero; "
			"skipped");
		return;
	}
	if (!ch->has_ts || ts < ch->ts_min) {
		ch->ts_min = ts;
		ch->has_ts = 1;
	}
	ch->events++;
	switch (ph) {
	case 'X':
	case 'B':
	case 'E':
		span_event(ch, ev, ph, ts, offset);
		break;
	case 'i':
	case 'I':
	case 'R':
		instant_event(ch, ev, ts);
		break;
	case 'C':
		counter_event(ch, ev, ts);
		break;
	case 'b':
	case 'S':
	case 'e':
	case 'F':
	case 'n':
	case 'T':
	case 'p':
		async_event(ch, ev, ph, ts, offset);
		break;
	case 's':
	case 't':
	case 'f':
		flow_event(ch, ev, ph, ts, offset);
		break;
	case 'P':
	case 'N':
	case 'O':
	case 'D':
	case 'V':
	case 'v':
	case 'c':
	case '(':
	case ')':
		ch->events--;
		pr_writer_diag(w, "ignored_phase", offset, 0, 0,
			       "events of phase '%c' (and other unsupported phases) are not stored",
			       ph);
		break;
	default:
		ch->events--;
		pr_writer_diag(w, "unknown_phase", offset, 0, 0,
			       "event with unknown phase '%c' skipped", ph);
		break;
	}
}

/* ---- top level ---- */

/* Runs one event (or non-object element) at ch->pos. 1 = cut by EOF. */
static int element(struct chrome *ch)
{
	for (;;) {
		size_t p = ch->pos;
		unsigned long ctrl = ch->js.ctrl_repairs, utf8 = ch->js.utf8_repairs;
		struct event ev;
		int rc, is_obj = ch->buf[p] == '{';
		ch->js.flags = is_obj ? JS_LENIENT : 0;
		rc = is_obj ? parse_event(ch, &p, &ev) : js_value(&ch->js, &p, NULL);
		ch->js.flags = 0;
		if (rc == JS_MORE) {
			ch->js.ctrl_repairs = ctrl;
			ch->js.utf8_repairs = utf8;
			if (refill(ch))
				return -1;
			continue;
		}
		if (rc == JS_ERR)
			return ch->js.hit_eof ? 1 : js_fail(ch);
		ch->elements++;
		if (is_obj) {
			int64_t off = ch->base + (int64_t)ch->pos;
			if (ev.ph.present)
				ch->ph_objects++;
			if (ch->js.ctrl_repairs != ctrl)
				pr_writer_diag(ch->w, "control_character", off, 0, 0,
					       "raw control character inside a string; escaped");
			if (ch->js.utf8_repairs != utf8)
				pr_writer_diag(ch->w, "invalid_utf8", off, 0, 0,
					       "invalid UTF-8 inside a string; replaced by U+FFFD");
			pr_writer_at(ch->w, off);
			handle_event(ch, &ev, off);
		} else {
			pr_writer_diag(ch->w, "non_object_event", ch->base + (int64_t)ch->pos, 0, 0,
				       "an element of the event array is not an object; skipped");
		}
		ch->pos = p;
		return 0;
	}
}

static int truncated_here(struct chrome *ch)
{
	if (ch->truncated)
		return 0;
	if (ch->events == 0)
		return pr_error_at(ch->err, PR_E_PARSE, ch->base + (int64_t)ch->pos, 0, 0,
				   "unexpected end of input inside the event array");
	pr_writer_diag(ch->w, "truncated", ch->base + (int64_t)ch->pos, 0, 0,
		       "the file ends early (a crashed writer?); the %lld complete events "
		       "before this point were kept",
		       (long long)ch->events);
	ch->truncated = 1;
	return 0;
}

/* ch->pos is just after '['. */
static int event_array(struct chrome *ch)
{
	enum {
		FIRST,
		ELEM,
		SEP
	} st = FIRST;
	for (;;) {
		int rc;
		if (skip_ws(ch))
			return -1;
		if (at_eof(ch))
			return truncated_here(ch);
		if (st == SEP) {
			char c = ch->buf[ch->pos];
			if (c == ']') {
				ch->pos++;
				return 0;
			}
			if (c != ',')
				return pr_error_at(ch->err, PR_E_PARSE, ch->base + (int64_t)ch->pos,
						   0, 0, "',' or ']' expected in the event array");
			ch->pos++;
			st = ELEM;
			continue;
		}
		if (ch->buf[ch->pos] == ']') {
			if (st == ELEM) {
				if (ch->events == 0)
					return pr_error_at(ch->err, PR_E_PARSE,
							   ch->base + (int64_t)ch->pos, 0, 0,
							   "value expected after ','");
				pr_writer_diag(ch->w, "trailing_comma", ch->base + (int64_t)ch->pos,
					       0, 0, "trailing ',' before ']' in the event array");
			}
			ch->pos++;
			return 0;
		}
		rc = element(ch);
		if (rc < 0)
			return -1;
		if (rc == 1)
			return truncated_here(ch);
		st = SEP;
	}
}

static void meta_value(struct chrome *ch, const char *key, size_t start, size_t end)
{
	json_error_t jerr;
	json_t *v;
	size_t n = end - start;
	if (n > META_MAX) {
		pr_writer_diag(ch->w, "metadata_skipped", ch->base + (int64_t)start, 0, 0,
			       "top-level key '%s' (%zu bytes) is too large to keep as metadata",
			       key, n);
		return;
	}
	if (!strcmp(key, "baseTimeNanoseconds")) {
		int64_t base;
		if (pr_decimal_scaled(ch->buf + start, n, 0, &base) == PR_DEC_OK) {
			pr_writer_set_time_origin(ch->w, base);
			ch->has_origin = 1;
		}
	}
	v = pr_jdoc_loadb(ch->buf + start, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
	if (!v) {
		pr_writer_diag(ch->w, "metadata_unreadable", ch->base + (int64_t)start, 0, 0,
			       "top-level key '%s' could not be kept: %s", key, jerr.text);
		return;
	}
	if (!strcmp(key, "distributedInfo") && json_is_object(v)) {
		json_t *r = json_object_get(v, "rank"), *ws = json_object_get(v, "world_size");
		pr_writer_set_rank(ch->w, json_is_integer(r) ? json_integer_value(r) : -1,
				   json_is_integer(ws) ? json_integer_value(ws) : -1);
		if (json_is_integer(r))
			ch->has_rank = 1;
	}
	if (!strcmp(key, "deviceProperties") && json_is_array(v)) {
		size_t i;
		json_t *d;
		json_array_foreach (v, i, d) {
			const char *name = json_string_value(json_object_get(d, "name"));
			if (name && (strstr(name, "AMD") || strstr(name, "Radeon") ||
				     strstr(name, "Instinct")))
				ch->dev_flags |= DEV_ROCM;
		}
	}
	if (!strcmp(key, "deviceProperties") || !strcmp(key, "distributedInfo") ||
	    !strcmp(key, "schemaVersion") || !strcmp(key, "baseTimeNanoseconds"))
		ch->torch_hint = 1;
	pr_writer_meta_set(ch->w, key, v);
}

/* ---- sampled profiles ---- */

/* "samples" or "stackFrames", kept whole for the end (they may come in any order). */
static void keep_profile(struct chrome *ch, const char *key, size_t start, size_t end)
{
	json_error_t jerr;
	json_t *v = pr_jdoc_loadb(ch->buf + start, end - start, JSON_DECODE_ANY, &jerr);
	json_t **slot = !strcmp(key, "samples") ? &ch->samples : &ch->frames;
	if (!v) {
		pr_writer_diag(ch->w, "chrome_bad_sample", ch->base + (int64_t)start, 0, 0,
			       "top-level '%s' could not be read (%s): the sampled profile is "
			       "left out",
			       key, jerr.text);
		return;
	}
	if (*slot == ch->samples)
		ch->samples_at = ch->base + (int64_t)start;
	json_decref(*slot);
	*slot = v;
}

struct csample {
	int64_t ts;
	const char *pid, *tid;
	const json_t *sf;
	size_t idx;
};

static int cmp_csample(const void *a, const void *b)
{
	const struct csample *x = a, *y = b;
	int c = strcmp(x->pid, y->pid);
	if (!c)
		c = strcmp(x->tid, y->tid);
	if (c)
		return c;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* A sample's or frame's id as text: "12" for 12 or "12". */
static const char *sample_id(const json_t *v, char *buf, size_t n)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v)) {
		snprintf(buf, n, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	return NULL;
}

#define SAMPLE_MAX_DEPTH 4096

/* The frames of stack frame id, root first, into f (at most SAMPLE_MAX_DEPTH). */
static size_t sample_stack(struct chrome *ch, const json_t *sf, struct pr_stk_frame *f)
{
	char buf[32];
	const char *id = sample_id(sf, buf, sizeof(buf));
	size_t n = 0, i;
	while (id && n < SAMPLE_MAX_DEPTH) {
		const json_t *fr = json_object_get(ch->frames, id);
		const char *name = json_string_value(json_object_get(fr, "name"));
		if (!json_is_object(fr))
			break;
		if (!name)
			name = "(unknown)";
		f[n].name = pr_writer_intern(ch->w, name, strlen(name));
		f[n].aux = 0;
		f[n].args = NULL;
		n++;
		id = sample_id(json_object_get(fr, "parent"), buf, sizeof(buf));
	}
	for (i = 0; i < n / 2; i++) {
		struct pr_stk_frame t = f[i];
		f[i] = f[n - 1 - i];
		f[n - 1 - i] = t;
	}
	return n;
}

/*
 * A sampled profile (V8's and Go's trace viewer's "samples" + "stackFrames"):
 * each thread's samples, in time order, on a track of its own ("TID
 * samples", kind thread), each sample's stack (its "sf" frame and the
 * parents, root first) as nested "frame" spans that last until the thread's
 * next sample (the last one: the median interval between its samples), like
 * Chrome's viewer draws them. Samples without a usable ts or sf, or whose sf
 * is not in stackFrames, are skipped (chrome_bad_sample).
 */
static void sampled_profile(struct chrome *ch)
{
	struct csample *v;
	struct pr_stk *stk;
	struct pr_stk_frame *f;
	size_t n = 0, i, j, bad = 0;
	const json_t *x;
	char pbuf[32], tbuf[32], sfbuf[32];
	if (!json_is_array(ch->samples) || !json_array_size(ch->samples))
		return;
	if (!json_is_object(ch->frames)) {
		pr_writer_diag(ch->w, "chrome_bad_sample", ch->samples_at, 0, 0,
			       "%zu samples but no \"stackFrames\" object: the sampled profile is "
			       "left out",
			       json_array_size(ch->samples));
		return;
	}
	v = pr_xcalloc(json_array_size(ch->samples), sizeof(*v));
	json_array_foreach (ch->samples, i, x) {
		const json_t *ts = json_object_get(x, "ts");
		double us = json_number_value(ts);
		const char *tid = sample_id(json_object_get(x, "tid"), tbuf, sizeof(tbuf));
		const char *pid = sample_id(json_object_get(x, "pid"), pbuf, sizeof(pbuf));
		const char *sf = sample_id(json_object_get(x, "sf"), sfbuf, sizeof(sfbuf));
		if (!json_is_number(ts) || !(us >= 0 && us * 1000.0 < (double)PR_STK_MAX_NS) ||
		    !sf || !json_object_get(ch->frames, sf)) {
			bad++;
			continue;
		}
		v[n].ts = (int64_t)(us * 1000.0 + 0.5);
		v[n].pid = pr_xstrdup(pid ? pid : "0");
		v[n].tid = pr_xstrdup(tid ? tid : "0");
		v[n].sf = json_object_get(x, "sf");
		v[n].idx = i;
		n++;
	}
	if (bad)
		pr_writer_diag(ch->w, "chrome_bad_sample", ch->samples_at, 0, 0,
			       "%zu of %zu samples without a ts >= 0 in range or a \"sf\" in "
			       "stackFrames; skipped",
			       bad, json_array_size(ch->samples));
	qsort(v, n, sizeof(*v), cmp_csample);
	stk = pr_stk_new(ch->w, "frame");
	f = pr_xcalloc(SAMPLE_MAX_DEPTH, sizeof(*f));
	for (i = 0; i < n; i = j) {
		int64_t track, last_gap, *gaps;
		size_t k, ng = 0;
		for (j = i + 1; j < n && !strcmp(v[j].pid, v[i].pid) && !strcmp(v[j].tid, v[i].tid);
		     j++)
			;
		pr_strbuf_reset(&ch->tmp);
		pr_strbuf_addf(&ch->tmp, "%s samples", v[i].tid);
		track = pr_writer_track(ch->w, "thread", v[i].pid, ch->tmp.buf);
		pr_writer_track_set_name(ch->w, track, ch->tmp.buf);
		gaps = pr_xcalloc(j - i, sizeof(*gaps));
		for (k = i; k + 1 < j; k++)
			gaps[ng++] = v[k + 1].ts - v[k].ts;
		last_gap = 0;
		if (ng) { /* the median interval */
			qsort(gaps, ng, sizeof(*gaps), cmp_i64);
			last_gap = gaps[ng / 2];
		}
		free(gaps);
		pr_stk_sample(stk, track, NULL, 0, v[i].ts); /* from 0 to the first sample */
		for (k = i; k < j; k++) {
			size_t nf = sample_stack(ch, v[k].sf, f);
			int64_t dur = k + 1 < j ? v[k + 1].ts - v[k].ts : last_gap;
			pr_stk_sample(stk, track, f, nf, dur);
		}
	}
	pr_stk_finish(stk);
	pr_stk_free(stk);
	free(f);
	for (i = 0; i < n; i++) {
		free((char *)v[i].pid);
		free((char *)v[i].tid);
	}
	free(v);
	pr_writer_meta_set(ch->w, "sampled_profile", json_pack("{sI}", "samples", (json_int_t)n));
}

/* One "key": value member of the top-level object; ch->pos at the key. */
static int member(struct chrome *ch, int *events_done)
{
	for (;;) {
		size_t p = ch->pos, vstart;
		struct js_str k;
		int rc = js_key(&ch->js, &p, &k);
		if (rc == JS_OK && p >= ch->len)
			rc = js_end(&ch->js, p);
		if (rc == JS_OK) {
			pr_strbuf_reset(&ch->key);
			js_decode(ch->buf + k.start, k.len, &ch->key);
			if (!strcmp(ch->key.buf, "traceEvents") && ch->buf[p] == '[') {
				ch->pos = p + 1;
				if (event_array(ch))
					return -1;
				*events_done = 1;
				return 0;
			}
			vstart = p;
			rc = js_value(&ch->js, &p, NULL);
			if (rc == JS_OK) {
				if (!strcmp(ch->key.buf, "traceEvents")) {
					if (!ch->not_trace) {
						ch->not_trace = "\"traceEvents\" is not an array";
						ch->not_trace_at = ch->base + (int64_t)vstart;
					}
				} else if (!strcmp(ch->key.buf, "samples") ||
					   !strcmp(ch->key.buf, "stackFrames")) {
					keep_profile(ch, ch->key.buf, vstart, p);
				} else {
					meta_value(ch, ch->key.buf, vstart, p);
				}
				ch->pos = p;
				return 0;
			}
		}
		if (rc == JS_ERR) {
			if (ch->js.hit_eof && *events_done)
				return truncated_here(ch);
			return js_fail(ch);
		}
		if (refill(ch))
			return -1;
	}
}

static int object_form(struct chrome *ch)
{
	enum {
		FIRST,
		KEY,
		SEP
	} st = FIRST;
	int had_events = 0;
	for (;;) {
		if (skip_ws(ch))
			return -1;
		if (ch->truncated)
			return 0;
		if (at_eof(ch)) {
			if (had_events)
				return truncated_here(ch);
			return pr_error_at(ch->err, PR_E_PARSE, ch->base + (int64_t)ch->pos, 0, 0,
					   "unexpected end of input in object");
		}
		if (st == SEP) {
			char c = ch->buf[ch->pos];
			if (c == '}') {
				ch->pos++;
				break;
			}
			if (c != ',')
				return pr_error_at(ch->err, PR_E_PARSE, ch->base + (int64_t)ch->pos,
						   0, 0, "',' or '}' expected in object");
			ch->pos++;
			st = KEY;
			continue;
		}
		if (st == FIRST && ch->buf[ch->pos] == '}') {
			ch->pos++;
			break;
		}
		if (member(ch, &had_events))
			return -1;
		st = SEP;
	}
	if (!had_events && !ch->not_trace)
		ch->not_trace = "a JSON object with no \"traceEvents\" array";
	return 0;
}

/* Rank from a file name such as rank3.json, rank_12.pt.trace.json, worker7. */
static int rank_from_name(const char *path, int64_t *rank)
{
	const char *base = strrchr(path, '/'), *p;
	static const char *const words[] = { "rank", "worker" };
	size_t i;
	base = base ? base + 1 : path;
	for (i = 0; i < PR_ARRAY_SIZE(words); i++) {
		p = strstr(base, words[i]);
		if (!p)
			continue;
		p += strlen(words[i]);
		if (*p == '_' || *p == '-')
			p++;
		if (*p >= '0' && *p <= '9') {
			int64_t v = 0;
			while (*p >= '0' && *p <= '9' && v < 100000000)
				v = v * 10 + (*p++ - '0');
			*rank = v;
			return 1;
		}
	}
	return 0;
}

static int cmp_delta(const void *a, const void *b)
{
	const struct mem_delta *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * dev.mem.allocated of the devices whose [memory] events carry only
 * "Bytes" (PyTorch 1.8-1.10): the running total of Bytes in time order,
 * raised by the least start value that keeps it >= 0 (memory held before
 * the profiler started is not in the trace).
 */
static void rebuild_allocated(struct chrome *ch)
{
	size_t d, i;
	if (!ch->ndeltas)
		return;
	qsort(ch->deltas, ch->ndeltas, sizeof(*ch->deltas), cmp_delta);
	for (d = 0; d < ch->nmem_dev; d++) {
		double sum = 0, low = 0;
		int64_t series;
		size_t n = 0;
		if (ch->mem_dev[d].has_total)
			continue;
		for (i = 0; i < ch->ndeltas; i++)
			if (ch->deltas[i].dev == d) {
				sum += ch->deltas[i].bytes;
				if (sum < low)
					low = sum;
				n++;
			}
		if (!n)
			continue;
		series = pr_writer_series(ch->w, "dev.mem.allocated", ch->mem_dev[d].name, "bytes",
					  "B");
		low = low < 0 ? -low : 0; /* the start; never -0 */
		sum = low;
		for (i = 0; i < ch->ndeltas; i++)
			if (ch->deltas[i].dev == d) {
				sum += ch->deltas[i].bytes;
				pr_writer_sample(ch->w, series, ch->deltas[i].ts, sum);
			}
		pr_writer_diag(ch->w, "memory_reconstructed", -1, 0, 0,
			       "[memory] events on %s carry only \"Bytes\" (PyTorch 1.8-1.10): "
			       "dev.mem.allocated is their running total, starting at %.0f B "
			       "(the least start that keeps it >= 0; memory held before the "
			       "profiler started is not in the trace)",
			       ch->mem_dev[d].name, low);
	}
}

/* run.meta.device_type: the accelerator families of a trace with device activity. */
static void set_device_type(struct chrome *ch)
{
	static const struct {
		unsigned flag;
		const char *name;
	} names[] = { { DEV_ROCM, "rocm" },
		      { DEV_MTIA, "mtia" },
		      { DEV_XPU, "xpu" },
		      { DEV_HPU, "hpu" },
		      { DEV_PRIVATEUSE1, "privateuse1" },
		      { DEV_CUDA, "cuda" } };
	struct pr_strbuf sb = PR_STRBUF_INIT;
	unsigned flags = ch->dev_flags;
	size_t i;
	if (!ch->device_activity)
		return;
	if (flags & DEV_ROCM)
		flags &= ~(unsigned)DEV_CUDA; /* HIP keeps CUDA's category names */
	for (i = 0; i < PR_ARRAY_SIZE(names); i++)
		if (flags & names[i].flag)
			pr_strbuf_addpart(&sb, "+", names[i].name);
	if (sb.len)
		pr_writer_meta_set(ch->w, "device_type", json_string(sb.buf));
	pr_strbuf_release(&sb);
}

static void finish(struct chrome *ch)
{
	size_t i;
	int64_t rank;
	rebuild_allocated(ch);
	set_device_type(ch);
	for (i = 0; i < ch->nopens; i++) {
		if (!ch->opens[i].live)
			continue;
		pr_writer_diag(ch->w, "async_unclosed", -1, 0, 0,
			       "an async slice never ended; kept with zero duration");
		async_emit(ch, (int64_t)i, ch->opens[i].ts);
	}
	if (!ch->has_origin && ch->has_ts && ch->ts_min >= 946684800000000000LL) {
		/* Old Kineto and Chrome wrote absolute epoch microseconds. */
		pr_writer_set_time_origin(ch->w, 0);
		pr_writer_meta_set(ch->w, "clock", json_string("epoch"));
	}
	if (!ch->has_rank && rank_from_name(pr_source_path(ch->src), &rank)) {
		pr_writer_set_rank(ch->w, rank, -1);
		pr_writer_meta_set(ch->w, "rank_source", json_string("file name"));
	}
	pr_writer_set_collector(ch->w, ch->torch_hint ? "torch.profiler"
				       : pr_writer_meta_get(ch->w, "viztracer_metadata")
					       ? "viztracer"
					       : "chrome-trace");
}

static void chrome_release(struct chrome *ch)
{
	size_t i;
	pr_strbuf_release(&ch->akeys);
	pr_strbuf_release(&ch->args);
	pr_strbuf_release(&ch->name);
	pr_strbuf_release(&ch->cat);
	pr_strbuf_release(&ch->pid);
	pr_strbuf_release(&ch->tid);
	pr_strbuf_release(&ch->key);
	pr_strbuf_release(&ch->tmp);
	pr_strbuf_release(&ch->last_thread);
	for (i = 0; i < ch->nopens; i++) {
		pr_strbuf_release(&ch->opens[i].keys);
		pr_strbuf_release(&ch->opens[i].args);
	}
	free(ch->opens);
	free(ch->free_opens);
	for (i = 0; i < ch->nmem_dev; i++)
		free(ch->mem_dev[i].name);
	free(ch->mem_dev);
	free(ch->deltas);
	pr_strmap_release(&ch->mem_devs);
	pr_strmap_release(&ch->async);
	free(ch->buf);
}

static int chrome_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct chrome ch;
	int rc = -1;

	memset(&ch, 0, sizeof(ch));
	ch.not_trace_at = -1;
	ch.src = src;
	ch.w = w;
	ch.err = err;
	ch.cap = WINDOW_INIT;
	ch.buf = pr_xmalloc(ch.cap);
	pr_strbuf_init(&ch.akeys);
	pr_strbuf_init(&ch.args);
	pr_strbuf_init(&ch.name);
	pr_strbuf_init(&ch.cat);
	pr_strbuf_init(&ch.pid);
	pr_strbuf_init(&ch.tid);
	pr_strbuf_init(&ch.key);
	pr_strbuf_init(&ch.tmp);
	pr_strbuf_init(&ch.last_thread);
	if (refill(&ch))
		goto out;
	while (ch.len < 3 && !ch.eof)
		if (refill(&ch))
			goto out;
	if (ch.len >= 3 && !memcmp(ch.buf, "\xEF\xBB\xBF", 3))
		ch.pos = 3;
	if (skip_ws(&ch))
		goto out;
	if (at_eof(&ch)) {
		pr_error_at(err, PR_E_PARSE, ch.base + (int64_t)ch.pos, 0, 0,
			    "no JSON value in the input");
		goto out;
	}
	if (ch.buf[ch.pos] == '[') {
		ch.pos++;
		if (event_array(&ch))
			goto out;
		if (!ch.elements)
			ch.not_trace = "an empty JSON array";
	} else if (ch.buf[ch.pos] == '{') {
		ch.pos++;
		if (object_form(&ch))
			goto out;
	} else {
		for (;;) {
			size_t p = ch.pos;
			int r = js_value(&ch.js, &p, NULL);
			if (r == JS_OK) {
				ch.pos = p;
				break;
			}
			if (r == JS_ERR) {
				js_fail(&ch);
				goto out;
			}
			if (refill(&ch))
				goto out;
		}
		ch.not_trace = "the JSON value is neither an event array nor an object";
	}
	if (!ch.truncated) {
		if (skip_ws(&ch))
			goto out;
		if (!at_eof(&ch)) {
			pr_error_at(err, PR_E_PARSE, ch.base + (int64_t)ch.pos, 0, 0,
				    "unexpected data after the JSON value");
			goto out;
		}
	}
	/* Elements, none of them an event, are a list of something else. An
	 * empty "traceEvents" array is a trace that recorded nothing. */
	if (!ch.not_trace && ch.elements && !ch.ph_objects)
		ch.not_trace = "no element of the event array is an event (an object with \"ph\")";
	if (ch.not_trace) {
		pr_error_at(err, PR_E_FORMAT, ch.not_trace_at, 0, 0, "not a trace: %s",
			    ch.not_trace);
		goto out;
	}
	sampled_profile(&ch);
	finish(&ch);
	rc = 0;
out:
	json_decref(ch.samples);
	json_decref(ch.frames);
	chrome_release(&ch);
	return rc;
}

static int contains(const unsigned char *h, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;
	for (i = 0; i + k <= n; i++)
		if (h[i] == (unsigned char)needle[0] && !memcmp(h + i, needle, k))
			return 1;
	return 0;
}

static int chrome_sniff(const unsigned char *head, size_t n, const char *path)
{
	size_t i = 0;
	(void)path;
	if (n >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < n && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i >= n || (head[i] != '{' && head[i] != '['))
		return 0;
	if (contains(head, n, "\"traceEvents\"") || contains(head, n, "\"ph\""))
		return 90;
	return 30; /* some JSON: we read it (and say precisely what is wrong) */
}

static const char *const chrome_tokens[] = { "traceEvents",
					     "ph",
					     "X",
					     "B",
					     "E",
					     "b",
					     "e",
					     "i",
					     "C",
					     "M",
					     "s",
					     "f",
					     "name",
					     "cat",
					     "ts",
					     "dur",
					     "pid",
					     "tid",
					     "id",
					     "id2",
					     "args",
					     "bp",
					     "scope",
					     "[memory]",
					     "Total Allocated",
					     "Total Reserved",
					     "Device Type",
					     "Device Id",
					     "ProfilerStep#1",
					     "user_annotation",
					     "cpu_op",
					     "kernel",
					     "process_name",
					     "thread_name",
					     "thread_sort_index",
					     "baseTimeNanoseconds",
					     "distributedInfo",
					     "rank",
					     "world_size",
					     "displayTimeUnit",
					     "ac2g",
					     "correlation",
					     "External id",
					     "stream",
					     "device",
					     NULL };

const struct pr_format pr_format_chrome = {
	.name = "chrome",
	.summary =
		"Chrome Trace Event JSON: torch.profiler/Kineto, viztracer, Perfetto (.json, .gz)",
	.sniff = chrome_sniff,
	.parse = chrome_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = chrome_tokens,
};
