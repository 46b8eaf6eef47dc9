#!/bin/sh
# t0103-nsys: Nsight Systems' SQLite export (ingest/fmt_nsys.c).
#  - equivalence: samples/nsys/make_nsys_sample.py writes one run as an
#    export and as its Kineto twin (same events, same times); summary --json
#    gives the same gpu, gpu_breakdown, step_breakdown and collectives
#    sections for both;
#  - numbers derived by hand from the script's own event list (busy,
#    compute, communication, memory, overlap, kernel counts, step GPU
#    utilization), the decoded globalTid, the session origin, names;
#  - a store and an export side by side: each is told from the other;
#  - bad input: not an export, unknown schema version, truncated file,
#    missing column: one error line, exit 2; wrong types, NULL names, huge
#    ids, ends before starts: diagnostics, never a crash (ASan build too).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || { echo "$test_name: skipped: no $PY" >&2; exit 77; }
GEN=$PR_SAMPLES/nsys/make_nsys_sample.py

# --- the committed sample reads as nsys, with no diagnostic
run "$P" ingest "$PR_SAMPLES/nsys/nsys_sample.sqlite" -o committed.db
expect_rc 0 "committed sample"
expect_out_has ", nsys, 57 spans, 24 samples, 1 instants" "committed sample counts"
[ "$(query_value committed.db 'SELECT count(*) FROM diag')" = 0 ] ||
	fail "committed sample raised diagnostics"

# --- a fresh pair from the generator
"$PY" "$GEN" export.sqlite twin.json
"$PY" "$GEN" x --events >events.json

run "$P" summary export.sqlite --json a.json
expect_rc 0 "summary of the export"
run "$P" summary twin.json --json b.json
expect_rc 0 "summary of the Kineto twin"

# Equivalence, and the numbers by hand. Derivation (make_nsys_sample.py):
# per step k (b = 1 ms + 4 ms k): HtoD [b+40us, b+240us], gemm [b+260us,
# b+1160us], relu [b+1170us, b+1270us], memset [b+1650us, b+1670us] and
# nccl [b+1700us, b+2300us] on stream 13, sgd [b+1900us, b+2200us], DtoH
# [b+2450us, b+2500us]. The script below recomputes every figure as
# interval unions over the event list, independently of profreport.
"$PY" - a.json b.json events.json >check.out 2>&1 <<'EOF' || { fail "$(cat check.out)"; }
import json, sys
a = json.load(open(sys.argv[1]))["runs"][0]
b = json.load(open(sys.argv[2]))["runs"][0]
ev = json.load(open(sys.argv[3]))
bad = []
for sec in ("gpu", "gpu_breakdown", "step_breakdown", "collectives"):
    if a[sec] != b[sec]:
        bad.append("section %s differs between the export and its Kineto twin" % sec)

def union(iv):
    tot, cur_s, cur_e = 0, None, None
    for s, e in sorted(iv):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                tot += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    return tot + (cur_e - cur_s if cur_e is not None else 0)

gpu = [e for e in ev if e["t"] in ("kernel", "memcpy", "memset")]
kern = [e for e in gpu if e["t"] == "kernel"]
comm = [(e["start"], e["end"]) for e in kern if e["name"].startswith("nccl")]
comp = [(e["start"], e["end"]) for e in kern if not e["name"].startswith("nccl")]
allv = [(e["start"], e["end"]) for e in gpu]
span = max(e for _, e in allv) - min(s for s, _ in allv)
busy, uk, uc = union(allv), union(comp + comm), union(comp)
overlap = union(comp) + union(comm) - union(comp + comm)
r = a["gpu_breakdown"]["rank"]
want = {"span_ns": span, "busy_ns": busy, "compute_ns": uc, "communication_ns": uk - uc,
        "memory_ns": busy - uk, "idle_ns": span - busy}
for k, v in want.items():
    if r[k] != v:
        bad.append("gpu_breakdown.rank.%s = %s, by hand %s" % (k, r[k], v))
if abs(r["busy_share"] - busy / span) > 1e-9:
    bad.append("busy_share %s, by hand %s" % (r["busy_share"], busy / span))
if a["gpu_breakdown"]["overlap"]["overlapped_ns"] != overlap:
    bad.append("overlap %s, by hand %s" % (a["gpu_breakdown"]["overlap"]["overlapped_ns"], overlap))
# 12 kernels, 3 of them NCCL, 21 activities, every one linked by correlation
types = {t["type"]: t["count"] for t in a["gpu_breakdown"]["kernels"]["by_type"]}
if types != {"compute": 9, "communication": 3, "memory": 9} or len(kern) != 12:
    bad.append("kernel counts %s" % types)
