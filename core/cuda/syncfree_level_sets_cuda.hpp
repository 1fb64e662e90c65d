// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Level computation on CUDA: the operation "level = max over dependencies of level + 1"
/// run by the sync-free engine (syncfree_sync_free_rounds.hpp) in natural order: row order for a
/// lower triangle, reverse row order for an upper one, both topological. One count / scan / fill
/// pass first lists each row's dependencies as positions, keeping only entries of the triangle,
/// so no input can make a position wait on a later one. Callers with lists of their own (the
/// chain-segment graph) run the pass on them directly, and guarantee the same.

#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDACC__)

#include <cstdint>

#include "core/cuda/syncfree_cuda_launch.hpp"
#include "core/cuda/syncfree_sync_free_rounds.hpp"
#include "core/impl/syncfree_crs_build.hpp"
#include "core/impl/syncfree_device_scratch.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree::impl::cuda {

template <class Ordinal, class Offset>
struct LevelRounds {
  using value_type = Ordinal;
  using coefficient_type = Ordinal;  // unused: a level needs no coefficient
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  /// Up to 256 ns: row order puts a dependency chain through every warp, so most warps wait long,
  /// and the pass ran faster than with a fixed 32 ns. The same backoff made the level-ordered solve
  /// slower, so the solve keeps 32 ns.
  static constexpr unsigned max_backoff_ns = 256;
  static constexpr bool chain_links = true;
  struct Row {
    Ordinal row, level;
  };
  /// x -> max(a, x + b). A chain position is max(its level so far, x + 1).
  struct Link {
    Ordinal a, b;
  };

  const Offset* row_map;   // dependencies of each position
  const Ordinal* columns;  // as positions
  Ordinal* level;          // by row
  Ordinal* work;           // by position, all-ones (-1) until computed
  unsigned* ticket;
  Ordinal n;
  bool lower;
  /// No limit: a grid in row order needs many waiting positions to keep each level busy.
  static constexpr int blocks_per_sm = 0;

  __device__ Row start(Ordinal p, Offset& begin, Offset& end) const {
    begin = row_map[p];
    end = row_map[p + 1];
    return {lower ? p : n - 1 - p, 0};
  }
  __device__ Ordinal dependency(Offset k) const { return columns[k]; }
  __device__ Ordinal coefficient(Offset) const { return 0; }
  __device__ static void combine(Row& r, Ordinal, Ordinal dependency_level) {
    if (dependency_level + 1 > r.level) r.level = dependency_level + 1;
  }
  __device__ static Link chain_link(const Row& r, Ordinal) { return {r.level, 1}; }
  __device__ static Link compose(const Link& later, const Link& earlier) {
    const Ordinal shifted = earlier.a + later.b;
    return {later.a > shifted ? later.a : shifted, earlier.b + later.b};
  }
  /// So negative that it stays below every level when up to 31 is added.
  __device__ static Ordinal chain_zero() { return Ordinal(-(Ordinal(1) << 29)); }
  __device__ static bool chain_usable(Ordinal) { return true; }
  __device__ Ordinal finish(const Row& r) const { return r.level; }  // >= 0: never all-ones
  __device__ void write(Ordinal, const Row& r, Ordinal value) const { level[r.row] = value; }
};

}  // namespace syncfree::impl::cuda

