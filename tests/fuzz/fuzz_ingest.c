/*
 * fuzz_ingest.c - libFuzzer harness for one ingest format, end to end: the
 * input is written to a temporary file and read by pr_ingest_file with the
 * format forced to PR_FUZZ_FORMAT (set per target in tests/fuzz.cmake) into
 * a fresh in-memory store. No production code is changed for fuzzing.
 * With PR_FUZZ_PHASELOG the input is a phase log (--phases) attached to a
 * fixed CSV memory timeline with epoch times (so absolute and relative logs
 * both place), the target fuzz_phaselog.
 *
 * Properties checked (abort() = a finding), besides ASan/UBSan/leaks:
 *  - failure fills err (a code, a message, a sane position) and leaves no run;
 *  - success leaves one run whose rows keep the store's invariants: args are
 *    valid JSON, dur >= 0, 0 <= self <= dur, a child is one level below its
 *    parent on the same track, samples are finite, counts match the rows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ingest/format.h"
#include "ingest/ingest.h"
#include "tests/fuzz/dict.h"
#include "base/timecheck.h"

#ifndef PR_FUZZ_FORMAT
#define PR_FUZZ_FORMAT "chrome"
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz %s: %s:%d: check failed: %s\n", PR_FUZZ_FORMAT,      \
				__FILE__, __LINE__, #cond);                                        \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

static char dir[512], path[600], trace[600];

static void cleanup(void)
{
	unlink(path);
	unlink(trace);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	(void)argc;
	(void)argv;
#ifdef PR_FUZZ_PHASELOG
	pr_fuzz_dict_maybe_print(NULL, NULL); /* a phase log's words are free text */
#else
	{
		const struct pr_format *f = pr_format_find(PR_FUZZ_FORMAT);
		if (!f) {
			fprintf(stderr, "fuzz: no format '%s' in the registry\n", PR_FUZZ_FORMAT);
			exit(1);
		}
		pr_fuzz_dict_maybe_print(f->flags & PR_FORMAT_JSON ? pr_fuzz_json_tokens : NULL,
					 f->tokens);
	}
#endif
	snprintf(dir, sizeof(dir), "%s/pr-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/input", dir);
	snprintf(trace, sizeof(trace), "%s/trace.csv", dir);
	atexit(cleanup);
#ifdef PR_FUZZ_PHASELOG
	{
		/* 10 samples, one a second from 2024-12-19 14:30:00 UTC */
		FILE *t = fopen(trace, "wb");
		int i;
		if (!t)
			exit(1);
		fputs("timestamp,mem_used_mb\n", t);
		for (i = 0; i < 10; i++)
			fprintf(t, "%d,%d\n", 1734618600 + i, 100 + 10 * i);
		if (fclose(t))
			exit(1);
	}
#endif
	return 0;
}

