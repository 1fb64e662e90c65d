// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <ostream>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

// The recursive residual of BiCGStab and TFQMR drifts from b - A x by rounding errors of the size
// of eps times the largest residual met (van der Vorst & Ye, 2000). Starting far from the solution
// makes that drift larger than the tolerance: without replacement the solver stops on a residual
// that is not true; with it, it reaches the tolerance.

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

struct Case {
  const char* solver;
  const char* problem;
};

std::ostream& operator<<(std::ostream& out, const Case& c) { return out << c.solver; }

class ResidualReplacement : public ::testing::TestWithParam<Case> {
 protected:
  SolveResult solve_from_far(double replacement, Vector<double, Device>& x) const {
    auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec(GetParam().problem));
    CrsOperator<M> A(problem.A);
    JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
    x = Vector<double, Device>("x", A.num_rows());
    Kokkos::deep_copy(x, 1e9);  // ||r0|| ~ 1e9 ||b||
    KrylovOptions options;
    options.tolerance = 1e-10;
    options.max_iterations = 5000;
    options.residual_replacement = replacement;
    return krylov_solve(parse_krylov_solver(GetParam().solver), ExecSpace(), A, jacobi, problem.b,
                        x, GmresOptions{options});
  }
};

TEST_P(ResidualReplacement, ReachesATrueToleranceTheRecursionAloneMisses) {
  Vector<double, Device> x;
  const SolveResult without = solve_from_far(0, x);
  EXPECT_GT(without.relative_residual, 1e-10) << "no drift: the test shows nothing";
  EXPECT_EQ(without.residual_replacements, 0);

  const SolveResult with = solve_from_far(1e-2, x);
  EXPECT_EQ(with.status, Status::success) << with.reason;
  EXPECT_LE(with.relative_residual, 1e-10);
  EXPECT_GT(with.residual_replacements, 0);
}

TEST_P(ResidualReplacement, ReachesTheTrueToleranceAtEveryReplacementFraction) {
  for (const double replacement : {1e-1, 1e-2, 1e-4, KrylovOptions{}.residual_replacement}) {
    Vector<double, Device> x;
    const SolveResult result = solve_from_far(replacement, x);
    EXPECT_EQ(result.status, Status::success) << "replacement " << replacement;
    EXPECT_LE(result.relative_residual, 1e-10) << "replacement " << replacement;
  }
}

// On the double-glazing convection-diffusion matrix with Jacobi, BiCGStab's residual jumps by
// orders of magnitude from one iteration to the next, and a replacement changes the recursion it
// continues from. With the default, replacements come late enough (or only before convergence)
// that the solve takes the iterations it takes without any; replacing at every 100-fold fall
// costs half as many again on this matrix (10 replacements, 138 iterations against 92).
TEST(ResidualReplacementDefault, LeavesAnErraticBiCGStabConverging) {
  const M A = double_glazing_convdiff(316, 1);
  CrsOperator<M> op(A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), A);
  Vector<double, Device> b("b", op.num_rows());
  Kokkos::deep_copy(b, 1.0);
  auto solve = [&](double replacement) {
    Vector<double, Device> x("x", op.num_rows());
    KrylovOptions options;
    options.tolerance = 1e-8;
    options.max_iterations = 1000;
    options.residual_replacement = replacement;
    return bicgstab_solve(ExecSpace(), op, jacobi, b, x, options);
  };
  const SolveResult none = solve(0);
  ASSERT_EQ(none.status, Status::success) << none.reason;
  const SolveResult with_default = solve(KrylovOptions{}.residual_replacement);
  EXPECT_EQ(with_default.status, Status::success) << with_default.reason;
  EXPECT_LE(with_default.relative_residual, 1e-8);
  EXPECT_LE(with_default.iterations, none.iterations + none.iterations / 10);
}

INSTANTIATE_TEST_SUITE_P(Solvers, ResidualReplacement,
                         ::testing::Values(Case{"bicgstab", "convdiff2d:24:10"},
                                           Case{"tfqmr", "convdiff2d:24:10"}),
                         [](const auto& info) { return std::string(info.param.solver); });

}  // namespace
}  // namespace syncfree::test
