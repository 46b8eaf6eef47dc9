# shellcheck shell=sh disable=SC2034
# lib.sh - shared helpers for tests/cli/t*.sh (sourced, not run).
#
# Environment (set by ctest, tests/CMakeLists.txt): PROFREPORT, PR_SAMPLES,
# PR_TESTS, TZ=UTC, LC_ALL=C. Every script gets a private temporary directory
# ($tmp, removed on exit) that is also HOME and TMPDIR (under $tmp/tmp), so no
# user configuration is read and leftover temporary files can be detected.
#
# run CMD ARGS...   runs a command; sets $rc, stdout in $tmp/out, stderr in $tmp/err
# fail MESSAGE      records a failed check (the script goes on) and prints it
# finish            prints the verdict; exits 1 if any check failed
# Checks on the last run (DESC names the check in failure messages):
# expect_rc N DESC, expect_out_empty DESC, expect_err_empty DESC,
# expect_one_err_line DESC, expect_out_has PATTERN DESC, expect_err_has PATTERN DESC
# (PATTERN is a fixed string, grep -F), expect_error PREFIX DESC.
# need_trace FILE...  the real traces (tests/data/traces, $PR_TRACES, named as
#                   $TRACES/hta/...): returns when all exist; exits 77 (skip) only
#                   in a tree without tests/data/traces; a missing one fails (exit 1)
set -eu

: "${PROFREPORT:?PROFREPORT must name the profreport binary}"
: "${PR_SAMPLES:?PR_SAMPLES must name the samples/ directory}"
case $PROFREPORT in
/*) ;;
*) PROFREPORT=$(pwd)/$PROFREPORT ;;
esac
case $PR_SAMPLES in
/*) ;;
*) PR_SAMPLES=$(pwd)/$PR_SAMPLES ;;
esac
TZ=UTC
LC_ALL=C
export TZ LC_ALL
# under AddressSanitizer, LeakSanitizer would print its "Suppressions used" table
# (fontconfig's caches, suppressed by cli/main.c) on stderr of every drawing command
LSAN_OPTIONS=${LSAN_OPTIONS:+$LSAN_OPTIONS:}print_suppressions=0
export LSAN_OPTIONS

test_name=$(basename "$0" .sh)
# the vendored real traces (tests/data/traces; ctest sets PR_TRACES): the one name for them
TRACES=${PR_TRACES:-${PR_TESTS:-$(dirname "$0")/..}/data/traces}
case $TRACES in
/*) ;;
*) TRACES=$(pwd)/$TRACES ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/prcli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
HOME=$tmp
TMPDIR=$tmp/tmp
export HOME TMPDIR
mkdir "$TMPDIR"
cd "$tmp"

P=$PROFREPORT
TORCH=$PR_SAMPLES/torch/trace_rank0.pt.trace.json
VIZ=$PR_SAMPLES/chrome/viztracer_like.json
failures=0
rc=0

fail() {
	failures=$((failures + 1))
	echo "$test_name: FAIL: $*" >&2
}

# Shows the last command's output after a failed check.
show() {
	echo "  --- stdout (first 10 lines):" >&2
	head -n 10 "$tmp/out" >&2 || true
	echo "  --- stderr:" >&2
	head -n 10 "$tmp/err" >&2 || true
}

run() {
	last_cmd="$*"
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
}

expect_rc() {
	if [ "$rc" -ne "$1" ]; then
		fail "$2: '$last_cmd' exited $rc, expected $1"
		show
	fi
}

expect_out_empty() {
	if [ -s "$tmp/out" ]; then
		fail "$1: '$last_cmd' printed on stdout"
		show
	fi
}

expect_err_empty() {
	if [ -s "$tmp/err" ]; then
		fail "$1: '$last_cmd' printed on stderr"
		show
	fi
}

expect_one_err_line() {
	n=$(wc -l <"$tmp/err")
	if [ "$n" -ne 1 ]; then
		fail "$1: '$last_cmd' printed $n lines on stderr, expected one"
		show
	elif ! grep -q '^profreport: ' "$tmp/err"; then
		fail "$1: the error line does not start with 'profreport: '"
		show
	fi
}

expect_out_has() {
	if ! grep -qF -- "$1" "$tmp/out"; then
		fail "$2: stdout of '$last_cmd' lacks '$1'"
		show
	fi
}

expect_err_has() {
	if ! grep -qF -- "$1" "$tmp/err"; then
		fail "$2: stderr of '$last_cmd' lacks '$1'"
		show
	fi
}

# expect_error PREFIX DESC: the last run exited 2 with nothing on stdout and
# one stderr line that starts with PREFIX (a fixed string).
expect_error() {
	expect_rc 2 "$2"
	expect_out_empty "$2"
	expect_one_err_line "$2"
	case $(head -n 1 "$tmp/err") in
	"$1"*) ;;
	*)
		fail "$2: the error line does not start with '$1'"
		show
		;;
	esac
}

# query_value STORE SQL: the single value of a one-row, one-column query.
query_value() {
	"$P" query "$1" "$2" | sed -n 2p
}

# metric_is FILE ID KEY VALUE: the comparison FILE's (compare --to json) metric ID has
# KEY == VALUE (a string, else its JSON text). Needs python3 (.ci/run installs it): without
# it the check fails rather than pass unchecked.
metric_is() {
	if ! command -v python3 >/dev/null 2>&1; then
		fail "metric_is $2 $3: python3 is needed to read $1"
		return 0
	fi
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = [m for m in d["metrics"] if m["id"] == sys.argv[2]]
v = m[0].get(sys.argv[3]) if m else "(no metric)"
if not isinstance(v, str):
    v = json.dumps(v)
sys.exit(0 if v == sys.argv[4] else "%s %s: %s, expected %s" % (sys.argv[2], sys.argv[3], v, sys.argv[4]))
' "$@" || fail "$1: $2 $3 is not $4"
}

# fatal_signals SIG...: those of the signals this machine can send a background job. A
# background job of a non-interactive shell ignores SIGINT, and an ignored signal stays
# ignored (profreport keeps it so): GNU env --default-signal hands the command the default
# action back; without it INT is left out, and said.
fatal_signals() {
	if env --default-signal=INT true 2>/dev/null; then
		echo "$*"
	else
		echo "$test_name: env --default-signal missing; SIGINT not tested" >&2
		echo "$*" | sed 's/ *\bINT\b//'
	fi
}

# signal_status SIG: the exit status of a process that SIG ended (128 + its number)
signal_status() {
	case $1 in
	HUP) echo 129 ;;
	INT) echo 130 ;;
	TERM) echo 143 ;;
	esac
}

# signal_when PID SIG TEST...: while PID runs, polls (every 5 ms, at most 2000
# times) until the command TEST... succeeds, then sends SIG to PID; waits for
# PID. Sets caught (1 when the signal was sent), kids (PID's children at that
# moment) and st (PID's exit status). The -j tests' Ctrl-C and SIGTERM checks.
signal_when() {
	sw_pid=$1
	sw_sig=$2
	shift 2
	sw_n=0
	caught=0
	kids=
	while [ "$sw_n" -lt 2000 ] && kill -0 "$sw_pid" 2>/dev/null; do
		if "$@"; then
			kids=$(pgrep -P "$sw_pid" || true)
			kill -s "$sw_sig" "$sw_pid" 2>/dev/null && caught=1
			break
		fi
		sleep 0.005
		sw_n=$((sw_n + 1))
	done
	st=0
	wait "$sw_pid" || st=$?
}

# workers_at_work PID: PID has child processes and TMPDIR holds their files
workers_at_work() {
	[ -n "$(ls "$TMPDIR")" ] && [ -n "$(pgrep -P "$1" 2>/dev/null || true)" ]
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$test_name: $failures check(s) failed" >&2
		exit 1
	fi
	echo "$test_name: ok"
	exit 0
}

# need_gen: bench/gen_trace (built beside the binary) as $gen, or the test skipped.
need_gen() {
	gen=$(dirname "$PROFREPORT")/../bench/gen_trace
	if [ ! -x "$gen" ]; then
		echo "$test_name: $gen not built; skipped" >&2
		exit 77
	fi
}

need_trace() {
	for nt_f; do
		[ -f "$nt_f" ] && continue
		if [ -d "$TRACES" ]; then
			echo "$test_name: FAIL: $nt_f is missing from $TRACES" \
				"(tests/data/traces/SHA256SUMS lists it): never a skip" >&2
			exit 1
		fi
		echo "$test_name: skipped ($TRACES is missing: a tree without tests/data/traces)"
		exit 77
	done
}

# The many-rank recipe's tests (t0047 xargs, t0131 GNU parallel, t0132 Slurm).
# ranks_by_node RANKS STRAGGLER NODES: make_ranks.py's RANKS ranks (4 steps, rank
# STRAGGLER the straggler) put in ranks/node0..node(NODES-1), rank R in node R % NODES.
ranks_by_node() {
	"$py" "$PR_SAMPLES/ranks/make_ranks.py" --ranks "$1" --steps 4 --straggler "$2" \
		--out gen >/dev/null || fail "setup: make_ranks.py"
	n=$(find gen -name 'rank*.json' | wc -l)
	[ "$n" = "$1" ] || fail "setup: $n rank files, expected $1"
	for f in gen/rank*.json; do
		r=$(basename "$f" | sed 's/^rank\([0-9]*\).*/\1/')
		mkdir -p "ranks/node$((r % $3))"
		mv "$f" "ranks/node$((r % $3))/"
	done
}

