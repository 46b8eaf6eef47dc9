#!/bin/sh
# t0106-speedscope: 'profreport speedscope INPUT... -o FILE [--run ID]' on every
# sample that has spans or memory series: exit 0, a file that starts with the
# speedscope header and reads back through profreport's own speedscope reader
# (a full JSON parse plus its balance checks) with every span of the run;
# the same bytes from a file and from a store; usage errors exit 2 with one
# line; no temporary files are left behind.
# (tests/browser/run_speedscope.sh checks the files in speedscope itself.)
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2016 # the literal "$schema" key
HEAD='{"$schema":"https://www.speedscope.app/file-format-schema.json","exporter":"profreport@'


# check_file FILE DESC: the header, then a read-back through the speedscope
# reader without diagnostics other than the 'bytes' profiles' synthetic time.
check_file() {
	if [ "$(head -c ${#HEAD} "$1")" != "$HEAD" ]; then
		fail "$2: '$1' does not start with the speedscope header"
		return
	fi
	rm -f back.db
	if ! "$P" ingest -q --format speedscope "$1" -o back.db 2>back.err; then
		fail "$2: '$1' does not read back as speedscope: $(cat back.err)"
		return
	fi
	bad=$(query_value back.db "SELECT group_concat(code) FROM diag WHERE code <> 'speedscope_synthetic_time'")
	[ -z "$bad" ] || [ "$bad" = NULL ] || fail "$2: reading '$1' back raised diagnostics: $bad"
}

"$P" ingest -q "$PR_SAMPLES" -o all.db || fail "setup: ingest of the samples failed"
runs=$(query_value all.db "SELECT count(*) FROM run")
[ "$runs" -ge 15 ] || fail "setup: only $runs runs in the samples"

