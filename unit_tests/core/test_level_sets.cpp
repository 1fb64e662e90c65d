// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cstdint>
#include <set>
#include <utility>

#include "core/syncfree_alap_levels.hpp"
#include "core/syncfree_level_sets.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference.hpp"
#include "core/syncfree_triangular_split.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

/// Checks levels against the serial oracle, and level_ptr / order against the levels.
void expect_matches_oracle(const M& A, Triangle triangle) {
  const auto sets = compute_level_sets(ExecSpace(), A, triangle);
  const auto expected = reference::levels(to_host(A), triangle);

  const auto level = to_std(sets.level);
  ASSERT_EQ(level, std::vector<int>(expected.begin(), expected.end()));
  const int num_levels =
      expected.empty() ? 0 : *std::max_element(expected.begin(), expected.end()) + 1;
  ASSERT_EQ(sets.num_levels, num_levels);

  const auto ptr = to_std(sets.level_ptr);
  const auto order = to_std(sets.order);
  ASSERT_EQ(ptr.size(), std::size_t(num_levels) + 1);
  ASSERT_EQ(ptr.front(), 0);
  ASSERT_EQ(ptr.back(), A.numRows());
  int widest = 0;
  for (int l = 0; l < num_levels; ++l) {
    widest = std::max(widest, ptr[l + 1] - ptr[l]);
    for (int k = ptr[l]; k < ptr[l + 1]; ++k) {
      EXPECT_EQ(expected[order[k]], l) << "position " << k;
      if (k > ptr[l]) {
        EXPECT_LT(order[k - 1], order[k]) << "rows of a level ascend";
      }
    }
  }
  EXPECT_EQ(sets.max_level_size, widest);
}

TEST(LevelSets, BidiagonalChainHasOneRowPerLevel) {
  std::vector<Triplet> t;
  for (int i = 0; i < 100; ++i) {
    t.push_back({i, i, 2});
    if (i > 0) t.push_back({i, i - 1, -1});
  }
  auto A = matrix_from_triplets(100, 100, t);

  auto sets = compute_level_sets(ExecSpace(), A, Triangle::lower);

  EXPECT_EQ(sets.num_levels, 100);
  EXPECT_EQ(sets.max_level_size, 1);
  expect_matches_oracle(A, Triangle::lower);
}

TEST(LevelSets, HandDrawnDagGetsTheExpectedLevels) {
  // Row 2 depends on 0; row 3 on 1 and 2; row 4 on 0 only.
  auto A = matrix_from_dense(
      {{1, 0, 0, 0, 0}, {0, 1, 0, 0, 0}, {1, 0, 1, 0, 0}, {0, 1, 1, 1, 0}, {1, 0, 0, 0, 1}});

  auto sets = compute_level_sets(ExecSpace(), A, Triangle::lower);

  EXPECT_EQ(to_std(sets.level), (std::vector<int>{0, 0, 1, 2, 1}));
  EXPECT_EQ(to_std(sets.level_ptr), (std::vector<int>{0, 2, 4, 5}));
  EXPECT_EQ(to_std(sets.order), (std::vector<int>{0, 1, 2, 4, 3}));
}

