/*
 * agg_inferix.c - Inferix's keys (see aggregate.h): the row's "inferix"
 * part (session id, duration, the reported summary.gpu/cpu numbers) and
 * the aggregate in the form of Inferix's own aggregate report
 * (pr_agg_to_inferix: per key _min/_max/_avg/_sum, a summary per report).
 */
#include "analyze/aggregate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/agg_impl.h"
#include "analyze/xsum.h"
#include "base/jsonx.h"
#include "base/strbuf.h"
#include "base/xalloc.h"

/* Inferix key and value from a reported "summary.gpu.x" metric. */
static void inferix_key(const json_t *m, struct pr_strbuf *key, double *v)
{
	const char *name = json_string_value(json_object_get(m, "name"));
	const char *unit = json_string_value(json_object_get(m, "unit"));
	const char *last = strrchr(name, '.');
	pr_strbuf_addstr(key, last ? last + 1 : name);
	*v = pr_mnum(m, "value");
	if (unit && !strcmp(unit, "bytes")) {
		pr_strbuf_addstr(key, "_mb");
		*v /= 1048576.0;
	} else if (unit && !strcmp(unit, "ns")) {
		*v /= 1e9;
	}
}

json_t *pr_agg_inferix_part(const json_t *run, const json_t *meta)
{
	json_t *inf = json_object(), *gpu = json_object(), *cpu = json_object();
	const json_t *rep = json_object_get(run, "reported"), *m;
	const char *sid = json_string_value(json_object_get(meta, "session_id"));
	double dur = NAN;
	size_t i;
	json_array_foreach(rep, i, m) {
		const char *name = json_string_value(json_object_get(m, "name"));
		struct pr_strbuf key = PR_STRBUF_INIT;
		double v;
		if (!name)
			continue;
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

static json_t *inferix_metrics(struct agg_row **rv, size_t n, const char *part)
{
	json_t *out = json_object(), *keys = json_array();
	size_t i, k;
	/* key order: as in the first report that has the part, then new ones as met */
	for (i = 0; i < n; i++) {
		const char *key;
		json_t *v;
		json_object_foreach(json_object_get(json_object_get(rv[i]->j, "inferix"), part), key, v) {
			int seen = 0;
			for (k = 0; k < json_array_size(keys) && !seen; k++)
				seen = !strcmp(json_string_value(json_array_get(keys, k)), key);
			if (!seen)
				json_array_append_new(keys, json_string(key));
		}
	}
	for (k = 0; k < json_array_size(keys); k++) {
		const char *key = json_string_value(json_array_get(keys, k));
		struct pr_xsum s = PR_XSUM_INIT;
		double mn = INFINITY, mx = -INFINITY, cnt = 0;
		struct pr_strbuf kb = PR_STRBUF_INIT;
		static const char *const sfx[] = { "_min", "_max", "_avg", "_sum" };
		double vals[4];
		size_t q;
		for (i = 0; i < n; i++) {
			json_t *v = json_object_get(
				json_object_get(json_object_get(rv[i]->j, "inferix"), part), key);
			double d;
			if (!json_is_number(v))
				continue;
			d = json_number_value(v);
			pr_xsum_add(&s, d);
			mn = d < mn ? d : mn;
			mx = d > mx ? d : mx;
			cnt++;
		}
		if (cnt > 0) {
			vals[0] = mn;
			vals[1] = mx;
			vals[2] = pr_xsum_value(&s) / cnt;
			vals[3] = pr_xsum_value(&s);
			for (q = 0; q < 4; q++) {
				pr_strbuf_reset(&kb);
				pr_strbuf_addf(&kb, "%s%s", key, sfx[q]);
				json_object_set_new(out, kb.buf,
						    q == 2 ? json_real(vals[q]) : pr_jnum(vals[q]));
			}
		}
		free(s.p);
		pr_strbuf_release(&kb);
	}
	json_decref(keys);
	return out;
}

json_t *pr_agg_to_inferix(const struct pr_agg *a)
{
	json_t *doc = json_object(), *sum = json_array();
	size_t i, distinct;
	struct agg_row **rv = pr_agg_rows_sorted(a, &distinct);
	json_object_set_new(doc, "total_reports", json_integer((json_int_t)a->nrows));
	json_object_set_new(doc, "rank_count", json_integer((json_int_t)distinct));
	json_object_set_new(doc, "aggregated_gpu_metrics", inferix_metrics(rv, a->nrows, "gpu"));
	json_object_set_new(doc, "aggregated_cpu_metrics", inferix_metrics(rv, a->nrows, "cpu"));
	for (i = 0; i < a->nrows; i++) {
		const json_t *inf = json_object_get(rv[i]->j, "inferix");
		const json_t *sid = json_object_get(inf, "session_id");
		const json_t *dur = json_object_get(inf, "duration");
		json_t *o = json_object();
		double d = json_is_number(dur)
				   ? json_number_value(dur)
				   : pr_mnum(rv[i]->j, "duration_ns") / 1e9;
		json_object_set_new(o, "report_index", json_integer((json_int_t)i));
		json_object_set_new(o, "session_id",
				    json_is_string(sid) ? json_copy((json_t *)sid)
							: json_string("unknown"));
		json_object_set_new(o, "duration", isfinite(d) ? json_real(d) : json_integer(0));
		json_object_set_new(o, "rank", json_integer(rv[i]->rank));
		json_array_append_new(sum, o);
	}
	json_object_set_new(doc, "reports_summary", sum);
	free(rv);
	return doc;
}
