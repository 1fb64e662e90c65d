// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Transpose-free QMR (Freund 1993; Saad, Iterative Methods for Sparse Linear Systems,
/// 2nd ed., Algorithm 7.8), right- or left-preconditioned, with the operator-reuse recurrences of
/// Carmona & Castillo (2012): one application of M and one of A per step.

#include "algorithms/krylov/impl/syncfree_krylov_state.hpp"
#include "algorithms/krylov/impl/syncfree_left_preconditioning.hpp"
#include "algorithms/krylov/impl/syncfree_tfqmr_step.hpp"
#include "algorithms/krylov/syncfree_krylov_options.hpp"

namespace syncfree {

/// Solves A x = b with TFQMR preconditioned by M (an approximation of A^{-1}), starting from x.
///
/// An iteration is one TFQMR step m (half of a CGS step): it applies M once and A once; the start
/// applies A twice (r0 = b - A x0 and z = A M r0) and M once, and the exit once more for the true
/// residual. The stopping test uses the recursively updated residual r = b - A x (r -= eta A M d),
/// or M (b - A x) with `options.side == left`. The shadow residual is r0. The recursive residual is
/// replaced by the true one as `options.residual_replacement` says, and always before the solve
/// reports convergence; when the true residual has not converged there, and once when the solve
/// stagnates, TFQMR restarts from it (a new shadow residual, one more application of M and two of
/// A).
///
/// \param[in,out] x initial guess on entry, solution on exit
/// \returns the status (success; not_converged; stagnated; breakdown when (v, r0) = 0 or
/// (w, r0) = 0; not_finite on NaN/Inf in b, in the operator or in the recurrences), the
/// iterations (steps) and the true relative residual ||b - A x|| / ||b|| recomputed at exit.
/// \throws DimensionMismatch when the sizes of A, M, b and x disagree; InvalidArgument on bad
/// options.
template <class Scalar, class Device>
SolveResult tfqmr_solve(const typename Device::execution_space& exec,
                        const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                        const typename Operator<Scalar, Device>::const_vector_type& b,
                        const typename Operator<Scalar, Device>::vector_type& x,
                        const KrylovOptions& options = {}) {
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  impl::check_krylov_options("tfqmr_solve", options);
  impl::check_krylov_sizes("tfqmr_solve", A, M, b.extent(0), x.extent(0));
  if (options.side == Preconditioning::left)
    return impl::solve_left_preconditioned(
        exec, A, M, b, x, options,
        [](const auto& e, const auto& MA, const auto& I, const auto& Mb, const auto& y,
           const KrylovOptions& o) { return tfqmr_solve(e, MA, I, Mb, y, o); });
  const std::size_t n = A.num_rows();
  const auto work = [n](const std::string& label) {
    return impl::work_vector<Scalar, Device>(label, n);
  };
  // v, p and q start at zero (the recurrences scale them by zero, which would keep garbage NaN).
  const impl::TfqmrVectors<Scalar, Device> v{x,
                                             work("syncfree::tfqmr::r"),
                                             work("syncfree::tfqmr::r0"),
                                             work("syncfree::tfqmr::w"),
                                             work("syncfree::tfqmr::u"),
                                             vector_type("syncfree::tfqmr::v", n),
                                             work("syncfree::tfqmr::y"),
                                             work("syncfree::tfqmr::z"),
                                             vector_type("syncfree::tfqmr::p", n),
                                             vector_type("syncfree::tfqmr::q", n)};
  impl::KrylovRun<Scalar, Device> run(options, impl::tfqmr_slot::count);

  impl::residual(exec, A, b, x, v.r);
  run.start(exec, b, v.r);
  if (run.running()) impl::tfqmr_start(exec, A, M, run.state(), v);
  int step = 0;
  run.keep_best_iterate(x);
  run.iterate(
      exec, [&] { impl::tfqmr_step(exec, A, M, run.state(), v, step++); },
      impl::TrueResidual<Scalar, Device>{A, b, x, v.r},
      [&](impl::Replacement why) {
        // The recursion's r is its own vector: replacing it keeps the recurrences. A convergence
        // the true residual denies, or stagnation, means they drifted: restart them from it.
        if (why == impl::Replacement::drop) return;
        impl::tfqmr_restart(exec, A, M, run.state(), v);
        step = 0;
      });
  return run.finish(exec, A, b, x, v.r);
}

}  // namespace syncfree
