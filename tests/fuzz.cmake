# fuzz.cmake - libFuzzer harnesses (tests/fuzz/fuzz_*.c), built only with
# clang: cmake -DCMAKE_C_COMPILER=clang ... (needs the Debian packages clang
# and libclang-rt-14-dev). The base, store and ingest sources are compiled again
# here with coverage instrumentation, so the production libraries stay as
# they are. Run them with tests/tools/fuzz_smoke.sh (ctest label "fuzz").
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  set(PR_FUZZ_SANITIZE address,undefined)
  set(pr_fuzz_srcs "")
  set(pr_fuzz_incs "")
  foreach(lib pr_base pr_store pr_ingest)
    get_target_property(dir ${lib} SOURCE_DIR)
    # the library's include root (pr_headers): the copy sees what the original does
    get_target_property(inc ${lib} INTERFACE_INCLUDE_DIRECTORIES)
    list(APPEND pr_fuzz_incs ${inc})
    get_target_property(srcs ${lib} SOURCES)
    foreach(src ${srcs})
      if(IS_ABSOLUTE ${src})
        list(APPEND pr_fuzz_srcs ${src})
      else()
        list(APPEND pr_fuzz_srcs ${dir}/${src})
      endif()
    endforeach()
  endforeach()
  add_library(pr_fuzz_core STATIC ${pr_fuzz_srcs})
  target_compile_options(pr_fuzz_core PRIVATE
    -fsanitize=fuzzer-no-link,${PR_FUZZ_SANITIZE} -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)
  target_include_directories(pr_fuzz_core PUBLIC ${pr_fuzz_incs})
  # stdc++: base/demangle.c calls the C++ runtime's __cxa_demangle
  target_link_libraries(pr_fuzz_core PUBLIC
    PkgConfig::SQLITE3 PkgConfig::JANSSON PkgConfig::ZLIB Threads::Threads m stdc++)

  # fuzz_jscan exercises the scanner alone; every ingest format gets a target
  # fuzz_<format> built from fuzz_ingest.c with the format forced, the names
  # read from the formats' own definitions (`const struct pr_format
  # pr_format_<sym> = {` then `.name = "<name>",` in ingest/*.c), so a new
  # format is fuzzed without a line here. Seeds: tests/fuzz/corpus/<target>/;
  # dictionaries: each target prints its own (fuzz_ingest.c, PR_FUZZ_DICT).
  set(PR_FUZZ_TARGETS jscan)
  add_executable(fuzz_jscan ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_jscan.c)
  # fuzz_pickle: the pickle decoder alone (ingest/pickle.c, torch-snapshot's)
  list(APPEND PR_FUZZ_TARGETS pickle)
  add_executable(fuzz_pickle ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_pickle.c)
  file(GLOB pr_fmt_files CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/ingest/*.c)
  set(pr_fuzz_formats "")
  foreach(f ${pr_fmt_files})
    file(READ ${f} body)
    string(REGEX MATCHALL "const struct pr_format pr_format_[a-z0-9_]+ = {\n\t\\.name = \"[a-z0-9-]+\"" defs "${body}")
    foreach(d ${defs})
      string(REGEX REPLACE ".*\\.name = \"([a-z0-9-]+)\"" "\\1" format "${d}")
      list(APPEND pr_fuzz_formats ${format})
    endforeach()
  endforeach()
  list(SORT pr_fuzz_formats)
  foreach(format ${pr_fuzz_formats})
    string(REPLACE "-" "_" target ${format})
    list(APPEND PR_FUZZ_TARGETS ${target})
    add_executable(fuzz_${target} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_ingest.c)
    target_compile_definitions(fuzz_${target} PRIVATE PR_FUZZ_FORMAT="${format}")
  endforeach()
  # the phase log (--phases), attached to a fixed CSV timeline
  list(APPEND PR_FUZZ_TARGETS phaselog)
  add_executable(fuzz_phaselog ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_ingest.c)
  target_compile_definitions(fuzz_phaselog PRIVATE PR_FUZZ_FORMAT="phaselog" PR_FUZZ_PHASELOG)
  # The readers of our own JSON (models, agg.json, gate specs) and every
  # renderer behind them: analyze + render compiled again, instrumented.
  set(pr_fuzz_out_srcs "")
  set(pr_fuzz_out_incs "")
  foreach(lib pr_analyze pr_multi pr_export pr_render)
    get_target_property(dir ${lib} SOURCE_DIR)
    get_target_property(inc ${lib} INTERFACE_INCLUDE_DIRECTORIES)
    list(APPEND pr_fuzz_out_incs ${inc})
    get_target_property(srcs ${lib} SOURCES)
    foreach(src ${srcs})
      if(IS_ABSOLUTE ${src})
        list(APPEND pr_fuzz_out_srcs ${src})
      else()
        list(APPEND pr_fuzz_out_srcs ${dir}/${src})
      endif()
    endforeach()
  endforeach()
  add_library(pr_fuzz_out STATIC ${pr_fuzz_out_srcs})
  # analyze/model.c includes the generated analyser version (analyze/CMakeLists.txt)
  add_dependencies(pr_fuzz_out pr_analyzer_version)
  target_include_directories(pr_fuzz_out PRIVATE ${PR_ANALYZER_VERSION_DIR}
    PUBLIC ${pr_fuzz_out_incs})
  target_compile_options(pr_fuzz_out PRIVATE
    -fsanitize=fuzzer-no-link,${PR_FUZZ_SANITIZE} -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer -Wno-overlength-strings)
  # render and multi read the model by the generated key macros (schema/model_keys.h)
  target_link_libraries(pr_fuzz_out PUBLIC pr_fuzz_core PkgConfig::CAIRO PRIVATE pr_model_keys)
  foreach(mode model agg gate)
    list(APPEND PR_FUZZ_TARGETS ${mode})
    add_executable(fuzz_${mode} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_outputs.c)
    target_compile_definitions(fuzz_${mode} PRIVATE PR_FUZZ_MODE="${mode}")
    target_link_libraries(fuzz_${mode} pr_fuzz_out)
  endforeach()
  # the analyses on hostile stores: a Chrome trace ingested, then the whole model
  list(APPEND PR_FUZZ_TARGETS analyze)
  add_executable(fuzz_analyze ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_analyze.c)
  target_link_libraries(fuzz_analyze pr_fuzz_out)

  foreach(target ${PR_FUZZ_TARGETS})
    target_compile_options(fuzz_${target} PRIVATE
      -fsanitize=fuzzer,${PR_FUZZ_SANITIZE} -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
    target_link_options(fuzz_${target} PRIVATE -fsanitize=fuzzer,${PR_FUZZ_SANITIZE})
    target_link_libraries(fuzz_${target} pr_fuzz_core)
    # the harnesses' own headers (tests/fuzz/dict.h)
    target_include_directories(fuzz_${target} PRIVATE ${CMAKE_SOURCE_DIR})
  endforeach()
  add_custom_target(fuzzers)
  foreach(target ${PR_FUZZ_TARGETS})
    add_dependencies(fuzzers fuzz_${target})
  endforeach()

  add_test(NAME fuzz_smoke COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/tools/fuzz_smoke.sh
    $<TARGET_FILE_DIR:fuzz_jscan>)
  set_tests_properties(fuzz_smoke PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77 TIMEOUT 900
    ENVIRONMENT "${PR_TEST_ENV}")
endif()

