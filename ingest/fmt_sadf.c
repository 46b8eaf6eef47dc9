/*
 * fmt_sadf.c - sysstat's sadf: `sadf -d` (semicolon CSV, format "sadf") and
 * `sadf -j` (JSON, format "sadf-json"), one file for both because they share
 * the table of canonical names.
 *
 * sadf -d: a header "# hostname;interval;timestamp;COL;..." then rows
 * "host;interval;YYYY-MM-DD HH:MM:SS UTC;v;...". A file may hold several
 * reports (`sadf -d FILE -- -u -r`): each header starts a new one. The
 * timestamp is the END of the interval the row's rates and averages cover
 * (sar's sample time); it is stored as is. "UTC" is exact; a timestamp with
 * no zone (sadf -T, local time) is taken as UTC (sadf_local_time); an
 * integer is epoch seconds (sadf -U). The first timestamp is the run's time
 * origin. A device column (CPU, DEV, IFACE, ...) gives the series' device:
 * CPU -1 (all) is "", CPU N is "cpuN"; DEV and the others as written.
 * sadf -j: {"sysstat": {"hosts": [{"nodename", ..., "statistics": [{
 * "timestamp": {"date", "time", "utc", "interval"}, "cpu-load": [...],
 * "memory": {...}, "io": {...}, "disk": [...], ...}], "restarts": [...]}]}}.
 * Arrays of objects are per device (their "cpu", "disk-device", "iface", ...
 * string member); nested objects ("io-reads") are flattened.
 *
 * Names and units: the table below (kB -> bytes x1024, blocks -> bytes x512,
 * ms -> ns, rates -> bytes/s or 1/s); cpu.util = 100 - %idle (derived, as
 * psutil's cpu_percent). Columns not in the table keep their own name (JSON:
 * "<section>.<key>"), unit percent for '%' names, else none.
 *
 * sar.average (derived, one per series, detail "NAME" or "NAME DEVICE"): the
 * interval-weighted mean, as sar's Average: line (sd_averages).
 *
 * Diagnostics: sadf_local_time, sadf_bad_field_count, sadf_bad_value,
 * sadf_bad_time, sadf_restart, sadf_comment, sadf_time_backwards,
 * sadf_decimal_comma.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/csv.h"
#include "ingest/datetime.h"
#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "ingest/lines.h"
#include "base/decimal.h"
#include "base/pr_common.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

#define SADF_MAX_LINE (1 << 20)
#define SADF_MAX_FIELDS 4096
#define NS_PER_S 1000000000LL

static int text_ok(const char *s)
{
	return pr_csv_text_ok(s, strlen(s));
}

/* ---- canonical names ---- */

struct sadf_map {
	const char *section; /* cpu, memory, io, disk, queue, paging */
	const char *csv;     /* sadf -d column */
	const char *json;    /* sadf -j key */
	const char *series;
	const char *unit;
	double scale;
	const char *orig;
};

