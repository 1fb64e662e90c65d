// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief What `dilu_analyze` stores besides the color-ordered matrix: the colors, where each
/// starts among the positions, the positions grouped by color and length for the one-dimensional
/// sweep, and where each row of B finds its diagonal and each entry its transposed entry, all
/// built on the device. No sweep here.

#include <algorithm>
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "algorithms/dilu/impl/syncfree_dilu_rules.hpp"
#include "core/impl/syncfree_sorted_search.hpp"
#include "core/syncfree_level_sets.hpp"
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
  Kokkos::View<Ordinal*, Device> perm;   ///< A's row at each position of B: ascending color
  Kokkos::View<Ordinal*, Device> color;  ///< the color of each row of A
  Ordinal max_color_rows = 0;            ///< rows of the largest color

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
KOKKOS_INLINE_FUNCTION int dilu_row_lanes(std::int64_t length, int entries_per_lane) {
  int lanes = 1;
  while (lanes < dilu_max_lanes && std::int64_t(lanes) * entries_per_lane < length) lanes *= 2;
  return lanes;
}

/// The layout of a coloring (`colors`, the color of each row) of a matrix whose row pointers are
/// `row_map`, built on the device: the rows grouped by color (ascending rows inside a color), each
/// color's positions grouped by their rows' lane counts, each such class cut into groups of
/// 32 / lanes positions. Both groupings are level sets (core/syncfree_level_sets.hpp) of a key.
template <class ExecSpace, class Ordinal, class Device, class RowMap>
DiluLayout<Ordinal, Device> make_dilu_layout(const ExecSpace& exec, const RowMap& row_map,
                                             const Kokkos::View<Ordinal*, Device>& colors,
                                             int entries_per_lane) {
  constexpr int classes = 6;  // 1, 2, 4, ..., 32 lanes
  DiluLayout<Ordinal, Device> layout;
  layout.n = Ordinal(colors.extent(0));
  const auto by_color = level_sets_from_levels(exec, colors);
  layout.num_colors = int(by_color.num_levels);
  layout.color_begin = to_std_vector(by_color.level_ptr);
  layout.color_begin_device = by_color.level_ptr;
  layout.perm = by_color.order;
  layout.color = colors;
  layout.max_color_rows = by_color.max_level_size;

  const auto perm = layout.perm;
  Kokkos::View<Ordinal*, Device> key(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::dilu::lane_class"),
      std::size_t(layout.n));
  Kokkos::parallel_for(
      "syncfree::dilu::lane_classes", Kokkos::RangePolicy<ExecSpace>(exec, 0, layout.n),
      KOKKOS_LAMBDA(const Ordinal p) {
        const Ordinal row = perm(p);
        const int lanes =
            dilu_row_lanes(std::int64_t(row_map(row + 1) - row_map(row)), entries_per_lane);
        int k = 0;
        while ((1 << k) < lanes) ++k;
        // Positions of a color are contiguous, so (color, class) keys keep them by color.
        key(p) = colors(row) * classes + k;
      });
  const auto by_class = level_sets_from_levels(exec, key);
  layout.grouped_rows = by_class.order;

  // The first group of each (color, class) segment, on the host: a few hundred segments.
  const int segments = int(by_class.num_levels);
  const auto segment_begin_host = to_std_vector(by_class.level_ptr);
  std::vector<Ordinal> first_group(std::size_t(segments) + 1, 0);
  for (int s = 0; s < segments; ++s) {
    const Ordinal rows =
        segment_begin_host[std::size_t(s) + 1] - segment_begin_host[std::size_t(s)];
    const Ordinal per_group = Ordinal(dilu_max_lanes >> (s % classes));
    first_group[std::size_t(s) + 1] =
        first_group[std::size_t(s)] + (rows + per_group - 1) / per_group;
  }
  layout.num_groups = first_group.back();
  const auto first = to_device_view<Ordinal, Device>(first_group, "syncfree::dilu::first_group");
  const auto segment_begin = by_class.level_ptr;
  layout.group_begin = Kokkos::View<Ordinal*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::dilu::group_begin"),
      std::size_t(layout.num_groups) + 1);
  layout.group_lanes = Kokkos::View<int*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::dilu::group_lanes"),
      std::size_t(layout.num_groups));
  layout.group_color = Kokkos::View<int*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::dilu::group_color"),
      std::size_t(layout.num_groups));
  const auto group_begin = layout.group_begin;
  const auto group_lanes = layout.group_lanes;
  const auto group_color = layout.group_color;
  const Ordinal n = layout.n, num_groups = layout.num_groups;
  Kokkos::parallel_for(
      "syncfree::dilu::groups", Kokkos::RangePolicy<ExecSpace>(exec, 0, num_groups + 1),
      KOKKOS_LAMBDA(const Ordinal g) {
        if (g == num_groups) {
          group_begin(g) = n;
          return;
        }
        int lo = 0, hi = segments;  // the segment s with first(s) <= g < first(s + 1)
        while (hi - lo > 1) {
          const int mid = (lo + hi) / 2;
          if (first(mid) <= g)
            lo = mid;
          else
            hi = mid;
        }
        const int lanes = 1 << (lo % classes);
        group_begin(g) = segment_begin(lo) + (g - first(lo)) * Ordinal(dilu_max_lanes / lanes);
        group_lanes(g) = lanes;
        group_color(g) = lo / classes;
      });
  return layout;
}

/// For every entry (i, j) of B with j before the first row of i's color (an earlier color), the
/// position of the entry (j, i), or -1 where row j does not store column i; -1 for the other
/// entries. Rows must be sorted (binary search in row j).
template <class ExecSpace, class Matrix, class ColorBegin>
Kokkos::View<std::int64_t*, typename Matrix::device_type> dilu_transposed_positions(
    const ExecSpace& exec, const Matrix& B, const ColorBegin& color_begin, int num_colors) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
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
          position(k) = j < first
                            ? std::int64_t(find_sorted(i, row_map(j), row_map(j + 1),
                                                       [&](offset_type q) { return entries(q); }))
                            : std::int64_t(-1);
        }
      });
  return position;
}

}  // namespace syncfree::impl
