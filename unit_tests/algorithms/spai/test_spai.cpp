// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <KokkosBlas1_scal.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "algorithms/krylov/syncfree_krylov.hpp"
#include "algorithms/spai/syncfree_spai.hpp"
#include "unit_tests/utils/syncfree_spai_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
namespace ref = spai_reference;

SpaiOptions options(SpaiSide side, int power = 1, double threshold = 0) {
  SpaiOptions o;
  o.side = side;
  o.pattern_power = power;
  o.threshold = threshold;
  return o;
}

/// The oracle's M for A and options, at the entries of `inverse`'s pattern (which must be the
/// oracle's pattern: checked), with its residuals.
std::vector<double> oracle_entries(const M& A, const SpaiOptions& o, const M& inverse,
                                   std::vector<double>& residual) {
  const auto a = ref::to_dense(A);
  const auto s = ref::stored(A);
  const auto p = ref::pattern(a, s, o.threshold, o.pattern_power);
  EXPECT_EQ(ref::stored(inverse), p) << "the pattern of M";
  const auto m = o.side == SpaiSide::right ? ref::right_spai(a, s, p, residual)
                                           : ref::left_spai(a, s, p, residual);
  return ref::at_entries(m, inverse);
}

TEST(Spai, RecoversTheInverseOfADiagonalMatrix) {
  const auto A = matrix_from_dense({{2, 0, 0}, {0, -4, 0}, {0, 0, 0.5}});
  for (const SpaiSide side : {SpaiSide::right, SpaiSide::left}) {
    SpaiPreconditioner<M> spai(ExecSpace(), A, options(side));
    ASSERT_TRUE(spai.outcome().ok()) << spai.outcome().reason;

    EXPECT_EQ(to_std(spai.plan().inverse().values), (std::vector<double>{0.5, -0.25, 2}));
    EXPECT_EQ(spai_quality(ExecSpace(), spai.plan()).max_residual, 0.0);
  }
}

TEST(Spai, RecoversTheInverseOfABlockDiagonalMatrix) {
  // Blocks [[2, 1], [1, 3]] (inverse [[3, -1], [-1, 2]] / 5) and [[4]].
  const auto A = matrix_from_dense({{2, 1, 0}, {1, 3, 0}, {0, 0, 4}});
  for (const SpaiSide side : {SpaiSide::right, SpaiSide::left}) {
    SpaiPreconditioner<M> spai(ExecSpace(), A, options(side));
    ASSERT_TRUE(spai.outcome().ok()) << spai.outcome().reason;

    expect_near_entrywise(to_std(spai.plan().inverse().values),
                          std::vector<double>{0.6, -0.2, -0.2, 0.4, 0.25}, 1e-15);
    EXPECT_LT(spai_quality(ExecSpace(), spai.plan()).max_residual, 1e-15);
  }
}

TEST(Spai, RecoversATriangularInverseOnAGivenPattern) {
  // L = [[1], [-1, 1], [0, -1, 1]] has L^{-1} = the lower triangle of ones.
  const auto L = matrix_from_dense({{1, 0, 0}, {-1, 1, 0}, {0, -1, 1}});
  const auto pattern = matrix_from_dense({{1, 0, 0}, {1, 1, 0}, {1, 1, 1}});
  for (const SpaiSide side : {SpaiSide::right, SpaiSide::left}) {
    SpaiPlan<M> plan;
    spai_analyze(ExecSpace(), plan, L, pattern, options(side));
    ASSERT_TRUE(spai_factor(ExecSpace(), plan, L).ok());

    expect_near_entrywise(to_std(plan.inverse().values), std::vector<double>(6, 1.0), 1e-15);
  }
}

TEST(Spai, MatchesTheSerialOracleForEverySideAndPattern) {
  for (const auto& [name, A] : {std::pair<std::string, M>{"convection", geometric_convection(60)},
                                std::pair<std::string, M>{"laplacian", geometric_laplacian(50)}})
    for (const SpaiSide side : {SpaiSide::right, SpaiSide::left})
      for (const int power : {1, 2, 3})
        for (const double threshold : {0.0, 0.3}) {
          SCOPED_TRACE(name + " " + to_string(side) + " power " + std::to_string(power) +
                       " threshold " + std::to_string(threshold));
          const SpaiOptions o = options(side, power, threshold);
          SpaiPreconditioner<M> spai(ExecSpace(), A, o);
          ASSERT_TRUE(spai.outcome().ok()) << spai.outcome().reason;
          std::vector<double> residual;
          const auto expected = oracle_entries(A, o, spai.plan().inverse(), residual);

          expect_near_entrywise(to_std(spai.plan().inverse().values), expected, 1e-11);
          expect_near_entrywise(to_std(spai.plan().residuals()), residual, 1e-11);
        }
}

