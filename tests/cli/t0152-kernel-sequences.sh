#!/bin/sh
# t0152-kernel-sequences: gpu.kernel_sequences, the frequent kernel sequences
# (docs/analysis.md), on a trace made here where they are known by hand, on its
# budget, and on TraceLens's H100 trace and HTA's sampled trace against
# tests/tools/kseq_check.py (a brute-force standard-library Python over the trace
# JSON, not profreport).
#
# The made trace: two ProfilerSteps; kernels A B C D (10, 20, 30, 40 us) launched
# by aten::foo (A, B) and aten::bar (C, D), X, Y (5 us) by aten::baz; each kernel
# starts 2 us after the previous one on its stream ends.
#   stream 7, step 1: A B C D A B C D X      step 2: A B C D Y A B C
#   stream 8, step 1: P Q R P Q R (1 us each, aten::qux)
# DERIVATION (by hand): windows never cross the step edge, counts are of
# non-overlapping occurrences. ABCD: step 1 at 0 and 4, step 2 at 0 = 3. ABC: at 0, 4 and
# at 0, 5 = 4. BCD = 3, inside ABCD with the same count: dropped. Every other window of
# stream 7 (ABCDA, BCDA, CDAB, DABC, CDX, DYA, ...) occurs once. Stream 8: PQR = 2
# (PQRPQR, QRP, RPQ once). Kept: ABCD, ABC, PQR = 3 patterns. By device time: ABCD 3 *
# 100 us = 300 us, ABC 4 * 60 = 240 us, PQR 2 * 3 = 6 us; ABC's first occurrence (step 1,
# 0..2) overlaps ABCD's (0..3): not listed, overlapping = 1. Listed: ABCD (3 gaps of 2 us
# per run: gap_ns 3 * 6000 = 18000, gap_mean_ns 6000, mean_ns 100000, ops aten::foo >
# aten::bar) then PQR (kernel_ns 6000, gap_ns 2 * 2 * 2000 = 8000). 23 activities.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

