/*
 * xalloc.h - allocation that never returns NULL: out of memory aborts with a
 * message (profreport is a CLI; error paths are kept for what users can fix).
 */
#ifndef PR_XALLOC_H
#define PR_XALLOC_H

#include <stddef.h>

void *pr_xmalloc(size_t n);
void *pr_xcalloc(size_t nmemb, size_t size); /* checks nmemb*size overflow */
void *pr_xrealloc(void *p, size_t n);
void *pr_xreallocarray(void *p, size_t nmemb, size_t size);
char *pr_xstrdup(const char *s);
char *pr_xstrndup(const char *s, size_t n);

/*
 * jansson's allocations under the same policy. pr_xalloc_json_init() (once,
 * in main) makes jansson allocate through pr_json_malloc: out of memory
 * aborts with the message above, as everywhere else - jansson itself would
 * return NULL, and json_object_set_new(o, key, NULL) silently drops the key,
 * so a model or agg.json built short of memory would lose data unseen.
 * Loading a whole input document is the exception, a failure users can act
 * on: between pr_json_tolerant(1) and pr_json_tolerant(0) (per thread; see
 * ingest/jdoc.h pr_jdoc_loadb) an allocation that fails returns NULL for the
 * caller to report. pr_json_tolerant returns the previous setting.
 */
void pr_xalloc_json_init(void);
void *pr_json_malloc(size_t n);
int pr_json_tolerant(int on);

#endif
