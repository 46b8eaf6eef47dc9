/*
 * an_throughput.c - "throughput":
 *  - steps: step time per step span (ProfilerStep#N, diffusion steps) with
 *    mean, p50/p95/p99, min/max, std, jitter (std/mean), steps/s, and the
 *    straggling steps (modified z-score > 3.5 and > 1.5x the median);
 *  - tokens: tokens/s per section and overall (Diffulex), recomputed as
 *    tokens / the section's duration, next to what the collector recorded;
 *  - blocks: FPS = frames (sum of block_size) / block compute seconds and
 *    BPS = blocks / block compute seconds (Inferix block_computation);
 *  - diffusion: steps/s over diffusion-step compute time, and Inferix's
 *    "fps" (sum of block_size over *steps* / step seconds: frames counted
 *    once per denoising step) labelled as frame-steps per second, with
 *    frames per second of step time computed from distinct blocks.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/actx.h"
#include "analyze/results.h"
#include "analyze/analyzers.h"
#include "analyze/spanstat.h"
#include "base/stats.h"
#include "analyze/throughput.h"
#include "base/xalloc.h"

#define STEP_LIST_CAP 500
#define STEP_BUCKETS 1000 /* points of the reduced step profile of a longer run */
#define STRAGGLER_Z 3.5
#define STRAGGLER_FACTOR 1.5

#define HOST_BASIS "host: the step spans as recorded on the CPU thread"

json_t *pr_throughput_steps(struct pr_actx *ctx, const struct pr_aspan *steps, size_t n,
			    const char *basis)
{
	double *v, *sorted, med, mad, meanad;
	struct pr_moments m;
	json_t *o, *list = json_array(), *strag = json_array();
	size_t i;
	if (!n) {
		json_decref(list);
		json_decref(strag);
		return json_null();
	}
	v = pr_xcalloc(n, sizeof(*v));
	sorted = pr_xcalloc(n, sizeof(*sorted));
	pr_moments_init(&m);
	for (i = 0; i < n; i++) {
		v[i] = sorted[i] = (double)steps[i].dur;
		pr_moments_add(&m, v[i]);
	}
	pr_sort_doubles(sorted, n);
	med = pr_quantile_sorted(sorted, n, 0.5);
	mad = pr_mad(v, n, med);
	meanad = pr_meanad(v, n, med);
	for (i = 0; i < n; i++) {
		const struct pr_aspan *s = &steps[i];
		double z = n >= 3 ? pr_robust_z_meanad(v[i], med, mad, meanad) : 0;
		if (i < STEP_LIST_CAP)
			json_array_append_new(list, pr_jobj("name", json_string(s->name), "t_ns",
							    pr_actx_t(ctx, s->ts), "dur_ns",
							    pr_jint(s->dur), NULL));
		if (z > STRAGGLER_Z && v[i] > STRAGGLER_FACTOR * med)
			json_array_append_new(strag,
					      pr_jobj("name", json_string(s->name), "t_ns",
						      pr_actx_t(ctx, s->ts), "dur_ns",
						      pr_jint(s->dur), "robust_z", pr_jnum(z),
						      "x_median", pr_jnum(v[i] / med), NULL));
	}
	o = pr_jobj(
		"name", json_string(steps[0].name), "basis", json_string(basis), "count",
		pr_jint((int64_t)n), "total_ns", pr_jnum(m.sum), "mean_ns", pr_jnum(m.mean),
		"p50_ns", pr_jnum(med), "p95_ns", pr_jnum(pr_quantile_sorted(sorted, n, 0.95)),
		"p99_ns", pr_jnum(pr_quantile_sorted(sorted, n, 0.99)), "min_ns", pr_jnum(m.min),
		"max_ns", pr_jnum(m.max), "std_ns", pr_jnum(pr_moments_std(&m, 1)), "jitter",
		m.mean > 0 ? pr_jnum(pr_moments_std(&m, 1) / m.mean) : json_null(), "per_s",
		m.mean > 0 ? pr_jnum(1e9 / m.mean) : json_null(), "mad_ns", pr_jnum(mad),
		"stragglers", strag, "rule",
		json_string(
			"straggling step: modified z-score 0.6745*(x-median)/MAD > 3.5 and x > 1.5 x median"),
		"list", list, NULL);
	if (n > STEP_LIST_CAP) {
		/* every step, reduced: consecutive steps in buckets of k, each bucket's
		 * first step index, count, mean, min and max (a chart of all of them) */
		size_t k = (n + STEP_BUCKETS - 1) / STEP_BUCKETS, b;
		json_t *first = json_array(), *cnt = json_array(), *mean = json_array(),
		       *mn = json_array(), *mx = json_array();
		json_object_set_new(o, "list_more", pr_jint((int64_t)(n - STEP_LIST_CAP)));
		json_object_set_new(o, "last_name", json_string(steps[n - 1].name));
		for (b = 0; b * k < n; b++) {
			size_t j, lo = b * k, hi = lo + k < n ? lo + k : n;
			double sum = 0, lo_v = v[lo], hi_v = v[lo];
			for (j = lo; j < hi; j++) {
				sum += v[j];
				lo_v = v[j] < lo_v ? v[j] : lo_v;
				hi_v = v[j] > hi_v ? v[j] : hi_v;
			}
			json_array_append_new(first, pr_jint((int64_t)lo));
			json_array_append_new(cnt, pr_jint((int64_t)(hi - lo)));
			json_array_append_new(mean, pr_jnum(sum / (double)(hi - lo)));
			json_array_append_new(mn, pr_jnum(lo_v));
			json_array_append_new(mx, pr_jnum(hi_v));
		}
		json_object_set_new(o, "reduced",
				    pr_jobj("steps_per_point", pr_jint((int64_t)k), "first", first,
					    "count", cnt, "mean_ns", mean, "min_ns", mn, "max_ns",
					    mx, NULL));
	}
	free(v);
	free(sorted);
	return o;
}

