/*
 * fmt_perf_script.c - Linux `perf script` text output (of `perf record`,
 * with or without -g), folded in one pass into a sampled profile.
 *
 * A record is a header line, then (with -g) one line per call-stack entry,
 * leaf first, then a blank line:
 *   COMM  PID[/TID] [CPU] SECS.FRAC: [PERIOD] EVENT: [ADDR SYM+OFF (DSO)]
 *   \tADDR SYM+0xOFF (DSO)
 * COMM may hold blanks: the PID is the first all-digit token after it.
 * perf 3.x writes neither CPU nor time ('java  3244 cpu-clock: '): such a
 * header is known by the stack line after it; the records are laid end to
 * end as any others (meta.perf.time_first/last are then absent).
 * Each record is one sample on its thread's track (kind "thread", pid, tid,
 * named COMM), laid end to end in record order like speedscope's sampled
 * profiles (stacks.h), lasting its weight: the PERIOD when the line has one,
 * else 1 sample. The stack, reversed to root first, becomes nested "frame"
 * spans named SYM without its +0xOFF, with args {"dso": DSO}; an unknown
 * symbol is "[unknown]" (its DSO still in args), a line with only an ADDR
 * (`-F ip`) is named by it; a record without a call
 * stack but with an ADDR SYM (DSO) on its header line has that one frame.
 *
 * The weight's unit (meta.weight_unit): the period of cpu-clock and
 * task-clock counts ns: "ns", real durations laid end to end. Other events'
 * periods count events (cycles, instructions, page-faults): "events", and
 * no period: "samples"; both stored as synthetic time, 1 = 1 ns
 * (time_synthetic). Several events in one file: the first one's samples are
 * on the (pid, tid) tracks, each other event's on tracks of their own (tid
 * "TID EVENT"), diagnostic perf_script_mixed_events. meta.perf.time_first /
 * time_last give the first and last record times (seconds, as written).
 *
 * Each event's record count is a reported metric perf.samples (detail: the
 * event), the sample count the reports print; meta.perf.event_order lists the
 * events in file order (the first is the one on the (pid, tid) tracks).
 *
 * Diagnostics: perf_script_bad_record (a header line not understood: the
 * record is skipped), perf_script_bad_frame (a stack line not
 * "ADDR SYM (DSO)": skipped), perf_script_mixed_events,
 * perf_script_invalid_text (bytes that are not UTF-8 text, replaced by '?'),
 * perf_script_deep_stack (frames past 4096 dropped). The first record must
 * parse: otherwise the file is not perf script output (an error).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/csv.h"
#include "ingest/format.h"
#include "ingest/stacks.h"
#include "base/decimal.h"
#include "base/pr_common.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

#define PSC_MAX_LINE (1u << 20)
#define PSC_MAX_DEPTH 4096
#define PSC_MAX_EVENTS 64

struct hdr {
	const char *comm;
	size_t comm_len;
	const char *pid, *tid; /* digits */
	size_t pid_len, tid_len;
	const char *time; /* "SECS.FRAC" */
	size_t time_len;
	int has_period;
	int64_t period;
	const char *event;
	size_t event_len;
	const char *rest; /* after the event: an inline frame, or tracepoint args */
};

