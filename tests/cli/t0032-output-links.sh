#!/bin/sh
# t0032-output-links: an output path that is a symbolic link (README,
# "Commands"): the file the link names is replaced like a regular output (a
# temporary file next to it, renamed onto it), so the link stays a link and
# a write that fails (a full disk) leaves the old file whole. /dev/stdout
# and devices are still written in place.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

"$P" ingest -q "$VIZ" -o s.db || fail "setup: ingest failed"
"$P" summary s.db --json model.json >/dev/null || fail "setup: summary --json failed"

# no_temps DIR...: no "*.tmp.*" left in the directories
no_temps() {
	for d in "$@"; do
		left=$(find "$d" -name '*.tmp.*' | head -n 3)
		[ -z "$left" ] || fail "temporary files left behind: $left"
	done
}

# -- a link into another directory: the target is replaced (a new inode,
# as a rename makes), the link is still the same link.
mkdir archive
echo "old report" >archive/target.json
ln -s archive/target.json link.json
ino=$(stat -c %i archive/target.json)
run "$P" summary s.db --json link.json
expect_rc 0 "summary --json through a link"
[ -L link.json ] && [ "$(readlink link.json)" = archive/target.json ] ||
	fail "the link was replaced or changed"
cmp -s archive/target.json model.json || fail "the target does not hold the model"
[ "$(stat -c %i archive/target.json)" != "$ino" ] ||
	fail "the target was rewritten in place, not replaced by a rename"
no_temps . archive

# -- a chain of links, relative to each link's own directory, ending in a
# dangling link: the file it names is created, every link stays.
mkdir -p a/b dest
ln -s ../../dest/final.json a/b/l2.json
ln -s a/b/l2.json l1.json
run "$P" summary s.db --json l1.json
expect_rc 0 "summary --json through a chain of links to a missing file"
[ -L l1.json ] && [ -L a/b/l2.json ] || fail "a link of the chain was replaced"
[ -f dest/final.json ] && [ ! -L dest/final.json ] || fail "dest/final.json was not created"
cmp -s dest/final.json model.json || fail "dest/final.json does not hold the model"
no_temps . a dest

# -- a write that fails through a link: the old file stays as it was. The
# failure is a file size limit (ulimit -f, SIGXFSZ ignored, so write()
# fails with EFBIG as it fails with ENOSPC on a full disk): before the fix
# the target was truncated in place and lost.
echo "the report of last week" >archive/keep.json
ln -s archive/keep.json keep-link.json
cp archive/keep.json keep.orig
rc=0
(
	trap '' XFSZ
	ulimit -f 1
	exec "$P" summary s.db --json keep-link.json
) >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || fail "a write failing through a link exited $rc, expected 2"
grep -q "^profreport: summary: 'keep-link.json': cannot write: File too large" "$tmp/err" ||
	{ fail "a write failing through a link: no 'cannot write' error"; show; }
[ -L keep-link.json ] || fail "a failed write replaced the link"
cmp -s archive/keep.json keep.orig || fail "a failed write through a link lost the old file"
no_temps . archive

# The same through a regular file (unchanged behaviour, for comparison).
cp keep.orig plain.json
(
	trap '' XFSZ
	ulimit -f 1
	exec "$P" summary s.db --json plain.json
) >/dev/null 2>/dev/null && fail "a write failing into a regular file succeeded"
cmp -s plain.json keep.orig || fail "a failed write lost the old regular file"
no_temps .

# -- /dev/stdout is written in place (appending where stdout appends), not
# resolved to the file behind it and replaced.
echo "first line" >log.txt
"$P" summary s.db --json /dev/stdout >>log.txt || fail "summary --json /dev/stdout failed"
[ "$(head -n 1 log.txt)" = "first line" ] || fail "writing to /dev/stdout replaced the file behind it"
grep -q '"schema": "profreport-model"' log.txt || fail "the model did not go to /dev/stdout"

# -- speedscope -o - writes the file to standard output (it used to create
# a file named "-"), and its summary line to stderr.
run "$P" speedscope s.db -o -
expect_rc 0 "speedscope -o -"
[ ! -e ./- ] || fail "speedscope -o - created a file named '-'"
[ "$(head -c 12 "$tmp/out")" = '{"$schema":"' ] || { fail "speedscope -o -: stdout is not the file"; show; }
[ "$(tail -c 3 "$tmp/out")" = ']}' ] || { fail "speedscope -o -: stdout does not end with the file's end"; show; }
expect_err_has "'standard output': 5 profiles" "speedscope -o -"

# -- a link to a device is written through (the device stays a device).
ln -s /dev/null null-link.json
run "$P" summary s.db --json null-link.json
expect_rc 0 "summary --json through a link to /dev/null"
[ -c /dev/null ] && [ -L null-link.json ] || fail "a link to /dev/null or the device was replaced"
no_temps .

# -- a directory without write permission next to the target: the error
# names the link, nothing is written (root ignores permissions: skipped).
if [ "$(id -u)" != 0 ]; then
	mkdir ro
	echo "kept" >ro/t.json
	chmod a-w ro
	ln -s ro/t.json ro-link.json
	run "$P" summary s.db --json ro-link.json
	expect_rc 2 "summary --json through a link into a read-only directory"
	expect_err_has "'ro-link.json': cannot create a file next to the file it links to" \
		"summary --json through a link into a read-only directory"
	[ "$(cat ro/t.json)" = kept ] || fail "the target in a read-only directory changed"
	chmod u+w ro
fi

finish
