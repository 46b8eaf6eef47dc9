/*
 * jpath.h - reading a model in tests: the value at a "/"-separated path
 * ("runs/0/peaks/0/value"; numbers index arrays), typed getters that fail
 * the test with the path when the value is missing or of another type, and
 * an array element by one of its string members. Static inline: a test
 * includes it after cmocka.h and uses what it needs.
 */
#ifndef PR_TEST_JPATH_H
#define PR_TEST_JPATH_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static inline json_t *at(json_t *o, const char *path)
{
	char key[160];
	while (o && *path) {
		size_t n = strcspn(path, "/");
		if (n >= sizeof(key))
			fail_msg("path component too long in '%s'", path);
		memcpy(key, path, n);
		key[n] = 0;
		if (json_is_array(o))
			o = json_array_get(o, strtoul(key, NULL, 10));
		else
			o = json_object_get(o, key);
		path += n + (path[n] == '/');
	}
	return o;
}

static inline double d(json_t *o, const char *path)
{
	json_t *v = at(o, path);
	if (!json_is_number(v))
		fail_msg("'%s' is not a number", path);
	return json_number_value(v);
}

static inline const char *s(json_t *o, const char *path)
{
	json_t *v = at(o, path);
	if (!json_is_string(v))
		fail_msg("'%s' is not a string", path);
	return json_string_value(v);
}

static inline json_t *find(json_t *arr, const char *key, const char *value)
{
	json_t *v;
	size_t i;
	json_array_foreach (arr, i, v)
		if (json_is_string(json_object_get(v, key)) &&
		    !strcmp(json_string_value(json_object_get(v, key)), value))
			return v;
	fail_msg("no element with %s = '%s'", key, value);
	return NULL;
}

/* |a - b| <= tol, with both values in the failure message. */
#define near(a, b, tol)                                                                            \
	do {                                                                                       \
		double near_a_ = (a), near_b_ = (b);                                               \
		if (!(fabs(near_a_ - near_b_) <= (tol)))                                           \
			fail_msg("%s = %.17g, want %.17g (+- %g)", #a, near_a_, near_b_,           \
				 (double)(tol));                                                   \
	} while (0)

#endif
