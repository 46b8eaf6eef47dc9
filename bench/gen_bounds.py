#!/usr/bin/python3
"""gen_bounds.py - small inputs that used to cost profreport GBs or minutes
(issue 12, "Bounded resources on small inputs"), for bench/bounds.sh.

usage: gen_bounds.py CASE N OUT

  massif N     massif.out with N snapshots, every 10th detailed (a 40-node
               tree), one peak; compresses well (gzip it for the .gz case)
  qeff N       QEff JSON document with N samples in each of 7 lists
  tids N       Chrome trace: N complete events, each on its own tid
  counters N   Chrome trace: N counter events, each with its own name
  memdev N     Chrome trace: 4 [memory] instants on each of N devices
  phases N     CSV sampler log: N rows, each row a new phase
  steps N      Chrome trace: N ProfilerStep#i spans, one aten::mm in each
  phaselog N   phase log (--phases): N `TIME NAME` lines, every name new
  runs N       a directory OUT with N tiny Chrome traces (one run each)

Everything is deterministic (no clock, no random state).
"""
import os
import sys


def massif(n, out):
    w = out.write
    w("desc: --time-unit=ms\ncmd: ./prog\ntime_unit: ms\n")
    peak = n // 2
    for i in range(n):
        heap = 1000 + (i * 7919) % 100000 if i != peak else 200000
        w("#-----------\nsnapshot=%d\n#-----------\n" % i)
        w("time=%d\nmem_heap_B=%d\nmem_heap_extra_B=%d\nmem_stacks_B=0\n"
          % (i * 10, heap, heap // 50))
        if i == peak or i % 10 == 0:
            w("heap_tree=%s\n" % ("peak" if i == peak else "detailed"))
            w("n40: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
              % heap)
            share = heap // 40
            for k in range(40):
                b = share if k < 39 else heap - 39 * share
                w(" n1: %d 0x%X: fn%d (prog.c:%d)\n" % (b, 0x109000 + k, k, k + 1))
                w("  n0: %d 0x%X: main (prog.c:%d)\n" % (b, 0x10A000 + k, 100 + k))
        else:
            w("heap_tree=empty\n")


def qeff(n, out):
    w = out.write
    keys = ["rss_memory", "vms_memory", "cpu_usage", "disk_read_bytes",
            "disk_write_bytes", "disk_read_rate", "disk_write_rate"]
    w('{"timestamps": [')
    w(", ".join("%.2f" % (i * 0.05) for i in range(n)))
    w("]")
    for j, k in enumerate(keys):
        w(', "%s": [' % k)
        w(", ".join("%d.%d" % (100 + (i * (j + 3)) % 900, i % 10) for i in range(n)))
        w("]")
    w(', "operations": [[0.0, "Start"]], "sampling_interval": 0.05}\n')


def tids(n, out):
    w = out.write
    w('{"traceEvents": [\n')
    for i in range(n):
        w('%s{"ph":"X","name":"op","pid":1,"tid":%d,"ts":%d,"dur":1}'
          % (",\n" if i else "", i + 1, i))
    w("\n]}\n")


def counters(n, out):
    w = out.write
    w('{"traceEvents": [\n')
    w('{"ph":"X","name":"op","pid":1,"tid":1,"ts":0,"dur":%d}' % n)
    for i in range(n):
        w(',\n{"ph":"C","name":"c%d","pid":1,"ts":%d,"args":{"v":%d}}' % (i, i, i % 97))
    w("\n]}\n")


def memdev(n, out):
    w = out.write
    w('{"traceEvents": [\n')
    w('{"ph":"X","name":"op","pid":1,"tid":1,"ts":0,"dur":%d}' % (4 * n))
    t = 0
    for step in range(4):
        for d in range(n):
            w(',\n{"ph":"i","s":"t","name":"[memory]","pid":1,"tid":1,"ts":%d,'
              '"args":{"Device Type":1,"Device Id":%d,"Total Allocated":%d,'
              '"Total Reserved":%d,"Bytes":1}}' % (t, d, (step + 1) * 1048576,
                                                  (step + 2) * 1048576))
            t += 1
    w("\n]}\n")


def phases(n, out):
    w = out.write
    w("timestamp,rss_mb,phase\n")
    for i in range(n):
        w("%.1f,%d,phase%d\n" % (i * 0.5, 100 + i % 50, i))


def steps(n, out):
    """A Chrome trace of n ProfilerStep#i spans, each with one op inside
    (issue 30 R3: state per step must stay bounded)."""
    w = out.write
    w('{"traceEvents":[\n')
    for i in range(n):
        t = i * 100
        w('{"ph":"X","cat":"user_annotation","name":"ProfilerStep#%d","pid":1,"tid":1,'
          '"ts":%d,"dur":90},\n' % (i, t))
        w('{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":%d,"dur":50}%s\n'
          % (t + 10, "," if i + 1 < n else ""))
    w("]}\n")


def phaselog(n, out):
    """A phase log (--phases) of n `TIME NAME` lines, every name new
    (issue 30 R5)."""
    w = out.write
    for i in range(n):
        w("%d.%03d p%d\n" % (i // 1000, i % 1000, i))


def nsys_metrics(n, path):
    """The committed nsys sample with n GPU metric definitions and one sample
    of each (the metric names are looked up per row: issue 30 R1)."""
    import shutil
    import sqlite3
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.copyfile(os.path.join(here, "..", "samples", "nsys", "nsys_sample.sqlite"), path)
    c = sqlite3.connect(path)
    c.executemany("INSERT INTO TARGET_INFO_GPU_METRICS VALUES (?, 0, 'GA100', ?, ?)",
                  ((1000 + i // 1000, i % 1000, "Metric %d [%%]" % i) for i in range(n)))
    c.executemany("INSERT INTO GPU_METRICS VALUES (?, ?, ?, ?)",
                  ((1000000 + i, 1000 + i // 1000, i % 1000, i % 100) for i in range(n)))
    c.commit()
    c.close()


def runs(n, path):
    os.makedirs(path, exist_ok=True)
    for i in range(n):
        with open(os.path.join(path, "r%06d.json" % i), "w") as f:
            f.write('{"traceEvents":[{"ph":"X","name":"op%d","pid":1,"tid":1,'
                    '"ts":%d,"dur":%d}]}\n' % (i % 7, i, 10 + i % 13))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    case, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if case == "runs":
        runs(n, path)
        return
    if case == "nsys-metrics":
        nsys_metrics(n, path)
        return
    gens = {"massif": massif, "qeff": qeff, "tids": tids, "counters": counters,
            "memdev": memdev, "phases": phases, "steps": steps, "phaselog": phaselog}
    if case not in gens:
        sys.exit("gen_bounds: unknown case " + case)
    with open(path, "w") as out:
        gens[case](n, out)


if __name__ == "__main__":
    main()
