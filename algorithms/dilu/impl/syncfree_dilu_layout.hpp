// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What `dilu_analyze` stores besides the color-ordered matrix: the colors, where each
/// starts among the positions, the positions grouped by color and length for the one-dimensional
/// sweep, and where each row of B finds its diagonal and each entry its transposed entry. No sweep
/// here.

#include <algorithm>
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "algorithms/dilu/impl/syncfree_dilu_rules.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// The most lanes a row of the one-dimensional sweep gets: a warp.
inline constexpr int dilu_max_lanes = 32;

template <class Ordinal, class Device>
struct DiluLayout {
  Ordinal n = 0;
  int num_colors = 0;
  /// Where each color starts among B's rows (num_colors + 1 entries), on the host and the device.
  std::vector<Ordinal> color_begin;
  Kokkos::View<Ordinal*, Device> color_begin_device;
  Kokkos::View<Ordinal*, Device> perm;  ///< A's row at each position of B: ascending color
  Kokkos::View<int*, Device> color;     ///< the color of each row of A
  Ordinal max_color_rows = 0;           ///< rows of the largest color

  /// The one-dimensional sweep's groups: group g holds the positions grouped_rows(group_begin(g)
  /// .. group_begin(g + 1) - 1), all of color group_color(g) and one lane count, group_lanes(g)
  /// lanes each (a power of two; lanes times rows <= dilu_max_lanes). Groups ascend by color.
  Kokkos::View<Ordinal*, Device> grouped_rows;
  Kokkos::View<Ordinal*, Device> group_begin;
  Kokkos::View<int*, Device> group_lanes;
  Kokkos::View<int*, Device> group_color;
  Ordinal num_groups = 0;
};

/// The lanes a row of `length` entries gets in the one-dimensional sweep: the least power of two
/// that gives each lane at most `entries_per_lane` entries, at most a warp.
inline int dilu_row_lanes(std::int64_t length, int entries_per_lane) {
  int lanes = 1;
  while (lanes < dilu_max_lanes && std::int64_t(lanes) * entries_per_lane < length) lanes *= 2;
  return lanes;
}

/// The layout of rows `perm` (grouped by color, `color_begin` in positions) of a matrix whose row
/// pointers are `row_map`. Runs on the host: one pass over the rows.
template <class Ordinal, class Device, class RowMap>
DiluLayout<Ordinal, Device> make_dilu_layout(const RowMap& row_map,
                                             const std::vector<Ordinal>& perm,
                                             const std::vector<Ordinal>& color_begin,
                                             int entries_per_lane) {
  DiluLayout<Ordinal, Device> layout;
  layout.n = Ordinal(perm.size());
  layout.num_colors = int(color_begin.size()) - 1;
  layout.color_begin = color_begin;
  layout.color_begin_device =
      to_device_view<Ordinal, Device>(color_begin, "syncfree::dilu::color_begin");
  layout.perm = to_device_view<Ordinal, Device>(perm, "syncfree::dilu::perm");

  const auto map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_map);
  std::vector<int> color(perm.size()), group_lanes, group_color;
  std::vector<Ordinal> grouped, group_begin{0};
  grouped.reserve(perm.size());
  constexpr int classes = 6;  // 1, 2, 4, ..., 32 lanes
  std::vector<Ordinal> by_class[classes];
  for (int c = 0; c < layout.num_colors; ++c) {
    const Ordinal begin = color_begin[std::size_t(c)], end = color_begin[std::size_t(c) + 1];
    layout.max_color_rows = std::max(layout.max_color_rows, Ordinal(end - begin));
    for (auto& positions : by_class) positions.clear();
    for (Ordinal p = begin; p < end; ++p) {
      const Ordinal row = perm[std::size_t(p)];
      color[std::size_t(row)] = c;
      const int lanes = dilu_row_lanes(std::int64_t(map(row + 1) - map(row)), entries_per_lane);
      int k = 0;
      while ((1 << k) < lanes) ++k;
      by_class[k].push_back(p);
    }
    for (int k = 0; k < classes; ++k) {
      const std::size_t per_group = std::size_t(dilu_max_lanes >> k);
      for (std::size_t first = 0; first < by_class[k].size(); first += per_group) {
        const std::size_t last = std::min(by_class[k].size(), first + per_group);
        grouped.insert(grouped.end(), by_class[k].begin() + std::ptrdiff_t(first),
                       by_class[k].begin() + std::ptrdiff_t(last));
        group_begin.push_back(Ordinal(grouped.size()));
        group_lanes.push_back(1 << k);
        group_color.push_back(c);
      }
    }
  }
  layout.color = to_device_view<int, Device>(color, "syncfree::dilu::color");
  layout.grouped_rows = to_device_view<Ordinal, Device>(grouped, "syncfree::dilu::grouped_rows");
  layout.group_begin = to_device_view<Ordinal, Device>(group_begin, "syncfree::dilu::group_begin");
  layout.group_lanes = to_device_view<int, Device>(group_lanes, "syncfree::dilu::group_lanes");
  layout.group_color = to_device_view<int, Device>(group_color, "syncfree::dilu::group_color");
  layout.num_groups = Ordinal(group_lanes.size());
  return layout;
}

/// For every entry (i, j) of B with j before the first row of i's color (an earlier color), the
/// position of the entry (j, i), or -1 where row j does not store column i; -1 for the other
/// entries. Rows must be sorted (binary search in row j).
template <class ExecSpace, class Matrix, class ColorBegin>
Kokkos::View<std::int64_t*, typename Matrix::device_type> dilu_transposed_positions(
    const ExecSpace& exec, const Matrix& B, const ColorBegin& color_begin, int num_colors) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  Kokkos::View<std::int64_t*, typename Matrix::device_type> position(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::dilu::transposed"), B.nnz());
  const auto row_map = B.graph.row_map;
  const auto entries = B.graph.entries;
  Kokkos::parallel_for(
      "syncfree::dilu::transposed_positions", Kokkos::RangePolicy<ExecSpace>(exec, 0, B.numRows()),
      KOKKOS_LAMBDA(const ordinal_type i) {
        int c = 0;  // i's color: the last that starts at or before i
        while (c + 1 < num_colors && color_begin(c + 1) <= i) ++c;
        const ordinal_type first = color_begin(c);
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          const ordinal_type j = entries(k);
          position(k) = -1;
          if (j >= first) continue;
          auto lo = row_map(j), hi = row_map(j + 1);
          while (lo < hi) {
            const auto mid = lo + (hi - lo) / 2;
            if (entries(mid) < i)
              lo = mid + 1;
            else
              hi = mid;
          }
          if (lo < row_map(j + 1) && entries(lo) == i) position(k) = std::int64_t(lo);
        }
      });
  return position;
}

}  // namespace syncfree::impl
