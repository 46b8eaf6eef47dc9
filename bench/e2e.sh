#!/bin/sh
# End-to-end benchmark: per size, the generated Kineto-like trace (gen_trace)
#   ingest    profreport ingest TRACE -o STORE
#   analysis  profreport summary STORE --json MODEL   (the model of a stored run)
#   report    profreport report TRACE -o HTML --json MODEL   (trace -> page + model)
# with wall seconds, CPU seconds (user + sys, /usr/bin/time) and peak RSS
# of each, and the report's wall time as a multiple of the ingest's.
#
# usage: bench/e2e.sh [BUILD_DIR] [SIZES_MB...]     (default: build 100)
# Each step runs PR_BENCH_REPEAT times (default 3); the table shows medians
# (wall and CPU taken separately) and the largest peak RSS. Needs
# /usr/bin/time (Debian package "time"). Files go to bench/out/; the 1 GB
# case (1000) takes about half a minute per repeat.
set -eu
default_sizes="100"
. "$(dirname "$0")/lib.sh"

# timed NAME CMD...: runs CMD n times, appends "wall cpu rss_kb" to $out/NAME.t
timed() {
	name=$1
	shift
	: >"$out/$name.t"
	i=0
	while [ "$i" -lt "$n" ]; do
		[ "$name" = ingest ] && rm -f "$db" "$db-journal"
		/usr/bin/time -f '%e %U %S %M' -o "$out/e2e.rss" "$@" >/dev/null
		awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$out/e2e.rss" >>"$out/$name.t"
		i=$((i + 1))
	done
}
col() { awk -v c="$2" '{ print $c }' "$out/$1.t" | median; }
rss() { awk '{ print $3 }' "$out/$1.t" | sort -n | tail -n 1; }

printf '%-20s %8s %8s %7s | %8s %8s %7s | %8s %8s %7s | %7s %9s\n' input \
	"ingest s" "cpu s" "RSS MB" "anal s" "cpu s" "RSS MB" "report s" "cpu s" "RSS MB" \
	"rep/ing" "anal s/GB"
shown= fail=0
for mb in $sizes; do
	f=$out/trace_${mb}MB.json
	[ -f "$f" ] || "$gen" "$mb" 1 -o "$f" 2>"$f.gen"
	db=$out/e2e_${mb}MB.db
	sync
	timed ingest "$pr" ingest -q "$f" -o "$db"
	timed analysis "$pr" summary "$db" --json "$out/e2e_model.json"
	timed report "$pr" report -q "$f" -o "$out/e2e_report.html" --json "$out/e2e_model.json"
	bytes=$(stat -L -c %s "$f")
	awk -v name="$(basename "$f")" -v gb="$bytes" \
		-v iw="$(col ingest 1)" -v ic="$(col ingest 2)" -v ir="$(rss ingest)" \
		-v aw="$(col analysis 1)" -v ac="$(col analysis 2)" -v ar="$(rss analysis)" \
		-v rw="$(col report 1)" -v rc="$(col report 2)" -v rr="$(rss report)" 'BEGIN {
		printf "%-20s %8.2f %8.2f %7.1f | %8.2f %8.2f %7.1f | %8.2f %8.2f %7.1f | %7.2f %9.2f\n",
			name, iw, ic, ir / 1024, aw, ac, ar / 1024, rw, rc, rr / 1024, rw / iw,
			aw / (gb / 1e9)
	}'
	rm -f "$db" "$db-journal"
	# the page shows every step (never cut): its step panel is one point per step ("Step
	# time per step") or, past 4 points per pixel column, reduced over "all N steps" for
	# the N steps gen_trace wrote
	steps=$(sed -n 's/.* \([0-9]*\) steps.*/\1/p' "$f.gen")
	if [ -n "$steps" ]; then
		if grep -q "Step time, all $steps steps\|Step time per step" "$out/e2e_report.html"; then
			shown="$shown $(basename "$f"): all $steps steps on the page;"
		else
			echo "bench: $(basename "$f"): the page does not show all $steps steps" >&2
			fail=1
		fi
	fi
done
[ -n "$shown" ] && echo "steps:$shown"
echo "anal: summary --json of the stored run; report: trace -> HTML + model (ingest included);"
echo "rep/ing: report wall / ingest wall; anal s/GB: analysis wall per GB of trace"
exit "$fail"
