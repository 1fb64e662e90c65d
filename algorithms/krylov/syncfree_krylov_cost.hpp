// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The performance model's formula for one iteration of a Krylov solver: its products with
/// A and applications of M, each predicted by its own formula (predict_spmv, predict_jacobi_apply,
/// predict_fsai_apply, ...), plus what the solver's own kernels take:
///
///   T = s * T_A + m * T_M + k * 8 n / copy bandwidth + l * t_launch
///
/// s and m are the products and applications an iteration makes (CG: 1 and 1; BiCGStab: 2 and 2;
/// GMRES(restart): 1 and 1 + 1/restart, the last for the update at a restart). k counts the passes
/// over n-vectors of the dot products, updates and orthogonalization (GMRES's grows with the
/// basis: 2 passes over half the basis on average under MGS), l the launches and the host's read
/// of the state, in launches. k and l were fitted per solver by perf_tests/model/fit_model.py
/// --kernel krylov to bench_krylov on an H200, on part of the grid and unstructured suites. The
/// number of iterations is never predicted: it is measured, or given.

#include "algorithms/krylov/syncfree_krylov.hpp"
#include "core/syncfree_cost_model.hpp"
#include "core/syncfree_error.hpp"

namespace syncfree {

namespace impl {
struct KrylovCostConstants {
  double products = 1;       ///< s
  double applies = 1;        ///< m
  double vector_passes = 0;  ///< k (GMRES: restart, for MGS's 2 passes over half the basis, + k)
  double launches = 0;       ///< l
};

inline KrylovCostConstants krylov_cost_constants(KrylovSolver solver, int restart) {
  switch (solver) {
    case KrylovSolver::cg:
      return {1, 1, 12.528, 5.602};
    case KrylovSolver::bicgstab:
      return {2, 2, 17.302, 20.454};
    case KrylovSolver::gmres:
    case KrylovSolver::fgmres:
      return {1, 1 + 1.0 / restart, 4.272 + restart, 16.449};
    default:
      throw NotSupported("predict_krylov_iteration: no formula for this solver yet");
  }
}
}  // namespace impl

/// The predicted time of one iteration of `solver` on n unknowns, given the predictions of one
/// product with A and one application of M. \throws NotSupported for TFQMR (no formula yet).
inline Prediction predict_krylov_iteration(const DeviceParameters& p, KrylovSolver solver, long n,
                                           const Prediction& product, const Prediction& apply,
                                           int restart = 30) {
  SYNCFREE_REQUIRE(restart >= 1, InvalidArgument, "predict_krylov_iteration: restart must be >= 1");
  const auto k = impl::krylov_cost_constants(solver, restart);
  Prediction prediction;
  prediction.terms = {{"products with A", k.products * product.seconds},
                      {"preconditioner", k.applies * apply.seconds},
                      {"vector passes", k.vector_passes * streaming_seconds(p, 8.0 * double(n))},
                      {"launches", k.launches * p.launch_latency}};
  for (const auto& t : prediction.terms) prediction.seconds += t.seconds;
  return prediction;
}

}  // namespace syncfree
