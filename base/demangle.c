/* demangle.c - "_Z..." names through the C++ runtime's demangler (demangle.h). */
#include "base/demangle.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

/* The C++ runtime's demangler (libstdc++, <cxxabi.h> in C++): no C header declares it. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/*
 * The head of a nested name the runtime would not read: "_ZN" then source
 * names ("<length><identifier>", "St" for std::) up to the first template
 * argument list ("I"), which shows as "<...>". NULL when it is not that shape.
 */
static char *head_only(const char *s)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const char *p = s + 3;
	int parts = 0;
	if (strncmp(s, "_ZN", 3))
		return NULL;
	while (*p == 'K' || *p == 'V' || *p == 'r') /* cv-qualifiers of a member function */
		p++;
	if (!strncmp(p, "St", 2)) {
		pr_strbuf_addstr(&sb, "std");
		parts++;
		p += 2;
	}
	while (*p >= '1' && *p <= '9') {
		char *end;
		long n = strtol(p, &end, 10);
		if (n <= 0 || (size_t)n > strlen(end))
			break;
		if (parts++)
			pr_strbuf_addstr(&sb, "::");
		pr_strbuf_add(&sb, end, (size_t)n);
		p = end + n;
	}
	if (!parts || (*p != 'I' && *p != 'E')) {
		pr_strbuf_release(&sb);
		return NULL;
	}
	if (*p == 'I')
		pr_strbuf_addstr(&sb, "<...>");
	return pr_strbuf_detach(&sb, NULL);
}

char *pr_demangle(const char *name)
{
	int status = 0;
	char *out;
	if (!name || strncmp(name, "_Z", 2))
		return NULL;
	out = __cxa_demangle(name, NULL, NULL, &status);
	if (out && status == 0)
		return out;
	free(out);
	return head_only(name);
}
