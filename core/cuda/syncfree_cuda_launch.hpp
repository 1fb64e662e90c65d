// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The check after a kernel launch of SyncFree's own CUDA kernels.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include "core/syncfree_error.hpp"

namespace syncfree::impl::cuda {

/// \throws CudaError naming `kernel` when the last launch on this host thread failed.
inline void require_launched(const char* kernel) {
  const cudaError_t status = cudaGetLastError();
  SYNCFREE_REQUIRE(status == cudaSuccess, CudaError, kernel,
                   " kernel launch: ", cudaGetErrorString(status));
}

}  // namespace syncfree::impl::cuda

#endif
