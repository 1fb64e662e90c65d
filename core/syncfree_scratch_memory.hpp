// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The device memory SyncFree keeps between analyses. On CUDA the temporary arrays of an
/// analysis (and the scratch of its scans and sorts) come from a memory pool of SyncFree's own,
/// one per device, which keeps memory freed into it for the next analysis instead of giving it
/// back to the device: by default up to 1 GiB, and never more than the most that was in use at
/// once (about 200 MB for a 7M-row triangle). An application that analyzes large matrices again
/// and again can raise the bound; one that needs the memory back can lower it or release what is
/// kept. On other backends the temporary arrays are ordinary Kokkos allocations and these
/// functions do nothing.

#include <cstddef>
#include <cstdint>

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
#include "core/cuda/syncfree_stream_scratch.hpp"

namespace syncfree::impl::cuda {
/// Attribute `attribute` of SyncFree's pool on the current device.
inline std::uint64_t scratch_pool_attribute(cudaMemPoolAttr attribute) {
  std::uint64_t value = 0;
  require_cuda(cudaMemPoolGetAttribute(scratch_pool(), attribute, &value),
               "cudaMemPoolGetAttribute");
  return value;
}
}  // namespace syncfree::impl::cuda
#endif

namespace syncfree {

/// Bounds the memory freed into SyncFree's pool on the current device that the pool keeps for
/// later requests (0: it gives all of it back at each synchronization).
inline void set_scratch_memory_kept(std::size_t bytes) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  std::uint64_t kept = bytes;
  impl::cuda::require_cuda(
      cudaMemPoolSetAttribute(impl::cuda::scratch_pool(), cudaMemPoolAttrReleaseThreshold, &kept),
      "cudaMemPoolSetAttribute");
#else
  (void)bytes;
#endif
}

/// The bound that set_scratch_memory_kept sets on the current device (0 where there is no pool).
inline std::size_t scratch_memory_kept() {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  return std::size_t(impl::cuda::scratch_pool_attribute(cudaMemPoolAttrReleaseThreshold));
#else
  return 0;
#endif
}

/// Gives back to the device the memory that SyncFree's pool on the current device keeps unused.
/// Memory freed by work still queued is kept until that work is done: fence first.
inline void release_scratch_memory() {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  impl::cuda::require_cuda(cudaMemPoolTrimTo(impl::cuda::scratch_pool(), 0), "cudaMemPoolTrimTo");
#endif
}

/// Device memory that SyncFree's pool on the current device holds, in use or kept (0 where there
/// is no pool).
inline std::size_t scratch_memory_held() {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)
  return std::size_t(impl::cuda::scratch_pool_attribute(cudaMemPoolAttrReservedMemCurrent));
#else
  return 0;
#endif
}

}  // namespace syncfree
