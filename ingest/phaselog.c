/* phaselog.c - a phase log (--phases FILE) placed on a run's clock as "phase" spans. */
#include "ingest/phaselog.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>
#include <stdio.h>

#include "ingest/csv.h"
#include "ingest/datetime.h"
#include "ingest/source.h"
#include "base/decimal.h"
#include "base/env.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define LOG_MAX ((size_t)64 << 20)
#define NS_PER_S 1000000000LL
#define EPOCH_MIN_NS (NS_PER_S * NS_PER_S) /* 1e9 s: absolute from here on */

enum {
	MODE_NONE,
	MODE_ABS,
	MODE_REL
};

/* One phase, on the log's own times (epoch ns, or ns from the run's start). */
struct phase {
	int64_t t0, t1;
	int open_end; /* runs until the end of the run */
	long line;
	char *name;
};

/* A phase started and not yet ended. */
struct open {
	int64_t t;
	long line, col;
	char *name;
};

struct plog {
	struct pr_writer *w;
	const char *path;
	struct phase *v;
	size_t n, cap;
	struct open *opens; /* start/end pairs, in start order */
	size_t nopens, cap_opens;
	struct open seq; /* the phase of the last TIME NAME line */
	int has_seq;
	int mode;
	long mode_line, mode_col; /* the first time: where the mode was decided */
	const char *mode_kind;	  /* "epoch", "date-time", "relative" */
	int naive_noted;
	size_t max, over; /* phases kept at most (PROFREPORT_MAX_STEPS), and left out past it */
	long over_line;	  /* the first phase left out */
	int64_t seen;	  /* lines that were neither blank nor comments */
	int64_t lines;	  /* lines that were phase lines */
	long bad_line, bad_col; /* the first line that was not */
	struct pr_strbuf tmp;
};

/* A text field of the line being read. */
struct fld {
	const char *p;
	size_t n;
	long col; /* 1-based byte column */
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static void trim(struct fld *f)
{
	while (f->n && is_blank(*f->p)) {
		f->p++;
		f->n--;
		f->col++;
	}
	while (f->n && is_blank(f->p[f->n - 1]))
		f->n--;
}

static int word_is(const struct fld *f, const char *w)
{
	size_t i, k = strlen(w);
	if (f->n != k)
		return 0;
	for (i = 0; i < k; i++) {
		char c = f->p[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != w[i])
			return 0;
	}
	return 1;
}

/* "YYYY-MM-DD" or "YYYY/MM/DD" alone: the date part of "DATE TIME". */
static int is_date_only(const struct fld *f)
{
	size_t i;
	if (f->n != 10 || (f->p[4] != '-' && f->p[4] != '/') || f->p[7] != f->p[4])
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (f->p[i] < '0' || f->p[i] > '9'))
			return 0;
	return 1;
}

/*
 * Takes the next field off *rest into *out: up to the next ',' (comma) or
 * blank, a [bracketed] time whole, and "DATE TIME" (a date-time written with
 * its blank) as one field. *rest is what follows, trimmed.
 */
static void take(struct fld *rest, int comma, struct fld *out)
{
	size_t i = 0;
	trim(rest);
	out->p = rest->p;
	out->col = rest->col;
	if (rest->n && rest->p[0] == '[') {
		const char *end = memchr(rest->p, ']', rest->n);
		if (end) {
			i = (size_t)(end - rest->p) + 1;
			out->p = rest->p + 1;
			out->col = rest->col + 1;
			out->n = i - 2;
			trim(out);
			goto next;
		}
	}
	while (i < rest->n && !(comma ? rest->p[i] == ',' : is_blank(rest->p[i])))
		i++;
	out->n = i;
	if (!comma && is_date_only(out)) {
		size_t j = i;
		while (j < rest->n && is_blank(rest->p[j]))
			j++;
		if (j + 2 < rest->n && rest->p[j] >= '0' && rest->p[j] <= '9' &&
		    rest->p[j + 2] == ':') {
			i = j;
			while (i < rest->n && !is_blank(rest->p[i]))
				i++;
			out->n = i;
		}
	}
	trim(out);
next:
	if (comma && i < rest->n && rest->p[i] == ',')
		i++;
	rest->p += i;
	rest->n -= i;
	rest->col += (long)i;
	trim(rest);
}