static const struct sadf_map sadf_maps[] = {
	/* -u, -u ALL */
	{ "cpu", "%user", "user", "cpu.user", "percent", 1, "%" },
	{ "cpu", "%usr", "usr", "cpu.user", "percent", 1, "%" },
	{ "cpu", "%nice", "nice", "cpu.nice", "percent", 1, "%" },
	{ "cpu", "%system", "system", "cpu.system", "percent", 1, "%" },
	{ "cpu", "%sys", "sys", "cpu.system", "percent", 1, "%" },
	{ "cpu", "%iowait", "iowait", "cpu.iowait", "percent", 1, "%" },
	{ "cpu", "%steal", "steal", "cpu.steal", "percent", 1, "%" },
	{ "cpu", "%irq", "irq", "cpu.irq", "percent", 1, "%" },
	{ "cpu", "%soft", "soft", "cpu.softirq", "percent", 1, "%" },
	{ "cpu", "%guest", "guest", "cpu.guest", "percent", 1, "%" },
	{ "cpu", "%gnice", "gnice", "cpu.gnice", "percent", 1, "%" },
	{ "cpu", "%idle", "idle", "cpu.idle", "percent", 1, "%" },
	/* -r, -r ALL, -S */
	{ "memory", "kbmemfree", "memfree", "sys.mem.free", "bytes", 1024, "kB" },
	{ "memory", "kbavail", "avail", "sys.mem.available", "bytes", 1024, "kB" },
	{ "memory", "kbmemused", "memused", "sys.mem.used", "bytes", 1024, "kB" },
	{ "memory", "%memused", "memused-percent", "sys.mem.util", "percent", 1, "%" },
	{ "memory", "kbbuffers", "buffers", "sys.mem.buffers", "bytes", 1024, "kB" },
	{ "memory", "kbcached", "cached", "sys.mem.cached", "bytes", 1024, "kB" },
	{ "memory", "kbcommit", "commit", "sys.mem.commit", "bytes", 1024, "kB" },
	{ "memory", "%commit", "commit-percent", "sys.mem.commit_util", "percent", 1, "%" },
	{ "memory", "kbactive", "active", "sys.mem.active", "bytes", 1024, "kB" },
	{ "memory", "kbinact", "inactive", "sys.mem.inactive", "bytes", 1024, "kB" },
	{ "memory", "kbdirty", "dirty", "sys.mem.dirty", "bytes", 1024, "kB" },
	{ "memory", "kbanonpg", "anonpg", "sys.mem.anon", "bytes", 1024, "kB" },
	{ "memory", "kbslab", "slab", "sys.mem.slab", "bytes", 1024, "kB" },
	{ "memory", "kbkstack", "kstack", "sys.mem.kstack", "bytes", 1024, "kB" },
	{ "memory", "kbpgtbl", "pgtbl", "sys.mem.pagetables", "bytes", 1024, "kB" },
	{ "memory", "kbvmused", "vmused", "sys.mem.vmalloc", "bytes", 1024, "kB" },
	{ "memory", "kbswpfree", "swpfree", "sys.swap.free", "bytes", 1024, "kB" },
	{ "memory", "kbswpused", "swpused", "sys.swap.used", "bytes", 1024, "kB" },
	{ "memory", "%swpused", "swpused-percent", "sys.swap.util", "percent", 1, "%" },
	{ "memory", "kbswpcad", "swpcad", "sys.swap.cached", "bytes", 1024, "kB" },
	{ "memory", "%swpcad", "swpcad-percent", "sys.swap.cached_util", "percent", 1, "%" },
	/* -b (all devices together; blocks are 512 bytes) */
	{ "io", "tps", "tps", "io.tps", "1/s", 1, "transfers/s" },
	{ "io", "rtps", "rtps", "io.read_tps", "1/s", 1, "transfers/s" },
	{ "io", "wtps", "wtps", "io.write_tps", "1/s", 1, "transfers/s" },
	{ "io", "dtps", "dtps", "io.discard_tps", "1/s", 1, "transfers/s" },
	{ "io", "bread/s", "bread", "disk.read_rate", "bytes/s", 512, "blocks/s" },
	{ "io", "bwrtn/s", "bwrtn", "disk.write_rate", "bytes/s", 512, "blocks/s" },
	{ "io", "bdscd/s", "bdscd", "disk.discard_rate", "bytes/s", 512, "blocks/s" },
	/* -d (per device) */
	{ "disk", "tps", "tps", "disk.tps", "1/s", 1, "transfers/s" },
	{ "disk", "rkB/s", "rkB", "disk.read_rate", "bytes/s", 1024, "kB/s" },
	{ "disk", "wkB/s", "wkB", "disk.write_rate", "bytes/s", 1024, "kB/s" },
	{ "disk", "dkB/s", "dkB", "disk.discard_rate", "bytes/s", 1024, "kB/s" },
	{ "disk", "areq-sz", "areq-sz", "disk.req_size", "bytes", 1024, "kB" },
	{ "disk", "aqu-sz", "aqu-sz", "disk.queue", "", 1, "" },
	{ "disk", "await", "await", "disk.await", "ns", 1e6, "ms" },
	{ "disk", "%util", "util-percent", "disk.util", "percent", 1, "%" },
	/* -q */
	{ "queue", "runq-sz", "runq-sz", "sys.runq", "count", 1, "" },
	{ "queue", "plist-sz", "plist-sz", "sys.procs", "count", 1, "" },
	{ "queue", "ldavg-1", "ldavg-1", "sys.load.1", "", 1, "" },
	{ "queue", "ldavg-5", "ldavg-5", "sys.load.5", "", 1, "" },
	{ "queue", "ldavg-15", "ldavg-15", "sys.load.15", "", 1, "" },
	{ "queue", "blocked", "blocked", "sys.blocked", "count", 1, "" },
	/* -B */
	{ "paging", "pgpgin/s", "pgpgin", "sys.paging.in_rate", "bytes/s", 1024, "kB/s" },
	{ "paging", "pgpgout/s", "pgpgout", "sys.paging.out_rate", "bytes/s", 1024, "kB/s" },
	{ "paging", "fault/s", "fault", "sys.paging.fault_rate", "1/s", 1, "faults/s" },
	{ "paging", "majflt/s", "majflt", "sys.paging.majfault_rate", "1/s", 1, "faults/s" },
	{ "paging", "pgfree/s", "pgfree", "sys.paging.free_rate", "1/s", 1, "pages/s" },
	{ "paging", "pgscank/s", "pgscank", "sys.paging.scank_rate", "1/s", 1, "pages/s" },
	{ "paging", "pgscand/s", "pgscand", "sys.paging.scand_rate", "1/s", 1, "pages/s" },
	{ "paging", "pgsteal/s", "pgsteal", "sys.paging.steal_rate", "1/s", 1, "pages/s" },
	{ "paging", "%vmeff", "vmeff-percent", "sys.paging.vmeff", "percent", 1, "%" },
};

