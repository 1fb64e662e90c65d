// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 the SyncFree developers
#include "core/syncfree_matrix_market.hpp"
#include "unit_tests/utils/syncfree_temp_files.hpp"
#include "unit_tests/utils/syncfree_test_utils.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace syncfree::test {
namespace {

// One file per test.
std::string temp_path(const std::string& suffix = "") {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return temporary_file(std::string("mm_") + test->name() + suffix + ".mtx");
}

std::string write_temp(const std::string& contents) {
  const std::string path = temp_path();
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

template <class Matrix = TestMatrix<>>
Matrix read_contents(const std::string& contents, MatrixMarketInfo* info = nullptr) {
  return read_matrix_market<Matrix>(write_temp(contents), info);
}

// The stored entries of A, row by row, in storage order.
template <class Matrix>
std::vector<Triplet> entries_of(const Matrix& A) {
  const auto h = to_host(A);
  std::vector<Triplet> out;
  for (std::int64_t i = 0; i < h.numRows(); ++i)
    for (auto k = h.graph.row_map(i); k < h.graph.row_map(i + 1); ++k)
      out.push_back({i, std::int64_t(h.graph.entries(k)), double(h.values(k))});
  return out;
}

// Exact comparison: same shape, same entries in the same order, same values.
template <class Matrix>
void expect_entries(const Matrix& A, std::int64_t nrows, std::int64_t ncols,
                    const std::vector<Triplet>& expected) {
  ASSERT_EQ(A.numRows(), nrows);
  ASSERT_EQ(A.numCols(), ncols);
  ASSERT_EQ(A.graph.row_map.extent(0), std::size_t(nrows + 1));
  const std::vector<Triplet> actual = entries_of(A);
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t k = 0; k < actual.size(); ++k) {
    EXPECT_EQ(actual[k].row, expected[k].row) << "entry " << k;
    EXPECT_EQ(actual[k].col, expected[k].col) << "entry " << k;
    EXPECT_EQ(actual[k].value, expected[k].value) << "entry " << k;
  }
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Expects read(path) to throw FileFormatError "<path>:<line>: ...<phrase>...".
template <class Read>
void expect_error_when_reading(const std::string& contents, std::int64_t line,
                               const std::string& phrase, Read read) {
  const std::string path = write_temp(contents);
  std::string message;

  EXPECT_THROW(
      {
        try {
          read(path);
        } catch (const FileFormatError& e) {
          message = e.what();
          throw;
        }
      },
      FileFormatError)
      << contents;

  const std::string where = path + ":" + std::to_string(line) + ": ";
  EXPECT_EQ(message.rfind(where, 0), 0u)
      << "expected '" << where << "' at the start of: " << message;
  EXPECT_NE(message.find(phrase), std::string::npos)
      << "expected '" << phrase << "' in: " << message;
}

template <class Matrix = TestMatrix<>>
void expect_format_error(const std::string& contents, std::int64_t line,
                         const std::string& phrase) {
  expect_error_when_reading(contents, line, phrase,
                            [](const std::string& path) { read_matrix_market<Matrix>(path); });
}

void expect_vector_format_error(const std::string& contents, std::int64_t line,
                                const std::string& phrase) {
  expect_error_when_reading(contents, line, phrase, [](const std::string& path) {
    read_vector_market<double, Device>(path);
  });
}

const std::string general = "%%MatrixMarket matrix coordinate real general\n";
const std::string symmetric = "%%MatrixMarket matrix coordinate real symmetric\n";

// ---------------------------------------------------------------------------------------------
// Round trips and output format

TEST(MatrixMarket, RoundTripPreservesStructureAndValuesToTheBit) {
  const std::vector<Triplet> triplets = {
      {0, 0, 0.1},     {0, 3, 1.0 / 3.0}, {1, 1, 0.0},  // explicitly stored zero
      {1, 2, -0.0},    {3, 0, 1e300},     {3, 1, -5e-324},
      {3, 3, 6.02e23}, {4, 4, -2.5}};  // row 2 is empty
  const auto A = matrix_from_triplets(5, 6, triplets);
  const std::string path = temp_path();

  write_matrix_market(path, A);
  const auto B = read_matrix_market<TestMatrix<>>(path);

  ASSERT_EQ(B.numRows(), 5);
  ASSERT_EQ(B.numCols(), 6);
  const auto a = entries_of(A), b = entries_of(B);
  ASSERT_EQ(b.size(), a.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(b[k].row, a[k].row) << "entry " << k;
    EXPECT_EQ(b[k].col, a[k].col) << "entry " << k;
    EXPECT_TRUE(same_bits(b[k].value, a[k].value)) << "entry " << k << ": " << b[k].value;
  }
}

TEST(MatrixMarket, RoundTripOfFloatMatrixIsExact) {
  using Matrix = TestMatrix<float>;
  const float third = 1.0f / 3.0f, tiny = 1e-40f, big = 3.0e38f;
  const auto A = matrix_from_triplets<Matrix>(3, 3, {{0, 0, third}, {1, 2, tiny}, {2, 1, big}});
  const std::string path = temp_path();

  write_matrix_market(path, A);
  const auto h = to_host(read_matrix_market<Matrix>(path));

  ASSERT_EQ(h.values.extent(0), 3u);
  EXPECT_TRUE(same_bits(h.values(0), third));
  EXPECT_TRUE(same_bits(h.values(1), tiny));
  EXPECT_TRUE(same_bits(h.values(2), big));
}

TEST(MatrixMarket, RoundTripWithSizeTOffsets) {
  using Matrix = TestMatrix<double, std::size_t>;
  const std::vector<Triplet> triplets = {{0, 1, 0.7}, {1, 0, -1.25}, {1, 1, 3.0}, {2, 2, 1e-7}};
  const auto A = matrix_from_triplets<Matrix>(3, 3, triplets);
  const std::string path = temp_path();

  write_matrix_market(path, A);
  const auto B = read_matrix_market<Matrix>(path);

  expect_entries(B, 3, 3, triplets);
}

TEST(MatrixMarket, WritesOneBasedCoordinateRealGeneral) {
  const auto A = matrix_from_triplets(2, 3, {{0, 0, 0.5}, {1, 2, -2.0}, {1, 1, 0.1}});
  const std::string path = temp_path();

  write_matrix_market(path, A);

  EXPECT_EQ(read_file(path),
            "%%MatrixMarket matrix coordinate real general\n"
            "2 3 3\n"
            "1 1 0.5\n"
            "2 3 -2\n"
            "2 2 0.10000000000000001\n");
}

TEST(MatrixMarket, VectorRoundTripIsExact) {
  const std::vector<double> x = {0.1, -0.0, 1e-310, -7.0, 1.0 / 7.0};
  const std::string path = temp_path();

  write_vector_market(path, to_view<double>(x));
  const std::vector<double> y = to_std(read_vector_market<double, Device>(path));

  ASSERT_EQ(y.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_TRUE(same_bits(y[i], x[i])) << "entry " << i;
}

TEST(MatrixMarket, WritesVectorAsOneColumnArray) {
  const std::string path = temp_path();

  write_vector_market(path, to_view<double>({1.5, -2.0}));

  EXPECT_EQ(read_file(path), "%%MatrixMarket matrix array real general\n2 1\n1.5\n-2\n");
}

TEST(MatrixMarket, ReadsCoordinateVectorWithUnlistedEntriesZero) {
  const auto x = read_vector_market<double, Device>(write_temp(
      "%%MatrixMarket matrix coordinate real general\n4 1 3\n3 1 2.5\n1 1 -1\n3 1 0.5\n"));

  EXPECT_EQ(to_std(x), (std::vector<double>{-1, 0, 3, 0}));
}

TEST(MatrixMarket, WritingToAnUnopenablePathThrows) {
  const auto A = matrix_from_dense({{1}});

  EXPECT_THROW(write_matrix_market(::testing::TempDir() + "no_such_dir/a.mtx", A), FileFormatError);
}

// ---------------------------------------------------------------------------------------------
// Reading, checked entry by entry

TEST(MatrixMarket, ReadsGeneralMatrix) {
  MatrixMarketInfo info;

  const auto A = read_contents(general + "3 4 4\n1 1 1.5\n2 4 -2e-3\n3 2 7\n3 3 0\n", &info);

  expect_entries(A, 3, 4, {{0, 0, 1.5}, {1, 3, -2e-3}, {2, 1, 7}, {2, 2, 0}});
  EXPECT_EQ(info.format, "coordinate");
  EXPECT_EQ(info.field, "real");
  EXPECT_EQ(info.symmetry, "general");
  EXPECT_EQ(info.nrows, 3);
  EXPECT_EQ(info.ncols, 4);
  EXPECT_EQ(info.entries_in_file, 4);
  EXPECT_EQ(info.stored_entries, 4);
  EXPECT_EQ(info.duplicates_summed, 0);
}

TEST(MatrixMarket, ExpandsSymmetricLowerTriangleToBothTriangles) {
  MatrixMarketInfo info;

  const auto A = read_contents(symmetric + "3 3 4\n1 1 4\n2 1 -1\n3 2 0.5\n3 3 2\n", &info);

  expect_entries(A, 3, 3, {{0, 0, 4}, {0, 1, -1}, {1, 0, -1}, {1, 2, 0.5}, {2, 1, 0.5}, {2, 2, 2}});
  EXPECT_EQ(info.symmetry, "symmetric");
  EXPECT_EQ(info.entries_in_file, 4);
  EXPECT_EQ(info.stored_entries, 6);
}

TEST(MatrixMarket, NegatesMirroredEntriesOfSkewSymmetricMatrix) {
  const auto A = read_contents(
      "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 3\n3 1 -0.25\n");

  expect_entries(A, 3, 3, {{0, 1, -3}, {0, 2, 0.25}, {1, 0, 3}, {2, 0, -0.25}});
}

TEST(MatrixMarket, ReadsPatternEntriesAsOnes) {
  MatrixMarketInfo info;

  const auto A = read_contents(
      "%%MatrixMarket matrix coordinate pattern general\n2 3 3\n1 3\n2 1\n1 1\n", &info);

  expect_entries(A, 2, 3, {{0, 0, 1}, {0, 2, 1}, {1, 0, 1}});
  EXPECT_EQ(info.field, "pattern");
}

TEST(MatrixMarket, ReadsSymmetricPattern) {
  const auto A =
      read_contents("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n");

  expect_entries(A, 2, 2, {{0, 0, 1}, {0, 1, 1}, {1, 0, 1}});
}

TEST(MatrixMarket, ReadsIntegerField) {
  const auto A = read_contents(
      "%%MatrixMarket matrix coordinate integer general\n2 2 3\n1 1 -3\n2 2 +12\n1 2 0\n");

  expect_entries(A, 2, 2, {{0, 0, -3}, {0, 1, 0}, {1, 1, 12}});
}

TEST(MatrixMarket, ReadsDenseArrayInColumnMajorOrder) {
  MatrixMarketInfo info;

  const auto A =
      read_contents("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n0\n5\n6\n", &info);

  expect_entries(A, 2, 3, {{0, 0, 1}, {0, 1, 3}, {0, 2, 5}, {1, 0, 2}, {1, 1, 0}, {1, 2, 6}});
  EXPECT_EQ(info.format, "array");
  EXPECT_EQ(info.entries_in_file, 6);
}

TEST(MatrixMarket, ReadsSymmetricArrayFromItsLowerTriangle) {
  // Column-major lower triangle of [[1 2 3] [2 4 5] [3 5 6]].
  const auto A =
      read_contents("%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n");

  expect_entries(A, 3, 3,
                 {{0, 0, 1},
                  {0, 1, 2},
                  {0, 2, 3},
                  {1, 0, 2},
                  {1, 1, 4},
                  {1, 2, 5},
                  {2, 0, 3},
                  {2, 1, 5},
                  {2, 2, 6}});
}

TEST(MatrixMarket, ReadsSkewSymmetricArrayFromItsStrictLowerTriangle) {
  const auto A = read_contents("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");

  expect_entries(A, 3, 3, {{0, 1, -1}, {0, 2, -2}, {1, 0, 1}, {1, 2, -3}, {2, 0, 2}, {2, 1, 3}});
}

TEST(MatrixMarket, AcceptsCaseInsensitiveBanner) {
  const auto A = read_contents("%%matrixmarket MATRIX Coordinate REAL General\n1 1 1\n1 1 2\n");

  expect_entries(A, 1, 1, {{0, 0, 2}});
}

TEST(MatrixMarket, SkipsCommentsAndBlankLines) {
  const auto A = read_contents(general +
                               "% a comment\n"
                               "\n"
                               "   \t\n"
                               "%another comment\n"
                               "2 2 2\n"
                               "\n"
                               "% between entries\n"
                               "1 2 3\n"
                               "  2   1\t4  \n"
                               "\n");

  expect_entries(A, 2, 2, {{0, 1, 3}, {1, 0, 4}});
}

TEST(MatrixMarket, AcceptsWindowsLineEndingsAndNoFinalNewline) {
  const auto A =
      read_contents("%%MatrixMarket matrix coordinate real general\r\n2 2 2\r\n1 1 1\r\n2 2 2");

  expect_entries(A, 2, 2, {{0, 0, 1}, {1, 1, 2}});
}

TEST(MatrixMarket, SumsDuplicateEntriesAndCountsThem) {
  MatrixMarketInfo info;

  const auto A = read_contents(general + "2 2 5\n1 1 1\n2 2 0.5\n1 1 2\n1 1 4\n2 2 0.25\n", &info);

  expect_entries(A, 2, 2, {{0, 0, 7}, {1, 1, 0.75}});
  EXPECT_EQ(info.entries_in_file, 5);
  EXPECT_EQ(info.stored_entries, 2);
  EXPECT_EQ(info.duplicates_summed, 3);
}

TEST(MatrixMarket, CountsSymmetricDuplicatesOnceNotPerTriangle) {
  MatrixMarketInfo info;

  const auto A = read_contents(symmetric + "2 2 3\n2 1 1\n2 1 2\n1 1 5\n", &info);

  expect_entries(A, 2, 2, {{0, 0, 5}, {0, 1, 3}, {1, 0, 3}});
  EXPECT_EQ(info.duplicates_summed, 1);
  EXPECT_EQ(info.stored_entries, 3);
}

TEST(MatrixMarket, SortsUnsortedColumnsWithinEachRow) {
  const auto A = read_contents(general + "2 4 5\n2 4 1\n1 3 2\n2 1 3\n1 1 4\n2 2 5\n");

  expect_entries(A, 2, 4, {{0, 0, 4}, {0, 2, 2}, {1, 0, 3}, {1, 1, 5}, {1, 3, 1}});
}

TEST(MatrixMarket, KeepsEmptyRows) {
  const auto A = read_contents(general + "4 2 2\n4 2 1\n2 1 2\n");

  expect_entries(A, 4, 2, {{1, 0, 2}, {3, 1, 1}});
  const auto h = to_host(A);
  EXPECT_EQ(h.graph.row_map(0), 0);
  EXPECT_EQ(h.graph.row_map(1), 0);
  EXPECT_EQ(h.graph.row_map(2), 1);
  EXPECT_EQ(h.graph.row_map(3), 1);
  EXPECT_EQ(h.graph.row_map(4), 2);
}

TEST(MatrixMarket, ReadsMatrixWithNoEntries) {
  MatrixMarketInfo info;

  const auto A = read_contents(general + "3 2 0\n", &info);

  expect_entries(A, 3, 2, {});
  EXPECT_EQ(info.stored_entries, 0);
}

TEST(MatrixMarket, LyingEntryCountFailsAtEndOfFileWithoutHugeAllocation) {
  // 10^15 declared entries fit the 64-bit offset type; reserving them would need 24 PB.
  expect_format_error<TestMatrix<double, std::size_t>>(general + "2 2 1000000000000000\n1 1 1\n", 3,
                                                       "file ends after 1 of 1000000000000000");
}

// ---------------------------------------------------------------------------------------------
// Malformed and unsupported files: each throws FileFormatError naming the file and the line

TEST(MatrixMarket, RejectsFileThatCannotBeOpened) {
  const std::string path = ::testing::TempDir() + "syncfree_mm_does_not_exist.mtx";
  std::string message;

  EXPECT_THROW(
      {
        try {
          read_matrix_market<TestMatrix<>>(path);
        } catch (const FileFormatError& e) {
          message = e.what();
          throw;
        }
      },
      FileFormatError);

  EXPECT_EQ(message, path + ": cannot open: " + std::strerror(ENOENT));
}

TEST(MatrixMarket, RejectsEmptyFile) { expect_format_error("", 1, "file is empty"); }

TEST(MatrixMarket, RejectsMissingBanner) {
  expect_format_error("3 3 1\n1 1 1\n", 1, "missing banner");
}

TEST(MatrixMarket, RejectsBannerWithWrongWordCount) {
  expect_format_error("%%MatrixMarket matrix coordinate real\n1 1 1\n1 1 1\n", 1,
                      "malformed banner");
}

TEST(MatrixMarket, RejectsObjectOtherThanMatrix) {
  expect_format_error("%%MatrixMarket vector coordinate real general\n1 1 1\n1 1 1\n", 1,
                      "unsupported object 'vector'");
}

TEST(MatrixMarket, RejectsUnknownFormat) {
  expect_format_error("%%MatrixMarket matrix sparse real general\n1 1 1\n1 1 1\n", 1,
                      "unsupported format 'sparse'");
}

TEST(MatrixMarket, RejectsComplexField) {
  expect_format_error("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", 1,
                      "unsupported field 'complex'");
}

TEST(MatrixMarket, RejectsHermitianSymmetry) {
  expect_format_error("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 1,
                      "unsupported symmetry 'hermitian'");
}

TEST(MatrixMarket, RejectsPatternArray) {
  expect_format_error("%%MatrixMarket matrix array pattern general\n1 1\n1\n", 1,
                      "unsupported combination");
}

TEST(MatrixMarket, RejectsMissingSizeLine) {
  expect_format_error(general + "% only a comment\n\n", 3, "missing size line");
}

TEST(MatrixMarket, RejectsSizeLineWithWrongTokenCount) {
  expect_format_error(general + "% comment\n3 3\n", 3, "size line has 2 tokens, expected 3");
}

TEST(MatrixMarket, RejectsNonNumericSize) {
  expect_format_error(general + "3 x 1\n1 1 1\n", 2, "number of columns 'x' is not an integer");
}

TEST(MatrixMarket, RejectsNegativeSize) {
  expect_format_error(general + "-3 3 1\n1 1 1\n", 2, "number of rows is negative");
}

TEST(MatrixMarket, RejectsNonSquareSymmetricMatrix) {
  expect_format_error(symmetric + "3 4 1\n1 1 1\n", 2, "must be square");
}

TEST(MatrixMarket, RejectsFewerEntriesThanDeclared) {
  expect_format_error(general + "3 3 3\n1 1 1\n2 2 2\n\n", 5, "file ends after 2 of 3");
}

TEST(MatrixMarket, RejectsMoreEntriesThanDeclared) {
  expect_format_error(general + "3 3 1\n1 1 1\n2 2 2\n", 4, "more entries than the 1 declared");
}

TEST(MatrixMarket, RejectsEntryWithMissingValue) {
  expect_format_error(general + "3 3 2\n1 1 1\n2 2\n", 4, "entry has 2 tokens, expected 3");
}

TEST(MatrixMarket, RejectsPatternEntryWithMissingColumn) {
  expect_format_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n2\n", 3,
                      "entry has 1 token, expected 2");
}

TEST(MatrixMarket, RejectsTrailingGarbage) {
  expect_format_error(general + "3 3 1\n1 1 1 junk\n", 3, "trailing text 'junk'");
}

TEST(MatrixMarket, RejectsValueOnPatternEntry) {
  expect_format_error("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 5\n", 3,
                      "trailing text '5'");
}

TEST(MatrixMarket, RejectsNonNumericIndex) {
  expect_format_error(general + "3 3 1\n1 b 1\n", 3, "column index 'b' is not an integer");
}

TEST(MatrixMarket, RejectsFractionalIndex) {
  expect_format_error(general + "3 3 1\n1.0 1 1\n", 3, "row index '1.0' is not an integer");
}

TEST(MatrixMarket, RejectsNonNumericValue) {
  expect_format_error(general + "3 3 1\n1 1 1.5x\n", 3, "value '1.5x' is not a number");
}

TEST(MatrixMarket, RejectsIndexZero) {
  expect_format_error(general + "3 3 1\n0 1 1\n", 3, "row index 0 is out of range (1 to 3)");
}

TEST(MatrixMarket, RejectsIndexAboveBound) {
  expect_format_error(general + "3 5 2\n1 1 1\n2 6 1\n", 4,
                      "column index 6 is out of range (1 to 5)");
}

TEST(MatrixMarket, RejectsNaNValue) {
  expect_format_error(general + "3 3 2\n1 1 1\n2 2 nan\n", 4, "value 'nan' is not finite");
}

TEST(MatrixMarket, RejectsInfiniteValue) {
  expect_format_error(general + "3 3 1\n1 1 -inf\n", 3, "value '-inf' is not finite");
}

TEST(MatrixMarket, RejectsValueThatOverflowsDouble) {
  expect_format_error(general + "3 3 1\n1 1 1e400\n", 3, "value '1e400' is not finite");
}

TEST(MatrixMarket, RejectsValueThatOverflowsFloat) {
  expect_format_error<TestMatrix<float>>(general + "3 3 1\n1 1 1e39\n", 3,
                                         "value '1e39' does not fit the 32-bit scalar type");
}

TEST(MatrixMarket, RejectsDuplicatesThatSumToInfinity) {
  expect_format_error(general + "1 1 2\n1 1 1e308\n1 1 1e308\n", 4,
                      "duplicate entries at (1, 1) sum to a value that does not fit");
}

TEST(MatrixMarket, RejectsNonIntegerInIntegerFile) {
  expect_format_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 2.5\n", 3,
                      "value '2.5' is not an integer");
}

TEST(MatrixMarket, RejectsEntryAboveDiagonalInSymmetricFile) {
  expect_format_error(symmetric + "3 3 2\n1 1 1\n1 3 2\n", 4, "entry (1, 3) is above the diagonal");
}

TEST(MatrixMarket, RejectsDiagonalEntryInSkewSymmetricFile) {
  expect_format_error("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1\n2 2 0\n",
                      4, "entry (2, 2) is on the diagonal");
}

TEST(MatrixMarket, RejectsRowCountThatOverflowsIntOrdinal) {
  expect_format_error(general + "3000000000 2 0\n", 2,
                      "3000000000 rows do not fit the 32-bit ordinal type");
}

TEST(MatrixMarket, RejectsColumnCountThatOverflowsIntOrdinal) {
  expect_format_error(general + "2 2147483648 0\n", 2,
                      "2147483648 columns do not fit the 32-bit ordinal type");
}

TEST(MatrixMarket, RejectsEntryCountThatOverflowsIntOffset) {
  expect_format_error(general + "2 2 3000000000\n1 1 1\n", 2,
                      "3000000000 entries do not fit the 32-bit offset type");
}

TEST(MatrixMarket, RejectsSymmetricExpansionThatOverflowsOffsetType) {
  // The parser checked against a 3-entry offset type: 2 file entries expand to 3 + 1.
  impl::MatrixMarketLimits limits = impl::matrix_market_limits<double, int, int>(false);
  limits.max_entries = 3;
  limits.offset_bits = 2;
  const std::string path = write_temp(symmetric + "3 3 2\n2 1 1\n3 2 1\n");
  std::string message;

  EXPECT_THROW(
      {
        try {
          impl::parse_matrix_market(path, limits);
        } catch (const FileFormatError& e) {
          message = e.what();
          throw;
        }
      },
      FileFormatError);

  EXPECT_EQ(message,
            path + ":2: 4 entries after symmetric expansion do not fit the 2-bit offset type");
}

TEST(MatrixMarket, RejectsVectorFileWithMoreThanOneColumn) {
  expect_vector_format_error("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 2,
                             "a vector file must have 1 column");
}

TEST(MatrixMarket, RejectsVectorWithTooFewValues) {
  expect_vector_format_error("%%MatrixMarket matrix array real general\n3 1\n1\n2\n", 4,
                             "file ends after 2 of 3");
}

TEST(MatrixMarket, RejectsVectorWithTooManyValues) {
  expect_vector_format_error("%%MatrixMarket matrix array real general\n2 1\n1\n2\n3\n", 5,
                             "more entries than the 2 declared");
}

TEST(MatrixMarket, RejectsVectorArrayLineWithTwoValues) {
  expect_vector_format_error("%%MatrixMarket matrix array real general\n2 1\n1 2\n", 3,
                             "trailing text '2'");
}

}  // namespace
}  // namespace syncfree::test
