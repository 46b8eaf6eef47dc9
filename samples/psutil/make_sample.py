#!/usr/bin/env python3
"""Writes process_log.csv: synthetic output in the shape of a small psutil
logger that samples one process once per second and tags each row with the
phase the program last announced. Columns follow QEfficient's ProfileSample
(FORMATS.md section 000): rss_mb/vms_mb = memory_info().rss/vms in MiB,
cpu_percent EMA-smoothed (0.3 x + 0.7 prev), disk_read_mb/disk_write_mb
cumulative MiB, timestamp = time.time() (epoch seconds).
Deterministic (fixed seed):  python3 make_sample.py [OUT]
"""
import random
import sys

PHASES = [("Model Loading", 12), ("Export", 15), ("Compilation", 20), ("Generation", 13)]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "process_log.csv"
    rnd = random.Random(2024)
    t = 1718000000.25
    rss, vms, ema, rd, wr = 412.0, 2210.0, 0.0, 0.0, 0.0
    lines = ["timestamp,rss_mb,vms_mb,cpu_percent,disk_read_mb,disk_write_mb,phase"]
    for name, n in PHASES:
        for i in range(n):
            if name == "Model Loading":          # weights read from disk
                rss += 410 + rnd.uniform(-20, 20)
                vms += 520 + rnd.uniform(-10, 30)
                rd += 395 + rnd.uniform(-30, 30)
                x = 35 + rnd.uniform(-5, 10)
            elif name == "Export":               # ONNX export: graph copies, writes
                rss += (180 if i < 10 else -260) + rnd.uniform(-15, 15)
                vms += 160 if i < 10 else -90
                wr += 310 + rnd.uniform(-25, 25)
                x = 60 + rnd.uniform(-8, 8)
            elif name == "Compilation":          # compiler subprocess, many cores
                rss += (95 if i < 14 else -220) + rnd.uniform(-10, 10)
                vms += 140 if i < 14 else -120
                rd += 12 + rnd.uniform(0, 6)
                wr += 48 + rnd.uniform(-5, 5)
                x = 97 + rnd.uniform(-3, 3)
            else:                                # token generation on the device
                rss += rnd.uniform(-4, 6)
                wr += rnd.uniform(0, 0.3)
                x = 12 + rnd.uniform(-2, 2)
            ema = min(100.0, 0.3 * min(100.0, x) + 0.7 * ema)
            lines.append("%.6f,%.2f,%.2f,%.1f,%.2f,%.2f,%s" % (t, rss, vms, ema, rd, wr, name))
            t += 1.0 + rnd.uniform(0.001, 0.02)
    with open(out, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