/* sadf -j's -d keeps the sector-based fields of older versions next to the
 * kB ones: the same numbers again, not stored. */
static const char *const json_legacy[] = { "rd_sec", "wr_sec", "dc_sec", "avgrq-sz", "avgqu-sz" };

/* sadf -d columns that name a device rather than hold a number. */
static const char *const device_cols[] = { "CPU", "DEV", "IFACE",  "INTR",	 "FILESYSTEM",
					   "TTY", "BUS", "FCHOST", "MOUNTPOINT", "TEMP",
					   "FAN", "IN",	 "DEVICE", "MHz" };

/* csv: 1 to look up by sadf -d name, 0 by sadf -j key. section NULL: any
 * section but disk (sadf -d tells -d apart only by its DEV column). */
static const struct sadf_map *map_lookup(const char *section, const char *name, int csv)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(sadf_maps); i++) {
		const struct sadf_map *m = &sadf_maps[i];
		if (section ? strcmp(section, m->section) : !strcmp(m->section, "disk"))
			continue;
		if (!strcmp(csv ? m->csv : m->json, name))
			return m;
	}
	return NULL;
}

/* ---- the series of one run (both readers) ---- */

struct sd_col {
	char *name;		    /* as written */
	const struct sadf_map *map; /* or NULL: own name */
	int device;		    /* a device column */
	int idle;		    /* %idle: also gives cpu.util */
};

/* A series' interval-weighted sum, for sar's Average: (sar.average metrics) */
struct sd_acc {
	int64_t id;
	char *name, *dev, *unit;
	double vw, w; /* sum of value x interval, sum of intervals */
};

struct sd {
	struct pr_writer *w;
	struct pr_strmap series; /* name \0 device -> index in acc + 1 */
	struct sd_acc *acc;
	size_t nacc, acc_cap;
	double iv; /* the current record's interval (s); <= 0: none (a restart's first record) */
	struct pr_strbuf key, tmp, dev;
	int has_origin, comma_noted, local_noted;
	int64_t origin, last_ts;
	int64_t rows, run_rows; /* records in this report, in the file */
	/* sadf -d: the current report */
	struct sd_col *cols;
	size_t ncols;
	long devcol; /* -1 none */
	int cpu_dev; /* the device column is CPU */
	int star;    /* the last column is "CPU*": one value per CPU, "all" first (sar -I) */
	json_t *headers;
};

static int64_t sd_series(struct sd *s, const char *name, const char *dev, const char *unit,
			 const char *orig)
{
	int64_t id, k;
	pr_strbuf_reset(&s->key);
	pr_strbuf_addstr(&s->key, name);
	pr_strbuf_addch(&s->key, '\0');
	pr_strbuf_addstr(&s->key, dev);
	if (pr_strmap_get(&s->series, s->key.buf, s->key.len, &k))
		return k;
	id = pr_writer_series(s->w, name, dev, unit, orig);
	if (!id)
		return 0;
	if (s->nacc == s->acc_cap) {
		s->acc_cap = s->acc_cap ? 2 * s->acc_cap : 32;
		s->acc = pr_xreallocarray(s->acc, s->acc_cap, sizeof(*s->acc));
	}
	s->acc[s->nacc] =
		(struct sd_acc){ id, pr_xstrdup(name), pr_xstrdup(dev), pr_xstrdup(unit), 0, 0 };
	k = (int64_t)++s->nacc;
	pr_strmap_put(&s->series, s->key.buf, s->key.len, k);
	return k;
}

/* A sample of series k (sd_series), added to its interval-weighted sum. */
static void sd_put(struct sd *s, int64_t k, int64_t ts, double v)
{
	struct sd_acc *a = &s->acc[k - 1];
	pr_writer_sample(s->w, a->id, ts, v);
	if (s->iv > 0 && isfinite(v)) {
		a->vw += v * s->iv;
		a->w += s->iv;
	}
}

/*
 * sar's Average: line is interval-weighted: the counters' increase over the
 * whole recording / its time, i.e. each record's rate or share weighted by
 * its interval (the "interval" field). A record without one (interval 0 or
 * -1: the first after a LINUX RESTART, which sadf prints with interval 0
 * when sadc resumes) weighs nothing. One derived metric sar.average per
 * series, detail "NAME" or "NAME DEVICE".
 */
static void sd_averages(struct sd *s)
{
	size_t i;
	for (i = 0; i < s->nacc; i++) {
		const struct sd_acc *a = &s->acc[i];
		if (a->w <= 0)
			continue;
		pr_strbuf_reset(&s->tmp);
		pr_strbuf_addstr(&s->tmp, a->name);
		if (a->dev[0])
			pr_strbuf_addf(&s->tmp, " %s", a->dev);
		pr_writer_metric(s->w, "sar.average", a->vw / a->w, a->unit, 0, "derived",
				 s->tmp.buf);
	}
}

