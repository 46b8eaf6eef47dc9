/*
 * fmt_dhat.c - Valgrind DHAT's JSON (dhat.out.<pid>, `valgrind --tool=dhat`;
 * the Rust dhat crate writes the same). dhatFileVersion 2 is the version
 * read here (Valgrind's own viewer, dh_view.js, accepts only that one);
 * another version is an error.
 *
 *   {"dhatFileVersion": 2, "mode": "heap"|"copy"|"ad-hoc", "verb",
 *    "bklt": lifetimes tracked, "bkacc": accesses tracked,
 *    "tu": "instrs", "Mtu": "Minstr", "tuth", "cmd", "pid",
 *    "te": t-end, "tg": t-gmax (with bklt),
 *    "pps": [{"tb", "tbk", "tl", "mb", "mbk", "gb", "gbk", "eb", "ebk",
 *             "rb", "wb", "acc", "fs": [frame indexes]}],
 *    "ftbl": ["[root]", "0xADDR: fn (file:line)", ...]}
 *
 * Per program point (PP, an allocation stack), reported metrics, detail =
 * "pps[INDEX]: " and the stack from the allocation function outwards, "fn
 * (file:line) <- caller ..." (addresses taken off), as massif's peak tree:
 *   dhat.pp.bytes (tb) / .blocks (tbk)           total allocated
 *   dhat.pp.lifetime_avg (tl / tbk), .lifetime_total (tl)   in the time unit
 *   dhat.pp.max_bytes (mb) / .max_blocks (mbk)    the PP's own peak
 *   dhat.pp.gmax_bytes (gb) / .gmax_blocks (gbk)  live at t-gmax
 *   dhat.pp.end_bytes (eb) / .end_blocks (ebk)    live at t-end
 *   dhat.pp.reads (rb) / .writes (wb)             bytes read / written
 * and for the whole program dhat.total.bytes/.blocks, dhat.gmax.bytes/.blocks
 * (what was live at the global peak: the sums of gb/gbk), dhat.end.bytes,
 * dhat.t_gmax, dhat.t_end. Time unit: tu "instrs" is instructions executed
 * (unit "instructions"); "µs"/"ms"/"ns" are times (ns). In copy and ad-hoc
 * modes the "bytes" are bytes copied or ad-hoc units (unit "count", meta
 * x_unit the file's "bsu", e.g. "units").
 *
 * A sampled profile, stored as fmt_speedscope.c stores sampled ones: track
 * ("thread", "dhat", "0") "bytes allocated (tb)" ("bytes copied" in copy
 * mode): each PP is one sample lasting its tb, laid end to end in stack
 * order so PPs sharing callers share those spans; frame spans (kind
 * "frame") root first. (What was live at t-gmax is in the metrics only: a
 * second profile on the same run would be added to this one by every
 * per-name total.) The weight is bytes, not time: the run is
 * time_synthetic, 1 byte = 1 ns, and meta x_unit = "bytes".
 *
 * Diagnostics: dhat_bad_pp, dhat_bad_frame, dhat_no_lifetimes,
 * dhat_access_latched, nonfinite_number.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/format.h"
#include "ingest/jdoc.h"
#include "base/pr_common.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

#define DHAT_VERSION 2
#define W_MAX 9.0e18

enum {
	F_TB,
	F_TBK,
	F_TL,
	F_MB,
	F_MBK,
	F_GB,
	F_GBK,
	F_EB,
	F_EBK,
	F_RB,
	F_WB,
	NF
};

static const char *const fkeys[NF] = { "tb",  "tbk", "tl",  "mb", "mbk", "gb",
				       "gbk", "eb",  "ebk", "rb", "wb" };

struct pp {
	double v[NF];
	int has[NF];
	int64_t *fs; /* root first */
	size_t nfs;
	char *detail;
};

struct dh {
	struct pr_writer *w;
	struct pp *pps;
	size_t npp;
	int64_t *fnames; /* interned frame names */
	size_t nframes;
	int bklt, bkacc;
	const char *bunit; /* metric unit of the "bytes" */
	const char *tunit; /* metric unit of times */
	double tscale;	   /* to that unit */
	struct pr_strbuf tmp;
	int64_t track;
	int64_t *stack;
	size_t depth, cap;
};

static int dh_sniff(const unsigned char *head, size_t n, const char *path)
{
	static const char *const keys[] = { "dhatFileVersion", NULL };
	PR_UNUSED(path);
	return pr_jdoc_head_has(head, n, keys) ? 95 : 0;
}

