// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The checks of CUDA runtime calls and of launches of SyncFree's own CUDA kernels, and
/// the mask of a whole warp for their warp-level intrinsics.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <string>

#include "core/syncfree_error.hpp"

namespace syncfree::impl::cuda {

inline constexpr unsigned full_mask = 0xFFFFFFFFu;  ///< every lane of a warp

/// \throws CudaError naming `what` when `status` is not cudaSuccess.
inline void require_cuda(cudaError_t status, const char* what) {
  SYNCFREE_REQUIRE(status == cudaSuccess, CudaError, what, ": ", cudaGetErrorString(status));
}

/// \throws CudaError naming `kernel` when the last launch on this host thread failed.
inline void require_launched(const char* kernel) {
  require_cuda(cudaGetLastError(), (std::string(kernel) + " kernel launch").c_str());
}

}  // namespace syncfree::impl::cuda

#endif
