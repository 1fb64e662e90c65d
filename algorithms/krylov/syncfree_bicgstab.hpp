// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief BiCGStab (van der Vorst 1992; Saad, Iterative Methods for Sparse Linear Systems, 2nd ed.,
/// Algorithm 7.7) for general nonsymmetric systems, right- or left-preconditioned.
///
/// The scalars (rho, alpha, omega and the residual norm) stay on the device; the host reads one
/// small buffer every `check_every` iterations.

#include "algorithms/krylov/impl/syncfree_bicgstab_iteration.hpp"
#include "algorithms/krylov/impl/syncfree_krylov_state.hpp"
#include "algorithms/krylov/impl/syncfree_left_preconditioning.hpp"
#include "algorithms/krylov/syncfree_krylov_options.hpp"

namespace syncfree {

/// Solves A x = b with BiCGStab preconditioned by M (an approximation of A^{-1}), starting from x.
///
/// One iteration applies A twice and M twice. The shadow residual is r0 = b - A x0. With right
/// preconditioning (the default) the stopping test uses the recurrence residual r = b - A x; with
/// `options.side == left` it uses M (b - A x), against ||M b||. The iteration ends after its first
/// half when ||s|| already meets the tolerance. The recurrence residual is replaced by the true one
/// as `options.residual_replacement` says, and always before the solve reports convergence; once
/// when the solve stagnates, BiCGStab restarts from it (a new shadow residual).
///
/// \param[in,out] x initial guess on entry, solution on exit
/// \returns the status (success; not_converged; stagnated; breakdown when (r0, r) = 0,
/// (r0, A M p) = 0 or omega = 0; not_finite on NaN/Inf in b, in the operator or in the
/// recurrences), the iterations and the true relative residual ||b - A x|| / ||b|| recomputed at
/// exit.
/// \throws DimensionMismatch when the sizes of A, M, b and x disagree; InvalidArgument on bad
/// options.
template <class Scalar, class Device>
SolveResult bicgstab_solve(const typename Device::execution_space& exec,
                           const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                           const typename Operator<Scalar, Device>::const_vector_type& b,
                           const typename Operator<Scalar, Device>::vector_type& x,
                           const KrylovOptions& options = {}) {
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  impl::check_krylov_options("bicgstab_solve", options);
  impl::check_krylov_sizes("bicgstab_solve", A, M, b.extent(0), x.extent(0));
  if (options.side == Preconditioning::left)
    return impl::solve_left_preconditioned(
        exec, A, M, b, x, options,
        [](const auto& e, const auto& MA, const auto& I, const auto& Mb, const auto& y,
           const KrylovOptions& o) { return bicgstab_solve(e, MA, I, Mb, y, o); });
  const std::size_t n = A.num_rows();
  const auto work = [n](const std::string& label) {
    return impl::work_vector<Scalar, Device>(label, n);
  };
  // p and v start at zero: the first direction is p = r + beta (0 - omega 0).
  const impl::BicgstabVectors<Scalar, Device> v{x,
                                                work("syncfree::bicgstab::r"),
                                                work("syncfree::bicgstab::r0"),
                                                vector_type("syncfree::bicgstab::p", n),
                                                vector_type("syncfree::bicgstab::v", n),
                                                work("syncfree::bicgstab::p_hat"),
                                                work("syncfree::bicgstab::s"),
                                                work("syncfree::bicgstab::s_hat"),
                                                work("syncfree::bicgstab::t")};
  impl::KrylovRun<Scalar, Device> run(options, impl::bicgstab_slot::count);

  impl::residual(exec, A, b, x, v.r);
  run.start(exec, b, v.r);
  if (run.running()) {
    Kokkos::deep_copy(exec, v.r0, v.r);
    impl::bicgstab_start(exec, run.state(), v);
  }
  run.keep_best_iterate(x);
  run.iterate(
      exec, [&] { impl::bicgstab_iteration(exec, A, M, run.state(), v); },
      impl::TrueResidual<Scalar, Device>{A, b, x, v.r},
      [&](impl::Replacement why) {
        if (why == impl::Replacement::stagnation)
          return impl::bicgstab_restart(exec, run.state(), v);
        impl::bicgstab_residual_replaced(exec, run.state(), v);
      });
  return run.finish(exec, A, b, x, v.r);
}

}  // namespace syncfree
