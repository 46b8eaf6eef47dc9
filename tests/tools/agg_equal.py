#!/usr/bin/env python3
"""agg_equal.py DIRECT MERGED: is a map/reduce's agg.json the direct aggregate?

Every field of the two agg.json files must be equal, byte for byte in its JSON
text, except "mean" and "m2" inside each accumulator's "state.moments": those
are Chan's running moments (for std), whose merge rounds in another order than
a one-pass fold, so they agree to the last bits only (analyze/multi/aggregate.h);
they are compared as numbers within a relative 1e-12 (t0047, t0131, t0132
use it). Exit 0 when equal; else 1, printing the
first 10 differences.
"""
import json
import sys


def load(p):
    with open(p) as f:
        return json.load(f)


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    bad = []
    near = [0]

    def walk(x, y, path):
        if isinstance(x, dict) and isinstance(y, dict):
            if list(x) != list(y):
                bad.append(path + ": keys " + repr(list(x)) + " vs " + repr(list(y)))
                return
            for k in x:
                walk(x[k], y[k], path + "." + k)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                bad.append(path + ": length %d vs %d" % (len(x), len(y)))
                return
            for i, (u, v) in enumerate(zip(x, y)):
                walk(u, v, "%s[%d]" % (path, i))
        elif path.endswith(".moments.mean") or path.endswith(".moments.m2"):
            u, v = float.fromhex(x), float.fromhex(y)
            if u != v:
                near[0] += 1
                if abs(u - v) > 1e-12 * max(abs(u), abs(v)):
                    bad.append("%s: %r vs %r" % (path, x, y))
        elif json.dumps(x) != json.dumps(y) or type(x) != type(y):
            bad.append("%s: %r vs %r" % (path, x, y))

    walk(a, b, "")
    for line in bad[:10]:
        print(line)
    print("moments differing in the last bits:", near[0])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
