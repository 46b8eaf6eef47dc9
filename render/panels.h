/*
 * panels.h - the report's panels, built from one run of the analysis model
 * (never the store) and drawn with render/chart.h.
 *
 * USAGE
 *   struct pr_panels *ps = pr_panels_build(run);       one run object of the model
 *   for (i = 0; i < pr_panels_count(ps); i++)
 *       pr_panels_render(ps, i, PR_GFX_SVG, &out, &err);
 *   pr_panels_free(ps);
 *
 * Only panels whose data exists are built: memory timeline (phase bands,
 * boundaries, the peak annotated with value and phase), CPU with zones,
 * disk I/O per phase, phase durations, system memory, memory pressure with
 * the < 70 / 70-85 / >= 85 % zones, GPU utilisation / memory / temperature
 * / power, device allocated vs reserved (fragmentation), per-layer peak
 * memory, step-time distribution. Times are seconds since the run start.
 *
 * OWNERSHIP: the panels copy what they need from the model; the run
 * object may be released after pr_panels_build().
 */
#ifndef PR_PANELS_H
#define PR_PANELS_H

#include <stddef.h>

#include <jansson.h>

#include "render/chart.h"

struct pr_panels;

struct pr_panels *pr_panels_build(const json_t *run);
size_t pr_panels_count(const struct pr_panels *ps);
/* Stable file-name stem of panel i ("memory", "cpu", "gpu_util", ...). */
const char *pr_panels_name(const struct pr_panels *ps, size_t i);
/* Human title of panel i. */
const char *pr_panels_title(const struct pr_panels *ps, size_t i);
int pr_panels_render(const struct pr_panels *ps, size_t i, enum pr_gfx_format format,
		     struct pr_output *out, struct pr_error *err) PR_MUST_CHECK;
/* The layout dump of panel i (golden tests). */
int pr_panels_layout(const struct pr_panels *ps, size_t i, struct pr_strbuf *dump,
		     struct pr_error *err) PR_MUST_CHECK;
/* The chart spec of panel i (borrowed; for trend/extra rendering). */
const struct pr_chart *pr_panels_chart(const struct pr_panels *ps, size_t i);
void pr_panels_free(struct pr_panels *ps);

/* Phase colour: QEff's SEGMENT_COLORS for its names, else the palette by first-seen index. */
uint32_t pr_phase_color(const char *name, size_t index);

#endif