static int64_t q1(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "fuzz %s: %s: %s\n", PR_FUZZ_FORMAT, sql, sqlite3_errmsg(db));
		abort();
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void check_store(sqlite3 *db, const struct pr_ingest_result *res)
{
	CHECK(q1(db, "SELECT count(*) FROM run") == 1);
	CHECK(q1(db, "SELECT count(*) FROM span") == res->stats.spans);
	CHECK(q1(db, "SELECT count(*) FROM sample") == res->stats.samples);
	CHECK(q1(db, "SELECT count(*) FROM instant") == res->stats.instants);
	CHECK(q1(db, "SELECT span_count FROM run") == res->stats.spans);
	CHECK(q1(db, "SELECT count(*) FROM span WHERE args IS NOT NULL AND NOT json_valid(args)") ==
	      0);
	CHECK(q1(db, "SELECT count(*) FROM instant WHERE args IS NOT NULL AND "
		     "NOT json_valid(args)") == 0);
	CHECK(q1(db, "SELECT count(*) FROM run WHERE NOT json_valid(meta)") == 0);
	CHECK(q1(db, "SELECT count(*) FROM span WHERE dur < 0") == 0);
	CHECK(q1(db, "SELECT count(*) FROM span WHERE self < 0 OR self > dur OR depth < 0") == 0);
	CHECK(q1(db,
		 "SELECT count(*) FROM span c JOIN span p ON p.id = c.parent_id "
		 "WHERE p.track_id != c.track_id OR p.depth != c.depth - 1 OR p.ts > c.ts") == 0);
	CHECK(q1(db, "SELECT count(*) FROM span WHERE parent_id IS NOT NULL AND "
		     "parent_id NOT IN (SELECT id FROM span)") == 0);
	CHECK(q1(db, "SELECT count(*) FROM span s JOIN track t ON t.id = s.track_id "
		     "WHERE t.kind = 'async' AND s.depth IS NOT NULL") == 0);
	CHECK(q1(db, "SELECT count(*) FROM series s WHERE s.count != "
		     "(SELECT count(*) FROM sample WHERE series_id = s.id)") == 0);
	CHECK(q1(db, "SELECT count(*) FROM series WHERE count > 0 AND min > max") == 0);
	CHECK(q1(db, "SELECT count(*) FROM span WHERE name_id NOT IN (SELECT id FROM string)") ==
	      0);
	CHECK(q1(db, "SELECT count(*) FROM instant WHERE name_id NOT IN (SELECT id FROM string)") ==
	      0);
	CHECK(q1(db, "SELECT count(*) FROM span WHERE cat_id NOT IN (SELECT id FROM string)") == 0);
	CHECK(q1(db, "SELECT count(*) FROM span WHERE track_id NOT IN (SELECT id FROM track)") ==
	      0);
	CHECK(q1(db, "SELECT count(*) FROM diag WHERE count < 1") == 0);
	CHECK(q1(db, "SELECT count(*) FROM run r WHERE r.ts_min > r.ts_max") == 0);
	/* Chrome and QNN keep times, and span ends, within +-PR_TIME_LIMIT_NS */
	if (!strcmp(PR_FUZZ_FORMAT, "chrome") || !strcmp(PR_FUZZ_FORMAT, "qnn-csv")) {
		static const char *const tables[] = { "span", "sample", "instant", "flow" };
		long long lim = (long long)PR_TIME_LIMIT_NS;
		char sql[256];
		size_t i;
		for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
			snprintf(sql, sizeof(sql),
				 "SELECT count(*) FROM %s WHERE ts < %lld OR ts > %lld", tables[i],
				 -lim, lim);
			CHECK(q1(db, sql) == 0);
		}
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM span WHERE dur > %lld - ts", lim);
		CHECK(q1(db, sql) == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pr_store *st = NULL;
	struct pr_error err = PR_ERROR_INIT;
	struct pr_ingest_result res;
	FILE *f = fopen(path, "wb");
	int rc;

	CHECK(f != NULL);
	CHECK(fwrite(data, 1, size, f) == size);
	CHECK(fclose(f) == 0);
	if (pr_store_open(&st, ":memory:", PR_STORE_CREATE, &err)) {
		fprintf(stderr, "fuzz %s: cannot open a store: %s\n", PR_FUZZ_FORMAT, err.text);
		abort();
	}
#ifdef PR_FUZZ_PHASELOG
	{
		struct pr_ingest_opts o = PR_INGEST_OPTS_INIT;
		o.format = "csv";
		o.phases = path;
		rc = pr_ingest_file_opts(st, trace, &o, &res, &err);
	}
#else
	rc = pr_ingest_file(st, path, PR_FUZZ_FORMAT, &res, &err);
#endif
	if (rc) {
		CHECK(rc == -1);
		CHECK(err.code != PR_OK);
		CHECK(err.text[0] != '\0');
		CHECK(err.line >= 0 && err.column >= 0);
		CHECK((err.line > 0) == (err.column > 0));
		CHECK(q1(pr_store_db(st), "SELECT count(*) FROM run") == 0);
		CHECK(q1(pr_store_db(st), "SELECT count(*) FROM span") == 0);
	} else {
		CHECK(!res.duplicate);
#ifndef PR_FUZZ_PHASELOG
		CHECK(res.bytes == (int64_t)size ||
		      (size >= 2 && data[0] == 0x1f && data[1] == 0x8b));
#endif
		check_store(pr_store_db(st), &res);
	}
	pr_store_close(st);
	return 0;
}
