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

#endif
