#!/bin/sh
# include_probe.sh CMAKE BUILD TARGET:HEADER... - builds each include probe target
# (tests/suite.cmake) of BUILD with CMAKE (cmake --build) and checks its outcome: a probe named
# inc_ok_* compiles, a probe named inc_bad_* fails to compile for want of
# its header alone (the compiler's "No such file" or "file not found" for
# it). Any other outcome fails; prints one line per probe.
set -u
cmake=$1
build=$2
shift 2
fail=0
for arg in "$@"; do
	p=${arg%%:*}
	hdr=${arg#*:}
	out=$("$cmake" --build "$build" --target "$p" 2>&1)
	rc=$?
	case $p in
	inc_ok_*)
		if [ "$rc" = 0 ]; then
			echo "ok: $p sees $hdr"
		else
			echo "FAIL: $p does not compile with $hdr:"
			echo "$out" | grep -E 'error' | head -5
			fail=1
		fi
		;;
	inc_bad_*)
		if [ "$rc" != 0 ] && echo "$out" | grep -qE "$hdr(: No such file|' file not found)"; then
			echo "ok: $p cannot include $hdr"
		elif [ "$rc" = 0 ]; then
			echo "FAIL: $p compiles with $hdr, a header its target does not link"
			fail=1
		else
			echo "FAIL: $p fails, but not for want of $hdr:"
			echo "$out" | grep -E 'error' | head -5
			fail=1
		fi
		;;
	esac
done
[ "$fail" = 0 ] && echo "include_probe: $# probes ok"
exit "$fail"
