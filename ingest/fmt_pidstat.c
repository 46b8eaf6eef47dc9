/*
 * fmt_pidstat.c - sysstat's pidstat text output (-u CPU, -r memory, -d I/O,
 * -w, -s, -v; -h one line per process; -t threads; -l full command lines).
 *
 *   Linux 6.1.0 (host)   11/24/26   _x86_64_   (2 CPU)      banner: the date
 *
 *   11:14:56      UID       PID    %usr ... Command          a table header
 *   11:14:57        0     32301   10.00 ... python3          a row
 *   Average:        0     32301   ...                        the Average: block
 *
 * With -h the header is "# Time UID PID ... Command". Columns are split at
 * blanks; Command is the last column and takes the rest of the line (-l
 * writes arguments there).
 *
 * Time: pidstat writes the local time of day only ("HH:MM:SS", "HH:MM:SS AM"
 * in 12-hour locales; -H: epoch seconds). The date comes from the banner,
 * "MM/DD/YY" (C locale) or "YYYY-MM-DD" (S_TIME_FORMAT=ISO); a time of day
 * more than 12 h earlier than the previous one is the next day (a recording
 * across midnight). The zone is not written: local times are taken as UTC
 * (pidstat_local_time). A banner date in another form: the times stay
 * relative to the first row and the run has no time origin
 * (pidstat_no_date). The first row's time is the run's time origin.
 *
 * Series: per process, device "pid:PID (command)" ("pid:TGID tid:TID
 * (command)" for -t threads), names from the table below (kB -> bytes);
 * the Average: rows become reported metrics "pidstat.avg.<series>" with the
 * device as detail.
 *
 * Diagnostics: pidstat_local_time, pidstat_no_date, pidstat_bad_line,
 * pidstat_bad_field_count, pidstat_bad_value, pidstat_bad_time,
 * pidstat_next_day.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/csv.h"
#include "ingest/datetime.h"
#include "ingest/format.h"
#include "ingest/lines.h"
#include "base/decimal.h"
#include "base/pr_common.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

#define PS_MAX_LINE (1 << 20)
#define PS_MAX_COLS 64
#define NS_PER_S 1000000000LL
#define DAY_NS (86400LL * NS_PER_S)

struct ps_map {
	const char *col, *series, *unit;
	double scale;
	const char *orig;
};

static const struct ps_map ps_maps[] = {
	{ "%usr", "cpu.user", "percent", 1, "%" },
	{ "%system", "cpu.system", "percent", 1, "%" },
	{ "%guest", "cpu.guest", "percent", 1, "%" },
	{ "%wait", "cpu.wait", "percent", 1, "%" },
	{ "%CPU", "cpu.util", "percent", 1, "% (of one core)" },
	{ "CPU", "cpu.core", "", 1, "processor number" },
	{ "minflt/s", "mem.minflt_rate", "1/s", 1, "faults/s" },
	{ "majflt/s", "mem.majflt_rate", "1/s", 1, "faults/s" },
	{ "VSZ", "mem.vms", "bytes", 1024, "kB" },
	{ "RSS", "mem.rss", "bytes", 1024, "kB" },
	{ "%MEM", "mem.util", "percent", 1, "%" },
	{ "kB_rd/s", "disk.read_rate", "bytes/s", 1024, "kB/s" },
	{ "kB_wr/s", "disk.write_rate", "bytes/s", 1024, "kB/s" },
	{ "kB_ccwr/s", "disk.cancelled_write_rate", "bytes/s", 1024, "kB/s" },
	{ "iodelay", "disk.iodelay", "", 1, "clock ticks" },
	{ "StkSize", "mem.stack.size", "bytes", 1024, "kB" },
	{ "StkRef", "mem.stack.ref", "bytes", 1024, "kB" },
	{ "cswch/s", "proc.cswch_rate", "1/s", 1, "switches/s" },
	{ "nvcswch/s", "proc.nvcswch_rate", "1/s", 1, "switches/s" },
	{ "threads", "proc.threads", "count", 1, "" },
	{ "fd-nr", "proc.fds", "count", 1, "" },
	{ "prio", "proc.prio", "", 1, "" },
};

/* Identity columns (never a series) and text columns. */
static const char *const id_cols[] = { "UID", "USER", "PID", "TGID", "TID", "policy" };

