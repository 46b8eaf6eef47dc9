# shellcheck shell=sh disable=SC2034
# lib.sh - what the size-driven benchmarks share (sourced by run.sh, e2e.sh,
# gpu_bench.sh after setting default_sizes): the arguments [BUILD_DIR]
# [SIZES_MB...], the binaries, bench/out/, PR_BENCH_REPEAT, and the helpers.
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
sizes=${*:-$default_sizes}
pr=$build/cli/profreport
gen=$build/bench/gen_trace
out=bench/out
n=${PR_BENCH_REPEAT:-3}
mkdir -p "$out"
[ -x "$pr" ] && [ -x "$gen" ] || { echo "bench: build first (cmake --build $build)" >&2; exit 2; }

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