/* One value: the mapped series (and cpu.util from %idle), or the own name. */
static void sd_value(struct sd *s, const struct sadf_map *m, const char *own, const char *dev,
		     int64_t ts, double v)
{
	int64_t id;
	if (m) {
		id = sd_series(s, m->series, dev, m->unit, m->orig);
		if (id)
			sd_put(s, id, ts, v * m->scale);
		if (!strcmp(m->series, "cpu.idle")) {
			id = sd_series(s, "cpu.util", dev, "percent", "100 - %idle");
			if (id)
				sd_put(s, id, ts, 100.0 - v);
		}
		return;
	}
	id = sd_series(s, own, dev, own[0] == '%' || strstr(own, "percent") ? "percent" : "",
		       own[0] == '%' || strstr(own, "percent") ? "%" : "");
	if (id)
		sd_put(s, id, ts, v);
}

/* A cpu device: "all" / "-1" -> "", "N" -> "cpuN"; others as written. */
static void sd_device(struct sd *s, const char *p, size_t n, int cpu)
{
	pr_strbuf_reset(&s->dev);
	if (cpu && ((n == 3 && !memcmp(p, "all", 3)) || (n == 2 && !memcmp(p, "-1", 2))))
		return;
	if (cpu)
		pr_strbuf_addstr(&s->dev, "cpu");
	pr_strbuf_add(&s->dev, p, n);
}

/* The time of a row on the run's clock (the first time is the origin). */
static void sd_place(struct sd *s, int64_t abs_ns, long line, int64_t *ts)
{
	if (!s->has_origin) {
		s->has_origin = 1;
		s->origin = abs_ns;
		pr_writer_set_time_origin(s->w, abs_ns);
	}
	*ts = abs_ns - s->origin;
	if (s->rows && *ts < s->last_ts)
		pr_writer_diag(s->w, "sadf_time_backwards", -1, line, 0,
			       "time earlier than the previous record's (sar files appended "
			       "out of order, or a clock change); kept");
	s->last_ts = *ts;
	s->rows++;
	s->run_rows++;
}

static void sd_init(struct sd *s, struct pr_writer *w)
{
	memset(s, 0, sizeof(*s));
	s->w = w;
	pr_strbuf_init(&s->key);
	pr_strbuf_init(&s->tmp);
	pr_strbuf_init(&s->dev);
	s->devcol = -1;
}

static void sd_free_cols(struct sd *s)
{
	size_t i;
	for (i = 0; i < s->ncols; i++)
		free(s->cols[i].name);
	free(s->cols);
	s->cols = NULL;
	s->ncols = 0;
}

static void sd_release(struct sd *s)
{
	size_t i;
	sd_free_cols(s);
	pr_strbuf_release(&s->key);
	pr_strbuf_release(&s->tmp);
	pr_strbuf_release(&s->dev);
	pr_strmap_release(&s->series);
	for (i = 0; i < s->nacc; i++) {
		free(s->acc[i].name);
		free(s->acc[i].dev);
		free(s->acc[i].unit);
	}
	free(s->acc);
	if (s->headers)
		json_decref(s->headers);
}

/* ---- sadf -d ---- */

#define SADF_HEAD "# hostname;interval;timestamp;"

