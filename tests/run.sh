#!/bin/sh
# The whole test suite: a normal build (-Werror) and an ASan+UBSan build,
# each running every ctest test (unit, golden, CLI, JSONTestSuite, hostile).
#
# PR_REQUIRE_ALL=1 (.ci/run sets it) makes a skipped test a failure: a
# missing tool (chromium, npm packages, xmllint, clang, ../shared for the
# unlicensed CUDA snapshot) must not turn into a green run that tested less.
# The GPU tests need no PR_REQUIRE_ALL: their traces are in tests/data/traces
# and a skip of theirs always fails (tests/CMakeLists.txt, pr_gpu_test).
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

# ctest_all BUILD [ARGS...]: the whole ctest suite of BUILD; with
# PR_REQUIRE_ALL=1, fails when ctest reports any test skipped.
ctest_all() {
	dir=$1
	shift
	ctest --test-dir "$dir" --output-on-failure -j"$jobs" --output-junit junit.xml "$@"
	# ctest writes the testsuite's attributes on several lines: read it as one
	if [ "${PR_REQUIRE_ALL:-0}" = 1 ] &&
		! tr '\n' ' ' <"$dir/junit.xml" | grep -q '<testsuite[^>]*[[:space:]]skipped="0"'; then
		echo "tests/run.sh: tests were skipped in $dir and PR_REQUIRE_ALL=1:" >&2
		tr '\n' ' ' <"$dir/junit.xml" | grep -o '<testcase name="[^"]*"[^>]*status="notrun"' >&2 || true
		exit 1
	fi
}

# The browser checks (HTML report, speedscope export in speedscope's own app)
# need the pinned npm packages; install them once when npm is there.
if [ ! -d tests/browser/node_modules ] && command -v npm >/dev/null 2>&1; then
	(cd tests/browser && npm ci --no-audit --no-fund)
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPR_WERROR=ON
cmake --build build -j"$jobs"
ctest_all build

cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPR_WERROR=ON \
	-DPR_SANITIZE=address,undefined
cmake --build build-asan -j"$jobs"
# The sanitizer pass skips the browser checks (they test the files we write,
# which the first pass already did) and the 10 M-point render timing.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
UBSAN_OPTIONS=print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS
ctest_all build-asan -E '^browser/|^render/big_reduce$'

