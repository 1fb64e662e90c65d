// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_permutation.hpp"
#include "core/syncfree_sort.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

TEST(Permutation, RecognizesPermutations) {
  EXPECT_TRUE(is_permutation(ExecSpace(), to_view<int>({2, 0, 1})));
  EXPECT_FALSE(is_permutation(ExecSpace(), to_view<int>({2, 0, 2})));
  EXPECT_FALSE(is_permutation(ExecSpace(), to_view<int>({0, 3, 1})));
  EXPECT_FALSE(is_permutation(ExecSpace(), to_view<int>({-1, 0, 1})));
}

TEST(Permutation, InverseUndoesThePermutation) {
  auto perm = to_view<int>({2, 0, 3, 1});

  auto inverse = invert_permutation(ExecSpace(), perm);

  EXPECT_EQ(to_std(inverse), (std::vector<int>{1, 3, 0, 2}));
}

TEST(Permutation, PermutesVectors) {
  auto perm = to_view<int>({2, 0, 1});
  auto x = to_view<double>({10, 20, 30});
  Vector<double, Device> y("y", 3);

  permute_vector(ExecSpace(), perm, x, y);

  EXPECT_EQ(to_std(y), (std::vector<double>{30, 10, 20}));
}

TEST(Permutation, SymmetricPermutationMovesRowsAndColumns) {
  // B = P A P^T with perm = (2, 0, 1): B(i, j) = A(perm(i), perm(j)).
  auto A = matrix_from_dense({{1, 2, 0}, {0, 3, 4}, {5, 0, 6}});
  auto perm = to_view<int>({2, 0, 1});

  auto B = to_host(permute_matrix(ExecSpace(), A, perm));

  const std::vector<std::vector<double>> expected = {{6, 5, 0}, {0, 1, 2}, {4, 0, 3}};
  for (int i = 0; i < 3; ++i) {
    std::vector<double> row(3, 0.0);
    for (int k = B.graph.row_map(i); k < B.graph.row_map(i + 1); ++k) {
      if (k > B.graph.row_map(i)) {
        EXPECT_LT(B.graph.entries(k - 1), B.graph.entries(k));
      }
      row[B.graph.entries(k)] = B.values(k);
    }
    EXPECT_EQ(row, expected[i]) << "row " << i;
  }
}

TEST(Permutation, RejectsIndicesThatAreNotAPermutation) {
  auto A = matrix_from_dense({{1, 0}, {0, 1}});

  EXPECT_THROW(permute_matrix(ExecSpace(), A, to_view<int>({0, 0})), InvalidArgument);
  EXPECT_THROW(permute_matrix(ExecSpace(), A, to_view<int>({0})), DimensionMismatch);
}

TEST(Sort, SortsRowsAndMergesDuplicates) {
  auto A = matrix_from_triplets(2, 3, {{0, 2, 1}, {0, 0, 2}, {0, 2, 3}, {1, 1, 4}});

  auto B = to_host(sort_and_merge_rows(ExecSpace(), A));

  ASSERT_EQ(B.nnz(), 3);
  EXPECT_EQ(B.graph.entries(0), 0);
  EXPECT_EQ(B.values(0), 2);
  EXPECT_EQ(B.graph.entries(1), 2);
  EXPECT_EQ(B.values(1), 4);
  EXPECT_EQ(B.graph.entries(2), 1);
}

TEST(Sort, SortsRowsInPlace) {
  auto A = matrix_from_triplets(1, 3, {{0, 2, 1}, {0, 0, 2}, {0, 1, 3}});

  sort_rows(ExecSpace(), A);

  auto h = to_host(A);
  EXPECT_EQ(h.graph.entries(0), 0);
  EXPECT_EQ(h.values(0), 2);
  EXPECT_EQ(h.graph.entries(2), 2);
  EXPECT_EQ(h.values(2), 1);
}

}  // namespace
}  // namespace syncfree::test
