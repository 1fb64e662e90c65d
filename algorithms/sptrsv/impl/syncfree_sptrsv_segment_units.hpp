// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Levels of the chain-segment graph, numbered so that a warp of the level pass holds a
/// column of segments instead of a piece of one line.
///
/// In segment order a warp of the level pass holds 32 consecutive segments: on a grid, part of one
/// line. A segment depends on the one before it and on the one above it in the line before, so
/// consecutive lines are one trip through memory apart, and the pass takes about as many hops as
/// the grid has lines (2,111 on 2048^2). With P segments per line, the unit numbering gives a warp
/// the segments v, v + P, ..., v + 31 P instead: each depends on the lane before it, which the
/// engine's chain scan resolves in registers, and only the dependencies between such units travel
/// through memory: about lines / 32 + P hops on a 2-D grid, and on an n^3 grid one axis of the
/// three fewer.
///
/// P is the shortest distance from a segment back to a dependency other than the segment right
/// before it. The numbering is used only where every dependency of every segment comes earlier
/// in it, which keeps the level pass's order topological (its forward-progress argument) and is
/// checked for each graph; elsewhere the levels come from the segment order. Either way they are
/// the same levels.

#include <cstdint>

#include "core/impl/syncfree_device_scan.hpp"
#include "core/impl/syncfree_device_scratch.hpp"
#include "core/syncfree_level_sets.hpp"

namespace syncfree::impl {

/// Segments per unit: one warp of the level pass.
inline constexpr int segment_unit_size = 32;

/// The unit numbering with stride P: in each whole block of 32 P segments, starting at b, segment
/// b + r + k P (0 <= r < P, 0 <= k < 32) becomes b + 32 r + k, so that unit r of the block is a
/// column of 32 segments, in order. The segments after the last whole block keep their numbers.
/// Stride 1 is the identity.
template <class Ordinal>
struct SegmentUnits {
  Ordinal stride = 1;
  Ordinal blocked = 0;  ///< segments in whole blocks: the renumbered ones

  KOKKOS_INLINE_FUNCTION Ordinal position(Ordinal v) const {
    if (v >= blocked) return v;
    const Ordinal block_size = Ordinal(segment_unit_size) * stride;
    const Ordinal block = v - v % block_size;
    const Ordinal r = v - block;
    return block + (r % stride) * Ordinal(segment_unit_size) + r / stride;
  }
};

/// Over the graph's lists (`map`/`entries`: each segment's earlier segments, and itself where
/// reduce_segment_graph dropped an entry): min = the shortest distance s - d to an entry
/// d < s - 1 (a dependency other than the segment right before), or n where there is none; max =
/// the most entries d < s of one list (the level pass holds that many in registers).
template <class ExecSpace, class Map, class Entries>
Kokkos::MinMaxScalar<typename Entries::non_const_value_type> segment_graph_stride_and_longest(
    const ExecSpace& exec, const Map& map, const Entries& entries) {
  using ordinal_type = typename Entries::non_const_value_type;
  const ordinal_type n = ordinal_type(map.extent(0)) - 1;
  Kokkos::MinMaxScalar<ordinal_type> result{};
  Kokkos::parallel_reduce(
      "syncfree::segment_units::stride", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type s, Kokkos::MinMaxScalar<ordinal_type>& r) {
        ordinal_type shortest = n, length = 0;
        for (auto k = map(s); k < map(s + 1); ++k) {
          const ordinal_type d = entries(k);
          if (d >= 0 && d < s - 1 && s - d < shortest) shortest = s - d;
          length += d >= 0 && d < s ? 1 : 0;
        }
        if (shortest < r.min_val) r.min_val = shortest;
        if (length > r.max_val) r.max_val = length;
      },
      Kokkos::MinMax<ordinal_type>(result));
  return result;
}

/// The unit numbering with the graph's stride (above), or the identity where the stride is below
/// 2 or the graph has no whole block. Whether it keeps dependencies earlier is checked apart
/// (`count_unit_violations`).
template <class Ordinal>
SegmentUnits<Ordinal> segment_units_for_stride(Ordinal stride, Ordinal n) {
  if (stride < 2 || std::int64_t(stride) * segment_unit_size > std::int64_t(n)) return {};
  const Ordinal block_size = Ordinal(segment_unit_size) * stride;
  return {stride, n - n % block_size};
}

