// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The greedy coloring on CUDA: first fit in vertex order run by the sync-free engine
/// (core/cuda/syncfree_sync_free_rounds.hpp), a position per vertex whose dependencies are its
/// lower-numbered neighbours, so the colors are those of the host pass bit for bit. Colors travel
/// between rows of a warp by shuffles, of a block through shared memory, else through global
/// memory: the host pass takes time in proportion to the graph, the engine to its longest path of
/// dependencies.
///
/// A position keeps the colors its dependencies took as bits of a 256-bit mask; since a vertex's
/// color never exceeds its count of lower-numbered neighbours, the mask holds every color that can
/// occur when no vertex has 256 of them. Other graphs (rows of a power-law hub, a circuit rail),
/// narrow bands (see coloring_rows_per_band) and distance-2 colorings run the host pass.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>

#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_sync_free_rounds.hpp"
#include "core/impl/syncfree_device_scratch.hpp"
#include "core/syncfree_level_sets.hpp"

namespace syncfree::impl::cuda {

/// The most colors a position's mask holds: 64 times `coloring_mask_words`.
inline constexpr int coloring_mask_words = 4;

/// A band of bandwidth b over n rows makes dependency paths of about n / b steps (2 n / b on a
/// natural-order 2-D grid), which the engine walks one step at a time (first fit has no chain
/// scan): on long chains slower than the host pass. Matrices more than this many times longer
/// than their bandwidth are colored on the host.
inline constexpr std::int64_t coloring_rows_per_band = 8192;

template <class Ordinal, class Offset>
struct ColorRounds {
  using value_type = Ordinal;        // the color; all-ones (-1) until computed
  using coefficient_type = Ordinal;  // unused: first fit needs no coefficient
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  /// As the level analysis, which waits on the same lower-numbered neighbours in row order.
  static constexpr unsigned max_backoff_ns = 256;
  static constexpr bool chain_links = false;
  static constexpr int blocks_per_sm = 0;
  struct Row {
    std::uint64_t taken[coloring_mask_words];
  };

  const Offset* row_map;   // lower-numbered neighbours of each vertex
  const Ordinal* columns;  // (position = vertex)
  Ordinal* work;           // the colors, by vertex
  unsigned* ticket;
  Ordinal n;

  __device__ Row start(Ordinal p, Offset& begin, Offset& end) const {
    begin = row_map[p];
    end = row_map[p + 1];
    return Row{};
  }
  __device__ Ordinal dependency(Offset k) const { return columns[k]; }
  __device__ Ordinal coefficient(Offset) const { return 0; }
  __device__ static void combine(Row& r, Ordinal, Ordinal color) {
    r.taken[color >> 6] |= std::uint64_t(1) << (color & 63);
  }
  /// The least color not taken: found, as the position has fewer than 64 * words dependencies.
  __device__ Ordinal finish(const Row& r) const {
    for (int w = 0; w < coloring_mask_words; ++w)
      if (~r.taken[w] != 0) return Ordinal(64 * w + __ffsll(~r.taken[w]) - 1);
    return Ordinal(64 * coloring_mask_words);  // unreachable under the launch's condition
  }
  __device__ void write(Ordinal, const Row&, Ordinal) const {}  // work holds the colors
};

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <>
struct ColorGraph<Kokkos::Cuda> {
  template <class Graph>
  static Kokkos::View<typename Graph::non_const_ordinal_type*, typename Graph::device_type> color(
      const Kokkos::Cuda& exec, const Graph& G, int distance) {
    using ordinal_type = typename Graph::non_const_ordinal_type;
    using offset_type = typename Graph::non_const_size_type;
    using device_type = typename Graph::device_type;
    const ordinal_type n = G.numRows();
    if (distance != 1 || n == 0) return color_graph_on_host(exec, G, distance);
    const auto row_map = G.graph.row_map;
    const auto entries = G.graph.entries;
    DeviceScratch<Kokkos::Cuda> scratch(exec);
    // Each vertex's lower-numbered neighbours, ascending (farthest first).
    const auto lower = triangle_dependency_lists(exec, G, Triangle::lower, scratch);
    ordinal_type bandwidth = 0;  // the farthest lower neighbour: rows are sorted, it comes first
    Kokkos::parallel_reduce(
        "syncfree::ordering::bandwidth", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, n),
        KOKKOS_LAMBDA(const ordinal_type v, ordinal_type& widest) {
          if (row_map(v) < row_map(v + 1) && v - entries(row_map(v)) > widest)
            widest = v - entries(row_map(v));
        },
        Kokkos::Max<ordinal_type>(bandwidth));
    if (lower.longest >= offset_type(64 * cuda::coloring_mask_words) ||
        std::int64_t(n) > cuda::coloring_rows_per_band * std::int64_t(bandwidth))
      return color_graph_on_host(exec, G, distance);
    Kokkos::View<ordinal_type*, device_type> colors(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ordering::colors"),
        std::size_t(n));
    const auto ticket = scratch.zeros<unsigned, device_type>("syncfree::ordering::ticket", 1);
    const cudaStream_t stream = exec.cuda_stream();
    cudaMemsetAsync(colors.data(), 0xFF, sizeof(ordinal_type) * std::size_t(n), stream);
    const cuda::ColorRounds<ordinal_type, offset_type> op{lower.map.data(), lower.columns.data(),
                                                          colors.data(), ticket.data(), n};
    cuda::launch_sync_free_rounds(op, long(lower.longest), stream);
    cuda::require_launched("the greedy coloring");
    return colors;
  }
};

}  // namespace syncfree::impl

#endif
