#!/bin/sh
# t0108-sysstat: the sysstat readers (sadf -d, sadf -j, pidstat) on the real
# samples in samples/sysstat. The expected numbers are derived here by
# python3 straight from the input text (its own parse of the columns, its own
# unit factors: kB x 1024, 512-byte blocks, ms -> ns, cpu.util = 100 - %idle,
# calendar.timegm for the UTC times) and compared with the store read through
# python's sqlite3, not through profreport. Also: the JSON and the CSV made
# from one sar file agree sample for sample; every file is detected by
# content; a file of another kind given with --format is an error (exit 2).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

S=$PR_SAMPLES/sysstat
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# -- detection by content, one run each
for f in sadf-cpu.csv sadf-cpu-all.csv sadf-mem.csv sadf-io.csv sadf-disk.csv sadf-load.csv \
	sadf-paging.csv; do
	run "$P" ingest "$S/$f" -o "$f.db"
	expect_rc 0 "ingest $f"
	expect_out_has "sadf, 0 spans" "ingest $f is read as sadf"
done
run "$P" ingest "$S/sadf.json" -o sadf.json.db
expect_rc 0 "ingest sadf.json"
expect_out_has "sadf-json, 0 spans" "sadf.json is read as sadf-json"

cat >check_sadf.py <<'PYEOF'
import calendar, sqlite3, sys, time

S = sys.argv[1]
bad = 0


def fail(msg):
    global bad
    bad += 1
    print("FAIL: " + msg)


def epoch_ns(stamp):
    assert stamp.endswith(" UTC")
    return calendar.timegm(time.strptime(stamp[:-4], "%Y-%m-%d %H:%M:%S")) * 10**9


def store(db):
    c = sqlite3.connect(db)
    origin = c.execute("SELECT time_origin_ns FROM run").fetchone()[0]
    got = {}
    for name, dev, ts, v in c.execute(
            "SELECT se.name, se.device, sa.ts, sa.value FROM sample sa "
            "JOIN series se ON se.id = sa.series_id"):
        got[(name, dev, ts)] = v
    return origin, got


# (file, column, series, factor); factor None: 100 - value
checks = [
    ("sadf-cpu.csv", "%idle", "cpu.util", None),
    ("sadf-cpu.csv", "%user", "cpu.user", 1),
    ("sadf-cpu-all.csv", "%idle", "cpu.util", None),
    ("sadf-mem.csv", "kbmemused", "sys.mem.used", 1024),
    ("sadf-mem.csv", "kbavail", "sys.mem.available", 1024),
    ("sadf-io.csv", "bread/s", "disk.read_rate", 512),
    ("sadf-io.csv", "bwrtn/s", "disk.write_rate", 512),
    ("sadf-disk.csv", "wkB/s", "disk.write_rate", 1024),
    ("sadf-disk.csv", "await", "disk.await", 1e6),
    ("sadf-load.csv", "ldavg-1", "sys.load.1", 1),
    ("sadf-paging.csv", "pgpgout/s", "sys.paging.out_rate", 1024),
]
n = 0
for fname, col, series, factor in checks:
    lines = open(S + "/" + fname).read().splitlines()
    head = lines[0][2:].split(";")
    origin, got = store(fname + ".db")
    rows = [l.split(";") for l in lines[1:] if l]
    if origin != epoch_ns(rows[0][2]):
        fail("%s: time_origin_ns %s, expected %s" % (fname, origin, epoch_ns(rows[0][2])))
    for r in rows:
        d = dict(zip(head, r))
        dev = ""
        if "CPU" in d and d["CPU"] != "-1":
            dev = "cpu" + d["CPU"]
        if "DEV" in d:
            dev = d["DEV"]
        v = float(d[col])
        want = 100 - v if factor is None else v * factor
        key = (series, dev, epoch_ns(d["timestamp"]) - origin)
        if key not in got:
            fail("%s: no sample %r" % (fname, key))
        elif abs(got[key] - want) > 1e-9 * max(1, abs(want)):
            fail("%s: %r = %r, expected %r" % (fname, key, got[key], want))
        n += 1

