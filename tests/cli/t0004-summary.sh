#!/bin/sh
# t0004-summary: 'profreport summary INPUT...' prints, per run, the console
# report (peaks, memory statistics, phases, throughput, top spans by self
# time, recommendations, diagnostics); INPUT may be a store,
# trace files or directories (ingested into a temporary store that is
# removed afterwards).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

"$P" ingest -q "$TORCH" -o st.db || fail "setup: ingest of the torch sample failed"
steps=$(query_value st.db "SELECT count(*) FROM span WHERE kind = 'step'")
[ "$steps" -ge 1 ] || fail "setup: the torch sample has no ProfilerStep spans"

# -- the torch sample, given as a file
run "$P" summary "$TORCH"
expect_rc 0 "summary of the torch sample"
expect_err_empty "summary of the torch sample"
cp "$tmp/out" from-file.txt
expect_out_has "run 1: trace_rank0.pt.trace.json" "summary run line"
expect_out_has "format chrome, collector torch.profiler, rank 0 of 8" "summary run line"
if ! grep -Eq "^  ProfilerStep #0: $steps steps, " from-file.txt; then
	fail "summary: no 'steps: $steps' line (the sample has $steps ProfilerStep spans)"
	show
fi
expect_out_has "ProfilerStep#0" "summary lists the step"
for section in "Peak memory" "Memory statistics" "Phases (timeline)" "Throughput" "Top spans by self time" "Recommendations"; do
	expect_out_has "$section" "summary has the '$section' section"
done
for phase in "## forward ##" "## backward ##" "## optimizer ##"; do
	expect_out_has "$phase" "summary lists the phase '$phase'"
done
expect_out_has "dev.mem.allocated" "summary lists the [memory] series"
expect_out_has "dev.mem.reserved" "summary lists the [memory] series"
# the default top list is 10 rows
top=$(awk '/^Top spans by self time/ { on = 1; getline; next } on && /^$/ { exit } on { n++ } END { print n + 0 }' from-file.txt)
[ "$top" = 10 ] || fail "summary: the top spans list has $top rows, expected 10 by default"
ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "summary of a file left temporary files: $(cat leftover)"

# -- the same run, given as a store: the same report
run "$P" summary st.db
expect_rc 0 "summary of a store"
cmp -s from-file.txt "$tmp/out" || {
	fail "summary of the store differs from summary of the file"
	diff from-file.txt "$tmp/out" | head -10 >&2 || true
}
[ "$(query_value st.db "SELECT count(*) FROM run")" = 1 ] || fail "summary changed the store"

# -- --top N
run "$P" summary --top 3 st.db
expect_rc 0 "summary --top 3"
top=$(awk '/^Top spans by self time/ { on = 1; getline; next } on && /^$/ { exit } on { n++ } END { print n + 0 }' "$tmp/out")
[ "$top" = 3 ] || fail "summary --top 3 listed $top rows"

# -- a directory: every trace in it is a run; other files are skipped with one note
# naming them (issue 29: they used to be skipped without a word)
mkdir -p dir/torch dir/chrome
cp "$TORCH" dir/torch/
cp "$VIZ" dir/chrome/
echo "# notes" >dir/README.md
run "$P" summary dir
expect_rc 0 "summary of a directory"
expect_one_err_line "summary of a directory"
expect_err_has "profreport: summary: 'dir': 1 file(s) skipped, not a recognized format: 'dir/README.md'" \
	"summary of a directory"
expect_out_has "run 1: viztracer_like.json" "summary of a directory"
expect_out_has "run 2: trace_rank0.pt.trace.json" "summary of a directory"
[ "$(grep -c '^run ' "$tmp/out")" = 2 ] || fail "summary of a directory: expected 2 runs"
if ! grep -Eq "^  ProfilerStep #0: $steps steps, " "$tmp/out"; then
	fail "summary of a directory: no 'ProfilerStep #0: $steps steps' line"
fi
run "$P" report dir -o dir.html -q
expect_rc 0 "report -q of a directory"
expect_err_empty "report -q of a directory (-q: not even the skipped files' note)"

# -- several files
run "$P" summary "$VIZ" "$TORCH"
expect_rc 0 "summary of two files"
[ "$(grep -c '^run ' "$tmp/out")" = 2 ] || fail "summary of two files: expected 2 runs"
ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "summary left temporary files: $(cat leftover)"

# -- --json: the model beside the text; --json - replaces the text
run "$P" summary st.db --json model.json
expect_rc 0 "summary --json FILE"
expect_out_has "Peak memory" "summary --json FILE still prints the report"
grep -q '"schema": "profreport-model"' model.json || fail "summary --json wrote no model"
run "$P" summary st.db --json -
expect_rc 0 "summary --json -"
expect_out_has '"schema": "profreport-model"' "summary --json - prints the model"
if grep -q '^Peak memory' "$tmp/out"; then fail "summary --json - also printed the text"; fi

# -- a trace that fails to parse: one error line, exit 2, no report
printf '[\n{"name": "a", "ph": "X" "ts": 1}]\n' >bad.json
run "$P" summary bad.json
expect_rc 2 "summary of a malformed trace"
expect_out_empty "summary of a malformed trace"
expect_one_err_line "summary of a malformed trace"
expect_err_has "'bad.json':2:25: " "summary of a malformed trace"
ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "a failed summary left temporary files: $(cat leftover)"

finish
