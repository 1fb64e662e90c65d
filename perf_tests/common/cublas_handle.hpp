// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief A cuBLAS handle for the vendor baselines, and the check of a cuBLAS call. CUDA builds
/// only.

#include <cublas_v2.h>

#include <Kokkos_Core.hpp>

#include "core/syncfree_error.hpp"

#define SYNCFREE_IMPL_CUBLAS_CHECK(call)                                                     \
  do {                                                                                       \
    const cublasStatus_t status_ = (call);                                                   \
    SYNCFREE_REQUIRE(status_ == CUBLAS_STATUS_SUCCESS, CudaError, #call, " failed: status ", \
                     int(status_));                                                          \
  } while (false)

namespace syncfree::bench {

/// A cuBLAS handle on the default execution space's stream, with host scalars.
class CublasHandle {
 public:
  CublasHandle() {
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasCreate(&m_handle));
    SYNCFREE_IMPL_CUBLAS_CHECK(
        cublasSetStream(m_handle, Kokkos::DefaultExecutionSpace().cuda_stream()));
    SYNCFREE_IMPL_CUBLAS_CHECK(cublasSetPointerMode(m_handle, CUBLAS_POINTER_MODE_HOST));
  }
  ~CublasHandle() { cublasDestroy(m_handle); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  operator cublasHandle_t() const { return m_handle; }

 private:
  cublasHandle_t m_handle = nullptr;
};

}  // namespace syncfree::bench
