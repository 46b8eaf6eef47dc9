#!/bin/sh
# bounds.sh - time and peak RSS of profreport on small inputs that used to
# cost GBs or minutes (issue 12, "Bounded resources on small inputs").
#
# usage: bench/bounds.sh [BUILD_DIR] [CASE...]
#   cases: massif massif-gz massif-urandom qeff-gz tids counters memdev
#          summary phases phaselog steps nsys-metrics query
#                                                     (default: all)
# PR_BOUNDS_SCALE multiplies every input size (default 1). Each case prints
# one line: the case, the input, wall seconds, peak RSS in MB, the exit
# status and the first line of stderr (a cap's note or a limit's error).
# Needs /usr/bin/python3, gzip and GNU time (/usr/bin/time, Debian package
# "time"). Every run is under `timeout 120` and a 4 GB address-space limit
# (ulimit -v), so a regression shows as a failure, not a swapping machine.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
cases=${*:-massif massif-gz massif-urandom qeff-gz tids counters memdev summary phases phaselog steps nsys-metrics query}
pr=$(pwd)/$build/cli/profreport
gen="/usr/bin/python3 $(pwd)/bench/gen_bounds.py"
scale=${PR_BOUNDS_SCALE:-1}
[ -x "$pr" ] || { echo "bounds: build first (cmake --build $build)" >&2; exit 2; }
out=$(mktemp -d "${TMPDIR:-/tmp}/pr-bounds.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM

# measure CASE INPUT CMD...: one line of results.
measure() {
	name=$1
	input=$2
	shift 2
	set +e
	(ulimit -v 4194304; exec timeout 120 /usr/bin/time -f '%e %M' -o "$out/time" "$@") \
		>"$out/stdout" 2>"$out/stderr"
	rc=$?
	set -e
	t=$(tail -n 1 "$out/time" | awk '{ print $1 }')
	rss=$(tail -n 1 "$out/time" | awk '{ printf "%.0f", $2 / 1024 }')
	case $(tail -n 1 "$out/time") in
	*"terminated"* | *"exited"*) t=-; rss=- ;;
	esac
	printf '%-15s %-28s %8s %8s %4s  %s\n' "$name" "$input" "$t" "$rss" "$rc" \
		"$(grep -v -e '^Command' "$out/stderr" | head -n 1 | cut -c1-110)"
}

size() {
	if [ -d "$1" ]; then
		du -sk "$1" | awk '{ printf "%.1fMB", $1 / 1024 }'
	else
		stat -c %s "$1" | awk '{ printf "%.1fMB", $1 / 1e6 }'
	fi
}

n() { echo $(($1 * scale)); }

