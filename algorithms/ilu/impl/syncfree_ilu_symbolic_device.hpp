// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The pattern of ILU(k), k >= 1, on the device: the level-of-fill symbolic factorization
/// of syncfree_ilu_symbolic.hpp run sync-free, a team (on GPUs a warp) per row.
///
/// Row i starts from A's row (level 0) and, for each of its entries m < i in column order,
/// fill included, merges the U part of row m: column j > m enters at level lev(i,m) + lev(m,j) + 1
/// when that is at most k, or lowers the level of an entry already there. Row m must be finished
/// first. Rows are claimed through an atomic ticket in row order, a topological order of the
/// factors' L (every L entry of row i names a smaller row), so a row only waits on rows claimed
/// earlier by running teams: the forward-progress argument of the sync-free ILU kernels
/// (syncfree_ilu_factor_vector.hpp). A finished row lies in a pool, placed by an atomic cursor,
/// and is published as in the numeric kernels: every lane's release fence, a barrier, a relaxed
/// store of its flag; a waiter polls the flag and fences before reading.
///
/// A row works in team scratch of a fixed capacity. When a row would outgrow it, or the pool
/// would overflow, the row is published as poisoned (rows that need it poison themselves in
/// turn, so nothing waits forever) and the function reports failure: the caller then enlarges
/// the pool, or falls back to the host for rows too long for the scratch.

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "algorithms/ilu/impl/syncfree_ilu_row.hpp"
#include "core/impl/syncfree_crs_build.hpp"

namespace syncfree::impl {

template <class ExecSpace, class Matrix>
struct IlukSymbolicRows {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using device_type = typename Matrix::device_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Scratch = Kokkos::View<int*, typename ExecSpace::scratch_memory_space,
                               Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static_assert(sizeof(ordinal_type) == sizeof(int), "the scratch holds columns as int");

  typename Matrix::row_map_type a_row_map;
  typename Matrix::index_type a_entries;
  Kokkos::View<offset_type*, device_type> start;  ///< by row: where it lies in the pool
  Kokkos::View<int*, device_type> count;          ///< by row: entries; -1 poisoned
  Kokkos::View<int*, device_type> diagonal;       ///< by row: position of the diagonal in it
  Kokkos::View<int*, device_type> finished;
  Kokkos::View<ordinal_type*, device_type> pool_columns;
  Kokkos::View<int*, device_type> pool_levels;
  Kokkos::View<offset_type, device_type> cursor;
  Kokkos::View<int, device_type> failed;  ///< 1: a row outgrew the scratch; 2: the pool
  Kokkos::View<std::uint32_t, device_type> ticket;
  int fill_level;
  int capacity;  ///< entries a row may hold in scratch

  static std::size_t scratch_bytes(int capacity) {
    return Scratch::shmem_size(4 * std::size_t(capacity) + 3);
  }

  /// First position in [low, high) of the sorted columns whose column is >= j.
  KOKKOS_INLINE_FUNCTION static int lower_bound(const int* columns, int low, int high, int j) {
    while (low < high) {
      const int mid = low + (high - low) / 2;
      if (columns[mid] < j)
        low = mid + 1;
      else
        high = mid;
    }
    return low;
  }

