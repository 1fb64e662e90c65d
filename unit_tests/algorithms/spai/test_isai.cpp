// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <string>

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "algorithms/spai/syncfree_isai.hpp"
#include "unit_tests/utils/syncfree_spai_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
namespace ref = spai_reference;

IsaiOptions options(Triangle triangle, Diagonal diagonal, int power = 1) {
  IsaiOptions o;
  o.triangle = triangle;
  o.diagonal = diagonal;
  o.pattern_power = power;
  return o;
}

/// The oracle's pattern of ISAI: T's triangle with the diagonal, to the power.
ref::mask isai_pattern(const M& T, bool lower, int power) {
  auto s = ref::stored(T);
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t j = 0; j < s.size(); ++j)
      if (lower ? j > i : j < i) s[i][j] = false;
  return ref::pattern(ref::to_dense(T), s, 0.0, power);
}

/// M x on the host, for a dense M.
std::vector<double> times(const ref::dense& m, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j) y[i] += m[i][j] * x[j];
  return y;
}

TEST(Isai, IsTheExactInverseWhereThePatternHoldsIt) {
  // A bidiagonal triangle of 4 rows: its cube's pattern is the whole triangle.
  const auto L = matrix_from_dense({{2, 0, 0, 0}, {-1, 2, 0, 0}, {0, -1, 2, 0}, {0, 0, -1, 2}});
  const auto U = matrix_from_dense({{2, -1, 0, 0}, {0, 2, -1, 0}, {0, 0, 2, -1}, {0, 0, 0, 2}});
  for (const auto& [T, triangle] :
       {std::pair<M, Triangle>{L, Triangle::lower}, std::pair<M, Triangle>{U, Triangle::upper}}) {
    IsaiPlan<M> plan;
    isai_analyze(ExecSpace(), plan, T, options(triangle, Diagonal::stored, 3));
    ASSERT_TRUE(isai_factor(ExecSpace(), plan, T).ok());
    const auto m = ref::to_dense(plan.inverse()), t = ref::to_dense(T);

    for (std::size_t i = 0; i < 4; ++i)
      for (std::size_t j = 0; j < 4; ++j) {
        double mt = 0;
        for (std::size_t k = 0; k < 4; ++k) mt += m[i][k] * t[k][j];
        EXPECT_NEAR(mt, i == j ? 1.0 : 0.0, 1e-15) << to_string(triangle) << " " << i << j;
      }
  }
}

TEST(Isai, MatchesTheSerialOracleOnEitherTriangleOfACombinedMatrix) {
  const auto T = geometric_convection(70);
  const auto t = ref::to_dense(T);
  for (const Triangle triangle : {Triangle::lower, Triangle::upper})
    for (const Diagonal diagonal : {Diagonal::stored, Diagonal::unit})
      for (const int power : {1, 2}) {
        SCOPED_TRACE(std::string(to_string(triangle)) + " " + to_string(diagonal) + " power " +
                     std::to_string(power));
        const bool lower = triangle == Triangle::lower;
        IsaiPlan<M> plan;
        isai_analyze(ExecSpace(), plan, T, options(triangle, diagonal, power));
        ASSERT_TRUE(isai_factor(ExecSpace(), plan, T).ok());
        const auto p = isai_pattern(T, lower, power);
        ASSERT_EQ(ref::stored(plan.inverse()), p);

        expect_near_entrywise(
            to_std(plan.inverse().values),
            ref::at_entries(ref::isai(t, p, lower, diagonal == Diagonal::unit), plan.inverse()),
            1e-10);
      }
}

TEST(Isai, MatchesTheOracleWhereRowsOfTAreLongerThanAThreadMerges) {
  // The upper triangle of an arrow: row 0 holds 300 entries (beyond impl::merged_row_limit).
  const std::size_t n = 300;
  std::vector<std::vector<double>> u(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    u[i][i] = 4;
    if (i + 1 < n) u[i][i + 1] = -1;
    if (i > 1) u[0][i] = -0.5;
  }
  const auto T = matrix_from_dense(u);
  for (const Diagonal diagonal : {Diagonal::stored, Diagonal::unit}) {
    SCOPED_TRACE(to_string(diagonal));
    IsaiPlan<M> plan;
    isai_analyze(ExecSpace(), plan, T, options(Triangle::upper, diagonal, 1));
    ASSERT_TRUE(isai_factor(ExecSpace(), plan, T).ok());
    const auto p = ref::stored(plan.inverse());
    expect_near_entrywise(
        to_std(plan.inverse().values),
        ref::at_entries(ref::isai(u, p, false, diagonal == Diagonal::unit), plan.inverse()), 1e-10);
  }
}

TEST(Isai, ScratchOrGlobalWorkSpaceInAnyBatchesGiveTheSameInverseBitForBit) {
  const auto T = geometric_convection(90);
  const IsaiOptions in_scratch = options(Triangle::lower, Diagonal::stored, 2);
  IsaiOptions split = in_scratch, small_batches = in_scratch;
  split.scratch_unknowns = 6;
  small_batches.scratch_unknowns = 0;
  small_batches.workspace_bytes = 1024;
  IsaiPlan<M> scratch, both, batched;
  isai_analyze(ExecSpace(), scratch, T, in_scratch);
  isai_analyze(ExecSpace(), both, T, split);
  isai_analyze(ExecSpace(), batched, T, small_batches);
  ASSERT_TRUE(isai_factor(ExecSpace(), scratch, T).ok() && isai_factor(ExecSpace(), both, T).ok() &&
              isai_factor(ExecSpace(), batched, T).ok());

  EXPECT_EQ(scratch.rows_in_global_memory(), 0u);
  EXPECT_GT(both.rows_in_global_memory(), 0u);
  EXPECT_LT(both.rows_in_global_memory(), std::size_t(T.numRows()));
  EXPECT_EQ(batched.rows_in_global_memory(), std::size_t(T.numRows()));
  EXPECT_GT(batched.num_batches(), 10u);
  EXPECT_EQ(to_std(both.inverse().values), to_std(scratch.inverse().values));
  EXPECT_EQ(to_std(batched.inverse().values), to_std(scratch.inverse().values));
}

