/*
 * fmt_perf_stat.c - Linux `perf stat -x,` output (CSV, written on stderr or
 * to `-o FILE` after a "# started on ..." line).
 *
 * One line per counter:
 *   [TIME,][CPUn,]VALUE,UNIT,EVENT,[STDDEV%,]RUN_TIME,PCT[,METRIC,METRIC_UNIT]
 *   TIME     -I MSEC (interval mode): seconds since the start, first field
 *   CPUn     -A (--no-aggr): the CPU, kept as the device / a name suffix
 *   VALUE    the count (scaled up by perf when multiplexed), or
 *            "<not counted>" / "<not supported>": missing, with a diagnostic
 *   UNIT     "msec" for task-clock/cpu-clock (-> ns), empty for counts
 *   STDDEV%  -r N: the run-to-run standard deviation
 *   RUN_TIME ns the counter ran; PCT the share of the time it was counting
 *            (below 100: multiplexed, perf estimated the count)
 *   METRIC   perf's derived metric ("CPUs utilized", "K/sec", "insn per cycle")
 * Totals (no TIME) -> reported metrics perf.<event> (ns or count),
 * perf.<event>.run_time (ns), .counted (percent), .stddev (percent) and
 * .metric (its unit; "/sec", "K/sec", "M/sec", "G/sec" -> "1/s").
 * Interval mode -> series perf.<event> (the count in each interval, at the
 * interval's end), perf.<event>.counted and perf.<event>.metric. With -A the
 * CPU is the series' device and a "[CPUn]" suffix of the metric names.
 * The separator is the one -x gave: ',' ';' or a tab (found on the first line).
 *
 * Diagnostics: perf_stat_not_counted, perf_stat_not_supported (no value),
 * perf_stat_multiplexed (PCT < 100), perf_stat_bad_line (skipped),
 * perf_stat_time_backwards. The first counter line must parse: otherwise the
 * file is not perf stat output (an error with its position).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/stacks.h"
#include "base/decimal.h"
#include "base/pr_common.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

#define PS_MAX_LINE (64u << 10)
#define PS_MAX_FIELDS 16

struct ps_line {
	int interval;
	int64_t t_ns;
	const char *cpu; /* NULL without -A */
	const char *value, *unit, *event, *stddev, *run_time, *pct, *metric, *metric_unit;
	long col_value, col_event;
};

static int is_dec(const char *s)
{
	size_t n = strlen(s);
	double d;
	return n > 0 && isdigit((unsigned char)s[0]) && pr_decimal_double(s, n, &d) == PR_DEC_OK;
}

static int is_missing(const char *s)
{
	return !strcmp(s, "<not counted>") || !strcmp(s, "<not supported>");
}

static int is_cpu(const char *s)
{
	return !strncmp(s, "CPU", 3) && s[3] && strspn(s + 3, "0123456789") == strlen(s + 3);
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Splits s (modified) at sep into at most PS_MAX_FIELDS fields; their count. */
static size_t split(char *s, char sep, char **f, long *col)
{
	size_t n = 0;
	char *p = s;
	for (;;) {
		char *e = strchr(p, sep);
		if (n == PS_MAX_FIELDS)
			return n + 1;
		col[n] = (long)(p - s) + 1;
		f[n++] = p;
		if (!e)
			break;
		*e = '\0';
		p = e + 1;
	}
	return n;
}

/* Reads one counter line; 0, or -1 (not a perf stat line) with *badcol. */
static int read_line(char *s, char sep, struct ps_line *l, long *badcol)
{
	char *f[PS_MAX_FIELDS + 1];
	long col[PS_MAX_FIELDS + 1];
	size_t n = split(s, sep, f, col), i = 0;
	memset(l, 0, sizeof(*l));
	*badcol = 1;
	if (n > PS_MAX_FIELDS || n < 3)
		return -1;
	/* interval mode: a time, then a value (or a CPU) */
	if (n >= 4 && is_dec(skip_blanks(f[0])) &&
	    (is_dec(f[1]) || is_missing(f[1]) || is_cpu(f[1]))) {
		const char *t = skip_blanks(f[0]);
		l->interval = 1;
		if (pr_decimal_scaled(t, strlen(t), 9, &l->t_ns) != PR_DEC_OK || l->t_ns < 0)
			return -1;
		i = 1;
	}
	if (i < n && is_cpu(f[i]))
		l->cpu = f[i++];
	if (n - i < 3)
		return -1;
	*badcol = col[i];
	if (!is_dec(f[i]) && !is_missing(f[i]))
		return -1;
	l->value = f[i];
	l->col_value = col[i];
	l->unit = f[i + 1];
	l->event = f[i + 2];
	l->col_event = col[i + 2];
	*badcol = col[i + 2];
	if (!l->event[0] || strchr(l->event, ' '))
		return -1;
	i += 3;
	if (i < n && f[i][0] && f[i][strlen(f[i]) - 1] == '%')
		l->stddev = f[i++];
	if (i < n)
		l->run_time = f[i++];
	if (i < n)
		l->pct = f[i++];
	if (i < n)
		l->metric = f[i++];
	if (i < n)
		l->metric_unit = f[i++];
	return 0;
}

/* The separator -x gave: the first of ',', ';', tab after the first field. */
static char find_sep(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == ';' || s[i] == '\t')
			return s[i];
	return 0;
}

