// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief The restart loop shared by GMRES(m) and FGMRES(m).

#include "algorithms/krylov/impl/syncfree_gmres_arnoldi.hpp"

namespace syncfree {

/// Options of the GMRES family.
struct GmresOptions : KrylovOptions {
  /// Arnoldi steps per cycle (the m of GMRES(m)); the basis holds m + 1 vectors of n entries.
  int restart = 30;
  Orthogonalization orthogonalization = Orthogonalization::mgs;
};

namespace impl {

/// Restarted right-preconditioned GMRES (flexible = false) or FGMRES (flexible = true).
///
/// Each cycle starts from the explicit residual r = b - A x, which alone decides convergence;
/// inside a cycle the Givens estimate |g_{j+1}| ends the cycle early once it meets the tolerance.
/// The host reads the state after every `check_every` steps, each read while the next steps run,
/// and at the end of each cycle.
template <class Scalar, class Device>
SolveResult gmres_iterate(const typename Device::execution_space& exec,
                          const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                          const typename Operator<Scalar, Device>::const_vector_type& b,
                          const typename Operator<Scalar, Device>::vector_type& x,
                          const GmresOptions& options, bool flexible) {
  const int m = options.restart;
  GmresWorkspace<Scalar, Device> ws(A.num_rows(), m, flexible);
  KrylovRun<Scalar, Device> run(options, gmres_slot::count);
  const auto r = ws.column(ws.V, 0);
  residual(exec, A, b, x, r);
  run.start(exec, b, r);
  while (run.running() && !run.stagnated()) {
    gmres_cycle_start(exec, run.state(), ws);
    if (run.launched() >= options.max_iterations) {
      run.read(exec);
      break;
    }
    // The steps of a cycle in batches, each read taken while the next batch runs (as
    // KrylovRun::iterate does); a step launched after the cycle ended finds it done and leaves
    // H, g and the steps counted as they are.
    const auto launch = [&](int& j, int slot) {
      for (int k = run.next_batch(m - j); k > 0; --k, ++j)
        gmres_step(exec, A, M, run.state(), ws, j, options.orthogonalization, flexible);
      run.post_read(exec, slot);
    };
    int in_flight = -1;
    for (int j = 0;;) {
      const bool more = j < m && run.launched() < options.max_iterations;
      if (in_flight < 0) {
        if (!more) break;
        launch(j, in_flight = 0);
      } else if (more && run.running() && !run.stagnated() && run.aux(1) == 0) {
        const int next = 1 - in_flight;
        launch(j, next);
        run.take_read(exec, in_flight, true);
        in_flight = next;
      } else {
        run.take_read(exec, in_flight, false);
        in_flight = -1;
        if (!run.running() || run.stagnated() || run.aux(1) != 0) break;
      }
    }
    if (run.status() == DeviceStatus::not_finite) break;
    gmres_cycle_end(exec, M, ws, int(run.aux(0)), flexible, x);
    if (!run.running() || run.stagnated()) break;
    residual(exec, A, b, x, r);
  }
  return run.finish(exec, A, b, x, ws.tmp);
}

}  // namespace impl
}  // namespace syncfree