# reduce_equals_direct RANKS STRAGGLER: the reduce of parts/*.agg.json equals the aggregate
# of ranks/ at once, field by field (tests/tools/agg_equal.py: Chan's running moments to a
# relative 1e-12), and went through the partial files: RANKS ranks, STRAGGLER named.
reduce_equals_direct() {
	run "$P" aggregate parts -q -o merged.json
	expect_rc 0 "reduce of the partial aggregates"
	run "$P" aggregate ranks -q -o direct.json
	expect_rc 0 "aggregate of all ranks at once"
	"$py" "$PR_TESTS/tools/agg_equal.py" direct.json merged.json >cmp.txt 2>&1 ||
		{ fail "merged aggregate differs from the direct one"; cat cmp.txt >&2; }
	grep -q "\"rank_count\": $1," merged.json || fail "merged aggregate does not count $1 ranks"
	grep -q "\"summary\": \"rank $2:" merged.json ||
		fail "merged aggregate does not name rank $2 the straggler"
}

# merged_as_direct DIRECT MERGED: an aggregate of agg.json files says what the aggregate of
# the ranks said, line by line, but for the running moments and std (their merge rounds in
# another order: the last bits differ).
merged_as_direct() {
	grep -Ev '"(m2|std)": |"mean": "' "$1" >a.txt
	grep -Ev '"(m2|std)": |"mean": "' "$2" >b.txt
	cmp -s a.txt b.txt || {
		fail "aggregate of agg.json files differs from the aggregate of all ranks"
		diff a.txt b.txt | head -20 >&2 || true
	}
}