static int sadf_sniff(const unsigned char *h, size_t n, const char *path)
{
	size_t i = 0, k = sizeof(SADF_HEAD) - 1;
	PR_UNUSED(path);
	if (n >= 3 && !memcmp(h, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < n && (h[i] == '\n' || h[i] == '\r'))
		i++;
	return n - i >= k && !memcmp(h + i, SADF_HEAD, k) ? 95 : 0;
}

/* Splits s at ';' in place: up to max fields into f; returns the count
 * (max + 1 when there are more). */
static size_t split_semi(char *s, char **f, size_t max)
{
	size_t n = 0;
	for (;;) {
		char *e = strchr(s, ';');
		if (n == max)
			return max + 1;
		f[n++] = s;
		if (!e)
			return n;
		*e = '\0';
		s = e + 1;
	}
}

static long col_of(const char *line, const char *field)
{
	return (long)(field - line) + 1;
}

static int sadf_header(struct sd *s, char *line, long ln, char **f, struct pr_error *err)
{
	size_t n = split_semi(line + 2, f, SADF_MAX_FIELDS), i;
	json_t *names = json_array();
	int disk = 0;
	if (n > SADF_MAX_FIELDS) {
		json_decref(names);
		return pr_error_at(err, PR_E_LIMIT, -1, ln, 1,
				   "sadf header with more than %d fields", SADF_MAX_FIELDS);
	}
	sd_free_cols(s);
	s->rows = 0; /* each report runs over the whole recording again */
	s->ncols = n;
	s->cols = pr_xcalloc(n, sizeof(*s->cols));
	s->devcol = -1;
	s->cpu_dev = 0;
	s->star = n > 4 && !strcmp(f[n - 1], "CPU*");
	for (i = 3; i < n; i++)
		if (!strcmp(f[i], "DEV"))
			disk = 1;
	for (i = 0; i < n; i++) {
		struct sd_col *c = &s->cols[i];
		size_t k;
		c->name = pr_xstrdup(f[i]);
		json_array_append_new(names, json_string(text_ok(f[i]) ? f[i] : "?"));
		if (i < 3 || (s->star && i == n - 1))
			continue;
		for (k = 0; k < PR_ARRAY_SIZE(device_cols); k++)
			if (!strcmp(f[i], device_cols[k]))
				c->device = 1;
		if (c->device) {
			if (s->devcol < 0) {
				s->devcol = (long)i;
				s->cpu_dev = !strcmp(f[i], "CPU");
			}
			continue;
		}
		c->map = map_lookup(disk ? "disk" : NULL, f[i], 1);
	}
	if (!s->headers)
		s->headers = json_array();
	json_array_append_new(s->headers, names);
	return 0;
}

/* A number as sadf writes it ("86.50"; "86,50" under a locale with a
 * decimal comma). Returns 0 and *v, or -1. */
static int sadf_number(struct sd *s, char *p, long ln, long col, double *v)
{
	size_t n = strlen(p);
	char *c = strchr(p, ',');
	if (c) {
		*c = '.';
		if (!s->comma_noted) {
			s->comma_noted = 1;
			pr_writer_diag(s->w, "sadf_decimal_comma", -1, ln, col,
				       "numbers with a decimal comma (sadf run under a locale that "
				       "writes one); read as decimal points");
		}
	}
	return n && pr_decimal_double(p, n, v) == PR_DEC_OK && isfinite(*v) ? 0 : -1;
}

/* sadf -d timestamp: "YYYY-MM-DD HH:MM:SS UTC", the same with no zone
 * (local time), or epoch seconds (sadf -U). */
static int sadf_time(struct sd *s, const char *p, long ln, long col, int64_t *abs_ns)
{
	size_t n = strlen(p), i;
	int naive = 0, utc = 0;
	for (i = 0; i < n && p[i] >= '0' && p[i] <= '9'; i++)
		;
	if (n && i == n)
		return pr_decimal_scaled(p, n, 9, abs_ns) == PR_DEC_OK ? 0 : -1;
	if (n > 4 && !strcmp(p + n - 4, " UTC")) {
		n -= 4;
		utc = 1;
	}
	if (pr_parse_datetime(p, n, abs_ns, &naive))
		return -1;
	if (!utc && naive && !s->local_noted) {
		s->local_noted = 1;
		pr_writer_diag(s->w, "sadf_local_time", -1, ln, col,
			       "timestamps without \"UTC\" (sadf -T: the machine's local time, "
			       "zone not written); taken as UTC");
		pr_writer_meta_set(s->w, "time_zone",
				   json_string(
					   "local time of the recording machine, taken as UTC"));
	}
	return 0;
}

/*
 * A report whose last column is "CPU*" (sadf -d -- -I ALL -P ALL, or -A): a
 * key column (INTR) and one value per CPU, "all" first, then CPU 0, 1, ...
 * as `sar -I` prints them. Each value is the series "<key column>.<key>"
 * (intr.sum, intr.24) in 1/s, device "" for all and "cpuN" for CPU N.
 */
static void star_row(struct sd *s, char *line, long ln, char **f, size_t n)
{
	int64_t abs_ns, ts;
	size_t i;
	char name[160];
	if (sadf_time(s, f[2], ln, col_of(line, f[2]), &abs_ns)) {
		pr_writer_diag(s->w, "sadf_bad_time", -1, ln, col_of(line, f[2]),
			       "timestamp is not 'YYYY-MM-DD HH:MM:SS UTC' or epoch seconds; "
			       "record skipped");
		return;
	}
	sd_place(s, abs_ns, ln, &ts);
	pr_strbuf_reset(&s->tmp);
	pr_csv_text_clean(&s->tmp, f[s->devcol], strlen(f[s->devcol]));
	snprintf(name, sizeof(name), "%s.%.100s", s->cols[s->devcol].name, s->tmp.buf);
	for (i = 0; name[i] && name[i] != '.'; i++)
		if (name[i] >= 'A' && name[i] <= 'Z')
			name[i] = (char)(name[i] - 'A' + 'a');
	for (i = s->ncols - 1; i < n; i++) {
		double v;
		int64_t id;
		if (sadf_number(s, f[i], ln, col_of(line, f[i]), &v)) {
			pr_writer_diag(s->w, "sadf_bad_value", -1, ln, col_of(line, f[i]),
				       "'%s': not a number; value skipped", name);
			continue;
		}
		pr_strbuf_reset(&s->dev);
		if (i > s->ncols - 1)
			pr_strbuf_addf(&s->dev, "cpu%zu", i - s->ncols);
		id = sd_series(s, name, s->dev.buf, "1/s", "/s");
		if (id)
			sd_put(s, id, ts, v);
	}
}

static void sadf_row(struct sd *s, char *line, long ln, char **f)
{
	char *copy_dev;
	size_t n, i;
	int64_t abs_ns, ts;
	n = split_semi(line, f, SADF_MAX_FIELDS);
	if (n >= 4 && (!strncmp(f[3], "LINUX-RESTART", 13) || !strncmp(f[3], "COM ", 4))) {
		int restart = f[3][0] == 'L';
		pr_writer_diag(
			s->w, restart ? "sadf_restart" : "sadf_comment", -1, ln, col_of(line, f[3]),
			restart ? "the machine restarted during the recording (LINUX-RESTART "
				  "record): the counters start again; record skipped"
				: "a comment record (sadf -C); skipped");
		return;
	}
	if (s->star && s->devcol >= 0 && n >= s->ncols) {
		star_row(s, line, ln, f, n);
		return;
	}
	if (n != s->ncols) {
		pr_writer_diag(s->w, "sadf_bad_field_count", -1, ln, 1,
			       "record has %zu fields, its header %zu; skipped", n, s->ncols);
		return;
	}
	if (sadf_time(s, f[2], ln, col_of(line, f[2]), &abs_ns)) {
		pr_writer_diag(s->w, "sadf_bad_time", -1, ln, col_of(line, f[2]),
			       "timestamp is not 'YYYY-MM-DD HH:MM:SS UTC' or epoch seconds; "
			       "record skipped");
		return;
	}
	if (!pr_writer_meta_get(s->w, "hostname") && text_ok(f[0]))
		pr_writer_meta_set(s->w, "hostname", json_string(f[0]));
	{
		double iv;
		s->iv = 0;
		if (!sadf_number(s, f[1], ln, col_of(line, f[1]), &iv)) {
			if (!pr_writer_meta_get(s->w, "interval_s"))
				pr_writer_meta_set(s->w, "interval_s", json_real(iv));
			s->iv = isfinite(iv) ? iv : 0;
		}
	}
	sd_place(s, abs_ns, ln, &ts);
	if (s->devcol >= 0) {
		copy_dev = f[s->devcol];
		pr_strbuf_reset(&s->tmp);
		pr_csv_text_clean(&s->tmp, copy_dev, strlen(copy_dev));
		sd_device(s, s->tmp.buf, s->tmp.len, s->cpu_dev);
	} else {
		pr_strbuf_reset(&s->dev);
	}
	for (i = 3; i < n; i++) {
		const struct sd_col *c = &s->cols[i];
		double v;
		if (c->device)
			continue;
		if (sadf_number(s, f[i], ln, col_of(line, f[i]), &v)) {
			pr_writer_diag(s->w, "sadf_bad_value", -1, ln, col_of(line, f[i]),
				       "'%s': not a number; value skipped",
				       text_ok(c->name) ? c->name : "?");
			continue;
		}
		pr_strbuf_reset(&s->tmp);
		pr_csv_text_clean(&s->tmp, c->name, strlen(c->name));
		sd_value(s, c->map, s->tmp.buf, s->dev.buf, ts, v);
	}
}

static int sadf_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct pr_lines rd;
	struct sd s;
	char *line, **f = pr_xcalloc(SADF_MAX_FIELDS + 1, sizeof(*f));
	int rc, seen = 0;

	sd_init(&s, w);
	pr_lines_init(&rd, src, SADF_MAX_LINE, "sadf");
	pr_writer_set_collector(w, "sadf");
	while ((rc = pr_lines_next(&rd, &line, err)) > 0) {
		if (!line[0])
			continue;
		if (!strncmp(line, SADF_HEAD, sizeof(SADF_HEAD) - 1)) {
			if (sadf_header(&s, line, rd.line, f, err)) {
				rc = -1;
				break;
			}
			seen = 1;
			continue;
		}
		if (!seen) {
			rc = pr_error_at(err, PR_E_PARSE, -1, rd.line, 1,
					 "expected the sadf -d header '# hostname;interval;"
					 "timestamp;...'");
			break;
		}
		if (line[0] == '#')
			continue;
		sadf_row(&s, line, rd.line, f);
	}
	if (rc == 0 && !seen)
		rc = pr_error_at(err, PR_E_PARSE, -1, 0, 0, "empty file: no sadf -d header");
	if (rc == 0) {
		pr_writer_meta_set(w, "sadf_headers", s.headers);
		s.headers = NULL;
		pr_writer_meta_set(w, "records", json_integer(s.run_rows));
		pr_writer_meta_set(w, "time_kind",
				   json_string("sar sample time (the end of each interval)"));
		sd_averages(&s);
	}
	pr_lines_release(&rd);
	sd_release(&s);
	free(f);
	return rc < 0 ? -1 : 0;
}

