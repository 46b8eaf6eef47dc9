#!/usr/bin/env python3
"""Writes memory_20241219_143000.csv: a synthetic log in the exact shape that
llama_hexagon's scripts/monitor_memory.sh produces (FORMATS.md section 004).

Also writes the phase log that a run script keeps next to it (OUT with .csv
replaced by .phases.log): one `date +%s.%3N` and a phase name per line, for
`profreport ... --phases` (the phases follow the made-up load below).

Deterministic (fixed seed); run from anywhere:  python3 make_sample.py [OUT]
Shape reproduced on purpose:
  * exact header, LF line endings, timestamps `date +%s.%3N` (epoch s, 3 decimals)
  * a real sampling period of about 0.43 s (the script's `sleep 0.1` plus the
    ~20 forks per sample), with jitter
  * cached_kb = Cached || SwapCached as digits (grep "Cached:" matches both
    lines and `tr -d '\\r\\n'` joins them); SwapCached is 0 here, so the value
    is 10x the real page cache
  * proc_rss_kb / proc_vss_kb always 0 (INFERENCE_PID is never seen by the
    sampling subshell)
  * no swap (swap_total_kb = swap_free_kb = 0), like the Linux box in FORMATS.md
  * the last row has no trailing newline (monitor killed between `echo -n`
    and `echo ""`)
"""
import calendar
import random
import sys

HEADER = ("timestamp,total_memory_kb,free_memory_kb,available_memory_kb,buffers_kb,"
          "cached_kb,swap_total_kb,swap_free_kb,proc_rss_kb,proc_vss_kb")
ROWS = 60
TOTAL = 24683620          # MemTotal of the box in FORMATS.md's realistic row
FREE0 = 21895604          # MemFree at rest (same row)
CACHED0 = 2401840         # real Cached at rest (the row's 24018400 = 2401840 || 0)
BUFFERS0 = 41296
MODEL_FILE_KB = 4300000   # page cache filled while the model file is read
ANON_PEAK_KB = 13900000   # weights copied + compute buffers + KV cache


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "memory_20241219_143000.csv"
    rnd = random.Random(20241219)
    # host file name is host local time (KST, UTC+9) 2024-12-19 14:30:00; the
    # device clock starts about 1.2 s later (adb shell start-up)
    t = calendar.timegm((2024, 12, 19, 5, 30, 0)) + 1.2
    lines = [HEADER]
    times = []
    for i in range(ROWS):
        if i < 8:                      # idle before llama-cli starts
            load, anon = 0.0, 0.0
        elif i < 21:                   # model load: file pages into the cache
            load, anon = (i - 7) / 13.0, 0.15 * (i - 7) / 13.0
        elif i < 50:                   # inference: buffers and KV cache grow
            load, anon = 1.0, 0.15 + 0.85 * min(1.0, (i - 20) / 22.0)
        else:                          # llama-cli exits: anon freed, cache stays
            load, anon = 1.0, max(0.0, 1.0 - (i - 49) / 3.0) * 0.9
        cached = CACHED0 + int(MODEL_FILE_KB * load) + rnd.randint(0, 400)
        buffers = BUFFERS0 + 4 * i + rnd.randint(0, 8)
        anon_kb = int(ANON_PEAK_KB * anon) + rnd.randint(0, 2000)
        free = FREE0 - (cached - CACHED0) - (buffers - BUFFERS0) - anon_kb
        avail = free + int(0.955 * (cached + buffers)) + rnd.randint(-300, 300)
        swap_cached = 0
        cached_kb = str(cached) + str(swap_cached)      # the concatenation bug
        lines.append("%.3f,%d,%d,%d,%d,%s,0,0,0,0" % (t, TOTAL, free, avail, buffers,
                                                       cached_kb))
        times.append(float("%.3f" % t))
        t += 0.43 + rnd.uniform(-0.025, 0.035)
    with open(out, "w", newline="\n") as f:
        f.write("\n".join(lines))                       # no newline after the last row
    # The run script logs each phase as it enters it, 0.2 s after the sample
    # before the change (between two samples, never on one); llama-cli
    # exits 3 samples after its memory starts to go, the monitor runs on.
    phases = [(7, "load_model"), (20, "inference"), (49, "teardown"), (52, "end")]
    log = ["# llama-cli phases, as a run script logs them: echo \"$(date +%s.%3N) NAME\""]
    for row, name in phases:
        log.append("%.3f %s" % (times[row] + 0.2, name))
    with open(out[:-4] + ".phases.log" if out.endswith(".csv") else out + ".phases.log",
              "w", newline="\n") as f:
        f.write("\n".join(log) + "\n")


if __name__ == "__main__":
    main()
