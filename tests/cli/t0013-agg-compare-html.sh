#!/bin/sh
# t0013-agg-compare-html: the pages and panels of 'aggregate --html/--png/--svg'
# and 'compare --html/--png/--svg': the files exist, PNGs are PNGs (magic
# bytes), pages carry their panels as inline <svg> and no external
# reference, the straggler (rank 2 of samples/ranks) and the regressed
# metric (span:aten::mm of samples/compare/slower_op) are named; compare
# still exits 1 on a regression after writing its page; trace text is
# escaped; an output directory that cannot be made is exit 2, one line.
# (tests/browser/run_html.sh loads the same pages in headless Chromium.)
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

S=$PR_SAMPLES/compare

# is_png FILE: the 8-byte PNG signature
is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# page_ok FILE DESC: inline SVG panels, no reference outside the page
page_ok() {
	[ -s "$1" ] || { fail "$2: $1 missing or empty"; return 0; }
	grep -q '<figure[^>]*><svg' "$1" || fail "$2: no inline <svg> panel in $1"
	if grep -Eq '(src|href)="[^#"]' "$1" || grep -Eq 'url\((https?:)?//' "$1" ||
		grep -Eq '<(img|script|link|iframe)[^>]* (src|href)=' "$1"; then
		fail "$2: $1 references something outside the page"
		grep -Eo '(src|href)="[^#"][^"]*"' "$1" | head -5 >&2 || true
	fi
	grep -q 'Content-Security-Policy' "$1" || fail "$2: $1 lacks the Content-Security-Policy"
}

# -- aggregate: page, PNG and SVG panels
run "$P" aggregate "$PR_SAMPLES/ranks" -q --html agg.html --png png --svg svg
expect_rc 0 "aggregate --html --png --svg"
expect_out_empty "aggregate -q"
page_ok agg.html "aggregate page"
for f in rank_comparison step_time; do
	[ -f "png/$f.png" ] || fail "aggregate --png: png/$f.png missing"
	[ -f "png/$f.png" ] && { is_png "png/$f.png" || fail "png/$f.png is not a PNG"; }
	grep -q '<svg' "svg/$f.svg" 2>/dev/null || fail "aggregate --svg: svg/$f.svg missing or not SVG"
done
[ ! -e png/peak_memory.png ] || fail "a peak-memory panel without memory peaks"
# rank 2's evidence is a stage and a collective, not its step time (the 4 ranks' steps are
# 92.08 ms alike, make_ranks.py): red (#D62728) on those 2 bars of the rank
# comparison and nowhere in the step-time panel (fill="#D62728" in profreport's SVG).
red='fill="#D62728"'
[ "$(grep -o "$red" svg/rank_comparison.svg | wc -l)" -eq 2 ] ||
	fail "the rank comparison does not paint exactly the 2 bars of rank 2's evidence red"
! grep -qF "$red" svg/step_time.svg || fail "step time per rank paints a rank red whose step time is the others'"
grep -qF 'rank 2: dataloader 2.98x the median; waits 80 % less in ncclDevKernel_AllReduce_Sum_f32_RING_LL' agg.html ||
	fail "the aggregate page lacks the straggler's summary"
grep -qF 'id="agg-rank_comparison"' agg.html || fail "the aggregate page lacks the rank comparison panel"
grep -qF '>straggler</td>' agg.html || fail "the per-rank table does not mark the straggler"
grep -qF 'enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__' agg.html ||
	fail "the cross-rank table lacks the data-loading stage"
n=$(grep -c '<table class="sortable">' agg.html)
[ "$n" -ge 3 ] || fail "the aggregate page has $n sortable tables, expected stats, ranks and checks"

# the Inferix set: 3 ranks with memory peaks, no straggler
run "$P" aggregate "$PR_SAMPLES/inferix/multirank" -q --png ipng
expect_rc 0 "aggregate --png of the Inferix set"
for f in rank_comparison step_time peak_memory; do
	is_png "ipng/$f.png" 2>/dev/null || fail "Inferix aggregate: ipng/$f.png missing or not a PNG"
