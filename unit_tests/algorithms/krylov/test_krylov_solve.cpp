// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>
#include <ostream>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

// What every solver must do alike (status paths, zero b, batched state reads), tested once for
// all of them through `krylov_solve`.

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

TEST(KrylovSolve, DispatchesEverySolverByName) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("poisson2d:12"));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  for (const char* name : {"cg", "bicgstab", "gmres", "fgmres", "tfqmr"}) {
    Vector<double, Device> x("x", A.num_rows());
    const KrylovSolver solver = parse_krylov_solver(name);
    EXPECT_STREQ(to_string(solver), name);
    const SolveResult result = krylov_solve(solver, ExecSpace(), A, jacobi, problem.b, x);
    EXPECT_EQ(result.status, Status::success) << name << ": " << result.reason;
    EXPECT_LE(result.relative_residual, 1e-6) << name;
  }
  EXPECT_THROW(parse_krylov_solver("minres"), InvalidArgument);
}

/// A solver by name, and the problem and settings its shared tests use: SPD for CG, convective
/// for the others.
struct Solver {
  const char* name;
  const char* problem;
  int check_every;     ///< for the batched-read test
  int max_iterations;  ///< for the iteration-limit test
};

std::ostream& operator<<(std::ostream& out, const Solver& s) { return out << s.name; }

class EverySolver : public ::testing::TestWithParam<Solver> {
 protected:
  SolveResult solve(const Operator<double, Device>& A, const Operator<double, Device>& M,
                    const Vector<double, Device>& b, const Vector<double, Device>& x,
                    const GmresOptions& options = {}) const {
    return krylov_solve(parse_krylov_solver(GetParam().name), ExecSpace(), A, M, b, x, options);
  }
};

TEST_P(EverySolver, ZeroRightHandSideGivesZeroSolution) {
  CrsOperator<M> A(matrix_from_dense({{2, 1}, {0, 2}}));
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({0, 0});
  auto x = to_view<double>({5, 5});

  const SolveResult result = solve(A, none, b, x);

  EXPECT_EQ(result.status, Status::success) << result.reason;
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(to_std(x), (std::vector<double>{0, 0}));
}

TEST_P(EverySolver, ReadingTheStateEveryFewIterationsChangesNothing) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec(GetParam().problem));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  Vector<double, Device> x1("x1", A.num_rows()), xk("xk", A.num_rows());
  GmresOptions options;
  options.restart = 10;
  options.keep_history = true;
  options.residual_replacement = 0;  // decided at the checks: check_every moves it
  const SolveResult every = solve(A, jacobi, problem.b, x1, options);
  options.check_every = GetParam().check_every;
  const SolveResult batched = solve(A, jacobi, problem.b, xk, options);

  ASSERT_EQ(every.status, Status::success) << every.reason;
  EXPECT_EQ(batched.status, Status::success);
  EXPECT_EQ(batched.iterations, every.iterations);
  EXPECT_EQ(batched.history, every.history);
  EXPECT_EQ(to_std(xk), to_std(x1));  // the iterations after convergence leave x alone
}

TEST_P(EverySolver, ReportsNotConvergedAtTheIterationLimit) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec(GetParam().problem));
  CrsOperator<M> A(problem.A);
  IdentityOperator<double, Device> none(A.num_rows());
  Vector<double, Device> x("x", A.num_rows());
  GmresOptions options;
  options.max_iterations = GetParam().max_iterations;
  options.restart = 3;

  const SolveResult result = solve(A, none, problem.b, x, options);

  EXPECT_EQ(result.status, Status::not_converged);
  EXPECT_EQ(result.iterations, GetParam().max_iterations);
  EXPECT_GT(result.relative_residual, 1e-6);
}

TEST_P(EverySolver, ReportsNaNOrInfInTheRightHandSide) {
  CrsOperator<M> A(matrix_from_dense({{2, 0}, {0, 2}}));
  IdentityOperator<double, Device> none(2);
  Vector<double, Device> x("x", 2);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& bad :
       {std::vector<double>{1, nan}, std::vector<double>{1, inf}, std::vector<double>{-inf, 1}}) {
    const SolveResult result = solve(A, none, to_view(bad), x);
    EXPECT_EQ(result.status, Status::not_finite);
    EXPECT_NE(result.reason.find("right-hand side is not finite"), std::string::npos)
        << result.reason;
  }
}

TEST_P(EverySolver, ReportsNaNInTheMatrix) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({1, 1});
  Vector<double, Device> x("x", 2);
  for (const auto& dense : {std::vector<std::vector<double>>{{2, nan}, {0, 2}},
                            std::vector<std::vector<double>>{{2, 0}, {nan, 2}},
                            std::vector<std::vector<double>>{{nan, 0}, {0, 2}}}) {
    CrsOperator<M> A(matrix_from_dense(dense));
    const SolveResult result = solve(A, none, b, x);
    EXPECT_EQ(result.status, Status::not_finite);
    EXPECT_NE(result.reason.find("initial residual is not finite"), std::string::npos)
        << result.reason;
  }
}

