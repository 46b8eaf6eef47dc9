/*
 * test_xsort.c - base/xsort: the external stable sort against qsort of (key, sequence) pairs,
 * its radix sort, and the two ways base/spill reads a stream again that xsort and gpuscan use.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/helpers.h"

#include "base/error.h"
#include "base/spill.h"
#include "base/xsort.h"

/* A record: the key, the order it was put in, and a payload derived from both (checked on the
 * way out: a record comes out whole). 20 bytes: not a divisor of the buffer sizes below. */
struct rec {
	uint64_t key, seq;
	uint32_t check;
};
#define REC_SIZE 20

static uint32_t check_of(uint64_t key, uint64_t seq)
{
	return (uint32_t)(key * 2654435761u) ^ (uint32_t)(seq * 40503u) ^ 0x5a5a5a5au;
}

static void rec_put(unsigned char *b, uint64_t key, uint64_t seq)
{
	uint32_t c = check_of(key, seq);
	memcpy(b, &key, 8);
	memcpy(b + 8, &seq, 8);
	memcpy(b + 16, &c, 4);
}

static void rec_get(const unsigned char *b, struct rec *r)
{
	memcpy(&r->key, b, 8);
	memcpy(&r->seq, b + 8, 8);
	memcpy(&r->check, b + 16, 4);
}

static int signed_order;

/* The reference order: by key (unsigned, or as int64), then by sequence (stable). */
static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->key != y->key) {
		if (signed_order)
			return (int64_t)x->key < (int64_t)y->key ? -1 : 1;
		return x->key < y->key ? -1 : 1;
	}
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t rnd_state = 88172645463325252ULL;
static uint64_t rnd(void) /* xorshift64 */
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* The keys of case c: few distinct values (many ties), or any 64-bit value, with the extremes
 * mixed in. */
static uint64_t key_of_case(int c, size_t i)
{
	switch (c) {
	case 0:
		return rnd() % 37;
	case 1:
		return i % 5 == 0 ? 0 : i % 5 == 1 ? UINT64_MAX : rnd();
	case 2: /* as int64: INT64_MIN, -1, 0, INT64_MAX and a few values around 0 */
		return i % 7 == 0   ? (uint64_t)INT64_MIN
		       : i % 7 == 1 ? (uint64_t)INT64_MAX
		       : i % 7 == 2 ? UINT64_MAX /* -1 */
				    : (uint64_t)(int64_t)((int64_t)(rnd() % 11) - 5);
	default: /* sorted already, descending: each buffer reversed */
		return (uint64_t)(1000000 - i) << 20;
	}
}

/* Puts n records of case c through a sort of mem bytes; checks every record against qsort. */
static void check_sort(int c, size_t n, size_t mem, size_t want_runs)
{
	struct pr_xsort *xs =
		pr_xsort_new("test records", REC_SIZE, mem, c == 2 ? PR_XSORT_SIGNED : 0);
	struct pr_error err = PR_ERROR_INIT;
	struct rec *want = calloc(n ? n : 1, sizeof(*want)), got;
	unsigned char b[REC_SIZE];
	const unsigned char *p;
	size_t i;
	for (i = 0; i < n; i++) {
		want[i].key = key_of_case(c, i);
		want[i].seq = i;
		rec_put(b, want[i].key, i);
		assert_int_equal(pr_xsort_put(xs, b), 0);
	}
	signed_order = c == 2;
	qsort(want, n, sizeof(*want), cmp_rec);
	assert_int_equal(pr_xsort_sort(xs, &err), 0);
	assert_int_equal(pr_xsort_runs(xs), want_runs);
	assert_int_equal(pr_xsort_count(xs), n);
	for (i = 0; i < n; i++) {
		p = pr_xsort_next(xs);
		assert_non_null(p);
		rec_get(p, &got);
		assert_true(got.key == want[i].key);
		assert_int_equal(got.seq, want[i].seq);
		assert_int_equal(got.check, check_of(got.key, got.seq));
	}
	assert_null(pr_xsort_next(xs));
	assert_null(pr_xsort_next(xs));
	assert_int_equal(pr_xsort_failed(xs, &err), 0);
	pr_xsort_free(xs);
	free(want);
}

/* Everything in one buffer: no file, no run. */
static void test_in_memory(void **state)
{
	int c;
	(void)state;
	for (c = 0; c < 4; c++) {
		check_sort(c, 1000, 1 << 20, 0);
		check_sort(c, 1, 1 << 20, 0);
		check_sort(c, 51, 51 * REC_SIZE, 0); /* exactly one full buffer */
	}
}

