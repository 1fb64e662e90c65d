// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief SpTRSV analysis on the device: validation, level sets, and the level-ordered structure.

#include <string>

#include "algorithms/sptrsv/impl/syncfree_sptrsv_packed_layout.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_plan_storage.hpp"
#include "core/impl/syncfree_crs_build.hpp"
#include "core/syncfree_alap_levels.hpp"
#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree::impl {

/// Fills `s` for the strict `triangle` of A (entries of the other triangle are skipped) from its
/// precomputed level sets. Validates nothing: callers validate A first (see below), so that no
/// busy-waiting kernel is ever launched on a matrix whose rows are unsorted or duplicated, or whose
/// levels do not belong to it.
template <class ExecSpace, class Matrix>
void sptrsv_build_structure(const ExecSpace& exec, SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                            Triangle triangle,
                            const LevelSets<typename Matrix::non_const_ordinal_type,
                                            typename Matrix::device_type>& levels) {
  using Storage = SptrsvPlanStorage<Matrix>;
  using ordinal_type = typename Storage::ordinal_type;
  using offset_type = typename Storage::offset_type;
  using device_type = typename Storage::device_type;
  s.n = A.numRows();
  s.nnz = A.nnz();
  s.row_map_data = A.graph.row_map.data();
  s.entries_data = A.graph.entries.data();
  s.levels = levels;
  s.level_ptr_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.levels.level_ptr);
  const auto order = s.levels.order;
  const auto position = invert_permutation(exec, order);
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const bool lower = triangle == Triangle::lower;

  // Packed rows by position, strict triangle only (a unit diagonal may still be stored; it is not
  // read). Built with the count / scan / fill pattern; `source` keeps the entry of A.
  s.row_map = Kokkos::View<offset_type*, device_type>("syncfree::sptrsv::row_map", s.n + 1);
  const auto packed_row_map = s.row_map;
  Kokkos::parallel_for(
      "syncfree::sptrsv::analyze_count", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const ordinal_type row = order(p);
        offset_type count = 0;
        for (auto k = row_map(row); k < row_map(row + 1); ++k)
          count += (lower ? entries(k) < row : entries(k) > row) ? 1 : 0;
        packed_row_map(p + 1) = count;
      });
  s.max_row_length = ordinal_type(longest_count(exec, packed_row_map));
  const offset_type packed_nnz = counts_to_offsets(exec, packed_row_map);

  s.columns = Kokkos::View<ordinal_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::columns"), packed_nnz);
  s.source = Kokkos::View<offset_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::source"), packed_nnz);
  s.diagonal = Kokkos::View<offset_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::diagonal"), s.n);
  const auto columns = s.columns;
  const auto source = s.source;
  const auto diagonal_entry = s.diagonal;
  Kokkos::parallel_for(
      "syncfree::sptrsv::analyze_fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const ordinal_type row = order(p);
        offset_type out = packed_row_map(p);
        diagonal_entry(p) = offset_type(-1);
        for (auto k = row_map(row); k < row_map(row + 1); ++k) {
          if (entries(k) == row) diagonal_entry(p) = k;
          if (!(lower ? entries(k) < row : entries(k) > row)) continue;
          columns(out) = position(entries(k));
          source(out) = k;
          ++out;
        }
      });

  s.x_work = Kokkos::View<typename Storage::scalar_type*, device_type>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::x_work"), s.n);
  s.ticket = Kokkos::View<std::uint32_t, device_type>("syncfree::sptrsv::ticket");
}

inline bool uses_multirow_layout(SptrsvAlgorithm a) {
  return a == SptrsvAlgorithm::multirow || a == SptrsvAlgorithm::packed ||
         a == SptrsvAlgorithm::alap_packed;
}
inline bool uses_packed_layout(SptrsvAlgorithm a) {
  return a == SptrsvAlgorithm::packed || a == SptrsvAlgorithm::alap_packed;
}

/// Fills `s` for `algorithm` from the (validated) triangle of A and its level sets:
/// `alap_packed` replaces them by ALAP levels, the multirow family groups each level by vector
/// size and cuts it into warps, the packed ones lay their columns out.
template <class ExecSpace, class Matrix>
void sptrsv_build_layout(
    const ExecSpace& exec, SptrsvPlanStorage<Matrix>& s, const Matrix& A, Triangle triangle,
    const LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>& levels,
    SptrsvAlgorithm algorithm) {
  s.n_warps = 0;
  s.warp_base = {};
  s.warp_vector = {};
  s.packed_base = {};
  s.packed_columns = {};
  s.packed_values = {};
  s.packed_diagonal = {};
  s.packed_values_of = nullptr;
  if (!uses_multirow_layout(algorithm)) {
    sptrsv_build_structure(exec, s, A, triangle, levels);
    return;
  }
  const auto scheduled =
      algorithm == SptrsvAlgorithm::alap_packed ? alap_level_sets(exec, A, triangle) : levels;
  sptrsv_build_structure(exec, s, A, triangle,
                         group_levels_by_vector_size(exec, A, triangle, scheduled));
  sptrsv_build_warps(exec, s);
  if (uses_packed_layout(algorithm)) sptrsv_build_packed_columns(exec, s);
}

/// Validates the given triangle of A before any layout is built from it, so that no busy-waiting
/// kernel is ever launched on a matrix whose dependencies could point forward (an entry outside
/// the triangle), whose rows are unsorted or duplicated, or whose diagonal is missing, zero or
/// NaN. \throws InvalidMatrix naming the first defective row.
template <class ExecSpace, class Matrix>
void sptrsv_validate(const ExecSpace& exec, const Matrix& A, Triangle triangle, Diagonal diagonal) {
  require_valid(exec, A, triangular_checks(triangle, diagonal),
                std::string("sptrsv_analyze (") + to_string(triangle) + ", " + to_string(diagonal) +
                    " diagonal)");
}

}  // namespace syncfree::impl
