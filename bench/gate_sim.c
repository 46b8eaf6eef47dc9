/*
 * gate_sim.c - false-positive rate and power of compare's verdict rules on
 * short runs, by simulation (the numbers in README's `profreport compare`).
 *
 *   gate_sim [--trials N] [--power-trials N] [--threshold PCT] [--seed S]
 *
 * Each trial draws n step times per side and asks pr_compare_decide (the
 * very function `profreport compare` uses) for the verdict of a time
 * metric with the threshold (+5 % unless --threshold) at alpha 0.01, the
 * values being the medians of the samples, as for step_time.
 *   noise:  step = 1 + cv * N(0, 1) (Gaussian, coefficient of variation cv);
 *           "spiky": cv 3 % plus, with probability 0.1, a hiccup of
 *           U(+20 %, +60 %) on that step (a GC pause, a data-loader stall).
 *   H0:     both sides from the same distribution; a regression verdict is a
 *           false positive (the rate at which identical code fails the gate).
 *   power:  NEW's steps multiplied by 1.1, 1.2, 1.4 or 1.5; the rate of
 *           regression verdicts.
 * Each draw is decided twice: as a span (the test's verdict) and as a
 * headline metric (step_time: threshold.key, the consistent rule that fails
 * a change beyond the threshold by more than 4 x the runs' spread and
 * calls the rest inconclusive); the table gives false positives, the
 * headline metric's inconclusive rate and the power of both. It also
 * counts, on the same draws, the rule "gate or complete separation" (beyond
 * the threshold and every NEW sample above every BASE sample), to show why
 * separation alone was not taken. --threshold sets the time threshold
 * (default 5 %; the numbers of docs/compare.md are at 5 and 10).
 * Deterministic: splitmix64 from --seed, Box-Muller normals; the output is
 * a pure function of the arguments.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/multi/compare.h"
#include "base/stats.h"

static uint64_t rng_state;

static double uniform(void) /* (0, 1) */
{
	return pr_rand_uniform(&rng_state);
}

static double normal(void)
{
	return pr_rand_normal(&rng_state);
}

struct noise {
	const char *name;
	double cv;
	int spiky;
};

static void draw(double *v, size_t n, const struct noise *z, double scale)
{
	size_t i;
	for (i = 0; i < n; i++) {
		double x = 1.0 + z->cv * normal();
		if (z->spiky && uniform() < 0.1)
			x *= 1.2 + 0.4 * uniform();
		v[i] = scale * x;
	}
}

static double median(const double *v, size_t n)
{
	double c[16];
	size_t i, j;
	memcpy(c, v, n * sizeof(*c));
	for (i = 1; i < n; i++) /* insertion sort: n <= 16 */
		for (j = i; j > 0 && c[j - 1] > c[j]; j--) {
			double t = c[j];
			c[j] = c[j - 1];
			c[j - 1] = t;
		}
	return n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
}

struct rates {
	double reg;	/* regression verdicts, a span's rule (no key-metric fallback) */
	double sep;	/* ... or complete separation beyond the threshold */
	double key;	/* regression verdicts of a key metric (step_time): with the fallback */
	double inconcl; /* inconclusive verdicts of a key metric */
};

static double thr_rel = 0.05;

/* Rates over trials draws of n steps a side, NEW scaled by scale. */
static void run(size_t n, const struct noise *z, double scale, long trials, struct rates *out)
{
	struct pr_cmp_threshold t = { 1, 1, 0, 0.05, 0, 0 }, tk;
	double a[16], b[16];
	long i, hit = 0, hit_sep = 0, hit_key = 0, inc = 0;
	t.rel = thr_rel;
	tk = t;
	tk.key = 1;
	for (i = 0; i < trials; i++) {
		struct pr_cmp_decision d, dk;
		int reg;
		draw(a, n, z, 1.0);
		draw(b, n, z, scale);
		pr_compare_decide(a, n, b, n, median(a, n), median(b, n), &t, 0.01, 0, &d);
		pr_compare_decide(a, n, b, n, median(a, n), median(b, n), &tk, 0.01, 0, &dk);
		reg = d.verdict == PR_CMP_REGRESSION;
		hit += reg;
		hit_sep +=
			reg || (d.rule == PR_CMP_RULE_BOOTSTRAP && d.beyond > 0 && d.separated > 0);
		hit_key += dk.verdict == PR_CMP_REGRESSION;
		inc += dk.verdict == PR_CMP_INCONCLUSIVE;
	}
	out->reg = (double)hit / (double)trials;
	out->sep = (double)hit_sep / (double)trials;
	out->key = (double)hit_key / (double)trials;
	out->inconcl = (double)inc / (double)trials;
}