/* A time field: 0 with *ns and *kind, or -1. */
static int parse_time(const struct fld *f, int64_t *ns, const char **kind, int *naive)
{
	*naive = 0;
	if (f->n >= 5 && (f->p[4] == '-' || f->p[4] == '/')) {
		if (pr_parse_datetime(f->p, f->n, ns, naive))
			return -1;
		*kind = "date-time";
		return 0;
	}
	if (!f->n || f->p[0] == '-' || pr_decimal_scaled(f->p, f->n, 9, ns) != PR_DEC_OK)
		return -1;
	*kind = *ns >= EPOCH_MIN_NS ? "epoch" : "relative";
	return 0;
}

static void diag(struct plog *pl, const char *code, long line, long col, const char *fmt, ...)
	PR_PRINTF_LIKE(5, 6);

static void diag(struct plog *pl, const char *code, long line, long col, const char *fmt, ...)
{
	va_list ap;
	pr_strbuf_reset(&pl->tmp);
	va_start(ap, fmt);
	pr_strbuf_vaddf(&pl->tmp, fmt, ap);
	va_end(ap);
	pr_writer_diag(pl->w, code, -1, 0, 0, "'%s':%ld:%ld: %s", pl->path, line, col, pl->tmp.buf);
}

/* The time's kind against the log's: 0 when it fits (the first decides). */
static int check_mode(struct plog *pl, const char *kind, int naive, long line, long col)
{
	int mode = strcmp(kind, "relative") ? MODE_ABS : MODE_REL;
	if (!pl->mode) {
		pl->mode = mode;
		pl->mode_line = line;
		pl->mode_col = col;
		pl->mode_kind = kind;
	}
	if (pl->mode != mode) {
		diag(pl, "phase_mixed_time", line, col,
		     "%s time in a log of %s times; line skipped",
		     mode == MODE_ABS ? "an absolute" : "a relative",
		     pl->mode == MODE_ABS ? "absolute" : "relative");
		return -1;
	}
	if (naive && !pl->naive_noted) {
		pl->naive_noted = 1;
		diag(pl, "phase_naive_time_utc", line, col,
		     "date-times have no time zone; taken as UTC");
	}
	return 0;
}

static char *clean_name(struct plog *pl, const struct fld *f)
{
	pr_strbuf_reset(&pl->tmp);
	pr_csv_text_clean(&pl->tmp, f->p, f->n);
	return pr_xstrdup(pl->tmp.buf);
}

/* A phase from o (whose name is taken) to t1; one that ends before it starts is dropped. */
static void add_phase(struct plog *pl, struct open *o, int64_t t1, int open_end, long line)
{
	struct phase *ph;
	if (!open_end && t1 < o->t) {
		diag(pl, "phase_time_backwards", line, 1,
		     "phase '%s' (line %ld) ends before it starts; skipped", o->name, o->line);
		free(o->name);
		o->name = NULL;
		return;
	}
	if (pl->n >= pl->max) { /* the analyses would leave it out: not kept (issue 30 R5) */
		if (!pl->over++)
			pl->over_line = o->line;
		free(o->name);
		o->name = NULL;
		return;
	}
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? pl->cap * 2 : 16;
		pl->v = pr_xreallocarray(pl->v, pl->cap, sizeof(*pl->v));
	}
	ph = &pl->v[pl->n++];
	ph->t0 = o->t;
	ph->t1 = open_end ? o->t : t1;
	ph->open_end = open_end;
	ph->line = o->line;
	ph->name = o->name;
	o->name = NULL;
}

static void bad_line(struct plog *pl, long line, long col, const char *why)
{
	if (!pl->bad_line) {
		pl->bad_line = line;
		pl->bad_col = col;
	}
	diag(pl, "phase_bad_line", line, col,
	     "%s (lines are TIME NAME, TIME start|end NAME or START END NAME); line skipped", why);
}

