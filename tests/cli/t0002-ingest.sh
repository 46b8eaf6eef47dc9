#!/bin/sh
# t0002-ingest: 'profreport ingest' (README: each file becomes one run in one
# transaction; content already in the store is reported, not added twice;
# directories are read recursively and unrecognized files in them skipped).
# Exit status: 0 when every input was ingested or skipped, 2 when any failed
# (the others are still ingested), one stderr line per failed file.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

runs() {
	query_value "$1" "SELECT count(*) FROM run"
}

# -- one file: exit 0, one line naming the run, its format and its counts
run "$P" ingest "$TORCH" -o st.db
expect_rc 0 "ingest the torch sample"
expect_err_empty "ingest the torch sample"
if [ "$(wc -l <"$tmp/out")" -ne 1 ] ||
	! grep -Eq "^'$TORCH': run 1, chrome, [0-9]+ spans, [0-9]+ samples, [0-9]+ instants$" "$tmp/out"; then
	fail "ingest: the report is not one line \"'FILE': run 1, chrome, N spans, N samples, N instants\""
	show
fi
line=$(cat "$tmp/out")
counts=$(query_value st.db "SELECT span_count || ' spans, ' || sample_count || ' samples, ' || instant_count || ' instants' FROM run")
case $line in
*", $counts") ;;
*) fail "ingest: the report '$line' does not match the store ($counts)" ;;
esac
[ "$(runs st.db)" = 1 ] || fail "ingest: the store should hold 1 run, holds $(runs st.db)"
[ "$(query_value st.db "SELECT collector FROM run")" = torch.profiler ] ||
	fail "ingest: the torch sample is not recognized as torch.profiler"
"$P" dump events st.db >dump.before

# -- the same file again, and the same content under another name
run "$P" ingest "$TORCH" -o st.db
expect_rc 0 "ingest the same file again"
expect_err_empty "ingest the same file again"
expect_out_has "'$TORCH': already in the store as run 1" "ingest the same file again"
cp "$TORCH" renamed.json
run "$P" ingest renamed.json -o st.db
expect_rc 0 "ingest a renamed copy"
expect_out_has "'renamed.json': already in the store as run 1" "ingest a renamed copy"
[ "$(runs st.db)" = 1 ] || fail "re-ingest: the run count changed to $(runs st.db)"
"$P" dump events st.db >dump.after
cmp -s dump.before dump.after || fail "re-ingest: the store changed"

# -- -q prints nothing on success; a second file becomes run 2
run "$P" ingest -q "$VIZ" -o st.db
expect_rc 0 "ingest -q"
expect_out_empty "ingest -q"
expect_err_empty "ingest -q"
[ "$(runs st.db)" = 2 ] || fail "ingest -q: the store should hold 2 runs"
"$P" dump events st.db >dump.before

# -- a failed ingest leaves the store unchanged (one transaction per file)
printf '{"traceEvents": [\n{"name": "a" "ph": "X"}]}\n' >bad.json
run "$P" ingest bad.json -o st.db
expect_rc 2 "ingest a malformed file"
expect_one_err_line "ingest a malformed file"
expect_err_has "profreport: ingest: 'bad.json':2:14: " "ingest a malformed file"
expect_out_empty "ingest a malformed file"
# A whole trace whose error comes only after every event was read.
cp "$TORCH" late-error.json
echo 'garbage' >>late-error.json
run "$P" ingest late-error.json -o st.db
expect_rc 2 "ingest a trace with data after its end"
expect_one_err_line "ingest a trace with data after its end"
expect_err_has "'late-error.json':" "ingest a trace with data after its end"
"$P" dump events st.db >dump.after
cmp -s dump.before dump.after || fail "a failed ingest changed the store"
[ "$(runs st.db)" = 2 ] || fail "a failed ingest changed the run count"

