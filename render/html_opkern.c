/* html_opkern.c - see html_views.h. */
#include "render/html_views.h"

#include "base/strbuf.h"

void pr_html_op_view(struct pr_strbuf *sb, const json_t *run, size_t runi)
{
	(void)sb;
	(void)run;
	(void)runi;
}

void pr_html_kernel_view(struct pr_strbuf *sb, const json_t *run, size_t runi)
{
	(void)sb;
	(void)run;
	(void)runi;
}
