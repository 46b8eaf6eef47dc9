/*
 * agg_inferix.c - Inferix's keys (see aggregate.h): the row's "inferix"
 * part (session id, duration, the reported summary.gpu/cpu numbers) and
 * the aggregate in the form of Inferix's own aggregate report
 * (pr_agg_to_inferix: per key _min/_max/_avg/_sum, a summary per report).
 */
#include "analyze/multi/aggregate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/multi/agg_impl.h"
#include "base/xsum.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/xalloc.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* Inferix key and value from a reported "summary.gpu.x" metric. */
static void inferix_key(const json_t *m, struct pr_strbuf *key, double *v)
{
	const char *name = json_string_value(json_object_get(m, PRK_REPORTED_NAME));
	const char *unit = json_string_value(json_object_get(m, PRK_REPORTED_UNIT));
	const char *last = strrchr(name, '.');
	pr_strbuf_addstr(key, last ? last + 1 : name);
	*v = pr_mnum(m, PRK_REPORTED_VALUE);
	if (unit && !strcmp(unit, "bytes")) {
		pr_strbuf_addstr(key, "_mb");
		*v /= 1048576.0;
	} else if (unit && !strcmp(unit, "ns")) {
		*v /= 1e9;
	}
}

int pr_agg_gpu_meaningless(const json_t *run)
{
	const json_t *d;
	size_t i;
	json_array_foreach (json_object_get(run, PRK_DIAGNOSTICS), i, d) {
		const char *code = json_string_value(json_object_get(d, PRK_DIAGNOSTICS_CODE));
		if (code && !strcmp(code, "inferix_gpu_data_zero"))
			return 1;
	}
	return 0;
}

int pr_agg_gpu_metric(const char *name)
{
	return !strncmp(name, "summary.gpu.", 12) || !strncmp(name, "gpu_metrics.", 12);
}

json_t *pr_agg_inferix_part(const json_t *run, const json_t *meta)
{
	json_t *inf = json_object(), *gpu = json_object(), *cpu = json_object();
	const json_t *rep = json_object_get(run, PRK_REPORTED), *m;
	/* keys: run meta - the store's meta of the run, open in the schema (each format its own) */
	const char *sid = json_string_value(json_object_get(meta, "session_id"));
	double dur = NAN;
	size_t i;
	int gpu_zero = pr_agg_gpu_meaningless(run);
	json_array_foreach (rep, i, m) {
		const char *name = json_string_value(json_object_get(m, PRK_REPORTED_NAME));
		struct pr_strbuf key = PR_STRBUF_INIT;
		double v;
		if (!name || (gpu_zero && pr_agg_gpu_metric(name)))
			continue; /* all-zero GPU snapshots: its GPU numbers mean nothing */
		if (!strncmp(name, "summary.gpu.", 12) || !strncmp(name, "summary.cpu.", 12)) {
			inferix_key(m, &key, &v);
			json_object_set_new(name[8] == 'g' ? gpu : cpu, key.buf, pr_jnum(v));
		} else if (!strcmp(name, "session_info.duration")) {
			inferix_key(m, &key, &dur);
		}
		pr_strbuf_release(&key);
	}
	json_object_set_new(inf, "session_id", sid ? json_string(sid) : json_null());
	json_object_set_new(inf, "duration", pr_jnum(dur));
	json_object_set_new(inf, "gpu", gpu);
	json_object_set_new(inf, "cpu", cpu);
	return inf;
}

/* One Inferix key's accumulator across reports: _min, _max, _avg, _sum. */
struct inf_key {
	char *key;
	struct pr_xsum sum;
	double mn, mx, cnt;
};

struct inf_part {
	struct inf_key *k;
	size_t n;
};

