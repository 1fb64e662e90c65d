// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA specialization of the in-place inclusive sum: CUB's device-wide scan on the
/// execution space's stream.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <type_traits>

#include <cub/device/device_scan.cuh>

#include "core/cuda/syncfree_stream_scratch.hpp"

namespace syncfree::impl {

namespace cuda {
/// Contiguous 1-D views in CUDA memory.
template <class View>
inline constexpr bool is_contiguous_cuda_view_v =
    View::rank == 1 && !std::is_same_v<typename View::array_layout, Kokkos::LayoutStride> &&
    std::is_same_v<typename View::memory_space, Kokkos::CudaSpace>;
}  // namespace cuda

template <class View>
struct InclusiveSumInPlace<Kokkos::Cuda, View,
                           std::enable_if_t<cuda::is_contiguous_cuda_view_v<View>>> {
  static void run(const Kokkos::Cuda& exec, const View& v) {
    const std::size_t n = v.extent(0);
    if (n == 0) return;
    const cudaStream_t stream = exec.cuda_stream();
    std::size_t bytes = 0;
    cuda::require_cuda(cub::DeviceScan::InclusiveSum(nullptr, bytes, v.data(), n, stream),
                       "cub::DeviceScan::InclusiveSum");
    const cuda::StreamScratch scratch(bytes, stream);
    cuda::require_cuda(cub::DeviceScan::InclusiveSum(scratch.get(), bytes, v.data(), n, stream),
                       "cub::DeviceScan::InclusiveSum");
  }
};

}  // namespace syncfree::impl

#endif
