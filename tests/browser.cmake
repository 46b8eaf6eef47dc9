# browser.cmake - checks in a headless browser (included from tests/CMakeLists.txt;
# PR_TEST_ENV is set there). They need chromium, node and tests/browser/node_modules
# (apt-get install -y chromium nodejs npm && (cd tests/browser && npm ci)) and
# are reported as skipped (exit 77) without them.

# pr_browser_test(NAME SCRIPT TIMEOUT): ctest browser/NAME runs tests/browser/SCRIPT.
function(pr_browser_test name script timeout)
  add_test(NAME browser/${name} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/browser/${script})
  set_tests_properties(browser/${name} PROPERTIES ENVIRONMENT "${PR_TEST_ENV}"
    SKIP_RETURN_CODE 77 TIMEOUT ${timeout} LABELS "browser;slow")
endfunction()

# Every sample exported with 'profreport speedscope' and loaded in speedscope 1.25.0.
pr_browser_test(speedscope run_speedscope.sh 900)

# HTML reports (single page, every sample, an archive + index, hostile names)
# loaded in headless chromium: no console errors, no requests, not blank, tables sort;
# their layout at 1400 and 1024 px, one step time, each fact once (check_layout.js).
pr_browser_test(html run_html.sh 900)

# The trace view of real traces' pages driven in headless chromium (hover, zoom, keys,
# search, a launch's kernel), held to facts read from the trace files themselves.
pr_browser_test(trace run_trace.sh 900)

# One numbering and one unit per page: the steps charts number steps as the tables do, and
# hover values are in the unit the axis names (check_scales.js).
pr_browser_test(scales run_scales.sh 900)

# The page budget (docs/report.md): README's samples page and a 101-run archive's index
# within the byte budget, loading without console errors; prints the time to pr-ready.
pr_browser_test(budget run_budget.sh 600)

# The first screen (run_cards.sh): the first card is the primary quantity, no zero peak
# card, and the GPU-busy card equals the GPU section's number.
pr_browser_test(cards run_cards.sh 600)
