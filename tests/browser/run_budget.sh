#!/bin/sh
# run_budget.sh - the page budget in headless chromium (check_budget.js): README's main job
# (`report samples -o report.html`, one page) and 101 tiny runs given `-o tiny.html` (one more
# than a page holds: an archive, tiny.html its index and the pages in tiny.runs/), each within
# the byte budget and loading without a console error; prints their time to pr-ready.
# Run by ctest as browser/budget (tests/browser.cmake). Exit 77 (skip) without chromium,
# node or tests/browser/node_modules.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
browser_setup budget
mkdir -p "$tmp/tiny"
"$PROFREPORT" report "$PR_SAMPLES" -q -o "$tmp/report.html"
[ ! -d "$tmp/report.runs" ] || { echo "browser/budget: FAIL: the samples became an archive" >&2; exit 1; }
i=0
while [ $i -lt 101 ]; do
	printf 'timestamp,rss_mb,vms_mb,cpu_percent,disk_read_mb,disk_write_mb,phase\n' >"$tmp/tiny/r$i.csv"
	for k in 0 1 2 3 4; do
		printf '%d.0,%d.00,300.00,10.0,0.00,0.00,run\n' $((1718000000 + i * 10 + k)) $((100 + i % 7 + k)) \
			>>"$tmp/tiny/r$i.csv"
	done
	i=$((i + 1))
done
"$PROFREPORT" report "$tmp/tiny" -o "$tmp/tiny.html" 2>"$tmp/stderr"
grep -q "101 runs, more than one page holds (100): one page per run in $tmp/tiny.runs/" "$tmp/stderr" || {
	cat "$tmp/stderr" >&2
	echo "browser/budget: FAIL: stderr does not say the page became an archive" >&2
	exit 1
}
n=$(ls "$tmp/tiny.runs" | wc -l)
[ "$n" -eq 101 ] || { echo "browser/budget: FAIL: $n pages in tiny.runs/, want 101" >&2; exit 1; }
cd "$here"
exec node check_budget.js "$tmp/report.html" --runs 101 "$tmp/tiny.html"
