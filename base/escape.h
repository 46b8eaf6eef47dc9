/*
 * escape.h - escaping text at the output boundary (STYLE.md rule 17).
 *
 * USAGE: pr_xml_escape(&sb, name) appends `name` made safe for XML/HTML
 * text content and for attribute values in either quote style.
 *
 * What it does:
 *   &  <  >  "  '   become  &amp; &lt; &gt; &quot; &#39;
 *   invalid UTF-8 (stray continuation bytes, truncated sequences, overlong
 *   forms, surrogates, code points above U+10FFFF) becomes U+FFFD, one per
 *   maximal ill-formed subsequence (the Unicode "best practice");
 *   C0 control characters other than TAB, LF and CR, and DEL, become U+FFFD
 *   (XML 1.0 cannot carry them at all);
 *   the noncharacters U+FFFE and U+FFFF become U+FFFD;
 *   everything else is copied byte for byte.
 *
 * pr_json_script_escape(&sb, json) appends a JSON text (from jansson) made
 * safe as the content of an HTML <script type="application/json"> element:
 * '<', '>' and '&' become \u003c, \u003e and \u0026 (in JSON text they
 * can only stand inside strings, where the escape means the same), so no
 * "</script" or "<!--" can end or change the element; U+2028 and U+2029
 * become \u2028 and \u2029. JSON.parse() gives back the same value.
 *
 * OWNERSHIP: appends to the caller's strbuf; a NULL string appends nothing.
 * LIMITATIONS: pr_xml_escape is not for JSON (use jansson, then
 * pr_json_script_escape inside a page), CSS or URLs.
 */
#ifndef PR_ESCAPE_H
#define PR_ESCAPE_H

#include <stddef.h>

#include "base/strbuf.h"

void pr_xml_escape(struct pr_strbuf *sb, const char *s);
/* The same for n bytes that may contain NUL (which becomes U+FFFD). */
void pr_xml_escape_n(struct pr_strbuf *sb, const char *s, size_t n);

/* JSON text (valid UTF-8, from jansson) as the content of a <script type="application/json">. */
void pr_json_script_escape(struct pr_strbuf *sb, const char *json);

/*
 * Decode one UTF-8 code point at s[0..n) (n >= 1). Returns the number of
 * bytes consumed (>= 1) and sets *cp, or sets *cp = -1 for an ill-formed
 * subsequence and returns its length. Shared with the text measuring code.
 */
size_t pr_utf8_decode(const unsigned char *s, size_t n, long *cp);

#endif
