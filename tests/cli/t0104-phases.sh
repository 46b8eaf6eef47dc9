#!/bin/sh
# t0104-phases: --phases FILE attaches a phase log to the run of one trace file
# (ingest, summary, report, speedscope). Its phases become spans of kind
# 'phase' on a track named after the file, so peaks per phase and phase
# memory deltas come out of the analyzers as for any phase. Covers the
# accepted shapes (TIME NAME, TIME start|end NAME, START,END,NAME; epoch
# seconds, date-times, seconds from the run's start), the diagnostics for
# bad lines and for phases outside the run, and the errors.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

QNN=$PR_SAMPLES/qnn/memory_20241219_143000.csv
QLOG=$PR_SAMPLES/qnn/memory_20241219_143000.phases.log


# has FILE STRING DESC: FILE (a model, blanks and newlines removed) holds STRING.
has() {
	if ! tr -d ' \n' <"$1" | grep -qF -- "$2"; then
		fail "$3: $1 lacks $2"
	fi
}

# phases_of STORE: "name@ts+dur" of the phase spans, in time order.
phases_of() {
	"$P" query "$1" "SELECT group_concat(name || '@' || ts || '+' || dur, ' ') FROM \
(SELECT name, ts, dur FROM span_v WHERE kind = 'phase' ORDER BY ts, dur DESC)" | sed -n 2p
}

# -- the qnn sample and its phase log: peaks per phase and phase deltas
# Expected numbers, derived from the two files alone (python3):
#   rows = list(csv.DictReader(open(QNN))); ms = lambda s: round(float(s) * 1000)
#   t0 = ms(rows[0]['timestamp'])            # the run's time origin
#   marks = [(ms(t), name) for t, name in (l.split() for l in open(QLOG) if l[0] != '#')]
#   for (a, name), (b, _) in zip(marks, marks[1:]):   # each phase until the next line
#       sel = [r for r in rows if a <= ms(r['timestamp']) <= b]
#       used = [(int(r['total_memory_kb']) - int(r['free_memory_kb'])) * 1024 for r in sel]
#       print(name, a - t0, b - a, len(sel), max(used),
#             ms(sel[used.index(max(used))]['timestamp']) - t0, used[0], used[-1])
# gives (ms; bytes): load_model 3236 5728 13 9393507328 8764 3358915584 9393507328
#                    inference 8964 12713 29 21494012928 21015 9944943616 21492747264
#                    teardown 21677 1325 3 15799267328 21912 15799267328 7259326464
run "$P" report "$QNN" --phases "$QLOG" --json model.json -q
expect_rc 0 "report --phases on the qnn sample"
expect_err_empty "report --phases on the qnn sample"
# the peak entry (the model with blanks removed: its label "Used memory" reads Usedmemory)
tr -d ' \n' <model.json | grep -o '{"series":"sys.mem.used","label":"Usedmemory","device":"","unit":"bytes",[^]]*]' >used-peak.json
[ "$(wc -l <used-peak.json)" = 1 ] || fail "the model has no single sys.mem.used peak entry"
for want in \
	'{"phase":"load_model","occurrence":1,"value":9393507328,"t_ns":8764000000}' \
	'{"phase":"inference","occurrence":1,"value":21494012928,"t_ns":21015000000}' \
	'{"phase":"teardown","occurrence":1,"value":15799267328,"t_ns":21912000000}'; do
	has used-peak.json "$want" "sys.mem.used peak per phase"
done
# the global peak falls in inference
has used-peak.json '"value":21494012928,"t_ns":21015000000,"phase":{"name":"inference","occurrence":1,"t_ns":8964000000,"dur_ns":12713000000}' "the peak's phase"
# phase occurrences: start, duration, and the sys.mem.used delta over each
has model.json '{"name":"load_model","kind":"phase","occurrence":1,"depth":0,"t_ns":3236000000,"dur_ns":5728000000,' "load_model occurrence"
has model.json '{"name":"inference","kind":"phase","occurrence":1,"depth":0,"t_ns":8964000000,"dur_ns":12713000000,' "inference occurrence"
has model.json '{"name":"teardown","kind":"phase","occurrence":1,"depth":0,"t_ns":21677000000,"dur_ns":1325000000,' "teardown occurrence"
has model.json '"series":"sys.mem.used","device":"","start":2856522752,"end":9393507328,"delta":6536984576,"peak":9393507328,"peak_t_ns":8764000000,"samples":13}' "load_model delta"
has model.json '"series":"sys.mem.used","device":"","start":9393507328,"end":21492747264,"delta":12099239936,"peak":21494012928,"peak_t_ns":21015000000,"samples":29}' "inference delta"
has model.json '"series":"sys.mem.used","device":"","start":21492747264,"end":7259326464,"delta":-14233420800,"peak":15799267328,"peak_t_ns":21912000000,"samples":3}' "teardown delta"