TEST(Spai, CutsLongProblemsToTheirLargestEntries) {
  // Hubs: rows and columns of ~40 entries; each problem keeps at most 6 unknowns.
  const auto A = power_law_matrix(120, 3, 2);
  const auto a = ref::to_dense(A);
  const auto s = ref::stored(A);
  for (const SpaiSide side : {SpaiSide::right, SpaiSide::left}) {
    SCOPED_TRACE(to_string(side));
    SpaiOptions o = options(side);
    o.max_unknowns = 6;
    SpaiPreconditioner<M> spai(ExecSpace(), A, o);
    ASSERT_TRUE(spai.outcome().ok()) << spai.outcome().reason;
    auto p = ref::stored(spai.plan().inverse());
    const auto by_problem = side == SpaiSide::right ? ref::transpose(p) : p;
    std::size_t longest = 0;
    for (std::size_t k = 0; k < p.size(); ++k) {
      EXPECT_TRUE(by_problem[k][k]) << "the diagonal of problem " << k;
      longest = std::max<std::size_t>(longest,
                                      std::count(by_problem[k].begin(), by_problem[k].end(), true));
    }
    std::vector<double> residual;
    const auto expected = side == SpaiSide::right ? ref::right_spai(a, s, p, residual)
                                                  : ref::left_spai(a, s, p, residual);

    EXPECT_EQ(longest, 6u);
    expect_near_entrywise(to_std(spai.plan().inverse().values),
                          ref::at_entries(expected, spai.plan().inverse()), 1e-11);
  }
}

TEST(Spai, SmallBatchesGiveTheSameInverseBitForBit) {
  const auto A = geometric_convection(80);
  for (const SpaiSide side : {SpaiSide::right, SpaiSide::left}) {
    SpaiOptions one_batch = options(side, 2);
    SpaiOptions small = one_batch;
    small.workspace_bytes = 4096;
    SpaiPreconditioner<M> whole(ExecSpace(), A, one_batch), batched(ExecSpace(), A, small);
    ASSERT_TRUE(whole.outcome().ok() && batched.outcome().ok());

    EXPECT_EQ(whole.plan().num_batches(), 1u);
    EXPECT_GT(batched.plan().num_batches(), 10u);
    EXPECT_EQ(to_std(batched.plan().inverse().values), to_std(whole.plan().inverse().values));
  }
}

TEST(Spai, RefactorsNewValuesOnTheAnalyzedPattern) {
  auto A = geometric_convection(40);
  const auto B = geometric_convection(40);
  SpaiPlan<M> plan;
  spai_analyze(ExecSpace(), plan, A, options(SpaiSide::right, 2));
  ASSERT_TRUE(spai_factor(ExecSpace(), plan, A).ok());
  const auto before = to_std(plan.inverse().values);
  KokkosBlas::scal(A.values, 4.0, B.values);

  ASSERT_TRUE(spai_factor(ExecSpace(), plan, A).ok());

  std::vector<double> quarter(before);
  for (double& v : quarter) v /= 4;
  expect_near_entrywise(to_std(plan.inverse().values), quarter, 1e-14);
}

TEST(Spai, AppliesMAsOneProduct) {
  const auto A = geometric_convection(50);
  SpaiPreconditioner<M> spai(ExecSpace(), A, options(SpaiSide::left, 2));
  const auto x = to_view(pattern_vector(50, 1.0));
  Vector<double, Device> y("y", 50), expected("expected", 50);
  Kokkos::deep_copy(y, 1.0);
  Kokkos::deep_copy(expected, 1.0);

  spai.apply(ExecSpace(), x, y, 2.0, -1.0);

  KokkosSparse::spmv("N", 2.0, spai.plan().inverse(), x, -1.0, expected);
  expect_near_entrywise(to_std(y), to_std(expected), 1e-14);
}

