#!/bin/sh
# t0097-kclass-mtia: issue 28, "one classification", "one launch link" and
# stream names / queue statistics, on a constructed MTIA-shaped trace (HTA's MTIA trace is not available):
# MTIA runtime calls named runFunction (category mtia_runtime), kernels on
# device tracks whose thread ids (4, 408) are not Kineto's stream ids (1,
# 102), dma* kernels, and a device event without a "stream" arg.
#
# DERIVATION (by hand, times in us; tests/tools/gpu_ref.py, no profreport
# code, computes the same and is compared below):
#   stream 1 (tid 4):   matmul_kernel [10,25] corr 1, dma_request [40,50] corr 2,
#                       add_kernel [80,90] corr 3, dma_write [90.02,95.02] corr 4
#   stream 102 (tid 408): dma_copy [15,35] corr 5
#   runFunction calls start at 0 (corr 1), 12 (5), 30 (2), 70 (3), 85 (4)
#   mtia_marker [200,250] has no stream arg: left out (HTA), else span 240 us
#   span 10 .. 95.02 = 85 020 ns; busy [10,35]+[40,50]+[80,90]+[90.02,95.02] = 50 000;
#   compute (dma* is memory on MTIA, HTA's ^dma) [10,25]+[80,90] = 25 000;
#   memory 50 000 - 25 000 = 25 000; idle 35 020.
#   rank gaps: 35->40 (call 2 at 30 < 35: other 5 000), 50->80 (call 3 at 70 > 50:
#   host wait 30 000), 90->90.02 (call 4 at 85 < 90, 20 ns < 30: kernel wait 20).
#   stream 1 gaps: 25->40 host 15 000, 50->80 host 30 000, 90->90.02 kernel 20:
#   host wait 45 000 (0 before: runFunction is not named launch/memcpy/memset).
#   On an NVIDIA device (deviceProperties) dma* stays compute: compute = busy = 50 000.
#   --comm-kernels dma_c: dma_copy is communication: union(compute, comm)
#   [10,35]+[80,90] = 35 000 - compute 25 000 = 10 000; memory 15 000.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	echo "t0097-kclass-mtia: skipped (no python3)"
	exit 77
fi
REF=$PR_TESTS/tools/gpu_ref.py

cat >mtia.json <<'JSON'
{"schemaVersion": 1, "distributedInfo": {"rank": 0, "world_size": 1},
 "traceEvents": [
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":0,"dur":8},
{"ph":"X","cat":"mtia_runtime","name":"runFunction","pid":100,"tid":100,"ts":0,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"mtia_runtime","name":"runFunction","pid":100,"tid":100,"ts":12,"dur":2,"args":{"correlation":5}},
{"ph":"X","cat":"mtia_runtime","name":"runFunction","pid":100,"tid":100,"ts":30,"dur":5,"args":{"correlation":2}},
{"ph":"X","cat":"mtia_runtime","name":"runFunction","pid":100,"tid":100,"ts":70,"dur":5,"args":{"correlation":3}},
{"ph":"X","cat":"mtia_runtime","name":"runFunction","pid":100,"tid":100,"ts":85,"dur":2,"args":{"correlation":4}},
{"ph":"X","cat":"kernel","name":"matmul_kernel","pid":0,"tid":4,"ts":10,"dur":15,"args":{"device":0,"stream":1,"correlation":1}},
{"ph":"X","cat":"kernel","name":"dma_copy","pid":0,"tid":408,"ts":15,"dur":20,"args":{"device":0,"stream":102,"correlation":5}},
{"ph":"X","cat":"kernel","name":"dma_request","pid":0,"tid":4,"ts":40,"dur":10,"args":{"device":0,"stream":1,"correlation":2}},
{"ph":"X","cat":"kernel","name":"add_kernel","pid":0,"tid":4,"ts":80,"dur":10,"args":{"device":0,"stream":1,"correlation":3}},
{"ph":"X","cat":"kernel","name":"dma_write","pid":0,"tid":4,"ts":90.02,"dur":5,"args":{"device":0,"stream":1,"correlation":4}},
{"ph":"X","cat":"kernel","name":"mtia_marker","pid":0,"tid":5,"ts":200,"dur":50,"args":{"device":0}}
]}
JSON
sed 's/"mtia_runtime"/"cuda_runtime"/; s/"schemaVersion": 1,/"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100"}],/' \
	mtia.json >cuda.json

