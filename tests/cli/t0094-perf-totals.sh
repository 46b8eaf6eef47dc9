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
# the span analyses read one event: the first time-weighted one (cpu-clock, not the
# first in the file, page-faults, whose weights are fault counts)
grep -q "perf event cpu-clock only; the others (page-faults)" two.html ||
	fail "page: the flame graph does not say which event it is"

# issue 29: the spans table summed both events (270 + 3 [unknown] frames, 147.003 ms)
# and the speedscope export called page-fault counts nanoseconds. Self weight per
# leaf frame of the cpu-clock records alone, and each event's total period:
"$PY" - "$D/perf_script_2events.txt" >want.txt <<'PYEOF'
import collections, re, sys
selfw, per_event = collections.Counter(), collections.Counter()
for rec in open(sys.argv[1]).read().strip().split("\n\n"):
    lines = rec.split("\n")
    head = lines[0].split()
    event, period = head[4].rstrip(":"), int(head[3])
    per_event[event] += period
    if event == "cpu-clock":
        leaf = lines[1].strip().split(None, 1)[1].rsplit(" (", 1)[0]
        selfw[re.sub(r"\+0x[0-9a-f]+$", "", leaf)] += period
print(selfw["[unknown]"], selfw["clear_page_erms"], per_event["cpu-clock"],
      per_event["page-faults"])
PYEOF
[ "$(cat want.txt)" = "4500000 3000000 20500000 3211" ] || fail "python derivation: $(cat want.txt)"
run "$P" summary "$D/perf_script_2events.txt"
expect_out_has "(perf event cpu-clock only: each event weighs its own unit, never summed)" \
	"console: which event the spans table counts"
expect_out_has "  [unknown]                        270   4.500 ms" "[unknown] self 4.5 ms (cpu-clock)"
expect_out_has "  clear_page_erms                    5   3.000 ms" "clear_page_erms self 3 ms"
run "$P" speedscope "$D/perf_script_2events.txt" -o two.speedscope.json
expect_rc 0 "speedscope of two events"
"$PY" - two.speedscope.json >got.txt <<'PYEOF'
import json, sys
for p in json.load(open(sys.argv[1]))["profiles"]:
    print(p["name"].split(" / ")[-1], p["unit"], p["endValue"] - p["startValue"])
PYEOF
printf '%s\n' "python3 (page-faults) none 3211" "python3 (cpu-clock) nanoseconds 20500000" >want.txt
cmp -s got.txt want.txt || fail "speedscope: one profile per event in its unit: $(cat got.txt)"

# one event that weighs no time (page faults alone): counts, never durations
"$PY" - "$D/perf_script_2events.txt" >pf.txt <<'PYEOF'
import sys
recs = open(sys.argv[1]).read().strip().split("\n\n")
print("\n\n".join(r for r in recs if " page-faults:" in r.split("\n")[0]))
PYEOF
run "$P" summary pf.txt
expect_out_has "extent 3211 events (weights laid end to end, not time)" "page faults: no duration"
expect_out_has "  PyInterpreterState_New             1       1465       1465" "a 1465-fault frame"

finish
