// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The rows that are not diagonally dominant, counted on CUDA: one warp per 32 rows,
/// reading their entries together (`walk_warp_rows`), each row's two sums gathered by its lane.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>

// Included at the end of core/impl/syncfree_diagonal_dominance.hpp, whose definitions it uses.
#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_warp_rows.hpp"
#include "core/impl/syncfree_device_scratch.hpp"

namespace syncfree::impl {

namespace cuda {

inline constexpr int dominance_block_size = 256;

template <class Ordinal, class Offset, class Value>
__global__ void __launch_bounds__(dominance_block_size)
    rows_not_dominant_kernel(const Offset* row_map, const Ordinal* entries, const Value* values,
                             const std::int64_t n, unsigned long long* count) {
  constexpr int warps = dominance_block_size / 32;
  __shared__ unsigned char s_lane_of_rank[warps][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t first_row = (std::int64_t(blockIdx.x) * warps + warp) * 32;
  if (first_row >= n) return;  // the whole warp
  const std::int64_t i = first_row + lane;
  const bool in = i < n;
  const Offset begin = in ? row_map[i] : Offset(0), end = in ? row_map[i + 1] : Offset(0);
  double diagonal = 0, off = 0;  // this lane's row's
  walk_warp_rows(begin, end, first_row, n, s_lane_of_rank[warp],
                 [&](const Offset k, const bool valid, const int owner) {
                   const double v = valid ? fabs(double(values[k])) : 0.0;
                   const bool on = valid && std::int64_t(entries[k]) == first_row + owner;
                   diagonal += sum_for_row_lane(on ? v : 0.0, k, valid, owner, begin, end);
                   off += sum_for_row_lane(on ? 0.0 : v, k, valid, owner, begin, end);
                 });
  const bool short_of = in && falls_short_of_dominance(diagonal, off);
  const unsigned rows = __popc(__ballot_sync(full_mask, short_of));
  if (lane == 0 && rows > 0) atomicAdd(count, (unsigned long long)rows);
}

/// The rows not diagonally dominant, counted a warp per 32 rows, whatever their lengths.
template <class Matrix>
std::int64_t rows_not_dominant_warp_per_32_rows(const Kokkos::Cuda& exec, const Matrix& A) {
  const std::int64_t n = A.numRows();
  if (n == 0) return 0;
  DeviceScratch<Kokkos::Cuda> scratch(exec);
  const auto count = scratch.zeros<unsigned long long, typename Matrix::device_type>(
      "syncfree::rows_not_dominant", 1);
  const auto blocks = unsigned((n + dominance_block_size - 1) / dominance_block_size);
  rows_not_dominant_kernel<<<blocks, dominance_block_size, 0, exec.cuda_stream()>>>(
      A.graph.row_map.data(), A.graph.entries.data(), A.values.data(), n, count.data());
  require_launched("rows not dominant");
  unsigned long long host = 0;
  Kokkos::deep_copy(exec, Kokkos::View<unsigned long long*, Kokkos::HostSpace>(&host, 1), count);
  exec.fence();
  return std::int64_t(host);
}

}  // namespace cuda

template <class Matrix>
struct RowsNotDominant<Kokkos::Cuda, Matrix> {
  static std::int64_t count(const Kokkos::Cuda& exec, const Matrix& A, long longest = -1) {
    if (!cuda::warp_rows_preferred(exec, A, longest))
      return rows_not_dominant_one_per_iteration(exec, A);
    return cuda::rows_not_dominant_warp_per_32_rows(exec, A);
  }
};

}  // namespace syncfree::impl

#endif
