// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

#include "core/syncfree_validation.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

namespace syncfree::test {
namespace {

constexpr MatrixCheck all_lower = triangular_checks(Triangle::lower, Diagonal::stored);

ValidationReport check(const std::vector<Triplet>& t, MatrixCheck checks, std::int64_t n = 3,
                       std::int64_t m = 3) {
  return check_matrix(ExecSpace(), matrix_from_triplets(n, m, t), checks);
}

TEST(Validation, AcceptsAValidLowerTriangle) {
  auto report = check({{0, 0, 2}, {1, 0, 1}, {1, 1, 3}, {2, 1, 1}, {2, 2, 4}}, all_lower);

  EXPECT_TRUE(report.ok()) << report.message;
}

TEST(Validation, ReportsTheLongestRowsOffDiagonalEntriesAndTheBandwidth) {
  auto lower = check({{0, 0, 2}, {1, 0, 1}, {1, 1, 3}, {2, 1, 1}, {2, 2, 4}}, all_lower);
  auto no_diagonal = check({{0, 1, 1}, {0, 2, 1}, {1, 2, 1}}, MatrixCheck::structure);

  EXPECT_EQ(lower.longest_off_diagonal, 1);
  EXPECT_EQ(lower.bandwidth, 1);
  EXPECT_EQ(no_diagonal.longest_off_diagonal, 2);
  EXPECT_EQ(no_diagonal.bandwidth, 2);
}

TEST(Validation, ReportsUnsortedColumnsWithTheRowAndColumns) {
  auto report = check({{0, 0, 2}, {1, 1, 3}, {1, 0, 1}, {2, 2, 4}}, all_lower);

  EXPECT_EQ(report.defect, Defect::unsorted_columns);
  EXPECT_EQ(report.row, 1);
  EXPECT_EQ(report.message, "row 1: column 0 follows column 1 (column indices must be sorted)");
}

TEST(Validation, ReportsDuplicateColumns) {
  auto report = check({{0, 0, 2}, {1, 0, 1}, {1, 0, 1}, {1, 1, 3}, {2, 2, 4}}, all_lower);

  EXPECT_EQ(report.defect, Defect::duplicate_column);
  EXPECT_EQ(report.message, "row 1: column 0 is stored twice");
}

TEST(Validation, ReportsEntryAboveTheDiagonalOfALowerTriangle) {
  auto report = check({{0, 0, 2}, {1, 1, 3}, {1, 2, 5}, {2, 2, 4}}, all_lower);

  EXPECT_EQ(report.defect, Defect::outside_triangle);
  EXPECT_EQ(report.row, 1);
}

TEST(Validation, ReportsEntryBelowTheDiagonalOfAnUpperTriangle) {
  auto report = check({{0, 0, 2}, {1, 1, 3}, {2, 0, 5}, {2, 2, 4}},
                      triangular_checks(Triangle::upper, Diagonal::stored));

  EXPECT_EQ(report.defect, Defect::outside_triangle);
  EXPECT_EQ(report.row, 2);
}

TEST(Validation, ReportsMissingDiagonal) {
  auto report = check({{0, 0, 2}, {1, 0, 1}, {2, 2, 4}}, all_lower);

  EXPECT_EQ(report.defect, Defect::missing_diagonal);
  EXPECT_EQ(report.message, "row 1: diagonal entry is missing");
}

TEST(Validation, ReportsZeroDiagonalEvenWhenStoredExplicitly) {
  auto report = check({{0, 0, 2}, {1, 1, 0.0}, {2, 2, 4}}, all_lower);

  EXPECT_EQ(report.defect, Defect::zero_diagonal);
  EXPECT_EQ(report.row, 1);
}

TEST(Validation, UnitDiagonalTrianglesNeedNoStoredDiagonal) {
  auto report = check({{1, 0, 1}, {2, 1, 1}}, triangular_checks(Triangle::lower, Diagonal::unit));

  EXPECT_TRUE(report.ok()) << report.message;
}

TEST(Validation, ReportsNaNAndInfValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();

  auto with_nan = check({{0, 0, 2}, {1, 1, 3}, {2, 0, nan}, {2, 2, 4}}, all_lower);
  auto with_inf = check({{0, 0, inf}, {1, 1, 3}, {2, 2, 4}}, all_lower);

  EXPECT_EQ(with_nan.defect, Defect::not_finite);
  EXPECT_EQ(with_nan.row, 2);
  EXPECT_EQ(with_inf.defect, Defect::not_finite);
  EXPECT_EQ(with_inf.row, 0);
}

TEST(Validation, ReportsTheFirstDefectiveRow) {
  auto report = check({{0, 0, 2}, {1, 1, 0.0}, {2, 2, 0.0}}, all_lower);

  EXPECT_EQ(report.row, 1);
}

TEST(Validation, ReportsNonSquareShape) {
  auto report = check({{0, 0, 1}}, MatrixCheck::square, 2, 3);

  EXPECT_EQ(report.defect, Defect::not_square);
  EXPECT_EQ(report.message, "matrix is 2x3, not square");
}

TEST(Validation, ReportsColumnOutOfRangeWithoutOtherChecks) {
  auto report = check({{0, 0, 1}, {1, 3, 1}}, MatrixCheck::structure, 2, 3);

  EXPECT_EQ(report.defect, Defect::column_out_of_range);
  EXPECT_EQ(report.row, 1);
}

/// A 2 x 2 matrix with one (zero) entry and the given three row pointers.
TestMatrix<> matrix_with_row_pointers(int first, int second, int third) {
  using M = TestMatrix<>;
  typename M::row_map_type::non_const_type row_map("row_map", 3);
  typename M::index_type::non_const_type entries("entries", 1);
  typename M::values_type::non_const_type values("values", 1);
  auto h = Kokkos::create_mirror_view(row_map);
  h(0) = first, h(1) = second, h(2) = third;
  Kokkos::deep_copy(row_map, h);
  return make_crs<M>("bad", 2, 2, row_map, entries, values);
}

TEST(Validation, ReportsDecreasingRowPointers) {
  auto report =
      check_matrix(ExecSpace(), matrix_with_row_pointers(0, 1, 0), MatrixCheck::structure);

  EXPECT_EQ(report.defect, Defect::bad_row_pointers);
  EXPECT_EQ(report.row, 1);  // row 1 ends (0) before it begins (1)
  EXPECT_NE(report.message.find("row pointers of row 1 are inconsistent (1 to 0"),
            std::string::npos)
      << report.message;
}

TEST(Validation, ReportsRowPointersBeyondTheEntriesWithoutReadingThem) {
  // Row 0 would read entries 0..999 of 1.
  auto report =
      check_matrix(ExecSpace(), matrix_with_row_pointers(0, 1000, 1), MatrixCheck::structure);

  EXPECT_EQ(report.defect, Defect::bad_row_pointers);
  EXPECT_EQ(report.row, 0);
}

TEST(Validation, ReportsANegativeRowPointerAfterADecreasingOneWithoutReadingIt) {
  // Row 1 ends (-3) before it begins (1); row 2's pointers, -3 to 1, do not decrease, and its
  // entries must not be read from index -3 (a memory checker sees the read; the pass must not
  // make it).
  using M = TestMatrix<>;
  typename M::row_map_type::non_const_type row_map("row_map", 4);
  typename M::index_type::non_const_type entries("entries", 1);
  typename M::values_type::non_const_type values("values", 1);
  auto h = Kokkos::create_mirror_view(row_map);
  h(0) = 0, h(1) = 1, h(2) = -3, h(3) = 1;
  Kokkos::deep_copy(row_map, h);

  auto report = check_matrix(ExecSpace(), make_crs<M>("bad", 3, 3, row_map, entries, values),
                             MatrixCheck::structure);

  EXPECT_EQ(report.defect, Defect::bad_row_pointers);
  EXPECT_EQ(report.row, 1);
}

/// A lower triangle of 300 rows; row i stores columns i - 40 .. i (fewer near the top), so rows
/// are longer than a warp and cross the 32-entry chunks of a warp-wide pass. `change` edits the
/// sorted columns of a row before its values (1, diagonal 4) are set.
template <class Change>
TestMatrix<> long_rows_with(Change change) {
  std::vector<Triplet> t;
  for (int i = 0; i < 300; ++i) {
    std::vector<std::int64_t> columns;
    for (int j = std::max(0, i - 40); j <= i; ++j) columns.push_back(j);
    change(i, columns);
    for (const auto j : columns) t.push_back({i, j, j == i ? 4.0 : 1.0});
  }
  return matrix_from_triplets(300, 300, t);
}

TEST(Validation, FindsTheFirstDefectiveRowAmongManyLongRows) {
  // Each defect planted in rows 200, 205 and 250, past the row's first 32 entries: row 200 is
  // reported, with the defect a one-row scan finds.
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    const char* name;
    Defect defect;
    std::function<void(std::vector<Triplet>&, int)> plant;  // into the entries of one row
  };
  const std::vector<Case> cases = {
      {"unsorted", Defect::unsorted_columns,
       [](auto& row, int) { std::swap(row[33].col, row[34].col); }},
      {"duplicate", Defect::duplicate_column, [](auto& row, int) { row[33].col = row[32].col; }},
      {"out of range", Defect::column_out_of_range, [](auto& row, int) { row[33].col = 300; }},
      {"not finite", Defect::not_finite, [&](auto& row, int) { row[33].value = nan; }},
      {"zero diagonal", Defect::zero_diagonal, [](auto& row, int) { row.back().value = 0; }},
      {"outside the triangle", Defect::outside_triangle,
       [](auto& row, int i) {
         row.push_back({i, i + 1, 1.0});
       }},
      {"missing diagonal", Defect::missing_diagonal, [](auto& row, int) { row.pop_back(); }},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<Triplet> t;
    for (int i = 0; i < 300; ++i) {
      std::vector<Triplet> row;
      for (int j = std::max(0, i - 40); j <= i; ++j) row.push_back({i, j, j == i ? 4.0 : 1.0});
      if (i == 200 || i == 205 || i == 250) c.plant(row, i);
      t.insert(t.end(), row.begin(), row.end());
    }
    const auto report = check_matrix(ExecSpace(), matrix_from_triplets(300, 300, t), all_lower);
    EXPECT_EQ(report.defect, c.defect) << report.message;
    EXPECT_EQ(report.row, 200);
  }
}

TEST(Validation, ReportsBrokenRowPointersAmongLongRows) {
  // Row 100 ends one entry before it begins; row 101 then begins inside row 100. Rows of about 40
  // entries, so CUDA runs its warp-wide pass, whose warp of rows 96-127 must check them one by
  // one.
  const auto A = long_rows_with([](int, auto&) {});
  typename TestMatrix<>::row_map_type::non_const_type row_map("row_map", 301);
  Kokkos::deep_copy(row_map, A.graph.row_map);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_map);
  h(101) = h(100) - 1;
  Kokkos::deep_copy(row_map, h);
  const auto B = make_crs<TestMatrix<>>("broken", 300, 300, row_map, A.graph.entries, A.values);

