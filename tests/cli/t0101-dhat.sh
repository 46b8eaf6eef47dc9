#!/bin/sh
# t0101-dhat: the Valgrind DHAT reader on the real samples in samples/dhat (heap,
# copy and ad-hoc modes). The expected numbers are derived here by python3 from the
# JSON itself (json module; sums of tb/gb/eb, tl/tbk, te/tg) and compared
# with the store read through python's sqlite3; the byte-weighted profile's
# frame totals (SUM(self) per frame) must equal the tb of the PPs whose
# innermost frame it is. The speedscope export reads it; a version other
# than 2 is an error with its position.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$PR_SAMPLES/dhat
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

for f in dhat.out.heap dhat.out.copy dhat.out.adhoc; do
	run "$P" ingest "$D/$f" -o "$f.db"
	expect_rc 0 "ingest $f"
	expect_out_has "dhat, " "ingest $f is read as dhat"
done

cat >check_dhat.py <<'PYEOF'
import json, re, sqlite3, sys

D = sys.argv[1]
bad = n = 0


def check(what, got, want):
    global bad, n
    n += 1
    if got is None or abs(got - want) > 1e-9 * max(1, abs(want)):
        print("FAIL: %s = %r, expected %r" % (what, got, want))
        bad += 1


def text(frame):
    return re.sub(r"^0x[0-9A-Fa-f]+: ", "", frame)


for fname in ["dhat.out.heap", "dhat.out.copy", "dhat.out.adhoc"]:
    doc = json.load(open(D + "/" + fname))
    c = sqlite3.connect(fname + ".db")
    met = {}
    for name, detail, v in c.execute("SELECT name, detail, value FROM metric"):
        met[(name, detail)] = v
    pps = doc["pps"]
    # ad-hoc mode counts the file's own units ("bu"), not bytes
    unit = c.execute("SELECT unit FROM metric WHERE name = 'dhat.total.bytes'").fetchone()[0]
    want_unit = "count" if doc["mode"] == "ad-hoc" else "bytes"
    if unit != want_unit:
        print("FAIL: %s: dhat.total.bytes in %r, expected %r" % (fname, unit, want_unit))
        bad += 1
    check(fname + " dhat.total.bytes", met.get(("dhat.total.bytes", "sum of tb")),
          sum(p["tb"] for p in pps))
    check(fname + " dhat.t_end", met.get(("dhat.t_end", "te")), doc["te"])
    if doc["bklt"]:
        check(fname + " dhat.gmax.bytes", met.get(("dhat.gmax.bytes", "sum of gb: live at t-gmax")),
              sum(p["gb"] for p in pps))
        check(fname + " dhat.t_gmax", met.get(("dhat.t_gmax", "tg")), doc["tg"])
    self_want = {}
    for i, p in enumerate(pps):
        detail = "pps[%d]: " % i + " <- ".join(text(doc["ftbl"][f]) for f in p["fs"])
        check(fname + " pp bytes " + detail, met.get(("dhat.pp.bytes", detail)), p["tb"])
        if doc["bklt"]:
            check(fname + " pp gmax " + detail, met.get(("dhat.pp.gmax_bytes", detail)), p["gb"])
            check(fname + " pp lifetime_avg " + detail,
                  met.get(("dhat.pp.lifetime_avg", detail)), p["tl"] / p["tbk"])
        if doc["bkacc"]:
            check(fname + " pp reads " + detail, met.get(("dhat.pp.reads", detail)), p["rb"])
        leaf = text(doc["ftbl"][p["fs"][0]])
        self_want[leaf] = self_want.get(leaf, 0) + p["tb"]
    got = dict(c.execute("SELECT st.value, SUM(s.self) FROM span s JOIN string st "
                         "ON st.id = s.name_id GROUP BY st.value HAVING SUM(s.self) > 0"))
    for leaf, w in self_want.items():
        check(fname + " profile self of " + leaf, got.get(leaf), w)
    if set(got) != set(self_want):
        print("FAIL: %s: frames with self bytes %s, expected %s" % (fname, sorted(got), sorted(self_want)))
        bad += 1
