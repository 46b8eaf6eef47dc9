/*
 * format.h - the ingest format descriptor and registry.
 *
 * Adding a format = one fmt_<name>.c exporting one const struct pr_format,
 * one line in registry.c, tests and a sample.
 *
 * sniff() looks at the first bytes of the decoded stream (and the path, as
 * a tie-breaker only) and returns a confidence 0..100; the highest wins,
 * ties go to the earlier registry entry; below PR_SNIFF_MIN is "unknown".
 * parse() streams the source into the writer. It returns 0, or -1 with err
 * filled (code, and offset or line/column; the driver adds the path).
 */
#ifndef PR_FORMAT_H
#define PR_FORMAT_H

#include <stddef.h>

#include "ingest/source.h"
#include "store/store.h"

#define PR_SNIFF_MIN 20
/* Files found in a directory need more: a stray config.json is not a trace. */
#define PR_SNIFF_DIR 55

/* The input is JSON (a document or a stream of events). */
#define PR_FORMAT_JSON 1u

struct pr_format {
	const char *name;
	const char *summary;
	int (*sniff)(const unsigned char *head, size_t n, const char *path);
	int (*parse)(struct pr_source *src, struct pr_writer *w, struct pr_error *err);
	unsigned flags; /* PR_FORMAT_* */
	/* Words the reader looks for (keys, markers, units), NULL-terminated or
	 * NULL: the fuzz target's dictionary (tests/fuzz/fuzz_ingest.c prints it,
	 * with JSON's own tokens for a PR_FORMAT_JSON format). */
	const char *const *tokens;
};

extern const struct pr_format *const pr_formats[];

const struct pr_format *pr_format_find(const char *name);
/* Best format for this head, or NULL; *confidence gets its score. */
const struct pr_format *pr_format_sniff(const unsigned char *head, size_t n, const char *path,
					int *confidence);

#endif
