#!/bin/sh
# jsontestsuite.sh - run every JSONTestSuite parsing case through the chrome
# ingester: y_* must parse: load (exit 0), or, being valid JSON that is no
# trace ([1], {"a": 1}, "x"), fail with exit 2 and exactly one line saying
# "not a trace"; n_* must fail with exit 2 and exactly one stderr line
# "profreport: ...'FILE':LINE:COL: ..." that is a syntax error (never "not a
# trace": the syntax is checked first); i_* may go either way but must
# never crash (signal, sanitizer report, other exit codes).
#
# Environment (set by ctest): PROFREPORT, the binary. The corpus is vendored
# in tests/data/jsontestsuite (MIT, see its LICENSE), so it is never skipped.
set -u

: "${PROFREPORT:?PROFREPORT must name the profreport binary}"
suite="$(cd "$(dirname "$0")/../data/jsontestsuite/test_parsing" && pwd)" || {
	echo "jsontestsuite: tests/data/jsontestsuite/test_parsing is missing" >&2
	exit 1
}

LC_ALL=C
TZ=UTC
export LC_ALL TZ
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pr-jsontestsuite.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
HOME=$tmp
export HOME

if command -v timeout >/dev/null 2>&1; then
	run_limited() { timeout 60 "$@"; }
else
	run_limited() { "$@"; }
fi

n_y=0 n_n=0 n_i=0 i_ok=0 i_rejected=0 failures=0

fail() {
	failures=$((failures + 1))
	echo "FAIL: $name: $*"
	if [ -s "$tmp/err" ]; then
		echo "  stderr:"
		head -c 2000 "$tmp/err" | sed 's/^/  | /'
		echo
	fi
}

# Sanitizer output or a signal means a crash, whatever the exit code.
crashed() {
	if [ "$rc" -ge 124 ]; then
		fail "crashed or hung (exit $rc)"
		return 0
	fi
	if grep -q -e 'Sanitizer' -e 'runtime error:' "$tmp/err"; then
		fail "sanitizer report (exit $rc)"
		return 0
	fi
	return 1
}

for file in "$suite"/*; do
	[ -f "$file" ] || continue
	name=${file##*/}
	rm -f "$tmp/t.db" "$tmp/t.db-journal"
	run_limited "$PROFREPORT" ingest --format chrome "$file" -o "$tmp/t.db" -q \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	case $name in
	y_*)
		n_y=$((n_y + 1))
		crashed && continue
		[ "$rc" -eq 0 ] && continue
		if [ "$rc" -ne 2 ] || [ "$(awk 'END { print NR }' "$tmp/err")" -ne 1 ] ||
			! grep -q -E "'(:[0-9]+:[0-9]+)?: not a trace: " "$tmp/err"; then
			fail "valid JSON rejected: exit $rc, want 0 or 2 with one 'not a trace' line"
		fi
		;;
	n_*)
		n_n=$((n_n + 1))
		crashed && continue
		if [ "$rc" -ne 2 ]; then
			fail "invalid JSON: exit $rc, want 2"
			continue
		fi
		lines=$(awk 'END { print NR }' "$tmp/err")
		if [ "$lines" -ne 1 ]; then
			fail "want exactly one line on stderr, got $lines"
			continue
		fi
		line=$(cat "$tmp/err")
		case $line in
		"profreport: "*) ;;
		*) fail "stderr does not start with 'profreport: '"; continue ;;
		esac
		case $line in
		*": not a trace: "*) fail "invalid JSON taken for valid JSON that is no trace"; continue ;;
		esac
		if ! grep -q -F -e "$name" "$tmp/err"; then
			fail "the error does not name the file"
			continue
		fi
		# An empty or BOM-only input has no position worth giving.
		size=$(wc -c <"$file")
		bom_only=0
		if [ "$size" -eq 3 ] && [ "$(od -An -tx1 "$file" | tr -d ' \n')" = efbbbf ]; then
			bom_only=1
		fi
		pat="$name':"
		rest=${line#*"$pat"}
		if [ "$size" -ne 0 ] && [ "$bom_only" -eq 0 ] &&
			! printf '%s\n' "$rest" | grep -q -E '^[0-9]+:[0-9]+: .'; then
			fail "the error has no ':LINE:COL:' after the file name"
			continue
		fi
		# A failed ingest leaves no run behind.
		if [ -f "$tmp/t.db" ]; then
			runs=$("$PROFREPORT" query "$tmp/t.db" "select count(*) from run" | tail -n 1)
			[ "$runs" = 0 ] || fail "a failed ingest left $runs run(s) in the store"
		fi
		;;
	i_*)
		n_i=$((n_i + 1))
		crashed && continue
		case $rc in
		0) i_ok=$((i_ok + 1)) ;;
		2) i_rejected=$((i_rejected + 1)) ;;
		*) fail "implementation-defined case: exit $rc, want 0 or 2" ;;
		esac
		;;
	esac
done

echo "jsontestsuite: y_ $n_y must load, n_ $n_n must fail, i_ $n_i free" \
	"($i_ok accepted, $i_rejected rejected); $failures failure(s)"
[ "$((n_y + n_n + n_i))" -gt 0 ] || { echo "jsontestsuite: no cases found in '$suite'"; exit 1; }
[ "$failures" -eq 0 ]
