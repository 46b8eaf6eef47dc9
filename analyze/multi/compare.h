/*
 * compare.h - two analysis models -> a comparison: what got slower, faster,
 * bigger or smaller, whether it is significant, and whether it fails the gate.
 *
 * USAGE
 *   struct pr_gate g; pr_gate_init(&g);            (gate.h: thresholds, ignores)
 *   json_t *c = pr_compare(base_model, new_model, &g, &err);
 *   n = pr_compare_regressions(c);                  (0 = the gate passes)
 *   render it (render/compare_text.h) or dump it (JSON); json_decref(c);
 *
 * OWNERSHIP: the models are borrowed (read only); the comparison is a new
 * reference, plain JSON, the input of every compare renderer.
 *
 * METRICS (id: what; samples for the test)
 *   step_time                  step duration; samples = every step of every run
 *   phase:NAME                 phase duration; samples = every occurrence
 *   span:NAME                  time of the spans of that name (all kinds but
 *                              steps and phases, which have their own metrics);
 *                              samples = per_step_ns when both sides have them
 *                              for the name, else one total per run
 *   throughput:tokens_per_s|fps|bps|steps_per_s   higher is better; one per run
 *   peak:SERIES                peak of a memory series (max over devices and
 *                              runs); samples = one peak per run and device
 *   fragmentation              mean reserved-allocated ratio; one per run and device
 *   reported:NAME              a metric a collector reported; one per run
 *   gpu:compute, gpu:communication, gpu:memory   GPU time in compute kernels,
 *                              in communication kernels not overlapped by
 *                              compute, in memcpy/memset (ns); samples = per
 *                              step (step_breakdown: Kernel, Communication,
 *                              Memcpy + Memset) when every run of both sides
 *                              has a step breakdown, else one total per run
 *                              (gpu_breakdown.rank, HTA's temporal breakdown)
 *   gpu:idle_share             GPU idle / time (share, lower is better); per
 *                              step: the step's time with no GPU op / the
 *                              step, else gpu_breakdown.rank idle / span
 *   gpu:overlap                communication kernel time overlapped by compute
 *                              / communication time (share, higher is better);
 *                              one per run with communication kernels
 * Several runs on one side (a directory of ranks, several files) pool their
 * samples: all ranks' steps are the step samples.
 * A metric's value is the median of its samples for times, the maximum for
 * peaks, the mean otherwise.
 *
 * RULES (the asv rule, with a fallback for short runs)
 *   Thresholds by kind (pr_gate rules override; the last matching rule wins):
 *     time +5 %; memory +5 % AND +64 MiB (both must be exceeded);
 *     throughput -5 %; fragmentation +5 % AND +0.01; GPU times as times
 *     (with the spans' noise floor); GPU shares by points, not a ratio:
 *     gpu:idle_share +5pp, gpu:overlap -5pp (PR_COMPARE_SHARE_ABS);
 *     reported metrics: time/byte units as time/memory, "x/s" units as
 *     throughput, any other unit is not gated unless a rule names it.
 *   Within the threshold: unchanged (rule "threshold"). Beyond it, the
 *   evidence decides, and the metric names the rule that did ("rule"):
 *   "mann-whitney"  both sides have >= 2 samples and the two-sided
 *                   Mann-Whitney U test (stats.h) can reach alpha with these
 *                   sample sizes (its smallest attainable p, the p of two
 *                   completely separated samples, "min_p", is < alpha):
 *                   p < alpha is a regression (an improvement in the good
 *                   direction), p >= alpha is "noise" (asv's '~').
 *   "bootstrap-ci"  both sides have >= 2 samples but min_p >= alpha (3 and 3
 *                   steps: 0.1; 4 and 4: 0.029; 3 and 5: 0.036 at alpha
 *                   0.01): the 95 % percentile-bootstrap CI of the ratio of
 *                   medians must lie wholly beyond the threshold (its end
 *                   nearest 1, read as a change from the base value, exceeds
 *                   every threshold), else "noise". Its false-positive rate
 *                   is measured by bench/gate_sim.c (docs/compare.md).
 *   "thresholds-only"  a side has one sample (a single run, one step) and
 *                   always for a memory peak (one value a side: the maximum
 *                   over runs and devices): the threshold alone decides.
 *   "consistent"    headline metrics (step_time, throughput:*, peak:*,
 *                   gpu:idle_share) are never "noise": when the rule above
 *                   leaves one "noise", the change beyond the threshold
 *                   (|new - base| minus the threshold in the metric's unit)
 *                   larger than PR_COMPARE_SPREAD_K (4) x the runs' spread
 *                   (1.4826 x the median absolute deviation of the samples
 *                   from their own side's median, both sides pooled, the
 *                   median sample of an odd side left out) is a regression
 *                   (an improvement), anything less "inconclusive" ('?', a
 *                   pass). Measured by bench/gate_sim.c (docs/compare.md).
 *   Every test with >= 2 samples per side also reports the Hodges-Lehmann
 *   shift with its 95 % CI, the ratio's bootstrap CI (2000 resamples,
 *   seeded by the sample sizes, so reruns agree) and "separated" (every new
 *   sample above / below every base sample).
 *   Noise floor: spans whose time is under noise_floor (1 %) of the run time
 *   on both sides, or whose value is under min_us on both sides, are not
 *   gated; they are listed in "below_noise_floor". Metrics matched by an
 *   ignore glob are listed in "ignored".
 *   Presence (rule "presence"): a key metric of BASE (step_time, phase:*,
 *   peak:*, throughput:*) absent in NEW is "missing", a failure like a
 *   regression; so is every gpu:* metric of BASE when NEW has no GPU op at
 *   all (a GPU run compared with a CPU-only one: the GPU can no longer be
 *   checked); gpu:overlap of BASE when NEW has GPU ops but no communication
 *   kernel is "removed". Other metrics on one side only are "added" / "removed"
 *   (reported, not failures). No metric on both sides at all (a trace
 *   against a memory CSV) is an error (PR_E_FORMAT).
 *   Calls per step (spans, when every run of both sides has steps): calls
 *   summed over runs / steps summed over runs; a change of >= 0.5 calls per
 *   step makes an otherwise unchanged or "noise" span "calls changed" (a
 *   reported change, not a failure); "calls" is reported either way (0 on
 *   the side a span is missing from). Presence and count changes are
 *   verdicts whatever the size: a span on one side only, or whose calls per
 *   step changed, is never put below the noise floor (one under the floor
 *   is "calls changed", never judged on its time).
 *   Warnings (the CLI prints them; --strict makes them errors): a fail_on
 *   rule that applies to no metric of either side, an ignore glob that
 *   matches none.
 *
 * INPUT CHECKS (pr_compare_check_side; pr_compare runs them on both sides):
 * a side the gate cannot judge is an error (PR_E_FORMAT, exit 2), never a
 * pass and never a regression (exit 1 says NEW is worse; here nothing can
 * be said, and a broken BASE would blame NEW):
 *   - a value compare reads that is not a measurement: a step, phase
 *     occurrence, span total, call count or per_step_ns entry that is not a
 *     number >= 0 (null, negative, a string), a negative memory peak or
 *     throughput; the message names its path ("runs[0].spans.items[3].
 *     per_step_ns[2] is null"). Rates, peaks, ratios and reported values
 *     may be null (not measured; the model writes null for those).
 *   - a step of 0 ns (events without "dur": ingest takes them as 0).
 *   - an ingest diagnostic on a run that means data was dropped or made up
 *     (pr_compare_diag_class: PR_CMP_DIAG_LOST, e.g. bad_duration,
 *     negative_duration, truncated, bad_timestamp, unclosed_span, csv rows
 *     skipped), or one this version does not know. Diagnostics that only
 *     note something (unsorted_track, overlapping_spans, a collector quirk,
 *     an assumed time zone) are no error.
 *   - no metric at all on a side (an empty trace: "NEW has no metrics").
 * After the comparison, no gated metric judged (every metric ignored, below
 * the noise floor, on one side only or not gated) is an error too
 * ("nothing compared").
 *
 * MARKS (asv compare): '+' regression, '-' improvement, '~' beyond the
 * threshold but not significant, '?' inconclusive (a headline metric), 'x'
 * added (not comparable), '!' removed or missing (missing in new), '#' calls
 * per step changed, ' ' unchanged.
 *
 * OUTPUT {"schema": "profreport-compare", "version": 1,
 *   "base": {"runs": N, "labels": [...]}, "new": {...},
 *   "settings": {"alpha", "min_us", "noise_floor", "defaults": {...}, "fail_on": [...], "ignore": [...]},
 *   "summary": {"status": "pass"|"fail", "regressions", "missing", "inconclusive",
 *               "improvements",
 *               "calls_changed", "unchanged", "noise", "added", "removed",
 *               "below_noise_floor", "ignored", "metrics"},
 *   "metrics": [{"id", "group", "name", "kind", "unit", "better": "lower"|"higher",
 *               "base", "new", "delta", "ratio", "change" (delta / base), "n1", "n2",
 *               "test": {"method": "mann-whitney", "u", "p", "exact", "effect",
 *                        "cles", "min_p", "reaches_alpha", "separated":
 *                        "above"|"below"|"no", "hl_shift", "hl_ci": [lo, hi],
 *                        "conf": 0.95, "ratio_ci": [lo, hi]}
 *                       | {"method": "thresholds only", "reason"},
 *               "threshold": {"text", "rel", "abs", "source": "default"|spec},
 *               "calls": {"base", "new", "changed"} (spans with steps on both sides),
 *               "verdict", "mark", "rule", "why" (one sentence)}],
 *   "below_noise_floor": [{"id", "base", "new"}], "ignored": [id...],
 *   "warnings": [text...]}
 * Values are in the metric's unit (ns, bytes, 1/s, fraction); null when absent.
 */