/* "0x1093E3: main (prog.c:47)" -> "main (prog.c:47)" */
static const char *frame_text(const char *s)
{
	const char *c;
	if (s[0] == '0' && s[1] == 'x' && (c = strstr(s, ": ")) != NULL)
		return c + 2;
	return s;
}

/* Byte offset of the value of "key" in the head, or -1: errors about a
 * top-level member point there (the driver turns it into line:col). */
static int64_t value_at(const unsigned char *h, size_t n, const char *key)
{
	size_t k = strlen(key), i, j;
	for (i = 0; i + k + 2 <= n; i++) {
		if (h[i] != '"' || memcmp(h + i + 1, key, k) || h[i + k + 1] != '"')
			continue;
		for (j = i + k + 2;
		     j < n && (h[j] == ' ' || h[j] == '\t' || h[j] == '\r' || h[j] == '\n'); j++)
			;
		if (j >= n || h[j] != ':')
			continue;
		for (j++; j < n && (h[j] == ' ' || h[j] == '\t' || h[j] == '\r' || h[j] == '\n');
		     j++)
			;
		return j < n ? (int64_t)j : -1;
	}
	return -1;
}

static int pp_cmp(const void *a, const void *b)
{
	const struct pp *x = a, *y = b;
	size_t i;
	for (i = 0; i < x->nfs && i < y->nfs; i++)
		if (x->fs[i] != y->fs[i])
			return x->fs[i] < y->fs[i] ? -1 : 1;
	return x->nfs < y->nfs ? -1 : x->nfs > y->nfs;
}

static void read_pp(struct dh *d, const json_t *o, size_t i, const json_t *ftbl)
{
	struct pp *p = &d->pps[d->npp];
	const json_t *fs = json_is_object(o) ? json_object_get(o, "fs") : NULL;
	const json_t *acc;
	size_t k, n;
	memset(p, 0, sizeof(*p));
	if (!json_is_array(fs) || pr_jget_num(o, "tb", &p->v[F_TB])) {
		pr_writer_diag(d->w, "dhat_bad_pp", -1, 0, 0,
			       "'pps[%zu]': expected an object with \"tb\" and \"fs\"; skipped", i);
		return;
	}
	for (k = 0; k < NF; k++) {
		double v;
		if (!pr_jget_num(o, fkeys[k], &v)) {
			if (!isfinite(v) || v < 0 || v > W_MAX) {
				pr_writer_diag(d->w, "dhat_bad_pp", -1, 0, 0,
					       "'pps[%zu].%s': not a number >= 0; skipped", i,
					       fkeys[k]);
				return;
			}
			p->v[k] = v;
			p->has[k] = 1;
		}
	}
	acc = json_object_get(o, "acc");
	for (k = 0; k < json_array_size(acc); k++)
		if (json_is_integer(json_array_get(acc, k)) &&
		    json_integer_value(json_array_get(acc, k)) == 0xffff) {
			pr_writer_diag(d->w, "dhat_access_latched", -1, 0, 0,
				       "'pps[%zu].acc': an access count latched at 65535 (DHAT "
				       "stops counting there); reads/writes in rb/wb are exact",
				       i);
			break;
		}
	n = json_array_size(fs);
	p->fs = pr_xcalloc(n ? n : 1, sizeof(*p->fs));
	pr_strbuf_reset(&d->tmp);
	for (k = 0; k < n; k++) {
		const json_t *f = json_array_get(fs, k);
		int64_t fi;
		if (!json_is_integer(f) || (fi = json_integer_value(f)) < 1 ||
		    (size_t)fi >= json_array_size(ftbl) ||
		    !json_is_string(json_array_get(ftbl, (size_t)fi))) {
			pr_writer_diag(d->w, "dhat_bad_frame", -1, 0, 0,
				       "'pps[%zu].fs[%zu]': not an index of a string in ftbl "
				       "(%zu entries); the stack is cut there",
				       i, k, json_array_size(ftbl));
			break;
		}
		if (k)
			pr_strbuf_addstr(&d->tmp, " <- ");
		pr_strbuf_addstr(&d->tmp,
				 frame_text(json_string_value(json_array_get(ftbl, (size_t)fi))));
		p->fs[p->nfs++] = fi;
	}
	/* root first, for the profile */
	for (k = 0; k < p->nfs / 2; k++) {
		int64_t t = p->fs[k];
		p->fs[k] = p->fs[p->nfs - 1 - k];
		p->fs[p->nfs - 1 - k] = t;
	}
	{
		/* "pps[i]: " first: two PPs may print the same (frames differing only
		 * in their addresses, which are taken off) */
		struct pr_strbuf det = PR_STRBUF_INIT;
		pr_strbuf_addf(&det, "pps[%zu]: %s", i, d->tmp.len ? d->tmp.buf : "(no stack)");
		p->detail = pr_strbuf_detach(&det, NULL);
	}
	d->npp++;
}

