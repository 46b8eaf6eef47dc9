/* escape.c - XML/HTML text escaping with UTF-8 repair. */
#include "base/escape.h"

#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

size_t pr_utf8_decode(const unsigned char *s, size_t n, long *cp)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xBF;
	size_t need, i;
	long v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		need = 1;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		need = 2;
		v = c & 0x0F;
		if (c == 0xE0)
			lo = 0xA0; /* no overlong forms */
		else if (c == 0xED)
			hi = 0x9F; /* no surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		need = 3;
		v = c & 0x07;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F; /* nothing above U+10FFFF */
	} else {
		*cp = -1; /* continuation byte, C0/C1 overlong lead, F5..FF */
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= n || s[i] < lo || s[i] > hi) {
			*cp = -1; /* the maximal subpart seen so far */
			return i;
		}
		v = (v << 6) | (s[i] & 0x3F);
		lo = 0x80;
		hi = 0xBF;
	}
	*cp = v;
	return need + 1;
}

void pr_xml_escape_n(struct pr_strbuf *sb, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0; /* run: bytes copied verbatim, pending */

	if (!s)
		return;
	while (i < n) {
		const char *rep = NULL;
		long cp;
		size_t len = pr_utf8_decode(p + i, n - i, &cp);

		if (cp < 0)
			rep = replacement;
		else if (cp == '&')
			rep = "&amp;";
		else if (cp == '<')
			rep = "&lt;";
		else if (cp == '>')
			rep = "&gt;";
		else if (cp == '"')
			rep = "&quot;";
		else if (cp == '\'')
			rep = "&#39;";
		else if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0x7F ||
			 cp == 0xFFFE || cp == 0xFFFF)
			rep = replacement;
		if (rep) {
			pr_strbuf_add(sb, p + i - run, run);
			pr_strbuf_addstr(sb, rep);
			run = 0;
		} else {
			run += len;
		}
		i += len;
	}
	pr_strbuf_add(sb, p + i - run, run);
}

void pr_xml_escape(struct pr_strbuf *sb, const char *s)
{
	if (s)
		pr_xml_escape_n(sb, s, strlen(s));
}

void pr_json_script_escape(struct pr_strbuf *sb, const char *json)
{
	const char *p = json, *run = json;
	if (!json)
		return;
	for (; *p; p++) {
		const char *rep = NULL;
		if (*p == '<')
			rep = "\\u003c";
		else if (*p == '>')
			rep = "\\u003e";
		else if (*p == '&')
			rep = "\\u0026";
		else if ((unsigned char)p[0] == 0xE2 && (unsigned char)p[1] == 0x80 &&
			 ((unsigned char)p[2] == 0xA8 || (unsigned char)p[2] == 0xA9))
			rep = (unsigned char)p[2] == 0xA8 ? "\\u2028" : "\\u2029";
		if (!rep)
			continue;
		pr_strbuf_add(sb, run, (size_t)(p - run));
		pr_strbuf_addstr(sb, rep);
		if ((unsigned char)*p == 0xE2)
			p += 2;
		run = p + 1;
	}
	pr_strbuf_add(sb, run, (size_t)(p - run));
}
