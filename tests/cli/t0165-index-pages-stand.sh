#!/bin/sh
# t0165-index-pages-stand: an archive index past one page (docs/report.md, "Archives"; issue
# 32). The runs in time order go PROFREPORT_INDEX_ROWS (here 3) a page: full pages index-1.html,
# index-2.html, ... of fixed runs that name no total and link only index.html and the older
# pages, written once and left alone while their runs are the same (their stamp); index.html the
# rest, with the total, every page linked and the trends of the last 3 runs. Checked here, the
# expected pages computed in Python from the runs' --meta times (not from profreport):
# - 10 runs: index-1..3 of runs 1-3, 4-6, 7-9, index.html of run 10; the contents;
# - one new run after the others: the full pages' bytes and mtimes unchanged, PR_TIMINGS says
#   they stood and 3 digests were read (the last 3 runs: the trends), index.html has 11;
# - one new run sorting into page 2: page 1 stands, pages 2 and 3 are written again;
# - -j 2 writes the same site as -j 1 at every step, and a site written afresh equals both;
# - fewer runs again (an incremental directory's removed files): full pages past the last go
#   (an older profreport's index page too; a file of such a name that is not one stays).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

need_gen
py=/usr/bin/python3
[ -x "$py" ] || py=python3
PROFREPORT_INDEX_ROWS=3
export PROFREPORT_INDEX_ROWS

i=1
while [ "$i" -le 12 ]; do
	"$gen" 0.05 "$i" -o "r$i.json" 2>/dev/null || fail "setup: gen_trace $i"
	i=$((i + 1))
done
# run k's time: 1000 + 10 k seconds; r12's (1045) sorts between r4 and r5
when() { [ "$1" = 12 ] && echo 1045 || echo $((1000 + 10 * $1)); }
i=1
while [ "$i" -le 10 ]; do
	"$P" ingest -q "r$i.json" -o s.db --meta "time=$(when "$i")" || fail "setup: ingest r$i"
	i=$((i + 1))
done

# check_site SITE RUN...: the site's index pages against the runs (file names r<k>.json) in
# time order, as this test expects them (3 a page; the newest page holds 1-3 runs).
check_site() {
	"$py" - "$@" <<'PY'
import os, re, sys
site, runs = sys.argv[1], sys.argv[2:]
n, rows = len(runs), 3
full = (n - 1) // rows if n > rows else 0
def page(name):
    return open(os.path.join(site, name), encoding="utf-8").read()
def table(s):
    return re.findall(r'<tr id="row-(\d+)"><td class="n" data-v="\d+">\d+</td>'
                      r'<td class="name"><a href="([^"]+)">', s)
files = ["index-%d.html" % (k + 1) for k in range(full)]
have = sorted(f for f in os.listdir(site) if re.fullmatch(r"index-\d+\.html", f))
assert have == sorted(files), (have, files)
for k in range(full + 1):
    lo, hi = k * rows, (k + 1) * rows if k < full else n
    s = page(files[k] if k < full else "index.html")
    t = table(s)
    assert [int(r) for r, _ in t] == list(range(lo + 1, hi + 1)), (k, t)
    assert [h.split("-")[0] for _, h in t] == runs[lo:hi], (k, t, runs[lo:hi])
    nav = re.search(r'<nav class="index-parts"[^>]*><p class="meta">(.*?)</p></nav>', s).group(1)
    links = re.findall(r'<a href="([^"]+)">', nav)
    if k < full:
        # no total anywhere, no later page linked, the stamp in the first KiB
        assert " of %d" % n not in s and "%d archived runs" % n not in s, k
        assert nav.startswith("Runs %d-%d (3 a page; the newest:" % (lo + 1, hi)), nav
        assert links == ["index.html"] + files[:k], (k, links)
        assert "Trends across runs" not in s
        assert 0 < s.find('<meta name="profreport-index-stamp" content="') < 1024
        assert "<title>profreport: archived runs %d-%d</title>" % (lo + 1, hi) in s
    else:
        assert nav.startswith("Runs %d-%d of %d (3 a page):" % (lo + 1, hi, n)), nav
        assert links == files, links
        assert "<title>profreport: %d archived runs</title>" % n in s
        assert "profreport-index-stamp" not in s
        if full:
            w = re.search(r'trends-window">The trends of the last (\d+) of (\d+) runs '
                          r'\(#(\d+)-(\d+)\)', s).groups()
            assert [int(x) for x in w] == [3, n, n - 2, n], w
print("ok", n, full)
PY
}

# mtimes SITE: "name size mtime" of its full pages
mtimes() { stat -c '%n %s %Y' "$1"/index-*.html; }

order10="r1.json r2.json r3.json r4.json r5.json r6.json r7.json r8.json r9.json r10.json"
for j in 1 2; do
	run "$P" report s.db -o "site$j/" -j "$j"
	expect_rc 0 "report -j $j of 10 runs"
	# shellcheck disable=SC2086
	check_site "site$j" $order10 >/dev/null || fail "-j $j, 10 runs: the index pages (above)"
done
diff -r site1 site2 >/dev/null || fail "10 runs: -j 2's site differs from -j 1's"

