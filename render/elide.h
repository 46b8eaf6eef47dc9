/*
 * elide.h - labels cut to a column width (bytes; UTF-8 sequences are never
 * split). Used by the console report; the cut marker is "...".
 */
#ifndef PR_RENDER_ELIDE_H
#define PR_RENDER_ELIDE_H

#include <stddef.h>

#define PR_LABEL 160 /* bytes of one label buffer (column widths are below it) */
typedef char pr_label_t[PR_LABEL];

/* s into buf (n bytes), at most w bytes, cut at the end with "..."; returns buf. */
const char *pr_elide_end(const char *s, size_t w, char *buf, size_t n);
/* s into buf, at most w bytes, cut in the middle with "..."; returns buf. */
const char *pr_elide_mid(const char *s, size_t w, char *buf, size_t n);
/*
 * The labels of one column: names[i] into out[i], each at most w bytes, cut
 * at the end (middle == 0) or in the middle. Different names never print
 * alike: look-alikes are cut again around their first difference, and if
 * two still match, the last characters of the later one become "~N".
 */
void pr_elide_column(pr_label_t *out, const char *const *names, size_t n, size_t w, int middle);

#endif
