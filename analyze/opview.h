/*
 * opview.h - what the operator view (an_ops.c, "op_view") and the gpu
 * analysis (an_gpulink.c, which adds the view's device columns and the
 * "kernel_view") share (internal to analyze/).
 */
#ifndef PR_OPVIEW_H
#define PR_OPVIEW_H

struct pr_strbuf;

#define OPV_ROWS 5000      /* rows kept in op_view and kernel_view, the last one a fold */
#define OPV_SHAPE_MAX_S "512" /* bytes of an op's "Input Dims" / "Input type" text kept */
#define PR_OPVIEW_OTHER "(other ops)"
#define PR_KVIEW_OTHER "(other kernels)"

/*
 * A shape arg of span s (alias) as the op view reads it: the JSON text of
 * the element of s.args at the position of key KEY in its argkeys list,
 * cut to OPV_SHAPE_MAX_S bytes, NULL when absent.
 */
#define OPV_SHAPE_SQL(KEY)                                                                     \
	"(SELECT substr(json_extract(s.args, '$[' || min(CAST(j.key AS INTEGER)) || ']'), 1, "   \
	OPV_SHAPE_MAX_S ") FROM argkeys a, json_each(a.keys) j WHERE a.id = s.args_keys AND "                  \
	"json_valid(a.keys) AND json_valid(s.args) AND j.value = '" KEY "' HAVING count(*))"

/* The rows' key: name, dims and types (NULL: absent) in sb (reset first). */
void pr_opview_key(struct pr_strbuf *sb, const char *name, const char *dims, const char *types);

#endif
