// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Preconditioned conjugate gradients (Hestenes & Stiefel 1952; Saad, Iterative Methods
/// for Sparse Linear Systems, 2nd ed., Algorithm 9.1) for symmetric positive definite systems.
///
/// The scalars (alpha, beta, r'z, p'q, ||r||) stay on the device: reductions write into a small
/// device buffer, the update kernels read it, and the host reads it once per `check_every`
/// iterations. x += alpha p, r -= alpha q and ||r||^2 share one pass.

#include <cmath>

#include "algorithms/krylov/impl/syncfree_cg_iteration.hpp"
#include "algorithms/krylov/impl/syncfree_krylov_state.hpp"
#include "algorithms/krylov/syncfree_krylov_options.hpp"

namespace syncfree {

/// Solves A x = b with CG preconditioned by M (an approximation of A^{-1}), starting from x.
///
/// \param[in,out] x initial guess on entry, solution on exit
/// \returns the status (success, not_converged, stagnated, breakdown when p'Ap <= 0 or r'z <= 0,
/// i.e. A or M is not positive definite; not_finite on NaN/Inf in b or in the recurrences), the
/// iterations and the true relative residual ||b - A x|| / ||b|| recomputed at exit.
/// \throws DimensionMismatch when the sizes of A, M, b and x disagree.
template <class Scalar, class Device>
SolveResult cg_solve(const typename Device::execution_space& exec,
                     const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                     const typename Operator<Scalar, Device>::const_vector_type& b,
                     const typename Operator<Scalar, Device>::vector_type& x,
                     const KrylovOptions& options = {}) {
  impl::check_krylov_options("cg_solve", options);
  impl::check_krylov_sizes("cg_solve", A, M, b.extent(0), x.extent(0));
  const std::size_t n = A.num_rows();
  const auto work = [n](const std::string& label) {
    return impl::work_vector<Scalar, Device>(label, n);
  };
  const impl::CgVectors<Scalar, Device> v{x, work("syncfree::cg::r"), work("syncfree::cg::z"),
                                          work("syncfree::cg::p"), work("syncfree::cg::q")};
  impl::KrylovRun<Scalar, Device> run(options, impl::cg_slot::count);
  const auto st = run.state();

  impl::residual(exec, A, b, x, v.r);
  run.start(exec, b, v.r);
  if (run.running()) {
    M.apply_and_dots(exec, v.r, v.z, v.r,
                     Kokkos::subview(st.s, std::make_pair(int(impl::cg_slot::rz_0),
                                                          int(impl::cg_slot::zz_0) + 1)));
    Kokkos::deep_copy(exec, v.p, v.z);
  }
  int parity = 0;
  run.keep_best_iterate(x);
  run.iterate(exec, [&] {
    impl::cg_iteration(exec, A, M, st, v, parity);
    parity ^= 1;
  });
  return run.finish(exec, A, b, x, v.r);
}

}  // namespace syncfree
