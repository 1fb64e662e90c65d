# SPDX-License-Identifier: BSD-3-Clause
# Warnings for SyncFree's own targets: syncfree_enable_warnings(target). nvcc_wrapper hands -W
# flags it does not know to the host compiler, so the same flags serve both paths.
include_guard(GLOBAL)

function(syncfree_enable_warnings target)
  if(SYNCFREE_ENABLE_WARNINGS AND (CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" OR
                                   CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper"))
    target_compile_options(${target} PRIVATE -Wall -Wextra)
  endif()
endfunction()
