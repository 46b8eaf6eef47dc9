#!/bin/sh
# t0051-agg-stream: the aggregate keeps no rank's row in memory
# (analyze/multi/aggregate.h): each row goes to a scratch file, agg.json is
# written from it a row at a time, and an agg.json input is read a row at a
# time. Checked here: an agg.json in another form (top-level keys but
# "schema" reversed, so "ranks" comes before "stats"; compact; reals in
# Python's shortest form; a key of no use)
# aggregates to the same bytes; a broken row is reported at its line; the
# console table of 80 ranks shows 64 and counts the rest; a reduce of an
# agg.json of 10 000 rows keeps every row and its peak RSS stays far below
# what the rows would take as trees (about 9 KB a rank: 90 MB here); a
# scratch file that cannot be written fails the command with one line; no
# temporary file is left behind.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=python3

"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks 80 --steps 2 --straggler 33 --out gen >/dev/null ||
	fail "setup: make_ranks.py"

# -- the console: 64 rows of the per-rank table, then how many more
run "$P" aggregate gen -o direct.json
expect_rc 0 "aggregate of 80 ranks"
expect_out_has "  ... and 16 more ranks (see agg.json)" "per-rank table: the count of the rows not shown"
rows=$(awk '/^Per rank$/ { on = 1; next } on && /^ *[0-9]+  / { n++ } on && /more ranks/ { on = 0 }
	END { print n + 0 }' "$tmp/out")
[ "$rows" = 64 ] || fail "per-rank table: $rows rows, expected 64"
expect_out_has "  rank 33:" "the straggler is named"
expect_out_has "    dataloader 2.98x the median" "the straggler's evidence"

# -- an agg.json in another form reads to the same aggregate
run "$P" aggregate direct.json -q -o once.json
expect_rc 0 "aggregate of agg.json"
"$py" - direct.json compact.json <<'EOF' || fail "setup: compact.json"
import json, sys
d = json.load(open(sys.argv[1]))
keys = list(d)
assert keys.index("ranks") > keys.index("stats")
# "schema" first (aggregate knows an agg.json by it in the first 4 KiB), then the
# other keys reversed: "ranks" before "stats"; the rows' own key order kept
r = {"schema": d["schema"]}
r.update((k, d[k]) for k in reversed(keys) if k != "schema")
r["a key of no use"] = {"x": [1, {"y": None}], "s": "\u00e9\"\\"}
with open(sys.argv[2], "w") as f:
    json.dump(r, f, separators=(",", ":"))
EOF
run "$P" aggregate compact.json -q -o again.json
expect_rc 0 "aggregate of the compact agg.json"
cmp -s once.json again.json || fail "compact agg.json (ranks first) aggregates differently"

# -- a broken row: exit 2, one line naming its line in the file
line=$(awk '/^ "ranks": \[/ { on = 1 } on && /"rank": 40,/ { print NR; exit }' direct.json)
[ -n "$line" ] || fail "setup: rank 40's row not found"
sed "${line}s/\"rank\": 40,/\"rank\": 40,,/" direct.json >broken.json
run "$P" aggregate broken.json -q -o x.json
expect_error "profreport: aggregate: 'broken.json':$line:" "a broken row"
expect_err_has "string or '}' expected near ','" "a broken row: what was expected"
head -c 100000 direct.json >cut.json
run "$P" aggregate cut.json -q -o x.json
expect_error "profreport: aggregate: 'cut.json':" "a cut agg.json"
[ ! -e x.json ] || fail "a failed aggregate left x.json behind"

# -- 10 000 rows (copies of rank 0's row, ranks 0-9999): every row through, memory flat
"$py" - direct.json big.json <<'EOF' || fail "setup: big.json"
import json, sys
d = json.load(open(sys.argv[1]))
row = d["ranks"][0]
rows = []
for r in range(10000):
    x = dict(row)
    x["rank"] = r
    x["source"] = "node%d/rank%d.pt.trace.json" % (r % 4, r)
    x["content_hash"] = "%032x" % r
    rows.append(x)
d["ranks"] = rows
with open(sys.argv[2], "w") as f:
    json.dump(d, f, indent=1)
EOF
if [ -x /usr/bin/time ]; then
	run /usr/bin/time -f '%M' -o rss.txt "$P" aggregate big.json -q -o bigout.json
else
	run "$P" aggregate big.json -q -o bigout.json
fi
expect_rc 0 "aggregate of an agg.json of 10 000 rows"
grep -q '"rank_count": 10000,' bigout.json || fail "the reduce does not count 10 000 ranks"
"$py" - big.json bigout.json <<'EOF' || fail "the reduce changed rows"
import json, sys
a, b = (json.load(open(p))["ranks"] for p in sys.argv[1:3])
sys.exit(0 if a == b and [list(x) for x in a] == [list(x) for x in b] else 1)
EOF
# ASan's shadow memory and quarantine make RSS meaningless there
if [ -s rss.txt ] && ! ldd "$P" 2>/dev/null | grep -q libasan; then
	kb=$(tail -n 1 rss.txt)
	[ "$kb" -lt 65536 ] || fail "reduce of 10 000 rows: peak RSS $kb KB, expected < 64 MB"
fi

# -- a scratch file that cannot grow: with a file size limit (SIGXFSZ ignored), writing past it
# fails with EFBIG; the rows of big.json take about 15 MB there, the limit is 1-2 MB
run sh -c 'trap "" XFSZ; ulimit -f 2048 && exec "$0" aggregate big.json -q -o /dev/null' "$P"
expect_error "profreport: aggregate: 'big.json': scratch file of the rank rows: File too large" \
	"a scratch file that cannot be written"

ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "aggregate left temporary files: $(cat leftover)"

finish
