/*
 * fmt_torch_memtl.c - torch.profiler's prof.export_memory_timeline(path)
 * (REFERENCE.md section 3c), in its two JSON shapes (gzip is transparent):
 *
 *   .json / .json.gz: [times, sizes]; times in us (epoch when > 1e14, else
 *     relative), sizes[i] = [0, PARAMETER, OPTIMIZER_STATE, INPUT, TEMPORARY,
 *     ACTIVATION, GRADIENT, AUTOGRAD_DETAIL, unknown] cumulative bytes.
 *   raw.json.gz: [[timestamp_ns, action, numbytes, category_index], ...];
 *     action PREEXISTING/CREATE/INCREMENT_VERSION/DESTROY (torch writes
 *     Action.value, 1..4; 0..3 is accepted too), negative bytes on destroy
 *     and on the old version of an increment, timestamp -1 for
 *     pre-existing tensors (placed at the smallest real time, as torch's
 *     own plot does). Accumulated per category, one sample per timestamp.
 *
 * Series (bytes, device ""): dev.mem.category.<parameter|optimizer_state|
 * input|temporary|activation|gradient|autograd_detail|unknown> and
 * dev.mem.total (their sum).
 * Diagnostics: torch_memtl_bad_entry, torch_memtl_length_mismatch,
 * torch_memtl_slot0_nonzero, torch_memtl_negative_category,
 * torch_memtl_time_backwards, torch_memtl_nonfinite.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/pr_common.h"

#define NCAT 8
#define EPOCH_US_MIN 1e14 /* 1973: a larger time is epoch-based */

static const char *const cat_series[NCAT] = {
	"dev.mem.category.parameter",	    "dev.mem.category.optimizer_state",
	"dev.mem.category.input",	    "dev.mem.category.temporary",
	"dev.mem.category.activation",	    "dev.mem.category.gradient",
	"dev.mem.category.autograd_detail", "dev.mem.category.unknown",
};

static size_t skip_ws(const unsigned char *h, size_t n, size_t i)
{
	while (i < n && (h[i] == ' ' || h[i] == '\n' || h[i] == '\r' || h[i] == '\t'))
		i++;
	return i;
}

/* A JSON integer at h[i] (optional '-'); returns the index after it or 0. */
static size_t scan_int(const unsigned char *h, size_t n, size_t i, long long *v)
{
	int neg = 0;
	size_t s;
	long long x = 0;
	if (i < n && h[i] == '-') {
		neg = 1;
		i++;
	}
	s = i;
	while (i < n && h[i] >= '0' && h[i] <= '9' && i - s < 18)
		x = x * 10 + (h[i++] - '0');
	if (i == s || (i < n && h[i] >= '0' && h[i] <= '9'))
		return 0;
	*v = neg ? -x : x;
	return i;
}

static int tml_sniff(const unsigned char *h, size_t n, const char *path)
{
	size_t i = 0, k, j;
	long long v[4];
	PR_UNUSED(path);
	if (n >= 3 && !memcmp(h, "\xEF\xBB\xBF", 3))
		i = 3;
	i = skip_ws(h, n, i);
	if (i >= n || h[i] != '[')
		return 0;
	i = skip_ws(h, n, i + 1);
	if (i >= n || h[i] != '[')
		return 0;
	i = skip_ws(h, n, i + 1);
	/* raw: [[int, int(0..4), int, int(0..7)], ... */
	for (k = 0, j = i; k < 4; k++) {
		j = skip_ws(h, n, j);
		j = scan_int(h, n, j, &v[k]);
		if (!j)
			break;
		j = skip_ws(h, n, j);
		if (j >= n || h[j] != (k < 3 ? ',' : ']'))
			break;
		j++;
	}
	if (k == 4 && v[1] >= 0 && v[1] <= 4 && v[3] >= 0 && v[3] <= 7)
		return 70;
	/* timeline: [[t, ...], [[0, c1..c8], ... : find the end of times */
	for (j = i; j < n && h[j] != ']'; j++)
		if (!strchr("0123456789-+.eE, \t\r\n", h[j]))
			return 0;
	if (j >= n)
		return n >= PR_SOURCE_HEAD ? 40 : 0;
	j = skip_ws(h, n, j + 1);
	if (j >= n || h[j] != ',')
		return 0;
	j = skip_ws(h, n, j + 1);
	if (j >= n || h[j] != '[')
		return 0;
	j = skip_ws(h, n, j + 1);
	if (j < n && h[j] == ']')
		return 60; /* [[], []]: an empty timeline */
	if (j >= n || h[j] != '[')
		return 0;
	for (k = 0, j = j + 1; k < 9; k++) {
		j = skip_ws(h, n, j);
		j = scan_int(h, n, j, &v[0]);
		if (!j)
			return 0;
		j = skip_ws(h, n, j);
		if (j >= n || h[j] != (k < 8 ? ',' : ']'))
			return 0;
		j++;
	}
	return 90;
}

