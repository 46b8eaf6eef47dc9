#!/bin/sh
# t0034-signals: SIGTERM, SIGINT or SIGHUP while an output file is being
# written (README, "Commands"): the temporary file ("*.tmp.PID.N") is
# removed, the old output is left as it was, and the process dies of the
# signal (exit status 128 + signal number as the shell reports it).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_gen
# A store whose speedscope export takes a few hundred ms: the temporary
# file is created before the spans are walked, so it exists that long.
"$gen" 30 1 -o m.json 2>/dev/null || fail "setup: gen_trace failed"
"$P" ingest -q m.json -o m.db || fail "setup: ingest failed"

sigs=$(fatal_signals TERM INT HUP)

for sig in $sigs; do
	want=$(signal_status "$sig")
	out=out-$sig.json
	echo "the old output" >"$out"
	caught=0
	try=1
	while [ "$try" -le 5 ] && [ "$caught" = 0 ]; do
		env --default-signal=INT "$P" speedscope -q m.db -o "$out" 2>"err.$sig" &
		pid=$!
		n=0
		while [ "$n" -lt 1000 ] && kill -0 "$pid" 2>/dev/null; do
			# any file named after the output but not the output itself
			if [ -n "$(ls -a | grep -F "$out" | grep -vxF "$out")" ]; then
				kill -s "$sig" "$pid" 2>/dev/null && caught=1
				break
			fi
			sleep 0.005
			n=$((n + 1))
		done
		st=0
		wait "$pid" || st=$?
		if [ "$caught" = 0 ]; then
			# finished before the signal could be sent: put the old output back, retry
			echo "the old output" >"$out"
		fi
		try=$((try + 1))
	done
	if [ "$caught" = 0 ]; then
		fail "SIG$sig: never saw the temporary file of a running export"
		continue
	fi
	[ "$st" = "$want" ] || fail "SIG$sig: exit status $st, expected $want (death by the signal)"
	left=$(ls -a | grep -F "$out" | grep -vxF "$out" || true)
	[ -z "$left" ] || fail "SIG$sig: temporary files left behind: $left"
	[ "$(cat "$out")" = "the old output" ] || fail "SIG$sig: the old output was changed"
done

# -- a command given a trace ingests it into a temporary store in $TMPDIR
# first: a signal then removes that store and its journal too.
caught=0
try=1
while [ "$try" -le 5 ] && [ "$caught" = 0 ]; do
	"$P" summary m.json >/dev/null 2>err.summary &
	pid=$!
	n=0
	while [ "$n" -lt 1000 ] && kill -0 "$pid" 2>/dev/null; do
		if [ -n "$(ls "$TMPDIR")" ]; then
			kill -s TERM "$pid" 2>/dev/null && caught=1
			break
		fi
		sleep 0.005
		n=$((n + 1))
	done
	st=0
	wait "$pid" || st=$?
	try=$((try + 1))
done
if [ "$caught" = 0 ]; then
	fail "summary of a trace: never saw its temporary store"
else
	[ "$st" = 143 ] || fail "summary of a trace: exit status $st after SIGTERM, expected 143"
	left=$(ls "$TMPDIR")
	[ -z "$left" ] || fail "summary of a trace: left in TMPDIR after SIGTERM: $left"
fi
rm -f m.json

# The handler does not get in the way of a normal run.
run "$P" speedscope -q m.db -o done.json
expect_rc 0 "speedscope after the signal checks"
[ -s done.json ] || fail "speedscope wrote nothing"

finish
