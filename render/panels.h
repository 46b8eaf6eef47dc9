/*
 * panels.h - the report's panels, built from one run of the analysis model
 * (never the store) and drawn with render/chart.h.
 *
 * USAGE
 *   struct pr_panelset *ps = pr_panels_build(run);     one run object of the model
 *   pr_panelset_write_files(ps, "out", "", PR_GFX_PNG, &err);   (render/panelset.h)
 *   pr_panelset_free(ps);
 *
 * Only panels whose data exists are built: memory timeline (phase bands,
 * boundaries, the peak annotated with value and phase), CPU with zones,
 * disk I/O per phase, phase durations, system memory, memory pressure with
 * the < 70 / 70-85 / >= 85 % zones, GPU utilisation / memory / temperature
 * / power, device allocated vs reserved (fragmentation; at most
 * PR_PANELS_MAX_DEVICES devices, the largest first), per-layer peak
 * memory, step-time distribution; then the GPU panels of
 * render/gpu_panel.h. Sampled series are drawn as steps; a torch memory
 * timeline's categories as a stacked area (memory_categories) with the
 * total on top; a CUDA memory snapshot's allocated bytes stacked by the
 * allocation sites live at its peak (cuda_sites). A line panel that says nothing (every line
 * constant, or every line already drawn in one earlier panel) is removed from the set and listed
 * with the reason (pr_panelset_skipped_*). Runs with an absolute start that last 10 s or more get a
 * UTC clock-time x axis, others show seconds since the run start, or, for a massif run whose x axis
 * is not time (clock.x_unit), that axis in its own unit.
 *
 * OWNERSHIP: the panels copy what they need from the model; the run
 * object may be released after pr_panels_build().
 */
#ifndef PR_PANELS_H
#define PR_PANELS_H

#include <stddef.h>

#include <jansson.h>

#include "render/panelset.h"

/*
 * The panels of one run of the model (pr_panelset_free frees them): the
 * general ones, then the GPU ones (render/gpu_panel.h).
 */
struct pr_panelset *pr_panels_build(const json_t *run);
/* The general panels only (the HTML page draws the GPU ones in its GPU section). */
struct pr_panelset *pr_panels_build_general(const json_t *run);

/*
 * Device memory (allocated vs reserved) has one panel per device, for at
 * most PR_PANELS_MAX_DEVICES devices: those with the largest reserved peak.
 * pr_panels_device_count() is how many devices qualify (the rest of them
 * get no panel; a page says so).
 */
#define PR_PANELS_MAX_DEVICES 16
size_t pr_panels_device_count(const json_t *run);

/*
 * The run's x axis: NULL when it is time (ns since the start), else what
 * clock.x_unit says it counts ("instructions" or "bytes": valgrind massif
 * --time-unit=i / B). Never shown as a time.
 */
const char *pr_run_x_unit(const json_t *run);
/* The unit of the run's span values (spans.unit): "ns", or its x unit ("bytes" for DHAT). */
const char *pr_run_span_unit(const json_t *run);
/* What the run's x axis measures, in words: "time", or e.g. "bytes allocated (DHAT's tb...)". */
const char *pr_run_x_desc(const json_t *run);
/* A position or extent on that axis: "1.069 ms", "1.069 M instructions", "1.39 MiB allocated". */
void pr_fmt_x(const json_t *run, double v, char *buf, size_t n);

/*
 * The numbers of a model's listed steps (throughput.steps.list) as the trace
 * names them into x[n] ("ProfilerStep#4" -> 4) when every name has one and
 * they increase; else the first's number (0 without one) plus the index. kind
 * (kn bytes) gets the step kind ("ProfilerStep"). Returns the first number.
 * Every chart and table numbers steps so: #4..#6, never 0..2.
 */
double pr_step_numbers(const json_t *list, double *x, size_t n, char *kind, size_t kn);

/* Phase colour: QEff's SEGMENT_COLORS for its names, else the palette by first-seen index. */
uint32_t pr_phase_color(const char *name, size_t index);

#endif
