/* version.h - versions of the libraries render/ links (for --version). */
#ifndef PR_RENDER_VERSION_H
#define PR_RENDER_VERSION_H

const char *pr_render_cairo_version(void);

#endif
