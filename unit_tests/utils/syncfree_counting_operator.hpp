// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#pragma once

/// \file
/// \brief An operator that counts its applications, for asserting what a solver costs.

#include <string>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "core/syncfree_operator.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_status.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {

template <class Scalar, class Device>
class CountingOperator final : public Operator<Scalar, Device> {
 public:
  using base = Operator<Scalar, Device>;
  explicit CountingOperator(const base& op) : m_op(op) {}

  std::size_t num_rows() const override { return m_op.num_rows(); }
  std::size_t num_cols() const override { return m_op.num_cols(); }
  std::string name() const override { return "counting " + m_op.name(); }
  int applications() const { return m_count; }

  void apply(const typename base::execution_space& exec, const typename base::const_vector_type& x,
             const typename base::vector_type& y, Scalar alpha = Scalar(1),
             Scalar beta = Scalar(0)) const override {
    ++m_count;
    m_op.apply(exec, x, y, alpha, beta);
  }

 private:
  const base& m_op;
  mutable int m_count = 0;
};

/// What one Jacobi-preconditioned solve of a generated problem cost.
struct CountedSolve {
  SolveResult result;
  int operator_applications = 0;
  int preconditioner_applications = 0;
};

/// Runs `solve(A, M, b, x)` from x = 0 on the problem `spec`, with A and the Jacobi M counted.
template <class Solve>
CountedSolve count_applications(const std::string& spec, const Solve& solve) {
  using Matrix = TestMatrix<>;
  auto problem = generate_problem<Matrix>(ExecSpace(), parse_problem_spec(spec));
  CrsOperator<Matrix> crs(problem.A);
  JacobiPreconditioner<Matrix> jacobi(ExecSpace(), problem.A);
  CountingOperator<double, Device> A(crs), M(jacobi);
  Vector<double, Device> x("x", A.num_rows());
  const SolveResult result = solve(A, M, problem.b, x);
  return {result, A.applications(), M.applications()};
}

}  // namespace syncfree::test
