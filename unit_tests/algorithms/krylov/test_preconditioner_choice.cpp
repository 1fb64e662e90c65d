// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "algorithms/krylov/syncfree_preconditioner_choice.hpp"
#include "core/syncfree_problems.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

/// An SPD pentadiagonal matrix whose inner rows are not diagonally dominant: 1 on the diagonal,
/// -0.3 one off it, +0.3 two off (symbol 0.4 - 0.6 cos t + 1.2 cos^2 t > 0), |0.3| * 4 > 1.
M spd_not_dominant(int n) {
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i)
    for (int j = i - 2; j <= i + 2; ++j)
      if (j >= 0 && j < n) t.push_back({i, j, j == i ? 1.0 : (std::abs(j - i) == 1 ? -0.3 : 0.3)});
  return matrix_from_triplets(n, n, t);
}

/// Rows not dominant counted on the host, as the library defines them.
std::int64_t rows_not_dominant_on_host(const std::vector<Triplet>& t, int n) {
  std::vector<double> diagonal(n), off(n);
  for (const auto& e : t)
    (e.row == e.col ? diagonal : off)[std::size_t(e.row)] += std::abs(e.value);
  std::int64_t count = 0;
  for (int i = 0; i < n; ++i) count += impl::falls_short_of_dominance(diagonal[i], off[i]);
  return count;
}

TEST(PreconditionerChoice, TakesFsaiForAnSpdMatrixWhoseRowsAreMostlyNotDominant) {
  const auto A = spd_not_dominant(100);

  const auto cg = suggest_preconditioner(ExecSpace(), A, true);
  const auto gmres = suggest_preconditioner(ExecSpace(), A, false);

  EXPECT_EQ(cg.choice, PreconditionerChoice::fsai);
  EXPECT_EQ(cg.rows_not_dominant, 96);  // all but the first two and the last two rows
  EXPECT_EQ(cg.reason.rfind("fsai: 96.0 % of the rows are not diagonally dominant", 0), 0u)
      << cg.reason;
  EXPECT_EQ(gmres.choice, PreconditionerChoice::jacobi);  // FSAI needs an SPD matrix
  EXPECT_NE(gmres.reason.find("symmetric positive definite"), std::string::npos) << gmres.reason;
}

TEST(PreconditionerChoice, TakesJacobiWhereRowsAreDominantEvenOnlyWeakly) {
  // A grid Laplacian's inner rows are dominant only in exact arithmetic: 6 = 6 * |-1|.
  const auto grid = generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d:8"));

  const auto s = suggest_preconditioner(ExecSpace(), grid, true);

  EXPECT_EQ(s.choice, PreconditionerChoice::jacobi);
  EXPECT_EQ(s.rows_not_dominant, 0);
  EXPECT_EQ(s.rows, 512);
}

TEST(PreconditionerChoice, RefusesAMatrixThatIsNotSquare) {
  EXPECT_THROW(suggest_preconditioner(ExecSpace(), matrix_from_triplets(2, 3, {}), true),
               InvalidMatrix);
}

// Rows of 8 or more entries on average with hubs of about 500, unsorted and with a diagonal split
// in two entries on some rows: CUDA counts them a warp per 32 rows; the count is the host's.
TEST(PreconditionerChoice, CountsTheRowsNotDominantAmongLongUnsortedRows) {
  const int n = 4000;
  auto t = power_law_triplets(n, 32, 4);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> scale(0.5, 1.5);
  std::vector<Triplet> changed;
  for (auto e : t) {
    if (e.row == e.col) {
      e.value *= scale(rng);  // about half the rows fall short of dominance
      if (e.row % 7 == 0) {
        changed.push_back({e.row, e.col, 0.25 * e.value});
        e.value *= 0.75;
      }
    } else if (e.row % 2 == 0) {
      e.value = -e.value;
    }
    changed.push_back(e);
  }
  std::reverse(changed.begin(), changed.end());  // rows in reverse order: columns descending
  std::stable_sort(changed.begin(), changed.end(),
                   [](const Triplet& a, const Triplet& b) { return a.row < b.row; });
  const auto A = matrix_from_triplets(n, n, changed);
  ASSERT_GE(A.nnz(), 8 * n);
  const std::int64_t expected = rows_not_dominant_on_host(changed, n);
  ASSERT_GT(expected, n / 10);
  ASSERT_LT(expected, n - n / 10);

  EXPECT_EQ(impl::rows_not_diagonally_dominant(ExecSpace(), A), expected);
}

// Rows of 2-4 entries and a last row and column of 1,500, the short rows' diagonals scaled so that
// every third but the first falls short: CUDA counts them a warp per 32 rows (a row longer than
// 512).
TEST(PreconditionerChoice, CountsTheRowsNotDominantAmongShortRowsAndALongOne) {
  const int n = 1500;
  const auto h = to_host(dense_last_row_and_column(n));
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k) {
      const bool weak = h.graph.entries(k) == i && i % 3 == 0;
      t.push_back({i, h.graph.entries(k), weak ? 0.5 * h.values(k) : h.values(k)});
    }
  const std::int64_t expected = rows_not_dominant_on_host(t, n);
  ASSERT_EQ(expected, n / 3 - 1);  // row 0 stays dominant: 2 against 1.5 + 0.5

  EXPECT_EQ(impl::rows_not_diagonally_dominant(ExecSpace(), matrix_from_triplets(n, n, t)),
            expected);
}

}  // namespace
}  // namespace syncfree::test
