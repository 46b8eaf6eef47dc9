#!/bin/sh
# t0167-jobs-memory: memory per worker of aggregate -j N and report -j N
# (docs/aggregate.md and docs/report.md, "-j N"; issue 32: "memory bounded
# per worker and stated"). Each worker holds one rank's ingest and model
# (aggregate) or one run's model and page (report), as the one process
# does, and the parent no more than -j 1: so the largest process of -j 4
# (the parent or a worker: GNU time's peak RSS, which covers the children
# it reaps) stays within 1.5x of -j 1's peak. (t0130 checks the same for
# ingest -j.) The outputs of both are compared with -j 1's, so the runs
# measured did their work.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if [ ! -x /usr/bin/time ]; then
	echo "$test_name: /usr/bin/time missing; skipped" >&2
	exit 77
fi
need_gen
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# peak J CMD...: runs CMD under GNU time, prints its peak RSS in KB
peak() {
	/usr/bin/time -f %M -o "rss.txt" "$@" || fail "$*: exit status $?"
	tail -n 1 rss.txt
}

# within NAME R1 R4: R4 at most 1.5x R1
within() {
	[ "$3" -le $(($2 * 3 / 2)) ] || fail "$1: -j 4 peak RSS $3 KB, over 1.5x -j 1's $2 KB"
}

# -- aggregate of 48 ranks (5 steps each)
"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks 48 --steps 5 --straggler 20 --out ranks \
	>/dev/null || fail "setup: make_ranks.py"
a1=$(peak "$P" aggregate -q -j 1 ranks -o a1.json)
a4=$(peak "$P" aggregate -q -j 4 ranks -o a4.json)
cmp -s a1.json a4.json || fail "aggregate: agg.json of -j 4 differs from -j 1"
within aggregate "$a1" "$a4"

# -- report of an archive store of 16 runs of 200 KB, every page written
mkdir runs
i=1
while [ "$i" -le 16 ]; do
	"$gen" 0.2 "$i" -o "runs/r$i.json" 2>/dev/null || fail "setup: gen_trace $i"
	i=$((i + 1))
done
"$P" ingest -q runs -o runs.db || fail "setup: ingest"
cp runs.db runs4.db
r1=$(peak "$P" report -q -j 1 runs.db -o site1/)
r4=$(peak "$P" report -q -j 4 runs4.db -o site4/)
diff -r site1 site4 >/dev/null || fail "report: the site of -j 4 differs from -j 1's"
[ "$(find site1 -name '*.html' | wc -l)" -eq 17 ] || fail "report: expected 16 pages and the index"
within report "$r1" "$r4"
echo "$test_name: peak RSS KB, -j 1 / -j 4: aggregate $a1 / $a4, report $r1 / $r4" >&2
