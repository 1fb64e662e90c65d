// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The count of far entries on CUDA: one warp per 32 rows, reading their entries together
/// (`walk_warp_rows`), so a row of thousands of entries is 32 lanes' work, not a thread's.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>

// Included at the end of core/impl/syncfree_far_entries.hpp, whose definitions it uses.
#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_warp_rows.hpp"
#include "core/impl/syncfree_device_scratch.hpp"

namespace syncfree::impl {

namespace cuda {

inline constexpr int far_entries_block_size = 256;

template <class Ordinal, class Offset>
__global__ void __launch_bounds__(far_entries_block_size)
    far_entries_kernel(const Offset* row_map, const Ordinal* entries, const std::int64_t n,
                       const std::int64_t reach, unsigned long long* far) {
  constexpr int warps = far_entries_block_size / 32;
  __shared__ unsigned char s_lane_of_rank[warps][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t first_row = (std::int64_t(blockIdx.x) * warps + warp) * 32;
  if (first_row >= n) return;  // the whole warp
  const std::int64_t i = first_row + lane;
  const bool in = i < n;
  unsigned count = 0;
  walk_warp_rows(in ? row_map[i] : Offset(0), in ? row_map[i + 1] : Offset(0), first_row, n,
                 s_lane_of_rank[warp], [&](const Offset k, const bool valid, const int owner) {
                   const std::int64_t distance =
                       valid ? std::int64_t(entries[k]) - first_row - owner : 0;
                   if (distance > reach || -distance > reach) ++count;
                 });
  for (int s = 16; s > 0; s >>= 1) count += __shfl_xor_sync(full_mask, count, s);
  if (lane == 0 && count > 0) atomicAdd(far, (unsigned long long)count);
}

/// The count of far entries a warp per 32 rows, whatever their lengths.
template <class Matrix>
long far_entries_warp_per_32_rows(const Kokkos::Cuda& exec, const Matrix& A, long reach) {
  const std::int64_t n = A.numRows();
  if (n == 0) return 0;
  DeviceScratch<Kokkos::Cuda> scratch(exec);
  const auto far =
      scratch.zeros<unsigned long long, typename Matrix::device_type>("syncfree::far_entries", 1);
  const auto blocks = unsigned((n + far_entries_block_size - 1) / far_entries_block_size);
  far_entries_kernel<<<blocks, far_entries_block_size, 0, exec.cuda_stream()>>>(
      A.graph.row_map.data(), A.graph.entries.data(), n, std::int64_t(reach), far.data());
  require_launched("far entries");
  unsigned long long host = 0;
  Kokkos::deep_copy(exec, Kokkos::View<unsigned long long*, Kokkos::HostSpace>(&host, 1), far);
  exec.fence();
  return long(host);
}

}  // namespace cuda

template <class Matrix>
struct FarEntries<Kokkos::Cuda, Matrix> {
  static long count(const Kokkos::Cuda& exec, const Matrix& A, long reach, long longest = -1) {
    if (!cuda::warp_rows_preferred(exec, A, longest))
      return far_entries_one_per_iteration(exec, A, reach);
    return cuda::far_entries_warp_per_32_rows(exec, A, reach);
  }
};

}  // namespace syncfree::impl

#endif
