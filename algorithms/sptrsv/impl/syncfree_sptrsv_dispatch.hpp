// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Runtime switch on the algorithm, static dispatch on the execution space.

#include "algorithms/sptrsv/impl/syncfree_sptrsv_levelset.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_multirow.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_syncfree.hpp"
#include "algorithms/sptrsv/impl/syncfree_sptrsv_syncfree_row.hpp"
#include "core/impl/syncfree_reduce_into.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "algorithms/sptrsv/cuda/syncfree_sptrsv_band_cuda.hpp"
#include "algorithms/sptrsv/cuda/syncfree_sptrsv_multirow_cuda.hpp"
#include "algorithms/sptrsv/cuda/syncfree_sptrsv_syncfree_cuda.hpp"
#include "algorithms/sptrsv/cuda/syncfree_sptrsv_wavefront_cuda.hpp"
#endif

namespace syncfree::impl {

template <class ExecSpace, class Matrix, class BColumn, class XColumn>
void sptrsv_solve_column(const ExecSpace& exec, SptrsvAlgorithm algorithm,
                         const SptrsvPlanStorage<Matrix>& s, const Matrix& A, const BColumn& b,
                         const XColumn& x, bool unit) {
  switch (algorithm) {
    case SptrsvAlgorithm::level_set:
      sptrsv_solve_level_set(exec, s, A, b, x, unit);
      return;
    case SptrsvAlgorithm::sync_free_thread:
      SyncFreeThreadSolve<ExecSpace, Matrix, BColumn, XColumn>::solve(exec, s, A, b, x, unit);
      return;
    case SptrsvAlgorithm::wavefront:
      LayoutSolve<SptrsvAlgorithm::wavefront, ExecSpace, Matrix, BColumn, XColumn>::solve(
          exec, s, A, b, x, unit);
      return;
    case SptrsvAlgorithm::band:
      LayoutSolve<SptrsvAlgorithm::band, ExecSpace, Matrix, BColumn, XColumn>::solve(exec, s, A, b,
                                                                                     x, unit);
      return;
    case SptrsvAlgorithm::sync_free_row:
      sptrsv_solve_sync_free_row(exec, s, A, b, x, unit);
      return;
    case SptrsvAlgorithm::multirow:
      MultirowSolve<ExecSpace, Matrix, BColumn, XColumn>::solve(exec, s, A, b, x, unit, false);
      return;
    case SptrsvAlgorithm::packed:
    case SptrsvAlgorithm::alap_packed:
      sptrsv_pack_values(exec, s, A, unit);
      MultirowSolve<ExecSpace, Matrix, BColumn, XColumn>::solve(exec, s, A, b, x, unit, true);
      return;
    case SptrsvAlgorithm::automatic:
      break;
  }
  throw InvalidState("sptrsv_solve: the plan holds no algorithm");
}

/// sptrsv_solve_column, then sums(0) = u'x and sums(1) = x'x: in the pass that writes x where the
/// algorithm has one (LayoutSolve<wavefront> on CUDA), else in a pass of their own.
template <class ExecSpace, class Matrix, class BColumn, class XColumn, class U, class Sums>
void sptrsv_solve_column_and_dots(const ExecSpace& exec, SptrsvAlgorithm algorithm,
                                  const SptrsvPlanStorage<Matrix>& s, const Matrix& A,
                                  const BColumn& b, const XColumn& x, bool unit, const U& u,
                                  const Sums& sums) {
  if (algorithm == SptrsvAlgorithm::wavefront) {
    LayoutSolve<SptrsvAlgorithm::wavefront, ExecSpace, Matrix, BColumn, XColumn>::solve_and_dots(
        exec, s, A, b, x, unit, u, sums);
    return;
  }
  sptrsv_solve_column(exec, algorithm, s, A, b, x, unit);
  dots_into(exec, u, x, sums);
}

}  // namespace syncfree::impl
