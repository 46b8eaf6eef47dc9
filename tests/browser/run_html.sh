#!/bin/sh
# run_html.sh - profreport's HTML reports checked in headless chromium
# (check_html.js): one report per sample, the report of every sample at
# once, a page of 32 runs all named trace.json (folded, with a navigation),
# an archive directory with index.html, and a trace whose names are
# markup (`<img src=x onerror=alert(1)>`, also as a thread name, which the
# timeline panel's embedded data carries) that must stay text, a GPU trace
# (nccl_data) whose GPU section, panels and tables must be there (and the
# CPU-only QEff page without any; its flame graph driven by check_flame.js), and the pages
# of `aggregate --html` (samples/ranks) and `compare --html` (slower_op);
# then the operator and kernel views, search, CSV and dark theme (check_views.js); the
# layout at 1400 and 1024 px, one step time, each phase duration once (check_layout.js).
# The trace view has its own test, browser/trace (run_trace.sh).
# Run by ctest as browser/html (tests/browser.cmake). Exit 77 (skip) without
# chromium, node or tests/browser/node_modules.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
: "${PROFREPORT:?}" "${PR_SAMPLES:?}"
chromium=${PR_CHROMIUM:-/usr/bin/chromium}
skip() {
	echo "browser/html: SKIP: $*"
	echo "  set up: apt-get install -y chromium (and nodejs npm unless npm is there) && (cd tests/browser && npm ci)"
	exit 77
}
command -v node >/dev/null 2>&1 || skip "node is not installed"
[ -x "$chromium" ] || skip "no chromium at $chromium"
[ -d "$here/node_modules/puppeteer-core" ] || skip "tests/browser/node_modules is missing"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/prhtml.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
HOME=$tmp/home
export HOME
mkdir -p "$HOME" "$tmp/out"

