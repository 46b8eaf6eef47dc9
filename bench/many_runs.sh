#!/bin/sh
# many_runs.sh - per-run commands against the number of runs in a store
# (issue 32, "Archives of 100 000 runs"; docs/performance.md).
#
# usage: bench/many_runs.sh [BUILD_DIR] [RUNS...]   (default: build 1000 10000)
#
# For each RUNS: one small run (samples/ranks/rank0.pt.trace.json, 12 KB, 40
# spans) is ingested and reported (`report STORE -o site/`: its page and
# model_cache row), then copied by SQL to RUNS runs (bench/many_runs.py: every
# row, ids moved, a hash and label of its own, its model_cache row; the
# page hard-linked under each run's page name), so the store and site are
# those of an archive whose every run was ingested and reported once. Then,
# each timed (wall and CPU, GNU time, median of REPEAT, default 3):
#   ingest NEW           one more run (rank1, 12 KB) into the store
#   report STORE -o site/  after that one new run (its page; the index of all)
#   summary --run NEW    the new run alone
#   compare --baseline   `compare STORE rank2.json --baseline last:10`
#   changes              `changes STORE` over the whole history (CHANGES=0 leaves it out)
# and prints one row per command and RUNS; the store's size. A store of N runs
# takes about 91 KB a run (most of it the model cache: 100 000 runs, 9.2 GB, made
# in 2.4 minutes here; the copy for the timed commands needs twice that on disk).
# Work files in bench/out/many/. Needs python3 (sqlite3 module) and /usr/bin/time.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
sizes=${*:-1000 10000}
rep=${REPEAT:-3}
pr=$build/cli/profreport
[ -x "$pr" ] || { echo "many_runs: build first (cmake --build $build)" >&2; exit 2; }
out=bench/out/many
rm -rf "$out"
mkdir -p "$out"
ranks=samples/ranks

# timed NAME CMD...: REPEAT runs of CMD; prints "NAME wall cpu" (medians, seconds)
timed() {
	name=$1
	shift
	: >"$out/times"
	k=0
	while [ "$k" -lt "$rep" ]; do
		/usr/bin/time -f '%e %U %S' -o "$out/t" "$@" >/dev/null 2>&1 || true
		tail -n 1 "$out/t" >>"$out/times" # after GNU time's "Command exited with ..." line
		k=$((k + 1))
	done
	awk -v name="$name" '{ w[NR] = $1; c[NR] = $2 + $3 }
		function med(a, n,   i, j, t) {
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return a[int((n + 1) / 2)]
		}
		END { printf "%s %.3f %.3f\n", name, med(w, NR), med(c, NR) }' "$out/times"
}

printf '%-22s %8s %8s %8s %10s\n' command runs "wall s" "cpu s" "store MB"
for n in $sizes; do
	d=$out/n$n
	mkdir -p "$d"
	"$pr" ingest -q "$ranks/rank0.pt.trace.json" -o "$d/s.db"
	"$pr" report -q "$d/s.db" -o "$d/site/" >/dev/null
	page=$(ls "$d/site" | grep -v '^index.html$' | grep '\.html$' | head -n 1)
	t0=$(date +%s.%N)
	python3 bench/many_runs.py "$d/s.db" "$n"
	# every copy's page, hard-linked: <label>-<first 12 of its hash>.html
	python3 - "$d/s.db" "$d/site" "$page" <<'PY'
import errno, os, shutil, sqlite3, sys
db, site, page = sys.argv[1], sys.argv[2], sys.argv[3]
src = os.path.join(site, page)
for label, h in sqlite3.connect(db).execute("SELECT label, content_hash FROM run WHERE id > 1"):
    name = "%s-%s.html" % (label[:60], h[:12])
    name = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)
    try:
        os.link(src, os.path.join(site, name))
    except OSError as e:  # a file system's limit of links (ext4: 65 000): a copy, linked on
        if e.errno != errno.EMLINK:
            raise
        shutil.copyfile(src, os.path.join(site, name))
        src = os.path.join(site, name)
