#!/bin/sh
# t0048-panels-skipped: a panel that says nothing is not drawn, and the page
# says which and why (render/panels.c, prune). A psutil log written here
# by hand: 21 samples 1 s apart, RSS and VMS rising (informative), CPU
# 1.8 % in every sample (constant: the cpu panel is left out, "constant
# 1.8 %"), no disk I/O (no disk panel at all). Then the same log with one
# CPU sample at 2.0 %: the cpu panel is drawn and not listed (the one-phase
# panels, which the phase table says, are: issue 26).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

log() { # $1: the CPU % of the last sample
	echo "timestamp,rss_mb,vms_mb,cpu_percent,disk_read_mb,disk_write_mb,phase"
	i=0
	while [ $i -le 20 ]; do
		cpu=1.8
		[ $i != 20 ] || cpu=$1
		echo "$((1718000000 + i)).000000,$((800 + 10 * i)).00,$((3000 + 5 * i)).00,$cpu,0.00,0.00,Run"
		i=$((i + 1))
	done
}

log 1.8 >flat.csv
run "$P" report -q flat.csv -o flat.html --png flat
expect_rc 0 "report of a log with a constant CPU"
grep -q '<p class="skipped">Not drawn: cpu (constant 1.8 %)[;.]' flat.html ||
	fail "the page does not say that the cpu panel was left out: $(grep -o '<p class="skipped">[^<]*' flat.html)"
[ ! -f flat/cpu.png ] || fail "a cpu panel was drawn for a constant 1.8 %"
[ -f flat/memory.png ] || fail "the memory panel (RSS rising) is missing"

log 2.0 >moving.csv
run "$P" report -q moving.csv -o moving.html --png moving
expect_rc 0 "report of a log whose CPU moves once"
[ -f moving/cpu.png ] || fail "no cpu panel although the CPU moved (1.8 -> 2.0 %)"
! grep -q 'class="skipped">Not drawn: cpu' moving.html || fail "the cpu panel was listed as not drawn: $(grep -o '<p class="skipped">[^<]*' moving.html)"
finish
