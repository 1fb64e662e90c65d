// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Restarted GMRES(m) (Saad & Schultz 1986; Saad, Iterative Methods for Sparse Linear
/// Systems, 2nd ed., Algorithms 6.9 and 9.5), right- or left-preconditioned, with modified or
/// twice-iterated classical Gram-Schmidt and Givens rotations that handle zero entries.
///
/// The Hessenberg matrix, the rotations and the small triangular solve live on the device and are
/// worked by single-thread kernels; the host reads one small buffer per `check_every` steps.

#include "algorithms/krylov/impl/syncfree_gmres_driver.hpp"
#include "algorithms/krylov/impl/syncfree_left_preconditioning.hpp"

namespace syncfree {

namespace impl {
inline void check_gmres_options(const char* solver, const GmresOptions& options) {
  check_krylov_options(solver, options);
  SYNCFREE_REQUIRE(options.restart >= 1, InvalidArgument, solver, ": restart ", options.restart,
                   " must be at least 1");
}
}  // namespace impl

/// Solves A x = b with GMRES(m), m = `options.restart`, preconditioned by M, starting from x.
///
/// Right preconditioning (the default) builds the Krylov space of A M and updates x += M V y; its
/// stopping test sees the true residual b - A x. Left preconditioning runs on M A x = M b and tests
/// M (b - A x) against ||M b||. An iteration is one Arnoldi step (one application of A and of M).
/// Convergence is decided on the explicit residual at the start of a cycle; the Givens estimate
/// only ends a cycle early, so a converged result never rests on the estimate alone.
///
/// \param[in,out] x initial guess on entry, solution on exit
/// \returns the status (success; not_converged; stagnated; breakdown when the Hessenberg matrix is
/// singular; not_finite on NaN/Inf in b, the operator, the preconditioner or the recurrences), the
/// iterations, and the true relative residual ||b - A x|| / ||b|| recomputed at exit. The history
/// holds the Givens estimate of each step.
/// \throws DimensionMismatch when the sizes of A, M, b and x disagree; InvalidArgument on bad
/// options (restart < 1, ...).
template <class Scalar, class Device>
SolveResult gmres_solve(const typename Device::execution_space& exec,
                        const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                        const typename Operator<Scalar, Device>::const_vector_type& b,
                        const typename Operator<Scalar, Device>::vector_type& x,
                        const GmresOptions& options = {}) {
  impl::check_gmres_options("gmres_solve", options);
  impl::check_krylov_sizes("gmres_solve", A, M, b.extent(0), x.extent(0));
  if (options.side == Preconditioning::left)
    return impl::solve_left_preconditioned(
        exec, A, M, b, x, options,
        [](const auto& e, const auto& MA, const auto& I, const auto& Mb, const auto& y,
           const GmresOptions& o) { return gmres_solve(e, MA, I, Mb, y, o); });
  return impl::gmres_iterate(exec, A, M, b, x, options, false);
}

}  // namespace syncfree
