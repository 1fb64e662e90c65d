// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The pieces of an ordering: deterministic colorings of a graph, distance 1 and 2 (greedy
/// first fit), reverse Cuthill-McKee (Kokkos Kernels', on the host), and the stable
/// grouping of items by color.

#include <Kokkos_Core.hpp>
#if KOKKOS_VERSION < 40000
// Kokkos Kernels 3.4: KokkosGraph_RCM.hpp opens namespace KokkosGraph::Experimental::Impl, where
// KokkosGraph_Distance1Color.hpp (which SpGEMM includes) then looks for Impl::GraphColor in vain;
// it must come first.
#include <KokkosGraph_Distance1Color.hpp>
#endif
#include <KokkosGraph_RCM.hpp>

#include <vector>

#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// Greedy first fit in vertex order on the host (the generic ColorGraph): every vertex takes the
/// least color that no lower-numbered vertex within `distance` steps has. O(entries) at distance
/// 1, O(sum of squared degrees) at distance 2.
template <class ExecSpace, class Graph>
Kokkos::View<typename Graph::non_const_ordinal_type*, typename Graph::device_type>
color_graph_on_host(const ExecSpace& exec, const Graph& G, int distance) {
  using ordinal_type = typename Graph::non_const_ordinal_type;
  exec.fence();
  const auto row_map = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), G.graph.row_map);
  const auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), G.graph.entries);
  Kokkos::View<ordinal_type*, typename Graph::device_type> colors(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ordering::colors"),
      std::size_t(G.numRows()));
  const auto host = Kokkos::create_mirror_view(colors);
  std::vector<ordinal_type> taken;  // taken[c] == v + 1: an earlier vertex near v has color c
  const auto take = [&](ordinal_type v, ordinal_type u) {
    if (u >= v) return;
    const ordinal_type c = host(u);
    if (std::size_t(c) >= taken.size()) taken.resize(std::size_t(c) + 1, 0);
    taken[std::size_t(c)] = v + 1;
  };
  for (ordinal_type v = 0; v < G.numRows(); ++v) {
    for (auto k = row_map(v); k < row_map(v + 1); ++k) {
      const ordinal_type u = entries(k);
      take(v, u);
      if (distance == 2)
        for (auto l = row_map(u); l < row_map(u + 1); ++l) take(v, entries(l));
    }
    ordinal_type c = 0;
    while (std::size_t(c) < taken.size() && taken[std::size_t(c)] == v + 1) ++c;
    host(v) = c;
  }
  Kokkos::deep_copy(exec, colors, host);
  return colors;
}

/// The coloring of color_graph on `ExecSpace`: on the host here; CUDA runs distance 1 sync-free
/// on the device (cuda/syncfree_ordering_coloring_cuda.hpp).
template <class ExecSpace>
struct ColorGraph {
  template <class Graph>
  static auto color(const ExecSpace& exec, const Graph& G, int distance) {
    return color_graph_on_host(exec, G, distance);
  }
};

/// Colors of a symmetric graph without self loops, rows sorted, 0-based: vertices within
/// `distance` (1 or 2) steps of each other never share one. Greedy first fit in vertex order:
/// every vertex takes the least color that no lower-numbered vertex that near has, so the colors
/// depend only on the graph (every run and backend gives the same). Kokkos Kernels 3.4's
/// deterministic colorings (VBD, VBDBIT) grew quadratically on stars and dense graphs and left
/// small graphs uncolored (the commit that replaced them says how).
template <class ExecSpace, class Graph>
Kokkos::View<typename Graph::non_const_ordinal_type*, typename Graph::device_type> color_graph(
    const ExecSpace& exec, const Graph& G, int distance = 1) {
  return ColorGraph<ExecSpace>::color(exec, G, distance);
}

/// Reverse Cuthill-McKee of a symmetric graph, as `perm(new) = old`.
template <class Graph>
std::vector<typename Graph::non_const_ordinal_type> reverse_cuthill_mckee(const Graph& G) {
  using ordinal_type = typename Graph::non_const_ordinal_type;
  std::vector<ordinal_type> perm(static_cast<std::size_t>(G.numRows()));
  if (G.numRows() == 0) return perm;
  // Kokkos Kernels returns each vertex's new label.
  const auto labels = KokkosGraph::Experimental::graph_rcm<typename Graph::device_type>(
      G.graph.row_map, G.graph.entries);
  const auto host_labels = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), labels);
  for (ordinal_type old = 0; old < G.numRows(); ++old) perm[std::size_t(host_labels(old))] = old;
  return perm;
}

/// Items grouped by color on the host (a color for each item in host memory), ascending color,
/// each group in ascending item order; `color_begin` gets where each color starts (size colors +
/// 1).
template <class Colors, class Ordinal>
std::vector<Ordinal> group_by_color(const Colors& colors, Ordinal items,
                                    std::vector<Ordinal>& color_begin) {
  Ordinal num_colors = 0;
  for (Ordinal i = 0; i < items; ++i) num_colors = std::max(num_colors, Ordinal(colors(i) + 1));
  color_begin.assign(std::size_t(num_colors) + 1, 0);
  for (Ordinal i = 0; i < items; ++i) ++color_begin[std::size_t(colors(i)) + 1];
  for (std::size_t c = 0; c < std::size_t(num_colors); ++c) color_begin[c + 1] += color_begin[c];
  std::vector<Ordinal> next(color_begin.begin(), color_begin.end() - 1);
  std::vector<Ordinal> grouped(static_cast<std::size_t>(items));
  for (Ordinal i = 0; i < items; ++i) grouped[std::size_t(next[std::size_t(colors(i))]++)] = i;
  return grouped;
}

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "algorithms/ordering/cuda/syncfree_ordering_coloring_cuda.hpp"
#endif
