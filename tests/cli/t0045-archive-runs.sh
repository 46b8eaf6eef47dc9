#!/bin/sh
# t0045-archive-runs: one run of a store of many runs reads as it does from a
# store of its own (README, "The event store" and "Performance"): summary
# --run, report --run and compare --base-run/--new-run give the same output,
# apart from the run's id (its number in the store). A run's model is a
# function of its own rows only, whatever else the store holds.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_gen

# Eight generated Kineto-like traces of 90-200 KB (different seeds, so
# different names, steps and times) and two samples of other formats.
i=1
for mb in 0.1 0.2 0.1 0.2 0.1 0.2 0.1 0.2; do
	"$gen" "$mb" "$i" -o "g$i.json" 2>/dev/null || fail "setup: gen_trace $mb $i"
	i=$((i + 1))
done
"$P" ingest -q g1.json g2.json g3.json "$TORCH" g4.json g5.json "$VIZ" g6.json g7.json g8.json \
	-o big.db || fail "setup: ingest into the big store"
"$P" ingest -q g5.json -o own5.db || fail "setup: own store of g5"
"$P" ingest -q g6.json -o own6.db || fail "setup: own store of g6"
"$P" ingest -q "$TORCH" -o owntorch.db || fail "setup: own store of the torch sample"
id5=$(query_value big.db "SELECT id FROM run WHERE label = 'g5.json'")
id6=$(query_value big.db "SELECT id FROM run WHERE label = 'g6.json'")
idt=$(query_value big.db "SELECT id FROM run WHERE label = 'trace_rank0.pt.trace.json'")
[ "$id5" = 6 ] && [ "$id6" = 8 ] && [ "$idt" = 4 ] ||
	fail "setup: runs g5, g6 and torch are $id5, $id6, $idt, expected 6, 8, 4 (ingest order)"

# summary --run: the same text but for the title ("run N: LABEL" and its underline)
for c in "$id5 own5.db" "$idt owntorch.db"; do
	set -- $c
	"$P" summary --run "$1" big.db | tail -n +3 >s.big || fail "summary --run $1"
	"$P" summary "$2" | tail -n +3 >s.own || fail "summary $2"
	[ -s s.own ] || fail "summary $2 printed nothing"
	cmp -s s.big s.own || { fail "summary --run $1 of the big store differs from $2"; diff s.big s.own | head -5 >&2; }
	# report --run: the same model but for the run's "id"
	"$P" report --run "$1" big.db --no-cache --json - | sed "s/^   \"id\": $1,\$/   \"id\": ID,/" >m.big ||
		fail "report --run $1"
	"$P" report "$2" --json - | sed 's/^   "id": 1,$/   "id": ID,/' >m.own || fail "report $2"
	grep -q '"id": ID,' m.own || fail "report $2: no run id to set aside"
	cmp -s m.big m.own || { fail "report --run $1 of the big store differs from $2"; diff m.big m.own | head -5 >&2; }
done

# compare of two runs of one store: the same verdict and JSON as from their own stores
run "$P" compare big.db big.db --base-run "$id5" --new-run "$id6" --to json -o c.big
rc_big=$rc
run "$P" compare own5.db own6.db --to json -o c.own
[ "$rc" = "$rc_big" ] || fail "compare: exit $rc_big from the big store, $rc from own stores"
cmp -s c.big c.own || { fail "compare --base-run/--new-run differs from compare of own stores"; diff c.big c.own | head -5 >&2; }
grep -q '"g5.json"' c.big || fail "compare --base-run: BASE is not g5.json"

# errors: a run that is not there, and a run of a model
run "$P" compare big.db big.db --base-run 99 --new-run "$id6"
expect_rc 2 "--base-run of a missing run"
expect_err_has "no run 99 in the store" "--base-run of a missing run"
"$P" report own5.db --json m5.json -q
run "$P" compare m5.json big.db --base-run 1 --new-run "$id6"
expect_rc 2 "--base-run of a model"
expect_error "profreport: compare: 'm5.json': --base-run picks a run of a store, and BASE is a model" "--base-run of a model"

finish
