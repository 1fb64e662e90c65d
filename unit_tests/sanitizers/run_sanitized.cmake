# SPDX-License-Identifier: BSD-3-Clause
# Configures SOURCE_DIR in WORK_DIR with -fsanitize=address,undefined (any report stops the
# program), builds the reader and validation tests of the host backend, the dense TRSM's (index
# arithmetic over user-sized views), SpTRSV's (every layout the analyses build) and the ordered
# ILU's (permutations into the solves), and runs them. The whole unit suite under the same flags
# takes about 25 minutes to build on CI's two cores: it is run by hand (see the results README).
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "command failed (${status}): ${ARGV}\n${out}")
  endif()
endfunction()

set(tests core/test_matrix_market_serial core/test_matrix_market_fuzz_serial
          core/test_validation_serial algorithms/test_trsm_serial algorithms/test_sptrsv_serial
          algorithms/test_ilu_ordering_serial)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR} -DCMAKE_BUILD_TYPE=RelWithDebInfo
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DSYNCFREE_SANITIZED_CHILD=ON
    "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined"
    -DSYNCFREE_ENABLE_TPETRA=OFF -DSYNCFREE_ENABLE_APPS=OFF -DSYNCFREE_ENABLE_PERF_TESTS=OFF)
set(targets)
foreach(test IN LISTS tests)
  get_filename_component(target ${test} NAME)
  list(APPEND targets ${target})
endforeach()
run(${CMAKE_COMMAND} --build ${WORK_DIR} --parallel 2 --target ${targets})
foreach(test IN LISTS tests)
  run(${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
      UBSAN_OPTIONS=print_stacktrace=1 ${WORK_DIR}/unit_tests/${test})
endforeach()
message("sanitized tests passed: ${tests}")
