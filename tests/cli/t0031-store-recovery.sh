#!/bin/sh
# t0031-store-recovery: a store after an ingest killed mid-way or stopped by a
# full disk (README, "The event store"): every command, read-only ones
# included, rolls the unfinished write back, says so once on stderr, and
# finds the runs stored before it unchanged.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_gen
note="note: rolled back an unfinished write"

"$P" ingest -q "$VIZ" -o s.db || fail "setup: ingest of the viztracer sample failed"
"$P" dump events s.db >dump.before
size0=$(stat -c %s s.db)
# 150 MB of Kineto-like trace: a store of ~45 MB, more than SQLite's 32 MiB
# page cache, so the ingest writes pages into s.db before its commit.
"$gen" 150 1 -o big.json 2>/dev/null || fail "setup: gen_trace failed"

# -- kill -9 the ingest once s.db has grown: the file then holds pages of an
# uncommitted transaction and s.db-journal the pages they replaced.
"$P" ingest -q big.json -o s.db 2>/dev/null &
ingest=$!
n=0
while [ "$(stat -c %s s.db)" -le "$size0" ] && [ "$n" -lt 2000 ] && kill -0 "$ingest" 2>/dev/null; do
	sleep 0.01
	n=$((n + 1))
done
kill -9 "$ingest" 2>/dev/null || fail "setup: the ingest ended before it could be killed"
wait "$ingest" 2>/dev/null || true
[ -s s.db-journal ] || fail "setup: no journal left by the killed ingest"
[ "$(stat -c %s s.db)" -gt "$size0" ] || fail "setup: s.db did not grow before the kill"

# Copies of the crashed store for each command (a journal belongs to the
# store of the same name plus "-journal").
for c in query dump summary ingest report; do
	cp s.db "$c.db"
	cp s.db-journal "$c.db-journal"
done

# check CMD STORE: one note on stderr, no journal left, the store back to its
# size before the killed ingest and holding the same run.
check() {
	[ "$(grep -c "$note" "$tmp/err")" = 1 ] || { fail "$1: no single '$note' line on stderr"; show; }
	[ ! -e "$2-journal" ] || fail "$1: the journal is still there"
	[ "$(stat -c %s "$2")" = "$size0" ] || fail "$1: $2 is $(stat -c %s "$2") bytes, was $size0"
	"$P" dump events "$2" >dump.after 2>dump.err || fail "$1: dump after recovery failed"
	cmp -s dump.before dump.after || fail "$1: the store differs from before the killed ingest"
	[ ! -s dump.err ] || fail "$1: the second open still printed: $(cat dump.err)"
}

run "$P" query query.db "SELECT id, label FROM run"
expect_rc 0 "query of a crashed store"
[ "$(cat "$tmp/out")" = "$(printf 'id\tlabel\n1\tviztracer_like.json')" ] ||
	{ fail "query of a crashed store: not exactly run 1"; show; }
check query query.db

run "$P" dump events dump.db
expect_rc 0 "dump of a crashed store"
cmp -s "$tmp/out" dump.before || fail "dump of a crashed store: not the dump from before"
check dump dump.db

run "$P" summary summary.db
expect_rc 0 "summary of a crashed store"
expect_out_has "run 1: viztracer_like.json" "summary of a crashed store"
check summary summary.db

# (--no-cache: the model cache would add its rows to the store, which check
# compares with its size before the killed ingest)
run "$P" report report.db --no-cache -o r.html
expect_rc 0 "report of a crashed store"
check report report.db

# A read-write open (ingest) rolls back too, and adds its run.
run "$P" ingest -q "$TORCH" -o ingest.db
expect_rc 0 "ingest into a crashed store"
[ "$(grep -c "$note" "$tmp/err")" = 1 ] || { fail "ingest into a crashed store: no single note"; show; }
[ "$(query_value ingest.db "SELECT group_concat(label, ' ') FROM run")" = "viztracer_like.json trace_rank0.pt.trace.json" ] ||
	fail "ingest into a crashed store: runs are not run 1 and the new one"

# Without write access to the store's directory the journal cannot be
# rolled back: the command fails and says why (and reads nothing of the
# half-written file). Root ignores permissions, so root runs this as nobody.
mkdir rodir
cp s.db s.db-journal rodir/
chmod 755 rodir
chmod 644 rodir/s.db rodir/s.db-journal
as_user=
if [ "$(id -u)" = 0 ]; then
	command -v runuser >/dev/null 2>&1 && id nobody >/dev/null 2>&1 && as_user="runuser -u nobody --"
	chmod 755 "$tmp"
	chown root rodir rodir/s.db rodir/s.db-journal
else
	chmod a-w rodir
fi
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
	run $as_user "$P" query rodir/s.db "SELECT count(*) FROM run"
	expect_rc 2 "query of a crashed store without write access"
	expect_one_err_line "query of a crashed store without write access"
	expect_err_has "profreport: query: 'rodir/s.db': an interrupted write left a hot journal ('rodir/s.db-journal'); rolling it back needs write access" \
		"query of a crashed store without write access"
	[ -s rodir/s.db-journal ] || fail "the journal went without write access"
else
	echo "$test_name: root without runuser/nobody; the no-write-access check skipped" >&2
fi
chmod 755 rodir

# Only write access could roll the journal back: a read-only user query
# still cannot write (query's guarantee), after the recovery as before.
run "$P" query query.db "DELETE FROM run"
expect_rc 2 "query DELETE after recovery"
expect_err_has "only read-only statements are allowed" "query DELETE after recovery"
[ "$(query_value query.db "SELECT count(*) FROM run")" = 1 ] || fail "query DELETE removed runs"

# -- a full disk: the ingest fails (exit 2), and leaves the store as it was:
# its size, its runs, no journal for the next process to recover. Needs a
# small tmpfs (root); skipped where mount is not allowed.
mkdir small
if mount -t tmpfs -o size=8m tmpfs small 2>/dev/null; then
	trap 'umount "$tmp/small" 2>/dev/null || :; rm -rf "$tmp"' EXIT
	"$P" ingest -q "$VIZ" -o small/f.db || fail "setup: ingest into the tmpfs failed"
	run "$P" ingest -q big.json -o small/f.db
	expect_rc 2 "ingest onto a full disk"
	expect_err_has "disk is full" "ingest onto a full disk"
	[ ! -e small/f.db-journal ] || fail "ingest onto a full disk: the journal was left behind"
	[ "$(stat -c %s small/f.db)" = "$size0" ] || fail "ingest onto a full disk: the store did not shrink back"
	"$P" dump events small/f.db >dump.after 2>dump.err || fail "dump after a full disk failed"
	cmp -s dump.before dump.after || fail "ingest onto a full disk: the store changed"
	[ ! -s dump.err ] || fail "dump after a full disk printed: $(cat dump.err)"
	umount small
else
	echo "$test_name: cannot mount a tmpfs (not root?); full-disk checks skipped" >&2
fi
rm -f big.json

finish
