# render.cmake - render golden tests (included from tests/CMakeLists.txt).
#
# tests/golden/render/<case>/ holds the expected output of one demo chart of
# tests/tools/chart_demo.c (the directory name is the case name):
#   expected.layout.txt  pr_chart_layout dump            compared exactly
#   expected.svg         the SVG                         compared exactly
#   expected.png         the PNG                         pngcmp with a tolerance
#   svg-cairo            optional: the cairo version that wrote expected.svg
#   png-tolerance        optional: "N M" for pngcmp (default "48 1000")
#   checks               optional: facts about the layout dump (tests/tools/checks.py,
#                        kind "dump"), each derived without profreport
# Every layout dump also goes through tests/tools/check_bars.py: on a linear value
# axis each bar runs from zero and its length is its value's share of the axis.
# Three tests per case: golden/render/<case>/{layout,svg,png}. The SVG and
# PNG tests skip (77) when fc-match does not resolve "DejaVu Sans" (and its
# bold) to DejaVuSans.ttf / DejaVuSans-Bold.ttf, since the glyphs come from
# that font; the SVG test also skips when svg-cairo names another cairo
# version than the one linked (cairo's SVG writer changes between versions).
# PR_UPDATE_GOLDEN=1 rewrites the expected files (review the diff).
#
# render/big_reduce draws the 10 M-point demo series reduced (as charts do)
# and with every point stroked, and compares the two PNGs; it prints both
# times (no timing assertion).

add_executable(chart_demo ${CMAKE_CURRENT_SOURCE_DIR}/tools/chart_demo.c)
target_link_libraries(chart_demo pr_render)
add_executable(pngcmp ${CMAKE_CURRENT_SOURCE_DIR}/tools/pngcmp.c)
target_link_libraries(pngcmp PkgConfig::CAIRO)

set(PR_RENDER_GOLDEN_SH [==[#!/bin/sh
# render_golden.sh CHART_DEMO PNGCMP CASE_DIR KIND - one render golden test
# (written by tests/render.cmake; see there).
set -eu
demo=$1 pngcmp=$2 dir=$3 kind=$4
name=$(basename "$dir")
update=${PR_UPDATE_GOLDEN:-0}
export LC_ALL=C TZ=UTC
fail() {
	echo "golden/render/$name/$kind: FAIL: $*" >&2
	exit 1
}
skip() {
	echo "golden/render/$name/$kind: SKIP: $*"
	exit 77
}
fonts_pinned() {
	command -v fc-match >/dev/null 2>&1 || skip "no fc-match to check the font"
	regular=$(fc-match 'DejaVu Sans' 2>/dev/null || true)
	bold=$(fc-match 'DejaVu Sans:bold' 2>/dev/null || true)
	case $regular in DejaVuSans.ttf:*) ;; *) skip "fc-match 'DejaVu Sans' gives '$regular', not DejaVuSans.ttf" ;; esac
	case $bold in DejaVuSans-Bold.ttf:*) ;; *) skip "fc-match 'DejaVu Sans:bold' gives '$bold', not DejaVuSans-Bold.ttf" ;; esac
}
case $kind in
layout) ext=layout.txt ;;
svg) ext=svg; fonts_pinned ;;
png) ext=png; fonts_pinned ;;
*) echo "render_golden.sh: unknown kind '$kind'" >&2; exit 2 ;;
esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/render-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
"$demo" -f "$kind" "$tmp" "$name" >"$tmp/stdout" 2>"$tmp/stderr" || {
	cat "$tmp/stderr" >&2
	fail "chart_demo exited non-zero"
}
cat "$tmp/stdout"
actual=$tmp/$name.$ext
expected=$dir/expected.$ext
# The facts of the case (tests/tools/checks.py, kind "dump" = the layout
# dump), derived without profreport: checked before comparing or rewriting.
if [ "$kind" = layout ] && [ -f "$dir/checks" ]; then
	/usr/bin/python3 "${PR_TESTS:?}/tools/checks.py" "$dir/checks" --dump "$actual" >&2 ||
		fail "a fact of $dir/checks does not hold (above)"
fi
# Bars on a linear axis start at zero and are as long as their value.
if [ "$kind" = layout ]; then
	/usr/bin/python3 "${PR_TESTS:?}/tools/check_bars.py" "$actual" >&2 ||
		fail "a bar does not run from zero to its value (above)"
