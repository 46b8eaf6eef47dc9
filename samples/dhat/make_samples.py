#!/usr/bin/python3
"""make_samples.py - regenerates the DHAT samples with the real tool
(valgrind 3.19, Debian 12): compiles prog.c (gcc -O0 -g) and runs
  valgrind --tool=dhat --dhat-out-file=dhat.out.heap ./prog 10
  valgrind --tool=dhat --mode=copy --dhat-out-file=dhat.out.copy ./prog 10 copy
  valgrind --tool=dhat --mode=ad-hoc --dhat-out-file=dhat.out.adhoc ./prog 10
The pid and the command in the files are those of the run; instruction
counts depend on the C library, so a rebuild elsewhere gives other times
(the tests read the committed files)."""
import os
import subprocess
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
with tempfile.TemporaryDirectory() as tmp:
    prog = os.path.join(tmp, "prog")
    subprocess.run(["gcc", "-O0", "-g", "-o", prog, os.path.join(here, "prog.c")], check=True)
    os.chdir(tmp)
    for mode, out, args in [("heap", "dhat.out.heap", ["10"]),
                            ("copy", "dhat.out.copy", ["10", "copy"]),
                            ("ad-hoc", "dhat.out.adhoc", ["10"])]:
        subprocess.run(["valgrind", "--tool=dhat", "--mode=" + mode,
                        "--dhat-out-file=" + os.path.join(here, out), "./prog"] + args,
                       check=True, stderr=subprocess.DEVNULL)
