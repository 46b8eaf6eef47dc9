#!/bin/sh
# t0023-long-run: a run of 2500 steps is shown whole: the model lists the first 500
# steps and reduces every step to points of 3 (first step, count, mean, min, max),
# the step-time panel draws all of them, and the straggling step 900 is in it.
# The trace is tests/tools/gen_steps.py's: step i lasts 1000 + (i % 7) * 100 us,
# step 900 5000 us more (so 1000 + 4 * 100 + 5000 = 6400 us).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

/usr/bin/python3 "$PR_TESTS/tools/gen_steps.py" 2500 long.json || fail "setup: gen_steps.py"
run "$P" report long.json --json long.model.json --svg panels -o long.html -q
expect_rc 0 "report of 2500 steps"
/usr/bin/python3 - <<'PY' || fail "the reduced step profile is not every step (above)"
import json, sys
st = json.load(open("long.model.json"))["runs"][0]["throughput"]["steps"]
r = st["reduced"]
durs = [(1000 + (i % 7) * 100 + (5000 if i == 900 else 0)) * 1000 for i in range(2500)]
want = []
for lo in range(0, 2500, 3):
    b = durs[lo:lo + 3]
    want.append((lo, len(b), sum(b) / len(b), min(b), max(b)))
got = list(zip(r["first"], r["count"], r["mean_ns"], r["min_ns"], r["max_ns"]))
ok = st["count"] == 2500 and len(st["list"]) == 500 and st["list_more"] == 2000 and \
    r["steps_per_point"] == 3 and len(got) == len(want) and \
    all(g[0] == w[0] and g[1] == w[1] and abs(g[2] - w[2]) < 1e-3 and g[3] == w[3] and g[4] == w[4]
        for g, w in zip(got, want))
if not ok:
    sys.exit("model: count %s, list %d, points %d (want 834)" % (st["count"], len(st["list"]), len(got)))
PY
[ -s panels/steps.svg ] || fail "no step panel written"
grep -q 'all 2500 steps' long.html || fail "the page's step panel does not say all 2500 steps"
finish
