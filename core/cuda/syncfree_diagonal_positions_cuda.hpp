// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Each row's diagonal position on CUDA: one warp per 32 rows, reading their entries
/// together (`walk_warp_rows`), so a row of thousands of entries is 32 lanes' work, not a thread's.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>

// Included at the end of core/impl/syncfree_diagonal_positions.hpp, whose definitions it uses.
#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_warp_rows.hpp"

namespace syncfree::impl {

namespace cuda {

template <class Ordinal, class Offset>
__global__ void __launch_bounds__(warp_rows_block_size)
    diagonal_positions_kernel(const Offset* row_map, const Ordinal* entries, const std::int64_t n,
                              long long* position) {
  __shared__ unsigned char s_lane_of_rank[warp_rows_block_warps][32];
  __shared__ long long s_position[warp_rows_block_warps][32];
  const WarpRowsThread t = warp_rows_thread(n);
  if (t.first_row >= n) return;  // the whole warp
  s_position[t.warp][t.lane] = -1;
  walk_warp_rows(t.in ? row_map[t.row] : Offset(0), t.in ? row_map[t.row + 1] : Offset(0),
                 t.first_row, n, s_lane_of_rank[t.warp],
                 [&](const Offset k, const bool valid, const int owner) {
                   if (valid && std::int64_t(entries[k]) == t.first_row + owner)
                     atomicMax(&s_position[t.warp][owner], (long long)k);
                 });
  __syncwarp();
  if (t.in) position[t.row] = s_position[t.warp][t.lane];
}

/// Each row's diagonal position a warp per 32 rows, whatever their lengths.
template <class Matrix, class Positions>
void diagonal_positions_warp_per_32_rows(const Kokkos::Cuda& exec, const Matrix& A,
                                         const Positions& position) {
  static_assert(sizeof(typename Positions::value_type) == sizeof(long long));
  const std::int64_t n = A.numRows();
  if (n == 0) return;
  diagonal_positions_kernel<<<warp_rows_blocks(n), warp_rows_block_size, 0, exec.cuda_stream()>>>(
      A.graph.row_map.data(), A.graph.entries.data(), n,
      reinterpret_cast<long long*>(position.data()));
  require_launched("diagonal positions");
}

}  // namespace cuda

template <class Matrix>
struct DiagonalPositions<Kokkos::Cuda, Matrix> {
  template <class Positions>
  static void run(const Kokkos::Cuda& exec, const Matrix& A, const Positions& position,
                  long longest = -1) {
    if (!cuda::warp_rows_preferred(exec, A, longest))
      return diagonal_positions_one_per_iteration(exec, A, position);
    cuda::diagonal_positions_warp_per_32_rows(exec, A, position);
  }
};

}  // namespace syncfree::impl

#endif