fi
if [ "$update" = 1 ]; then
	cp "$actual" "$expected"
	[ "$kind" != svg ] || "$demo" --cairo-version >"$dir/svg-cairo"
	echo "golden/render/$name/$kind: wrote expected.$ext"
	exit 0
fi
[ -f "$expected" ] || fail "no expected.$ext (run with PR_UPDATE_GOLDEN=1)"
case $kind in
layout)
	diff -u "$expected" "$actual" >&2 || fail "layout differs from expected.$ext (diff above)"
	;;
svg)
	if [ -f "$dir/svg-cairo" ]; then
		want=$(cat "$dir/svg-cairo") have=$("$demo" --cairo-version)
		[ "$want" = "$have" ] || skip "expected.svg was written by cairo $want, this is cairo $have"
	fi
	cmp -s "$expected" "$actual" || {
		diff "$expected" "$actual" | head -20 >&2 || true
		fail "svg differs from expected.svg (byte-exact comparison)"
	}
	;;
png)
	tol="48 1000"
	[ ! -f "$dir/png-tolerance" ] || tol=$(cat "$dir/png-tolerance")
	# $tol is two numbers, split on purpose.
	# shellcheck disable=SC2086
	"$pngcmp" "$expected" "$actual" $tol || fail "png differs from expected.png beyond '$tol'"
	;;
esac
]==])
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/render_golden.sh "${PR_RENDER_GOLDEN_SH}")

