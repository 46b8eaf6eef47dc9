#!/usr/bin/env python3
"""Writes gpu_log.csv: synthetic output in the exact shape of
  nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu,utilization.memory,\
memory.total,memory.used,memory.free,temperature.gpu,power.draw --format=csv -l 1
on a 2 x H100 80GB HBM3 box: one header line, then one row per GPU per
sample, fields joined by ", ", units in the values ("85 %", "8420 MiB",
"312.45 W"), temperature without a unit, local time without a zone.
Deterministic (fixed seed):  python3 make_sample.py [OUT]
"""
import datetime
import random
import sys

HEADER = ("timestamp, index, name, utilization.gpu [%], utilization.memory [%], "
          "memory.total [MiB], memory.used [MiB], memory.free [MiB], temperature.gpu, "
          "power.draw [W]")
NAME = "NVIDIA H100 80GB HBM3"
TOTAL = 81559
SAMPLES = 30


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "gpu_log.csv"
    rnd = random.Random(115)
    t = datetime.datetime(2024, 1, 15, 10, 23, 45, 123000)
    temp = [34.0, 33.0]
    lines = [HEADER]
    for i in range(SAMPLES):
        for gpu in (0, 1):
            # GPU 0 trains from sample 3 on; GPU 1 joins at sample 8 with a smaller job
            start, peak_mem, peak_util = ((3, 61440, 97) if gpu == 0 else (8, 23552, 74))
            if i < start:
                util, mem_util, used, power = 0, 0, 4 if gpu == 0 else 1, 69.0 + rnd.random() * 3
            else:
                ramp = min(1.0, (i - start + 1) / 4.0)
                util = min(100, int(peak_util * ramp + rnd.randint(-6, 3)))
                mem_util = int(util * 0.48 + rnd.randint(0, 4))
                used = int(520 + (peak_mem - 520) * ramp) + rnd.randint(0, 64)
                power = 70.0 + (690.0 - 70.0) * util / 100.0 * (0.92 + rnd.random() * 0.08)
            if i == SAMPLES - 1 and gpu == 1:       # job on GPU 1 finished
                util, mem_util, used, power = 0, 0, 1, 72.31
            temp[gpu] += ((33 + 0.33 * util) - temp[gpu]) * 0.35
            lines.append("%s, %d, %s, %d %%, %d %%, %d MiB, %d MiB, %d MiB, %d, %.2f W" % (
                t.strftime("%Y/%m/%d %H:%M:%S.") + "%03d" % (t.microsecond // 1000),
                gpu, NAME, util, mem_util, TOTAL, used, TOTAL - used, round(temp[gpu]), power))
        t += datetime.timedelta(milliseconds=1000 + rnd.randint(2, 19))
    with open(out, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
