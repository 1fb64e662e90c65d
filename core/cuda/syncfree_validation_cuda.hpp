// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The validation's pass over the rows on CUDA: one warp per 32 rows, reading their entries
/// together, 32 consecutive entries at a time (`walk_warp_rows`).
///
/// One thread per row reads its row alone: on a 27-point grid (27 entries a row) neighbouring
/// threads' loads fall 27 entries apart, and on a power-law graph a hub's thread reads thousands of
/// entries while its block waits. Here a lane checks its entry (the column before it comes by a
/// shuffle), counts diagonal entries per row in shared memory, and the warp reports the same
/// defective row, longest row and bandwidth as the generic pass. Only for rows of 8 or more
/// entries on average. A warp with a row whose pointers are broken checks its rows one per lane,
/// as the generic pass does, so no range from broken pointers is ever read.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>

// Included at the end of core/syncfree_validation.hpp, whose definitions it uses.
#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_warp_rows.hpp"
#include "core/impl/syncfree_device_scratch.hpp"

namespace syncfree::impl {

namespace cuda {

/// An array read with a view's call syntax, for `row_defect`.
template <class T>
struct Indexed {
  const T* data;
  template <class Index>
  __device__ T operator()(Index k) const {
    return data[k];
  }
};

template <class Ordinal, class Offset, class Scalar>
struct RowChecks {
  const Offset* row_map;
  const Ordinal* entries;
  const Scalar* values;
  Ordinal n, ncols;
  Offset nnz;
  MatrixCheck checks;
  /// [0]: no_defect_key - the least defect key (0: none), [1]: longest off-diagonal count, [2]:
  /// bandwidth (largest |i - j|); all reduced with atomicMax from 0.
  long long* result;
};

template <class Ordinal, class Offset, class Scalar>
__global__ void __launch_bounds__(warp_rows_block_size)
    validate_rows_kernel(const RowChecks<Ordinal, Offset, Scalar> c) {
  __shared__ unsigned char s_lane_of_rank[warp_rows_block_warps][32];
  __shared__ int s_diagonals[warp_rows_block_warps][32];  // diagonal entries of each row
  const WarpRowsThread t = warp_rows_thread(c.n);
  const int lane = t.lane, warp = t.warp;
  const std::int64_t first_row = t.first_row;
  if (first_row >= c.n) return;  // the whole warp
  const Ordinal i = Ordinal(t.row);
  const bool in = t.in;
  const Offset begin = in ? c.row_map[i] : Offset(0), end = in ? c.row_map[i + 1] : Offset(0);
  const bool broken = in && row_pointers_broken(begin, end, i, c.n, c.nnz);
  std::int64_t key = no_defect_key, longest = 0, width = 0;
  if (__any_sync(full_mask, broken)) {
    if (in) {
      Offset where = 0, diagonals = 0;
      const Defect d = broken ? Defect::bad_row_pointers
                              : row_defect(Indexed<Ordinal>{c.entries}, Indexed<Scalar>{c.values},
                                           begin, end, i, c.ncols, c.checks, &where, &diagonals);
      if (d != Defect::none)
        key = std::int64_t(i) * 16 + std::int64_t(d);
      else
        longest = std::int64_t(end - begin) - std::int64_t(diagonals);
    }
  } else {
    s_diagonals[warp][lane] = 0;
    Ordinal carry = 0;  // the column of the entry before the chunk
    walk_warp_rows(begin, end, first_row, std::int64_t(c.n), s_lane_of_rank[warp],
                   [&](const Offset k, const bool valid, const int owner) {
                     const Offset row_begin = __shfl_sync(full_mask, begin, owner);
                     const Ordinal row = Ordinal(first_row) + owner;
                     const Ordinal j = valid ? c.entries[k] : Ordinal(0);
                     const Ordinal up = __shfl_up_sync(full_mask, j, 1);
                     const Ordinal previous = lane == 0 ? carry : up;
                     carry = __shfl_sync(full_mask, j, 31);
                     if (!valid) return;
                     const Defect d = entry_defect(Indexed<Scalar>{c.values}, k, j, k > row_begin,
                                                   previous, row, c.ncols, c.checks);
                     const std::int64_t found = std::int64_t(row) * 16 + std::int64_t(d);
                     if (d != Defect::none && found < key) key = found;
                     if (j == row) atomicAdd(&s_diagonals[warp][owner], 1);
                     const std::int64_t distance = std::int64_t(j) - std::int64_t(row);
                     if (distance > width) width = distance;
                     if (-distance > width) width = -distance;
                   });
    __syncwarp();
    if (in) {
      const int diagonals = s_diagonals[warp][lane];
      const std::int64_t missing = std::int64_t(i) * 16 + std::int64_t(Defect::missing_diagonal);
      if (requires_diagonal(c.checks) && diagonals == 0 && missing < key) key = missing;
      longest = std::int64_t(end - begin) - diagonals;
    }
  }
  for (int s = 16; s > 0; s >>= 1) {
    const std::int64_t other_key = __shfl_xor_sync(full_mask, key, s);
    const std::int64_t other_longest = __shfl_xor_sync(full_mask, longest, s);
    const std::int64_t other_width = __shfl_xor_sync(full_mask, width, s);
    if (other_key < key) key = other_key;
    if (other_longest > longest) longest = other_longest;
    if (other_width > width) width = other_width;
  }
  if (lane == 0) {
    if (key != no_defect_key) atomicMax(&c.result[0], (long long)(no_defect_key - key));
    if (longest > 0) atomicMax(&c.result[1], (long long)longest);
    if (width > 0) atomicMax(&c.result[2], (long long)width);
  }
}

/// The pass over the rows a warp per 32 rows, whatever their lengths.
template <class Matrix>
RowsReport validate_rows_warp_per_32_rows(const Kokkos::Cuda& exec, const Matrix& A,
                                          MatrixCheck checks) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  const ordinal_type n = A.numRows();
  DeviceScratch<Kokkos::Cuda> scratch(exec);
  const auto result = scratch.zeros<long long, device_type>("syncfree::validation::result", 3);
  const RowChecks<ordinal_type, offset_type, scalar_type> c{A.graph.row_map.data(),
                                                            A.graph.entries.data(),
                                                            A.values.data(),
                                                            n,
                                                            A.numCols(),
                                                            offset_type(A.graph.entries.extent(0)),
                                                            checks,
                                                            result.data()};
  validate_rows_kernel<<<warp_rows_blocks(n), warp_rows_block_size, 0, exec.cuda_stream()>>>(c);
  require_launched("validation");
  long long host[3] = {0, 0, 0};
  Kokkos::deep_copy(exec, Kokkos::View<long long*, Kokkos::HostSpace>(host, 3), result);
  exec.fence();
  return {no_defect_key - host[0], host[1], host[2]};
}

}  // namespace cuda

template <class Matrix>
struct ValidateRows<Kokkos::Cuda, Matrix> {
  static RowsReport run(const Kokkos::Cuda& exec, const Matrix& A, MatrixCheck checks) {
    if (!cuda::warp_rows_preferred(exec, A))
      return validate_rows_one_per_iteration(exec, A, checks);
    return cuda::validate_rows_warp_per_32_rows(exec, A, checks);
  }
};

}  // namespace syncfree::impl

#endif
