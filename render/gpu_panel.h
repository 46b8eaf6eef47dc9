/*
 * gpu_panel.h - the GPU panels of one run of the analysis model (the
 * `gpu_breakdown`, `gpu` and `step_breakdown` sections), drawn with
 * render/chart.h like the other panels.
 *
 * USAGE
 *   struct pr_panelset *ps = pr_panelset_new();
 *   pr_gpu_panels_add(ps, run);          appends the panels the run has data for
 *   ... pr_panelset_write_files / the HTML page ...
 *   pr_panelset_free(ps);
 *
 * Panels (names are file stems), each only when the model has its data:
 *   gpu_temporal      HTA's temporal breakdown: one stacked bar for the rank
 *                     and one per stream (the first PR_GPU_PANEL_MAX_STREAMS
 *                     of the model's list), compute / communication / memory /
 *                     idle (idle split host wait / kernel wait / other where
 *                     the model splits it), shares of the span in percent
 *   gpu_overlap       communication kernel time overlapped by compute kernels
 *                     vs not (one stacked bar, shares and times)
 *   gpu_kernel_types  GPU op time by type (compute / communication / memory)
 *   gpu_top_kernels   the model's top GPU ops by total time (coloured by type,
 *                     names as render/names.h shows a column: demangled, no
 *                     return type or argument list, at most
 *                     PR_GPU_PANEL_NAME_MAX bytes, never two alike)
 *   gpu_queue         queue length over time per stream (a step chart of
 *                     gpu.streams.items[].queue.timeline; mean and max in the
 *                     legend, the largest max marked; the axis starts at 0)
 *   gpu_steps         TensorBoard's step breakdown: a stacked bar per step
 *                     (Kernel / Memcpy / Memset / Communication / Runtime /
 *                     DataLoader / CPU Exec / Other), shares as labels
 * One palette for every panel: compute / Kernel blue, communication orange,
 * memory / Memcpy green, idle / Other greys (pr_gpu_color).
 *
 * OWNERSHIP: the panels copy what they need into the set's pool.
 */
#ifndef PR_GPU_PANEL_H
#define PR_GPU_PANEL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "render/panelset.h"

#define PR_GPU_PANEL_MAX_STREAMS 16
#define PR_GPU_PANEL_MAX_KERNELS 15
#define PR_GPU_PANEL_MAX_STEPS 40
#define PR_GPU_PANEL_NAME_MAX 48

/* Appends the run's GPU panels to ps; returns how many were added. */
size_t pr_gpu_panels_add(struct pr_panelset *ps, const json_t *run);

/*
 * The colour of a GPU time category, shared by the panels: "compute",
 * "communication", "memory", "idle", "host_wait", "kernel_wait", "other_idle",
 * and TensorBoard's "kernel", "memcpy", "memset", "runtime", "dataloader",
 * "cpu_exec", "other", plus "overlapped". Unknown names are grey.
 */
uint32_t pr_gpu_color(const char *category);

/*
 * One kernel name shortened for a chart: its display name (render/names.h:
 * demangled, no return type, no argument list); longer than max bytes (not
 * cut inside a UTF-8 character), the middle replaced by U+2026 so the head
 * and the tail stay. Returns buf. A column of names: pr_name_column.
 */
char *pr_gpu_short_name(const char *name, size_t max, char *buf, size_t n);

#endif
