#!/bin/sh
# run_scales.sh - check_scales.js on report pages: nccl_data (tests/data/traces; 3 steps
# ProfilerStep#4..#6 drawn as bars), a generated trace of 12 steps numbered from #10
# (a line), samples/torch, the QNN and psutil samples (time axes in s) and the
# aggregate page of samples/ranks. Run by ctest as browser/scales (tests/browser.cmake);
# exit 77 (skip) without chromium, node or tests/browser/node_modules.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
browser_setup scales
mkdir -p "$tmp/out"
# 12 steps ProfilerStep#10..#21, 10 ms each (+ i * 0.1 ms), one op in each
/usr/bin/python3 - "$tmp/steps.json" <<'PY'
import json, sys
ev, t = [], 0.0
for i in range(12):
    d = 10000 + 100 * i
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % (10 + i),
               "pid": 1, "tid": 1, "ts": t, "dur": d})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": t + 10, "dur": d / 2})
    t += d + 50
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PROFREPORT" report "$tmp/steps.json" -q -o "$tmp/out/steps12.html"
files="$tmp/out/steps12.html"
for f in torch/trace_rank0.pt.trace.json qnn/memory_20241219_143000.csv psutil/process_log.csv; do
	out="$tmp/out/$(basename "$f" | tr -c 'A-Za-z0-9._-' _).html"
	"$PROFREPORT" report "$PR_SAMPLES/$f" -q -o "$out"
	files="$files $out"
done
"$PROFREPORT" aggregate "$PR_SAMPLES"/ranks/*.pt.trace.json -q --html "$tmp/out/agg.html"
files="$files $tmp/out/agg.html"
nccl=${PR_TRACES:-$here/../data/traces}/hta/nccl_parser_config/nccl_data.json.gz
if [ -f "$nccl" ]; then
	"$PROFREPORT" report "$nccl" -q -o "$tmp/out/nccl_data.html"
	files="$files $tmp/out/nccl_data.html"
fi
# $files holds paths without blanks (mktemp's and ours), split on purpose
# shellcheck disable=SC2086
node "$here/check_scales.js" $files
