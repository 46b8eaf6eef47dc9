#!/bin/sh
# t0132-agg-slurm: the many-rank recipe of docs/aggregate.md under Slurm:
# munged, slurmctld and slurmd started here for one node (this machine),
# from a minimal slurm.conf written into the test's directory (free TCP
# ports, state, spool, logs and munge's key and socket all in it), the map
# step submitted as an array job (`sbatch --array=0-5 --wait`: one
# `aggregate` per node directory of 48 generated ranks), the reduce run
# here, and the merge checked against aggregating the 48 ranks at once
# field by field (tests/tools/agg_equal.py, as t0047 and t0131). The
# daemons are stopped on exit, whatever ends the test.
# Skipped (77), with the reason, where Slurm cannot run: its packages
# missing (.ci/run installs slurm-wlm and munge), not root (the daemons run
# as root here, SlurmUser=root), or a daemon that does not come up (the
# reason then is the tail of its log).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=python3
skip() {
	echo "$test_name: skipped: $*" >&2
	exit 77
}
for c in munged munge slurmctld slurmd sbatch sinfo scontrol; do
	command -v "$c" >/dev/null 2>&1 || [ -x "/usr/sbin/$c" ] ||
		skip "$c missing (apt-get install slurm-wlm munge)"
done
PATH=$PATH:/usr/sbin
[ "$(id -u)" = 0 ] || skip "not root: the test's slurmd and slurmctld run as root"

sl=$tmp/slurm
mkdir -p "$sl/munge" "$sl/state" "$sl/spool" "$sl/log" "$sl/out"
chmod 700 "$sl/munge"
# stop what this test started (by the pid files the daemons wrote), then the usual cleanup
stop_daemons() {
	pids=
	for f in "$sl/slurmd.pid" "$sl/slurmctld.pid" "$sl/munge/pid"; do
		if [ -s "$f" ]; then
			pid=$(cat "$f")
			kill "$pid" 2>/dev/null && pids="$pids $pid"
		fi
	done
	# each gone (slurmctld saves its state as it stops) before the directory is removed
	for pid in $pids; do
		k=0
		while kill -0 "$pid" 2>/dev/null && [ "$k" -lt 100 ]; do
			sleep 0.1
			k=$((k + 1))
		done
	done
	rm -rf "$tmp" || true
}
trap stop_daemons EXIT
head -c 1024 /dev/urandom >"$sl/munge/munge.key"
chmod 400 "$sl/munge/munge.key"
munged --force --key-file="$sl/munge/munge.key" --socket="$sl/munge/sock" \
	--pid-file="$sl/munge/pid" --log-file="$sl/munge/log" --seed-file="$sl/munge/seed" \
	>"$sl/log/munged.out" 2>&1 || skip "munged did not start: $(tail -n 3 "$sl/munge/log" "$sl/log/munged.out")"
# two free TCP ports
ports=$("$py" -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
host=$(hostname -s)
cat >"$sl/slurm.conf" <<CONF
ClusterName=prtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sl/munge/sock
CredType=cred/munge
SlurmctldPort=$1
SlurmdPort=$2
StateSaveLocation=$sl/state
SlurmdSpoolDir=$sl/spool
SlurmctldPidFile=$sl/slurmctld.pid
SlurmdPidFile=$sl/slurmd.pid
SlurmctldLogFile=$sl/log/slurmctld.log
SlurmdLogFile=$sl/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=pr Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
SLURM_CONF=$sl/slurm.conf
export SLURM_CONF
slurmctld -f "$SLURM_CONF" -i >"$sl/log/slurmctld.out" 2>&1 ||
	skip "slurmctld did not start: $(tail -n 3 "$sl/log/slurmctld.log" "$sl/log/slurmctld.out" 2>&1)"
slurmd -f "$SLURM_CONF" >"$sl/log/slurmd.out" 2>&1 ||
	skip "slurmd did not start: $(tail -n 3 "$sl/log/slurmd.log" "$sl/log/slurmd.out" 2>&1)"
# the node idle within 30 s
k=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	k=$((k + 1))
	[ "$k" -lt 60 ] || skip "the node never came up: $(sinfo 2>&1 | tail -n 2); $(tail -n 3 "$sl/log/slurmd.log" 2>&1)"
	sleep 0.5
done

ranks_by_node 48 29 6
mkdir parts
# map: the documented array job (one task per node directory), waited for
run sbatch --wait --array=0-5 -D "$tmp" -o "$sl/out/%a.txt" \
	--wrap "'$P' aggregate ranks/node\$SLURM_ARRAY_TASK_ID -q -o parts/node\$SLURM_ARRAY_TASK_ID.agg.json"
expect_rc 0 "sbatch --array=0-5 --wait"
[ "$(ls parts | wc -l)" = 6 ] || {
	fail "map step: $(ls parts | wc -l) partial agg.json files, expected 6"
	cat "$sl"/out/*.txt >&2 || true
}
for f in "$sl"/out/*.txt; do
	[ ! -s "$f" ] || fail "map task $(basename "$f" .txt) said: $(head -n 3 "$f")"
done
reduce_equals_direct 48 29

finish
