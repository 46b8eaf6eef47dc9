#!/bin/sh
# t0087-compare-torch: real torch.profiler CPU traces (samples/compare/torch-slow/,
# recorded by make_torch_slow.py with Debian's python3-torch 1.13, five
# ProfilerStep#N steps a run). NEW with a deliberate regression (an extra
# matrix product every step, about 1.4x the step) fails, step time named first
# in every output; the same file twice and a rerun of the same loop pass.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

S=$PR_SAMPLES/compare/torch-slow
B=$S/base.pt.trace.json

# DERIVATION: the step durations, read from the traces with python3 (json, the
# "ProfilerStep#N" events' "dur"), are listed in samples/compare/torch-slow/README.md
# with their medians and ratio; no profreport involved.
run "$P" compare "$B" "$S/slow.pt.trace.json"
expect_rc 1 "torch-slow: the slower step fails"
expect_one_err_line "torch-slow"
first_row() { awk 'f { print; exit } /^  metric /{ f = 1 }' "$tmp/out"; }
first_row | grep -q '^+ step_time ' || fail "torch-slow: the first row is not the failed step time: $(first_row)"
run "$P" compare "$B" "$S/slow.pt.trace.json" --fail-on step_time:+10% --to md
expect_rc 1 "torch-slow (md, +10 %)"
# shellcheck disable=SC2016
grep -m1 '^| [-+?~x!# ]* | `' "$tmp/out" | grep -q '^| + | `step_time` |' ||
	fail "torch-slow (md): the first row is not the failed step time"
run "$P" compare "$B" "$S/slow.pt.trace.json" --to junit
expect_rc 1 "torch-slow (junit)"
grep -m1 '<testcase ' "$tmp/out" | grep -q 'name="step_time"' ||
	fail "torch-slow (junit): the first testcase is not step_time"
grep -A1 'name="step_time"' "$tmp/out" | grep -q '<failure type="regression"' ||
	fail "torch-slow (junit): step_time is not a failure"

# the same file twice: every metric unchanged
run "$P" compare "$B" "$B"
expect_rc 0 "torch-slow: the same file twice"
expect_out_has "PASS: 0 regressions," "the same file twice"
# a rerun of the same script: passes (step time within the noise or inconclusive)
run "$P" compare "$B" "$S/rerun.pt.trace.json"
expect_rc 0 "torch-slow: a rerun of the same loop passes"
run "$P" compare "$B" "$S/rerun.pt.trace.json" --to json -o rerun.json
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = [m for m in d["metrics"] if m["id"] == "step_time"][0]
sys.exit(0 if m["verdict"] in ("unchanged", "inconclusive") else "step_time: " + m["verdict"])
' rerun.json || fail "torch-slow rerun: step time is neither unchanged nor inconclusive"
fi
# the gzipped copy reads the same (a CI may keep traces compressed)
gzip -c "$S/slow.pt.trace.json" >slow.pt.trace.json.gz
run "$P" compare "$B" slow.pt.trace.json.gz
expect_rc 1 "torch-slow: a gzipped NEW reads the same"

# --baseline last:N --where KEY=VALUE: only main's runs are pooled (the slow run on a feature
# branch stays out: base.json alone, so the rerun is judged against one run)
"$P" ingest -q "$B" -o hist.db --meta branch=main
"$P" ingest -q "$S/slow.pt.trace.json" -o hist.db --meta branch=feature
run "$P" compare hist.db "$S/rerun.pt.trace.json" --baseline last:10 --where branch=main
expect_rc 0 "--where branch=main: the rerun passes against main's run"
expect_out_has "base: 1 run(s), new: 1 run(s)" "--where branch=main pools main's run only"
run "$P" compare hist.db "$S/rerun.pt.trace.json" --baseline last:10
expect_out_has "base: 2 run(s), new: 1 run(s)" "without --where both runs are pooled"
run "$P" compare hist.db "$S/rerun.pt.trace.json" --baseline last:10 --where branch=nope
expect_error "profreport: compare: 'hist.db': --where branch=nope: no run of BASE matches" \
	"--where with no matching run"
run "$P" compare hist.db "$S/rerun.pt.trace.json" --baseline last:10 --where commit=abc
expect_error "profreport: compare: --where: no run of the store has the metadata key 'commit'" \
	"--where with a key no run has"
run "$P" compare hist.db "$S/rerun.pt.trace.json" --where branch=main
expect_error "profreport: compare: --where selects the runs of --baseline" "--where without --baseline"

finish
