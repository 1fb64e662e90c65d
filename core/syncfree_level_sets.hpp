// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Level-set analysis of a triangular dependency graph, computed on the device.
///
/// Row i of a lower (upper) triangle depends on every row j < i (j > i) it stores an entry for. Its
/// level is 0 when it has no such dependency and otherwise 1 + the largest level of its
/// dependencies. Rows of one level are mutually independent; the number of levels is the length of
/// the longest dependency chain, the critical path of every triangular solve and factorization.

#include <cstdint>

#include "core/impl/syncfree_device_scan.hpp"
#include "core/impl/syncfree_device_scratch.hpp"
#include "core/impl/syncfree_device_sort.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree {

/// Levels of a triangular matrix and the rows ordered by level. `compute_level_sets` gives each
/// row its earliest level; consumers rely only on a row's dependencies lying on earlier levels.
template <class Ordinal, class Device>
struct LevelSets {
  using view_type = Kokkos::View<Ordinal*, Device>;
  view_type level;  ///< level of each row
  view_type
      level_ptr;    ///< size num_levels + 1; level l holds order(level_ptr(l) .. level_ptr(l+1)-1)
  view_type order;  ///< rows sorted by level, ascending row index within a level
  Ordinal num_levels = 0;
  Ordinal max_level_size = 0;  ///< rows in the widest level
};

namespace impl {

/// Computes each row's level in one sync-free pass. Work is claimed through an atomic ticket in
/// topological order (row order for lower, reverse row order for upper), and a row only waits on
/// rows with earlier tickets: those were claimed by units that are already running and that wait,
/// in turn, only on earlier tickets, so the earliest unfinished ticket always progresses (host
/// backends; CUDA runs the specialization in core/cuda/syncfree_level_sets_cuda.hpp). Entries
/// outside the triangle and out-of-range columns are skipped, so no input can make a row wait
/// forever.
///
/// A level is its own ready flag (-1 until written), published with one relaxed atomic store: no
/// other data travels with it, so no fence is needed.
template <class Ordinal, class RowMap, class Entries, class LevelView, class TicketView>
struct LevelFunctor {
  RowMap row_map;
  Entries entries;
  LevelView level;
  TicketView ticket;
  Ordinal n;
  bool lower;

  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal) const {
    const Ordinal t = Kokkos::atomic_fetch_add(&ticket(), Ordinal(1));
    const Ordinal row = lower ? t : n - 1 - t;
    Ordinal row_level = 0;
    for (auto k = row_map(row); k < row_map(row + 1); ++k) {
      const Ordinal j = entries(k);
      const bool dependency = lower ? (j >= 0 && j < row) : (j > row && j < n);
      if (!dependency) continue;
      Ordinal lj;
      for (int spins = 0; (lj = atomic_load_relaxed(&level(j))) < 0;) host_spin_pause(spins);
      if (lj + 1 > row_level) row_level = lj + 1;
    }
    atomic_store_relaxed(&level(row), row_level);
  }
};

/// Fills `level` (all -1 on entry) with the level of each position 0..n-1 of the dependency lists
/// `map` / `columns` (n + 1 offsets; each entry a position). Every entry must be an earlier
/// position: the CUDA specialization (cuda/syncfree_level_sets_cuda.hpp) busy-waits on each one.
/// `longest`: at least the longest list. Primary template: the generic functor above.
template <class ExecSpace, class Enable = void>
struct ComputeListLevels {
  template <class Map, class Columns, class LevelView>
  static void compute(const ExecSpace& exec, const Map& map, const Columns& columns, long,
                      const LevelView& level) {
    using ordinal_type = typename Columns::non_const_value_type;
    const ordinal_type n = ordinal_type(map.extent(0)) - 1;
    Kokkos::View<ordinal_type, typename LevelView::device_type> ticket("syncfree::level_ticket");
    using Functor = LevelFunctor<ordinal_type, Map, Columns, LevelView, decltype(ticket)>;
    Kokkos::parallel_for("syncfree::level_sets::levels", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
                         Functor{map, columns, level, ticket, n, true});
  }
};

