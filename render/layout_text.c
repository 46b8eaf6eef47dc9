/* layout_text.c - text measuring (a table of DejaVu Sans advances) and elision. */
#include "render/layout.h"

#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/xalloc.h"
#include "render/layout_impl.h"

/* ---- text measuring ---- */

/*
 * Advance widths in font units (2048 per em) of DejaVu Sans 2.37 and DejaVu
 * Sans Bold for U+0020..U+007E followed by U+00A0..U+00FF, as Cairo reports
 * them with unhinted metrics.
 */
static const uint16_t adv_regular[191] = {
	651,  821,  942,  1716, 1303, 1946, 1597, 563,	799,  799,  1024, 1716, 651,  739,  651,
	690,  1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690,	690,  1716, 1716,
	1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604,	604,  1343, 1141,
	1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799,
	690,  799,  1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721,  1300, 1298, 569,  569,
	1186, 569,  1995, 1298, 1253, 1300, 1300, 842,	1067, 803,  1298, 1212, 1675, 1212, 1212,
	1075, 1303, 690,  1303, 1716, 651,  821,  1303, 1303, 1303, 1303, 690,	1024, 1024, 2048,
	965,  1253, 1716, 739,	2048, 1024, 1024, 1716, 821,  821,  1024, 1303, 1303, 651,  1024,
	821,  965,  1253, 1985, 1985, 1985, 1087, 1401, 1401, 1401, 1401, 1401, 1401, 1995, 1430,
	1294, 1294, 1294, 1294, 604,  604,  604,  604,	1587, 1532, 1612, 1612, 1612, 1612, 1612,
	1716, 1612, 1499, 1499, 1499, 1499, 1251, 1239, 1290, 1255, 1255, 1255, 1255, 1255, 1255,
	2011, 1126, 1260, 1260, 1260, 1260, 569,  569,	569,  569,  1253, 1298, 1253, 1253, 1253,
	1253, 1253, 1716, 1253, 1298, 1298, 1298, 1298, 1212, 1300, 1212,
};
static const uint16_t adv_bold[191] = {
	713,  934,  1067, 1716, 1425, 2052, 1786, 627,	936,  936,  1071, 1716, 778,  850,  778,
	748,  1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 819,	819,  1716, 1716,
	1716, 1188, 2048, 1585, 1561, 1503, 1700, 1399, 1399, 1681, 1714, 762,	762,  1587, 1305,
	2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483, 1485, 936,
	748,  936,  1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891,  1466, 1458, 702,  702,
	1362, 702,  2134, 1458, 1407, 1466, 1466, 1010, 1219, 979,  1458, 1335, 1892, 1321, 1335,
	1192, 1458, 748,  1458, 1716, 713,  934,  1425, 1425, 1303, 1425, 748,	1024, 1024, 2048,
	1155, 1323, 1716, 850,	2048, 1024, 1024, 1716, 897,  897,  1024, 1507, 1303, 778,  1024,
	897,  1155, 1323, 2120, 2120, 2120, 1188, 1585, 1585, 1585, 1585, 1585, 1585, 2222, 1503,
	1399, 1399, 1399, 1399, 762,  762,  762,  762,	1716, 1714, 1741, 1741, 1741, 1741, 1741,
	1716, 1741, 1663, 1663, 1663, 1663, 1483, 1511, 1473, 1382, 1382, 1382, 1382, 1382, 1382,
	2146, 1214, 1389, 1389, 1389, 1389, 702,  702,	702,  702,  1407, 1458, 1407, 1407, 1407,
	1407, 1407, 1716, 1407, 1458, 1458, 1458, 1458, 1335, 1466, 1335,
};

#define UNITS_PER_EM 2048.0
#define ADV_ELLIPSIS 2048
#define ADV_REPLACEMENT_REGULAR 2100
#define ADV_REPLACEMENT_BOLD 2280
#define ADV_OTHER 1229 /* 0.6 em: an estimate for characters outside the table */

static unsigned advance(long cp, int bold)
{
	const uint16_t *t = bold ? adv_bold : adv_regular;
	if (cp >= 0x20 && cp <= 0x7E)
		return t[cp - 0x20];
	if (cp >= 0xA0 && cp <= 0xFF)
		return t[95 + (cp - 0xA0)];
	if (cp == 0x2026)
		return ADV_ELLIPSIS;
	if (cp == 0xFFFD || cp < 0)
		return bold ? ADV_REPLACEMENT_BOLD : ADV_REPLACEMENT_REGULAR;
	if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
		return t[0]; /* drawn as a space by pr_text_clean */
	return ADV_OTHER;
}

double pr_text_width_dejavu(void *ctx, const char *text, double size, int bold)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t n = text ? strlen(text) : 0, i = 0;
	unsigned long units = 0;
	(void)ctx;
	while (i < n) {
		long cp;
		i += pr_utf8_decode(p + i, n - i, &cp);
		units += advance(cp, bold);
	}
	return (double)units * size / UNITS_PER_EM;
}

const struct pr_text_metrics pr_text_metrics_dejavu = { pr_text_width_dejavu, NULL };

char *pr_text_clean(const char *text)
{
	struct pr_strbuf sb = PR_STRBUF_INIT;
	const unsigned char *p = (const unsigned char *)text;
	size_t n = text ? strlen(text) : 0, i = 0;
	while (i < n) {
		long cp;
		size_t len = pr_utf8_decode(p + i, n - i, &cp);
		if (cp < 0)
			pr_strbuf_addstr(&sb, "\xEF\xBF\xBD");
		else if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
			pr_strbuf_addch(&sb, ' ');
		else
			pr_strbuf_add(&sb, p + i, len);
		i += len;
	}
	return pr_strbuf_detach(&sb, NULL);
}

char *pr_text_elide(const struct pr_text_metrics *m, const char *text, double size, int bold,
		    double max_w)
{
	static const char ellipsis[] = "\xE2\x80\xA6";
	struct pr_strbuf sb = PR_STRBUF_INIT;
	size_t n = strlen(text), *cuts, ncuts = 0, lo, hi, i;
	const unsigned char *p = (const unsigned char *)text;

	if (pr_lo_text_w(m, text, size, bold) <= max_w)
		return pr_xstrdup(text);
	if (pr_lo_text_w(m, ellipsis, size, bold) > max_w)
		return pr_xstrdup("");
	/* Candidate prefix lengths: every code point boundary. */
	cuts = pr_xreallocarray(NULL, n + 1, sizeof(size_t));
	for (i = 0; i < n;) {
		long cp;
		cuts[ncuts++] = i;
		i += pr_utf8_decode(p + i, n - i, &cp);
	}
	/* Longest prefix k (index into cuts) whose elided form fits; 0 always does. */
	lo = 0;
	hi = ncuts - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2, len = cuts[mid];
		pr_strbuf_reset(&sb);
		pr_strbuf_add(&sb, text, len);
		pr_strbuf_addstr(&sb, ellipsis);
		if (pr_lo_text_w(m, sb.buf, size, bold) <= max_w)
			lo = mid;
		else
			hi = mid - 1;
	}
	i = cuts[lo];
	while (i > 0 && text[i - 1] == ' ')
		i--;
	pr_strbuf_reset(&sb);
	pr_strbuf_add(&sb, text, i);
	pr_strbuf_addstr(&sb, ellipsis);
	free(cuts);
	return pr_strbuf_detach(&sb, NULL);
}
