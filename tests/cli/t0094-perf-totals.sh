#!/bin/sh
# t0094-perf-totals: issue 29. perf stat's totals file gave an empty console
# report and page (the totals lived only in the model's `reported`); perf
# script's headline said "0 samples". On the real samples in samples/perf
# (python below derives every number from the files).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$PR_SAMPLES/perf
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# perf stat totals: the counters in summary and on the page
run "$P" summary "$D/perf_stat.csv"
expect_rc 0 "summary of perf stat totals"
expect_out_has "Counters (perf stat totals)" "the totals section"
expect_out_has "task-clock                  64.330 ms   100.0%  0.235 CPUs utilized" "task-clock 64.33 msec"
expect_out_has "page-faults                       830" "page-faults 830"
run "$P" report "$D/perf_stat.csv" -o stat.html -q
expect_rc 0 "report of perf stat totals"
grep -q "Counters (perf stat totals)" stat.html || fail "page: no counters table"
grep -q 'data-v="64330000" data-u="ns"' stat.html || fail "page: no task-clock total cell"

# perf stat -I: per-counter sums (35.79 + 25.09 + 2.00 msec; 817 + 0 + 12 page faults)
"$PY" - "$D/perf_stat_interval.csv" >want.txt <<'PYEOF'
import csv, sys
s = {}
for r in csv.reader(open(sys.argv[1])):
    if len(r) > 3 and not r[1].startswith("<"):
        s[r[3]] = s.get(r[3], 0) + float(r[1])
print("%.2f %d" % (s["task-clock"], s["page-faults"]))
PYEOF
[ "$(cat want.txt)" = "62.88 829" ] || fail "python derivation: $(cat want.txt)"
run "$P" summary "$D/perf_stat_interval.csv"
expect_out_has "task-clock                62.880 ms" "task-clock sum 62.88 msec"
expect_out_has "page-faults                     829" "page-faults sum 829"

# perf script: the sample count per event in the headline and on the page
n=$(grep -cE '^[^[:space:]].* [0-9]+ +cpu-clock:ppp: *$' "$D/perf_script.txt")
[ "$n" = 64 ] || fail "grep: $n cpu-clock records in perf_script.txt"
run "$P" summary "$D/perf_script.txt"
expect_out_has "64 cpu-clock:ppp samples, 114 spans" "perf script headline"
run "$P" report "$D/perf_script_2events.txt" -o two.html -q
grep -q "9 page-faults samples, 41 cpu-clock samples" two.html || fail "page: no samples per event"
grep -q "perf event page-faults only; the others (cpu-clock)" two.html ||
	fail "page: the flame graph does not say which event it is"

finish
