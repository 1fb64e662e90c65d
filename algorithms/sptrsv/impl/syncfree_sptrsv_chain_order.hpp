// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The solve order of `sync_free_thread`: chain segments in level order.
///
/// Level order puts every dependency of a row in another warp, so a row of a 2-D 5-point factor
/// pays one trip through memory per level (2n - 1 of them on an n x n grid). Most matrices in
/// their given ordering have chains instead: row i depends on row i - 1 (i + 1 in an upper
/// triangle). Cut into segments of at most one warp (32 rows, aligned in that order, and broken
/// wherever a row does not depend on the one before it), a chain resolves inside its warp in
/// registers (the engine's chain scan), and only dependencies between segments travel through
/// memory. Segments are ordered by the levels of the graph between them; a segment's rows stay
/// consecutive. On the n x n grid that leaves n + n / 32 - 1 levels, on an n^3 grid about
/// 2n + n / 32.

#include <cstdint>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_device_scan.hpp"
#include "core/syncfree_level_sets.hpp"

namespace syncfree::impl {

inline constexpr int chain_segment_rows = 32;
/// Shorter segments, on average, save too few hops to pay for the segment graph's analysis:
/// H200, 2M-row random bands (segments of 2.7 rows, and of about 1) solved 1.2-1.4x slower in
/// chain order than in level order, and analyzed 2x slower.
inline constexpr int chain_min_mean_length = 8;

template <class Ordinal, class Device>
struct ChainOrder {
  Kokkos::View<Ordinal*, Device> order;     ///< rows by position; empty when segments are too short
  Kokkos::View<Ordinal*, Device> position;  ///< positions by row (the inverse of order), or empty
  Ordinal num_segments = 0;
  Ordinal num_levels = 0;  ///< levels of the segment graph: the solve's memory hops
};

/// Segments of a triangle, indexed by t, the position of a row in topological order (row order
/// for lower, reverse row order for upper).
template <class Matrix>
struct ChainSegments {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using view_type = Kokkos::View<ordinal_type*, typename Matrix::device_type>;
  typename Matrix::row_map_type row_map;
  typename Matrix::index_type entries;
  view_type segment_of;     ///< by t
  view_type segment_begin;  ///< first t of each segment, and n
  ordinal_type n;
  bool lower;

  KOKKOS_INLINE_FUNCTION ordinal_type row_of(ordinal_type t) const { return lower ? t : n - 1 - t; }

  /// Whether t begins a segment: at every multiple of 32, and where row t does not depend on row
  /// t - 1.
  KOKKOS_INLINE_FUNCTION bool starts_segment(ordinal_type t) const {
    if (t % chain_segment_rows == 0) return true;
    const ordinal_type row = row_of(t), before = row_of(t - 1);
    for (auto k = row_map(row); k < row_map(row + 1); ++k)
      if (entries(k) == before) return false;
    return true;
  }

  /// Calls emit(d) for the segments d that segment s depends on (all earlier than s), dropping
  /// repeats of the last few; other repeats are harmless to a level computation.
  template <class Emit>
  KOKKOS_INLINE_FUNCTION void for_each_dependency(ordinal_type s, const Emit& emit) const {
    constexpr int window = 4;
    ordinal_type recent[window] = {-1, -1, -1, -1};
    int next = 0;
    const ordinal_type first = segment_begin(s);
    for (ordinal_type t = first; t < segment_begin(s + 1); ++t) {
      const ordinal_type row = row_of(t);
      for (auto k = row_map(row); k < row_map(row + 1); ++k) {
        const ordinal_type j = entries(k);
        if (lower ? j >= row : j <= row) continue;
        const ordinal_type tj = lower ? j : n - 1 - j;
        if (tj >= first) continue;
        const ordinal_type d = segment_of(tj);
        bool seen = false;
        for (int w = 0; w < window; ++w) seen = seen || recent[w] == d;
        if (seen) continue;
        recent[next] = d;
        next = (next + 1) % window;
        emit(d);
      }
    }
  }
};

/// The chain-segment order of the (validated) `triangle` of A: a topological order in which each
/// segment's rows are consecutive, in dependency order. Only the segment count when segments
/// average fewer than `chain_min_mean_length` rows.
template <class ExecSpace, class Matrix>
ChainOrder<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
chain_segment_order(const ExecSpace& exec, const Matrix& A, Triangle triangle) {
  using Segments = ChainSegments<Matrix>;
  using ordinal_type = typename Segments::ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using view_type = typename Segments::view_type;
  ChainOrder<ordinal_type, typename Matrix::device_type> result;
  const ordinal_type n = A.numRows();
  Segments g{
      A.graph.row_map,
      A.graph.entries,
      view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::chain::segment"), n),
      {},
      n,
      triangle == Triangle::lower};
  const auto segment_of = g.segment_of;
  // Segment numbers: the sum of the start flags up to t, counting the first segment as 0.
  Kokkos::parallel_for(
      "syncfree::chain::starts", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type t) {
        segment_of(t) = t > 0 && g.starts_segment(t) ? 1 : 0;
      });
  result.num_segments = n > 0 ? inclusive_sum_in_place_total(exec, segment_of) + 1 : 0;
  const ordinal_type n_segments = result.num_segments;
  if (std::int64_t(n_segments) * chain_min_mean_length > std::int64_t(n)) return result;
  g.segment_begin =
      view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::chain::segment_begin"),
                n_segments + 1);
  const auto segment_begin = g.segment_begin;
  Kokkos::parallel_for(
      "syncfree::chain::segment_begin", Kokkos::RangePolicy<ExecSpace>(exec, 0, n + 1),
      KOKKOS_LAMBDA(const ordinal_type t) {
        if (t == n)
          segment_begin(n_segments) = n;
        else if (t == 0 || segment_of(t) != segment_of(t - 1))
          segment_begin(segment_of(t)) = t;
      });

  const auto graph = build_crs<Matrix>(
      exec, "syncfree::chain::graph", n_segments, n_segments,
      KOKKOS_LAMBDA(const ordinal_type s) {
        offset_type count = 0;
        g.for_each_dependency(s, [&](ordinal_type) { ++count; });
        return count;
      },
      KOKKOS_LAMBDA(const ordinal_type s, offset_type out,
                    const typename Matrix::index_type::non_const_type& graph_entries,
                    const typename Matrix::values_type::non_const_type&) {
        g.for_each_dependency(s, [&](ordinal_type d) { graph_entries(out++) = d; });
      });
  const auto segment_levels = compute_level_sets(exec, graph, Triangle::lower);
  result.num_levels = segment_levels.num_levels;

  // Segments in level order, each expanded into its rows; the inverse permutation takes the
  // place of segment_of, which is read no more.
  result.order =
      view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::chain::order"), n);
  result.position = segment_of;
  const auto order = result.order;
  const auto position_of = result.position;
  const auto segment_order = segment_levels.order;
  Kokkos::parallel_scan(
      "syncfree::chain::expand", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_segments),
      KOKKOS_LAMBDA(const ordinal_type o, ordinal_type& position, const bool final) {
        const ordinal_type s = segment_order(o);
        const ordinal_type first = segment_begin(s), size = segment_begin(s + 1) - first;
        if (final)
          for (ordinal_type i = 0; i < size; ++i) {
            const ordinal_type row = g.row_of(first + i);
            order(position + i) = row;
            position_of(row) = position + i;
          }
        position += size;
      });
  return result;
}

}  // namespace syncfree::impl