  /// By one lane: sorts the new entries and merges them into positions after `pos`.
  KOKKOS_INLINE_FUNCTION static void merge(int* columns, int* levels, int r, int* new_columns,
                                           int* new_levels, int added) {
    for (int a = 1; a < added; ++a) {  // insertion sort: a row's fill from one pivot row is short
      const int c = new_columns[a], l = new_levels[a];
      int b = a;
      for (; b > 0 && new_columns[b - 1] > c; --b) {
        new_columns[b] = new_columns[b - 1];
        new_levels[b] = new_levels[b - 1];
      }
      new_columns[b] = c;
      new_levels[b] = l;
    }
    // From the back: every new column is above the pivot's, so the merge never passes `pos`.
    int out = r + added - 1, old = r - 1;
    for (int a = added - 1; a >= 0; --a) {
      while (old >= 0 && columns[old] > new_columns[a]) {
        columns[out] = columns[old];
        levels[out--] = levels[old--];
      }
      columns[out] = new_columns[a];
      levels[out--] = new_levels[a];
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    Scratch scratch(member.team_scratch(1), 4 * std::size_t(capacity) + 3);
    int* columns = scratch.data();
    int* levels = columns + capacity;
    int* new_columns = levels + capacity;
    int* new_levels = new_columns + capacity;
    int* shared = new_levels + capacity;  // [0] the row, [1] new entries, [2] the row failed

    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      shared[0] = int(Kokkos::atomic_fetch_add(&ticket(), 1u));
      shared[2] = 0;
    });
    member.team_barrier();
    const ordinal_type i = shared[0];
    const offset_type a_begin = a_row_map(i);
    int r = int(a_row_map(i + 1) - a_begin);
    bool poisoned = r > capacity;
    if (!poisoned) {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(member, r), [&](const int t) {
        columns[t] = int(a_entries(a_begin + t));
        levels[t] = 0;
      });
    }
    member.team_barrier();

    int pos = 0;
    while (!poisoned && pos < r && columns[pos] < i) {
      const int m = columns[pos], level_m = levels[pos];
      if (level_m + 1 <= fill_level) {
        while (atomic_load_relaxed(&finished(m)) == 0) spin_pause();
        acq_rel_fence();
        if (count(m) < 0) {
          poisoned = true;
          break;
        }
        const offset_type u_begin = start(m) + diagonal(m) + 1, u_end = start(m) + count(m);
        Kokkos::single(Kokkos::PerTeam(member), [&]() { shared[1] = 0; });
        member.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamVectorRange(member, int(u_end - u_begin)),
                             [&](const int t) {
                               const int j = int(pool_columns(u_begin + t));
                               const int candidate = level_m + pool_levels(u_begin + t) + 1;
                               if (candidate > fill_level) return;
                               const int q = lower_bound(columns, pos + 1, r, j);
                               if (q < r && columns[q] == j) {
                                 Kokkos::atomic_fetch_min(&levels[q], candidate);
                               } else {
                                 const int slot = Kokkos::atomic_fetch_add(&shared[1], 1);
                                 if (slot < capacity) {
                                   new_columns[slot] = j;
                                   new_levels[slot] = candidate;
                                 }
                               }
                             });
        member.team_barrier();
        const int added = shared[1];
        if (r + added > capacity) {
          poisoned = true;
          break;
        }
        if (added > 0) {
          Kokkos::single(Kokkos::PerTeam(member),
                         [&]() { merge(columns, levels, r, new_columns, new_levels, added); });
          member.team_barrier();
          r += added;
        }
      }
      ++pos;
    }

    // Poisoned rows publish too, so that rows waiting on them move on.
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      if (poisoned) {
        Kokkos::atomic_fetch_max(&failed(), 1);
        shared[2] = 1;
        return;
      }
      const offset_type first = Kokkos::atomic_fetch_add(&cursor(), offset_type(r));
      if (first + r > offset_type(pool_columns.extent(0))) {
        Kokkos::atomic_fetch_max(&failed(), 2);
        shared[2] = 1;
        return;
      }
      start(i) = first;
      diagonal(i) = pos;  // the loop stops at the first column >= i: the stored diagonal
    });
    member.team_barrier();
    const bool failed_row = shared[2] != 0;
    if (!failed_row) {
      const offset_type first = start(i);
      Kokkos::parallel_for(Kokkos::TeamVectorRange(member, r), [&](const int t) {
        pool_columns(first + t) = ordinal_type(columns[t]);
        pool_levels(first + t) = levels[t];
      });
    }
    acq_rel_fence();
    member.team_barrier();
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      count(i) = failed_row ? -1 : r;
      acq_rel_fence();
      atomic_store_relaxed(&finished(i), 1);
    });
  }
};

