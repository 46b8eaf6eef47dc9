#!/bin/sh
# t0035-inputs-pipes: INPUTs that are not plain files, and error lines that
# stay one line (README, "Input formats", issue 12):
# - '-' is standard input for every command that takes an INPUT, a FIFO is
#   read like a file (both through a temporary copy that is removed after),
#   plain or gzip; a STORE is never '-';
# - a symbolic link loop inside an input directory is skipped with a note
#   naming it, and the rest is ingested;
# - control characters in a file name (newline, CR, ESC) are escaped, so an
#   error stays one line.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# Under AddressSanitizer the fontconfig caches suppressed in cli/main.c would
# be listed on stderr at exit (report draws panels); the line checks need quiet.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}print_suppressions=0
export ASAN_OPTIONS

# No temporary copy of standard input or a FIFO is left behind ($TMPDIR is
# private to this script, lib.sh).
no_leftovers() {
	left=$(find "$TMPDIR" -name 'profreport-input-*' | wc -l)
	[ "$left" -eq 0 ] || fail "$1: $left temporary copies left in \$TMPDIR"
}

# run_in FILE CMD...: run with standard input from FILE
run_in() {
	input=$1
	shift
	last_cmd="$* <$input"
	set +e
	"$@" <"$input" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
}

# ---- '-' for every INPUT command ----
run_in "$VIZ" "$P" ingest - -o dash.db
expect_rc 0 "ingest -"
expect_out_has "'-': run 1, chrome, 15 spans" "ingest - reports the run as '-'"
expect_err_empty "ingest -"
# the run's source is what was given; its label says where it came from
[ "$(query_value dash.db "select source || ' ' || label from run")" = "- stdin" ] ||
	fail "ingest -: source and label"
[ "$(query_value dash.db "select bytes from run")" = "$(wc -c <"$VIZ" | tr -d ' ')" ] ||
	fail "ingest -: bytes"
no_leftovers "ingest -"
# gzip on standard input is decoded like a .gz file: the same content, a duplicate
gzip -c "$VIZ" >viz.json.gz
run_in viz.json.gz "$P" ingest - -o dash.db
expect_rc 0 "ingest - (gzip)"
expect_out_has "'-': already in the store as run 1" "gzip on standard input"
run_in "$VIZ" "$P" summary -
expect_rc 0 "summary -"
expect_out_has "run 1: stdin" "summary - names the run"
run_in "$VIZ" "$P" report - -o r.html --json m.json
expect_rc 0 "report -"
[ -s r.html ] && [ -s m.json ] || fail "report -: no page or model"
run_in "$VIZ" "$P" speedscope - -o s.json
expect_rc 0 "speedscope -"
run_in "$TORCH" "$P" compare "$TORCH" -
expect_rc 0 "compare FILE -"
expect_out_has "PASS" "compare FILE -"
# a model on standard input is recognized as one (its head is read twice)
run_in m.json "$P" compare m.json -
expect_rc 0 "compare with a model on standard input"
run_in "$TORCH" "$P" aggregate - -o a.json
expect_rc 0 "aggregate -"
grep -q '"source": "-"' a.json || fail "aggregate -: the rank's source is not '-'"
no_leftovers "the commands on standard input"
# a parse error in standard input names '-' and the line and column
printf '{"traceEvents":[\n{"ph":"X","ts":1,"dur":x}]}\n' >bad.json
run_in bad.json "$P" summary -
expect_rc 2 "summary - of bad JSON"
expect_one_err_line "summary - of bad JSON"
expect_err_has "profreport: summary: '-':2:" "the error names '-' with its line"
no_leftovers "a failed read of standard input"