static int ps_sniff(const unsigned char *head, size_t n, const char *path)
{
	size_t i = 0, good = 0, bad = 0;
	PR_UNUSED(path);
	if (memchr(head, 0, n))
		return 0;
	while (i < n && good < 64) {
		const unsigned char *nl = memchr(head + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (head + i)) : n - i;
		char buf[1024];
		struct ps_line l;
		long bc;
		char sep;
		if (!nl && n >= PR_SOURCE_HEAD)
			break;
		while (len > 0 && head[i + len - 1] == '\r')
			len--;
		if (len > 0 && head[i] != '#') {
			if (len >= sizeof(buf))
				return 0;
			memcpy(buf, head + i, len);
			buf[len] = '\0';
			sep = find_sep(buf, len);
			if (!sep || read_line(buf, sep, &l, &bc) < 0 || !l.run_time) {
				if (!good)
					return 0; /* the first counter line must be one */
				bad++;
			} else {
				good++;
			}
		}
		i += len;
		while (i < n && (head[i] == '\r' || head[i] == '\n'))
			i++;
	}
	/* a stray line is a diagnostic; more than one in five is another format */
	if (bad * 4 > good)
		return 0;
	return good >= 2 ? 90 : good == 1 ? 60 : 0;
}

struct ps {
	struct pr_writer *w;
	struct pr_strbuf name, detail, tmp;
	struct pr_strmap series; /* "name\0device" -> series id */
	int64_t last_t;
	int have_t;
};

static int64_t series(struct ps *p, const char *name, const char *device, const char *unit,
		      const char *orig)
{
	int64_t id;
	pr_strbuf_reset(&p->tmp);
	pr_strbuf_addstr(&p->tmp, name);
	pr_strbuf_addch(&p->tmp, '\0');
	pr_strbuf_addstr(&p->tmp, device);
	if (pr_strmap_get(&p->series, p->tmp.buf, p->tmp.len, &id))
		return id;
	id = pr_writer_series(p->w, name, device, unit, orig);
	pr_strmap_put(&p->series, p->tmp.buf, p->tmp.len, id);
	return id;
}

/* perf's metric unit -> (scale, unit): rates to 1/s, the rest as written. */
static const char *metric_unit(const char *u, double *scale)
{
	*scale = 1;
	if (!strcmp(u, "/sec"))
		return "1/s";
	if (!strcmp(u, "K/sec")) {
		*scale = 1e3;
		return "1/s";
	}
	if (!strcmp(u, "M/sec")) {
		*scale = 1e6;
		return "1/s";
	}
	if (!strcmp(u, "G/sec")) {
		*scale = 1e9;
		return "1/s";
	}
	return u;
}