PY
	"$pr" report -q "$d/s.db" -o "$d/site/" >/dev/null # the index of all runs, once
	t1=$(date +%s.%N)
	echo "many_runs: $n runs made in $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s" >&2
	# one new run, then the per-run commands (REPEAT times each, the same state each time:
	# the new run is ingested into a copy of the store)
	cp "$d/s.db" "$d/base.db"
	for k in $(seq 1 "$rep"); do
		cp "$d/base.db" "$d/s$k.db"
	done
	: >"$d/rows"
	k=0
	: >"$out/times"
	for k in $(seq 1 "$rep"); do
		/usr/bin/time -f '%e %U %S' -o "$out/t" "$pr" ingest -q "$ranks/rank1.pt.trace.json" \
			-o "$d/s$k.db" >/dev/null 2>&1
		tail -n 1 "$out/t" >>"$out/times" # after GNU time's "Command exited with ..." line
	done
	awk '{ w[NR] = $1; c[NR] = $2 + $3 } END { n = NR; for (i = 2; i <= n; i++)
		for (j = i; j > 1 && w[j - 1] > w[j]; j--) { t = w[j]; w[j] = w[j - 1]; w[j - 1] = t }
		for (i = 2; i <= n; i++)
		for (j = i; j > 1 && c[j - 1] > c[j]; j--) { t = c[j]; c[j] = c[j - 1]; c[j - 1] = t }
		printf "ingest NEW %.3f %.3f\n", w[int((n + 1) / 2)], c[int((n + 1) / 2)] }' \
		"$out/times" >>"$d/rows"
	new=$("$pr" query "$d/s1.db" "SELECT max(id) FROM run" | tail -n 1)
	# report after the one new run: each repeat on its own copy (the first report of it)
	: >"$out/times"
	for k in $(seq 1 "$rep"); do
		rm -f "$d/site/"r1.pt.trace*.html "$d/site/"rank1*.html
		/usr/bin/time -f '%e %U %S' -o "$out/t" "$pr" report -q "$d/s$k.db" -o "$d/site/" \
			>/dev/null 2>&1 || true
		tail -n 1 "$out/t" >>"$out/times" # after GNU time's "Command exited with ..." line
	done
	awk '{ w[NR] = $1; c[NR] = $2 + $3 } END { n = NR; for (i = 2; i <= n; i++)
		for (j = i; j > 1 && w[j - 1] > w[j]; j--) { t = w[j]; w[j] = w[j - 1]; w[j - 1] = t }
		for (i = 2; i <= n; i++)
		for (j = i; j > 1 && c[j - 1] > c[j]; j--) { t = c[j]; c[j] = c[j - 1]; c[j - 1] = t }
		printf "report STORE -o site/ %.3f %.3f\n", w[int((n + 1) / 2)], c[int((n + 1) / 2)] }' \
		"$out/times" >>"$d/rows"
	timed "summary --run NEW" "$pr" summary --run "$new" "$d/s1.db" >>"$d/rows"
	timed "compare --baseline" "$pr" compare "$d/s1.db" "$ranks/rank2.pt.trace.json" \
		--baseline last:10 >>"$d/rows"
	# E-Divisive over the whole history: quadratic in the runs (see docs/performance.md)
	[ "${CHANGES:-1}" = 0 ] || timed "changes STORE" "$pr" changes "$d/s1.db" >>"$d/rows"
	mb=$(($(stat -c %s "$d/s1.db") / 1000000))
	awk -v n="$n" -v mb="$mb" '{ name = $0; sub(/ [0-9.]+ [0-9.]+$/, "", name)
		printf "%-22s %8d %8.3f %8.3f %10d\n", name, n, $(NF - 1), $NF, mb }' "$d/rows"
	rm -f "$d"/s[0-9]*.db "$d/base.db"
done
echo "CPUs: $(nproc); load after: $(cut -d' ' -f1-3 /proc/loadavg)"
