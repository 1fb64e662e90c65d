// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The launches that run a SIP rule (syncfree_sip_rules.hpp) over every grid point in
/// hyperplane order (ascending for the factorization and the forward sweep, descending for the
/// backward sweep), each one launch:
///  - `element_sync` (the thesis' SIP_ES): a thread per point, each waiting only on the values of
///    its (at most three) neighbours in the hyperplane before.
///  - `level_sync` (SIP_LS): a team per piece of a hyperplane, which waits until every point of
///    the hyperplane before is done (a counter per hyperplane), then computes without waiting:
///    a software barrier between hyperplanes, one launch for all of them.
///
/// Forward progress: teams claim their work through an atomic ticket (core/impl/syncfree_tickets
/// .hpp) in hyperplane order, and wait only on points of earlier hyperplanes, which smaller
/// tickets hold; a ticket is claimed only by a running team, so the smallest unfinished ticket
/// always progresses whatever order the hardware launches teams in. On CUDA a warp of
/// `element_sync` may hold points of two hyperplanes, one waiting on the other: Volta's
/// independent thread scheduling lets it progress (the thesis' Pascal needed a grid row per
/// hyperplane instead).
///
/// `level_sync`'s counters are never reset: after e launches a hyperplane's counter holds e times
/// its size (modulo 2^32), so a launch waits for (e + 1) times the size. Values are published with
/// relaxed atomic stores, a fence, then the counter; readers see the counter, fence, and load
/// values with relaxed atomics.

#include <cstdint>

#include <Kokkos_Core.hpp>

#include "algorithms/sip/impl/syncfree_sip_rules.hpp"
#include "core/impl/syncfree_kokkos_compat.hpp"
#include "core/impl/syncfree_tickets.hpp"

namespace syncfree::impl {

/// The hyperplane order and what the launches keep between them.
template <class Device>
struct SipLayout {
  SipStrides grid{};
  std::int64_t n = 0, levels = 0;
  Kokkos::View<std::int64_t*, Device> order;        ///< points in hyperplane order
  Kokkos::View<std::int64_t*, Device> plane_begin;  ///< where each hyperplane starts in `order`
  /// `level_sync`: where each hyperplane's teams start among the tickets (levels + 1 entries).
  Kokkos::View<std::int64_t*, Device> team_begin;
  std::int64_t teams = 0;
  int team = 1;                          ///< threads per team
  Kokkos::View<unsigned*, Device> done;  ///< `level_sync`: points finished per hyperplane
  unsigned level_launches = 0;           ///< `level_sync` launches so far (see `done`)
  Tickets<Device> tickets;
};

/// Threads per team: `requested` on GPUs, where 0 means what ran fastest at 128^3 and 256^3: 32 for
/// element_sync, whose teams then finish as soon as their 32 points, and 512 for level_sync, fewer
/// teams per barrier; one on host backends.
template <class ExecSpace>
int sip_team_size(int requested, bool element_sync) {
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible)
    return 1;
  if (requested > 0) return requested;
  return element_sync ? 32 : 512;
}

/// `element_sync`: each thread one point, in hyperplane order.
template <class ExecSpace, class Device, class Rule>
void sip_sweep_element_sync(const ExecSpace& exec, SipLayout<Device>& layout, const Rule& rule,
                            bool descending) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  const int team = layout.team;
  const std::int64_t n = layout.n;
  if (n == 0) return;
  const std::int64_t league = (n + team - 1) / team;
  const unsigned base = layout.tickets.take(unsigned(league));
  const auto counter = layout.tickets.counter;
  const auto order = layout.order;
  const SipStrides grid = layout.grid;
  Kokkos::parallel_for(
      "syncfree::sip::element_sync", Policy(exec, league, team),
      KOKKOS_LAMBDA(const typename Policy::member_type& member) {
        std::int64_t chunk = 0;
        Kokkos::single(
            Kokkos::PerTeam(member),
            [&](std::int64_t& claimed) {
              claimed = std::int64_t(unsigned(Kokkos::atomic_fetch_add(&counter(), 1u) - base));
            },
            chunk);
        const std::int64_t position = chunk * team + member.team_rank();
        if (position >= n) return;
        rule.template operator()<true>(grid.at(order(descending ? n - 1 - position : position)));
      });
}

/// `level_sync`: a team per piece of a hyperplane, behind a barrier per hyperplane.
template <class ExecSpace, class Device, class Rule>
void sip_sweep_level_sync(const ExecSpace& exec, SipLayout<Device>& layout, const Rule& rule,
                          bool descending) {
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  const int team = layout.team;
  if (layout.n == 0) return;
  const unsigned base = layout.tickets.take(unsigned(layout.teams));
  const unsigned launch = ++layout.level_launches;  // counters reach launch * size
  const auto counter = layout.tickets.counter;
  const auto order = layout.order;
  const auto plane_begin = layout.plane_begin;
  const auto team_begin = layout.team_begin;
  const auto done = layout.done;
  const SipStrides grid = layout.grid;
  const std::int64_t levels = layout.levels;
  Kokkos::parallel_for(
      "syncfree::sip::level_sync", Policy(exec, layout.teams, team),
      KOKKOS_LAMBDA(const Member& member) {
        std::int64_t ticket = 0;
        Kokkos::single(
            Kokkos::PerTeam(member),
            [&](std::int64_t& claimed) {
              claimed = std::int64_t(unsigned(Kokkos::atomic_fetch_add(&counter(), 1u) - base));
            },
            ticket);
        // The step (hyperplane in sweep order) whose teams hold this ticket.
        std::int64_t lo = 0, hi = levels;
        while (hi - lo > 1) {
          const std::int64_t mid = (lo + hi) / 2;
          if (team_begin(mid) <= ticket)
            lo = mid;
          else
            hi = mid;
        }
        const std::int64_t step = lo;
        const std::int64_t level = descending ? levels - 1 - step : step;
        if (step > 0) {
          const std::int64_t before = descending ? level + 1 : level - 1;
          const unsigned size = unsigned(plane_begin(before + 1) - plane_begin(before));
          Kokkos::single(Kokkos::PerTeam(member), [&]() {
            int spins = 0;
            while (atomic_load_relaxed(&done(before)) != launch * size) spin_pause(spins);
            acq_rel_fence();
          });
          member.team_barrier();
        }
        const std::int64_t first = plane_begin(level) + (ticket - team_begin(step)) * team;
        const std::int64_t last =
            plane_begin(level + 1) < first + team ? plane_begin(level + 1) : first + team;
        const std::int64_t position = first + member.team_rank();
        if (position < last) {
          rule.template operator()<false>(grid.at(order(position)));
          acq_rel_fence();
        }
        member.team_barrier();
        Kokkos::single(Kokkos::PerTeam(member),
                       [&]() { Kokkos::atomic_add(&done(level), unsigned(last - first)); });
      });
}

}  // namespace syncfree::impl