# sadf -j: the same recording as the CSV files: the same samples
_, j = store("sadf.json.db")
for fname in ["sadf-cpu.csv", "sadf-mem.csv", "sadf-disk.csv", "sadf-io.csv", "sadf-load.csv",
              "sadf-paging.csv"]:
    _, c = store(fname + ".db")
    for k, v in c.items():
        if k not in j:
            fail("sadf.json lacks %r of %s" % (k, fname))
        elif abs(j[k] - v) > 1e-9 * max(1, abs(v)):
            fail("sadf.json %r = %r, %s has %r" % (k, j[k], fname, v))
        n += 1
print("checked %d samples" % n)
sys.exit(1 if bad else 0)
PYEOF
run "$PY" check_sadf.py "$S"
expect_rc 0 "sadf numbers derived from the input"
[ "$rc" -eq 0 ] || cat "$tmp/out" >&2

# -- pidstat: per-process series, the banner's date + the time of day, Average: as metrics
for f in pidstat.txt pidstat-h.txt; do
	run "$P" ingest "$S/$f" -o "$f.db"
	expect_rc 0 "ingest $f"
	expect_out_has "pidstat, 0 spans" "ingest $f is read as pidstat"
done
cat >check_pidstat.py <<'PYEOF'
import calendar, sqlite3, sys, time

S = sys.argv[1]
bad = n = 0
# column -> (series, factor)
cols = {"%CPU": ("cpu.util", 1), "%usr": ("cpu.user", 1), "RSS": ("mem.rss", 1024),
        "VSZ": ("mem.vms", 1024), "kB_wr/s": ("disk.write_rate", 1024),
        "minflt/s": ("mem.minflt_rate", 1)}
for fname in ["pidstat.txt", "pidstat-h.txt"]:
    lines = open(S + "/" + fname).read().splitlines()
    mm, dd, yy = lines[0].split()[3].split("/")  # Linux VER (host) MM/DD/YY _arch_ (N CPU)
    day = calendar.timegm((2000 + int(yy), int(mm), int(dd), 0, 0, 0))
    c = sqlite3.connect(fname + ".db")
    origin = c.execute("SELECT time_origin_ns FROM run").fetchone()[0]
    got = {(a, b, t): v for a, b, t, v in c.execute(
        "SELECT se.name, se.device, sa.ts, sa.value FROM sample sa "
        "JOIN series se ON se.id = sa.series_id")}
    metrics = {(a, b): v for a, b, v in c.execute("SELECT name, detail, value FROM metric")}
    head = None
    first = None
    for l in lines[1:]:
        t = l.split()
        if not t:
            continue
        if t[-1] == "Command":
            head = t[2:-1] if t[0] == "#" else t[1:-1]
            continue
        d = dict(zip(head, t[1:]))
        dev = "pid:%s (%s)" % (d["PID"], t[len(head) + 1])
        if t[0] == "Average:":
            for k, (series, f) in cols.items():
                if k in d:
                    want = float(d[k]) * f
                    m = metrics.get(("pidstat.avg." + series, dev))
                    if m is None or abs(m - want) > 1e-9 * max(1, abs(want)):
                        print("FAIL: %s: metric %s %s = %r, expected %r" % (fname, series, dev, m, want))
                        bad += 1
                    n += 1
            continue
        h, mi, se = map(int, t[0].split(":"))
        ns = (day + h * 3600 + mi * 60 + se) * 10**9
        if first is None:
            first = ns
            if origin != ns:
                print("FAIL: %s: time_origin_ns %r, expected %r" % (fname, origin, ns))
                bad += 1
        for k, (series, f) in cols.items():
            if k in d:
                want = float(d[k]) * f
                v = got.get((series, dev, ns - first))
                if v is None or abs(v - want) > 1e-9 * max(1, abs(want)):
                    print("FAIL: %s: %s %s at %d = %r, expected %r" % (fname, series, dev, ns - first, v, want))
                    bad += 1
                n += 1
