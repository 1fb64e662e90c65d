// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Passes over a matrix's rows with a vector of lanes per row: a row's entries are read side
/// by side, and a row of thousands of entries is its lanes' work, not one thread's (a thread
/// walking it alone reads a sector per entry and holds up its warp).

#include <cmath>

#include <Kokkos_Core.hpp>

namespace syncfree::impl {

/// Lanes per row for rows averaging `mean_row_length` entries: the power of two at or above it,
/// at most 32; one on host backends.
template <class ExecSpace>
int row_vector_lanes(double mean_row_length) {
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible)
    return 1;
  int lanes = 1;
  while (lanes < 32 && double(lanes) < std::ceil(mean_row_length)) lanes *= 2;
  return lanes;
}

/// Teams over n rows, `lanes` a row and 128 / lanes rows a team (a row a team with one lane);
/// row `row(member)` of a team's thread, n or beyond for none.
template <class ExecSpace>
struct RowTeams {
  using policy_type = Kokkos::TeamPolicy<ExecSpace>;
  using member_type = typename policy_type::member_type;
  int lanes = 1;
  int rows_per_team = 1;

  explicit RowTeams(double mean_row_length)
      : lanes(row_vector_lanes<ExecSpace>(mean_row_length)),
        rows_per_team(lanes == 1 ? 1 : 128 / lanes) {}

  policy_type policy(const ExecSpace& exec, long n) const {
    return policy_type(exec, (n + rows_per_team - 1) / rows_per_team, rows_per_team, lanes);
  }
  KOKKOS_INLINE_FUNCTION long row(const member_type& member) const {
    return long(member.league_rank()) * rows_per_team + member.team_rank();
  }
};

}  // namespace syncfree::impl
