#!/usr/bin/python3
"""console_check.py FILE... - what a console summary must be, whatever it says:
every line at most 80 display columns (wide East Asian characters count 2),
no trailing blanks, and within one run's report no two table rows alike (two
rows that look identical are a label cut too short or a table listing a
thing twice). A table row is a line indented by exactly two blanks whose
columns are separated by runs of blanks; prose (suggestions, notes) repeats
freely. Prints each problem as FILE:LINE: ...; exit 1 if any."""
import sys
import unicodedata


def width(s):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 0 if unicodedata.combining(c) else 1
               for c in s)


def main(files):
    bad = 0
    for name in files:
        seen = {}
        with open(name, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        for n, line in enumerate(lines, 1):
            if line.startswith("run ") and n < len(lines) and lines[n].startswith("="):
                seen = {}  # a new run's report
            if width(line) > 80:
                print("%s:%d: %d columns: %s" % (name, n, width(line), line))
                bad += 1
            if line != line.rstrip():
                print("%s:%d: trailing blanks: %r" % (name, n, line))
                bad += 1
            key = line.strip()
            is_row = line.startswith("  ") and not line.startswith("   ") and "  " in key
            if not key or not is_row:
                continue
            if key in seen:
                print("%s:%d: the same line as line %d: %s" % (name, n, seen[key], line))
                bad += 1
            else:
                seen[key] = n
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