static void read_line(struct plog *pl, const char *p, size_t n, long line)
{
	struct fld rest = { p, n, 1 }, t1f, f2, f3;
	int64_t t1, t2;
	const char *k1, *k2;
	int naive, comma;
	struct open o;

	trim(&rest);
	if (!rest.n || rest.p[0] == '#')
		return;
	pl->seen++;
	comma = memchr(rest.p, ',', rest.n) != NULL;
	take(&rest, comma, &t1f);
	if (parse_time(&t1f, &t1, &k1, &naive)) {
		if (pl->seen == 1)
			return; /* a header ("start,end,name") */
		bad_line(pl, line, t1f.col, "not a time (seconds or a date-time)");
		return;
	}
	if (check_mode(pl, k1, naive, line, t1f.col))
		return;
	if (!rest.n) {
		bad_line(pl, line, rest.col, "a time with no phase name");
		return;
	}
	pl->lines++;
	f3 = rest;
	take(&f3, comma, &f2);
	/* START END NAME */
	if (f3.n && !parse_time(&f2, &t2, &k2, &naive)) {
		if (check_mode(pl, k2, naive, line, f2.col))
			return;
		o.t = t1;
		o.line = line;
		o.col = t1f.col;
		o.name = clean_name(pl, &f3);
		add_phase(pl, &o, t2, 0, line);
		return;
	}
	/* TIME start NAME */
	if (f3.n && (word_is(&f2, "start") || word_is(&f2, "begin"))) {
		if (pl->nopens == pl->cap_opens) {
			pl->cap_opens = pl->cap_opens ? pl->cap_opens * 2 : 8;
			pl->opens = pr_xreallocarray(pl->opens, pl->cap_opens, sizeof(*pl->opens));
		}
		o.t = t1;
		o.line = line;
		o.col = t1f.col;
		o.name = clean_name(pl, &f3);
		pl->opens[pl->nopens++] = o;
		return;
	}
	/* TIME end NAME: the most recent open phase of that name */
	if (f3.n && word_is(&f2, "end")) {
		char *name = clean_name(pl, &f3);
		size_t i = pl->nopens;
		while (i && strcmp(pl->opens[i - 1].name, name))
			i--;
		if (!i) {
			diag(pl, "phase_unmatched_end", line, f2.col,
			     "end of phase '%s', which was not started; skipped", name);
			free(name);
			return;
		}
		free(name);
		add_phase(pl, &pl->opens[i - 1], t1, 0, line);
		memmove(&pl->opens[i - 1], &pl->opens[i], (pl->nopens - i) * sizeof(*pl->opens));
		pl->nopens--;
		return;
	}
	/* TIME end: ends the phase of the last TIME NAME line */
	if (!f3.n && word_is(&f2, "end")) {
		if (!pl->has_seq) {
			diag(pl, "phase_unmatched_end", line, f2.col,
			     "'end' with no phase running; skipped");
			return;
		}
		add_phase(pl, &pl->seq, t1, 0, line);
		pl->has_seq = 0;
		return;
	}
	/* TIME NAME: ends the phase before, runs until the next line */
	if (pl->has_seq)
		add_phase(pl, &pl->seq, t1, 0, line);
	pl->seq.t = t1;
	pl->seq.line = line;
	pl->seq.col = t1f.col;
	pl->seq.name = clean_name(pl, &rest);
	pl->has_seq = 1;
}

/* The whole file (phase logs are small), its hash into stats. */
static int slurp(const char *path, struct pr_strbuf *buf, char hash[33], struct pr_error *err)
{
	struct pr_source *src;
	char chunk[65536];
	long r;
	if (pr_source_open(&src, path, err))
		return -1;
	while ((r = pr_source_read(src, chunk, sizeof(chunk), err)) > 0) {
		if (buf->len + (size_t)r > LOG_MAX) {
			pr_source_close(src);
			pr_error_set(err, PR_E_LIMIT, "over %zu MiB: not a phase log",
				     LOG_MAX >> 20);
			pr_error_set_source(err, path);
			return -1;
		}
		pr_strbuf_add(buf, chunk, (size_t)r);
	}
	if (r < 0) {
		pr_source_close(src);
		return -1;
	}
	pr_source_hash_hex(src, hash);
	pr_source_close(src);
	if (memchr(buf->buf, '\0', buf->len))
		return pr_error_set(err, PR_E_FORMAT, "binary data: not a phase log");
	return 0;
}

