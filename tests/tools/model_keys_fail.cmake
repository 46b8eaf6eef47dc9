# model_keys_fail.cmake - a key removed from the model schema fails to compile its reader.
# Builds tests/keys_fail (the generator + one real reader, render/perf_panel.c) twice: with
# the schemas as they are (must compile) and with runs[].perf_model.groups[].flops removed
# from a copy of model.schema.json (must fail, naming PRK_PERF_MODEL_GROUPS_FLOPS).
#
# usage: cmake -DSRC=<source root> -DWORK=<scratch dir> -DCC=<C compiler> -P model_keys_fail.cmake
cmake_minimum_required(VERSION 3.19)
set(key PRK_PERF_MODEL_GROUPS_FLOPS)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/schema)
foreach(s model agg compare)
  file(COPY_FILE ${SRC}/docs/schema/${s}.schema.json ${WORK}/schema/${s}.schema.json)
endforeach()

function(build name expect)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/tests/keys_fail -B ${WORK}/${name}
      -DCMAKE_C_COMPILER=${CC} -DPR_SRC=${SRC} -DPR_SCHEMA_DIR=${WORK}/schema
      -DPR_READER=perf_panel.c
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "model_keys_fail: configuring ${name} failed:\n${out}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/${name}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(expect STREQUAL "ok" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "model_keys_fail: the reader does not compile against the schemas as they are:\n${out}")
  elseif(expect STREQUAL "fail")
    if(rc EQUAL 0)
      message(FATAL_ERROR "model_keys_fail: render/perf_panel.c compiled though the schema lost ${key}")
    elseif(NOT out MATCHES "${key}")
      message(FATAL_ERROR "model_keys_fail: the build failed, but not on ${key}:\n${out}")
    endif()
  endif()
  message(STATUS "model_keys_fail: ${name}: build ${expect} as expected")
endfunction()

build(intact ok)
file(READ ${WORK}/schema/model.schema.json js)
string(JSON js REMOVE "${js}" properties runs items properties perf_model properties groups
  items properties flops)
file(WRITE ${WORK}/schema/model.schema.json "${js}")
build(removed fail)
