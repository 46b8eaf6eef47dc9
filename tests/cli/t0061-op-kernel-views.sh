#!/bin/sh
# t0061-op-kernel-views: the model's op_view and kernel_view. A CPU-only trace
# made here (numbers by hand), the 5000-row bound (numbers by hand), and real
# Kineto traces (tests/data/traces) checked against the
# same numbers computed by tests/tools/opkern_check.py from the trace alone
# (nesting, correlation links) and, for the H100 trace, TraceLens's
# ops_summary.csv (device self per op name).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# CPU only: A [0, 100] us with B [10, 40] and C [50, 70] inside; A again [200, 260]
# with other shapes. By hand: A [[2,3]] self 100 - 30 - 20 = 50 us; no device columns.
cat >cpu.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 100,
  "args": {"Input Dims": [[2, 3]], "Input type": ["float"]}},
 {"ph": "X", "cat": "cpu_op", "name": "B", "pid": 1, "tid": 1, "ts": 10, "dur": 30,
  "args": {"Input Dims": [[2, 3]], "Input type": ["float"]}},
 {"ph": "X", "cat": "cpu_op", "name": "C", "pid": 1, "tid": 1, "ts": 50, "dur": 20,
  "args": {"Input Dims": [[4]], "Input type": ["c10::BFloat16"]}},
 {"ph": "X", "cat": "cpu_op", "name": "A", "pid": 1, "tid": 1, "ts": 200, "dur": 60,
  "args": {"Input Dims": [[5, 5]], "Input type": ["float"]}}
]}
JSON
run "$P" report cpu.json -o cpu.html --json cpu.model.json -q
expect_rc 0 "report of a CPU-only trace"
/usr/bin/python3 - cpu.model.json <<'EOF' || fail "CPU-only op_view"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ov = r["op_view"]
rows = {(x["name"], x["input_dims"], x["input_type"]): x for x in ov["rows"]}
want = {("A", "[[2,3]]", '["float"]'): (1, 100000, 50000), ("A", "[[5,5]]", '["float"]'): (1, 60000, 60000),
        ("B", "[[2,3]]", '["float"]'): (1, 30000, 30000), ("C", "[[4]]", '["c10::BFloat16"]'): (1, 20000, 20000)}
ok = set(rows) == set(want) and all((rows[k]["calls"], rows[k]["host_total_ns"], rows[k]["host_self_ns"]) == v
                                    for k, v in want.items())
ok = ok and ov["has_device"] is False and not any("device_self_ns" in x for x in ov["rows"])
ok = ok and "kernel_view" not in r and ov["calls"] == 4 and ov["host_self_ns"] == 160000
ok = ok and [x["name"] for x in ov["rows"]] == ["A", "A", "B", "C"]  # by host total, largest first
sys.exit(0 if ok else print(json.dumps(ov, indent=1)) or 1)
EOF
grep -q 'id="r0-ops" data-kind="ops"' cpu.html || fail "the page has the op view"
grep -q 'data-kind="kernels"' cpu.html && fail "a CPU-only page has no kernel view"

# The bound: 5003 (name, shape) rows, op i lasting 1000 + i us: the 4 shortest are
# folded into "(other ops)" (calls 4, host total 1000 + 1001 + 1002 + 1003 us).
/usr/bin/python3 - >many.json <<'EOF'
import json
ev = [{"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": i * 3000, "dur": 1000 + i,
       "args": {"Input Dims": [[i]], "Input type": ["float"]}} for i in range(5003)]
print(json.dumps({"traceEvents": ev}))
EOF
run "$P" summary many.json --json many.model.json
expect_rc 0 "summary of 5003 op shapes"
/usr/bin/python3 - many.model.json <<'EOF' || fail "op_view bound"
import json, sys
ov = json.load(open(sys.argv[1]))["runs"][0]["op_view"]
last = ov["rows"][-1]
ok = len(ov["rows"]) == 5000 and ov["distinct"] == 5003 and ov["folded"] == 4
ok = ok and last["name"] == "(other ops)" and last["other"] is True and last["calls"] == 4
ok = ok and last["host_total_ns"] == (1000 + 1001 + 1002 + 1003) * 1000
ok = ok and ov["rows"][0]["input_dims"] == "[[5002]]" and ov["calls"] == 5003
sys.exit(0 if ok else print(len(ov["rows"]), ov["distinct"], ov["folded"], last) or 1)
EOF

TR=$TRACES
for f in hta/nccl_parser_config/nccl_data.json.gz hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
	hta/trace_filter/sampled_rank-0.json.gz tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz; do
	need_trace "$TR/$f"
	run "$P" summary "$TR/$f" --json m.json
	expect_rc 0 "summary of $f"
	case $f in
	tracelens/*) extra="--tracelens $TR/tracelens/reference/h100/ops_summary.csv" ;;
	*) extra= ;;
	esac
	# shellcheck disable=SC2086
	/usr/bin/python3 "$PR_TESTS/tools/opkern_check.py" "$TR/$f" m.json $extra >check.txt 2>&1 ||
		fail "op/kernel views of $f: $(head -5 check.txt)"
done
finish
