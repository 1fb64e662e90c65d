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
#include "core/impl/syncfree_kokkos_compat.hpp"
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
  const ordinal_type n = A.numRows();
  const bool lower = triangle == Triangle::lower;
  // The transposed strict triangle: row j lists the rows that depend on j.
  const auto T = impl::transpose_pattern(
      exec, "syncfree::alap::transpose", A,
      KOKKOS_LAMBDA(const ordinal_type i, const ordinal_type j) { return lower ? j < i : j > i; });
  // Sorted rows: the level pass takes each row's entries in order, so an unsorted row would wait
  // a round for each entry out of order.
  impl::sort_graph_rows(exec, T.graph.row_map, T.graph.entries);
  const auto heights = compute_level_sets(exec, T, lower ? Triangle::upper : Triangle::lower);
  const ordinal_type last = heights.num_levels - 1;
  const auto level = heights.level;
  Kokkos::parallel_for(
      "syncfree::alap::level", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) { level(i) = last - level(i); });
  return level_sets_from_levels(exec, level);
}

}  // namespace syncfree
