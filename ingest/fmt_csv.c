/*
 * fmt_csv.c - generic CSV from any sampler: nvidia-smi --format=csv,
 * psutil-style loggers, hand-written scripts.
 *
 * Header: every name is trimmed, a bracketed unit is taken off
 * ("memory.used [MiB]", also "(MB)" when it is a known unit), the rest is
 * lower-cased with blanks as '_' (the column's key); then a unit suffix
 * ("rss_mb", "cpu_percent", "step_ms") is taken off the key (its base).
 *   - time column: the first base named timestamp, time, ts, datetime, date,
 *     elapsed, seconds, t, relative_time, ... (unit s unless the name or
 *     bracket says ms/us/ns). Values are epoch seconds (>= 1e9), relative
 *     seconds, or datetimes "2024/01/15 10:23:45.123", "2024-01-15
 *     10:23:45.123", "2024-01-15T10:23:45.123Z" / "+02:00". Datetimes are
 *     parsed here (no libc time zone); naive ones are taken as UTC.
 *     Absolute times: the first is the run's time origin, samples are
 *     relative to it. No time column: row index in seconds, synthetic.
 *   - phase column: the first named phase, stage, label, operation or
 *     section. Consecutive rows with the same non-empty value form one
 *     "phase" span on track ("phases", "csv", "phases"), from the first
 *     row's time to the time of the first row with another value; the last
 *     one ends at the last row's time.
 *   - every other column with numbers is a series: canonical name from the
 *     tables below, else its base. Values may carry a unit ("8420 MiB",
 *     "85 %"); "[N/A]", "N/A", "" and similar are missing. Units become
 *     bytes, bytes/s, ns, percent, celsius, watts, MHz (MB = MiB, as the
 *     collectors mean it); the unit as written is the series' orig_unit.
 *   - nvidia-smi: one row per GPU per time; the device is "cuda:<index>"
 *     from the index column, else pci.bus_id.
 *   - text columns (and pid/index-like ids) are ignored, listed in meta.
 *
 * Not a sampler log (PR_E_FORMAT): no column other than time holds a number
 * and no phase was read (a header with a time column and no rows is an
 * empty run).
 * Diagnostics: csv_no_time_column, csv_naive_time_utc, csv_bad_time,
 * csv_mixed_time, csv_bad_field_count, csv_repeated_header, csv_bad_value,
 * csv_invalid_text, csv_time_backwards, csv_too_many_series.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/csv.h"
#include "ingest/datetime.h"
#include "ingest/format.h"
#include "base/decimal.h"
#include "base/strbuf.h"
#include "base/strmap.h"
#include "base/xalloc.h"

#define CSV_MAX_SERIES 65536 /* (column, device) pairs */
#define NS_PER_S 1000000000LL

/* ---- units ---- */

enum ukind {
	K_NONE,
	K_BYTES,
	K_BYTES_PS,
	K_NS,
	K_PERCENT,
	K_CELSIUS,
	K_WATTS,
	K_MHZ,
	NKINDS
};

static const char *const kind_unit[NKINDS] = {
	[K_NONE] = "",		 [K_BYTES] = "bytes",	  [K_BYTES_PS] = "bytes/s", [K_NS] = "ns",
	[K_PERCENT] = "percent", [K_CELSIUS] = "celsius", [K_WATTS] = "watts",	    [K_MHZ] = "MHz",
};

struct unit {
	const char *tok; /* lower case */
	enum ukind kind;
	double scale; /* to the canonical unit */
	int exp10;    /* K_NS: log10(scale), for exact times */
	int suffix;   /* also recognised as a header suffix "_tok" */
};

static const struct unit units[] = {
	{ "b", K_BYTES, 1, 0, 1 },
	{ "bytes", K_BYTES, 1, 0, 1 },
	{ "byte", K_BYTES, 1, 0, 0 },
	{ "kb", K_BYTES, 1024.0, 0, 1 },
	{ "kib", K_BYTES, 1024.0, 0, 1 },
	{ "mb", K_BYTES, 1048576.0, 0, 1 },
	{ "mib", K_BYTES, 1048576.0, 0, 1 },
	{ "gb", K_BYTES, 1073741824.0, 0, 1 },
	{ "gib", K_BYTES, 1073741824.0, 0, 1 },
	{ "tb", K_BYTES, 1099511627776.0, 0, 0 },
	{ "tib", K_BYTES, 1099511627776.0, 0, 0 },
	{ "b/s", K_BYTES_PS, 1, 0, 0 },
	{ "kb/s", K_BYTES_PS, 1024.0, 0, 0 },
	{ "kib/s", K_BYTES_PS, 1024.0, 0, 0 },
	{ "mb/s", K_BYTES_PS, 1048576.0, 0, 0 },
	{ "mib/s", K_BYTES_PS, 1048576.0, 0, 0 },
	{ "gb/s", K_BYTES_PS, 1073741824.0, 0, 0 },
	{ "gib/s", K_BYTES_PS, 1073741824.0, 0, 0 },
	{ "ns", K_NS, 1, 0, 1 },
	{ "us", K_NS, 1e3, 3, 1 },
	{ "\xc2\xb5s", K_NS, 1e3, 3, 0 },
	{ "ms", K_NS, 1e6, 6, 1 },
	{ "s", K_NS, 1e9, 9, 1 },
	{ "sec", K_NS, 1e9, 9, 1 },
	{ "secs", K_NS, 1e9, 9, 0 },
	{ "seconds", K_NS, 1e9, 9, 0 },
	{ "%", K_PERCENT, 1, 0, 0 },
	{ "pct", K_PERCENT, 1, 0, 1 },
	{ "percent", K_PERCENT, 1, 0, 1 },
	{ "c", K_CELSIUS, 1, 0, 1 },
	{ "\xc2\xb0"
	  "c",
	  K_CELSIUS, 1, 0, 0 },
	{ "celsius", K_CELSIUS, 1, 0, 1 },
	{ "degc", K_CELSIUS, 1, 0, 0 },
	{ "w", K_WATTS, 1, 0, 1 },
	{ "mw", K_WATTS, 1e-3, 0, 0 },
	{ "kw", K_WATTS, 1e3, 0, 0 },
	{ "watts", K_WATTS, 1, 0, 1 },
	{ "hz", K_MHZ, 1e-6, 0, 0 },
	{ "khz", K_MHZ, 1e-3, 0, 0 },
	{ "mhz", K_MHZ, 1, 0, 1 },
	{ "ghz", K_MHZ, 1e3, 0, 0 },
};

