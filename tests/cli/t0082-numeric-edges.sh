#!/bin/sh
# t0082-numeric-edges: issue 30's overflow items. Run in both builds of
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

finish
