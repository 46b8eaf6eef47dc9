#!/usr/bin/python3
"""Makes the perf samples here with the REAL Linux perf (Debian 12's linux-perf, /usr/bin/perf).

    /usr/bin/python3 samples/perf/make_sample.py

perf_stat.csv           perf stat -x, -e task-clock,context-switches,cpu-migrations,page-faults,
                        cycles,instructions -- WORKLOAD   (totals)
perf_stat_interval.csv  perf stat -I 100 -x, -e task-clock,context-switches,page-faults,cycles
                        -- WORKLOAD   (interval mode: the first field is the time in s)
perf_script.txt         perf record -g -F 999 -- WORKLOAD, then perf script (call stacks,
                        leaf first; the period of cpu-clock is in ns), cut to MAX_RECORDS
                        records at a blank line.
perf_script_2events.txt perf record -g -F 2000 -e cpu-clock,page-faults -- WORKLOAD2, then
                        perf script: two events in one file (page-faults first: frequency
                        mode, so perf adjusts its period), made alone by
                        `make_sample.py two-events`; cut to 50 records.
This container has no hardware counters: cycles and instructions are
<not supported>, and perf record falls back to the software event cpu-clock.
The workload is a small Python loop (/usr/bin/python3), so the stacks hold
the interpreter, libc and kernel frames.
"""
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = ["/usr/bin/python3", "-c",
            "import time\n"
            "def f(n): return sum(i * i for i in range(n))\n"
            "for _ in range(5): f(300000)\n"
            "time.sleep(0.1)\n"]
MAX_RECORDS = 300
# two events (cycles,instructions where the machine has hardware counters; here two software
# events): a short list comprehension, so the file stays small
WORKLOAD2 = ["/usr/bin/python3", "-c", "x = [i * i for i in range(300000)]"]


def record_script(name, args, workload, max_records=MAX_RECORDS):
    data = os.path.join(here, "perf.data")
    subprocess.run(["perf", "record", "-q"] + args + ["-o", data, "--"] + workload,
                   check=True, capture_output=True)
    script = subprocess.run(["perf", "script", "-i", data], capture_output=True, text=True,
                            check=True).stdout
    os.remove(data)
    records = [r for r in script.split("\n\n") if r.strip()]
    with open(os.path.join(here, name), "w") as f:
        f.write("\n\n".join(records[:max_records]).rstrip("\n") + "\n\n")
    print("%s: %d records (of %d)" % (name, min(len(records), max_records), len(records)))


if sys.argv[1:] == ["two-events"]:
    record_script("perf_script_2events.txt", ["-g", "-F", "2000", "-e", "cpu-clock,page-faults"],
                  WORKLOAD2, 50)
    sys.exit(0)


def stat(name, args):
    # perf stat writes its CSV on stderr (or to -o FILE, after a '# started on' line)
    r = subprocess.run(["perf", "stat"] + args + ["--"] + WORKLOAD,
                       capture_output=True, text=True, check=True)
    with open(os.path.join(here, name), "w") as f:
        f.write(r.stderr)


stat("perf_stat.csv", ["-x,", "-e", "task-clock,context-switches,cpu-migrations,page-faults,"
                       "cycles,instructions"])
stat("perf_stat_interval.csv", ["-I", "100", "-x,", "-e",
                                "task-clock,context-switches,page-faults,cycles"])

data = os.path.join(here, "perf.data")
subprocess.run(["perf", "record", "-q", "-g", "-F", "999", "-o", data, "--"] + WORKLOAD,
               check=True, capture_output=True)
script = subprocess.run(["perf", "script", "-i", data], capture_output=True, text=True,
                        check=True).stdout
os.remove(data)
records = [r for r in script.split("\n\n") if r.strip()]
with open(os.path.join(here, "perf_script.txt"), "w") as f:
    f.write("\n\n".join(records[:MAX_RECORDS]).rstrip("\n") + "\n\n")
print("%d records (of %d)" % (min(len(records), MAX_RECORDS), len(records)))