file(GLOB PR_RENDER_CASES LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/golden/render/*)
foreach(dir ${PR_RENDER_CASES})
  if(IS_DIRECTORY ${dir})
    get_filename_component(name ${dir} NAME)
    foreach(kind layout svg png)
      add_test(NAME golden/render/${name}/${kind}
        COMMAND sh ${CMAKE_CURRENT_BINARY_DIR}/render_golden.sh
          $<TARGET_FILE:chart_demo> $<TARGET_FILE:pngcmp> ${dir} ${kind})
      set_tests_properties(golden/render/${name}/${kind} PROPERTIES
        ENVIRONMENT "${PR_TEST_ENV}" SKIP_RETURN_CODE 77 TIMEOUT 300)
    endforeach()
  endif()
endforeach()

# The reduction draws like the whole series: every point stroked vs reduced.
set(PR_BIG_REDUCE_SH [==[
set -eu
tmp=$(mktemp -d "${TMPDIR:-/tmp}/render-big.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$1" --big-full "$tmp"
"$2" "$tmp/big-full.png" "$tmp/big.png" 128 50 1
]==])
add_test(NAME render/big_reduce
  COMMAND sh -c "${PR_BIG_REDUCE_SH}" big_reduce $<TARGET_FILE:chart_demo> $<TARGET_FILE:pngcmp>)
set_tests_properties(render/big_reduce PROPERTIES ENVIRONMENT "${PR_TEST_ENV}" TIMEOUT 900
  LABELS slow)

# pngcmp itself notices a difference (and says so in one line).
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/golden/render/memory/expected.png
   AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/golden/render/cpu/expected.png)
  add_test(NAME render/pngcmp_detects_change
    COMMAND pngcmp ${CMAKE_CURRENT_SOURCE_DIR}/golden/render/memory/expected.png
      ${CMAKE_CURRENT_SOURCE_DIR}/golden/render/cpu/expected.png 8 100)
  set_tests_properties(render/pngcmp_detects_change PROPERTIES
    PASS_REGULAR_EXPRESSION "^pngcmp: [0-9]+ of 504000 pixels differ by more than 8")
endif()

# panel_dump: the panels of a model as layout dumps, SVG and PNG (render_model goldens).
add_executable(panel_dump ${CMAKE_CURRENT_SOURCE_DIR}/tools/panel_dump.c)
target_link_libraries(panel_dump pr_render)

# Model-driven render goldens: tests/golden/render_model/<case>/ holds
#   trace                     the input, relative to PR_TRACES (tests/data/traces): a real trace
#   expected.<panel>.layout.txt  for every GPU panel (gpu_*) of its model, compared exactly
#   expected.<panel>.svg / .png  optional (byte-exact / pngcmp "48 1000"), with svg-cairo
# Tests per case: golden/render_model/<case>/{layout,check} and, where the case has
# expected SVGs, {svg,png}; `check` runs
# tests/tools/check_gpu_panels.py, which derives the drawn numbers again from the trace.
# A missing trace fails them (skip, 77, only in a tree without tests/data/traces); svg/png
# also skip as golden/render/* do.
# PR_UPDATE_GOLDEN=1 rewrites the expected layouts (and the SVG/PNG where there are some).
set(PR_RENDER_MODEL_SH [==[#!/bin/sh
# render_model.sh PROFREPORT PANEL_DUMP PNGCMP CASE_DIR KIND (written by tests/render.cmake)
set -eu
P=$1 dump=$2 pngcmp=$3 dir=$4 kind=$5
name=$(basename "$dir")
update=${PR_UPDATE_GOLDEN:-0}
export LC_ALL=C TZ=UTC
fail() { echo "golden/render_model/$name/$kind: FAIL: $*" >&2; exit 1; }
skip() { echo "golden/render_model/$name/$kind: SKIP: $*"; exit 77; }
trace=${PR_TRACES:?}/$(cat "$dir/trace")
[ -d "$PR_TRACES" ] || skip "$PR_TRACES is missing (a tree without tests/data/traces)"
[ -f "$trace" ] || fail "$trace is missing (tests/data/traces/SHA256SUMS lists it)"
fonts_pinned() {
	command -v fc-match >/dev/null 2>&1 || skip "no fc-match to check the font"
	case $(fc-match 'DejaVu Sans' 2>/dev/null || true) in DejaVuSans.ttf:*) ;; *) skip "DejaVu Sans is not DejaVuSans.ttf" ;; esac
	case $(fc-match 'DejaVu Sans:bold' 2>/dev/null || true) in DejaVuSans-Bold.ttf:*) ;; *) skip "DejaVu Sans bold is not DejaVuSans-Bold.ttf" ;; esac
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/render-model.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
"$P" report "$trace" --json "$tmp/model.json" || fail "profreport report failed"
"$dump" "$tmp/model.json" "$tmp" gpu_ >"$tmp/names" || fail "panel_dump failed"
[ -s "$tmp/names" ] || fail "no GPU panel for a GPU trace"
case $kind in
check)
	/usr/bin/python3 "${PR_TESTS:?}/tools/check_gpu_panels.py" "$trace" "$tmp" || fail "the drawn numbers differ from the trace's (above)" ;;
layout)
	while read -r p; do
		/usr/bin/python3 "${PR_TESTS:?}/tools/check_bars.py" "$tmp/$p.layout.txt" >&2 ||
			fail "$p: a bar does not run from zero to its value (above)"
	done <"$tmp/names"
	if [ "$update" = 1 ]; then
		rm -f "$dir"/expected.*.layout.txt
		while read -r p; do cp "$tmp/$p.layout.txt" "$dir/expected.$p.layout.txt"; done <"$tmp/names"
		echo "golden/render_model/$name/layout: wrote $(wc -l <"$tmp/names") layouts"; exit 0
	fi
	ls "$dir" | sed -n 's/^expected\.\(.*\)\.layout\.txt$/\1/p' | sort >"$tmp/want"
	sort "$tmp/names" >"$tmp/have"
	diff -u "$tmp/want" "$tmp/have" >&2 || fail "the set of GPU panels differs (diff above)"
	while read -r p; do
		diff -u "$dir/expected.$p.layout.txt" "$tmp/$p.layout.txt" >&2 || fail "$p: layout differs (diff above)"
	done <"$tmp/names" ;;
svg|png)
	fonts_pinned
	ls "$dir"/expected.*."$kind" >/dev/null 2>&1 || skip "no expected.*.$kind for this case"
	if [ "$kind" = svg ] && [ -f "$dir/svg-cairo" ] && [ "$update" != 1 ]; then
		want=$(cat "$dir/svg-cairo") have=$("$(dirname "$dump")/chart_demo" --cairo-version)
		[ "$want" = "$have" ] || skip "expected SVGs were written by cairo $want, this is cairo $have"
	fi
	for e in "$dir"/expected.*."$kind"; do
		p=${e##*/expected.}; p=${p%."$kind"}
		[ -f "$tmp/$p.$kind" ] || fail "$p: no such panel any more"
		if [ "$update" = 1 ]; then cp "$tmp/$p.$kind" "$e"; continue; fi
		if [ "$kind" = svg ]; then
			cmp -s "$e" "$tmp/$p.svg" || fail "$p: svg differs from $(basename "$e") (byte-exact comparison)"
		else
			"$pngcmp" "$e" "$tmp/$p.png" 48 1000 || fail "$p: png differs from $(basename "$e") beyond '48 1000'"
		fi
	done
	[ "$update" != 1 ] || [ "$kind" != svg ] || "$(dirname "$dump")/chart_demo" --cairo-version >"$dir/svg-cairo" ;;
