/*
 * jdoc.h - whole-document JSON for the small report formats (Inferix,
 * Diffulex, MemoryTracer, QEff, speedscope, torch memory timeline), read
 * with jansson straight from a pr_source (gzip included).
 *
 * USAGE: json_t *doc = pr_jdoc_load(src, &err); ... json_decref(doc);
 * Errors carry jansson's line/column. Python's json.dump may write NaN,
 * Infinity and -Infinity: they are read as null (JSON has no such numbers)
 * and counted in *nonfinite so the caller can say so in a diagnostic.
 * LIMITATIONS: the document is read whole, then parsed (jansson's
 * tree takes about 4 to 7 bytes per byte of JSON text); a document of more than
 * PR_JDOC_MAX_DEFAULT bytes after gunzip is refused (PR_E_LIMIT), unless the
 * environment variable PROFREPORT_JSON_MAX_MB says another number of MiB.
 */
#ifndef PR_JDOC_H
#define PR_JDOC_H

#include <jansson.h>

#include "ingest/source.h"
#include "base/strbuf.h"

#define PR_JDOC_MAX_DEFAULT ((size_t)128 << 20)
#define PR_JDOC_MAX_ENV "PROFREPORT_JSON_MAX_MB"
#define PR_JDOC_MAX_MB_MAX 1048576
/* The limit in force: PROFREPORT_JSON_MAX_MB, else the default. An invalid
 * value is an error (PR_E_USAGE) from pr_jdoc_limit; pr_jdoc_max() and
 * PR_JDOC_MAX then give the default. */
int pr_jdoc_limit(size_t *max, struct pr_error *err);
size_t pr_jdoc_max(void);
/* A limit in MiB from the environment variable env (1 to max_mib), else deflt bytes: the
 * rule of PROFREPORT_JSON_MAX_MB, for the other inputs read whole (PROFREPORT_NSYS_MAX_MB). */
int pr_env_limit(const char *env, size_t deflt, unsigned long long max_mib, size_t *max,
		 struct pr_error *err);
#define PR_JDOC_MAX pr_jdoc_max()

json_t *pr_jdoc_load(struct pr_source *src, long *nonfinite, struct pr_error *err);
/* json_loadb with jansson allowed to fail an allocation (base/xalloc.h,
 * pr_json_tolerant): out of memory comes back as NULL with jerr saying so
 * (pr_jdoc_error), not as an abort. Every load of input text goes through it. */
json_t *pr_jdoc_loadb(const char *buf, size_t len, size_t flags, json_error_t *jerr);
/* For readers that repair text before parsing: the whole source into out (the
 * same limit), bare NaN/Infinity/-Infinity (outside strings) written as null
 * and counted in *nonfinite (which must start at 0). */
int pr_jdoc_read_text(struct pr_source *src, struct pr_strbuf *out, long *nonfinite,
		      struct pr_error *err);

/* The error of a failed json_loadb of len bytes: jansson's text with its
 * line/column (PR_E_PARSE), or, when jansson ran out of memory (it then
 * gives no text), "out of memory loading a JSON document of N MiB"
 * (PR_E_LIMIT). Returns -1. */
int pr_jdoc_error(const json_error_t *jerr, size_t len, struct pr_error *err);

/* Sniff helper: 1 if the first bytes (after BOM/whitespace) open a JSON object
 * and every key in keys[] (NULL-terminated) appears as "key" in the head. */
int pr_jdoc_head_has(const unsigned char *head, size_t n, const char *const *keys);

/* Getters that tolerate absent or wrongly typed members. */
int pr_jget_num(const json_t *obj, const char *key, double *out); /* 0 ok, -1 absent/not a number */
int pr_jget_int(const json_t *obj, const char *key,
		int64_t *out); /* integer, or a real with no fraction */
const char *pr_jget_str(const json_t *obj, const char *key); /* NULL if absent/not a string */

#endif