/// Entries one row of the pattern may hold in the device symbolic's scratch (16 KiB a row);
/// longer rows send the pattern to the host.
inline constexpr int iluk_row_capacity = 1024;

/// What `iluk_symbolic_device` reports.
enum class IlukSymbolicStatus { done, row_too_long, pool_full };

/// Row pointers and sorted columns of the ILU(k) pattern of A (square, sorted unique columns,
/// diagonal stored: validated by the caller), into `row_map` (n + 1) and `entries` (allocated
/// here). `pool_entries` bounds the pattern's size; `row_capacity` the entries of one row.
template <class ExecSpace, class Matrix, class RowMap, class Entries>
IlukSymbolicStatus iluk_symbolic_device(const ExecSpace& exec, const Matrix& A, int fill_level,
                                        std::size_t pool_entries, int row_capacity,
                                        const RowMap& row_map, Entries& entries) {
  using Rows = IlukSymbolicRows<ExecSpace, Matrix>;
  using ordinal_type = typename Rows::ordinal_type;
  using offset_type = typename Rows::offset_type;
  using device_type = typename Rows::device_type;
  const ordinal_type n = A.numRows();
  // The cursor counts in offsets: a pool beyond them reports "full" instead of wrapping around.
  pool_entries = std::min<std::size_t>(pool_entries, std::numeric_limits<offset_type>::max());
  const auto alloc = [](const std::string& label) {
    return Kokkos::view_alloc(Kokkos::WithoutInitializing, label);
  };
  Rows rows{
      A.graph.row_map,
      A.graph.entries,
      Kokkos::View<offset_type*, device_type>(alloc("syncfree::iluk::start"), n),
      Kokkos::View<int*, device_type>(alloc("syncfree::iluk::count"), n),
      Kokkos::View<int*, device_type>(alloc("syncfree::iluk::diagonal"), n),
      Kokkos::View<int*, device_type>("syncfree::iluk::finished", n),
      Kokkos::View<ordinal_type*, device_type>(alloc("syncfree::iluk::pool_columns"), pool_entries),
      Kokkos::View<int*, device_type>(alloc("syncfree::iluk::pool_levels"), pool_entries),
      Kokkos::View<offset_type, device_type>("syncfree::iluk::cursor"),
      Kokkos::View<int, device_type>("syncfree::iluk::failed"),
      Kokkos::View<std::uint32_t, device_type>("syncfree::iluk::ticket"),
      fill_level,
      row_capacity};
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  if (n > 0) {
    Kokkos::parallel_for(
        "syncfree::ilu::symbolic",
        typename Rows::Policy(exec, n, 1, host ? 1 : 32)
            .set_scratch_size(1, Kokkos::PerTeam(Rows::scratch_bytes(row_capacity))),
        rows);
  }
  exec.fence();
  int failed = 0;
  Kokkos::deep_copy(failed, rows.failed);
  if (failed == 1) return IlukSymbolicStatus::row_too_long;
  if (failed == 2) return IlukSymbolicStatus::pool_full;

  const auto count = rows.count;
  Kokkos::parallel_for(
      "syncfree::iluk::counts", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) { row_map(i + 1) = offset_type(count(i)); });
  Kokkos::deep_copy(exec, Kokkos::subview(row_map, 0), offset_type(0));
  const offset_type total = counts_to_offsets(exec, row_map);
  entries = Entries(alloc("syncfree::ilu::entries"), total);
  const auto start = rows.start;
  const auto pool = rows.pool_columns;
  const auto out = entries;
  Kokkos::parallel_for(
      "syncfree::iluk::gather", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        for (offset_type t = 0; t < row_map(i + 1) - row_map(i); ++t)
          out(row_map(i) + t) = pool(start(i) + t);
      });
  return IlukSymbolicStatus::done;
}

}  // namespace syncfree::impl