print("checked %d values" % n)
sys.exit(1 if bad else 0)
PYEOF
run "$PY" check_dhat.py "$D"
expect_rc 0 "DHAT numbers derived from the JSON"
[ "$rc" -eq 0 ] || cat "$tmp/out" >&2

# -- the profile goes to speedscope like any sampled profile
run "$P" speedscope "$D/dhat.out.heap" -o heap.speedscope.json
expect_rc 0 "speedscope of dhat.out.heap"
expect_out_has "1 profiles" "speedscope of dhat.out.heap: the byte-weighted profile"

# -- the weights are bytes allocated: speedscope's unit "bytes", never "nanoseconds"
grep -q '"unit":"bytes"' heap.speedscope.json || fail "speedscope of dhat.out.heap: unit not bytes"
grep -q '"nanoseconds"' heap.speedscope.json && fail "speedscope of dhat.out.heap says nanoseconds"

# -- summary and page: the program totals and the t-gmax peak (python above: sums of tb/tbk and
# gb/gbk = 204864 B in 21 blocks, 57408 B in 12 blocks); frames weigh bytes, never a time
run "$P" summary "$D/dhat.out.heap"
expect_rc 0 "summary of dhat.out.heap"
expect_out_has "allocated in all   200.06 KiB (204864 bytes) in 21 blocks" "DHAT total in summary"
expect_out_has "peak at t-gmax      56.06 KiB (57408 bytes) in 12 blocks" "DHAT peak in summary"
expect_out_has "t-gmax at 188608 instructions" "DHAT t-gmax in summary"
expect_out_has "Top frames by self weight" "DHAT frames weigh bytes"
if grep -E '[0-9] (ns|us|ms|s) ' "$tmp/out" | grep -v '^x axis' >/dev/null; then
	fail "summary of dhat.out.heap prints a byte weight as a time"
fi
run "$P" report "$D/dhat.out.heap" -o heap.html
expect_rc 0 "report of dhat.out.heap"
grep -q "Heap peak and totals (valgrind DHAT)" heap.html || fail "page: no DHAT peak section"
grep -q 'data-v="57408" data-u="bytes"' heap.html || fail "page: no t-gmax bytes cell"
grep -q "massif --time-unit" heap.html && fail "page describes DHAT's axis in massif's words"
grep -q 'data-u="ns"' heap.html && fail "page: a DHAT value in ns"

# -- compare weighs DHAT's frames in bytes (spans.unit), not as times
run "$P" compare "$D/dhat.out.heap" "$D/dhat.out.heap" --to json -o cmp.json
expect_rc 0 "compare of dhat.out.heap with itself"
"$PY" - cmp.json <<'PYEOF' || fail "compare: a DHAT span metric is not in bytes"
import json, sys
m = {x["id"]: x for x in json.load(open(sys.argv[1]))["metrics"]}
s = m["span:main (prog.c:56)"]
# tb of the PPs under main (prog.c:56): 40960 + 163840 (python over the JSON, above)
sys.exit(0 if s["unit"] == "bytes" and s["kind"] == "memory" and s["base"] == 204800 else 1)
PYEOF

# -- a version this reader does not know: exit 2 with the position of the value
sed 's/"dhatFileVersion":2/"dhatFileVersion":3/' "$D/dhat.out.heap" >v3.json
run "$P" ingest v3.json -o err.db
expect_error "profreport: ingest: 'v3.json':1:20: 'dhatFileVersion' is 3: not understood" "DHAT version 3"
[ ! -e err.db ] || [ "$(query_value err.db "SELECT count(*) FROM run")" = 0 ] ||
	fail "DHAT version 3 left a run behind"

finish
