#!/bin/sh
# agg_bench.sh - 'profreport aggregate' over N generated rank files, for each N:
# the time, time per rank and peak RSS of aggregating all ranks at once, and
# of a map/reduce (the ranks in 4 node directories, the map step with
# `xargs -P2`, then one aggregate of the 4 partial agg.json files), and
# whether the merge equals the direct aggregate ("same": byte-identical;
# "same but N moments": only state.moments mean/m2 differ, in their last bits,
# as Chan's merge rounds in another order; anything else is "DIFFERENT").
# Usage: bench/agg_bench.sh [N...]   (default 1000 2500 10000; STEPS=5 per rank)
# PROFREPORT names the binary (default build/cli/profreport; use a Release build).
# Needs python3 (samples/ranks/make_ranks.py) and GNU time (/usr/bin/time).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
p=${PROFREPORT:-$here/build/cli/profreport}
steps=${STEPS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/agg_bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '%7s %9s %9s %8s %11s %11s %9s  %s\n' ranks "KiB in" "direct s" "ms/rank" "direct RSS" "map+red s" "red RSS" merge
for n in ${*:-1000 2500 10000}; do
	rm -rf "$work/gen" "$work/ranks" "$work/parts"
	python3 "$here/samples/ranks/make_ranks.py" --ranks "$n" --steps "$steps" \
		--straggler $((n / 2)) --out "$work/gen" >/dev/null
	# rank R to node R % 4
	for k in 0 1 2 3; do mkdir -p "$work/ranks/node$k"; done
	(cd "$work/gen" && for f in rank*.json; do
		r=${f#rank}
		r=${r%%.*}
		mv "$f" "../ranks/node$((r % 4))/"
	done)
	kib=$(du -sk "$work/ranks" | cut -f1)
	/usr/bin/time -f '%e %M' -o "$work/t.direct" "$p" aggregate "$work/ranks" -q -o "$work/direct.json"
	mkdir "$work/parts"
	t0=$(date +%s.%N)
	ls -d "$work/ranks"/node* | xargs -P2 -I{} sh -c '"$0" aggregate "$1" -q -o "$2/$(basename "$1").agg.json"' "$p" {} "$work/parts"
	/usr/bin/time -f '%e %M' -o "$work/t.reduce" "$p" aggregate "$work/parts" -q -o "$work/merged.json"
	t1=$(date +%s.%N)
	if cmp -s "$work/direct.json" "$work/merged.json"; then
		merge=same
	else
		other=$(diff "$work/direct.json" "$work/merged.json" | grep '^[<>]' |
			grep -cv '^[<>] *"\(mean\|m2\)": "' || true)
		moments=$(diff "$work/direct.json" "$work/merged.json" | grep -c '^<' || true)
		if [ "$other" = 0 ]; then merge="same but $moments moments"; else merge=DIFFERENT; fi
	fi
	read -r dt drss <"$work/t.direct"
	read -r rt rrss <"$work/t.reduce"
	awk -v n="$n" -v kib="$kib" -v dt="$dt" -v drss="$drss" -v t0="$t0" -v t1="$t1" \
		-v rrss="$rrss" -v merge="$merge" 'BEGIN {
		printf "%7d %9d %9.2f %8.2f %8.1f MB %11.2f %6.1f MB  %s\n", n, kib, dt, dt * 1000 / n,
			drss / 1024, t1 - t0, rrss / 1024, merge }'
done
grep '"summary": "rank' "$work/direct.json" | head -1
