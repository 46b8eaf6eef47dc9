/* registry.c - the table of ingest formats, in sniff tie-break order. */
#include "ingest/format.h"

#include <string.h>

extern const struct pr_format pr_format_inferix;
extern const struct pr_format pr_format_diffulex;
extern const struct pr_format pr_format_diffulex_csv;
extern const struct pr_format pr_format_diffulex_txt;
extern const struct pr_format pr_format_memtracer;
extern const struct pr_format pr_format_speedscope;
extern const struct pr_format pr_format_qeff;
extern const struct pr_format pr_format_torch_memtl;
extern const struct pr_format pr_format_massif;
extern const struct pr_format pr_format_sadf;
extern const struct pr_format pr_format_sadf_json;
extern const struct pr_format pr_format_pidstat;
extern const struct pr_format pr_format_dhat;
extern const struct pr_format pr_format_folded;
extern const struct pr_format pr_format_perf_stat;
extern const struct pr_format pr_format_perf_script;
extern const struct pr_format pr_format_chrome;
extern const struct pr_format pr_format_qnn_csv;
extern const struct pr_format pr_format_csv;
extern const struct pr_format pr_format_nsys;

const struct pr_format *const pr_formats[] = {
	&pr_format_inferix,
	&pr_format_diffulex,
	&pr_format_diffulex_csv,
	&pr_format_diffulex_txt,
	&pr_format_memtracer,
	&pr_format_speedscope,
	&pr_format_qeff,
	&pr_format_torch_memtl,
	&pr_format_massif,
	&pr_format_sadf,
	&pr_format_sadf_json,
	&pr_format_pidstat,
	&pr_format_dhat,
	&pr_format_folded,
	&pr_format_perf_stat,
	&pr_format_perf_script,
	&pr_format_chrome,
	&pr_format_qnn_csv,
	&pr_format_csv,
	&pr_format_nsys,
	NULL,
};

const struct pr_format *pr_format_find(const char *name)
{
	size_t i;
	for (i = 0; pr_formats[i]; i++)
		if (!strcmp(pr_formats[i]->name, name))
			return pr_formats[i];
	return NULL;
}

const struct pr_format *pr_format_sniff(const unsigned char *head, size_t n, const char *path,
					int *confidence)
{
	const struct pr_format *best = NULL;
	int best_score = 0;
	size_t i;
	for (i = 0; pr_formats[i]; i++) {
		int s = pr_formats[i]->sniff(head, n, path);
		if (s > best_score) {
			best_score = s;
			best = pr_formats[i];
		}
	}
	if (confidence)
		*confidence = best_score;
	return best_score >= PR_SNIFF_MIN ? best : NULL;
}
