/* run_meta.c - the user's metadata of a run (table run_meta, schema version 5). */
#include <string.h>

#include <sqlite3.h>

#include "store/store.h"

int pr_run_meta_check(const char *key, size_t klen, const char *value, struct pr_error *err)
{
	const unsigned char *p;
	size_t i;
	if (klen == 0)
		return pr_error_set(err, PR_E_USAGE, "--meta wants KEY=VALUE with a non-empty key");
	if (klen > PR_RUN_META_KEY_MAX)
		return pr_error_set(err, PR_E_USAGE, "--meta: a key is at most %d characters",
				    PR_RUN_META_KEY_MAX);
	for (i = 0; i < klen; i++) {
		char c = key[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '-'))
			return pr_error_set(err, PR_E_USAGE,
					    "--meta: a key is made of [A-Za-z0-9_.-]; character "
					    "%zu of the key is byte 0x%02x",
					    i + 1, (unsigned)(unsigned char)c);
	}
	if (strlen(value) > PR_RUN_META_VALUE_MAX)
		return pr_error_set(err, PR_E_USAGE,
				    "--meta: the value of '%.*s' is longer than %d bytes",
				    (int)klen, key, PR_RUN_META_VALUE_MAX);
	/* printable: no control characters (C0, DEL, C1) and valid UTF-8 */
	for (p = (const unsigned char *)value, i = 0; p[i];) {
		unsigned c = p[i], n = c < 0x80		    ? 0
				       : (c & 0xe0) == 0xc0 ? 1
				       : (c & 0xf0) == 0xe0 ? 2
				       : (c & 0xf8) == 0xf0 ? 3
							    : 9;
		unsigned k, cp = n == 0 ? c : n == 1 ? c & 0x1f : n == 2 ? c & 0x0f : c & 0x07;
		int bad = n == 9 || (n == 1 && c < 0xc2) || (n == 3 && c > 0xf4);
		for (k = 1; !bad && k <= n; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				bad = 1;
			else
				cp = (cp << 6) | (p[i + k] & 0x3f);
		}
		if (!bad &&
		    (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
		     (n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		     (cp >= 0xd800 && cp < 0xe000)))
			bad = 1;
		if (bad)
			return pr_error_set(err, PR_E_USAGE,
					    "--meta: the value of '%.*s' is not printable text (a "
					    "control character or invalid UTF-8 at byte %zu)",
					    (int)klen, key, i + 1);
		i += n + 1;
	}
	return 0;
}

json_t *pr_store_run_meta(struct sqlite3 *db, int64_t run, struct pr_error *err)
{
	sqlite3_stmt *st = NULL;
	json_t *o = json_object();
	int rc;
	rc = sqlite3_prepare_v2(db,
				"SELECT key, value FROM run_meta WHERE run_id = ?1 ORDER BY key",
				-1, &st, NULL);
	if (rc != SQLITE_OK) {
		/* a store of version 4 has no run_meta table: no metadata */
		int old = strstr(sqlite3_errmsg(db), "no such table") != NULL;
		sqlite3_finalize(st);
		if (old)
			return o;
		json_decref(o);
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
		return NULL;
	}
	sqlite3_bind_int64(st, 1, run);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		json_object_set_new(o, (const char *)sqlite3_column_text(st, 0),
				    json_string((const char *)sqlite3_column_text(st, 1)));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		json_decref(o);
		pr_error_set(err, PR_E_STORE, "sqlite: %s", sqlite3_errmsg(db));
		return NULL;
	}
	return o;
}