run "$P" summary "$QNN" --phases "$QLOG"
expect_rc 0 "summary --phases"
expect_out_has "Phases (timeline)" "summary shows the phases"
expect_out_has "load_model                  5.728 s" "summary: load_model and its duration"
expect_out_has "20.02 GiB at 21.015 s    in inference" "summary: the peak's phase"
run "$P" speedscope "$QNN" --phases "$QLOG" -o q.speedscope.json -q
expect_rc 0 "speedscope --phases"
grep -qF '"name":"inference"' q.speedscope.json || fail "speedscope: no inference frame"

# -- ingest: the track, the run's meta, the content hash covers both files
run "$P" ingest "$QNN" --phases "$QLOG" -o q.db
expect_rc 0 "ingest --phases"
expect_out_has "3 spans, 540 samples, 0 instants, 2 diagnostics; 3 of the spans are phases from '$QLOG'" "ingest report line"
[ "$(phases_of q.db)" = "load_model@3236000000+5728000000 inference@8964000000+12713000000 teardown@21677000000+1325000000" ] ||
	fail "ingest: phase spans are $(phases_of q.db)"
[ "$(query_value q.db "SELECT DISTINCT track || '|' || pid || '|' || tid FROM span_v WHERE kind = 'phase'")" = \
	"memory_20241219_143000.phases.log|phase log|memory_20241219_143000.phases.log" ] || fail "ingest: the phase track"
[ "$(query_value q.db "SELECT json_extract(meta, '\$.phase_log.phases') || json_extract(meta, '\$.phase_log.time') FROM run")" = 3epoch ] ||
	fail "ingest: run.meta.phase_log"
[ "$(query_value q.db "SELECT json_extract(args, '\$.line') FROM span_v WHERE name = 'inference'")" = 3 ] ||
	fail "ingest: the span's args name its line in the log"
run "$P" ingest "$QNN" -o q.db
expect_rc 0 "the same CSV without the log is another run"
expect_out_has "run 2" "the CSV alone is run 2"
run "$P" ingest "$QNN" --phases "$QLOG" -o q.db
expect_out_has "already in the store as run 1" "the CSV with the same log is a duplicate"

# -- shapes
# relative seconds from the run's start (the qnn run starts at its first
# sample, 0 ns, and ends at 25.817 s); the last phase runs to the run's end
printf 'time name\n0 idle\n3.5 load model\n9 end\n20.25 tail\n' >rel.log
"$P" ingest -q "$QNN" --phases rel.log -o rel.db || fail "relative TIME NAME log"
# idle 0..3.5 s, "load model" 3.5..9 s, tail 20.25 s..25.817 s
[ "$(phases_of rel.db)" = "idle@0+3500000000 load model@3500000000+5500000000 tail@20250000000+5567000000" ] ||
	fail "relative log: $(phases_of rel.db)"
[ "$(query_value rel.db "SELECT json_extract(meta, '\$.phase_log.time') FROM run")" = relative ] || fail "relative: meta"
# start/end pairs nest (and the times are date-times, naive = UTC; 05:30:01.200 UTC is the first sample)
printf '2024-12-19 05:30:04.200 start outer\n2024-12-19T05:30:05.200Z START inner\n[2024-12-19 05:30:06.700] end inner\n2024-12-19 05:30:09.200 END outer\n' >pairs.log
"$P" ingest -q "$QNN" --phases pairs.log -o pairs.db || fail "start/end pairs"
# outer 3..8 s, inner 4..5.5 s, inner nested in outer
[ "$(phases_of pairs.db)" = "outer@3000000000+5000000000 inner@4000000000+1500000000" ] || fail "pairs: $(phases_of pairs.db)"
[ "$(query_value pairs.db "SELECT depth FROM span_v WHERE name = 'inner'")" = 1 ] || fail "pairs: inner is not nested"
[ "$(query_value pairs.db "SELECT count FROM diag WHERE code = 'phase_naive_time_utc'")" = 1 ] || fail "pairs: naive date-times noted once"
# START,END,NAME with a header, CRLF; overlapping ranges are allowed
printf 'start,end,name\r\n1734586202.700,1734586203.700,warm up\r\n1734586203.200,1734586207.200,load\r\n' >ranges.csv
"$P" ingest -q "$QNN" --phases ranges.csv -o ranges.db || fail "START,END,NAME"
# 1.5..2.5 s and 2..6 s
[ "$(phases_of ranges.db)" = "warm up@1500000000+1000000000 load@2000000000+4000000000" ] || fail "ranges: $(phases_of ranges.db)"
# a gzip-compressed log reads the same
gzip -n -c rel.log >rel.log.gz
"$P" ingest -q "$QNN" --phases rel.log.gz -o relgz.db || fail "a gzip phase log"
[ "$(phases_of relgz.db)" = "$(phases_of rel.db)" ] || fail "gzip log: $(phases_of relgz.db)"

