#!/usr/bin/python3
"""make_samples.py - regenerates the sysstat samples with the real tools
(Debian 12 sysstat 12.6.1: apt-get install -y sysstat). Run from this
directory. A CPU + disk load (a python loop that writes and fsyncs 1 MiB)
runs while sadc records 6 one-second samples (5 intervals); sadf then writes
one file per report type and the JSON; pidstat samples a second load by pid.
TZ=UTC and LC_ALL=C, so sadf and pidstat write UTC times and '.' decimals."""
import os
import subprocess
import sys
import tempfile

env = dict(os.environ, LC_ALL="C", TZ="UTC")
LOAD = """
import os, sys, time
t = time.time()
while time.time() - t < float(sys.argv[2]):
    sum(i * i for i in range(20000))
    with open(sys.argv[1], "wb") as f:
        f.write(b"x" * (1 << 20)); f.flush(); os.fsync(f.fileno())
"""


def out(cmd, path):
    with open(path, "w") as f:
        subprocess.run(cmd, stdout=f, env=env, check=True)


with tempfile.TemporaryDirectory() as tmp:
    sa = os.path.join(tmp, "sa")
    load = subprocess.Popen([sys.executable, "-c", LOAD, os.path.join(tmp, "f"), "8"])
    subprocess.run(["/usr/lib/sysstat/sadc", "-S", "XALL", "1", "6", sa], env=env, check=True)
    for name, opts in [("cpu", ["-u"]), ("cpu-all", ["-u", "-P", "ALL"]), ("mem", ["-r"]),
                       ("io", ["-b"]), ("disk", ["-d"]), ("load", ["-q"]), ("paging", ["-B"]),
                       ("intr", ["-I", "ALL", "-P", "ALL"])]:
        out(["sadf", "-d", sa, "--"] + opts, "sadf-%s.csv" % name)
    out(["sadf", "-j", sa, "--", "-u", "-r", "-b", "-d", "-q", "-B"], "sadf.json")
    load.wait()
    load = subprocess.Popen([sys.executable, "-c", LOAD, os.path.join(tmp, "g"), "10"])
    pid = str(load.pid)
    out(["pidstat", "-u", "-r", "-d", "-p", pid, "1", "3"], "pidstat.txt")
    out(["pidstat", "-h", "-u", "-r", "-d", "-p", pid, "1", "3"], "pidstat-h.txt")
    load.wait()