static void pp_metrics(struct dh *d, const struct pp *p)
{
	static const struct {
		int f;
		const char *name;
		int kind; /* 0 bytes, 1 count, 2 time */
	} m[] = {
		{ F_TB, "dhat.pp.bytes", 0 },	       { F_TBK, "dhat.pp.blocks", 1 },
		{ F_TL, "dhat.pp.lifetime_total", 2 }, { F_MB, "dhat.pp.max_bytes", 0 },
		{ F_MBK, "dhat.pp.max_blocks", 1 },    { F_GB, "dhat.pp.gmax_bytes", 0 },
		{ F_GBK, "dhat.pp.gmax_blocks", 1 },   { F_EB, "dhat.pp.end_bytes", 0 },
		{ F_EBK, "dhat.pp.end_blocks", 1 },    { F_RB, "dhat.pp.reads", 0 },
		{ F_WB, "dhat.pp.writes", 0 },
	};
	size_t k;
	for (k = 0; k < PR_ARRAY_SIZE(m); k++) {
		if (!p->has[m[k].f])
			continue;
		pr_writer_metric(d->w, m[k].name,
				 m[k].kind == 2 ? p->v[m[k].f] * d->tscale : p->v[m[k].f],
				 m[k].kind == 0	  ? d->bunit
				 : m[k].kind == 1 ? "count"
						  : d->tunit,
				 0, "reported", p->detail);
	}
	if (p->has[F_TL] && p->has[F_TBK] && p->v[F_TBK] > 0)
		pr_writer_metric(d->w, "dhat.pp.lifetime_avg", p->v[F_TL] / p->v[F_TBK] * d->tscale,
				 d->tunit, 0, "derived", p->detail);
}

static void open_frame(struct dh *d, int64_t f, int64_t t)
{
	struct pr_span_in in;
	memset(&in, 0, sizeof(in));
	in.track = d->track;
	in.kind = "frame";
	in.name = d->fnames[f];
	in.ts = t;
	pr_writer_span_begin(d->w, &in);
	if (d->depth == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 32;
		d->stack = pr_xrealloc(d->stack, d->cap * sizeof(*d->stack));
	}
	d->stack[d->depth++] = f;
}

/* One sampled profile: PPs in stack order, each lasting its weight. */
static void profile(struct dh *d, int field, const char *name)
{
	int64_t t = 0;
	size_t i, k;
	d->track = pr_writer_track(d->w, "thread", "dhat", "0");
	pr_writer_track_set_name(d->w, d->track, name);
	pr_writer_track_set_sort(d->w, d->track, 0);
	for (i = 0; i < d->npp; i++) {
		const struct pp *p = &d->pps[i];
		size_t common = 0;
		int64_t dur = (int64_t)llround(p->v[field]);
		if (!p->has[field] || dur <= 0 || (double)t + (double)dur > W_MAX)
			continue;
		while (common < p->nfs && common < d->depth && d->stack[common] == p->fs[common])
			common++;
		while (d->depth > common) {
			d->depth--;
			pr_writer_span_end(d->w, d->track, t, NULL, 0);
		}
		for (k = common; k < p->nfs; k++)
			open_frame(d, p->fs[k], t);
		t += dur;
	}
	while (d->depth > 0) {
		d->depth--;
		pr_writer_span_end(d->w, d->track, t, NULL, 0);
	}
}

