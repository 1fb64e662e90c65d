// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief "As late as possible" (ALAP) levels of a triangular dependency graph (Freire Picón,
/// MSc thesis 2025, §4.2.2, SpTRSV_Lev).
///
/// The level sets of core/syncfree_level_sets.hpp put every row at its earliest level (ASAP). A
/// row off the critical path can run at any level before its first dependent without delaying
/// the solve; ALAP puts it at the latest: a row no other row depends on goes to the last level,
/// any other row to one less than its earliest dependent. Rows that rows of the critical path
/// wait on then have fewer rows beside them on their level.
///
/// The thesis computes this with a backward sync-free pass of atomic minima. The same levels
/// follow from the forward pass run on the transposed graph: that pass gives each row its
/// height, the longest chain of dependents below it, and the ALAP level is
/// (number of levels - 1) - height. (A leaf has height 0; otherwise height = 1 + the largest
/// height of its dependents, so L-1-height = min over dependents of their ALAP level, minus 1,
/// which is the thesis' recurrence.) So the CUDA engine of the level pass serves both passes.

#include "core/impl/syncfree_crs_build.hpp"
#include "core/syncfree_level_sets.hpp"

namespace syncfree {

/// ALAP level sets of the given triangle of A. Same number of levels as the ASAP sets; every
/// row's dependencies lie on earlier levels, so every level-set consumer can take them.
///
/// \pre A is square with column indices in range (as `sptrsv_analyze` validates). Only entries
/// of the requested triangle are read.
template <class ExecSpace, class Matrix>
LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type> alap_level_sets(
    const ExecSpace& exec, const Matrix& A, Triangle triangle) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const ordinal_type n = A.numRows();
  const bool lower = triangle == Triangle::lower;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;

  // The transposed strict triangle, pattern only: row j lists the rows that depend on j.
  typename Matrix::row_map_type::non_const_type t_map("syncfree::alap::row_map", n + 1);
  Kokkos::parallel_for(
      "syncfree::alap::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          const ordinal_type j = entries(k);
          if (lower ? j < i : j > i) Kokkos::atomic_increment(&t_map(j + 1));
        }
      });
  const offset_type t_nnz = impl::counts_to_offsets(exec, t_map);
  typename Matrix::index_type::non_const_type t_entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::alap::entries"), t_nnz);
  Kokkos::View<offset_type*, typename Matrix::device_type> cursor(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::alap::cursor"), n);
  Kokkos::deep_copy(exec, cursor, Kokkos::subview(t_map, std::make_pair(ordinal_type(0), n)));
  Kokkos::parallel_for(
      "syncfree::alap::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          const ordinal_type j = entries(k);
          if (lower ? j < i : j > i) t_entries(Kokkos::atomic_fetch_add(&cursor(j), 1)) = i;
        }
      });
  // The level pass reads no values; the matrix type wants a view of them.
  typename Matrix::values_type::non_const_type t_values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::alap::values"), t_nnz);
  const auto T = make_crs<Matrix>("syncfree::alap::transpose", n, n, t_map, t_entries, t_values);

  const auto heights = compute_level_sets(exec, T, lower ? Triangle::upper : Triangle::lower);
  const ordinal_type last = heights.num_levels - 1;
  const auto level = heights.level;
  Kokkos::parallel_for(
      "syncfree::alap::level", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) { level(i) = last - level(i); });
  return level_sets_from_levels(exec, level);
}

}  // namespace syncfree
