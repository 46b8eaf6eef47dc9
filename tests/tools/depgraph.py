#!/usr/bin/env python3
"""depgraph.py SRC BUILD [KNOWN] - the file-level dependency graphs of the tree
(issue 31): no cycle between files, no upward edge between layers.

Two graphs, both between the project's modules (a module is a .c file with
its .h of the same name, e.g. analyze/spanstat, analyze/multi/compare):
  - the include graph: module A -> B when A's .c or .h includes "B.h";
  - the symbol graph: object A -> B when A's object file uses a global symbol
    that B's object file defines (nm over BUILD's object files), i.e. the
    calls and data the linker resolves, whatever the headers say.
The rooms (a folder, one CMake target each) and their layers (check_source.sh):
base < store < {ingest, analyze, analyze/export} < {analyze/multi, render} < cli.
An edge from a lower layer to a higher one, or between two rooms of one layer
(ingest and analyze, analyze and its exporters, the multi-run code and render),
is upward. A cycle is a strongly connected component of more than one module.

KNOWN lists the cycles not yet broken, one per line, as the sorted members
joined by spaces ('#' starts a comment). Exit 1 when a graph has a cycle that
KNOWN does not list, an upward edge, or KNOWN lists a cycle that no longer
exists (remove it: the list only shrinks). Prints every cycle either way.
"""
import os
import re
import subprocess
import sys

LAYER = {"base": 0, "store": 1, "ingest": 2, "analyze": 2, "analyze/export": 2,
         "analyze/multi": 3, "render": 3, "cli": 4}
INC = re.compile(r'^\s*#\s*include\s+"((?:[a-z_]+/)+[A-Za-z0-9_]+)\.h"', re.M)


def room(module):
    return module.rsplit("/", 1)[0]


def modules(src):
    mods = {}
    for d in LAYER:
        for f in sorted(os.listdir(os.path.join(src, d))):
            stem, ext = os.path.splitext(f)
            if ext in (".c", ".h"):
                mods.setdefault(d + "/" + stem, []).append(os.path.join(src, d, f))
    return mods


def include_graph(src, mods):
    g = {m: set() for m in mods}
    for m, files in mods.items():
        for f in files:
            with open(f, encoding="utf-8", errors="replace") as fh:
                for to in INC.findall(fh.read()):
                    if to in mods and to != m:
                        g[m].add(to)
    return g


def nm(obj, *flags):
    out = subprocess.run(["nm", "-P", *flags, obj], capture_output=True, text=True,
                         check=True).stdout
    return [ln.split()[0] for ln in out.splitlines() if ln.strip()]


def symbol_graph(build, mods):
    objs = {}
    for d in LAYER:
        # build/ROOM/CMakeFiles holds ROOM's target alone (a subfolder's has its own)
        for root, _, files in os.walk(os.path.join(build, d, "CMakeFiles")):
            for f in files:
                if f.endswith(".c.o"):
                    m = d + "/" + f[:-4]
                    if m in mods:
                        objs[m] = os.path.join(root, f)
    defs, uses = {}, {}
    for m, o in objs.items():
        for s in nm(o, "-g", "--defined-only"):
            defs.setdefault(s, m)
        uses[m] = set(nm(o, "-u"))
    g = {m: set() for m in objs}
    for m, syms in uses.items():
        for s in syms:
            to = defs.get(s)
            if to and to != m:
                g[m].add(to)
    return g, len(objs)


def sccs(g):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], 0
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = n
        n += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = n
                    n += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(g.get(nxt, ())))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(" ".join(sorted(comp)))
    return sorted(out)


def upward(g):
    bad = []
    for a in sorted(g):
        for b in sorted(g[a]):
            la, lb = room(a), room(b)
            if LAYER[lb] > LAYER[la] or (la != lb and LAYER[la] == LAYER[lb]):
                bad.append("%s -> %s" % (a, b))
    return bad


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: depgraph.py SRC BUILD [KNOWN]\n")
        return 2
    src, build = sys.argv[1], sys.argv[2]
    known = set()
    if len(sys.argv) > 3:
        with open(sys.argv[3], encoding="utf-8") as fh:
            for ln in fh:
                ln = ln.split("#", 1)[0].strip()
                if ln:
                    known.add(" ".join(sorted(ln.split())))
    mods = modules(src)
    ginc = include_graph(src, mods)
    gsym, nobj = symbol_graph(build, mods)
    if not nobj:
        sys.stderr.write("depgraph: no object files under %s\n" % build)
        return 2
    fail = 0
    seen = set()
    for name, g in (("include", ginc), ("symbol", gsym)):
        edges = sum(len(v) for v in g.values())
        cyc = sccs(g)
        print("%s graph: %d modules, %d edges, %d cycles" % (name, len(g), edges, len(cyc)))
        for c in cyc:
            seen.add(c)
            tag = "known" if c in known else "NEW"
            print("  cycle (%s): %s" % (tag, c))
            fail |= c not in known
        for e in upward(g):
            print("  UPWARD: %s" % e)
            fail = 1
    for c in sorted(known - seen):
        print("  broken, remove from the known list: %s" % c)
        fail = 1
    print("depgraph: %s" % ("FAIL" if fail else "ok"))
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
