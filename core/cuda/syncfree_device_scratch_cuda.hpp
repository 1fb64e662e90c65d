// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The CUDA ScratchPool: DeviceScratch arrays in CudaSpace come from `scratch_pool`
/// (syncfree_stream_scratch.hpp), allocated and freed in the order of the execution space's
/// stream, so that neither costs a cudaMalloc nor synchronizes the device once the pool holds
/// enough memory. Arrays in other memory spaces (UVM, host pinned) stay Kokkos allocations.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstddef>
#include <type_traits>
#include <vector>

#include "core/cuda/syncfree_stream_scratch.hpp"

namespace syncfree::impl {

template <>
class ScratchPool<Kokkos::Cuda> {
 public:
  explicit ScratchPool(const Kokkos::Cuda& exec) : m_stream(exec.cuda_stream()) {}
  ScratchPool(const ScratchPool&) = delete;
  ScratchPool& operator=(const ScratchPool&) = delete;
  ~ScratchPool() {
    for (void* p : m_blocks) cudaFreeAsync(p, m_stream);
  }

  template <class MemorySpace>
  static constexpr bool serves = std::is_same_v<MemorySpace, Kokkos::CudaSpace>;

  void* allocate(std::size_t bytes) {
    void* p = nullptr;
    cuda::require_cuda(cudaMallocFromPoolAsync(&p, bytes, cuda::scratch_pool(), m_stream),
                       "cudaMallocFromPoolAsync");
    m_blocks.push_back(p);
    return p;
  }

 private:
  cudaStream_t m_stream;
  std::vector<void*> m_blocks;
};

}  // namespace syncfree::impl

#endif
