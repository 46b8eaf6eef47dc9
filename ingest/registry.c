/* registry.c - the table of ingest formats, in sniff tie-break order. */
#include "ingest/format.h"

#include <string.h>

/* formats.def lists every format, one line each (the one line a new format adds). */
#define PR_FORMAT(sym) extern const struct pr_format pr_format_##sym;
#include "ingest/formats.def"
#undef PR_FORMAT

const struct pr_format *const pr_formats[] = {
#define PR_FORMAT(sym) &pr_format_##sym,
#include "ingest/formats.def"
#undef PR_FORMAT
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
