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

namespace syncfree::impl {

namespace cuda {

template <class Ordinal, class Offset>
__global__ void __launch_bounds__(warp_rows_block_size)
    far_entries_kernel(const Offset* row_map, const Ordinal* entries, const std::int64_t n,
                       const std::int64_t reach, unsigned long long* far) {
  __shared__ unsigned char s_lane_of_rank[warp_rows_block_warps][32];
  const WarpRowsThread t = warp_rows_thread(n);
  if (t.first_row >= n) return;  // the whole warp
  unsigned count = 0;
  walk_warp_rows(
      t.in ? row_map[t.row] : Offset(0), t.in ? row_map[t.row + 1] : Offset(0), t.first_row, n,
      s_lane_of_rank[t.warp], [&](const Offset k, const bool valid, const int owner) {
        const std::int64_t distance = valid ? std::int64_t(entries[k]) - t.first_row - owner : 0;
        if (distance > reach || -distance > reach) ++count;
      });
  add_warp_count(count, far);
}

/// The count of far entries a warp per 32 rows, whatever their lengths.
template <class Matrix>
long far_entries_warp_per_32_rows(const Kokkos::Cuda& exec, const Matrix& A, long reach) {
  const std::int64_t n = A.numRows();
  if (n == 0) return 0;
  return long(count_on_device<typename Matrix::device_type>(
      exec, "far entries", [&](unsigned long long* far) {
        far_entries_kernel<<<warp_rows_blocks(n), warp_rows_block_size, 0, exec.cuda_stream()>>>(
            A.graph.row_map.data(), A.graph.entries.data(), n, std::int64_t(reach), far);
      }));
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