static int lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

/* Case-insensitive (ASCII) equality of p[0..n) and the NUL-terminated s. */
static int eq_nocase(const char *p, size_t n, const char *s)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!s[i] || lower((unsigned char)p[i]) != lower((unsigned char)s[i]))
			return 0;
	return s[n] == '\0';
}

static const struct unit *unit_find(const char *p, size_t n, int suffix_only)
{
	size_t i;
	for (i = 0; i < PR_ARRAY_SIZE(units); i++)
		if ((!suffix_only || units[i].suffix) && eq_nocase(p, n, units[i].tok))
			return &units[i];
	return NULL;
}

/* ---- canonical names ---- */

struct map {
	const char *key;    /* base key (lower case, unit taken off) */
	const char *series; /* canonical series name */
	enum ukind kind;    /* the unit kind the canonical series has */
	const char *deflt;  /* unit assumed when the file names none */
	int nvidia;	    /* an nvidia-smi --query-gpu column */
	int prefix;	    /* also matches key + anything, given an explicit unit */
};

static const struct map maps[] = {
	/* nvidia-smi --query-gpu */
	{ "memory.used", "gpu.mem.used", K_BYTES, "MiB", 1, 0 },
	{ "memory.total", "gpu.mem.total", K_BYTES, "MiB", 1, 0 },
	{ "memory.free", "gpu.mem.free", K_BYTES, "MiB", 1, 0 },
	{ "memory.reserved", "gpu.mem.reserved", K_BYTES, "MiB", 1, 0 },
	{ "utilization.gpu", "gpu.util", K_PERCENT, "%", 1, 0 },
	{ "utilization.memory", "gpu.mem.util", K_PERCENT, "%", 1, 0 },
	{ "utilization.encoder", "gpu.enc.util", K_PERCENT, "%", 1, 0 },
	{ "utilization.decoder", "gpu.dec.util", K_PERCENT, "%", 1, 0 },
	{ "temperature.gpu", "gpu.temp", K_CELSIUS, "C", 1, 0 },
	{ "temperature.memory", "gpu.mem.temp", K_CELSIUS, "C", 1, 0 },
	{ "power.draw", "gpu.power", K_WATTS, "W", 1, 0 },
	{ "power.draw.average", "gpu.power", K_WATTS, "W", 1, 0 },
	{ "power.draw.instant", "gpu.power", K_WATTS, "W", 1, 0 },
	{ "power.limit", "gpu.power.limit", K_WATTS, "W", 1, 0 },
	{ "clocks.sm", "gpu.clock.sm", K_MHZ, "MHz", 1, 0 },
	{ "clocks.current.sm", "gpu.clock.sm", K_MHZ, "MHz", 1, 0 },
	{ "clocks.mem", "gpu.clock.mem", K_MHZ, "MHz", 1, 0 },
	{ "clocks.current.memory", "gpu.clock.mem", K_MHZ, "MHz", 1, 0 },
	{ "clocks.gr", "gpu.clock.gr", K_MHZ, "MHz", 1, 0 },
	{ "clocks.current.graphics", "gpu.clock.gr", K_MHZ, "MHz", 1, 0 },
	{ "fan.speed", "gpu.fan", K_PERCENT, "%", 1, 0 },
	/* psutil-style loggers */
	{ "rss", "mem.rss", K_BYTES, "B", 0, 0 },
	{ "proc_rss", "mem.rss", K_BYTES, "B", 0, 0 },
	{ "memory_rss", "mem.rss", K_BYTES, "B", 0, 0 },
	{ "vms", "mem.vms", K_BYTES, "B", 0, 0 },
	{ "vss", "mem.vms", K_BYTES, "B", 0, 0 },
	{ "proc_vms", "mem.vms", K_BYTES, "B", 0, 0 },
	{ "memory_vms", "mem.vms", K_BYTES, "B", 0, 0 },
	{ "cpu", "cpu.util", K_PERCENT, "%", 0, 0 },
	{ "cpu_util", "cpu.util", K_PERCENT, "%", 0, 0 },
	{ "cpu_usage", "cpu.util", K_PERCENT, "%", 0, 0 },
	{ "cpu_utilization", "cpu.util", K_PERCENT, "%", 0, 0 },
	{ "mem_used", "sys.mem.used", K_BYTES, "B", 0, 0 },
	{ "used_memory", "sys.mem.used", K_BYTES, "B", 0, 0 },
	{ "memory_used", "sys.mem.used", K_BYTES, "B", 0, 0 },
	{ "sys_mem_used", "sys.mem.used", K_BYTES, "B", 0, 0 },
	{ "mem_total", "sys.mem.total", K_BYTES, "B", 0, 0 },
	{ "total_memory", "sys.mem.total", K_BYTES, "B", 0, 0 },
	{ "mem_free", "sys.mem.free", K_BYTES, "B", 0, 0 },
	{ "free_memory", "sys.mem.free", K_BYTES, "B", 0, 0 },
	{ "mem_available", "sys.mem.available", K_BYTES, "B", 0, 0 },
	{ "available_memory", "sys.mem.available", K_BYTES, "B", 0, 0 },
	{ "swap_total", "sys.swap.total", K_BYTES, "B", 0, 0 },
	{ "swap_free", "sys.swap.free", K_BYTES, "B", 0, 0 },
	{ "swap", "sys.swap.used", K_BYTES, "B", 0, 1 },
	{ "disk_read", "disk.read", K_BYTES, "B", 0, 1 },
	{ "read_bytes", "disk.read", K_BYTES, "B", 0, 0 },
	{ "disk_write", "disk.write", K_BYTES, "B", 0, 1 },
	{ "write_bytes", "disk.write", K_BYTES, "B", 0, 0 },
	{ "gpu_mem", "gpu.mem.used", K_BYTES, "B", 0, 0 },
	{ "gpu_mem_used", "gpu.mem.used", K_BYTES, "B", 0, 0 },
	{ "gpu_memory", "gpu.mem.used", K_BYTES, "B", 0, 0 },
	{ "gpu_memory_used", "gpu.mem.used", K_BYTES, "B", 0, 0 },
	{ "gpu_util", "gpu.util", K_PERCENT, "%", 0, 0 },
	{ "gpu_utilization", "gpu.util", K_PERCENT, "%", 0, 0 },
	{ "gpu_temp", "gpu.temp", K_CELSIUS, "C", 0, 0 },
	{ "gpu_power", "gpu.power", K_WATTS, "W", 0, 0 },
};

