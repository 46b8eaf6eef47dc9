/*
 * kseq.h - frequent kernel sequences, the gpu analysis' (an_gpulink.c)
 * share of issue 28's kernel launch statistics (internal to analyze/):
 * the repeated runs of device activities on a stream that are worth fusing.
 *
 * USAGE (in the gpu analysis' pass over the activities)
 *   struct pr_kseq *k = pr_kseq_new(ctx, nstreams);
 *   pr_kseq_add(k, stream, ts, dur, name_id, op_name_id, call_ts);   per activity
 *   if (pr_kseq_finish(k, labels, &section, &err)) ...  (gpu.kernel_sequences)
 *   pr_kseq_free(k);
 *
 * DEFINITION (docs/analysis.md, "kernel_sequences"): per stream, its
 * activities (kernels, memcpys, memsets: HTA's GPU kernels, every event with
 * a stream) in start order, cut where the step holding the launching call's
 * start (the activity's own start when it has no call) changes; in each
 * piece, every contiguous pattern of 3..16 names; a pattern's count is the
 * number of its non-overlapping occurrences (greedy from the left, which is
 * the most); patterns seen at least twice are kept, but one contained in a
 * one-longer pattern of the same count (then it is in every longer one of
 * that count) is dropped; they are ranked by the device time of their counted
 * occurrences, and the top 10 listed, a pattern whose first occurrence
 * overlaps that of a better-ranked listed one left out (a shift of it).
 *
 * HOW: the activities go to an external sort by start (base/xsort.h, 48
 * bytes each), then one pass keeps per stream the last 16 activities and
 * hashes the 16 windows ending at each (64-bit hashes of the names, chained
 * from the newest, seeded by the stream): one lookup per window of length 3
 * to 16 in a table of the distinct patterns, each holding its count, its
 * time, and the hashes of its two one-shorter pieces (for the containment
 * test). A stream of (name, op, previous activity on the stream) per
 * activity, 24 bytes, gives the listed patterns' names and ops back.
 *
 * MEMORY: the sort's buffer (pr_xsort_mem), 24 bytes an activity in a
 * stream (base/spill.h: in memory up to pr_gpuscan_mem), per stream 1 KiB,
 * and per distinct pattern 104 bytes (its entry and index), at most
 * pr_kseq_max_ngrams of them (PROFREPORT_KSEQ_NGRAMS=N; default 64 Ki,
 * 6.5 MiB): past it, patterns first
 * seen later are not counted (the section's "ngrams_over" and the run's
 * diagnostic kernel_sequences_over_budget say how many windows).
 * A 64-bit hash stands for a pattern: two patterns of one stream taken as one
 * is a chance of about n^2 / 2^65 (1e-10 at 64 Ki patterns).
 */
#ifndef PR_KSEQ_H
#define PR_KSEQ_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "analyze/actx.h"

#define PR_KSEQ_NGRAMS_ENV "PROFREPORT_KSEQ_NGRAMS"
#define PR_KSEQ_NGRAMS_DEFAULT ((size_t)1 << 16)
/* The distinct patterns kept at most (read by the model for each build). */
extern size_t pr_kseq_max_ngrams;

#define PR_KSEQ_MIN_LEN 3
#define PR_KSEQ_MAX_LEN 16
#define PR_KSEQ_TOP 10

struct pr_kseq;

struct pr_kseq *pr_kseq_new(struct pr_actx *ctx, size_t nstreams);
/* An activity on stream (0 .. nstreams-1); op_name 0: none; call_ts: its launching call's
 * start, INT64_MIN when it has none (unlinked). */
void pr_kseq_add(struct pr_kseq *k, int32_t stream, int64_t ts, int64_t dur, int64_t name_id,
		 int64_t op_name, int64_t call_ts);
/* The section in *out (labels[i]: stream i's name): 0, or -1 with err (a scratch file). Sets
 * ctx->kseq_over. */
int pr_kseq_finish(struct pr_kseq *k, const char *const *labels, json_t **out,
		   struct pr_error *err) PR_MUST_CHECK;
void pr_kseq_free(struct pr_kseq *k);

#endif
