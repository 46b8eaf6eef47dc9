/* test_pickle.c - ingest/pickle: plain-data pickles into jansson, everything else refused.
 * The byte strings are Python 3's pickle.dumps of the values in the comments
 * (made with: python3 -c 'import pickle; print(pickle.dumps(VALUE, protocol=P))'). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/pickle.h"

/* D = {'segments': [{'a': 1, 'b': -2, 'big': 2**62+5, 'neg': -2**40, 'f': 1.5, 't': (0, 0),
 *   'n': None, 'ok': True, 'no': False, 's': 'h\u00e9', 'e': (), 'm': -1, 'k': 255,
 *   'k2': 65535}], 'huge': 2**70, 3: 'x'}; p2 is D at protocol 2; p4 and p5 are D with
 * 'by': b'ab' and 'bad': b'\xff' added, at protocols 4 and 5. */
static const char p2[] =
	"\x80\x02\x7d\x71\x00\x28\x58\x08\x00\x00\x00\x73\x65\x67\x6d\x65\x6e\x74\x73\x71"
	"\x01\x5d\x71\x02\x7d\x71\x03\x28\x58\x01\x00\x00\x00\x61\x71\x04\x4b\x01\x58\x01"
	"\x00\x00\x00\x62\x71\x05\x4a\xfe\xff\xff\xff\x58\x03\x00\x00\x00\x62\x69\x67\x71"
	"\x06\x8a\x08\x05\x00\x00\x00\x00\x00\x00\x40\x58\x03\x00\x00\x00\x6e\x65\x67\x71"
	"\x07\x8a\x06\x00\x00\x00\x00\x00\xff\x58\x01\x00\x00\x00\x66\x71\x08\x47\x3f\xf8"
	"\x00\x00\x00\x00\x00\x00\x58\x01\x00\x00\x00\x74\x71\x09\x4b\x00\x4b\x00\x86\x71"
	"\x0a\x58\x01\x00\x00\x00\x6e\x71\x0b\x4e\x58\x02\x00\x00\x00\x6f\x6b\x71\x0c\x88"
	"\x58\x02\x00\x00\x00\x6e\x6f\x71\x0d\x89\x58\x01\x00\x00\x00\x73\x71\x0e\x58\x03"
	"\x00\x00\x00\x68\xc3\xa9\x71\x0f\x58\x01\x00\x00\x00\x65\x71\x10\x29\x58\x01\x00"
	"\x00\x00\x6d\x71\x11\x4a\xff\xff\xff\xff\x58\x01\x00\x00\x00\x6b\x71\x12\x4b\xff"
	"\x58\x02\x00\x00\x00\x6b\x32\x71\x13\x4d\xff\xff\x75\x61\x58\x04\x00\x00\x00\x68"
	"\x75\x67\x65\x71\x14\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x40\x4b\x03\x58\x01"
	"\x00\x00\x00\x78\x71\x15\x75\x2e";
static const char p4[] =
	"\x80\x04\x95\xbe\x00\x00\x00\x00\x00\x00\x00\x7d\x94\x28\x8c\x08\x73\x65\x67\x6d"
	"\x65\x6e\x74\x73\x94\x5d\x94\x7d\x94\x28\x8c\x01\x61\x94\x4b\x01\x8c\x01\x62\x94"
	"\x4a\xfe\xff\xff\xff\x8c\x03\x62\x69\x67\x94\x8a\x08\x05\x00\x00\x00\x00\x00\x00"
	"\x40\x8c\x03\x6e\x65\x67\x94\x8a\x06\x00\x00\x00\x00\x00\xff\x8c\x01\x66\x94\x47"
	"\x3f\xf8\x00\x00\x00\x00\x00\x00\x8c\x01\x74\x94\x4b\x00\x4b\x00\x86\x94\x8c\x01"
	"\x6e\x94\x4e\x8c\x02\x6f\x6b\x94\x88\x8c\x02\x6e\x6f\x94\x89\x8c\x01\x73\x94\x8c"
	"\x03\x68\xc3\xa9\x94\x8c\x01\x65\x94\x29\x8c\x01\x6d\x94\x4a\xff\xff\xff\xff\x8c"
	"\x01\x6b\x94\x4b\xff\x8c\x02\x6b\x32\x94\x4d\xff\xff\x75\x61\x8c\x04\x68\x75\x67"
	"\x65\x94\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x40\x4b\x03\x8c\x01\x78\x94\x8c"
	"\x02\x62\x79\x94\x43\x02\x61\x62\x94\x8c\x03\x62\x61\x64\x94\x43\x01\xff\x94\x75"
	"\x2e";
