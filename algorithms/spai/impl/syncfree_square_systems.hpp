// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Where the small dense system of each row of FSAI and ISAI is solved: a row of m
/// unknowns needs m (m + v) entries (the matrix, its right-hand side and the solver's other
/// vectors). Rows of at most `scratch_unknowns` keep them in the team's scratch (GPU shared)
/// memory: rows of at most 32 unknowns in one launch over every row, a warp each, longer ones a
/// wider team each, over a list of them. The others use global work space, in batches that fit a
/// budget (a construction never fails for lack of scratch).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "algorithms/spai/impl/syncfree_spai_batches.hpp"
#include "core/impl/syncfree_crs_build.hpp"
#include "core/syncfree_error.hpp"
#include "core/syncfree_types.hpp"

namespace syncfree::impl {

/// Most unknowns a scratch-memory system may have: 64 (66) doubles, 33 KiB a team, within the
/// 48 KiB a CUDA block gets without opting in.
inline constexpr int max_scratch_unknowns = 64;
/// Rows of at most this many unknowns run a warp each; longer ones a wider team (the steps of
/// their factorizations update up to (m - 1)^2 entries at once).
inline constexpr int narrow_unknowns = 32;

/// Threads per team for the rows longer than `narrow_unknowns`: 128 on GPUs, 1 on host backends.
template <class ExecSpace>
int wide_problem_team_size() {
  return Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible ? 1 : 128;
}

template <class Device, class Ordinal>
struct SquareSystemsLayout {
  /// Rows with at most this many unknowns run in scratch memory (0: none), and of those, rows with
  /// at most `narrow` in a launch over every row, a warp each.
  int scratch_unknowns = 0;
  int narrow = 0;
  /// The rows longer than `narrow`, and those longer than `scratch_unknowns`, increasing; global
  /// work space problem k is row global_rows(k).
  Kokkos::View<Ordinal*, Device> wide_rows, global_rows;
  DenseWorkspaceLayout<Device> global;
  /// Sum of m (m + 1) over every row (the system and its right-hand side): the measure of the
  /// work.
  std::int64_t dense_entries = 0;

  std::size_t num_batches() const { return global.num_batches(); }
};

/// The layout of one m x m system and `vectors` vectors per row of `pattern` (m its entries).
/// \throws InvalidArgument when `scratch_unknowns` is negative or above `max_scratch_unknowns`.
template <class ExecSpace, class Matrix>
SquareSystemsLayout<typename Matrix::device_type, typename Matrix::non_const_ordinal_type>
layout_square_systems(const ExecSpace& exec, const Matrix& pattern, int vectors,
                      int scratch_unknowns, std::size_t budget_bytes, const char* caller) {
  SYNCFREE_REQUIRE(scratch_unknowns >= 0 && scratch_unknowns <= max_scratch_unknowns,
                   InvalidArgument, caller, ": scratch_unknowns must lie in 0..",
                   max_scratch_unknowns, ", not ", scratch_unknowns);
  SquareSystemsLayout<typename Matrix::device_type, typename Matrix::non_const_ordinal_type> layout;
  const auto map = pattern.graph.row_map;
  const std::int64_t n = pattern.numRows();
  Kokkos::parallel_reduce(
      "syncfree::square_systems::entries", Kokkos::RangePolicy<ExecSpace>(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& sum) {
        const std::int64_t m = map(i + 1) - map(i);
        sum += m * (m + 1);
      },
      layout.dense_entries);
  // Scratch sized for the longest row it takes, not for the limit: fewer bytes, more teams.
  layout.scratch_unknowns = int(std::min<long>(scratch_unknowns, longest_row(exec, pattern)));
  layout.narrow = std::min(layout.scratch_unknowns, narrow_unknowns);
  layout.wide_rows = rows_longer_than(exec, pattern, layout.narrow);
  layout.global_rows = layout.scratch_unknowns == layout.narrow
                           ? layout.wide_rows
                           : rows_longer_than(exec, pattern, layout.scratch_unknowns);
  const auto rows = layout.global_rows;
  layout.global = layout_dense_workspace<ExecSpace, typename Matrix::device_type>(
      exec, std::int64_t(rows.extent(0)),
      std::int64_t(budget_bytes / sizeof(typename Matrix::non_const_value_type)),
      KOKKOS_LAMBDA(const std::int64_t k) {
        const std::int64_t m = map(rows(k) + 1) - map(rows(k));
        return m * (m + vectors);
      });
  return layout;
}

/// A team per row (of `listed` where `use_list`) with at most `max_unknowns` unknowns, its
/// system in team scratch; the teams of longer rows return at once.
template <class ExecSpace, class Rows, class RowList>
struct ScratchSystems {
  using scalar_type = typename Rows::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Rows rows;
  RowList listed;
  bool use_list;
  int max_unknowns;

