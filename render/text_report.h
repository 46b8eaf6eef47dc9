/*
 * text_report.h - the console report of an analysis model (profreport summary).
 */
#ifndef PR_TEXT_REPORT_H
#define PR_TEXT_REPORT_H

#include <stdio.h>

#include <jansson.h>

/* Prints every run of the model for an 80-column terminal. */
void pr_render_text_report(const json_t *model, FILE *out);
/* Prints text (words split at spaces) wrapped at 80 columns, every line indented. */
void pr_text_wrap(FILE *out, const char *text, int indent);

#endif
