// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The `band` layout: for a triangle whose every entry lies within `band_window` rows of
/// the diagonal, the rows in the triangle's own order (row order for lower, reverse for upper),
/// and a table that a warp sweeping 32 consecutive positions at a time reads with one coalesced
/// load per entry slot.
///
/// Why: on a narrow band almost every row depends on one of the few rows before it (the 2M-row
/// random band of width 8 has 1.33M levels), so a solve is one long chain, and each hop of a
/// sync-free solve through global memory costs far more than the row's arithmetic. In a sweep,
/// a window's rows depend only on the window before (held in registers, one value per lane) and
/// on each other (a shuffle per row), so no value on the chain goes through memory.
///
/// Table (built by the analysis, values at the first solve and after `sptrsv_values_changed`):
/// for slot k < band_entries and position p, `band_offsets(k n + p)` = p - q for the k-th
/// dependency q of p (1 .. band_window; 0: no entry), `band_values(k n + p)` = a_pq / a_pp, and
/// `band_values(band_entries n + p)` = 1 / a_pp (1 for a unit diagonal). The slots keep the
/// structure's order, the farthest dependency first (sptrsv_build_structure): the CUDA sweep's
/// queue of coefficients relies on it.

#include <cstddef>
#include <cstdint>

#include <Kokkos_Core.hpp>

#include "core/impl/syncfree_array_block.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

inline constexpr int band_window = 32;       ///< rows a warp takes at once, and the widest band
inline constexpr int band_max_entries = 16;  ///< off-diagonal entries per row, at most

/// Whether the `band` sweep can take a triangle of this bandwidth and longest row.
inline bool fits_band(long bandwidth, long longest_row) {
  return bandwidth <= band_window && longest_row <= band_max_entries;
}

/// The row at each position: the triangle's own order (rows ascending in a lower triangle,
/// descending in an upper one), topological, and an involution (its own inverse).
template <class ExecSpace, class Ordinal, class Device>
Kokkos::View<Ordinal*, Device> triangle_order(const ExecSpace& exec, Ordinal n, Triangle triangle) {
  Kokkos::View<Ordinal*, Device> order(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::sptrsv::triangle_order"), n);
  const bool lower = triangle == Triangle::lower;
  Kokkos::parallel_for(
      "syncfree::sptrsv::triangle_order", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const Ordinal p) { order(p) = lower ? p : n - 1 - p; });
  return order;
}

/// The table's offsets, from the structure of `s` (built in triangle_order), and room for its
/// values.
template <class ExecSpace, class Storage>
void build_band_table(const ExecSpace& exec, Storage& s) {
  using ordinal_type = typename Storage::ordinal_type;
  using device_type = typename Storage::device_type;
  s.band_entries = s.max_row_length > 0 ? s.max_row_length : 1;
  const std::size_t n = std::size_t(s.n);
  const std::size_t slots = std::size_t(s.band_entries);
  ArrayBlockLayout layout;
  const auto at_values = layout.add<typename Storage::scalar_type>((slots + 1) * n);
  const auto at_offsets = layout.add<std::int8_t>(slots * n);
  s.band_block = allocate_array_block<device_type>("syncfree::band::table", layout);
  s.band_values = array_in(s.band_block, at_values);
  s.band_offsets = array_in(s.band_block, at_offsets);
  s.packed_values_of = nullptr;
  const auto offsets = s.band_offsets;
  const auto row_map = s.row_map;
  const auto columns = s.columns;
  Kokkos::parallel_for(
      "syncfree::band::offsets", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        std::size_t k = 0;
        for (auto j = row_map(p); j < row_map(p + 1); ++j, ++k)
          offsets(k * n + std::size_t(p)) = std::int8_t(p - columns(j));
        for (; k < slots; ++k) offsets(k * n + std::size_t(p)) = 0;
      });
}

/// Copies A's values into the table of `s`, divided by their row's diagonal, unless it holds that
/// values array already.
template <class ExecSpace, class Storage, class Matrix>
void sptrsv_pack_band_values(const ExecSpace& exec, const Storage& s, const Matrix& A, bool unit) {
  using ordinal_type = typename Storage::ordinal_type;
  using scalar_type = typename Storage::scalar_type;
  if (s.packed_values_of == A.values.data()) return;
  const std::size_t n = std::size_t(s.n);
  const std::size_t slots = std::size_t(s.band_entries);
  const auto values = A.values;
  const auto out = s.band_values;
  const auto row_map = s.row_map;
  const auto source = s.source;
  const auto diagonal = s.diagonal;
  Kokkos::parallel_for(
      "syncfree::band::values", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const scalar_type d = unit ? scalar_type(1) : values(diagonal(p));
        std::size_t k = 0;
        for (auto j = row_map(p); j < row_map(p + 1); ++j, ++k)
          out(k * n + std::size_t(p)) = values(source(j)) / d;
        for (; k < slots; ++k) out(k * n + std::size_t(p)) = scalar_type(0);
        out(slots * n + std::size_t(p)) = scalar_type(1) / d;
      });
  s.packed_values_of = A.values.data();
}

}  // namespace syncfree::impl
