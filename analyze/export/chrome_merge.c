/* chrome_merge.c - runs merged into one Chrome trace, one process per rank (chrome_merge.h). */
#include "analyze/export/chrome_merge.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/output.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define FLUSH_AT (1u << 16)

struct pr_chrome_merge {
	struct pr_output out;
	struct pr_strbuf buf; /* events not yet written */
	struct pr_spanwalk_stats total;
	long pid;
	int64_t tid;   /* the current lane's thread id within the rank */
	int64_t ntids; /* lanes of the current rank so far */
	int any;       /* an event was written: the next needs a comma */
};

static void flush(struct pr_chrome_merge *m)
{
	pr_output_write(&m->out, m->buf.buf, m->buf.len); /* sticky: close reports it */
	pr_strbuf_reset(&m->buf);
}

/* Starts one event: the separator and the common keys. */
static void ev(struct pr_chrome_merge *m, const char *ph)
{
	if (m->buf.len >= FLUSH_AT)
		flush(m);
	pr_strbuf_addstr(&m->buf, m->any ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
	pr_strbuf_addstr(&m->buf, ph);
	pr_strbuf_addf(&m->buf, "\",\"pid\":%ld", m->pid);
	m->any = 1;
}

/* A JSON string: quotes, backslashes and control characters escaped, bad UTF-8 as U+FFFD. */
static void jstr(struct pr_strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p), i = 0;
	pr_strbuf_addch(sb, '"');
	while (i < n) {
		long cp;
		size_t len = pr_utf8_decode(p + i, n - i, &cp);
		if (cp < 0)
			pr_strbuf_addstr(sb, "\\ufffd");
		else if (cp == '"' || cp == '\\')
			pr_strbuf_addf(sb, "\\%c", (char)cp);
		else if (cp < 0x20)
			pr_strbuf_addf(sb, "\\u%04lx", cp);
		else
			pr_strbuf_add(sb, p + i, len);
		i += len;
	}
	pr_strbuf_addch(sb, '"');
}

/* ns as microseconds with three decimals, exactly. */
static void ts_us(struct pr_strbuf *sb, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	pr_strbuf_addf(sb, ",\"ts\":%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", a / 1000,
		       (unsigned)(a % 1000));
}

static void meta(struct pr_chrome_merge *m, const char *what, int64_t tid, const char *key,
		 const char *text, long num)
{
	ev(m, "M");
	if (tid)
		pr_strbuf_addf(&m->buf, ",\"tid\":%" PRId64, tid);
	pr_strbuf_addstr(&m->buf, ",\"name\":");
	jstr(&m->buf, what);
	pr_strbuf_addstr(&m->buf, ",\"args\":{");
	jstr(&m->buf, key);
	pr_strbuf_addch(&m->buf, ':');
	if (text)
		jstr(&m->buf, text);
	else
		pr_strbuf_addf(&m->buf, "%ld", num);
	pr_strbuf_addstr(&m->buf, "}}");
}

static int cm_run_begin(void *ctx, const struct pr_sw_run *run, struct pr_error *err)
{
	struct pr_chrome_merge *m = ctx;
	struct pr_strbuf name = PR_STRBUF_INIT;
	(void)err;
	pr_strbuf_addf(&name, "rank %ld", m->pid);
	if (run->label && *run->label)
		pr_strbuf_addf(&name, " (%s)", run->label);
	meta(m, "process_name", 0, "name", name.buf, 0);
	meta(m, "process_sort_index", 0, "sort_index", NULL, m->pid);
	pr_strbuf_release(&name);
	return 0;
}

static int cm_lane_begin(void *ctx, const struct pr_sw_lane *l, struct pr_error *err)
{
	struct pr_chrome_merge *m = ctx;
	struct pr_strbuf name = PR_STRBUF_INIT;
	const struct pr_sw_track *t = l->track;
	(void)err;
	m->tid = ++m->ntids;
	pr_strbuf_addpart(&name, " / ", t->process_name);
	pr_strbuf_addpart(&name, " / ", *t->name ? t->name : *t->tid ? t->tid : t->kind);
	if (l->lane > 1)
		pr_strbuf_addf(&name, " (lane %d)", l->lane);
	meta(m, "thread_name", m->tid, "name", name.buf, 0);
	meta(m, "thread_sort_index", m->tid, "sort_index", NULL, (long)m->tid);
	pr_strbuf_release(&name);
	return 0;
}

