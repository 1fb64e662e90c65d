// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers

// Every input a busy-waiting kernel must never see is rejected by sptrsv_analyze with a message
// naming the row; misuse of the plan throws the specific exception type.

#include <limits>

#include "algorithms/sptrsv/syncfree_sptrsv.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

struct BadMatrix {
  const char* name;
  std::int64_t rows, cols;
  std::vector<Triplet> entries;
  SptrsvOptions options;
  const char* message;
};

class SptrsvRejects : public ::testing::TestWithParam<BadMatrix> {};

TEST_P(SptrsvRejects, InAnalyzeWithTheRowNamed) {
  const auto& bad = GetParam();
  const M A = matrix_from_triplets(bad.rows, bad.cols, bad.entries);
  SptrsvPlan<M> plan(bad.options);

  try {
    sptrsv_analyze(ExecSpace(), plan, A);
    FAIL() << "analyze accepted " << bad.name;
  } catch (const InvalidMatrix& e) {
    EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos) << e.what();
  }
  EXPECT_FALSE(plan.analyzed());
}

const SptrsvOptions lower{Triangle::lower, Diagonal::stored, SptrsvAlgorithm::sync_free_thread};
const SptrsvOptions upper{Triangle::upper, Diagonal::stored, SptrsvAlgorithm::sync_free_thread};
const SptrsvOptions lower_unit{Triangle::lower, Diagonal::unit, SptrsvAlgorithm::sync_free_thread};
const double nan = std::numeric_limits<double>::quiet_NaN();

INSTANTIATE_TEST_SUITE_P(
    BadInput, SptrsvRejects,
    ::testing::Values(BadMatrix{"EntryAboveTheDiagonal",
                                3,
                                3,
                                {{0, 0, 1}, {1, 1, 1}, {1, 2, 1}, {2, 2, 1}},
                                lower,
                                "row 1: entry in column 2 lies outside the requested triangle"},
                      BadMatrix{"EntryBelowTheDiagonal",
                                3,
                                3,
                                {{0, 0, 1}, {1, 1, 1}, {2, 0, 1}, {2, 2, 1}},
                                upper,
                                "row 2: entry in column 0 lies outside"},
                      BadMatrix{"MissingDiagonal",
                                3,
                                3,
                                {{0, 0, 1}, {1, 0, 1}, {2, 2, 1}},
                                lower,
                                "row 1: diagonal entry is missing"},
                      BadMatrix{"ZeroDiagonal",
                                3,
                                3,
                                {{0, 0, 1}, {1, 1, 0.0}, {2, 2, 1}},
                                lower,
                                "row 1: diagonal entry is zero"},
                      BadMatrix{"UnsortedColumns",
                                3,
                                3,
                                {{0, 0, 1}, {2, 2, 1}, {2, 0, 1}, {1, 1, 1}},
                                lower,
                                "row 2: column 0 follows column 2"},
                      BadMatrix{"DuplicateColumns",
                                3,
                                3,
                                {{0, 0, 1}, {1, 0, 1}, {1, 0, 1}, {1, 1, 1}, {2, 2, 1}},
                                lower,
                                "row 1: column 0 is stored twice"},
                      BadMatrix{"NaNValue",
                                3,
                                3,
                                {{0, 0, 1}, {1, 1, 1}, {2, 1, nan}, {2, 2, 1}},
                                lower,
                                "row 2: value nan in column 1 is not finite"},
                      BadMatrix{"NaNUnitTriangle", 2, 2, {{1, 0, nan}}, lower_unit, "not finite"},
                      BadMatrix{"NotSquare", 2, 3, {{0, 0, 1}, {1, 1, 1}}, lower, "not square"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(SptrsvMisuse, SolveBeforeAnalyzeThrowsInvalidState) {
  const M L = matrix_from_dense({{1, 0}, {1, 1}});
  SptrsvPlan<M> plan;
  Vector<double, Device> b("b", 2), x("x", 2);

  EXPECT_THROW(sptrsv_solve(ExecSpace(), plan, L, b, x), InvalidState);
}

TEST(SptrsvMisuse, AnotherMatrixThrowsStructureMismatch) {
  const M L = matrix_from_dense({{1, 0}, {1, 1}});
  const M same_pattern_elsewhere = matrix_from_dense({{1, 0}, {1, 1}});
  SptrsvPlan<M> plan;
  sptrsv_analyze(ExecSpace(), plan, L);
  Vector<double, Device> b("b", 2), x("x", 2);

  EXPECT_THROW(sptrsv_solve(ExecSpace(), plan, same_pattern_elsewhere, b, x), StructureMismatch);
}

TEST(SptrsvMisuse, VectorsOfTheWrongSizeThrowDimensionMismatch) {
  const M L = matrix_from_dense({{1, 0}, {1, 1}});
  SptrsvPlan<M> plan;
  sptrsv_analyze(ExecSpace(), plan, L);
  Vector<double, Device> b("b", 3), x("x", 2);
  MultiVector<double, Device> B("B", 2, 2), X("X", 2, 3);

  EXPECT_THROW(sptrsv_solve(ExecSpace(), plan, L, b, x), DimensionMismatch);
  EXPECT_THROW(sptrsv_solve(ExecSpace(), plan, L, B, X), DimensionMismatch);
}

TEST(SptrsvMisuse, UnknownAlgorithmNamesAreRejected) {
  EXPECT_EQ(parse_sptrsv_algorithm("auto"), SptrsvAlgorithm::automatic);
  EXPECT_EQ(parse_sptrsv_algorithm("sync_free_row"), SptrsvAlgorithm::sync_free_row);
  EXPECT_EQ(parse_sptrsv_algorithm("alap_packed"), SptrsvAlgorithm::alap_packed);
  EXPECT_THROW(parse_sptrsv_algorithm("fastest"), InvalidArgument);
}

}  // namespace
}  // namespace syncfree::test
