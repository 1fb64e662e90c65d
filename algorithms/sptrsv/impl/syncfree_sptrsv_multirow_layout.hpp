// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The multirow layout of SpTRSV_mr (Freire Picón 2025, §4.1; Dufrechou & Ezzatti's
/// HCL-Fing/SPTRSV `multirow_analysis_base_GPU`): within each level, rows are grouped by the
/// vector size their off-diagonal entries need (0, 1, 2, 4, 8, 16 or 32 lanes), and each group is
/// cut into warps of 32 / size rows (32 rows for size 0). Rows sharing a warp share a level, so
/// they are mutually independent: no lane ever waits on a lane of its own warp.

#include <cstdint>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_storage.hpp"
#include "core/syncfree_level_sets.hpp"

namespace syncfree::impl {

/// Lanes a row with `length` off-diagonal entries gets: 0 for none (the row only divides), else
/// the next power of two up to 32; longer rows loop over their entries 32 at a time.
template <class Ordinal>
KOKKOS_INLINE_FUNCTION int multirow_vector_size(Ordinal length) {
  if (length == 0) return 0;
  int size = 1;
  while (size < 32 && Ordinal(size) < length) size *= 2;
  return size;
}

KOKKOS_INLINE_FUNCTION int multirow_rows_per_warp(int vector_size) {
  return vector_size == 0 ? 32 : 32 / vector_size;
}

/// 0 .. 6, ascending with the vector size.
KOKKOS_INLINE_FUNCTION int multirow_size_class(int vector_size) {
  int c = 0;
  while (vector_size > 0) {
    ++c;
    vector_size /= 2;
  }
  return c;
}

/// `levels` with each level's rows reordered by size class (rows ascending within a class), for
/// the given triangle of A. Level numbers and level_ptr are kept.
template <class ExecSpace, class Matrix>
LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
group_levels_by_vector_size(const ExecSpace& exec, const Matrix& A, Triangle triangle,
                            const LevelSets<typename Matrix::non_const_ordinal_type,
                                            typename Matrix::device_type>& levels) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using device_type = typename Matrix::device_type;
  const ordinal_type n = A.numRows();
  const bool lower = triangle == Triangle::lower;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const auto level = levels.level;
  const auto level_ptr = levels.level_ptr;
  const auto order = levels.order;
  // Position p of level l (start s, size m) gets the key 7 s + class * m + (p - s): keys of a
  // level fill [7 s, 7 (s + m)), ordered by class and then by position, below the next level's.
  // The key stays below 7 n, and position k of the sorted keys still belongs to level l.
  Kokkos::View<std::int64_t*, device_type> keys(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::multirow::keys"), n);
  Kokkos::parallel_for(
      "syncfree::multirow::keys", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const ordinal_type row = order(p);
        ordinal_type length = 0;
        for (auto k = row_map(row); k < row_map(row + 1); ++k)
          length += (lower ? entries(k) < row : entries(k) > row) ? 1 : 0;
        const ordinal_type l = level(row);
        const std::int64_t start = level_ptr(l), size = level_ptr(l + 1) - start;
        keys(p) =
            7 * start + multirow_size_class(multirow_vector_size(length)) * size + (p - start);
      });
  sort_keys(exec, keys, 7 * std::int64_t(n) - 1);
  auto result = levels;
  result.order = typename decltype(result)::view_type(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::multirow::order"), n);
  const auto grouped = result.order;
  Kokkos::parallel_for(
      "syncfree::multirow::order", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type k) {
        const ordinal_type l = level(order(k));
        const std::int64_t start = level_ptr(l), size = level_ptr(l + 1) - start;
        grouped(k) = order(ordinal_type(start + (keys(k) - 7 * start) % size));
      });
  return result;
}

/// Vector size of position p of the level-ordered structure `row_map`.
template <class RowMap, class Ordinal>
KOKKOS_INLINE_FUNCTION int multirow_vector_size_at(const RowMap& row_map, Ordinal p) {
  return multirow_vector_size(row_map(p + 1) - row_map(p));
}

/// Cuts the level-ordered structure of `s` (grouped by `group_levels_by_vector_size`) into
/// warps: a warp starts at every change of level or vector size and every 32 / size rows.
template <class ExecSpace, class Matrix>
void sptrsv_build_warps(const ExecSpace& exec, SptrsvPlanStorage<Matrix>& s) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using device_type = typename Matrix::device_type;
  using view_type = Kokkos::View<ordinal_type*, device_type>;
  const ordinal_type n = s.n;
  const auto row_map = s.row_map;
  const auto order = s.order;
  const auto level = s.levels.level;
  // The group (same level, same size) of each position, and where each group starts.
  view_type group(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::multirow::group"), n);
  view_type group_start(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::multirow::group_start"), n);
  Kokkos::parallel_scan(
      "syncfree::multirow::groups", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type p, ordinal_type& groups, const bool final) {
        const bool starts =
            p == 0 || level(order(p)) != level(order(p - 1)) ||
            multirow_vector_size_at(row_map, p) != multirow_vector_size_at(row_map, p - 1);
        if (starts) ++groups;
        if (!final) return;
        group(p) = groups - 1;
        if (starts) group_start(groups - 1) = p;
      });
  // Every 32 / size rows of a group start a warp.
  view_type warp_base(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::multirow::warp_base"), n + 1);
  ordinal_type n_warps = 0;
  Kokkos::parallel_scan(
      "syncfree::multirow::warps", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type p, ordinal_type& w, const bool final) {
        const int size = multirow_vector_size_at(row_map, p);
        if ((p - group_start(group(p))) % multirow_rows_per_warp(size) != 0) return;
        if (final) warp_base(w) = p;
        ++w;
      },
      n_warps);
  s.n_warps = n_warps;
  s.warp_base =
      view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::multirow::warp_base"),
                n_warps + 1);
  Kokkos::deep_copy(exec, Kokkos::subview(s.warp_base, std::make_pair(ordinal_type(0), n_warps)),
                    Kokkos::subview(warp_base, std::make_pair(ordinal_type(0), n_warps)));
  Kokkos::deep_copy(exec, Kokkos::subview(s.warp_base, n_warps), n);
  s.warp_vector = Kokkos::View<std::int8_t*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::multirow::warp_vector"), n_warps);
  const auto base = s.warp_base;
  const auto vector = s.warp_vector;
  Kokkos::parallel_for(
      "syncfree::multirow::warp_vector", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_warps),
      KOKKOS_LAMBDA(const ordinal_type w) {
        vector(w) = std::int8_t(multirow_vector_size_at(row_map, base(w)));
      });
}

}  // namespace syncfree::impl
