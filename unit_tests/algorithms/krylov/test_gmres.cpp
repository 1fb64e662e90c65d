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
                      Case{"banded:300:6", true, 5, Orthogonalization::cgs2},
                      // Wider than one pass over the basis takes: blocks of 32 columns.
                      Case{"convdiff2d:24", true, 45, Orthogonalization::mgs},
                      Case{"convdiff2d:24", true, 45, Orthogonalization::cgs2}));

/// The passes over the basis against host loops, for widths that leave columns of a group unused,
/// fill one exactly, and take several groups.
TEST(GmresBasisSums, ProjectAndUpdateMatchHostLoops) {
  const int n = 1000;
  for (int c : {1, 7, 8, 9, 16, 31, 32, 33, 70}) {
    Kokkos::View<double**, Kokkos::LayoutLeft, Device> B("B", n, c);
    auto host_B = Kokkos::create_mirror_view(B);
    std::vector<double> u(n), v(n), w(n), h(c);
    for (int i = 0; i < n; ++i) {
      for (int l = 0; l < c; ++l) host_B(i, l) = std::sin(0.01 * (i + 1) * (l + 1)) + 0.1 * l;
      u[i] = std::cos(0.03 * i);
      v[i] = 1.0 / (1.0 + i);
      w[i] = 1.0 + 0.001 * i;
    }
    for (int l = 0; l < c; ++l) h[l] = 0.5 - 0.01 * l;
    Kokkos::deep_copy(B, host_B);
    auto device_w = to_view<double>(w);
    Vector<double, Device> sums("sums", impl::basis_sums_length(c)), norm("norm", 1);

    impl::project_on_basis<1>(ExecSpace(), B, to_view<double>(u), to_view<double>(u), sums);
    const auto one = to_std(sums);
    impl::project_on_basis<2>(ExecSpace(), B, to_view<double>(u), to_view<double>(v), sums);
    const auto two = to_std(sums);
    impl::update_with_basis(ExecSpace(), B, to_view<double>(h), device_w, norm);
    const auto updated = to_std(device_w);

    for (int l = 0; l < c; ++l) {
      double bu = 0, bv = 0;
      for (int i = 0; i < n; ++i) {
        bu += host_B(i, l) * u[i];
        bv += host_B(i, l) * v[i];
      }
      EXPECT_NEAR(one[l], bu, 1e-12 * n) << "c = " << c << ", column " << l;
      EXPECT_NEAR(two[impl::basis_sum_index<2>(l, 0)], bu, 1e-12 * n) << "c = " << c << ", " << l;
      EXPECT_NEAR(two[impl::basis_sum_index<2>(l, 1)], bv, 1e-12 * n) << "c = " << c << ", " << l;
    }
    double ww = 0;
    for (int i = 0; i < n; ++i) {
      for (int l = 0; l < c; ++l) w[i] -= host_B(i, l) * h[l];
      EXPECT_NEAR(updated[i], w[i], 1e-12 * c) << "c = " << c << ", row " << i;
      ww += w[i] * w[i];
    }
    EXPECT_NEAR(to_std(norm)[0], ww, 1e-10 * ww) << "c = " << c;
  }
}

/// Step j = 3 of MGS on a basis whose columns overlap (V'V far from I), with the earlier rows of
/// L = tril(V'V) in place as the earlier steps leave them: the coefficients and the new vector
/// must be those of sequential MGS, which differ from a single classical pass by O(overlap), and
/// the step must leave row j of L.
TEST(GmresOrthogonalization, MgsStepMatchesSequentialProjections) {
  const int n = 64, j = 3, m = 6;
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) t.push_back({i, i, 1.0 + 0.05 * i});
  M A_matrix = matrix_from_triplets(n, n, t);
  CrsOperator<M> A(A_matrix);
  IdentityOperator<double, Device> none(n);
  GmresOptions options;
  options.restart = m;
  options.tolerance = 0;
  impl::GmresWorkspace<double, Device> ws(n, m, false);
  impl::KrylovRun<double, Device> run(options, impl::gmres_slot::count);
  const auto ones = to_view<double>(std::vector<double>(n, 1.0));
  run.start(ExecSpace(), ones, ones);

  // Unit columns that overlap by about 0.3, and the state the first j steps leave behind.
  std::vector<std::vector<double>> v(j + 1, std::vector<double>(n));
  for (int l = 0; l <= j; ++l) {
    double norm = 0;
    for (int k = 0; k < n; ++k) {
      v[l][k] = 0.6 + std::sin(0.7 * (k + 1) * (l + 1));
      norm += v[l][k] * v[l][k];
    }
    for (double& x : v[l]) x /= std::sqrt(norm);
  }
  auto dot = [n](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (int k = 0; k < n; ++k) sum += a[k] * b[k];
    return sum;
  };
  auto V = Kokkos::create_mirror_view(ws.V);
  auto gram = Kokkos::create_mirror_view(ws.gram);
  for (int l = 0; l <= j; ++l)
    for (int k = 0; k < n; ++k) V(k, l) = v[l][k];
  for (int i = 1; i < j; ++i)
    for (int l = 0; l < i; ++l) gram(i, l) = dot(v[i], v[l]);
  Kokkos::deep_copy(ws.V, V);
  Kokkos::deep_copy(ws.gram, gram);
  Kokkos::deep_copy(ws.cs, 1.0);  // earlier rotations: the identity
  Kokkos::deep_copy(ws.g, 1.0);

  impl::gmres_step(ExecSpace(), A, none, run.state(), ws, j, Orthogonalization::mgs, false);
  run.read(ExecSpace());
  ASSERT_TRUE(run.running()) << to_string(run.cause());

  std::vector<double> w(n), h(j + 1);
  for (int k = 0; k < n; ++k) w[k] = (1.0 + 0.05 * k) * v[j][k];
  double classical_h1 = dot(w, v[1]);
  for (int i = 0; i <= j; ++i) {
    h[i] = dot(w, v[i]);
    for (int k = 0; k < n; ++k) w[k] -= h[i] * v[i][k];
  }
  const double w_norm = std::sqrt(dot(w, w));
  for (double& x : w) x /= w_norm;
  ASSERT_GT(std::abs(classical_h1 - h[1]), 1e-2);  // the overlaps matter
  Kokkos::deep_copy(V, ws.V);
  Kokkos::deep_copy(gram, ws.gram);
  const auto H = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ws.H);
  for (int i = 0; i < j; ++i) EXPECT_NEAR(H(i, j), h[i], 1e-12) << "h_" << i;
  for (int k = 0; k < n; ++k) EXPECT_NEAR(V(k, j + 1), w[k], 1e-10) << "row " << k;
  for (int l = 0; l < j; ++l)
    EXPECT_NEAR(gram(j, l), dot(v[j], v[l]), 1e-12) << "L(" << j << ", " << l << ")";
}

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
