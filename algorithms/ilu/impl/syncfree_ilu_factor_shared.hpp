// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Sync-free ILU numeric factorization with a team of one vector per row, intersecting the
/// row with its pivot row window by window through team scratch memory (the thesis' ILU_shared,
/// after SIMD sorted-set intersection): the pivot row's next `width` entries go to scratch, each
/// lane compares its entry of the row with all of them, and the window whose last column is
/// smaller advances. Worst case O(row x pivot row) comparisons, few memory round trips: the thesis
/// found it best with little parallelism. A team is one vector, so team barriers are vector
/// barriers; it claims a chunk of consecutive rows with one ticket and factors them in order.
/// Ownership, ordering and forward progress as in syncfree_ilu_factor_vector.hpp.

#include "algorithms/ilu/impl/syncfree_ilu_factor_vector.hpp"

namespace syncfree::impl {

template <class ExecSpace, class Matrix>
struct IluSharedFactor {
  using Data = IluRowData<Matrix>;
  using ordinal_type = typename Data::ordinal_type;
  using offset_type = typename Data::offset_type;
  using scalar_type = typename Data::scalar_type;
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Policy::member_type;
  using ScratchSpace = typename ExecSpace::scratch_memory_space;
  template <class T>
  using Scratch = Kokkos::View<T*, ScratchSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Data d;
  int width;
  ordinal_type rows_per_team;

  static std::size_t scratch_bytes(int width) {
    return Scratch<ordinal_type>::shmem_size(width) + Scratch<scalar_type>::shmem_size(width);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& member) const {
    // A team claims `rows_per_team` consecutive positions with one atomic and factors them in
    // order: one atomic per row would serialize millions of atomics on one counter.
    ordinal_type chunk = 0;
    Kokkos::single(
        Kokkos::PerTeam(member),
        [&](ordinal_type& claimed) {
          claimed = ordinal_type(Kokkos::atomic_fetch_add(&d.ticket(), 1u));
        },
        chunk);
    Scratch<ordinal_type> window_columns(member.team_scratch(0), width);
    Scratch<scalar_type> window_values(member.team_scratch(0), width);
    for (ordinal_type p = chunk * rows_per_team; p < (chunk + 1) * rows_per_team && p < d.n; ++p)
      factor_row(member, p, window_columns, window_values);
  }

  KOKKOS_INLINE_FUNCTION void factor_row(const Member& member, ordinal_type p,
                                         const Scratch<ordinal_type>& window_columns,
                                         const Scratch<scalar_type>& window_values) const {
    const ordinal_type row = d.order(p);
    const offset_type begin = d.row_map(row), end = d.row_map(row + 1), pivot = d.diagonal(row);

    d.wait_for_pivot_rows(member, begin, pivot, width);
    for (offset_type li = begin; li < pivot; ++li) {
      const ordinal_type ref = d.entries(li);
      const offset_type ref_end = d.row_map(ref + 1);
      const scalar_type l = d.multiplier(member, li, begin, ref, width);
      // Windows of the row start at owned boundaries so that lane t always holds its own entries.
      offset_type a = begin + (li + 1 - begin) / width * width;
      offset_type b = d.diagonal(ref) + 1;
      while (a < end && b < ref_end) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, width), [&](const int lane) {
          const bool inside = b + lane < ref_end;
          window_columns(lane) = inside ? d.entries(b + lane) : ordinal_type(-1);
          window_values(lane) = inside ? d.values(b + lane) : scalar_type(0);
        });
        member.team_barrier();
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, width), [&](const int lane) {
          const offset_type k = a + lane;
          if (k <= li || k >= end) return;
          const ordinal_type column = d.entries(k);
          for (int j = 0; j < width; ++j) {
            if (window_columns(j) == column) {
              d.values(k) -= l * window_values(j);
              break;
            }
          }
        });
        const ordinal_type last_a = d.entries((a + width < end ? a + width : end) - 1);
        const ordinal_type last_b = d.entries((b + width < ref_end ? b + width : ref_end) - 1);
        member.team_barrier();
        if (last_a <= last_b) a += width;
        if (last_b <= last_a) b += width;
      }
    }
    d.finish_row(member, row, begin, pivot, width, true);
  }
};

template <class ExecSpace, class Matrix>
void ilu_factor_shared(const ExecSpace& exec, const IluPlanStorage<Matrix>& s, bool replace,
                       int width) {
  using Functor = IluSharedFactor<ExecSpace, Matrix>;
  const auto shape = ilu_vector_shape<ExecSpace>(width);
  Kokkos::deep_copy(exec, s.finished, 0);
  Kokkos::deep_copy(exec, s.ticket, 0u);
  const int rows_per_team = shape.width > 1 ? 4 : 1;
  auto policy = typename Functor::Policy(exec, (s.n + rows_per_team - 1) / rows_per_team, 1,
                                         shape.width);
  policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(shape.width)));
  Kokkos::parallel_for("syncfree::ilu::factor_shared", policy,
                       Functor{IluRowData<Matrix>(s, replace), shape.width, rows_per_team});
}

}  // namespace syncfree::impl
