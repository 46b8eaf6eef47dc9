#!/bin/sh
# agg_bench.sh - time and peak RSS of 'profreport aggregate' over N generated rank files.
# Usage: bench/agg_bench.sh [N] [STEPS]   (default 1000 ranks, 5 steps each)
# PROFREPORT names the binary (default build/cli/profreport; use a Release build).
# Needs python3 (samples/ranks/make_ranks.py) and GNU time (/usr/bin/time -v).
set -eu
n=${1:-1000}
steps=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
p=${PROFREPORT:-$here/build/cli/profreport}
work=$(mktemp -d "${TMPDIR:-/tmp}/agg_bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 "$here/samples/ranks/make_ranks.py" --ranks "$n" --steps "$steps" \
	--straggler $((n / 2)) --out "$work/ranks"
echo "agg_bench: $n ranks, $(du -sk "$work/ranks" | cut -f1) KiB of traces"
/usr/bin/time -v "$p" aggregate "$work/ranks" -q -o "$work/agg.json" 2>"$work/time.txt"
grep -E "Elapsed \(wall clock\)|Maximum resident set size" "$work/time.txt"
echo "agg_bench: agg.json $(wc -c <"$work/agg.json") bytes; stragglers:"
grep '"summary": "rank' "$work/agg.json" | head -3