TEST(Isai, NamesTheRowOfAZeroDiagonal) {
  const auto L = matrix_from_triplets(3, 3, {{0, 0, 1}, {1, 0, 1}, {1, 1, 0.0}, {2, 2, 1}});
  IsaiPlan<M> plan;
  isai_analyze(ExecSpace(), plan, L, options(Triangle::lower, Diagonal::stored));
  const Outcome outcome = isai_factor(ExecSpace(), plan, L);

  EXPECT_EQ(outcome.status, Status::zero_pivot);
  EXPECT_EQ(outcome.index, 1);
  Vector<double, Device> x("x", 3), y("y", 3);
  EXPECT_THROW(isai_apply(ExecSpace(), plan, x, y), InvalidState);
}

TEST(Isai, RejectsMisuse) {
  const auto L = matrix_from_dense({{2, 0}, {1, 4}});
  IsaiPlan<M> plan;
  EXPECT_THROW(isai_factor(ExecSpace(), plan, L), InvalidState);
  EXPECT_THROW(isai_analyze(ExecSpace(), plan, L, options(Triangle::lower, Diagonal::stored, 4)),
               InvalidArgument);
  IsaiOptions too_much_scratch = options(Triangle::lower, Diagonal::stored);
  too_much_scratch.scratch_unknowns = 65;
  EXPECT_THROW(isai_analyze(ExecSpace(), plan, L, too_much_scratch), InvalidArgument);
  EXPECT_THROW(isai_analyze(ExecSpace(), plan, matrix_from_triplets(2, 3, {{0, 0, 1}})),
               InvalidMatrix);
  EXPECT_EQ(parse_ilu_apply("isai"), IluApply::isai);
  EXPECT_THROW(parse_ilu_apply("spai"), InvalidArgument);
}

/// What IluPreconditioner with the ISAI apply must give: P^T M_U M_L P x from the oracle's ISAI of
/// its factors (P the ordering's permutation, the identity in natural order).
std::vector<double> expected_isai_apply(const IluPreconditioner<M>& ilu,
                                        const std::vector<double>& x, int power) {
  const M& lu = ilu.plan().factors();
  const auto f = ref::to_dense(lu);
  const auto m_l = ref::isai(f, isai_pattern(lu, true, power), true, true);
  const auto m_u = ref::isai(f, isai_pattern(lu, false, power), false, false);
  const std::size_t n = x.size();
  std::vector<std::size_t> perm(n);
  for (std::size_t r = 0; r < n; ++r) perm[r] = r;
  if (!ilu.ordering().is_natural()) {
    const auto p = to_std(ilu.ordering().permutation);
    for (std::size_t r = 0; r < n; ++r) perm[r] = std::size_t(p[r]);
  }
  std::vector<double> xp(n), y(n);
  for (std::size_t r = 0; r < n; ++r) xp[r] = x[perm[r]];
  const auto z = times(m_u, times(m_l, xp));
  for (std::size_t r = 0; r < n; ++r) y[perm[r]] = z[r];
  return y;
}

TEST(Isai, IluPreconditionerAppliesTheApproximateInversesOfItsFactors) {
  const auto A = geometric_convection(120);
  const auto x = pattern_vector(120, 1.0);
  for (const OrderingMethod method : {OrderingMethod::natural, OrderingMethod::multicolor})
    for (const int power : {1, 2}) {
      SCOPED_TRACE(std::string(to_string(method)) + " power " + std::to_string(power));
      IluOptions o;
      o.apply = IluApply::isai;
      o.isai_power = power;
      OrderingOptions ordering;
      ordering.method = method;
      IluPreconditioner<M> ilu(ExecSpace(), A, o, ordering);
      ASSERT_TRUE(ilu.outcome().ok()) << ilu.outcome().reason;
      Vector<double, Device> y("y", 120);
      Kokkos::deep_copy(y, 1.0);

      ilu.apply(ExecSpace(), to_view(x), y, 2.0, -1.0);

      auto expected = expected_isai_apply(ilu, x, power);
      for (double& v : expected) v = 2 * v - 1;
      expect_near_entrywise(to_std(y), expected, 1e-12);
      EXPECT_NE(ilu.name().find("isai(" + std::to_string(power) + ")"), std::string::npos);
    }
}

TEST(Isai, GmresWithIluAndIsaiConvergesFasterThanWithJacobi) {
  const auto A = geometric_convection(600);
  IluOptions o;
  o.apply = IluApply::isai;
  o.isai_power = 2;
  IluPreconditioner<M> isai(ExecSpace(), A, o);
  JacobiPreconditioner<M> jacobi(ExecSpace(), A);
  const CrsOperator<M> op(A);
  const auto b = to_view(pattern_vector(600, 0.5));
  GmresOptions g;
  g.tolerance = 1e-8;
  auto solve = [&](const Operator<double, Device>& precond) {
    Vector<double, Device> x("x", 600);
    const SolveResult r = gmres_solve(ExecSpace(), op, precond, b, x, g);
    EXPECT_TRUE(r.converged()) << r.reason;
    EXPECT_LT(r.relative_residual, 1e-8);
    return r.iterations;
  };

  EXPECT_LT(solve(isai), solve(jacobi));
}

}  // namespace
}  // namespace syncfree::test