# gb FILE EXPR WANT DESC: the Python expression over gpu_breakdown (g) is WANT
gb() {
	got=$(python3 -c 'import json, sys
g = json.load(open(sys.argv[1]))["runs"][0]["gpu_breakdown"]
st = {s["stream"]: s for s in g["streams"]}
ty = {t["type"]: t for t in g["kernels"]["by_type"]}
top = {t["name"]: t for t in g["kernels"]["top"]}
print(eval(sys.argv[2]))' "$1" "$2" 2>&1) || true
	[ "$got" = "$3" ] || fail "$4: $2 is '$got', expected '$3'"
}

run "$P" summary mtia.json --json m.json
expect_rc 0 "summary of the MTIA-shaped trace"
expect_out_has "GPU (mtia)" "the console names the device"
gb m.json 'g["device_family"]' mtia "device family from mtia_runtime"
gb m.json 'g["ops_without_stream"]' 1 "the marker without a stream arg is left out"
gb m.json 'g["ops"]' 5 "five GPU ops counted"
gb m.json '[g["rank"][k] for k in ("span_ns", "busy_ns", "compute_ns", "memory_ns", "idle_ns")]' \
	'[85020, 50000, 25000, 25000, 35020]' "rank temporal breakdown (dma* memory)"
gb m.json '[g["idle"][k] for k in ("host_wait_ns", "kernel_wait_ns", "other_ns")]' \
	'[30000, 20, 5000]' "rank idle split (runFunction linked)"
gb m.json 'g["idle"]["launch_linked_share"]' 1 "every op linked to its runFunction"
gb m.json 'ty["memory"]["count"], ty["memory"]["time_ns"]' '(3, 35000)' "three dma kernels are memory"
gb m.json 'top["dma_request"]["type"]' memory "dma_request row is memory"
gb m.json 'top["matmul_kernel"]["type"]' compute "matmul_kernel is compute"

# streams named by Kineto's stream arg, not the track's thread (4, 408); queue length:
# stream 1 launches 0, 30, 70, 85 and ends 25, 50, 90, 95.02: lengths 1 0 1 0 1 2 1 0,
# HTA's mean 6/8 = 0.75, at the max (2) 85..90 = 5 000 ns; stream 102: 1 0, mean 0.5,
# at 1 from 12 to 35 = 23 000 ns
gb m.json 'sorted((s["stream"], s.get("tid")) for s in g["streams"])' "[('1', '4'), ('102', '408')]" \
	"gpu_breakdown streams named by the stream arg"
q() {
	got=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["gpu"]["streams"]["items"]
q = {s["stream"]: s["queue"] for s in r if s["queue"]}
print(eval(sys.argv[2]))' "$1" "$2" 2>&1) || true
	[ "$got" = "$3" ] || fail "$4: $2 is '$got', expected '$3'"
}
q m.json '[q["1"][k] for k in ("sample_mean", "max", "at_max_ns")]' '[0.75, 2, 5000]' "stream 1 queue"
q m.json '[q["102"][k] for k in ("sample_mean", "max", "at_max_ns")]' '[0.5, 1, 23000]' \
	"stream 102 queue (HTA's 0.5)"
expect_out_has "  GPU 0 stream 102                   1.00     0.50      1    23.000 us" \
	"console queue row named 102"

# the timeline's and trace view's lanes too (no thread_name metadata in the trace)
got=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(sorted(l["name"] for l in r["timeline"]["lanes"]))' m.json 2>&1) || true
[ "$got" = "['GPU 0 stream 1', 'GPU 0 stream 102', 'GPU 0 stream 5', 'thread 100']" ] ||
	fail "timeline lanes: $got"

# the same numbers from the independent reference
python3 "$REF" mtia.json >ref.txt || fail "gpu_ref.py failed"
grep -q "^queue 1 8 0.75 2 5000$" ref.txt || fail "gpu_ref queue: $(grep '^queue' ref.txt)"
grep -q "^family mtia$" ref.txt || fail "gpu_ref family: $(head -1 ref.txt)"
grep -q "^rank {'span': 85020, 'busy': 50000, 'compute': 25000, 'communication': 0, 'memory': 25000, 'idle': 35020} {'host': 30000, 'kernel': 20, 'other': 5000}$" ref.txt ||
	fail "gpu_ref rank line: $(grep '^rank' ref.txt)"

# an NVIDIA device: dma* is compute there
run "$P" summary cuda.json --json c.json
expect_rc 0 "summary of the NVIDIA variant"
gb c.json 'g["device_family"]' cuda "device family from deviceProperties/cuda_runtime"
gb c.json '[g["rank"][k] for k in ("compute_ns", "memory_ns", "idle_ns")]' '[50000, 0, 35020]' \
	"dma* is compute on NVIDIA"
gb c.json 'g["idle"]["host_wait_ns"]' 30000 "any runtime call with the correlation links"
python3 "$REF" cuda.json >refc.txt || fail "gpu_ref.py failed on the NVIDIA variant"
grep -q "^rank {'span': 85020, 'busy': 50000, 'compute': 50000, 'communication': 0, 'memory': 0," refc.txt ||
	fail "gpu_ref disagrees on the NVIDIA variant"

# --comm-kernels still wins over the memory rules
run "$P" summary mtia.json --comm-kernels 'dma_c' --json u.json
expect_rc 0 "summary with --comm-kernels"
gb u.json '[g["rank"][k] for k in ("compute_ns", "communication_ns", "memory_ns")]' \
	'[25000, 10000, 15000]' "dma_copy is communication by the pattern"
gb u.json 'g["kernels"]["communication"]' "[{'library': 'user', 'count': 1, 'time_ns': 20000}]" \
	"library user"

finish
