// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The pattern of ILU(k), k >= 1, on the device, by fill paths: entry (i, j) has level of
/// fill l exactly when the shortest path from i to j in the graph of A whose interior vertices
/// all lie below min(i, j) has l + 1 edges (Rose, Tarjan & Lueker 1976; for ILU(k), Hysom &
/// Pothen 2001). So the U part of row i is what a breadth-first search from i reaches above i,
/// passing only through vertices below i, within k + 1 edges; the L part of column j is the same
/// search from j in the transposed graph. Every search is independent of every other, unlike the
/// row merge of syncfree_ilu_symbolic.hpp, whose rows wait on each other in a chain as long as
/// the matrix.
///
/// A search keeps its vertices in a per-thread scratch hash table of fixed size; a search that
/// would outgrow it (dense rows, large k) makes the function report failure, and the caller
/// computes the pattern on the host instead.

#include <cstdint>
#include <string>

#include "core/impl/syncfree_crs_build.hpp"
#include "core/syncfree_sort.hpp"
#include "core/syncfree_types.hpp"
#include "core/syncfree_validation.hpp"

namespace syncfree::impl {

/// Vertices one search may visit (its hash table holds twice as many slots).
inline constexpr int fill_path_capacity = 128;

/// Per-thread workspace of a search: a queue of the vertices to expand with their depths, and an
/// open-addressing set of the vertices seen.
struct FillPathWorkspace {
  int* queue;
  int* depth;
  int* table;
  static constexpr int table_size = 2 * fill_path_capacity;
  static constexpr int ints = 2 * fill_path_capacity + table_size;

  /// Adds `v` to the set: true when it was not there. `full` is set when the set is full.
  KOKKOS_INLINE_FUNCTION bool insert(int v, int& size, bool& full) const {
    int h = int((std::uint32_t(v) * 2654435761u) & std::uint32_t(table_size - 1));
    while (table[h] != -1) {
      if (table[h] == v) return false;
      h = (h + 1) & (table_size - 1);
    }
    if (size == fill_path_capacity) {  // at most half full
      full = true;
      return false;
    }
    table[h] = v;
    ++size;
    return true;
  }
};

/// Breadth-first search from `source` through vertices below it, at most k + 1 edges; calls
/// reached(t) once for every vertex t above `source` it reaches (its level of fill, one less than
/// the edges of the shortest such path, is at most k by construction). Returns false when the
/// workspace was too small (then the calls made are incomplete).
template <class RowMap, class Entries, class Reached>
KOKKOS_INLINE_FUNCTION bool fill_path_search(const RowMap& row_map, const Entries& entries,
                                             int source, int k, const FillPathWorkspace& w,
                                             const Reached& reached) {
  for (int h = 0; h < FillPathWorkspace::table_size; ++h) w.table[h] = -1;
  int size = 0, head = 0, tail = 0;
  bool full = false;
  w.insert(source, size, full);
  w.queue[tail] = source;
  w.depth[tail++] = 0;
  while (head < tail) {
    const int v = w.queue[head], d = w.depth[head++];
    for (auto e = row_map(v); e < row_map(v + 1); ++e) {
      const int u = int(entries(e));
      if (!w.insert(u, size, full)) {
        if (full) return false;
        continue;
      }
      if (u > source) {
        reached(u);
      } else if (d + 1 <= k) {  // an interior vertex, with an edge left to reach an endpoint
        w.queue[tail] = u;      // tail < size <= fill_path_capacity: the set bounds the queue
        w.depth[tail++] = d + 1;
      }
    }
  }
  return true;
}

/// Runs `body(source, workspace)` for every vertex, each thread with its own scratch workspace;
/// returns false when some call returned false.
template <class ExecSpace, class Body>
bool for_each_fill_path_source(const ExecSpace& exec, const char* label, int n, const Body& body) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Scratch = Kokkos::View<int*, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const int team_size = host ? 1 : 32;
  int failures = 0;
  if (n == 0) return true;
  Kokkos::parallel_reduce(
      label,
      Policy(exec, (n + team_size - 1) / team_size, team_size)
          .set_scratch_size(1, Kokkos::PerThread(Scratch::shmem_size(FillPathWorkspace::ints))),
      KOKKOS_LAMBDA(const Member& member, int& failed) {
        Scratch scratch(member.thread_scratch(1), FillPathWorkspace::ints);
        const FillPathWorkspace w{scratch.data(), scratch.data() + fill_path_capacity,
                                  scratch.data() + 2 * fill_path_capacity};
        const int first = member.league_rank() * member.team_size();
        Kokkos::parallel_for(
            Kokkos::TeamThreadRange(
                member, first, first + member.team_size() < n ? first + member.team_size() : n),
            [&](const int source) {
              if (!body(source, w)) failed += 1;
            });
      },
      failures);
  return failures == 0;
}

