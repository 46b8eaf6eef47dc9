/* html_trace.c - see html_views.h. */
#include "render/html_views.h"

#include "base/strbuf.h"

void pr_html_trace_view(struct pr_strbuf *sb, const json_t *run, size_t runi)
{
	(void)sb;
	(void)run;
	(void)runi;
}
