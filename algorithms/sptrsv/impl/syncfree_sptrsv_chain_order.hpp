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

#include "algorithms/sptrsv/impl/syncfree_sptrsv_segment_units.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_wavefront_layout.hpp"
#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_device_scan.hpp"
#include "core/impl/syncfree_device_scratch.hpp"
#include "core/syncfree_level_sets.hpp"

namespace syncfree::impl {

inline constexpr int chain_segment_rows = 32;
static_assert(chain_segment_rows * segment_unit_size <= wavefront_unit_rows,
              "a wavefront unit's rows fit in its team's scratch (for_each_wavefront_entry)");
/// Shorter segments, on average, save too few hops to pay for the segment graph's analysis: random
/// bands (segments of 2.7 rows, and of about 1) solved and analyzed slower in chain order than in
/// level order.
inline constexpr int chain_min_mean_length = 8;

template <class Ordinal, class Device>
struct ChainOrder {
  using device_type = Device;
  Kokkos::View<Ordinal*, Device> order;     ///< rows by position; empty when segments are too short
  Kokkos::View<Ordinal*, Device> position;  ///< positions by row (the inverse of order), or empty
  Ordinal num_segments = 0;
  Ordinal num_levels = 0;  ///< levels of the segment graph: the solve's memory hops
  /// The wavefront layout, where asked for and found (else units.count() is 0; its rank is not
  /// kept): segment v (in unit order) at positions segment_first(v) .. segment_first(v + 1) - 1,
  /// which lives in the scratch of chain_segment_order when given one.
  WavefrontUnits<Ordinal, Device> units;
  Kokkos::View<Ordinal*, Device> segment_first;
};

/// Segments of a triangle, indexed by t, the position of a row in topological order (row order
/// for lower, reverse row order for upper).
template <class Matrix>
struct ChainSegments {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using view_type = Kokkos::View<ordinal_type*, typename Matrix::device_type>;
  typename Matrix::row_map_type row_map;
  typename Matrix::index_type entries;
  view_type segment_of;  ///< by t
  ordinal_type n;
  bool lower;

  KOKKOS_INLINE_FUNCTION ordinal_type row_of(ordinal_type t) const { return lower ? t : n - 1 - t; }

  /// Whether row t depends on row t - 1.
  KOKKOS_INLINE_FUNCTION bool continues_chain(ordinal_type t) const {
    if (t == 0) return false;
    const ordinal_type row = row_of(t), before = row_of(t - 1);
    for (auto k = row_map(row); k < row_map(row + 1); ++k)
      if (entries(k) == before) return true;
    return false;
  }

  /// Whether t begins a segment: at every multiple of 32, and where the chain breaks.
  KOKKOS_INLINE_FUNCTION bool starts_segment(ordinal_type t) const {
    return t % chain_segment_rows == 0 || !continues_chain(t);
  }

  /// The segment of `row`'s dependency j when that is earlier than `segment` (the segment of
  /// `row`), else -1 (j is no dependency, or lies in the same segment).
  KOKKOS_INLINE_FUNCTION ordinal_type earlier_segment(ordinal_type row, ordinal_type j,
                                                      ordinal_type segment) const {
    if (lower ? j >= row : j <= row) return -1;
    const ordinal_type d = segment_of(lower ? j : n - 1 - j);
    return d != segment ? d : -1;
  }

