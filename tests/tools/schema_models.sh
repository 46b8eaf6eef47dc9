#!/bin/sh
# schema_models.sh [model|agg|compare] - what profreport writes validates against
# its published JSON Schema (tests/tools/schema_check.py, python3-jsonschema).
# model (default): docs/schema/model.schema.json:
#   - the golden models (tests/golden/analyze/*/expected.model.json), one of
#     them also corrupted three ways, which the schema must reject;
#   - the model of every bundled sample at once (report samples --json);
#   - the models of every real trace of tests/data/traces (HTA, TraceLens; the
#     Kineto JSON and HTA's memory_timeline.raw.gz);
#   - generated runs: a long one (2500 steps) and an Inferix one whose block and
#     step means are no whole ns;
#   - the models of the fuzz corpus inputs that load (odd, small, hostile).
# agg: docs/schema/agg.schema.json over the aggregates of samples/ranks, the DDP
#   and GPU rank sets, Inferix's multirank set and the two real trace_filter
#   ranks (tests/data/traces), and the golden ranks.agg.json (also corrupted three ways);
# compare: docs/schema/compare.schema.json over `compare --to json` of every
#   pair of samples/compare, a real trace against itself and a memory log.
# Environment (set by ctest): PROFREPORT, PR_SAMPLES, PR_TESTS, PR_TRACES.
# Exit 77 (skip) without /usr/bin/python3 or python3-jsonschema.
set -u
: "${PROFREPORT:?PROFREPORT must name the profreport binary}"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || { echo "schema_models: no python3; skipped"; exit 77; }
"$py" -c 'import jsonschema' 2>/dev/null || {
	echo "schema_models: python3-jsonschema is missing (apt-get install python3-jsonschema); skipped"
	exit 77
}
root=$(cd "$PR_TESTS/.." && pwd)
traces=${PR_TRACES:-$PR_TESTS/data/traces}
schema=$root/docs/schema/model.schema.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pr-schema.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
HOME=$tmp
export HOME

what=${1:-model}
case $what in
agg)
	n=0
	for d in "$PR_SAMPLES/ranks" "$PR_SAMPLES/ddp/named" "$PR_SAMPLES/inferix/multirank" \
		"$traces/hta/trace_filter"; do
		[ -d "$d" ] || continue
		n=$((n + 1))
		"$PROFREPORT" aggregate "$d" -q -o "$tmp/agg$n.json" 2>"$tmp/err" ||
			{ echo "schema_models: aggregate of $d failed:"; cat "$tmp/err"; exit 1; }
	done
	/usr/bin/python3 "$PR_SAMPLES/gpuranks/make_gpuranks.py" --out "$tmp/gpuranks" >/dev/null &&
		"$PROFREPORT" aggregate "$tmp/gpuranks" -q -o "$tmp/agg-gpu.json" 2>"$tmp/err" ||
		{ echo "schema_models: aggregate of the GPU rank set failed:"; cat "$tmp/err"; exit 1; }
	exec "$py" "$PR_TESTS/tools/schema_check.py" --negative "$PR_TESTS/golden/aggregate/ranks.agg.json" \
		"$root/docs/schema/agg.schema.json" "$tmp"/agg*.json
	;;
compare)
	n=0
	# every BASE/NEW pair: base.pt.trace.json against each other trace of its folder
	for d in "$PR_SAMPLES"/compare/*/; do
		[ -f "$d/base.pt.trace.json" ] || continue
		for f in "$d"*.pt.trace.json; do
			[ "$f" != "$d/base.pt.trace.json" ] && [ "$f" != "${d}base.pt.trace.json" ] || continue
			n=$((n + 1))
			"$PROFREPORT" compare "$d/base.pt.trace.json" "$f" --to json -o "$tmp/cmp$n.json" 2>/dev/null
			[ -s "$tmp/cmp$n.json" ] || { echo "schema_models: compare of $f wrote nothing"; exit 1; }
		done
	done
	"$PROFREPORT" compare "$PR_SAMPLES/qeff/qeff_profile.json" "$PR_SAMPLES/qeff/qeff_profile.json" \
		--to json -o "$tmp/cmp-qeff.json" || exit 1
	g=$traces/hta/nccl_parser_config/nccl_data.json.gz
	if [ -f "$g" ]; then
		"$PROFREPORT" compare "$g" "$g" --to json -o "$tmp/cmp-nccl.json" || exit 1
	fi
	exec "$py" "$PR_TESTS/tools/schema_check.py" --negative "$tmp/cmp1.json" \
		"$root/docs/schema/compare.schema.json" "$tmp"/cmp*.json
	;;
esac

"$PROFREPORT" report "$PR_SAMPLES" --json "$tmp/samples.json" -o "$tmp/site" >/dev/null 2>"$tmp/err" || {
	echo "schema_models: report of the samples failed:"
	cat "$tmp/err"
	exit 1
}
n=0
if [ -d "$traces" ]; then
	for f in $(find "$traces" -name '*.json' -o -name '*.json.gz' -o -name '*.raw.gz' | sort); do
		n=$((n + 1))
		"$PROFREPORT" summary --json "$tmp/real$n.json" "$f" >/dev/null 2>&1 ||
			{ echo "schema_models: summary of $f failed"; exit 1; }
	done
fi
# a long run (2500 steps: the reduced step profile)
/usr/bin/python3 "$PR_TESTS/tools/gen_steps.py" 2500 "$tmp/long.json" &&
	"$PROFREPORT" summary --json "$tmp/long-run.json" "$tmp/long.json" >/dev/null 2>&1 ||
	{ echo "schema_models: summary of the long run failed"; exit 1; }
rm -f "$tmp/long.json"
# an Inferix run whose block and diffusion-step means are no whole ns (7 blocks, 2447712300 ns:
# 349673185.714; 3 steps, 300000001 ns: 100000000.333): the schema's *_ns keys are integers
/usr/bin/python3 - "$tmp/inferix7.json" <<'EOF'
import json, sys
ev, t = [], 1.0
for ms in (300.1, 350.2, 349.0, 360.7, 340.0, 348.0, 399.7123):
    ev.append({"name": "block_computation", "timestamp": t,
               "data": {"computation_time_ms": ms, "block_size": 4}})
    for k, sms in enumerate((100.000001, 100.0, 100.0) if ms == 300.1 else ()):
        ev.append({"name": "diffusion_step", "timestamp": t + k * 0.1,
                   "data": {"computation_time_ms": sms, "step": k}})
    t += ms / 1000 + 0.01
json.dump({"session_info": {"id": "s", "start_time": 1.0, "end_time": t + 1, "tags": {"rank": "0"}},
           "events": ev}, open(sys.argv[1], "w"))
EOF
"$PROFREPORT" summary --format inferix --json "$tmp/inferix7-run.json" "$tmp/inferix7.json" >/dev/null ||
	{ echo "schema_models: summary of the generated Inferix run failed"; exit 1; }
rm -f "$tmp/inferix7.json"
# fuzz corpus inputs: those that load give a model; the others are errors, not models
for f in "$PR_TESTS"/fuzz/corpus/*/*; do
	n=$((n + 1))
	"$PROFREPORT" summary --json "$tmp/fuzz$n.json" "$f" >/dev/null 2>&1 || rm -f "$tmp/fuzz$n.json"
done
exec "$py" "$PR_TESTS/tools/schema_check.py" \
	--negative "$PR_TESTS/golden/analyze/torch-trace/expected.model.json" "$schema" \
	"$PR_TESTS"/golden/analyze/*/expected.model.json "$tmp"/*.json