  const auto report = check_matrix(ExecSpace(), B, all_lower);

  EXPECT_EQ(report.defect, Defect::bad_row_pointers);
  EXPECT_EQ(report.row, 100);
}

TEST(Validation, ReportsTheLongestRowAndTheBandwidthAmongManyRowsWithEmptyOnes) {
  // Every third row empty, the others with or without their diagonal: the longest hold 41
  // entries with it or 40 without, 40 off the diagonal either way.
  const auto A = long_rows_with([](int i, auto& columns) {
    if (i % 3 == 0) columns.clear();
    if (i % 3 == 1) columns.pop_back();
  });
  const auto report = check_matrix(ExecSpace(), A, MatrixCheck::sorted_unique);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_EQ(report.longest_off_diagonal, 40);
  EXPECT_EQ(report.bandwidth, 40);
  const auto with_a_long_one = long_rows_with([](int i, auto& columns) {
    if (i % 3 == 0) columns.clear();
    if (i == 100)
      for (int j = 101; j < 150; ++j) columns.push_back(j);  // 41 + 49 entries, one diagonal
  });
  const auto long_one = check_matrix(ExecSpace(), with_a_long_one, MatrixCheck::sorted_unique);
  EXPECT_EQ(long_one.longest_off_diagonal, 89);
  EXPECT_EQ(long_one.bandwidth, 49);  // row 100's last entry, column 149
}

