#!/bin/sh
# parallel.sh - -j N against -j 1 (issue 32): `aggregate`, `ingest DIR -o
# STORE` (from no store) and `summary DIR` of RANKS generated rank files,
# and `report STORE -o site/` of an archive of RUNS generated
# runs (each time from a fresh copy of the store: an empty model cache, so
# every run is analysed and its page written). Best of REPEAT (default 3)
# wall times per -j; then the speedup, and the serial fraction s measured as
# the parent's share of the CPU seconds of REPEAT more -j J runs, the one
# with the fewest (PR_TIMINGS=1: the parent only waits while the workers
# run, so what it spends is the serial part; a measure that the other load
# of a shared machine moves less than the wall times; C1 below likewise). "on J" and "on 16" are the speedups over
# -j 1 that these CPU seconds give on J and on 16 idle cores, with C1 the
# CPU seconds of -j 1, P the parent's and W the workers' of -j J (so the
# workers' overhead over -j 1 counts against it): from C1 / (P + W / J),
# the parent's work all serial (Amdahl), to C1 / max(P, (P + W) / J), the
# parent folding while the workers work (it does: par.h) and bounded by its
# own CPU seconds alone. Peak RSS is GNU time's: the largest
# process (the parent or one worker). Checks that every -j wrote the same
# bytes (cmp, diff -r; for ingest the stores' `sqlite3 .dump`, so sqlite3 too).
# Usage: bench/parallel.sh [RANKS] [RUNS] [J...]   (default 1000 500 2)
# TASKS picks the tasks (default "aggregate ingest summary archive").
# PROFREPORT names the binary (default build/cli/profreport); gen_trace is
# taken beside it (build/bench/gen_trace). Needs python3 and /usr/bin/time.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
p=${PROFREPORT:-$here/build/cli/profreport}
gen=$(dirname "$p")/../bench/gen_trace
nranks=${1:-1000}
nruns=${2:-500}
shift 2 2>/dev/null || shift $#
js=${*:-2}
rep=${REPEAT:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/parallel_bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$p" ] && [ -x "$gen" ] || { echo "parallel.sh: build first" >&2; exit 2; }

python3 "$here/samples/ranks/make_ranks.py" --ranks "$nranks" --steps 5 \
	--straggler $((nranks / 2)) --out "$work/ranks" >/dev/null
mkdir "$work/runs"
i=1
while [ "$i" -le "$nruns" ]; do
	"$gen" 0.05 "$i" -o "$work/runs/r$i.json" 2>/dev/null
	i=$((i + 1))
done
"$p" ingest -q "$work/runs" -o "$work/runs.db"

# best TASK J: best wall time of $rep runs (seconds) and that run's peak RSS (KiB)
best() {
	task=$1
	j=$2
	b=
	k=0
	while [ "$k" -lt "$rep" ]; do
		case $task in
		aggregate)
			/usr/bin/time -f '%e %M' -o "$work/t" "$p" aggregate -j "$j" "$work/ranks" -q \
				-o "$work/agg$j.json" 2>/dev/null
			;;
		ingest)
			rm -f "$work/ing$j.db"
			/usr/bin/time -f '%e %M' -o "$work/t" "$p" ingest -j "$j" -q "$work/ranks" \
				-o "$work/ing$j.db"
			;;
		summary)
			/usr/bin/time -f '%e %M' -o "$work/t" "$p" summary -j "$j" "$work/ranks" \
				>"$work/sum$j.txt" 2>/dev/null
			;;
		archive)
			rm -rf "$work/site$j"
			cp "$work/runs.db" "$work/copy.db"
			/usr/bin/time -f '%e %M' -o "$work/t" "$p" report -j "$j" -q "$work/copy.db" \
				-o "$work/site$j/"
			;;
		esac
		read -r t m <"$work/t"
		b=$(awk -v b="$b" -v t="$t" -v m="$m" 'BEGIN {
			split(b, x, " ")
			if (b == "" || t < x[1]) print t, m; else print b }')
		k=$((k + 1))
	done
	echo "$b"
}

