#!/bin/sh
# t0096-budgets: issue 30 R3 and R5. The analyses keep at most
# PROFREPORT_MAX_STEPS steps and phases and PROFREPORT_MAX_NAMES distinct
# span names (defaults 65 536 and 131 072), a phase log at most
# PROFREPORT_MAX_STEPS phases: what is left out is said in a diagnostic, the
# numbers are those of what was kept, and a bad value is a usage error. (A
# trace of 1 M ProfilerSteps took 750 MB to summarise, a phase log of 3.6 M
# lines 1.6 GB; bench/bounds.sh steps phaselog measures them.)
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# model_is FILE EXPR WANT DESC: the Python expression over the model (runs = its runs) is WANT
model_is() {
	got=$(python3 -c 'import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
v = eval(sys.argv[2])
print(int(v) if isinstance(v, float) and v == int(v) else v)' "$1" "$2" 2>&1) || true
	[ "$got" = "$3" ] || fail "$4: $2 is '$got', expected '$3'"
}

# six steps of 90, 80, 70, 60, 50, 40 us, one aten::mm of 10 us in each
{
	echo '{"traceEvents":['
	i=0
	while [ $i -lt 6 ]; do
		echo "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#$i\",\"pid\":1,\"tid\":1,\"ts\":$((i * 100)),\"dur\":$((90 - 10 * i))},"
		sep=,
		[ $i -eq 5 ] && sep=
		echo "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":$((i * 100 + 5)),\"dur\":10}$sep"
		i=$((i + 1))
	done
	echo ']}'
} >steps.json
"$P" ingest -q steps.json -o s.db

# within the budgets: six steps, no diagnostic
"$P" report s.db --json m0.json -q
model_is m0.json 'runs[0]["throughput"]["steps"]["count"]' 6 "all six steps"
model_is m0.json 'len(runs[0]["diagnostics"])' 0 "no budget diagnostic by default"

# four steps kept: the first four in store order (90, 80, 70, 60 us: mean 75 us)
PROFREPORT_MAX_STEPS=4 "$P" report s.db --json m1.json -q
model_is m1.json 'runs[0]["throughput"]["steps"]["count"]' 4 "PROFREPORT_MAX_STEPS=4 keeps four steps"
model_is m1.json 'runs[0]["throughput"]["steps"]["mean_ns"]' 75000 "the mean of the four kept (90+80+70+60)/4 us"
model_is m1.json '[d["count"] for d in runs[0]["diagnostics"] if d["code"] == "steps_over_budget"][0]' 2 \
	"steps_over_budget counts the two left out"

# three names: ProfilerStep#0, aten::mm, ProfilerStep#1 (id order); the other four steps in one group
PROFREPORT_MAX_NAMES=3 "$P" report s.db --json m2.json -q
model_is m2.json '[s["count"] for s in runs[0]["spans"]["items"] if s["name"] == "(other names)"][0]' 4 \
	"four steps past the name budget counted together"
model_is m2.json '[s["total_ns"] for s in runs[0]["spans"]["items"] if s["name"] == "aten::mm"][0]' 60000 \
	"a name within the budget keeps all its spans (6 x 10 us)"
model_is m2.json '[d["count"] for d in runs[0]["diagnostics"] if d["code"] == "names_over_budget"][0]' 4 \
	"names_over_budget counts the spans of the group"
run env PROFREPORT_MAX_NAMES=3 "$P" summary s.db
expect_rc 0 "summary past the name budget"
expect_out_has "names_over_budget (x4)" "summary lists the budget diagnostic"

# the budget is part of the model cache's key: the default model is not served for it
"$P" report s.db --json m3.json -q
PROFREPORT_MAX_STEPS=2 "$P" report s.db --json m4.json -q
model_is m4.json 'runs[0]["throughput"]["steps"]["count"]' 2 "a cached model of another budget is not served"

# a phase log of five phases with a budget of three: the last two are not kept
printf '0.000001 a\n0.000100 b\n0.000200 c\n0.000300 d\n0.000400 e\n' >p.log
run env PROFREPORT_MAX_STEPS=3 "$P" ingest steps.json --phases p.log -o p.db
expect_rc 0 "a phase log past the budget"
expect_out_has "3 of the spans are phases from 'p.log'" "three phases kept"
[ "$(query_value p.db "select message from diag where code = 'phase_log_over_budget'")" = \
	"'p.log':4:1: 2 phases after the first 3 (from this line on) are left out; PROFREPORT_MAX_STEPS=N raises the budget" ] ||
	fail "phase_log_over_budget: $(query_value p.db "select message from diag")"

# bad values: one line, exit 2
for v in 0 abc -1 1e3 99999999999999999999; do
	run env PROFREPORT_MAX_STEPS=$v "$P" summary s.db
	expect_error "profreport: summary: PROFREPORT_MAX_STEPS='$v': expected a whole number from 1 to" \
		"PROFREPORT_MAX_STEPS=$v"
done
run env PROFREPORT_MAX_NAMES=x "$P" report s.db -o r.html
expect_error "profreport: report: PROFREPORT_MAX_NAMES='x'" "PROFREPORT_MAX_NAMES=x"
[ ! -e r.html ] || fail "a report was written with a bad budget"
run env PROFREPORT_MAX_STEPS=x "$P" ingest steps.json --phases p.log -o q.db
expect_error "profreport: ingest: 'p.log': PROFREPORT_MAX_STEPS='x'" "a bad budget for the phase log"
finish
