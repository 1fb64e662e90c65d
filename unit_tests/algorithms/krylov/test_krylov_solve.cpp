// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

// What every solver must do alike, tested once for all of them through `krylov_solve`.

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

class EverySolver : public ::testing::TestWithParam<const char*> {};

TEST_P(EverySolver, ZeroRightHandSideGivesZeroSolution) {
  CrsOperator<M> A(matrix_from_dense({{2, 1}, {0, 2}}));
  IdentityOperator<double, Device> none(2);
  auto b = to_view<double>({0, 0});
  auto x = to_view<double>({5, 5});

  const SolveResult result =
      krylov_solve(parse_krylov_solver(GetParam()), ExecSpace(), A, none, b, x);

  EXPECT_EQ(result.status, Status::success) << result.reason;
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(to_std(x), (std::vector<double>{0, 0}));
}

INSTANTIATE_TEST_SUITE_P(Solvers, EverySolver,
                         ::testing::Values("cg", "bicgstab", "gmres", "fgmres", "tfqmr"));

}  // namespace
}  // namespace syncfree::test
