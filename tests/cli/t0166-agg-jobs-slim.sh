#!/bin/sh
# t0166-agg-jobs-slim: aggregate -j N hands the parent only the paths of a run
# that the fold reads (pr_agg_run_slim, its table slim_paths in
# analyze/multi/aggregate.c; docs/performance.md, "The parent's share"), where
# -j 1 folds the whole model. For every input kind whose model reaches a path
# of that table, -j 2 and -j 4 must write -j 1's agg.json, console table and
# stderr byte for byte: real GPU traces (tests/data/traces: GPU breakdown and
# its linked scope, sized collectives' bus bandwidth, per-step collective
# times, critical path, perf model), generated GPU ranks, Diffulex and QEff
# reports (tokens/s, peaks), Inferix reports (stages, reported metrics, fps
# and bps, the run meta's session id, its raw data skipped, and a set whose
# GPU snapshots are all zeros: the diagnostics), DDP ranks and a store (the
# run's own source). Dropping any one path of the table (checked once, by
# hand, for each of its 59 paths), or either key of the run's meta that
# pr_agg_meta_slim keeps, makes at least one group below differ.
# The last check says that each group still reaches what it is here for.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

H=$TRACES/hta
QWEN=$TRACES/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
need_trace "$H/trace_filter/sampled_rank-0.json.gz" "$H/trace_filter/sampled_rank-1.json.gz" \
	"$H/nccl_parser_config/nccl_data.json.gz" "$QWEN" \
	"$H/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz" \
	"$H/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz" \
	"$H/triton_example/triton_example.json.gz"
if ! command -v /usr/bin/python3 >/dev/null 2>&1; then
	echo "t0166-agg-jobs-slim: skipped (no /usr/bin/python3 for the generators)"
	exit 77
fi
py=/usr/bin/python3
INF=$PR_SAMPLES/inferix
IREP=profiling_report_t2v_generation_20231114_221332.json

"$py" "$PR_SAMPLES/gpuranks/make_gpuranks.py" --ops --ranks 4 --out gops >/dev/null ||
	fail "setup: make_gpuranks.py --ops"
"$py" "$PR_SAMPLES/gpuranks/make_gpuranks.py" --ranks 4 --out gpl >/dev/null ||
	fail "setup: make_gpuranks.py"
mkdir dq inf
cp "$PR_SAMPLES/diffulex/profile_20250101_120000.json" dq/r0.json
cp "$PR_SAMPLES/qeff/qeff_profile.json" dq/r1.json
cp "$INF/$IREP" "$INF/raw_profiling_data_t2v_generation_20231114_221332.json" inf/
# the multi-rank Inferix set with every GPU snapshot zero (inferix_gpu_data_zero), as t0011 makes it
"$py" - "$INF/multirank" <<'PYEOF' || fail "setup: the all-zero GPU set"
import json, os, sys
src = sys.argv[1]
for r in sorted(os.listdir(src)):
    os.makedirs(os.path.join("izero", r))
    for f in os.listdir(os.path.join(src, r)):
        doc = json.load(open(os.path.join(src, r, f)))
        for e in doc["gpu_metrics"]["timeline"]:
            e["memory_used_mb"] = e["memory_total_mb"] = e["utilization"] = 0
        for k in doc["summary"]["gpu"]:
            doc["summary"]["gpu"][k] = 0
        json.dump(doc, open(os.path.join("izero", r, f), "w"))
PYEOF
"$P" ingest -q gpl -o gpl.db || fail "setup: the store"

# one group per line: an aggregate's arguments (relative paths: no blanks, whatever the checkout's)
ln -s "$TRACES" traces
ln -s "$PR_SAMPLES" samples
cat >groups <<'EOF'
traces/hta/trace_filter/sampled_rank-0.json.gz traces/hta/trace_filter/sampled_rank-1.json.gz
traces/hta/nccl_parser_config/nccl_data.json.gz
gops
--ranks 0,1 samples/torch/trace_rank0.pt.trace.json traces/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
dq
samples/inferix/multirank
inf
izero
samples/ddp/named
traces/hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz
traces/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz
traces/hta/triton_example/triton_example.json.gz
gpl.db
EOF
n=0
while read -r args; do
	n=$((n + 1))
	for j in 1 2 4; do
		# shellcheck disable=SC2086 # the group's arguments, split on purpose
		run "$P" aggregate -j "$j" $args -o "a$n.$j.json"
		expect_rc 0 "group $n ($args), -j $j"
		cp "$tmp/out" "a$n.$j.out"
		cp "$tmp/err" "a$n.$j.err"
	done
	for j in 2 4; do
		cmp -s "a$n.1.json" "a$n.$j.json" || fail "group $n ($args): agg.json of -j $j differs"
		cmp -s "a$n.1.out" "a$n.$j.out" || fail "group $n ($args): the table of -j $j differs"
		cmp -s "a$n.1.err" "a$n.$j.err" || fail "group $n ($args): stderr of -j $j differs"
	done
done <groups
[ "$n" = 13 ] || fail "ran $n groups, expected 13"

# what each group is here for (so that an input that stops reaching it is seen)
"$py" - <<'PYEOF' >reach.txt 2>&1 || fail "a group no longer reaches its paths: $(cat reach.txt)"
import json
def doc(n):
    return json.load(open("a%d.1.json" % n))
def stats(n):
    return [s["name"] for s in doc(n)["stats"]]
def rows(n):
    return doc(n)["ranks"]
bad = []
def need(ok, what):
    if not ok:
        bad.append(what)
need(any(x.startswith("busbw: ") for x in stats(2)), "2: a sized collective's busbw")
need(doc(2)["collective_arrivals"], "2: per-step collective times")
need(all(r["gpu"] and r["gpu"]["linked_total_ns"] for r in rows(1)), "1: GPU and linked scope")
need(all("critical_path" in r for r in rows(3)), "3: critical path")
need(any("perf" in r for r in rows(4)), "4: perf model")
need("throughput.tokens_per_s" in stats(5), "5: tokens/s")
need(any(r.get("peaks") for r in rows(5)), "5: peaks")
need({"throughput.fps", "throughput.bps"} <= set(stats(6)), "6: fps and bps")
need(all(r["inferix"]["session_id"] for r in rows(6)), "6: the run meta's session id")
need(any(r["stages"] for r in rows(6)), "6: stages")
need(any(x.startswith("summary.gpu.") for x in stats(6)), "6: reported GPU metrics")
need(len(rows(7)) == 1, "7: the raw data skipped")
need(not any(x.startswith("summary.gpu.") for x in stats(8)), "8: all-zero GPU numbers left out")
need(rows(13)[0]["source"] == "gpl/rank0.pt.trace.json", "13: the run's own source")
print("\n".join(bad))
raise SystemExit(1 if bad else 0)
PYEOF
grep -q "skipped, Inferix raw data" a7.4.err || fail "-j 4: the Inferix raw data note is lost"

finish
