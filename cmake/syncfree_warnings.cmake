# SPDX-License-Identifier: BSD-3-Clause
# Warnings for SyncFree's own targets: syncfree_enable_warnings(target).
include_guard(GLOBAL)

function(syncfree_enable_warnings target)
  if(NOT SYNCFREE_ENABLE_WARNINGS)
    return()
  endif()
  if(CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
    # nvcc forwards host warnings through -Xcompiler; its own front end adds no -Wextra.
    target_compile_options(${target} PRIVATE -Xcompiler=-Wall,-Wextra)
  elseif(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra)
  endif()
endfunction()
