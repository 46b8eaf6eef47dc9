#!/bin/sh
# t0157-agg-tokens: agg.json keeps each rank's token throughput. aggregate read
# the model's throughput.tokens for a key "per_s" that the model never writes
# (it is tokens_per_s), so no rank of a Diffulex or QEff set had its tokens/s
# in agg.json, and the agg schema refused a rank without steps. Two Diffulex
# JSON reports (samples/diffulex, and a copy whose batch_1 takes 0.5 s): each
# rank's tokens_per_s is derived here by Python from the report itself, as
# docs/analysis.md defines it: the sum of the sections' total_tokens over the
# sum of the durations of the sections that have tokens.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v /usr/bin/python3 >/dev/null 2>&1; then
	echo "t0157-agg-tokens: skipped (no /usr/bin/python3)"
	exit 77
fi
mkdir ranks
cp "$PR_SAMPLES/diffulex/profile_20250101_120000.json" ranks/r0.json
/usr/bin/python3 - <<'PY' || fail "making the second report"
import json
d = json.load(open("ranks/r0.json"))
for m in d["metrics"]:
    if m["name"] == "batch_1":
        m["duration_sec"] = 0.5
json.dump(d, open("ranks/r1.json", "w"), indent=1)
PY

run "$P" aggregate ranks -o agg.json
expect_rc 0 "aggregate of two Diffulex reports"
# DERIVATION: per report, sum(total_tokens) / sum(duration_sec of the sections with tokens)
/usr/bin/python3 - "$PR_TESTS/../docs/schema/agg.schema.json" <<'PY' || fail "tokens_per_s in agg.json"
import json, sys
agg = json.load(open("agg.json"))
want = {}
for i, f in enumerate(["ranks/r0.json", "ranks/r1.json"]):
    ms = [m for m in json.load(open(f))["metrics"] if m["total_tokens"] > 0]
    want[i] = sum(m["total_tokens"] for m in ms) / sum(m["duration_sec"] for m in ms)
bad = 0
for r in agg["ranks"]:
    got = (r.get("throughput") or {}).get("tokens_per_s")
    w = want[r["rank"]]
    if got is None or abs(got - w) > 1e-6 * w:
        print(f"rank {r['rank']}: tokens_per_s {got}, want {w:.8f}")
        bad += 1
st = [s for s in agg["stats"] if s["name"] == "throughput.tokens_per_s"]
if len(st) != 1 or abs(st[0]["min"] - min(want.values())) > 1e-6 * min(want.values()) or \
        st[0]["argmin"] != 1:
    print("stats: throughput.tokens_per_s", st)
    bad += 1
try:
    import jsonschema
    for e in jsonschema.Draft7Validator(json.load(open(sys.argv[1]))).iter_errors(agg):
        print("schema:", list(e.path), e.message[:120])
        bad += 1
except ImportError:
    pass
print("want", {k: round(v, 6) for k, v in want.items()})
sys.exit(1 if bad else 0)
PY
finish
