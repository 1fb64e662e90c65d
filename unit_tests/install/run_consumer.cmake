# SPDX-License-Identifier: BSD-3-Clause
# Installs SyncFree from BUILD_DIR into a scratch prefix, then configures, builds and runs the
# consumer project against it. Called by ctest with -D BUILD_DIR, SOURCE_DIR, WORK_DIR,
# CXX_COMPILER and DEPENDENCY_ARGS (how the dependencies were found).
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "command failed (${status}): ${ARGV}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix ${DEPENDENCY_ARGS})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
if(EXISTS ${WORK_DIR}/build/tpetra_consumer)
  run(${WORK_DIR}/build/tpetra_consumer)
endif()