static int tokens(struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	sqlite3_stmt *st;
	json_t *sections = json_array();
	double tok_sum = 0, dur_sum = 0, rep_overall = NAN;
	int rc, any = 0;
	if (pr_actx_prep(
		    ctx,
		    "SELECT n.value, s.ts, s.dur, "
		    "(SELECT value FROM metric m WHERE m.span_id = s.id AND m.name = 'total_tokens' "
		    " AND m.origin = 'reported'), "
		    "(SELECT value FROM metric m WHERE m.span_id = s.id AND m.name = 'throughput' "
		    " AND m.origin = 'reported') "
		    "FROM span s JOIN string n ON n.id = s.name_id "
		    "WHERE s.run_id = ?1 AND s.kind = 'section' ORDER BY s.ts, s.id",
		    &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double dur = (double)sqlite3_column_int64(st, 2);
		int has_tok = sqlite3_column_type(st, 3) != SQLITE_NULL;
		int has_rep = sqlite3_column_type(st, 4) != SQLITE_NULL;
		double tok = sqlite3_column_double(st, 3), rep = sqlite3_column_double(st, 4);
		double rate = has_tok && tok > 0 && dur > 0 ? tok / (dur / 1e9) : NAN;
		const char *note = NULL;
		if (has_tok && tok > 0) {
			tok_sum += tok;
			dur_sum += dur;
			any = 1;
			if (has_rep && rep == 0)
				note = "the collector recorded 0 tokens/s; recomputed from tokens / duration";
			else if (has_rep && fabs(rep - rate) > 1e-6 * fabs(rate))
				note = "the collector divides by the duration passed to record_throughput(), "
				       "not by the section's duration";
		}
		json_array_append_new(sections,
				      pr_jobj("section", json_string(pr_actx_text(st, 0)), "t_ns",
					      pr_actx_t(ctx, sqlite3_column_int64(st, 1)), "dur_ns",
					      pr_jnum(dur), "tokens",
					      has_tok ? pr_jnum(tok) : json_null(), "tokens_per_s",
					      pr_jnum(rate), "reported_tokens_per_s",
					      has_rep ? pr_jnum(rep) : json_null(), "note",
					      note ? json_string(note) : json_null(), NULL));
	}
	if (pr_actx_done(ctx, st, rc, err)) {
		json_decref(sections);
		return -1;
	}
	if (!json_array_size(sections)) {
		json_decref(sections);
		return 0;
	}
	pr_actx_metric(ctx, "summary.avg_throughput", &rep_overall);
	json_object_set_new(
		out, "tokens",
		pr_jobj("sections", sections, "total_tokens", pr_jnum(tok_sum), "tokens_per_s",
			any && dur_sum > 0 ? pr_jnum(tok_sum / (dur_sum / 1e9)) : json_null(),
			"rule",
			json_string(
				"overall = sum(tokens) / sum(duration of the sections that have tokens)"),
			"reported_tokens_per_s", pr_jnum(rep_overall), NULL));
	return 0;
}

/* Inferix block and diffusion-step spans carry block_size in their args. */
static int blocks_and_diffusion(struct pr_actx *ctx, json_t *out, struct pr_error *err)
{
	sqlite3_stmt *st;
	double bn = 0, bns = 0, bframes = 0, first = NAN, sn = 0, sns = 0, sframes = 0;
	int rc;
	if (pr_actx_prep(ctx,
			 "SELECT kind, dur, json_extract(args, '$.block_size') FROM span_v "
			 "WHERE run_id = ?1 AND ((kind = 'block') OR (kind = 'step' AND "
			 "name = 'diffusion_step')) ORDER BY ts, id",
			 &st, err))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		double dur = (double)sqlite3_column_int64(st, 1),
		       size = sqlite3_column_double(st, 2);
		if (!strcmp(pr_actx_text(st, 0), "block")) {
			if (!bn)
				first = dur;
			bn++;
			bns += dur;
			bframes += size;
		} else {
			sn++;
			sns += dur;
			sframes += size;
		}
	}
	if (pr_actx_done(ctx, st, rc, err))
		return -1;
	if (bn)
		json_object_set_new(
			out, "blocks",
			pr_jobj("count", pr_jnum(bn), "frames", pr_jnum(bframes), "compute_ns",
				pr_jnum(bns), "mean_ns", pr_jint(llround(bns / bn)),
				"first_block_ns", pr_jnum(first), "fps",
				bns > 0 ? pr_jnum(bframes / (bns / 1e9)) : json_null(), "bps",
				bns > 0 ? pr_jnum(bn / (bns / 1e9)) : json_null(), "rule",
				json_string(
					"fps = sum(block_size) / block compute s; bps = blocks / block compute s"),
				NULL));
	if (sn)
		json_object_set_new(
			out, "diffusion",
			pr_jobj("steps", pr_jnum(sn), "compute_ns", pr_jnum(sns), "mean_step_ns",
				pr_jint(llround(sns / sn)), "steps_per_s",
				sns > 0 ? pr_jnum(sn / (sns / 1e9)) : json_null(),
				"frame_steps_per_s",
				sns > 0 ? pr_jnum(sframes / (sns / 1e9)) : json_null(),
				"frames_per_s",
				bn && sns > 0 ? pr_jnum(bframes / (sns / 1e9)) : json_null(),
				"semantics",
				json_string(
					"steps_per_s = diffusion steps per second of step compute "
					"(what Inferix calls bps); frame_steps_per_s = sum of block_size "
					"over steps per second (Inferix's fps: a block's frames count once "
					"per denoising step); frames_per_s = frames of distinct blocks per "
					"second of step compute"),
				NULL));
	return 0;
}

