#!/bin/sh
# t0030-store-concurrent: several processes on one store at once (README, "The
# event store": creating a store is one exclusive transaction; a process that
# finds the store locked waits for the holder, saying so once after 5 s,
# instead of failing with "database is locked").
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# trace N: a one-span trace whose content differs per N, so that every file
# becomes its own run (same content would be reported as already stored).
trace() {
	printf '{"traceEvents": [{"name": "op%s", "ph": "X", "ts": 0, "dur": %s, "pid": 1, "tid": 1}]}\n' "$1" "$1" >"t$1.json"
}
for i in 1 2 3 4; do
	trace "$i"
done

# -- 4 ingests create the same new store at the same time, 20 times: every
# run must be in the store every time (before the fix, one of them failed
# with "sqlite: table run already exists" in most rounds).
lost=0
round=1
while [ "$round" -le 20 ]; do
	rm -f c.db c.db-journal
	for i in 1 2 3 4; do
		"$P" ingest -q "t$i.json" -o c.db 2>"err.$i" &
	done
	wait
	n=$(query_value c.db "SELECT count(*) FROM run" 2>/dev/null || echo 0)
	if [ "$n" != 4 ]; then
		lost=$((lost + 1))
		[ "$lost" -gt 1 ] || { echo "round $round: $n runs of 4:"; cat err.1 err.2 err.3 err.4; } >&2
	fi
	round=$((round + 1))
done
[ "$lost" -eq 0 ] || fail "concurrent creation: runs were lost in $lost of 20 rounds"

# -- an ingest that fails (it created the store and stored nothing, so it
# removes the store) racing one that succeeds: the good run must survive.
printf 'not a trace\n' >bad.json
lost=0
round=1
while [ "$round" -le 10 ]; do
	rm -f r.db r.db-journal
	"$P" ingest -q bad.json --format chrome -o r.db 2>/dev/null &
	"$P" ingest -q t1.json -o r.db 2>"err.good" &
	wait
	n=$(query_value r.db "SELECT count(*) FROM run" 2>/dev/null || echo 0)
	if [ "$n" != 1 ]; then
		lost=$((lost + 1))
		[ "$lost" -gt 1 ] || { echo "round $round: $n runs of 1:"; cat err.good; } >&2
	fi
	round=$((round + 1))
done
[ "$lost" -eq 0 ] || fail "failed ingest beside a good one: the good run was lost in $lost of 10 rounds"

# -- a writer that holds the store longer than the 5 s busy timeout: an
# ingest and a reader started meanwhile wait for it, say so once, and then
# succeed. The lock holder is Python's sqlite3 (an EXCLUSIVE transaction,
# which also keeps readers out, as a big ingest does once SQLite spills its
# cache to the file).
if python3 -c 'import sqlite3' 2>/dev/null; then
	"$P" ingest -q t1.json -o held.db || fail "setup: ingest into held.db failed"
	python3 -c '
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(6)
db.execute("COMMIT")
' held.db locked &
	holder=$!
	while [ ! -e locked ]; do sleep 0.1; done
	"$P" ingest -q t2.json -o held.db >out.ingest 2>err.ingest &
	ingest=$!
	"$P" query held.db "SELECT count(*) FROM run" >out.query 2>err.query &
	query=$!
	wait "$ingest" || fail "ingest while another process held the store exited $?: $(cat err.ingest)"
	wait "$query" || fail "query while another process held the store exited $?: $(cat err.query)"
	wait "$holder"
	for c in ingest query; do
		grep -q "database is locked" "err.$c" && fail "$c: 'database is locked': $(cat "err.$c")"
		[ "$(grep -c "waiting for another process" "err.$c")" = 1 ] ||
			fail "$c: no single 'waiting for another process' notice: $(cat "err.$c")"
	done
	[ "$(sed -n 2p out.query)" -ge 1 ] 2>/dev/null || fail "query while held: no count: $(cat out.query)"
	[ "$(query_value held.db "SELECT count(*) FROM run")" = 2 ] ||
		fail "ingest while held: the store should hold 2 runs"
else
	echo "$test_name: python3 with sqlite3 not found; lock-holder checks skipped" >&2
fi

finish
