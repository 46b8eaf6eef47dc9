#!/bin/sh
# t0090-changes-reruns: profreport changes reports no change on 40 reruns: the recorded torch CPU
# trace with every time scaled by its own factor (1 + 0.02 N(0,1), seed 11; no step,
# tests/tools/gen_history.py), ingested in order without time metadata (ingest order). Every
# headline metric and top span: "no change".
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TOOLS=$PR_TESTS/tools
command -v python3 >/dev/null || { echo "t0090-changes-reruns: skipped (no python3)"; exit 77; }

mkdir r
python3 "$TOOLS/gen_history.py" "$PR_SAMPLES/compare/torch_cpu/base.pt.trace.json" r 40 -1 1 11
"$P" ingest -q r/run_*.json -o reruns.db
run "$P" changes reruns.db
expect_rc 0 "changes of 40 reruns"
expect_out_has "40 runs, ordered by run id (ingest order)" "the order"
expect_out_has "step_time (s, lower is better): no change (40 runs)" "step time: no change"
n=$(grep -c ': no change (40 runs)$' "$tmp/out" || true)
[ "$n" -ge 6 ] || fail "fewer than 6 series followed ($n)"
grep -q 'change[s]*$' "$tmp/out" && fail "a change was reported: $(grep 'change[s]*$' "$tmp/out")"
run "$P" changes reruns.db --to json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(1 if any(m["changes"] for m in d["metrics"]) else 0)' "$tmp/out" ||
	fail "json: a change was reported"

finish
