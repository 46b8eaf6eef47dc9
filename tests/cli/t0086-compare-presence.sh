#!/bin/sh
# t0086-compare-presence: presence and count changes are verdicts of their own,
# whatever their size, as HolisticTraceAnalysis's trace diff reports them: ops
# and kernels only in NEW are "added", only in BASE "removed", and calls per
# step changed is "calls changed", on the CPU and the GPU side, even under the
# noise floor; they are listed first among the span changes. And the markdown
# comment stays under GitHub's 65,536 characters whatever the trace.
# shellcheck disable=SC2016 # backquotes are markdown, not shell
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# -- the trace-diff pair (samples/compare/trace_diff/make_trace_diff.py: HTA's
# trace-diff test names). DERIVATION (from the script, no profreport): per step
# of 122.149 ms, BASE has 2 nccl:all_reduce (67 us) each launching one
# ncclKernel_AllReduce_RING_LL_Sum_float (180 us) through one cudaLaunchKernel,
# and aten::zeros (5 us); NEW has 1 all-reduce, 1 kernel, 1 launch, no
# aten::zeros, and AddmmBackward0 (40 us), All2All_Pooled_Req (25 us) and
# CatBackward0 (12 us). Every one is under 1 % of the step (1.2 ms): below the
# noise floor for its time, so before this rule all of them were hidden there.
S=$PR_SAMPLES/compare/trace_diff
run "$P" compare "$S/base.pt.trace.json" "$S/new.pt.trace.json" --to json -o diff.json
expect_rc 0 "trace diff: presence and count changes are reported, not failures"
for op in AddmmBackward0 All2All_Pooled_Req CatBackward0; do
	metric_is diff.json "span:$op" verdict added
	metric_is diff.json "span:$op" calls '{"base": 0.0, "new": 1.0, "changed": true}'
done
metric_is diff.json span:aten::zeros verdict removed
metric_is diff.json span:nccl:all_reduce verdict "calls changed"
metric_is diff.json span:nccl:all_reduce calls '{"base": 2.0, "new": 1.0, "changed": true}'
metric_is diff.json span:ncclKernel_AllReduce_RING_LL_Sum_float verdict "calls changed"
metric_is diff.json span:cudaLaunchKernel verdict "calls changed"
metric_is diff.json span:cudaLaunchKernel why \
	"calls per step changed from 2 to 1 (a change of >= 0.5 is reported); time: below the noise floor, not gated"
# the ops whose presence and count did not change stay below the noise floor
grep -q '"id": "span:aten::empty"' diff.json || fail "trace diff: aten::empty is not listed"
metric_is diff.json span:aten::empty verdict "(no metric)"

run "$P" compare "$S/base.pt.trace.json" "$S/new.pt.trace.json"
expect_rc 0 "trace diff (text)"
expect_out_has "3 calls/step changed" "trace diff (text)"
expect_out_has "3 added, 1 removed" "trace diff (text)"
expect_out_has "# span:nccl:all_reduce       134.000 us  67.000 us  0.50x  calls changed 2->1" \
	"trace diff (text)"
run "$P" compare "$S/base.pt.trace.json" "$S/new.pt.trace.json" --to md
expect_rc 0 "trace diff (md)"
# the presence and count changes come right after the headline table, before the rest
awk '/^\*\*/ { print }' "$tmp/out" >headings
printf '%s\n' '**Headline: step time, throughput, GPU busy, peak memory** (2)' \
	'**Ops and kernels added, removed or called a different number of times per step** (7)' |
	cmp -s - headings || fail "trace diff (md): sections are $(cat headings)"
expect_out_has '| x | `span:All2All_Pooled_Req` | - | 25.000 us | - | - | +5% | only in NEW; calls per step 0 -> 1 |' \
	"trace diff (md)"

# -- a big generated pair: 2000 kernels of long C++ names, 1000 on each side only,
# so 2000 presence rows; the comment is cut to fit and says so
big() { # SIDE STEP_MS > FILE (4 steps; kernel i exists when i % 2 != SIDE)
	awk -v side="$1" -v ms="$2" 'BEGIN {
		printf "{\"traceEvents\": [\n"
		t = 1000
		for (s = 1; s <= 4; s++) {
			us = ms * 1000
			printf "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%d\"," \
				"\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d},\n", s, t, us
			o = t + 10
			for (i = 0; i < 2000; i++) {
				if (i % 2 == side)
					continue
				printf "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void at::native::" \
					"(anonymous namespace)::elementwise_kernel_%d<float, 4, " \
					"at::native::BinaryFunctor<float, float, float, at::native::" \
					"MulFunctor<float> > >(int, float*, float const*, float const*)\"," \
					"\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":20},\n", i, o
				o += 21
			}
			t += us + 50
		}
		printf "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"end\"," \
			"\"pid\":1,\"tid\":1,\"ts\":%d}\n]}\n", t
	}'
}
big 0 30 >big_base.json
big 1 40 >big_new.json
run "$P" compare big_base.json big_new.json --to md -o big.md
expect_rc 1 "big pair: step time 30 -> 40 ms fails"
size=$(wc -c <big.md)
[ "$size" -le 65536 ] || fail "big pair: the markdown is $size characters, over 65,536"
[ "$size" -ge 60000 ] || fail "big pair: the markdown is only $size characters (nothing cut?)"
head -1 big.md | grep -q '^### profreport compare: \*\*FAIL: 2 regressions, 1 unchanged, 1000 added, 1000 removed' ||
	fail "big pair: summary line $(head -1 big.md)"
grep -q '^| + | `step_time` | 30.000 ms | 40.000 ms |' big.md || fail "big pair: step time not pinned"
grep -q "more row(s) not shown: the comment stays under GitHub's 65536 characters (\`--to json\` has every metric)" big.md ||
	fail "big pair: the cut is not said"
grep -q '^`+` worse' big.md || fail "big pair: the legend was cut"
# the <details> blocks are closed
[ "$(grep -c '<details>' big.md)" = "$(grep -c '</details>' big.md)" ] ||
	fail "big pair: unbalanced <details>"
# names as the report shows them: no return type, argument list nor namespaces
grep -q "elementwise_kernel_1170<float, 4, BinaryFunctor" big.md ||
	fail "big pair: kernel names are not shown"
if grep -q '(int, float\*' big.md; then
	fail "big pair: a name keeps its argument list"
fi

finish