/* Folds a report's part (gpu or cpu): keys in the order first met, values that are numbers. */
static void inf_fold(struct inf_part *p, const json_t *obj)
{
	const char *key;
	json_t *v;
	json_object_foreach ((json_t *)obj, key, v) {
		struct inf_key *k = NULL;
		size_t i;
		double d;
		for (i = 0; i < p->n && !k; i++)
			if (!strcmp(p->k[i].key, key))
				k = &p->k[i];
		if (!k) {
			p->k = pr_xreallocarray(p->k, p->n + 1, sizeof(p->k[0]));
			k = &p->k[p->n++];
			memset(k, 0, sizeof(*k));
			k->key = pr_xstrdup(key);
			k->mn = INFINITY;
			k->mx = -INFINITY;
		}
		if (!json_is_number(v))
			continue;
		d = json_number_value(v);
		pr_xsum_add(&k->sum, d);
		k->mn = d < k->mn ? d : k->mn;
		k->mx = d > k->mx ? d : k->mx;
		k->cnt++;
	}
}

/* The part's keys with _min/_max/_avg/_sum (keys without a number left out); frees p. */
static json_t *inf_json(struct inf_part *p)
{
	static const char *const sfx[] = { "_min", "_max", "_avg", "_sum" };
	json_t *out = json_object();
	struct pr_strbuf kb = PR_STRBUF_INIT;
	size_t i, q;
	for (i = 0; i < p->n; i++) {
		struct inf_key *k = &p->k[i];
		double vals[4];
		if (k->cnt > 0) {
			vals[0] = k->mn;
			vals[1] = k->mx;
			vals[2] = pr_xsum_value(&k->sum) / k->cnt;
			vals[3] = pr_xsum_value(&k->sum);
			for (q = 0; q < 4; q++) {
				pr_strbuf_reset(&kb);
				pr_strbuf_addf(&kb, "%s%s", k->key, sfx[q]);
				json_object_set_new(out, kb.buf,
						    q == 2 ? json_real(vals[q]) : pr_jnum(vals[q]));
			}
		}
		free(k->sum.p);
		free(k->key);
	}
	free(p->k);
	pr_strbuf_release(&kb);
	return out;
}

/*
 * Each report (row) is read back once, in rank order: its gpu/cpu numbers
 * folded per key (exact sums, so the order does not matter) and its line of
 * reports_summary written.
 */
json_t *pr_agg_to_inferix(const struct pr_agg *a)
{
	json_t *doc = json_object(), *sum = json_array();
	struct inf_part gpu = { NULL, 0 }, cpu = { NULL, 0 };
	size_t i, distinct;
	struct agg_row **rv = pr_agg_rows_sorted(a, &distinct);
	json_object_set_new(doc, "total_reports", json_integer((json_int_t)a->nrows));
	json_object_set_new(doc, "rank_count", json_integer((json_int_t)distinct));
	for (i = 0; i < a->nrows; i++) {
		json_t *row = pr_agg_row_json(a, rv[i]), *o;
		const json_t *inf = json_object_get(row, PRA_RANKS_INFERIX);
		const json_t *sid = json_object_get(inf, PRA_RANKS_INFERIX_SESSION_ID);
		const json_t *dur = json_object_get(inf, PRA_RANKS_INFERIX_DURATION);
		double d;
		if (!row)
			break;
		inf_fold(&gpu, json_object_get(inf, PRA_RANKS_INFERIX_GPU));
		inf_fold(&cpu, json_object_get(inf, PRA_RANKS_INFERIX_CPU));
		d = json_is_number(dur) ? json_number_value(dur)
					: pr_mnum(row, PRA_RANKS_DURATION_NS) / 1e9;
		o = json_object();
		json_object_set_new(o, "report_index", json_integer((json_int_t)i));
		json_object_set_new(o, "session_id",
				    json_is_string(sid) ? json_copy((json_t *)sid)
							: json_string("unknown"));
		json_object_set_new(o, "duration", isfinite(d) ? json_real(d) : json_integer(0));
		json_object_set_new(o, "rank", json_integer(rv[i]->rank));
		json_array_append_new(sum, o);
		json_decref(row);
	}
	json_object_set_new(doc, "aggregated_gpu_metrics", inf_json(&gpu));
	json_object_set_new(doc, "aggregated_cpu_metrics", inf_json(&cpu));
	json_object_set_new(doc, "reports_summary", sum);
	free(rv);
	if (pr_agg_failed(a, NULL)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}