# -- diagnostics: bad lines (with line/column), outside the run, beyond it, pairs
# issue 29: a last marker that says the work is over (exit, done, ...)
# closes the phase before it; it used to become a phase of its own that
# stretched to the end of the run. Alone, it is still a phase.
printf '1734586204.436 load_model\n1734586210.164 inference\n1734586222.877 Done\n' >exit.log
"$P" ingest -q "$QNN" --phases exit.log -o exit.db
[ "$(query_value exit.db "SELECT group_concat(name, ',') FROM (SELECT name FROM span_v WHERE kind = 'phase' ORDER BY ts)")" = load_model,inference ] ||
	fail "exit marker: phases $(query_value exit.db "SELECT group_concat(name, ',') FROM span_v WHERE kind = 'phase'")"
# inference ends at the marker: 1734586222.877 - 1734586210.164 = 12.713 s
[ "$(query_value exit.db "SELECT dur FROM span_v WHERE name = 'inference'")" = 12713000000 ] ||
	fail "exit marker: inference lasts $(query_value exit.db "SELECT dur FROM span_v WHERE name = 'inference'") ns, want 12713000000"
printf '1734586210.164 exit\n' >alone.log
"$P" ingest -q "$QNN" --phases alone.log -o alone.db
[ "$(query_value alone.db "SELECT count(*) FROM span_v WHERE kind = 'phase' AND name = 'exit'")" = 1 ] ||
	fail "a lone exit marker is no longer a phase"

cat >diag.log <<'EOF'
# comments and blank lines are skipped

1 a
two b
3 c
-1 d
5 end c
1734586201.5 abs
6 start p
7 end q
24 start open
30 end
40 late
EOF
"$P" ingest -q "$QNN" --phases diag.log -o diag.db || fail "a log with bad lines"
# a 1..3 s, c 3..30 s (beyond the run's 25.817 s), open 24 s..end (never ended), p 6 s..end
# (never ended); "late" starts after the run: skipped
[ "$(phases_of diag.db)" = "a@1000000000+2000000000 c@3000000000+27000000000 p@6000000000+19817000000 open@24000000000+1817000000" ] ||
	fail "diag log: $(phases_of diag.db)"
diag() { query_value diag.db "SELECT count || ' ' || message FROM diag WHERE code = '$1'"; }
[ "$(diag phase_bad_line)" = "2 'diag.log':4:1: not a time (seconds or a date-time) (lines are TIME NAME, TIME start|end NAME or START END NAME); line skipped" ] ||
	fail "phase_bad_line: $(diag phase_bad_line)"
[ "$(diag phase_mixed_time)" = "1 'diag.log':8:1: an absolute time in a log of relative times; line skipped" ] ||
	fail "phase_mixed_time: $(diag phase_mixed_time)"
[ "$(diag phase_unmatched_end)" = "2 'diag.log':7:3: end of phase 'c', which was not started; skipped" ] ||
	fail "phase_unmatched_end: $(diag phase_unmatched_end)"
[ "$(diag phase_unclosed)" = "2 'diag.log':9:1: phase 'p' was started and never ended; it runs until the end of the run" ] ||
	fail "phase_unclosed: $(diag phase_unclosed)"
[ "$(diag phase_outside_run)" = "1 'diag.log':13:1: phase 'late' (40.000 s to 40.000 s from the run's start) is outside the run (0 s to 25.817 s); skipped" ] ||
	fail "phase_outside_run: $(diag phase_outside_run)"
[ "$(diag phase_beyond_run)" = "1 'diag.log':5:1: phase 'c' (3.000 s to 30.000 s from the run's start) reaches beyond the run (0 s to 25.817 s); kept as written" ] ||
	fail "phase_beyond_run: $(diag phase_beyond_run)"
# b would end at 3 s, before it starts: skipped; a 3..4 s, c 4..6 s
printf '5 b\n3 a\n4 c\n6 end\n' >back.log
"$P" ingest -q "$QNN" --phases back.log -o back.db || fail "a log that goes back in time"
[ "$(query_value back.db "SELECT count || ' ' || message FROM diag WHERE code = 'phase_time_backwards'")" = \
	"1 'back.log':2:1: phase 'b' (line 1) ends before it starts; skipped" ] || fail "phase_time_backwards"
