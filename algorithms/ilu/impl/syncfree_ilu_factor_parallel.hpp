// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief ILU numeric factorization with a team per row whose vectors take different L entries of
/// the row at once (the thesis' ILU_parallel, §5.1.4), round robin: vector v takes entries v,
/// v + V, v + 2V, ... in order. Rows are claimed through the atomic ticket in level order.
///
/// Entry t of row i (column m_t) may be eliminated once row m_t is finished and every earlier
/// entry s < t whose pivot row m_s has an entry in column m_t (its elimination changes a_i,m_t)
/// is done; the vector taking t waits for exactly those (per-entry flags in team scratch). Later
/// entries change only columns beyond their own, so they never touch a_i,m_t. Two entries
/// eliminated at once may change the same a_ij: updates are atomic additions, so the order of
/// the subtractions into one entry, and with it the rounding, may differ from the serial IKJ
/// order.
///
/// Forward progress. Between rows: as for the other sync-free variants (syncfree_ilu_factor_vector
/// .hpp), rows wait only on rows of smaller tickets. Inside a row: the smallest entry not done
/// belongs to a vector that has finished all its smaller entries, so it is the one that vector
/// works on, and it waits only on smaller entries, all done. Vectors of a team are scheduled
/// independently (OS threads; on CUDA, lanes under independent thread scheduling).
///
/// Memory ordering. An entry's updates are followed by every lane's release fence and a vector
/// reduction before its flag is set; a waiting vector's acquire fence follows its polls. The
/// row's flag is published as in the other variants, after a team barrier.

#include "algorithms/ilu/impl/syncfree_ilu_row.hpp"

namespace syncfree::impl {

template <class ExecSpace, class Matrix>
struct IluParallelFactor {
  using Data = IluRowData<Matrix>;
  using ordinal_type = typename Data::ordinal_type;
  using offset_type = typename Data::offset_type;
  using scalar_type = typename Data::scalar_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using Flags = Kokkos::View<int*, typename ExecSpace::scratch_memory_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Data d;
  ordinal_type max_entries;  ///< L entries of the longest row: flags per team
  int scratch_level;
  int width;  ///< lanes per vector

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    ordinal_type p = 0;
    Kokkos::single(
        Kokkos::PerTeam(member),
        [&](ordinal_type& claimed) {
          claimed = ordinal_type(Kokkos::atomic_fetch_add(&d.ticket(), 1u));
        },
        p);
    const ordinal_type row = d.order(p);
    const offset_type begin = d.row_map(row), end = d.row_map(row + 1), pivot = d.diagonal(row);
    const ordinal_type entries = ordinal_type(pivot - begin);
    Flags done(member.team_scratch(scratch_level), max_entries);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, entries), [&](const ordinal_type t) {
      Kokkos::single(Kokkos::PerThread(member), [&]() { done(t) = 0; });
    });
    member.team_barrier();

    for (ordinal_type t = member.team_rank(); t < entries; t += member.team_size()) {
      const offset_type li = begin + t;
      const ordinal_type ref = d.entries(li);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, width), [&](const int lane) {
        d.wait_for(ref);
        for (ordinal_type s = lane; s < t; s += width) {
          const ordinal_type earlier = d.entries(begin + s);
          if (d.find(ref, d.diagonal(earlier) + 1, d.row_map(earlier + 1)) < 0) continue;
          for (int spins = 0; atomic_load_relaxed(&done(s)) == 0;) spin_pause(spins);
        }
        acq_rel_fence();
      });
      const scalar_type l = d.multiplier(member, li, begin, ref, width);
      const offset_type ref_begin = d.diagonal(ref) + 1, ref_end = d.row_map(ref + 1);
      int lanes = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(member, width),
          [&](const int lane, int& count) {
            for (offset_type k = li + 1 + lane; k < end; k += width) {
              const offset_type u = d.find(d.entries(k), ref_begin, ref_end);
              if (u >= 0) Kokkos::atomic_add(&d.values(k), -l * d.values(u));
            }
            acq_rel_fence();
            count += 1;
          },
          lanes);
      Kokkos::single(Kokkos::PerThread(member), [&]() { atomic_store_relaxed(&done(t), 1); });
    }
    member.team_barrier();
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      d.check_pivot(row);
      acq_rel_fence();
      d.publish(row);
    });
  }
};

/// Sync-free factorization with vectors per L entry: on GPUs a team of 8 vectors of 4 lanes per
/// row (one warp), on host backends one thread.
template <class ExecSpace, class Matrix>
void ilu_factor_parallel(const ExecSpace& exec, const IluPlanStorage<Matrix>& s, bool replace) {
  using Functor = IluParallelFactor<ExecSpace, Matrix>;
  using ordinal_type = typename Functor::ordinal_type;
  constexpr bool host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  const int vectors = host ? 1 : 8, width = host ? 1 : 4;
  const ordinal_type max_entries = s.lower.max_row_length() > 0 ? s.lower.max_row_length() : 1;
  const std::size_t flag_bytes = Functor::Flags::shmem_size(max_entries);
  const int level = flag_bytes <= 16384 ? 0 : 1;
  Kokkos::deep_copy(exec, s.finished, 0);
  Kokkos::deep_copy(exec, s.ticket, 0u);
  if (s.n == 0) return;
  Kokkos::parallel_for("syncfree::ilu::factor_parallel",
                       typename Functor::Policy(exec, s.n, vectors, width)
                           .set_scratch_size(level, Kokkos::PerTeam(flag_bytes)),
                       Functor{IluRowData<Matrix>(s, replace), max_entries, level, width});
}

}  // namespace syncfree::impl
