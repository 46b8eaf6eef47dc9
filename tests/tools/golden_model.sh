#!/bin/sh
# golden_model.sh CASE_DIR - one golden analysis case (STYLE.md rule 18).
#
# A case directory holds:
#   input          one line: a path under samples/ (the sample is the input)
#   phases         optional, one line: a phase log under samples/, given as --phases
#   expected.model.json   `profreport report INPUT --json - --timeline-points 0`
#   expected.summary.txt  `profreport summary INPUT`
# The sample is copied into a temporary directory and analysed from there
# under its own name, so the outputs do not depend on the checkout's path.
#   checks                the facts the outputs must hold, each derived without
#                         profreport (tests/tools/checks.py); checked on every
#                         run, before comparing and before rewriting
# PR_UPDATE_GOLDEN=1 rewrites the expected files (review the diff) when every
# fact holds; it never blesses an output that breaks one.
# Environment (set by ctest): PROFREPORT, PR_SAMPLES, TZ=UTC, LC_ALL=C.
set -eu
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: golden_model.sh CASE_DIR" >&2; exit 2; }
case_dir=$(cd "$1" && pwd)
tools=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$case_dir")
: "${PROFREPORT:?}" "${PR_SAMPLES:?}"
export TZ=UTC LC_ALL=C
fail() { echo "golden/analyze/$name: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src="$PR_SAMPLES/$(cat "$case_dir/input")"
[ -f "$src" ] || fail "no sample $src"
cp "$src" "$tmp/"
in=$(basename "$src")
set --
if [ -f "$case_dir/phases" ]; then
	log="$PR_SAMPLES/$(cat "$case_dir/phases")"
	[ -f "$log" ] || fail "no phase log $log"
	cp "$log" "$tmp/"
	set -- --phases "$(basename "$log")"
fi
cd "$tmp"
"$PROFREPORT" report "$in" "$@" --json model.json --timeline-points 0 2>err ||
	fail "report: $(cat err)"
"$PROFREPORT" summary "$in" "$@" >summary.txt 2>err || fail "summary: $(cat err)"
[ -f "$case_dir/checks" ] || fail "no checks file (the facts this golden must keep; tests/tools/checks.py)"
/usr/bin/python3 "$tools/checks.py" "$case_dir/checks" --model model.json --summary summary.txt >&2 ||
	fail "a fact of $case_dir/checks does not hold (above); nothing compared or written"
if [ "${PR_UPDATE_GOLDEN:-0}" = 1 ]; then
	cp model.json "$case_dir/expected.model.json"
	cp summary.txt "$case_dir/expected.summary.txt"
	echo "golden/analyze/$name: updated"
	exit 0
fi
diff -u "$case_dir/expected.model.json" model.json >&2 || fail "model differs (PR_UPDATE_GOLDEN=1 rewrites)"
diff -u "$case_dir/expected.summary.txt" summary.txt >&2 || fail "summary differs (PR_UPDATE_GOLDEN=1 rewrites)"
