#!/bin/sh
# golden_run.sh CASE_DIR - one golden ingest case (STYLE.md rule 18).
#
# A case directory holds:
#   input.*        the input file(s), ingested in name order
#   args           optional: extra ingest arguments, e.g. "--format chrome"
#   checks         required: the case's facts, each derived from the input
#                  without profreport (tests/tools/checks.py says how to
#                  write them). A checks file with an `error` fact declares
#                  that the ingest must fail; any other case must succeed.
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
# The facts are checked on the actual output (the store and its dump, or the
# error line) before anything is compared or rewritten: a case whose facts
# fail fails, in update mode too, and its golden file is left as it was.
#
# PR_UPDATE_GOLDEN=1 rewrites expected.dump (or, for a case whose checks
# declare an error, error) from the actual output instead of comparing; use
# tests/tools/golden_update.sh, which never keeps the files of a failing test
# and prints what changed. A failing ingest never becomes an error golden
# unless the checks file says that an error is expected.
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
tools=$(cd "$(dirname "$0")" && pwd)
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

checks=$case_dir/checks
[ -f "$checks" ] || fail "no 'checks' file: every case needs facts derived from its input without profreport (see tests/golden/ingest/README.md)"
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3) || fail "no python3 to check the case's facts"

# An `error` fact declares an expected error.
want_error=0
if grep -Eq '^[[:space:]]*error[[:space:]]' "$checks"; then
	want_error=1
fi
if [ "$update" != 1 ]; then
	if [ $want_error = 1 ] && [ -f "$case_dir/expected.dump" ]; then
		fail "checks has an 'error' fact but the case has expected.dump"
	fi
	if [ $want_error = 0 ] && [ -f "$case_dir/error" ]; then
		fail "the case has an 'error' golden but checks has no 'error' fact (an error case must declare it)"
	fi
fi

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

# check_facts ARGS...: the case's facts hold on the actual output.
check_facts() {
	"$python" "$tools/checks.py" "$checks" "$@" >checks.out 2>&1 || {
		cat checks.out >&2
		if [ "$update" = 1 ]; then
			fail "facts in checks do not hold (above); nothing was rewritten"
		fi
		fail "facts in checks do not hold (above)"
	}
}

if [ $want_error = 1 ]; then
	[ $rc -eq 2 ] || {
		cat ingest.err >&2
		fail "ingest should exit 2 (checks has an 'error' fact), exited $rc"
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
	check_facts --error stderr.norm
	if [ "$update" = 1 ]; then
		cp stderr.norm "$case_dir/error"
		rm -f "$case_dir/expected.dump"
		echo "golden/ingest/$name: wrote error"
		exit 0
	fi
	[ -f "$case_dir/error" ] || fail "no 'error' file (tests/tools/golden_update.sh writes it)"
	[ "$(wc -l <"$case_dir/error")" -eq 1 ] || fail "'error' must hold exactly one line"
	if ! cmp -s "$case_dir/error" stderr.norm; then
		diff -u "$case_dir/error" stderr.norm >&2 || true
		fail "the error line differs (expected ':LINE:COL: message' as in 'error')"
	fi
	exit 0
fi

[ $rc -eq 0 ] || {
	cat ingest.err >&2
	fail "ingest exited $rc (an expected error must be declared by an 'error' fact in checks)"
}
"$PROFREPORT" dump events store.db >actual 2>dump.err || {
	cat dump.err >&2
	fail "dump events exited non-zero"
}
check_facts --store store.db --dump actual
if [ "$update" = 1 ]; then
	cp actual "$case_dir/expected.dump"
	rm -f "$case_dir/error"
	echo "golden/ingest/$name: wrote expected.dump"
	exit 0
fi
[ -f "$case_dir/expected.dump" ] || fail "no expected.dump (tests/tools/golden_update.sh writes it)"
if ! diff -u "$case_dir/expected.dump" actual >&2; then
	fail "dump differs from expected.dump (diff above; tests/tools/golden_update.sh rewrites it)"
fi
exit 0
