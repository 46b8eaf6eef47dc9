/*
 * perf_panel.h - the perf model's roofline panel (the model's
 * `perf_model` section, docs/analysis.md), drawn with render/chart.h.
 *
 * USAGE
 *   pr_perf_panels_add(ps, run);   appends "perf_roofline" when the run has
 *                                  a perf model with a known device and at
 *                                  least one op group with FLOPs and bytes
 *
 * perf_roofline: log-log, arithmetic intensity (FLOP/byte) along x and
 * achieved FLOP/s up; the roof min(peak, intensity x bandwidth) of the
 * roofline's dtype with its ridge point (peak / bandwidth) as a dashed
 * vertical line; one dot per op group (perf_model.groups, the first
 * PR_PERF_PANEL_MAX_DOTS with FLOPs and bytes), coloured by category, one
 * legend entry per category; the 3 groups with the most device time whose
 * dots are apart (0.6 decade across or 1 decade up) are marked with their
 * name.
 *
 * OWNERSHIP: the panel copies what it needs into the set's pool.
 */
#ifndef PR_PERF_PANEL_H
#define PR_PERF_PANEL_H

#include <stddef.h>

#include <jansson.h>

#include "render/panelset.h"

#define PR_PERF_PANEL_MAX_DOTS 60

/* Appends the run's roofline panel to ps; returns how many were added (0 or 1). */
size_t pr_perf_panels_add(struct pr_panelset *ps, const json_t *run);

#endif