// M is computed in double as without the option and applied with its values rounded to float,
// for either side; new values are rounded again.
TEST(Spai, SinglePrecisionValuesApplyTheRoundedInverse) {
  auto A = geometric_convection(300);
  const auto original = geometric_convection(300);
  for (const SpaiSide side : {SpaiSide::right, SpaiSide::left}) {
    SCOPED_TRACE(to_string(side));
    SpaiOptions o = options(side, 2);
    SpaiPreconditioner<M> spai(ExecSpace(), A, o);
    o.apply_precision = SpmvPrecision::single;
    SpaiPreconditioner<M> single(ExecSpace(), A, o);
    ASSERT_TRUE(single.outcome().ok()) << single.outcome().reason;
    EXPECT_EQ(single.name(), "spai, single-precision values");
    EXPECT_EQ(to_std(single.plan().inverse().values), to_std(spai.plan().inverse().values));

    const auto x = to_view(pattern_vector(300, 1.0));
    const auto expect_rounded_product = [&] {
      std::vector<double> rounded = to_std(single.plan().inverse().values);
      for (double& v : rounded) v = double(float(v));
      const M& inverse = single.plan().inverse();
      const M R = make_crs<M>("rounded", 300, 300, inverse.graph.row_map, inverse.graph.entries,
                              to_view(rounded));
      Vector<double, Device> y("y", 300), expected("expected", 300);
      Kokkos::deep_copy(y, 1.0);
      Kokkos::deep_copy(expected, 1.0);
      single.apply(ExecSpace(), x, y, 2.0, -1.0);
      KokkosSparse::spmv("N", 2.0, R, x, -1.0, expected);
      expect_near_entrywise(to_std(y), to_std(expected), 1e-13);
      Kokkos::deep_copy(expected, 1.0);
      KokkosSparse::spmv("N", 2.0, inverse, x, -1.0, expected);
      double largest_difference = 0;
      for (std::size_t i = 0; i < 300; ++i)
        largest_difference =
            std::max(largest_difference, std::abs(to_std(y)[i] - to_std(expected)[i]));
      EXPECT_GT(largest_difference, 1e-12) << "the float values were not the ones applied";
    };
    expect_rounded_product();
    KokkosBlas::scal(A.values, 4.0, original.values);
    ASSERT_TRUE(single.refactor(ExecSpace(), A).ok());
    expect_rounded_product();
    Kokkos::deep_copy(A.values, original.values);
  }
}

TEST(Spai, GmresTakesTheIterationsOfTheOraclePreconditioner) {
  const auto A = geometric_convection(400);
  for (const SpaiSide side : {SpaiSide::right, SpaiSide::left}) {
    SCOPED_TRACE(to_string(side));
    const SpaiOptions o = options(side, 2, 0.1);
    SpaiPreconditioner<M> spai(ExecSpace(), A, o);
    ASSERT_TRUE(spai.outcome().ok());
    std::vector<double> residual;
    const auto oracle = to_view(oracle_entries(A, o, spai.plan().inverse(), residual));
    const M& inverse = spai.plan().inverse();
    const CrsOperator<M> oracle_M(
        make_crs<M>("oracle", 400, 400, inverse.graph.row_map, inverse.graph.entries, oracle));
    const CrsOperator<M> op(A);
    JacobiPreconditioner<M> jacobi(ExecSpace(), A);
    const auto b = to_view(pattern_vector(400, 0.5));
    GmresOptions g;
    g.tolerance = 1e-8;
    g.restart = 30;
    auto solve = [&](const Operator<double, Device>& precond) {
      Vector<double, Device> x("x", 400);
      const SolveResult r = gmres_solve(ExecSpace(), op, precond, b, x, g);
      EXPECT_TRUE(r.converged()) << r.reason;
      return r.iterations;
    };

    const int with_spai = solve(spai), with_oracle = solve(oracle_M), with_jacobi = solve(jacobi);

    EXPECT_NEAR(with_spai, with_oracle, 1);
    EXPECT_LT(with_spai, with_jacobi);
  }
}

