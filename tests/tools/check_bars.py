#!/usr/bin/env python3
"""check_bars.py DUMP... - honest bars in layout dumps (render/layout_dump.c).

For a bar chart whose value axis is linear (no ` log` on it), every bar must
start at zero and be as long as its value: one edge of its rectangle at the
pixel of value 0 (stacked: the category's first segment there, the others end
to end) and its length |value| / (hi - lo) of the plot, within 0.02 px (the
dump rounds to 0.01). A log value axis must be said in the chart's title
("log scale", "log ratio"). Exit 1 with one line per broken bar; 0 when all hold (dumps
that are line charts or empty are skipped).
"""
import re
import sys

TOL = 0.02


def parse(path):
    d = {"bars": [], "texts": [], "axes": {}}
    with open(path, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "layout":
                d["kind"] = w[2]
                d["horizontal"] = "horizontal" in w
                d["empty"] = "empty" in w
            elif w[0] == "plot":
                d["plot"] = [float(v) for v in w[1:5]]
            elif w[0] in ("x", "y") and w[1] == "range":
                d["axes"][w[0]] = {"lo": float(w[2]), "hi": float(w[3]),
                                   "log": w[-1] == "log", "cat": w[4] == "categorical"}
            elif w[0] == "bar":
                d["bars"].append({"cat": int(w[1]), "group": int(w[2]), "value": float(w[5]),
                                  "r": [float(v) for v in w[7:11]]})
            elif w[0] == "text":
                m = re.search(r'"(.*)"$', line.rstrip("\n"))
                d["texts"].append((w[1], m.group(1) if m else ""))
    return d


def check(path):
    d = parse(path)
    errs = []
    if d.get("kind") != "bars" or d.get("empty") or not d["bars"]:
        return errs
    horiz = d["horizontal"]
    va = d["axes"]["x" if horiz else "y"]
    px, py, pw, ph = d["plot"]
    if va["log"]:
        if not any(role == "title" and "log" in t for role, t in d["texts"]):
            errs.append("%s: a log value axis that the chart's title does not name" % path)
        return errs
    span = va["hi"] - va["lo"]
    plen = pw if horiz else ph
    if horiz:
        zero = px + (0 - va["lo"]) / span * pw
    else:
        zero = py + ph - (0 - va["lo"]) / span * ph
    for b in sorted(d["bars"], key=lambda b: (b["cat"], b["group"])):
        x, y, w, h = b["r"]
        length = w if horiz else h
        want = abs(b["value"]) / span * plen
        if abs(length - want) > TOL:
            errs.append("%s: bar %d %d value %g is %.2f px long, want %.2f from zero"
                        % (path, b["cat"], b["group"], b["value"], length, want))
        if horiz:
            edge = x if b["value"] >= 0 else x + w
        else:
            edge = y + h if b["value"] >= 0 else y
        if abs(edge - zero) > TOL:
            errs.append("%s: bar %d %d value %g starts at %.2f px, not at %.2f (zero)"
                        % (path, b["cat"], b["group"], b["value"], edge, zero))
    return errs


def main(argv):
    errs = []
    for path in argv[1:]:
        d = parse(path)
        # Stacked bars: more than one bar of a category sharing its slot (same
        # cross-axis position); their segments lie end to end.
        errs += check_stacked(path, d) if stacked(d) else check(path)
    for e in errs:
        print(e)
    return 1 if errs else 0


def stacked(d):
    seen = {}
    for b in d["bars"]:
        x, y, w, h = b["r"]
        key = (b["cat"], round(y if d.get("horizontal") else x, 2))
        if key in seen:
            return True
        seen[key] = 1
    return False


def check_stacked(path, d):
    errs = []
    horiz = d["horizontal"]
    va = d["axes"]["x" if horiz else "y"]
    px, py, pw, ph = d["plot"]
    span = va["hi"] - va["lo"]
    plen = pw if horiz else ph
    zero = px + (0 - va["lo"]) / span * pw if horiz else py + ph - (0 - va["lo"]) / span * ph
    pos = {}
    for b in sorted(d["bars"], key=lambda b: (b["cat"], b["group"])):
        x, y, w, h = b["r"]
        length = w if horiz else h
        want = b["value"] / span * plen
        if abs(length - want) > TOL:
            errs.append("%s: stacked bar %d %d value %g is %.2f px long, want %.2f"
                        % (path, b["cat"], b["group"], b["value"], length, want))
        start = pos.get(b["cat"], zero)
        edge = x if horiz else y + h
        if abs(edge - start) > TOL:
            errs.append("%s: stacked bar %d %d starts at %.2f px, not at %.2f"
                        % (path, b["cat"], b["group"], edge, start))
        pos[b["cat"]] = x + w if horiz else y
    return errs


if __name__ == "__main__":
    sys.exit(main(sys.argv))