static int cm_open(void *ctx, const struct pr_sw_frame *f, int64_t at, struct pr_error *err)
{
	struct pr_chrome_merge *m = ctx;
	(void)err;
	ev(m, "B");
	pr_strbuf_addf(&m->buf, ",\"tid\":%" PRId64, m->tid);
	ts_us(&m->buf, at);
	pr_strbuf_addstr(&m->buf, ",\"name\":");
	jstr(&m->buf, f->name);
	pr_strbuf_addch(&m->buf, '}');
	return 0;
}

static int cm_close(void *ctx, int64_t at, struct pr_error *err)
{
	struct pr_chrome_merge *m = ctx;
	(void)err;
	ev(m, "E");
	pr_strbuf_addf(&m->buf, ",\"tid\":%" PRId64, m->tid);
	ts_us(&m->buf, at);
	pr_strbuf_addch(&m->buf, '}');
	return 0;
}

static int cm_sample(void *ctx, const struct pr_sw_run *run, size_t si, int64_t ts, double value,
		     const struct pr_sw_frame *stack, size_t depth, struct pr_error *err)
{
	struct pr_chrome_merge *m = ctx;
	const struct pr_sw_series *s = &run->series[si];
	char num[64];
	(void)stack;
	(void)depth;
	(void)err;
	ev(m, "C");
	ts_us(&m->buf, ts);
	pr_strbuf_addstr(&m->buf, ",\"name\":");
	if (s->device && *s->device) {
		struct pr_strbuf n = PR_STRBUF_INIT;
		pr_strbuf_addf(&n, "%s [%s]", s->name, s->device);
		jstr(&m->buf, n.buf);
		pr_strbuf_release(&n);
	} else {
		jstr(&m->buf, s->name);
	}
	/* %.17g round-trips; a non-finite value (never stored) would not be JSON */
	snprintf(num, sizeof(num), "%.17g", isfinite(value) ? value : 0.0);
	pr_strbuf_addstr(&m->buf, ",\"args\":{");
	jstr(&m->buf, *s->unit ? s->unit : "value");
	pr_strbuf_addf(&m->buf, ":%s}}", num);
	return 0;
}

static const struct pr_spanwalk_ops cm_ops = {
	.run_begin = cm_run_begin,
	.lane_begin = cm_lane_begin,
	.open = cm_open,
	.close = cm_close,
	.sample = cm_sample,
};

int pr_chrome_merge_open(struct pr_chrome_merge **mp, const char *path, struct pr_error *err)
{
	struct pr_chrome_merge *m = pr_xcalloc(1, sizeof(*m));
	pr_strbuf_init(&m->buf);
	if (pr_output_open_file(&m->out, path, err)) {
		pr_strbuf_release(&m->buf);
		free(m);
		return -1;
	}
	pr_strbuf_addstr(&m->buf, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":"
				  "\"profreport@" PR_VERSION "\"},\"traceEvents\":[");
	*mp = m;
	return 0;
}

int pr_chrome_merge_add(struct pr_chrome_merge *m, struct pr_store *st, int64_t run_id, long rank,
			struct pr_error *err)
{
	struct pr_spanwalk_opts o = { .run_id = run_id, .spans = 1, .memory = 1 };
	struct pr_spanwalk_stats s;
	int rc;
	if (rank < 0)
		return pr_error_set(err, PR_E_USAGE, "merged trace: rank %ld is negative", rank);
	m->pid = rank;
	m->ntids = 0;
	rc = pr_spanwalk(st, &o, &cm_ops, m, &s, err);
	m->total.runs += s.runs;
	m->total.tracks += s.tracks;
	m->total.lanes += s.lanes;
	m->total.extra_lanes += s.extra_lanes;
	m->total.spans += s.spans;
	m->total.clamped += s.clamped;
	m->total.samples += s.samples;
	return rc;
}

const struct pr_spanwalk_stats *pr_chrome_merge_stats(const struct pr_chrome_merge *m)
{
	return &m->total;
}

int pr_chrome_merge_close(struct pr_chrome_merge *m, struct pr_error *err)
{
	int rc;
	pr_strbuf_addstr(&m->buf, "\n]}\n");
	flush(m);
	rc = pr_output_close(&m->out, err);
	pr_chrome_merge_free(m);
	return rc;
}

void pr_chrome_merge_free(struct pr_chrome_merge *m)
{
	if (!m)
		return;
	pr_output_release(&m->out);
	pr_strbuf_release(&m->buf);
	free(m);
}
