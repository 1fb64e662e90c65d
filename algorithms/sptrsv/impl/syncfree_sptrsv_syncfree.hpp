// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Sync-free SpTRSV, one thread per row in chain-segment order (after Liu et al., "A
/// Synchronization-Free Algorithm for Parallel Sparse Triangular Solves", Euro-Par 2016, in the
/// CSR, value-as-flag form of Dufrechou & Ezzatti, PDP 2018, and level-ordered as in SpTRSV_mr).
///
/// This is the primary template, generic over the execution space. A row waits only on the rows
/// it depends on, never on a whole level.
///
/// Forward progress. Positions are claimed through an atomic ticket, in the plan's order (chain
/// segments in level order, syncfree_sptrsv_chain_order.hpp, or level order), a topological order:
/// every dependency of position p sits at a smaller position. A unit claims a ticket only while it
/// is running, so every position a waiter waits on was claimed by a running unit, which waits in
/// turn only on smaller tickets; the smallest unfinished ticket therefore always progresses. This
/// needs units that are scheduled independently once running: OS threads on host backends (Serial
/// runs tickets in order and never waits), and on CUDA the independent thread scheduling of Volta
/// and later, which lets a lane spin while another lane of its warp produces. Nothing relies on the
/// order in which the hardware launches blocks.
///
/// Memory ordering. Each value is its own flag (the NaN sentinel, see
/// core/impl/syncfree_sentinel.hpp), written once with a relaxed atomic store and polled with
/// relaxed atomic loads. No other data travels with it, so no fence is needed.
///
/// `Kokkos::Cuda` has a specialization (cuda/syncfree_sptrsv_syncfree_cuda.hpp) that resolves
/// dependencies inside a warp through shuffles and inside a block through shared memory.

#include "algorithms/sptrsv/impl/syncfree_sptrsv_row.hpp"
#include "core/impl/syncfree_reduce_into.hpp"

namespace syncfree::impl {

/// One thread per position, in the plan's order, each waiting on its dependencies in memory.
template <class ExecSpace, class Matrix, class BColumn, class XColumn>
void sptrsv_solve_sync_free_thread(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s,
                                   const Matrix& A, const BColumn& b, const XColumn& x, bool unit) {
  using Data = SptrsvRowData<Matrix, BColumn, XColumn>;
  using ordinal_type = typename Data::ordinal_type;
  using scalar_type = typename Data::scalar_type;
  const Data d(s, A, b, x, unit);
  const auto ticket = s.ticket;
  reset_sync_free_work(exec, s);
  Kokkos::parallel_for(
      "syncfree::sptrsv::sync_free_thread", Kokkos::RangePolicy<ExecSpace>(exec, 0, s.n),
      KOKKOS_LAMBDA(const ordinal_type) {
        const ordinal_type p = ordinal_type(Kokkos::atomic_fetch_add(&ticket(), 1u));
        scalar_type sum = 0;
        for (auto k = d.row_map(p); k < d.row_map(p + 1); ++k)
          sum += d.values(d.source(k)) * Sentinel<scalar_type>::wait(&d.x_work(d.columns(k)));
        d.finish(p, d.order(p), sum);
      });
}

template <class ExecSpace, class Matrix, class BColumn, class XColumn, class Enable = void>
struct SyncFreeThreadSolve {
  static void solve(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit) {
    sptrsv_solve_sync_free_thread(exec, s, A, b, x, unit);
  }
};

/// `wavefront` and `band` (`Algorithm`): their positions are a topological order too, which the
/// generic solve runs as it runs any. CUDA runs their own kernels
/// (cuda/syncfree_sptrsv_wavefront_cuda.hpp, cuda/syncfree_sptrsv_band_cuda.hpp).
template <SptrsvAlgorithm Algorithm, class ExecSpace, class Matrix, class BColumn, class XColumn,
          class Enable = void>
struct LayoutSolve {
  static void solve(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                    const BColumn& b, const XColumn& x, bool unit) {
    sptrsv_solve_sync_free_thread(exec, s, A, b, x, unit);
  }
  /// The solve, then sums(0) = u'x and sums(1) = x'x (a pass of its own here).
  template <class U, class Sums>
  static void solve_and_dots(const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s,
                             const Matrix& A, const BColumn& b, const XColumn& x, bool unit,
                             const U& u, const Sums& sums) {
    solve(exec, s, A, b, x, unit);
    dots_into(exec, u, x, sums);
  }
};

/// The level sets of the triangle that `s` solves, for a plan whose layout did not need them: the
/// level pass. CUDA's wavefront layout finds them with its own kernel instead
/// (cuda/syncfree_sptrsv_wavefront_cuda.hpp).
template <class ExecSpace, class Matrix, class Enable = void>
struct LayoutLevels {
  static LevelSets<typename Matrix::non_const_ordinal_type, typename Matrix::device_type> compute(
      const ExecSpace& exec, const SptrsvPlanStorage<Matrix>& s) {
    return compute_level_sets(exec, s.matrix, s.triangle);
  }
};

}  // namespace syncfree::impl
