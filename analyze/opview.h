/*
 * opview.h - what the operator view (an_ops.c, "op_view") and the gpu
 * analysis (an_gpulink.c, which adds the view's device columns and the
 * "kernel_view") share (internal to analyze/).
 */
#ifndef PR_OPVIEW_H
#define PR_OPVIEW_H

#include <stddef.h>
#include <stdint.h>

struct pr_strbuf;

#define OPV_ROWS 5000	  /* rows kept in op_view and kernel_view, the last one a fold */
#define OPV_SHAPE_MAX 512 /* bytes of an op's "Input Dims" / "Input type" text kept */

/* The positions of "Input Dims" (d) and "Input type" (t) in each argkeys list (id). */
#define OPV_KEYS_CTE                                                                               \
	"WITH k AS MATERIALIZED (SELECT a.id AS id, "                                              \
	"(SELECT min(CAST(j.key AS INTEGER)) FROM json_each(a.keys) j "                            \
	" WHERE j.value = 'Input Dims') AS d, "                                                    \
	"(SELECT min(CAST(j.key AS INTEGER)) FROM json_each(a.keys) j "                            \
	" WHERE j.value = 'Input type') AS t "                                                     \
	"FROM argkeys a WHERE json_valid(a.keys)) "
#define PR_OPVIEW_OTHER "(other ops)"
#define PR_KVIEW_OTHER "(other kernels)"

/*
 * The element at pos of a minified JSON array text s[0..n) (a span's args)
 * as its JSON text, cut to OPV_SHAPE_MAX bytes, in sb (reset first): 1, or
 * 0 when there is none. The op view's shapes (an_ops.c registers it as the
 * SQL function pr_opv_elem(args, pos) on the store's connection).
 */
int pr_opview_elem(const char *s, size_t n, int64_t pos, struct pr_strbuf *sb);

/* The rows' key: name, dims and types (NULL: absent) in sb (reset first). */
void pr_opview_key(struct pr_strbuf *sb, const char *name, const char *dims, const char *types);

#endif
