#!/bin/sh
# t0040-bounds: small inputs that used to cost GBs or minutes are bounded
# (issue 12) and say what they cut: tracks and series past the writer's caps
# (65536 each: too_many_tracks, too_many_series), one device-memory panel per
# device for at most 16 devices and at most 50 recommendations on the page.
# Times and memory are measured by bench/bounds.sh, not asserted here.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# -- 65536 + 4464 distinct tids: the last 4464 events share the overflow track
awk 'BEGIN { printf "{\"traceEvents\": [\n";
	for (i = 0; i < 70000; i++)
		printf "%s{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":%d,\"ts\":%d,\"dur\":1}",
			(i ? ",\n" : ""), i + 1, i;
	printf "\n]}\n" }' >tids.json
run "$P" ingest -q tids.json -o tids.db
expect_rc 0 "ingest of 70000 tids"
expect_err_empty "ingest of 70000 tids"
# 70000 - 65536 = 4464 events moved; one overflow track for the kind "thread"
[ "$(query_value tids.db "select count from diag where code = 'too_many_tracks'")" = 4464 ] ||
	fail "too_many_tracks does not count the 4464 events past the cap"
[ "$(query_value tids.db "select count(*) from track")" = 65537 ] ||
	fail "not 65536 tracks + 1 overflow track"
[ "$(query_value tids.db "select count(*) from span_v where tid = '(over the track limit) thread' and depth is null")" = 4464 ] ||
	fail "the overflow track does not hold the 4464 spans, flat"
run "$P" summary tids.db
expect_rc 0 "summary of the capped store"
expect_out_has "too_many_tracks" "summary lists the cap's diagnostic"

# -- 65536 + 10 distinct counter names: the samples of the last 10 are dropped
awk 'BEGIN { printf "{\"traceEvents\": [\n";
	for (i = 0; i < 65546; i++)
		printf "%s{\"ph\":\"C\",\"name\":\"c%d\",\"pid\":1,\"ts\":%d,\"args\":{\"v\":1}}",
			(i ? ",\n" : ""), i, i;
	printf "\n]}\n" }' >counters.json
run "$P" ingest -q counters.json -o counters.db
expect_rc 0 "ingest of 65546 counter names"
[ "$(query_value counters.db "select count from diag where code = 'too_many_series'")" = 10 ] ||
	fail "too_many_series does not count the 10 samples dropped"
[ "$(query_value counters.db "select count(*) from series")" = 65536 ] ||
	fail "not 65536 series"

# -- [memory] events on 60 devices: in sample s (0, 1) cuda:d has allocated
# (d+1+s) MiB and reserved (2(d+1)+s) MiB (fragmentation near 50 %, above the
# 30 % rule: one recommendation per device; the values move between the two
# samples, so no panel is left out as constant). The 16 panels are the devices
# with the largest reserved peak (2(d+1)+1 MiB), cuda:59 down to cuda:44; 44
# more are cut; 50 of the 60 recommendations shown.
awk 'BEGIN { printf "{\"traceEvents\": [\n";
	printf "{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":1000}";
	for (s = 0; s < 2; s++) for (d = 0; d < 60; d++)
		printf ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":1,\"tid\":1,\"ts\":%d,\"args\":{\"Device Type\":1,\"Device Id\":%d,\"Total Allocated\":%d,\"Total Reserved\":%d}}",
			s * 100 + d, d, (d + 1 + s) * 1048576, (2 * (d + 1) + s) * 1048576;
	printf "\n]}\n" }' >memdev.json
run "$P" report memdev.json -o memdev.html
expect_rc 0 "report of 60 devices"
[ "$(grep -o 'aria-label="Device memory cuda:[0-9]*: allocated vs reserved"' memdev.html | wc -l)" = 16 ] ||
	fail "not 16 device-memory panels"
for d in 59 44; do
	grep -q "aria-label=\"Device memory cuda:$d: allocated vs reserved\"" memdev.html ||
		fail "no panel for cuda:$d (among the 16 largest reserved peaks)"
done
for d in 43 0; do
	if grep -q "aria-label=\"Device memory cuda:$d: allocated vs reserved\"" memdev.html; then
		fail "a panel for cuda:$d (not among the 16 largest)"
	fi
done
grep -q 'Device memory: 60 devices; the 16 with the largest reserved peak have a panel, 44 more do not' memdev.html ||
	fail "the page does not say that 44 device panels were cut"
# findings of one rule share a box (the HTML report groups them): each shown finding has
# its evidence <pre> in its box's fold
[ "$(grep -o '<pre>' memdev.html | wc -l)" = 50 ] || fail "not 50 recommendations shown"
grep -q 'Showing 50 of 60 recommendations' memdev.html ||
	fail "the page does not say that 10 recommendations were cut"

# -- 1003 phase names (a CSV row each): the model lists 500 occurrences and
# totals 1000 names; no name repeats, so the page has no table by name (it would
# restate the occurrences, issue 26): the occurrence table shows 200 rows and says
# the store has 1003
awk 'BEGIN { print "time,rss_mb,phase"; for (i = 0; i < 1003; i++) printf "%d,%d,p%d\n", i, i, i }' >phases.csv
run "$P" report phases.csv -o phases.html
expect_rc 0 "report of 1003 phases"
[ "$(grep -c 'Showing 200 of 1003 rows (capped at 200; the store has all of them)' phases.html)" = 1 ] ||
	fail "the phase table does not say 200 of 1003"
grep -q '<h4>1003 occurrences, each name once</h4>' phases.html ||
	fail "the page does not say that each of the 1003 phase names occurs once"
# the same names twice each: the table by name is there, capped, and says 1003 names
awk 'BEGIN { print "time,rss_mb,phase"; for (i = 0; i < 2006; i++) printf "%d,%d,p%d\n", i, i, i % 1003 }' >phases2.csv
run "$P" report phases2.csv -o phases2.html
expect_rc 0 "report of 1003 phases twice"
grep -q '<h4>By name: 2006 occurrences of 1003 names</h4>' phases2.html ||
	fail "the page has no table by name for 1003 names occurring twice"
grep -q 'Showing 200 of 1003 rows (capped at 200; the store has all of them)' phases2.html ||
	fail "the table by name does not say 200 of 1003"

# -- per-run queries use an index once a store holds two runs (summary of 8000
# runs was quadratic: 26 s; bench/bounds.sh summary). One run needs none.
run "$P" ingest -q "$VIZ" -o runs.db
expect_rc 0 "ingest of a first run"
[ "$(query_value runs.db "select count(*) from sqlite_master where name = 'span_run'")" = 0 ] ||
	fail "a one-run store has the span_run index"
run "$P" ingest -q "$TORCH" -o runs.db
expect_rc 0 "ingest of a second run"
for ix in span_run track_run series_run metric_run diag_run; do
	[ "$(query_value runs.db "select count(*) from sqlite_master where type = 'index' and name = '$ix'")" = 1 ] ||
		fail "no index $ix in a store of two runs"
done
"$P" query runs.db "explain query plan select count(*) from span where run_id = 2" >plan.txt
grep -q 'USING COVERING INDEX span_run\|USING INDEX span_run' plan.txt ||
	fail "a per-run span query does not use span_run: $(cat plan.txt)"

finish
