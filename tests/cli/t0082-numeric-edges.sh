#!/bin/sh
# t0082-numeric-edges: issue 30's overflow items (U1-U3). Run in both builds of
# tests/run.sh, so under UBSan too, where a signed overflow aborts.
# U3: a 14-line massif file whose tree children sum past int64 (two nodes of
# 2^62 bytes) overflowed in ingest/fmt_massif.c, and a child larger than its
# heap printed "46116860184273879040.0%": the sum saturates, a child is at
# most its parent, and massif_tree_sum says so.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

massif() { # massif HEAP ROOT CHILD: one peak snapshot, two children of CHILD bytes
	cat <<EOF2
desc: (none)
cmd: ./prog
time_unit: i
#-----------
snapshot=0
#-----------
time=0
mem_heap_B=$1
mem_heap_extra_B=0
mem_stacks_B=0
heap_tree=peak
n2: $2 (heap allocation functions) malloc/new/new[], --alloc-fns, etc.
 n0: $3 0x1: f (a.c:1)
 n0: $3 0x2: g (a.c:2)
EOF2
}
massif 4611686018427387904 4611686018427387904 4611686018427387904 >sum.out
run "$P" summary sum.out
expect_rc 0 "massif children summing past int64"
expect_out_has "children add up to at least" "massif children summing past int64"
if grep -q "runtime error" "$tmp/err"; then
	fail "massif children summing past int64: $(grep -m1 'runtime error' "$tmp/err")"
fi

massif 10 10 4611686018427387904 >big.out
run "$P" summary big.out
expect_rc 0 "massif child larger than its heap"
expect_out_has "larger than" "massif child larger than its heap"
if grep -Eq '[0-9]{4,}\.[0-9]%' "$tmp/out"; then
	fail "massif child larger than its heap: a share past 100 %: $(grep -Em1 '[0-9]{4,}\.[0-9]%' "$tmp/out")"
fi
expect_out_has "10 B 100.0%  f (a.c:1)" "massif child larger than its heap: f taken as its parent's 10 B"

# U1: a Chrome trace within the documented +-2^62 ns bound (4 steps spanning
# it, one kernel and one memcpy per step, each nearly a quarter of it)
# overflowed in analyze/an_gpubreak.c (all_time += type_time[k]); release
# printed "nan%" shares. The GPU sums saturate.
python3 - <<'PY'
import json
lim = 4611686018427387  # us: 2^62 ns
start, step = -lim + 10, (2 * lim - 20) // 4
ev = []
for i in range(4):
    t = start + i * step
    ev += [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i, "pid": 1, "tid": 1, "ts": t, "dur": step - 5},
           {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": t + 1, "dur": 1, "args": {"correlation": 100 + i}},
           {"ph": "X", "cat": "kernel", "name": "k%d" % i, "pid": 0, "tid": 7, "ts": t + 2, "dur": step - 10, "args": {"correlation": 100 + i, "device": 0, "stream": 7}},
           {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 8, "ts": t + 2, "dur": step - 10, "args": {"device": 0, "stream": 8}}]
json.dump({"traceEvents": ev}, open("u1.json", "w"))
PY
run "$P" summary u1.json
expect_rc 0 "GPU sums near 2^63 ns"
if grep -q "runtime error" "$tmp/err"; then
	fail "GPU sums near 2^63 ns: $(grep -m1 'runtime error' "$tmp/err")"
fi
if grep -qi "nan" "$tmp/out"; then
	fail "GPU sums near 2^63 ns: $(grep -im1 nan "$tmp/out")"
fi
expect_out_has "compute 100.0%" "GPU sums near 2^63 ns: the kernels cover the span"

# U2: a store with times at the int64 limits (another program's store: docs/store.md
# reads them as the nearest bound) overflowed in an_gpubreak.c (the GPU rows and
# op_cover were read unclamped). Every analysis of every command must hold.
if command -v sqlite3 >/dev/null 2>&1; then
	"$P" ingest -q "$TORCH" -o lim.db
	sqlite3 lim.db "UPDATE span SET ts = CASE WHEN id % 3 = 0 THEN 9223372036854775000 WHEN id % 3 = 1 THEN -9223372036854775000 ELSE ts END, dur = CASE WHEN id % 5 = 0 THEN 9223372036854775000 ELSE dur END; UPDATE op_cover SET ts = -9223372036854775000 WHERE rowid % 2 = 0; UPDATE op_cover SET end_ts = 9223372036854775000 WHERE rowid % 3 = 0; UPDATE sample SET ts = 9223372036854775000 WHERE seq % 2 = 0;"
	for cmd in "summary lim.db" "report lim.db -o lim.html --json lim.json -q" \
		"compare lim.db lim.db" "aggregate lim.db -q -o lim.agg.json" "speedscope lim.db -o lim.ss.json -q"; do
		# shellcheck disable=SC2086
		run "$P" $cmd
		if grep -q "runtime error" "$tmp/err"; then
			fail "store at the int64 limits, $cmd: $(grep -m1 'runtime error' "$tmp/err")"
		fi
		[ "$rc" -le 1 ] || fail "store at the int64 limits, $cmd: exit $rc"
	done
else
	echo "$test_name: no sqlite3 shell: the int64-limit store case is left out" >&2
fi

finish