# ---- a FIFO (a named pipe; a shell's <(...) is one too) ----
if command -v mkfifo >/dev/null 2>&1 && command -v timeout >/dev/null 2>&1 &&
	mkfifo fifo 2>/dev/null; then
	# the writer blocks until profreport opens the FIFO; timeouts guard a hang
	timeout 60 sh -c 'cat "$1" >fifo' sh "$VIZ" &
	run timeout 60 "$P" summary fifo
	wait
	expect_rc 0 "summary FIFO"
	expect_out_has "run 1: fifo" "summary FIFO"
	timeout 60 sh -c 'gzip -c "$1" >fifo' sh "$VIZ" &
	run timeout 60 "$P" ingest fifo -o fifo.db
	wait
	expect_rc 0 "ingest a gzip FIFO"
	[ "$(query_value fifo.db "select source || ' ' || span_count from run")" = "fifo 15" ] ||
		fail "ingest FIFO: source and spans"
	no_leftovers "FIFO"
else
	echo "$test_name: no mkfifo or timeout here; the FIFO cases skipped" >&2
fi

# ---- a STORE is never '-' ----
run "$P" ingest "$VIZ" -o -
expect_rc 2 "ingest -o -"
expect_one_err_line "ingest -o -"
expect_err_has "a store is a file: '-'" "ingest -o -"
[ ! -e ./- ] || fail "ingest -o - created a file named '-'"
run "$P" query - "select 1"
expect_rc 2 "query -"
expect_one_err_line "query -"
run "$P" dump events -
expect_rc 2 "dump events -"
expect_one_err_line "dump events -"
# ./- is a store like any other file
run "$P" ingest "$VIZ" -o ./- -q
expect_rc 0 "ingest -o ./-"
[ "$(query_value ./- "select count(*) from run")" = 1 ] || fail "a store called ./-"

# ---- symbolic link loops inside an input directory ----
mkdir -p loops/sub
cp "$VIZ" loops/
ln -s self loops/self          # a link to itself
ln -s b loops/a                # two links to each other
ln -s a loops/b
ln -s .. loops/sub/up          # a link to the directory that holds it
run "$P" ingest loops -o loops.db
expect_rc 0 "a directory with link loops"
expect_out_has "'loops/viztracer_like.json': run 1" "the trace beside the loops is ingested"
for l in loops/a loops/b loops/self; do
	expect_err_has "profreport: ingest: '$l': note: skipped: a symbolic link loop" "$l noted"
done
expect_err_has "'loops/sub/up': note: skipped: a symbolic link loop (it leads back to 'loops')" \
	"a link to a directory above"
[ "$(wc -l <"$tmp/err")" -eq 4 ] || fail "one note per loop, got $(wc -l <"$tmp/err") lines"
run "$P" summary loops
expect_rc 0 "summary of the directory"
expect_err_has "profreport: summary: 'loops/sub/up': note: skipped" "summary notes the loop too"

# ---- control characters in file names: the error stays one line ----
nl='
'
run "$P" summary "missing${nl}name.json"
expect_rc 2 "a missing file with a newline in its name"
expect_one_err_line "a newline in a file name"
expect_err_has "'missing\\nname.json': cannot open: No such file or directory" \
	"the newline is written as \\n"
esc=$(printf '\033')
cr=$(printf '\r')
printf 'not a trace at all\n' >"t${esc}]0;title${cr}x.json"
run "$P" summary "t${esc}]0;title${cr}x.json"
expect_rc 2 "an unrecognized file with ESC and CR in its name"
expect_one_err_line "ESC and CR in a file name"
expect_err_has "'t\\x1b]0;title\\rx.json'" "ESC and CR escaped"
if grep -q "$esc" "$tmp/err"; then
	fail "a raw ESC reached stderr"
fi
# inside a directory, the note for such a name is one line too
mkdir named
cp "$VIZ" named/
ln -s "loop${nl}link" "named/loop${nl}link"
run "$P" ingest named -o named.db -q
expect_rc 0 "a directory with a newline in a loop's name"
expect_err_has "'named/loop\\nlink': note: skipped" "the note escapes the name"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "the note is not one line"

finish
