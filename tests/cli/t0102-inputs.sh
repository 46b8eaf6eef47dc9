#!/bin/sh
# t0102-inputs: inputs that are not what they seem. A file given explicitly that
# no reader understands (a JSON document that is not a trace, a CSV with no
# numbers), an empty directory and a directory with no recognized file are
# errors for every command that reads INPUTs: exit 2, nothing on stdout,
# one line "profreport: CMD: 'PATH'[:LINE:COL]: ...". A real trace with an
# empty event array stays a valid (empty) run, and a non-trace inside a
# directory next to real traces is still skipped.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"


# every_command PATH PREFIX-AFTER-CMD DESC: each command that reads INPUTs
# fails on PATH with "profreport: CMD: PREFIX...".
every_command() {
	run "$P" ingest -q "$1" -o every.db
	expect_error "profreport: ingest: $2" "ingest: $3"
	[ ! -e every.db ] || fail "ingest: $3: left a store behind"
	rm -f every.db
	run "$P" summary "$1"
	expect_error "profreport: summary: $2" "summary: $3"
	run "$P" report "$1" --json out.json
	expect_error "profreport: report: $2" "report: $3"
	[ ! -e out.json ] || fail "report: $3: wrote the model"
	run "$P" speedscope "$1" -o out.speedscope.json
	expect_error "profreport: speedscope: $2" "speedscope: $3"
	run "$P" aggregate -q "$1" -o agg.json
	expect_error "profreport: aggregate: $2" "aggregate: $3"
	[ ! -e agg.json ] || fail "aggregate: $3: wrote agg.json"
	run "$P" compare "$1" "$TORCH"
	expect_error "profreport: compare: $2" "compare (base): $3"
	run "$P" compare "$TORCH" "$1"
	expect_error "profreport: compare: $2" "compare (new): $3"
	ls "$TMPDIR" >leftover
	[ ! -s leftover ] || fail "$3: temporary files left: $(cat leftover)"
}

# -- JSON documents that are not traces
printf '{"name": "config", "lr": 0.1}\n' >config.json
every_command config.json "'config.json': not a trace: " "a JSON object without traceEvents"
expect_err_has 'no "traceEvents" array' "the message says what is missing"
printf '{"traceEvents": 5, "schemaVersion": 1}\n' >te5.json
every_command te5.json "'te5.json':1:17: not a trace: " "traceEvents that is not an array"
expect_err_has '"traceEvents" is not an array' "the message says what is wrong"
printf '[1, 2, 3]\n' >numbers.json
every_command numbers.json "'numbers.json': not a trace: " "an array of numbers"
printf '{"traceEvents": [{"name": "a"}, {"name": "b", "ts": 1}]}\n' >noph.json
every_command noph.json "'noph.json': not a trace: " "events without \"ph\""
expect_err_has 'no element of the event array is an event' "the message says what is wrong"
printf '[]\n' >bare.json
every_command bare.json "'bare.json': not a trace: " "an empty bare array"
printf '"just a string"\n' >string.json
run "$P" summary --format chrome string.json
expect_error "profreport: summary: 'string.json': not a trace: " "a JSON string forced as chrome"
run "$P" ingest -q --format chrome config.json -o forced.db
expect_error "profreport: ingest: 'config.json': not a trace: " "a non-trace forced as chrome"

# -- a real trace with no events is a valid, empty run
printf '{"traceEvents": [], "displayTimeUnit": "ms"}\n' >empty-trace.json
run "$P" ingest empty-trace.json -o empty.db
expect_rc 0 "an empty traceEvents array is a trace"
expect_out_has "'empty-trace.json': run 1, chrome, 0 spans, 0 samples, 0 instants" "empty trace ingested"
run "$P" summary empty-trace.json
expect_rc 0 "summary of an empty trace"
# One real event among non-objects is a trace (the others are diagnostics).
printf '[1, {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 5}]\n' >one.json
run "$P" ingest one.json -o one.db
expect_rc 0 "a trace with one event and a stray number"
expect_out_has "1 spans" "the one event is kept"

# -- --format csv on files with no numbers
printf 'hello world\nthis is prose, not numbers\n' >prose.txt
every_command prose.txt "'prose.txt': unrecognized input format" "prose (no format recognizes it)"
run "$P" ingest -q --format csv prose.txt -o csv.db
expect_error "profreport: ingest: 'prose.txt':1:1: no numeric column" "prose forced as csv"
printf 'host,model\nnode1,llama\nnode2,qwen\n' >strings.csv
# A CSV of only strings: sniffed as csv, still not a sampler log.
run "$P" summary strings.csv
expect_error "profreport: summary: 'strings.csv':2:1: no numeric column" "a CSV of strings"
run "$P" summary --format csv strings.csv
expect_error "profreport: summary: 'strings.csv':2:1: no numeric column" "a CSV of strings forced as csv"
printf 'just one line\n' >oneline.txt
run "$P" summary --format csv oneline.txt
expect_error "profreport: summary: 'oneline.txt':1:1: no numeric column" "one line of text forced as csv"
# A sampler stopped before its first sample: a header with a time column, no rows.
printf 'timestamp,rss_mb\n' >header-only.csv
run "$P" ingest --format csv header-only.csv -o header.db
expect_rc 0 "a header-only sampler log is an empty run"
# Time and phase columns only: phases are something to read.
printf 'time,phase\n0,load\n2,run\n5,run\n' >phases-only.csv
run "$P" ingest --format csv phases-only.csv -o phonly.db
expect_rc 0 "a CSV of times and phases"
expect_out_has "2 spans" "its phases are kept"

# -- directories
mkdir empty-dir
every_command empty-dir "'empty-dir': empty directory" "an empty directory"
mkdir -p nothing-dir/sub empty-dir2/sub
cp config.json prose.txt nothing-dir/
cp te5.json nothing-dir/sub/
every_command nothing-dir "'nothing-dir': no recognized inputs in the directory" "a directory of non-traces"
every_command empty-dir2 "'empty-dir2': empty directory" "a directory with an empty subdirectory"
# next to a real trace, a non-trace in a directory is skipped
mkdir mixed
cp "$VIZ" te5.json config.json mixed/
run "$P" ingest mixed -o mixed.db
expect_rc 0 "a directory with one trace and two non-traces"
expect_out_has "'mixed/te5.json': skipped, not a recognized format" "the non-trace with traceEvents is skipped"
[ "$(query_value mixed.db "SELECT count(*) FROM run")" = 1 ] || fail "mixed: expected one run"
run "$P" summary mixed
expect_rc 0 "summary of a directory with one trace"
# one empty directory among good inputs is still an error
run "$P" summary "$VIZ" empty-dir
expect_error "profreport: summary: 'empty-dir': empty directory" "a good file and an empty directory"

finish
