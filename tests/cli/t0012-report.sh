#!/bin/sh
# t0012-report: 'profreport report INPUT -o report.html | DIR' writes the
# single-file HTML report (panels inline as SVG, no external references,
# trace strings escaped) or an archive (one page per run + index.html,
# runs already reported skipped); --png/--svg DIR write the panels;
# --json the model; bad output paths fail with one line and no file.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

QEFF=$PR_SAMPLES/qeff/qeff_profile.json

# -- one page
run "$P" report "$QEFF" -o one.html
expect_rc 0 "report -o one.html"
expect_out_empty "report -o one.html"
[ -s one.html ] || fail "no one.html"
head -c 15 one.html | grep -q '<!DOCTYPE html>' || fail "one.html is not an HTML page"
[ "$(grep -c '<figure' one.html)" -ge 4 ] || fail "one.html has fewer than 4 panels"
grep -q '<svg' one.html || fail "panels are not inline SVG"
if grep -Eq '(src|href)="(https?:)?//' one.html; then fail "one.html references something outside itself"; fi
grep -q 'Content-Security-Policy' one.html || fail "no CSP in one.html"
grep -q 'aria-label="Memory usage over time | Peak: 2.42 GiB (mem.rss)"' one.html || fail "the memory panel's title (peak 2.42 GiB of mem.rss) is missing"
grep -q 'Model Loading' one.html || fail "phase names missing from the tables"
ls one.html.tmp* >/dev/null 2>&1 && fail "a temporary file was left"

# -- hostile names stay text
cat >hostile.json <<'JSON'
[{"ph": "X", "name": "<img src=x onerror=alert(1)>", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 0, "dur": 10}]
JSON
run "$P" report hostile.json -o hostile.html
expect_rc 0 "report of a trace with markup in names"
grep -q '&lt;img src=x onerror=alert(1)&gt;' hostile.html || fail "the span name was not escaped"
if grep -q '<img src=x' hostile.html; then fail "raw markup from the trace reached the page"; fi

# -- panels as files
mkdir png svg
run "$P" report "$QEFF" --png png --svg svg --json model.json
expect_rc 0 "report --png --svg --json"
[ "$(ls png | wc -l)" -ge 4 ] || fail "fewer than 4 PNG panels"
for f in png/*.png; do
	head -c 8 "$f" | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || fail "$f is not a PNG"
done
[ "$(ls svg | wc -l)" = "$(ls png | wc -l)" ] || fail "SVG and PNG panel counts differ"
grep -q '"schema": "profreport-model"' model.json || fail "no model"

# -- an archive directory: one page per run + index.html; a rerun skips
run "$P" report "$PR_SAMPLES/qeff" "$PR_SAMPLES/qnn" -o archive
expect_rc 0 "report -o archive/"
expect_err_has "2 report(s) written, 0 already there" "archive report line"
[ -s archive/index.html ] || fail "no archive/index.html"
[ "$(ls archive/*.html | wc -l)" = 3 ] || fail "archive: expected 2 reports + index"
grep -q 'qeff_profile.json' archive/index.html || fail "index does not list the qeff run"
run "$P" report "$PR_SAMPLES/qeff" "$PR_SAMPLES/qnn" -o archive
expect_err_has "0 report(s) written, 2 already there" "archive rerun skips"

# -- outputs that are not regular files are written in place, never replaced
run "$P" report "$QEFF" --json -
expect_rc 0 "report --json - (standard output)"
expect_out_has '"schema": "profreport-model"' "the model on standard output"
mkfifo pipe.html
cat pipe.html >from_pipe &
reader=$!
run "$P" report "$QEFF" -o pipe.html
expect_rc 0 "report -o FIFO"
[ "$rc" = 0 ] || { exec 3>pipe.html; exec 3>&-; } # never leave the reader blocked on open
wait "$reader" || true
[ -p pipe.html ] || fail "the FIFO was replaced"
grep -q '</html>' from_pipe || fail "the page did not go through the FIFO"
mkdir archive2
ln -s archive2/target.html link.html
run "$P" report "$QEFF" -o link.html
expect_rc 0 "report -o a symbolic link"
[ -L link.html ] || fail "the symbolic link was replaced"
grep -q '</html>' archive2/target.html || fail "the page did not go through the link"
run "$P" report "$QEFF" --json /dev/null
expect_rc 0 "report --json /dev/null"
run "$P" compare "$QEFF" "$QEFF" --to md -o /dev/null
expect_rc 0 "compare -o /dev/null"
[ -c /dev/null ] || fail "/dev/null is no longer a device"
[ -z "$(ls -a | grep '\.tmp\.')" ] || fail "temporary files left behind"

# -- errors: nothing to write; an unwritable path
run "$P" report "$QEFF"
expect_rc 2 "report without an output"
expect_one_err_line "report without an output"
run "$P" report "$QEFF" -o no/such/dir/r.html
expect_rc 2 "report into a missing directory"
expect_one_err_line "report into a missing directory"
[ ! -e no ] || fail "a failed report created files"

# -- report says what it wrote (stderr), unless -q
run "$P" report "$QEFF" -o said.html --json said.json --png said-png
expect_rc 0 "report -o --json --png"
expect_err_has "wrote 'said.html' (1 run)" "report says the page it wrote"
expect_err_has "wrote the model 'said.json' (1 run)" "report says the model it wrote"
n=$(ls said-png | wc -l)
expect_err_has "wrote $n PNG panels into 'said-png'" "report says how many panels it wrote (as many as the directory has)"
run "$P" report "$QEFF" -o quiet.html -q
expect_rc 0 "report -q"
expect_err_empty "report -q"

# -- -o: .htm is a page too; another extension is refused before any work, not made a directory;
# a directory given with a trailing '/' names its index without '//'
run "$P" report "$QEFF" -o page.HTM
expect_rc 0 "report -o page.HTM"
[ -f page.HTM ] && grep -q '</html>' page.HTM || fail "-o page.HTM did not write one page"
run "$P" report "$QEFF" -o report.txt
expect_rc 2 "report -o report.txt"
expect_one_err_line "report -o report.txt"
expect_err_has "FILE.html (one page) or a directory" "the -o error says what -o takes"
[ ! -e report.txt ] || fail "-o report.txt created something"
run "$P" report "$QEFF" -o site/
expect_rc 0 "report -o site/"
expect_err_has "index 'site/index.html'" "the archive's index is named without '//'"
[ -f site/index.html ] || fail "-o site/ wrote no index"

finish
