/*
 * jsonx.h - the few jansson helpers every layer uses to write and read the
 * project's JSON documents (models, agg.json, comparisons).
 *
 * USAGE
 *   json_object_set_new(o, "mean_ns", pr_jnum(mean));   integral -> integer
 *   double peak = pr_jnum_of(run, "peak_bytes");       NAN when absent
 *   const char *name = pr_jstr_of(row, "name");         "" when absent
 *
 * Readers of a model go through pr_jnum_of/pr_jstr_of: an absent key, a null or a value
 * of another type reads as NAN / "" (the model schema says which keys may be
 * absent; a renderer shows NAN as "-"), never as a crash.
 *
 * OWNERSHIP: pr_jnum/pr_jint/pr_jobj return new references (the caller's,
 * usually stolen by json_*_set_new); pr_jstr_of's string is borrowed from o.
 */
#ifndef PR_JSONX_H
#define PR_JSONX_H

#include <stdint.h>

#include <jansson.h>

/* A number: integer when integral and exact in a double, real otherwise, null for NaN/Inf. */
json_t *pr_jnum(double v);
json_t *pr_jint(int64_t v);
/* Object from alternating key, json_t* pairs ending with NULL (values stolen; NULL values skipped). */
json_t *pr_jobj(const char *key, ...);

/* o[key] as a double, NAN when o is not an object or the value is not a number. */
double pr_jnum_of(const json_t *o, const char *key);
/* o[key] as a string, "" when absent or not a string. */
const char *pr_jstr_of(const json_t *o, const char *key);

#endif
