#!/bin/sh
# t0107-stacks: the stack-sample and perf readers (folded, perf-script, perf-stat)
# on the real samples of samples/folded and samples/perf: the per-frame self
# and total weights that `query` and the speedscope export give equal the ones
# a short python3 script computes from the input file alone; the weight's unit
# is in the run's meta; detection by content does not take other text formats
# (CSV samplers, phase logs); a file no reader understands stays an error.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "$test_name: no python3; skipped"
	exit 77
fi

STACKS=$PR_SAMPLES/folded/torch_cpu.stacks

# frame_weights_folded FILE: "name<TAB>self<TAB>total" per frame, sorted, in
# the file's unit times SCALE; a frame's total counts each line once even when
# the frame recurs in it (what SUM(dur) of its outermost spans gives).
frame_weights_folded() {
	python3 - "$1" "$2" <<'PY'
import sys, collections
scale = int(sys.argv[2])
self_w, total = collections.Counter(), collections.Counter()
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\r\n")
    if not line.strip():
        continue
    frames, count = line.rsplit(" ", 1)
    w = int(count) * scale
    fs = frames.split(";")
    self_w[fs[-1]] += w
    for f in set(fs):
        total[f] += w
for f in sorted(total):
    print("%s\t%d\t%d" % (f, self_w[f], total[f]))
PY
}

# frame_weights_store DB: the same from the store's spans (outermost span of
# each name per stack for the total: a span whose ancestors have another name).
frame_weights_store() {
	"$P" query "$1" "WITH RECURSIVE anc(id, aid) AS (
		SELECT id, parent_id FROM span WHERE parent_id IS NOT NULL
		UNION ALL SELECT anc.id, s.parent_id FROM anc JOIN span s ON s.id = anc.aid
		WHERE s.parent_id IS NOT NULL)
	SELECT v.name, sum(v.self) AS self_w,
		sum(CASE WHEN EXISTS (SELECT 1 FROM anc JOIN span p ON p.id = anc.aid
			WHERE anc.id = v.id AND p.name_id = (SELECT name_id FROM span WHERE id = v.id))
		THEN 0 ELSE v.dur END) AS total_w
	FROM span_v v GROUP BY v.name ORDER BY v.name" | sed 1d
}

# frame_weights_speedscope FILE: the same from an exported speedscope file's
# evented profiles (O/C events), in its nanoseconds.
frame_weights_speedscope() {
	python3 - "$1" <<'PY'
import json, sys, collections
d = json.load(open(sys.argv[1]))
names = [f["name"] for f in d["shared"]["frames"]]
self_w, total = collections.Counter(), collections.Counter()
for p in d["profiles"]:
    stack = []  # [frame, open_at, child_time]
    for e in p["events"]:
        if e["type"] == "O":
            stack.append([e["frame"], e["at"], 0])
        else:
            f, at, child = stack.pop()
            dur = e["at"] - at
            self_w[names[f]] += dur - child
            if stack:
                stack[-1][2] += dur
            if all(names[g[0]] != names[f] for g in stack):
                total[names[f]] += dur
for f in sorted(total):
    print("%s\t%d\t%d" % (f, self_w[f], total[f]))
PY
}

# -- folded: torch.profiler export_stacks (us -> ns)
run "$P" ingest "$STACKS" -o f.db
expect_rc 0 "ingest torch_cpu.stacks"
expect_out_has "folded" "torch_cpu.stacks detected as folded"
[ "$(query_value f.db "SELECT collector || ' ' || time_synthetic || ' ' || json_extract(meta, '\$.weight_unit') FROM run")" = "torch.profiler 0 us" ] ||
	fail "folded torch: collector/time_synthetic/weight_unit: $(query_value f.db "SELECT collector, time_synthetic, meta FROM run")"
frame_weights_folded "$STACKS" 1000 >want.txt
frame_weights_store f.db >got.txt
diff want.txt got.txt >d.txt || fail "folded torch: per-frame self/total weights differ from the file's (python3): $(head -5 d.txt)"
[ -s want.txt ] || fail "folded torch: python3 derived nothing"
run "$P" speedscope "$STACKS" -o f.speedscope.json
expect_rc 0 "speedscope export of the folded sample"
frame_weights_speedscope f.speedscope.json >got_ss.txt
diff want.txt got_ss.txt >d.txt || fail "folded torch: the speedscope export's weights differ from the file's: $(head -5 d.txt)"
# the run's extent is the sum of all weights
want_sum=$(python3 -c 'import sys; print(sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[1]) if l.strip()) * 1000)' "$STACKS")
[ "$(query_value f.db "SELECT ts_max - ts_min FROM run")" = "$want_sum" ] || fail "folded torch: extent is not the sum of the weights ($want_sum ns)"

# -- folded: sample counts (synthetic time, 1 sample = 1 ns)
printf 'main;a;b 3\nmain;a 2\nmain;c 5\nmain;a;b 1\n' >counts.folded
run "$P" ingest counts.folded -o c.db
expect_rc 0 "ingest a stackcollapse-style file"
[ "$(query_value c.db "SELECT time_synthetic || ' ' || json_extract(meta, '\$.weight_unit') FROM run")" = "1 samples" ] ||
	fail "folded samples: not synthetic time in samples"
frame_weights_folded counts.folded 1 >want.txt
frame_weights_store c.db >got.txt
diff want.txt got.txt >d.txt || fail "folded samples: weights differ: $(head -5 d.txt)"

