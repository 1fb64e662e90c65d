// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The launches that run a DILU rule (syncfree_dilu_rules.hpp) over every row, colors in
/// ascending order (the factorization and the forward sweep) or descending (the backward sweep):
/// the generic Kokkos versions of the three variants.
///
/// Forward progress of the sync-free variants. Teams claim their work through an atomic ticket,
/// in color order (descending for the backward sweep), and a row waits only on rows of colors
/// before its own in that order, which belong to smaller tickets. A ticket is claimed only by a
/// running team, so the smallest unfinished ticket always progresses, whatever order the hardware
/// launches teams in (on CUDA the lanes of a warp waiting on other warps need Volta's independent
/// thread scheduling). Rows of one team never wait on each other: they share a color.
/// The ticket counter is never reset (core/impl/syncfree_tickets.hpp).

#include <Kokkos_Core.hpp>

#include "algorithms/dilu/impl/syncfree_dilu_layout.hpp"
#include "algorithms/dilu/syncfree_dilu_options.hpp"
#include "core/impl/syncfree_tickets.hpp"

namespace syncfree::impl {

template <class ExecSpace>
inline constexpr bool dilu_on_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

/// Row i of color c: its terms summed over the vector lanes of `member`, then `finish`.
template <bool Wait, class Member, class Rule>
KOKKOS_FORCEINLINE_FUNCTION void dilu_row(const Member& member, const Rule& rule,
                                          typename Rule::ordinal_type i,
                                          const typename Rule::color_type& c) {
  using ordinal_type = typename Rule::ordinal_type;
  using scalar_type = typename Rule::scalar_type;
  const auto begin = rule.row_map(i);
  const ordinal_type length = ordinal_type(rule.row_map(i + 1) - begin);
  scalar_type sum = 0;
  Kokkos::parallel_reduce(
      Kokkos::ThreadVectorRange(member, length),
      [&](const ordinal_type l, scalar_type& partial) {
        partial += rule.template term<Wait>(begin + l, c);
      },
      sum);
  Kokkos::single(Kokkos::PerThread(member), [&]() { rule.template finish<Wait>(i, c, sum); });
}

/// The team shape of `per_color` and `sync_free_2d`: AmgX's 8 lanes per row, 16 rows per team of
/// 128 threads on GPUs; one row per team on host backends.
template <class ExecSpace>
struct DiluTeamShape {
  static constexpr int rows = dilu_on_host<ExecSpace> ? 1 : 16;
  static constexpr int lanes = dilu_on_host<ExecSpace> ? 1 : 8;
};

/// `per_color`: one launch per color; each reads what earlier launches computed, no waiting.
template <class ExecSpace, class Layout, class Rule>
void dilu_sweep_per_color(const ExecSpace& exec, const Layout& layout, const Rule& rule,
                          bool descending) {
  using ordinal_type = typename Rule::ordinal_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Shape = DiluTeamShape<ExecSpace>;
  for (int step = 0; step < layout.num_colors; ++step) {
    const int index = descending ? layout.num_colors - 1 - step : step;
    const DiluColor<ordinal_type> c{index, layout.color_begin[std::size_t(index)],
                                    layout.color_begin[std::size_t(index) + 1]};
    const ordinal_type count = c.last - c.first;
    if (count == 0) continue;
    Kokkos::parallel_for(
        "syncfree::dilu::per_color",
        Policy(exec, (count + Shape::rows - 1) / Shape::rows, Shape::rows, Shape::lanes),
        KOKKOS_LAMBDA(const typename Policy::member_type& member) {
          const ordinal_type slot = member.league_rank() * Shape::rows + member.team_rank();
          if (slot < count) dilu_row<false>(member, rule, c.first + slot, c);
        });
  }
}

/// `sync_free_2d`: one launch of (colors) x (teams for the largest color); a team claims a
/// ticket, which names its color and its rows in it; teams past the end of a smaller color exit.
template <class ExecSpace, class Layout, class Rule, class Device>
void dilu_sweep_sync_free_2d(const ExecSpace& exec, const Layout& layout, const Rule& rule,
                             bool descending, Tickets<Device>& tickets) {
  using ordinal_type = typename Rule::ordinal_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Shape = DiluTeamShape<ExecSpace>;
  if (layout.n == 0) return;
  const ordinal_type teams_per_color = (layout.max_color_rows + Shape::rows - 1) / Shape::rows;
  const ordinal_type league = teams_per_color * ordinal_type(layout.num_colors);
  const unsigned base = tickets.take(unsigned(league));
  const auto counter = tickets.counter;
  const int last_color = layout.num_colors - 1;
  const auto color_begin = layout.color_begin_device;
  Kokkos::parallel_for(
      "syncfree::dilu::sync_free_2d", Policy(exec, league, Shape::rows, Shape::lanes),
      KOKKOS_LAMBDA(const typename Policy::member_type& member) {
        ordinal_type ticket = 0;
        Kokkos::single(
            Kokkos::PerTeam(member),
            [&](ordinal_type& claimed) {
              claimed = ordinal_type(Kokkos::atomic_fetch_add(&counter(), 1u) - base);
            },
            ticket);
        const int step = int(ticket / teams_per_color);
        const int index = descending ? last_color - step : step;
        const DiluColor<ordinal_type> c{index, color_begin(index), color_begin(index + 1)};
        const ordinal_type slot =
            (ticket % teams_per_color) * Shape::rows + ordinal_type(member.team_rank());
        if (slot < c.last - c.first) dilu_row<true>(member, rule, c.first + slot, c);
      });
}

/// `sync_free_1d`, generic: each vector of lanes claims a ticket that names one group of rows
/// (one color, similar lengths) and runs its rows one after the other. CUDA gives each group a
/// warp whose lanes split between its rows (cuda/syncfree_dilu_sync_free_1d_cuda.hpp).
template <class ExecSpace, class Layout, class Rule, class Device, class Enable = void>
struct DiluSyncFree1d {
  static void run(const ExecSpace& exec, const Layout& layout, const Rule& rule, bool descending,
                  Tickets<Device>& tickets) {
    using ordinal_type = typename Rule::ordinal_type;
    using Policy = Kokkos::TeamPolicy<ExecSpace>;
    constexpr int team_size = dilu_on_host<ExecSpace> ? 1 : 4;
    constexpr int lanes = dilu_on_host<ExecSpace> ? 1 : 32;
    const ordinal_type groups = layout.num_groups;
    if (groups == 0) return;
    const ordinal_type league = (groups + team_size - 1) / team_size;
    const unsigned base = tickets.take(unsigned(league * team_size));
    const auto counter = tickets.counter;
    const auto grouped_rows = layout.grouped_rows;
    const auto group_begin = layout.group_begin;
    const auto group_color = layout.group_color;
    const auto color_begin = layout.color_begin_device;
    Kokkos::parallel_for(
        "syncfree::dilu::sync_free_1d", Policy(exec, league, team_size, lanes),
        KOKKOS_LAMBDA(const typename Policy::member_type& member) {
          ordinal_type ticket = 0;
          Kokkos::single(
              Kokkos::PerThread(member),
              [&](ordinal_type& claimed) {
                claimed = ordinal_type(Kokkos::atomic_fetch_add(&counter(), 1u) - base);
              },
              ticket);
          if (ticket >= groups) return;
          const ordinal_type g = descending ? groups - 1 - ticket : ticket;
          const int index = group_color(g);
          const DiluColor<ordinal_type> c{index, color_begin(index), color_begin(index + 1)};
          for (ordinal_type r = group_begin(g); r < group_begin(g + 1); ++r)
            dilu_row<true>(member, rule, grouped_rows(r), c);
        });
  }
};

/// Runs `rule` over every row with `variant` (resolved: not `automatic`).
template <class ExecSpace, class Layout, class Rule, class Device>
void dilu_sweep(const ExecSpace& exec, const Layout& layout, DiluVariant variant, const Rule& rule,
                bool descending, Tickets<Device>& tickets) {
  switch (variant) {
    case DiluVariant::per_color:
      dilu_sweep_per_color(exec, layout, rule, descending);
      break;
    case DiluVariant::sync_free_2d:
      dilu_sweep_sync_free_2d(exec, layout, rule, descending, tickets);
      break;
    case DiluVariant::automatic:
    case DiluVariant::sync_free_1d:
      DiluSyncFree1d<ExecSpace, Layout, Rule, Device>::run(exec, layout, rule, descending, tickets);
      break;
  }
}

}  // namespace syncfree::impl