/* "12.345 s" (ns on the run's clock, from its start). */
static const char *secs(char *out, size_t n, int64_t ns)
{
	int64_t a = ns < 0 ? -ns : ns;
	snprintf(out, n, "%s%lld.%03lld s", ns < 0 ? "-" : "", (long long)(a / NS_PER_S),
		 (long long)(a % NS_PER_S / 1000000));
	return out;
}

static int cmp_phase(const void *a, const void *b)
{
	const struct phase *x = a, *y = b;
	if (x->t0 != y->t0)
		return x->t0 < y->t0 ? -1 : 1;
	if (x->t1 != y->t1)
		return x->t1 > y->t1 ? -1 : 1; /* the longer first: it encloses */
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The phases on the run's clock, checked against its range, as spans. */
static int place(struct plog *pl, const char *base, int64_t *written, struct pr_error *err)
{
	struct pr_writer_clock clk;
	int64_t off, track;
	size_t i, kept = 0;
	char a[40], b[40], c[40];

	pr_writer_get_clock(pl->w, &clk);
	if (!clk.has_ts)
		return pr_error_set(err, PR_E_FORMAT,
				    "the run has no events: no time to place the phases on");
	if (clk.synthetic)
		return pr_error_set(
			err, PR_E_FORMAT,
			"the run's time is synthetic (its source has no clock): the phases "
			"cannot be placed on it");
	if (pl->mode == MODE_ABS && !clk.has_origin)
		return pr_error_at(
			err, PR_E_FORMAT, -1, pl->mode_line, pl->mode_col,
			"%s time, but the run has no absolute clock (its source gives only "
			"relative times): write seconds from the run's start instead",
			pl->mode_kind);
	off = pl->mode == MODE_ABS ? -clk.origin_ns : clk.ts_min;
	for (i = 0; i < pl->n; i++) {
		struct phase *ph = &pl->v[i];
		int64_t s, e;
		/* an epoch ns minus an origin, or an offset under 1e18 ns plus ts_min */
		struct phase moved;
		if ((off > 0 && ph->t0 > INT64_MAX - off) ||
		    (off < 0 && ph->t0 < INT64_MIN - off) ||
		    (off > 0 && ph->t1 > INT64_MAX - off) ||
		    (off < 0 && ph->t1 < INT64_MIN - off)) {
			diag(pl, "phase_outside_run", ph->line, 1,
			     "phase '%s' is out of the run's time range; skipped", ph->name);
			free(ph->name);
			ph->name = NULL;
			continue;
		}
		s = ph->t0 + off;
		e = ph->open_end ? (clk.ts_max > s ? clk.ts_max : s) : ph->t1 + off;
		if (e < clk.ts_min || s > clk.ts_max) {
			diag(pl, "phase_outside_run", ph->line, 1,
			     "phase '%s' (%s to %s from the run's start) is outside the run (0 s to "
			     "%s); skipped",
			     ph->name, secs(a, sizeof(a), s - clk.ts_min),
			     secs(b, sizeof(b), e - clk.ts_min),
			     secs(c, sizeof(c), clk.ts_max - clk.ts_min));
			free(ph->name);
			ph->name = NULL;
			continue;
		}
		if (s < clk.ts_min || e > clk.ts_max)
			diag(pl, "phase_beyond_run", ph->line, 1,
			     "phase '%s' (%s to %s from the run's start) reaches beyond the run (0 s to "
			     "%s); kept as written",
			     ph->name, secs(a, sizeof(a), s - clk.ts_min),
			     secs(b, sizeof(b), e - clk.ts_min),
			     secs(c, sizeof(c), clk.ts_max - clk.ts_min));
		moved = *ph;
		moved.t0 = s;
		moved.t1 = e;
		ph->name = NULL;
		pl->v[kept++] = moved; /* kept <= i: a slot already moved or freed */
	}
	if (!kept) {
		pl->n = 0;
		return pr_error_set(
			err, PR_E_FORMAT,
			"no phase falls within the run (0 s to %s from its first event): a "
			"log of another run, or clocks apart?",
			secs(c, sizeof(c), clk.ts_max - clk.ts_min));
	}
	pl->n = kept;
	qsort(pl->v, pl->n, sizeof(*pl->v), cmp_phase);
	pr_writer_at(pl->w, -1);
	track = pr_writer_track(pl->w, "phases", "phase log", base);
	pr_writer_track_set_name(pl->w, track, base);
	for (i = 0; i < pl->n; i++) {
		struct pr_span_in sp;
		char args[48];
		memset(&sp, 0, sizeof(sp));
		snprintf(args, sizeof(args), "{\"line\":%ld}", pl->v[i].line);
		sp.track = track;
		sp.kind = "phase";
		sp.name = pr_writer_intern(pl->w, pl->v[i].name, strlen(pl->v[i].name));
		sp.ts = pl->v[i].t0;
		sp.dur = pl->v[i].t1 - pl->v[i].t0;
		sp.args = args;
		sp.args_len = strlen(args);
		pr_writer_span(pl->w, &sp);
	}
	*written = (int64_t)pl->n;
	pr_writer_meta_set(pl->w, "phase_log",
			   json_pack("{s:s, s:I, s:s}", "file", pl->path, "phases",
				     (json_int_t)pl->n, "time", pl->mode_kind));
	return 0;
}

static void plog_release(struct plog *pl)
{
	size_t i;
	for (i = 0; i < pl->n; i++)
		free(pl->v[i].name);
	free(pl->v);
	for (i = 0; i < pl->nopens; i++)
		free(pl->opens[i].name);
	free(pl->opens);
	if (pl->has_seq)
		free(pl->seq.name);
	pr_strbuf_release(&pl->tmp);
}

/* A last marker that ends the work rather than starting a phase. */
/*
 * One operation of a JSON operations list (QEff's profiler.operations,
 * [[TIME, NAME], ...]): a TIME NAME line whose NAME is taken whole (it may
 * hold blanks, commas or the words start/end). `line` is its 1-based index.
 */
static void read_op(struct plog *pl, const char *t, size_t tn, const char *name, long line)
{
	struct fld tf = { t, tn, 1 }, nf = { name, strlen(name), 1 };
	const char *k;
	int64_t ns;
	int naive;
	pl->seen++;
	trim(&tf);
	trim(&nf);
	if (parse_time(&tf, &ns, &k, &naive)) {
		bad_line(pl, line, 1, "not a time (seconds or a date-time)");
		return;
	}
	if (check_mode(pl, k, naive, line, 1))
		return;
	if (!nf.n) {
		bad_line(pl, line, 1, "a time with no phase name");
		return;
	}
	pl->lines++;
	if (pl->has_seq)
		add_phase(pl, &pl->seq, ns, 0, line);
	pl->seq.t = ns;
	pl->seq.line = line;
	pl->seq.col = 1;
	pl->seq.name = clean_name(pl, &nf);
	pl->has_seq = 1;
}

/*
 * A JSON operations list: [[TIME, NAME], ...] as QEff keeps its marks
 * (profiler.operations, datetimes as ISO-8601 strings), or an object with
 * it under "operations" (the state QEff's data file leaves out). TIME is a
 * string (a date-time or seconds) or a number (seconds). 1 when the text is
 * JSON but no operations list (an array whose first item is no pair: read as
 * lines, whose error says where), -1 with err for an object without one.
 */
static int read_json(struct plog *pl, const char *p, size_t n, struct pr_error *err)
{
	json_error_t je;
	json_t *doc = json_loadb(p, n, JSON_DECODE_ANY, &je), *ops, *op;
	size_t i;
	if (!doc)
		return 1;
	ops = json_is_object(doc) ? json_object_get(doc, "operations") : doc;
	op = json_array_get(ops, 0);
	if (json_is_array(doc) &&
	    !(json_array_size(op) == 2 && json_is_string(json_array_get(op, 1)))) {
		json_decref(doc);
		return 1;
	}
	if (!json_is_array(ops)) {
		json_decref(doc);
		return pr_error_set(err, PR_E_FORMAT,
				    "not a phase log: JSON without an operations list "
				    "([[TIME, NAME], ...] or {\"operations\": [...]})");
	}
	json_array_foreach (ops, i, op) {
		const json_t *t = json_array_get(op, 0), *nm = json_array_get(op, 1);
		char num[64];
		if (json_array_size(op) != 2 || !json_is_string(nm) ||
		    !(json_is_string(t) || json_is_number(t))) {
			pl->seen++;
			bad_line(pl, (long)i + 1, 1, "not a [TIME, NAME] pair");
			continue;
		}
		if (json_is_string(t)) {
			read_op(pl, json_string_value(t), json_string_length(t),
				json_string_value(nm), (long)i + 1);
		} else {
			snprintf(num, sizeof(num), "%.9f", json_number_value(t));
			read_op(pl, num, strlen(num), json_string_value(nm), (long)i + 1);
		}
	}
	json_decref(doc);
	return 0;
}

static int closing_word(const char *name)
{
	/* "completion": QEff's stop_monitoring() marks "Completion" */
	static const char *const words[] = { "exit",	  "end",	"done",	   "finish",
					     "finished",  "stop",	"stopped", "complete",
					     "completed", "completion", "shutdown" };
	size_t i;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcasecmp(name, words[i]))
			return 1;
	return 0;
}