[ "$(phases_of back.db)" = "a@3000000000+1000000000 c@4000000000+2000000000" ] || fail "back.log: $(phases_of back.db)"

# -- errors
run "$P" summary "$VIZ" --phases "$QLOG"
expect_error "profreport: summary: '$QLOG':2:1: epoch time, but the run has no absolute clock" "an epoch log on a relative run"
run "$P" summary "$QNN" --phases "$VIZ"
expect_error "profreport: summary: '$VIZ':2:1: not a phase log" "a trace given as the phase log"
: >empty.log
run "$P" summary "$QNN" --phases empty.log
expect_error "profreport: summary: 'empty.log': empty phase log" "an empty phase log"
printf '# nothing\n\n' >comments.log
run "$P" summary "$QNN" --phases comments.log
expect_error "profreport: summary: 'comments.log': empty phase log" "a log of comments"
run "$P" summary "$QNN" --phases nope.log
expect_error "profreport: summary: 'nope.log': cannot open: " "a missing phase log"
printf '1 a\n\0002 b\n' >binary.log
run "$P" summary "$QNN" --phases binary.log
expect_error "profreport: summary: 'binary.log': binary data: not a phase log" "a binary phase log"
printf '100 a\n200 b\n' >far.log
run "$P" report "$QNN" --phases far.log --json far.json
expect_error "profreport: report: 'far.log': no phase falls within the run (0 s to 25.817 s from its first event)" "a log of another run"
[ ! -e far.json ] || fail "a failed --phases wrote the model"
printf '5 b\n3 end\n' >useless.log
run "$P" summary "$QNN" --phases useless.log
expect_error "profreport: summary: 'useless.log': no usable phase in the log" "a log whose only phase goes back in time"
printf '1 a\n' >one.log
printf 'host,rss_mb\nn1,10\nn2,20\n' >notime.csv
run "$P" summary notime.csv --phases one.log
expect_error "profreport: summary: 'one.log': the run's time is synthetic" "a run with no clock"
run "$P" summary "$QNN" "$QNN" --phases one.log
expect_error "profreport: summary: --phases attaches a phase log to one run: give one trace file, not 2 inputs" "two inputs"
mkdir qdir
cp "$QNN" qdir/
run "$P" summary qdir --phases one.log
expect_error "profreport: summary: 'qdir': --phases attaches a phase log to one run: give the trace file, not a directory" "a directory"
run "$P" summary q.db --phases one.log
expect_error "profreport: summary: 'q.db': --phases attaches a phase log to one run: give the trace file, not a store" "a store"
run "$P" ingest "$QNN" --phases far.log -o fresh.db
expect_error "profreport: ingest: 'far.log': no phase falls" "ingest of a bad phase log"
[ ! -e fresh.db ] || fail "a failed ingest --phases left a store behind"
# -- QEff: its data file without the operations, and --phases with the operations list as QEff
# keeps it ([[ISO time, NAME], ...], and {"operations": [...]}): the same phases as the merged file
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" - "$PR_SAMPLES/qeff/qeff_profile.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
ops = d.pop("operations")
json.dump(d, open("qeff_data.json", "w"))
json.dump(ops, open("qeff_ops.json", "w"))
json.dump({"operations": ops, "sampling_interval": d["sampling_interval"]}, open("qeff_state.json", "w"))
PYEOF
run "$P" report --json merged.json --timeline-points 0 "$PR_SAMPLES/qeff/qeff_profile.json"
expect_rc 0 "the merged QEff file"
for ops in qeff_ops.json qeff_state.json; do
	run "$P" report --json "$ops.model.json" --timeline-points 0 qeff_data.json --phases "$ops"
	expect_rc 0 "QEff data + --phases $ops"
	"$PY" - merged.json "$ops.model.json" <<'PYEOF' || fail "QEff --phases $ops: other phases than the merged file's"
import json, sys
a, b = (json.load(open(f))["runs"][0]["phases"]["occurrences"] for f in sys.argv[1:])
key = lambda o: (o["name"], o["t_ns"], o["dur_ns"], o["memory"][0]["delta"], o.get("disk"))
# the five operations before Completion (which closes the last: it is no phase), same times
sys.exit(0 if [key(o) for o in a] == [key(o) for o in b] and len(a) == 5 else 1)
PYEOF
done
printf '{"samples": []}\n' >noops.json
run "$P" summary qeff_data.json --phases noops.json
expect_error "profreport: summary: 'noops.json': not a phase log: JSON without an operations list" "JSON without operations"

ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "temporary files left: $(cat leftover)"

finish