namespace syncfree::impl {

template <>
struct ComputeListLevels<Kokkos::Cuda> {
  /// `lower`: whether position p holds row p (else row n - 1 - p); `level` is by row.
  template <class Map, class Columns, class LevelView>
  static void compute(const Kokkos::Cuda& exec, const Map& map, const Columns& columns,
                      long longest, const LevelView& level, bool lower = true) {
    using ordinal_type = typename Columns::non_const_value_type;
    using offset_type = typename Map::non_const_value_type;
    using device_type = typename LevelView::device_type;
    const ordinal_type n = ordinal_type(map.extent(0)) - 1;
    if (n <= 0) return;
    DeviceScratch<Kokkos::Cuda> scratch(exec);
    const auto work =
        scratch.uninitialized<ordinal_type, device_type>("syncfree::level_sets::work", n);
    const auto ticket = scratch.zeros<unsigned, device_type>("syncfree::level_sets::ticket", 1);
    const cudaStream_t stream = exec.cuda_stream();
    cudaMemsetAsync(work.data(), 0xFF, sizeof(ordinal_type) * std::size_t(n), stream);
    const cuda::LevelRounds<ordinal_type, offset_type> op{
        map.data(), columns.data(), level.data(), work.data(), ticket.data(), n, lower};
    cuda::launch_sync_free_rounds(op, longest, stream);
    cuda::require_launched("level sets");
  }
};

/// The dependencies of each position of a triangle of A, as lists of positions (position p holds
/// row p of a lower triangle, row n - 1 - p of an upper one), from `scratch`: one count / scan /
/// fill pass keeping only entries of the triangle, the farthest dependency first in both
/// triangles (the engine takes a position's dependencies in list order, and the far ones are the
/// ones most likely done already), and the longest list.
template <class Offset, class Ordinal, class Device>
struct DependencyLists {
  Kokkos::View<Offset*, Device> map;
  Kokkos::View<Ordinal*, Device> columns;
  Offset longest = 0;
};

template <class Matrix>
DependencyLists<typename Matrix::non_const_size_type, typename Matrix::non_const_ordinal_type,
                typename Matrix::device_type>
triangle_dependency_lists(const Kokkos::Cuda& exec, const Matrix& A, Triangle triangle,
                          DeviceScratch<Kokkos::Cuda>& scratch) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  const ordinal_type n = A.numRows();
  const bool lower = triangle == Triangle::lower;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  DependencyLists<offset_type, ordinal_type, device_type> lists;
  lists.map = scratch.zeros<offset_type, device_type>("syncfree::level_sets::dep_map", n + 1);
  const auto dep_map = lists.map;
  Kokkos::parallel_for(
      "syncfree::level_sets::count", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const ordinal_type row = lower ? p : n - 1 - p;
        offset_type count = 0;
        for (auto k = row_map(row); k < row_map(row + 1); ++k) {
          const ordinal_type j = entries(k);
          count += (lower ? (j >= 0 && j < row) : (j > row && j < n)) ? 1 : 0;
        }
        dep_map(p + 1) = count;
      });
  lists.longest = longest_count(exec, dep_map);
  const offset_type total = counts_to_offsets(exec, dep_map);
  lists.columns =
      scratch.uninitialized<ordinal_type, device_type>("syncfree::level_sets::dep_columns", total);
  const auto dep_columns = lists.columns;
  Kokkos::parallel_for(
      "syncfree::level_sets::fill", Kokkos::RangePolicy<Kokkos::Cuda>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type p) {
        const ordinal_type row = lower ? p : n - 1 - p;
        // Row order is ascending, so an upper row's list is reversed.
        offset_type out = lower ? dep_map(p) : dep_map(p + 1);
        for (auto k = row_map(row); k < row_map(row + 1); ++k) {
          const ordinal_type j = entries(k);
          if (lower && j >= 0 && j < row) dep_columns(out++) = j;
          if (!lower && j > row && j < n) dep_columns(--out) = n - 1 - j;
        }
      });
  return lists;
}

template <class Matrix>
struct ComputeLevels<Kokkos::Cuda, Matrix> {
  template <class LevelView>
  static void compute(const Kokkos::Cuda& exec, const Matrix& A, Triangle triangle,
                      const LevelView& level) {
    if (A.numRows() == 0) return;
    DeviceScratch<Kokkos::Cuda> scratch(exec);
    const auto lists = triangle_dependency_lists(exec, A, triangle, scratch);
    ComputeListLevels<Kokkos::Cuda>::compute(exec, lists.map, lists.columns, long(lists.longest),
                                             level, triangle == Triangle::lower);
  }
};

}  // namespace syncfree::impl

#endif
