// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <algorithm>
#include <limits>
#include <vector>

#include "algorithms/jacobi/syncfree_jacobi.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

TEST(Jacobi, AppliesTheInverseDiagonal) {
  auto A = matrix_from_dense({{2, 1, 0}, {1, 4, 1}, {0, 1, 8}});
  JacobiPreconditioner<M> jacobi(ExecSpace(), A);
  auto x = to_view<double>({2, 2, 2});
  auto y = to_view<double>({1, 1, 1});

  jacobi.apply(ExecSpace(), x, y, 2.0, 1.0);

  ASSERT_TRUE(jacobi.outcome().ok());
  EXPECT_EQ(to_std(y), (std::vector<double>{3, 2, 1.5}));
}

TEST(Jacobi, FindsTheDiagonalInUnsortedRows) {
  auto A = matrix_from_triplets(2, 2, {{0, 1, 1}, {0, 0, 4}, {1, 1, 2}});
  JacobiPreconditioner<M> jacobi(ExecSpace(), A);
  auto x = to_view<double>({1, 1});
  Vector<double, Device> y("y", 2);

  jacobi.apply(ExecSpace(), x, y);

  EXPECT_EQ(to_std(y), (std::vector<double>{0.25, 0.5}));
}

// Hub rows of about 500 entries among rows of about 8, each row stored in reverse order: rows of
// 8 or more entries on average, so CUDA reads them a warp per 32 rows. A hub that stores no
// diagonal is the first zero pivot.
TEST(Jacobi, FindsTheDiagonalsOfLongUnsortedRows) {
  const int n = 2000;
  auto t = power_law_triplets(n, 16, 4);
  std::vector<double> expected(n);
  for (const auto& e : t)
    if (e.row == e.col) expected[std::size_t(e.row)] = 1.0 / e.value;
  std::stable_sort(t.begin(), t.end(), [](const Triplet& a, const Triplet& b) {
    return a.row < b.row || (a.row == b.row && a.col > b.col);
  });
  const auto A = matrix_from_triplets(n, n, t);
  ASSERT_GE(A.nnz(), 8 * n);
  JacobiPreconditioner<M> jacobi(ExecSpace(), A);
  Vector<double, Device> x("x", n), y("y", n);
  Kokkos::deep_copy(x, 1.0);

  jacobi.apply(ExecSpace(), x, y);

  EXPECT_EQ(to_std(y), expected);
  t.erase(
      std::find_if(t.begin(), t.end(), [](const Triplet& e) { return e.row == 5 && e.col == 5; }));
  JacobiPreconditioner<M> missing(ExecSpace(), matrix_from_triplets(n, n, t));
  EXPECT_EQ(missing.outcome().status, Status::zero_pivot);
  EXPECT_EQ(missing.outcome().index, 5);
}

// Rows of 2-4 entries and a last row and column of 1,200 (an arrow), each row in reverse order:
// CUDA reads them a warp per 32 rows (a row longer than 512) though the mean row is short.
TEST(Jacobi, FindsTheDiagonalOfALongRowAmongShortOnes) {
  const int n = 1200;
  const auto A = to_host(dense_last_row_and_column(n));
  std::vector<Triplet> t;
  std::vector<double> expected(n);
  for (int i = 0; i < n; ++i)
    for (auto k = A.graph.row_map(i + 1); k-- > A.graph.row_map(i);) {
      t.push_back({i, A.graph.entries(k), A.values(k)});
      if (A.graph.entries(k) == i) expected[std::size_t(i)] = 1.0 / A.values(k);
    }
  JacobiPreconditioner<M> jacobi(ExecSpace(), matrix_from_triplets(n, n, t));
  Vector<double, Device> x("x", n), y("y", n);
  Kokkos::deep_copy(x, 1.0);

  jacobi.apply(ExecSpace(), x, y);

  EXPECT_EQ(to_std(y), expected);
}

TEST(Jacobi, ReportsAMissingDiagonalAsZeroPivotAndRefusesToApply) {
  auto A = matrix_from_triplets(3, 3, {{0, 0, 1}, {1, 0, 1}, {2, 2, 1}});
  JacobiPreconditioner<M> jacobi(ExecSpace(), A);
  Vector<double, Device> x("x", 3), y("y", 3);

  EXPECT_EQ(jacobi.outcome().status, Status::zero_pivot);
  EXPECT_EQ(jacobi.outcome().index, 1);
  EXPECT_THROW(jacobi.apply(ExecSpace(), x, y), InvalidState);
}

TEST(Jacobi, ReportsTheFirstZeroDiagonal) {
  auto A = matrix_from_triplets(3, 3, {{0, 0, 1}, {1, 1, 1}, {2, 2, 0.0}});

  JacobiPlan<M> plan;
  jacobi_analyze(ExecSpace(), plan, A);
  const Outcome outcome = jacobi_factor(ExecSpace(), plan, A);

  EXPECT_EQ(outcome.status, Status::zero_pivot);
  EXPECT_EQ(outcome.index, 2);
  EXPECT_EQ(outcome.reason, "row 2: diagonal entry is zero or missing; Jacobi cannot invert it");
}

TEST(Jacobi, ReportsANaNDiagonalAsNotFinite) {
  auto A =
      matrix_from_triplets(2, 2, {{0, 0, std::numeric_limits<double>::quiet_NaN()}, {1, 1, 1}});
  JacobiPlan<M> plan;
  jacobi_analyze(ExecSpace(), plan, A);

  EXPECT_EQ(jacobi_factor(ExecSpace(), plan, A).status, Status::not_finite);
}

TEST(Jacobi, RefactorsWhenValuesChange) {
  auto A = matrix_from_dense({{2, 0}, {0, 4}});
  JacobiPlan<M> plan;
  jacobi_analyze(ExecSpace(), plan, A);
  ASSERT_TRUE(jacobi_factor(ExecSpace(), plan, A).ok());
  Kokkos::deep_copy(A.values, 8.0);

  ASSERT_TRUE(jacobi_factor(ExecSpace(), plan, A).ok());

  EXPECT_EQ(to_std(plan.inverse_diagonal()), (std::vector<double>{0.125, 0.125}));
}

TEST(Jacobi, RejectsMisuse) {
  auto A = matrix_from_dense({{2, 0}, {0, 4}});
  auto B = matrix_from_dense({{2, 0, 0}, {0, 4, 0}, {0, 0, 1}});
  JacobiPlan<M> plan;
  Vector<double, Device> x("x", 2), y("y", 2), z("z", 3);

  EXPECT_THROW(jacobi_factor(ExecSpace(), plan, A), InvalidState);
  EXPECT_THROW(jacobi_apply(ExecSpace(), plan, x, y), InvalidState);
  jacobi_analyze(ExecSpace(), plan, A);
  EXPECT_THROW(jacobi_factor(ExecSpace(), plan, B), StructureMismatch);
  ASSERT_TRUE(jacobi_factor(ExecSpace(), plan, A).ok());
  EXPECT_THROW(jacobi_apply(ExecSpace(), plan, x, z), DimensionMismatch);
  EXPECT_THROW(jacobi_analyze(ExecSpace(), plan, matrix_from_triplets(2, 3, {})), InvalidMatrix);
}

}  // namespace
}  // namespace syncfree::test
