#!/bin/sh
# page_budget.sh - the page budget (docs/report.md, "Page budget"): for README's main job
# (`report samples -o report.html`) and for N generated tiny runs (memory CSVs of 5 rows,
# `report DIR -o tiny.html`, an archive past 100 runs), one table row each: runs, the page
# opened (FILE.html: the page, or the archive's index) in MB, the largest page written in MB,
# report's wall time and peak RSS (GNU time), and Chromium's time to the page's pr-ready mark
# for the page opened and for the largest page (bench/page_bench.js, median of
# PR_BENCH_REPEAT loads, default 3).
#
# usage: bench/page_budget.sh [BUILD_DIR] [N...]    (default: build 8000)
# Needs chromium, GNU time and tests/browser/node_modules. Work files: bench/out/budget/.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
counts=${*:-8000}
pr=$build/cli/profreport
out=bench/out/budget
[ -x "$pr" ] || { echo "page_budget: build first (cmake --build $build)" >&2; exit 2; }
[ -d tests/browser/node_modules/puppeteer-core ] || { echo "page_budget: cd tests/browser && npm ci" >&2; exit 2; }
mkdir -p "$out"

# tiny N DIR: N memory CSVs of 5 rows (a psutil-style log each)
tiny() {
	rm -rf "$2"
	mkdir -p "$2"
	/usr/bin/python3 - "$1" "$2" <<'EOF'
import sys
n, d = int(sys.argv[1]), sys.argv[2]
for i in range(n):
    with open(f"{d}/run{i:05d}.csv", "w") as f:
        f.write("timestamp,rss_mb,vms_mb,cpu_percent,disk_read_mb,disk_write_mb,phase\n")
        for k in range(5):
            f.write(f"{1718000000 + i * 10 + k}.0,{100 + i % 7 + k * 3:.2f},{300 + k:.2f},"
                    f"{10 + k:.1f},0.00,0.00,{'load' if k < 2 else 'run'}\n")
EOF
}

# ready FILE: the median ms to pr-ready ("interactive" column of page_bench.js)
ready() {
	node bench/page_bench.js "$1" | awk -F'|' 'NR > 2 { gsub(/ /, "", $5); print $5 }'
}

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.2f", b / 1048576 }'; }

echo "| job | runs | page MB | largest page MB | wall s | peak RSS MB | pr-ready ms (page) | pr-ready ms (largest) |"
echo "|---|---|---|---|---|---|---|---|"
one() { # one NAME INPUT
	page=$out/$1.html
	rm -rf "$page" "$out/$1.runs"
	/usr/bin/time -f '%e %M' -o "$out/time" "$pr" report "$2" -q -o "$page"
	largest=$page
	if [ -d "$out/$1.runs" ]; then
		big=$(ls -S "$out/$1.runs" | head -1)
		[ "$(stat -c %s "$out/$1.runs/$big")" -le "$(stat -c %s "$page")" ] ||
			largest=$out/$1.runs/$big
	fi
	r1=$(ready "$page")
	r2=$r1
	[ "$largest" = "$page" ] || r2=$(ready "$largest")
	read -r wall rss <"$out/time"
	if [ -d "$out/$1.runs" ]; then
		runs="$(ls "$out/$1.runs" | wc -l) (archive)"
	else
		runs=$(grep -o 'id="run-[0-9]*"' "$page" | sort -u | wc -l)
	fi
	printf '| %s | %s | %s | %s | %s | %.1f | %s | %s |\n' "$1" "$runs" "$(mb "$page")" \
		"$(mb "$largest")" "$wall" "$(echo "$rss" | awk '{ print $1 / 1024 }')" "$r1" "$r2"
}
one samples samples
for n in $counts; do
	[ -d "$out/tiny$n" ] && [ "$(ls "$out/tiny$n" | wc -l)" -eq "$n" ] || tiny "$n" "$out/tiny$n"
	one "tiny$n" "$out/tiny$n"
done
