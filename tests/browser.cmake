# browser.cmake - checks in a headless browser (included from tests/CMakeLists.txt;
# PR_TEST_ENV is set there). They need chromium, node and tests/browser/node_modules
# (apt-get install -y chromium nodejs npm && (cd tests/browser && npm ci)) and
# are reported as skipped (exit 77) without them.

# Every sample exported with 'profreport speedscope' and loaded in speedscope 1.25.0.
add_test(NAME browser/speedscope COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/browser/run_speedscope.sh)
set_tests_properties(browser/speedscope PROPERTIES ENVIRONMENT "${PR_TEST_ENV}"
  SKIP_RETURN_CODE 77 TIMEOUT 900)

# HTML reports (single page, every sample, an archive + index, hostile names)
# loaded in headless chromium: no console errors, no requests, not blank, tables sort;
# their layout at 1400 and 1024 px, one step time, each fact once (check_layout.js).
add_test(NAME browser/html COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/browser/run_html.sh)
set_tests_properties(browser/html PROPERTIES ENVIRONMENT "${PR_TEST_ENV}"
  SKIP_RETURN_CODE 77 TIMEOUT 900)

# The trace view of real traces' pages driven in headless chromium (hover, zoom, keys,
# search, a launch's kernel), held to facts read from the trace files themselves.
add_test(NAME browser/trace COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/browser/run_trace.sh)
set_tests_properties(browser/trace PROPERTIES ENVIRONMENT "${PR_TEST_ENV}"
  SKIP_RETURN_CODE 77 TIMEOUT 900)

# One numbering and one unit per page: the steps charts number steps as the tables do, and
# hover values are in the unit the axis names (check_scales.js).
add_test(NAME browser/scales COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/browser/run_scales.sh)
set_tests_properties(browser/scales PROPERTIES ENVIRONMENT "${PR_TEST_ENV}"
  SKIP_RETURN_CODE 77 TIMEOUT 900)

# The page budget (docs/report.md): README's samples page and a 101-run archive's index
# within the byte budget, loading without console errors; prints the time to pr-ready.
add_test(NAME browser/budget COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/browser/run_budget.sh)
set_tests_properties(browser/budget PROPERTIES ENVIRONMENT "${PR_TEST_ENV}"
  SKIP_RETURN_CODE 77 TIMEOUT 600)

# The first screen (run_cards.sh): the first card is the primary quantity, no zero peak
# card, and the GPU-busy card equals the GPU section's number.
add_test(NAME browser/cards COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/browser/run_cards.sh)
set_tests_properties(browser/cards PROPERTIES ENVIRONMENT "${PR_TEST_ENV}"
  SKIP_RETURN_CODE 77 TIMEOUT 600)