static const char *rule_of(size_t n)
{
	if (n < 2)
		return "thresholds only";
	return pr_compare_min_p(n, n) < 0.01 ? "Mann-Whitney" : "bootstrap CI";
}

int main(int argc, char **argv)
{
	static const struct noise noises[] = {
		{ "cv 2 %", 0.02, 0 },	{ "cv 3 %", 0.03, 0 },		{ "cv 5 %", 0.05, 0 },
		{ "cv 10 %", 0.10, 0 }, { "cv 3 % + spikes", 0.03, 1 },
	};
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 8 };
	static const double shifts[] = { 1.1, 1.2, 1.4, 1.5 };
	long trials = 20000, ptrials = 2000;
	uint64_t seed = 1;
	size_t i, j, k;
	int ai;
	for (ai = 1; ai < argc; ai++) {
		if (!strcmp(argv[ai], "--trials") && ai + 1 < argc)
			trials = atol(argv[++ai]);
		else if (!strcmp(argv[ai], "--power-trials") && ai + 1 < argc)
			ptrials = atol(argv[++ai]);
		else if (!strcmp(argv[ai], "--threshold") && ai + 1 < argc)
			thr_rel = atof(argv[++ai]) / 100.0;
		else if (!strcmp(argv[ai], "--seed") && ai + 1 < argc)
			seed = strtoull(argv[++ai], NULL, 10);
		else {
			fprintf(stderr, "usage: gate_sim [--trials N] [--power-trials N] "
					"[--threshold PCT] [--seed S]\n");
			return 2;
		}
	}
	if (trials < 1 || ptrials < 1 || !(thr_rel > 0 && thr_rel < 10)) {
		fprintf(stderr, "gate_sim: trials must be >= 1, the threshold in (0, 1000) %%\n");
		return 2;
	}
	rng_state = seed;
	printf("gate_sim: threshold +%g %%, alpha 0.01, n steps per side, %ld trials under H0, "
	       "%ld per shift (seed %llu)\n\n",
	       100 * thr_rel, trials, ptrials, (unsigned long long)seed);
	printf("Spans (no key-metric rule), then key metrics (step_time: the consistent rule, "
	       "K = %g):\n\n",
	       PR_COMPARE_SPREAD_K);
	printf("| n/side | rule | noise | FP span | FP key | inconclusive under H0 | FP with "
	       "separation | power span 1.1x / 1.2x / 1.4x / 1.5x | power key 1.1x / 1.2x / "
	       "1.4x / 1.5x | inconclusive at 1.4x |\n");
	printf("|-------:|:-----|:------|------:|------:|------:|------:|:------|:------|"
	       "------:|\n");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (j = 0; j < sizeof(noises) / sizeof(noises[0]); j++) {
			struct rates fp, pw[4];
			run(sizes[i], &noises[j], 1.0, trials, &fp);
			for (k = 0; k < 4; k++)
				run(sizes[i], &noises[j], shifts[k], ptrials, &pw[k]);
			printf("| %zu | %s | %s | %.2f %% | %.2f %% | %.2f %% | %.2f %% | %.1f / "
			       "%.1f / %.1f / %.1f %% | %.1f / %.1f / %.1f / %.1f %% | %.1f %% |\n",
			       sizes[i], rule_of(sizes[i]), noises[j].name, 100 * fp.reg,
			       100 * fp.key, 100 * fp.inconcl, 100 * fp.sep, 100 * pw[0].reg,
			       100 * pw[1].reg, 100 * pw[2].reg, 100 * pw[3].reg, 100 * pw[0].key,
			       100 * pw[1].key, 100 * pw[2].key, 100 * pw[3].key,
			       100 * pw[2].inconcl);
		}
	}
	return 0;
}
