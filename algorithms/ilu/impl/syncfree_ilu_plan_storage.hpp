// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What `ilu_analyze` stores: the factors' pattern, where each value of A lands in it, the
/// diagonal of every row, the two triangular solve plans (whose L level sets are also the
/// factorization's row order) and the work space of `ilu_factor` and `ilu_apply`. No kernels.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// A backend's recording of the level-set launches, replayed by later factorizations (CUDA: a
/// graph, cuda/syncfree_ilu_level_set_cuda.hpp). `key` says which launches it recorded.
struct IluLaunchRecording {
  virtual ~IluLaunchRecording() = default;
  int key = -1;
};

template <class Matrix>
struct IluPlanStorage {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using scalar_type = typename Matrix::non_const_value_type;
  using device_type = typename Matrix::device_type;
  using magnitude_type = decltype(impl::abs(scalar_type()));

  // Fingerprint of A: factor refuses a matrix with another pattern.
  ordinal_type n = 0;
  offset_type a_nnz = 0;
  const void* a_row_map_data = nullptr;
  const void* a_entries_data = nullptr;

  /// L (strict lower) and U (upper) on one pattern, owned by the plan.
  Matrix lu;
  /// Entry of `lu` for each entry of A; empty when the patterns are the same (ILU(0)).
  Kokkos::View<offset_type*, device_type> a_to_lu;
  /// Entry of `lu` holding each row's diagonal.
  Kokkos::View<offset_type*, device_type> diagonal;
  /// Solve plans for L (unit diagonal) and U on `lu`. The L plan's level order is the order in
  /// which the factorization claims rows.
  SptrsvPlan<Matrix> lower;
  SptrsvPlan<Matrix> upper;

  double mean_row_length = 0;  ///< entries of `lu` per row
  /// Entries of `lu`'s longest row; where the solve plans bound it by 32 or fewer, that bound.
  long longest_row = 0;

  // Work space of one factorization: per-row "finished" flags, the ticket, the tiny-pivot
  // threshold of each row, and a report {first bad row key, pivots replaced}.
  Kokkos::View<int*, device_type> finished;
  Kokkos::View<std::uint32_t, device_type> ticket;
  Kokkos::View<magnitude_type*, device_type> threshold;
  Kokkos::View<std::int64_t[2], device_type> report;
  /// L^{-1} b between the two solves of `ilu_apply`.
  Kokkos::View<scalar_type*, device_type> work;
  /// Where the two solves are chained (CUDA, wavefront layouts: cuda/syncfree_ilu_apply_cuda.hpp):
  /// for each entry of U's step table, the position of its row in L's work vector; made by the
  /// first apply.
  mutable Kokkos::View<ordinal_type*, device_type> upper_rhs_positions;
  /// The matrix of the last `ilu_apply_then_spmv` on that path, its column indices renamed to
  /// U's positions (its values A's own), and the column indices it was made from.
  mutable Matrix spmv_by_position;
  mutable const void* spmv_by_position_of = nullptr;
  /// On that path, where A has the stencil format, the position of each row in U's work vector
  /// (the product gathers through it instead of renamed column indices).
  mutable Kokkos::View<ordinal_type*, device_type> upper_position_of;
  /// The level-set launches as recorded by the first factorization, where the backend records.
  mutable std::shared_ptr<IluLaunchRecording> level_set_recording;
  /// A's values on the factors' pattern, read by a factorization that writes each value of the
  /// factors once (CUDA's value-flag kernel); allocated by its first run.
  mutable Kokkos::View<scalar_type*, device_type> factor_input;
  /// The rows in the order that factorization claims them where it takes the longest rows first
  /// (CUDA's value-flag kernel, rows longer than its registers hold), and what it was made for.
  mutable Kokkos::View<ordinal_type*, device_type> long_rows_first_order;
  mutable long long_rows_first_key = -1;
  /// The order in which CUDA's `gather` kernel claims rows where some take a block of their own
  /// (empty positions -1), and what it was made for.
  mutable Kokkos::View<ordinal_type*, device_type> gather_claim_order;
  mutable long gather_claim_key = -1;

  std::size_t bytes() const {
    return lu.graph.row_map.span() * sizeof(offset_type) +
           lu.graph.entries.span() * sizeof(ordinal_type) + lu.values.span() * sizeof(scalar_type) +
           a_to_lu.span() * sizeof(offset_type) + diagonal.span() * sizeof(offset_type) +
           lower.memory_bytes() + upper.memory_bytes() + finished.span() * sizeof(int) +
           threshold.span() * sizeof(magnitude_type) + work.span() * sizeof(scalar_type) +
           upper_rhs_positions.span() * sizeof(ordinal_type) +
           spmv_by_position.graph.entries.span() * sizeof(ordinal_type) +
           upper_position_of.span() * sizeof(ordinal_type) +
           factor_input.span() * sizeof(scalar_type) +
           long_rows_first_order.span() * sizeof(ordinal_type) +
           gather_claim_order.span() * sizeof(ordinal_type);
  }
};

}  // namespace syncfree::impl