/// Row pointers (`row_map`, n + 1) and sorted columns (`entries`, allocated here) of the ILU(k)
/// pattern of A (square, sorted unique columns, diagonal stored: validated by the caller), or
/// false when a search outgrew its workspace.
template <class ExecSpace, class Matrix, class RowMap, class Entries>
bool iluk_symbolic_device(const ExecSpace& exec, const Matrix& A, int k, const RowMap& row_map,
                          Entries& entries) {
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  static_assert(sizeof(typename Matrix::non_const_ordinal_type) == sizeof(int),
                "the fill-path searches hold vertices as int");
  const int n = A.numRows();
  const auto a_map = A.graph.row_map;
  const auto a_entries = A.graph.entries;

  const auto T = transpose_pattern(
      exec, "syncfree::iluk::transpose", A, KOKKOS_LAMBDA(const int, const int) { return true; });
  const auto t_map = T.graph.row_map;
  const auto t_entries = T.graph.entries;
  Kokkos::View<offset_type*, device_type> cursor("syncfree::iluk::cursor", n);

  // Counts: U entries of each row from its own search, L entries from every column's search.
  Kokkos::View<offset_type*, device_type> upper("syncfree::iluk::upper", n),
      lower("syncfree::iluk::lower", n);
  const bool counted =
      for_each_fill_path_source(
          exec, "syncfree::iluk::count_upper", n,
          KOKKOS_LAMBDA(const int s, const FillPathWorkspace& w) {
            offset_type count = 0;
            const bool ok = fill_path_search(a_map, a_entries, s, k, w, [&](int) { ++count; });
            upper(s) = count;
            return ok;
          }) &&
      for_each_fill_path_source(
          exec, "syncfree::iluk::count_lower", n,
          KOKKOS_LAMBDA(const int s, const FillPathWorkspace& w) {
            return fill_path_search(t_map, t_entries, s, k, w,
                                    [&](int t) { Kokkos::atomic_add(&lower(t), offset_type(1)); });
          });
  if (!counted) return false;

  std::int64_t entries_total = 0;
  Kokkos::parallel_reduce(
      "syncfree::iluk::row_counts", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const int i, std::int64_t& sum) {
        row_map(i + 1) = lower(i) + 1 + upper(i);
        sum += std::int64_t(lower(i)) + 1 + std::int64_t(upper(i));
      },
      entries_total);
  require_fits<offset_type>(entries_total, "ilu_analyze: the ILU(k) factors", "entries", "offset");
  Kokkos::deep_copy(exec, Kokkos::subview(row_map, 0), offset_type(0));
  const offset_type total = counts_to_offsets(exec, row_map);
  entries = Entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("syncfree::ilu::entries")),
      total);
  const auto out = entries;
  for_each_fill_path_source(
      exec, "syncfree::iluk::fill_upper", n,
      KOKKOS_LAMBDA(const int s, const FillPathWorkspace& w) {
        const offset_type diagonal = row_map(s) + lower(s);
        out(diagonal) = s;
        offset_type next = diagonal + 1;
        return fill_path_search(a_map, a_entries, s, k, w, [&](int t) { out(next++) = t; });
      });
  for_each_fill_path_source(
      exec, "syncfree::iluk::fill_lower", n,
      KOKKOS_LAMBDA(const int s, const FillPathWorkspace& w) {
        return fill_path_search(t_map, t_entries, s, k, w, [&](int t) {
          out(row_map(t) + Kokkos::atomic_fetch_add(&cursor(t), offset_type(1))) = s;
        });
      });

  // The searches list each row's columns out of order: sort them (the values are a dummy).
  typename Matrix::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("syncfree::iluk::values")),
      total);
  sort_rows(exec, make_crs<Matrix>("syncfree::iluk::pattern", n, n, row_map, entries, values));
  return true;
}

}  // namespace syncfree::impl