struct tml {
	struct pr_writer *w;
	int64_t sid[NCAT + 1];
	int64_t origin; /* ns subtracted from times */
	int64_t prev_ts;
	int started;
};

static void emit(struct tml *t, int64_t ts, const double *cat)
{
	double total = 0;
	int k;
	if (t->started && ts < t->prev_ts)
		pr_writer_diag(t->w, "torch_memtl_time_backwards", -1, 0, 0,
			       "a timestamp is earlier than the previous one");
	t->started = 1;
	t->prev_ts = ts;
	for (k = 0; k < NCAT; k++) {
		if (!t->sid[k])
			t->sid[k] = pr_writer_series(t->w, cat_series[k], "", "bytes", "B");
		pr_writer_sample(t->w, t->sid[k], ts - t->origin, cat[k]);
		total += cat[k];
		if (cat[k] < 0)
			pr_writer_diag(t->w, "torch_memtl_negative_category", -1, 0, 0,
				       "%s is negative (%.0f bytes): torch's category "
				       "attribution is known to be wrong in complex programs "
				       "(HTA#222)",
				       cat_series[k], cat[k]);
	}
	if (!t->sid[NCAT])
		t->sid[NCAT] = pr_writer_series(t->w, "dev.mem.total", "", "bytes",
						"B (sum of the 8 categories)");
	pr_writer_sample(t->w, t->sid[NCAT], ts - t->origin, total);
}

static int is_int(json_t *v, int64_t *out)
{
	double d;
	if (json_is_integer(v)) {
		*out = (int64_t)json_integer_value(v);
		return 1;
	}
	if (!json_is_real(v))
		return 0;
	d = json_real_value(v);
	if (!isfinite(d) || d != floor(d) || fabs(d) > 9e18)
		return 0;
	*out = (int64_t)d;
	return 1;
}

static int parse_timeline(struct tml *t, json_t *times, json_t *sizes, struct pr_error *err)
{
	size_t n = json_array_size(times), i, k;
	int have_first = 0;
	if (json_array_size(sizes) != n)
		pr_writer_diag(t->w, "torch_memtl_length_mismatch", -1, 0, 0,
			       "times has %zu entries, sizes %zu; the extra ones are ignored", n,
			       json_array_size(sizes));
	if (json_array_size(sizes) < n)
		n = json_array_size(sizes);
	for (i = 0; i < n; i++) {
		json_t *tv = json_array_get(times, i), *sv = json_array_get(sizes, i);
		double cat[NCAT];
		int64_t s0, ts;
		if (!json_is_number(tv) || !isfinite(json_number_value(tv)) ||
		    fabs(json_number_value(tv)) > 9e15 || !json_is_array(sv) ||
		    json_array_size(sv) != NCAT + 1) {
			pr_writer_diag(t->w, "torch_memtl_bad_entry", -1, 0, 0,
				       "'[0][%zu]'/'[1][%zu]': expected a time in us and an array "
				       "of 9 byte counts; entry skipped",
				       i, i);
			continue;
		}
		for (k = 0; k < NCAT + 1; k++) {
			json_t *e = json_array_get(sv, k);
			if (!json_is_number(e) || !isfinite(json_number_value(e)))
				break;
			if (k)
				cat[k - 1] = json_number_value(e);
		}
		if (k != NCAT + 1) {
			pr_writer_diag(t->w, "torch_memtl_bad_entry", -1, 0, 0,
				       "'[1][%zu][%zu]': expected a number of bytes; entry skipped",
				       i, k);
			continue;
		}
		if (is_int(json_array_get(sv, 0), &s0) && s0 != 0)
			pr_writer_diag(t->w, "torch_memtl_slot0_nonzero", -1, 0, 0,
				       "'[1][%zu][0]' is not 0 (torch always writes a leading 0); "
				       "ignored",
				       i);
		/* integers exactly (epoch us * 1000 overflows a double's mantissa) */
		if (json_is_integer(tv))
			ts = (int64_t)json_integer_value(tv) * 1000;
		else
			ts = (int64_t)llround(json_number_value(tv) * 1000.0);
		if (!have_first) {
			have_first = 1;
			if (json_number_value(tv) > EPOCH_US_MIN) {
				t->origin = ts;
				pr_writer_set_time_origin(t->w, ts);
			}
		}
		emit(t, ts, cat);
	}
	PR_UNUSED(err);
	return 0;
}