static int dh_parse(struct pr_source *src, struct pr_writer *w, struct pr_error *err)
{
	long nonfinite = 0;
	json_t *doc, *pps, *ftbl, *ver;
	const unsigned char *head;
	const char *mode, *tu, *bu;
	struct dh d;
	double sum[NF], te, tg;
	size_t i, k, hn;
	int64_t at_ver = -1, at_pps = -1, at_ftbl = -1;
	int rc = -1;

	if (pr_source_head(src, &head, &hn, err))
		return -1;
	at_ver = value_at(head, hn, "dhatFileVersion");
	at_pps = value_at(head, hn, "pps");
	at_ftbl = value_at(head, hn, "ftbl");
	doc = pr_jdoc_load(src, &nonfinite, err);
	if (!doc)
		return -1;
	memset(&d, 0, sizeof(d));
	memset(sum, 0, sizeof(sum));
	d.w = w;
	pr_strbuf_init(&d.tmp);
	if (!json_is_object(doc)) {
		pr_error_set(err, PR_E_PARSE, "expected a JSON object (a DHAT file)");
		goto out;
	}
	ver = json_object_get(doc, "dhatFileVersion");
	if (!json_is_integer(ver) || json_integer_value(ver) != DHAT_VERSION) {
		if (json_is_integer(ver))
			pr_error_at(err, PR_E_PARSE, at_ver, 0, 0,
				    "'dhatFileVersion' is %lld: not understood (this reader knows "
				    "version %d, as Valgrind 3.15 and later write it)",
				    (long long)json_integer_value(ver), DHAT_VERSION);
		else
			pr_error_at(err, PR_E_PARSE, ver ? at_ver : 0, 0, 0,
				    "'dhatFileVersion': %s",
				    ver ? "expected an integer" : "missing");
		goto out;
	}
	pps = json_object_get(doc, "pps");
	ftbl = json_object_get(doc, "ftbl");
	if (!json_is_array(pps) || !json_is_array(ftbl)) {
		int pps_ok = json_is_array(pps);
		pr_error_at(err, PR_E_PARSE,
			    (pps_ok ? ftbl : pps) ? (pps_ok ? at_ftbl : at_pps) : 0, 0, 0,
			    "'%s': %s", pps_ok ? "ftbl" : "pps",
			    (pps_ok ? ftbl : pps) ? "expected an array" : "missing");
		goto out;
	}
	pr_writer_set_collector(w, "valgrind-dhat");
	mode = pr_jget_str(doc, "mode");
	tu = pr_jget_str(doc, "tu");
	bu = pr_jget_str(doc, "bu");
	d.bklt = json_is_true(json_object_get(doc, "bklt"));
	d.bkacc = json_is_true(json_object_get(doc, "bkacc"));
	d.bunit = mode && !strcmp(mode, "ad-hoc") ? "count" : "bytes";
	d.tunit = "instructions";
	d.tscale = 1;
	if (tu && (!strcmp(tu, "\xc2\xb5s") || !strcmp(tu, "us"))) {
		d.tunit = "ns";
		d.tscale = 1e3;
	} else if (tu && !strcmp(tu, "ms")) {
		d.tunit = "ns";
		d.tscale = 1e6;
	} else if (tu && !strcmp(tu, "ns")) {
		d.tunit = "ns";
	} else if (tu && strcmp(tu, "instrs")) {
		d.tunit = "count";
	}
	{
		static const char *const keys[] = {
			"mode", "verb", "tu",  "Mtu",  "tuth", "cmd",
			"pid",	"bu",	"bsu", "bksu", "bklt", "bkacc"
		};
		for (k = 0; k < PR_ARRAY_SIZE(keys); k++) {
			json_t *v = json_object_get(doc, keys[k]);
			if (v && (json_is_string(v) || json_is_number(v) || json_is_boolean(v))) {
				pr_strbuf_reset(&d.tmp);
				pr_strbuf_addf(&d.tmp, "dhat.%s", keys[k]);
				pr_writer_meta_set(w, d.tmp.buf, json_deep_copy(v));
			}
		}
	}
	pr_strbuf_reset(&d.tmp);
	pr_strbuf_addf(&d.tmp,
		       "DHAT's time unit tu \"%s\" (%s) for lifetimes, t-gmax and t-end; span "
		       "positions are %s, not time",
		       tu ? tu : "?",
		       d.tscale != 1 || !strcmp(d.tunit, "ns") ? "stored as ns" : d.tunit,
		       d.bunit[0] == 'b' ? "bytes" : "ad-hoc units");
	pr_writer_meta_set(w, "time_unit", json_string(d.tmp.buf));
	{
		/* ad-hoc: the file's own plural unit name ("bsu": "units"), else "bu" */
		const char *bsu = pr_jget_str(doc, "bsu");
		const char *xu = !strcmp(d.bunit, "count") ? (bsu ? bsu : bu) : NULL;
		pr_writer_meta_set(w, "x_unit", json_string(xu ? xu : "bytes"));
	}
	pr_writer_set_time_synthetic(w, 1);
	if (nonfinite > 0)
		pr_writer_diag(w, "nonfinite_number", -1, 0, 0,
			       "%ld NaN/Infinity values were read as null (not usable)", nonfinite);
	if (!d.bklt)
		pr_writer_diag(
			w, "dhat_no_lifetimes", -1, 0, 0,
			"mode %s%s%s: DHAT tracked no block lifetimes (bklt false), so there "
			"is no t-gmax, no lifetimes and no bytes at t-gmax or t-end",
			mode ? "\"" : "", mode ? mode : "(none)", mode ? "\"" : "");
	/* frames */
	d.nframes = json_array_size(ftbl);
	d.fnames = pr_xcalloc(d.nframes ? d.nframes : 1, sizeof(*d.fnames));
	for (i = 0; i < d.nframes; i++) {
		const char *s = json_string_value(json_array_get(ftbl, i));
		const char *t = s ? frame_text(s) : "(bad frame)";
		d.fnames[i] = pr_writer_intern(w, t, strlen(t));
	}
	d.pps = pr_xcalloc(json_array_size(pps) ? json_array_size(pps) : 1, sizeof(*d.pps));
	for (i = 0; i < json_array_size(pps); i++)
		read_pp(&d, json_array_get(pps, i), i, ftbl);
	for (i = 0; i < d.npp; i++) {
		pp_metrics(&d, &d.pps[i]);
		for (k = 0; k < NF; k++)
			sum[k] += d.pps[i].v[k];
	}
	pr_writer_metric(w, "dhat.total.bytes", sum[F_TB], d.bunit, 0, "derived", "sum of tb");
	pr_writer_metric(w, "dhat.total.blocks", sum[F_TBK], "count", 0, "derived", "sum of tbk");
	if (d.bklt) {
		pr_writer_metric(w, "dhat.gmax.bytes", sum[F_GB], d.bunit, 0, "derived",
				 "sum of gb: live at t-gmax");
		pr_writer_metric(w, "dhat.gmax.blocks", sum[F_GBK], "count", 0, "derived",
				 "sum of gbk: live at t-gmax");
		pr_writer_metric(w, "dhat.end.bytes", sum[F_EB], d.bunit, 0, "derived",
				 "sum of eb: live at t-end");
		if (!pr_jget_num(doc, "tg", &tg))
			pr_writer_metric(w, "dhat.t_gmax", tg * d.tscale, d.tunit, 0, "reported",
					 "tg");
	}
	if (!pr_jget_num(doc, "te", &te))
		pr_writer_metric(w, "dhat.t_end", te * d.tscale, d.tunit, 0, "reported", "te");
	/* the profiles, PPs in stack order */
	qsort(d.pps, d.npp, sizeof(*d.pps), pp_cmp);
	{
		const char *verb = pr_jget_str(doc, "verb");
		pr_strbuf_reset(&d.tmp);
		pr_strbuf_addf(&d.tmp, "%s ", d.bunit[0] == 'b' ? "bytes" : "units");
		for (k = 0; verb && verb[k]; k++)
			pr_strbuf_addch(&d.tmp, verb[k] >= 'A' && verb[k] <= 'Z'
							? (char)(verb[k] + 32)
							: verb[k]);
		pr_strbuf_addstr(&d.tmp, verb ? " (tb)" : "(tb)");
		profile(&d, F_TB, d.tmp.buf);
	}
	pr_writer_meta_set(w, "program_points", json_integer((json_int_t)d.npp));
	rc = 0;
out:
	for (i = 0; i < d.npp; i++) {
		free(d.pps[i].fs);
		free(d.pps[i].detail);
	}
	free(d.pps);
	free(d.fnames);
	free(d.stack);
	pr_strbuf_release(&d.tmp);
	json_decref(doc);
	return rc;
}

static const char *const dhat_tokens[] = { "dhatFileVersion",
					   "mode",
					   "pps",
					   "ftbl",
					   "tb",
					   "tbk",
					   "gb",
					   "gbk",
					   "eb",
					   "fs",
					   "bklt",
					   "tl",
					   "tg",
					   "mb",
					   "rb",
					   "wb",
					   "tu",
					   "Nb",
					   NULL };

const struct pr_format pr_format_dhat = {
	.name = "dhat",
	.summary = "Valgrind DHAT JSON (dhat.out.<pid>): per-allocation-site metrics and a "
		   "byte-weighted profile",
	.sniff = dh_sniff,
	.parse = dh_parse,
	.flags = PR_FORMAT_JSON,
	.tokens = dhat_tokens,
};
