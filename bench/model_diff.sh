#!/bin/sh
# Compares the model of two profreport builds on the same inputs: for each
# input, `summary --json` of both must be byte-identical (or both fail with
# the same message). For changes that must not move any number (e.g. the
# GPU analyses' speed-up): run it with the build before and the build after.
#
# usage: bench/model_diff.sh OLD_PROFREPORT NEW_PROFREPORT INPUT...
#   e.g. bench/model_diff.sh /tmp/base/build/cli/profreport build/cli/profreport \
#            $(find tests/data/traces -name '*.json.gz' -o -name '*.raw.gz')
# Prints "same"/"DIFF" per input; exits 1 when any differs.
set -eu
[ $# -ge 3 ] || { echo "usage: bench/model_diff.sh OLD NEW INPUT..." >&2; exit 2; }
old=$1
new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
for f in "$@"; do
	r1=0
	r2=0
	"$old" summary "$f" --json "$tmp/old.json" >/dev/null 2>"$tmp/old.err" || r1=$?
	"$new" summary "$f" --json "$tmp/new.json" >/dev/null 2>"$tmp/new.err" || r2=$?
	if [ "$r1" != "$r2" ]; then
		same=0
	elif [ "$r1" = 0 ]; then
		cmp -s "$tmp/old.json" "$tmp/new.json" && same=1 || same=0
	else
		cmp -s "$tmp/old.err" "$tmp/new.err" && same=1 || same=0
	fi
	if [ "$same" = 1 ]; then
		echo "same $f"
	else
		echo "DIFF $f (exit $r1 / $r2)"
		rc=1
	fi
	rm -f "$tmp/old.json" "$tmp/new.json"
done
exit $rc
