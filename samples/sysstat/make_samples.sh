#!/bin/sh
# make_samples.sh - regenerates the sysstat samples with the real tools
# (Debian 12 sysstat 12.6.1: apt-get install -y sysstat). Run from this
# directory. A short CPU + I/O load runs while sar records 5 one-second
# intervals; sadf then writes one file per report type; pidstat samples the
# load itself.
set -eu
export LC_ALL=C TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# load: a busy python loop that also writes and reads a file
/usr/bin/python3 -c '
import os, time
t = time.time()
buf = b"x" * (1 << 20)
while time.time() - t < 7:
    sum(i * i for i in range(20000))
    with open("'"$tmp"'/f", "wb") as f:
        f.write(buf); f.flush(); os.fsync(f.fileno())
' &
load=$!
/usr/lib/sysstat/sadc -S XALL 1 6 "$tmp/sa"
sadf -d "$tmp/sa" -- -u > sadf-cpu.csv
sadf -d "$tmp/sa" -- -u -P ALL > sadf-cpu-all.csv
sadf -d "$tmp/sa" -- -r > sadf-mem.csv
sadf -d "$tmp/sa" -- -b > sadf-io.csv
sadf -d "$tmp/sa" -- -d > sadf-disk.csv
sadf -d "$tmp/sa" -- -q > sadf-load.csv
sadf -d "$tmp/sa" -- -B > sadf-paging.csv
sadf -j "$tmp/sa" -- -u -r -b -d -q -B > sadf.json
wait $load
/usr/bin/python3 -c '
import os, time
t = time.time()
while time.time() - t < 10:
    sum(i * i for i in range(20000))
    with open("'"$tmp"'/g", "wb") as f:
        f.write(b"y" * (1 << 20)); f.flush(); os.fsync(f.fileno())
' &
load=$!
pidstat -u -r -d -p $load 1 3 > pidstat.txt
pidstat -h -u -r -d -p $load 1 3 > pidstat-h.txt
wait $load
