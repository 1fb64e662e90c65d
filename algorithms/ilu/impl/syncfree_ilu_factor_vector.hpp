// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief ILU numeric factorization with a vector of lanes per row and a per-lane binary search of
/// the pivot row (the thesis' ILU_vect; with a width from the mean row length, ILU_adapt). Rows are
/// claimed through an atomic ticket in level order (ILU_levs) and wait only on the rows their L
/// part names; launched once per level with no waiting, the same functor is the level-set
/// baseline.
///
/// Forward progress: as for SpTRSV (algorithms/sptrsv/impl/syncfree_sptrsv_syncfree.hpp), the
/// ticket hands out chunks of consecutive rows in a topological order, one chunk per running team,
/// so a row waits only on rows of its own chunk (vectors of the same running team, scheduled
/// independently) or of earlier chunks, claimed by running teams that wait only on earlier rows.
///
/// Waiting: a row cannot finish before all its pivot rows have, so its lanes poll all of them at
/// once, then issue one acquire fence, and only then eliminate (the thesis waits before each L
/// entry, overlapping a little elimination with the wait, at one memory latency and one fence per
/// entry). The level-set launches need no waiting and no fences: kernel boundaries order them.

#include "algorithms/ilu/impl/syncfree_ilu_row.hpp"

namespace syncfree::impl {

template <class ExecSpace, class Matrix>
struct IluVectorFactor {
  using Data = IluRowData<Matrix>;
  using ordinal_type = typename Data::ordinal_type;
  using offset_type = typename Data::offset_type;
  using scalar_type = typename Data::scalar_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;

  Data d;
  ordinal_type first;  ///< first position of this launch (level order)
  ordinal_type count;  ///< positions in this launch
  bool ticketed;       ///< claim positions by ticket (sync-free) or by league rank (one level)
  int width;           ///< lanes per vector

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    // A team claims its rows, team_size consecutive positions, with one atomic: one per row
    // would serialize millions of atomics on one counter.
    ordinal_type chunk = member.league_rank();
    if (ticketed) {
      Kokkos::single(
          Kokkos::PerTeam(member),
          [&](ordinal_type& claimed) {
            claimed = ordinal_type(Kokkos::atomic_fetch_add(&d.ticket(), 1u));
          },
          chunk);
    }
    const ordinal_type p = chunk * member.team_size() + member.team_rank();
    if (p >= count) return;
    const ordinal_type row = d.order(first + p);
    const offset_type begin = d.row_map(row), end = d.row_map(row + 1), pivot = d.diagonal(row);

    if (ticketed) d.wait_for_pivot_rows(member, begin, pivot, width);
    for (offset_type li = begin; li < pivot; ++li) {
      const ordinal_type ref = d.entries(li);
      const offset_type ref_begin = d.diagonal(ref) + 1, ref_end = d.row_map(ref + 1);
      const scalar_type l = d.multiplier(member, li, begin, ref, width);
      d.eliminate(member, li, begin, end, l, ref_begin, ref_end, width);
    }
    d.finish_row(member, row, begin, pivot, width, ticketed);
  }
};

/// Vector width and rows per team of a launch.
struct IluVectorShape {
  int width = 1;
  int team_size = 1;
};

/// The shape of a launch on `ExecSpace` asking for `width` lanes: one lane on host backends.
template <class ExecSpace>
IluVectorShape ilu_vector_shape(int width) {
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  if (host) return {};
  return {width, width >= 128 ? 1 : 128 / width};
}

/// Sync-free factorization: every row in one launch, claimed by ticket.
template <class ExecSpace, class Matrix>
void ilu_factor_vector(const ExecSpace& exec, const IluPlanStorage<Matrix>& s, bool replace,
                       int width) {
  using Functor = IluVectorFactor<ExecSpace, Matrix>;
  const auto shape = ilu_vector_shape<ExecSpace>(width);
  Kokkos::deep_copy(exec, s.finished, 0);
  Kokkos::deep_copy(exec, s.ticket, 0u);
  const auto league = (s.n + shape.team_size - 1) / shape.team_size;
  Kokkos::parallel_for("syncfree::ilu::factor_sync_free",
                       typename Functor::Policy(exec, league, shape.team_size, shape.width),
                       Functor{IluRowData<Matrix>(s, replace), 0, s.n, true, shape.width});
}

/// Level-set baseline: one launch per level; a row's pivot rows are all in earlier launches.
template <class ExecSpace, class Matrix>
void ilu_factor_level_set(const ExecSpace& exec, const IluPlanStorage<Matrix>& s, bool replace,
                          int width) {
  using Functor = IluVectorFactor<ExecSpace, Matrix>;
  using ordinal_type = typename Functor::ordinal_type;
  const auto shape = ilu_vector_shape<ExecSpace>(width);
  const auto& level_ptr = sptrsv_plan_storage(s.lower).level_ptr_host;
  for (std::size_t l = 0; l + 1 < level_ptr.extent(0); ++l) {
    const ordinal_type first = level_ptr(l), count = level_ptr(l + 1) - first;
    const auto league = (count + shape.team_size - 1) / shape.team_size;
    Kokkos::parallel_for("syncfree::ilu::factor_level",
                         typename Functor::Policy(exec, league, shape.team_size, shape.width),
                         Functor{IluRowData<Matrix>(s, replace), first, count, false, shape.width});
  }
}

/// How `level_set` is launched: directly on host backends; CUDA specializes it to replay the
/// launches as a graph (one launch per level costs more on the host than on the GPU).
template <class ExecSpace, class Matrix, class Enable = void>
struct IluLevelSetLaunch {
  static void run(const ExecSpace& exec, const IluPlanStorage<Matrix>& s, bool replace, int width) {
    ilu_factor_level_set(exec, s, replace, width);
  }
};

}  // namespace syncfree::impl

#if defined(KOKKOS_ENABLE_CUDA)
#include "algorithms/ilu/cuda/syncfree_ilu_level_set_cuda.hpp"
#endif
