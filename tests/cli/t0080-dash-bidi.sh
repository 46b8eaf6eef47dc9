#!/bin/sh
# t0080-dash-bidi: issue 30's terminal and wording items. Standard input ('-')
# given as two inputs is a usage error (C3); warnings print control
# characters escaped (C2: an --ignore glob of ESC and BEL), and bidi
# controls (U+202E) are escaped in console output like control characters;
# the hint for every metric names the real option (C4: --to json); a store
# that ingest could not even set up is not left as an empty file (C5).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}print_suppressions=0
export ASAN_OPTIONS

# C3: '-' twice
run "$P" compare - - </dev/null
expect_rc 2 "compare - -"
expect_one_err_line "compare - -"
expect_err_has "'-' (standard input) is given 2 times" "compare - -"
run "$P" summary - --phases - <"$TORCH"
expect_rc 2 "summary - --phases -"
expect_err_has "'-' (standard input) is given 2 times" "summary - --phases -"
run "$P" summary - <"$TORCH"
expect_rc 0 "summary - (once)"
expect_out_has "run 1: stdin" "summary - (once)"

# C2: the --ignore warning with ESC and BEL in its glob
B=$PR_SAMPLES/compare/identical/base.pt.trace.json
N=$PR_SAMPLES/compare/identical/new.pt.trace.json
glob=$(printf 'x\033[31my\007')
run "$P" compare "$B" "$N" --ignore "$glob"
expect_rc 0 "compare --ignore ESC glob"
if LC_ALL=C grep -q "$(printf '\033')" "$tmp/err" || LC_ALL=C grep -q "$(printf '\007')" "$tmp/err"; then
	fail "the --ignore warning printed ESC or BEL raw"
fi
expect_err_has 'x\x1b[31my\x07' "compare --ignore ESC glob (escaped)"

# C2: U+202E (right-to-left override) in a span name, through compare's text
rlo=$(printf '\342\200\256')
for side in base new; do
	dur=100
	[ $side = new ] && dur=300
	cat >"$side.json" <<JSON
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
 {"ph": "X", "cat": "cpu_op", "name": "op${rlo}gnp.exe", "pid": 1, "tid": 1, "ts": 10, "dur": $dur}
]}
JSON
done
run "$P" compare base.json new.json
if LC_ALL=C grep -q "$rlo" "$tmp/out"; then
	fail "compare's text printed U+202E raw"
fi
expect_out_has 'op\u202egnp.exe' "compare text: U+202E escaped"
run "$P" summary new.json
if LC_ALL=C grep -q "$rlo" "$tmp/out"; then
	fail "summary printed U+202E raw"
fi

# C4: the hint names --to json
run "$P" compare "$B" "$N"
if grep -q -- "--format json" "$tmp/out"; then
	fail "compare's text says --format json (the option is --to json)"
fi

# C6: --rank-from reads zero-padded ranks, and says out of range past 9 digits
cp "$PR_SAMPLES/ranks/rank0.pt.trace.json" r_0000000000.json
cp "$PR_SAMPLES/ranks/rank1.pt.trace.json" r_0000000001.json
run "$P" aggregate r_0000000000.json r_0000000001.json --rank-from 'r_([0-9]+)' -q -o agg.json
expect_rc 0 "--rank-from zero-padded"
got=$(python3 -c 'import json; print([r["rank"] for r in json.load(open("agg.json"))["ranks"]])')
[ "$got" = "[0, 1]" ] || fail "--rank-from zero-padded: ranks $got, want [0, 1]"
mv r_0000000001.json r_12345678901234567890.json
run "$P" aggregate r_0000000000.json r_12345678901234567890.json --rank-from 'r_([0-9]+)' -q -o agg.json
expect_rc 2 "--rank-from 20 digits"
expect_err_has "out of range" "--rank-from 20 digits"

# C7: a peak of 1e308 bytes keeps a unit and its column
printf 'timestamp,rss_mb\n1718000000.0,820\n1718000001.0,1e302\n' >big.csv
run "$P" summary big.csv
expect_rc 0 "summary of a 1e308 B peak"
expect_out_has "1.05e+308 B at 1.000 s" "summary of a 1e308 B peak"

finish
