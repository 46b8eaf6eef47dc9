/* history.c - a store's runs as a history (history.h). */
#include "cli/history.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/model.h"
#include "base/xalloc.h"
#include "cli/meta.h"
#include "schema/model_keys.h" /* PRK_/PRA_/PRC_: generated from docs/schema */

/* The history being read, and the runs whose digest had no history part (read again whole). */
struct load {
	struct pr_history *h;
	int64_t *miss;
	size_t nmiss;
};

static int add_run(void *ctx, json_t *run, int whole, struct pr_error *err)
{
	struct load *ld = ctx;
	struct pr_history *h = ld->h;
	struct pr_hist_run *r;
	const json_t *m = json_object_get(run, PRK_META), *x, *ep;
	/* the digest's history part (pr_model_digest), over the digest's other keys; keys: digest */
	const char *t, *hs = json_string_value(json_object_get(run, "history"));
	json_t *full = hs ? json_loads(hs, 0, NULL) : NULL;
	size_t i;
	(void)err;
	if (json_is_object(full)) {
		json_object_update_missing(full, run);
		run = full;
	} else if (!whole) {
		/* not a digest of this build's (which always has it): the run's whole model */
		json_decref(full);
		ld->miss = pr_xreallocarray(ld->miss, ld->nmiss + 1, sizeof(*ld->miss));
		ld->miss[ld->nmiss++] = json_integer_value(json_object_get(run, PRK_ID));
		return 0;
	} else {
		json_decref(full);
		full = NULL;
	}
	h->runs = pr_xreallocarray(h->runs, h->n + 1, sizeof(*h->runs));
	r = &h->runs[h->n++];
	memset(r, 0, sizeof(*r));
	r->id = json_integer_value(json_object_get(run, PRK_ID));
	r->label = pr_xstrdup(json_is_string(json_object_get(run, PRK_LABEL))
				      ? json_string_value(json_object_get(run, PRK_LABEL))
				      : "");
	r->meta = json_is_object(m) ? json_deep_copy(m) : json_object();
	t = json_string_value(json_object_get(r->meta, PRK_META_TIME));
	r->has_time = t && pr_cli_meta_time(t, &r->time_ns) == 0;
	ep = json_object_get(json_object_get(run, PRK_CLOCK), PRK_CLOCK_EPOCH_START_NS);
	if (json_is_integer(ep)) {
		r->has_epoch = 1;
		r->epoch_ns = json_integer_value(ep);
	}
	r->nh = pr_headline_read(run, r->h);
	for (i = 0; i < r->nh; i++) {
		if (r->h[i].series) {
			r->series = pr_xstrdup(r->h[i].series);
			r->h[i].series = r->series;
		}
	}
	r->spans = json_object();
	r->span_total = json_object();
	json_array_foreach (json_object_get(json_object_get(run, PRK_SPANS), PRK_SPANS_ITEMS), i,
			    x) {
		const char *name = json_string_value(json_object_get(x, PRK_SPANS_ITEMS_NAME));
		json_t *c = json_object_get(x, PRK_SPANS_ITEMS_COUNT),
		       *tot = json_object_get(x, PRK_SPANS_ITEMS_TOTAL_NS);
		double cnt = json_number_value(c), total = json_number_value(tot);
		/* a name listed twice (two kinds) keeps its first, larger row */
		if (!name || !json_is_number(c) || !json_is_number(tot) || cnt <= 0 ||
		    json_object_get(r->spans, name))
			continue;
		json_object_set_new(r->spans, name, json_real(total / cnt));
		json_object_set_new(r->span_total, name, json_real(total));
	}
	json_decref(full);
	return 0;
}

/* Only the digest of each run (pr_model_digest carries what add_run reads): from the model
 * cache, a small row a run, instead of every run's whole model. */
static int want_digest(void *ctx, int64_t id, const char *label, const char *hash)
{
	(void)ctx;
	(void)id;
	(void)label;
	(void)hash;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct pr_hist_run *x = a, *y = b;
	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_id(const void *a, const void *b)
{
	const struct pr_hist_run *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

int pr_history_load(struct pr_store *st, int cache, struct pr_history *h, struct pr_error *err)
{
	struct pr_model_opts mo = PR_MODEL_OPTS_INIT;
	size_t i;
	struct load ld = { h, NULL, 0 };
	memset(h, 0, sizeof(*h));
	/* report's options when the cache is shared with it; else no timelines (not read here) */
	mo.cache = cache;
	mo.digest_history = 1;
	if (!cache)
		mo.timeline_points = 0;
	if (pr_model_each(st, &mo, want_digest, add_run, &ld, err))
		goto fail;
	for (i = 0; i < ld.nmiss; i++) {
		mo.run = (long)ld.miss[i];
		if (pr_model_each(st, &mo, NULL, add_run, &ld, err))
			goto fail;
	}
	free(ld.miss);
	h->by_time = h->n > 0;
	for (i = 0; i < h->n; i++)
		h->by_time &= h->runs[i].has_time;
	qsort(h->runs, h->n, sizeof(*h->runs), h->by_time ? by_time : by_id);
	return 0;
fail:
	free(ld.miss);
	pr_history_release(h);
	return -1;
}

void pr_history_release(struct pr_history *h)
{
	size_t i;
	for (i = 0; i < h->n; i++) {
		free(h->runs[i].label);
		free(h->runs[i].series);
		json_decref(h->runs[i].meta);
		json_decref(h->runs[i].spans);
		json_decref(h->runs[i].span_total);
	}
	free(h->runs);
	memset(h, 0, sizeof(*h));
}

int pr_hist_value(const struct pr_hist_run *r, const char *metric, double *v)
{
	size_t i;
	for (i = 0; i < r->nh; i++) {
		if (!strcmp(r->h[i].def->name, metric)) {
			*v = r->h[i].value;
			return 1;
		}
	}
	return 0;
}
