#!/bin/sh
# t0161-history-digest: `changes` and `metrics` read each run's digest from the model cache,
# not its whole model (issue 32, "Archives of 100 000 runs"; docs/store.md). The digest carries
# the history's part as one string ("history"); checked here: the same outputs from a fresh
# store (runs analysed), from its cache (digests read), and from a cache whose digests lack the
# part (as an older build's would: the runs' whole models are read instead); the part holds
# exactly the model's span list (name, count, total) and steps' bounds, compared by Python
# against the cached model; report's index reads the digests without it (same pages).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || { echo "t0161-history-digest: skipped (no python3)"; exit 77; }

# three runs of the recorded torch CPU trace (steps) and four ranks (GPU kernels, busy share)
mkdir h
python3 "$PR_TESTS/tools/gen_history.py" "$PR_SAMPLES/compare/torch_cpu/base.pt.trace.json" h 3 -1 1 5
tab=$(printf '\t')
while IFS="$tab" read -r f t c fk p50; do
	"$P" ingest -q "h/$f" -o runs.db --meta "time=$t"
done <h/manifest.tsv
k=0
for r in 0 1 2 3; do
	k=$((k + 1))
	"$P" ingest -q "$PR_SAMPLES/ranks/rank$r.pt.trace.json" -o runs.db \
		--meta "time=2030-01-0${k}T00:00:00Z"
done

both() { # TAG: changes --to json and metrics --to json into TAG.changes, TAG.metrics
	run "$P" changes runs.db --to json --alpha 0.5 --min-change 0
	expect_rc 0 "$1: changes"
	cp "$tmp/out" "$1.changes"
	run "$P" metrics runs.db --to json
	expect_rc 0 "$1: metrics"
	cp "$tmp/out" "$1.metrics"
}

both fresh # analyses the 7 runs and caches them
n=$(python3 -c 'import sqlite3; print(sqlite3.connect("runs.db").execute(
    "SELECT count(*) FROM model_cache").fetchone()[0])')
[ "$n" = 7 ] || fail "model_cache rows after metrics: $n, want 7"
both cached
cmp -s fresh.changes cached.changes || fail "changes differs when read from the cached digests"
cmp -s fresh.metrics cached.metrics || fail "metrics differs when read from the cached digests"
grep -q '"step_time"' cached.metrics || fail "metrics: no step_time"
grep -q '"gpu_busy"' cached.metrics || fail "metrics: no gpu_busy"

# the history part against the cached model, by Python
python3 - runs.db <<'PY' || fail "a digest's history part differs from its model"
import json, sqlite3, sys
bad = 0
for run_id, d, m in sqlite3.connect(sys.argv[1]).execute(
        "SELECT run_id, digest, model FROM model_cache ORDER BY run_id"):
    d, m = json.loads(d), json.loads(m)
    h = json.loads(d["history"])
    want = [{k: it[k] for k in ("name", "count", "total_ns") if k in it}
            for it in m["spans"]["items"]]
    if h["spans"]["items"] != want:
        print("run %d: spans %r != %r" % (run_id, h["spans"]["items"][:2], want[:2])); bad = 1
    st = m.get("throughput", {}).get("steps")
    if isinstance(st, dict):
        for k in ("p50_ns", "per_s", "min_ns", "max_ns"):
            if st.get(k) != h["throughput"]["steps"].get(k):
                print("run %d: steps.%s" % (run_id, k)); bad = 1
    if list(d)[-1] != "history":
        print("run %d: history is not the digest's last key" % run_id); bad = 1
sys.exit(bad)
PY

# an older digest, without the part: the runs' whole models are read, the same outputs
python3 - runs.db <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for run_id, opt, d in db.execute("SELECT run_id, options, digest FROM model_cache").fetchall():
    d = json.loads(d)
    del d["history"]
    db.execute("UPDATE model_cache SET digest = ? WHERE run_id = ? AND options = ?",
               (json.dumps(d, separators=(",", ":")), run_id, opt))
db.commit()
PY
both old
cmp -s fresh.changes old.changes || fail "changes differs from digests without the history part"
cmp -s fresh.metrics old.metrics || fail "metrics differs from digests without the history part"

# the archive's index: the same pages from a fresh store and from its cached digests
cp runs.db r2.db
run "$P" report -q r2.db -o a/
expect_rc 0 "report -o a/ (analyses)"
rm -f a/index.html
run "$P" report -q r2.db -o a/
expect_rc 0 "report -o a/ (the index from the cached digests)"
run "$P" report -q --no-cache r2.db -o b/
expect_rc 0 "report --no-cache -o b/"
cmp -s a/index.html b/index.html || fail "the index from cached digests differs from a fresh one"

finish
