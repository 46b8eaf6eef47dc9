/*
 * elide.c - labels cut to a column: at the end, in the middle (kernel and
 * C++ names keep their head and their arguments' tail), and a whole
 * column at once so that two different names never print alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/elide.h"

/* Copies s into buf, cut to at most w bytes (UTF-8 safe) with "..." when cut. */
const char *pr_elide_end(const char *s, size_t w, char *buf, size_t n)
{
	size_t len = strlen(s), k;
	if (len <= w || w < 4) {
		snprintf(buf, n, "%s", s);
		return buf;
	}
	k = w - 3;
	while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80)
		k--;
	snprintf(buf, n, "%.*s...", (int)k, s);
	return buf;
}

/* Copies s into buf, at most w bytes, cut in the middle with "..." (UTF-8 safe): kernel names keep their head and their arguments' tail. */
const char *pr_elide_mid(const char *s, size_t w, char *buf, size_t n)
{
	size_t len = strlen(s), h, t;
	if (len <= w || w < 8) {
		pr_elide_end(s, w, buf, n);
		return buf;
	}
	h = (w - 3) / 2;
	t = len - (w - 3 - h);
	while (h > 0 && ((unsigned char)s[h] & 0xC0) == 0x80)
		h--;
	while (t < len && ((unsigned char)s[t] & 0xC0) == 0x80)
		t++;
	snprintf(buf, n, "%.*s...%s", (int)h, s, s + t);
	return buf;
}

/* s cut to w bytes showing byte d (the first difference from a look-alike): head, window or tail. */
static void window(const char *s, size_t d, size_t w, char *buf, size_t n)
{
	size_t len = strlen(s), span = w - 6, a, e;
	if (len <= w || w < 12) {
		pr_elide_end(s, w, buf, n);
		return;
	}
	a = d > span / 2 ? d - span / 2 : 0;
	if (d < w - 3) {
		pr_elide_end(s, w, buf, n);
		return;
	}
	if (a + span + 3 >= len) {
		a = len - (w - 3);
		while (a < len && ((unsigned char)s[a] & 0xC0) == 0x80)
			a++;
		snprintf(buf, n, "...%s", s + a);
		return;
	}
	while (a < len && ((unsigned char)s[a] & 0xC0) == 0x80)
		a++;
	e = a + span;
	while (e > a && ((unsigned char)s[e] & 0xC0) == 0x80)
		e--;
	snprintf(buf, n, "...%.*s...", (int)(e - a), s + a);
}

/*
 * The labels of one table column, each at most w bytes: cut at the end, or
 * in the middle (middle != 0, for kernel names). Two different names never
 * print alike: look-alikes are cut again around their first difference
 * (the head, a window, or the tail), and, should two still match, the last
 * characters become "~N".
 */
void pr_elide_column(pr_label_t *out, const char *const *names, size_t n, size_t w, int middle)
{
	size_t i, j, *d = calloc(n ? n : 1, sizeof(*d));
	char *hit = calloc(n ? n : 1, 1);
	if (!d || !hit)
		abort();
	if (w >= PR_LABEL)
		w = PR_LABEL - 1;
	for (i = 0; i < n; i++) {
		if (middle)
			pr_elide_mid(names[i], w, out[i], PR_LABEL);
		else
			pr_elide_end(names[i], w, out[i], PR_LABEL);
		d[i] = (size_t)-1;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			size_t k = 0;
			if (strcmp(out[i], out[j]) || !strcmp(names[i], names[j]))
				continue;
			while (names[i][k] && names[i][k] == names[j][k])
				k++;
			hit[i] = hit[j] = 1;
			if (k < d[i])
				d[i] = k;
			if (k < d[j])
				d[j] = k;
		}
	for (i = 0; i < n; i++)
		if (hit[i])
			window(names[i], d[i], w, out[i], PR_LABEL);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (!strcmp(out[i], out[j]) && strcmp(names[i], names[j])) {
				size_t len = strlen(out[j]);
				char tag[16];
				int tl = snprintf(tag, sizeof(tag), "~%zu", j);
				if (len + (size_t)tl > w)
					len = w > (size_t)tl ? w - (size_t)tl : 0;
				while (len > 0 && ((unsigned char)out[j][len] & 0xC0) == 0x80)
					len--;
				snprintf(out[j] + len, PR_LABEL - len, "%s", tag);
			}
	free(d);
	free(hit);
}