static const char *const time_names[] = {
	"timestamp", "time",	     "ts",    "datetime",  "date",
	"elapsed",   "elapsed_time", "t",     "seconds",   "relative_time",
	"wall_time", "walltime",     "epoch", "unix_time", "time_stamp",
};

static const char *const phase_names[] = {
	"phase", "stage", "label", "operation", "section", "phase_name", "stage_name",
};

/* Identifier columns that are numbers but not measurements. */
static const char *const id_names[] = { "index", "pid", "ppid", "tid", "id", "idx", "row" };

static int in_list(const char *key, const char *const *list, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(key, list[i]))
			return 1;
	return 0;
}

/* ---- one column ---- */

enum role {
	R_VALUE,
	R_TIME,
	R_PHASE,
	R_DEVICE,
	R_BUS,
	R_IGNORE
};

struct col {
	enum role role;
	char *raw;		  /* header field as written (repeated-header check) */
	char *name;		  /* header field, trimmed and cleaned (meta) */
	char *series;		  /* series name */
	const struct unit *hunit; /* unit from the header, or NULL */
	char *horig;		  /* that unit as written */
	const struct map *map;
	/* established at the first number: */
	int has_unit;
	const struct unit *unit; /* unit of cells that name none (NULL: unitless) */
	enum ukind kind;
	char *orig;
	int64_t sid;		  /* series for device "" (0 = not yet) */
	int64_t nnum, ntext;	  /* numeric and text cells seen */
	long text_line, text_col; /* first text cell */
	int64_t nmiss;		  /* missing cells (empty, nan, -, N/A, ...) */
	long miss_line, miss_col; /* the first of them */
};

struct gen {
	struct pr_writer *w;
	struct col *cols;
	size_t ncols;
	int nvidia;
	long tcol, pcol, dcol, bcol; /* time, phase, device (index), bus id; -1 none */
	const struct unit *tunit;    /* unit of a numeric time column */
	/* time */
	int tmode; /* 0 undecided, 1 absolute, 2 relative */
	int64_t origin, prev_ts, last_ts;
	int has_ts, naive_noted;
	/* phases */
	int64_t phase_track;
	struct pr_strbuf phase;
	int in_phase;
	int64_t phase_start;
	/* series per (column, device) */
	struct pr_strmap series_map;
	struct pr_strbuf key, tmp, dev; /* scratch; dev: the current row's device */
	int64_t rows, skipped, index;
};

