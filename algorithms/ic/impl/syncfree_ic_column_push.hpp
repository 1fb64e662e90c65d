// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The solve with L^T on L itself (IcUpperSolve::column_push): row j of L is column j of
/// L^T, so once x_j is known each entry l_jk (k < j) subtracts l_jk x_j from row k's right-hand
/// side (an atomic add), and row k is ready when every row that feeds it has pushed. No copy of
/// L^T and no second SpTRSV plan. Two schedules:
///
/// - By levels: L's levels (the lower plan's) in reverse, one launch each. The rows of a level
///   feed only rows of lower levels, so a launch boundary is all the waiting there is. A thread
///   pushes each row of up to `long_row` products; longer rows (a power-law graph's hubs) go to a
///   second launch, 32 lanes a row: one thread would wait on a hub's loads one at a time, and
///   lanes given to every row of such a level would idle on the short ones. Taken on GPUs where
///   levels are wide (a warp's worth of rows each on average).
/// - Sync-free (the CSC form of Liu et al.'s solve, Euro-Par 2016), one launch: a thread claims
///   ticket p and takes the row at position n-1-p of the lower plan's order, a topological order
///   of L, reversed one of L^T, so every row it waits on was claimed earlier by a running thread
///   (the argument of algorithms/sptrsv/impl/syncfree_sptrsv_syncfree.hpp). A row's products go
///   out by atomic adds, then a fence, then its targets' arrival counts; a row waits for its count,
///   fences and reads its right-hand side, then sets its count back to zero: every push to it has
///   arrived, so the next solve starts from zero without a reset. Taken on host backends (Serial
///   runs the tickets in order and never waits) and on narrow levels.
///
/// The adds land in an order that varies on parallel backends: the result is not bitwise the same
/// from run to run there (IcOptions::reproducible refuses the column push).

#include <algorithm>
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/syncfree_level_sets.hpp"

namespace syncfree::impl {

template <class Matrix>
struct IcColumnPush {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using device_type = typename Matrix::device_type;

  /// The schedule: by L's levels, in the order of `rows`, else sync-free with the counters below.
  bool by_levels = false;
  /// By levels: L's level order with each level's long rows (over `long_row` products) last,
  /// from `long_begin[level]` on.
  Kokkos::View<ordinal_type*, device_type> rows;
  std::vector<ordinal_type> long_begin;
  /// Rows of more products take the 32-lane launch; shorter ones (finite-element factors' rows
  /// included) run faster on a thread each.
  static constexpr int long_row = 128;
  /// Rows a level needs on average for the launch per level (a warp's worth).
  static constexpr int rows_per_level = 32;
  /// Rows that push to each row: the entries below the diagonal in its column of L.
  Kokkos::View<unsigned*, device_type> feeders;
  /// Pushes arrived at each row in the running solve; zero between solves.
  Kokkos::View<unsigned*, device_type> arrived;
  Kokkos::View<unsigned, device_type> ticket;

  std::size_t bytes() const {
    return (feeders.span() + arrived.span()) * sizeof(unsigned) +
           rows.span() * sizeof(ordinal_type);
  }
};

/// Row j's part of the solve, for both schedules: x_j from its right-hand side as the pushes left
/// it, then x_j's products pushed to the rows j feeds.
template <class Matrix, class YColumn, class XColumn>
struct IcPushRow {
  using ordinal_type = typename Matrix::non_const_ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  using scalar_type = typename Matrix::non_const_value_type;
  typename Matrix::row_map_type row_map;
  typename Matrix::index_type entries;
  typename Matrix::values_type values;
  YColumn y;
  XColumn x;

  IcPushRow(const Matrix& L, const YColumn& y_, const XColumn& x_)
      : row_map(L.graph.row_map), entries(L.graph.entries), values(L.values), y(y_), x(x_) {}

