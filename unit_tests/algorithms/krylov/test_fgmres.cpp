// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_fgmres.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
using Op = Operator<double, Device>;

/// A preconditioner that changes at every application: Jacobi scaled by 1, 3, 1, 3, ...
/// (a stand-in for an inner iteration). Right-preconditioned GMRES assumes one fixed M.
class AlternatingJacobi final : public Op {
 public:
  explicit AlternatingJacobi(const Op& jacobi) : m_jacobi(jacobi) {}
  std::size_t num_rows() const override { return m_jacobi.num_rows(); }
  std::size_t num_cols() const override { return m_jacobi.num_cols(); }
  std::string name() const override { return "alternating jacobi"; }
  void apply(const ExecSpace& exec, const const_vector_type& x, const vector_type& y,
             double alpha = 1, double beta = 0) const override {
    const double scale = (m_count++ % 2 == 0) ? 1.0 : 3.0;
    m_jacobi.apply(exec, x, y, alpha * scale, beta);
  }

 private:
  const Op& m_jacobi;
  mutable int m_count = 0;
};

TEST(Fgmres, WithAFixedPreconditionerTakesTheStepsOfGmres) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("convdiff2d:24"));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  Vector<double, Device> xg("xg", A.num_rows()), xf("xf", A.num_rows());
  GmresOptions options;
  options.restart = 15;
  options.tolerance = 1e-9;
  options.max_iterations = 2000;
  options.keep_history = true;

  const SolveResult gmres = gmres_solve(ExecSpace(), A, jacobi, problem.b, xg, options);
  const SolveResult fgmres = fgmres_solve(ExecSpace(), A, jacobi, problem.b, xf, options);

  ASSERT_EQ(fgmres.status, Status::success) << fgmres.reason;
  // The same Krylov space and the same Arnoldi process: only the update x += Z y against
  // x += M (V y) rounds differently.
  EXPECT_NEAR(fgmres.iterations, gmres.iterations, 1);
  EXPECT_LE(fgmres.relative_residual, 1e-9);
  expect_near_entrywise(to_std(xf), to_std(problem.x_true), 1e-6);
}

TEST(Fgmres, ConvergesWithAPreconditionerThatChangesEveryStep) {
  auto problem = generate_problem<M>(ExecSpace(), parse_problem_spec("convdiff2d:24"));
  CrsOperator<M> A(problem.A);
  JacobiPreconditioner<M> jacobi(ExecSpace(), problem.A);
  AlternatingJacobi varying(jacobi);
  Vector<double, Device> x("x", A.num_rows());
  GmresOptions options;
  options.restart = 20;
  options.tolerance = 1e-9;
  options.max_iterations = 2000;

  const SolveResult result = fgmres_solve(ExecSpace(), A, varying, problem.b, x, options);

  ASSERT_EQ(result.status, Status::success) << result.reason;
  EXPECT_LE(result.relative_residual, 1e-9);
  expect_near_entrywise(to_std(x), to_std(problem.x_true), 1e-6);
  // Scaling each z_j spans the same space as fixed Jacobi: a flexible update (x += Z y) needs the
  // same steps; one that mapped V y back through the last preconditioner would not.
  Vector<double, Device> x_fixed("x_fixed", A.num_rows());
  const SolveResult fixed = fgmres_solve(ExecSpace(), A, jacobi, problem.b, x_fixed, options);
  ASSERT_EQ(fixed.status, Status::success) << fixed.reason;
  EXPECT_NEAR(result.iterations, fixed.iterations, 1);
}

TEST(Fgmres, ReportsBreakdownOnASingularHessenbergLikeGmres) {
  IdentityOperator<double, Device> none(2);
  CrsOperator<M> singular(matrix_from_dense({{0, 0}, {0, 1}}));
  auto e1 = to_view<double>({1, 0});
  Vector<double, Device> x("x", 2);
  EXPECT_EQ(fgmres_solve(ExecSpace(), singular, none, e1, x).status, Status::breakdown);
}

TEST(Fgmres, RejectsLeftPreconditioning) {
  CrsOperator<M> A(matrix_from_dense({{2, 0}, {0, 2}}));
  IdentityOperator<double, Device> none(2);
  Vector<double, Device> b("b", 2), x("x", 2);
  GmresOptions options;
  options.side = Preconditioning::left;
  EXPECT_THROW(fgmres_solve(ExecSpace(), A, none, b, x, options), InvalidArgument);
}

}  // namespace
}  // namespace syncfree::test
