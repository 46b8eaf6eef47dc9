#!/bin/sh
# golden_selftest.sh - the negative control of the golden ingest runner
# (ctest golden/checks_selftest): golden_run.sh must fail a case whose facts do
# not hold, in update mode too, and leave its golden file untouched; it must
# fail a case without a checks file, and a failing ingest must not become an
# error golden unless the checks declare an error.
#
# Works on temporary copies of two cases (exact-ns, err-syntax); the checkout
# is never written. A positive control first: the unmodified copies pass, so
# each failure below comes from the change made to the copy.
#
# Environment (set by ctest): PROFREPORT, PR_TESTS, TZ=UTC, LC_ALL=C.
set -eu
: "${PROFREPORT:?}" "${PR_TESTS:?}"
case $PROFREPORT in
/*) ;;
*) PROFREPORT=$(pwd)/$PROFREPORT ;;
esac
export PROFREPORT TZ=UTC LC_ALL=C
runner=$PR_TESTS/tools/golden_run.sh
src=$PR_TESTS/golden/ingest
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
failures=0

fail() {
	failures=$((failures + 1))
	echo "golden/checks_selftest: FAIL: $*" >&2
}

# golden UPDATE CASE_DIR: runs the runner (UPDATE 0 or 1); rc in $rc, output in $tmp/log.
golden() {
	set +e
	PR_UPDATE_GOLDEN=$1 sh "$runner" "$2" >"$tmp/log" 2>&1
	rc=$?
	set -e
}

# expect_fail DESC [TEXT]: the last run exited 1 (and said TEXT).
expect_fail() {
	if [ "$rc" -ne 1 ]; then
		fail "$1: the runner exited $rc, not 1"
		cat "$tmp/log" >&2
	elif [ $# -gt 1 ] && ! grep -qF -- "$2" "$tmp/log"; then
		fail "$1: the runner's output lacks '$2'"
		cat "$tmp/log" >&2
	fi
}

# fresh NAME: a clean copy of the case NAME in $tmp/NAME.
fresh() {
	rm -rf "${tmp:?}/$1"
	cp -R "$src/$1" "$tmp/$1"
}

# -- positive control: the copies pass as they are
for name in exact-ns err-syntax; do
	fresh "$name"
	golden 0 "$tmp/$name"
	[ "$rc" -eq 0 ] || {
		fail "positive control: the unmodified copy of $name does not pass"
		cat "$tmp/log" >&2
	}
done

# -- a wrong fact fails the case
c=$tmp/exact-ns
fresh exact-ns
echo 'sql "SELECT dur FROM span_v WHERE name = '\''inner'\''" == 2 # deliberately wrong (0.0005 us is 1 ns)' >>"$c/checks"
golden 0 "$c"
expect_fail "a wrong fact" "FAIL sql SELECT dur FROM span_v WHERE name = 'inner' ==: got 1, want 2"

# -- ... in update mode too, and the golden file is not rewritten: a stale
# expected.dump that a rewrite would repair must stay as it was
echo "stale line that a rewrite would remove" >>"$c/expected.dump"
cp "$c/expected.dump" "$tmp/stale.dump"
golden 1 "$c"
expect_fail "a wrong fact with PR_UPDATE_GOLDEN=1" "nothing was rewritten"
cmp -s "$c/expected.dump" "$tmp/stale.dump" || fail "PR_UPDATE_GOLDEN=1 rewrote expected.dump of a case whose facts fail"

# -- ... and once the fact is right again, update mode does rewrite it (so the
# check above could have seen a rewrite)
fresh exact-ns
echo "stale line that a rewrite would remove" >>"$c/expected.dump"
golden 1 "$c"
[ "$rc" -eq 0 ] || fail "PR_UPDATE_GOLDEN=1 on a case whose facts hold exited $rc"
cmp -s "$c/expected.dump" "$src/exact-ns/expected.dump" || fail "PR_UPDATE_GOLDEN=1 did not rewrite a stale expected.dump"

# -- a fact without its derivation is malformed: the case fails
fresh exact-ns
echo 'sql "SELECT count(*) FROM span" == 3' >>"$c/checks"
golden 0 "$c"
expect_fail "a fact without a derivation" "a fact needs '# DERIVATION'"

# -- no checks file: fails, in both modes, and nothing is written
fresh exact-ns
rm "$c/checks"
echo "stale" >>"$c/expected.dump"
cp "$c/expected.dump" "$tmp/stale.dump"
golden 0 "$c"
expect_fail "a case without checks" "no 'checks' file"
golden 1 "$c"
expect_fail "a case without checks, PR_UPDATE_GOLDEN=1" "no 'checks' file"
cmp -s "$c/expected.dump" "$tmp/stale.dump" || fail "PR_UPDATE_GOLDEN=1 rewrote expected.dump of a case without checks"

# -- a wrong error fact fails the error case, and 'error' is not rewritten
e=$tmp/err-syntax
fresh err-syntax
echo 'error - has "input.json'\'':4:17: " # deliberately wrong column' >>"$e/checks"
echo "stale error line" >"$e/error"
golden 1 "$e"
expect_fail "a wrong error fact with PR_UPDATE_GOLDEN=1" "FAIL error"
[ "$(cat "$e/error")" = "stale error line" ] || fail "PR_UPDATE_GOLDEN=1 rewrote 'error' of a case whose facts fail"

# -- a new case whose ingest fails, without an error fact: a failure, not a
# new error golden (the checks do not say that an error is expected)
fresh err-syntax
rm "$e/error"
echo 'sql "SELECT count(*) FROM span" == 2 # the case means to load two events' >"$e/checks"
golden 1 "$e"
expect_fail "a failing ingest without an error fact, PR_UPDATE_GOLDEN=1" "ingest exited 2"
[ ! -e "$e/error" ] || fail "PR_UPDATE_GOLDEN=1 turned a failing ingest into an error golden"
[ ! -e "$e/expected.dump" ] || fail "PR_UPDATE_GOLDEN=1 wrote expected.dump for a failing ingest"

# -- an 'error' golden whose checks declare no error fails
fresh err-syntax
echo 'sql "SELECT count(*) FROM span" == 2 # the case means to load two events' >"$e/checks"
golden 0 "$e"
expect_fail "an error golden without an error fact" "checks has no 'error' fact"

if [ "$failures" -ne 0 ]; then
	echo "golden/checks_selftest: $failures check(s) failed" >&2
	exit 1
fi
echo "golden/checks_selftest: ok"
