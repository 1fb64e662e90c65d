// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_reference.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

// Both triangles are populated so that each solve must ignore the other one.
//   lower part (with diagonal) L = [2 0 0 0; 1 4 0 0; 0 3 5 0; 2 0 1 4]
//   upper part (with diagonal) U = [2 1 0 3; 0 4 2 0; 0 0 5 1; 0 0 0 4]
HostMatrix<TestMatrix<>> full_4x4() {
  return to_host(matrix_from_dense({{2, 1, 0, 3}, {1, 4, 2, 0}, {0, 3, 5, 1}, {2, 0, 1, 4}}));
}

TEST(ReferenceSpmv, MultipliesSmallMatrix) {
  auto A = to_host(matrix_from_dense({{2, 1, 0}, {0, 3, 0}, {1, 0, 4}}));

  auto y = reference::spmv(A, {1, 2, 3});

  EXPECT_EQ(y, (std::vector<double>{4, 6, 13}));
}

TEST(ReferenceSpmv, HandlesRectangularMatrixWithStoredZeroAndEmptyRow) {
  // [0* 5 0; 0 0 0; 1 0 -2] with 0* an explicitly stored zero and an empty middle row.
  auto A = to_host(matrix_from_triplets(3, 3, {{0, 0, 0.0}, {0, 1, 5}, {2, 0, 1}, {2, 2, -2}}));

  auto y = reference::spmv(A, {7, 1, 0.5});

  EXPECT_EQ(y, (std::vector<double>{5, 0, 6}));
}

TEST(ReferenceSpmv, MultipliesNonSquareMatrix) {
  auto A = to_host(matrix_from_dense({{1, 2, 3}, {0, -1, 0}}));

  auto y = reference::spmv(A, {1, 1, 2});

  EXPECT_EQ(y, (std::vector<double>{9, -1}));
}

TEST(ReferenceSpmv, RejectsVectorOfWrongSize) {
  auto A = to_host(matrix_from_dense({{1, 2}, {3, 4}}));

  EXPECT_THROW(reference::spmv(A, {1, 2, 3}), DimensionMismatch);
}

TEST(ReferenceTriangularSolve, SolvesLowerWithStoredDiagonal) {
  // L (1, 2, 3, 4) = (2, 9, 21, 21)
  auto x =
      reference::triangular_solve(full_4x4(), Triangle::lower, Diagonal::stored, {2, 9, 21, 21});

  EXPECT_EQ(x, (std::vector<double>{1, 2, 3, 4}));
}

TEST(ReferenceTriangularSolve, SolvesLowerWithUnitDiagonalIgnoringStoredDiagonal) {
  // [1 0 0 0; 1 1 0 0; 0 3 1 0; 2 0 1 1] (1, 2, 3, 4) = (1, 3, 9, 9)
  auto x = reference::triangular_solve(full_4x4(), Triangle::lower, Diagonal::unit, {1, 3, 9, 9});

  EXPECT_EQ(x, (std::vector<double>{1, 2, 3, 4}));
}

TEST(ReferenceTriangularSolve, SolvesUpperWithStoredDiagonal) {
  // U (1, 2, 3, 4) = (16, 14, 19, 16)
  auto x =
      reference::triangular_solve(full_4x4(), Triangle::upper, Diagonal::stored, {16, 14, 19, 16});

  EXPECT_EQ(x, (std::vector<double>{1, 2, 3, 4}));
}

TEST(ReferenceTriangularSolve, SolvesUpperWithUnitDiagonalIgnoringStoredDiagonal) {
  // [1 1 0 3; 0 1 2 0; 0 0 1 1; 0 0 0 1] (1, 2, 3, 4) = (15, 8, 7, 4)
  auto x = reference::triangular_solve(full_4x4(), Triangle::upper, Diagonal::unit, {15, 8, 7, 4});

  EXPECT_EQ(x, (std::vector<double>{1, 2, 3, 4}));
}

TEST(ReferenceTriangularSolve, SolvesLowerWithFractionalSolution) {
  auto L = to_host(matrix_from_dense({{4, 0, 0}, {1, 2, 0}, {0, 1, 8}}));

  auto x = reference::triangular_solve(L, Triangle::lower, Diagonal::stored, {1, 1, 1});

  // x0 = 1/4, x1 = (1 - 1/4) / 2 = 3/8, x2 = (1 - 3/8) / 8 = 5/64
  EXPECT_EQ(x, (std::vector<double>{0.25, 0.375, 0.078125}));
}

