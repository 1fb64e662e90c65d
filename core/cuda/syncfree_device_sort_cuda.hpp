// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief CUDA specialization of sort_keys: CUB's radix sort over the low bits that hold
/// max_key, on the execution space's stream.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstddef>
#include <type_traits>

#include <cub/device/device_radix_sort.cuh>

#include "core/cuda/syncfree_device_scan_cuda.hpp"
#include "core/cuda/syncfree_stream_scratch.hpp"

namespace syncfree::impl {

template <class View>
struct SortKeys<Kokkos::Cuda, View,
                std::enable_if_t<cuda::is_contiguous_cuda_view_v<View> &&
                                 std::is_integral_v<typename View::non_const_value_type>>> {
  using key_type = typename View::non_const_value_type;
  using bits_type = std::make_unsigned_t<key_type>;  // keys are non-negative: same order
  static void run(const Kokkos::Cuda& exec, const View& keys, key_type max_key) {
    const std::size_t n = keys.extent(0);
    const cudaStream_t stream = exec.cuda_stream();
    int end_bit = 1;
    while (end_bit < int(8 * sizeof(key_type)) && (bits_type(max_key) >> end_bit) != 0) ++end_bit;
    const cuda::StreamScratch other(n * sizeof(key_type), stream);
    cub::DoubleBuffer<bits_type> buffers(reinterpret_cast<bits_type*>(keys.data()),
                                         static_cast<bits_type*>(other.get()));
    std::size_t bytes = 0;
    cuda::require_cuda(
        cub::DeviceRadixSort::SortKeys(nullptr, bytes, buffers, n, 0, end_bit, stream),
        "cub::DeviceRadixSort::SortKeys");
    {
      const cuda::StreamScratch scratch(bytes, stream);
      cuda::require_cuda(
          cub::DeviceRadixSort::SortKeys(scratch.get(), bytes, buffers, n, 0, end_bit, stream),
          "cub::DeviceRadixSort::SortKeys");
    }
    if (buffers.Current() != reinterpret_cast<bits_type*>(keys.data()))
      cuda::require_cuda(cudaMemcpyAsync(keys.data(), buffers.Current(), n * sizeof(key_type),
                                         cudaMemcpyDeviceToDevice, stream),
                         "cudaMemcpyAsync");
  }
};

}  // namespace syncfree::impl

#endif
