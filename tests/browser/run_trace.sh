#!/bin/sh
# run_trace.sh - the trace view of report pages driven in headless chromium
# (check_trace.js): hover, wheel and W/A/S/D zoom and pan, search, a click on a
# launch. Facts come from the trace files themselves (trace_facts.py), not from
# profreport: the windows' steps, the events in them, a kernel name's count there
# and the launch -> kernel pairs by correlation. Pages: the real traces of
# tests/data/traces (nccl_data, ns_resolution, negative_queue, ROCm, Triton,
# TraceLens's H100), a DDP rank recorded with torch on CPU (samples/ddp), the
# generated torch sample and the hostile-names trace.
# Run by ctest as browser/trace (tests/browser.cmake). Exit 77 (skip) without
# chromium, node or tests/browser/node_modules; PR_REQUIRE_ALL makes CI fail then.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
browser_setup trace
bad=0
# one INPUT SEARCH: the page of INPUT checked against the facts of INPUT
one() {
	b=$(basename "$1" | tr -c 'A-Za-z0-9._-' _)
	"$PROFREPORT" report "$1" -q -o "$tmp/$b.html"
	/usr/bin/python3 "$here/trace_facts.py" "$1" "$2" >"$tmp/$b.facts"
	node "$here/check_trace.js" "$tmp/$b.html" "$tmp/$b.facts" || bad=1
}
traces=${PR_TRACES:-$here/../data/traces}
if [ -d "$traces" ]; then
	one "$traces/hta/nccl_parser_config/nccl_data.json.gz" ncclKernel_AllReduce
	one "$traces/hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" sgemm
	one "$traces/hta/negative_queue_length_values_check/rank0.json.gz" Memcpy
	one "$traces/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz" Cijk
	one "$traces/hta/triton_example/triton_example.json.gz" triton
	one "$traces/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz" gemm
else
	echo "browser/trace: $traces is missing; only the samples are checked"
fi
one "$(ls "$PR_SAMPLES"/ddp/named/rank0.*.pt.trace.json | head -1)" linear
one "$PR_SAMPLES/torch/trace_rank0.pt.trace.json" gemm
# names that are markup stay text in the view (the page's check_html.js looks for injected elements)
cat >"$tmp/hostile.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "<img src=x onerror=alert(1) data-injected=1>", "pid": 1, "tid": 1, "ts": 10, "dur": 50},
 {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "</script><img src=x onerror=alert(1) data-injected=1>"}}
]}
JSON
one "$tmp/hostile.json" img
[ "$bad" = 0 ] || { echo "browser/trace: FAIL"; exit 1; }
echo "browser/trace: ok"