static const char p5[] =
	"\x80\x05\x95\xbe\x00\x00\x00\x00\x00\x00\x00\x7d\x94\x28\x8c\x08\x73\x65\x67\x6d"
	"\x65\x6e\x74\x73\x94\x5d\x94\x7d\x94\x28\x8c\x01\x61\x94\x4b\x01\x8c\x01\x62\x94"
	"\x4a\xfe\xff\xff\xff\x8c\x03\x62\x69\x67\x94\x8a\x08\x05\x00\x00\x00\x00\x00\x00"
	"\x40\x8c\x03\x6e\x65\x67\x94\x8a\x06\x00\x00\x00\x00\x00\xff\x8c\x01\x66\x94\x47"
	"\x3f\xf8\x00\x00\x00\x00\x00\x00\x8c\x01\x74\x94\x4b\x00\x4b\x00\x86\x94\x8c\x01"
	"\x6e\x94\x4e\x8c\x02\x6f\x6b\x94\x88\x8c\x02\x6e\x6f\x94\x89\x8c\x01\x73\x94\x8c"
	"\x03\x68\xc3\xa9\x94\x8c\x01\x65\x94\x29\x8c\x01\x6d\x94\x4a\xff\xff\xff\xff\x8c"
	"\x01\x6b\x94\x4b\xff\x8c\x02\x6b\x32\x94\x4d\xff\xff\x75\x61\x8c\x04\x68\x75\x67"
	"\x65\x94\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x40\x4b\x03\x8c\x01\x78\x94\x8c"
	"\x02\x62\x79\x94\x43\x02\x61\x62\x94\x8c\x03\x62\x61\x64\x94\x43\x01\xff\x94\x75"
	"\x2e";
static const char shared[] =
	"\x80\x04\x95\x14\x00\x00\x00\x00\x00\x00\x00\x7d\x94\x28\x8c\x01\x61\x94\x5d\x94"
	"\x4b\x01\x61\x8c\x01\x62\x94\x68\x02\x75\x2e";
static const char odict4[] =
	"\x80\x04\x95\x29\x00\x00\x00\x00\x00\x00\x00\x8c\x0b\x63\x6f\x6c\x6c\x65\x63\x74"
	"\x69\x6f\x6e\x73\x94\x8c\x0b\x4f\x72\x64\x65\x72\x65\x64\x44\x69\x63\x74\x94\x93"
	"\x94\x29\x52\x94\x8c\x01\x61\x94\x4b\x01\x73\x2e";
static const char odict2[] =
	"\x80\x02\x63\x63\x6f\x6c\x6c\x65\x63\x74\x69\x6f\x6e\x73\x0a\x4f\x72\x64\x65\x72"
	"\x65\x64\x44\x69\x63\x74\x0a\x71\x00\x29\x52\x71\x01\x58\x01\x00\x00\x00\x61\x71"
	"\x02\x4b\x01\x73\x2e";

#define LOAD(buf, err) pr_pickle_load((const unsigned char *)(buf), sizeof(buf) - 1, (err))

static void check_d(json_t *doc, int with_bytes)
{
	json_t *s;
	assert_non_null(doc);
	s = json_array_get(json_object_get(doc, "segments"), 0);
	assert_true(json_is_object(s));
	assert_int_equal(json_integer_value(json_object_get(s, "a")), 1);
	assert_int_equal(json_integer_value(json_object_get(s, "b")), -2);
	assert_true(json_integer_value(json_object_get(s, "big")) == (INT64_C(1) << 62) + 5);
	assert_true(json_integer_value(json_object_get(s, "neg")) == -(INT64_C(1) << 40));
	assert_int_equal(json_integer_value(json_object_get(s, "m")), -1);
	assert_int_equal(json_integer_value(json_object_get(s, "k")), 255);
	assert_int_equal(json_integer_value(json_object_get(s, "k2")), 65535);
	assert_true(json_real_value(json_object_get(s, "f")) == 1.5);
	assert_int_equal(json_array_size(json_object_get(s, "t")), 2);
	assert_int_equal(json_array_size(json_object_get(s, "e")), 0);
	assert_true(json_is_null(json_object_get(s, "n")));
	assert_true(json_is_true(json_object_get(s, "ok")));
	assert_true(json_is_false(json_object_get(s, "no")));
	assert_string_equal(json_string_value(json_object_get(s, "s")), "h\xc3\xa9");
	/* 2**70 is past int64: the nearest double */
	assert_true(json_is_real(json_object_get(doc, "huge")));
	assert_true(json_real_value(json_object_get(doc, "huge")) == 1180591620717411303424.0);
	/* an int key as its decimal text */
	assert_string_equal(json_string_value(json_object_get(doc, "3")), "x");
	if (with_bytes) {
		assert_string_equal(json_string_value(json_object_get(doc, "by")), "ab");
		assert_true(json_is_null(json_object_get(doc, "bad")));
	}
	json_decref(doc);
}

static void test_protocols(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	(void)state;
	check_d(LOAD(p2, &err), 0);
	check_d(LOAD(p4, &err), 1);
	check_d(LOAD(p5, &err), 1);
}

static void test_memo_shared(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	/* l = [1]; {'a': l, 'b': l}: one list, two references */
	json_t *doc = LOAD(shared, &err);
	(void)state;
	assert_non_null(doc);
	assert_ptr_equal(json_object_get(doc, "a"), json_object_get(doc, "b"));
	assert_int_equal(json_integer_value(json_array_get(json_object_get(doc, "a"), 0)), 1);
	json_decref(doc);
}

