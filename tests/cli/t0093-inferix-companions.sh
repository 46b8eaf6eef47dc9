#!/bin/sh
# t0093-inferix-companions: issue 29. An Inferix session writes its report
# (profiling_report_<sid>_<ts>.json) and its raw data (raw_profiling_data_
# <sid>_<ts>.json); compare on a directory holding both counted the raw data
# as a run of its own (samples/inferix: 5 runs, 3 of them the multirank
# reports). The raw data is its report's companion: skipped with a note, as
# aggregate does; alone (no report beside it) it stays the run.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

IX=$PR_SAMPLES/inferix
mkdir one
cp "$IX"/profiling_report_*.json "$IX"/raw_profiling_data_*.json one/

# one session: 1 run per side, the raw data noted on each side
run "$P" compare one one
expect_rc 0 "compare of one Inferix session with itself"
expect_out_has "base: 1 run(s), new: 1 run(s)" "the report and its raw data are one run"
expect_err_has "BASE: 'one/raw_profiling_data_t2v_generation_20231114_221332.json': skipped, Inferix raw data: a companion of its report 'profiling_report_t2v_generation_20231114_221332.json', not a run" \
	"the raw data is noted as the report's companion"

# the sample directory: its report + raw data + the 3 multirank reports = 4 runs, not 5
run "$P" compare "$IX" "$IX"
expect_rc 0 "compare of samples/inferix with itself"
expect_out_has "base: 4 run(s), new: 4 run(s)" "samples/inferix is 4 runs"

# raw data alone is the run
mkdir raw
cp "$IX"/raw_profiling_data_*.json raw/
run "$P" compare raw raw
expect_rc 0 "compare of raw data alone"
expect_out_has "base: 1 run(s), new: 1 run(s)" "raw data without its report is the run"
if grep -q "companion" "$tmp/err"; then
	fail "raw data without its report was skipped as a companion"
fi

finish
