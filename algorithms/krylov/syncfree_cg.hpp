// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Preconditioned conjugate gradients (Hestenes & Stiefel 1952; Saad, Iterative Methods
/// for Sparse Linear Systems, 2nd ed., Algorithm 9.1) for symmetric positive definite systems.
///
/// Vector work goes through Kokkos Kernels' BLAS-1; scalars come back to the host once per
/// reduction. Device-resident scalars and fused kernels come with the Krylov issue (#5).

#include <cmath>

#include "algorithms/krylov/syncfree_krylov_options.hpp"

namespace syncfree {

/// Solves A x = b with CG preconditioned by M (an approximation of A^{-1}), starting from x.
///
/// \param[in,out] x initial guess on entry, solution on exit
/// \returns the status (success, not_converged, breakdown when p'Ap <= 0 or r'z <= 0, i.e. A or M
/// is not positive definite; not_finite on NaN/Inf in b or in the recurrences), the iterations and
/// the true relative residual ||b - A x|| / ||b|| recomputed at exit.
/// \throws DimensionMismatch when the sizes of A, M, b and x disagree.
template <class Scalar, class Device>
SolveResult cg_solve(const typename Device::execution_space& exec,
                     const Operator<Scalar, Device>& A, const Operator<Scalar, Device>& M,
                     const typename Operator<Scalar, Device>::const_vector_type& b,
                     const typename Operator<Scalar, Device>::vector_type& x,
                     const KrylovOptions& options = {}) {
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  impl::check_krylov_sizes("cg_solve", A, M, b.extent(0), x.extent(0));
  const std::size_t n = A.num_rows();
  auto work = [n](const std::string& label) {
    return vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
  };
  vector_type r = work("syncfree::cg::r"), z = work("syncfree::cg::z"), p = work("syncfree::cg::p"),
              q = work("syncfree::cg::q");
  SolveResult result;
  auto finish = [&](Status status, const char* reason) {
    result.status = status;
    result.reason = reason;
    return result;
  };

  const double b_norm = double(impl::nrm2(exec, b));
  if (!std::isfinite(b_norm)) return finish(Status::not_finite, "right-hand side is not finite");
  if (b_norm == 0) {
    Kokkos::deep_copy(exec, x, Scalar(0));
    result.relative_residual = 0;
    return finish(Status::success, "");
  }

  Kokkos::deep_copy(exec, r, b);
  A.apply(exec, x, r, Scalar(-1), Scalar(1));  // r = b - A x
  double r_norm = double(impl::nrm2(exec, r));
  auto record = [&](int iteration) {
    const double relative = r_norm / b_norm;
    if (options.keep_history) result.history.push_back(relative);
    if (options.monitor) options.monitor(iteration, relative);
  };
  record(0);
  if (!std::isfinite(r_norm)) return finish(Status::not_finite, "initial residual is not finite");

  M.apply(exec, r, z);
  Kokkos::deep_copy(exec, p, z);
  Scalar rz = impl::dot(exec, r, z);
  result.status = Status::not_converged;
  result.reason = "iteration limit reached";
  while (r_norm > options.tolerance * b_norm) {
    if (result.iterations == options.max_iterations) break;
    if (!(rz > 0)) {
      finish(std::isfinite(double(rz)) ? Status::breakdown : Status::not_finite,
             "r'z <= 0: the preconditioner is not positive definite");
      break;
    }
    A.apply(exec, p, q);
    const Scalar pq = impl::dot(exec, p, q);
    if (!(pq > 0)) {
      finish(std::isfinite(double(pq)) ? Status::breakdown : Status::not_finite,
             "p'Ap <= 0: the operator is not positive definite");
      break;
    }
    const Scalar alpha = rz / pq;
    impl::axpby(exec, alpha, p, Scalar(1), x);   // x += alpha p
    impl::axpby(exec, -alpha, q, Scalar(1), r);  // r -= alpha q
    r_norm = double(impl::nrm2(exec, r));
    ++result.iterations;
    record(result.iterations);
    if (!std::isfinite(r_norm)) {
      finish(Status::not_finite, "residual is not finite");
      break;
    }
    M.apply(exec, r, z);
    const Scalar rz_next = impl::dot(exec, r, z);
    impl::axpby(exec, Scalar(1), z, rz_next / rz, p);  // p = z + beta p
    rz = rz_next;
  }
  if (r_norm <= options.tolerance * b_norm) finish(Status::success, "");
  result.relative_residual = impl::true_relative_residual(exec, A, b, x, r, b_norm);
  return result;
}

}  // namespace syncfree