done

# an agg.json input gives the same page as the traces (agg.json keeps 12 digits, so do the pages)
"$P" aggregate "$PR_SAMPLES/ranks" -q -o agg.json 2>/dev/null || fail "setup: aggregate -o agg.json"
run "$P" aggregate agg.json -q --html agg2.html
expect_rc 0 "aggregate --html from an agg.json"
cmp -s agg.html agg2.html || fail "the page from agg.json differs from the page from the traces"

# -- compare: a regression, page and panels written, exit 1
run "$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json" \
	--html cmp.html --png cpng --svg csvg
expect_rc 1 "compare --html of a regression still exits 1"
expect_out_has "span:aten::mm" "the console table is still written"
page_ok cmp.html "compare page"
grep -qF 'FAIL: 2 regressions, 33 unchanged, 2 below noise floor' cmp.html || fail "the compare page lacks the verdict"
grep -qF 'span:aten::mm' cmp.html || fail "the compare page does not name the regressed op"
grep -qF 'id="cmp-changes"' cmp.html || fail "the compare page lacks the diff chart"
grep -qF 'id="cmp-step_time"' cmp.html || fail "the compare page lacks the step-time panel"
for f in changes step_time; do
	is_png "cpng/$f.png" 2>/dev/null || fail "compare --png: cpng/$f.png missing or not a PNG"
	grep -q '<svg' "csvg/$f.svg" 2>/dev/null || fail "compare --svg: csvg/$f.svg missing or not SVG"
done
run "$P" compare "$S/identical/base.pt.trace.json" "$S/identical/new.pt.trace.json" --html same.html
expect_rc 0 "compare --html of identical runs"
page_ok same.html "compare page of identical runs"
grep -qF 'PASS' same.html || fail "the identical page does not say PASS"
# the page is the same bytes whatever --format and -o are
run "$P" compare "$S/slower_op/base.pt.trace.json" "$S/slower_op/new.pt.trace.json" \
	--to json -o cmp.json --html cmp2.html
expect_rc 1 "compare --to json --html"
cmp -s cmp.html cmp2.html || fail "the compare page depends on --format"

# -- trace text is escaped on the compare page
cat >hostile.json <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
 {"ph": "X", "cat": "cpu_op", "name": "<img src=x onerror=alert(1)>", "pid": 1, "tid": 1, "ts": 10, "dur": 900},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000, "dur": 1000},
 {"ph": "X", "cat": "cpu_op", "name": "<img src=x onerror=alert(1)>", "pid": 1, "tid": 1, "ts": 1010, "dur": 900}
]}
JSON
run "$P" compare hostile.json hostile.json --html hostile.html
expect_rc 0 "compare --html of a trace with markup in its names"
page_ok hostile.html "compare page of a hostile trace"
if grep -qF '<img src=x' hostile.html; then
	fail "the compare page carries a span name as markup"
fi
grep -qF '&lt;img src=x onerror=alert(1)&gt;' hostile.html || fail "the span name is not shown escaped"

# -- errors: an output directory that cannot be created is exit 2, one line
run "$P" aggregate "$PR_SAMPLES"/ranks/rank*.pt.trace.json -q --png missing/dir/png
expect_rc 2 "aggregate --png into a missing parent"
expect_one_err_line "aggregate --png into a missing parent"
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --svg missing/dir/svg
expect_rc 2 "compare --svg into a missing parent"
expect_one_err_line "compare --svg into a missing parent"
run "$P" compare "$S/noise/base.pt.trace.json" "$S/noise/new.pt.trace.json" --html missing/dir/x.html
expect_rc 2 "compare --html into a missing directory"
expect_one_err_line "compare --html into a missing directory"

ls "$TMPDIR" >leftover
[ ! -s leftover ] || fail "left temporary files: $(cat leftover)"
finish
