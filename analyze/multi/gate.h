/*
 * gate.h - the settings of `profreport compare`: thresholds, ignores,
 * significance level and noise floor, from the command line or a config file.
 *
 * USAGE
 *   struct pr_gate g;
 *   pr_gate_init(&g);
 *   pr_gate_load_config(&g, "gate.json", &err);     (optional, first)
 *   pr_gate_add_fail_on(&g, "step_time:+3%", &err);  (repeatable)
 *   pr_gate_add_ignore(&g, "aten::copy_*", &err);    (repeatable)
 *   ... pr_compare(base, new, &g, &err) ...
 *   pr_gate_release(&g);
 *
 * FAIL-ON SPECS  METRIC:THRESHOLD[,THRESHOLD]
 *   METRIC is split from the thresholds at the last ':'. It is an fnmatch(3)
 *   glob over metric ids (step_time, phase:NAME, span:NAME, peak:SERIES,
 *   fragmentation, throughput:tokens_per_s|fps|bps|steps_per_s,
 *   reported:NAME, gpu:compute|communication|memory|idle_share|overlap,
 *   perf:CATEGORY, tflops:OP)
 *   or a class prefix: "throughput" matches every
 *   "throughput:..." id, "span" every span, "peak" every peak.
 *   THRESHOLD is a sign and a number with a unit: '+' means an increase is
 *   bad, '-' a decrease. '%' is relative to the base value; ns/us/ms/s are
 *   absolute times; B/KiB/MiB/GiB/TiB (and KB/MB/GB, the same powers of two)
 *   absolute bytes; pp are percentage points of a share (gpu:idle_share,
 *   gpu:overlap: "+3pp" = 0.03 of the GPU span), which apply to shares only;
 *   no unit is an absolute number in the metric's own unit.
 *   Two thresholds joined by ',' must both be exceeded (e.g. "+5%,+64MiB").
 *   An absolute threshold only applies to metrics of its unit (a byte
 *   threshold never gates a time). The last matching rule wins, so command
 *   line rules (added after the config file) override the config's.
 *   Examples: step_time:+3%  peak:dev.mem.allocated:+256MiB  throughput:-5%
 *   A METRIC that can select no id (an unknown class such as "step_tme" or
 *   "spans:x", a throughput other than the four, a bare "span:") is a usage
 *   error; one that selects nothing in the inputs at hand is a warning of
 *   pr_compare ("warnings"), an error with strict.
 *
 * IGNORE GLOBS are fnmatch(3) patterns matched against a metric's name (the
 * span or phase name, e.g. 'aten::copy_*') and against its id.
 *
 * CONFIG FILE (JSON object; every key optional, unknown keys are errors):
 *   { "alpha": 0.01, "min_us": 10, "noise_floor": 0.01, "strict": false,
 *     "fail_on": ["step_time:+3%", "peak:*:+5%,+256MiB"],
 *     "ignore": ["aten::copy_*", "cudaLaunchKernel"] }
 *
 * OWNERSHIP: the gate owns copies of every string it was given.
 * ERRORS: a bad spec, value or file sets PR_E_USAGE (bad value) or PR_E_IO /
 * PR_E_PARSE (config file) with one line of text and returns -1.
 */
#ifndef PR_GATE_H
#define PR_GATE_H

#include <stddef.h>

#include <jansson.h>

#include "base/error.h"

/* What an absolute threshold is measured in. */
enum pr_gate_unit {
	PR_GATE_PLAIN = 0, /* the metric's own unit */
	PR_GATE_NS,	   /* a time (ns) */
	PR_GATE_BYTES,	   /* a size (bytes) */
	PR_GATE_SHARE,	   /* percentage points of a share ("pp"; stored as a fraction) */
};

struct pr_gate_rule {
	char *pattern; /* glob or class prefix */
	char *text;    /* the spec as given, for reports */
	int dir;       /* +1: an increase is bad; -1: a decrease is bad */
	int has_rel, has_abs;
	double rel; /* fraction, > 0 (0.03 = 3 %) */
	double abs; /* > 0, in abs_unit */
	enum pr_gate_unit abs_unit;
};

struct pr_gate {
	double alpha;	    /* significance level of the Mann-Whitney test (0.01) */
	double min_us;	    /* span noise floor, absolute (10 us) */
	double noise_floor; /* span noise floor, share of run time (0.01) */
	struct pr_gate_rule *rules;
	size_t nrules, arules;
	char **ignore;
	size_t nignore, aignore;
	int strict; /* compare's warnings (rules or globs selecting nothing) are errors */
};

#define PR_GATE_ALPHA 0.01
#define PR_GATE_MIN_US 10.0
#define PR_GATE_NOISE_FLOOR 0.01

/* Defaults (alpha 0.01, min_us 10, noise floor 1 %), no rules, no ignores. */
void pr_gate_init(struct pr_gate *g);
/* Frees the rules and globs; the gate is then as after pr_gate_init. NULL is fine. */
void pr_gate_release(struct pr_gate *g);

/* Parses one METRIC:THRESHOLD[,THRESHOLD] spec into *out (caller releases with pr_gate_rule_release). */
int pr_gate_parse_rule(const char *spec, struct pr_gate_rule *out,
		       struct pr_error *err) PR_MUST_CHECK;
void pr_gate_rule_release(struct pr_gate_rule *r);

int pr_gate_add_fail_on(struct pr_gate *g, const char *spec, struct pr_error *err) PR_MUST_CHECK;
int pr_gate_add_ignore(struct pr_gate *g, const char *glob, struct pr_error *err) PR_MUST_CHECK;
/* --alpha P: 0 < P < 1. */
int pr_gate_set_alpha(struct pr_gate *g, const char *text, struct pr_error *err) PR_MUST_CHECK;
/* --min-us N: N >= 0 (a decimal number of microseconds). */
int pr_gate_set_min_us(struct pr_gate *g, const char *text, struct pr_error *err) PR_MUST_CHECK;

/* Applies a parsed config object (schema above); source names it in errors. */
int pr_gate_config(struct pr_gate *g, const json_t *cfg, const char *source,
		   struct pr_error *err) PR_MUST_CHECK;
/* Reads a config file and applies it. */
int pr_gate_load_config(struct pr_gate *g, const char *path, struct pr_error *err) PR_MUST_CHECK;

/* 1 when the rule's pattern selects metric id. */
int pr_gate_rule_matches(const struct pr_gate_rule *r, const char *id);
/* 1 when an ignore glob matches name or id. */
int pr_gate_ignored(const struct pr_gate *g, const char *name, const char *id);
/* 1 when glob (fnmatch) matches name or id. */
int pr_gate_glob_matches(const char *glob, const char *name, const char *id);
/* "+5%", "+64MiB", "+5% and +64MiB" for reports. */
void pr_gate_threshold_text(int dir, int has_rel, double rel, int has_abs, double abs,
			    enum pr_gate_unit unit, char *buf, size_t n);

#endif
