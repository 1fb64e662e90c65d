// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// Bad patterns are rejected by ilu_analyze with the row named; bad values end ilu_factor with a
// status naming the first bad row (never NaN factors reported as success, never a hang); tiny
// pivots are replaced and counted when asked; misuse throws the specific exception type.

#include <cmath>
#include <limits>

#include "algorithms/ilu/syncfree_ilu.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;
const double nan = std::numeric_limits<double>::quiet_NaN();

struct BadPattern {
  const char* name;
  std::int64_t rows, cols;
  std::vector<Triplet> entries;
  const char* message;
};

class IluRejects : public ::testing::TestWithParam<BadPattern> {};

TEST_P(IluRejects, InAnalyzeWithTheRowNamed) {
  const auto& bad = GetParam();
  const M A = matrix_from_triplets(bad.rows, bad.cols, bad.entries);
  IluPlan<M> plan;

  try {
    ilu_analyze(ExecSpace(), plan, A);
    FAIL() << "analyze accepted " << bad.name;
  } catch (const InvalidMatrix& e) {
    EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ilu_analyze"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(plan.analyzed());
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, IluRejects,
    ::testing::Values(
        BadPattern{"UnsortedColumns", 3, 3, {{0, 0, 1}, {1, 1, 1}, {1, 0, 1}, {2, 2, 1}}, "row 1"},
        BadPattern{"DuplicateColumns", 3, 3, {{0, 0, 1}, {1, 1, 1}, {1, 1, 1}, {2, 2, 1}}, "row 1"},
        BadPattern{"MissingDiagonal", 3, 3, {{0, 0, 1}, {1, 0, 1}, {2, 2, 1}}, "row 1"},
        BadPattern{"NaN", 3, 3, {{0, 0, 1}, {1, 1, 1}, {2, 1, nan}, {2, 2, 1}}, "row 2"},
        BadPattern{"NotSquare", 2, 3, {{0, 0, 1}, {1, 1, 1}}, "not square"}),
    [](const auto& info) { return std::string(info.param.name); });

const IluAlgorithm all_variants[] = {IluAlgorithm::level_set, IluAlgorithm::shared,
                                     IluAlgorithm::vector,    IluAlgorithm::adaptive,
                                     IluAlgorithm::parallel,  IluAlgorithm::gather};

Outcome factor_with(IluAlgorithm algorithm, const M& A, IluOptions options = {}) {
  options.algorithm = algorithm;
  IluPlan<M> plan(options);
  ilu_analyze(ExecSpace(), plan, A);
  const Outcome outcome = ilu_factor(ExecSpace(), plan, A);
  EXPECT_EQ(plan.factored(), outcome.ok());
  return outcome;
}

/// [[0, 1], [1, 1]] with the zero diagonal stored.
M zero_first_pivot() {
  return matrix_from_triplets(2, 2, {{0, 0, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}});
}

TEST(IluFactor, ReportsAZeroPivotOfA) {
  const M A = zero_first_pivot();
  for (auto algorithm : all_variants) {
    const Outcome o = factor_with(algorithm, A);
    EXPECT_EQ(o.status, Status::zero_pivot) << to_string(algorithm);
    EXPECT_EQ(o.index, 0);
    EXPECT_NE(o.reason.find("row 0: pivot 0 is zero"), std::string::npos) << o.reason;
  }
}

TEST(IluFactor, ReportsAPivotThatEliminationMakesZero) {
  const M A = matrix_from_dense({{1, 1}, {1, 1}});
  for (auto algorithm : all_variants) {
    const Outcome o = factor_with(algorithm, A);
    EXPECT_EQ(o.status, Status::zero_pivot) << to_string(algorithm);
    EXPECT_EQ(o.index, 1);
  }
}

/// A 1000-row chain whose row 500 stores zeros: every later row divides by a zero pivot. The
/// factorization must finish (no row waits forever) and name row 500, not a later NaN.
TEST(IluFactor, NamesTheFirstZeroPivotOfALongChainAndFinishes) {
  std::vector<Triplet> t;
  for (int i = 0; i < 1000; ++i) {
    if (i > 0) t.push_back({i, i - 1, i == 500 ? 0.0 : -1.0});
    t.push_back({i, i, i == 500 ? 0.0 : 4.0});
    if (i + 1 < 1000) t.push_back({i, i + 1, -1.0});
  }
  const M A = matrix_from_triplets(1000, 1000, t);
  for (auto algorithm : all_variants) {
    const Outcome o = factor_with(algorithm, A);
    EXPECT_EQ(o.status, Status::zero_pivot) << to_string(algorithm);
    EXPECT_EQ(o.index, 500);
  }
}

TEST(IluFactor, ReplacesTinyPivotsWhenAskedAndCountsThem) {
  const M A = matrix_from_dense({{1, 1, 0}, {1, 1, 1}, {0, 1, 3}});
  IluOptions options;
  options.replace_tiny_pivots = true;
  options.absolute_threshold = 1e-3;
  for (auto algorithm : all_variants) {
    options.algorithm = algorithm;
    IluPlan<M> plan(options);
    ilu_analyze(ExecSpace(), plan, A);

    const Outcome o = ilu_factor(ExecSpace(), plan, A);

    ASSERT_TRUE(o.ok()) << o.reason;
    EXPECT_EQ(plan.pivot_replacements(), 1);
    const auto lu = to_host(plan.factors());
    // Row 1: l = 1, u_11 = 1 - 1 = 0 -> 1e-3; row 2: l = 1 / 1e-3, u_22 = 3 - 1000 * 1.
    EXPECT_DOUBLE_EQ(lu.values(3), 1e-3);
    EXPECT_DOUBLE_EQ(lu.values(5), 1000.0);
    EXPECT_DOUBLE_EQ(lu.values(6), 3.0 - 1000.0);
    Vector<double, Device> x("x", 3);
    ilu_apply(ExecSpace(), plan, to_view(std::vector<double>{1, 2, 3}), x);
    for (double v : to_std(x)) EXPECT_TRUE(std::isfinite(v));
  }
}

TEST(IluFactor, HonoursARelativeThreshold) {
  const M A = matrix_from_dense({{1, 1}, {1, 1 + 1e-13}});
  IluOptions options;
  options.relative_threshold = 1e-10;
  const Outcome o = factor_with(IluAlgorithm::vector, A, options);
  EXPECT_EQ(o.status, Status::zero_pivot);
  EXPECT_EQ(o.index, 1);
  EXPECT_NE(o.reason.find("threshold"), std::string::npos) << o.reason;
  EXPECT_TRUE(factor_with(IluAlgorithm::vector, A).ok());  // without a threshold it is a pivot
}

TEST(IluFactor, ReportsAPivotThatOverflows) {
  const M A = matrix_from_dense({{1e-300, 1e300}, {1e300, 1}});
  for (auto algorithm : all_variants) {
    const Outcome o = factor_with(algorithm, A);
    EXPECT_EQ(o.status, Status::not_finite) << to_string(algorithm);
    EXPECT_EQ(o.index, 1);
  }
}

TEST(IluFactor, ReportsNaNValuesGivenAfterTheAnalysis) {
  const M A = matrix_from_dense({{4, 1, 0}, {1, 4, 1}, {0, 1, 4}});
  IluPlan<M> plan;
  ilu_analyze(ExecSpace(), plan, A);
  Kokkos::deep_copy(Kokkos::subview(A.values, std::make_pair(3, 4)), nan);  // row 1, column 2

  const Outcome o = ilu_factor(ExecSpace(), plan, A);

  EXPECT_EQ(o.status, Status::not_finite);
  EXPECT_EQ(o.index, 1);
  EXPECT_FALSE(plan.factored());
  Vector<double, Device> x("x", 3);
  EXPECT_THROW(ilu_apply(ExecSpace(), plan, x, x), InvalidState);
}

TEST(IluPlan, RejectsMisuse) {
  EXPECT_THROW(IluPlan<M>({-1}), InvalidArgument);
  const M A = matrix_from_dense({{4, 1}, {1, 4}});
  const M B = matrix_from_dense({{4, 1}, {1, 4}});  // same pattern, other arrays
  IluPlan<M> plan;
  Vector<double, Device> x("x", 2), y("y", 3);
  EXPECT_THROW(ilu_factor(ExecSpace(), plan, A), InvalidState);
  ilu_analyze(ExecSpace(), plan, A);
  EXPECT_THROW(ilu_apply(ExecSpace(), plan, x, x), InvalidState);
  EXPECT_THROW(ilu_factor(ExecSpace(), plan, B), StructureMismatch);
  ASSERT_TRUE(ilu_factor(ExecSpace(), plan, A).ok());
  EXPECT_THROW(ilu_apply(ExecSpace(), plan, x, y), DimensionMismatch);
  EXPECT_THROW(parse_ilu_algorithm("fastest"), InvalidArgument);
  EXPECT_EQ(parse_ilu_algorithm("adaptive"), IluAlgorithm::adaptive);
}

TEST(IluPlan, HandlesEmptyAndOneRowMatrices) {
  const M empty = matrix_from_triplets(0, 0, {});
  IluPlan<M> plan;
  ilu_analyze(ExecSpace(), plan, empty);
  ASSERT_TRUE(ilu_factor(ExecSpace(), plan, empty).ok());
  Vector<double, Device> none("none", 0), out("out", 0);
  ilu_apply(ExecSpace(), plan, none, out);

  const M one = matrix_from_triplets(1, 1, {{0, 0, 4.0}});
  IluPlan<M> single({2, IluAlgorithm::vector});
  ilu_analyze(ExecSpace(), single, one);
  ASSERT_TRUE(ilu_factor(ExecSpace(), single, one).ok());
  Vector<double, Device> x("x", 1);
  ilu_apply(ExecSpace(), single, to_view(std::vector<double>{2.0}), x);
  EXPECT_DOUBLE_EQ(to_std(x)[0], 0.5);
}

TEST(IluPreconditioner, KeepsAFailedFactorizationAsItsOutcome) {
  const M A = zero_first_pivot();
  IluPreconditioner<M> ilu(ExecSpace(), A);
  EXPECT_EQ(ilu.outcome().status, Status::zero_pivot);
  Vector<double, Device> x("x", 2), y("y", 2);
  EXPECT_THROW(ilu.apply(ExecSpace(), x, y), InvalidState);
}

}  // namespace
}  // namespace syncfree::test