la = a["gpu"]["launches"]
if (la["activities"], la["linked"], la["unlinked"]) != (len(gpu), len(gpu), 0):
    bad.append("launches %s" % la)
apis = {x["name"]: x["calls"] for x in la["by_api"]}
if apis != {"cudaLaunchKernel": 12, "cudaMemcpyAsync": 6, "cudaMemsetAsync": 3}:
    bad.append("runtime API names (version suffix stripped) %s" % apis)
# step 1: kernels busy union / 3 ms
steps = [e for e in ev if e["t"] == "nvtx" and e["name"].startswith("ProfilerStep#")]
s0 = steps[0]
k0 = [(e["start"], e["end"]) for e in kern if s0["start"] <= e["start"] < s0["end"]]
st = a["step_breakdown"]["steps"]
if len(st) != 3 or abs(st[0]["gpu_util"] - union(k0) / (s0["end"] - s0["start"])) > 1e-9:
    bad.append("step_breakdown %s" % st[:1])
if a["collectives"]["items"][0]["calls"] != 3:
    bad.append("collectives %s" % a["collectives"]["items"])
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF

# --- decoded ids, origin, names, series
"$P" ingest -q export.sqlite -o e.db
[ "$(query_value e.db "SELECT DISTINCT pid || '/' || tid FROM span_v WHERE kind = 'runtime'")" = 4242/4242 ] ||
	fail "globalTid not decoded to pid 4242 / tid 4242"
[ "$(query_value e.db 'SELECT time_origin_ns FROM run')" = 1700000000000000000 ] ||
	fail "utcEpochNs is not the time origin"
[ "$(query_value e.db "SELECT count(*) FROM span WHERE kind = 'step'")" = 3 ] ||
	fail "ProfilerStep# NVTX ranges are not steps"
[ "$(query_value e.db "SELECT name FROM track WHERE kind = 'thread' AND pid = '4242'")" = python ] ||
	fail "thread name from ThreadNames"
[ "$(query_value e.db "SELECT count(*) FROM span_v WHERE name = 'forward' AND kind = 'phase'")" = 3 ] ||
	fail "NVTX text through textId"
[ "$(query_value e.db "SELECT unit || ' ' || device FROM series WHERE name = 'SM Active'")" = "percent GA100 (0)" ] ||
	fail "GPU metrics series"

# --- a store and an export side by side
run "$P" summary e.db
expect_rc 0 "a store that holds an nsys run is still a store"
run "$P" ingest e.db -o other.db
expect_error "profreport: ingest: 'e.db': is a store" "a store given as an input"
"$PY" -c "import sqlite3; d = sqlite3.connect('foreign.sqlite'); d.execute('CREATE TABLE t(x)'); d.commit()"
run "$P" summary foreign.sqlite
expect_error "profreport: summary: 'foreign.sqlite': an SQLite database that is not an Nsight Systems export (no StringIds table) nor a profreport store" "a foreign SQLite file"
run "$P" summary --format nsys "$PR_SAMPLES/nsys/nsys_sample.sqlite"
expect_rc 0 "--format nsys"
gzip -c export.sqlite >export.sqlite.gz
run "$P" ingest export.sqlite.gz -o gz.db
expect_out_has "'export.sqlite.gz': run 1, nsys, 57 spans" "a gzipped export"
run sh -c "cat export.sqlite | '$P' ingest - -o stdin.db"
expect_out_has "'-': run 1, nsys, 57 spans" "an export on standard input"
mkdir dir
cp export.sqlite foreign.sqlite dir/
run "$P" ingest dir -o d.db
expect_rc 0 "a directory with an export and a foreign SQLite file"
expect_out_has "'dir/export.sqlite': run 1, nsys" "the export in a directory"
expect_out_has "'dir/foreign.sqlite': skipped" "the foreign SQLite file skipped"
# an export whose schema pages lie beyond the first 64 KiB (tables created
# after 300 KB of data, as nsys creates them lazily): found by SQLite's own
# reader, in a directory and as an input
mkdir dir2
"$PY" - "$GEN" <<'EOF'
import importlib.util, sqlite3, sys
spec = importlib.util.spec_from_file_location("gen", sys.argv[1])
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
d = sqlite3.connect("dir2/big.sqlite")
d.execute("CREATE TABLE PAD (x TEXT)")
d.executemany("INSERT INTO PAD VALUES (?)", [("x" * 1000,) for i in range(300)])
d.commit()
d.executescript(gen.SCHEMA)
d.execute("ATTACH 'export.sqlite' AS e")
for (t,) in d.execute("SELECT name FROM e.sqlite_master WHERE type = 'table'").fetchall():
    d.execute("INSERT INTO main.%s SELECT * FROM e.%s" % (t, t))