static int parse_raw(struct tml *t, json_t *doc, struct pr_error *err)
{
	size_t n = json_array_size(doc), i;
	int64_t tmin = -1, cur_t = 0, counts[5] = { 0 };
	double cat[NCAT] = { 0 };
	int have = 0;
	json_t *acts;
	/* pass 1: the smallest real timestamp, for pre-existing (-1) tensors */
	for (i = 0; i < n; i++) {
		int64_t ts;
		if (is_int(json_array_get(json_array_get(doc, i), 0), &ts) && ts >= 0 &&
		    (tmin < 0 || ts < tmin))
			tmin = ts;
	}
	if (tmin < 0)
		tmin = 0;
	if ((double)tmin > EPOCH_US_MIN * 1000.0) {
		t->origin = tmin;
		pr_writer_set_time_origin(t->w, tmin);
	}
	for (i = 0; i < n; i++) {
		json_t *e = json_array_get(doc, i);
		int64_t ts, act, bytes, ci;
		if (!json_is_array(e) || json_array_size(e) != 4 ||
		    !is_int(json_array_get(e, 0), &ts) || !is_int(json_array_get(e, 1), &act) ||
		    !is_int(json_array_get(e, 2), &bytes) || !is_int(json_array_get(e, 3), &ci) ||
		    act < 0 || act > 4 || ci < 0 || ci >= NCAT || ts < -1) {
			pr_writer_diag(t->w, "torch_memtl_bad_entry", -1, 0, 0,
				       "'[%zu]': expected [timestamp_ns, action 1..4, bytes, "
				       "category 0..7]; entry skipped",
				       i);
			continue;
		}
		counts[act]++;
		if (ts == -1)
			ts = tmin;
		if (have && ts != cur_t)
			emit(t, cur_t, cat);
		have = 1;
		cur_t = ts;
		cat[ci] += (double)bytes;
	}
	if (have)
		emit(t, cur_t, cat);
	acts = json_object();
	json_object_set_new(acts, "PREEXISTING", json_integer(counts[1]));
	json_object_set_new(acts, "CREATE", json_integer(counts[2]));
	json_object_set_new(acts, "INCREMENT_VERSION", json_integer(counts[3]));
	json_object_set_new(acts, "DESTROY", json_integer(counts[4]));
	if (counts[0])
		json_object_set_new(acts, "action_0", json_integer(counts[0]));
	pr_writer_meta_set(t->w, "torch_memtl.actions", acts);
	PR_UNUSED(err);
	return 0;
}

static int tml_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	struct tml t;
	long nonfinite = 0;
	json_t *doc = pr_jdoc_load(src, &nonfinite, err), *a0, *a1;
	int rc;
	if (!doc)
		return -1;
	memset(&t, 0, sizeof(t));
	t.w = w;
	if (!json_is_array(doc)) {
		json_decref(doc);
		return pr_error_set(err, PR_E_PARSE,
				    "expected a JSON array ([times, sizes] or raw tuples)");
	}
	pr_writer_set_collector(w, "torch-memory-timeline");
	if (nonfinite)
		pr_writer_diag(w, "torch_memtl_nonfinite", -1, 0, 0,
			       "%ld NaN/Infinity value(s) read as null; those entries are skipped",
			       nonfinite);
	a0 = json_array_get(doc, 0);
	a1 = json_array_get(doc, 1);
	if (json_array_size(doc) == 2 && json_is_array(a0) && json_is_array(a1) &&
	    (json_array_size(a1) == 0 || json_is_array(json_array_get(a1, 0)))) {
		pr_writer_meta_set(w, "torch_memtl.shape",
				   json_string("timeline [times_us, sizes]"));
		rc = parse_timeline(&t, a0, a1, err);
	} else {
		pr_writer_meta_set(w, "torch_memtl.shape",
				   json_string("raw [timestamp_ns, action, bytes, category]"));
		rc = parse_raw(&t, doc, err);
	}
	pr_writer_meta_set(w, "torch_memtl.categories",
			   json_string("index order PARAMETER, OPTIMIZER_STATE, INPUT, TEMPORARY, "
				       "ACTIVATION, GRADIENT, AUTOGRAD_DETAIL, unknown (None)"));
	pr_writer_meta_set(w, "time_base",
			   json_string("profiler clock: epoch (time origin) when past 1973, else "
				       "as written"));
	json_decref(doc);
	return rc;
}

static const char *const torch_memtl_tokens[] = { "PARAMETER",	     "OPTIMIZER_STATE", "INPUT",
						  "TEMPORARY",	     "ACTIVATION",	"GRADIENT",
						  "AUTOGRAD_DETAIL", "UNKNOWN",		NULL };

const struct pr_format pr_format_torch_memtl = {
	.name = "torch-memory-timeline",
	.summary = "torch.profiler export_memory_timeline JSON ([times, sizes] or raw tuples)",
	.sniff = tml_sniff,
	.parse = tml_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = torch_memtl_tokens,
};