static const char *const sadf_tokens[] = { "# hostname;interval;timestamp",
					   "CPU",
					   "%user",
					   "%system",
					   "%iowait",
					   "%idle",
					   "kbmemused",
					   "tps",
					   "ldavg-1",
					   "pgpgin/s",
					   "-1",
					   "all",
					   NULL };

const struct pr_format pr_format_sadf = {
	.name = "sadf",
	.summary = "sysstat sadf -d (semicolon CSV: CPU, memory, I/O, disks, load, paging)",
	.sniff = sadf_sniff,
	.parse = sadf_parse,
	.tokens = sadf_tokens,
};

/* ---- sadf -j ---- */

static int sadfj_sniff(const unsigned char *h, size_t n, const char *path)
{
	static const char *const keys[] = { "sysstat", "hosts", NULL };
	PR_UNUSED(path);
	return pr_jdoc_head_has(h, n, keys) ? 95 : 0;
}

static void json_members(struct sd *s, const char *section, const json_t *o, const char *dev,
			 int64_t ts, size_t si);
static void json_devices(struct sd *s, const char *section, const json_t *a, int64_t ts, size_t si);

static void json_member(struct sd *s, const char *section, const char *key, const json_t *v,
			const char *dev, int64_t ts, size_t si)
{
	const struct sadf_map *m;
	size_t k;
	if (json_is_object(v)) {
		json_members(s, section, v, dev, ts, si);
		return;
	}
	if (json_is_array(v)) { /* "network": {"net-dev": [{"iface": ...}]} */
		json_devices(s, key, v, ts, si);
		return;
	}
	if (!json_is_number(v))
		return;
	for (k = 0; k < PR_ARRAY_SIZE(json_legacy); k++)
		if (!strcmp(section, "disk") && !strcmp(key, json_legacy[k]))
			return;
	m = map_lookup(section, key, 0);
	pr_strbuf_reset(&s->tmp);
	if (!m) {
		pr_strbuf_addstr(&s->tmp, section);
		pr_strbuf_addch(&s->tmp, '.');
		pr_strbuf_addstr(&s->tmp, key);
	}
	sd_value(s, m, s->tmp.buf, dev, ts, json_number_value(v));
	PR_UNUSED(si);
}

