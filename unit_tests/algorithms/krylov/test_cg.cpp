// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_cg.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference.hpp"
#include "unit_tests/utils/syncfree_counting_operator.hpp"
#include "unit_tests/utils/syncfree_krylov_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

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
  const auto host_A = to_host(problem.A);
  const int expected = krylov_reference::pcg(host_A, krylov_reference::inverse_diagonal(host_A),
                                             to_std(problem.b), 1e-8, 10000);
  // +-1: the device sums the dot products in another order, and the stopping test is a threshold.
  EXPECT_NEAR(result.iterations, expected, 1);
  expect_near_entrywise(to_std(x), to_std(problem.x_true), 1e-6);
}

/// Where M is diagonal (Jacobi), CG forms z = D r and r'z in the pass that updates r; through an
/// operator that hides its diagonal (CountingOperator), it applies M in a pass of its own. The
/// same iterates, to rounding: a geometric graph's Laplacian, whose diagonal varies.
TEST(Cg, FoldsADiagonalPreconditionerIntoTheResidualPass) {
  const M A_matrix = geometric_laplacian(2000);
  CrsOperator<M> A(A_matrix);
  JacobiPreconditioner<M> jacobi(ExecSpace(), A_matrix);
  ASSERT_EQ(jacobi.diagonal_entries().extent(0), A.num_rows());
  CountingOperator<double, Device> hidden(jacobi);
  ASSERT_EQ(hidden.diagonal_entries().extent(0), 0u);
  const auto b = to_view(std::vector<double>(A.num_rows(), 1.0));
  Vector<double, Device> x_folded("x_folded", A.num_rows()), x_applied("x_applied", A.num_rows());
  KrylovOptions options;
  options.tolerance = 1e-10;
  options.keep_history = true;

  const SolveResult folded = cg_solve(ExecSpace(), A, jacobi, b, x_folded, options);
  const SolveResult applied = cg_solve(ExecSpace(), A, hidden, b, x_applied, options);

  ASSERT_EQ(folded.status, Status::success) << folded.reason;
  ASSERT_EQ(applied.status, Status::success) << applied.reason;
  EXPECT_EQ(folded.iterations, applied.iterations);
  EXPECT_GT(hidden.applications(), applied.iterations);  // the other path applied M each time
  expect_near_entrywise(folded.history, applied.history, 1e-10);
  expect_near_entrywise(to_std(x_folded), to_std(x_applied), 1e-12);
  EXPECT_LE(folded.relative_residual, 1e-10);
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

TEST(Cg, ReportsBreakdownOnAnIndefiniteMatrix) {
  CrsOperator<M> A(matrix_from_dense({{1, 0}, {0, -1}}));
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({1, 1});
  Vector<double, Device> x("x", 2);

  const SolveResult result = cg_solve(ExecSpace(), A, none, b, x);

  EXPECT_EQ(result.status, Status::breakdown);
}

TEST(Cg, CallsTheMonitorWithEachIteration) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("poisson2d:8"));
  CrsOperator<M> A(problem.A);
  IdentityOperator<double, Device> none(A.num_rows());
  Vector<double, Device> x("x", A.num_rows());
  std::vector<int> seen;
  KrylovOptions options;
  options.monitor = [&seen](int iteration, double) { seen.push_back(iteration); };

  const SolveResult result = cg_solve(ExecSpace(), A, none, problem.b, x, options);

  ASSERT_EQ(int(seen.size()), result.iterations + 1);
  for (int k = 0; k <= result.iterations; ++k) EXPECT_EQ(seen[k], k);
}

TEST(Cg, StopsRelativeToTheInitialResidualWhenAsked) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("poisson2d:16"));
  CrsOperator<M> A(problem.A);
  IdentityOperator<double, Device> none(A.num_rows());
  Vector<double, Device> x("x", A.num_rows());
  Kokkos::deep_copy(x, 100.0);  // ||r0|| much larger than ||b||
  KrylovOptions options;
  options.reference = ResidualNorm::initial_residual;
  options.tolerance = 1e-3;
  options.keep_history = true;

  const SolveResult result = cg_solve(ExecSpace(), A, none, problem.b, x, options);

  ASSERT_EQ(result.status, Status::success);
  EXPECT_EQ(result.history.front(), 1.0);
  EXPECT_LE(result.history.back(), 1e-3);
  EXPECT_GT(result.history[result.history.size() - 2], 1e-3);
}

/// x takes each iteration's step in the pass after the scalar kernel (with the new direction):
/// stopped at the iteration limit, the residual of the returned x must be the last one that the
/// recurrence reported, not the one before.
TEST(Cg, ReturnsTheLastIterateAtTheIterationLimit) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("poisson2d:16"));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  Vector<double, Device> x("x", A.num_rows());
  KrylovOptions options;
  options.max_iterations = 6;
  options.keep_history = true;

  const SolveResult result = cg_solve(ExecSpace(), A, jacobi, problem.b, x, options);

  ASSERT_EQ(result.status, Status::not_converged);
  ASSERT_EQ(result.history.size(), 7u);
  const double last = result.history[6], before = result.history[5];
  ASSERT_GT(std::abs(before - last), 0.01 * last);  // the two iterates are told apart
  EXPECT_NEAR(result.relative_residual, last, 1e-9 * last);
}

TEST(Cg, RejectsMismatchedSizes) {
  CrsOperator<M> A(matrix_from_dense({{2, 0}, {0, 2}}));
  IdentityOperator<double, Device> none(3);
  Vector<double, Device> b("b", 2), x("x", 2);

  EXPECT_THROW(cg_solve(ExecSpace(), A, none, b, x), DimensionMismatch);
}

}  // namespace
}  // namespace syncfree::test
