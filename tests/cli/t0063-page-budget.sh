#!/bin/sh
# t0063-page-budget: -o FILE.html of more runs than a page holds (100; docs/report.md,
# "Page budget") is written as an archive: FILE.html the index, the runs' pages in
# FILE.runs/, said on stderr and above the index's table; 100 runs stay one page. And
# the index names runs that share a label by the directory where their paths differ
# (TensorBoard's log/resnet50_num_workers_N/plugins/profile/worker0.pt.trace.json),
# in the Run column and in the Source column (the shared directories left out).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# tiny N DIR: N memory CSVs of 5 rows, distinct contents
tiny() {
	mkdir -p "$2"
	i=0
	while [ $i -lt "$1" ]; do
		printf 'timestamp,rss_mb,vms_mb,cpu_percent,disk_read_mb,disk_write_mb,phase\n' >"$2/r$i.csv"
		for k in 0 1 2 3 4; do
			printf '%d.0,%d.00,300.00,10.0,0.00,0.00,run\n' $((1718000000 + i * 10 + k)) \
				$((100 + i % 7 + k)) >>"$2/r$i.csv"
		done
		i=$((i + 1))
	done
}
tiny 100 t100
tiny 101 t101

run "$P" report t100 -o p100.html
expect_rc 0 "100 runs"
expect_err_has "profreport: report: wrote 'p100.html' (100 runs)" "100 runs: one page"
[ ! -e p100.runs ] || fail "100 runs: a p100.runs directory was made"
n=$(grep -o 'id="run-[0-9]*"' p100.html | sort -u | wc -l)
[ "$n" -eq 100 ] || fail "100 runs: the page has $n run sections, expected 100"

run "$P" report t101 -o p101.html
expect_rc 0 "101 runs"
expect_err_has "profreport: report: 'p101.html': 101 runs, more than one page holds (100): one page per run in p101.runs/, this page their index." "101 runs: said on stderr"
expect_err_has "101 report(s) written, 0 already there (same content hash), index 'p101.html'" "101 runs: the archive's line"
n=$(ls p101.runs | wc -l)
[ "$n" -eq 101 ] || fail "101 runs: $n pages in p101.runs/, expected 101"
grep -q 'class="meta archive-note">101 runs, more than one page holds (100)' p101.html ||
	fail "101 runs: the index does not say why it is an index"
n=$(grep -o 'href="p101.runs/r[0-9]*.csv-[0-9a-f]*.html"' p101.html | sort -u | wc -l)
[ "$n" -eq 101 ] || fail "101 runs: the index links $n pages in p101.runs/, expected 101"
for h in $(grep -o 'href="p101.runs/[^"]*"' p101.html | sed 's/^href="//; s/"$//'); do
	[ -f "$h" ] || fail "101 runs: the index links '$h', which is missing"
done
# a second time: every page is there already (same content hash)
run "$P" report t101 -o p101.html
expect_err_has "0 report(s) written, 101 already there (same content hash)" "101 runs again"

# runs that share a label: the directory that differs shows
for w in 0 4; do
	mkdir -p "log/resnet50_num_workers_$w/plugins/profile"
done
cp "$PR_SAMPLES/ddp/named/rank0.1795507315379.pt.trace.json" \
	log/resnet50_num_workers_0/plugins/profile/worker0.pt.trace.json
cp "$PR_SAMPLES/ddp/named/rank2.1795507315379.pt.trace.json" \
	log/resnet50_num_workers_4/plugins/profile/worker0.pt.trace.json
run "$P" report "$tmp/log" -o site/
expect_rc 0 "two worker0 traces"
for w in 0 4; do
	grep -q ">resnet50_num_workers_$w/…/worker0.pt.trace.json</a>" site/index.html ||
		fail "index: the Run column does not name resnet50_num_workers_$w"
	grep -q "title=\"$tmp/log/resnet50_num_workers_$w/plugins/profile/worker0.pt.trace.json\"[^>]*>…/resnet50_num_workers_$w/plugins/profile/worker0.pt.trace.json</td>" site/index.html ||
		fail "index: the Source column does not start at resnet50_num_workers_$w"
done

finish
