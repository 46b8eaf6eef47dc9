/* version.c - library versions. */
#include "render/version.h"

#include <cairo.h>

const char *pr_render_cairo_version(void)
{
	return cairo_version_string();
}
