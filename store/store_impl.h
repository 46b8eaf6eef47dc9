/* store_impl.h - internals shared by store.c and writer.c; not an API. */
#ifndef PR_STORE_IMPL_H
#define PR_STORE_IMPL_H

#include "store/store.h"

struct pr_store {
	struct sqlite3 *db;
	char *path;
	int readonly;
};

int pr_store_exec(struct pr_store *st, const char *sql, struct pr_error *err);

#endif