  /// Calls emit(d) for the earlier segments d that row t depends on, except where the entry just
  /// before in t's list or the entry at the same place in row t - 1's list (when t - 1 is in the
  /// same segment) names d too: neighbouring rows of a stencil depend on the same segments, in the
  /// same order. Repeats that remain are harmless to a level computation. One row per thread,
  /// so the segment graph is built at the parallelism of the rows, not of the segments.
  template <class Emit>
  KOKKOS_INLINE_FUNCTION void for_each_dependency_of_row(ordinal_type t, const Emit& emit) const {
    const ordinal_type segment = segment_of(t);
    const ordinal_type row = row_of(t);
    const bool same_before = t > 0 && segment_of(t - 1) == segment;
    const ordinal_type before = same_before ? row_of(t - 1) : row;
    const auto before_begin = row_map(before), before_end = same_before ? row_map(before + 1) : 0;
    ordinal_type last = -1;
    const auto begin = row_map(row);
    for (auto k = begin; k < row_map(row + 1); ++k) {
      const ordinal_type d = earlier_segment(row, entries(k), segment);
      if (d < 0 || d == last) continue;
      last = d;
      const auto kb = before_begin + (k - begin);
      if (kb < before_end && earlier_segment(before, entries(kb), segment) == d) continue;
      emit(d);
    }
  }
};

/// Lists of more entries are left as they are: sorting them one thread per segment would cost
/// more than it saves (a stencil's segments list up to about 20).
inline constexpr int chain_reduce_max_entries = 64;

/// Drops the entries of each segment's list in `graph_entries` that cannot change its level,
/// replacing them by the segment itself (which the level pass skips, as no dependency): repeats,
/// and d where d + 1 is listed too and continues d's chain (then d + 1 depends on d, so its level
/// is the larger). The levels stay exact; the level pass has fewer entries to wait on and, since
/// a warp of that pass holds 32 consecutive segments, fewer in-warp steps. On a 27-point grid a
/// segment lists about 12 entries of 4 neighbouring lines, 3 segments each; about 4 remain, as
/// on a 7-point grid.
template <class ExecSpace, class Segments, class Begin, class Map, class Entries>
void reduce_segment_graph(const ExecSpace& exec, const Segments& g, const Begin& segment_begin,
                          const Map& graph_map, const Entries& graph_entries) {
  using ordinal_type = typename Segments::ordinal_type;
  const ordinal_type n_segments = ordinal_type(graph_map.extent(0)) - 1;
  Kokkos::parallel_for(
      "syncfree::chain::graph_reduce", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_segments),
      KOKKOS_LAMBDA(const ordinal_type s) {
        const auto begin = graph_map(s), end = graph_map(s + 1);
        if (end - begin > chain_reduce_max_entries) return;
        for (auto i = begin + 1; i < end; ++i) {  // insertion sort: lists are short
          const ordinal_type d = graph_entries(i);
          auto j = i;
          for (; j > begin && graph_entries(j - 1) > d; --j)
            graph_entries(j) = graph_entries(j - 1);
          graph_entries(j) = d;
        }
        for (auto i = begin; i + 1 < end; ++i) {  // i + 1 is still the sorted list's
          const ordinal_type d = graph_entries(i), next = graph_entries(i + 1);
          if (next == d || (next == d + 1 && g.continues_chain(segment_begin(next))))
            graph_entries(i) = s;
        }
      });
}

/// The shortest and the longest distance s - d from a segment s back to a segment d < s - 1 that
/// one of its rows depends on (on a grid: the segments per line, and per plane on a 3-D one), or
/// n_segments and 0 where there is none: the wavefront's strides, found from the rows, before any
/// segment graph is built.
template <class ExecSpace, class Segments>
Kokkos::MinMaxScalar<typename Segments::ordinal_type> row_segment_strides(
    const ExecSpace& exec, const Segments& g, typename Segments::ordinal_type n_segments) {
  using ordinal_type = typename Segments::ordinal_type;
  Kokkos::MinMaxScalar<ordinal_type> strides;
  Kokkos::parallel_reduce(
      "syncfree::chain::strides", Kokkos::RangePolicy<ExecSpace>(exec, 0, g.n),
      KOKKOS_LAMBDA(const ordinal_type t, Kokkos::MinMaxScalar<ordinal_type>& r) {
        const ordinal_type s = g.segment_of(t);
        g.for_each_dependency_of_row(t, [&](ordinal_type d) {
          if (d >= s - 1) return;
          if (s - d < r.min_val) r.min_val = s - d;
          if (s - d > r.max_val) r.max_val = s - d;
        });
      },
      Kokkos::MinMax<ordinal_type>(strides));
  if (strides.max_val <= 0) return {n_segments, 0};  // the reducer's identity: no such segment
  return strides;
}

