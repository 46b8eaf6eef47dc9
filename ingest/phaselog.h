/*
 * phaselog.h - a phase log attached to a run (--phases FILE): the phases a
 * run script or sampler wrote next to its memory timeline become spans of
 * kind "phase" on one track named after the file, so peaks per phase,
 * phase deltas and durations come from the analyzers as for any phase.
 *
 * USAGE: after the run's own source is parsed (pr_writer_end_input), call
 * pr_phaselog_attach(w, "phases.log", &stats, &err); it reads the whole
 * file (plain or gzip), places it on the run's clock and writes the spans
 * and diagnostics into w. stats.hash is the file's content hash (the run's
 * content hash must include it: the same trace with another log is
 * another run).
 *
 * A JSON file instead (its first character '[' or '{'): an operations list
 * [[TIME, NAME], ...] as QEff keeps its marks (profiler.operations), or an
 * object with it under "operations": each pair is a TIME NAME line with the
 * NAME whole; QEff's closing "Completion" mark ends the last phase.
 *
 * Lines (blank lines and lines starting with '#' are skipped; fields are
 * separated by ',' when the line has one, else by blanks; a first line
 * that does not start with a time is a header):
 *   TIME NAME             a phase from TIME until the next such line
 *   TIME end              ends the phase of the line before (else the
 *                         last one runs until the end of the run)
 *   TIME start NAME       a phase from TIME until "TIME end NAME"
 *   TIME end NAME         (begin for start; pairs may nest or overlap)
 *   START END NAME        a phase with both times (START,END,NAME in CSV)
 * TIME is decimal seconds, or a date-time (ISO 8601; "YYYY-MM-DD HH:MM:SS"
 * with its blank; naive ones are UTC), optionally in [brackets]. Seconds
 * >= 1e9 and date-times are absolute (Unix epoch): they are placed with the
 * run's time origin, and a run without one is an error. Smaller seconds
 * are offsets from the run's start, its earliest event (for a sampler log,
 * the first sample). One log is all absolute or all relative.
 *
 * Errors (PR_E_FORMAT/PR_E_IO, source = the log): unreadable, empty or
 * binary file; no phase line at all; absolute times on a run with no
 * absolute clock; a run with no events or with synthetic time; no phase
 * within the run's time range. Everything else is a diagnostic (message
 * "'FILE':LINE:COL: ..."): phase_bad_line, phase_mixed_time,
 * phase_naive_time_utc, phase_unmatched_end, phase_unclosed,
 * phase_time_backwards, phase_outside_run (skipped), phase_beyond_run
 * (kept as written).
 */
#ifndef PR_PHASELOG_H
#define PR_PHASELOG_H

#include <stdint.h>

#include "store/store.h"

struct pr_phaselog_stats {
	int64_t phases; /* spans written */
	char hash[33];	/* content hash of the file */
};

int pr_phaselog_attach(struct pr_writer *w, const char *path, struct pr_phaselog_stats *stats,
		       struct pr_error *err) PR_MUST_CHECK;

#endif
