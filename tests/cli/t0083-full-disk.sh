#!/bin/sh
# t0083-full-disk: issue 30 C5 on a real full file system (a 600 KiB tmpfs;
# skipped where this user cannot mount one). An ingest into a store on a
# disk that fills up says so in one line (it used to add "the 0 file(s)
# before this error are not stored: an I/O error rolled back ..."), keeps
# the runs stored before, and a store that could not even be set up is not
# left behind as an empty file.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

mkdir fs
if ! mount -t tmpfs -o size=600k tmpfs fs 2>/dev/null; then
	echo "$test_name: cannot mount a tmpfs here (not root, or no CAP_SYS_ADMIN); skipped" >&2
	exit 77
fi
trap 'umount "$tmp/fs" 2>/dev/null; rm -rf "$tmp"' EXIT

"$P" ingest -q "$PR_SAMPLES/qeff/qeff_profile.json" -o fs/a.db || fail "setup: the first ingest failed"
run "$P" ingest "$TORCH" "$PR_SAMPLES/ddp" -o fs/a.db
expect_rc 2 "ingest into a store on a disk that fills up"
expect_one_err_line "ingest into a store on a disk that fills up"
expect_err_has "database or disk is full" "ingest into a store on a disk that fills up"
[ "$(query_value fs/a.db 'SELECT count(*) FROM run')" = 1 ] ||
	fail "the run stored before the full disk is gone"

rm -f fs/a.db
dd if=/dev/zero of=fs/fill bs=1k count=1000 2>/dev/null || true
run "$P" ingest "$TORCH" -o fs/new.db
expect_rc 2 "ingest into a new store on a full disk"
expect_one_err_line "ingest into a new store on a full disk"
[ ! -e fs/new.db ] || fail "ingest into a new store on a full disk left '$(ls -l fs/new.db)'"
finish