/// Expands segments into positions: segment s, the rank(s)-th, starts at position
/// first(rank(s)), its rows in chain order. One row per thread. Fills `first` (zeros on entry,
/// n_segments + 1 entries, the last n) and the result's order and position.
template <class ExecSpace, class Segments, class Begin, class Rank, class First, class Result>
void expand_segments(const ExecSpace& exec, const Segments& g, const Begin& segment_begin,
                     const Rank& rank, const First& first, DeviceScratch<ExecSpace>* scratch,
                     Result& result) {
  using ordinal_type = typename Segments::ordinal_type;
  using device_type = typename Result::device_type;
  const ordinal_type n_segments = ordinal_type(first.extent(0)) - 1;
  Kokkos::parallel_for(
      "syncfree::chain::sizes", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_segments),
      KOKKOS_LAMBDA(const ordinal_type s) {
        first(rank(s) + 1) = segment_begin(s + 1) - segment_begin(s);
      });
  inclusive_sum_in_place(exec, first);
  const ordinal_type n = g.n;
  result.order =
      uninitialized_array<ordinal_type, device_type>(scratch, "syncfree::chain::order", n);
  result.position =
      uninitialized_array<ordinal_type, device_type>(scratch, "syncfree::chain::position", n);
  const auto order = result.order;
  const auto position_of = result.position;
  const auto segment_of = g.segment_of;
  Kokkos::parallel_for(
      "syncfree::chain::expand", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type t) {
        const ordinal_type s = segment_of(t);
        const ordinal_type p = first(rank(s)) + (t - segment_begin(s));
        order(p) = g.row_of(t);
        position_of(g.row_of(t)) = p;
      });
}

