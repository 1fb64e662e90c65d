# SPDX-License-Identifier: BSD-3-Clause
#
# syncfree_add_unit_test(NAME <name> SOURCES <test.cpp>... [LIBRARIES <lib>...] [TIMEOUT <s>]
#                        [LABELS <label>...])
#
# Builds one executable per enabled backend (SYNCFREE_TEST_BACKENDS: serial, cuda, openmp), named
# <name>_<backend>. Each source is compiled through a generated file that first includes
# unit_tests/backends/<backend>.hpp, which defines SYNCFREE_TEST_EXECSPACE and SYNCFREE_TEST_DEVICE.
# Every test gets a timeout: a deadlock is the characteristic failure of a sync-free kernel.
# Host backends compile at -O1 in Release builds (SYNCFREE_FAST_TEST_BUILD): the tests check
# results, not speed, and build in two thirds of the time; the library's own code under test keeps
# its optimization where the command line and the benchmarks run it.
include_guard(GLOBAL)

option(SYNCFREE_FAST_TEST_BUILD "Compile the host backends' unit tests at -O1 in Release builds" ON)

function(syncfree_add_unit_test)
  cmake_parse_arguments(arg "" "NAME;TIMEOUT" "SOURCES;LIBRARIES;LABELS" ${ARGN})
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 120)
  endif()
  foreach(backend ${SYNCFREE_TEST_BACKENDS})
    set(exe ${arg_NAME}_${backend})
    set(generated)
    foreach(src ${arg_SOURCES})
      get_filename_component(abs ${src} ABSOLUTE)
      get_filename_component(stem ${src} NAME_WE)
      set(out ${CMAKE_CURRENT_BINARY_DIR}/generated/${exe}/${stem}.cpp)
      file(CONFIGURE OUTPUT ${out} CONTENT
        "#include \"unit_tests/backends/${backend}.hpp\"\n#include \"${abs}\"\n")
      list(APPEND generated ${out})
    endforeach()
    add_executable(${exe} ${generated})
    target_link_libraries(${exe} PRIVATE syncfree_test_main ${arg_LIBRARIES})
    syncfree_enable_warnings(${exe})
    if(SYNCFREE_FAST_TEST_BUILD AND NOT backend STREQUAL "cuda")
      target_compile_options(${exe} PRIVATE $<$<CONFIG:Release>:-O1>)
    endif()
    add_test(NAME ${exe} COMMAND ${exe})
    set_tests_properties(${exe} PROPERTIES TIMEOUT ${arg_TIMEOUT}
                         LABELS "backend:${backend};${arg_LABELS}")
  endforeach()
endfunction()