/* Many runs: ties between runs go to the earlier run, so equal keys keep the order put. */
static void test_runs(void **state)
{
	int c;
	(void)state;
	for (c = 0; c < 4; c++) {
		/* 52 records through 51: two runs, the second of one record */
		check_sort(c, 52, 51 * REC_SIZE, 2);
		/* 10 000 through 100-byte buffers (5 records): 2000 runs, 4 KiB read buffers each */
		check_sort(c, 10000, 100, 2000);
		/* 100 000 through 16 KiB (819 records): 123 runs, each read in 6 refills or more
		 * (its read buffer is the 4 KiB floor: 204 records) */
		check_sort(c, 100000, 16 << 10, (100000 + 818) / 819);
		/* a buffer smaller than a record holds one */
		check_sort(c, 300, 1, 300);
	}
}

/* The default buffer (pr_xsort_mem, lowered here): 5000 records of 20 bytes through 10 000 bytes. */
static void test_default_mem(void **state)
{
	size_t keep = pr_xsort_mem;
	(void)state;
	pr_xsort_mem = 10000; /* 500 records a run */
	check_sort(0, 5000, 0, 10);
	pr_xsort_mem = keep;
}

/* Nothing put: the end at once, with or without a sort. */
static void test_empty(void **state)
{
	struct pr_xsort *xs = pr_xsort_new("test records", REC_SIZE, 100, 0);
	struct pr_error err = PR_ERROR_INIT;
	unsigned char b[REC_SIZE] = { 0 };
	(void)state;
	assert_null(pr_xsort_next(xs)); /* not sorted yet */
	assert_int_equal(pr_xsort_sort(xs, &err), 0);
	assert_null(pr_xsort_next(xs));
	assert_int_equal(pr_xsort_runs(xs), 0);
	/* misuse: a put after the sort, a second sort */
	assert_int_equal(pr_xsort_put(xs, b), -1);
	assert_int_equal(pr_xsort_failed(xs, &err), -1);
	assert_int_equal(pr_xsort_sort(xs, &err), -1);
	pr_xsort_free(xs);
	pr_xsort_free(NULL);
}

/* No scratch directory: the put that writes the first run fails, and the sort says why in one
 * error; what fits one buffer never needs the directory. */
static void test_no_dir(void **state)
{
	struct pr_xsort *xs;
	struct pr_error err = PR_ERROR_INIT;
	unsigned char b[REC_SIZE] = { 0 };
	char *keep;
	int i;
	(void)state;
	keep = tmpdir_set("/nonexistent/profreport-test");
	xs = pr_xsort_new("test records", REC_SIZE, 4 * REC_SIZE, 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(pr_xsort_put(xs, b), 0);
	/* the fifth writes the first run: the spill holds 64 KiB before making its file, so
	 * the error comes once the runs pass that */
	for (i = 0; i < 10000 && pr_xsort_put(xs, b) == 0; i++)
		;
	assert_true(i < 10000);
	assert_int_equal(pr_xsort_put(xs, b), -1); /* sticky */
	assert_int_equal(pr_xsort_sort(xs, &err), -1);
	assert_string_equal(err.text, "cannot create a scratch file for test records in "
				      "'/nonexistent/profreport-test': No such file or directory");
	assert_null(pr_xsort_next(xs));
	pr_xsort_free(xs);
	xs = pr_xsort_new("test records", REC_SIZE, 1 << 20, 0);
	for (i = 0; i < 10000; i++)
		assert_int_equal(pr_xsort_put(xs, b), 0);
	assert_int_equal(pr_xsort_sort(xs, &err), 0);
	assert_non_null(pr_xsort_next(xs));
	pr_xsort_free(xs);
	tmpdir_restore(keep);
}

/* A scratch file that cannot grow (RLIMIT_FSIZE, SIGXFSZ ignored): EFBIG, as one error. In a
 * child, so that the limit stays there. */
static void test_file_too_large(void **state)
{
	pid_t pid;
	int status;
	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { 256 << 10, 256 << 10 };
		struct pr_xsort *xs = pr_xsort_new("test records", REC_SIZE, 4096, 0);
		struct pr_error err = PR_ERROR_INIT;
		unsigned char b[REC_SIZE] = { 0 };
		int i, rc = 0;
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl))
			_exit(3);
		for (i = 0; i < 100000 && !rc; i++) /* 2 MB of records */
			rc = pr_xsort_put(xs, b);
		if (!rc)
			_exit(4);
		if (pr_xsort_sort(xs, &err) != -1 ||
		    strcmp(err.text, "scratch file of test records: File too large"))
			_exit(5);
		pr_xsort_free(xs);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* The radix sort: stable, against qsort of (key, index); extremes; bytes equal in all keys. */