static void json_members(struct sd *s, const char *section, const json_t *o, const char *dev,
			 int64_t ts, size_t si)
{
	const char *key;
	json_t *v;
	json_object_foreach ((json_t *)o, key, v)
		json_member(s, section, key, v, dev, ts, si);
}

/* An array of per-device objects: the device is the first string member. */
static void json_devices(struct sd *s, const char *section, const json_t *a, int64_t ts, size_t si)
{
	size_t i;
	int cpu = !strcmp(section, "cpu");
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *o = json_array_get(a, i);
		const char *key;
		json_t *v;
		char *dev;
		if (!json_is_object(o))
			continue;
		pr_strbuf_reset(&s->dev);
		json_object_foreach ((json_t *)o, key, v)
			if (json_is_string(v)) {
				sd_device(s, json_string_value(v), json_string_length(v), cpu);
				break;
			}
		dev = pr_xstrdup(s->dev.buf);
		json_members(s, section, o, dev, ts, si);
		free(dev);
	}
}

static int json_stat(struct sd *s, const json_t *st, size_t hi, size_t si)
{
	const json_t *t = json_object_get(st, "timestamp");
	const char *date = json_is_object(t) ? pr_jget_str(t, "date") : NULL;
	const char *tod = json_is_object(t) ? pr_jget_str(t, "time") : NULL;
	const char *key;
	json_t *v;
	int64_t utc = 0, abs_ns, ts;
	int naive;
	if (!date || !tod) {
		pr_writer_diag(s->w, "sadf_bad_time", -1, 0, 0,
			       "'hosts[%zu].statistics[%zu].timestamp': expected {\"date\", "
			       "\"time\"}; record skipped",
			       hi, si);
		return 0;
	}
	pr_strbuf_reset(&s->tmp);
	pr_strbuf_addf(&s->tmp, "%s %s", date, tod);
	if (pr_parse_datetime(s->tmp.buf, s->tmp.len, &abs_ns, &naive)) {
		pr_writer_diag(s->w, "sadf_bad_time", -1, 0, 0,
			       "'hosts[%zu].statistics[%zu].timestamp': not a date and time; "
			       "record skipped",
			       hi, si);
		return 0;
	}
	if ((pr_jget_int(t, "utc", &utc) || utc != 1) && !s->local_noted) {
		s->local_noted = 1;
		pr_writer_diag(
			s->w, "sadf_local_time", -1, 0, 0,
			"'hosts[%zu].statistics[%zu].timestamp.utc' is not 1 (sadf -T: local "
			"time, zone not written); taken as UTC",
			hi, si);
		pr_writer_meta_set(s->w, "time_zone",
				   json_string(
					   "local time of the recording machine, taken as UTC"));
	}
	if (!pr_writer_meta_get(s->w, "interval_s") &&
	    json_is_number(json_object_get(t, "interval")))
		pr_writer_meta_set(s->w, "interval_s",
				   json_deep_copy(json_object_get(t, "interval")));
	s->iv = json_is_number(json_object_get(t, "interval"))
			? json_number_value(json_object_get(t, "interval"))
			: 0;
	if (!isfinite(s->iv))
		s->iv = 0;
	sd_place(s, abs_ns, 0, &ts);
	json_object_foreach ((json_t *)st, key, v) {
		const char *section = key;
		if (!strcmp(key, "timestamp"))
			continue;
		if (!strcmp(key, "cpu-load") || !strcmp(key, "cpu-load-all"))
			section = "cpu";
		if (json_is_array(v))
			json_devices(s, section, v, ts, si);
		else if (json_is_object(v))
			json_members(s, section, v, "", ts, si);
	}
	return 0;
}

