#!/bin/sh
# t0021-console: the console summary of every bundled sample and of every real
# trace of tests/data/traces fits 80 columns, has no trailing blanks and never
# prints two table rows alike (tests/tools/console_check.py); and it leads
# with what the run is read for: a training trace with its step time, the
# GPU, the top spans and the findings; a memory timeline with its peak.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

check="/usr/bin/python3 $PR_TESTS/tools/console_check.py"

run "$P" summary "$PR_SAMPLES"
expect_rc 0 "summary of every sample"
cp "$tmp/out" samples.txt
$check samples.txt || fail "the samples' summary breaks the console rules (above)"
[ "$(grep -c '^run [0-9]*: ' samples.txt)" -ge 20 ] || fail "the samples' summary has fewer than 20 runs"

need_trace "$TRACES/hta/nccl_parser_config/nccl_data.json.gz"
for f in $(find "$TRACES/hta" "$TRACES/tracelens" -name '*.json.gz' -o -name '*.json' | sort); do
	"$P" summary "$f" >real.txt 2>real.err || { fail "summary of $f failed: $(cat real.err)"; continue; }
	$check real.txt | sed "s|real.txt|$(basename "$f")|" >real.bad
	[ ! -s real.bad ] || { fail "$(basename "$f"): the summary breaks the console rules"; cat real.bad >&2; }
done

# section_order FILE A B: section heading A comes before B
section_order() {
	a=$(grep -n "^$2" "$1" | head -1 | cut -d: -f1)
	b=$(grep -n "^$3" "$1" | head -1 | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] || fail "$1: '$2' should come before '$3' (lines ${a:-none}, ${b:-none})"
}
"$P" summary "$TORCH" >torch.txt || fail "summary of the torch sample"
section_order torch.txt "Throughput" "Phases (timeline)"
section_order torch.txt "GPU (cuda)" "Peak memory"
section_order torch.txt "Top spans by self time" "Peak memory"
section_order torch.txt "Recommendations" "Phases (timeline)"
"$P" summary "$PR_SAMPLES/qeff/qeff_profile.json" >qeff.txt || fail "summary of the qeff sample"
[ "$(sed -n 6p qeff.txt)" = "Peak memory" ] || fail "a memory timeline's summary does not lead with its peak: $(sed -n 6p qeff.txt)"

# many phase occurrences are grouped by name (count, total, mean, p50, p95, share)
"$P" summary "$TRACES/hta/nccl_parser_config/nccl_data.json.gz" >nccl.txt
grep -q '^  39 occurrences of 8 names; the largest totals first$' nccl.txt ||
	fail "nccl_data: no 'Phases by name' table of its 39 phase occurrences"
# ## backward ## (cat user_annotation; the gpu_user_annotation copies are not phases) lasts
# 102.956, 101.095 and 106.516 ms (python3 over the trace):
# p50 102.956, p95 (numpy's linear) 102.956 + 0.9 x 3.560 = 106.160 ms
grep -q '^  ## backward ##            3 310.567 ms 103.522 ms 102.956 ms 106.160 ms  44.3%$' nccl.txt ||
	fail "nccl_data: the ## backward ## row of 'Phases by name' is not count 3, total 310.567, p50 102.956, p95 106.160 ms"
grep -q '^  \.\.\. 27 more occurrences' nccl.txt || fail "nccl_data: the timeline does not say 27 more occurrences"
finish
