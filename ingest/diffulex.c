/* diffulex.c - shared storing rules of the Diffulex readers. */
#include "ingest/diffulex.h"

#include <math.h>

#include "base/strbuf.h"

void pr_dfx_metric(struct pr_writer *w, const char *name, double v, const char *unit, int64_t span,
		   const char *origin, const char *detail)
{
	if (isfinite(v))
		pr_writer_metric(w, name, v, unit, span, origin, detail);
}

void pr_dfx_custom_metrics(struct pr_writer *w, const json_t *custom, int64_t span)
{
	const char *key;
	json_t *v;
	struct pr_strbuf name = PR_STRBUF_INIT;
	json_object_foreach ((json_t *)custom, key, v) {
		double x;
		if (json_is_boolean(v))
			x = json_is_true(v) ? 1 : 0;
		else if (json_is_number(v))
			x = json_number_value(v);
		else
			continue; /* strings, lists, None: span args only */
		pr_strbuf_reset(&name);
		pr_strbuf_addf(&name, "custom.%s", key);
		pr_dfx_metric(w, name.buf, x, "", span, "reported", "record_metric() value");
	}
	pr_strbuf_release(&name);
}

void pr_dfx_not_recorded(struct pr_writer *w, long line, long col, const char *name)
{
	pr_writer_diag(w, "diffulex_throughput_not_recorded", -1, line, col,
		       "section '%s' (the first of those counted) has no tokens and no "
		       "throughput: record_throughput(tokens) inside profile(), the README "
		       "pattern, divides by the still-zero duration and records nothing; only an "
		       "explicit duration= works",
		       name);
}

void pr_dfx_throughput(struct pr_writer *w, long line, long col, const char *where,
		       const char *name, double dur, double tokens, double tps, int64_t span)
{
	int other;
	if (tokens <= 0) {
		if (tps == 0 && dur > 0)
			pr_dfx_not_recorded(w, line, col, name);
		return;
	}
	pr_dfx_metric(w, "total_tokens", tokens, "count", span, "reported", NULL);
	pr_dfx_metric(w, "throughput", tps, "tokens/s", span, "reported",
		      "throughput_tokens_per_sec: tokens / the duration given to "
		      "record_throughput()");
	other = dur > 0 && fabs(tps * dur - tokens) > 1e-6 * tokens;
	if (tps == 0 && dur > 0)
		pr_writer_diag(w, "diffulex_throughput_zero", -1, line, col,
			       "%s: throughput_tokens_per_sec is 0 although total_tokens and "
			       "duration_sec are > 0",
			       where);
	else if (other)
		pr_writer_diag(w, "diffulex_throughput_other_duration", -1, line, col,
			       "%s: throughput_tokens_per_sec = tokens / the duration passed to "
			       "record_throughput(), not the section's duration_sec; a derived "
			       "throughput over the section is stored",
			       where);
	if (other)
		pr_dfx_metric(w, "throughput", tokens / dur, "tokens/s", span, "derived",
			      "total_tokens / the section's duration_sec");
}