static void refused(const char *buf, size_t n, const char *want, long at)
{
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc = pr_pickle_load((const unsigned char *)buf, n, &err);
	if (doc || !strstr(err.text, want) || (at >= 0 && err.offset != at))
		print_error("got '%s' at %lld, want '%s' at %ld\n", err.text, (long long)err.offset,
			    want, at);
	assert_null(doc);
	assert_non_null(strstr(err.text, want));
	if (at >= 0)
		assert_int_equal(err.offset, at);
	assert_null(strchr(err.text, '\n'));
}

static void test_refused(void **state)
{
	(void)state;
	/* collections.OrderedDict(a=1): a class named and called */
	refused(odict4, sizeof(odict4) - 1, "opcode STACK_GLOBAL is not plain data", 39);
	refused(odict2, sizeof(odict2) - 1, "opcode GLOBAL is not plain data", 2);
	refused("\x80\x04N\x85R.", 6, "opcode REDUCE", 4);
	refused("\x80\x04}b.", 5, "opcode BUILD", 3);
	refused("\x80\x04NQ.", 5, "opcode BINPERSID", 3);
	refused("\x80\x04\x81.", 4, "opcode NEWOBJ", 2);
	refused("(S'a'\np0\n.", 11, "opcode STRING of text protocol 0", 1);
	refused("\x80\x04\xff.", 4, "unknown opcode 0xff", 2);
	refused("\x80\x06N.", 4, "protocol past 5", 0);
}

static void test_malformed(void **state)
{
	char deep[1000];
	size_t k;
	(void)state;
	refused("\x80\x04N", 3, "ends before STOP", 3);
	refused("", 0, "ends before STOP", 0);
	refused("\x80\x04\x8c\x05"
		"ab.",
		6, "longer than the rest", 2);
	refused("\x80\x04J\x01.", 5, "truncated argument", 2);
	refused("\x80\x04NN.", 5, "other than one value", 4);
	refused("\x80\x04"
		"a.",
		4, "stack underflow", 2);
	refused("\x80\x04Ne.", 5, "no MARK", 3);
	refused("\x80\x04h\x00.", 5, "never set", 2);
	refused("\x80\x04Nr\xff\xff\xff\x7f.", 9, "memo index past", 3);
	refused("\x80\x04K\x01K\x02K\x03s.", 10, "not a dict", 8);
	refused("\x80\x04}(N.", 6, "other than one value", 5);
	refused("\x80\x04\x8c\x01\xff.", 6, "not valid UTF-8", 2);
	refused("\x80\x04](K\x01u.", 8, "not a dict", 6);
	refused("\x80\x04}(K\x01u.", 8, "odd number", 6);
	refused("\x80\x04}(]]u.", 7, "key that is a list", 6);
	/* l = []; l.append(l) */
	refused("\x80\x02]q\x00h\x00"
		"a.",
		9, "inside itself", 7);
	/* a = []; b = []; b.append(a); then a.append(b): a cycle */
	refused("\x80\x02]q\x00]q\x01h\x00"
		"a0h\x01"
		"a.",
		16, "changed after it was put inside", 14);
	refused("\x80\x04K\x01K\x02\x86K\x03"
		"a.",
		10, "immutable tuple", 9);
	/* 300 nested lists */
	k = 0;
	deep[k++] = (char)0x80;
	deep[k++] = 4;
	for (; k < 302; k++)
		deep[k] = ']';
	for (; k < 601; k++)
		deep[k] = 'a';
	deep[k++] = '.';
	refused(deep, k, "nested deeper than 200", -1);
}

static void test_batched_and_marks(void **state)
{
	struct pr_error err = PR_ERROR_INIT;
	json_t *doc;
	(void)state;
	/* (N POP_MARK leaves nothing; DUP; EMPTY_SET + ADDITEMS; FROZENSET; TUPLE from MARK */
	doc = LOAD("\x80\x04(N1\x8f(K\x01K\x02\x90(K\x03\x91(N\x88t\x87.", &err);
	assert_non_null(doc);
	assert_int_equal(json_array_size(doc), 3);
	assert_int_equal(json_array_size(json_array_get(doc, 0)), 2);
	assert_int_equal(json_array_size(json_array_get(doc, 2)), 2);
	json_decref(doc);
	doc = LOAD("\x80\x04K\x07"
		   "2\x86.",
		   &err);
	assert_non_null(doc);
	assert_int_equal(json_integer_value(json_array_get(doc, 1)), 7);
	json_decref(doc);
	/* LONG1 of 0 bytes, negative LONG1 past int64 */
	doc = LOAD("\x80\x04\x8a\x00\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\xff\x86.", &err);
	assert_non_null(doc);
	assert_int_equal(json_integer_value(json_array_get(doc, 0)), 0);
	assert_true(json_real_value(json_array_get(doc, 1)) == -18446744073709551616.0);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_protocols),	  cmocka_unit_test(test_memo_shared),
		cmocka_unit_test(test_refused),		  cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_batched_and_marks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
