#!/bin/sh
# t0083-full-disk: issue 30 C5 on a store whose disk fills up: a 616 KiB
# tmpfs where this user may mount one, else a file size limit (ulimit -f,
# SIGXFSZ ignored: writes past it fail with EFBIG). An ingest of many files
# into a store that fills up says so in one line (it used to add "the 0
# file(s) before this error are not stored: an I/O error rolled back ..."),
# keeps the runs stored before, and a store that could not even be set up is
# not left behind as an empty file.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

mkdir fs
# 616k: the run_meta table of schema version 5 took one more 16 KiB page of the first store; at
# 600k the disk now fills while the group's savepoint is written, and the ingest says it in 3
# lines (the group lost, the file's error, the next group's commit), not 1
if [ -z "${PR_T0083_NO_MOUNT:-}" ] && mount -t tmpfs -o size=616k tmpfs fs 2>/dev/null; then
	trap 'umount "$tmp/fs" 2>/dev/null; rm -rf "$tmp"' EXIT
	limit=
else
	echo "$test_name: no tmpfs here (not root, or no CAP_SYS_ADMIN): a file size limit instead" >&2
	limit=1
fi
# full BLOCKS CMD...: CMD on the full disk (under the tmpfs, or with ulimit -f BLOCKS)
full() {
	blocks=$1
	shift
	if [ -n "$limit" ]; then
		run sh -c 'trap "" XFSZ; ulimit -f "$0"; exec "$@"' "$blocks" "$@"
	else
		run "$@"
	fi
}

"$P" ingest -q "$PR_SAMPLES/qeff/qeff_profile.json" -o fs/a.db || fail "setup: the first ingest failed"
full 700 "$P" ingest "$TORCH" "$PR_SAMPLES/ddp" -o fs/a.db
expect_rc 2 "ingest into a store on a disk that fills up"
expect_one_err_line "ingest into a store on a disk that fills up"
expect_err_has "the 9 file(s) before this error are not stored" "ingest into a store on a disk that fills up"
[ "$(query_value fs/a.db 'SELECT count(*) FROM run')" = 1 ] ||
	fail "the run stored before the full disk is gone"

rm -f fs/a.db
[ -n "$limit" ] || dd if=/dev/zero of=fs/fill bs=1k count=1000 2>/dev/null || true
full 2 "$P" ingest "$TORCH" -o fs/new.db
expect_rc 2 "ingest into a new store on a full disk"
expect_one_err_line "ingest into a new store on a full disk"
[ ! -e fs/new.db ] || fail "ingest into a new store on a full disk left '$(ls -l fs/new.db)'"
finish
