// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Sync-free SpTRSV with a vector of lanes per row (Dufrechou & Ezzatti, PDP 2018: a warp
/// per row, each lane waiting only on its own dependency), in level order. Suited to long rows.
///
/// Each team claims team_size consecutive positions through the atomic ticket (level order, a
/// topological order: see syncfree_sptrsv_syncfree.hpp for the forward-progress and memory-ordering
/// argument, which holds unchanged with chunks claimed by running teams); each vector's lanes
/// stride over its row and spin on their own dependency, and a vector reduction gives the sum.

#include "algorithms/sptrsv/impl/syncfree_sptrsv_row.hpp"

namespace syncfree::impl {

template <class ExecSpace, class Matrix, class BColumn, class XColumn>
void sptrsv_solve_sync_free_row(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s,
                                const Matrix& A, const BColumn& b, const XColumn& x, bool unit) {
  using Data = SptrsvRowData<Matrix, BColumn, XColumn>;
  using ordinal_type = typename Data::ordinal_type;
  using scalar_type = typename Data::scalar_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const int team_size = host ? 1 : 4;
  const int vector_length = host ? 1 : 32;
  const Data d(s, A, b, x, unit);
  const auto ticket = s.ticket;
  reset_sync_free_work(exec, s);
  const ordinal_type league = (s.n + team_size - 1) / team_size;
  Kokkos::parallel_for(
      "syncfree::sptrsv::sync_free_row", Policy(exec, league, team_size, vector_length),
      KOKKOS_LAMBDA(const Member& member) {
        // One atomic per team (team_size consecutive positions), not one per row.
        ordinal_type chunk = 0;
        Kokkos::single(
            Kokkos::PerTeam(member),
            [&](ordinal_type& claimed) {
              claimed = ordinal_type(Kokkos::atomic_fetch_add(&ticket(), 1u));
            },
            chunk);
        const ordinal_type p = chunk * member.team_size() + member.team_rank();
        if (p >= d.n) return;
        const auto begin = d.row_map(p);
        const ordinal_type length = ordinal_type(d.row_map(p + 1) - begin);
        scalar_type sum = 0;
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(member, length),
            [&](const ordinal_type i, scalar_type& partial) {
              const auto k = begin + i;
              partial +=
                  d.values(d.source(k)) * Sentinel<scalar_type>::wait(&d.x_work(d.columns(k)));
            },
            sum);
        Kokkos::single(Kokkos::PerThread(member), [&]() { d.finish(p, d.order(p), sum); });
      });
}

}  // namespace syncfree::impl
