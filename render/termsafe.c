/* termsafe.c - control characters escaped for terminals (see termsafe.h). */
#include "render/termsafe.h"

#include <stdlib.h>

void pr_term_safe(struct pr_strbuf *out, const char *s, size_t n)
{
	size_t i, run = 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int c1 = c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 &&
			 (unsigned char)s[i + 1] <= 0x9f;
		if ((c >= 0x20 && c != 0x7f && !c1) || c == '\n' || c == '\t')
			continue;
		pr_strbuf_add(out, s + run, i - run);
		if (c1) {
			pr_strbuf_addf(out, "\\u%04x", (unsigned char)s[++i]);
		} else {
			pr_strbuf_addf(out, "\\x%02x", c);
		}
		run = i + 1;
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