  /// x_j, from y_j once every push to row j has arrived.
  KOKKOS_INLINE_FUNCTION scalar_type solution(const ordinal_type j) const {
    return atomic_load_relaxed(&y(j)) / values(row_map(j + 1) - 1);
  }
  KOKKOS_INLINE_FUNCTION void push(const offset_type k, const scalar_type xj) const {
    Kokkos::atomic_add(&y(entries(k)), -values(k) * xj);
  }
  /// The whole row on one thread.
  KOKKOS_INLINE_FUNCTION void operator()(const ordinal_type j) const {
    const scalar_type xj = solution(j);
    x(j) = xj;
    for (offset_type k = row_map(j); k + 1 < row_map(j + 1); ++k) push(k, xj);
  }
};

/// The schedule for L, whose levels `levels` are: by levels where the execution space is not the
/// host's and the levels hold `rows_per_level` rows or more on average; else sync-free, its
/// counters allocated.
template <class ExecSpace, class Matrix, class Levels>
IcColumnPush<Matrix> ic_column_push_analyze(const ExecSpace& exec, const Matrix& L,
                                            const Levels& levels) {
  using Push = IcColumnPush<Matrix>;
  using ordinal_type = typename Push::ordinal_type;
  using offset_type = typename Matrix::non_const_size_type;
  const ordinal_type n = L.numRows();
  Push push;
  push.by_levels = !Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible &&
                   std::int64_t(levels.num_levels) * Push::rows_per_level <= std::int64_t(n);
  const auto row_map = L.graph.row_map;
  const auto entries = L.graph.entries;
  if (push.by_levels) {
    // Each level's long rows moved last, on the host (a pass over L's row offsets).
    const auto order = Kokkos::create_mirror(Kokkos::HostSpace(), levels.order);  // a copy
    Kokkos::deep_copy(order, levels.order);
    const auto level_ptr =
        Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), levels.level_ptr);
    const auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_map);
    push.long_begin.resize(std::size_t(levels.num_levels));
    for (ordinal_type l = 0; l < levels.num_levels; ++l)
      push.long_begin[std::size_t(l)] = ordinal_type(
          std::stable_partition(order.data() + level_ptr(l), order.data() + level_ptr(l + 1),
                                [&](const ordinal_type i) {
                                  return offsets(i + 1) - offsets(i) - 1 <= Push::long_row;
                                }) -
          order.data());
    push.rows = decltype(push.rows)(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::ic::push_rows"), n);
    Kokkos::deep_copy(exec, push.rows, order);
    exec.fence();
    return push;
  }
  push.feeders = decltype(push.feeders)("syncfree::ic::push_feeders", n);
  push.arrived = decltype(push.arrived)("syncfree::ic::push_arrived", n);
  push.ticket = decltype(push.ticket)("syncfree::ic::push_ticket");
  const auto feeders = push.feeders;
  Kokkos::parallel_for(
      "syncfree::ic::push_feeders", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type i) {
        for (offset_type k = row_map(i); k + 1 < row_map(i + 1); ++k)
          Kokkos::atomic_increment(&feeders(entries(k)));
      });
  return push;
}

/// x = L^{-T} y; y is consumed (it ends as the pushes left it). `levels` and `level_ptr_host` are
/// L's level sets (the lower plan's), `order` a topological order of L (the lower plan's).
template <class ExecSpace, class Matrix, class Levels, class LevelPtrHost, class Order,
          class YColumn, class XColumn>
void ic_column_push_solve(const ExecSpace& exec, const IcColumnPush<Matrix>& push, const Matrix& L,
                          const Levels& levels, const LevelPtrHost& level_ptr_host,
                          const Order& order, const YColumn& y, const XColumn& x) {
  using ordinal_type = typename IcColumnPush<Matrix>::ordinal_type;
  const IcPushRow<Matrix, YColumn, XColumn> row(L, y, x);
  if (push.by_levels) {
    using Policy = Kokkos::TeamPolicy<ExecSpace>;
    using offset_type = typename Matrix::non_const_size_type;
    constexpr int lanes = 32, team_rows = 4;
    const auto rows = push.rows;
    const auto row_map = L.graph.row_map;
    for (ordinal_type level = levels.num_levels - 1; level >= 0; --level) {
      const ordinal_type begin = level_ptr_host(level), end = level_ptr_host(level + 1);
      const ordinal_type long_begin = push.long_begin[std::size_t(level)];
      if (long_begin > begin)
        Kokkos::parallel_for(
            "syncfree::ic::column_push_level",
            Kokkos::RangePolicy<ExecSpace>(exec, begin, long_begin),
            KOKKOS_LAMBDA(const ordinal_type p) { row(rows(p)); });
      if (end > long_begin)
        Kokkos::parallel_for(
            "syncfree::ic::column_push_level_long_rows",
            Policy(exec, (end - long_begin + team_rows - 1) / team_rows, team_rows, lanes),
            KOKKOS_LAMBDA(const typename Policy::member_type& member) {
              const ordinal_type p =
                  long_begin + member.league_rank() * team_rows + member.team_rank();
              if (p >= end) return;
              const ordinal_type j = rows(p);
              const auto xj = row.solution(j);
              Kokkos::single(Kokkos::PerThread(member), [&] { row.x(j) = xj; });
              Kokkos::parallel_for(
                  Kokkos::ThreadVectorRange(member, row_map(j), row_map(j + 1) - 1),
                  [&](const offset_type k) { row.push(k, xj); });
            });
    }
    return;
  }
  const ordinal_type n = L.numRows();
  const auto row_map = L.graph.row_map;
  const auto entries = L.graph.entries;
  const auto feeders = push.feeders;
  const auto arrived = push.arrived;
  const auto ticket = push.ticket;
  Kokkos::deep_copy(exec, ticket, 0u);
  Kokkos::parallel_for(
      "syncfree::ic::column_push_sync_free", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const ordinal_type) {
        const ordinal_type p = ordinal_type(Kokkos::atomic_fetch_add(&ticket(), 1u));
        const ordinal_type j = order(n - 1 - p);
        const unsigned expected = feeders(j);
        for (int spins = 0; atomic_load_relaxed(&arrived(j)) != expected;) spin_pause(spins);
        acq_rel_fence();
        atomic_store_relaxed(&arrived(j), 0u);
        row(j);
        acq_rel_fence();
        for (auto k = row_map(j); k + 1 < row_map(j + 1); ++k)
          Kokkos::atomic_increment(&arrived(entries(k)));
      });
}

}  // namespace syncfree::impl