TEST(ReferenceTriangularSolve, SolvesUnitDiagonalWithoutStoredDiagonal) {
  auto L = to_host(matrix_from_dense({{0, 0, 0}, {2, 0, 0}, {1, -1, 0}}));

  auto x = reference::triangular_solve(L, Triangle::lower, Diagonal::unit, {1, 1, 1});

  // x0 = 1, x1 = 1 - 2 = -1, x2 = 1 - 1 - 1 = -1
  EXPECT_EQ(x, (std::vector<double>{1, -1, -1}));
}

TEST(ReferenceTriangularSolve, ThrowsOnMissingDiagonal) {
  auto L = to_host(matrix_from_dense({{1, 0}, {1, 0}}));

  EXPECT_THROW(reference::triangular_solve(L, Triangle::lower, Diagonal::stored, {1, 1}),
               InvalidMatrix);
}

TEST(ReferenceTriangularSolve, ThrowsOnStoredZeroDiagonal) {
  auto U = to_host(matrix_from_triplets(2, 2, {{0, 0, 1}, {0, 1, 3}, {1, 1, 0.0}}));

  EXPECT_THROW(reference::triangular_solve(U, Triangle::upper, Diagonal::stored, {1, 1}),
               InvalidMatrix);
}

TEST(ReferenceTriangularSolve, RejectsNonSquareMatrix) {
  auto A = to_host(matrix_from_dense({{1, 0, 0}, {1, 1, 0}}));

  EXPECT_THROW(reference::triangular_solve(A, Triangle::lower, Diagonal::unit, {1, 1}),
               InvalidMatrix);
}

TEST(ReferenceLevels, NumbersABidiagonalChainConsecutively) {
  auto lower = to_host(matrix_from_dense(
      {{1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {0, 1, 1, 0, 0}, {0, 0, 1, 1, 0}, {0, 0, 0, 1, 1}}));
  auto upper = to_host(matrix_from_dense(
      {{1, 1, 0, 0, 0}, {0, 1, 1, 0, 0}, {0, 0, 1, 1, 0}, {0, 0, 0, 1, 1}, {0, 0, 0, 0, 1}}));

  EXPECT_EQ(reference::levels(lower, Triangle::lower), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(reference::levels(upper, Triangle::upper), (std::vector<int>{4, 3, 2, 1, 0}));
}

TEST(ReferenceLevels, PutsEveryRowOfADiagonalMatrixAtLevelZero) {
  auto D = to_host(matrix_from_dense({{3, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 2, 0}, {0, 0, 0, 5}}));

  EXPECT_EQ(reference::levels(D, Triangle::lower), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(reference::levels(D, Triangle::upper), (std::vector<int>{0, 0, 0, 0}));
}

TEST(ReferenceLevels, FollowsTheLongestPathOfAHandDrawnDag) {
  // Lower dependencies: 2 <- 0, 3 <- {1, 2}, 4 <- 0, 5 <- {3, 4}.
  // Upper dependencies (the transpose): 0 <- {2, 4}, 1 <- 3, 2 <- 3, 3 <- 5, 4 <- 5.
  auto L = to_host(matrix_from_dense({{1, 0, 0, 0, 0, 0},
                                      {0, 1, 0, 0, 0, 0},
                                      {1, 0, 1, 0, 0, 0},
                                      {0, 1, 1, 1, 0, 0},
                                      {1, 0, 0, 0, 1, 0},
                                      {0, 0, 0, 1, 1, 1}}));
  auto U = to_host(matrix_from_dense({{1, 0, 1, 0, 1, 0},
                                      {0, 1, 0, 1, 0, 0},
                                      {0, 0, 1, 1, 0, 0},
                                      {0, 0, 0, 1, 0, 1},
                                      {0, 0, 0, 0, 1, 1},
                                      {0, 0, 0, 0, 0, 1}}));

  EXPECT_EQ(reference::levels(L, Triangle::lower), (std::vector<int>{0, 0, 1, 2, 1, 3}));
  EXPECT_EQ(reference::levels(U, Triangle::upper), (std::vector<int>{3, 2, 2, 1, 1, 0}));
}

TEST(ReferenceLevels, IgnoresEntriesOfTheOtherTriangle) {
  // The strict upper entries (0,2) and (1,2) must not create lower dependencies.
  auto A = to_host(matrix_from_dense({{1, 0, 1}, {1, 1, 1}, {0, 0, 1}}));

  EXPECT_EQ(reference::levels(A, Triangle::lower), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(reference::levels(A, Triangle::upper), (std::vector<int>{1, 1, 0}));
}

}  // namespace
}  // namespace syncfree::test