TEST(LevelSets, UpperTriangleDependsOnLaterRows) {
  auto A = matrix_from_dense({{1, 1, 0}, {0, 1, 1}, {0, 0, 1}});

  auto sets = compute_level_sets(ExecSpace(), A, Triangle::upper);

  EXPECT_EQ(to_std(sets.level), (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(to_std(sets.order), (std::vector<int>{2, 1, 0}));
}

TEST(LevelSets, IgnoresTheOtherTriangleOfAFullMatrix) {
  auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson2d:12"));

  expect_matches_oracle(A, Triangle::lower);
  expect_matches_oracle(A, Triangle::upper);
}

TEST(LevelSets, MatchOracleOnStencilsAndRandomBands) {
  for (const char* spec : {"poisson3d:9", "poisson3d27:6", "convdiff2d:15", "banded:500:40:6"}) {
    SCOPED_TRACE(spec);
    auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec(spec));
    expect_matches_oracle(A, Triangle::lower);
    expect_matches_oracle(A, Triangle::upper);
  }
}

TEST(LevelSets, DiagonalMatrixHasOneLevel) {
  auto A = matrix_from_dense({{1, 0, 0}, {0, 2, 0}, {0, 0, 3}});

  auto sets = compute_level_sets(ExecSpace(), A, Triangle::lower);

  EXPECT_EQ(sets.num_levels, 1);
  EXPECT_EQ(sets.max_level_size, 3);
}

TEST(LevelSets, EmptyMatrixHasNoLevels) {
  auto A = matrix_from_triplets(0, 0, {});

  auto sets = compute_level_sets(ExecSpace(), A, Triangle::lower);

  EXPECT_EQ(sets.num_levels, 0);
  EXPECT_EQ(sets.order.extent(0), 0u);
}

/// Checks that `sets` is a consistent level decomposition: ptr and order agree with the levels,
/// and rows of a level ascend.
void expect_consistent(const LevelSets<int, M::device_type>& sets, int n) {
  const auto level = to_std(sets.level);
  const auto ptr = to_std(sets.level_ptr);
  const auto order = to_std(sets.order);
  ASSERT_EQ(int(level.size()), n);
  ASSERT_EQ(ptr.size(), std::size_t(sets.num_levels) + 1);
  ASSERT_EQ(ptr.back(), n);
  for (int l = 0; l < sets.num_levels; ++l)
    for (int k = ptr[l]; k < ptr[l + 1]; ++k) {
      EXPECT_EQ(level[order[k]], l) << "position " << k;
      if (k > ptr[l]) {
        EXPECT_LT(order[k - 1], order[k]);
      }
    }
}

TEST(LevelSets, ReversedLowerLevelsServeTheUpperTriangleOfASymmetricPattern) {
  for (const char* spec : {"poisson2d:12", "poisson3d:7", "poisson3d27:5", "convdiff3d:6"}) {
    SCOPED_TRACE(spec);
    auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec(spec));
    const auto lower = compute_level_sets(ExecSpace(), A, Triangle::lower);
    const auto upper = compute_level_sets(ExecSpace(), A, Triangle::upper);

    const auto reversed = reversed_level_sets(ExecSpace(), lower);

    EXPECT_TRUE(levels_respect_dependencies(ExecSpace(), A, Triangle::upper, reversed));
    EXPECT_EQ(reversed.num_levels, upper.num_levels);
    EXPECT_EQ(reversed.max_level_size, lower.max_level_size);
    expect_consistent(reversed, A.numRows());
    const auto l = to_std(lower.level);
    const auto r = to_std(reversed.level);
    for (std::size_t i = 0; i < l.size(); ++i) EXPECT_EQ(r[i], lower.num_levels - 1 - l[i]);
  }
}