# -- every run with spans or memory series, one file each
n=0
for id in $("$P" query all.db "SELECT id FROM run r WHERE span_count > 0 OR EXISTS
	(SELECT 1 FROM series s WHERE s.run_id = r.id AND s.unit = 'bytes') ORDER BY id" | sed 1d); do
	n=$((n + 1))
	label=$(query_value all.db "SELECT label FROM run WHERE id = $id")
	run "$P" speedscope all.db --run "$id" -o "run$id.speedscope.json"
	# bytes that never grow (pidstat's constant RSS, sar's request sizes) and no span:
	# nothing to export is the answer
	if [ "$rc" -eq 2 ] && grep -qF 'nothing to export: no spans and no memory series' "$tmp/err" &&
		[ "$(query_value all.db "SELECT span_count FROM run WHERE id = $id")" = 0 ]; then
		continue
	fi
	expect_rc 0 "speedscope of run $id ($label)"
	expect_out_has "'run$id.speedscope.json': " "speedscope of run $id ($label)"
	[ -s "run$id.speedscope.json" ] || {
		fail "speedscope of run $id ($label) wrote no file"
		continue
	}
	check_file "run$id.speedscope.json" "run $id ($label)"
	spans=$(query_value all.db "SELECT span_count FROM run WHERE id = $id")
	back=$(query_value back.db "SELECT count(*) FROM span s JOIN track t ON t.id = s.track_id
		WHERE t.name NOT LIKE '% growth'")
	[ "$back" = "$spans" ] || fail "run $id ($label): $spans spans in the store, $back read back"
done
[ "$n" -ge 15 ] || fail "only $n runs have spans or memory series"

# -- every sample file given directly (ingested into a temporary store); generators
# (*.py), the programs they run (*.c) and phase logs (they go with --phases,
# tests/cli/t0104-phases.sh) are not samples; perf stat counters (samples/perf/perf_stat*.csv) are
# neither spans nor memory: nothing to export (tests/cli/t0107-stacks.sh checks that error)
for f in $(find "$PR_SAMPLES" -type f ! -name '*.md' ! -name '*.py' ! -name '*.c' ! -name '*.phases.log' \
	! -name 'perf_stat*.csv' | sort); do
	run "$P" speedscope -q "$f" -o one.speedscope.json
	# a sampler log with no memory that grows (sysstat's CPU and load reports) has nothing
	# to export: that error, and only for a file with no span
	if [ "$rc" -eq 2 ] && grep -qF 'nothing to export: no spans and no memory series' "$tmp/err"; then
		rm -f one.db
		"$P" ingest -q "$f" -o one.db || fail "ingest of '$f' failed"
		[ "$(query_value one.db "SELECT count(*) FROM span")" = 0 ] ||
			fail "speedscope of '$f': nothing to export, but it has spans"
		continue
	fi
	expect_rc 0 "speedscope of '$f'"
	[ "$(head -c ${#HEAD} one.speedscope.json)" = "$HEAD" ] ||
		fail "speedscope of '$f': no speedscope header"
done

# -- the whole store, twice: the same bytes; a trace file and its store agree
run "$P" speedscope all.db -o a.speedscope.json
expect_rc 0 "speedscope of all samples"
# some samples overlap on purpose: at most the one warning line
if [ -s "$tmp/err" ] && ! { [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q '^profreport: speedscope: warning: [0-9]* spans ended after their parent' "$tmp/err"; }; then
	fail "speedscope of all samples: stderr has more than the clamping warning"
	show
fi
check_file a.speedscope.json "all samples"
run "$P" speedscope -q all.db -o b.speedscope.json
expect_rc 0 "speedscope -q"
expect_out_empty "speedscope -q"
cmp -s a.speedscope.json b.speedscope.json || fail "two exports of one store differ"
"$P" ingest -q "$TORCH" -o torch.db || fail "setup: ingest of the torch sample failed"
run "$P" speedscope "$TORCH" -o from-file.json
expect_rc 0 "speedscope of the torch trace"
expect_out_has "'from-file.json': 5 profiles (4 evented, 1 sampled)" "speedscope of the torch trace"
run "$P" speedscope torch.db -o from-store.json
expect_rc 0 "speedscope of the torch store"
cmp -s from-file.json from-store.json || fail "speedscope of a trace and of its store differ"

# -- spans that overlap their parent: clamped, with one warning line
printf '[{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
 {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 10}]\n' >overlap.json
run "$P" speedscope overlap.json -o overlap.speedscope.json
expect_rc 0 "speedscope of overlapping spans"
expect_err_has "profreport: speedscope: warning: 1 spans ended after their parent span" \
	"speedscope of overlapping spans"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "overlapping spans: more than one warning line"
check_file overlap.speedscope.json "overlapping spans"

# -- usage and input errors: exit 2, one line, nothing written
echo old >keep.json
run "$P" speedscope all.db
expect_error "profreport: speedscope: give the output file with -o FILE" "no -o"
run "$P" speedscope all.db --run x -o keep.json
expect_error "profreport: speedscope: --run needs a positive run id" "--run x"
run "$P" speedscope all.db --run 0 -o keep.json
expect_error "profreport: speedscope: --run needs a positive run id" "--run 0"
run "$P" speedscope all.db --run 999 -o keep.json
expect_error "profreport: speedscope: no run 999 in the store" "--run 999"
run "$P" speedscope nope.json -o keep.json
expect_error "profreport: speedscope: 'nope.json': cannot open: " "a missing input"
run "$P" speedscope all.db -o no/such/dir/x.json
expect_error "profreport: speedscope: 'no/such/dir/x.json': cannot create a file next to it: " \
	"an output in a missing directory"
printf '[{"ph": "C", "name": "load", "pid": 1, "ts": 0, "args": {"cpu": 5}}]\n' >counters.json
run "$P" speedscope counters.json -o keep.json
expect_error "profreport: speedscope: nothing to export" "a trace without spans or memory"
[ "$(cat keep.json)" = old ] || fail "a failed export changed the output file"
run "$P" speedscope -o keep.json
expect_rc 2 "no INPUT"
expect_err_has "profreport: speedscope: missing arguments" "no INPUT"
run "$P" speedscope --bogus all.db -o keep.json
expect_rc 2 "an unknown option"
expect_err_has "profreport: speedscope: unknown option '--bogus'" "an unknown option"
find . -maxdepth 1 -name '.*' ! -name . >hidden
[ ! -s hidden ] || fail "temporary files left next to the outputs: $(cat hidden)"
ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "speedscope left temporary files: $(cat leftover)"

# -- help
run "$P" speedscope --help
expect_rc 0 "speedscope --help"
expect_out_has "usage: profreport speedscope INPUT... -o FILE" "speedscope --help"

finish