#ifndef PR_COMPARE_H
#define PR_COMPARE_H

#include <stddef.h>

#include <jansson.h>

#include "analyze/multi/gate.h"
#include "base/error.h"

#define PR_COMPARE_SCHEMA "profreport-compare"
#define PR_COMPARE_VERSION 1

/* Defaults of the rules above. */
#define PR_COMPARE_TIME_REL 0.05
#define PR_COMPARE_MEM_REL 0.05
#define PR_COMPARE_MEM_ABS (64.0 * 1048576.0)
#define PR_COMPARE_TPUT_REL 0.05
#define PR_COMPARE_FRAG_REL 0.05
#define PR_COMPARE_FRAG_ABS 0.01
/* GPU shares (idle, overlap): 5 percentage points of the share, no ratio */
#define PR_COMPARE_SHARE_ABS 0.05
#define PR_COMPARE_BOOT 2000 /* bootstrap resamples for the ratio's CI */

#define PR_COMPARE_CALLS_DELTA 0.5 /* calls per step: a change this large is reported */

/*
 * Compares two models (pr_model_build / pr_model_load). Returns a new
 * comparison, or NULL with err set (PR_E_FORMAT: not a model, no runs, a
 * side that fails the INPUT CHECKS, no metric on both sides, or nothing
 * compared).
 */