/* Trims blanks on both sides. */
static void trim(const char **p, size_t *n)
{
	while (*n && (**p == ' ' || **p == '\t')) {
		(*p)++;
		(*n)--;
	}
	while (*n && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t'))
		(*n)--;
}

/* Missing: empty, anything in brackets ("[N/A]", "[Not Supported]"), N/A, nan, ... */
static int is_missing(const char *p, size_t n)
{
	static const char *const words[] = { "n/a", "na", "nan", "-", "none", "null" };
	size_t i;
	if (n == 0 || p[0] == '[')
		return 1;
	for (i = 0; i < PR_ARRAY_SIZE(words); i++)
		if (eq_nocase(p, n, words[i]))
			return 1;
	return 0;
}

/*
 * Splits a cell into a number and an optional unit ("85 %", "8420 MiB").
 * Returns 1 (a number: num/numlen, u, ut/utn are set), 0 missing, -1 text.
 */
static int cell_split(const char *p, size_t n, const char **num, size_t *numlen,
		      const struct unit **u, const char **ut, size_t *utn)
{
	size_t i = 0, digits = 0;
	trim(&p, &n);
	if (is_missing(p, n))
		return 0;
	if (i < n && (p[i] == '-' || p[i] == '+'))
		i++;
	while (i < n && p[i] >= '0' && p[i] <= '9') {
		i++;
		digits++;
	}
	if (i < n && p[i] == '.') {
		i++;
		while (i < n && p[i] >= '0' && p[i] <= '9') {
			i++;
			digits++;
		}
	}
	if (!digits)
		return -1;
	if (i + 1 < n && (p[i] == 'e' || p[i] == 'E')) {
		size_t j = i + 1;
		if (j < n && (p[j] == '-' || p[j] == '+'))
			j++;
		if (j < n && p[j] >= '0' && p[j] <= '9') {
			while (j < n && p[j] >= '0' && p[j] <= '9')
				j++;
			i = j;
		}
	}
	*num = p;
	*numlen = i;
	p += i;
	n -= i;
	trim(&p, &n);
	*ut = p;
	*utn = n;
	*u = NULL;
	if (n && !(*u = unit_find(p, n, 0)))
		return -1;
	return 1;
}

/* ---- datetimes ---- */

static int looks_like_date(const char *p, size_t n)
{
	size_t i;
	for (i = 0; i < 4; i++)
		if (i >= n || p[i] < '0' || p[i] > '9')
			return 0;
	return n > 4 && (p[4] == '-' || p[4] == '/');
}

/* ---- header ---- */

/* Splits a header name into key (lower case, bracket unit off) and unit. */
static void header_key(const char *p, size_t n, struct pr_strbuf *key, const char **ut, size_t *utn)
{
	size_t i, lb;
	trim(&p, &n);
	*ut = NULL;
	*utn = 0;
	if (n >= 3 && (p[n - 1] == ']' || p[n - 1] == ')')) {
		char open = p[n - 1] == ']' ? '[' : '(';
		for (lb = n - 1; lb > 0 && p[lb - 1] != open; lb--)
			;
		if (lb > 1) {
			const char *u = p + lb;
			size_t un = n - 1 - lb;
			trim(&u, &un);
			/* "(...)" only when it is a unit we know */
			if (open == '[' || unit_find(u, un, 0)) {
				*ut = u;
				*utn = un;
				n = lb - 1;
				trim(&p, &n);
			}
		}
	}
	pr_strbuf_reset(key);
	for (i = 0; i < n; i++) {
		int ch = lower((unsigned char)p[i]);
		pr_strbuf_addch(key, ch == ' ' || ch == '\t' ? '_' : (char)ch);
	}
}

/* Takes a unit suffix "_mb" off key; returns the unit or NULL. */
static const struct unit *key_suffix(struct pr_strbuf *key)
{
	size_t us;
	for (us = key->len; us > 1; us--) {
		const struct unit *u;
		if (key->buf[us - 1] != '_')
			continue;
		u = unit_find(key->buf + us, key->len - us, 1);
		/* "tokens_per_s" is a rate, not seconds */
		if (!u || (us >= 5 && !memcmp(key->buf + us - 5, "_per", 4)))
			return NULL;
		key->len = us - 1;
		key->buf[key->len] = '\0';
		return u;
	}
	return NULL;
}

static const struct map *map_find(const char *key, const struct unit *u)
{
	size_t i, kl = strlen(key);
	for (i = 0; i < PR_ARRAY_SIZE(maps); i++) {
		const struct map *m = &maps[i];
		size_t ml = strlen(m->key);
		if (u && u->kind != m->kind)
			continue;
		if (!strcmp(key, m->key))
			return m;
		if (m->prefix && u && kl > ml && !strncmp(key, m->key, ml))
			return m;
	}
	return NULL;
}

static int series_taken(const struct gen *g, size_t upto, const char *name)
{
	size_t i;
	for (i = 0; i < upto; i++)
		if (g->cols[i].series && !strcmp(g->cols[i].series, name))
			return 1;
	return 0;
}

static void setup_column(struct gen *g, size_t i, const struct pr_csv_field *f, long line)
{
	struct col *c = &g->cols[i];
	const char *ut;
	size_t utn;
	const struct unit *u;

	c->raw = pr_xstrndup(f->p, f->n);
	pr_strbuf_reset(&g->tmp);
	if (pr_csv_text_clean(&g->tmp, f->p, f->n))
		pr_writer_diag(g->w, "csv_invalid_text", -1, line, f->col,
			       "invalid UTF-8 or control characters replaced by '?'");
	c->name = pr_xstrdup(g->tmp.buf);
	header_key(g->tmp.buf, g->tmp.len, &g->key, &ut, &utn);
	if (ut) {
		c->horig = pr_xstrndup(ut, utn);
		c->hunit = unit_find(ut, utn, 0);
	} else if ((u = key_suffix(&g->key)) != NULL) {
		c->hunit = u;
		c->horig = pr_xstrdup(u->tok);
	}
	if (g->tcol < 0 && in_list(g->key.buf, time_names, PR_ARRAY_SIZE(time_names)) &&
	    (!c->hunit || c->hunit->kind == K_NS)) {
		c->role = R_TIME;
		g->tcol = (long)i;
		g->tunit = c->hunit;
		return;
	}
	if (g->pcol < 0 && in_list(g->key.buf, phase_names, PR_ARRAY_SIZE(phase_names))) {
		c->role = R_PHASE;
		g->pcol = (long)i;
		return;
	}
	if (!strcmp(g->key.buf, "pci.bus_id")) {
		c->role = R_BUS;
		return;
	}
	if (in_list(g->key.buf, id_names, PR_ARRAY_SIZE(id_names))) {
		c->role = !strcmp(g->key.buf, "index") ? R_DEVICE : R_IGNORE;
		return;
	}
	c->map = map_find(g->key.buf, c->hunit);
	if (c->map && series_taken(g, i, c->map->series))
		c->map = NULL;
	if (c->map) {
		c->series = pr_xstrdup(c->map->series);
		g->nvidia |= c->map->nvidia;
		return;
	}
	pr_strbuf_reset(&g->tmp);
	pr_strbuf_addstr(&g->tmp, g->key.len ? g->key.buf : "column");
	if (series_taken(g, i, g->tmp.buf))
		pr_strbuf_addf(&g->tmp, "_%zu", i + 1);
	c->series = pr_xstrdup(g->tmp.buf);
}

static int read_header(struct gen *g, struct pr_csv *c, struct pr_error *err)
{
	const struct pr_csv_field *f;
	size_t n, i;
	json_t *hdr;
	int rc = pr_csv_next(c, err);

	if (rc < 0)
		return -1;
	if (rc == 0)
		return pr_error_at(err, PR_E_FORMAT, -1, 1, 1, "empty file: no CSV header");
	f = pr_csv_fields(c, &n);
	g->ncols = n;
	g->cols = pr_xcalloc(n, sizeof(*g->cols));
	g->tcol = g->pcol = g->dcol = g->bcol = -1;
	hdr = json_array();
	for (i = 0; i < n; i++) {
		setup_column(g, i, &f[i], pr_csv_line(c));
		json_array_append_new(hdr, json_string(g->cols[i].name));
	}
	/* The device comes from index, else pci.bus_id, for nvidia-smi only. */
	for (i = 0; i < n; i++) {
		struct col *col = &g->cols[i];
		if (col->role == R_DEVICE && g->nvidia && g->dcol < 0)
			g->dcol = (long)i;
		else if (col->role == R_BUS && g->nvidia && g->bcol < 0)
			g->bcol = (long)i;
		else if (col->role == R_DEVICE || col->role == R_BUS)
			col->role = R_IGNORE;
	}
	if (g->dcol >= 0 && g->bcol >= 0) {
		g->cols[g->bcol].role = R_IGNORE;
		g->bcol = -1;
	}
	pr_writer_meta_set(g->w, "csv_header", hdr);
	return 0;
}

/* ---- rows ---- */

/* Row time (ns on the run's clock) into *ts; -1 when the row is skipped. */
static int row_time(struct gen *g, const struct pr_csv_field *f, long line, int64_t *ts)
{
	const char *p = f->p, *num, *ut, *kind;
	size_t n = f->n, numlen, utn;
	const struct unit *u;
	int64_t ns;
	int naive = 0, abs;

	trim(&p, &n);
	if (looks_like_date(p, n)) {
		if (pr_parse_datetime(p, n, &ns, &naive))
			goto bad;
		abs = 1;
		kind = "datetime";
	} else {
		if (cell_split(p, n, &num, &numlen, &u, &ut, &utn) != 1)
			goto bad;
		if (!u)
			u = g->tunit;
		if ((u && u->kind != K_NS) ||
		    pr_decimal_scaled(num, numlen, u ? u->exp10 : 9, &ns) != PR_DEC_OK)
			goto bad;
		abs = ns >= NS_PER_S * NS_PER_S; /* >= 1e9 s: epoch */
		kind = abs ? "epoch" : "relative";
	}
	if (!g->tmode) {
		g->tmode = abs ? 1 : 2;
		if (abs) {
			g->origin = ns;
			pr_writer_set_time_origin(g->w, ns);
		}
		pr_writer_meta_set(g->w, "time_kind", json_string(kind));
	}
	if ((g->tmode == 1) != abs) {
		pr_writer_diag(g->w, "csv_mixed_time", -1, line, f->col,
			       "absolute and relative times mixed in the time column; row skipped");
		return -1;
	}
	if (naive && !g->naive_noted) {
		g->naive_noted = 1;
		pr_writer_diag(g->w, "csv_naive_time_utc", -1, line, f->col,
			       "date-times have no time zone; taken as UTC");
		pr_writer_meta_set(g->w, "time_zone", json_string("naive timestamps taken as UTC"));
	}
	*ts = abs ? ns - g->origin : ns;
	return 0;
bad:
	pr_writer_diag(g->w, "csv_bad_time", -1, line, f->col,
		       "time value is not a number or a date-time; row skipped");
	return -1;
}

/* The row's device: "cuda:<index>", the PCI bus id, or "". */
static void row_device(struct gen *g, const struct pr_csv_field *f)
{
	struct pr_strbuf *dev = &g->dev;
	const char *p;
	size_t n;
	pr_strbuf_reset(dev);
	if (g->dcol >= 0) {
		p = f[g->dcol].p;
		n = f[g->dcol].n;
		trim(&p, &n);
		pr_strbuf_addstr(dev, "cuda:");
	} else if (g->bcol >= 0) {
		p = f[g->bcol].p;
		n = f[g->bcol].n;
		trim(&p, &n);
	} else {
		return;
	}
	pr_csv_text_clean(dev, p, n);
}

static int64_t series_for(struct gen *g, size_t ci, long line)
{
	const struct pr_strbuf *dev = &g->dev;
	struct col *c = &g->cols[ci];
	uint32_t idx = (uint32_t)ci;
	int64_t id;
	if (!dev->len && c->sid)
		return c->sid;
	pr_strbuf_reset(&g->key);
	pr_strbuf_add(&g->key, &idx, sizeof(idx));
	pr_strbuf_add(&g->key, dev->buf, dev->len);
	if (pr_strmap_get(&g->series_map, g->key.buf, g->key.len, &id))
		return id;
	if (pr_strmap_count(&g->series_map) >= CSV_MAX_SERIES) {
		pr_writer_diag(g->w, "csv_too_many_series", -1, line, 0,
			       "more than %d (column, device) series; further ones dropped",
			       CSV_MAX_SERIES);
		return 0;
	}
	id = pr_writer_series(g->w, c->series, dev->buf, kind_unit[c->kind], c->orig);
	pr_strmap_put(&g->series_map, g->key.buf, g->key.len, id);
	if (!dev->len)
		c->sid = id;
	return id;
}

/* The first number of a column fixes its unit, kind and orig_unit. */
static void establish_unit(struct col *c, const struct unit *u, const char *ut, size_t utn)
{
	const struct unit *mdef =
		c->map ? unit_find(c->map->deflt, strlen(c->map->deflt), 0) : NULL;
	c->has_unit = 1;
	c->unit = c->hunit ? c->hunit : u ? u : mdef;
	c->kind = c->unit ? c->unit->kind : K_NONE;
	if (c->horig)
		c->orig = pr_xstrdup(c->horig);
	else if (u)
		c->orig = pr_xstrndup(ut, utn);
	else if (c->map)
		c->orig = pr_xstrdup(c->map->deflt);
	if (c->map && c->kind != c->map->kind) {
		/* "cpu" in MiB is not cpu.util: keep the column's own name */
		free(c->series);
		c->series = pr_xstrdup(c->map->key);
		c->map = NULL;
	}
}

static void bad_value(struct gen *g, long line, long col)
{
	pr_writer_diag(g->w, "csv_bad_value", -1, line, col,
		       "not a number (or a unit that does not fit the column) in a numeric "
		       "column; cell skipped");
}

static void value_cell(struct gen *g, size_t ci, const struct pr_csv_field *f, long line,
		       int64_t ts)
{
	struct col *c = &g->cols[ci];
	const char *num, *ut;
	size_t numlen, utn;
	const struct unit *u;
	double v;
	int64_t id, i;
	int rc = cell_split(f->p, f->n, &num, &numlen, &u, &ut, &utn);

	if (rc == 0) {
		if (!c->nmiss++) {
			c->miss_line = line;
			c->miss_col = f->col;
		}
		return;
	}
	if (rc < 0 || pr_decimal_double(num, numlen, &v) != PR_DEC_OK) {
		if (c->nnum) {
			bad_value(g, line, f->col);
		} else if (!c->ntext++) {
			c->text_line = line;
			c->text_col = f->col;
		}
		return;
	}
	if (!c->has_unit)
		establish_unit(c, u, ut, utn);
	if (!u)
		u = c->unit;
	if ((u ? u->kind : K_NONE) != c->kind) {
		bad_value(g, line, f->col);
		return;
	}
	if (!c->nnum++)
		for (i = 0; i < c->ntext; i++) /* the text cells before were bad values */
			bad_value(g, c->text_line, c->text_col);
	id = series_for(g, ci, line);
	if (id)
		pr_writer_sample(g->w, id, ts, u ? v * u->scale : v);
}

static void phase_end(struct gen *g, int64_t end)
{
	struct pr_span_in s;
	if (!g->in_phase)
		return;
	if (!g->phase_track) {
		g->phase_track = pr_writer_track(g->w, "phases", "csv", "phases");
		pr_writer_track_set_name(g->w, g->phase_track, "phases");
	}
	memset(&s, 0, sizeof(s));
	s.track = g->phase_track;
	s.kind = "phase";
	s.name = pr_writer_intern(g->w, g->phase.buf, g->phase.len);
	s.ts = g->phase_start;
	s.dur = end > g->phase_start ? end - g->phase_start : 0;
	pr_writer_span(g->w, &s);
	g->in_phase = 0;
}

static void phase_cell(struct gen *g, const struct pr_csv_field *f, long line, int64_t ts)
{
	const char *p = f->p;
	size_t n = f->n;
	trim(&p, &n);
	pr_strbuf_reset(&g->tmp);
	if (pr_csv_text_clean(&g->tmp, p, n))
		pr_writer_diag(g->w, "csv_invalid_text", -1, line, f->col,
			       "invalid UTF-8 or control characters replaced by '?'");
	if (g->in_phase &&
	    (g->tmp.len != g->phase.len || memcmp(g->tmp.buf, g->phase.buf, g->tmp.len)))
		phase_end(g, ts);
	if (!g->in_phase && g->tmp.len) {
		pr_strbuf_reset(&g->phase);
		pr_strbuf_add(&g->phase, g->tmp.buf, g->tmp.len);
		g->phase_start = ts;
		g->in_phase = 1;
	}
}

static int is_header_again(const struct gen *g, const struct pr_csv_field *f)
{
	size_t i;
	for (i = 0; i < g->ncols; i++)
		if (strlen(g->cols[i].raw) != f[i].n || memcmp(g->cols[i].raw, f[i].p, f[i].n))
			return 0;
	return 1;
}

static void gen_row(struct gen *g, const struct pr_csv_field *f, size_t n, long line)
{
	int64_t ts;
	size_t i;

	/* a trailing separator on data rows only ("a,b,") is tolerated */
	if (n != g->ncols && !(n == g->ncols + 1 && f[n - 1].n == 0)) {
		pr_writer_diag(g->w, "csv_bad_field_count", -1, line, 1,
			       "row has %zu fields, the header %zu; row skipped", n, g->ncols);
		g->skipped++;
		return;
	}
	if (is_header_again(g, f)) {
		pr_writer_diag(g->w, "csv_repeated_header", -1, line, 1,
			       "the header line appears again (concatenated logs); skipped");
		g->skipped++;
		return;
	}
	if (g->tcol < 0)
		ts = g->index * NS_PER_S;
	else if (row_time(g, &f[g->tcol], line, &ts)) {
		g->skipped++;
		return;
	}
	g->index++;
	if (g->rows && ts < g->last_ts)
		pr_writer_diag(g->w, "csv_time_backwards", -1, line, 1,
			       "time earlier than the previous row's; row kept");
	row_device(g, f);
	for (i = 0; i < g->ncols; i++)
		if (g->cols[i].role == R_VALUE)
			value_cell(g, i, &f[i], line, ts);
	if (g->pcol >= 0)
		phase_cell(g, &f[g->pcol], line, ts);
	g->last_ts = ts;
	g->rows++;
}

/*
 * Missing cells of a numeric column (a column that holds numbers elsewhere)
 * are no sample, and say so: csv_missing_value, counted per cell (a note),
 * and csv_series_mostly_missing when a column lost more cells than it kept,
 * which compare treats as lost data (a gate must not pass on 1 sample of 60).
 * A column with no number at all is no series and is not counted.
 */
static void missing_diags(struct gen *g)
{
	size_t i;
	int64_t k;
	for (i = 0; i < g->ncols; i++) {
		const struct col *c = &g->cols[i];
		if (c->role != R_VALUE || !c->nnum || !c->nmiss)
			continue;
		for (k = 0; k < c->nmiss; k++)
			pr_writer_diag(g->w, "csv_missing_value", -1, c->miss_line, c->miss_col,
				       "no value (empty, nan, -, N/A) in numeric column '%s': no "
				       "sample for this row",
				       c->name);
		if (c->nmiss > c->nnum)
			pr_writer_diag(g->w, "csv_series_mostly_missing", -1, c->miss_line,
				       c->miss_col,
				       "column '%s' has a value in %lld of its %lld rows: most "
				       "of the series is missing",
				       c->name, (long long)c->nnum,
				       (long long)(c->nnum + c->nmiss));
	}
}

static void finish_meta(struct gen *g)
{
	json_t *ignored = json_array();
	size_t i;
	for (i = 0; i < g->ncols; i++) {
		const struct col *c = &g->cols[i];
		if (c->role == R_IGNORE || (c->role == R_VALUE && !c->nnum && c->ntext))
			json_array_append_new(ignored, json_string(c->name));
	}
	pr_writer_meta_set(g->w, "ignored_columns", ignored);
	pr_writer_meta_set(g->w, "time_column",
			   g->tcol >= 0 ? json_string(g->cols[g->tcol].name) : json_null());
	pr_writer_meta_set(g->w, "phase_column",
			   g->pcol >= 0 ? json_string(g->cols[g->pcol].name) : json_null());
	pr_writer_meta_set(g->w, "rows", json_integer(g->rows));
	pr_writer_meta_set(g->w, "rows_skipped", json_integer(g->skipped));
}

static void gen_release(struct gen *g)
{
	size_t i;
	for (i = 0; i < g->ncols; i++) {
		free(g->cols[i].raw);
		free(g->cols[i].name);
		free(g->cols[i].series);
		free(g->cols[i].horig);
		free(g->cols[i].orig);
	}
	free(g->cols);
	pr_strbuf_release(&g->phase);
	pr_strbuf_release(&g->key);
	pr_strbuf_release(&g->tmp);
	pr_strbuf_release(&g->dev);
	pr_strmap_release(&g->series_map);
}

/*
 * A file with no number to read is not a sampler log: no value column holds
 * a number and no phase was read. A header with a time column and no rows is
 * a sampler stopped before its first sample (an empty run). The error points
 * at the first text cell of a value column, else at the header.
 */
static int check_numbers(const struct gen *g, struct pr_error *err)
{
	const struct col *first = NULL;
	size_t i;
	if (g->phase_track || (g->rows == 0 && g->tcol >= 0))
		return 0;
	for (i = 0; i < g->ncols; i++) {
		const struct col *c = &g->cols[i];
		if (c->role != R_VALUE)
			continue;
		if (c->nnum)
			return 0;
		if (c->ntext &&
		    (!first || c->text_line < first->text_line ||
		     (c->text_line == first->text_line && c->text_col < first->text_col)))
			first = c;
	}
	if (first)
		return pr_error_at(err, PR_E_FORMAT, -1, first->text_line, first->text_col,
				   "no numeric column: '%s' holds text here and no column holds "
				   "numbers (not a sampler log)",
				   first->name);
	return pr_error_at(err, PR_E_FORMAT, -1, 1, 1,
			   "no numeric column: no row holds a number (not a sampler log)");
}

static int csv_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	static const struct pr_csv_opts opts = { 0, 0, PR_CSV_TRIM };
	struct pr_csv *c = pr_csv_new_source(src, &opts);
	struct gen g;
	int rc;

	memset(&g, 0, sizeof(g));
	g.w = w;
	pr_strbuf_init(&g.phase);
	pr_strbuf_init(&g.key);
	pr_strbuf_init(&g.tmp);
	pr_strbuf_init(&g.dev);
	rc = read_header(&g, c, err);
	if (rc)
		goto out;
	pr_writer_set_collector(w, g.nvidia ? "nvidia-smi" : "csv");
	if (g.tcol < 0) {
		pr_writer_set_time_synthetic(w, 1);
		pr_writer_meta_set(w, "time_kind", json_string("row index"));
		pr_writer_diag(w, "csv_no_time_column", -1, pr_csv_line(c), 1,
			       "no time column (timestamp, time, elapsed, ...); time is the row "
			       "index in seconds, the real interval is unknown");
	}
	while ((rc = pr_csv_next(c, err)) > 0) {
		size_t n;
		const struct pr_csv_field *f = pr_csv_fields(c, &n);
		gen_row(&g, f, n, pr_csv_line(c));
	}
	if (rc < 0)
		goto out;
	phase_end(&g, g.last_ts);
	rc = check_numbers(&g, err);
	if (rc < 0)
		goto out;
	missing_diags(&g);
	finish_meta(&g);
out:
	gen_release(&g);
	pr_csv_free(c);
	return rc < 0 ? -1 : 0;
}