static void name_of(struct ps *p, const struct ps_line *l, const char *suffix)
{
	pr_strbuf_reset(&p->name);
	pr_strbuf_addf(&p->name, "perf.%s%s", l->event, suffix);
	if (l->cpu && !l->interval)
		pr_strbuf_addf(&p->name, "[%s]", l->cpu);
}

static void counter(struct ps *p, const struct ps_line *l, long lineno)
{
	double v, d, scale;
	const char *unit = "count", *mu;
	if (is_missing(l->value)) {
		if (!strcmp(l->value, "<not counted>"))
			pr_writer_diag(
				p->w, "perf_stat_not_counted", -1, lineno, l->col_value,
				"'%s' is <not counted> (it never ran: too many counters, or the "
				"program ended first); no value",
				l->event);
		else
			pr_writer_diag(p->w, "perf_stat_not_supported", -1, lineno, l->col_value,
				       "'%s' is <not supported> (no such counter here: a VM or "
				       "container without hardware counters); no value",
				       l->event);
		return;
	}
	if (!strcmp(l->unit, "msec")) {
		int64_t ns;
		if (pr_decimal_scaled(l->value, strlen(l->value), 6, &ns) != PR_DEC_OK) {
			pr_writer_diag(p->w, "perf_stat_bad_line", -1, lineno, l->col_value,
				       "value out of range; line skipped");
			return;
		}
		v = (double)ns;
		unit = "ns";
	} else {
		if (pr_decimal_double(l->value, strlen(l->value), &v) != PR_DEC_OK) {
			pr_writer_diag(p->w, "perf_stat_bad_line", -1, lineno, l->col_value,
				       "value out of range; line skipped");
			return;
		}
		if (l->unit[0])
			unit = l->unit;
	}
	if (l->interval) {
		if (p->have_t && l->t_ns < p->last_t)
			pr_writer_diag(p->w, "perf_stat_time_backwards", -1, lineno, 1,
				       "the interval time decreases");
		p->have_t = 1;
		p->last_t = l->t_ns;
	}
	pr_strbuf_reset(&p->detail);
	pr_strbuf_addf(&p->detail, "%s%s%s", l->value, l->unit[0] ? " " : "", l->unit);
	name_of(p, l, "");
	if (l->interval)
		pr_writer_sample(p->w,
				 series(p, p->name.buf, l->cpu ? l->cpu : "", unit,
					l->unit[0] ? l->unit : "count"),
				 l->t_ns, v);
	else
		pr_writer_metric(p->w, p->name.buf, v, unit, 0, "reported", p->detail.buf);
	if (l->run_time && is_dec(l->run_time) &&
	    pr_decimal_double(l->run_time, strlen(l->run_time), &d) == PR_DEC_OK && !l->interval) {
		name_of(p, l, ".run_time");
		pr_writer_metric(p->w, p->name.buf, d, "ns", 0, "reported",
				 "time the counter ran (ns)");
	}
	if (l->pct && is_dec(l->pct) &&
	    pr_decimal_double(l->pct, strlen(l->pct), &d) == PR_DEC_OK) {
		name_of(p, l, ".counted");
		if (l->interval)
			pr_writer_sample(p->w,
					 series(p, p->name.buf, l->cpu ? l->cpu : "", "percent",
						"% of the time counting"),
					 l->t_ns, d);
		else
			pr_writer_metric(p->w, p->name.buf, d, "percent", 0, "reported",
					 "share of the time the counter was counting");
		if (d < 100)
			pr_writer_diag(p->w, "perf_stat_multiplexed", -1, lineno, l->col_event,
				       "'%s' counted %s%% of the time (multiplexed): perf scaled "
				       "its count up to an estimate",
				       l->event, l->pct);
	}
	if (l->stddev && !l->interval) {
		size_t k = strlen(l->stddev) - 1;
		if (pr_decimal_double(l->stddev, k, &d) == PR_DEC_OK) {
			name_of(p, l, ".stddev");
			pr_writer_metric(p->w, p->name.buf, d, "percent", 0, "reported",
					 "perf stat -r: standard deviation between runs");
		}
	}
	if (l->metric && l->metric[0] && is_dec(skip_blanks(l->metric)) &&
	    pr_decimal_double(skip_blanks(l->metric), strlen(skip_blanks(l->metric)), &d) ==
		    PR_DEC_OK) {
		mu = metric_unit(l->metric_unit ? l->metric_unit : "", &scale);
		name_of(p, l, ".metric");
		pr_strbuf_reset(&p->detail);
		pr_strbuf_addf(&p->detail, "perf's metric: %s %s", skip_blanks(l->metric),
			       l->metric_unit ? l->metric_unit : "");
		if (l->interval)
			pr_writer_sample(p->w,
					 series(p, p->name.buf, l->cpu ? l->cpu : "", mu,
						l->metric_unit ? l->metric_unit : ""),
					 l->t_ns, d * scale);
		else
			pr_writer_metric(p->w, p->name.buf, d * scale, mu, 0, "reported",
					 p->detail.buf);
	}
}

