/* text_summary.c - prints struct pr_overview for a terminal. */
#include "render/text_summary.h"

#include <string.h>

#include "render/units.h"

static void print_run(const struct pr_ov_run *r, FILE *out)
{
	char a[32], b[32], c[32], d[32], e[32];
	size_t i;

	fprintf(out, "run %lld: %s  [%s%s%s]", (long long)r->id, r->label, r->format,
		r->collector[0] ? ", " : "", r->collector);
	if (r->rank >= 0) {
		fprintf(out, "  rank %lld", (long long)r->rank);
		if (r->world_size > 0)
			fprintf(out, "/%lld", (long long)r->world_size);
	}
	fputc('\n', out);
	if (r->has_extent) {
		pr_fmt_duration((double)(r->ts_max - r->ts_min), a, sizeof(a));
		fprintf(out, "  duration %s%s, ", a, r->synthetic ? " (synthetic times)" : "");
	} else {
		fputs("  no timed events, ", out);
	}
	fprintf(out, "%lld spans, %lld samples, %lld instants\n", (long long)r->spans,
		(long long)r->samples, (long long)r->instants);

	if (r->step_stats.n) {
		const struct pr_ov_steps *s = &r->step_stats;
		pr_fmt_duration(s->mean, a, sizeof(a));
		pr_fmt_duration(s->p50, b, sizeof(b));
		pr_fmt_duration(s->p95, c, sizeof(c));
		pr_fmt_duration(s->min, d, sizeof(d));
		pr_fmt_duration(s->max, e, sizeof(e));
		fprintf(out, "\n  steps: %zu  mean %s  p50 %s  p95 %s  min %s  max %s\n", s->n, a, b, c,
			d, e);
		for (i = 0; i < r->nsteps; i++) {
			pr_fmt_duration((double)r->steps[i].dur, a, sizeof(a));
			fprintf(out, "    %-28s %12s\n", r->steps[i].name, a);
		}
		if (r->more_steps)
			fprintf(out, "    ... %zu more\n", r->more_steps);
	}
	if (r->nphases) {
		int w = 28;
		for (i = 0; i < r->nphases; i++)
			if ((int)strlen(r->phases[i].name) > w)
				w = (int)strlen(r->phases[i].name) > 72 ? 72 : (int)strlen(r->phases[i].name);
		fprintf(out, "\n  phases:%*s %12s\n", w + 8, "start", "duration");
		for (i = 0; i < r->nphases; i++) {
			pr_fmt_duration((double)(r->phases[i].ts - r->ts_min), a, sizeof(a));
			pr_fmt_duration((double)r->phases[i].dur, b, sizeof(b));
			fprintf(out, "    %-*s %12s %12s\n", w, r->phases[i].name, a, b);
		}
		if (r->more_phases)
			fprintf(out, "    ... %zu more\n", r->more_phases);
	}
	if (r->ntops) {
		fprintf(out, "\n  top spans by self time:\n    %-40s %-10s %8s %12s %12s %12s\n",
			"name", "kind", "count", "self", "total", "max");
		for (i = 0; i < r->ntops; i++) {
			const struct pr_ov_top *t = &r->tops[i];
			pr_fmt_duration((double)t->self, a, sizeof(a));
			pr_fmt_duration((double)t->total, b, sizeof(b));
			pr_fmt_duration((double)t->max, c, sizeof(c));
			fprintf(out, "    %-40.40s %-10s %8lld %12s %12s %12s\n", t->name, t->kind,
				(long long)t->count, a, b, c);
		}
	}
	if (r->nseries) {
		fprintf(out, "\n  series:\n    %-28s %-10s %8s %14s %14s\n", "name", "device", "samples",
			"min", "max");
		for (i = 0; i < r->nseries; i++) {
			const struct pr_ov_series *s = &r->series[i];
			pr_fmt_value(s->min, s->unit, a, sizeof(a));
			pr_fmt_value(s->max, s->unit, b, sizeof(b));
			fprintf(out, "    %-28s %-10s %8lld %14s %14s\n", s->name, s->device,
				(long long)s->count, a, b);
		}
	}
	if (r->nmetrics) {
		fputs("\n  reported by the collector:\n", out);
		for (i = 0; i < r->nmetrics; i++) {
			const struct pr_ov_metric *m = &r->metrics[i];
			if (m->has_value)
				pr_fmt_value(m->value, m->unit, a, sizeof(a));
			else
				snprintf(a, sizeof(a), "-");
			fprintf(out, "    %-44s %14s", m->name, a);
			if (m->detail[0])
				fprintf(out, "  %.70s", m->detail);
			fputc('\n', out);
		}
		if (r->more_metrics)
			fprintf(out, "    ... %zu more (profreport query STORE \"SELECT * FROM metric\")\n",
				r->more_metrics);
	}
	if (r->ndiags) {
		fputs("\n  diagnostics:\n", out);
		for (i = 0; i < r->ndiags; i++) {
			const struct pr_ov_diag *dg = &r->diags[i];
			fprintf(out, "    %-22s x%-6lld", dg->code, (long long)dg->count);
			if (dg->line > 0 && dg->col > 0)
				fprintf(out, " at %ld:%ld", dg->line, dg->col);
			else if (dg->line > 0)
				fprintf(out, " at line %ld", dg->line);
			fprintf(out, "  %s\n", dg->message);
		}
	}
}

void pr_render_summary_text(const struct pr_overview *ov, FILE *out)
{
	size_t i;
	if (!ov->nruns) {
		fputs("no runs in the store\n", out);
		return;
	}
	for (i = 0; i < ov->nruns; i++) {
		if (i)
			fputc('\n', out);
		print_run(&ov->runs[i], out);
	}
}
