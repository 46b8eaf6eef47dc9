#!/bin/sh
# t0011-aggregate: 'profreport aggregate INPUT... -o agg.json' - multi-rank
# aggregation: the 4-rank torch set (samples/ranks) names rank 2 as the
# straggler with its evidence; agg.json equals the golden file; aggregating
# agg.json files equals aggregating all ranks (map/reduce); --to inferix
# writes Inferix's keys with the intended values; errors exit 2 with one line.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

G=$PR_TESTS/golden/aggregate
# relative paths: agg.json keeps each rank's source path
cp -R "$PR_SAMPLES/ranks" ranks
cp -R "$PR_SAMPLES/inferix/multirank" multirank

# -- the 4-rank set: straggler named, with evidence, table on stdout
run "$P" aggregate ranks -o agg.json
expect_rc 0 "aggregate of the 4-rank set"
expect_out_has "Aggregate: 4 ranks from 4 inputs, world size 4" "header line"
expect_out_has "dataloader 2.98x the median" "rank 2 loads data slower"
expect_out_has "waits 80 % less in ncclDevKernel_AllReduce_Sum_f32_RING_LL" "rank 2 waits least"
expect_out_has "  rank 2:" "rank 2 is named"
expect_err_has "'ranks/make_ranks.py': skipped, not a trace" "non-traces are skipped with a note"
if grep -Eq '^  rank [013]' "$tmp/out"; then
	fail "a rank other than 2 is named as a straggler"
	show
fi
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$tmp/out" || fail "console table wider than 80 columns"
# p computed from the traces alone: 4 x P(Binomial(20, 1/4) >= 20) (tests/tools/agg_facts.py)
pv=$(/usr/bin/python3 "$PR_TESTS/tools/agg_facts.py" --p ranks/rank*.pt.trace.json) ||
	fail "agg_facts.py --p failed"
expect_out_has "last: rank 2 in 20 (p = $pv)" "rank 2 arrived last in every step"
expect_out_has "busbw: ..._RING_LL    4  30.0 GB/s  30.0 GB/s 150.0 GB/s  51.9 GB/s  2.50     2" "bus bandwidth per rank, the late rank's is the transfer's"
grep -q '"summary": "rank 2: dataloader 2.98x the median; waits 80 % less in ncclDevKernel_AllReduce_Sum_f32_RING_LL; critical path 92 % cpu_op vs a median of 71 %; last into ncclDevKernel_AllReduce_Sum_f32_RING_LL in 20 of 20 steps"' agg.json ||
	fail "agg.json lacks the straggler summary"
# the facts of ranks.checks (derived from the traces by tests/tools/agg_facts.py) hold before
# agg.json is compared or, with PR_UPDATE_GOLDEN=1, written
if ! /usr/bin/python3 "$PR_TESTS/tools/checks.py" "$G/ranks.checks" --model agg.json >checks.out 2>&1; then
	cat checks.out >&2
	fail "agg.json breaks the facts of tests/golden/aggregate/ranks.checks (above)"
elif [ "${PR_UPDATE_GOLDEN:-}" = 1 ]; then
	cp agg.json "$G/ranks.agg.json"
fi
cmp -s agg.json "$G/ranks.agg.json" || {
	fail "agg.json differs from tests/golden/aggregate/ranks.agg.json"
	diff "$G/ranks.agg.json" agg.json | head -20 >&2 || true
}

# -- map/reduce: agg of agg files == agg of all ranks (std and the moments' mean/M2 are Chan-merged: last bits)
run "$P" aggregate ranks/rank0.pt.trace.json ranks/rank1.pt.trace.json -q -o part1.json
expect_rc 0 "aggregate of ranks 0-1"
run "$P" aggregate ranks/rank2.pt.trace.json ranks/rank3.pt.trace.json -q -o part2.json
expect_rc 0 "aggregate of ranks 2-3"
run "$P" aggregate part2.json part1.json -o merged.json
expect_rc 0 "aggregate of the two agg.json files"
expect_out_has "dataloader 2.98x the median" "merged aggregate names rank 2"
merged_as_direct agg.json merged.json

