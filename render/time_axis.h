/*
 * time_axis.h - the title of a run's time axes (render/time_axis.c), shared by
 * the run's panels (panels.c) and the GPU panels (gpu_panel.c).
 */
#ifndef PR_TIME_AXIS_H
#define PR_TIME_AXIS_H

#include <jansson.h>

/*
 * The title of a time axis of the run's panels: every one counts from the
 * run's start, "Time since the start, 2024-11-19 07:06:40.001 UTC" (the unit
 * is appended by the chart), or "Time since the start" for a run without an
 * absolute start (or a synthetic one). Never a UTC clock axis: one
 * convention per page. The string lives in ps (or is static).
 */
struct pr_panelset;
const char *pr_time_axis_label(struct pr_panelset *ps, const json_t *run);

#endif