# -- several explicit files: every one is attempted, the failure is reported
printf '[{"name": "x", "ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1}]\n' >good.json
run "$P" ingest bad.json good.json README -o multi.db
expect_rc 2 "ingest good and bad files"
expect_out_has "'good.json': run 1, chrome" "ingest good and bad files"
expect_err_has "'bad.json':2:14: " "ingest good and bad files"
expect_err_has "'README': cannot open" "ingest good and bad files"
[ "$(wc -l <"$tmp/err")" -eq 2 ] || {
	fail "ingest good and bad files: expected one stderr line per failed file"
	show
}
[ "$(runs multi.db)" = 1 ] || fail "ingest good and bad files: the good file is not in the store"

# -- an explicit file in no known format is an error, not a skip
echo "just some notes" >notes.txt
run "$P" ingest notes.txt -o st.db
expect_rc 2 "ingest an explicit non-trace file"
expect_one_err_line "ingest an explicit non-trace file"
expect_err_has "'notes.txt': unrecognized input format" "ingest an explicit non-trace file"

# -- a directory, recursively: traces ingested, other files skipped and reported
mkdir -p tree/torch tree/chrome/deeper tree/.hidden
cp "$TORCH" tree/torch/
cp "$VIZ" tree/chrome/
cp "$VIZ" tree/chrome/deeper/copy.json
echo "# notes" >tree/README.md
echo "not a trace" >tree/chrome/deeper/notes.txt
cp "$TORCH" tree/.hidden/ignored.json
run "$P" ingest tree -o dir.db
expect_rc 0 "ingest a directory"
expect_err_empty "ingest a directory"
expect_out_has "'tree/README.md': skipped, not a recognized format" "ingest a directory"
expect_out_has "'tree/chrome/deeper/notes.txt': skipped, not a recognized format" "ingest a directory"
expect_out_has "'tree/chrome/deeper/copy.json': run 1, " "ingest a directory"
expect_out_has "'tree/torch/trace_rank0.pt.trace.json': run 2, " "ingest a directory"
expect_out_has "'tree/chrome/viztracer_like.json': already in the store as run 1" "ingest a directory"
if grep -q hidden "$tmp/out"; then
	fail "ingest a directory: a dot-directory was read"
	show
fi
[ "$(wc -l <"$tmp/out")" -eq 5 ] || {
	fail "ingest a directory: expected 5 report lines"
	show
}
[ "$(runs dir.db)" = 2 ] || fail "ingest a directory: the store should hold 2 runs, holds $(runs dir.db)"
# entries are visited in name order (chrome/deeper/ before chrome/viztracer_like.json)
[ "$(query_value dir.db "SELECT label FROM run WHERE id = 1")" = copy.json ] ||
	fail "ingest a directory: run 1 should be tree/chrome/deeper/copy.json (name order)"

# -- a directory holding a malformed trace: exit 2, the rest still ingested
cp bad.json tree/chrome/deeper/bad.json
run "$P" ingest tree -o dir2.db
expect_rc 2 "ingest a directory with a malformed trace"
expect_one_err_line "ingest a directory with a malformed trace"
expect_err_has "'tree/chrome/deeper/bad.json':2:14: " "ingest a directory with a malformed trace"
[ "$(runs dir2.db)" = 2 ] || fail "ingest a directory with a malformed trace: the 2 good traces are not all in the store"

# -- the samples/ directory itself: whatever is in it, the rules hold
run "$P" ingest "$PR_SAMPLES" -o samples.db
for readme in "$PR_SAMPLES"/*/README.md; do
	[ -f "$readme" ] || continue
	expect_out_has "'$readme': skipped, not a recognized format" "ingest samples/"
done
expect_out_has "'$TORCH': run " "ingest samples/"
expect_out_has "'$VIZ': run " "ingest samples/"
nruns=$(grep -c "': run [0-9]*, " "$tmp/out" || true)
[ "$nruns" = "$(runs samples.db)" ] || fail "ingest samples/: $nruns run lines but $(runs samples.db) runs in the store"
if [ -s "$tmp/err" ]; then
	expect_rc 2 "ingest samples/ with failures"
	if grep -qv "^profreport: ingest: '$PR_SAMPLES/" "$tmp/err"; then
		fail "ingest samples/: a stderr line is not 'profreport: ingest: 'FILE'...'"
		show
	fi
else
	expect_rc 0 "ingest samples/"
fi

finish