static int all_digits(const char *s, size_t n)
{
	size_t i;
	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* A header line's fields; 0, or -1 (not a header) with *badcol. */
static int parse_hdr(const char *s, struct hdr *h, long *badcol)
{
	const char *p = s, *tok, *e;
	size_t n;
	memset(h, 0, sizeof(*h));
	*badcol = 1;
	if (!*s || *s == ' ' || *s == '\t')
		return -1;
	/* COMM: up to the first blank-separated all-digit token (PID or PID/TID) */
	for (;;) {
		while (*p && *p != ' ' && *p != '\t')
			p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return -1;
		tok = p;
		for (e = tok; *e && *e != ' ' && *e != '\t'; e++)
			;
		n = (size_t)(e - tok);
		{
			const char *slash = memchr(tok, '/', n);
			if (slash && all_digits(tok, (size_t)(slash - tok)) &&
			    all_digits(slash + 1, (size_t)(e - slash - 1))) {
				h->pid = tok;
				h->pid_len = (size_t)(slash - tok);
				h->tid = slash + 1;
				h->tid_len = (size_t)(e - slash - 1);
				break;
			}
			if (all_digits(tok, n)) {
				h->tid = tok;
				h->tid_len = n;
				break;
			}
		}
	}
	h->comm = s;
	h->comm_len = (size_t)(tok - s);
	while (h->comm_len > 0 && (s[h->comm_len - 1] == ' ' || s[h->comm_len - 1] == '\t'))
		h->comm_len--;
	p = e;
	/* [CPU] SECS.FRAC: PERIOD EVENT: */
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p) {
			*badcol = (long)(p - s) + 1;
			return -1;
		}
		tok = p;
		for (e = tok; *e && *e != ' ' && *e != '\t'; e++)
			;
		n = (size_t)(e - tok);
		p = e;
		if (tok[0] == '[' && tok[n - 1] == ']' && !h->time && !h->event)
			continue; /* the CPU */
		if (!h->time && n > 1 && tok[n - 1] == ':' && isdigit((unsigned char)tok[0]) &&
		    memchr(tok, '.', n)) {
			double d;
			if (pr_decimal_double(tok, n - 1, &d) != PR_DEC_OK) {
				*badcol = (long)(tok - s) + 1;
				return -1;
			}
			h->time = tok;
			h->time_len = n - 1;
			continue;
		}
		if (!h->has_period && all_digits(tok, n)) {
			if (pr_decimal_scaled(tok, n, 0, &h->period) != PR_DEC_OK) {
				*badcol = (long)(tok - s) + 1;
				return -1;
			}
			h->has_period = 1;
			continue;
		}
		if (n > 1 && tok[n - 1] == ':') {
			h->event = tok;
			h->event_len = n - 1;
			while (*p == ' ' || *p == '\t')
				p++;
			h->rest = p;
			return 0;
		}
		*badcol = (long)(tok - s) + 1;
		return -1;
	}
}

