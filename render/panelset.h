/*
 * panelset.h - a set of named chart panels and the memory their specs
 * point to (one pool, freed together). The report, aggregate and compare
 * panel builders fill one; the CLI writes it as files, the HTML pages
 * embed it.
 *
 * USAGE
 *   struct pr_panelset *ps = pr_panelset_new();
 *   double *y = pr_panelset_alloc(ps, n, sizeof(double));
 *   struct pr_chart *c = pr_panelset_add(ps, "memory", "Memory over time");
 *   ... fill c (arrays and strings from the pool) ...
 *   pr_panelset_write_files(ps, "out", "", PR_GFX_PNG, &err);
 *   pr_panelset_free(ps);
 *
 * OWNERSHIP: everything allocated from the set lives until pr_panelset_free.
 * Names are made unique ("device_memory", "device_memory-2") so they can
 * name files.
 */
#ifndef PR_PANELSET_H
#define PR_PANELSET_H

#include <stddef.h>

#include "render/chart.h"

struct pr_panelset;

struct pr_panelset *pr_panelset_new(void);
void pr_panelset_free(struct pr_panelset *ps); /* NULL is fine */
/* Zeroed memory for n elements of size bytes, freed with the set. */
void *pr_panelset_alloc(struct pr_panelset *ps, size_t n, size_t size);
char *pr_panelset_strdup(struct pr_panelset *ps, const char *s);
/* A new panel (zeroed chart, title set); name is a file-name stem. */
struct pr_chart *pr_panelset_add(struct pr_panelset *ps, const char *name, const char *title);

/*
 * Panels left out because they would say nothing (render/panels.h): panel
 * i is removed (the ones after it move down) and listed with its reason
 * ("constant 1.8 %"), in the order removed, for the page to say so.
 */
void pr_panelset_remove(struct pr_panelset *ps, size_t i, const char *reason);
size_t pr_panelset_skipped_count(const struct pr_panelset *ps);
const char *pr_panelset_skipped_name(const struct pr_panelset *ps, size_t i);
const char *pr_panelset_skipped_reason(const struct pr_panelset *ps, size_t i);

size_t pr_panelset_count(const struct pr_panelset *ps);
const char *pr_panelset_name(const struct pr_panelset *ps, size_t i);
const char *pr_panelset_title(const struct pr_panelset *ps, size_t i);
const struct pr_chart *pr_panelset_chart(const struct pr_panelset *ps, size_t i);
int pr_panelset_render(const struct pr_panelset *ps, size_t i, enum pr_gfx_format format,
		       struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;
int pr_panelset_layout(const struct pr_panelset *ps, size_t i, struct pr_strbuf *dump,
		       struct pr_error *err) PR_MUST_CHECK;
/* Writes every panel as DIR/<prefix><name>.png|svg (atomically), creating DIR when missing. */
int pr_panelset_write_files(const struct pr_panelset *ps, const char *dir, const char *prefix,
			    enum pr_gfx_format format, struct pr_error *err) PR_MUST_CHECK;

#endif