json_t *pr_compare(const json_t *base, const json_t *newm, const struct pr_gate *gate,
		   struct pr_error *err);
/*
 * The input checks above for one side (side names it in messages: "BASE",
 * "NEW"). Returns 0, or -1 with PR_E_FORMAT.
 */
int pr_compare_check_side(const json_t *model, const char *side,
			  struct pr_error *err) PR_MUST_CHECK;

/* What an ingest diagnostic code means for the gate. */
enum pr_cmp_diag {
	PR_CMP_DIAG_UNKNOWN, /* not a code of this version: treated as LOST */
	PR_CMP_DIAG_LOST,    /* data dropped or made up: the side is an error */
	PR_CMP_DIAG_NOTE,    /* data kept as measured: no effect on the gate */
};
enum pr_cmp_diag pr_compare_diag_class(const char *code);

/* Number of regressions in a comparison (its summary). */
size_t pr_compare_regressions(const json_t *cmp);
/* Number of failures: regressions plus key metrics missing in NEW (0 = the gate passes). */
size_t pr_compare_failures(const json_t *cmp);

/* ---- One metric's verdict (the RULES above), also used by bench/gate_sim.c ---- */

enum pr_cmp_verdict {
	PR_CMP_UNCHANGED,
	PR_CMP_REGRESSION,
	PR_CMP_IMPROVEMENT,
	PR_CMP_NOISE,
	PR_CMP_INCONCLUSIVE, /* a key metric beyond its threshold that no rule confirms */
};
enum pr_cmp_rule {
	PR_CMP_RULE_THRESHOLD,	     /* within the threshold */
	PR_CMP_RULE_MWU,	     /* Mann-Whitney p against alpha */
	PR_CMP_RULE_BOOTSTRAP,	     /* short samples: the ratio's bootstrap CI */
	PR_CMP_RULE_THRESHOLDS_ONLY, /* a side has one sample */
	PR_CMP_RULE_CONSISTENT,	     /* key metrics: the change beyond the threshold by K spreads */
};

/* A threshold in the metric's own unit: dir +1 = an increase is bad. */
struct pr_cmp_threshold {
	int dir, has_rel, has_abs;
	double rel, abs;
	int key; /* a key metric: beyond the threshold is never "noise" (RULES) */
};

/* The consistent rule: the change beyond the threshold must exceed this many spreads. */
#define PR_COMPARE_SPREAD_K 4.0

struct pr_cmp_decision {
	enum pr_cmp_verdict verdict;
	enum pr_cmp_rule rule;
	int beyond;	   /* +1 / -1: the change exceeds the threshold upwards / downwards; 0 */
	int tested;	   /* the Mann-Whitney test ran (>= 2 samples a side) */
	double p, min_p;   /* its p and the smallest p attainable with these sizes (NAN untested) */
	int reaches_alpha; /* min_p < alpha */
	int separated;	   /* +1 every new sample above every base one, -1 below, 0 neither */
	int has_ci;	   /* ci_lo, ci_hi: 95 % bootstrap CI of median(new) / median(base) */
	double ci_lo, ci_hi;
	/* key metrics the tests left unconfirmed: |new - base| minus the threshold, and the
	 * runs' spread (1.4826 x the median absolute deviation of each sample from its own
	 * side's median, both sides pooled); NAN when not computed */
	double excess, spread;
};

/*
 * The verdict of one metric: base and newv are its values (the aggregates),
 * a[0..na) and b[0..nb) its samples. The bootstrap CI is computed when the
 * rule needs it, or always when want_ci (for reports). Pure; allocates
 * only temporaries.
 */
void pr_compare_decide(const double *a, size_t na, const double *b, size_t nb, double base,
		       double newv, const struct pr_cmp_threshold *t, double alpha, int want_ci,
		       struct pr_cmp_decision *d);
/* Smallest two-sided Mann-Whitney p attainable with n1 and n2 samples (no ties). */
double pr_compare_min_p(size_t n1, size_t n2);

#endif
