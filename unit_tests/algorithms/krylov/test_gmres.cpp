// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_gmres.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_krylov_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
namespace ref = krylov_reference;

/// The cyclic shift e_i -> e_{i+1}: GMRES(m) with m < n makes no progress from b = e_1, because
/// the Krylov space of dimension < n holds no better approximation (Saad, Sec. 6.5.x exercises).
M cyclic_shift(int n) {
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) t.push_back({(i + 1) % n, i, 1.0});
  return matrix_from_triplets(n, n, t);
}

Vector<double, Device> first_unit_vector(int n) {
  std::vector<double> e1(n, 0.0);
  e1[0] = 1;
  return to_view<double>(e1);
}

struct Case {
  const char* spec;
  bool jacobi;
  int restart;
  Orthogonalization ortho;
};

class GmresMatchesTheReference : public ::testing::TestWithParam<Case> {};

TEST_P(GmresMatchesTheReference, InIterationsAndSolution) {
  const Case c = GetParam();
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec(c.spec));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  IdentityOperator<double, Device> none(A.num_rows());
  const Operator<double, Device>& precond =
      c.jacobi ? static_cast<const Operator<double, Device>&>(jacobi) : none;
  Vector<double, Device> x("x", A.num_rows());
  GmresOptions options;
  options.tolerance = 1e-8;
  options.max_iterations = 3000;
  options.restart = c.restart;
  options.orthogonalization = c.ortho;
  options.keep_history = true;

  const SolveResult result = gmres_solve(ExecSpace(), A, precond, problem.b, x, options);

  ASSERT_EQ(result.status, Status::success) << result.reason;
  EXPECT_LE(result.relative_residual, 1e-8);  // convergence is decided on the explicit residual
  EXPECT_EQ(result.history.size(), std::size_t(result.iterations) + 1);
  const auto host_A = to_host(problem.A);
  const auto dinv =
      c.jacobi ? ref::inverse_diagonal(host_A) : ref::vec(std::size_t(host_A.numRows()), 1.0);
  const int expected = ref::gmres(host_A, dinv, to_std(problem.b), 1e-8, 3000, c.restart);
  ASSERT_GT(expected, 0);
  // GMRES minimizes the residual, so its estimate decreases monotonically and crosses the
  // threshold at the same step unless rounding lands right on it: +-1.
  EXPECT_NEAR(result.iterations, expected, 1);
  expect_near_entrywise(to_std(x), to_std(problem.x_true), 1e-5);
}

INSTANTIATE_TEST_SUITE_P(
    Problems, GmresMatchesTheReference,
    ::testing::Values(Case{"poisson2d:20", false, 30, Orthogonalization::mgs},
                      Case{"poisson2d:20", false, 30, Orthogonalization::cgs2},
                      Case{"convdiff2d:24", true, 20, Orthogonalization::mgs},
                      Case{"convdiff2d:24", true, 20, Orthogonalization::cgs2},
                      Case{"convdiff3d:8:30", false, 10, Orthogonalization::mgs},
                      Case{"banded:300:6", true, 5, Orthogonalization::cgs2}));

TEST(Gmres, WithRestartNConvergesInAtMostNSteps) {
  // The cyclic shift needs all n steps: the n-th Krylov space contains the solution.
  const int n = 12;
  CrsOperator<M> A(cyclic_shift(n));
  IdentityOperator<double, Device> none(n);
  auto b = first_unit_vector(n);
  for (Orthogonalization ortho : {Orthogonalization::mgs, Orthogonalization::cgs2}) {
    Vector<double, Device> x("x", n);
    GmresOptions options;
    options.restart = n;
    options.tolerance = 1e-12;
    options.orthogonalization = ortho;

    const SolveResult result = gmres_solve(ExecSpace(), A, none, b, x, options);

    EXPECT_EQ(result.status, Status::success) << to_string(ortho) << ": " << result.reason;
    EXPECT_EQ(result.iterations, n) << to_string(ortho);
    EXPECT_LE(result.relative_residual, 1e-12);
  }
}

TEST(Gmres, WithASmallerRestartStagnatesOnTheCyclicShift) {
  const int n = 12;
  CrsOperator<M> A(cyclic_shift(n));
  IdentityOperator<double, Device> none(n);
  auto b = first_unit_vector(n);
  Vector<double, Device> x("x", n);
  GmresOptions options;
  options.restart = n - 1;
  options.max_iterations = 5 * n;
  options.keep_history = true;

  const SolveResult result = gmres_solve(ExecSpace(), A, none, b, x, options);

  EXPECT_EQ(result.status, Status::not_converged);
  EXPECT_EQ(result.iterations, 5 * n);
  EXPECT_NEAR(result.relative_residual, 1.0, 1e-12);  // no progress at all
  for (double h : result.history) EXPECT_NEAR(h, 1.0, 1e-12);
}