TEST(Validation, ReportsTheLongestRowAndTheBandwidthOfUnsortedRows) {
  // Jacobi's checks (square only) on rows stored in reverse: row 150 holds its diagonal three
  // times (43 entries, 40 off the diagonal), row 100 a column far to its right among the others
  // (42 entries, 41 off the diagonal, 199 from the row).
  const auto A = long_rows_with([](int i, auto& columns) {
    std::reverse(columns.begin(), columns.end());
    if (i == 150) columns.insert(columns.begin() + 7, {150, 150});
    if (i == 100) columns.insert(columns.begin() + 5, 299);
  });
  const auto report = check_matrix(ExecSpace(), A, MatrixCheck::square);
  ASSERT_TRUE(report.ok()) << report.message;
  EXPECT_EQ(report.longest_off_diagonal, 41);
  EXPECT_EQ(report.bandwidth, 199);
  const auto sorted = check_matrix(ExecSpace(), A, MatrixCheck::sorted_unique);
  EXPECT_EQ(sorted.defect, Defect::unsorted_columns);
  EXPECT_EQ(sorted.row, 1);
}

TEST(Validation, FindsADefectInTheOneLongRowAmongShortOnes) {
  // Rows of 2 entries and a last row of 1,500, unsorted: CUDA reads them a warp per 32 rows (a row
  // longer than 512), where the mean row alone would give a thread per row.
  const int n = 1500;
  std::vector<Triplet> t;
  for (int i = 0; i < n - 1; ++i) t.push_back({i, i, 2.0});
  for (int j = n - 1; j >= 0; --j) t.push_back({n - 1, j, j == n - 1 ? 4.0 : 1.0});
  for (int i = 0; i < n - 2; ++i) t.push_back({i, i + 1, 1.0});
  std::stable_sort(t.begin(), t.end(),
                   [](const Triplet& a, const Triplet& b) { return a.row < b.row; });
  const auto sound = check_matrix(ExecSpace(), matrix_from_triplets(n, n, t), MatrixCheck::square);
  ASSERT_TRUE(sound.ok()) << sound.message;
  EXPECT_EQ(sound.longest_off_diagonal, n - 1);
  EXPECT_EQ(sound.bandwidth, n - 1);
  for (auto& e : t)
    if (e.row == n - 1 && e.col == 700) e.value = std::numeric_limits<double>::quiet_NaN();
  const auto nan = check_matrix(ExecSpace(), matrix_from_triplets(n, n, t),
                                MatrixCheck::square | MatrixCheck::finite);
  EXPECT_EQ(nan.defect, Defect::not_finite);
  EXPECT_EQ(nan.row, n - 1);
}

TEST(Validation, RequireValidThrowsInvalidMatrixNamingTheContextAndTheRow) {
  auto A = matrix_from_triplets(2, 2, {{0, 0, 1}, {1, 0, 1}});

  try {
    require_valid(ExecSpace(), A, all_lower, "sptrsv_analyze");
    FAIL() << "no exception";
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(std::string(e.what()), "sptrsv_analyze: row 1: diagonal entry is missing");
    EXPECT_EQ(e.row(), 1);
  }
}

TEST(Validation, RequireFitsRejectsCountsBeyondTheIndexType) {
  EXPECT_NO_THROW(require_fits<int>(2147483647, "A", "rows", "ordinal"));
  EXPECT_THROW(require_fits<int>(2147483648LL, "A", "rows", "ordinal"), InvalidMatrix);
  EXPECT_THROW(require_fits<int>(-1, "A", "rows", "ordinal"), InvalidMatrix);
  try {
    require_fits<int>(3000000000LL, "A.mtx", "entries", "offset");
    FAIL() << "no exception";
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(std::string(e.what()),
              "A.mtx has 3000000000 entries; that overflows the 32-bit offset type");
    EXPECT_EQ(e.row(), -1);
  }
}

}  // namespace
}  // namespace syncfree::test
