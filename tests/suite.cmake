# suite.cmake - whole-program suites run through the profreport binary
# (included from tests/CMakeLists.txt; PR_TEST_ENV is set there).

# JSONTestSuite (vendored in tests/data) through the chrome ingester.
add_test(NAME jsontestsuite COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/jsontestsuite.sh)
set_tests_properties(jsontestsuite PROPERTIES ENVIRONMENT "${PR_TEST_ENV}" SKIP_RETURN_CODE 77
  TIMEOUT 900)

# Hostile inputs, generated at test time.
add_test(NAME hostile COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/hostile.sh)
set_tests_properties(hostile PROPERTIES ENVIRONMENT "${PR_TEST_ENV}" SKIP_RETURN_CODE 77
  TIMEOUT 900)

# Layering and banned functions (grep over the sources).
add_test(NAME check_source COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_source.sh)
set_tests_properties(check_source PROPERTIES ENVIRONMENT "${PR_TEST_ENV}")
# Include probes: a file of a library sees the headers of what the library links and no
# others (include paths per target, pr_headers in CMakeLists.txt), so a wrong include fails
# to compile. pr_include_probe(ok|bad TARGET HEADER): an object library of
# tests/tools/include_probe.c including HEADER, compiled as a file of TARGET (TARGET's
# include directories: its own and those of all it links, PUBLIC or PRIVATE), built only by
# the test check_includes (tests/tools/include_probe.sh), which expects it to compile (ok)
# or to fail for want of HEADER (bad).
set(PR_INCLUDE_PROBES "")
function(pr_include_probe kind target header)
  string(MAKE_C_IDENTIFIER "inc_${kind}_${target}_${header}" name)
  add_library(${name} OBJECT EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/tools/include_probe.c)
  target_compile_definitions(${name} PRIVATE "PR_PROBE=\"${header}\"")
  target_include_directories(${name} PRIVATE $<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>)
  set(PR_INCLUDE_PROBES ${PR_INCLUDE_PROBES} "${name}:${header}" PARENT_SCOPE)
endfunction()
# upward, or sideways between rooms of one layer
pr_include_probe(bad pr_base store/store.h)
pr_include_probe(bad pr_store ingest/ingest.h)
pr_include_probe(bad pr_store analyze/model.h)
pr_include_probe(bad pr_ingest analyze/model.h)
pr_include_probe(bad pr_analyze ingest/ingest.h)
pr_include_probe(bad pr_analyze render/chart.h)
pr_include_probe(bad pr_render store/store.h)
pr_include_probe(bad pr_render ingest/ingest.h)
pr_include_probe(bad pr_render cli/opt.h)
pr_include_probe(bad pr_analyze cli/opt.h)
pr_include_probe(bad pr_analyze analyze/multi/compare.h)
pr_include_probe(bad pr_analyze analyze/export/speedscope.h)
pr_include_probe(bad pr_export analyze/model.h)
pr_include_probe(bad pr_export analyze/multi/aggregate.h)
pr_include_probe(bad pr_multi render/chart.h)
pr_include_probe(bad pr_render analyze/multi/aggregate.h)
pr_include_probe(bad pr_render analyze/export/chrome_merge.h)
# down
pr_include_probe(ok pr_store base/strbuf.h)
pr_include_probe(ok pr_ingest store/store.h)
pr_include_probe(ok pr_analyze store/store.h)
pr_include_probe(ok pr_render analyze/model.h)
pr_include_probe(ok pr_render base/strbuf.h)
pr_include_probe(ok pr_render base/changes.h)
pr_include_probe(ok pr_export store/store.h)
pr_include_probe(ok pr_multi analyze/model.h)
pr_include_probe(ok pr_multi base/stats.h)
pr_include_probe(ok profreport analyze/multi/compare.h)
pr_include_probe(ok profreport analyze/export/speedscope.h)
pr_include_probe(ok profreport render/chart.h)
pr_include_probe(ok profreport cli/opt.h)
add_test(NAME check_includes COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/include_probe.sh
  ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR} ${PR_INCLUDE_PROBES})
set_tests_properties(check_includes PROPERTIES ENVIRONMENT "${PR_TEST_ENV}")
# Every .c and .h is as clang-format 14 writes it (.clang-format; issue 31).
add_test(NAME check_format COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/check_format.sh)
set_tests_properties(check_format PROPERTIES ENVIRONMENT "${PR_TEST_ENV}" SKIP_RETURN_CODE 77)
# No cycle between files and no upward edge between layers, in the include
# graph and in the symbol graph of the object files (nm): issue 31.
add_test(NAME depgraph COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tools/depgraph.py
  ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/tools/depgraph_known.txt)

# Every model, agg.json and comparison written validates against its schema in docs/schema/.
foreach(kind model agg compare)
  add_test(NAME schema/${kind} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/schema_models.sh ${kind})
  set_tests_properties(schema/${kind} PROPERTIES ENVIRONMENT "${PR_TEST_ENV}" SKIP_RETURN_CODE 77
    TIMEOUT 900)
endforeach()

# The key names C readers ask our documents for are named by the schemas (one home for them).
add_test(NAME schema/keys COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tools/model_keys.py ${CMAKE_SOURCE_DIR}
  ${CMAKE_BINARY_DIR}/gen/schema/model_keys.h)
# ... and a key removed from the model schema fails to compile the reader naming it
# (tests/tools/model_keys_fail.cmake builds render/perf_panel.c against a schema copy).
add_test(NAME schema/keys_compile COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR}
  -DWORK=${CMAKE_BINARY_DIR}/keys_fail -DCC=${CMAKE_C_COMPILER}
  -P ${CMAKE_CURRENT_SOURCE_DIR}/tools/model_keys_fail.cmake)
set_tests_properties(schema/keys_compile PROPERTIES TIMEOUT 300)

# README's shell examples run (tests/tools/readme_examples.sh).
add_test(NAME readme/examples COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/readme_examples.sh)
set_tests_properties(readme/examples PROPERTIES ENVIRONMENT "${PR_TEST_ENV}" TIMEOUT 600)
