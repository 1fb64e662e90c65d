// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_cg.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

/// Textbook Jacobi-preconditioned CG on the host, the oracle for iteration counts.
int reference_pcg_iterations(const HostMatrix<M>& A, const std::vector<double>& b, double tol) {
  const std::size_t n = b.size();
  std::vector<double> dinv(n), x(n, 0.0), r = b, z(n), p(n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k)
      if (std::size_t(A.graph.entries(k)) == i) dinv[i] = 1.0 / A.values(k);
  auto dot = [](const std::vector<double>& u, const std::vector<double>& v) {
    double s = 0;
    for (std::size_t i = 0; i < u.size(); ++i) s += u[i] * v[i];
    return s;
  };
  const double b_norm = std::sqrt(dot(b, b));
  for (std::size_t i = 0; i < n; ++i) z[i] = dinv[i] * r[i];
  p = z;
  double rz = dot(r, z);
  for (int it = 1; it <= 10000; ++it) {
    const auto q = reference::spmv(A, p);
    const double alpha = rz / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * p[i], r[i] -= alpha * q[i];
    if (std::sqrt(dot(r, r)) <= tol * b_norm) return it;
    for (std::size_t i = 0; i < n; ++i) z[i] = dinv[i] * r[i];
    const double rz_next = dot(r, z);
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + rz_next / rz * p[i];
    rz = rz_next;
  }
  return -1;
}

TEST(Cg, JacobiPcgSolvesPoissonLikeTheReference) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("poisson3d:10"));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  Vector<double, Device> x("x", problem.b.extent(0));
  KrylovOptions options;
  options.tolerance = 1e-8;
  options.keep_history = true;

  const SolveResult result = cg_solve(ExecSpace(), A, jacobi, problem.b, x, options);

  ASSERT_EQ(result.status, Status::success) << result.reason;
  EXPECT_LE(result.relative_residual, 1e-8);
  EXPECT_EQ(result.history.size(), std::size_t(result.iterations) + 1);
  const int expected = reference_pcg_iterations(to_host(problem.A), to_std(problem.b), 1e-8);
  EXPECT_NEAR(result.iterations, expected, 1);
  expect_near_entrywise(to_std(x), to_std(problem.x_true), 1e-6);
}

TEST(Cg, UnpreconditionedCgConvergesFromANonzeroGuess) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("poisson2d:20"));
  CrsOperator<M> A(problem.A);
  IdentityOperator<double, Device> none(A.num_rows());
  Vector<double, Device> x("x", A.num_rows());
  Kokkos::deep_copy(x, 3.0);

  const SolveResult result = cg_solve(ExecSpace(), A, none, problem.b, x);

  EXPECT_EQ(result.status, Status::success);
  EXPECT_LE(result.relative_residual, 1e-6);
}

TEST(Cg, ReportsNotConvergedAtTheIterationLimit) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("poisson2d:20"));
  CrsOperator<M> A(problem.A);
  IdentityOperator<double, Device> none(A.num_rows());
  Vector<double, Device> x("x", A.num_rows());
  KrylovOptions options;
  options.max_iterations = 3;

  const SolveResult result = cg_solve(ExecSpace(), A, none, problem.b, x, options);

  EXPECT_EQ(result.status, Status::not_converged);
  EXPECT_EQ(result.iterations, 3);
  EXPECT_GT(result.relative_residual, 1e-6);
}

TEST(Cg, ReportsBreakdownOnAnIndefiniteMatrix) {
  CrsOperator<M> A(matrix_from_dense({{1, 0}, {0, -1}}));
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({1, 1});
  Vector<double, Device> x("x", 2);

  const SolveResult result = cg_solve(ExecSpace(), A, none, b, x);

  EXPECT_EQ(result.status, Status::breakdown);
}

TEST(Cg, ReportsNaNInTheRightHandSide) {
  CrsOperator<M> A(matrix_from_dense({{1, 0}, {0, 1}}));
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({1, std::numeric_limits<double>::quiet_NaN()});
  Vector<double, Device> x("x", 2);

  EXPECT_EQ(cg_solve(ExecSpace(), A, none, b, x).status, Status::not_finite);
}

TEST(Cg, ZeroRightHandSideGivesZeroSolution) {
  CrsOperator<M> A(matrix_from_dense({{2, 0}, {0, 2}}));
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({0, 0});
  auto x = to_view<double>({5, 5});

  const SolveResult result = cg_solve(ExecSpace(), A, none, b, x);

  EXPECT_EQ(result.status, Status::success);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(to_std(x), (std::vector<double>{0, 0}));
}

TEST(Cg, RejectsMismatchedSizes) {
  CrsOperator<M> A(matrix_from_dense({{2, 0}, {0, 2}}));
  IdentityOperator<double, Device> none(3);
  Vector<double, Device> b("b", 2), x("x", 2);

  EXPECT_THROW(cg_solve(ExecSpace(), A, none, b, x), DimensionMismatch);
}

}  // namespace
}  // namespace syncfree::test