void pr_throughput_publish_steps(struct pr_actx *ctx)
{
	struct pr_res_throughput *r = &pr_results(ctx)->throughput;
	const json_t *s = json_object_get(json_object_get(ctx->out, "throughput"), "steps"), *v;
	size_t i;
	r->steps_rule = pr_mstr(s, "rule");
	r->steps_p50_ns = pr_mnum(s, "p50_ns");
	r->stragglers = json_object_get(s, "stragglers");
	r->nstragglers = json_array_size(r->stragglers);
	free(r->x_median);
	r->x_median = pr_res_array(r->nstragglers, sizeof(*r->x_median));
	json_array_foreach (r->stragglers, i, v)
		r->x_median[i] = pr_mnum(v, "x_median");
}

/* What later analyzers read (results.h): blocks, diffusion steps, tokens, steps. */
static void publish(struct pr_actx *ctx, const json_t *out)
{
	struct pr_res_throughput *r = &pr_results(ctx)->throughput;
	const json_t *b = json_object_get(out, "blocks"), *d = json_object_get(out, "diffusion");
	const json_t *t = json_object_get(out, "tokens"), *secs = json_object_get(t, "sections");
	const json_t *v;
	size_t i;
	r->present = 1;
	r->blocks_count = pr_mnum(b, "count");
	r->blocks_frames = pr_mnum(b, "frames");
	r->blocks_first_ns = pr_mnum(b, "first_block_ns");
	r->blocks_fps = pr_mnum(b, "fps");
	r->blocks_bps = pr_mnum(b, "bps");
	r->diffusion_steps = pr_mnum(d, "steps");
	r->diffusion_steps_per_s = pr_mnum(d, "steps_per_s");
	r->diffusion_frames_per_s = pr_mnum(d, "frames_per_s");
	r->tokens_per_s = pr_mnum(t, "tokens_per_s");
	r->nsections = json_array_size(secs);
	r->sections = pr_res_array(r->nsections, sizeof(*r->sections));
	json_array_foreach (secs, i, v) {
		r->sections[i].section = pr_mstr(v, "section");
		r->sections[i].tokens_per_s = pr_mnum(v, "tokens_per_s");
		r->sections[i].reported_tokens_per_s = pr_mnum(v, "reported_tokens_per_s");
	}
	pr_throughput_publish_steps(ctx);
}

static int run(struct pr_actx *ctx, struct pr_error *err)
{
	const struct pr_spanstat *ss = pr_spanstat_get(ctx, err);
	json_t *out = json_object();
	json_object_set_new(ctx->out, "throughput", out);
	json_object_set_new(out, "steps",
			    pr_throughput_steps(ctx, ctx->steps, ctx->nsteps, HOST_BASIS));
	if (!ss)
		return -1;
	/* the queries only where the shared span pass saw their spans (each is a scan) */
	if (pr_spanstat_kind_count(ss, "section") && tokens(ctx, out, err))
		return -1;
	if ((pr_spanstat_kind_count(ss, "block") ||
	     pr_spanstat_count(ss, "step", "diffusion_step")) &&
	    blocks_and_diffusion(ctx, out, err))
		return -1;
	publish(ctx, out);
	return 0;
}

const struct pr_analyzer pr_an_throughput = {
	.name = "throughput",
	.summary =
		"step time stats and stragglers, tokens/s, FPS/BPS from blocks and diffusion steps",
	.run = run,
};
