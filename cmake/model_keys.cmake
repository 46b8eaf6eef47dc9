# model_keys.cmake - writes model_keys.h, one C macro per key path of the
# documents render/ and the multi-run code read: the model
# (docs/schema/model.schema.json), agg.json (agg.schema.json) and a
# comparison (compare.schema.json). A reader names a key by its macro, so a
# key renamed or removed in a schema makes the macro vanish and the reader
# fail to compile. Run by the build (render/CMakeLists.txt) whenever a schema
# or this script changes; needs only CMake >= 3.19 (string(JSON)), no python.
#
# usage: cmake -DSCHEMA_DIR=docs/schema -DOUT=build/gen/pr/model_keys.h -P model_keys.cmake
#
# Naming (docs/development.md, "Adding a model key"):
#   prefix   PRK_ the model, relative to one run (runs[] items; the top-level
#            keys schema, version, runs get PRK_SCHEMA, PRK_VERSION, PRK_RUNS),
#            PRA_ agg.json, PRC_ a comparison;
#   path     the property names from the document's root, joined by '_' and
#            upper-cased; an array's items add no segment (a row of
#            runs[].kernels is read with PRK_KERNELS_NAME); oneOf/anyOf/allOf
#            branches add their properties to the same object;
#   value    the last key of the path, a string literal: pr_mnum(row, PRK_KERNELS_TOTAL_NS)
#            reads "total_ns" from a row of kernels.
#   patternProperties `_(more|omitted)$` (the cut-list counts): for each array
#            property L of such an object, <L>_MORE and <L>_OMITTED name "<l>_more"
#            and "<l>_omitted". Any other patternProperties regex is a placeholder
#            <PATH>_PATTERN holding the regex (its keys are not names; a reader
#            iterates them with json_object_foreach).
# Two paths that give one macro name stop the generator with an error.
cmake_minimum_required(VERSION 3.19)

if(NOT SCHEMA_DIR OR NOT OUT)
  message(FATAL_ERROR "model_keys.cmake: -DSCHEMA_DIR=... -DOUT=... are required")
endif()

set_property(GLOBAL PROPERTY PRK_LINES "")
set_property(GLOBAL PROPERTY PRK_NAMES "")

function(prk_emit name key path)
  get_property(names GLOBAL PROPERTY PRK_NAMES)
  list(FIND names "${name}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "model_keys.cmake: ${path} gives ${name}, which another path gives too")
  endif()
  set_property(GLOBAL APPEND PROPERTY PRK_NAMES "${name}")
  set_property(GLOBAL APPEND_STRING PROPERTY PRK_LINES "#define ${name} \"${key}\" /* ${path} */\n")
endfunction()

# walk(schema-json macro-prefix path): emit the properties of the object the schema describes.
function(prk_walk js mac path)
  string(JSON t ERROR_VARIABLE err TYPE "${js}")
  if(err OR NOT t STREQUAL "OBJECT")
    return()
  endif()
  # an array: its items are the same path
  string(JSON items ERROR_VARIABLE err GET "${js}" items)
  if(NOT err)
    string(JSON it TYPE "${js}" items)
    if(it STREQUAL "OBJECT")
      prk_walk("${items}" "${mac}" "${path}[]")
    endif()
  endif()
  foreach(kw oneOf anyOf allOf)
    string(JSON n ERROR_VARIABLE err LENGTH "${js}" ${kw})
    if(NOT err AND n GREATER 0)
      math(EXPR last "${n} - 1")
      foreach(i RANGE ${last})
        string(JSON sub GET "${js}" ${kw} ${i})
        prk_walk("${sub}" "${mac}" "${path}")
      endforeach()
    endif()
  endforeach()
  set(cut OFF)
  string(JSON pp ERROR_VARIABLE err GET "${js}" patternProperties)
  if(NOT err)
    string(JSON n LENGTH "${pp}")
    if(n GREATER 0)
      math(EXPR last "${n} - 1")
      foreach(i RANGE ${last})
        string(JSON re MEMBER "${pp}" ${i})
        if(re STREQUAL "_(more|omitted)$")
          set(cut ON)
        else()
          string(REPLACE "\\" "\\\\" cre "${re}")
          prk_emit("${mac}_PATTERN" "${cre}" "${path} patternProperties")
        endif()
      endforeach()
    endif()
  endif()
  string(JSON props ERROR_VARIABLE err GET "${js}" properties)
  if(err)
    return()
  endif()
  string(JSON n LENGTH "${props}")
  if(n EQUAL 0)
    return()
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${props}" ${i})
    string(JSON sub GET "${props}" "${key}")
    string(TOUPPER "${key}" up)
    if(mac MATCHES "_$")
      set(m "${mac}${up}")
    else()
      set(m "${mac}_${up}")
    endif()
    if(path STREQUAL "")
      set(p "${key}")
    else()
      set(p "${path}.${key}")
    endif()
    if(NOT up MATCHES "^[A-Z0-9_]+$")
      message(FATAL_ERROR "model_keys.cmake: key ${p} is no C identifier")
    endif()
    prk_emit("${m}" "${key}" "${p}")
    if(cut)
      string(JSON st ERROR_VARIABLE err GET "${sub}" type)
      if(NOT err AND st MATCHES "array")
        foreach(sfx more omitted)
          # unless the schema names "<key>_more" itself
          string(JSON x ERROR_VARIABLE err2 GET "${props}" "${key}_${sfx}")
          if(err2)
            string(TOUPPER "${sfx}" usfx)
            prk_emit("${m}_${usfx}" "${key}_${sfx}" "${p}_${sfx}")
          endif()
        endforeach()
      endif()
    endif()
    # the model's runs[] items are the root of PRK_ (a reader holds one run)
    if(mac STREQUAL "PRK_" AND key STREQUAL "runs")
      string(JSON items GET "${sub}" items)
      prk_walk("${items}" "PRK_" "runs[]")
    else()
      prk_walk("${sub}" "${m}" "${p}")
    endif()
  endforeach()
endfunction()

foreach(doc "model;PRK_" "agg;PRA_" "compare;PRC_")
  list(GET doc 0 name)
  list(GET doc 1 mac)
  file(READ "${SCHEMA_DIR}/${name}.schema.json" js)
  set_property(GLOBAL APPEND_STRING PROPERTY PRK_LINES "\n/* ${name}.schema.json */\n")
  prk_walk("${js}" "${mac}" "")
endforeach()

get_property(lines GLOBAL PROPERTY PRK_LINES)
set(head "/*
 * model_keys.h - GENERATED by cmake/model_keys.cmake from docs/schema/{model,agg,compare}.schema.json;
 * do not edit (edit the schema: the build writes this file again).
 *
 * One macro per key path of the documents render/ reads: PRK_ the model (paths relative to one
 * entry of runs[]), PRA_ agg.json, PRC_ a comparison. The name is the path, '_'-joined and
 * upper-cased, array items adding no segment; the value is the path's last key:
 *     double total = pr_mnum(row, PRK_KERNELS_TOTAL_NS);      // runs[].kernels[].total_ns
 * A key renamed or removed in a schema removes its macro, so a reader using it fails to compile.
 * <LIST>_MORE / <LIST>_OMITTED name the cut-list counts the schema's patternProperties
 * `_(more|omitted)$` allow beside an array. See docs/development.md, \"Adding a model key\".
 */
#ifndef PR_MODEL_KEYS_H
#define PR_MODEL_KEYS_H
")
# always written (never "only if different"): the build runs this when a schema is newer
file(WRITE "${OUT}" "${head}${lines}\n#endif\n")
