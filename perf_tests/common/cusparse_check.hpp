// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Checked cuSPARSE and CUDA runtime calls, and a cuSPARSE handle bound to the default
/// execution space's stream, for the vendor baselines of the benchmarks. CUDA builds only.

#include <cuda_runtime.h>
#include <cusparse.h>

#include <Kokkos_Core.hpp>

#include "core/syncfree_error.hpp"

#define SYNCFREE_IMPL_CUSPARSE_CHECK(call)                                 \
  do {                                                                     \
    const cusparseStatus_t status_ = (call);                               \
    SYNCFREE_REQUIRE(status_ == CUSPARSE_STATUS_SUCCESS, CudaError, #call, \
                     " failed: ", cusparseGetErrorString(status_));        \
  } while (false)

#define SYNCFREE_IMPL_CUDA_RUNTIME_CHECK(call)                  \
  do {                                                          \
    const cudaError_t status_ = (call);                         \
    SYNCFREE_REQUIRE(status_ == cudaSuccess, CudaError, #call,  \
                     " failed: ", cudaGetErrorString(status_)); \
  } while (false)

namespace syncfree::bench {

/// A cuSPARSE handle whose work goes to the default execution space's stream, so that fencing
/// that instance (what the timers do) waits for it.
class CusparseHandle {
 public:
  CusparseHandle() {
    SYNCFREE_IMPL_CUSPARSE_CHECK(cusparseCreate(&m_handle));
    SYNCFREE_IMPL_CUSPARSE_CHECK(
        cusparseSetStream(m_handle, Kokkos::DefaultExecutionSpace().cuda_stream()));
  }
  ~CusparseHandle() { cusparseDestroy(m_handle); }
  CusparseHandle(const CusparseHandle&) = delete;
  CusparseHandle& operator=(const CusparseHandle&) = delete;
  operator cusparseHandle_t() const { return m_handle; }

 private:
  cusparseHandle_t m_handle = nullptr;
};

/// Device memory for a cuSPARSE work buffer.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* resize(std::size_t bytes) {
    release();
    if (bytes > 0) SYNCFREE_IMPL_CUDA_RUNTIME_CHECK(cudaMalloc(&m_data, bytes));
    return m_data;
  }
  void release() {
    if (m_data) cudaFree(m_data);
    m_data = nullptr;
  }
  void* data() const { return m_data; }

 private:
  void* m_data = nullptr;
};

}  // namespace syncfree::bench
