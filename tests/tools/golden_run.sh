#!/bin/sh
# golden_run.sh CASE_DIR - one golden ingest case (STYLE.md rule 18).
#
# A case directory holds:
#   input.*        the input file(s), ingested in name order
#   args           optional: extra ingest arguments, e.g. "--format chrome"
#   expected.dump  the expected `profreport dump events` output, or
#   error          the one line the failing ingest must print on stderr
#                  (exit status 2), with the input named as 'input.EXT'.
#
# The inputs are copied into a temporary directory and ingested from there
# under their own names, so neither the dump nor the error line depends on
# where the checkout lives; any remaining mention of the temporary directory
# in stderr is replaced by nothing before comparing. An error case must also
# leave the store without any run.
#
# PR_UPDATE_GOLDEN=1 rewrites expected.dump or error from the actual output
# instead of comparing (review the diff before committing it).
#
# Environment (set by ctest): PROFREPORT, TZ=UTC, LC_ALL=C.
# Exit status: 0 pass, 1 fail, 2 misuse.
set -eu

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: golden_run.sh CASE_DIR" >&2
	exit 2
fi
case_dir=$(cd "$1" && pwd)
name=$(basename "$case_dir")
: "${PROFREPORT:?PROFREPORT must name the profreport binary}"
case $PROFREPORT in
/*) ;;
*) PROFREPORT=$(pwd)/$PROFREPORT ;;
esac
export TZ=UTC LC_ALL=C
update=${PR_UPDATE_GOLDEN:-0}

fail() {
	echo "golden/ingest/$name: FAIL: $*" >&2
	exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

inputs=
for f in "$case_dir"/input.*; do
	[ -f "$f" ] || continue
	cp "$f" "$tmp/"
	inputs="$inputs $(basename "$f")"
done
[ -n "$inputs" ] || fail "no input.* file in $case_dir"
extra=
if [ -f "$case_dir/args" ]; then
	extra=$(cat "$case_dir/args")
fi

cd "$tmp"
set +e
# $inputs and $extra are split into words on purpose (names without spaces).
# shellcheck disable=SC2086
"$PROFREPORT" ingest $extra $inputs -o store.db >ingest.out 2>ingest.err
rc=$?
set -e
# The temporary directory, with and without a trailing slash.
sed -e "s|$tmp/||g" -e "s|$tmp||g" ingest.err >stderr.norm

want_error=0
if [ -f "$case_dir/error" ]; then
	want_error=1
elif [ ! -f "$case_dir/expected.dump" ] && [ "$update" = 1 ] && [ $rc -eq 2 ]; then
	want_error=1 # a new case that fails: record the error
fi

if [ $want_error = 1 ]; then
	[ $rc -eq 2 ] || {
		cat ingest.err >&2
		fail "ingest should exit 2, exited $rc"
	}
	[ "$(wc -l <stderr.norm)" -eq 1 ] || {
		cat ingest.err >&2
		fail "ingest should print exactly one line on stderr"
	}
	if [ -f store.db ]; then
		"$PROFREPORT" dump events store.db >left.dump 2>left.err ||
			fail "dump of the store after the failed ingest: $(cat left.err)"
		[ ! -s left.dump ] || {
			head -5 left.dump >&2
			fail "the failed ingest left rows in the store"
		}
	fi
	if [ "$update" = 1 ]; then
		cp stderr.norm "$case_dir/error"
		echo "golden/ingest/$name: wrote error"
		exit 0
	fi
	[ "$(wc -l <"$case_dir/error")" -eq 1 ] || fail "'error' must hold exactly one line"
	if ! cmp -s "$case_dir/error" stderr.norm; then
		diff -u "$case_dir/error" stderr.norm >&2 || true
		fail "the error line differs (expected ':LINE:COL: message' as in 'error')"
	fi
	exit 0
fi

[ $rc -eq 0 ] || {
	cat ingest.err >&2
	fail "ingest exited $rc"
}
"$PROFREPORT" dump events store.db >actual 2>dump.err || {
	cat dump.err >&2
	fail "dump events exited non-zero"
}
if [ "$update" = 1 ]; then
	cp actual "$case_dir/expected.dump"
	echo "golden/ingest/$name: wrote expected.dump"
	exit 0
fi
[ -f "$case_dir/expected.dump" ] || fail "no expected.dump (run with PR_UPDATE_GOLDEN=1)"
if ! diff -u "$case_dir/expected.dump" actual >&2; then
	fail "dump differs from expected.dump (diff above; PR_UPDATE_GOLDEN=1 rewrites it)"
fi
exit 0