static void test_radix(void **state)
{
	enum {
		N = 5000
	};
	uint64_t *k = malloc(N * sizeof(*k));
	uint32_t *idx = malloc(N * sizeof(*idx));
	struct rec *want = malloc(N * sizeof(*want));
	size_t i;
	int c;
	(void)state;
	for (c = 0; c < 4; c++) {
		for (i = 0; i < N; i++) {
			k[i] = c == 3 ? 0x1234000000000000ULL | (rnd() % 300) : key_of_case(c, i);
			idx[i] = (uint32_t)i;
			want[i].key = k[i];
			want[i].seq = i;
		}
		signed_order = 0;
		qsort(want, N, sizeof(*want), cmp_rec);
		pr_radix_u64(k, c == 1 ? NULL : idx, N);
		for (i = 0; i < N; i++) {
			assert_true(k[i] == want[i].key);
			if (c != 1)
				assert_int_equal(idx[i], want[i].seq);
		}
	}
	k[0] = 7;
	pr_radix_u64(k, NULL, 1);
	pr_radix_u64(k, NULL, 0);
	assert_true(k[0] == 7);
	free(k);
	free(idx);
	free(want);
}

/* base/spill read again: pr_spill_reread starts over (from memory and from the file), and
 * pr_spill_read_at reads bytes at an offset while writing, from the file and from the buffer. */
static void test_spill_again(void **state)
{
	size_t mems[] = { 1 << 20, 100 };
	size_t m;
	(void)state;
	for (m = 0; m < 2; m++) {
		struct pr_spill *s = pr_spill_new("test bytes", mems[m]);
		struct pr_error err = PR_ERROR_INIT;
		unsigned char b[7], got[300];
		const unsigned char *p;
		uint32_t i, round;
		for (i = 0; i < 1000; i++) {
			memset(b, (int)(i & 0xff), sizeof(b));
			assert_int_equal(pr_spill_put(s, b, sizeof(b)), 0);
		}
		assert_int_equal(pr_spill_on_disk(s), m == 1);
		/* bytes 6993..6999 (record 999) are in the buffer, 0..6 in the file when on disk */
		assert_int_equal(pr_spill_read_at(s, 6993, got, 7), 0);
		assert_int_equal(got[0], 999 & 0xff);
		assert_int_equal(pr_spill_read_at(s, 7 * 10 + 3, got, 300), 0);
		for (i = 0; i < 300; i++)
			assert_int_equal(got[i], ((7 * 10 + 3 + i) / 7) & 0xff);
		/* across the file and the buffer: the last 200 bytes */
		assert_int_equal(pr_spill_read_at(s, 6800, got, 200), 0);
		for (i = 0; i < 200; i++)
			assert_int_equal(got[i], ((6800 + i) / 7) & 0xff);
		for (round = 0; round < 3; round++) {
			assert_int_equal(pr_spill_reread(s, &err), 0); /* the first: as rewind */
			for (i = 0; i < 1000; i++) {
				p = pr_spill_next(s, 7);
				assert_non_null(p);
				assert_int_equal(p[6], i & 0xff);
				if (round == 1 && i == 500)
					break; /* a reader that stops halfway */
			}
			if (round != 1)
				assert_null(pr_spill_next(s, 7));
		}
		assert_int_equal(pr_spill_failed(s, &err), 0);
		/* once reading, read_at is refused; past the end is an error */
		assert_int_equal(pr_spill_read_at(s, 0, got, 1), -1);
		assert_int_equal(pr_spill_failed(s, &err), -1);
		pr_spill_free(s);
		s = pr_spill_new("test bytes", mems[m]);
		assert_int_equal(pr_spill_put(s, b, 7), 0);
		assert_int_equal(pr_spill_read_at(s, 5, got, 3), -1);
		assert_int_equal(pr_spill_failed(s, &err), -1);
		pr_spill_free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_memory),   cmocka_unit_test(test_runs),
		cmocka_unit_test(test_default_mem), cmocka_unit_test(test_empty),
		cmocka_unit_test(test_no_dir),	    cmocka_unit_test(test_file_too_large),
		cmocka_unit_test(test_radix),	    cmocka_unit_test(test_spill_again),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
