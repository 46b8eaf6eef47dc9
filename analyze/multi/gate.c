/* gate.c - compare's thresholds, ignores and config file (see gate.h). */
#include "analyze/multi/gate.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void pr_gate_init(struct pr_gate *g)
{
	memset(g, 0, sizeof(*g));
	g->alpha = PR_GATE_ALPHA;
	g->min_us = PR_GATE_MIN_US;
	g->noise_floor = PR_GATE_NOISE_FLOOR;
}

void pr_gate_rule_release(struct pr_gate_rule *r)
{
	if (!r)
		return;
	free(r->pattern);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

void pr_gate_release(struct pr_gate *g)
{
	size_t i;
	if (!g)
		return;
	for (i = 0; i < g->nrules; i++)
		pr_gate_rule_release(&g->rules[i]);
	free(g->rules);
	for (i = 0; i < g->nignore; i++)
		free(g->ignore[i]);
	free(g->ignore);
	pr_gate_init(g);
}

static const struct {
	const char *name;
	double factor;
	enum pr_gate_unit unit;
} units[] = {
	{ "ns", 1.0, PR_GATE_NS },
	{ "us", 1e3, PR_GATE_NS },
	{ "ms", 1e6, PR_GATE_NS },
	{ "s", 1e9, PR_GATE_NS },
	{ "B", 1.0, PR_GATE_BYTES },
	{ "KiB", 1024.0, PR_GATE_BYTES },
	{ "MiB", 1048576.0, PR_GATE_BYTES },
	{ "GiB", 1073741824.0, PR_GATE_BYTES },
	{ "TiB", 1099511627776.0, PR_GATE_BYTES },
	{ "KB", 1024.0, PR_GATE_BYTES },
	{ "MB", 1048576.0, PR_GATE_BYTES },
	{ "GB", 1073741824.0, PR_GATE_BYTES },
	/* percentage points of a share (a fraction): +5pp = +0.05 */
	{ "pp", 0.01, PR_GATE_SHARE },
};

/* One "+5%" / "-64MiB" / "+2ms" term of a spec. */
static int parse_term(const char *spec, const char *t, size_t len, struct pr_gate_rule *r,
		      struct pr_error *err)
{
	char buf[64], *end;
	int dir;
	double v;
	size_t i;
	if (len == 0 || len >= sizeof(buf) || (t[0] != '+' && t[0] != '-'))
		return pr_error_set(
			err, PR_E_USAGE,
			"bad --fail-on '%s': a threshold starts with '+' or '-' (e.g. +5%%)", spec);
	memcpy(buf, t, len);
	buf[len] = '\0';
	dir = buf[0] == '+' ? 1 : -1;
	errno = 0;
	v = strtod(buf + 1, &end);
	if (end == buf + 1 || errno || !isfinite(v) || v <= 0 || buf[1] == '+' || buf[1] == '-')
		return pr_error_set(err, PR_E_USAGE,
				    "bad --fail-on '%s': '%s' is not a positive number with a unit",
				    spec, buf);
	if (r->has_rel || r->has_abs) {
		if (r->dir != dir)
			return pr_error_set(
				err, PR_E_USAGE,
				"bad --fail-on '%s': both thresholds need the same sign", spec);
	}
	r->dir = dir;
	if (!strcmp(end, "%")) {
		if (r->has_rel)
			return pr_error_set(err, PR_E_USAGE,
					    "bad --fail-on '%s': two relative thresholds", spec);
		r->has_rel = 1;
		r->rel = v / 100.0;
		return 0;
	}
	if (r->has_abs)
		return pr_error_set(err, PR_E_USAGE, "bad --fail-on '%s': two absolute thresholds",
				    spec);
	r->has_abs = 1;
	if (!*end) {
		r->abs = v;
		r->abs_unit = PR_GATE_PLAIN;
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (!strcmp(end, units[i].name)) {
			r->abs = v * units[i].factor;
			r->abs_unit = units[i].unit;
			return 0;
		}
	}
	return pr_error_set(
		err, PR_E_USAGE,
		"bad --fail-on '%s': unknown unit '%s' (%%, ns, us, ms, s, B, KiB, MiB, GiB, "
		"pp)",
		spec, end);
}

/* Metric classes: ids that stand alone, and prefixes of "CLASS:NAME" ids. */
static const char *const bare_ids[] = { "step_time", "fragmentation" };
static const char *const classes[] = { "phase",	   "span", "throughput", "peak",
				       "reported", "gpu",  "perf",	 "tflops" };
static const char *const gpus[] = { "compute", "communication", "memory", "idle_share", "overlap" };
static const char *const throughputs[] = { "tokens_per_s", "fps", "bps", "steps_per_s" };

static int has_glob(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[' || s[i] == '\\')
			return 1;
	return 0;
}

static int in_list(const char *s, size_t n, const char *const *list, size_t nlist)
{
	size_t i;
	for (i = 0; i < nlist; i++)
		if (strlen(list[i]) == n && !strncmp(s, list[i], n))
			return 1;
	return 0;
}

/* 1 when pattern (METRIC of a spec) can select some metric id; globs always can. */
static int known_metric(const char *pat, size_t len)
{
	const char *colon = memchr(pat, ':', len);
	size_t cl = colon ? (size_t)(colon - pat) : len;
	if (has_glob(pat, cl))
		return 1;
	if (!colon)
		return in_list(pat, cl, bare_ids, 2) || in_list(pat, cl, classes, 8);
	if (!in_list(pat, cl, classes, 8))
		return 0;
	if (cl == strlen("throughput") && !strncmp(pat, "throughput", cl) &&
	    !has_glob(colon + 1, len - cl - 1))
		return in_list(colon + 1, len - cl - 1, throughputs, 4);
	if (cl == strlen("gpu") && !strncmp(pat, "gpu", cl) && !has_glob(colon + 1, len - cl - 1))
		return in_list(colon + 1, len - cl - 1, gpus, 5);
	return len > cl + 1; /* "span:" alone names nothing */
}

int pr_gate_parse_rule(const char *spec, struct pr_gate_rule *out, struct pr_error *err)
{
	const char *colon = strrchr(spec, ':'), *t, *comma;
	memset(out, 0, sizeof(*out));
	if (!colon || colon == spec)
		return pr_error_set(
			err, PR_E_USAGE,
			"bad --fail-on '%s': expected METRIC:THRESHOLD (e.g. step_time:+3%%)",
			spec);
	t = colon + 1;
	comma = strchr(t, ',');
	if (parse_term(spec, t, comma ? (size_t)(comma - t) : strlen(t), out, err) ||
	    (comma && parse_term(spec, comma + 1, strlen(comma + 1), out, err))) {
		pr_gate_rule_release(out);
		return -1;
	}
	if (!known_metric(spec, (size_t)(colon - spec))) {
		pr_gate_rule_release(out);
		return pr_error_set(
			err, PR_E_USAGE,
			"bad --fail-on '%s': unknown metric '%.*s' (step_time, phase:NAME, "
			"span:NAME, peak:SERIES, fragmentation, throughput:tokens_per_s|fps|"
			"bps|steps_per_s, reported:NAME, gpu:compute|communication|memory|"
			"idle_share|overlap, perf:CATEGORY, tflops:OP, or a glob)",
			spec, (int)(colon - spec), spec);
	}
	out->pattern = pr_xstrndup(spec, (size_t)(colon - spec));
	out->text = pr_xstrdup(spec);
	return 0;
}

int pr_gate_add_fail_on(struct pr_gate *g, const char *spec, struct pr_error *err)
{
	struct pr_gate_rule r;
	if (pr_gate_parse_rule(spec, &r, err))
		return -1;
	if (g->nrules == g->arules) {
		g->arules = g->arules ? 2 * g->arules : 8;
		g->rules = pr_xreallocarray(g->rules, g->arules, sizeof(*g->rules));
	}
	g->rules[g->nrules++] = r;
	return 0;
}

int pr_gate_add_ignore(struct pr_gate *g, const char *glob, struct pr_error *err)
{
	if (!glob[0])
		return pr_error_set(err, PR_E_USAGE, "--ignore needs a non-empty glob");
	if (g->nignore == g->aignore) {
		g->aignore = g->aignore ? 2 * g->aignore : 8;
		g->ignore = pr_xreallocarray(g->ignore, g->aignore, sizeof(*g->ignore));
	}
	g->ignore[g->nignore++] = pr_xstrdup(glob);
	return 0;
}

static int parse_double(const char *text, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(text, &end);
	return end == text || *end || errno || !isfinite(*out) ? -1 : 0;
}

int pr_gate_set_alpha(struct pr_gate *g, const char *text, struct pr_error *err)
{
	double v;
	if (parse_double(text, &v) || !(v > 0 && v < 1))
		return pr_error_set(err, PR_E_USAGE,
				    "--alpha needs a number between 0 and 1, not '%s'", text);
	g->alpha = v;
	return 0;
}

int pr_gate_set_min_us(struct pr_gate *g, const char *text, struct pr_error *err)
{
	double v;
	if (parse_double(text, &v) || v < 0)
		return pr_error_set(err, PR_E_USAGE,
				    "--min-us needs a number of microseconds >= 0, not '%s'", text);
	g->min_us = v;
	return 0;
}

static int config_number(const json_t *v, const char *key, const char *source, double lo, double hi,
			 double *out, struct pr_error *err)
{
	double d;
	if (!json_is_number(v))
		return pr_error_set(err, PR_E_USAGE, "'%s': \"%s\" must be a number", source, key);
	d = json_number_value(v);
	if (!(d >= lo && d <= hi))
		return pr_error_set(err, PR_E_USAGE, "'%s': \"%s\" must be in [%g, %g]", source,
				    key, lo, hi);
	*out = d;
	return 0;
}

static int config_strings(const json_t *v, const char *key, const char *source, struct pr_gate *g,
			  int fail_on, struct pr_error *err)
{
	size_t i;
	json_t *s;
	if (!json_is_array(v))
		return pr_error_set(err, PR_E_USAGE, "'%s': \"%s\" must be an array of strings",
				    source, key);
	json_array_foreach (v, i, s) {
		if (!json_is_string(s))
			return pr_error_set(err, PR_E_USAGE,
					    "'%s': \"%s\" must be an array of strings", source,
					    key);
		if (fail_on ? pr_gate_add_fail_on(g, json_string_value(s), err)
			    : pr_gate_add_ignore(g, json_string_value(s), err)) {
			char text[sizeof(err->text)];
			snprintf(text, sizeof(text), "%s", err->text);
			return pr_error_set(err, PR_E_USAGE, "'%s': %s", source, text);
		}
	}
	return 0;
}

int pr_gate_config(struct pr_gate *g, const json_t *cfg, const char *source, struct pr_error *err)
{
	const char *key;
	json_t *v;
	if (!json_is_object(cfg))
		return pr_error_set(err, PR_E_USAGE, "'%s': the gate config must be a JSON object",
				    source);
	json_object_foreach ((json_t *)cfg, key, v) {
		int rc;
		if (!strcmp(key, "alpha"))
			rc = config_number(v, key, source, 1e-300, 0.999999, &g->alpha, err);
		else if (!strcmp(key, "min_us"))
			rc = config_number(v, key, source, 0, 1e15, &g->min_us, err);
		else if (!strcmp(key, "noise_floor"))
			rc = config_number(v, key, source, 0, 1, &g->noise_floor, err);
		else if (!strcmp(key, "fail_on"))
			rc = config_strings(v, key, source, g, 1, err);
		else if (!strcmp(key, "ignore"))
			rc = config_strings(v, key, source, g, 0, err);
		else if (!strcmp(key, "strict") && json_is_boolean(v))
			g->strict = json_is_true(v), rc = 0;
		else if (!strcmp(key, "strict"))
			rc = pr_error_set(err, PR_E_USAGE, "'%s': \"strict\" must be true or false",
					  source);
		else
			rc = pr_error_set(
				err, PR_E_USAGE,
				"'%s': unknown key \"%s\" (alpha, min_us, noise_floor, fail_on, "
				"ignore, strict)",
				source, key);
		if (rc)
			return -1;
	}
	return 0;
}

int pr_gate_load_config(struct pr_gate *g, const char *path, struct pr_error *err)
{
	json_error_t je;
	json_t *cfg = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	int rc;
	if (!cfg) {
		FILE *f = fopen(path, "rb");
		if (!f)
			return pr_error_set(err, PR_E_IO, "cannot read the gate config '%s'", path);
		fclose(f);
		return pr_error_at(err, PR_E_PARSE, -1, je.line > 0 ? je.line : 0,
				   je.column > 0 ? je.column : 0, "gate config '%s': %s", path,
				   je.text);
	}
	rc = pr_gate_config(g, cfg, path, err);
	json_decref(cfg);
	return rc;
}

int pr_gate_rule_matches(const struct pr_gate_rule *r, const char *id)
{
	size_t n = strlen(r->pattern);
	if (!fnmatch(r->pattern, id, 0))
		return 1;
	return !strncmp(id, r->pattern, n) && id[n] == ':';
}

int pr_gate_glob_matches(const char *glob, const char *name, const char *id)
{
	return !fnmatch(glob, name, 0) || !fnmatch(glob, id, 0);
}

int pr_gate_ignored(const struct pr_gate *g, const char *name, const char *id)
{
	size_t i;
	for (i = 0; i < g->nignore; i++)
		if (pr_gate_glob_matches(g->ignore[i], name, id))
			return 1;
	return 0;
}

static void abs_text(double v, enum pr_gate_unit unit, char *buf, size_t n)
{
	if (unit == PR_GATE_BYTES) {
		if (v >= 1073741824.0 && fmod(v, 1073741824.0) == 0)
			snprintf(buf, n, "%gGiB", v / 1073741824.0);
		else if (v >= 1048576.0)
			snprintf(buf, n, "%gMiB", v / 1048576.0);
		else if (v >= 1024.0)
			snprintf(buf, n, "%gKiB", v / 1024.0);
		else
			snprintf(buf, n, "%gB", v);
	} else if (unit == PR_GATE_NS) {
		if (v >= 1e9)
			snprintf(buf, n, "%gs", v / 1e9);
		else if (v >= 1e6)
			snprintf(buf, n, "%gms", v / 1e6);
		else if (v >= 1e3)
			snprintf(buf, n, "%gus", v / 1e3);
		else
			snprintf(buf, n, "%gns", v);
	} else if (unit == PR_GATE_SHARE) {
		snprintf(buf, n, "%gpp", v * 100.0);
	} else {
		snprintf(buf, n, "%g", v);
	}
}

void pr_gate_threshold_text(int dir, int has_rel, double rel, int has_abs, double abs,
			    enum pr_gate_unit unit, char *buf, size_t n)
{
	char a[48];
	char s = dir < 0 ? '-' : '+';
	abs_text(abs, unit, a, sizeof(a));
	if (has_rel && has_abs)
		snprintf(buf, n, "%c%g%% and %c%s", s, rel * 100.0, s, a);
	else if (has_rel)
		snprintf(buf, n, "%c%g%%", s, rel * 100.0);
	else if (has_abs)
		snprintf(buf, n, "%c%s", s, a);
	else
		snprintf(buf, n, "none");
}
