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
 * Several runs on one side (a directory of ranks, several files) pool their
 * samples: all ranks' steps are the step samples.
 * A metric's value is the median of its samples for times, the maximum for
 * peaks, the mean otherwise.
 *
 * RULES (the asv rule)
 *   Thresholds by kind (pr_gate rules override; the last matching rule wins):
 *     time +5 %; memory +5 % AND +64 MiB (both must be exceeded);
 *     throughput -5 %; fragmentation +5 % AND +0.01;
 *     reported metrics: time/byte units as time/memory, "x/s" units as
 *     throughput, any other unit is not gated unless a rule names it.
 *   With >= 2 samples on both sides a two-sided Mann-Whitney U test
 *   (stats.h), the Hodges-Lehmann shift with its 95 % CI and a 95 %
 *   percentile-bootstrap CI of the ratio of medians (2000 resamples, seeded
 *   by the sample sizes, so reruns agree) are computed;
 *   beyond the threshold AND p < alpha is a regression (or an improvement,
 *   in the good direction); beyond the threshold but p >= alpha is "noise"
 *   (asv's '~'). With fewer samples the thresholds alone decide and the
 *   metric says "thresholds only".
 *   Noise floor: spans whose time is under noise_floor (1 %) of the run time
 *   on both sides, or whose value is under min_us on both sides, are not
 *   gated; they are listed in "below_noise_floor". Metrics matched by an
 *   ignore glob are listed in "ignored".
 *   Spans or phases on one side only are "added" / "removed" (never a
 *   regression by themselves).
 *
 * MARKS (asv compare): '+' regression, '-' improvement, '~' beyond the
 * threshold but not significant, 'x' added (not comparable), '!' removed
 * (missing in new), ' ' unchanged.
 *
 * OUTPUT {"schema": "profreport-compare", "version": 1,
 *   "base": {"runs": N, "labels": [...]}, "new": {...},
 *   "settings": {"alpha", "min_us", "noise_floor", "defaults": {...}, "fail_on": [...], "ignore": [...]},
 *   "summary": {"status": "pass"|"fail", "regressions", "improvements",
 *               "unchanged", "noise", "added", "removed", "below_noise_floor", "ignored", "metrics"},
 *   "metrics": [{"id", "group", "name", "kind", "unit", "better": "lower"|"higher",
 *               "base", "new", "delta", "ratio", "change" (delta / base), "n1", "n2",
 *               "test": {"method": "mann-whitney", "u", "p", "exact", "effect",
 *                        "cles", "hl_shift", "hl_ci": [lo, hi], "conf": 0.95,
 *                        "ratio_ci": [lo, hi]}
 *                       | {"method": "thresholds only", "reason"},
 *               "threshold": {"text", "rel", "abs", "source": "default"|spec},
 *               "verdict", "mark"}],
 *   "below_noise_floor": [{"id", "base", "new"}], "ignored": [id...]}
 * Values are in the metric's unit (ns, bytes, 1/s, fraction); null when absent.
 */
#ifndef PR_COMPARE_H
#define PR_COMPARE_H

#include <stddef.h>

#include <jansson.h>

#include "analyze/gate.h"
#include "store/error.h"

#define PR_COMPARE_SCHEMA "profreport-compare"
#define PR_COMPARE_VERSION 1

/* Defaults of the rules above. */
#define PR_COMPARE_TIME_REL 0.05
#define PR_COMPARE_MEM_REL 0.05
#define PR_COMPARE_MEM_ABS (64.0 * 1048576.0)
#define PR_COMPARE_TPUT_REL 0.05
#define PR_COMPARE_FRAG_REL 0.05
#define PR_COMPARE_FRAG_ABS 0.01
#define PR_COMPARE_BOOT 2000 /* bootstrap resamples for the ratio's CI */

/*
 * Compares two models (pr_model_build / pr_model_load). Returns a new
 * comparison, or NULL with err set (PR_E_FORMAT: not a model, no runs).
 */
json_t *pr_compare(const json_t *base, const json_t *newm, const struct pr_gate *gate,
		   struct pr_error *err);
/* Number of regressions in a comparison (its summary). */
size_t pr_compare_regressions(const json_t *cmp);

#endif
