#!/usr/bin/env python3
"""make_sample.py - builds prog.c and runs it under valgrind massif twice,
writing massif.out.i (--time-unit=i: instructions executed) and
massif.out.B (--time-unit=B: bytes allocated and freed). Real valgrind
output, nothing edited. Needs gcc and valgrind (Debian: valgrind 3.19).
The instruction counts depend on the C library, so a rebuild on another
machine gives other times (the tests read the committed files).
"""
import os
import subprocess
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as tmp:
    exe = os.path.join(tmp, "prog")
    subprocess.run(["gcc", "-O0", "-g", "-o", exe, "prog.c"], cwd=here, check=True)
    for unit in ("i", "B"):
        out = "massif.out." + unit
        # run from here with ./prog's name so that cmd: says "./prog 40"
        subprocess.run(["cp", exe, os.path.join(here, "prog")], check=True)
        try:
            subprocess.run(["valgrind", "--tool=massif", "--time-unit=" + unit,
                            "--massif-out-file=" + out, "./prog", "40"],
                           cwd=here, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        finally:
            os.remove(os.path.join(here, "prog"))
        print(out, os.path.getsize(os.path.join(here, out)), "bytes")
