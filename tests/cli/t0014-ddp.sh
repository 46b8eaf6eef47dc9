#!/bin/sh
# t0014-ddp: a real 4-rank DDP run (gloo, CPU, Debian's torch 1.13 without
# Kineto: bare-array traces whose events carry no "cat"), rank 2 slowed by
# 80 ms per step in data loading (samples/ddp/make_ddp.py).
#
# The numbers below come from samples/ddp/facts.py, which reads the JSON
# with Python alone (no profreport):
#   data_loading totals (ns): rank0 102285000, rank1 103915000,
#     rank2 501652000, rank3 102370000; median 103142500; rank 2 4.86x
#   gloo:all_reduce: rank 2 16419000, median 414890000 (0.04x)
#   hostpid/: the same, rank 2 is vm_5971... (pids in spawn order): data_loading
#     501940000, median 103997000 (4.83x)
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

cp -R "$PR_SAMPLES/ddp/named" named
cp -R "$PR_SAMPLES/ddp/hostpid" hostpid

# -- phases without categories: direct children of steps that are not ops
run "$P" summary named/rank2.1795507315379.pt.trace.json
expect_rc 0 "summary of one rank"
# a bottleneck measured against the steps' time (issue 26), so the same 95.2 % as the finding below
expect_out_has "data_loading                               95.2%  501.652 ms" "data_loading is the largest stage (501.652 of the steps' 5 x 105.433 ms)"
# DataLoader rule on the inferred phase: 501652000 / (5 x 105433000) = 95.2 % of the step time
expect_out_has "[high] DataLoader: data_loading takes 95.2% of the step time" "the DataLoader finding"
if grep -q "inferix\." "$tmp/out"; then
	fail "an Inferix rule fired on a torch trace"
	show
fi
run "$P" report named/rank2.1795507315379.pt.trace.json --json model.json
expect_rc 0 "model of one rank"
run "$P" report named/rank2.1795507315379.pt.trace.json -o r.html
expect_rc 0 "HTML report of one rank"
grep -q 'rank 2 &middot;' r.html || fail "the page does not say rank 2"
if grep -q 'of -1' r.html; then fail "the page says 'of -1' for an unknown world size"; fi
tr -d ' \n' <model.json | grep -q '"names":\["data_loading","forward","backward","optimizer"\]' ||
	fail "the model does not list the inferred phases in first-seen order"
grep -q 'a slice that is a direct child of a step' model.json ||
	fail "the model does not state the phase rule"

# -- the straggler is rank 2, by its data loading and by its wait
run "$P" aggregate named -o agg.json
expect_rc 0 "aggregate of the named ranks"
expect_out_has "  rank 2: data_loading 4.86x the median; waits 96 % less in gloo:all_reduce" "rank 2 named"
expect_out_has "501.652 ms vs median 103.142 ms (4.86x)" "data_loading evidence"
expect_out_has "16.419 ms vs median 414.890 ms (0.04x)" "collective evidence"
if grep -Eq '^  rank [013]' "$tmp/out"; then
	fail "a rank other than 2 is named (forward 1.64x on rank 1 is 2 ms of 530 ms)"
	show
fi
# exact medians with few ranks: data_loading's median is the mean of the middle two
grep -A12 '"name": "data_loading"' agg.json | grep -q '"median": 103142500' ||
	fail "data_loading median is not exact (103142500)"
grep -A12 '"name": "data_loading"' agg.json | grep -q '"median_exact": true' ||
	fail "median_exact is not true with 4 ranks"

# -- file names without ranks: a warning, the file named; the user states ranks
run "$P" aggregate hostpid -q -o agg2.json
expect_rc 0 "aggregate of <host>_<pid> files"
expect_err_has "ranks inferred" "inferred ranks are warned about"
grep -q '"summary": "rank 2 (vm_5971.1795507328666.pt.trace.json): data_loading 4.83x the median' agg2.json ||
	fail "the straggler of inferred ranks is not named with its file"
run "$P" aggregate hostpid --ranks 3,2,1,0
expect_rc 0 "--ranks"
expect_out_has "  rank 1:" "--ranks gives vm_5971 (third in sorted order) rank 1"
run "$P" aggregate hostpid --rank-from 'vm_([0-9]+)\.'
expect_rc 0 "--rank-from"
expect_out_has "  rank 5971:" "--rank-from takes the regex group's digits"
run "$P" aggregate hostpid --ranks 0-2
expect_rc 2 "--ranks with fewer ranks than inputs"
expect_one_err_line "--ranks count mismatch"
expect_err_has "more inputs than the 3 ranks --ranks names" "--ranks count mismatch message"
run "$P" aggregate hostpid --ranks 0-7
expect_rc 2 "--ranks with more ranks than inputs"
expect_err_has "--ranks names 8 ranks but 4 inputs were read" "--ranks surplus message"
run "$P" aggregate hostpid --rank-from 'rank([0-9]+)'
expect_rc 2 "--rank-from that matches nothing"
expect_one_err_line "--rank-from no match"
run "$P" aggregate hostpid --rank-from 'vm_'
expect_rc 2 "--rank-from without a group"
expect_err_has "needs a group around the rank" "--rank-from group message"
run "$P" aggregate hostpid --ranks 'a,b'
expect_rc 2 "--ranks not numbers"

# -- the same file twice counts once; two files claiming one rank are an error
run "$P" aggregate named named/rank0.1795507315379.pt.trace.json -q
expect_rc 0 "a duplicate input"
expect_err_has "has the same content as" "duplicate warned"
run "$P" aggregate named "$PR_SAMPLES/ranks/rank0.pt.trace.json" -q
expect_rc 2 "two inputs with rank 0"
expect_one_err_line "rank clash"
expect_err_has "rank 0 is already taken by 'named/rank0.1795507315379.pt.trace.json'" "rank clash message"
# different world sizes: rank 0 of a 4-rank job and rank 1 of an 8-rank job
sed 's/"world_size": 4/"world_size": 8/' "$PR_SAMPLES/ranks/rank1.pt.trace.json" >w8_rank1.json
grep -q '"world_size": 8' w8_rank1.json || fail "test setup: world_size not rewritten"
run "$P" aggregate "$PR_SAMPLES/ranks/rank0.pt.trace.json" w8_rank1.json -q
expect_rc 2 "different world sizes"
expect_err_has "world size 8, but" "world size clash message"

finish
