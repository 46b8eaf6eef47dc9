#!/bin/sh
# t0052-spans-stream: the span statistics' second pass (analyze/spanstat.h)
# reads the spans of the groups it needs back from a stream that the first
# pass wrote: in memory up to 1 MiB, then an unlinked scratch file in
# $TMPDIR. A run of 60 000 spans (1.2 MB of records) goes to the file.
# Checked here: the medians and counts of the top spans equal those python
# computes over the trace itself; a scratch directory that does not exist,
# or a file that cannot grow, fails the command with one line; no
# temporary file is left behind.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=python3

"$py" - t.json want.txt <<'EOF' || fail "setup: t.json"
import json, random, statistics, sys
random.seed(7)
ev, ts, durs = [], 0, {}
for i in range(60000):
    d = random.randint(1, 500)
    name = "op%d" % (i % 5)
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": d})
    durs.setdefault(name, []).append(d * 1000)
    ts += d + 1
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
with open(sys.argv[2], "w") as f:
    for name in sorted(durs):
        f.write("%s %d %d\n" % (name, len(durs[name]), statistics.median(durs[name])))
EOF

run "$P" ingest t.json -o t.db
expect_rc 0 "ingest of 60 000 spans"

run "$P" summary t.db --json m.json
expect_rc 0 "summary (the second pass through a scratch file)"
"$py" - m.json >got.txt <<'EOF' || fail "reading the model"
import json, sys
m = json.load(open(sys.argv[1]))
for x in sorted(m["runs"][0]["bottlenecks"]["top_total"], key=lambda x: x["name"]):
    print(x["name"], x["count"], int(x["median_ns"]))
EOF
cmp -s want.txt got.txt || fail "medians: got $(cat got.txt), want $(cat want.txt)"

# -- no scratch directory: one line naming it, nothing on stdout
run env TMPDIR=/nonexistent/profreport "$P" summary t.db
expect_error "profreport: summary: cannot create a scratch file for the spans' durations in '/nonexistent/profreport': No such file or directory" \
	"a scratch directory that does not exist"

# -- a scratch file that cannot grow past 512 KB (SIGXFSZ ignored): EFBIG
run sh -c 'trap "" XFSZ; ulimit -f 1024 && exec "$0" summary t.db' "$P"
expect_error "profreport: summary: scratch file of the spans' durations: File too large" \
	"a scratch file that cannot be written"

ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "summary left temporary files: $(cat leftover)"

finish
