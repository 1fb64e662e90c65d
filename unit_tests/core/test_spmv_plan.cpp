// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>

#include "core/impl/syncfree_far_entries.hpp"
#include "core/syncfree_problems.hpp"
#include "core/syncfree_reference.hpp"
#include "core/syncfree_spmv_plan.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"
#include "unit_tests/utils/syncfree_unstructured_matrices.hpp"

namespace syncfree::test {
namespace {

using M = TestMatrix<>;

/// apply (two alpha, beta pairs) and apply_dots (u = x and u another vector) against the serial
/// reference, of A's values rounded to float under SpmvPrecision::single. The plan sums a row's
/// products in CSR order, as the reference does, where a thread computes a row; `tolerance` is
/// relative to max(1, |expected|).
void expect_plan_matches_reference(const SpmvPlan<M>& plan, double tolerance = 1e-13) {
  const auto& A = plan.matrix();
  auto host_A = to_host(A);
  if (plan.precision() == SpmvPrecision::single)
    for (std::size_t k = 0; k < host_A.values.extent(0); ++k)
      host_A.values(k) = double(float(host_A.values(k)));
  const auto x = pattern_vector(std::size_t(A.numCols()), 1.0);
  const auto ax = reference::spmv(host_A, x);
  for (const auto& [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{-0.5, 2.0}}) {
    const auto y0 = pattern_vector(std::size_t(A.numRows()), -2.0);
    auto y = to_view(y0);
    plan.apply(ExecSpace(), alpha, to_view(x), beta, y);
    std::vector<double> expected(ax.size());
    for (std::size_t i = 0; i < ax.size(); ++i) expected[i] = alpha * ax[i] + beta * y0[i];
    expect_near_entrywise(to_std(y), expected, tolerance);
  }
  if (A.numRows() != A.numCols()) return;
  const auto other = pattern_vector(std::size_t(A.numRows()), 0.25);
  for (const bool u_is_x : {true, false}) {
    SCOPED_TRACE(u_is_x ? "u = x" : "u another vector");
    const auto xv = to_view(x);
    const auto u = u_is_x ? xv : to_view(other);
    Vector<double, Device> y("y", A.numRows()), sums("sums", 2);
    plan.apply_dots(ExecSpace(), xv, y, u, sums);
    expect_near_entrywise(to_std(y), ax, tolerance);
    double uy = 0, yy = 0;
    for (std::size_t i = 0; i < ax.size(); ++i) {
      uy += (u_is_x ? x[i] : other[i]) * ax[i];
      yy += ax[i] * ax[i];
    }
    const auto s = to_std(sums);
    EXPECT_NEAR(s[0], uy, 1e-10 * (1 + std::abs(uy)));
    EXPECT_NEAR(s[1], yy, 1e-10 * (1 + yy));
  }
}

TEST(SpmvPlan, StencilFormatMatchesTheReferenceOnStencils) {
  // 5 and 7 diagonals (byte masks), 27 (word masks).
  for (const auto& [spec, diagonals] :
       {std::pair{"poisson2d:20", 5}, std::pair{"poisson3d:9", 7}, std::pair{"convdiff3d:8", 7},
        std::pair{"poisson3d27:7", 27}}) {
    SCOPED_TRACE(spec);
    const auto A = generate_matrix<M>(ExecSpace(), parse_problem_spec(spec));
    const SpmvPlan<M> plan(ExecSpace(), A, SpmvFormat::stencil);
    ASSERT_EQ(plan.format(), SpmvFormat::stencil);
    EXPECT_EQ(plan.stencil_diagonals(), diagonals);
    expect_plan_matches_reference(plan);
  }
}

TEST(SpmvPlan, FindsTheDiagonalsAndMasksOfATridiagonalMatrix) {
  const auto A = matrix_from_dense({{2, -1, 0, 0}, {-1, 2, -1, 0}, {0, -1, 2, -1}, {0, 0, -1, 2}});
  const auto pattern = impl::find_stencil_pattern(ExecSpace(), A);
  ASSERT_TRUE(pattern.found()) << pattern.why_not;
  EXPECT_EQ(to_std(pattern.offsets), (std::vector<std::int64_t>{-1, 0, 1}));
  EXPECT_EQ(pattern.diagonal_bit, 1);
  EXPECT_EQ(to_std(pattern.masks8), (std::vector<std::uint8_t>{0b110, 0b111, 0b111, 0b011}));
  EXPECT_EQ(pattern.masks32.extent(0), 0u);
}

/// Row i holds the diagonals i - d for d in `diagonals` that land in the matrix, valued 1 + d.
M lower_band(int n, int diagonals) {
  std::vector<Triplet> t;
  for (int i = 0; i < n; ++i)
    for (int d = diagonals - 1; d >= 0; --d)
      if (i - d >= 0) t.push_back({i, i - d, 1.0 + d});
  return matrix_from_triplets(n, n, t);
}

TEST(SpmvPlan, TakesThirtyTwoDiagonalsAndNotThirtyThree) {
  const auto A32 = lower_band(100, 32);
  const SpmvPlan<M> plan(ExecSpace(), A32, SpmvFormat::stencil);
  EXPECT_EQ(plan.stencil_diagonals(), 32);  // bit 31 used
  expect_plan_matches_reference(plan);

  const auto A33 = lower_band(100, 33);
  const auto pattern = impl::find_stencil_pattern(ExecSpace(), A33);
  EXPECT_FALSE(pattern.found());
  EXPECT_NE(pattern.why_not.find("more than 32 diagonals"), std::string::npos) << pattern.why_not;
  try {
    SpmvPlan<M>(ExecSpace(), A33, SpmvFormat::stencil);
    FAIL() << "a 33-diagonal matrix has no stencil format";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("more than 32 diagonals"), std::string::npos) << e.what();
  }
  // The automatic format falls back to CSR, and computes the same product.
  const SpmvPlan<M> fallback(ExecSpace(), A33);
  EXPECT_EQ(fallback.format(), SpmvFormat::csr);
  expect_plan_matches_reference(fallback);
}

TEST(SpmvPlan, RefusesUnsortedAndRepeatedColumnsNamingTheRow) {
  const std::vector<Triplet> unsorted = {{0, 0, 1}, {1, 1, 1}, {2, 3, 1}, {2, 2, 1}, {3, 3, 1}};
  const std::vector<Triplet> repeated = {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {1, 1, 2}, {2, 2, 1}};
  for (const auto& [triplets, row] :
       {std::pair{unsorted, "row 2 "}, std::pair{repeated, "row 1 "}}) {
    const auto A = matrix_from_triplets(4, 4, triplets);
    const auto pattern = impl::find_stencil_pattern(ExecSpace(), A);
    EXPECT_FALSE(pattern.found());
    EXPECT_NE(pattern.why_not.find(std::string(row) + "has unsorted or repeated column indices"),
              std::string::npos)
        << pattern.why_not;
    EXPECT_THROW(SpmvPlan<M>(ExecSpace(), A, SpmvFormat::stencil), InvalidArgument);
    const SpmvPlan<M> fallback(ExecSpace(), A);
    EXPECT_EQ(fallback.format(), SpmvFormat::csr);
    expect_plan_matches_reference(fallback);
  }
}

TEST(SpmvPlan, StencilFormatHandlesEmptyRowsNoDiagonalAndRectangularMatrices) {
  // Rows 1 and 4 empty, no entry on the diagonal: the dots read u(i) rather than a gathered x(i).
  const auto no_diagonal = matrix_from_triplets(
      6, 6, {{0, 1, 2.0}, {2, 0, -1.0}, {2, 3, 4.0}, {3, 4, 1.5}, {5, 4, 3.0}});
  const SpmvPlan<M> plan(ExecSpace(), no_diagonal, SpmvFormat::stencil);
  EXPECT_EQ(plan.stencil_diagonals(), 3);  // -2, +1, -1
  expect_plan_matches_reference(plan);

  const auto wide =
      matrix_from_triplets(3, 7, {{0, 0, 1.0}, {0, 6, 2.0}, {1, 1, 3.0}, {2, 6, 5.0}});
  const SpmvPlan<M> wide_plan(ExecSpace(), wide, SpmvFormat::stencil);
  expect_plan_matches_reference(wide_plan);

  const auto empty = matrix_from_triplets(0, 0, {});
  const SpmvPlan<M> empty_plan(ExecSpace(), empty, SpmvFormat::stencil);
  Vector<double, Device> x("x", 0), y("y", 0);
  EXPECT_NO_THROW(empty_plan.apply(ExecSpace(), 1.0, x, 0.0, y));
}

TEST(SpmvPlan, StencilFormatSeesNewValuesAndOverwritesNaNWhereBetaIsZero) {
  auto A = matrix_from_dense({{2, 1}, {0, 3}});
  const SpmvPlan<M> plan(ExecSpace(), A, SpmvFormat::stencil);
  auto x = to_view<double>({1, 2});
  auto y = to_view<double>({std::numeric_limits<double>::quiet_NaN(), 7});
  plan.apply(ExecSpace(), 1.0, x, 0.0, y);
  EXPECT_EQ(to_std(y), (std::vector<double>{4, 6}));

  Kokkos::deep_copy(A.values, 1.0);  // same pattern, new values
  plan.apply(ExecSpace(), 1.0, x, 0.0, y);
  EXPECT_EQ(to_std(y), (std::vector<double>{3, 2}));
}

/// A with its values divided by 3: none of them a float any more.
M thirds(const M& A) {
  typename M::values_type::non_const_type values("thirds", A.values.extent(0));
  const auto from = A.values;
  Kokkos::parallel_for(
      "thirds", Kokkos::RangePolicy<ExecSpace>(0, values.extent(0)),
      KOKKOS_LAMBDA(const std::size_t k) { values(k) = from(k) / 3; });
  return M("thirds", A.numCols(), values, A.graph);
}

// The products read the values rounded to float and sum in double: the reference of the rounded
// values to double's precision, and not the product of the double values.
TEST(SpmvPlan, SinglePrecisionValuesGiveTheProductOfTheRoundedValues) {
  for (const auto& [name, A, format] :
       {std::tuple{"poisson3d:9",
                   thirds(generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d:9"))),
                   SpmvFormat::stencil},
        std::tuple{"poisson3d27:7",
                   thirds(generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d27:7"))),
                   SpmvFormat::stencil},
        std::tuple{"poisson3d:9 csr",
                   thirds(generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d:9"))),
                   SpmvFormat::csr},
        std::tuple{"40 hubs", thirds(power_law_matrix(4000, 40, 7)), SpmvFormat::automatic},
        std::tuple{"geometric", thirds(unstructured_test_matrices()[1].A),
                   SpmvFormat::automatic}}) {
    SCOPED_TRACE(name);
    const SpmvPlan<M> single(ExecSpace(), A, format, SpmvPrecision::single);
    ASSERT_EQ(single.precision(), SpmvPrecision::single);
    expect_plan_matches_reference(single, 1e-12);

    const SpmvPlan<M> plan(ExecSpace(), A, format);
    EXPECT_EQ(plan.precision(), SpmvPrecision::matrix);
    const auto x = to_view(pattern_vector(std::size_t(A.numCols()), 1.0));
    Vector<double, Device> y_single("y_single", A.numRows()), y("y", A.numRows());
    single.apply(ExecSpace(), 1.0, x, 0.0, y_single);
    plan.apply(ExecSpace(), 1.0, x, 0.0, y);
    double largest_difference = 0;
    const auto ys = to_std(y_single), yd = to_std(y);
    for (std::size_t i = 0; i < ys.size(); ++i)
      largest_difference = std::max(largest_difference, std::abs(ys[i] - yd[i]));
    EXPECT_GT(largest_difference, 1e-10) << "the float values were not the ones read";
  }
}

TEST(SpmvPlan, SinglePrecisionValuesAreRoundedAgainOnRequest) {
  const M A = matrix_from_dense({{2, 1}, {0, 3}});
  SpmvPlan<M> plan(ExecSpace(), A, SpmvFormat::csr, SpmvPrecision::single);
  const auto x = to_view<double>({1, 2});
  Vector<double, Device> y("y", 2);
  Kokkos::deep_copy(A.values, 1.0 / 3);  // read at the next rounding only
  plan.apply(ExecSpace(), 1.0, x, 0.0, y);
  EXPECT_EQ(to_std(y), (std::vector<double>{4, 6}));
  plan.round_values(ExecSpace());
  plan.apply(ExecSpace(), 1.0, x, 0.0, y);
  const double third = double(1.0f / 3);
  EXPECT_EQ(to_std(y), (std::vector<double>{3 * third, 2 * third}));

  Kokkos::deep_copy(Kokkos::subview(A.values, 2), 1e39);  // row 1's diagonal
  try {
    plan.round_values(ExecSpace());
    ADD_FAILURE() << "no error for an entry beyond float's range";
  } catch (const InvalidMatrix& e) {
    EXPECT_NE(std::string(e.what()).find("row 1: an entry is beyond single precision's range"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(SpmvPlan<M>(ExecSpace(), A, SpmvFormat::automatic, SpmvPrecision::single),
               InvalidMatrix);
}

TEST(SpmvPlan, ParsesFormatNames) {
  for (const auto format : {SpmvFormat::automatic, SpmvFormat::csr, SpmvFormat::stencil})
    EXPECT_EQ(parse_spmv_format(to_string(format)), format);
  EXPECT_EQ(std::string(to_string(parse_spmv_format("stencil"))), "stencil");
  EXPECT_THROW(parse_spmv_format("dia"), InvalidArgument);
}

// Which format the automatic choice takes is the backend's: the stencil on CUDA for rows a thread
// computes (mean below 8 entries), CSR elsewhere.
// apply_dots on rows too long for a thread each (power-law hubs, an arrow's last row of 5001
// entries, mean rows of 5 to 15 entries): two passes, and the same numbers. On CUDA the rows of
// more than 256 entries (the 40 hubs of about 570, the arrow's last row) take a block each.
TEST(SpmvPlan, CsrFormatOnRowsFarLongerThanTheMean) {
  const bool cuda = std::string(SYNCFREE_TEST_BACKEND_NAME) == "cuda";
  for (const auto& [name, A, longest, team_rows] :
       {std::tuple{"40 hubs", power_law_matrix(4000, 40, 7), -1L, 40L},
        std::tuple{"arrow", dense_last_row_and_column(5001), 5001L, 1L}}) {
    SCOPED_TRACE(name);
    const SpmvPlan<M> plan(ExecSpace(), A);
    ASSERT_EQ(plan.format(), SpmvFormat::csr);
    EXPECT_EQ(plan.csr_team_rows(), cuda ? team_rows : 0);
    EXPECT_GT(plan.longest_row(), impl::spmv_dots_fused_longest_row);
    if (longest > 0) {
      EXPECT_EQ(plan.longest_row(), longest);
    }
    expect_plan_matches_reference(plan, 1e-10);
  }
}

// The rows longer than a length, in increasing order: 40 hubs (rows 0..39, about 570 entries)
// among rows of about 14; none above the longest; all at length 0 but the empty rows.
TEST(SpmvPlan, ListsTheRowsLongerThanALength) {
  const M A = power_law_matrix(4000, 40, 7);
  const auto h = to_host(A);
  for (long length : {0L, 100L, 1000L}) {
    SCOPED_TRACE(length);
    std::vector<int> expected;
    for (int i = 0; i < h.numRows(); ++i)
      if (long(h.graph.row_map(i + 1) - h.graph.row_map(i)) > length) expected.push_back(i);
    EXPECT_EQ(to_std(impl::rows_longer_than(ExecSpace(), A, length)), expected);
  }
  EXPECT_EQ(impl::rows_longer_than(ExecSpace(), A, 100).extent(0), 40u);
  EXPECT_EQ(impl::rows_longer_than(ExecSpace(), M(), 0).extent(0), 0u);
}

TEST(SpmvPlan, AutomaticFormatFollowsTheBackend) {
  const auto seven = generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d:6"));
  const auto twenty_seven = generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d27:6"));
  const bool cuda = std::string(SYNCFREE_TEST_BACKEND_NAME) == "cuda";
  EXPECT_EQ(SpmvPlan<M>(ExecSpace(), seven).format(), cuda ? SpmvFormat::stencil : SpmvFormat::csr);
  EXPECT_EQ(SpmvPlan<M>(ExecSpace(), twenty_seven).format(), SpmvFormat::csr);
  EXPECT_EQ(SpmvPlan<M>(ExecSpace(), seven, SpmvFormat::csr).format(), SpmvFormat::csr);
}

// An entry is far beyond max(rows / 32, 4096) of its row: for 100 rows, column i + 4097 of row i
// but not i + 4096; for 2^18 rows (a reach of 8192), a reversed identity's rows but the 8192 in
// the middle.
TEST(SpmvPlan, CountsTheEntriesFarFromTheirRow) {
  std::vector<Triplet> wide;
  for (int i = 0; i < 100; ++i)
    for (int j : {i, i + 4096, i + 4097}) wide.push_back({i, j, 1.0});
  EXPECT_DOUBLE_EQ(impl::far_entry_fraction(ExecSpace(), matrix_from_triplets(100, 8200, wide)),
                   1.0 / 3);
  const int n = 1 << 18;
  std::vector<Triplet> reversed;
  for (int i = 0; i < n; ++i) reversed.push_back({i, n - 1 - i, 1.0});
  EXPECT_DOUBLE_EQ(impl::far_entry_fraction(ExecSpace(), matrix_from_triplets(n, n, reversed)),
                   double(n - 8192) / n);
  EXPECT_EQ(impl::far_entry_fraction(ExecSpace(), M()), 0.0);
}

// Rows of 8 or more entries on average, hubs of about 500, numbered at random: CUDA counts them a
// warp per 32 rows; the count is the host's.
TEST(SpmvPlan, CountsTheFarEntriesOfLongRows) {
  const int n = 20000;
  const auto t = renumbered(power_law_triplets(n, 160, 40), n, 9);
  std::int64_t far = 0;
  for (const auto& e : t) far += std::abs(std::int64_t(e.col) - e.row) > 4096;
  const auto A = matrix_from_triplets(n, n, t);
  ASSERT_GE(A.nnz(), 8 * n);
  EXPECT_DOUBLE_EQ(impl::far_entry_fraction(ExecSpace(), A), double(far) / double(t.size()));
}

// Rows of 2-4 entries and a last row and column of 9,000 (an arrow): CUDA counts them a warp per
// 32 rows (a row longer than 512) though the mean row is short; the count is the host's.
TEST(SpmvPlan, CountsTheFarEntriesOfALongRowAmongShortOnes) {
  const int n = 9000;
  const auto A = dense_last_row_and_column(n);
  const auto h = to_host(A);
  std::int64_t far = 0;
  for (int i = 0; i < n; ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      far += std::abs(std::int64_t(h.graph.entries(k)) - i) > 4096;
  ASSERT_GT(far, 0);
  EXPECT_DOUBLE_EQ(impl::far_entry_fraction(ExecSpace(), A), double(far) / double(A.nnz()));
}

// On CUDA the CSR kernel takes wider vectors where the numbering scatters the columns: a 7-point
// grid of 40^3 points in its own order (no entry beyond 4096 of its row) one lane per row,
// randomly renumbered (most entries far) four, the power of two nearest half its mean row of 6.8
// entries; elsewhere the backend has no lanes to choose. Either way the product is the reference's.
TEST(SpmvPlan, CsrLanesFollowTheSpreadOfTheColumns) {
  const bool cuda = std::string(SYNCFREE_TEST_BACKEND_NAME) == "cuda";
  const auto grid = generate_matrix<M>(ExecSpace(), parse_problem_spec("poisson3d:40"));
  const auto host = to_host(grid);
  std::vector<Triplet> t;
  for (int i = 0; i < int(host.numRows()); ++i)
    for (auto k = host.graph.row_map(i); k < host.graph.row_map(i + 1); ++k)
      t.push_back({i, host.graph.entries(k), host.values(k)});
  const int n = int(host.numRows());
  const M random = matrix_from_triplets(n, n, renumbered(t, n, 3));
  EXPECT_EQ(impl::far_entry_fraction(ExecSpace(), grid), 0.0);
  EXPECT_GT(impl::far_entry_fraction(ExecSpace(), random), 0.5);
  for (const auto& [name, A, lanes] : {std::tuple{"grid order", grid, cuda ? 1 : 0},
                                       std::tuple{"random order", random, cuda ? 4 : 0}}) {
    SCOPED_TRACE(name);
    const SpmvPlan<M> plan(ExecSpace(), A, SpmvFormat::csr);
    EXPECT_EQ(plan.csr_lanes(), lanes);
    expect_plan_matches_reference(plan, 1e-12);
  }
  EXPECT_EQ(SpmvPlan<M>(ExecSpace(), grid).csr_lanes(), 0);  // CUDA: the stencil format
}

}  // namespace
}  // namespace syncfree::test