  KOKKOS_INLINE_FUNCTION static std::size_t bytes(const int m) {
    return std::size_t(m) * (m + Rows::vectors) * sizeof(scalar_type);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team, std::int64_t& first_bad) const {
    const std::int64_t i = use_list ? std::int64_t(listed(team.league_rank())) : team.league_rank();
    if (rows.unknowns(i) > max_unknowns) return;
    auto* const K = static_cast<scalar_type*>(team.team_scratch(0).get_shmem(bytes(max_unknowns)));
    rows.solve(team, i, K, first_bad);
  }
};

/// A team per row of `global_rows` from `first_problem`, its system in global work space (a
/// `run_in_batches` functor).
template <class ExecSpace, class Rows, class RowList, class Device>
struct WorkspaceSystems {
  using scalar_type = typename Rows::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  Rows rows;
  RowList global_rows;
  Kokkos::View<std::int64_t*, Device> offsets;
  Kokkos::View<scalar_type*, Device> workspace;
  std::int64_t first_problem = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team, std::int64_t& first_bad) const {
    const std::int64_t k = first_problem + team.league_rank();
    rows.solve(team, std::int64_t(global_rows(k)), &workspace(offsets(k) - offsets(first_problem)),
               first_bad);
  }
};

/// Solves every row's system: `Rows` has `scalar_type`, `vectors` (as in the layout),
/// `unknowns(i)` and `solve(team, i, K, first_bad)`, which reduces the first row i that failed,
/// with its code c, as min(4 i + c). Returns that, or -1.
template <class ExecSpace, class Rows, class Device, class Ordinal>
std::int64_t solve_square_systems(const ExecSpace& exec, const std::string& label, const Rows& rows,
                                  const SquareSystemsLayout<Device, Ordinal>& layout,
                                  std::int64_t num_rows) {
  using RowList = decltype(layout.global_rows);
  using Scratch = ScratchSystems<ExecSpace, Rows, RowList>;
  std::int64_t first_bad = std::numeric_limits<std::int64_t>::max();
  const auto run = [&](const std::string& name, const auto& functor, std::int64_t teams,
                       int team_size, std::size_t scratch_bytes) {
    std::int64_t bad = std::numeric_limits<std::int64_t>::max();
    Kokkos::parallel_reduce(name,
                            Kokkos::TeamPolicy<ExecSpace>(exec, teams, team_size)
                                .set_scratch_size(0, Kokkos::PerTeam(scratch_bytes)),
                            functor, Kokkos::Min<std::int64_t>(bad));
    first_bad = std::min(first_bad, bad);
  };
  if (layout.narrow > 0 && num_rows > 0)
    run(label + "::narrow", Scratch{rows, layout.wide_rows, false, layout.narrow}, num_rows,
        dense_problem_team_size<ExecSpace>(), Scratch::bytes(layout.narrow));
  if (layout.scratch_unknowns > layout.narrow && layout.wide_rows.extent(0) > 0)
    run(label + "::wide", Scratch{rows, layout.wide_rows, true, layout.scratch_unknowns},
        std::int64_t(layout.wide_rows.extent(0)), wide_problem_team_size<ExecSpace>(),
        Scratch::bytes(layout.scratch_unknowns));
  if (layout.global.num_batches() > 0) {
    WorkspaceSystems<ExecSpace, Rows, RowList, Device> global;
    global.rows = rows;
    global.global_rows = layout.global_rows;
    global.offsets = layout.global.offsets;
    const std::int64_t bad = run_in_batches(exec, label + "::global", global, layout.global,
                                            wide_problem_team_size<ExecSpace>());
    if (bad >= 0) first_bad = std::min(first_bad, bad);
  }
  return first_bad == std::numeric_limits<std::int64_t>::max() ? -1 : first_bad;
}

}  // namespace syncfree::impl
