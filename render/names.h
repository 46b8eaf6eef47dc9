/*
 * names.h - names as the reports show them: short, readable, and never two
 * different names alike.
 *
 * The rule (docs/report.md, "Names"):
 *   1. a mangled C++ name ("_Z...") is demangled (base/demangle.h);
 *   2. a C++ function signature loses its return type ("void ",
 *      "std::enable_if<...>::type ") and its argument list (the outermost
 *      trailing "(...)", with a " const" after it); namespaces and template
 *      heads stay: "void cudnn::bn_bw_1C11_kernel_new<float, float, float2,
 *      128, false, 1>(float, float, float, float, float const*, ...)" shows
 *      as "cudnn::bn_bw_1C11_kernel_new<float, float, float2, 128, false, 1>";
 *   3. any other name stays as it is ("aten::conv2d", "ProfilerStep#5",
 *      "Memcpy DtoD (Device -> Device)", "torch/nn/functional.py(2358):
 *      silu", "## forward ##"): a signature's "(" follows a name, a ">" or
 *      an operator's symbol directly and its list does not start with a
 *      digit;
 *   4. a label prefix ("span:", "gpu:", "busbw: ": a word, one colon) stays
 *      and the name after it follows rules 1-3;
 *   5. a kernel's C++ name (qualified and templated or scoped in a
 *      function) is shown terse: no namespaces (the outermost name keeps
 *      those not at/native/detail/internal/c10/std), no argument
 *      lists nor lambdas of the functions inside it, "> >" as ">>":
 *      "elementwise_kernel<128, 4, gpu_kernel_impl_nocast<BinaryFunctor<
 *      BFloat16, BFloat16, BFloat16, MulFunctor<float>>>>"; a column falls
 *      back to rule 2's form for two kernels whose terse forms match.
 *
 * USAGE:
 *   one name:  char b[PR_LABEL]; pr_name_display(full, b, sizeof(b));
 *   a column:  pr_name_column(labels, fulls, n, width);  (a table, a chart
 *              axis: every label at most width bytes)
 * The full name stays what a page puts in title/data-full and what copy
 * takes (render/html_report.h, pr_html_td).
 *
 * OWNERSHIP: the caller's buffers; nothing is kept.
 * LIMITATIONS: lengths are bytes, not terminal columns (UTF-8 sequences are
 * never split); whole mangled names only (a "_Z..." inside a longer text
 * stays mangled).
 */
#ifndef PR_RENDER_NAMES_H
#define PR_RENDER_NAMES_H

#include <stddef.h>

#include "render/elide.h"

/*
 * The display form of full (rules 1-5 above) into buf (n bytes; a longer
 * form is cut in the middle with "..."); returns buf. Never NULL: a NULL
 * full is "".
 */
const char *pr_name_display(const char *full, char *buf, size_t n);

/*
 * The labels of one column (a table's name column, a chart's axis):
 * out[i] is names[i]'s display form, at most w bytes (cut in the middle
 * with "..." around where it differs from its neighbours). Two different
 * names never get the same label: when two display forms are alike, those
 * names show more (the argument list, then the return type, then the
 * trace's text itself) until they differ; equal names get equal labels.
 */
void pr_name_column(pr_label_t *out, const char *const *names, size_t n, size_t w);

/*
 * A step's kind and number as the trace names it: "ProfilerStep#5" is kind
 * "ProfilerStep" (into kind, n bytes) and *num = 5, returning 1; a name with
 * no "#digits" at its end is its own kind, *num unchanged, returning 0.
 */
/*
 * A GPU stream as the trace view and the timeline name its lane: "GPU 0
 * stream 7" (device "0", stream "7" or "stream 7"; no device: "stream 7").
 */
const char *pr_stream_label(const char *device, const char *stream, char *buf, size_t n);

int pr_step_split(const char *name, char *kind, size_t n, long long *num);

#endif