/// The chain-segment order of the (validated) `triangle` of A: a topological order in which each
/// segment's rows are consecutive, in dependency order. Only the segment count when segments
/// average fewer than `chain_min_mean_length` rows. With `wavefront`, the wavefront layout
/// (syncfree_sptrsv_wavefront_layout.hpp) where the segments' strides give one: segments in unit
/// numbering, without levels. Whether every row fits the layout is found as its step table is
/// built (build_wavefront_steps); where one does not, the caller asks again without `wavefront`.
/// Else segments in the levels of the graph between them. The order and its
/// inverse come from `scratch` when given.
template <class ExecSpace, class Matrix>
ChainOrder<typename Matrix::non_const_ordinal_type, typename Matrix::device_type>
chain_segment_order(const ExecSpace& exec, const Matrix& A, Triangle triangle,
                    DeviceScratch<ExecSpace>* scratch = nullptr, bool wavefront = false) {
  using Segments = ChainSegments<Matrix>;
  using ordinal_type = typename Segments::ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  ChainOrder<ordinal_type, device_type> result;
  const ordinal_type n = A.numRows();
  DeviceScratch<ExecSpace> temporaries(exec);  // the segments, their graph and its levels
  Segments g{
      A.graph.row_map, A.graph.entries,
      temporaries.template uninitialized<ordinal_type, device_type>("syncfree::chain::segment", n),
      n, triangle == Triangle::lower};
  const auto segment_of = g.segment_of;
  // Segment numbers: the sum of the start flags up to t, counting the first segment as 0.
  if (wavefront) {
    // Segments cut every 32 rows from the start of their chain, not at multiples of 32, so that
    // every line of a grid whose lines are no multiple of 32 rows is cut alike. segment_of holds
    // chain numbers first.
    Kokkos::parallel_for(
        "syncfree::chain::breaks", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const ordinal_type t) {
          segment_of(t) = t > 0 && !g.continues_chain(t) ? 1 : 0;
        });
    // Chain numbers (at most n of them, so that their count need not be read back).
    inclusive_sum_in_place(exec, segment_of);
    const auto chain_begin = temporaries.template uninitialized<ordinal_type, device_type>(
        "syncfree::chain::chain_begin", n);
    Kokkos::parallel_for(
        "syncfree::chain::chain_begin", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const ordinal_type t) {
          if (t == 0 || segment_of(t) != segment_of(t - 1)) chain_begin(segment_of(t)) = t;
        });
    Kokkos::parallel_for(
        "syncfree::chain::starts", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const ordinal_type t) {
          segment_of(t) = t > 0 && (t - chain_begin(segment_of(t))) % chain_segment_rows == 0;
        });
  } else {
    Kokkos::parallel_for(
        "syncfree::chain::starts", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
        KOKKOS_LAMBDA(const ordinal_type t) {
          segment_of(t) = t > 0 && g.starts_segment(t) ? 1 : 0;
        });
  }
  result.num_segments = n > 0 ? inclusive_sum_in_place_total(exec, segment_of) + 1 : 0;
  const ordinal_type n_segments = result.num_segments;
  if (std::int64_t(n_segments) * chain_min_mean_length > std::int64_t(n)) return result;
  // First t of each segment, and n.
  const auto segment_begin = temporaries.template uninitialized<ordinal_type, device_type>(
      "syncfree::chain::segment_begin", n_segments + 1);
  Kokkos::parallel_for(
      "syncfree::chain::segment_begin", Kokkos::RangePolicy<ExecSpace>(exec, 0, n + 1),
      KOKKOS_LAMBDA(const ordinal_type t) {
        if (t == n)
          segment_begin(n_segments) = n;
        else if (t == 0 || segment_of(t) != segment_of(t - 1))
          segment_begin(segment_of(t)) = t;
      });

  if (wavefront) {
    const auto strides = row_segment_strides(exec, g, n_segments);
    auto units = wavefront_units_for<device_type>(exec, strides.min_val, strides.max_val,
                                                  n_segments, temporaries);
    if (units.count() > 0) {
      const auto rank = temporaries.template uninitialized<ordinal_type, device_type>(
          "syncfree::chain::rank", n_segments);
      Kokkos::parallel_for(
          "syncfree::wavefront::rank", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_segments),
          KOKKOS_LAMBDA(const ordinal_type s) { rank(s) = units.position(s); });
      result.segment_first = zero_array<ordinal_type, device_type>(
          scratch, "syncfree::wavefront::segment_first", n_segments + 1);
      expand_segments(exec, g, segment_begin, rank, result.segment_first, scratch, result);
      units.rank = {};  // in `temporaries`
      result.units = units;
      return result;
    }
  }

  // The segment graph: each row lists the earlier segments it depends on (count, offsets by
  // row, fill), and segment s's list is that of its rows together.
  const auto row_offset =
      temporaries.template zeros<offset_type, device_type>("syncfree::chain::row_offset", n + 1);
  Kokkos::parallel_for(
      "syncfree::chain::graph_count", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type t) {
        offset_type count = 0;
        g.for_each_dependency_of_row(t, [&](ordinal_type) { ++count; });
        row_offset(t + 1) = count;
      });
  const offset_type graph_nnz = counts_to_offsets(exec, row_offset);
  const typename Matrix::row_map_type::non_const_type graph_map =
      temporaries.template uninitialized<offset_type, device_type>("syncfree::chain::graph_map",
                                                                   n_segments + 1);
  Kokkos::parallel_for(
      "syncfree::chain::graph_map", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_segments + 1),
      KOKKOS_LAMBDA(const ordinal_type s) { graph_map(s) = row_offset(segment_begin(s)); });
  const typename Matrix::index_type::non_const_type graph_entries =
      temporaries.template uninitialized<ordinal_type, device_type>("syncfree::chain::graph",
                                                                    graph_nnz);
  Kokkos::parallel_for(
      "syncfree::chain::graph_fill", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type t) {
        offset_type out = row_offset(t);
        g.for_each_dependency_of_row(t, [&](ordinal_type d) { graph_entries(out++) = d; });
      });
  reduce_segment_graph(exec, g, segment_begin, graph_map, graph_entries);
  const auto graph = make_crs<Matrix>(
      "syncfree::chain::graph", n_segments, n_segments, graph_map, graph_entries,
      temporaries.template uninitialized<typename Matrix::non_const_value_type, device_type>(
          "syncfree::chain::graph_values", graph_nnz));  // unread: the levels need the pattern
  const auto segment_levels = segment_graph_level_sets(exec, graph, temporaries);
  result.num_levels = segment_levels.num_levels;

  // Segments in level order.
  const auto rank = temporaries.template uninitialized<ordinal_type, device_type>(
      "syncfree::chain::rank", n_segments);
  const auto segment_order = segment_levels.order;
  Kokkos::parallel_for(
      "syncfree::chain::rank", Kokkos::RangePolicy<ExecSpace>(exec, 0, n_segments),
      KOKKOS_LAMBDA(const ordinal_type o) { rank(segment_order(o)) = o; });
  expand_segments(exec, g, segment_begin, rank,
                  temporaries.template zeros<ordinal_type, device_type>("syncfree::chain::first",
                                                                        n_segments + 1),
                  scratch, result);
  return result;
}

}  // namespace syncfree::impl
