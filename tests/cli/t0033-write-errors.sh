#!/bin/sh
# t0033-write-errors: every command checks its writes (README, "Commands"):
# standard output or an output file on a full device (/dev/full) fails the
# command with exit 2 and one line on stderr that says why, and a device
# named as an output stays a device (never replaced by a rename).
# compare is checked in t0010-compare.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if [ ! -c /dev/full ]; then
	echo "$test_name: /dev/full is not a character device here; skipped" >&2
	exit 77
fi

# Under AddressSanitizer, the fontconfig caches suppressed in cli/main.c
# would be listed on stderr at exit; the one-line checks need them quiet.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}print_suppressions=0
export ASAN_OPTIONS

"$P" ingest -q "$VIZ" -o s.db || fail "setup: ingest failed"

# full DESC CMD ARGS...: run with standard output on /dev/full
full() {
	desc=$1
	shift
	last_cmd="$* >/dev/full"
	set +e
	"$@" >/dev/full 2>"$tmp/err"
	rc=$?
	set -e
	: >"$tmp/out"
	check "$desc"
}

# check DESC: exit 2, one "profreport: " line naming the full device.
check() {
	expect_rc 2 "$1"
	expect_one_err_line "$1"
	expect_err_has "No space left on device" "$1"
	[ -c /dev/full ] || fail "$1: /dev/full is no longer a character device"
}

full "summary to a full stdout" "$P" summary s.db
expect_err_has "profreport: summary: 'standard output': cannot write: " "summary to a full stdout"
full "summary of a trace to a full stdout" "$P" summary "$VIZ"
# a report longer than stdio's buffer: the write that fails is mid-report (its errno used
# to be lost: "Input/output error")
full "summary of a longer report to a full stdout" "$P" summary "$TORCH"
full "query to a full stdout" "$P" query s.db "SELECT * FROM span"
full "dump to a full stdout" "$P" dump events s.db
full "ingest report lines to a full stdout" "$P" ingest "$TORCH" -o s2.db
full "formats to a full stdout" "$P" formats
full "--help to a full stdout" "$P" --help
full "summary --help to a full stdout" "$P" summary --help
full "--version to a full stdout" "$P" --version
full "speedscope's line to a full stdout" "$P" speedscope s.db -o ss.json
full "report --json - to a full stdout" "$P" report s.db --json -

# Output files on the full device. speedscope used to rename its file over
# the path given, which replaces /dev/full itself for everyone on the
# machine: it is first tried through a link (a regression then replaces
# only the link), and on /dev/full only when that went right.
ln -s /dev/full full.json
run "$P" speedscope s.db -o full.json
check "speedscope -o a link to /dev/full"
expect_out_empty "speedscope -o a link to /dev/full (no success line)"
if [ -L full.json ] && [ "$rc" = 2 ]; then
	run "$P" speedscope s.db -o /dev/full
	check "speedscope -o /dev/full"
	expect_out_empty "speedscope -o /dev/full (no success line)"
	expect_err_has "profreport: speedscope: '/dev/full': cannot write: " "speedscope -o /dev/full"
else
	fail "speedscope -o a link to /dev/full replaced the link or succeeded; /dev/full itself not tried"
fi
run "$P" summary s.db --json /dev/full
check "summary --json /dev/full"
ln -s /dev/full full.html
run "$P" report s.db -o full.html
check "report -o a link to /dev/full"
[ -L full.html ] || fail "report -o a link to /dev/full: the link was replaced"
run "$P" report s.db --json /dev/full
check "report --json /dev/full"
run "$P" aggregate s.db -q -o /dev/full
expect_rc 2 "aggregate -o /dev/full"
expect_err_has "profreport: aggregate: '/dev/full': cannot write: No space left on device" "aggregate -o /dev/full"

# A big output, whose writes fail while it is being produced (not only at
# the final flush): dump and query stop there with the write error.
i=0
{
	printf '{"traceEvents": ['
	while [ "$i" -lt 20000 ]; do
		printf '{"name": "op%d", "ph": "X", "ts": %d, "dur": 1, "pid": 1, "tid": 1},\n' "$i" "$((i * 2))"
		i=$((i + 1))
	done
	printf '{"name": "last", "ph": "X", "ts": 40000, "dur": 1, "pid": 1, "tid": 1}]}\n'
} >many.json
"$P" ingest -q many.json -o many.db || fail "setup: ingest of many.json failed"
full "dump of 20000 spans to a full stdout" "$P" dump events many.db
expect_err_has "profreport: dump: cannot write to standard output: " "dump of 20000 spans"
full "query of 20000 spans to a full stdout" "$P" query many.db "SELECT * FROM span_v"
expect_err_has "profreport: query: cannot write to standard output: " "query of 20000 spans"

finish