/* "ADDR SYM+0xOFF (DSO)" (s without its leading blanks): 0 and the parts, or -1. */
static int parse_frame(const char *s, const char **sym, size_t *sym_len, const char **dso,
		       size_t *dso_len)
{
	const char *p = s, *end = s + strlen(s), *open;
	int depth = 0;
	while (isxdigit((unsigned char)*p))
		p++;
	if (p == s || (*p != ' ' && *p != '\t' && *p != '\0'))
		return -1;
	if (!*p) { /* -F ip without sym: the address names the frame */
		*sym = s;
		*sym_len = (size_t)(p - s);
		*dso = NULL;
		*dso_len = 0;
		return 0;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*dso = NULL;
	*dso_len = 0;
	if (end > p && end[-1] == ')') {
		/* the last balanced "(...)" is the DSO */
		for (open = end - 1; open >= p; open--) {
			if (*open == ')')
				depth++;
			else if (*open == '(' && --depth == 0)
				break;
		}
		if (open >= p && open > s) {
			*dso = open + 1;
			*dso_len = (size_t)(end - 1 - open - 1);
			end = open;
			while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
		}
	}
	/* drop "+0xOFF" */
	{
		const char *q = end;
		while (q > p && isxdigit((unsigned char)q[-1]))
			q--;
		if (q - p >= 3 && q[-1] == 'x' && q[-2] == '0' && q[-3] == '+' && q < end)
			end = q - 3;
	}
	*sym = p;
	*sym_len = (size_t)(end - p);
	return 0;
}

/* The line of head at i (without LF, a CR cut off) into buf; its length in *len (CR
 * included), *nl its LF or NULL. 0 when it does not fit buf. */
static int head_line(const unsigned char *head, size_t n, size_t i, char *buf, size_t cap,
		     size_t *len, const unsigned char **nl)
{
	*nl = memchr(head + i, '\n', n - i);
	*len = *nl ? (size_t)(*nl - (head + i)) : n - i;
	if (*len >= cap)
		return 0;
	memcpy(buf, head + i, *len);
	buf[*len] = '\0';
	if (*len && buf[*len - 1] == '\r')
		buf[*len - 1] = '\0';
	return 1;
}

static int psc_sniff(const unsigned char *head, size_t n, const char *path)
{
	size_t i = 0, len;
	const unsigned char *nl;
	char buf[4096];
	struct hdr h;
	long bc;
	const char *sym, *dso;
	size_t sl, dl;
	int notime;
	PR_UNUSED(path);
	if (memchr(head, 0, n))
		return 0;
	/* skip --header comment lines and blank lines */
	while (i < n) {
		nl = memchr(head + i, '\n', n - i);
		len = nl ? (size_t)(nl - (head + i)) : n - i;
		if (len > 0 && head[i] != '#' && strspn((const char *)head + i, " \t\r") < len)
			break;
		if (!nl)
			return 0;
		i += len + 1;
	}
	if (i >= n)
		return 0;
	if (!head_line(head, n, i, buf, sizeof(buf), &len, &nl))
		return 0;
	if (parse_hdr(buf + strspn(buf, " \t"), &h, &bc) < 0)
		return 0;
	notime = !h.time;
	if (!nl)
		return notime ? 0 : 60;
	i += len + 1;
	if (!head_line(head, n, i, buf, sizeof(buf), &len, &nl))
		return 0;
	if (len == 0 || (len == 1 && buf[0] == '\0'))
		return notime ? 0 : 80; /* a record without a call stack (an empty line) */
	/* the next record (no -g: one line each), or a stack line */
	if (!notime && parse_hdr(buf + strspn(buf, " \t"), &h, &bc) == 0 && h.time)
		return 90;
	if ((buf[0] != ' ' && buf[0] != '\t') ||
	    parse_frame(buf + strspn(buf, " \t"), &sym, &sl, &dso, &dl) < 0)
		return 0;
	/* perf 3.x writes no time ('java  3244 cpu-clock:'): a header and a stack line */
	return notime ? 85 : 95;
}

struct psc {
	struct pr_writer *w;
	struct pr_stk *stk;
	struct pr_stk_frame *f;
	size_t nf, cap;
	int deep;
	int in_record, skip;
	int64_t track, weight;
	long rec_line;
	/* events: the first one and the units */
	char *events[PSC_MAX_EVENTS];
	int64_t nsamples[PSC_MAX_EVENTS]; /* records read per event */
	size_t nevents;
	int any_synthetic;
	json_t *units;
	struct pr_strmap dso_args; /* DSO -> index in args */
	char **args;
	size_t nargs, capargs;
	struct pr_strbuf tmp, clean;
	char *time_first;
	size_t time_first_len;
	struct pr_strbuf time_last;
};

static const char *clean_text(struct psc *c, const char *s, size_t *n, long line)
{
	if (pr_csv_text_ok(s, *n))
		return s;
	pr_strbuf_reset(&c->clean);
	pr_csv_text_clean(&c->clean, s, *n);
	pr_writer_diag(c->w, "perf_script_invalid_text", -1, line, 1,
		       "bytes that are not UTF-8 text: replaced by '?'");
	*n = c->clean.len;
	return c->clean.buf;
}

static const char *dso_args(struct psc *c, const char *dso, size_t n, int64_t *aux)
{
	int64_t i;
	if (!pr_strmap_get(&c->dso_args, dso, n, &i)) {
		json_t *o = json_object();
		json_object_set_new(o, "dso", json_stringn(dso, n));
		if (c->nargs == c->capargs) {
			c->capargs = c->capargs ? c->capargs * 2 : 16;
			c->args = pr_xreallocarray(c->args, c->capargs, sizeof(*c->args));
		}
		c->args[c->nargs] = json_dumps(o, JSON_COMPACT);
		json_decref(o);
		i = (int64_t)c->nargs++;
		pr_strmap_put(&c->dso_args, dso, n, i);
	}
	*aux = i + 1;
	return c->args[i];
}

static void add_frame(struct psc *c, const char *sym, size_t sl, const char *dso, size_t dl,
		      long line)
{
	struct pr_stk_frame *f;
	if (c->nf == PSC_MAX_DEPTH) {
		if (!c->deep)
			pr_writer_diag(c->w, "perf_script_deep_stack", -1, line, 1,
				       "a call stack deeper than %d frames: the outermost frames "
				       "are dropped",
				       PSC_MAX_DEPTH);
		c->deep = 1;
		return;
	}
	if (c->nf == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->f = pr_xreallocarray(c->f, c->cap, sizeof(*c->f));
	}
	f = &c->f[c->nf++];
	if (!sl) {
		sym = "[unknown]";
		sl = 9;
	}
	sym = clean_text(c, sym, &sl, line);
	f->name = pr_writer_intern(c->w, sym, sl);
	f->aux = 0;
	f->args = NULL;
	if (dso && dl) {
		dso = clean_text(c, dso, &dl, line);
		f->args = dso_args(c, dso, dl, &f->aux);
	}
}

/* The unit class of an event's weights: "ns", "events" or "samples". */
static const char *unit_of(const struct hdr *h)
{
	size_t b = 0;
	while (b < h->event_len && h->event[b] != ':')
		b++;
	if (!h->has_period)
		return "samples";
	if ((b == 9 && !memcmp(h->event, "cpu-clock", 9)) ||
	    (b == 10 && !memcmp(h->event, "task-clock", 10)))
		return "ns";
	return "events";
}

static void flush(struct psc *c)
{
	size_t i;
	if (!c->in_record || c->skip) {
		c->in_record = 0;
		return;
	}
	/* leaf first in the file: reverse to root first */
	for (i = 0; i < c->nf / 2; i++) {
		struct pr_stk_frame t = c->f[i];
		c->f[i] = c->f[c->nf - 1 - i];
		c->f[c->nf - 1 - i] = t;
	}
	pr_stk_sample(c->stk, c->track, c->f, c->nf, c->weight);
	c->in_record = 0;
}

static int header(struct psc *c, const struct hdr *h, long line)
{
	size_t ev;
	const char *unit = unit_of(h);
	char tid[96], pid[32];
	for (ev = 0; ev < c->nevents; ev++)
		if (strlen(c->events[ev]) == h->event_len &&
		    !memcmp(c->events[ev], h->event, h->event_len))
			break;
	if (ev == c->nevents) {
		if (c->nevents == PSC_MAX_EVENTS) {
			pr_writer_diag(c->w, "perf_script_bad_record", -1, line, 1,
				       "more than %d events; the record is skipped",
				       PSC_MAX_EVENTS);
			return -1;
		}
		c->events[c->nevents++] = pr_xstrndup(h->event, h->event_len);
		json_object_set_new(c->units, c->events[ev], json_string(unit));
		if (ev == 0)
			pr_writer_meta_set(c->w, "weight_unit", json_string(unit));
		else
			pr_writer_diag(
				c->w, "perf_script_mixed_events", -1, line, 1,
				"samples of more than one event ('%s', then '%.*s'): each "
				"event's samples are on their own tracks (their weights are not "
				"comparable)",
				c->events[0], (int)h->event_len, h->event);
		if (strcmp(unit, "ns") && !c->any_synthetic) {
			c->any_synthetic = 1;
			pr_writer_set_time_synthetic(c->w, 1);
		}
	}
	snprintf(pid, sizeof(pid), "%.*s", (int)(h->pid ? h->pid_len : h->tid_len),
		 h->pid ? h->pid : h->tid);
	if (ev == 0)
		snprintf(tid, sizeof(tid), "%.*s", (int)h->tid_len, h->tid);
	else
		snprintf(tid, sizeof(tid), "%.*s %s", (int)h->tid_len, h->tid, c->events[ev]);
	c->track = pr_writer_track(c->w, "thread", pid, tid);
	{
		size_t cl = h->comm_len;
		const char *comm = clean_text(c, h->comm, &cl, line);
		pr_strbuf_reset(&c->tmp);
		pr_strbuf_add(&c->tmp, comm, cl);
		if (ev > 0)
			pr_strbuf_addf(&c->tmp, " (%s)", c->events[ev]);
		pr_writer_track_set_name(c->w, c->track, c->tmp.buf);
	}
	c->weight = h->has_period ? h->period : 1;
	c->nsamples[ev]++;
	if (h->time) {
		if (!c->time_first)
			c->time_first = pr_xstrndup(h->time, h->time_len);
		pr_strbuf_reset(&c->time_last);
		pr_strbuf_add(&c->time_last, h->time, h->time_len);
	}
	return 0;
}

static int psc_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_lines rd;
	struct psc c;
	char *s;
	size_t n, i;
	long lineno = 0, bc;
	int got, good = 0, rc = 0;

	memset(&c, 0, sizeof(c));
	c.w = w;
	c.units = json_object();
	pr_strbuf_init(&c.tmp);
	pr_strbuf_init(&c.clean);
	pr_strbuf_init(&c.time_last);
	c.stk = pr_stk_new(w, "frame");
	pr_writer_set_collector(w, "perf-script");
	pr_lines_init(&rd, src, PSC_MAX_LINE, "perf script");
	while ((got = pr_lines_next(&rd, &s, err)) > 0) {
		n = rd.n;
		struct hdr h;
		lineno++;
		if (lineno == 1 && n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
			s += 3;
			n -= 3;
		}
		if (n == 0 || strspn(s, " \t") == n) {
			flush(&c);
			continue;
		}
		if (s[0] == '#' && !c.in_record)
			continue;
		/* without -g, perf right-aligns COMM: an indented line that reads as a
		 * header with a time and an event is one (a stack line never does) */
		if ((s[0] == ' ' || s[0] == '\t') &&
		    (parse_hdr(s + strspn(s, " \t"), &h, &bc) < 0 || !h.time)) {
			const char *sym, *dso;
			size_t sl, dl;
			if (!c.in_record) {
				if (!good) {
					rc = pr_error_at(err, PR_E_PARSE, -1, lineno, 1,
							 "not perf script output: a stack line "
							 "before any record");
					break;
				}
				pr_writer_diag(w, "perf_script_bad_frame", -1, lineno, 1,
					       "a stack line outside a record; skipped");
				continue;
			}
			if (c.skip)
				continue;
			if (parse_frame(s + strspn(s, " \t"), &sym, &sl, &dso, &dl) < 0) {
				pr_writer_diag(w, "perf_script_bad_frame", -1, lineno,
					       (long)strspn(s, " \t") + 1,
					       "not 'ADDR SYM (DSO)'; the stack line is skipped");
				continue;
			}
			add_frame(&c, sym, sl, dso, dl, lineno);
			continue;
		}
		/* a header: the previous record ends even without a blank line */
		flush(&c);
		s += strspn(s, " \t");
		if (parse_hdr(s, &h, &bc) < 0) {
			if (!good) {
				rc = pr_error_at(err, PR_E_PARSE, -1, lineno, bc,
						 "not perf script output: expected 'COMM PID "
						 "SECS.FRAC: [PERIOD] EVENT:'");
				break;
			}
			pr_writer_diag(w, "perf_script_bad_record", -1, lineno, bc,
				       "a record header not understood; the record is skipped");
			c.in_record = 1;
			c.skip = 1;
			continue;
		}
		pr_writer_at(w, rd.off);
		c.in_record = 1;
		c.nf = 0;
		c.deep = 0;
		c.skip = header(&c, &h, lineno) < 0;
		good = 1;
		/* no -g: the sampled address on the header line */
		if (!c.skip && h.rest && *h.rest) {
			const char *sym, *dso;
			size_t sl, dl;
			if (parse_frame(h.rest, &sym, &sl, &dso, &dl) == 0)
				add_frame(&c, sym, sl, dso, dl, lineno);
		}
	}
	if (got < 0)
		rc = -1;
	if (rc == 0 && !good)
		rc = pr_error_at(err, PR_E_PARSE, -1, 0, 0,
				 "no records: expected perf script output");
	if (rc == 0) {
		flush(&c);
		pr_stk_finish(c.stk);
		pr_writer_meta_set(w, "perf.events", json_incref(c.units));
		{
			json_t *order = json_array();
			for (i = 0; i < c.nevents; i++) {
				json_array_append_new(order, json_string(c.events[i]));
				pr_writer_metric(w, "perf.samples", (double)c.nsamples[i], "count",
						 0, "reported", c.events[i]);
			}
			pr_writer_meta_set(w, "perf.event_order", order);
		}
		pr_writer_meta_set(
			w, "weight_stored",
			json_string(
				c.any_synthetic
					? "synthetic time: 1 event (period) or 1 sample = 1 ns, samples "
					  "laid end to end per thread"
					: "ns: the period of cpu-clock/task-clock, samples laid end to end "
					  "per thread"));
		if (c.time_first) {
			pr_writer_meta_set(w, "perf.time_first", json_string(c.time_first));
			pr_writer_meta_set(w, "perf.time_last", json_string(c.time_last.buf));
		}
	}
	pr_lines_release(&rd);
	pr_stk_free(c.stk);
	free(c.f);
	for (i = 0; i < c.nevents; i++)
		free(c.events[i]);
	for (i = 0; i < c.nargs; i++)
		free(c.args[i]);
	free(c.args);
	free(c.time_first);
	json_decref(c.units);
	pr_strmap_release(&c.dso_args);
	pr_strbuf_release(&c.tmp);
	pr_strbuf_release(&c.clean);
	pr_strbuf_release(&c.time_last);
	return rc;
}

static const char *const perf_script_tokens[] = {
	"cycles:", "cpu-clock:", "task-clock:", "[unknown]", "[kernel.kallsyms]", ":", NULL
};

const struct pr_format pr_format_perf_script = {
	.name = "perf-script",
	.summary = "Linux perf script text (perf record, with or without -g) as sampled stacks",
	.sniff = psc_sniff,
	.parse = psc_parse,
	.tokens = perf_script_tokens,
};