static int sadfj_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	long nonfinite = 0;
	json_t *doc = pr_jdoc_load(src, &nonfinite, err), *sys, *hosts;
	struct sd s;
	size_t hi, si;
	int rc = -1;

	if (!doc)
		return -1;
	sd_init(&s, w);
	sys = json_is_object(doc) ? json_object_get(doc, "sysstat") : NULL;
	hosts = json_is_object(sys) ? json_object_get(sys, "hosts") : NULL;
	if (!json_is_array(hosts)) {
		pr_error_set(err, PR_E_PARSE, "'sysstat.hosts': %s",
			     hosts ? "expected an array" : "missing (not sadf -j output)");
		goto out;
	}
	pr_writer_set_collector(w, "sadf");
	for (hi = 0; hi < json_array_size(hosts); hi++) {
		const json_t *h = json_array_get(hosts, hi), *stats, *restarts;
		static const char *const keys[] = { "nodename", "sysname",	  "release",
						    "machine",	"number-of-cpus", "file-date",
						    "timezone" };
		size_t k;
		if (!json_is_object(h))
			continue;
		if (hi == 0)
			for (k = 0; k < PR_ARRAY_SIZE(keys); k++) {
				json_t *v = json_object_get(h, keys[k]);
				if (v && (json_is_string(v) || json_is_number(v)))
					pr_writer_meta_set(w, keys[k], json_deep_copy(v));
			}
		restarts = json_object_get(h, "restarts");
		if (json_array_size(restarts) > 0)
			pr_writer_diag(
				w, "sadf_restart", -1, 0, 0,
				"'hosts[%zu].restarts': the machine restarted %zu times during "
				"the recording: the counters start again",
				hi, json_array_size(restarts));
		stats = json_object_get(h, "statistics");
		if (!json_is_array(stats)) {
			pr_error_set(err, PR_E_PARSE, "'sysstat.hosts[%zu].statistics': %s", hi,
				     stats ? "expected an array" : "missing");
			goto out;
		}
		for (si = 0; si < json_array_size(stats); si++) {
			const json_t *st = json_array_get(stats, si);
			if (json_is_object(st))
				json_stat(&s, st, hi, si);
		}
	}
	if (json_array_size(hosts) > 1)
		pr_writer_meta_set(w, "hosts", json_integer((json_int_t)json_array_size(hosts)));
	if (nonfinite > 0)
		pr_writer_diag(w, "nonfinite_number", -1, 0, 0,
			       "%ld NaN/Infinity values were read as null (not usable)", nonfinite);
	pr_writer_meta_set(w, "records", json_integer(s.run_rows));
	pr_writer_meta_set(w, "time_kind",
			   json_string("sar sample time (the end of each interval)"));
	sd_averages(&s);
	rc = 0;
out:
	sd_release(&s);
	json_decref(doc);
	return rc;
}

static const char *const sadf_json_tokens[] = { "sysstat",   "hosts",  "statistics", "cpu-load",
						"timestamp", "date",   "time",	     "utc",
						"interval",  "memory", "io",	     "disk",
						"queue",     "paging", NULL };

const struct pr_format pr_format_sadf_json = {
	.name = "sadf-json",
	.summary = "sysstat sadf -j JSON (CPU, memory, I/O, disks, load, paging)",
	.sniff = sadfj_sniff,
	.parse = sadfj_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = sadf_json_tokens,
};
