#!/bin/sh
# t0010-compare: 'profreport compare BASE NEW' is a CI gate: exit 0 without
# a regression, 1 with one, 2 on usage or input errors. The sample pairs of
# samples/compare/ (make_pairs.py) have known answers; the markdown of each
# is compared with tests/golden/compare/<pair>.md (after the facts of
# <pair>.checks, derived from the traces by tests/tools/compare_facts.py, hold
# on its JSON), the JSON must parse and the JUnit XML must validate against tests/tools/junit.xsd (xmllint, from
# the Debian package libxml2-utils; without it only that check is left out).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# xsd_ok FILE DESC: FILE validates against the JUnit schema. Without xmllint only
# this check is left out (said once); PR_REQUIRE_ALL=1 (CI) makes that a failure.
have_xmllint=1
command -v xmllint >/dev/null 2>&1 || {
	have_xmllint=0
	if [ "${PR_REQUIRE_ALL:-0}" = 1 ]; then
		fail "xmllint is missing (apt-get install libxml2-utils) and PR_REQUIRE_ALL=1"
	else
		echo "t0010-compare: no xmllint: the JUnit XML is not validated against the schema"
	fi
}
xsd_ok() {
	[ "$have_xmllint" = 1 ] || return 0
	xmllint --noout --schema "$XSD" "$1" 2>xmllint.err || {
		fail "$2: the JUnit XML does not validate"
		cat xmllint.err >&2
	}
}
XSD=$PR_TESTS/tools/junit.xsd
GOLD=$PR_TESTS/golden/compare
S=$PR_SAMPLES/compare

json_ok() { # FILE
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["schema"] == "profreport-compare" and d["version"] == 1' "$1"
	else
		grep -q '"schema": "profreport-compare"' "$1"
	fi
}

