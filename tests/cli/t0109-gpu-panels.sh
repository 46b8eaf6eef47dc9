#!/bin/sh
# t0109-gpu-panels: the GPU panels (render/gpu_panel.c) as files and in the
# HTML page, on a real Kineto trace (tests/data/traces), and none of them for a CPU-only run. nccl_data has
# kernels, NCCL communication (so an overlap panel), 2 streams with queue
# timelines and 3 ProfilerSteps: all 6 panels. The numbers the panels draw
# are checked against the trace by tests/tools/check_gpu_panels.py
# (golden/render_model/*/check); here: which panels exist, where they sit on
# the page, and the page's GPU tables that `summary` also prints.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

QEFF=$PR_SAMPLES/qeff/qeff_profile.json
NCCL=$TRACES/hta/nccl_parser_config/nccl_data.json.gz

# -- a CPU-only run: no GPU panel file, no GPU figure, no GPU section
mkdir cpu
run "$P" report "$QEFF" --png cpu --svg cpu -o cpu.html
expect_rc 0 "report of a CPU-only run"
[ -z "$(ls cpu | grep '^gpu_')" ] || fail "a CPU-only run got GPU panels: $(ls cpu | grep '^gpu_')"
[ "$(ls cpu | wc -l)" -ge 4 ] || fail "the CPU-only run lost its other panels"
if grep -q 'id="r0-gpu_' cpu.html; then fail "a CPU-only page has a GPU figure"; fi
if grep -q '<h3>GPU' cpu.html; then fail "a CPU-only page has a GPU section"; fi

[ "$failures" -eq 0 ] || finish
need_trace "$NCCL"

# -- the panels as files: all six, PNG and SVG
mkdir png svg
run "$P" report "$NCCL" --png png --svg svg -o page.html
expect_rc 0 "report of nccl_data"
for p in gpu_temporal gpu_overlap gpu_kernel_types gpu_top_kernels gpu_queue gpu_steps; do
	[ -s "png/$p.png" ] || fail "no png/$p.png"
	[ -s "svg/$p.svg" ] || fail "no svg/$p.svg"
	# the page leaves out the op-time-by-type chart of 3 types: its table says them (issue 26)
	[ $p = gpu_kernel_types ] && continue
	grep -q "id=\"r0-$p\"" page.html || fail "the page has no figure $p"
done
! grep -q 'id="r0-gpu_kernel_types"' page.html || fail "the page draws 3 GPU op types its table says"
[ "$(grep -c '<figure id="r0-gpu_' page.html)" = 5 ] || fail "the page has not exactly 5 GPU figures"

# -- on the page, each panel sits in the GPU section right under its table's heading
awk '/<h3>GPU \(cuda\)<\/h3>/ { g = NR } /<h4>Temporal breakdown \(HTA\)<\/h4>/ { t = NR }
	/id="r0-gpu_temporal"/ { f = NR } /<h4>Top GPU ops by total time<\/h4>/ { k = NR }
	/id="r0-gpu_top_kernels"/ { kf = NR } /<h4>Queue length per stream<\/h4>/ { q = NR }
	/id="r0-gpu_queue"/ { qf = NR } /<h4>Step breakdown \(TensorBoard\)<\/h4>/ { s = NR }
	/id="r0-gpu_steps"/ { sf = NR } /<h3>Panels<\/h3>/ { p = NR }
	END { exit !(p < g && g < t && t < f && f < k && k < kf && kf < q && q < qf && qf < s && s < sf) }' page.html ||
	fail "the GPU panels are not each under their table's heading in the GPU section"
# the general panels stay in "Panels", without the GPU ones
awk '/<h3>Panels<\/h3>/ { p = 1 } /<h3>GPU/ { p = 0 } p && /id="r0-gpu_/ { bad = 1 } END { exit bad }' page.html ||
	fail "a GPU panel is in the general Panels block"
# SVG ids are unique on the page (general panels r0-p<i>-, GPU panels r0-gp<i>-)
grep -o ' id="[^"]*"' page.html | sort | uniq -d >dups
[ ! -s dups ] || fail "duplicate ids on the page: $(head -3 dups)"

# -- the GPU tables `summary` prints are on the page too
run "$P" summary "$NCCL"
cp "$tmp/out" summary.txt
grep -q '^GPU kernels$' summary.txt || fail "summary has no GPU kernels block (test premise)"
grep -q '<h4>GPU kernels (busy time over the active range)</h4>' page.html || fail "the page has no GPU kernels table"
# summary: "busy 23.8% of the active range"; the page's cell has the same share
sum_busy=$(sed -n 's/^  busy \([0-9.]*\)% of the active range.*/\1/p' summary.txt)
[ -n "$sum_busy" ] || fail "no busy share in summary"
grep -q "data-v=\"[0-9.e+-]*\">$sum_busy</td>" page.html || fail "the page's GPU kernels busy share is not $sum_busy"
grep -q '^Collectives' summary.txt || fail "summary has no collectives (test premise)"
grep -q '<h4>Collectives' page.html || fail "the page has no collectives table"
grep -q '<h4>GPU op time by type</h4>' page.html || fail "the page has no op-time-by-type table"
grep -q '<h4>Communication kernels by library</h4>' page.html || fail "the page has no communication-by-library table"

finish
