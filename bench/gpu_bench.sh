#!/bin/sh
# GPU analyses benchmark: generates a deterministic Kineto-like trace with
# gen_trace (CPU ops, cudaLaunchKernel/cudaMemcpyAsync runtime calls with
# correlation ids and ac2g flows, kernels on stream 7, memcpys on stream 20),
# ingests it, then builds the model with PR_TIMINGS=1 (analyze/model.c: each
# analyzer's wall and CPU time on stderr) and prints, per size, in CPU seconds
# (user + sys for the ingest, which keeps two threads busy; the thread's CPU
# time for each analysis, so that other work on the machine moves them less):
# the ingest, each GPU analysis (collectives, gpu_breakdown, critical_path,
# perf_model, gpu), their total and its share of the ingest, the whole summary
# (wall), and the peak RSS of ingest and summary. Then, from as many more
# summaries with PR_TIMINGS=parts (a clock around each call, less the clocks'
# cost; these runs' other numbers are not used): the GPU rows' part of the
# shared span pass ("pass s", in the context step, not in the five) and the
# kernel sequences' part of the gpu analysis ("kseq s", in "gpu s"); "all s":
# the five and the pass part, "all %": its share of the ingest.
#
# usage: bench/gpu_bench.sh [BUILD_DIR] [SIZES_MB...]     (default: build 100)
# Each step runs PR_BENCH_REPEAT times (default 3); the table shows medians
# and the largest peak RSS. Needs /usr/bin/time (Debian package "time").
# Files go to bench/out/. The 1 GB case (1000) takes about a minute.
set -eu
default_sizes="100"
. "$(dirname "$0")/lib.sh"

printf '%-20s %8s %7s %7s %8s %8s %8s %8s %8s %8s %7s %8s %8s %7s %7s %7s %6s\n' input \
	"ingest s" "RSS MB" "coll s" "gpubrk s" "crit s" "perf s" "gpu s" "GPU s" "share %" \
	"model s" "sum RSS" "kernels" "pass s" "kseq s" "all s" "all %"
for mb in $sizes; do
	f=$out/trace_${mb}MB.json
	[ -f "$f" ] || "$gen" "$mb" 1 -o "$f" 2>"$f.gen"
	db=$out/gpu_${mb}MB.db
	: >"$out/ingest.t"
	: >"$out/timings"
	: >"$out/model.t"
	irss=0
	srss=0
	i=0
	while [ "$i" -lt "$n" ]; do
		rm -f "$db" "$db-journal"
		sync
		/usr/bin/time -f '%U %S %M' -o "$out/rss" "$pr" ingest -q "$f" -o "$db"
		tail -n 1 "$out/rss" | awk '{ printf "%.6f\n", $1 + $2 }' >>"$out/ingest.t"
		r=$(tail -n 1 "$out/rss" | awk '{ print $3 }')
		[ "$r" -gt "$irss" ] && irss=$r
		i=$((i + 1))
	done
	i=0
	while [ "$i" -lt "$n" ]; do
		t1=$(now)
		PR_TIMINGS=1 /usr/bin/time -f '%M' -o "$out/rss" "$pr" summary "$db" \
			--json "$out/model.json" >/dev/null 2>"$out/err"
		t2=$(now)
		echo "$t1 $t2" | awk '{ printf "%.6f\n", $2 - $1 }' >>"$out/model.t"
		sed -n "s/^profreport: timing: run 1 \([a-z_]*\) [0-9.]* \([0-9.]*\) .*/$i \1 \2/p" \
			"$out/err" >>"$out/timings"
		r=$(tail -n 1 "$out/rss")
		[ "$r" -gt "$srss" ] && srss=$r
		i=$((i + 1))
	done
	: >"$out/parts"
	i=0
	while [ "$i" -lt "$n" ]; do
		PR_TIMINGS=parts "$pr" summary "$db" --json "$out/model.json" >/dev/null \
			2>"$out/err"
		sed -n 's/^profreport: timing: part \([a-z_]*\) \([0-9.]*\) .*/\1 \2/p' \
			"$out/err" >>"$out/parts"
		i=$((i + 1))
	done
	pass=$(awk '$1 == "gpu_rows" { print $2 }' "$out/parts" | median)
	kseq=$(awk '$1 == "kernel_sequences" { print $2 }' "$out/parts" | median)
	ing=$(median <"$out/ingest.t")
	mod=$(median <"$out/model.t")
	coll=$(awk '$2 == "collectives" { print $3 }' "$out/timings" | median)
	brk=$(awk '$2 == "gpu_breakdown" { print $3 }' "$out/timings" | median)
	crit=$(awk '$2 == "critical_path" { print $3 }' "$out/timings" | median)
	perf=$(awk '$2 == "perf_model" { print $3 }' "$out/timings" | median)
	gpu=$(awk '$2 == "gpu" { print $3 }' "$out/timings" | median)
	all=$(awk '$2 == "collectives" || $2 == "gpu_breakdown" || $2 == "critical_path" ||
		$2 == "perf_model" || $2 == "gpu" { s[$1] += $3 }
		END { for (k in s) print s[k] }' "$out/timings" | median)
	kernels=$("$pr" query "$db" "select count(*) from span where kind = 'kernel'" | tail -n 1)
	awk -v name="$(basename "$f")" -v ing="$ing" -v irss="$irss" -v coll="$coll" -v brk="$brk" \
		-v crit="$crit" -v perf="$perf" -v gpu="$gpu" -v all="$all" -v mod="$mod" \
		-v srss="$srss" -v k="$kernels" -v pass="${pass:-0}" -v kseq="${kseq:-0}" 'BEGIN {
		printf "%-20s %8.2f %7.1f %7.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.1f %7.2f %8.1f %8s",
			name, ing, irss / 1024, coll, brk, crit, perf, gpu, all, 100 * all / ing,
			mod, srss / 1024, k
		printf " %7.3f %7.3f %7.3f %6.1f\n", pass, kseq, all + pass,
			100 * (all + pass) / ing
	}'
	rm -f "$db" "$db-journal"
done
echo "CPU seconds but model s (wall). GPU s: the five GPU analyses (collectives,"
echo "gpu_breakdown, critical_path, perf_model, gpu) of one summary together (median of the"
echo "per-run sums); share %: of the ingest's CPU (user + sys); model s: the whole summary"
echo "pass s: the GPU rows' part of the shared span pass; kseq s: the kernel sequences' part"
echo "of gpu s; all s: GPU s + pass s, all %: its share of the ingest's CPU"
