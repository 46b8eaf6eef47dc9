#!/bin/sh
# t0010-compare: 'profreport compare BASE NEW' is a CI gate: exit 0 without
# a regression, 1 with one, 2 on usage or input errors. The sample pairs of
# samples/compare/ (make_pairs.py) have known answers; the markdown of each
# is compared with tests/golden/compare/<pair>.md, the JSON must parse and
# the JUnit XML must validate against tests/tools/junit.xsd (xmllint, from
# the Debian package libxml2-utils; the script skips with 77 without it).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v xmllint >/dev/null 2>&1 || { echo "t0010-compare: skipped (no xmllint; apt-get install libxml2-utils)"; exit 77; }
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

for spec in identical:0 slower_op:1 noise:0 memory:1 improvement:0 span_sets:0; do
	pair=${spec%:*}
	want=${spec#*:}
	base=$S/$pair/base.pt.trace.json
	new=$S/$pair/new.pt.trace.json
	run "$P" compare "$base" "$new" --format md
	expect_rc "$want" "compare $pair (md)"
	if [ "${PR_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$tmp/out" "$GOLD/$pair.md"
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
	run "$P" compare "$base" "$new" --format json -o "$pair.json"
	expect_rc "$want" "compare $pair (json)"
	expect_out_empty "compare -o writes only the file"
	json_ok "$pair.json" || fail "compare $pair: the JSON output does not parse as a comparison"
	run "$P" compare "$base" "$new" --format junit -o "$pair.xml"
	expect_rc "$want" "compare $pair (junit)"
	xmllint --noout --schema "$XSD" "$pair.xml" 2>xmllint.err || {
		fail "compare $pair: the JUnit XML does not validate"
		cat xmllint.err >&2
	}
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
run "$P" compare base.model.json "$S/slower_op/new.pt.trace.json" --format md
expect_rc 1 "compare of a model JSON with a trace"
cmp -s "$tmp/out" "$GOLD/slower_op.md" || fail "compare of a model JSON differs from compare of the trace"

# -- usage and input errors: exit 2, one line
for bad in "--fail-on step_time" "--fail-on step_time:5%" "--fail-on step_time:+5parsecs" \
	"--format html" "--alpha 2" "--min-us -1"; do
	# shellcheck disable=SC2086
	run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" $bad
	expect_rc 2 "compare $bad"
	expect_one_err_line "compare $bad"
done
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