/// Fills `level` (all -1 on entry) with the level of every row. Primary template: the generic
/// functor above, one row per iteration; CUDA specializes it (cuda/syncfree_level_sets_cuda.hpp).
template <class ExecSpace, class Matrix, class Enable = void>
struct ComputeLevels {
  template <class LevelView>
  static void compute(const ExecSpace& exec, const Matrix& A, Triangle triangle,
                      const LevelView& level) {
    using ordinal_type = typename Matrix::non_const_ordinal_type;
    Kokkos::View<ordinal_type, typename Matrix::device_type> ticket("syncfree::level_ticket");
    using Functor = LevelFunctor<ordinal_type, typename Matrix::row_map_type,
                                 typename Matrix::index_type, LevelView, decltype(ticket)>;
    Kokkos::parallel_for("syncfree::level_sets::levels",
                         Kokkos::RangePolicy<ExecSpace>(exec, 0, A.numRows()),
                         Functor{A.graph.row_map, A.graph.entries, level, ticket, A.numRows(),
                                 triangle == Triangle::lower});
  }
};

}  // namespace impl

/// Level sets from each row's level (all >= 0): the rows per level and the rows ordered by
/// (level, row). `level` becomes the result's `level`; the others come from `scratch` when given
/// (impl/syncfree_device_scratch.hpp).
template <class ExecSpace, class LevelView>
LevelSets<typename LevelView::non_const_value_type, typename LevelView::device_type>
level_sets_from_levels(const ExecSpace& exec, const LevelView& level_of_row,
                       impl::DeviceScratch<ExecSpace>* scratch = nullptr) {
  using ordinal_type = typename LevelView::non_const_value_type;
  using device_type = typename LevelView::device_type;
  using Result = LevelSets<ordinal_type, device_type>;
  using view_type = typename Result::view_type;
  const ordinal_type n = ordinal_type(level_of_row.extent(0));
  Result result;
  result.level = level_of_row;
  if (n == 0) {
    result.level_ptr =
        impl::zero_array<ordinal_type, device_type>(scratch, "syncfree::level_ptr", 1);
    result.order = view_type("syncfree::level_order", 0);
    return result;
  }
  const auto level = result.level;
  ordinal_type max_level = 0;
  Kokkos::parallel_reduce(
      "syncfree::level_sets::max_level", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, ordinal_type& m) {
        if (level(i) > m) m = level(i);
      },
      Kokkos::Max<ordinal_type>(max_level));
  result.num_levels = max_level + 1;

  // Rows per level, then their offsets.
  result.level_ptr = impl::zero_array<ordinal_type, device_type>(scratch, "syncfree::level_ptr",
                                                                 result.num_levels + 1);
  const auto level_ptr = result.level_ptr;
  Kokkos::parallel_for(
      "syncfree::level_sets::count", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        Kokkos::atomic_add(&level_ptr(level(i) + 1), ordinal_type(1));
      });
  ordinal_type widest = 0;
  Kokkos::parallel_reduce(
      "syncfree::level_sets::widest", Kokkos::RangePolicy<ExecSpace>(exec, 0, result.num_levels),
      KOKKOS_LAMBDA(const ordinal_type l, ordinal_type& m) {
        if (level_ptr(l + 1) > m) m = level_ptr(l + 1);
      },
      Kokkos::Max<ordinal_type>(widest));
  result.max_level_size = widest;
  impl::inclusive_sum_in_place(exec, level_ptr);

  // Rows ordered by (level, row): sort 64-bit keys, deterministic on every backend.
  impl::DeviceScratch<ExecSpace> temporaries(exec);
  const auto keys =
      temporaries.template uninitialized<std::int64_t, device_type>("syncfree::level_keys", n);
  Kokkos::parallel_for(
      "syncfree::level_sets::keys", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) { keys(i) = std::int64_t(level(i)) * n + i; });
  impl::sort_keys(exec, keys, std::int64_t(result.num_levels) * n - 1);
  result.order =
      impl::uninitialized_array<ordinal_type, device_type>(scratch, "syncfree::level_order", n);
  const auto order = result.order;
  Kokkos::parallel_for(
      "syncfree::level_sets::order", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type k) { order(k) = ordinal_type(keys(k) % n); });
  return result;
}

/// Computes the level sets of the given triangle of `A` on `exec`. The result's arrays come from
/// `scratch` when given (for a computation that needs them only for a while).
///
/// \pre `A` is square. Only entries of the requested triangle are read; callers validate the
/// matrix (core/syncfree_validation.hpp) before trusting the result for a solve.
template <class ExecSpace, class Matrix>
LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type> compute_level_sets(
    const ExecSpace& exec, const Matrix& A, Triangle triangle,
    impl::DeviceScratch<ExecSpace>* scratch = nullptr) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const ordinal_type n = A.numRows();
  const auto level = impl::uninitialized_array<ordinal_type, typename Matrix::device_type>(
      scratch, "syncfree::level", n);
  Kokkos::deep_copy(exec, level, ordinal_type(-1));
  if (n > 0) impl::ComputeLevels<ExecSpace, Matrix>::compute(exec, A, triangle, level);
  return level_sets_from_levels(exec, level, scratch);
}

