#!/bin/sh
# t0105-report-pages: the HTML report at scale (issue 15). A page of many runs
# folds them into <details> under a numbered navigation whose every link
# names a section (#run-<ID>, the number the heading shows); two runs named
# trace.json in different directories are told apart by their directory;
# the archive index's trends put only runs of one kind and one metric on a
# line; the findings are grouped by rule and ranked by impact, the evidence
# folded; line charts carry their data for the page's script (escaped: no
# "</script" from a trace ends the element); progress is shown during
# analysis and rendering only on a terminal and not with -q.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# N small Chrome traces (cpu_op spans: collector torch.profiler), each of its own content: trace K
# has one span of (K + 1) * 100 us, so its duration is (K + 1) * 100 us
gen() { # gen DIR N [NAME]
	"$PY" - "$1" "$2" "${3:-}" <<'EOF'
import json, os, sys
d, n, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for k in range(n):
    sub = os.path.join(d, "d%02d" % k) if name else d
    os.makedirs(sub, exist_ok=True)
    ev = [{"ph": "X", "name": "work", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 0, "dur": (k + 1) * 100}]
    with open(os.path.join(sub, name or "t%02d.json" % k), "w") as f:
        json.dump({"traceEvents": ev}, f)
EOF
}

# -- many runs: 32 runs, all named trace.json in their own directory
gen many 32 trace.json
run "$P" report many -o many.html
expect_rc 0 "report of 32 runs"
"$PY" - many.html <<'EOF' || fail "the page of 32 runs: navigation, sections or names are wrong"
import re, sys
h = open(sys.argv[1]).read()
nav = re.search(r'<nav class="toc".*?</nav>', h, re.S).group(0)
links = re.findall(r'<a href="#(run-(\d+))"[^>]*><span class="no">(\d+)</span>([^<]*)</a>', nav)
ids = re.findall(r'<details class="run" id="(run-\d+)"( open)?><summary><h2>Run (\d+): ([^<]*)</h2>', h)
assert len(links) == 32 and len(ids) == 32, (len(links), len(ids))
assert not any(o for _, o, _, _ in ids), "32 runs are folded"
for (href, num, shown, name), (sid, _, head, hname) in zip(links, ids):
    assert href == sid and num == shown == head, (href, num, shown, sid, head)  # numbered as shown
    assert name == hname and re.fullmatch(r"d\d\d/trace\.json", name), name  # told apart by directory
assert len(set(n for _, _, _, n in links)) == 32
EOF

# -- a few runs stay open; a single run is a plain section
gen few 3
run "$P" report few -o few.html
expect_rc 0 "report of 3 runs"
[ "$(grep -c '<details class="run" id="run-[0-9]*" open>' few.html)" = 3 ] || fail "3 runs are not unfolded"
run "$P" report few/t00.json -o one.html
grep -q '<section class="run" id="run-1"><h2>Run 1: t00.json</h2>' one.html || fail "a single run is not a plain section"
grep -q '<nav' one.html && fail "a page of one run has a navigation"

# -- the archive's trends: 3 chrome traces and the QEff sample: the chrome runs' duration
# on one chart (3 runs), QEff alone gives no trend, nothing mixes the two kinds
mkdir mixed && cp few/*.json mixed/ && cp "$PR_SAMPLES/qeff/qeff_profile.json" mixed/
run "$P" report mixed -o site
expect_rc 0 "archive of mixed kinds"
grep -q 'aria-label="Duration | chrome / torch.profiler | 3 runs"' site/index.html ||
	fail "no duration trend of the 3 chrome runs"
grep -o 'aria-label="[^"]*| [0-9]* runs"' site/index.html | grep -v '| chrome / torch.profiler |' &&
	fail "a trend of another kind (one QEff run has none)"
grep -q '<td class="name">qeff / qeff-memory-profiler</td>' site/index.html || fail "the index does not say each run's kind"

# -- findings: the Inferix sample's (evidence in the file: layer attention 78.9 %, stages
# model_loading 34.9 %, diffusion_block and run_inference 34.6 %, FPS 3.0 < 10 with no
# share, BPS 1.0 < 2 medium): ranked high by share, one box for the three stages
run "$P" report "$PR_SAMPLES/inferix/profiling_report_t2v_generation_20231114_221332.json" -o inf.html
expect_rc 0 "report of the Inferix sample"
order=$(grep -o '<div class="rec [a-z]*"><strong>\[[a-z]*\] [A-Za-z ]*:' inf.html | sed 's/.*\] //; s/:$//' | tr '\n' ',')
[ "$order" = "Computation Bottleneck,Performance Bottleneck,Generation Speed,Block Processing," ] ||
	fail "findings are not grouped and ranked by impact: $order"
grep -q '<ul class="also"><li>Stage &#39;diffusion_block&#39; takes 34.6% of total time</li>' inf.html ||
	fail "the stage findings are not one group"
grep -q '<details class="ev"><summary>Evidence (3 findings)</summary>' inf.html || fail "the evidence is not folded"
[ "$(grep -c '<details class="ev">' inf.html)" = 4 ] || fail "not one evidence fold per group"

# -- charts carry their data; a thread named like markup (the timeline's lane) cannot end
# the element (a second thread: a timeline of one lane is not drawn, the trace view has it)
cat >hostile.json <<'JSON'
{"traceEvents": [
 {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "</script><script>alert(1)</script>"}},
 {"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
 {"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 2, "ts": 50, "dur": 100}
]}
JSON
run "$P" report hostile.json -o hostile.html
expect_rc 0 "report of a thread named like markup"
grep -q 'class="pz-data">' hostile.html || fail "no panel data on the page"
grep -q '<script>alert' hostile.html && fail "a series name ended the data element"
grep -q '\\u003c/script\\u003e\\u003cscript\\u003ealert(1)' hostile.html || fail "the thread name is not in the data, escaped"
"$PY" - hostile.html <<'EOF' || fail "the panel data does not parse back"
import json, re, sys
h = open(sys.argv[1]).read()
blocks = re.findall(r'<script type="application/json" class="pz-data">(.*?)</script>', h, re.S)
assert blocks
labels = [l["l"] for b in blocks for l in json.loads(b)["rects"]]
assert any("</script><script>alert(1)</script>" in l for l in labels), labels
EOF

# -- progress: on a terminal (script(1) gives one) during analysis and rendering; not with
# -q, not when stderr is not a terminal
if command -v script >/dev/null 2>&1; then
	script -qec "'$P' report few -o tty.html" /dev/null >tty.out 2>&1 </dev/null || true
	for w in "analyzing run 1 of 3: 't00.json'" "analyzing run 3 of 3" "rendering run 2 of 3: 't01.json'"; do
		grep -qF "$w" tty.out || fail "no progress '$w' on a terminal"
	done
	script -qec "'$P' report few -o tty.html -q" /dev/null >tty-q.out 2>&1 </dev/null || true
	grep -q 'analyzing run\|rendering run' tty-q.out && fail "progress with -q"
	script -qec "'$P' report few -o site2" /dev/null >tty-a.out 2>&1 </dev/null || true
	grep -qF "writing the page of run 3 of 3: 't02.json'" tty-a.out || fail "no progress writing an archive"
else
	echo "$test_name: script(1) is missing: progress on a terminal is not checked"
fi
run "$P" report few -o notty.html
grep -q 'analyzing run\|rendering run' "$tmp/err" && fail "progress when stderr is not a terminal"

finish
