#!/usr/bin/env python3
"""make_sample.py - writes massif.out.12345 in the exact shape valgrind
massif (3.19) writes with --time-unit=ms (synthetic: no program was run).
A program that allocates 10 blocks in g() and f() (both called from main),
then frees them: 8 snapshots, snapshot 3 detailed, snapshot 5 the peak
(heap_tree=peak, with a below-threshold entry), the last one empty.
"""
SEP = "#-----------\n"
snaps = [  # time ms, heap, extra, stacks, tree
    (0, 0, 0, 0, None),
    (51, 4000, 80, 0, None),
    (103, 12000, 240, 0, None),
    (160, 20000, 400, 0, "detailed"),
    (214, 26000, 520, 0, None),
    (262, 30400, 616, 0, "peak"),
    (319, 10000, 200, 0, None),
    (371, 0, 0, 0, None),
]
trees = {
    "detailed": [
        "n2: 20000 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.",
        " n1: 12000 0x10919E: g (prog.c:6)",
        "  n0: 12000 0x109203: main (prog.c:21)",
        " n1: 8000 0x1091C5: f (prog.c:12)",
        "  n0: 8000 0x10920D: main (prog.c:22)",
    ],
    "peak": [
        "n3: 30400 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.",
        " n1: 18000 0x10919E: g (prog.c:6)",
        "  n0: 18000 0x109203: main (prog.c:21)",
        " n1: 12000 0x1091C5: f (prog.c:12)",
        "  n0: 12000 0x10920D: main (prog.c:22)",
        " n0: 400 in 2 places, all below massif's threshold (1.00%)",
    ],
}
with open("massif.out.12345", "w") as out:
    out.write("desc: --time-unit=ms\ncmd: ./prog 10\ntime_unit: ms\n")
    for i, (t, heap, extra, stacks, tree) in enumerate(snaps):
        out.write(SEP + "snapshot=%d\n" % i + SEP)
        out.write("time=%d\nmem_heap_B=%d\nmem_heap_extra_B=%d\nmem_stacks_B=%d\n"
                  % (t, heap, extra, stacks))
        out.write("heap_tree=%s\n" % (tree or "empty"))
        for line in trees.get(tree, []):
            out.write(line + "\n")