*) echo "render_model.sh: unknown kind '$kind'" >&2; exit 2 ;;
esac
]==])
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/render_model.sh "${PR_RENDER_MODEL_SH}")
file(GLOB PR_RENDER_MODEL_CASES LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/golden/render_model/*)
foreach(dir ${PR_RENDER_MODEL_CASES})
  if(IS_DIRECTORY ${dir})
    get_filename_component(name ${dir} NAME)
    file(GLOB svgs ${dir}/expected.*.svg)
    set(kinds layout check)
    if(svgs)
      list(APPEND kinds svg png)
    endif()
    foreach(kind ${kinds})
      add_test(NAME golden/render_model/${name}/${kind}
        COMMAND sh ${CMAKE_CURRENT_BINARY_DIR}/render_model.sh $<TARGET_FILE:profreport>
          $<TARGET_FILE:panel_dump> $<TARGET_FILE:pngcmp> ${dir} ${kind})
      set_tests_properties(golden/render_model/${name}/${kind} PROPERTIES
        ENVIRONMENT "${PR_TEST_ENV}" TIMEOUT 300)
      # layout and check need the trace only: GPU tests; svg/png also skip for the font
      if(kind MATCHES "^(layout|check)$")
        pr_gpu_test(golden/render_model/${name}/${kind} ${dir}/trace ".")
      else()
        set_tests_properties(golden/render_model/${name}/${kind} PROPERTIES SKIP_RETURN_CODE 77)
      endif()
    endforeach()
  endif()
endforeach()

# render/names: no two different names print alike in a console table, a page
# table or the top-GPU-ops chart, over every sample and every real trace
# (tests/tools/names_check.py; 77 only in a tree without tests/data/traces).
add_test(NAME render/names
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tools/names_check.py $<TARGET_FILE:profreport>
    $<TARGET_FILE:panel_dump> ${CMAKE_SOURCE_DIR}/samples ${PR_TRACES_DIR})
set_tests_properties(render/names PROPERTIES ENVIRONMENT "${PR_TEST_ENV}" TIMEOUT 600 LABELS slow)
pr_gpu_test(render/names ${CMAKE_CURRENT_SOURCE_DIR}/tools/names_check.py "TRACES")

# Every bar panel that `report` draws for the samples (and nccl_data of tests/data/traces)
# runs its bars from zero on a linear axis (tests/tools/check_bars.py over panel_dump's
# layouts): the GPU op types, phase durations, a few steps, per-layer memory...
set(PR_BARS_ZERO_SH [==[
set -eu
P=$1 dump=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bars-zero.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
for f in torch/trace_rank0.pt.trace.json qnn/memory_20241219_143000.csv psutil/process_log.csv \
	qeff/qeff_profile.json inferix/profiling_report_t2v_generation_20231114_221332.json \
	memtracer/memory_timeline.json diffulex/profile_20250101_120000.json ranks/rank2.pt.trace.json \
	"${PR_TRACES:?}/hta/nccl_parser_config/nccl_data.json.gz"; do
	# the trace is skipped only in a tree without tests/data/traces
	case $f in /*) [ -f "$f" ] || [ ! -d "$PR_TRACES" ] || exit 1; [ -f "$f" ] || continue; in=$f ;;
	*) in=$PR_SAMPLES/$f ;; esac
	n=$((n + 1))
	mkdir "$tmp/$n"
	"$P" report "$in" -q --json "$tmp/$n/model.json"
	"$dump" "$tmp/$n/model.json" "$tmp/$n" "" >/dev/null
done
/usr/bin/python3 "${PR_TESTS:?}/tools/check_bars.py" "$tmp"/*/*.layout.txt
echo "render/bars_from_zero: $(ls "$tmp"/*/*.layout.txt | wc -l) panels of $n runs: every bar from zero"
]==])
add_test(NAME render/bars_from_zero
  COMMAND sh -c "${PR_BARS_ZERO_SH}" bars_zero $<TARGET_FILE:profreport> $<TARGET_FILE:panel_dump>)
set_tests_properties(render/bars_from_zero PROPERTIES ENVIRONMENT "${PR_TEST_ENV}" TIMEOUT 300)