int pr_phaselog_attach(struct pr_writer *w, const char *path, struct pr_phaselog_stats *stats,
		       struct pr_error *err)
{
	struct pr_strbuf buf = PR_STRBUF_INIT;
	struct plog pl;
	const char *p, *end, *base;
	long line = 1;
	size_t i;
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	memset(&pl, 0, sizeof(pl));
	pl.w = w;
	pl.path = path;
	pr_strbuf_init(&pl.tmp);
	if (pr_env_number(PR_MAX_STEPS_ENV, PR_MAX_STEPS_DEFAULT, 1, PR_MAX_COUNT_MAX, 0, &pl.max,
			  err) ||
	    slurp(path, &buf, stats->hash, err))
		goto out;
	p = buf.buf;
	end = p + buf.len;
	if (buf.len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	{
		const char *q = p;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'))
			q++;
		if (q < end && (*q == '[' || *q == '{')) {
			int j = read_json(&pl, p, (size_t)(end - p), err);
			if (j < 0)
				goto out;
			if (j == 0)
				p = end;
		}
	}
	for (; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n && p[n - 1] == '\r')
			n--;
		read_line(&pl, p, n, line);
		p = nl ? nl + 1 : end;
	}
	/* what is still open runs until the end of the run; a last TIME NAME line
	 * that only says the work is over (exit, done, end, ...) closed the phase
	 * before it and is no phase of its own (it used to stretch to the end) */
	if (pl.has_seq && pl.n && closing_word(pl.seq.name)) {
		free(pl.seq.name);
		pl.has_seq = 0;
	} else if (pl.has_seq) {
		add_phase(&pl, &pl.seq, 0, 1, pl.seq.line);
		pl.has_seq = 0;
	}
	for (i = 0; i < pl.nopens; i++) {
		diag(&pl, "phase_unclosed", pl.opens[i].line, pl.opens[i].col,
		     "phase '%s' was started and never ended; it runs until the end of the run",
		     pl.opens[i].name);
		add_phase(&pl, &pl.opens[i], 0, 1, pl.opens[i].line);
	}
	pl.nopens = 0;
	if (pl.over)
		diag(&pl, "phase_log_over_budget", pl.over_line, 1,
		     "%zu phases after the first %zu (from this line on) are left out; %s=N raises "
		     "the budget",
		     pl.over, pl.max, PR_MAX_STEPS_ENV);
	if (!pl.n) {
		if (pl.bad_line)
			pr_error_at(err, PR_E_FORMAT, -1, pl.bad_line, pl.bad_col,
				    "not a phase log: no line is TIME NAME, TIME start|end NAME or "
				    "START END NAME");
		else if (pl.lines)
			pr_error_set(err, PR_E_FORMAT, "no usable phase in the log");
		else
			pr_error_set(err, PR_E_FORMAT, "empty phase log: no phase line");
		goto out;
	}
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	rc = place(&pl, base, &stats->phases, err);
out:
	if (rc && !err->source[0])
		pr_error_set_source(err, path);
	plog_release(&pl);
	pr_strbuf_release(&buf);
	return rc;
}
