#!/bin/sh
# t0150-typed-options: options bound by the command's table (cli/opt.h, PR_OPT_UINT/STRING/FLAG,
# issue 31). A whole-number option out of its range is one usage line naming its range (exit 2);
# --opt=V and --opt V are the same; the last value given wins; a flag takes no value; and a bad
# number is still reported after the command's own earlier checks (the order of the errors is
# the one before the options were bound).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# -- each bound whole number: its range, from the table (max per option)
bad_number() { # CMD OPTION VALUE MAX ARGS...
	bn_c=$1 bn_o=$2 bn_v=$3 bn_m=$4
	shift 4
	run "$P" "$bn_c" "$@" "--$bn_o" "$bn_v"
	expect_error "profreport: $bn_c: --$bn_o needs a whole number from 0 to $bn_m" \
		"$bn_c --$bn_o $bn_v"
}
bad_number report top many 100000 "$VIZ" --json m.json
bad_number report top 100001 100000 "$VIZ" --json m.json
bad_number report run -1 2147483647 "$VIZ" --json m.json
bad_number report run 2147483648 2147483647 "$VIZ" --json m.json
bad_number report timeline-points 10000001 10000000 "$VIZ" --json m.json
bad_number summary top '' 100000 "$VIZ"
bad_number summary run x 2147483647 "$VIZ"
bad_number compare base-run x 2147483647 "$VIZ" "$VIZ"
bad_number compare new-run 2147483648 2147483647 "$VIZ" "$VIZ"
bad_number changes spans 1001 1000 "$VIZ"

# -- the largest value is taken
run "$P" report "$VIZ" --top 100000 --timeline-points 10000000 --run 0 --json max.json -q
expect_rc 0 "report at the maxima"
expect_err_empty "report at the maxima"

# -- --opt=V is --opt V; the last value given wins
"$P" report "$VIZ" --top 2 --timeline-points 4 --json a.json -q
"$P" report "$VIZ" --top=2 --timeline-points=4 --json=b.json -q
"$P" report "$VIZ" --top 9 --top 2 --timeline-points 0 --timeline-points 4 --json c.json -q
"$P" report "$VIZ" --json d.json -q
cmp -s a.json b.json || fail "--top=2 --timeline-points=4 gave another model than --top 2 ..."
cmp -s a.json c.json || fail "--top 9 --top 2: the last value did not win"
cmp -s a.json d.json && fail "--top 2 gave the default model (the test cannot tell them apart)"

# -- a bound flag takes no value; a bound string needs one
run "$P" report "$VIZ" --json m.json --quiet=yes
expect_rc 2 "--quiet=yes"
expect_err_has "profreport: report: option '--quiet' takes no value" "--quiet=yes"
run "$P" summary "$VIZ" --json
expect_rc 2 "--json without a value"
expect_err_has "profreport: summary: option '--json' needs a value (FILE)" "--json without a value"

# -- a bad number comes after the checks that came before it
run "$P" report "$VIZ" --top many
expect_error "profreport: report: nothing to write" "report --top many without an output"
run "$P" report "$VIZ" --top many -o report.txt
expect_error "profreport: report: '-o report.txt': the report is FILE.html" \
	"report -o .txt --top many"
run "$P" compare "$VIZ" "$VIZ" --to xml --base-run x
expect_error "profreport: compare: unknown --to 'xml'" "compare --to xml --base-run x"
run "$P" summary "$VIZ" -j 0 --top x
expect_error "profreport: summary: -j needs a whole number from 1 to 256" "summary -j 0 --top x"
run "$P" changes "$VIZ" --to xml --spans x
expect_error "profreport: changes: unknown --to 'xml'" "changes --to xml --spans x"

finish