static int ps_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_lines rd;
	struct ps p;
	char *s;
	size_t n;
	long lineno = 0, bc;
	int got, good = 0, rc = 0, mode = -1;
	char sep = 0;

	memset(&p, 0, sizeof(p));
	p.w = w;
	pr_strbuf_init(&p.name);
	pr_strbuf_init(&p.detail);
	pr_strbuf_init(&p.tmp);
	pr_writer_set_collector(w, "perf-stat");
	pr_lines_init(&rd, src, PS_MAX_LINE, "perf stat");
	while ((got = pr_lines_next(&rd, &s, err)) > 0) {
		n = rd.n;
		struct ps_line l;
		lineno++;
		if (lineno == 1 && n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
			s += 3;
			n -= 3;
		}
		if (n == 0 || strspn(s, " \t") == n)
			continue;
		if (s[0] == '#') {
			if (!strncmp(s, "# started on ", 13) &&
			    !pr_writer_meta_get(w, "perf.started_on"))
				pr_writer_meta_set(w, "perf.started_on", json_string(s + 13));
			continue;
		}
		if (!sep)
			sep = find_sep(s, n);
		if (!sep || read_line(s, sep, &l, &bc) < 0 || (mode >= 0 && l.interval != mode)) {
			if (!good) {
				rc = pr_error_at(err, PR_E_PARSE, -1, lineno, sep ? bc : 1,
						 "not perf stat -x output: expected "
						 "'[TIME,]VALUE,UNIT,EVENT,RUN_TIME,PCT,...'");
				break;
			}
			pr_writer_diag(w, "perf_stat_bad_line", -1, lineno, sep ? bc : 1,
				       "not a perf stat -x counter line%s; skipped",
				       mode >= 0 && sep && l.interval != mode
					       ? " (interval and total lines mixed)"
					       : "");
			continue;
		}
		if (mode < 0) {
			mode = l.interval;
			pr_writer_meta_set(w, "perf.mode",
					   json_string(mode ? "interval (-I): series"
							    : "totals: metrics"));
		}
		good = 1;
		counter(&p, &l, lineno);
	}
	if (got < 0)
		rc = -1;
	if (rc == 0 && !good)
		rc = pr_error_at(err, PR_E_PARSE, -1, 0, 0,
				 "no counter lines: expected perf stat -x output");
	pr_lines_release(&rd);
	pr_strbuf_release(&p.name);
	pr_strbuf_release(&p.detail);
	pr_strbuf_release(&p.tmp);
	pr_strmap_release(&p.series);
	return rc;
}

static const char *const perf_stat_tokens[] = { "<not counted>",
						"<not supported>",
						"task-clock",
						"cycles",
						"instructions",
						"msec",
						"#",
						",",
						NULL };

const struct pr_format pr_format_perf_stat = {
	.name = "perf-stat",
	.summary = "Linux perf stat -x, CSV (totals and -I interval mode)",
	.sniff = ps_sniff,
	.parse = ps_parse,
	.tokens = perf_stat_tokens,
};