# a hostile trace: names that are markup
cat >"$tmp/hostile.json" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "<img src=x onerror=alert(1) data-injected=1>", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "</table><script src=http://example.com/x.js></script>", "pid": 1, "tid": 1, "ts": 10, "dur": 50},
 {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "</script><img src=x onerror=alert(1) data-injected=1>"}},
 {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "s": "t", "pid": 1, "tid": 1, "ts": 20,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 1, "Bytes": 1048576, "Total Allocated": 1048576, "Total Reserved": 2097152}},
 {"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "s": "t", "pid": 1, "tid": 1, "ts": 60,
  "args": {"Device Type": 1, "Device Id": 0, "Addr": 1, "Bytes": 1048576, "Total Allocated": 3145728, "Total Reserved": 4194304}}
]}
JSON
"$PROFREPORT" report "$tmp/hostile.json" -o "$tmp/out/hostile.html"
files="$tmp/out/hostile.html"
for f in qeff/qeff_profile.json qnn/memory_20241219_143000.csv torch/trace_rank0.pt.trace.json \
	inferix/profiling_report_t2v_generation_20231114_221332.json memtracer/memory_timeline.json \
	nvidia-smi/gpu_log.csv diffulex/profile_20250101_120000.json psutil/process_log.csv; do
	out="$tmp/out/$(basename "$f" | tr -c 'A-Za-z0-9._-' _).html"
	"$PROFREPORT" report "$PR_SAMPLES/$f" -o "$out"
	case $f in
	qeff/*) files="$files --no-gpu $out" ;; # a CPU-only run: no GPU section, no GPU panel
	*) files="$files $out" ;;
	esac
done
"$PROFREPORT" report "$PR_SAMPLES" -o "$tmp/out/all-samples.html"
files="$files $tmp/out/all-samples.html"
# 32 runs all named trace.json, one per directory, with a memory series each: a folded
# page whose navigation must lead to every run, names told apart by their directory
/usr/bin/python3 - "$tmp/many" <<'EOF'
import json, os, sys
for k in range(32):
    d = os.path.join(sys.argv[1], "job%02d" % k)
    os.makedirs(d)
    ev = [{"ph": "X", "cat": "cpu_op", "name": "step", "pid": 1, "tid": 1, "ts": i * 1000, "dur": 900}
          for i in range(5)]
    ev += [{"ph": "i", "cat": "cpu_instant_event", "name": "[memory]", "s": "t", "pid": 1, "tid": 1,
            "ts": i * 250, "args": {"Device Type": 1, "Device Id": 0, "Addr": i, "Bytes": 1 << 20,
            "Total Allocated": (i + k + 1) << 20, "Total Reserved": (i + k + 2) << 20}} for i in range(20)]
    json.dump({"traceEvents": ev}, open(os.path.join(d, "trace.json"), "w"))
EOF
"$PROFREPORT" report "$tmp/many" -q -o "$tmp/out/many-runs.html"
files="$files $tmp/out/many-runs.html"
# a GPU trace (tests/data/traces, when there): the GPU section, its panels and tables
nccl=${PR_TRACES:-$here/../data/traces}/hta/nccl_parser_config/nccl_data.json.gz
if [ -f "$nccl" ]; then
	"$PROFREPORT" report "$nccl" -o "$tmp/out/gpu-nccl.html"
	files="$files --gpu $tmp/out/gpu-nccl.html"
else
	echo "browser/html: $nccl is missing; the GPU page is not checked"
fi
# shellcheck disable=SC2086
node "$here/check_html.js" ${PR_SCREENSHOTS:+--screenshot "$PR_SCREENSHOTS"} $files
# nccl_data's flame graph driven (check_flame.js): merged steps, split, zoom, search (the
# share Python computes from the trace, tests/tools/flame_ref.py), GPU kernels, labels
if [ -f "$nccl" ]; then
	share=$(/usr/bin/python3 "$here/../tools/flame_ref.py" "$nccl" --search batch_norm)
	steps=$(/usr/bin/python3 "$here/../tools/flame_ref.py" "$nccl" --steps)
	node "$here/check_flame.js" ${PR_SCREENSHOTS:+--screenshot "$PR_SCREENSHOTS"} \
		"$tmp/out/gpu-nccl.html" batch_norm "$share" "$steps"
fi

# the operator and kernel views, the search box, CSV and the dark theme (check_views.js):
# the hostile trace (a CPU-only run whose op name is markup), the torch sample, and the
# GPU traces of tests/data/traces (nccl_data; the H100 trace has input shapes), each with its model
mkdir "$tmp/views"
"$PROFREPORT" report "$tmp/hostile.json" -q -o "$tmp/views/cpu.html" --json "$tmp/views/cpu.json"
"$PROFREPORT" report "$PR_SAMPLES/torch/trace_rank0.pt.trace.json" -q -o "$tmp/views/torch.html" \
	--json "$tmp/views/torch.json"
views="$tmp/views/cpu.html $tmp/views/cpu.json $tmp/views/torch.html $tmp/views/torch.json"
h100=$(dirname "$nccl")/../../tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
for f in "$nccl" "$h100"; do
	[ -f "$f" ] || continue
	b=$(basename "$f" .json.gz)
	"$PROFREPORT" report "$f" -q -o "$tmp/views/$b.html" --json "$tmp/views/$b.json"
	views="$views $tmp/views/$b.html $tmp/views/$b.json"
done
# shellcheck disable=SC2086
node "$here/check_views.js" ${PR_SCREENSHOTS:+--screenshot "$PR_SCREENSHOTS"} $views

# layout (check_layout.js, issue 26) at 1400 and 1024 px: tables fit their card or scroll inside
# it, diagnostics whole; one step time on the page of a trace whose kernels run past its steps
# (samples/tbsteps); the QNN page with its phase log says each phase duration once
mkdir "$tmp/layout"
"$PROFREPORT" report "$PR_SAMPLES/tbsteps/tbsteps.pt.trace.json" -q -o "$tmp/layout/tbsteps.html"
"$PROFREPORT" report "$PR_SAMPLES/qnn/memory_20241219_143000.csv" -q -o "$tmp/layout/qnn.html" \
	--phases "$PR_SAMPLES/qnn/memory_20241219_143000.phases.log" --json "$tmp/layout/qnn.json"
layout="--steps $tmp/layout/tbsteps.html --phases-once --diag $tmp/layout/qnn.json $tmp/layout/qnn.html"
[ -f "$nccl" ] && layout="$layout $tmp/out/gpu-nccl.html"
# shellcheck disable=SC2086
node "$here/check_layout.js" $layout $tmp/out/all-samples.html

# an archive: one page per run + index.html, all checked; a second run skips them
"$PROFREPORT" report "$PR_SAMPLES" -o "$tmp/archive" 2>"$tmp/err1"
grep -q ' 0 already there' "$tmp/err1" || { cat "$tmp/err1"; echo "browser/html: FAIL: first archive run skipped reports"; exit 1; }
"$PROFREPORT" report "$PR_SAMPLES" -o "$tmp/archive" 2>"$tmp/err2"
grep -q ' 0 report(s) written' "$tmp/err2" || { cat "$tmp/err2"; echo "browser/html: FAIL: second archive run rewrote reports"; exit 1; }
# shellcheck disable=SC2046
node "$here/check_html.js" $(ls "$tmp"/archive/*.html)
node "$here/check_layout.js" "$tmp/archive/index.html"

# the aggregate page of samples/ranks (rank 2 is the straggler) and the compare
# page of samples/compare/slower_op (a regression: compare exits 1, the page is written)
mkdir "$tmp/agg"
"$PROFREPORT" aggregate "$PR_SAMPLES/ranks" -q --html "$tmp/agg/aggregate.html" 2>/dev/null
set +e
"$PROFREPORT" compare "$PR_SAMPLES/compare/slower_op/base.pt.trace.json" \
	"$PR_SAMPLES/compare/slower_op/new.pt.trace.json" --html "$tmp/agg/compare.html" >/dev/null 2>&1
crc=$?
set -e
[ "$crc" -eq 1 ] || { echo "browser/html: FAIL: compare of slower_op exited $crc, expected 1"; exit 1; }
node "$here/check_html.js" ${PR_SCREENSHOTS:+--screenshot "$PR_SCREENSHOTS"} "$tmp/agg/aggregate.html" "$tmp/agg/compare.html"
node "$here/check_layout.js" "$tmp/agg/aggregate.html" "$tmp/agg/compare.html"