# -- merged Chrome trace: one process per rank, every span, read back by our own ingest
run "$P" aggregate ranks -q -o agg2.json --trace merged.trace.json
expect_rc 0 "aggregate --trace"
expect_err_has "merged.trace.json: 8 span(s) ended after their parent and were clamped" "clamped spans are reported"
cmp -s agg.json agg2.json || fail "--trace changed agg.json"
run "$P" ingest merged.trace.json -o merged.db -q
expect_rc 0 "the merged trace is a valid Chrome trace"
run "$P" query merged.db "SELECT t.pid, count(*) FROM span s JOIN track t ON t.id = s.track_id GROUP BY t.pid ORDER BY t.pid"
[ "$(tr '\t\n' ' ;' <"$tmp/out")" = "pid count(*);0 200;1 200;2 200;3 200;" ] ||
	fail "merged trace: spans per rank are not 200 each: $(cat "$tmp/out")"
run "$P" query merged.db "SELECT count(*) FROM diag"
[ "$(tail -n 1 "$tmp/out")" = 0 ] || fail "merged trace: ingest diagnostics"
grep -q '"name":"process_name","args":{"name":"rank 2 (rank2.pt.trace.json)"}' merged.trace.json ||
	fail "merged trace: rank 2 is not named"
# names with quotes, backslashes, control characters and non-ASCII survive the round trip
mkdir hostile
printf '{"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":0,"dur":10,"name":"q\\"b\\\\s\\u0001c <\\u00e9> \\ud83d\\ude00"},{"ph":"X","pid":1,"tid":1,"ts":2,"dur":3,"name":"inner"}]}' >hostile/rank_5.json
run "$P" aggregate hostile -q --trace hostile.trace.json
expect_rc 0 "aggregate --trace of hostile names"
run "$P" ingest hostile/rank_5.json hostile.trace.json -o hostile.db -q
expect_rc 0 "hostile merged trace reads back"
run "$P" query hostile.db "SELECT count(DISTINCT name_id), count(*) FROM span"
[ "$(tail -n 1 "$tmp/out")" = "$(printf '2\t4')" ] || fail "hostile names changed in the round trip: $(cat "$tmp/out")"
grep -q '"pid":5,' hostile.trace.json || fail "rank from the file name is not the pid"
run "$P" aggregate ranks/rank2.pt.trace.json part1.json -q --trace m2.json
expect_rc 0 "aggregate --trace with an agg.json input"
expect_err_has "m2.json: 2 rank(s) came from agg.json files and have no events to merge" "agg.json ranks have no events"
run "$P" aggregate ranks -q --trace no-such-dir/m.json
expect_rc 2 "--trace into a missing directory"
expect_one_err_line "--trace into a missing directory"
[ ! -e no-such-dir ] || fail "--trace made a directory"

# -- Inferix: rank_<R>/ dirs, --to inferix with the values Inferix meant
run "$P" aggregate multirank --format json -o inferix.json
expect_rc 2 "aggregate --format json (the input format option)"
expect_err_has "the output's form is --to json" "aggregate --format json says --to"
run "$P" aggregate multirank --to inferix -o inferix.json
expect_rc 0 "aggregate --to inferix of the 3-rank Inferix set"
for key in '"total_reports": 3' '"rank_count": 3' '"aggregated_gpu_metrics"' \
	'"peak_memory_usage_mb_max": 20220' '"avg_cpu_usage_sum": 66.125' \
	'"session_id": "t2v_generation"' '"duration": 5.7365' '"rank": 2' '"reports_summary"'; do
	grep -qF -- "$key" inferix.json || fail "inferix.json lacks $key"
done
# the facts of multirank.inferix.checks (tests/tools/agg_facts.py --inferix, from the reports)
if ! /usr/bin/python3 "$PR_TESTS/tools/checks.py" "$G/multirank.inferix.checks" \
	--model inferix.json >checks.out 2>&1; then
	cat checks.out >&2
	fail "inferix.json breaks the facts of tests/golden/aggregate/multirank.inferix.checks (above)"
elif [ "${PR_UPDATE_GOLDEN:-}" = 1 ]; then
	cp inferix.json "$G/multirank.inferix.json"
fi
cmp -s inferix.json "$G/multirank.inferix.json" || fail "inferix.json differs from the golden file"

