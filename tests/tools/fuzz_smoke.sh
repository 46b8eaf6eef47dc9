#!/bin/sh
# fuzz_smoke.sh [DIR] - run each libFuzzer target (fuzz_jscan and one
# fuzz_<format> per ingest format, from tests/fuzz.cmake) for a bounded time
# from the committed seeds in tests/fuzz/corpus/<target>/, with the dictionary
# the target prints itself (tests/fuzz/dict.h).
#
# DIR holds the fuzz_* binaries (default: $PR_FUZZ_BIN). Without either, the
# script builds them itself with clang in build-fuzz/ (or $PR_FUZZ_BUILD);
# that needs the Debian packages clang and libclang-rt-14-dev. Exit 77
# (skip) when there is no clang. PR_FUZZ_SECONDS sets the time per target
# (default 30). New corpus entries go to a temporary folder, so the seeds
# stay as they are. A finding fails the run; its folder (log, crash input)
# is kept and named.
set -u

tests=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$tests/.." && pwd)
bindir=${1:-${PR_FUZZ_BIN:-}}
secs=${PR_FUZZ_SECONDS:-30}
if [ -z "$bindir" ]; then
	if ! command -v clang >/dev/null 2>&1; then
		echo "fuzz_smoke: no clang; skipped (install clang and libclang-rt-14-dev)"
		exit 77
	fi
	build=${PR_FUZZ_BUILD:-$root/build-fuzz}
	jobs=$(nproc 2>/dev/null || echo 2)
	if ! cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo >"${TMPDIR:-/tmp}/pr-fuzz-build.log" 2>&1 ||
		! cmake --build "$build" -j"$jobs" --target fuzzers \
			>>"${TMPDIR:-/tmp}/pr-fuzz-build.log" 2>&1; then
		tail -n 20 "${TMPDIR:-/tmp}/pr-fuzz-build.log"
		echo "fuzz_smoke: cannot build the fuzzers (libFuzzer needs libclang-rt-14-dev)"
		exit 1
	fi
	bindir=$build/tests
fi
if [ ! -x "$bindir/fuzz_jscan" ] && [ ! -x "$bindir/fuzz_chrome" ]; then
	echo "fuzz_smoke: no fuzz_* binaries in '$bindir' (they need clang); skipped"
	exit 77
fi
LC_ALL=C
TZ=UTC
export LC_ALL TZ
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pr-fuzz.XXXXXX") || exit 1
failures=0

targets=$(cd "$bindir" && for f in fuzz_*; do [ -x "$f" ] && [ -f "$f" ] && echo "${f#fuzz_}"; done)
for target in $targets; do
	bin=$bindir/fuzz_$target
	if [ ! -x "$bin" ]; then
		echo "fuzz_smoke: $bin missing"
		failures=$((failures + 1))
		continue
	fi
	work=$tmp/$target
	mkdir -p "$work/corpus" "$work/artifacts"
	seeds=
	[ -d "$tests/fuzz/corpus/$target" ] && seeds=$tests/fuzz/corpus/$target
	dict=
	# the target prints its own dictionary (tests/fuzz/dict.h), empty if none
	if ! PR_FUZZ_DICT=1 "$bin" >"$work/dict" 2>"$work/log"; then
		echo "fuzz_smoke: fuzz_$target FAILED to print its dictionary; log in $work"
		failures=$((failures + 1))
		continue
	fi
	[ -s "$work/dict" ] && dict=-dict=$work/dict
	"$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
		$dict -artifact_prefix="$work/artifacts/" \
		"$work/corpus" $seeds >"$work/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
	cov=$(grep -o 'cov: [0-9]*' "$work/log" | tail -n 1)
	if [ "$rc" -ne 0 ]; then
		failures=$((failures + 1))
		echo "fuzz_smoke: fuzz_$target FAILED (exit $rc); log and inputs kept in $work"
		grep -E 'ERROR|SUMMARY|check failed|runtime error|Test unit written' "$work/log" |
			head -n 20
		for a in "$work"/artifacts/*; do
			[ -f "$a" ] || continue
			echo "  input $a ($(wc -c <"$a") bytes):"
			head -c 300 "$a" | od -An -c | head -n 8
		done
	else
		echo "fuzz_smoke: fuzz_$target ok: ${runs:-?} runs in ${secs}s, ${cov:-cov: ?}"
	fi
done

if [ "$failures" -eq 0 ]; then
	rm -rf "$tmp"
	exit 0
fi
exit 1
