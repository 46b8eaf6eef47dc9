/* xalloc.c - abort-on-OOM allocation wrappers. */
#include "base/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static void oom(size_t n)
{
	fprintf(stderr, "profreport: out of memory allocating %zu bytes\n", n);
	abort();
}

void *pr_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *pr_xcalloc(size_t nmemb, size_t size)
{
	void *p;
	if (size && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom(nmemb * size);
	return p;
}

void *pr_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

void *pr_xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	return pr_xrealloc(p, nmemb * size);
}

char *pr_xstrndup(const char *s, size_t n)
{
	char *p = pr_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *pr_xstrdup(const char *s)
{
	return pr_xstrndup(s, strlen(s));
}

static _Thread_local int json_tolerant;

void *pr_json_malloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p && !json_tolerant)
		oom(n);
	return p;
}

int pr_json_tolerant(int on)
{
	int was = json_tolerant;
	json_tolerant = on;
	return was;
}

void pr_xalloc_json_init(void)
{
	json_set_alloc_funcs(pr_json_malloc, free);
}
