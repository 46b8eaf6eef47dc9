#!/bin/sh
# t0071-peak-owner: peaks[].held_by of dev.mem.allocated against tests/tools/peak_owner_ref.py,
# which replays the trace's [memory] events by Addr in plain Python and credits each live
# allocation to the frame open at its time on its thread (innermost user annotation or
# nn.Module, else the outermost op): the frame, its live bytes, its allocations and the
# untracked bytes must agree. On the torch sample (cuda:0: '## forward ##') and, when
# tests/data/traces, HTA's df_index_resolver (28 010 [memory] events, cuda:1:
# CompiledFunction, 317 allocations).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

ref=$PR_TESTS/tools/peak_owner_ref.py
hta=$TRACES/hta
n=0
for td in "$TORCH 0" "$hta/df_index_resolver/df_index_resolver.json.gz 1"; do
	t=${td% *}
	d=${td##* }
	need_trace "$t"
	n=$((n + 1))
	run "$P" report "$t" --json "m$n.json" -q
	expect_rc 0 "report of $(basename "$t")"
	if ! /usr/bin/python3 "$ref" "$t" "$d" --check "m$n.json" >"c$n.txt" 2>&1; then
		cat "c$n.txt"
		fail "held_by of $(basename "$t") differs from peak_owner_ref.py"
	fi
done
[ "$n" -ge 1 ] || fail "no trace checked"
finish
