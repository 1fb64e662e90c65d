// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>

#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference.hpp"
#include "core/syncfree_spmv.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

/// y = alpha A x + beta y against the serial reference, entry by entry; `tolerance` relative to
/// max(1, |expected|).
void expect_matches_reference(const M& A, double alpha, double beta, double tolerance = 1e-12) {
  const auto host_A = to_host(A);
  const auto x = pattern_vector(std::size_t(A.numCols()), 1.0);
  const auto y0 = pattern_vector(std::size_t(A.numRows()), -2.0);
  auto y = to_view(y0);

  spmv(ExecSpace(), alpha, A, to_view(x), beta, y);

  const auto ax = reference::spmv(host_A, x);
  std::vector<double> expected(ax.size());
  for (std::size_t i = 0; i < ax.size(); ++i) expected[i] = alpha * ax[i] + beta * y0[i];
  // Sums of up to 141 products in another order, with cancellation: 1e-12, far below a missing
  // or doubled entry.
  expect_near_entrywise(to_std(y), expected, tolerance);
}

// Mean row lengths from 5 to 141: the CUDA kernel runs each of its vector widths 1, 4, 8, 16, 32.
TEST(Spmv, MatchesTheReferenceOnStencilsAndBands) {
  for (const char* spec :
       {"poisson2d:30", "poisson3d:12", "poisson3d27:9", "convdiff3d:10", "banded:3000:40:17",
        "banded:2000:200:60", "banded:2000:300:70", "banded:1000:400:140"}) {
    SCOPED_TRACE(spec);
    const auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec(spec));
    expect_matches_reference(A, 1.0, 0.0);
    expect_matches_reference(A, -0.5, 2.0);
  }
}

TEST(Spmv, HandlesEmptyRowsADenseRowAndARectangularMatrix) {
  std::vector<Triplet> t;
  for (int j = 0; j < 150; ++j) t.push_back({3, j, 1.0 + j});  // one dense row
  t.push_back({0, 5, 2.0});
  t.push_back({9, 149, -1.0});  // rows 1, 2, 4..8 stay empty
  const auto A = matrix_from_triplets(10, 150, t);

  expect_matches_reference(A, 1.0, 0.0);
  expect_matches_reference(A, 3.0, -1.0);
}

// Rows hundreds or thousands of times longer than the mean: on CUDA their vectors leave them to
// the whole warp, several in one warp where hubs are consecutive rows (40 of 570 entries), one in
// a warp of short rows elsewhere (the arrow's last row, 5001 entries; hubs of 20000).
TEST(Spmv, MatchesTheReferenceOnRowsFarLongerThanTheMean) {
  const std::pair<const char*, M> cases[] = {
      {"40 consecutive hubs", power_law_matrix(4000, 40, 7)},
      {"3 hubs of 20000 entries", power_law_matrix(20000, 3, 1)},
      {"dense last row and column", dense_last_row_and_column(5001)}};
  for (const auto& [name, A] : cases) {
    SCOPED_TRACE(name);
    // Sums of up to 20000 products with cancellation against the diagonal.
    expect_matches_reference(A, 1.0, 0.0, 1e-10);
    expect_matches_reference(A, -0.5, 2.0, 1e-10);
  }
}

TEST(Spmv, ZeroBetaOverwritesNaNInY) {
  const auto A = matrix_from_dense({{2, 1}, {0, 3}});
  auto x = to_view<double>({1, 2});
  auto y = to_view<double>({std::numeric_limits<double>::quiet_NaN(), 7});

  spmv(ExecSpace(), 1.0, A, x, 0.0, y);

  EXPECT_EQ(to_std(y), (std::vector<double>{4, 6}));
}

TEST(Spmv, EmptyMatrixDoesNothing) {
  const auto A = matrix_from_triplets(0, 0, {});
  Vector<double, Device> x("x", 0), y("y", 0);

  EXPECT_NO_THROW(spmv(ExecSpace(), 1.0, A, x, 0.0, y));
}

}  // namespace
}  // namespace syncfree::test