/// The 1-D Neumann Laplacian (singular, its null space the constant vector) and a b with a
/// component along that null space, |sum b| / sqrt(n), which bounds ||b - A x|| from below for
/// every x: every solver stagnates above a tolerance below that.
struct InconsistentSystem {
  M A;
  Vector<double, Device> b;
};

InconsistentSystem inconsistent_system(int n) {
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i) {
    if (i > 0) t.push_back({i, i - 1, -1});
    t.push_back({i, i, i == 0 || i == n - 1 ? 1.0 : 2.0});
    if (i + 1 < n) t.push_back({i, i + 1, -1});
  }
  std::vector<double> b(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) b[std::size_t(i)] = std::sin(1.3 * i) + 0.5;
  return {matrix_from_triplets(n, n, t), to_view(b)};
}

/// |sum b| / sqrt(n) / ||b||: the smallest relative residual any x reaches on it.
double attainable_relative_residual(const Vector<double, Device>& b) {
  double sum = 0, squares = 0;
  for (const double v : to_std(b)) {
    sum += v;
    squares += v * v;
  }
  return std::abs(sum) / std::sqrt(double(b.extent(0))) / std::sqrt(squares);
}

TEST_P(EverySolver, StopsWithStagnatedWhenTheResidualStopsFalling) {
  const auto system = inconsistent_system(40);
  CrsOperator<M> A(system.A);
  IdentityOperator<double, Device> none(A.num_rows());
  GmresOptions options;
  options.tolerance = 1e-8;
  options.max_iterations = 20000;
  options.stagnation_window = 60;
  options.restart = 10;
  for (const double replacement : {0.0, 1e-2}) {
    Vector<double, Device> x("x", A.num_rows());
    options.residual_replacement = replacement;

    const SolveResult result = solve(A, none, system.b, x, options);

    EXPECT_EQ(result.status, Status::stagnated) << result.reason;
    EXPECT_NE(result.reason.find("within 60 iterations"), std::string::npos) << result.reason;
    EXPECT_LT(result.iterations, 2000) << "replacement " << replacement;
    EXPECT_GE(result.relative_residual, attainable_relative_residual(system.b) * (1 - 1e-9));
  }
}

TEST(KrylovSolve, StagnatedCgReturnsTheKeptIterateWhenItIsBetter) {
  // CG on this semidefinite, inconsistent system: the residual falls a little, then grows.
  const auto system = inconsistent_system(40);
  CrsOperator<M> A(system.A);
  IdentityOperator<double, Device> none(A.num_rows());
  KrylovOptions options;
  options.tolerance = 1e-8;
  options.max_iterations = 20000;
  options.stagnation_window = 60;
  Vector<double, Device> x("x", A.num_rows());
  const SolveResult stagnated = cg_solve(ExecSpace(), A, none, system.b, x, options);
  ASSERT_EQ(stagnated.status, Status::stagnated) << stagnated.reason;

  // The same iterations without the test: the iterate CG holds when it stopped.
  options.stagnation_window = 0;
  options.max_iterations = stagnated.iterations;
  Vector<double, Device> last("last", A.num_rows());
  const SolveResult current = cg_solve(ExecSpace(), A, none, system.b, last, options);

  EXPECT_LT(stagnated.relative_residual, current.relative_residual);
  EXPECT_NE(stagnated.reason.find("x is the iterate of iteration"), std::string::npos);
}

TEST_P(EverySolver, StagnationTestCanBeTurnedOff) {
  const auto system = inconsistent_system(40);
  CrsOperator<M> A(system.A);
  IdentityOperator<double, Device> none(A.num_rows());
  Vector<double, Device> x("x", A.num_rows());
  GmresOptions options;
  options.tolerance = 1e-8;
  options.max_iterations = 300;
  options.stagnation_window = 0;
  options.restart = 10;

  const SolveResult result = solve(A, none, system.b, x, options);

  EXPECT_NE(result.status, Status::stagnated);
  EXPECT_NE(result.status, Status::success);
}

TEST_P(EverySolver, RejectsBadStagnationAndReplacementOptions) {
  CrsOperator<M> A(matrix_from_dense({{2, 0}, {0, 2}}));
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({1, 1});
  Vector<double, Device> x("x", 2);
  GmresOptions negative_window, factor_one, replacement_one;
  negative_window.stagnation_window = -1;
  factor_one.stagnation_factor = 1;
  replacement_one.residual_replacement = 1;
  EXPECT_THROW(solve(A, none, b, x, negative_window), InvalidArgument);
  EXPECT_THROW(solve(A, none, b, x, factor_one), InvalidArgument);
  EXPECT_THROW(solve(A, none, b, x, replacement_one), InvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(Solvers, EverySolver,
                         ::testing::Values(Solver{"cg", "poisson2d:16", 7, 3},
                                           Solver{"bicgstab", "convdiff2d:20", 5, 3},
                                           Solver{"gmres", "convdiff2d:16", 4, 7},
                                           Solver{"fgmres", "convdiff2d:16", 4, 7},
                                           Solver{"tfqmr", "convdiff2d:20", 6, 5}),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace syncfree::test
