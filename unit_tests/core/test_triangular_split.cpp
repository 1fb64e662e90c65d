// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_triangular_split.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

/// Row-major dense copy of a small matrix, for exact comparisons.
std::vector<std::vector<double>> dense(const TestMatrix<>& A) {
  auto h = to_host(A);
  std::vector<std::vector<double>> d(h.numRows(), std::vector<double>(h.numCols(), 0.0));
  for (int i = 0; i < h.numRows(); ++i)
    for (int k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      d[i][h.graph.entries(k)] = h.values(k);
  return d;
}

const std::vector<std::vector<double>> a = {{4, 1, 2}, {3, 5, 0}, {6, 7, 8}};

TEST(TriangularSplit, LowerWithStoredDiagonal) {
  auto L = extract_triangle(ExecSpace(), matrix_from_dense(a), Triangle::lower, Diagonal::stored);

  EXPECT_EQ(dense(L), (std::vector<std::vector<double>>{{4, 0, 0}, {3, 5, 0}, {6, 7, 8}}));
  EXPECT_EQ(L.nnz(), 6);
}

TEST(TriangularSplit, LowerWithUnitDiagonalDropsTheDiagonal) {
  auto L = extract_triangle(ExecSpace(), matrix_from_dense(a), Triangle::lower, Diagonal::unit);

  EXPECT_EQ(dense(L), (std::vector<std::vector<double>>{{0, 0, 0}, {3, 0, 0}, {6, 7, 0}}));
  EXPECT_EQ(L.nnz(), 3);
}

TEST(TriangularSplit, UpperWithStoredDiagonal) {
  auto U = extract_triangle(ExecSpace(), matrix_from_dense(a), Triangle::upper, Diagonal::stored);

  EXPECT_EQ(dense(U), (std::vector<std::vector<double>>{{4, 1, 2}, {0, 5, 0}, {0, 0, 8}}));
}

TEST(TriangularSplit, LowerUpperSplitAddsBackToA) {
  auto parts = split_lower_upper(ExecSpace(), matrix_from_dense(a));

  auto l = dense(parts.L), u = dense(parts.U);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(l[i][j] + u[i][j], a[i][j]);
  EXPECT_EQ(parts.L.nnz() + parts.U.nnz(), 8);
}

TEST(TriangularSplit, KeepsExplicitZerosAndEmptyRows) {
  auto A = matrix_from_triplets(3, 3, {{0, 0, 1}, {2, 0, 0.0}, {2, 2, 1}});

  auto L = extract_triangle(ExecSpace(), A, Triangle::lower, Diagonal::unit);

  auto h = to_host(L);
  ASSERT_EQ(L.nnz(), 1);
  EXPECT_EQ(h.graph.row_map(1), 0);
  EXPECT_EQ(h.graph.entries(0), 0);
  EXPECT_EQ(h.values(0), 0.0);
}

TEST(TriangularSplit, RejectsNonSquareMatrices) {
  auto A = matrix_from_triplets(2, 3, {{0, 0, 1}});

  EXPECT_THROW(extract_triangle(ExecSpace(), A, Triangle::lower, Diagonal::stored),
               DimensionMismatch);
}

}  // namespace
}  // namespace syncfree::test
