// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What `ic_analyze` stores: the factor's pattern (A's lower triangle), the lower solve's
/// plan (its level order is also the factorization's row order), what the solve with L^T needs
/// (a transposed copy and its plan, or the column push's counters) and the work space of
/// `ic_factor` and `ic_apply`. No kernels.

#include <cstddef>
#include <cstdint>

#include "algorithms/ic/impl/syncfree_ic_column_push.hpp"
#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_rearranged_matrix.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

template <class Matrix>
struct IcPlanStorage {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;

  // Fingerprint of A: factor refuses a matrix with another pattern.
  ordinal_type n = 0;
  offset_type a_nnz = 0;
  const void* a_row_map_data = nullptr;
  const void* a_entries_data = nullptr;

  /// L, on A's lower triangle: row i holds l_ij for j < i and, last, l_ii. Row i of A's rows
  /// (sorted) starts with the same columns, so entry k of row i is A's entry
  /// A.row_map(i) + k - factor.row_map(i): no map is stored.
  Matrix factor;
  SptrsvPlan<Matrix> lower;  ///< L y = b; its level order is the factorization's row order

  // L^T x = y runs on a copy of L^T (`transpose`, `upper`) or on L by the column push (`push`),
  // as IcOptions::upper_solve says; the other side stays empty.
  /// L^T, its values refilled from L after each factorization.
  RearrangedMatrix<Matrix> transpose;
  SptrsvPlan<Matrix> upper;  ///< L^T x = y on `transpose`
  IcColumnPush<Matrix> push;

  double mean_row_length = 0;  ///< entries of L per row

  // Work space of one factorization: per-row "finished" flags, the ticket, and the report
  // {first bad row key}.
  Kokkos::View<int*, device_type> finished;
  Kokkos::View<std::uint32_t, device_type> ticket;
  Kokkos::View<std::int64_t, device_type> report;
  /// L^{-1} b between the two solves of `ic_apply`.
  Kokkos::View<scalar_type*, device_type> work;

  std::size_t bytes() const {
    const auto matrix_bytes = [](const Matrix& M) {
      return M.graph.row_map.span() * sizeof(offset_type) +
             M.graph.entries.span() * sizeof(ordinal_type) + M.values.span() * sizeof(scalar_type);
    };
    return matrix_bytes(factor) + matrix_bytes(transpose.matrix) +
           transpose.source.span() * sizeof(offset_type) + lower.memory_bytes() +
           upper.memory_bytes() + push.bytes() + finished.span() * sizeof(int) +
           work.span() * sizeof(scalar_type);
  }
};

}  // namespace syncfree::impl