printf '%-15s %-28s %8s %8s %4s  %s\n' case input "time s" "RSS MB" exit "stderr (first line)"
for c in $cases; do
	rm -rf "$out/in" "$out/db" "$out/db-journal" "$out/page.html"
	case $c in
	massif)
		$gen massif "$(n 200000)" "$out/in"
		measure "$c" "$(n 200000) snapshots $(size "$out/in")" \
			"$pr" ingest -q "$out/in" -o "$out/db"
		;;
	massif-gz)
		$gen massif "$(n 1000000)" "$out/in.raw"
		gzip -1 -c "$out/in.raw" >"$out/in"
		measure "$c" "$(size "$out/in.raw") as $(size "$out/in")" \
			"$pr" ingest -q --format massif "$out/in" -o "$out/db"
		rm -f "$out/in.raw"
		;;
	massif-urandom)
		measure "$c" /dev/urandom \
			"$pr" ingest -q --format massif /dev/urandom -o "$out/db"
		[ -e "$out/db" ] && echo "  (a store was left behind)"
		;;
	qeff-gz)
		$gen qeff "$(n 6000000)" "$out/in.raw"
		gzip -1 -c "$out/in.raw" >"$out/in"
		measure "$c" "$(size "$out/in.raw") as $(size "$out/in")" \
			"$pr" ingest -q --format qeff "$out/in" -o "$out/db"
		rm -f "$out/in.raw"
		;;
	tids)
		$gen tids "$(n 1000000)" "$out/in"
		measure "$c:ingest" "$(n 1000000) tids $(size "$out/in")" \
			"$pr" ingest -q "$out/in" -o "$out/db"
		measure "$c:report" "(that store)" "$pr" report "$out/db" -o "$out/page.html"
		;;
	counters)
		$gen counters "$(n 1000000)" "$out/in"
		measure "$c:ingest" "$(n 1000000) names $(size "$out/in")" \
			"$pr" ingest -q "$out/in" -o "$out/db"
		measure "$c:report" "(that store)" "$pr" report "$out/db" -o "$out/page.html"
		[ -f "$out/page.html" ] && echo "  page: $(size "$out/page.html")"
		;;
	memdev)
		for d in 2000 5000; do
			$gen memdev "$(n $d)" "$out/in"
			rm -f "$out/db" "$out/page.html"
			"$pr" ingest -q "$out/in" -o "$out/db"
			measure "$c:report" "$(n $d) devices $(size "$out/in")" \
				"$pr" report "$out/db" -o "$out/page.html"
			[ -f "$out/page.html" ] && echo "  page: $(size "$out/page.html")"
		done
		;;
	summary)
		for r in 2000 8000; do
			rm -rf "$out/in" "$out/db"
			$gen runs "$(n $r)" "$out/in"
			"$pr" ingest -q "$out/in" -o "$out/db"
			measure "$c" "$(n $r) runs" "$pr" summary "$out/db"
		done
		;;
	phases)
		$gen phases "$(n 300000)" "$out/in"
		measure "$c:ingest" "$(n 300000) phases $(size "$out/in")" \
			"$pr" ingest -q --format csv "$out/in" -o "$out/db"
		measure "$c:report" "(that store)" "$pr" report "$out/db" -o "$out/page.html"
		[ -f "$out/page.html" ] && echo "  page: $(size "$out/page.html")"
		;;
	phaselog)
		# a phase log just under its 64 MiB cap, every phase a new name (issue 30 R5)
		printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":3600000000000}]\n' \
			>"$out/in.json"
		$gen phaselog "$(n 3600000)" "$out/in"
		measure "$c:report" "$(n 3600000) phases $(size "$out/in")" \
			"$pr" report "$out/in.json" --phases "$out/in" -o "$out/page.html"
		[ -f "$out/page.html" ] && echo "  page: $(size "$out/page.html")"
		;;
	steps)
		# 1 M ProfilerStep spans with one op each, no GPU op (issue 30 R3)
		$gen steps "$(n 1000000)" "$out/in"
		measure "$c:summary" "$(n 1000000) steps $(size "$out/in")" \
			"$pr" summary "$out/in"
		;;
	nsys-metrics)
		for d in 10000 100000; do
			rm -f "$out/in" "$out/db"
			$gen nsys-metrics "$(n $d)" "$out/in"
			measure "$c:ingest" "$(n $d) GPU metric definitions $(size "$out/in")" \
				"$pr" ingest -q "$out/in" -o "$out/db"
		done
		;;
	query)
		printf '[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]\n' >"$out/in"
		"$pr" ingest -q "$out/in" -o "$out/db"
		# (the default limit is 60 s: too long for a shared machine)
		measure "$c" "recursive CTE, --timeout 1" "$pr" query --timeout 1 "$out/db" \
			"with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"
		measure "$c" "group_concat 3M rows" "$pr" query "$out/db" \
			"with recursive c(x) as (select 1 union all select x + 1 from c limit 3000000) select length(group_concat(x)) from c"
		measure "$c" "the same, --max-memory 8" "$pr" query --max-memory 8 "$out/db" \
			"with recursive c(x) as (select 1 union all select x + 1 from c limit 3000000) select length(group_concat(x)) from c"
		;;
	*)
		echo "bounds: unknown case $c" >&2
		exit 2
		;;
	esac
done
