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
/// ticket hands out rows in a topological order, so every row waited on was claimed by a running
/// vector that waits only on earlier tickets.
///
/// Prefetch: which entries an update touches depends only on the patterns, so each lane searches
/// the pivot row for its first entry before waiting for that row (thesis section 5.1.5). The match
/// lives in the lane's registers between the vector loops: on CUDA each lane is a thread running
/// its own iterations; host backends run one lane per vector.

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
  bool ticketed;       ///< claim positions by ticket (sync-free) or by team rank (one level)
  int width;           ///< lanes per vector

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    ordinal_type p = 0;
    if (ticketed) {
      Kokkos::single(
          Kokkos::PerThread(member),
          [&](ordinal_type& claimed) {
            claimed = ordinal_type(Kokkos::atomic_fetch_add(&d.ticket(), 1u));
          },
          p);
    } else {
      p = member.league_rank() * member.team_size() + member.team_rank();
    }
    if (p >= count) return;
    const ordinal_type row = d.order(first + p);
    const offset_type begin = d.row_map(row), end = d.row_map(row + 1), pivot = d.diagonal(row);

    for (offset_type li = begin; li < pivot; ++li) {
      const ordinal_type ref = d.entries(li);
      const offset_type ref_begin = d.diagonal(ref) + 1, ref_end = d.row_map(ref + 1);
      offset_type first_k = 0, first_match = -1;
      scalar_type l = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(member, width),
          [&](const int lane, scalar_type& multiplier) {
            first_k = d.first_owned(li, begin, lane, width);
            if (first_k < end) first_match = d.find(d.entries(first_k), ref_begin, ref_end);
            d.wait(ref);
            if (d.owner(li, begin, width) == lane) {
              const scalar_type value = d.values(li) / d.values(ref_begin - 1);
              d.values(li) = value;
              multiplier = value;
            }
          },
          l);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, width), [&](const int) {
        if (first_k >= end) return;
        if (first_match >= 0) d.values(first_k) -= l * d.values(first_match);
        for (offset_type k = first_k + width; k < end; k += width) {
          const offset_type t = d.find(d.entries(k), ref_begin, ref_end);
          if (t >= 0) d.values(k) -= l * d.values(t);
        }
      });
    }
    int ready = 0;
    Kokkos::parallel_reduce(
        Kokkos::ThreadVectorRange(member, width),
        [&](const int lane, int& sum) {
          if (d.owner(pivot, begin, width) == lane) d.check_pivot(row);
          Kokkos::memory_fence();
          sum += 1;
        },
        ready);
    Kokkos::single(Kokkos::PerThread(member), [&]() { d.publish(row); });
  }
};

/// Vector width and rows per team for a launch on `ExecSpace`: one lane on host backends.
template <class ExecSpace>
struct IluVectorShape {
  int width = 1;
  int team_size = 1;
};

template <class ExecSpace>
IluVectorShape<ExecSpace> ilu_vector_shape(int width) {
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
  Kokkos::parallel_for(
      "syncfree::ilu::factor_sync_free",
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
  // The flags are still written and read (trivially ready): the functor is the sync-free one.
  Kokkos::deep_copy(exec, s.finished, 0);
  const auto& level_ptr = s.lower.level_ptr_host();
  for (std::size_t l = 0; l + 1 < level_ptr.extent(0); ++l) {
    const ordinal_type first = level_ptr(l), count = level_ptr(l + 1) - first;
    const auto league = (count + shape.team_size - 1) / shape.team_size;
    Kokkos::parallel_for("syncfree::ilu::factor_level",
                         typename Functor::Policy(exec, league, shape.team_size, shape.width),
                         Functor{IluRowData<Matrix>(s, replace), first, count, false, shape.width});
  }
}

}  // namespace syncfree::impl
