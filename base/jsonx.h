/*
 * jsonx.h - the few jansson helpers every layer uses to write and read the
 * project's JSON documents (models, agg.json, comparisons).
 *
 * USAGE
 *   json_object_set_new(o, "mean_ns", pr_jnum(mean));   integral -> integer
 *   double peak = pr_mnum(run, "peak_bytes");           NAN when absent
 *   const char *name = pr_mstr(row, "name");             "" when absent
 *
 * Readers of a model go through pr_mnum/pr_mll/pr_mstr: an absent key, a null or a value
 * of another type reads as NAN / "" (the model schema says which keys may be
 * absent; a renderer shows NAN as "-"), never as a crash.
 *
 * OWNERSHIP: pr_jnum/pr_jint/pr_jobj return new references (the caller's,
 * usually stolen by json_*_set_new); pr_mstr's string is borrowed from o.
 */
#ifndef PR_JSONX_H
#define PR_JSONX_H

#include <math.h>
#include <stdint.h>

#include <jansson.h>

/* A number: integer when integral and exact in a double, real otherwise, null for NaN/Inf. */
json_t *pr_jnum(double v);
json_t *pr_jint(int64_t v);
/* Object from alternating key, json_t* pairs ending with NULL (values stolen; NULL values skipped). */
json_t *pr_jobj(const char *key, ...);

/* 1 when the first head bytes of the file at path (at most 4095) hold "schema" and "<schema>",
 * both quoted: one of our documents (a model, an agg.json) named by its schema id, the cheap
 * test the CLI makes of an input before reading it (not a validation); 0 otherwise. */
int pr_json_head_names_schema(const char *path, size_t head, const char *schema);

/* Readers of our JSON (models, agg.json, comparisons): the number at key (NAN when absent or not a number). */
static inline double pr_mnum(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : (double)NAN;
}

/* The number at key as a whole number for printing: 0 when absent, not finite or out of range. */
static inline long long pr_mll(const json_t *o, const char *key)
{
	double v = pr_mnum(o, key);
	return v == v && v > -9.2e18 && v < 9.2e18 ? (long long)v : 0;
}

/* The string at key, "" when absent or not a string (borrowed). */
static inline const char *pr_mstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/*
 * Where the JSON value at s[i] inside an array or object text s[0..n) ends:
 * the index of the ',' or of the closing ']' or '}' after it at depth 0, or
 * n when it does not end (an unterminated string or array). Strings'
 * escapes are skipped; nothing is validated (a span's stored args, read
 * without parsing them).
 */
size_t pr_json_elem_end(const char *s, size_t i, size_t n);

#endif
