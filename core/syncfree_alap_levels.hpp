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

#include <limits>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_sorted_search.hpp"
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

namespace impl {

/// Whether A's pattern is structurally symmetric: every entry (i, j) has its (j, i). A thread per
/// entry, its row found by a binary search of the row offsets, so that rows of thousands of
/// entries (power-law hubs) do not serialize a thread each.
///
/// \pre A is square with sorted column indices in range.
template <class ExecSpace, class Matrix>
bool sorted_pattern_is_symmetric(const ExecSpace& exec, const Matrix& A) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const ordinal_type n = A.numRows();
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  long unmatched = 0;
  Kokkos::parallel_reduce(
      "syncfree::alap::symmetric_pattern",
      Kokkos::RangePolicy<ExecSpace>(exec, 0, offset_type(entries.extent(0))),
      KOKKOS_LAMBDA(const offset_type k, long& count) {
        ordinal_type low = 0, high = n;  // the row: the last one whose offset is <= k
        while (high - low > 1) {
          const ordinal_type mid = low + (high - low) / 2;
          if (row_map(mid) <= k)
            low = mid;
          else
            high = mid;
        }
        const ordinal_type i = low, j = entries(k);
        if (i != j && find_sorted(i, row_map(j), row_map(j + 1),
                                  [&](offset_type q) { return entries(q); }) < 0)
          ++count;
      },
      unmatched);
  return unmatched == 0;
}

}  // namespace impl

/// ALAP level sets of both triangles of a structurally symmetric pattern, from one level pass.
///
/// There a row's height in one triangle (the longest chain of its dependents) is its earliest
/// level in the other, whose graph is the same one reversed; so each triangle's ALAP levels are
/// the other's ASAP levels reversed, and `alap_level_sets` of the two triangles would walk the
/// same two graphs with a transpose each. Here the ASAP pass runs once over both: position 2i is
/// row i of the lower triangle and 2i + 1 row n - 1 - i of the upper one, so each triangle's
/// dependencies are earlier positions of its own. The pass is bound by the critical path, which
/// both graphs share, not by their work: about the time of one pass instead of two.
///
/// Returns false, leaving `lower` and `upper` as they were, where the pattern is not symmetric
/// (found before the pass) or, which symmetry excludes, the levels found do not respect a
/// triangle's dependencies: then each triangle needs `alap_level_sets` of its own.
///
/// \pre A is square with sorted column indices in range.
template <class ExecSpace, class Matrix>
bool alap_level_sets_of_both_triangles(
    const ExecSpace& exec, const Matrix& A,
    LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>& lower,
    LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>& upper) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  const ordinal_type n = A.numRows();
  // 2n positions must fit the ordinal type.
  if (n == 0 || n > std::numeric_limits<ordinal_type>::max() / 2 ||
      !impl::sorted_pattern_is_symmetric(exec, A))
    return false;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  // Position p: row p / 2 of the lower triangle (p even) or row n - 1 - p / 2 of the upper one.
  Kokkos::View<offset_type*, device_type> map("syncfree::alap::both_map", std::size_t(2) * n + 1);
  Kokkos::parallel_for(
      "syncfree::alap::both_count", Kokkos::RangePolicy<ExecSpace>(exec, 0, 2 * n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const ordinal_type row = p % 2 == 0 ? p / 2 : n - 1 - p / 2;
        offset_type count = 0;
        for (auto k = row_map(row); k < row_map(row + 1); ++k)
          count += (p % 2 == 0 ? entries(k) < row : entries(k) > row) ? 1 : 0;
        map(p + 1) = count;
      });
  const long longest = long(impl::longest_count(exec, map));
  const offset_type total = impl::counts_to_offsets(exec, map);
  Kokkos::View<ordinal_type*, device_type> columns(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::alap::both_columns"), total);
  // The farthest dependency first, as the level pass prefers (core/cuda/syncfree_level_sets_cuda):
  // an upper row's entries ascend, so its list is filled from the end.
  Kokkos::parallel_for(
      "syncfree::alap::both_fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, 2 * n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const ordinal_type row = p % 2 == 0 ? p / 2 : n - 1 - p / 2;
        const bool in_lower = p % 2 == 0;
        offset_type out = in_lower ? map(p) : map(p + 1);
        for (auto k = row_map(row); k < row_map(row + 1); ++k) {
          const ordinal_type j = entries(k);
          if (in_lower && j < row) columns(out++) = 2 * j;
          if (!in_lower && j > row) columns(--out) = 2 * (n - 1 - j) + 1;
        }
      });
  Kokkos::View<ordinal_type*, device_type> level(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::alap::both_levels"),
      std::size_t(2) * n);
  Kokkos::deep_copy(exec, level, ordinal_type(-1));
  impl::ComputeListLevels<ExecSpace>::compute(exec, map, columns, longest, level);

  // Levels of each triangle: the largest ASAP level + 1, the same in both where symmetric. One
  // reduction for both: its max half takes the lower triangle's, its min half minus the upper's.
  Kokkos::MinMaxScalar<ordinal_type> most{};
  Kokkos::parallel_reduce(
      "syncfree::alap::both_count_levels", Kokkos::RangePolicy<ExecSpace>(exec, 0, 2 * n),
      KOKKOS_LAMBDA(const ordinal_type p, Kokkos::MinMaxScalar<ordinal_type>& r) {
        if (p % 2 == 0 && level(p) + 1 > r.max_val) r.max_val = level(p) + 1;
        if (p % 2 == 1 && -(level(p) + 1) < r.min_val) r.min_val = -(level(p) + 1);
      },
      Kokkos::MinMax<ordinal_type>(most));
  const ordinal_type lower_levels = most.max_val, upper_levels = -most.min_val;
  if (lower_levels != upper_levels) return false;
  const ordinal_type last = lower_levels - 1;
  Kokkos::View<ordinal_type*, device_type> lower_level(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::level"), n);
  Kokkos::View<ordinal_type*, device_type> upper_level(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::level"), n);
  Kokkos::parallel_for(
      "syncfree::alap::both_split", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        // Row i's ALAP level in one triangle: last - its ASAP level in the other.
        lower_level(i) = last - level(2 * (n - 1 - i) + 1);
        upper_level(i) = last - level(2 * i);
      });
  auto lower_sets = level_sets_from_levels(exec, lower_level);
  auto upper_sets = level_sets_from_levels(exec, upper_level);
  if (!levels_respect_dependencies(exec, A, Triangle::lower, lower_sets) ||
      !levels_respect_dependencies(exec, A, Triangle::upper, upper_sets))
    return false;
  lower = lower_sets;
  upper = upper_sets;
  return true;
}

}  // namespace syncfree