d.commit()
d.close()
data = open("dir2/big.sqlite", "rb").read()
assert min(data.find(b"TABLE StringIds"), data.find(b"TABLE CUPTI_ACTIVITY"),
           data.find(b"TABLE TARGET_INFO_"), data.find(b"TABLE NVTX_EVENTS")) > 65536
EOF
run "$P" ingest dir2 -o d2.db
expect_out_has "'dir2/big.sqlite': run 1, nsys" "an export with its schema beyond the head, in a directory"
run "$P" summary dir2/big.sqlite
expect_rc 0 "an export with its schema beyond the head, as an input"

# --- hostile files: each a one-line error (exit 2) or an ingest with diagnostics
"$PY" - "$GEN" <<'EOF'
import importlib.util, os, sqlite3, sys
spec = importlib.util.spec_from_file_location("gen", sys.argv[1])
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
ev = gen.events()
gen.write_sqlite("v4.sqlite", ev, schema_version="4.0.1")
gen.write_sqlite("vjunk.sqlite", ev, schema_version="three")
data = open("export.sqlite", "rb").read()
open("trunc.sqlite", "wb").write(data[: len(data) // 2])
open("header.sqlite", "wb").write(data[:100])
d = sqlite3.connect("nostrings.sqlite")
d.execute("CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER)")
d.commit(); d.close()
d = sqlite3.connect("nocol.sqlite")
d.executescript("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
                "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER);")
d.commit(); d.close()
# a view named like a table is not read as one
d = sqlite3.connect("view.sqlite")
d.executescript("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
                "CREATE VIEW NVTX_EVENTS AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x AS start FROM c;")
d.commit(); d.close()
# wrong types, NULL and missing names, huge ids, an end before its start
gen.write_sqlite("odd.sqlite", ev)
d = sqlite3.connect("odd.sqlite")
big = 2**63 - 1
d.executescript(f"""
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('soon', 5, 0, 1, NULL, 7, 1, 1, 1, 1, NULL, 0, 0,
  1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, NULL, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000000, 2100000, {big}, 1, NULL, {big}, {big}, 1,
  999999, 999999, NULL, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, NULL, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (3000000, 2900000, 0, 1, NULL, 7, NULL, 1,
  1, 1, NULL, 0, 0, 'many', 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, NULL, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (2000000, 2000500, 0, 1, NULL, 7, 5, 1, 10, 99,
  NULL, 42, 3, NULL, NULL, NULL, NULL, 0, NULL, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1500000, 1400000, 1, {big}, {big}, 424242, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1500000, 1600000, 1, NULL, 3, 1, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES ({big}, {big}, 1, 1, 3, 1, 0, NULL);
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId) VALUES (1000, NULL, 59, NULL, 5, NULL);
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId) VALUES (2000, 3000, 59, NULL, -1, 777777);
INSERT INTO GPU_METRICS VALUES (5000000, 1, 1, 'x');
INSERT INTO GPU_METRICS VALUES (5000000, 77, 77, 1.5);
""")
d.commit(); d.close()
EOF

run "$P" ingest v4.sqlite -o x.db
expect_error "profreport: ingest: 'v4.sqlite': Nsight Systems export schema version '4.0.1' is not understood (this reader knows 3.x)" "schema version 4"
run "$P" ingest vjunk.sqlite -o x.db
expect_error "profreport: ingest: 'vjunk.sqlite': Nsight Systems export schema version 'three'" "schema version not a number"
run "$P" ingest trunc.sqlite -o x.db
expect_error "profreport: ingest: 'trunc.sqlite': not a readable SQLite database" "a truncated export"
run "$P" ingest --format nsys header.sqlite -o x.db
expect_error "profreport: ingest: 'header.sqlite': " "only the SQLite header"
run "$P" ingest --format nsys nostrings.sqlite -o x.db
expect_error "profreport: ingest: 'nostrings.sqlite': an SQLite database that is not an Nsight Systems export" "no StringIds"
run "$P" ingest nocol.sqlite -o x.db
expect_error "profreport: ingest: 'nocol.sqlite': Nsight Systems export: table CUPTI_ACTIVITY_KIND_KERNEL has no column 'contextId'" "a missing column"
run "$P" ingest --format nsys view.sqlite -o view.db
expect_rc 0 "a view named NVTX_EVENTS is not read (nor run)"
run "$P" ingest --format nsys "$PR_SAMPLES/torch/trace_rank0.pt.trace.json" -o x.db
expect_error "profreport: ingest: '$PR_SAMPLES/torch/trace_rank0.pt.trace.json': not an SQLite database" "a JSON file forced as nsys"
[ ! -e x.db ] || fail "a failed ingest left a store behind"

run "$P" ingest odd.sqlite -o odd.db
expect_rc 0 "odd rows are diagnostics"
# bad_value: the text start, the text registersPerThread, the text metric
# value, the NULL globalTid; missing_string: demangledName 999999, nameId
# 424242, the NVTX range with neither text nor textId, textId 777777;
# negative_duration: the kernel and the call that end before they start;
# unknown_enum: copyKind 99 / srcKind 42; time_out_of_range: start 2^63-1.
codes=$(query_value odd.db "SELECT group_concat(code || '=' || count, ' ') FROM (SELECT code, count FROM diag ORDER BY code)")
[ "$codes" = "nsys_bad_value=4 nsys_missing_string=4 nsys_negative_duration=2 nsys_unclosed_range=1 nsys_unknown_enum=1 time_out_of_range=1" ] ||
	fail "odd rows: diagnostics '$codes'"
# the huge-id kernel is kept on its own stream, pid/tid as the decimal text
[ "$(query_value odd.db "SELECT count(*) FROM track WHERE kind = 'gpu_stream' AND pid = '9223372036854775807'")" = 1 ] ||
	fail "huge deviceId/streamId"
[ "$(query_value odd.db "SELECT pid || '/' || tid FROM span_v WHERE name = '(string 424242)'")" = 16777215/16777215 ] ||
	fail "huge globalTid decoded with the 24-bit masks"
# --- issue 30 S2: a WAL-mode export whose schema lies past the head. The
# format check opened it with SQLite read-only, which creates -wal and -shm
# beside the input, then refused it ("unable to open database file"). Now
# nothing is written beside an input and the export reads as the original.
mkdir wal
"$PY" - export.sqlite wal/wal.sqlite <<'EOF'
import sqlite3, sys
src, dst = sys.argv[1], sys.argv[2]
c = sqlite3.connect(dst)
c.execute("PRAGMA journal_mode=WAL")
for i in range(400):  # 400 filler tables first: StringIds' schema is far from the head
    c.execute("CREATE TABLE filler_%d_%s (a INTEGER, b TEXT)" % (i, "x" * 150))
c.execute("ATTACH DATABASE ? AS src", (src,))
for name, sql in c.execute("SELECT name, sql FROM src.sqlite_master WHERE type = 'table'").fetchall():
    c.execute(sql)
    c.execute('INSERT INTO main."%s" SELECT * FROM src."%s"' % (name, name))
c.commit()
c.execute("DETACH DATABASE src")
c.close()
EOF
[ "$(head -c 65536 wal/wal.sqlite | LC_ALL=C grep -c 'TABLE StringIds')" = 0 ] ||
	fail "setup: the WAL export's StringIds schema is within the first 64 KiB"
rm -f wal/wal.sqlite-wal wal/wal.sqlite-shm
run "$P" summary wal/wal.sqlite --json wal.json
expect_rc 0 "WAL-mode export"
[ "$(ls wal)" = wal.sqlite ] || fail "WAL-mode export: files written beside the input: $(ls wal | tr '\n' ' ')"
"$PY" -c 'import json, sys
a = json.load(open(sys.argv[1]))["runs"][0]; b = json.load(open(sys.argv[2]))["runs"][0]
sys.exit(0 if a["gpu"] == b["gpu"] and a["step_breakdown"] == b["step_breakdown"] else 1)' a.json wal.json ||
	fail "WAL-mode export: gpu or step_breakdown differs from the original export"
# --- issue 30 R2: the export is read whole, at most 128 MiB unless
# PROFREPORT_NSYS_MAX_MB raises it; no SQLite magic is refused at once.
run "$P" summary --format nsys /dev/zero
expect_rc 2 "--format nsys /dev/zero"
expect_err_has "not an SQLite database" "--format nsys /dev/zero"
"$PY" -c 'import sys; sys.stdout.buffer.write(b"SQLite format 3\0" + bytes(3 << 20))' >big.sqlite
run env PROFREPORT_NSYS_MAX_MB=2 "$P" summary --format nsys big.sqlite
expect_rc 2 "an export past PROFREPORT_NSYS_MAX_MB"
expect_err_has "larger than 2 MiB (after gunzip)" "an export past PROFREPORT_NSYS_MAX_MB"
run env PROFREPORT_NSYS_MAX_MB=0 "$P" summary --format nsys big.sqlite
expect_rc 2 "PROFREPORT_NSYS_MAX_MB=0"
expect_err_has "expected a whole number of MiB" "PROFREPORT_NSYS_MAX_MB=0"
finish
