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

inline constexpr int diagonal_positions_block_size = 256;

template <class Ordinal, class Offset>
__global__ void __launch_bounds__(diagonal_positions_block_size)
    diagonal_positions_kernel(const Offset* row_map, const Ordinal* entries, const std::int64_t n,
                              long long* position) {
  constexpr int warps = diagonal_positions_block_size / 32;
  __shared__ unsigned char s_lane_of_rank[warps][32];
  __shared__ long long s_position[warps][32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t first_row = (std::int64_t(blockIdx.x) * warps + warp) * 32;
  if (first_row >= n) return;  // the whole warp
  const std::int64_t i = first_row + lane;
  const bool in = i < n;
  s_position[warp][lane] = -1;
  walk_warp_rows(in ? row_map[i] : Offset(0), in ? row_map[i + 1] : Offset(0), first_row, n,
                 s_lane_of_rank[warp], [&](const Offset k, const bool valid, const int owner) {
                   if (valid && std::int64_t(entries[k]) == first_row + owner)
                     atomicMax(&s_position[warp][owner], (long long)k);
                 });
  __syncwarp();
  if (in) position[i] = s_position[warp][lane];
}

/// Each row's diagonal position a warp per 32 rows, whatever their lengths.
template <class Matrix, class Positions>
void diagonal_positions_warp_per_32_rows(const Kokkos::Cuda& exec, const Matrix& A,
                                         const Positions& position) {
  static_assert(sizeof(typename Positions::value_type) == sizeof(long long));
  const std::int64_t n = A.numRows();
  if (n == 0) return;
  const auto blocks =
      unsigned((n + diagonal_positions_block_size - 1) / diagonal_positions_block_size);
  diagonal_positions_kernel<<<blocks, diagonal_positions_block_size, 0, exec.cuda_stream()>>>(
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