# one new run after the others: the full pages stand
"$P" ingest -q r11.json -o s.db --meta "time=$(when 11)"
for j in 1 2; do
	touch -d @1000000000 "site$j"/index-*.html
	mtimes "site$j" >"before$j"
	PR_TIMINGS=1 run "$P" report s.db -o "site$j/" -j "$j"
	expect_rc 0 "report -j $j after one new run"
	expect_err_has "profreport: timing: index 1 page(s) written, 3 standing; 11 run(s), 3 digest(s) read" \
		"-j $j: the 3 full pages stood, the digests of the last 3 runs read"
	expect_err_has "1 report(s) written, 10 already there" "-j $j: one new page"
	mtimes "site$j" >"after$j"
	cmp -s "before$j" "after$j" || fail "-j $j: a full page was written again: $(diff "before$j" "after$j")"
	# shellcheck disable=SC2086
	check_site "site$j" $order10 r11.json >/dev/null || fail "-j $j, 11 runs: the index pages (above)"
done
diff -r site1 site2 >/dev/null || fail "11 runs: -j 2's site differs from -j 1's"

# one new run sorting into page 2 (between r4 and r5): page 1 stands, pages 2 and 3 are new
"$P" ingest -q r12.json -o s.db --meta "time=$(when 12)"
for j in 1 2; do
	cp "site$j/index-2.html" "old2-$j.html"
	touch -d @1000000000 "site$j"/index-*.html
	PR_TIMINGS=1 run "$P" report s.db -o "site$j/" -j "$j"
	expect_rc 0 "report -j $j after a run in the middle"
	expect_err_has "profreport: timing: index 3 page(s) written, 1 standing; 12 run(s), 9 digest(s) read" \
		"-j $j: pages 2 and 3 and index.html written (the runs from 4 on read)"
	[ "$(stat -c %Y "site$j/index-1.html")" = 1000000000 ] || fail "-j $j: page 1 was written again"
	[ "$(stat -c %Y "site$j/index-2.html")" != 1000000000 ] || fail "-j $j: page 2 was not written"
	[ "$(stat -c %Y "site$j/index-3.html")" != 1000000000 ] || fail "-j $j: page 3 was not written"
	! cmp -s "old2-$j.html" "site$j/index-2.html" || fail "-j $j: page 2 did not change"
	check_site "site$j" r1.json r2.json r3.json r4.json r12.json r5.json r6.json r7.json r8.json \
		r9.json r10.json r11.json >/dev/null || fail "-j $j, 12 runs: the index pages (above)"
done
diff -r site1 site2 >/dev/null || fail "12 runs: -j 2's site differs from -j 1's"
run "$P" report s.db -o fresh/ -j 1
expect_rc 0 "report of the 12 runs afresh"
diff -r site1 fresh >/dev/null || fail "12 runs: the site written step by step differs from afresh"

# a stamp that is not the page's runs' (another analysis option): every full page written again
PR_TIMINGS=1 run "$P" report s.db -o site1/ -j 1 --top 7
expect_err_has "profreport: timing: index 4 page(s) written, 0 standing" "--top 7: no page stands"

# an incremental directory: 7 files, then 4 (3 removed): index-2.html goes, index-1.html stays
mkdir runs
for i in 1 2 3 4 5 6 7; do cp "r$i.json" runs/; done
# runs without --meta time: the index orders them by the start of their clock (the run table's
# time_origin_ns + ts_min, as ingest stored them), then by id
by_id() {
	"$py" -c 'import sqlite3, sys
print(" ".join(l for (l,) in sqlite3.connect(sys.argv[1]).execute(
    "SELECT label FROM run ORDER BY time_origin_ns + ts_min, id") if l in sys.argv[2:]))' \
		dsite/.profreport.db "$@"
}
run "$P" report runs/ -o dsite/ -j 1
expect_rc 0 "report runs/ (7 files)"
# shellcheck disable=SC2046
check_site dsite $(by_id r1.json r2.json r3.json r4.json r5.json r6.json r7.json) >/dev/null ||
	fail "runs/ of 7 files: the index pages (above)"
[ -f dsite/index-2.html ] || fail "runs/ of 7 files: no index-2.html"
# the last three runs' files removed: index-2.html (runs 4-6) goes, index-1.html stands
# shellcheck disable=SC2046
set -- $(by_id r1.json r2.json r3.json r4.json r5.json r6.json r7.json)
rm "runs/$5" "runs/$6" "runs/$7"
# past the last full page: index-2.html (stamped) and index-3.html (an index page without a stamp,
# as an older profreport wrote them: its newest page, copied) go; index-4.html, not an index page
# of profreport's, stays
cp dsite/index.html dsite/index-3.html
echo '<!DOCTYPE html><html><body>not an index page of profreport</body></html>' >dsite/index-4.html
PR_TIMINGS=1 run "$P" report runs/ -o dsite/ -j 2
expect_rc 0 "report runs/ (4 files)"
expect_err_has "profreport: timing: index 1 page(s) written, 1 standing; 4 run(s)" \
	"runs/ of 4 files: page 1 stands"
grep -q "not an index page of profreport" dsite/index-4.html ||
	fail "runs/ of 4 files: index-4.html (not profreport's) was touched"
rm dsite/index-4.html
check_site dsite "$1" "$2" "$3" "$4" >/dev/null || fail "runs/ of 4 files: the index pages (above)"

# the page size is checked like the other budgets
PROFREPORT_INDEX_ROWS=1 run "$P" report s.db -o bad/
expect_rc 2 "PROFREPORT_INDEX_ROWS=1"
expect_err_has "PROFREPORT_INDEX_ROWS" "PROFREPORT_INDEX_ROWS=1: the variable named"

finish