python3 - kseq.json <<'PY' || fail "the trace generator"
import json, sys
ev = [{"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "python3"}},
      {"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "python3"}},
      {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "main"}}]
dur = {"A": 10, "B": 20, "C": 30, "D": 40, "X": 5, "Y": 5, "P": 1, "Q": 1, "R": 1}
op = {"A": "aten::foo", "B": "aten::foo", "C": "aten::bar", "D": "aten::bar", "X": "aten::baz",
      "Y": "aten::baz", "P": "aten::qux", "Q": "aten::qux", "R": "aten::qux"}
corr = [1000]
def launch(cpu_t, gpu_t, name, stream):
    corr[0] += 1
    c = corr[0]
    ev.append({"ph": "X", "cat": "cpu_op", "name": op[name], "pid": 1, "tid": 1, "ts": cpu_t, "dur": 6})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": cpu_t + 1, "dur": 3, "args": {"correlation": c}})
    ev.append({"ph": "X", "cat": "kernel", "name": "kernel_" + name, "pid": 0, "tid": stream,
               "ts": gpu_t, "dur": dur[name], "args": {"correlation": c, "stream": stream, "device": 0}})
def run(seq, cpu0, gpu0, stream):
    g = gpu0
    for i, n in enumerate(seq):
        launch(cpu0 + 10 * i, g, n, stream)
        g += dur[n] + 2
ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000})
ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 1000, "dur": 1000})
run("ABCDABCDX", 10, 100, 7)
run("PQRPQR", 300, 600, 8)
run("ABCDYABC", 1010, 1100, 7)
json.dump({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY

run "$P" summary kseq.json --json model.json
expect_rc 0 "summary of the made trace"
expect_out_has "  frequent kernel sequences: 3 patterns of 3-16 activities repeated on a stream" \
	"the console's line"
expect_out_has "aten::foo > aten::bar" "the console's table names the ops"
python3 - model.json <<'PY' >check.txt 2>&1 || fail "the made trace's sequences: $(cat check.txt)"
import json, sys
ks = json.load(open(sys.argv[1]))["runs"][0]["gpu"]["kernel_sequences"]
assert (ks["patterns"], ks["overlapping"], ks["activities"], ks["pieces"]) == (3, 1, 23, "steps"), ks
assert ks["ngrams_over"] == 0, ks
it = ks["items"]
assert len(it) == 2, it
a, p = it
assert a["names"] == ["kernel_A", "kernel_B", "kernel_C", "kernel_D"], a
assert (a["stream"], a["count"], a["length"], a["kernel_ns"], a["mean_ns"]) == ("7", 3, 4, 300000, 100000), a
assert (a["gap_ns"], a["gap_mean_ns"], a["ops"]) == (18000, 6000, ["aten::foo", "aten::bar"]), a
assert a["label"] == "aten::foo > aten::bar", a
assert p["names"] == ["kernel_P", "kernel_Q", "kernel_R"], p
assert (p["stream"], p["count"], p["length"], p["kernel_ns"], p["gap_ns"]) == ("8", 2, 3, 6000, 8000), p
assert p["ops"] == ["aten::qux"], p
PY
# the same numbers from the independent script
python3 "$PR_TESTS/tools/kseq_check.py" kseq.json model.json >ref.txt 2>&1 ||
	fail "kseq_check.py on the made trace: $(cat ref.txt)"

# the page's kernel view has the table
run "$P" report kseq.json -o page.html -q
expect_rc 0 "report of the made trace"
grep -q "<h4>Frequent kernel sequences</h4>" page.html || fail "no kernel sequences table on the page"

# the budget: 3 distinct patterns, the rest not counted, said by a diagnostic
PROFREPORT_KSEQ_NGRAMS=3 run "$P" summary kseq.json --json small.json
expect_rc 0 "summary with a budget of 3 patterns"
python3 - small.json <<'PY' >check.txt 2>&1 || fail "the budget: $(cat check.txt)"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
ks = run["gpu"]["kernel_sequences"]
assert ks["ngrams"] == 3 and ks["ngrams_max"] == 3 and ks["ngrams_over"] > 0, ks
d = [x for x in run["diagnostics"] if x["code"] == "kernel_sequences_over_budget"]
assert len(d) == 1 and d[0]["count"] == ks["ngrams_over"], run["diagnostics"]
PY
PROFREPORT_KSEQ_NGRAMS=0 run "$P" summary kseq.json
expect_rc 2 "a budget of 0"
expect_err_has "PROFREPORT_KSEQ_NGRAMS" "the variable named"

# TraceLens's H100 trace: counts, lengths, names, ops and ns equal to the script's
TRACE=$TRACES/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
need_trace "$TRACE"
run "$P" summary "$TRACE" --json tl.json
expect_rc 0 "summary of the H100 trace"
python3 "$PR_TESTS/tools/kseq_check.py" "$TRACE" tl.json >ref.txt 2>&1 ||
	fail "kseq_check.py on the H100 trace: $(cat ref.txt)"
grep -q "^kseq_check: 4 items, 56 patterns, 52 overlapping, 1707 activities: equal$" ref.txt ||
	fail "kseq_check.py: $(cat ref.txt)"

# HTA's sampled trace: two streams (7, 84) and steps; the same script, the same numbers
TRACE=$TRACES/hta/trace_filter/sampled_rank-0.json.gz
need_trace "$TRACE"
run "$P" summary "$TRACE" --json hta.json
expect_rc 0 "summary of HTA's sampled trace"
python3 "$PR_TESTS/tools/kseq_check.py" "$TRACE" hta.json >ref.txt 2>&1 ||
	fail "kseq_check.py on HTA's sampled trace: $(cat ref.txt)"
grep -q "^kseq_check: 10 items, 117 patterns, 17 overlapping, 1204 activities: equal$" ref.txt ||
	fail "kseq_check.py: $(cat ref.txt)"

finish