enum role {
	C_VALUE,
	C_ID,
	C_PID,
	C_TGID,
	C_TID
};

struct ps_col {
	char *name;
	const struct ps_map *map;
	enum role role;
};

struct ps {
	struct pr_writer *w;
	struct ps_col cols[PS_MAX_COLS];
	size_t ncols; /* columns between the time and Command */
	int has_table, has_date, date_noted, local_noted;
	int64_t date_ns;  /* the banner's date, midnight UTC */
	int64_t day_ns;	  /* days added for midnight crossings */
	int64_t prev_tod; /* previous time of day, -1 none */
	int has_origin;
	int64_t origin;
	int64_t rows;
	struct pr_strmap series;
	struct pr_strbuf key, dev, tmp;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits at blanks in place; returns the count (max + 1 when more). The
 * start of each token goes to f[], and rest[] the text from it to the end. */
static size_t split_ws(char *s, char **f, char **rest, size_t max)
{
	size_t n = 0;
	for (;;) {
		while (is_blank(*s))
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		rest[n] = s;
		f[n++] = s;
		while (*s && !is_blank(*s))
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int text_ok(const char *s)
{
	return pr_csv_text_ok(s, strlen(s));
}

/* ---- sniff ---- */

static int ps_sniff(const unsigned char *h, size_t n, const char *path)
{
	size_t i = 0, k;
	PR_UNUSED(path);
	if (n >= 3 && !memcmp(h, "\xEF\xBB\xBF", 3))
		i = 3;
	if (n - i < 6 || memcmp(h + i, "Linux ", 6))
		return 0;
	/* a table header: "... PID ... Command" (or TGID for -t) on one line */
	for (k = i; k + 7 < n; k++) {
		size_t e, j;
		if (memcmp(h + k, "Command", 7) || (k && !is_blank((char)h[k - 1])))
			continue;
		for (e = k + 7; e < n && (h[e] == ' ' || h[e] == '\t' || h[e] == '\r'); e++)
			;
		if (e < n && h[e] != '\n')
			continue;
		for (j = k; j > i && h[j - 1] != '\n'; j--)
			;
		for (; j + 4 < k; j++)
			if ((!memcmp(h + j, " PID ", 5) || !memcmp(h + j, " TGID ", 6)))
				return 90;
	}
	return 0;
}

/* ---- the banner's date ---- */

static void ps_banner(struct ps *p, char *line, long ln)
{
	char *f[16], *rest[16];
	size_t n = split_ws(line, f, rest, 15), i;
	if (n > 15) /* more tokens than kept: f[0..14] only */
		n = 15;
	for (i = 1; i < n; i++) {
		const char *t = f[i];
		size_t len = strlen(t);
		int64_t ns;
		int naive;
		char iso[16];
		if (len == 8 && t[2] == '/' && t[5] == '/') { /* MM/DD/YY */
			snprintf(iso, sizeof(iso), "20%.2s-%.2s-%.2s", t + 6, t, t + 3);
			if (!pr_parse_datetime(iso, 10, &ns, &naive)) {
				p->has_date = 1;
				p->date_ns = ns;
			}
		} else if (len == 10 && t[4] == '-' && t[7] == '-') { /* S_TIME_FORMAT=ISO */
			if (!pr_parse_datetime(t, 10, &ns, &naive)) {
				p->has_date = 1;
				p->date_ns = ns;
			}
		}
		if (p->has_date) {
			pr_writer_meta_set(p->w, "date", json_string(t));
			break;
		}
	}
	if (n >= 3 && f[2][0] == '(' && strlen(f[2]) > 2 && text_ok(f[2])) {
		pr_strbuf_reset(&p->tmp);
		pr_strbuf_add(&p->tmp, f[2] + 1, strlen(f[2]) - 2);
		pr_writer_meta_set(p->w, "hostname", json_string(p->tmp.buf));
	}
	if (!p->has_date)
		pr_writer_diag(p->w, "pidstat_no_date", -1, ln, 1,
			       "no date in MM/DD/YY or YYYY-MM-DD form in the banner (another "
			       "locale); times are relative to the first row, no time origin");
}

/* ---- table headers ---- */

/* A header: [# Time | TIME [AM|PM]] COL... Command, with PID or TGID among
 * the columns. Returns 1 when line is one (and sets up the columns). */
static int ps_header(struct ps *p, char *line)
{
	char *f[PS_MAX_COLS + 4], *rest[PS_MAX_COLS + 4];
	char *copy = pr_xstrdup(line);
	size_t n = split_ws(copy, f, rest, PS_MAX_COLS + 3), first = 1, i, k;
	int ok = 0;
	if (n < 3 || n > PS_MAX_COLS + 3 || strcmp(f[n - 1], "Command"))
		goto out;
	if (!strcmp(f[0], "#") && !strcmp(f[1], "Time"))
		first = 2;
	else if (!strcmp(f[1], "AM") || !strcmp(f[1], "PM"))
		first = 2;
	for (i = first; i + 1 < n; i++)
		if (!strcmp(f[i], "PID") || !strcmp(f[i], "TGID"))
			ok = 1;
	if (!ok)
		goto out;
	for (i = 0; i < p->ncols; i++)
		free(p->cols[i].name);
	p->ncols = 0;
	for (i = first; i + 1 < n; i++) {
		struct ps_col *c = &p->cols[p->ncols++];
		memset(c, 0, sizeof(*c));
		c->name = pr_xstrdup(f[i]);
		c->role = !strcmp(f[i], "PID")	  ? C_PID
			  : !strcmp(f[i], "TGID") ? C_TGID
			  : !strcmp(f[i], "TID")  ? C_TID
						  : C_VALUE;
		for (k = 0; c->role == C_VALUE && k < PR_ARRAY_SIZE(id_cols); k++)
			if (!strcmp(f[i], id_cols[k]))
				c->role = C_ID;
		for (k = 0; c->role == C_VALUE && k < PR_ARRAY_SIZE(ps_maps); k++)
			if (!strcmp(f[i], ps_maps[k].col))
				c->map = &ps_maps[k];
	}
	p->has_table = 1;
out:
	free(copy);
	return ok;
}

/* ---- rows ---- */

/* "HH:MM:SS" (with "AM"/"PM" in f[1] when pm_tok) -> ns since midnight. */
static int ps_tod(const char *t, const char *ampm, int64_t *ns)
{
	int h, m, s;
	if (strlen(t) != 8 || t[2] != ':' || t[5] != ':')
		return -1;
	for (h = 0; h < 8; h++)
		if (h != 2 && h != 5 && (t[h] < '0' || t[h] > '9'))
			return -1;
	h = (t[0] - '0') * 10 + t[1] - '0';
	m = (t[3] - '0') * 10 + t[4] - '0';
	s = (t[6] - '0') * 10 + t[7] - '0';
	if (ampm) {
		if (h < 1 || h > 12)
			return -1;
		h = h % 12 + (ampm[0] == 'P' ? 12 : 0);
	}
	if (h > 23 || m > 59 || s > 60)
		return -1;
	*ns = ((int64_t)h * 3600 + m * 60 + s) * NS_PER_S;
	return 0;
}

static int64_t ps_series(struct ps *p, const struct ps_map *m, const char *own)
{
	const char *name = m ? m->series : own;
	int64_t id;
	pr_strbuf_reset(&p->key);
	pr_strbuf_addstr(&p->key, name);
	pr_strbuf_addch(&p->key, '\0');
	pr_strbuf_add(&p->key, p->dev.buf, p->dev.len);
	if (pr_strmap_get(&p->series, p->key.buf, p->key.len, &id))
		return id;
	id = pr_writer_series(p->w, name, p->dev.buf,
			      m		      ? m->unit
			      : own[0] == '%' ? "percent"
					      : "",
			      m		      ? m->orig
			      : own[0] == '%' ? "%"
					      : "");
	pr_strmap_put(&p->series, p->key.buf, p->key.len, id);
	return id;
}

static void ps_device(struct ps *p, char **f, size_t first, const char *cmd)
{
	size_t i;
	pr_strbuf_reset(&p->dev);
	for (i = 0; i < p->ncols; i++) {
		const char *v = f[first + i];
		enum role r = p->cols[i].role;
		if ((r != C_PID && r != C_TGID && r != C_TID) || !strcmp(v, "-"))
			continue;
		if (p->dev.len)
			pr_strbuf_addch(&p->dev, ' ');
		pr_strbuf_addstr(&p->dev, r == C_TID ? "tid:" : "pid:");
		pr_csv_text_clean(&p->dev, v, strlen(v));
	}
	pr_strbuf_addstr(&p->dev, " (");
	/* -t threads: pidstat writes "|__cmd" for a thread */
	if (!strncmp(cmd, "|__", 3))
		cmd += 3;
	pr_csv_text_clean(&p->dev, cmd, strlen(cmd));
	pr_strbuf_addch(&p->dev, ')');
}

/* The row's time on the run's clock; -1 when unusable. */
static int ps_time(struct ps *p, char **f, size_t first, long ln, int64_t *ts)
{
	int64_t tod, abs_ns;
	size_t i, n = strlen(f[0]);
	for (i = 0; i < n && f[0][i] >= '0' && f[0][i] <= '9'; i++)
		;
	if (first == 1 && n >= 10 && i == n) { /* -H: epoch seconds */
		if (pr_decimal_scaled(f[0], n, 9, &abs_ns) != PR_DEC_OK)
			return -1;
	} else {
		if (ps_tod(f[0], first == 2 ? f[1] : NULL, &tod))
			return -1;
		if (p->prev_tod >= 0 && tod + DAY_NS / 2 < p->prev_tod) {
			p->day_ns += DAY_NS;
			pr_writer_diag(p->w, "pidstat_next_day", -1, ln, 1,
				       "time of day went back by more than 12 h: the recording "
				       "crossed midnight, taken as the next day");
		}
		p->prev_tod = tod;
		abs_ns = (p->has_date ? p->date_ns : 0) + p->day_ns + tod;
		if (p->has_date && !p->local_noted) {
			p->local_noted = 1;
			pr_writer_diag(p->w, "pidstat_local_time", -1, ln, 1,
				       "pidstat writes the local time of day without a zone; "
				       "taken as UTC on the banner's date");
			pr_writer_meta_set(p->w, "time_zone",
					   json_string("local time of the recording machine, taken "
						       "as UTC"));
		}
	}
	if (!p->has_origin) {
		p->has_origin = 1;
		p->origin = abs_ns;
		if (p->has_date || first == 1)
			pr_writer_set_time_origin(p->w, abs_ns);
	}
	*ts = abs_ns - p->origin;
	return 0;
}

static int ps_number(const char *v, double *out)
{
	size_t n = strlen(v);
	char buf[64];
	const char *c = strchr(v, ',');
	if (c && n < sizeof(buf)) { /* a decimal comma under some locales */
		memcpy(buf, v, n + 1);
		buf[c - v] = '.';
		v = buf;
	}
	return n && pr_decimal_double(v, n, out) == PR_DEC_OK && isfinite(*out) ? 0 : -1;
}

static void ps_row(struct ps *p, char *line, long ln)
{
	char *f[PS_MAX_COLS + 4], *rest[PS_MAX_COLS + 4], *cmd, *e;
	char *orig = pr_xstrdup(line); /* split_ws cuts line; Command is the rest of orig */
	size_t n = split_ws(line, f, rest, p->ncols + 3), first = 1, i;
	int avg = n > 0 && !strcmp(f[0], "Average:");
	int64_t ts = 0;

	if (n >= 2 && (!strcmp(f[1], "AM") || !strcmp(f[1], "PM")))
		first = 2;
	if (n < first + p->ncols + 1) {
		pr_writer_diag(p->w, "pidstat_bad_field_count", -1, ln, 1,
			       "row has fewer fields than its header; skipped");
		goto out;
	}
	/* Command: the rest of the line after the columns (-l: with arguments) */
	cmd = orig + (rest[first + p->ncols] - line);
	for (e = cmd + strlen(cmd); e > cmd && is_blank(e[-1]); e--)
		;
	*e = '\0';
	if (!avg && ps_time(p, f, first, ln, &ts)) {
		pr_writer_diag(p->w, "pidstat_bad_time", -1, ln, 1,
			       "time of day is not HH:MM:SS; row skipped");
		goto out;
	}
	ps_device(p, f, first, cmd);
	if (!avg)
		p->rows++;
	for (i = 0; i < p->ncols; i++) {
		const struct ps_col *c = &p->cols[i];
		const char *v = f[first + i];
		double d;
		if (c->role != C_VALUE)
			continue;
		if (ps_number(v, &d)) {
			/* "-": the Average: row has no CPU number */
			if (strcmp(v, "-"))
				pr_writer_diag(p->w, "pidstat_bad_value", -1, ln,
					       (long)(v - line) + 1,
					       "'%s': not a number; value skipped",
					       text_ok(c->name) ? c->name : "?");
			continue;
		}
		if (avg) {
			pr_strbuf_reset(&p->tmp);
			pr_strbuf_addstr(&p->tmp, "pidstat.avg.");
			pr_strbuf_addstr(&p->tmp, c->map ? c->map->series : c->name);
			if (text_ok(p->tmp.buf))
				pr_writer_metric(p->w, p->tmp.buf, c->map ? d * c->map->scale : d,
						 c->map ? c->map->unit : "", 0, "reported",
						 p->dev.buf);
			continue;
		}
		if (!c->map && !text_ok(c->name))
			continue;
		{
			int64_t id = ps_series(p, c->map, c->name);
			if (id)
				pr_writer_sample(p->w, id, ts, c->map ? d * c->map->scale : d);
		}
	}
out:
	free(orig);
}

static int ps_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_lines rd;
	struct ps p;
	char *line;
	size_t i;
	int rc, banner = 0;

	memset(&p, 0, sizeof(p));
	p.w = w;
	p.prev_tod = -1;
	pr_strbuf_init(&p.key);
	pr_strbuf_init(&p.dev);
	pr_strbuf_init(&p.tmp);
	pr_lines_init(&rd, src, PS_MAX_LINE, "pidstat");
	pr_writer_set_collector(w, "pidstat");
	while ((rc = pr_lines_next(&rd, &line, err)) > 0) {
		char *s = line;
		while (is_blank(*s))
			s++;
		if (!*s)
			continue;
		if (!banner) {
			if (strncmp(s, "Linux ", 6)) {
				rc = pr_error_at(
					err, PR_E_PARSE, -1, rd.line, 1,
					"expected pidstat's banner 'Linux VERSION (HOST) DATE "
					"_ARCH_ (N CPU)'");
				break;
			}
			banner = 1;
			ps_banner(&p, s, rd.line);
			continue;
		}
		if (ps_header(&p, s))
			continue;
		if (!p.has_table) {
			pr_writer_diag(w, "pidstat_bad_line", -1, rd.line, 1,
				       "a line before any table header; ignored");
			continue;
		}
		ps_row(&p, s, rd.line);
	}
	if (rc == 0 && !banner)
		rc = pr_error_at(err, PR_E_PARSE, -1, 0, 0, "empty file: no pidstat banner");
	if (rc == 0 && !p.has_table)
		rc = pr_error_at(err, PR_E_PARSE, -1, rd.line, 1,
				 "no pidstat table (a header line with PID and Command): the "
				 "process was gone, or this is not pidstat output");
	if (rc == 0) {
		pr_writer_meta_set(w, "rows", json_integer(p.rows));
		pr_writer_meta_set(w, "time_kind",
				   json_string("pidstat sample time (the end of each interval)"));
	}
	for (i = 0; i < p.ncols; i++)
		free(p.cols[i].name);
	pr_lines_release(&rd);
	pr_strbuf_release(&p.key);
	pr_strbuf_release(&p.dev);
	pr_strbuf_release(&p.tmp);
	pr_strmap_release(&p.series);
	return rc < 0 ? -1 : 0;
}

static const char *const pidstat_tokens[] = { "UID",	 "PID",	     "%usr",  "%system", "%CPU",
					      "Command", "minflt/s", "RSS",   "VSZ",	 "kB_rd/s",
					      "kB_wr/s", "Average:", "Linux", NULL };

const struct pr_format pr_format_pidstat = {
	.name = "pidstat",
	.summary = "sysstat pidstat text (per-process CPU, memory, I/O; -h, -t, -l)",
	.sniff = ps_sniff,
	.parse = ps_parse,
	.tokens = pidstat_tokens,
};
