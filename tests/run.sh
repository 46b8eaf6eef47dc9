#!/bin/sh
# The whole test suite: a normal build (-Werror) and an ASan+UBSan build,
# each running every ctest test (unit, golden, CLI, JSONTestSuite, hostile).
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

# The browser checks (HTML report, speedscope export in speedscope's own app)
# need the pinned npm packages; install them once when npm is there.
if [ ! -d tests/browser/node_modules ] && command -v npm >/dev/null 2>&1; then
	(cd tests/browser && npm ci --no-audit --no-fund)
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPR_WERROR=ON
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPR_WERROR=ON \
	-DPR_SANITIZE=address,undefined
cmake --build build-asan -j"$jobs"
# The sanitizer pass skips the browser checks (they test the files we write,
# which the first pass already did) and the 10 M-point render timing.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	ctest --test-dir build-asan --output-on-failure -j"$jobs" -E '^browser/|^render/big_reduce$'