TEST(Spai, NamesAnEmptyColumnOfA) {
  // Column 1 of A is empty: M's column 1 (pattern {1}) has nothing to fit.
  const auto A = matrix_from_triplets(3, 3, {{0, 0, 2}, {1, 2, 1}, {2, 2, 3}});
  SpaiPreconditioner<M> spai(ExecSpace(), A, options(SpaiSide::right));

  EXPECT_EQ(spai.outcome().status, Status::rank_deficient);
  EXPECT_EQ(spai.outcome().index, 1);
  EXPECT_NE(spai.outcome().reason.find("column 1 of the approximate inverse"), std::string::npos)
      << spai.outcome().reason;
  Vector<double, Device> x("x", 3), y("y", 3);
  EXPECT_THROW(spai.apply(ExecSpace(), x, y), InvalidState);
}

TEST(Spai, NamesARankDeficientColumn) {
  const auto A = matrix_from_dense({{1, 1, 0}, {1, 1, 0}, {0, 0, 1}});
  for (const SpaiSide side : {SpaiSide::right, SpaiSide::left}) {
    SpaiPreconditioner<M> spai(ExecSpace(), A, options(side));

    EXPECT_EQ(spai.outcome().status, Status::rank_deficient) << to_string(side);
    EXPECT_EQ(spai.outcome().index, 0);
    EXPECT_NE(spai.outcome().reason.find("rank deficient"), std::string::npos);
  }
}

TEST(Spai, FallsBackToJacobisColumnWhereAskedAndCountsIt) {
  const auto A = matrix_from_dense({{1, 1, 0}, {1, 1, 0}, {0, 0, 4}});
  SpaiOptions o;
  o.fallback_to_diagonal = true;
  SpaiPreconditioner<M> spai(ExecSpace(), A, o);

  ASSERT_TRUE(spai.outcome().ok()) << spai.outcome().reason;
  EXPECT_EQ(spai.plan().fallbacks(), 2);
  EXPECT_EQ(to_std(spai.plan().inverse().values), (std::vector<double>{1, 0, 0, 1, 0.25}));
  // ||A(:, k) / a_kk - e_k||: the other entry of the column.
  EXPECT_EQ(to_std(spai.plan().residuals()), (std::vector<double>{1, 1, 0}));
}

TEST(Spai, StillNamesAColumnWithoutADiagonalToFallBackOn) {
  const auto A = matrix_from_triplets(3, 3, {{0, 0, 2}, {1, 2, 1}, {2, 2, 3}});
  SpaiOptions o;
  o.fallback_to_diagonal = true;
  SpaiPreconditioner<M> spai(ExecSpace(), A, o);

  EXPECT_EQ(spai.outcome().status, Status::rank_deficient);
  EXPECT_EQ(spai.outcome().index, 1);
}

TEST(Spai, ReportsNaNAsNotFinite) {
  const auto A = matrix_from_triplets(
      3, 3, {{0, 0, 1}, {1, 1, std::numeric_limits<double>::quiet_NaN()}, {2, 2, 1}});
  SpaiPreconditioner<M> spai(ExecSpace(), A);

  EXPECT_EQ(spai.outcome().status, Status::not_finite);
  EXPECT_EQ(spai.outcome().index, 1);
}

TEST(Spai, RejectsMisuse) {
  const auto A = matrix_from_dense({{2, 0}, {0, 4}});
  SpaiPlan<M> plan;
  EXPECT_THROW(spai_factor(ExecSpace(), plan, A), InvalidState);
  EXPECT_THROW(spai_analyze(ExecSpace(), plan, A, options(SpaiSide::right, 4)), InvalidArgument);
  EXPECT_THROW(spai_analyze(ExecSpace(), plan, A, options(SpaiSide::right, 1, -1)),
               InvalidArgument);
  EXPECT_THROW(spai_analyze(ExecSpace(), plan, matrix_from_triplets(2, 3, {{0, 0, 1}})),
               InvalidMatrix);
  EXPECT_THROW(spai_analyze(ExecSpace(), plan, A, matrix_from_dense({{1}}), SpaiOptions()),
               InvalidMatrix);
  spai_analyze(ExecSpace(), plan, A);
  EXPECT_THROW(spai_factor(ExecSpace(), plan, matrix_from_dense({{2, 1}, {0, 4}})),
               StructureMismatch);
  EXPECT_EQ(parse_spai_side("left"), SpaiSide::left);
  EXPECT_THROW(parse_spai_side("both"), InvalidArgument);
}

}  // namespace
}  // namespace syncfree::test
