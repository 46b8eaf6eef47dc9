/* store.c - opening the event store, creating and checking its schema. */
#include "store/store.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/store_impl.h"
#include "store/xalloc.h"

static int store_exec(struct pr_store *st, const char *sql, struct pr_error *err)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		pr_error_set(err, PR_E_STORE, "sqlite: %s", msg ? msg : sqlite3_errmsg(st->db));
		pr_error_set_source(err, st->path);
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int pr_store_exec(struct pr_store *st, const char *sql, struct pr_error *err)
{
	return store_exec(st, sql, err);
}

static int user_version(struct pr_store *st, int *out)
{
	sqlite3_stmt *stmt = NULL;
	int rc = -1;
	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &stmt, NULL) == SQLITE_OK &&
	    sqlite3_step(stmt) == SQLITE_ROW) {
		*out = sqlite3_column_int(stmt, 0);
		rc = 0;
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int table_count(struct pr_store *st, int *out)
{
	sqlite3_stmt *stmt = NULL;
	int rc = -1;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_master", -1, &stmt, NULL) ==
		    SQLITE_OK &&
	    sqlite3_step(stmt) == SQLITE_ROW) {
		*out = sqlite3_column_int(stmt, 0);
		rc = 0;
	}
	sqlite3_finalize(stmt);
	return rc;
}

int pr_store_open(struct pr_store **out, const char *path, int flags, struct pr_error *err)
{
	struct pr_store *st;
	int oflags, version = 0, ntables = 0;
	struct stat sb;

	*out = NULL;
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		pr_error_set(err, PR_E_IO, "is a directory, not a store");
		pr_error_set_source(err, path);
		return -1;
	}
	if (flags & PR_STORE_READONLY)
		oflags = SQLITE_OPEN_READONLY;
	else
		oflags = SQLITE_OPEN_READWRITE | ((flags & PR_STORE_CREATE) ? SQLITE_OPEN_CREATE : 0);
	/* No allocator statistics: they take a global mutex on every malloc. Only
	 * effective before SQLite initializes; later calls are harmless no-ops. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	st = pr_xcalloc(1, sizeof(*st));
	st->path = pr_xstrdup(path);
	st->readonly = !!(flags & PR_STORE_READONLY);
	if (sqlite3_open_v2(path, &st->db, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		pr_error_set(err, PR_E_IO, "cannot open store: %s",
			     st->db ? sqlite3_errmsg(st->db) : "out of memory");
		pr_error_set_source(err, path);
		goto fail;
	}
	sqlite3_extended_result_codes(st->db, 1);
	sqlite3_busy_timeout(st->db, 5000);
	if (table_count(st, &ntables) || user_version(st, &version)) {
		pr_error_set(err, PR_E_STORE, "not a profreport store: %s", sqlite3_errmsg(st->db));
		pr_error_set_source(err, path);
		goto fail;
	}
	if (ntables == 0 && st->readonly) {
		pr_error_set(err, PR_E_STORE, "not a profreport store (empty database)");
		pr_error_set_source(err, path);
		goto fail;
	}
	if (ntables == 0) {
		char pragma[64];
		if (store_exec(st, "PRAGMA page_size=16384; BEGIN", err) ||
		    store_exec(st, pr_store_schema_sql, err))
			goto fail;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version=%d; COMMIT",
			 PR_STORE_SCHEMA_VERSION);
		if (store_exec(st, pragma, err))
			goto fail;
	} else if (version != PR_STORE_SCHEMA_VERSION) {
		pr_error_set(err, PR_E_STORE,
			     "store schema version %d, this profreport reads version %d", version,
			     PR_STORE_SCHEMA_VERSION);
		pr_error_set_source(err, path);
		goto fail;
	}
	/* Bounded page cache (32 MiB) keeps ingest RSS flat; temp data may spill to disk. */
	if (store_exec(st, "PRAGMA cache_size=-32768; PRAGMA temp_store=FILE", err))
		goto fail;
	*out = st;
	return 0;
fail:
	pr_store_close(st);
	return -1;
}

void pr_store_close(struct pr_store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

struct sqlite3 *pr_store_db(struct pr_store *st)
{
	return st->db;
}

int64_t pr_store_run_count(struct pr_store *st)
{
	sqlite3_stmt *stmt = NULL;
	int64_t n = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM run", -1, &stmt, NULL) == SQLITE_OK &&
	    sqlite3_step(stmt) == SQLITE_ROW)
		n = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return n;
}

const char *pr_store_path(const struct pr_store *st)
{
	return st->path;
}
