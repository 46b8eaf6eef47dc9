#!/bin/sh
# Page benchmark: the report page of nccl_data (tests/data/traces), of every
# bundled sample, and of the generated traces of the given sizes (MB), written by report and
# measured in headless Chromium by page_bench.js (bytes, first paint, interactive, load, one
# trace-view redraw, JS heap), with the report's own wall time and peak RSS.
#
# usage: bench/page_bench.sh [BUILD_DIR] [SIZES_MB...]    (default: build, no generated trace)
# Needs chromium and tests/browser/node_modules (cd tests/browser && npm ci).
set -eu
default_sizes=""
. "$(dirname "$0")/lib.sh"
[ -d tests/browser/node_modules/puppeteer-core ] || { echo "page_bench: cd tests/browser && npm ci" >&2; exit 2; }
pages=$out/pages
rm -rf "$pages"
mkdir -p "$pages"
echo "| input | report s | report peak RSS MB |"
echo "|---|---|---|"
one() { # one NAME INPUT
	/usr/bin/time -f '%e %M' -o "$out/page.rss" "$pr" report "$2" -q -o "$pages/$1.html"
	awk -v n="$1" '{ printf "| %s | %.2f | %.1f |\n", n, $1, $2 / 1024 }' "$out/page.rss"
}
nccl=tests/data/traces/hta/nccl_parser_config/nccl_data.json.gz
[ -f "$nccl" ] && one nccl_data "$nccl"
one samples samples
one torch_sample samples/torch/trace_rank0.pt.trace.json
one ddp_rank0 "$(ls samples/ddp/named/rank0.*.json | head -1)"
for s in $sizes; do
	t=$out/page_$s.json
	[ -f "$t" ] || "$gen" "$s" 1 -o "$t" >/dev/null
	one "gen_${s}MB" "$t"
done
echo
node bench/page_bench.js "$pages"/*.html