# -- ranks from names only: inferred with a warning
mkdir noranks
sed 's/"distributedInfo": {[^}]*}/"distributedInfo": {}/' ranks/rank1.pt.trace.json >noranks/a.json
sed 's/"distributedInfo": {[^}]*}/"distributedInfo": {}/' ranks/rank3.pt.trace.json >noranks/b.json
run "$P" aggregate noranks -q -o inferred.json
expect_rc 0 "aggregate of files without ranks"
expect_err_has "ranks inferred" "inferred ranks are warned about"
grep -q '"ranks_inferred": true' inferred.json || fail "agg.json does not say ranks were inferred"

# -- errors: exit 2, one line
run "$P" aggregate missing-dir -o x.json
expect_rc 2 "missing input"
expect_one_err_line "missing input"
run "$P" aggregate ranks --format csv -o x.json
expect_rc 2 "bad --format"
expect_one_err_line "bad --format"
mkdir empty
run "$P" aggregate empty -o x.json
expect_rc 2 "no ranks"
expect_one_err_line "no ranks"
[ ! -e x.json ] || fail "a failed aggregate left x.json behind"
# issue 29: a trace and its own export_stacks file (folded stacks) in one
# directory are one rank, not two; the stacks are skipped with a note
mkdir stk
cp "$PR_SAMPLES/ranks/rank0.pt.trace.json" "$PR_SAMPLES/ranks/rank1.pt.trace.json" stk/
printf 'main;forward;aten::mm 120\nmain;backward 300\n' >stk/rank0.stacks
run "$P" aggregate stk -q -o stk.json
expect_rc 0 "aggregate of two traces and an export_stacks file"
expect_err_has "'stk/rank0.stacks': skipped, stacks (export_stacks and the like): a rank's companion, not a rank" \
	"export_stacks beside a trace"
[ "$(python3 -c 'import json; print(len(json.load(open("stk.json"))["ranks"]))')" = 2 ] ||
	fail "two traces and an export_stacks file are not 2 ranks"

# issue 29: agg.json aggregates measurements only. Inferix's recommendations are stored as
# metric "recommendation" (priority 3/2/1): never a stat. A rank whose GPU snapshots are all
# zeros (no NVML device: diagnostic inferix_gpu_data_zero) has meaningless GPU numbers: with
# every rank so, no summary.gpu.* or gpu_metrics.* stat and no rank's inferix.gpu numbers.
python3 - "$PR_SAMPLES/inferix/multirank" <<'PYEOF'
import json, os, sys
src = sys.argv[1]
for r in sorted(os.listdir(src)):
    d = os.path.join(src, r)
    for f in os.listdir(d):
        doc = json.load(open(os.path.join(d, f)))
        for e in doc["gpu_metrics"]["timeline"]:
            e["memory_used_mb"] = e["memory_total_mb"] = e["utilization"] = 0
        for k in doc["summary"]["gpu"]:
            doc["summary"]["gpu"][k] = 0
        os.makedirs(os.path.join("gpuzero", r), exist_ok=True)
        json.dump(doc, open(os.path.join("gpuzero", r, f), "w"))
PYEOF
run "$P" aggregate multirank -q -o mr.json
expect_rc 0 "aggregate of the 3-rank Inferix set"
run "$P" aggregate gpuzero -q -o gz.json
expect_rc 0 "aggregate of 3 Inferix ranks with all-zero GPU snapshots"
python3 - mr.json gz.json <<'PYEOF' || fail "agg.json aggregates a priority or meaningless GPU numbers"
import json, sys
mr, gz = (json.load(open(f)) for f in sys.argv[1:])
bad = [s["name"] for s in mr["stats"] if s["name"] == "recommendation" or s["unit"] == "priority"]
assert not bad, bad
gpu = lambda n: n.startswith("summary.gpu.") or n.startswith("gpu_metrics.")
assert any(gpu(s["name"]) for s in mr["stats"]), "the real set has GPU numbers"
bad = [s["name"] for s in gz["stats"] if gpu(s["name"])]
assert not bad, bad
assert all(r["inferix"]["gpu"] == {} for r in gz["ranks"]), [r["inferix"]["gpu"] for r in gz["ranks"]]
assert all(r["inferix"]["cpu"] for r in gz["ranks"]), "the CPU numbers stay"
PYEOF

ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "aggregate left temporary files: $(cat leftover)"

finish