# -- detection: other text formats are not taken
run "$P" ingest "$PR_SAMPLES/nvidia-smi/gpu_log.csv" "$PR_SAMPLES/psutil/process_log.csv" \
	"$PR_SAMPLES/qnn/memory_20241219_143000.csv" "$PR_SAMPLES/massif/massif.out.12345" -o d.db
expect_rc 0 "ingest the CSV and massif samples"
[ "$(query_value d.db "SELECT group_concat(format, ' ') FROM (SELECT format FROM run ORDER BY id)")" = "csv csv qnn-csv massif" ] ||
	fail "a CSV or massif sample is no longer read by its own reader: $(query_value d.db "SELECT group_concat(format) FROM run")"
run "$P" ingest "$PR_SAMPLES/qnn/memory_20241219_143000.phases.log" -o p.db
expect_rc 2 "a phase log is not an input"
expect_err_has "unrecognized input format" "a phase log is not taken as folded stacks"
run "$P" ingest --format folded "$PR_SAMPLES/nvidia-smi/gpu_log.csv" -o e.db
expect_rc 2 "--format folded on a CSV"
expect_one_err_line "--format folded on a CSV"
expect_err_has "gpu_log.csv':1:1: not folded stacks" "--format folded on a CSV names line 1"

# -- perf script: the real sample, folded by python3 (one sample per record,
# weight = period, stack reversed to root first, "+0xOFF" dropped, an empty or
# "[unknown]" symbol named "[unknown]")
SCRIPT=$PR_SAMPLES/perf/perf_script.txt
python3 - "$SCRIPT" >script.folded <<'PY'
import re, sys
recs = open(sys.argv[1], encoding="utf-8").read().split("\n\n")
for r in recs:
    lines = [l for l in r.split("\n") if l.strip()]
    if not lines:
        continue
    m = re.search(r" (\d+\.\d+): +(\d+) (\S+):", lines[0])
    frames = []
    for l in lines[1:]:
        m2 = re.match(r"\s*[0-9a-f]+ (.*?)(\+0x[0-9a-f]+)? \((.*)\)$", l)
        frames.append(m2.group(1) or "[unknown]")
    print(";".join(reversed(frames)) + " " + m.group(2))
PY
run "$P" ingest "$SCRIPT" -o s.db
expect_rc 0 "ingest perf_script.txt"
expect_out_has "perf-script" "perf_script.txt detected as perf-script"
[ "$(query_value s.db "SELECT time_synthetic || ' ' || json_extract(meta, '\$.weight_unit') FROM run")" = "0 ns" ] ||
	fail "perf script: cpu-clock periods are not ns"
frame_weights_folded script.folded 1 >want.txt
frame_weights_store s.db >got.txt
diff want.txt got.txt >d.txt || fail "perf script: per-frame weights differ from python3's folding: $(head -5 d.txt)"
[ "$(wc -l <want.txt)" -ge 20 ] || fail "perf script: python3 derived only $(wc -l <want.txt) frames"
run "$P" speedscope "$SCRIPT" -o s.speedscope.json
expect_rc 0 "speedscope export of the perf script sample"
frame_weights_speedscope s.speedscope.json >got_ss.txt
diff want.txt got_ss.txt >d.txt || fail "perf script: the speedscope export's weights differ: $(head -5 d.txt)"

# -- perf stat: totals as metrics, intervals as series, values from the CSV by python3
STAT=$PR_SAMPLES/perf/perf_stat.csv
INTERVAL=$PR_SAMPLES/perf/perf_stat_interval.csv
run "$P" ingest "$STAT" "$INTERVAL" -o st.db
expect_rc 0 "ingest the perf stat samples"
want=$(python3 -c '
import sys
for l in open(sys.argv[1]):
    f = l.rstrip("\n").split(",")
    if len(f) > 3 and f[2] == "task-clock":
        print(round(float(f[0]) * 1e6))' "$STAT")
[ "$(query_value st.db "SELECT CAST(value AS INTEGER) FROM metric WHERE name = 'perf.task-clock'")" = "$want" ] ||
	fail "perf stat: perf.task-clock is not $want ns"
want=$(python3 -c '
import sys
s = n = 0
for l in open(sys.argv[1]):
    f = l.strip().split(",")
    if len(f) > 4 and f[3] == "page-faults":
        s += int(f[1]); n += 1
print(n, s)' "$INTERVAL")
[ "$(query_value st.db "SELECT count(*) || ' ' || CAST(sum(value) AS INTEGER) FROM sample_v WHERE name = 'perf.page-faults'")" = "$want" ] ||
	fail "perf stat -I: perf.page-faults samples are not '$want' (count, sum)"
[ "$(query_value st.db "SELECT count(*) FROM diag WHERE code = 'perf_stat_not_supported'")" = 2 ] ||
	fail "perf stat: <not supported> (cycles, instructions) gave no diagnostic in both runs"
run "$P" speedscope "$STAT" -o none.json
expect_rc 2 "speedscope of perf stat totals"
expect_err_has "nothing to export" "speedscope of perf stat totals: nothing to export"

# -- detection: a perf stat CSV is not a generic CSV, a perf script is not folded
run "$P" ingest "$INTERVAL" "$SCRIPT" "$STACKS" -o det.db
[ "$(query_value det.db "SELECT group_concat(format, ' ') FROM (SELECT format FROM run ORDER BY id)")" = "perf-stat perf-script folded" ] ||
	fail "perf/folded samples detected as: $(query_value det.db "SELECT group_concat(format) FROM run")"

finish