/// Writes to `violations()` (on the device) the number of entries d < s of the graph that do not
/// come before s in `units`.
template <class ExecSpace, class Map, class Entries, class Ordinal, class Count>
void count_unit_violations(const ExecSpace& exec, const Map& map, const Entries& entries,
                           const SegmentUnits<Ordinal>& units, const Count& violations) {
  const Ordinal n = Ordinal(map.extent(0)) - 1;
  Kokkos::parallel_reduce(
      "syncfree::segment_units::respect", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const Ordinal s, Ordinal& count) {
        for (auto k = map(s); k < map(s + 1); ++k) {
          const Ordinal d = entries(k);
          if (d >= 0 && d < s && !(units.position(d) < units.position(s))) ++count;
        }
      },
      violations);
}

/// A unit numbering that is the identity where the check found a dependency it would put later.
template <class Ordinal, class Count>
struct CheckedUnits {
  SegmentUnits<Ordinal> units;
  Count violations;
  KOKKOS_INLINE_FUNCTION Ordinal operator()(Ordinal v) const {
    return violations(0) == 0 ? units.position(v) : v;
  }
};

/// Level sets of the segment graph `graph` (lower: each row lists earlier segments, or itself
/// where an entry was dropped), by segment, computed in the unit numbering where it applies.
/// One host synchronization (the stride): the check's verdict stays on the device, where the
/// numbering falls back to the identity if any dependency would come later. Arrays of the result
/// come from `scratch`.
template <class ExecSpace, class Matrix>
LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
segment_graph_level_sets(const ExecSpace& exec, const Matrix& graph,
                         DeviceScratch<ExecSpace>& scratch) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  const ordinal_type n = graph.numRows();
  const auto map = graph.graph.row_map;
  const auto entries = graph.graph.entries;
  const auto stride_and_longest = segment_graph_stride_and_longest(exec, map, entries);
  const auto units = segment_units_for_stride(stride_and_longest.min_val, n);
  const auto violations =
      scratch.template zeros<ordinal_type, device_type>("syncfree::segment_units::violations", 1);
  if (units.stride > 1)
    count_unit_violations(exec, map, entries, units,
                          Kokkos::subview(violations, 0));  // stays on the device
  const CheckedUnits<ordinal_type, decltype(violations)> position{units, violations};

  // The graph in that numbering, without the dropped entries. Each list ascending, so that a
  // segment's last entry is the lane before it where it depends on that lane: the engine scans
  // such chains in registers.
  const auto unit_map =
      scratch.template zeros<offset_type, device_type>("syncfree::segment_units::map", n + 1);
  Kokkos::parallel_for(
      "syncfree::segment_units::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type s) {
        offset_type count = 0;
        for (auto k = map(s); k < map(s + 1); ++k) count += entries(k) < s ? 1 : 0;
        unit_map(position(s) + 1) = count;
      });
  inclusive_sum_in_place(exec, unit_map);
  const auto unit_entries = scratch.template uninitialized<ordinal_type, device_type>(
      "syncfree::segment_units::entries", entries.extent(0));  // at most: no total read back
  Kokkos::parallel_for(
      "syncfree::segment_units::fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type s) {
        const offset_type begin = unit_map(position(s));
        offset_type end = begin;
        for (auto k = map(s); k < map(s + 1); ++k) {
          const ordinal_type d = entries(k);
          if (d < 0 || d >= s) continue;
          const ordinal_type p = position(d);
          auto j = end++;  // insertion sort: lists are short
          for (; j > begin && unit_entries(j - 1) > p; --j) unit_entries(j) = unit_entries(j - 1);
          unit_entries(j) = p;
        }
      });
  const auto unit_level = scratch.template uninitialized<ordinal_type, device_type>(
      "syncfree::segment_units::level", n);
  Kokkos::deep_copy(exec, unit_level, ordinal_type(-1));
  ComputeListLevels<ExecSpace>::compute(exec, unit_map, unit_entries,
                                        long(stride_and_longest.max_val), unit_level);
  const auto level =
      scratch.template uninitialized<ordinal_type, device_type>("syncfree::level", n);
  Kokkos::parallel_for(
      "syncfree::segment_units::levels", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type s) { level(s) = unit_level(position(s)); });
  return level_sets_from_levels(exec, level, &scratch);
}

}  // namespace syncfree::impl
