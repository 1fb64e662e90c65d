// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include <cmath>
#include <limits>

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

TEST(Validation, ReportsTheLongestRowsOffDiagonalEntries) {
  auto lower = check({{0, 0, 2}, {1, 0, 1}, {1, 1, 3}, {2, 0, 1}, {2, 1, 1}, {2, 2, 4}}, all_lower);
  auto no_diagonal = check({{0, 1, 1}, {0, 2, 1}, {1, 2, 1}}, MatrixCheck::structure);

  EXPECT_EQ(lower.longest_off_diagonal, 2);
  EXPECT_EQ(no_diagonal.longest_off_diagonal, 2);
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

TEST(Validation, RequireValidThrowsInvalidMatrixNamingTheContext) {
  auto A = matrix_from_triplets(2, 2, {{0, 0, 1}, {1, 0, 1}});

  try {
    require_valid(ExecSpace(), A, all_lower, "sptrsv_analyze");
    FAIL() << "no exception";
  } catch (const InvalidMatrix& e) {
    EXPECT_EQ(std::string(e.what()), "sptrsv_analyze: row 1: diagonal entry is missing");
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
  }
}

}  // namespace
}  // namespace syncfree::test
