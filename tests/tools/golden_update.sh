#!/bin/sh
# golden_update.sh [BUILD_DIR] [REGEX] - the one way to rewrite golden files.
#
# Builds BUILD_DIR (default: build, a configured CMake build of this checkout),
# then runs each golden ctest test whose name matches REGEX (an extended
# regular expression; default: all of them) one at a time with
# PR_UPDATE_GOLDEN=1, so that each rewrites its expected files from what the
# program says now. The golden tests are every test named golden/... (ingest,
# analyze, render; not the runner's self-test golden/checks_selftest) and the
# CLI tests that hold goldens, cli/t0010-compare (tests/golden/compare/*.md)
# and cli/t0011-aggregate (tests/golden/aggregate/).
#
# - It refuses to run while tests/golden has uncommitted changes or untracked
#   files, so the diff it leaves is its own.
# - It never blesses a failing test: a test that fails in update mode (its
#   facts in `checks` do not hold, the program failed, ...) is reported, and
#   the files it changed are restored with git checkout (new files removed).
#   A golden ingest case is not rewritten when its facts fail in the first
#   place (tests/tools/golden_run.sh).
# - It prints what changed: lines added and removed per file under
#   tests/golden, new files, skipped tests, failed tests. Then read
#   `git diff -- tests/golden` and confirm every changed line before
#   committing it.
#
# Exit status: 0 every test passed (whatever changed), 1 a test failed (its
# files were restored), 2 misuse (dirty tests/golden, no build, no match).
set -eu

usage() {
	echo "usage: golden_update.sh [BUILD_DIR] [REGEX]" >&2
	exit 2
}
[ $# -le 2 ] || usage
case ${1:-} in -h | --help) usage ;; esac
build=${1:-build}
regex=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
say() { echo "golden_update: $*"; }
die() {
	echo "golden_update: $*" >&2
	exit 2
}

git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git checkout: nothing to restore a failed test from"
[ -f "$build/CTestTestfile.cmake" ] || die "'$build' is not a configured build (cmake -S . -B $build first)"
build=$(cd "$build" && pwd)

dirty=$(git -C "$root" status --porcelain -- tests/golden)
if [ -n "$dirty" ]; then
	echo "$dirty" >&2
	die "tests/golden has uncommitted changes (above): commit or stash them first, so the diff shown is this run's alone"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden-update.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'echo "golden_update: interrupted; tests/golden may hold part of an update (git diff -- tests/golden)" >&2; exit 1' HUP INT TERM

say "building $build"
cmake --build "$build" --parallel "${PR_JOBS:-2}" >"$tmp/build.log" 2>&1 || {
	tail -n 30 "$tmp/build.log" >&2
	die "the build failed (above)"
}

ctest --test-dir "$build" -N 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p' |
	grep -E '^golden/|^cli/t0010-compare$|^cli/t0011-aggregate$' |
	grep -Ev '^golden/checks_selftest$' >"$tmp/all" || true
if [ -n "$regex" ]; then
	grep -E -- "$regex" "$tmp/all" >"$tmp/tests" || true
else
	cp "$tmp/all" "$tmp/tests"
fi
[ -s "$tmp/tests" ] || die "no golden test matches '${regex:-.}' in $build"

# state: each changed or new path under tests/golden with the hash of its content.
state() {
	git -C "$root" status --porcelain -uall -- tests/golden | while read -r _ path; do
		if [ -f "$root/$path" ]; then
			echo "$path $(git -C "$root" hash-object -- "$root/$path")"
		else
			echo "$path gone"
		fi
	done | LC_ALL=C sort
}

# restore PATH...: back to the committed file; a file new in this run is removed.
restore() {
	for p in "$@"; do
		if git -C "$root" cat-file -e "HEAD:$p" 2>/dev/null; then
			git -C "$root" checkout -q -- "$p"
		else
			rm -f -- "$root/$p"
		fi
	done
}

total=$(wc -l <"$tmp/tests")
say "running $total golden test(s) with PR_UPDATE_GOLDEN=1"
: >"$tmp/failed"
: >"$tmp/skipped"
n=0
while read -r t; do
	n=$((n + 1))
	state >"$tmp/before"
	esc=$(printf '%s' "$t" | sed 's/[][\.*^$+?(){}|]/\\&/g')
	set +e
	PR_UPDATE_GOLDEN=1 ctest --test-dir "$build" --no-tests=error --output-on-failure \
		-R "^$esc\$" >"$tmp/log" 2>&1 </dev/null
	rc=$?
	set -e
	if [ $rc -ne 0 ]; then
		state >"$tmp/after"
		changed=$(LC_ALL=C comm -3 "$tmp/before" "$tmp/after" | sed 's/^[[:space:]]*//; s/ .*//' | LC_ALL=C sort -u)
		# $changed holds paths without spaces (tests/golden's names), split on purpose.
		# shellcheck disable=SC2086
		[ -z "$changed" ] || restore $changed
		echo "$t" >>"$tmp/failed"
		printf '  [%d/%d] %s: FAILED (below)\n' "$n" "$total" "$t"
		restored=$(printf '%s' "$changed" | tr '\n' ' ')
		echo "golden_update: FAIL: $t (nothing of it kept${restored:+; restored: $restored})" >&2
		grep -v '^Internal ctest changing' "$tmp/log" | tail -n 40 >&2
	elif grep -q 'Skipped\|Not Run' "$tmp/log"; then
		echo "$t" >>"$tmp/skipped"
		printf '  [%d/%d] %s: skipped\n' "$n" "$total" "$t"
	else
		printf '  [%d/%d] %s: ok\n' "$n" "$total" "$t"
	fi
done <"$tmp/tests"

echo
echo "== golden_update summary: $total test(s), $(wc -l <"$tmp/failed") failed, $(wc -l <"$tmp/skipped") skipped"
if [ -s "$tmp/skipped" ]; then
	echo "skipped (their goldens were not updated):"
	sed 's/^/  /' "$tmp/skipped"
fi
if [ -s "$tmp/failed" ]; then
	echo "FAILED (their files restored; fix them, nothing of theirs was blessed):"
	sed 's/^/  /' "$tmp/failed"
fi
git -C "$root" diff --numstat -- tests/golden >"$tmp/numstat"
git -C "$root" ls-files --others --exclude-standard -- tests/golden >"$tmp/new"
if [ ! -s "$tmp/numstat" ] && [ ! -s "$tmp/new" ]; then
	echo "no golden file changed"
else
	echo "changed files (lines added, removed):"
	awk -F '\t' '{ if ($1 == "-") printf "  binary      %s\n", $3; else printf "  +%-5s -%-5s %s\n", $1, $2, $3 }' "$tmp/numstat"
	sed 's/^/  new         /' "$tmp/new"
	git -C "$root" diff --shortstat -- tests/golden | sed 's/^ */  /'
	echo "Now read every changed line: git diff -- tests/golden (and the new files above);"
	echo "commit only what your change means to alter, and say why in the message."
fi
[ ! -s "$tmp/failed" ] || exit 1
exit 0