TEST(LevelSets, ReversedLevelsAreRejectedForANonsymmetricPattern) {
  // L: row 1 depends on row 0. U: row 0 depends on row 2, which reversed L levels put on the
  // same level as row 0.
  auto A = matrix_from_dense({{1, 0, 1}, {1, 1, 0}, {0, 0, 1}});
  const auto lower = compute_level_sets(ExecSpace(), A, Triangle::lower);

  const auto reversed = reversed_level_sets(ExecSpace(), lower);

  EXPECT_EQ(to_std(reversed.level), (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(to_std(reversed.order), (std::vector<int>{1, 0, 2}));
  EXPECT_FALSE(levels_respect_dependencies(ExecSpace(), A, Triangle::upper, reversed));
  EXPECT_TRUE(levels_respect_dependencies(ExecSpace(), A, Triangle::upper,
                                          compute_level_sets(ExecSpace(), A, Triangle::upper)));
}

TEST(LevelSets, ComputedLevelsRespectTheirTriangleAndNotTheOther) {
  auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec("banded:400:30:5"));
  const auto lower = compute_level_sets(ExecSpace(), A, Triangle::lower);

  EXPECT_TRUE(levels_respect_dependencies(ExecSpace(), A, Triangle::lower, lower));
  EXPECT_FALSE(levels_respect_dependencies(ExecSpace(), A, Triangle::upper, lower));
}

TEST(LevelSets, ReversingNoLevelsGivesNoLevels) {
  auto A = matrix_from_triplets(0, 0, {});

  const auto reversed =
      reversed_level_sets(ExecSpace(), compute_level_sets(ExecSpace(), A, Triangle::lower));

  EXPECT_EQ(reversed.num_levels, 0);
  EXPECT_EQ(to_std(reversed.level_ptr), (std::vector<int>{0}));
  EXPECT_TRUE(levels_respect_dependencies(ExecSpace(), A, Triangle::upper, reversed));
}

TEST(AlapLevels, HandDrawnDagMovesRowsOffTheCriticalPathLater) {
  // Row 2 depends on 0; row 3 on 1 and 2; row 4 on 0 only. ASAP levels {0, 0, 1, 2, 1}: row 1
  // can wait until just before row 3, row 4 (a leaf) until the last level.
  auto A = matrix_from_dense(
      {{1, 0, 0, 0, 0}, {0, 1, 0, 0, 0}, {1, 0, 1, 0, 0}, {0, 1, 1, 1, 0}, {1, 0, 0, 0, 1}});

  const auto sets = alap_level_sets(ExecSpace(), A, Triangle::lower);

  EXPECT_EQ(to_std(sets.level), (std::vector<int>{0, 1, 1, 2, 2}));
  EXPECT_EQ(to_std(sets.level_ptr), (std::vector<int>{0, 1, 3, 5}));
  EXPECT_EQ(to_std(sets.order), (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(AlapLevels, MatchTheSerialOracleAndNeverComeBeforeAsap) {
  for (const char* spec :
       {"poisson2d:12", "poisson3d27:6", "convdiff2d:15", "banded:500:40:6", "banded:300:3"}) {
    SCOPED_TRACE(spec);
    auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec(spec));
    for (const auto triangle : {Triangle::lower, Triangle::upper}) {
      SCOPED_TRACE(to_string(triangle));
      const auto asap = compute_level_sets(ExecSpace(), A, triangle);

      const auto alap = alap_level_sets(ExecSpace(), A, triangle);

      const auto expected = reference::alap_levels(to_host(A), triangle);
      const auto level = to_std(alap.level);
      ASSERT_EQ(level, expected);
      EXPECT_EQ(alap.num_levels, asap.num_levels);
      expect_consistent(alap, A.numRows());
      EXPECT_TRUE(levels_respect_dependencies(ExecSpace(), A, triangle, alap));
      const auto early = to_std(asap.level);
      for (std::size_t i = 0; i < level.size(); ++i) EXPECT_GE(level[i], early[i]) << "row " << i;
    }
  }
}

TEST(AlapLevels, OfBothTrianglesFromOnePassMatchTheSerialOracle) {
  for (const char* spec : {"poisson2d:12", "poisson3d27:6", "convdiff2d:15", "anisotropic2d:9"}) {
    SCOPED_TRACE(spec);
    auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec(spec));
    LevelSets<int, Device> lower, upper;

    ASSERT_TRUE(alap_level_sets_of_both_triangles(ExecSpace(), A, lower, upper));

    EXPECT_EQ(to_std(lower.level), reference::alap_levels(to_host(A), Triangle::lower));
    EXPECT_EQ(to_std(upper.level), reference::alap_levels(to_host(A), Triangle::upper));
    expect_consistent(lower, A.numRows());
    expect_consistent(upper, A.numRows());
  }
}

// The unstructured test matrices (geometric graphs as numbered and renumbered, convection on them,
// an arrow with a dense last row and column, a power-law graph whose short rows are one-sided):
// one pass gives both triangles' ALAP levels exactly where the pattern is symmetric, and is
// refused elsewhere.
TEST(AlapLevels, OfBothTrianglesOnUnstructuredMatricesMatchTheSerialOracle) {
  for (const auto& m : unstructured_test_matrices()) {
    SCOPED_TRACE(m.name);
    const auto h = to_host(m.A);
    std::set<std::pair<std::int64_t, std::int64_t>> pattern;
    for (std::int64_t i = 0; i < std::int64_t(h.numRows()); ++i)
      for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
        pattern.insert({i, std::int64_t(h.graph.entries(k))});
    bool symmetric = true;
    for (const auto& [i, j] : pattern) symmetric = symmetric && pattern.count({j, i}) > 0;
    LevelSets<int, Device> lower, upper;

    const bool found = alap_level_sets_of_both_triangles(ExecSpace(), m.A, lower, upper);

    ASSERT_EQ(found, symmetric);
    if (!symmetric) continue;
    EXPECT_EQ(to_std(lower.level), reference::alap_levels(h, Triangle::lower));
    EXPECT_EQ(to_std(upper.level), reference::alap_levels(h, Triangle::upper));
    expect_consistent(lower, m.A.numRows());
    expect_consistent(upper, m.A.numRows());
  }
}

TEST(AlapLevels, OfBothTrianglesAreRefusedOnAPatternThatIsNotSymmetric) {
  // A cycle: L has a_20, U a_01 and a_12, so L's graph reversed is not U's.
  const auto cycle = matrix_from_dense({{1, 1, 0}, {0, 1, 1}, {1, 0, 1}});
  // A random band: rows of 6 entries within 40 of the diagonal, not mirrored.
  const auto band = generate_matrix<M>(ExecSpace(), parse_problem_spec("banded:500:40:6"));
  for (const auto& A : {cycle, band}) {
    LevelSets<int, Device> lower, upper;
    EXPECT_FALSE(alap_level_sets_of_both_triangles(ExecSpace(), A, lower, upper));
    EXPECT_EQ(lower.level.extent(0), 0u);
  }
}

TEST(AlapLevels, DiagonalAndEmptyMatrices) {
  const auto diagonal =
      alap_level_sets(ExecSpace(), matrix_from_dense({{1, 0}, {0, 2}}), Triangle::lower);
  EXPECT_EQ(to_std(diagonal.level), (std::vector<int>{0, 0}));
  const auto empty = alap_level_sets(ExecSpace(), matrix_from_triplets(0, 0, {}), Triangle::upper);
  EXPECT_EQ(empty.num_levels, 0);
}

}  // namespace
}  // namespace syncfree::test
