#!/bin/sh
# t0053-gpu-rows-stream: the GPU analyses' rows (analyze/gpuscan.h) are not
# held in memory: the shared span pass appends them to a stream (in memory
# up to 1 MiB, then an unlinked scratch file in $TMPDIR) that gpu_breakdown
# and gpu read back. A run of 16 000 launches and 16 000 kernels (a row
# takes 40 bytes there, a kernel's 64: 1.66 MB) goes to the file; the span
# ids of the launches and kernels (8 bytes each: 256 000 bytes, under a
# quarter of 1 MiB) and the 36 000 spans' durations (20 bytes each: 720 KB)
# stay in memory, so the GPU rows' stream is the only file. Checked here:
# gpu_breakdown's and gpu's numbers equal those python derives from the
# trace itself (the launches' ops come from span_up, merged with the rows'
# span ids read back from their own stream); a scratch directory that does
# not exist, or a file that cannot grow, fails the command with one line
# naming the GPU rows, exit 2, nothing on stdout; no temporary file is left
# behind.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

py=/usr/bin/python3
[ -x "$py" ] || py=python3

# 4000 ops aten::opK (K = j % 4) of 38 us at 40 j us, each launching 4 kernels
# (q = 0..3): the call at 40 j + 10 q + 1 (2 us, correlation 4 j + q + 1), its kernel
# at 40 j + 10 q + 4 lasting 1 + K + q us on stream 7 (no two kernels overlap: the
# last of op j ends by 40 j + 41, the next starts at 40 j + 44)
"$py" - t.json want.txt <<'EOF' || fail "setup: t.json"
import json, sys
ev, busy, self_ns = [], 0, {}
for j in range(4000):
    k = j % 4
    name = "aten::op%d" % k
    ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": 40 * j, "dur": 38})
    for q in range(4):
        i = 4 * j + q
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": 40 * j + 10 * q + 1, "dur": 2, "args": {"correlation": i + 1}})
        d = 1 + k + q
        ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % (i % 3), "pid": 0, "tid": 7,
                   "ts": 40 * j + 10 * q + 4, "dur": d,
                   "args": {"device": 0, "stream": 7, "correlation": i + 1}})
        busy += d * 1000
        self_ns[name] = self_ns.get(name, 0) + d * 1000
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
with open(sys.argv[2], "w") as f:
    f.write("ops 16000 busy %d linked 1\n" % busy)
    f.write("launches 16000 latency 3000\n")  # every kernel 3 us after its call
    for name in sorted(self_ns):
        f.write("%s %d\n" % (name, self_ns[name]))
EOF

run "$P" ingest t.json -o t.db
expect_rc 0 "ingest of 16 000 launches and kernels"

run "$P" summary t.db --json m.json
expect_rc 0 "summary (the GPU rows through a scratch file)"
"$py" - m.json >got.txt <<'EOF' || fail "reading the model"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
g, l = r["gpu_breakdown"], r["gpu"]["launches"]
print("ops %d busy %d linked %g" % (g["ops"], g["rank"]["busy_ns"], g["idle"]["launch_linked_share"]))
print("launches %d latency %d" % (l["linked"], l["latency"]["p50_ns"]))
for x in sorted(r["gpu"]["ops"]["items"], key=lambda x: x["name"]):
    print(x["name"], x["device_self_ns"])
EOF
cmp -s want.txt got.txt || fail "GPU numbers: got $(cat got.txt), want $(cat want.txt)"

# -- no scratch directory: one line naming it and the GPU rows, nothing on stdout
run env TMPDIR=/nonexistent/profreport "$P" summary t.db
expect_error "profreport: summary: cannot create a scratch file for the GPU rows in '/nonexistent/profreport': No such file or directory" \
	"a scratch directory that does not exist"

# -- a scratch file that cannot grow past 512 KB (SIGXFSZ ignored): EFBIG
run sh -c 'trap "" XFSZ; ulimit -f 1024 && exec "$0" summary t.db' "$P"
expect_error "profreport: summary: scratch file of the GPU rows: File too large" \
	"a scratch file that cannot be written"

ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "summary left temporary files: $(cat leftover)"

finish
