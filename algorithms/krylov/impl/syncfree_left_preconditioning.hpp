// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief Left preconditioning for any solver: run it on M A x = M b with the identity as its
/// preconditioner, then report the true residual of A x = b.

#include <string>

#include "algorithms/krylov/syncfree_krylov_options.hpp"

namespace syncfree::impl {

/// The product M A as an operator (one work vector).
template <class Scalar, class Device>
class LeftPreconditionedOperator final : public Operator<Scalar, Device> {
 public:
  using base = Operator<Scalar, Device>;
  LeftPreconditionedOperator(const base& A, const base& M)
      : m_A(A),
        m_M(M),
        m_work(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::krylov::left_work"),
               A.num_rows()) {}

  std::size_t num_rows() const override { return m_A.num_rows(); }
  std::size_t num_cols() const override { return m_A.num_cols(); }
  std::string name() const override { return m_M.name() + " * " + m_A.name(); }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, Scalar alpha = Scalar(1),
             Scalar beta = Scalar(0)) const override {
    this->check_sizes(x, y);
    m_A.apply(exec, x, m_work);
    m_M.apply(exec, m_work, y, alpha, beta);
  }

 private:
  const base& m_A;
  const base& m_M;
  typename base::vector_type m_work;
};

/// Solves with `solve(exec, M A, I, M b, x, options)` (options.side reset to right) and replaces
/// the relative residual with the true ||b - A x|| / ||b||. The stopping test and the history
/// see the preconditioned residual M (b - A x).
template <class Scalar, class Device, class Options, class Solve>
SolveResult solve_left_preconditioned(const typename Device::execution_space& exec,
                                      const Operator<Scalar, Device>& A,
                                      const Operator<Scalar, Device>& M,
                                      const typename Operator<Scalar, Device>::const_vector_type& b,
                                      const typename Operator<Scalar, Device>::vector_type& x,
                                      Options options, const Solve& solve) {
  using vector_type = typename Operator<Scalar, Device>::vector_type;
  const LeftPreconditionedOperator<Scalar, Device> MA(A, M);
  const IdentityOperator<Scalar, Device> identity(A.num_rows());
  vector_type Mb(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::krylov::Mb"),
                 A.num_rows());
  M.apply(exec, b, Mb);
  options.side = Preconditioning::right;
  SolveResult result = solve(exec, MA, identity, Mb, x, options);
  if (!std::isfinite(result.relative_residual) && result.status == Status::not_finite) return result;
  vector_type r(Kokkos::view_alloc(Kokkos::WithoutInitializing, "syncfree::krylov::r"),
                A.num_rows());
  result.relative_residual = true_relative_residual(exec, A, b, x, r, double(nrm2(exec, b)));
  return result;
}

}  // namespace syncfree::impl
