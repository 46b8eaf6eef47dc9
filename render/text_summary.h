/*
 * text_summary.h - the console summary of an overview model.
 */
#ifndef PR_TEXT_SUMMARY_H
#define PR_TEXT_SUMMARY_H

#include <stdio.h>

#include "analyze/overview.h"

void pr_render_summary_text(const struct pr_overview *ov, FILE *out);

#endif