# cpu TASK J: "SELF WORKERS", the CPU seconds of the parent and of its workers in one run
cpu() {
	case $1 in
	aggregate)
		PR_TIMINGS=1 "$p" aggregate -j "$2" "$work/ranks" -q -o "$work/cpu.json" 2>"$work/c"
		;;
	ingest)
		rm -f "$work/cpu.db"
		PR_TIMINGS=1 "$p" ingest -j "$2" -q "$work/ranks" -o "$work/cpu.db" 2>"$work/c"
		;;
	summary)
		PR_TIMINGS=1 "$p" summary -j "$2" "$work/ranks" >/dev/null 2>"$work/c"
		;;
	archive)
		rm -rf "$work/sitec"
		cp "$work/runs.db" "$work/copy.db"
		PR_TIMINGS=1 "$p" report -j "$2" -q "$work/copy.db" -o "$work/sitec/" 2>"$work/c"
		;;
	esac
	sed -n 's/^profreport: timing: cpu self \([0-9.]*\) workers \([0-9.]*\)$/\1 \2/p' "$work/c" | tail -1
}

# cpubest TASK J: cpu's "SELF WORKERS" of the run with the fewest CPU seconds of $rep runs
# (the CPU seconds of a shared machine move too, if less than the wall times: best of 3)
cpubest() {
	k=0
	cb=
	while [ "$k" -lt "$rep" ]; do
		cb=$(cpu "$1" "$2" | awk -v b="$cb" '{
			split(b, x, " ")
			if (b == "" || $1 + $2 < x[1] + x[2]) print $1, $2; else print b }')
		k=$((k + 1))
	done
	echo "$cb"
}

printf '%-26s %2s %7s %7s %8s %7s %12s %12s  %s\n' task j "wall s" "RSS MB" speedup serial \
	"on J" "on 16" same
for task in ${TASKS:-aggregate ingest summary archive}; do
	case $task in
	aggregate) what="aggregate $nranks ranks" ;;
	ingest) what="ingest $nranks ranks" ;;
	summary) what="summary $nranks ranks" ;;
	archive) what="report STORE, $nruns runs" ;;
	esac
	c1=$(cpubest "$task" 1 | awk '{ print $1 + $2 }')
	set -- $(best "$task" 1)
	t1=$1
	printf '%-26s %2d %7.2f %7.1f %8s %7s %12s %12s  %s\n' "$what" 1 "$t1" \
		"$(echo "$2" | awk '{ print $1 / 1024 }')" - - - - -
	for j in $js; do
		set -- $(best "$task" "$j")
		if [ "$task" = aggregate ]; then
			cmp -s "$work/agg1.json" "$work/agg$j.json" && same=yes || same=NO
		elif [ "$task" = ingest ]; then
			sqlite3 "$work/ing1.db" .dump >"$work/d1.sql"
			sqlite3 "$work/ing$j.db" .dump >"$work/d$j.sql"
			cmp -s "$work/d1.sql" "$work/d$j.sql" && same=yes || same=NO
		elif [ "$task" = summary ]; then
			cmp -s "$work/sum1.txt" "$work/sum$j.txt" && same=yes || same=NO
		else
			diff -r "$work/site1" "$work/site$j" >/dev/null && same=yes || same=NO
		fi
		c=$(cpubest "$task" "$j")
		awk -v w="$what" -v j="$j" -v t1="$t1" -v t="$1" -v m="$2" -v c="$c" -v c1="$c1" \
			-v same="$same" 'BEGIN {
			split(c, x, " ")
			f = x[1] / (x[1] + x[2])
			a = x[1] + x[2]
			printf "%-26s %2d %7.2f %7.1f %7.2fx %6.1f%% %5.2f-%5.2fx %5.1f-%5.1fx  %s\n", w, j, t,
				m / 1024, t1 / t, f * 100, c1 / (x[1] + x[2] / j),
				c1 / (x[1] > a / j ? x[1] : a / j), c1 / (x[1] + x[2] / 16),
				c1 / (x[1] > a / 16 ? x[1] : a / 16), same }'
	done
done
echo "CPUs: $(nproc); load after: $(cut -d' ' -f1-3 /proc/loadavg)"