TEST(Gmres, RestartsAreCountedInTheIterations) {
  // With restart 5 the solve needs several cycles; the history spans them all.
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("convdiff2d:16"));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  Vector<double, Device> x("x", A.num_rows());
  GmresOptions options;
  options.restart = 5;
  options.keep_history = true;
  options.max_iterations = 2000;

  const SolveResult result = gmres_solve(ExecSpace(), A, jacobi, problem.b, x, options);

  ASSERT_EQ(result.status, Status::success) << result.reason;
  EXPECT_GT(result.iterations, 2 * options.restart);
  ASSERT_EQ(result.history.size(), std::size_t(result.iterations) + 1);
  // Within a cycle the estimate never grows (GMRES minimizes the residual over a growing space).
  for (int k = 1; k <= result.iterations; ++k) {
    if ((k - 1) % options.restart != 0) {
      EXPECT_LE(result.history[k], result.history[k - 1] * (1 + 1e-12)) << "step " << k;
    }
  }
}

TEST(Gmres, LuckyBreakdownIsConvergence) {
  // A = 2 I: the first Arnoldi step finds an invariant space, ||w|| = 0.
  CrsOperator<M> A(matrix_from_dense({{2, 0, 0}, {0, 2, 0}, {0, 0, 2}}));
  IdentityOperator<double, Device> none(3);
  auto b = to_view<double>({1, 2, 3});
  Vector<double, Device> x("x", 3);

  const SolveResult result = gmres_solve(ExecSpace(), A, none, b, x);

  EXPECT_EQ(result.status, Status::success) << result.reason;
  EXPECT_EQ(result.iterations, 1);
  expect_near_entrywise(to_std(x), std::vector<double>{0.5, 1, 1.5}, 1e-14);
}

TEST(Gmres, ReportsBreakdownOnASingularHessenberg) {
  // A e1 = 0, b = e1: the first column of H is zero, both Givens inputs are zero.
  CrsOperator<M> A(matrix_from_dense({{0, 0}, {0, 1}}));
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({1, 0});
  for (Orthogonalization ortho : {Orthogonalization::mgs, Orthogonalization::cgs2}) {
    Vector<double, Device> x("x", 2);
    GmresOptions options;
    options.orthogonalization = ortho;

    const SolveResult result = gmres_solve(ExecSpace(), A, none, b, x, options);

    EXPECT_EQ(result.status, Status::breakdown) << to_string(ortho);
    EXPECT_NE(result.reason.find("singular"), std::string::npos) << result.reason;
    EXPECT_EQ(to_std(x), (std::vector<double>{0, 0}));
  }
}

TEST(Gmres, RepeatsBitForBit) {
  // The same solve twice gives the same bits, with either orthogonalization. On CUDA, Kokkos
  // Kernels' gemv once made two runs differ in their last bits.
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("convdiff2d:24"));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  for (Orthogonalization ortho : {Orthogonalization::mgs, Orthogonalization::cgs2}) {
    GmresOptions options;
    options.restart = 10;
    options.keep_history = true;
    options.orthogonalization = ortho;
    Vector<double, Device> x1("x1", A.num_rows()), x2("x2", A.num_rows());

    const SolveResult first = gmres_solve(ExecSpace(), A, jacobi, problem.b, x1, options);
    const SolveResult second = gmres_solve(ExecSpace(), A, jacobi, problem.b, x2, options);

    ASSERT_EQ(first.status, Status::success) << to_string(ortho) << ": " << first.reason;
    EXPECT_GT(first.iterations, options.restart) << to_string(ortho);  // x is updated, restarted
    EXPECT_EQ(second.history, first.history) << to_string(ortho);
    EXPECT_EQ(to_std(x2), to_std(x1)) << to_string(ortho);
  }
}

TEST(Gmres, LeftPreconditioningConverges) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("convdiff2d:24"));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  Vector<double, Device> x("x", A.num_rows());
  GmresOptions options;
  options.tolerance = 1e-10;
  options.side = Preconditioning::left;
  options.max_iterations = 2000;

  const SolveResult result = gmres_solve(ExecSpace(), A, jacobi, problem.b, x, options);

  ASSERT_EQ(result.status, Status::success) << result.reason;
  EXPECT_LE(result.relative_residual, 1e-8);  // the test saw the preconditioned residual
  expect_near_entrywise(to_std(x), to_std(problem.x_true), 1e-6);
}

TEST(Gmres, AnIterationLimitInsideACycleStillUpdatesX) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("convdiff2d:20"));
  CrsOperator<M> A(problem.A);
  IdentityOperator<double, Device> none(A.num_rows());
  Vector<double, Device> x("x", A.num_rows());
  GmresOptions options;
  options.max_iterations = 7;
  options.restart = 3;

  const SolveResult result = gmres_solve(ExecSpace(), A, none, problem.b, x, options);

  EXPECT_EQ(result.status, Status::not_converged);
  EXPECT_EQ(result.iterations, 7);
  EXPECT_GT(result.relative_residual, 1e-6);
  EXPECT_LT(result.relative_residual, 1.0);  // the partial last cycle still updated x
}

TEST(Gmres, RejectsABadRestart) {
  CrsOperator<M> A(matrix_from_dense({{2, 0}, {0, 2}}));
  IdentityOperator<double, Device> none(2);
  Vector<double, Device> b("b", 2), x("x", 2);
  GmresOptions options;
  options.restart = 0;
  EXPECT_THROW(gmres_solve(ExecSpace(), A, none, b, x, options), InvalidArgument);
}

}  // namespace
}  // namespace syncfree::test