# The pairs, each with its exit status. short<N>_*: what a profiler schedule
# records (active=3..5 steps); missing_*: a key metric of BASE gone in NEW;
# allreduce_calls: 2 all-reduces per step fused into one; new_op: an op new
# in NEW (see samples/compare/README.md).
for spec in identical:0 slower_op:1 noise:0 memory:1 improvement:0 span_sets:0 \
	short3_slow:1 short4_slow:1 short5_slow:1 short3_noise:0 short4_noise:0 short5_noise:0 \
	short4_identical:0 missing_peak:1 missing_phase:1 missing_steps:1 allreduce_calls:0 new_op:1; do
	pair=${spec%:*}
	want=${spec#*:}
	base=$S/$pair/base.pt.trace.json
	new=$S/$pair/new.pt.trace.json
	# the facts of $pair.checks (tests/tools/compare_facts.py, from the traces alone) hold on
	# the JSON before the markdown is compared or, with PR_UPDATE_GOLDEN=1, written
	facts_ok=1
	if [ -f "$GOLD/$pair.checks" ]; then
		"$P" compare "$base" "$new" --to json -o "$pair.facts.json" 2>/dev/null || true
		if ! /usr/bin/python3 "$PR_TESTS/tools/checks.py" "$GOLD/$pair.checks" \
			--model "$pair.facts.json" >facts.out 2>&1; then
			cat facts.out >&2
			fail "compare $pair: the JSON breaks the facts of $GOLD/$pair.checks (above)"
			facts_ok=0
		fi
	fi
	run "$P" compare "$base" "$new" --to md
	expect_rc "$want" "compare $pair (md)"
	if [ "${PR_UPDATE_GOLDEN:-0}" = 1 ]; then
		[ "$facts_ok" = 0 ] || cp "$tmp/out" "$GOLD/$pair.md"
	elif ! cmp -s "$tmp/out" "$GOLD/$pair.md"; then
		fail "compare $pair: markdown differs from $GOLD/$pair.md"
		diff "$GOLD/$pair.md" "$tmp/out" | head -20 >&2 || true
	fi
	if [ "$want" = 1 ]; then
		expect_one_err_line "compare $pair reports the regressions on stderr"
		expect_err_has "regression(s)" "compare $pair"
	else
		expect_err_empty "compare $pair"
	fi
	run "$P" compare "$base" "$new" --to json -o "$pair.json"
	expect_rc "$want" "compare $pair (json)"
	expect_out_empty "compare -o writes only the file"
	json_ok "$pair.json" || fail "compare $pair: the JSON output does not parse as a comparison"
	run "$P" compare "$base" "$new" --to junit -o "$pair.xml"
	expect_rc "$want" "compare $pair (junit)"
	xsd_ok "$pair.xml" "compare $pair"
	fails=$(grep -c '<failure ' "$pair.xml" || true)
	if [ "$want" = 1 ] && [ "$fails" -lt 1 ]; then fail "compare $pair: no <failure> in the JUnit XML"; fi
	if [ "$want" = 0 ] && [ "$fails" -ne 0 ]; then fail "compare $pair: <failure> in the JUnit XML of a passing pair"; fi
	run "$P" compare "$base" "$new"
	expect_rc "$want" "compare $pair (text)"
	awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$tmp/out" ||
		fail "compare $pair: the console table has lines over 80 columns"
done

# -- the known answers, by name
run "$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json"
expect_out_has "+ span:aten::mm" "the slower op is named as a regression"
run "$P" compare "$S/memory/base.pt.trace.json" "$S/memory/new.pt.trace.json"
expect_out_has "+ peak:dev.mem.allocated" "the memory regression is named"
run "$P" compare "$S/improvement/base.pt.trace.json" "$S/improvement/new.pt.trace.json"
expect_out_has "- step_time" "the improvement is reported as better"
run "$P" compare "$S/span_sets/base.pt.trace.json" "$S/span_sets/new.pt.trace.json"
expect_out_has "x span:aten::gelu" "an added span is listed"
expect_out_has "! span:aten::relu" "a removed span is listed"

# -- short runs (issue 11): 1.5x slower steps over 3, 4 and 5 steps fail. With
# 3 or 4 a side Mann-Whitney cannot reach p < 0.01 (its smallest p is 0.1 and
# 0.029), so the bootstrap CI of new/base decides and the output says so;
# with 5 a side the exact p of separated samples, 2/252 = 0.0079, does.
for n in 3 4 5; do
	pair=$S/short${n}_slow
	run "$P" compare "$pair/base.pt.trace.json" "$pair/new.pt.trace.json"
	expect_rc 1 "1.5x slower over $n steps fails"
	if [ "$n" = 5 ]; then tag='regression p=0.0079'; rule=mann-whitney; else tag='regression ci>='; rule=bootstrap-ci; fi
	grep -Eq "^\+ step_time .* $tag" "$tmp/out" || { fail "short${n}_slow: step_time is not '$tag'"; show; }
	"$P" compare "$pair/base.pt.trace.json" "$pair/new.pt.trace.json" --to json -o s$n.json 2>/dev/null || true
	metric_is s$n.json step_time verdict regression
	metric_is s$n.json step_time rule $rule
	run "$P" compare "$pair/new.pt.trace.json" "$pair/base.pt.trace.json"
	expect_rc 0 "1.5x faster over $n steps passes"
	grep -Eq "^- step_time .* improvement" "$tmp/out" || { fail "short${n}_slow reversed: no improvement"; show; }
done
"$P" compare "$S/short3_noise/base.pt.trace.json" "$S/short3_noise/new.pt.trace.json" --to json -o n3.json
metric_is n3.json step_time verdict unchanged
metric_is n3.json step_time rule threshold
# aten::copy_ is 1.06x over 3 steps: beyond +5 %, but its CI is not wholly beyond
metric_is n3.json span:aten::copy_ verdict noise
metric_is n3.json span:aten::copy_ rule bootstrap-ci
run "$P" compare "$S/short4_slow/base.pt.trace.json" "$S/short4_slow/new.pt.trace.json" --to junit
expect_out_has 'rule bootstrap-ci: a regression: beyond the threshold +5%; with 4 and 4 samples Mann-Whitney cannot reach p &lt; 0.01' \
	"the JUnit message says which rule decided"
run "$P" compare "$S/short4_slow/base.pt.trace.json" "$S/short4_slow/new.pt.trace.json" --to md
expect_out_has '| + | `step_time` | 5.244 ms | 7.658 ms | +2.414 ms | +46.0% | +5% | bootstrap CI [' "the markdown says which rule decided"

# -- real torch 1.13 CPU traces of 4 steps (samples/compare/torch_cpu): a rerun
# passes, 1.5x the matrix work (step time 1.56x) fails by the bootstrap CI
TC=$S/torch_cpu
run "$P" compare "$TC/base.pt.trace.json" "$TC/noise.pt.trace.json"
expect_rc 0 "a real rerun of 4 steps passes"
run "$P" compare "$TC/base.pt.trace.json" "$TC/slow.pt.trace.json"
expect_rc 1 "a real 1.56x slower 4-step run fails"
grep -Eq '^\+ step_time .* 1\.56x  regression ci>=1\.21x$' "$tmp/out" || { fail "torch_cpu: step_time is not a 1.56x regression by the CI"; show; }

# -- a key metric of BASE missing in NEW fails (exit 1), named on stderr and as '!'
for spec in missing_peak:peak:dev.mem.allocated missing_phase:'phase:## optimizer ##' missing_steps:step_time; do
	pair=${spec%%:*}
	id=${spec#*:}
	run "$P" compare "$S/$pair/base.pt.trace.json" "$S/$pair/new.pt.trace.json"
	expect_rc 1 "$pair fails"
	expect_err_has "key metric(s) of BASE missing in NEW" "$pair on stderr"
	grep -Fq "! $id" "$tmp/out" || { fail "$pair: '$id' not marked '!'"; show; }
	"$P" compare "$S/$pair/base.pt.trace.json" "$S/$pair/new.pt.trace.json" --to json -o $pair.json 2>/dev/null || true
	metric_is $pair.json "$id" verdict missing
	run "$P" compare "$S/$pair/base.pt.trace.json" "$S/$pair/new.pt.trace.json" --to junit
	expect_out_has '<failure type="missing"' "$pair: a JUnit failure"
done
# fragmentation is not a key metric: removed, not a failure
metric_is missing_peak.json fragmentation verdict removed

# -- runs with nothing comparable: an error (exit 2), not a pass
run "$P" compare "$S/noise/base.pt.trace.json" "$PR_SAMPLES/nvidia-smi/gpu_log.csv"
expect_rc 2 "a torch trace against a memory CSV"
expect_one_err_line "nothing comparable"
expect_err_has "nothing to compare: no metric is in both inputs" "nothing comparable"

# -- calls per step: two all-reduces fused into one of twice the size (same time)
run "$P" compare "$S/allreduce_calls/base.pt.trace.json" "$S/allreduce_calls/new.pt.trace.json"
expect_rc 0 "a changed call count is reported, not a failure"
grep -Eq '^# span:nccl:all_reduce .* calls changed 2->1$' "$tmp/out" || { fail "allreduce_calls: 2 -> 1 calls not reported"; show; }
expect_out_has "calls/step changed" "the summary counts calls changes"
"$P" compare "$S/allreduce_calls/base.pt.trace.json" "$S/allreduce_calls/new.pt.trace.json" --to json -o ar.json
metric_is ar.json span:nccl:all_reduce verdict "calls changed"
metric_is ar.json span:nccl:all_reduce calls '{"base": 2.0, "new": 1.0, "changed": true}'

# -- an op new in NEW above the noise floor is a reported change ('x'); its
# 250 us also make the forward phase 1.10x slower over 4 steps: a regression
run "$P" compare "$S/new_op/base.pt.trace.json" "$S/new_op/new.pt.trace.json"
expect_rc 1 "new_op: the forward phase regressed"
grep -Eq '^x span:aten::contiguous +- +247.917 us +- +added' "$tmp/out" || { fail "new_op: the new op is not listed as added"; show; }
grep -Eq '^\+ phase:## forward ## .* regression ci>=' "$tmp/out" || { fail "new_op: the forward phase is not a regression"; show; }
run "$P" compare "$S/new_op/base.pt.trace.json" "$S/new_op/new.pt.trace.json" --to junit
grep -A1 -F 'name="span:aten::contiguous"' "$tmp/out" | grep -qF '<system-out>added: ' ||
	fail "new_op: the added op is not a reported JUnit testcase"
grep -qF '<skipped' "$tmp/out" && fail "new_op: an added op is 'skipped' in the JUnit XML"

# -- --fail-on and --ignore that select nothing: warnings, errors with --strict
run "$P" compare "$S/short4_noise/base.pt.trace.json" "$S/short4_noise/new.pt.trace.json" \
	--fail-on 'phase:## fwd ##:+3%' --ignore 'aten::nothing*'
expect_rc 0 "a rule or glob that selects nothing is a warning"
expect_err_has "warning: fail-on rule 'phase:## fwd ##:+3%' matches no metric of BASE or NEW" "--fail-on warning"
expect_err_has "warning: ignore glob 'aten::nothing*' matches no metric of BASE or NEW" "--ignore warning"
for bad in "--fail-on phase:##_fwd_##:+3%" "--ignore aten::nothing*" "--fail-on step_time:+1MiB"; do
	# shellcheck disable=SC2086
	run "$P" compare "$S/short4_noise/base.pt.trace.json" "$S/short4_noise/new.pt.trace.json" $bad --strict
	expect_rc 2 "compare $bad --strict"
	expect_one_err_line "compare $bad --strict"
	expect_err_has "(--strict)" "compare $bad --strict"
done
echo '{"strict": true, "ignore": ["aten::nothing*"]}' >strict.json
run "$P" compare "$S/short4_noise/base.pt.trace.json" "$S/short4_noise/new.pt.trace.json" --config strict.json
expect_rc 2 "\"strict\": true in the config"
run "$P" compare "$S/short4_noise/base.pt.trace.json" "$S/short4_noise/new.pt.trace.json" --fail-on 'step_tme:+3%'
expect_rc 2 "--fail-on with an unknown metric name is a usage error"
expect_err_has "unknown metric 'step_tme'" "the unknown metric is named"

# -- overrides: --ignore, --fail-on, --config, --alpha
run "$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json" \
	--ignore 'aten::mm' --ignore 'sm90_*_nn_n_*'
expect_rc 0 "--ignore (repeated) takes the slow op out of the gate"
run "$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json" \
	--fail-on 'span:*:+25%'
expect_rc 0 "--fail-on raises the span threshold above the 20 % slowdown"
run "$P" compare "$S/memory/base.pt.trace.json" "$S/memory/new.pt.trace.json" \
	--fail-on 'peak:dev.mem.allocated:+1GiB'
expect_rc 0 "--fail-on peak:...:+1GiB lets +512 MiB pass"
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --fail-on 'step_time:+0.1%'
expect_rc 0 "noise beyond a tiny threshold is not significant"
cat >gate.json <<'JSON'
{ "alpha": 0.01, "min_us": 10, "fail_on": ["span:*:+25%"], "ignore": ["cudaLaunchKernel"] }
JSON
run "$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json" --config gate.json
expect_rc 0 "--config applies fail_on"
run "$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json" --config gate.json \
	--fail-on 'span:*:+10%'
expect_rc 1 "a command-line --fail-on overrides the config"

# -- a model JSON is read as it is, and gives the same answer as the trace
"$P" report "$S/slower_op/base.pt.trace.json" --json base.model.json || fail "setup: report --json failed"
run "$P" compare base.model.json "$S/slower_op/new.pt.trace.json" --to md
expect_rc 1 "compare of a model JSON with a trace"
cmp -s "$tmp/out" "$GOLD/slower_op.md" || fail "compare of a model JSON differs from compare of the trace"

# -- what the gate cannot judge is an error (exit 2), never a pass (issue 12).
# junit_error DESC: the last run's stdout is a valid JUnit report with one
# <error> testcase and no pass: a CI that reads the report sees the error.
junit_error() {
	cp "$tmp/out" je.xml
	xsd_ok je.xml "$1"
	grep -q '<testsuite name="profreport.compare" tests="1" failures="0" errors="1"' je.xml ||
		{ fail "$1: the JUnit testsuite is not one error"; head -5 je.xml >&2; }
	grep -q '<error type="' je.xml || fail "$1: no <error> testcase in the JUnit XML"
	grep -q 'name="status" value="error"' je.xml || fail "$1: the JUnit status property is not 'error'"
}
ID=$S/identical
# an empty NEW: an error naming NEW, not "PASS, 29 removed"
echo '{"traceEvents":[]}' >empty.json
run "$P" compare "$ID/base.pt.trace.json" empty.json
expect_rc 2 "an empty NEW"
expect_one_err_line "an empty NEW"
expect_err_has "'empty.json': NEW has no metrics" "an empty NEW is named"
expect_out_empty "an empty NEW"
run "$P" compare "$ID/base.pt.trace.json" empty.json --to junit
expect_rc 2 "an empty NEW (junit)"
junit_error "an empty NEW"
run "$P" compare empty.json "$ID/base.pt.trace.json"
expect_rc 2 "an empty BASE"
expect_err_has "'empty.json': BASE has no metrics" "an empty BASE is named"
# NEW's durations malformed ("abc"), negative or missing. The 20-step sample has
# 680 X events, one "dur" each (grep -c below); ingest takes a bad, negative or
# missing "dur" as 0 with a diagnostic, so before issue 12 NEW showed 26
# improvements (a missing one had no diagnostic and was caught by its 0 ns steps).
ndur=$(grep -o '"dur":"' "$ID/new.pt.trace.json" | wc -l | tr -d ' ')
[ "$ndur" = 680 ] || fail "setup: identical/new has $ndur durations, expected 680"
sed 's/"dur":"[0-9.]*"/"dur":"abc"/g' "$ID/new.pt.trace.json" >dur_abc.json
sed 's/"dur":"/"dur":"-/g' "$ID/new.pt.trace.json" >dur_neg.json
sed 's/,"dur":"[0-9.]*"//g' "$ID/new.pt.trace.json" >dur_none.json
for spec in abc:"bad_duration x680" neg:"negative_duration x680" none:"missing_duration x680"; do
	f=dur_${spec%%:*}.json
	want=${spec#*:}
	run "$P" compare "$ID/base.pt.trace.json" "$f"
	expect_rc 2 "NEW with durations $f"
	expect_one_err_line "NEW with durations $f"
	expect_err_has "'$f': NEW" "$f is named"
	expect_err_has "$want" "$f: what was wrong"
	expect_out_empty "$f: no comparison printed"
	run "$P" compare "$ID/base.pt.trace.json" "$f" --to junit
	expect_rc 2 "NEW with durations $f (junit)"
	junit_error "$f"
	# the same trace as BASE is an error too: its zeros would fail every change
	run "$P" compare "$f" "$ID/base.pt.trace.json"
	expect_rc 2 "BASE with durations $f"
	expect_err_has "'$f': BASE" "BASE $f is named"
done
# a NEW cut short (a crashed writer): 'truncated', the events before kept
head -c 100000 "$ID/new.pt.trace.json" >cut.json
run "$P" compare "$ID/base.pt.trace.json" cut.json
expect_rc 2 "a truncated NEW"
expect_err_has "truncated x1" "a truncated NEW"
# diagnostics that only note a quirk (unsorted_track, overlapping_spans: every
# pair above has them) are no error: see the passing pairs above
# a model with null or negative per-step values: an error naming the value's path
if command -v python3 >/dev/null 2>&1; then
	"$P" report "$S/short4_noise/new.pt.trace.json" --json n4.model.json || fail "setup: report --json"
	python3 - n4.model.json <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
r = m["runs"][0]
i = next(k for k, it in enumerate(r["spans"]["items"]) if it.get("per_step_ns"))
a = json.loads(json.dumps(m)); a["runs"][0]["spans"]["items"][i]["per_step_ns"][2] = None
json.dump(a, open("ps_null.json", "w"))
a = json.loads(json.dumps(m)); a["runs"][0]["spans"]["items"][i]["per_step_ns"][1] *= -1
json.dump(a, open("ps_neg.json", "w"))
a = json.loads(json.dumps(m)); a["runs"][0]["throughput"]["steps"]["list"][3]["dur_ns"] = None
json.dump(a, open("step_null.json", "w"))
a = json.loads(json.dumps(m)); a["runs"][0]["phases"]["occurrences"][0]["dur_ns"] = -5
json.dump(a, open("phase_neg.json", "w"))
open("item", "w").write(str(i))
PY
	i=$(cat item)
	for spec in ps_null:"runs[0].spans.items[$i].per_step_ns[2]" ps_neg:"runs[0].spans.items[$i].per_step_ns[1]" \
		step_null:"runs[0].throughput.steps.list[3].dur_ns" phase_neg:"runs[0].phases.occurrences[0].dur_ns"; do
		f=${spec%%:*}.json
		run "$P" compare "$S/short4_noise/base.pt.trace.json" "$f"
		expect_rc 2 "a model with $f"
		expect_one_err_line "a model with $f"
		expect_err_has "'$f': NEW: ${spec#*:}" "$f: the bad value's path"
		run "$P" compare "$S/short4_noise/base.pt.trace.json" "$f" --to junit
		junit_error "a model with $f"
	done
	run "$P" compare "$S/short4_noise/base.pt.trace.json" n4.model.json
	expect_rc 0 "the unedited model passes"
fi
# nothing compared (every metric ignored): an error, and no JUnit pass
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --ignore '*'
expect_rc 2 "every metric ignored"
expect_one_err_line "every metric ignored"
expect_err_has "nothing compared" "every metric ignored"
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --ignore '*' --to junit
junit_error "every metric ignored"
run "$P" compare "$S/noise/base.pt.trace.json" "$PR_SAMPLES/nvidia-smi/gpu_log.csv" --to junit -o nc.xml
expect_rc 2 "nothing comparable (junit)"
cp nc.xml "$tmp/out"
junit_error "nothing comparable"

# -- write errors: exit 2 with one line naming the path and errno's text, even
# with a regression (slower_op exits 1 when written)
if [ -c /dev/full ]; then
	# under AddressSanitizer, LeakSanitizer would add its "Suppressions used"
	# table (fontconfig's caches, suppressed by cli/main.c) to stderr
	LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0
	export LSAN_OPTIONS
	SO=$S/slower_op
	for fmt in text md json junit; do
		run "$P" compare "$SO/base.pt.trace.json" "$SO/new.pt.trace.json" --to $fmt -o /dev/full
		expect_rc 2 "compare --to $fmt -o /dev/full"
		expect_one_err_line "compare --to $fmt -o /dev/full"
		expect_err_has "'/dev/full': cannot write: No space left on device" "--to $fmt -o /dev/full"
		set +e
		"$P" compare "$SO/base.pt.trace.json" "$SO/new.pt.trace.json" --to $fmt >/dev/full 2>"$tmp/err"
		rc=$?
		set -e
		last_cmd="compare --to $fmt >/dev/full"
		expect_rc 2 "compare --to $fmt to a full standard output"
		expect_one_err_line "compare --to $fmt to a full standard output"
		expect_err_has "'standard output': cannot write: No space left on device" "--to $fmt >/dev/full"
	done
	run "$P" compare "$SO/base.pt.trace.json" "$SO/new.pt.trace.json" --html /dev/full
	expect_rc 2 "compare --html /dev/full"
	expect_one_err_line "compare --html /dev/full"
	expect_err_has "'/dev/full': cannot write: No space left on device" "--html /dev/full"
	run "$P" compare "$SO/base.pt.trace.json" "$SO/new.pt.trace.json" --to junit --html /dev/full
	expect_rc 2 "compare --to junit --html /dev/full"
	junit_error "a failed --html write"
	run "$P" compare "$SO/base.pt.trace.json" "$SO/new.pt.trace.json" --svg /dev/full
	expect_rc 2 "compare --svg /dev/full (not a directory)"
	expect_one_err_line "compare --svg /dev/full"
	expect_err_has "/dev/full" "--svg /dev/full"
fi

# -- usage and input errors: exit 2, one line
for bad in "--fail-on step_time" "--fail-on step_time:5%" "--fail-on step_time:+5parsecs" \
	"--to html" "--format junit" "--format nosuch" "--alpha 2" "--min-us -1"; do
	# shellcheck disable=SC2086
	run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" $bad
	expect_rc 2 "compare $bad"
	expect_one_err_line "compare $bad"
done
# a JUnit testcase of a time metric lasts its NEW value (so CI trend charts plot it): step_time's
# time is NEW's step_time in seconds, as the JSON comparison of the same pair says
"$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json" --to json -o so.json 2>/dev/null || true
"$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json" --to junit -o so.xml 2>/dev/null || true
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import json, sys, xml.etree.ElementTree as ET
m = [m for m in json.load(open("so.json"))["metrics"] if m["id"] == "step_time"][0]
t = [c for c in ET.parse("so.xml").iter("testcase") if c.get("name") == "step_time"][0]
sys.exit(0 if abs(float(t.get("time")) - m["new"] / 1e9) < 1e-9 else "step_time testcase time %s, NEW %s ns" % (t.get("time"), m["new"]))
' || fail "the step_time testcase does not last NEW's step time"
fi

# --format is the input format, as in every command; the output's form is --to
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --format junit
expect_err_has "--format names the input format; the output's form is --to junit" "compare --format junit says --to"
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --format chrome --to md
expect_rc 0 "compare --format chrome (the traces' input format forced)"
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --format csv
expect_rc 2 "compare --format csv of Chrome traces"
expect_one_err_line "compare --format csv of Chrome traces"
run "$P" compare "$S/noise/base.pt.trace.json" missing.json
expect_rc 2 "compare with a missing input"
echo '{"alpha": 0.01, "bogus": 1}' >bad.json
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --config bad.json
expect_rc 2 "a config with an unknown key"
expect_err_has "bogus" "the config error names the key"
run "$P" compare "$S/noise/base.pt.trace.json"
expect_rc 2 "compare needs two inputs"

ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "compare left temporary files: $(cat leftover)"
finish
