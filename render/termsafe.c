/* termsafe.c - control characters escaped for terminals (see termsafe.h). */
#include "render/termsafe.h"

#include <stdlib.h>

#include "base/error.h"

void pr_term_safe(struct pr_strbuf *out, const char *s, size_t n)
{
	size_t i = 0, run = 0;
	while (i < n) {
		char esc[8];
		size_t u = pr_visible_unit(s + i, n - i, 1, esc);
		if (*esc) {
			pr_strbuf_add(out, s + run, i - run);
			pr_strbuf_addstr(out, esc);
			run = i + u;
		}
		i += u;
	}
	pr_strbuf_add(out, s + run, n - run);
}

void pr_term_safe_inplace(struct pr_strbuf *sb)
{
	struct pr_strbuf t = PR_STRBUF_INIT;
	pr_term_safe(&t, sb->buf, sb->len);
	pr_strbuf_reset(sb);
	pr_strbuf_add(sb, t.buf, t.len);
	pr_strbuf_release(&t);
}

void pr_term_render(FILE *out, void (*render)(const void *arg, FILE *f), const void *arg)
{
	char *buf = NULL;
	size_t n = 0;
	struct pr_strbuf t = PR_STRBUF_INIT;
	FILE *m = open_memstream(&buf, &n);
	if (!m) {
		render(arg, out);
		return;
	}
	render(arg, m);
	if (fclose(m)) {
		free(buf);
		render(arg, out);
		return;
	}
	pr_term_safe(&t, buf, n);
	free(buf);
	if (t.len)
		fwrite(t.buf, 1, t.len, out);
	pr_strbuf_release(&t);
}
