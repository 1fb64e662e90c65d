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

namespace syncfree::impl {

namespace cuda {

template <class Ordinal, class Offset, class Value>
__global__ void __launch_bounds__(warp_rows_block_size)
    rows_not_dominant_kernel(const Offset* row_map, const Ordinal* entries, const Value* values,
                             const std::int64_t n, unsigned long long* count) {
  __shared__ unsigned char s_lane_of_rank[warp_rows_block_warps][32];
  const WarpRowsThread t = warp_rows_thread(n);
  if (t.first_row >= n) return;  // the whole warp
  const Offset begin = t.in ? row_map[t.row] : Offset(0),
               end = t.in ? row_map[t.row + 1] : Offset(0);
  double diagonal = 0, off = 0;  // this lane's row's
  walk_warp_rows(begin, end, t.first_row, n, s_lane_of_rank[t.warp],
                 [&](const Offset k, const bool valid, const int owner) {
                   const double v = valid ? fabs(double(values[k])) : 0.0;
                   const bool on = valid && std::int64_t(entries[k]) == t.first_row + owner;
                   diagonal += sum_for_row_lane(on ? v : 0.0, k, valid, owner, begin, end);
                   off += sum_for_row_lane(on ? 0.0 : v, k, valid, owner, begin, end);
                 });
  add_warp_count(t.in && falls_short_of_dominance(diagonal, off) ? 1u : 0u, count);
}

/// The rows not diagonally dominant, counted a warp per 32 rows, whatever their lengths.
template <class Matrix>
std::int64_t rows_not_dominant_warp_per_32_rows(const Kokkos::Cuda& exec, const Matrix& A) {
  const std::int64_t n = A.numRows();
  if (n == 0) return 0;
  return std::int64_t(count_on_device<typename Matrix::device_type>(
      exec, "rows not dominant", [&](unsigned long long* count) {
        rows_not_dominant_kernel<<<warp_rows_blocks(n), warp_rows_block_size, 0,
                                   exec.cuda_stream()>>>(
            A.graph.row_map.data(), A.graph.entries.data(), A.values.data(), n, count);
      }));
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