print("checked %d values" % n)
sys.exit(1 if bad else 0)
PYEOF
run "$PY" check_pidstat.py "$S"
expect_rc 0 "pidstat numbers derived from the input"
[ "$rc" -eq 0 ] || cat "$tmp/out" >&2

# -- not sadf: the QNN CSV and a plain CSV are not read as sadf; forced, an error
run "$P" ingest --format sadf "$S/sadf.json" -o err.db
expect_error "profreport: ingest: '$S/sadf.json':1:1: expected the sadf -d header" "sadf -j forced as sadf -d"
run "$P" ingest --format sadf-json "$S/sadf-cpu.csv" -o err.db
expect_error "profreport: ingest: '$S/sadf-cpu.csv':1:1:" "sadf -d forced as sadf -j"
run "$P" ingest --format pidstat "$S/sadf-cpu.csv" -o err.db
expect_error "profreport: ingest: '$S/sadf-cpu.csv':1:1: expected pidstat's banner" "sadf forced as pidstat"
# sar's own text report has pidstat's banner but no PID/Command table: not pidstat
printf 'Linux 6.1.0 (vm) \t11/24/26 \t_x86_64_\t(2 CPU)\n\n11:08:45 AM  CPU  %%user\n11:08:46 AM  all  1.00\n' >sar.txt
run "$P" ingest sar.txt -o err.db
expect_error "profreport: ingest: 'sar.txt': unrecognized input format" "sar text is not detected as pidstat"
run "$P" ingest --format pidstat sar.txt -o err.db
expect_error "profreport: ingest: 'sar.txt':4:1: no pidstat table" "sar text forced as pidstat"

# -- issue 29: sadf -d -- -I ALL -P ALL (also in -A): the "CPU*" header has one
# column per CPU, "all" first; its rows were all skipped as bad field counts.
# Each value is intr.<INTR> (1/s) on device "" (all) or cpuN, checked against
# the CSV itself.
run "$P" ingest "$S/sadf-intr.csv" -o intr.db
expect_rc 0 "sadf -I ALL -P ALL"
[ "$(query_value intr.db "SELECT count(*) FROM diag")" = 0 ] || fail "sadf -I ALL -P ALL: diagnostics $(query_value intr.db "SELECT group_concat(code) FROM diag")"
"$P" query intr.db "SELECT name, device, count, max FROM series WHERE name LIKE 'intr.%' ORDER BY name, device" >intr.got
"$PY" - "$S/sadf-intr.csv" intr.got >intr.out 2>&1 <<'PYEOF' || fail "sadf-intr: $(cat intr.out)"
import sys
rows = [l.rstrip("\n").split(";") for l in open(sys.argv[1]) if not l.startswith("#")]
want = {}
for r in rows:
    for k, v in enumerate(r[4:]):
        dev = "" if k == 0 else "cpu%d" % (k - 1)
        key = ("intr." + r[3], dev)
        c, m = want.get(key, (0, None))
        want[key] = (c + 1, float(v) if m is None else max(m, float(v)))
    assert abs(float(r[4]) - sum(float(v) for v in r[5:])) < 0.011, "all != sum of CPUs: %r" % r
got = {}
for l in open(sys.argv[2]).read().splitlines()[1:]:
    name, dev, count, mx = l.split("\t")
    got[(name, dev)] = (int(count), float(mx))
assert set(got) == set(want), sorted(set(got) ^ set(want))[:5]
for k in want:
    assert got[k][0] == want[k][0] and abs(got[k][1] - want[k][1]) < 1e-9, (k, got[k], want[k])
print("ok", len(want), "series")
PYEOF

finish