/// The levels of `levels` in reverse: level L-1-l holds the rows of level l, still ascending.
///
/// When the matrix's pattern is structurally symmetric, these are level sets of its other
/// triangle (a dependency of row i there, a_ij != 0, is a dependent of i here, a_ji != 0, so it
/// lies on a later level here and an earlier one in reverse), found without a second level pass.
/// They are "as late as possible" levels rather than the earliest ones, with the same number of
/// levels; every level-set consumer needs only that a row's dependencies lie on earlier levels,
/// which `levels_respect_dependencies` checks for a given matrix.
template <class ExecSpace, class Ordinal, class Device>
LevelSets<Ordinal, Device> reversed_level_sets(const ExecSpace& exec,
                                               const LevelSets<Ordinal, Device>& levels) {
  using Result = LevelSets<Ordinal, Device>;
  using view_type = typename Result::view_type;
  const Ordinal n = Ordinal(levels.level.extent(0));
  const Ordinal num_levels = levels.num_levels;
  Result result;
  result.num_levels = num_levels;
  result.max_level_size = levels.max_level_size;
  result.level = view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::level"), n);
  result.level_ptr = view_type(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::level_ptr"), num_levels + 1);
  result.order =
      view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::level_order"), n);
  const auto level = levels.level;
  const auto level_ptr = levels.level_ptr;
  const auto order = levels.order;
  const auto reversed_level = result.level;
  const auto reversed_ptr = result.level_ptr;
  const auto reversed_order = result.order;
  Kokkos::parallel_for(
      "syncfree::level_sets::reverse_ptr", Kokkos::RangePolicy<ExecSpace>(exec, 0, num_levels + 1),
      KOKKOS_LAMBDA(const Ordinal m) { reversed_ptr(m) = n - level_ptr(num_levels - m); });
  // Position p, the o-th row of level l, moves to the o-th place of level L-1-l.
  Kokkos::parallel_for(
      "syncfree::level_sets::reverse", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const Ordinal p) {
        const Ordinal row = order(p);
        const Ordinal l = level(row);
        reversed_level(row) = num_levels - 1 - l;
        reversed_order(n - level_ptr(l + 1) + (p - level_ptr(l))) = row;
      });
  return result;
}

namespace impl {
/// Whether every dependency of every row i in the given triangle of A (column j < i for lower,
/// j > i for upper) has key(j) < key(i). Columns out of range count as violations.
template <class ExecSpace, class Matrix, class Key>
bool keys_respect_dependencies(const ExecSpace& exec, const Matrix& A, Triangle triangle,
                               const Key& key) {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  const ordinal_type n = A.numRows();
  if (ordinal_type(key.extent(0)) != n) return false;
  const bool lower = triangle == Triangle::lower;
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  ordinal_type violations = 0;
  Kokkos::parallel_reduce(
      "syncfree::level_sets::respect", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i, ordinal_type& count) {
        for (auto k = row_map(i); k < row_map(i + 1); ++k) {
          const ordinal_type j = entries(k);
          if (j < 0 || j >= n) {
            ++count;
          } else if ((lower ? j < i : j > i) && !(key(j) < key(i))) {
            ++count;
          }
        }
      },
      violations);
  return violations == 0;
}
}  // namespace impl

/// Whether every dependency of every row in the given triangle of A (column j < i for lower,
/// j > i for upper) lies on an earlier level than the row. Columns out of range count as
/// violations.
template <class ExecSpace, class Matrix>
bool levels_respect_dependencies(const ExecSpace& exec, const Matrix& A, Triangle triangle,
                                 const LevelSets<typename Matrix::non_const_ordinal_type,
                                                 typename Matrix::device_type>& levels) {
  return impl::keys_respect_dependencies(exec, A, triangle, levels.level);
}

/// Whether `order` (rows by position) is a topological order of the given triangle of A: a
/// permutation in which every dependency of a row comes at an earlier position. Entries out of
/// range count as violations.
template <class ExecSpace, class Matrix, class Order>
bool order_respects_dependencies(const ExecSpace& exec, const Matrix& A, Triangle triangle,
                                 const Order& order) {
  if (typename Matrix::non_const_ordinal_type(order.extent(0)) != A.numRows() ||
      !is_permutation(exec, order))
    return false;
  return impl::keys_respect_dependencies(exec, A, triangle, invert_permutation(exec, order));
}

}  // namespace syncfree

#if defined(KOKKOS_ENABLE_CUDA)
#include "core/cuda/syncfree_level_sets_cuda.hpp"
#endif
