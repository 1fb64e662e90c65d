// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Temporary device memory ordered on a stream, for the scratch space of CUB's scans and
/// sorts and of the analyses (DeviceScratch), from a memory pool of SyncFree's own that keeps up
/// to 1 GiB of freed memory for the next request (syncfree_scratch_memory.hpp changes the bound
/// and gives the memory back). A pool never keeps more than was in use at once: about 100 MB after
/// a 4M-row analysis, 200 MB after a 7M-row one. A cudaMalloc of a few MiB costs as much as the
/// scan it would serve, and the device's default pool gives its memory back at every
/// synchronization, after which each request pays again. With a smaller bound (64 MiB), the
/// analyses of 4M and 7M rows, whose scratch is larger, mapped part of it again each time.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "core/cuda/syncfree_cuda_launch.hpp"

namespace syncfree::impl::cuda {

/// SyncFree's pool on the current device, created at the first request.
inline cudaMemPool_t scratch_pool() {
  static std::mutex mutex;
  static std::map<int, cudaMemPool_t> pools;  // never destroyed: they go with the context
  int device = 0;
  require_cuda(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard<std::mutex> lock(mutex);
  const auto found = pools.find(device);
  if (found != pools.end()) return found->second;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool{};
  require_cuda(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate");
  std::uint64_t kept = std::uint64_t(1) << 30;
  require_cuda(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &kept),
               "cudaMemPoolSetAttribute");
  pools.emplace(device, pool);
  return pool;
}

/// `bytes` of device memory from `scratch_pool`, allocated and freed in the order of `stream`'s
/// work.
class StreamScratch {
 public:
  StreamScratch(std::size_t bytes, cudaStream_t stream) : m_stream(stream) {
    if (bytes > 0)
      require_cuda(cudaMallocFromPoolAsync(&m_data, bytes, scratch_pool(), stream),
                   "cudaMallocFromPoolAsync");
  }
  ~StreamScratch() {
    if (m_data) cudaFreeAsync(m_data, m_stream);
  }
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  void* get() const { return m_data; }

 private:
  void* m_data = nullptr;
  cudaStream_t m_stream;
};

}  // namespace syncfree::impl::cuda

#endif