/* ---- sniff ---- */

extern const struct pr_format pr_format_qnn_csv;

static int csv_sniff(const unsigned char *head, size_t n, const char *path)
{
	static const struct pr_csv_opts opts = { 65536, 256, PR_CSV_TRIM };
	struct pr_error err = PR_ERROR_INIT;
	struct pr_strbuf key = PR_STRBUF_INIT;
	const struct pr_csv_field *f;
	struct pr_csv *c;
	size_t i = 0, n1 = 0, n2 = 0, numeric = 0;
	int timed = 0, text = 1;

	if (n >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
		i = 3;
	while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
		i++;
	if (i == n || head[i] == '{' || head[i] == '[' || memchr(head, 0, n))
		return 0;
	if (pr_format_qnn_csv.sniff(head, n, path) > 0)
		return 10; /* the QNN monitor's own format says more */
	c = pr_csv_new_mem(head, n, &opts);
	if (pr_csv_next(c, &err) > 0) {
		f = pr_csv_fields(c, &n1);
		for (i = 0; i < n1; i++) {
			const char *num, *ut;
			size_t numlen, utn;
			const struct unit *u;
			const char *t;
			size_t tn;
			text &= pr_csv_text_ok(f[i].p, f[i].n);
			numeric += cell_split(f[i].p, f[i].n, &num, &numlen, &u, &ut, &utn) == 1;
			header_key(f[i].p, f[i].n, &key, &t, &tn);
			if (!t)
				key_suffix(&key);
			timed |= in_list(key.buf, time_names, PR_ARRAY_SIZE(time_names));
		}
		if (pr_csv_next(c, &err) > 0)
			pr_csv_fields(c, &n2);
	}
	pr_csv_free(c);
	pr_strbuf_release(&key);
	if (n1 < 2 || n2 != n1 || !text || numeric * 4 > n1)
		return 0;
	return timed ? 60 : 50;
}

static const char *const csv_tokens[] = {
	"timestamp", "memory.used [MiB]", "utilization.gpu [%]", " MiB", " %", "index", "name", NULL
};

const struct pr_format pr_format_csv = {
	.name = "csv",
	.summary = "generic CSV: nvidia-smi --format=csv, psutil loggers, any sampler",
	.sniff = csv_sniff,
	.parse = csv_parse,
	.tokens = csv_tokens,
};
