/*
 * changes_sim.c - precision and recall of `profreport changes` (E-Divisive
 * means, base/changes.c) on generated series with known change points
 * (the table in docs/compare.md, "History").
 *
 *   changes_sim [--trials N] [--n N] [--seed S]
 *
 * Each trial draws a series of n values (default 60) around 100 with
 * Gaussian noise of cv 2 % and asks pr_changes_detect (the very function
 * `changes` uses, default options) for its change points:
 *   step:       +10 % from n/2                          (1 change)
 *   two steps:  +10 % from n/3, -8 % from 2n/3           (2 changes)
 *   small step: +4 % from n/2                            (1 change)
 *   variance:   cv 1 % before n/2, 6 % after             (1 change, kind spread)
 *   outliers:   no change; 3 values x1.3 at random      (0 changes)
 *   drift:      +20 % linearly over the series           (0 changes: not a step)
 *   noise:      no change                                (0 changes)
 * A change found within 2 runs of a true one is a true positive (each true
 * one matched once); any other is a false positive. precision = TP / (TP +
 * FP), recall = TP / true changes. Deterministic: splitmix64 from --seed,
 * Box-Muller normals.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/changes.h"
#include "base/stats.h"

static uint64_t rng_state;

static uint64_t next_u64(void)
{
	return pr_splitmix64(&rng_state);
}

static double normal(void)
{
	return pr_rand_normal(&rng_state);
}

enum {
	STEP,
	TWO,
	SMALL,
	VAR,
	OUTLIERS,
	DRIFT,
	NOISE,
	NSCEN
};
static const char *const names[NSCEN] = { "step +10%",	 "two steps",	    "small step +4%",
					  "variance x6", "outliers (none)", "drift (none)",
					  "noise (none)" };

/* The series of a scenario into v[0..n); the true change points into cp; returns how many. */
static size_t draw(int s, double *v, size_t n, size_t *cp)
{
	size_t i, k = 0;
	for (i = 0; i < n; i++) {
		double level = 100, cv = 0.02;
		switch (s) {
		case STEP:
			level = i >= n / 2 ? 110 : 100;
			break;
		case TWO:
			level = i >= 2 * n / 3 ? 110 * 0.92 : i >= n / 3 ? 110 : 100;
			break;
		case SMALL:
			level = i >= n / 2 ? 104 : 100;
			break;
		case VAR:
			cv = i >= n / 2 ? 0.06 : 0.01;
			break;
		case DRIFT:
			level = 100 * (1 + 0.2 * (double)i / (double)(n - 1));
			break;
		default:
			break;
		}
		v[i] = level * (1 + cv * normal());
	}
	if (s == OUTLIERS)
		for (k = 0; k < 3; k++)
			v[next_u64() % n] *= 1.3;
	k = 0;
	if (s == STEP || s == SMALL || s == VAR)
		cp[k++] = n / 2;
	if (s == TWO) {
		cp[k++] = n / 3;
		cp[k++] = 2 * n / 3;
	}
	return k;
}

int main(int argc, char **argv)
{
	long trials = 200, n = 60;
	uint64_t seed = 1;
	int i, s;
	struct pr_changes_opts o = PR_CHANGES_OPTS_INIT;
	long tot_tp = 0, tot_fp = 0, tot_true = 0;
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--trials"))
			trials = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--n"))
			n = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[i + 1], NULL, 10);
	}
	if (trials < 1 || n < 12) {
		fprintf(stderr, "usage: changes_sim [--trials N>0] [--n N>=12] [--seed S]\n");
		return 2;
	}
	rng_state = seed;
	printf("E-Divisive means, alpha %.2f, %d permutations, min segment %zu, min shift %.0f %%; "
	       "%ld trials of %ld runs, noise cv 2 %%\n\n",
	       o.alpha, o.permutations, o.min_size, o.min_change * 100, trials, n);
	printf("| series | true changes | found | true pos. | false pos. | precision | recall |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|\n");
	for (s = 0; s < NSCEN; s++) {
		long tp = 0, fp = 0, ntrue = 0, found = 0, t;
		double *v = malloc((size_t)n * sizeof(*v));
		for (t = 0; t < trials; t++) {
			size_t cp[2], ncp = draw(s, v, (size_t)n, cp), nf, a, b;
			int used[2] = { 0, 0 };
			struct pr_change *c;
			nf = pr_changes_detect(v, (size_t)n, &o, &c);
			ntrue += (long)ncp;
			found += (long)nf;
			for (a = 0; a < nf; a++) {
				int hit = 0;
				for (b = 0; b < ncp && !hit; b++) {
					long d = (long)c[a].at - (long)cp[b];
					if (!used[b] && d >= -2 && d <= 2)
						used[b] = hit = 1;
				}
				if (hit)
					tp++;
				else
					fp++;
			}
			free(c);
		}
		free(v);
		tot_tp += tp;
		tot_fp += fp;
		tot_true += ntrue;
		printf("| %s | %ld | %ld | %ld | %ld | ", names[s], ntrue, found, tp, fp);
		if (tp + fp)
			printf("%.3f | ", (double)tp / (double)(tp + fp));
		else
			printf("- | ");
		if (ntrue)
			printf("%.3f |\n", (double)tp / (double)ntrue);
		else
			printf("- |\n");
	}
	printf("| all | %ld | %ld | %ld | %ld | %.3f | %.3f |\n", tot_true, tot_tp + tot_fp, tot_tp,
	       tot_fp, tot_tp + tot_fp ? (double)tot_tp / (double)(tot_tp + tot_fp) : 0.0,
	       tot_true ? (double)tot_tp / (double)tot_true : 0.0);
	return 0;
}
